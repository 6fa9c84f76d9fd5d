"""Where a card side's problem is fixed: the spreadsheet cell a value came from, or the design.

A card read from a CSV or XLSX sheet carries its file, row and the column of each
field. When an element or slot of such a card fails, the problem is put at the
cell whose value the failing element printed (the longest such value: a title
is found before a number inside it), with the design element named after the
message; a value no cell holds (a template's own words) leaves the problem at
the design, its file and line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pnp.data.format.catalog import FREE_SLOTS
from pnp.data.format.elements import Element
from pnp.data.format.errors import Problem
from pnp.data.format.model import CardType, Design, Game


@dataclass(frozen=True)
class Located:
    """Problems of one side, each at its source."""

    game: Game
    component: str
    design: Design
    where: str  # faces.KEY or backs.KEY
    card: CardType | None

    @property
    def label(self) -> str:
        return f"card {self.game.code(self.card)}" if self.card else f"back of {self.component}"

    def at_design(self, field: str, message: str) -> Problem:
        """A problem at the design's own line."""
        return Problem(self.game.where, self.design.line, field, f"{self.label}: {message}")

    def slot(self, slot: str, message: str, value: Any) -> Problem:
        """A slot that did not render or names what is not there: at the cell it printed, else the design."""
        field = f"{self.where}.slots.{slot}"
        return self._at(_strings(value), field, self.design.line, message) or self.at_design(field, message)

    def element(self, line: int, field: str, message: str, el: Element | None) -> Problem:
        """An element that does not draw: at the cell it printed; else a custom design's element at its
        own line, a built-in layout's at the design."""
        own = self.design.layout in FREE_SLOTS
        where = f"{self.where}.{field}" if own else self.where
        at_line = line if own else self.design.line
        found = self._at(_strings(el) if el is not None else [], where, at_line, message)
        return found or Problem(self.game.where, at_line, where, f"{self.label}: {message}")

    def _at(self, printed: list[str], field: str, line: int | None, message: str) -> Problem | None:
        card = self.card
        cell = cell_of(card, printed) if card is not None else None
        if cell is None or card is None or card.source is None:
            return None
        file, row, columns = card.source
        return Problem(
            file, row, columns[cell], f"{self.label}: {message} (drawn by {field}, {self.game.where}:{line})"
        )


def cell_of(card: CardType, printed: list[str]) -> str | None:
    """The field of the card's sheet row whose value the element printed (longest first), or None."""
    if card.source is None or not printed:
        return None
    _, _, columns = card.source
    found = []
    for name in columns:
        value = _value(card, name).strip()
        if value and any(value == text or (len(value) > 1 and value in text) for text in printed):
            found.append((len(value), name))
    return max(found)[1] if found else None


def _value(card: CardType, name: str) -> str:
    value = getattr(card, name) if name in ("key", "name", "text") else card.values.get(name, "")
    return str(value)


def _strings(value: Any) -> list[str]:
    """The texts an element or slot value prints: text, symbol, file, a picture's name; a group's too."""
    if value is None:
        return []
    if isinstance(value, Element):
        out = [str(v) for v in (value.text, value.symbol, value.file) if v not in (None, "")]
        name = getattr(value.picture, "name", value.picture)
        out += [str(name)] if name not in (None, "") else []
        return out + [t for child in value.elements for t in _strings(child)]
    if isinstance(value, dict):
        return [str(v) for v in value.values() if isinstance(v, str)]
    return [str(getattr(value, "name", value))]
