"""A small explicit play strategy and the Monte Carlo estimate of how attacks fare."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from pnp.engines.cards import RANKS, Card
from pnp.engines.combat import (
    CombatRules,
    DeckExhausted,
    Mode,
    Role,
    SidePlay,
    as_trumps,
    play_wild,
    points_for,
    resolve_attack,
)


@dataclass(frozen=True)
class Play:
    """A side's decisions from its hand: declared mode, trumps shown, and the Numbered card.

    `numbered` is None when the hand has no Numbered card; `wild` is then the
    Trump played in its place (or None when there is nothing to play at all).
    """

    mode: Mode
    trumps: tuple[Card, ...] = ()
    numbered: Card | None = None
    wild: Card | None = None

    @property
    def forfeits(self) -> bool:
        return self.numbered is None and self.wild is None


# A loss costs the attacker only a bonus card for the defender, while a loss
# costs the defender real damage, so each role weighs those outcomes at half.
_WEIGHTS: Mapping[str, tuple[float, float]] = MappingProxyType(
    {
        "attacker": (1.0, 0.5),  # (weight of points won, weight of points lost)
        "defender": (0.5, 1.0),
    }
)
_OPPONENT_VALUES = tuple(range(2, 11))
_TABLE_LOW, _TABLE_HIGH = -60, 80


def expected_utility(value: int, role: Role) -> float:
    """Score of a final value against one random Numbered card (2-10, either colour equally likely).

    The opponent is assumed to use no trumps; half the time highest wins,
    half the time lowest wins.  Points won and lost are weighted by role.
    """
    win_w, loss_w = _WEIGHTS[role]
    total = 0.0
    for w in _OPPONENT_VALUES:
        for signed in (value - w, w - value):  # same colour, then different colour
            if signed > 0:
                total += win_w * points_for(signed)
            elif signed < 0:
                total -= loss_w * points_for(signed)
    return total / (2 * len(_OPPONENT_VALUES))


_UTILITY: Mapping[str, tuple[float, ...]] = MappingProxyType(
    {
        role: tuple(expected_utility(v, role) for v in range(_TABLE_LOW, _TABLE_HIGH + 1))
        for role in ("attacker", "defender")
    }
)


def _trump_order(trumps: Sequence[Card], role: Role) -> list[Card]:
    # The attacker shows its Ace of Spades first (it can only double damage it
    # deals); the defender keeps it back as long as possible.
    first = role == "attacker"
    return sorted(trumps, key=lambda c: (c.is_ace_of_spades != first, RANKS.index(c.rank)))


def choose_play(hand: Sequence[Card], role: Role, rng: random.Random) -> Play:
    """A simple, honest strategy that ignores what the opponent reveals.

    With Numbered cards in hand: for every Numbered card, every count of
    same-colour Trumps from none to all, and both modes, score the final value
    with `expected_utility`; take the best (random among equals).  Trumps of
    the other colour are never shown, so this side never cheats on purpose.
    With no Numbered card: show no trumps, play one Trump as a Wild Trump
    (attacker prefers the Ace of Spades, defender avoids it, otherwise random)
    and declare 'add'.  With neither, the play forfeits.
    """
    numbered = [c for c in hand if c.is_numbered]
    trumps = [c for c in hand if c.is_trump]
    if not numbered:
        if not trumps:
            return Play("add")
        aces = [c for c in trumps if c.is_ace_of_spades]
        others = [c for c in trumps if not c.is_ace_of_spades]
        pool = (aces or others) if role == "attacker" else (others or aces)
        return Play("add", (), None, rng.choice(pool))
    table = _UTILITY[role]
    counts = {"red": 0, "black": 0}
    for t in trumps:
        counts[t.colour or "red"] += 1
    best: list[tuple[Mode, int, Card]] = []
    best_score = -math.inf
    for card in numbered:
        base = int(card.rank)
        for count in range(counts[card.colour or "red"] + 1):
            options: tuple[tuple[Literal["add", "subtract"], int], ...] = (
                ("add", base + count),
                ("subtract", base - count),
            )
            for mode, final in options[: 1 if count == 0 else 2]:
                score = (
                    table[final - _TABLE_LOW]
                    if _TABLE_LOW <= final <= _TABLE_HIGH
                    else expected_utility(final, role)
                )
                if score > best_score + 1e-12:
                    best_score, best = score, [(mode, count, card)]
                elif score >= best_score - 1e-12:
                    best.append((mode, count, card))
    mode, count, card = best[0] if len(best) == 1 else rng.choice(best)
    shown = _trump_order([t for t in trumps if t.colour == card.colour], role)[:count]
    return Play(mode, tuple(shown), card, None)


# --------------------------------------------------------------------------- Monte Carlo


@dataclass(frozen=True)
class CombatStats:
    """Estimates from `simulate`; probabilities are fractions of trials."""

    trials: int
    seed: int
    attacker_cards: int
    defender_cards: int
    expected_damage: float
    expected_bonus: float
    p_nasty_hit: float
    p_cheat: float
    p_attacker_win: float
    p_defender_win: float
    p_draw: float
    p_ace_doubled: float
    p_forfeit: float

    def as_dict(self) -> dict[str, float | int]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


def _undealt(cards: list[Card], start: int, rng: random.Random) -> Iterator[Card]:
    """Keep shuffling lazily: pick each further card at random from those not yet drawn."""
    size = len(cards)
    for i in range(start, size):
        j = rng.randrange(i, size)
        cards[i], cards[j] = cards[j], cards[i]
        yield cards[i]


def _realise(play: Play, pile: Iterator[Card]) -> SidePlay | None:
    if play.numbered is not None:
        return SidePlay(play.numbered, play.mode, as_trumps(play.trumps))
    if play.wild is None:
        return None
    try:
        return play_wild(play.mode, pile, trumps=play.trumps, wild=(play.wild,))[0]
    except DeckExhausted:
        return None


def simulate(
    deck: list[Card],
    attacker_kill: int,
    defender_live: int,
    trials: int,
    seed: int,
    *,
    rules: CombatRules,
    damage_levels: bool = False,
) -> CombatStats:
    """Estimate one attack: Kill+1 cards against Live cards from a shuffled `deck`.

    Each trial shuffles the deck with a single `random.Random(seed)`, deals
    the attacker then the defender, lets both sides use `choose_play`, and
    resolves the attack; Wild Trump draws (attacker first) come from the rest
    of the deck.  A side left with nothing to play (only Jokers, or a deck
    that ran dry) forfeits and loses by one point; if both do, it is a draw.
    `rules` carries the game's numbers (damage steps, Ace of Spades, Nasty Hit threshold).
    """
    a_n, d_n = attacker_kill + 1, defender_live
    if attacker_kill < 0 or defender_live < 0 or trials <= 0:
        raise ValueError("kill and live must be >= 0 and trials > 0")
    if a_n + d_n > len(deck):
        raise ValueError(f"a deck of {len(deck)} cards cannot deal {a_n} + {d_n} cards")
    rng = random.Random(seed)
    cards = list(deck)
    size = len(cards)
    dealt = a_n + d_n
    damage = bonus = nasty = cheat = a_win = d_win = draws = doubled = forfeit = 0
    for _ in range(trials):
        for i in range(dealt):
            j = rng.randrange(i, size)
            cards[i], cards[j] = cards[j], cards[i]
        a_play = choose_play(cards[:a_n], "attacker", rng)
        d_play = choose_play(cards[a_n:dealt], "defender", rng)
        pile = _undealt(cards, dealt, rng)
        a_side, d_side = _realise(a_play, pile), _realise(d_play, pile)
        if a_side is None or d_side is None:
            forfeit += 1
            if a_side is None and d_side is None:
                draws += 1
            elif d_side is None:
                a_win += 1
                damage += 1
            else:
                d_win += 1
                bonus += 1
            continue
        r = resolve_attack(a_side, d_side, rules=rules, damage_levels=damage_levels)
        damage += r.damage
        bonus += r.bonus
        nasty += r.nasty_hit
        cheat += r.cheated
        doubled += r.ace_doubled
        if r.winner == "attacker":
            a_win += 1
        elif r.winner == "defender":
            d_win += 1
        else:
            draws += 1
    n = float(trials)
    return CombatStats(
        trials=trials,
        seed=seed,
        attacker_cards=a_n,
        defender_cards=d_n,
        expected_damage=damage / n,
        expected_bonus=bonus / n,
        p_nasty_hit=nasty / n,
        p_cheat=cheat / n,
        p_attacker_win=a_win / n,
        p_defender_win=d_win / n,
        p_draw=draws / n,
        p_ace_doubled=doubled / n,
        p_forfeit=forfeit / n,
    )
