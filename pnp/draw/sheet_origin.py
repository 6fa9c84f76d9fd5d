"""Pointing a card's drawing problem at the spreadsheet cell it came from.

A card read from a CSV or XLSX sheet that does not draw (text too long for its
box, an unknown {icon}, a glyph its font lacks) is reported at the sheet's row
and the column of the field at fault, with the design element that drew it
named after the message, so the fix lands where the card is written.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from pnp.data.format.errors import Problem
from pnp.data.format.model import CardType, Design

_CARD_FIELD = re.compile(r"\bcard\s*(?:\.\s*([A-Za-z_]\w*)|\[\s*['\"]([^'\"]+)['\"]\s*\])")
_QUOTED = re.compile(r"'([^']+)'|\"([^\"]+)\"")


def sheet_problem(
    card: CardType | None, design: Design, path: str, message: str, drawn_by: str
) -> Problem | None:
    """The problem at the card's sheet row and column, or None when the card is not from a sheet or
    the message quotes no value of its cells (then the design is at fault). `path` is the failing
    element's field path (e.g. elements[3].text)."""
    if card is None or card.source is None:
        return None
    file, row, columns = card.source
    texts = _texts(_element(design, path)) + _texts(design.slots)
    named = [a or b for t in texts for a, b in _CARD_FIELD.findall(t)]
    candidates = [f for f in columns if f in named] or list(columns)
    quoted = [(a or b).rstrip(".") for a, b in _QUOTED.findall(message)]
    hits = [f for f in columns if any(q in _value(card, f) for q in quoted)]
    ranked = [f for f in hits if f in candidates] + hits  # a value the message quotes: the cell is at fault
    pick = ranked[0] if ranked else None
    if pick is None:
        return None
    return Problem(file, row, columns[pick], f"{message} (drawn by {drawn_by})")


def _value(card: CardType, name: str) -> str:
    value = getattr(card, name) if name in ("key", "name", "text") else card.values.get(name, "")
    return str(value)


def _element(design: Design, path: str) -> Any:
    """The element a field path such as `elements[3].elements[1].text` names, or None."""
    node: Any = design
    for name, index in re.findall(r"(\w+)\[(\d+)\]", path):
        items = getattr(node, name, None)
        if not isinstance(items, tuple) or int(index) >= len(items):
            return node if node is not design else None
        node = items[int(index)]
    return None if node is design else node


def _texts(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return [t for f in dataclasses.fields(value) for t in _texts(getattr(value, f.name))]
    if isinstance(value, dict):
        return [t for v in value.values() for t in _texts(v)]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in _texts(v)]
    return []
