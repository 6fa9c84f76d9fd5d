"""ReportLab's platypus (the booklets' page layout), imported without three pattern compiles it makes up front.

Importing platypus compiles, among many patterns it does use, three that booklets
never reach: `reportlab.platypus.paragraph`'s case-insensitive pattern for web
addresses over all of Unicode (about 50 ms; read only when hyphenating long
addresses, and booklets do not hyphenate), `reportlab.lib.textsplit`'s pattern
for `cjkwrap` (5 ms; paragraphs use its other functions) and
`reportlab.lib.PyFontify`'s Python-keyword pattern (1 ms; for preformatted
Python source): together over 50 ms of a clean build's start-up, before any
worker starts. So while platypus is imported here, those patterns (recognised by
their opening) become stand-ins that compile on first use; every other pattern
compiles as usual and `re.compile` is itself again afterwards. Import platypus
names from here.
"""
from __future__ import annotations

import re
import sys
from typing import Any

_LATER = ("(^(?:[a-z0-9\\.\\-\\+]*)://)",  # paragraph.uri_pat
          "([\u2e80-\uffff])",  # textsplit.rx (cjkwrap)
          "#[^\\n]*|(^|[^a-zA-Z0-9_.\\\"'])(as|")  # PyFontify.matchRE


class _OnFirstUse:
    """A compiled pattern in waiting: compiled the first time any attribute is asked for."""

    def __init__(self, pattern: str, flags: int) -> None:
        self._args = (pattern, flags)
        self._compiled: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> Any:
        if self._compiled is None:
            self._compiled = re.compile(*self._args)
        return getattr(self._compiled, name)


def _import_platypus() -> None:
    if "reportlab.platypus.paragraph" in sys.modules:
        return
    compile_now = re.compile

    def compile_later(pattern: Any, flags: int = 0) -> Any:
        if isinstance(pattern, str) and pattern.startswith(_LATER):
            return _OnFirstUse(pattern, flags)
        return compile_now(pattern, flags)

    re.compile = compile_later  # type: ignore[assignment]
    try:
        import reportlab.platypus  # noqa: F401
    finally:
        re.compile = compile_now


_import_platypus()

from reportlab.platypus import (  # noqa: E402
    CondPageBreak,
    Flowable,
    KeepTogether,
    ListFlowable,
    ListItem,
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

__all__ = ["CondPageBreak", "Flowable", "KeepTogether", "ListFlowable", "ListItem", "PageBreak", "Paragraph",
           "SimpleDocTemplate", "Spacer", "Table", "TableStyle"]
