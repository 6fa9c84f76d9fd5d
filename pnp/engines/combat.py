"""Fairy Meat alternative combat: playing cards, one-attack resolution, Nasty Hits, Monte Carlo.

The engine resolves a single attack from cards and choices that are already
made; `choose_play` is a small, explicit strategy used by `simulate` to
estimate how a hand of Kill+1 cards fares against a hand of Live cards.

Rule interpretations (the written rules leave these open):

* Equal final values are a draw: no points, no damage, no bonus.
* A cheat's mismatched trumps are applied by the opponent at +/-1 each to
  both Numbered values, always in the direction that helps the opponent
  (raise its own value and lower the cheat's when highest wins, the reverse
  when lowest wins).  That one choice maximises the opponent's margin, so
  it both makes a win most likely and makes the win worth most.
* The Ace of Spades multiplies damage only (not a defender's bonus), and
  only when it is among the revealed trumps of either side.
* Under the damage-level variant only the damage dealt to a losing defender
  changes; a winning defender still earns the halved-difference points.
* Every number of the rules (the damage steps, the Ace of Spades multiplier,
  the Nasty Hit threshold) comes in as a `CombatRules`, built from the game's
  database by `pnp.data.format.facts`; this module types none of them.
* Jokers take no part in combat: they cannot be played and are set aside
  when drawn while looking for a Numbered card.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Literal

from pnp.engines.cards import Card

Mode = Literal["add", "subtract"]
Role = Literal["attacker", "defender"]
Winner = Literal["attacker", "defender", "draw"]
FaceDown = Literal["best", "reveal", "hide"]


@dataclass(frozen=True)
class CombatRules:
    """The numbers of the alternative combat, read from the game's database.

    `damage_steps` are the upper bounds of the rulebook-level damage table
    (a difference up to the first step deals 1, up to the second 2, and so
    on; beyond the last, one more); `ace_multiplier` multiplies an attacker's
    damage when the Ace of Spades is revealed; a blow of `nasty_threshold` or
    more damage calls for a Nasty Hits draw; each Trump moves a value by
    `trump_step`; the points are the difference divided by `points_divisor`,
    rounded up.
    """

    damage_steps: tuple[int, ...]
    ace_multiplier: int
    nasty_threshold: int
    trump_step: int = 1
    points_divisor: int = 2

    def __post_init__(self) -> None:
        steps = tuple(int(s) for s in self.damage_steps)
        if not steps or any(b <= a for a, b in zip(steps, steps[1:])) or steps[0] < 1:
            raise ValueError(f"damage steps must rise from 1 or more, found {list(self.damage_steps)}")
        object.__setattr__(self, "damage_steps", steps)
        if self.trump_step < 1 or self.points_divisor < 1:
            raise ValueError(
                f"a Trump's step and the points divisor must be 1 or more, found "
                f"{self.trump_step} and {self.points_divisor}"
            )


@dataclass(frozen=True)
class Trump:
    """A trump as it counts in combat: a real Trump card, or a wild trump point of a declared colour."""

    colour: str
    card: Card | None = None

    def __post_init__(self) -> None:
        if self.colour not in ("red", "black"):
            raise ValueError(f"trump colour must be 'red' or 'black', not {self.colour!r}")
        if self.card is not None and (not self.card.is_trump or self.card.colour != self.colour):
            raise ValueError(f"{self.card} is not a {self.colour} Trump card")

    @classmethod
    def of(cls, card: Card) -> Trump:
        """Wrap a Trump card."""
        if not card.is_trump:
            raise ValueError(f"{card} is not a Trump card")
        return cls(card.colour or "", card)

    @classmethod
    def point(cls, colour: str) -> Trump:
        """A wild trump point (won in an earlier defence) declared as `colour`."""
        return cls(colour, None)

    @property
    def is_point(self) -> bool:
        return self.card is None

    @property
    def is_ace_of_spades(self) -> bool:
        return self.card is not None and self.card.is_ace_of_spades

    def __str__(self) -> str:
        return str(self.card) if self.card is not None else f"wild {self.colour} point"


def as_trumps(items: Iterable[Trump | Card]) -> tuple[Trump, ...]:
    return tuple(t if isinstance(t, Trump) else Trump.of(t) for t in items)


@dataclass(frozen=True)
class SidePlay:
    """What one fairy puts down in an attack.

    `trumps` is the set revealed together before the Numbered cards (Trump
    cards of a single colour, or wild trump points).  `wild` holds trumps that
    came in through the Wild Trump route (a Trump played in place of a missing
    Numbered card, plus any Trumps drawn before a Numbered card turned up);
    these may be of mixed colours and are always applied.
    """

    numbered: Card
    mode: Mode = "add"
    trumps: tuple[Trump, ...] = ()
    wild: tuple[Trump, ...] = ()

    def __post_init__(self) -> None:
        if not self.numbered.is_numbered:
            raise ValueError(f"{self.numbered} is not a Numbered card")
        if self.mode not in ("add", "subtract"):
            raise ValueError(f"mode must be 'add' or 'subtract', not {self.mode!r}")
        object.__setattr__(self, "trumps", as_trumps(self.trumps))
        object.__setattr__(self, "wild", as_trumps(self.wild))
        if len({t.colour for t in self.trumps}) > 1:
            raise ValueError("the trumps revealed together must share one colour")

    @property
    def can_withhold(self) -> bool:
        """True when some revealed-set trumps are face-down cards (wild points are only declared)."""
        return any(not t.is_point for t in self.trumps)


def _applied(side: SidePlay, reveal: bool) -> tuple[Trump, ...]:
    if reveal:
        return side.trumps + side.wild
    # Withheld cards stay face down; declared wild points still count.
    return tuple(t for t in side.trumps if t.is_point) + side.wild


@dataclass(frozen=True)
class AttackResult:
    """The outcome of one resolved attack."""

    attacker_value: int
    defender_value: int
    highest_wins: bool
    winner: Winner
    difference: int
    points: int
    damage: int
    bonus: int
    attacker_cheated: bool
    defender_cheated: bool
    ace_of_spades: bool
    ace_doubled: bool
    attacker_revealed: bool = True
    defender_revealed: bool = True

    @property
    def cheaters(self) -> tuple[str, ...]:
        """Names of the sides caught with trumps that did not match their Numbered card."""
        return tuple(
            n for n, c in (("attacker", self.attacker_cheated), ("defender", self.defender_cheated)) if c
        )

    @property
    def cheated(self) -> bool:
        return self.attacker_cheated or self.defender_cheated

    nasty_hit: bool = False


def points_for(difference: int, divisor: int = 2) -> int:
    """Points scored: the difference divided by `divisor` (half, in the rules), rounded up."""
    return (abs(difference) + divisor - 1) // divisor


def damage_level(difference: int, rules: CombatRules) -> int:
    """Damage under the rulebook-levels variant: 1 up to the first step, 2 up to the next... (0 for no difference)."""
    d = abs(difference)
    if d == 0:
        return 0
    for level, bound in enumerate(rules.damage_steps, 1):
        if d <= bound:
            return level
    return len(rules.damage_steps) + 1


def _own_and_cheat(side: SidePlay, applied: tuple[Trump, ...]) -> tuple[int, int]:
    colour = side.numbered.colour
    matching = sum(1 for t in applied if t.colour == colour)
    sign = 1 if side.mode == "add" else -1
    return sign * matching, len(applied) - matching


def _resolve(
    attacker: SidePlay,
    defender: SidePlay,
    a_reveal: bool,
    d_reveal: bool,
    damage_levels: bool,
    rules: CombatRules,
) -> AttackResult:
    a_trumps, d_trumps = _applied(attacker, a_reveal), _applied(defender, d_reveal)
    a_own, a_cheat = _own_and_cheat(attacker, a_trumps)
    d_own, d_cheat = _own_and_cheat(defender, d_trumps)
    a_own, d_own = a_own * rules.trump_step, d_own * rules.trump_step
    highest = attacker.numbered.colour == defender.numbered.colour
    a_val = (attacker.numbered.value or 0) + a_own
    d_val = (defender.numbered.value or 0) + d_own
    # The opponent of a cheat pushes both values its own way by a step per trump:
    # up for itself and down for the cheat when highest wins, mirrored otherwise.
    step = rules.trump_step if highest else -rules.trump_step
    d_val += step * a_cheat
    a_val -= step * a_cheat
    a_val += step * d_cheat
    d_val -= step * d_cheat
    diff = abs(a_val - d_val)
    if a_val == d_val:
        winner: Winner = "draw"
    elif (a_val > d_val) == highest:
        winner = "attacker"
    else:
        winner = "defender"
    points = points_for(diff, rules.points_divisor) if winner != "draw" else 0
    ace = any(t.is_ace_of_spades for t in a_trumps + d_trumps)
    damage = bonus = 0
    if winner == "attacker":
        damage = damage_level(diff, rules) if damage_levels else points
        if ace:
            damage *= rules.ace_multiplier
    elif winner == "defender":
        bonus = points
    return AttackResult(
        attacker_value=a_val,
        defender_value=d_val,
        highest_wins=highest,
        winner=winner,
        difference=diff,
        points=points,
        damage=damage,
        bonus=bonus,
        attacker_cheated=a_cheat > 0,
        defender_cheated=d_cheat > 0,
        ace_of_spades=ace,
        ace_doubled=ace and winner == "attacker",
        attacker_revealed=a_reveal,
        defender_revealed=d_reveal,
        nasty_hit=damage >= rules.nasty_threshold,
    )


def _attacker_utility(r: AttackResult) -> int:
    """Zero-sum score from the attacker's side: damage dealt, or minus the bonus conceded."""
    return r.damage if r.winner == "attacker" else -r.bonus


