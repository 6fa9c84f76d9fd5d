"""ReportLab's platypus (the booklets' page layout), imported without one pattern compile it makes up front.

`reportlab.platypus.paragraph` compiles, as it is imported, a case-insensitive
pattern for web addresses over all of Unicode: about 50 ms, a twentieth of a
clean build, spent before any worker starts. Only its hyphenation of long
addresses reads that pattern, and booklets do not hyphenate. So while platypus
is imported here, that one pattern (recognised by its opening) becomes a
stand-in that compiles on first use; every other pattern compiles as usual and
`re.compile` is itself again afterwards. Import platypus names from here.
"""
from __future__ import annotations

import re
import sys
from typing import Any

_URL_PATTERN_OPENING = "(^(?:[a-z0-9\\.\\-\\+]*)://)"


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
        if isinstance(pattern, str) and pattern.startswith(_URL_PATTERN_OPENING):
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
