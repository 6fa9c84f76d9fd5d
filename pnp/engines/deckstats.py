"""Exact odds for a Fairy Deck, normal or stacked (duplicates, removals, extra Jokers).

Every probability is computed with `fractions.Fraction`; `report` turns them
into a JSON-ready dict that carries both the exact fraction and a float.

Order ties: an Order card's value is its rank (2-10 as printed, J=11, Q=12,
K=13, A=14) whatever its suit.  A Joker has no rank, so by default each Joker
drawn counts as a value of its own that can never tie; pass
``jokers="ignored"`` to take the Jokers out of the deck before the Order draw
instead (as if a Joker were always put back and redrawn).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from fractions import Fraction
from math import comb
from typing import Any, Literal

from pnp.engines.cards import NUMBERED_RANKS, RANKS, Card

JokerRule = Literal["distinct", "ignored"]
ROLES = ("Trump", "Numbered", "Joker")
_ORDER_VALUES = {rank: i + 2 for i, rank in enumerate(RANKS)}  # 2..10, J=11 .. A=14


def role(card: Card) -> str:
    """'Trump', 'Numbered' or 'Joker'."""
    return "Joker" if card.is_joker else "Trump" if card.is_trump else "Numbered"


def order_value(card: Card) -> int | None:
    """Rank value used to settle Order: 2-10, J=11, Q=12, K=13, A=14; None for a Joker."""
    return _ORDER_VALUES.get(card.rank)


def composition(deck: Sequence[Card]) -> dict[str, int]:
    """Card count by role."""
    counts = Counter(role(c) for c in deck)
    return {r: counts.get(r, 0) for r in ROLES}


def colours(deck: Sequence[Card]) -> dict[str, int]:
    """Card count by colour; Jokers are counted under 'none'."""
    counts = Counter(c.colour or "none" for c in deck)
    return {k: counts.get(k, 0) for k in ("red", "black", "none")}


def colours_by_role(deck: Sequence[Card]) -> dict[str, dict[str, int]]:
    """Red/black split of the Trumps and of the Numbered cards."""
    return {r: colours([c for c in deck if role(c) == r]) for r in ("Trump", "Numbered")}


def numbered_values(deck: Sequence[Card]) -> dict[int, int]:
    """How many Numbered cards carry each value 2-10."""
    counts = Counter(c.value for c in deck if c.is_numbered)
    return {int(r): counts.get(int(r), 0) for r in NUMBERED_RANKS}


def _share(deck: Sequence[Card], hit: int) -> Fraction:
    if not deck:
        raise ValueError("the deck is empty")
    return Fraction(hit, len(deck))


def p_trump(deck: Sequence[Card]) -> Fraction:
    """Chance that one draw is a Trump."""
    return _share(deck, sum(c.is_trump for c in deck))


def p_joker(deck: Sequence[Card]) -> Fraction:
    """Chance that one draw is a Joker."""
    return _share(deck, sum(c.is_joker for c in deck))


def p_numbered(deck: Sequence[Card]) -> Fraction:
    """Chance that one draw is a Numbered card."""
    return _share(deck, sum(c.is_numbered for c in deck))


def p_ace_of_spades(deck: Sequence[Card]) -> Fraction:
    """Chance that one draw is an Ace of Spades (a stacked deck may hold several)."""
    return _share(deck, sum(c.is_ace_of_spades for c in deck))


def numbered_value_distribution(deck: Sequence[Card]) -> dict[int, Fraction]:
    """Distribution of the value of a Numbered card drawn at random from the deck's Numbered cards."""
    counts = numbered_values(deck)
    total = sum(counts.values())
    if total == 0:
        raise ValueError("the deck has no Numbered cards")
    return {v: Fraction(n, total) for v, n in counts.items()}


def mean_numbered_value(deck: Sequence[Card]) -> Fraction:
    """Average value of a Numbered card drawn from the deck."""
    return sum((v * p for v, p in numbered_value_distribution(deck).items()), Fraction(0))


def p_no_numbered(deck: Sequence[Card], hand: int) -> Fraction:
    """Chance that a hand of `hand` cards holds no Numbered card: C(n-m, k) / C(n, k)."""
    n, m = len(deck), sum(c.is_numbered for c in deck)
    if not 0 <= hand <= n:
        raise ValueError(f"cannot deal {hand} cards from {n}")
    return Fraction(comb(n - m, hand), comb(n, hand))


