"""ReportLab's platypus (the booklets' page layout), imported through the ReportLab adapter.

The adapter imports it without compiling three patterns that booklets never use
(over 50 ms of a clean build's start-up); import platypus names from here.
"""

from __future__ import annotations

from pnp.adapters import reportlab as rl

rl.import_platypus()

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

__all__ = [
    "CondPageBreak",
    "Flowable",
    "KeepTogether",
    "ListFlowable",
    "ListItem",
    "PageBreak",
    "Paragraph",
    "SimpleDocTemplate",
    "Spacer",
    "Table",
    "TableStyle",
]
