"""The Nasty Hits table and drawing for one; the table itself comes in as data (`NastyTable`).

`pnp.data.format.facts` builds the table from the game's database (`facts.nasty_hits`),
so the reference cards, the booklet and this engine read the same rows.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from pnp.engines.cards import Card
from pnp.engines.combat import DeckExhausted

Damage = Literal["none", "full", "half-up", "half-down"]


def apply_damage(damage: int, how: str) -> int:
    """A blow's damage after a table row or a Joker: none, all of it, or half rounded up/down."""
    if how == "none":
        return 0
    if how == "full":
        return damage
    if how == "half-up":
        return (damage + 1) // 2
    if how == "half-down":
        return damage // 2
    raise ValueError(f"unknown damage rule {how!r}; use none, full, half-up or half-down")


@dataclass(frozen=True)
class NastyHitEffect:
    """One row of the Nasty Hits table; `low`/`high` bound the modified card value (None = open)."""

    band: str
    low: int | None
    high: int | None
    name: str
    description: str
    damage: str = "full"
    fatal: bool = False

    def covers(self, value: int) -> bool:
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)


@dataclass(frozen=True)
class NastyTable:
    """The whole table and the draw: rows, the damage that calls for a draw, what a Joker does,
    and how much each point of damage above the threshold and each black or red Trump adds."""

    rows: tuple[NastyHitEffect, ...]
    threshold: int
    joker_damage: str
    per_damage: int = 1
    black_trump: int = 1
    red_trump: int = -1

    def __post_init__(self) -> None:
        apply_damage(0, self.joker_damage)
        for row in self.rows:
            apply_damage(0, row.damage)

    def effect(self, value: int) -> NastyHitEffect:
        """The row for a modified card value (the table must cover it; `pnp check` proves it does)."""
        for row in self.rows:
            if row.covers(value):
                return row
        raise ValueError(f"the Nasty Hits table has no row for {value}")


@dataclass(frozen=True)
class NastyHitResult:
    """The outcome of a Nasty Hits draw for a blow of `damage` points."""

    damage: int
    cards: tuple[Card, ...]
    joker: bool
    numbered: Card | None
    black_trumps: int
    red_trumps: int
    value: int | None
    effect: NastyHitEffect | None
    damage_taken: int

    @property
    def is_nasty(self) -> bool:
        """False when a Joker cancelled the Nasty Hit."""
        return self.effect is not None

    @property
    def fatal(self) -> bool:
        return self.effect is not None and self.effect.fatal


def nasty_hit(damage: int, draw: Iterator[Card], table: NastyTable) -> NastyHitResult:
    """Draw for a Nasty Hit after a blow of `damage` points (at least the table's threshold).

    A Joker at any point ends the draw: the damage follows the table's Joker
    rule and no effect applies. Trumps are kept until a Numbered card appears;
    its value gains `per_damage` for each point above the threshold and the
    table's amount per black and per red Trump kept. `damage_taken` applies
    the row's damage rule (none, full, half); the extra point of Brains
    Rattled depends on Twinkle points and is not folded in.
    """
    if damage < table.threshold:
        raise ValueError(f"a Nasty Hit needs at least {table.threshold} damage from one attack")
    cards: list[Card] = []
    black = red = 0
    for card in draw:
        cards.append(card)
        if card.is_joker:
            taken = apply_damage(damage, table.joker_damage)
            return NastyHitResult(damage, tuple(cards), True, None, black, red, None, None, taken)
        if card.is_trump:
            if card.colour == "black":
                black += 1
            else:
                red += 1
            continue
        value = (
            (card.value or 0)
            + table.per_damage * (damage - table.threshold)
            + table.black_trump * black
            + table.red_trump * red
        )
        effect = table.effect(value)
        return NastyHitResult(
            damage, tuple(cards), False, card, black, red, value, effect, apply_damage(damage, effect.damage)
        )
    raise DeckExhausted("the deck ran out during a Nasty Hits draw")