def _order_classes(deck: Sequence[Card], jokers: JokerRule) -> list[int]:
    if jokers not in ("distinct", "ignored"):
        raise ValueError(f"jokers must be 'distinct' or 'ignored', not {jokers!r}")
    counts = Counter(order_value(c) for c in deck if not c.is_joker)
    classes = list(counts.values())
    if jokers == "distinct":
        classes += [1] * sum(c.is_joker for c in deck)
    return classes


def p_order_all_distinct(deck: Sequence[Card], fairies: int, jokers: JokerRule = "distinct") -> Fraction:
    """Chance that `fairies` Order cards drawn without replacement all have different values.

    The number of `fairies`-card subsets with no repeated value is the
    elementary symmetric polynomial of the value multiplicities (pick a set of
    distinct values, then one card of each), built up class by class.
    """
    classes = _order_classes(deck, jokers)
    n = sum(classes)
    if not 0 <= fairies <= n:
        raise ValueError(f"cannot draw {fairies} Order cards from {n}")
    ways = [1] + [0] * fairies  # ways[j]: j-card subsets with distinct values so far
    for size in classes:
        for j in range(fairies, 0, -1):
            ways[j] += ways[j - 1] * size
    return Fraction(ways[fairies], comb(n, fairies))


def p_order_tie(deck: Sequence[Card], fairies: int, jokers: JokerRule = "distinct") -> Fraction:
    """Chance that at least two of `fairies` fairies draw Order cards of the same value."""
    return 1 - p_order_all_distinct(deck, fairies, jokers)


# --------------------------------------------------------------------------- report


def _prob(f: Fraction) -> dict[str, Any]:
    return {"exact": f"{f.numerator}/{f.denominator}", "float": float(f)}


def _stats(deck: Sequence[Card], hand_sizes: Iterable[int], fairies: Iterable[int]) -> dict[str, Any]:
    n = len(deck)
    has_numbered = any(c.is_numbered for c in deck)
    return {
        "size": n,
        "composition": composition(deck),
        "colours": colours(deck),
        "colours_by_role": colours_by_role(deck),
        "numbered_values": {str(v): k for v, k in numbered_values(deck).items()},
        "p_trump": _prob(p_trump(deck)),
        "p_numbered": _prob(p_numbered(deck)),
        "p_joker": _prob(p_joker(deck)),
        "p_ace_of_spades": _prob(p_ace_of_spades(deck)),
        "numbered_value_distribution": (
            {str(v): _prob(p) for v, p in numbered_value_distribution(deck).items()} if has_numbered else {}
        ),
        "mean_numbered_value": _prob(mean_numbered_value(deck)) if has_numbered else None,
        "p_no_numbered": {str(k): _prob(p_no_numbered(deck, k)) for k in hand_sizes if 0 <= k <= n},
        "p_order_tie": {str(f): _prob(p_order_tie(deck, f)) for f in fairies if 0 <= f <= n},
    }


def _delta(a: Any, b: Any) -> Any:
    """Float differences (deck minus base) for every number the two reports share."""
    if isinstance(a, dict) and isinstance(b, dict):
        if set(a) == {"exact", "float"} and set(b) == {"exact", "float"}:
            return a["float"] - b["float"]
        pairs = ((k, _delta(a[k], b[k])) for k in a if k in b)
        return {k: d for k, d in pairs if d is not None}
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a - b
    return None


def report(
    deck: Sequence[Card],
    base: Sequence[Card] | None = None,
    *,
    hand_sizes: Iterable[int] = range(1, 9),
    fairies: Iterable[int] = range(2, 7),
) -> dict[str, Any]:
    """Every statistic above as plain JSON data.

    Probabilities appear as ``{"exact": "p/q", "float": x}``.  With `base`
    (usually `standard_deck()`), the result holds ``deck`` and ``base``
    reports side by side plus ``delta``: deck minus base for each number.
    """
    hand_sizes, fairies = list(hand_sizes), list(fairies)
    mine = _stats(deck, hand_sizes, fairies)
    if base is None:
        return {"deck": mine}
    theirs = _stats(base, hand_sizes, fairies)
    return {"deck": mine, "base": theirs, "delta": _delta(mine, theirs)}
