"""The Nasty Hits table: what a hit of a given damage does, and drawing for one."""
from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Iterator, Mapping

from pnp.engines.cards import Card
from pnp.engines.combat import DeckExhausted


@dataclass(frozen=True)
class NastyHitEffect:
    """One row of the Nasty Hits table; `low`/`high` bound the modified card value (None = open)."""

    band: str
    low: int | None
    high: int | None
    name: str
    description: str

    def covers(self, value: int) -> bool:
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)


def _effects() -> Mapping[str, NastyHitEffect]:
    rows = [
        ("\u22640", None, 0, "Spawny Get",
         "A freak of luck lets her slip the blow entirely; this attack deals her no damage."),
        ("1", 1, 1, "Narrow Escape",
         "She dodges most of it and takes only half this attack's damage, rounded up."),
        ("2", 2, 2, "Dazed",
         "She does nothing on her next turn; if attacked she may defend, not as Posed and one card short."),
        ("3", 3, 3, "Clipped Wings",
         "Her Move, both height and distance, is halved and she cannot Pounce until a Kiss mends one such wound."),
        ("4", 4, 4, "Grievous Bodily Harm",
         "She draws one card fewer in every attack, defence and ranged fight until a Kiss mends one such wound."),
        ("5", 5, 5, "Brains Rattled",
         "She permanently loses a Twinkle point, or takes one extra damage if she has none left."),
        ("6", 6, 6, "Panicked",
         "From now on she acts at the first call of her Order number; a later Confused result cancels both."),
        ("7", 7, 7, "Confused",
         "From now on she acts at the last call of her Order number; a later Panicked result cancels both."),
        ("8", 8, 8, "Berserk",
         "All her Live turns to Kill, other frights and confusions end, and she charges the nearest fairy, "
         "friend or foe (or a corpse, to eat it, fighting off anyone who interferes), until the meal is finished."),
        ("9", 9, 9, "Bleeder",
         "At the start of each turn she takes 1 damage for every Trump among her Order cards; a Kiss mends one."),
        ("10", 10, 10, "Gusher",
         "She suffers 1 damage as each of her turns begins, until a Kiss mends one such wound."),
        # The source table gives 10 to Gusher and also "10 or more" to the
        # fatal result; the overlap is settled as 10 = Gusher, 11 and up = dead.
        ("\u226511", 11, None, "Head Off",
         "Her head comes clean off: she is dead, and no Kiss can put it back."),
    ]
    return MappingProxyType({band: NastyHitEffect(band, lo, hi, name, text) for band, lo, hi, name, text in rows})


NASTY_HITS: Mapping[str, NastyHitEffect] = _effects()


def nasty_hit_effect(value: int) -> NastyHitEffect:
    """The Nasty Hits table row for a modified card value."""
    for effect in NASTY_HITS.values():
        if effect.covers(value):
            return effect
    raise AssertionError("the Nasty Hits bands cover every integer")  # pragma: no cover


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
        return self.effect is not None and self.effect.low == 11


def nasty_hit(damage: int, draw: Iterator[Card]) -> NastyHitResult:
    """Draw for a Nasty Hit after a blow of `damage` (at least 3) points.

    A Joker at any point ends the draw: damage is halved (rounded up) and no
    effect applies.  Trumps are kept until a Numbered card appears; its value
    gains (damage - 3), +1 per black Trump and -1 per red Trump kept.
    `damage_taken` applies the table rows that change this blow's damage
    (Spawny Get: none; Narrow Escape: half, rounded up); the extra point of
    Brains Rattled depends on Twinkle points and is not folded in.
    """
    if damage < 3:
        raise ValueError("a Nasty Hit needs at least 3 damage from one attack")
    cards: list[Card] = []
    black = red = 0
    for card in draw:
        cards.append(card)
        if card.is_joker:
            return NastyHitResult(damage, tuple(cards), True, None, black, red, None, None, (damage + 1) // 2)
        if card.is_trump:
            if card.colour == "black":
                black += 1
            else:
                red += 1
            continue
        value = (card.value or 0) + (damage - 3) + black - red
        effect = nasty_hit_effect(value)
        taken = 0 if effect.name == "Spawny Get" else (damage + 1) // 2 if effect.name == "Narrow Escape" else damage
        return NastyHitResult(damage, tuple(cards), False, card, black, red, value, effect, taken)
    raise DeckExhausted("the deck ran out during a Nasty Hits draw")
