"""What rule expressions and booklet templates ask of a component's cards: one vocabulary, one home.

A rule's `expr` sees its own component as `deck`; a booklet sees `deck('key')`
for any component, and `count`, `kinds`, `sum`, `values` and `distinct` as
functions that take the component's key first. The names mean the same in both:

- `count(**where)`: cards, copies included;
- `kinds(**where)`: card types (a card with copies counts once);
- `sum(field, **where)`: a number field added up over the cards, copies included;
- `values(field, **where)`: the different values of a field, sorted;
- `distinct(field, **where)`: how many different values (ignoring case and spaces);
- `linked(field, **where)`: cards whose list `field` names at least one card;
- `min_count(field, **where)` / `max_count(field, **where)`: the rarest / commonest value's cards;
- `fits(field, per, **where)`: how many whole sets of `per` (value -> cards each set needs) the cards make.

`where` filters by fields: `colour='red'`, or a list of accepted values.
A field the component does not have is an error that names the fields it has.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from pnp.data.format.model import CardType, Component

BUILT_IN_FIELDS = ("key", "name", "copies", "text")


def norm(value: Any) -> str:
    """A value as rules compare it: text, ignoring case and surrounding spaces."""
    return str(value).strip().lower()


def matches(card: CardType, where: dict[str, Any]) -> bool:
    """Whether a card's fields match a `where` filter (a value or a list of accepted values)."""
    for name, want in where.items():
        have = card.get(name)
        options = want if isinstance(want, (list, tuple)) else [want]
        if norm(have) not in {norm(o) for o in options}:
            return False
    return True


class Deck:
    """A component's cards, read-only, as expressions and templates query them."""

    def __init__(self, comp: Component):
        self._comp = comp

    def _cards(self, where: dict[str, Any], *fields: str) -> list[CardType]:
        known = self._comp.fields
        for name in (*where, *fields):
            if known and name not in known and name not in BUILT_IN_FIELDS:
                raise KeyError(
                    f"component {self._comp.key!r} has no field {name!r}; fields: {', '.join(known)}"
                )
        return [c for c in self._comp.cards if matches(c, where) and c.copies]

    def _tally(self, field: str, where: dict[str, Any]) -> Counter[str]:
        counts: Counter[str] = Counter()
        for c in self._cards(where, field):
            counts[norm(c.get(field))] += c.copies
        return counts

    def count(self, **where: Any) -> int:
        return _copies(self._cards(where))

    def kinds(self, **where: Any) -> int:
        return len(self._cards(where))

    def sum(self, field: str, **where: Any) -> int | float:
        return sum((c.get(field) or 0) * c.copies for c in self._cards(where, field))

    def values(self, field: str, **where: Any) -> list[Any]:
        found = {c.get(field) for c in self._cards(where, field)}
        return sorted((v for v in found if v is not None), key=lambda v: (str(type(v)), v))

    def distinct(self, field: str, **where: Any) -> int:
        return len(self._tally(field, where))

    def linked(self, field: str, **where: Any) -> int:
        return _copies(c for c in self._cards(where, field) if c.get(field))

    def min_count(self, field: str, **where: Any) -> int:
        return min(self._tally(field, where).values(), default=0)

    def max_count(self, field: str, **where: Any) -> int:
        return max(self._tally(field, where).values(), default=0)

    def fits(self, field: str, per: dict[Any, int], **where: Any) -> int:
        counts = self._tally(field, where)
        return min((counts.get(norm(v), 0) // int(n) for v, n in per.items() if int(n) > 0), default=0)


def _copies(cards: Iterable[CardType]) -> int:
    return sum(c.copies for c in cards)