def resolve_attack(
    attacker: SidePlay,
    defender: SidePlay,
    *,
    rules: CombatRules,
    damage_levels: bool = False,
    face_down: FaceDown = "best",
) -> AttackResult:
    """Resolve one attack of the alternative combat system under `rules`.

    When one side revealed no trumps at all, the other may leave its own
    face-down Trump cards unused after the Numbered cards are shown. That is
    the player's choice, given as `face_down`: "reveal" uses them, "hide"
    keeps them out of play (they cannot get anyone caught), and "best" makes
    whichever choice scores better for that side (damage dealt or bonus won,
    net of what it concedes), keeping them hidden on a tie. Wild-route trumps
    and declared wild points are always used.
    """
    if face_down not in ("best", "reveal", "hide"):
        raise ValueError(f"face_down must be 'best', 'reveal' or 'hide', not {face_down!r}")
    if not defender.trumps and attacker.can_withhold:
        hidden = _resolve(attacker, defender, False, True, damage_levels, rules)
        shown = _resolve(attacker, defender, True, True, damage_levels, rules)
        if face_down == "best":
            return shown if _attacker_utility(shown) > _attacker_utility(hidden) else hidden
        return shown if face_down == "reveal" else hidden
    if not attacker.trumps and defender.can_withhold:
        hidden = _resolve(attacker, defender, True, False, damage_levels, rules)
        shown = _resolve(attacker, defender, True, True, damage_levels, rules)
        if face_down == "best":
            return shown if _attacker_utility(shown) < _attacker_utility(hidden) else hidden
        return shown if face_down == "reveal" else hidden
    return _resolve(attacker, defender, True, True, damage_levels, rules)


class DeckExhausted(ValueError):
    """The draw ran out before the card that was needed turned up."""


def play_wild(
    mode: Mode,
    draw: Iterator[Card],
    *,
    trumps: Iterable[Trump | Card] = (),
    wild: Iterable[Trump | Card] = (),
) -> tuple[SidePlay, tuple[Card, ...]]:
    """Complete a side that has no Numbered card by drawing until one appears.

    `wild` starts with the Trump played in place of the Numbered card; every
    Trump drawn joins it, Jokers are set aside.  Returns the finished play and
    every card drawn, in order.
    """
    extra = list(as_trumps(wild))
    drawn: list[Card] = []
    for card in draw:
        drawn.append(card)
        if card.is_numbered:
            return SidePlay(card, mode, as_trumps(trumps), tuple(extra)), tuple(drawn)
        if card.is_trump:
            extra.append(Trump.of(card))
    raise DeckExhausted("no Numbered card left to draw")
