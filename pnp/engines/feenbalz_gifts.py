"""Feenbalz's cards: which objects make a collection, what a collection is worth to a fairy lady, which
exchanges a hand allows, and who wins a courtship with how many ladies (the special collections).
`pnp.engines.feenbalz` plays whole games with them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

PASS = ("pass",)
FEATURES = ("colour", "kind", "quality")
HORSESHOE, NO_COLOUR = "horseshoe", "none"


@dataclass(frozen=True)
class Fairy:
    colour: str
    kind: str
    dislike: str
    black: bool = False


@dataclass(frozen=True)
class FeenRules:
    """The deck, the ladies and the numbers of `facts` (see card_data/feenbalz.yaml)."""

    objects: tuple[tuple[str, str, int], ...]  # (colour, kind, quality) per card
    fairies: tuple[Fairy, ...]
    ladies_needed: Mapping[int, int]
    deal: int = 5
    market: int = 5
    collect: int = 2
    hand_limit: int = 9
    collection_min: int = 3
    horseshoes_max: int = 2
    wish_bonus: int = 1
    disliked_value: int = 0
    decline_draw: int = 1
    dead_quality: int = 0
    neutral: tuple[str, ...] = ("shell", "fly-agaric")
    ahead_by: tuple[int, int] = (10, 2)  # (margin, ladies)
    alone_at: tuple[int, int] = (10, 2)  # (value, ladies)
    empty_hand: int = 2
    every_one: int = 2
    both_every_one: int = 1
    horseshoes_only: int = 2
    horseshoes_all: tuple[int, int] = (5, 3)  # (count, ladies)


class Gifts:
    """The card rules of one `FeenRules`."""

    def __init__(self, rules: FeenRules) -> None:
        self.rules = rules
        r = rules
        self._count = {k: sum(1 for o in r.objects if o[1] == k) for k in {o[1] for o in r.objects}}
        # each card's colour, kind and quality by id, one list per feature (read in every move)
        self._feature: tuple[list[object], ...] = tuple([o[i] for o in r.objects] for i in range(3))
        self._colour = [o[0] for o in r.objects]
        self._kind = [o[1] for o in r.objects]
        self._quality = [o[2] for o in r.objects]
        self._laid: dict[tuple[int, ...], list[tuple[str, tuple[int, ...]]]] = {}  # collections by hand
        self._last_richest: tuple[tuple[int, ...] | None, tuple[int, ...]] = (None, ())
        self._last_swaps: tuple[object, list[tuple[str, int, str]]] = (None, [])

    def __getstate__(self) -> dict[str, object]:  # workers start with an empty memo
        return {**self.__dict__, "_laid": {}, "_last_richest": (None, ()), "_last_swaps": (None, [])}

    def fits(self, cards: Sequence[int]) -> bool:
        """Whether `cards` make a collection: enough of them, one colour, one kind or all neutral,
        at most `horseshoes_max` horseshoes unless every card is one."""
        r = self.rules
        if len(cards) < r.collection_min:
            return False
        rest = [r.objects[c] for c in cards if r.objects[c][1] != HORSESHOE]
        if not rest:
            return True
        if len(cards) - len(rest) > r.horseshoes_max:
            return False
        return (
            len({o[0] for o in rest}) == 1
            or len({o[1] for o in rest}) == 1
            or all(o[1] in r.neutral for o in rest)
        )

    def collections(self, hand: Sequence[int]) -> list[tuple[str, tuple[int, ...]]]:
        """Every collection `hand` can lay, as ("court", sorted card ids); remembered per hand, as a
        hand is asked again when others court."""
        key = tuple(sorted(hand))
        found = self._laid.get(key)
        if found is None:
            if len(self._laid) >= 50_000:  # bounded: a long run does not grow without end
                self._laid.clear()
            found = self._laid[key] = [("court", cs) for cs in sorted(self._collections(key))]
        return found

    def _groups(self, hand: Sequence[int]) -> tuple[list[int], list[list[int]]]:
        """The hand's horseshoes, and its other cards by colour, by kind and the neutral ones."""
        kind, colour, neutral = self._kind, self._colour, self.rules.neutral
        shoes: list[int] = []
        groups: dict[object, list[int]] = {}
        for c in hand:
            k = kind[c]
            if k == HORSESHOE:
                shoes.append(c)
                continue
            groups.setdefault(colour[c], []).append(c)
            groups.setdefault((k,), []).append(c)
            if k in neutral:
                groups.setdefault(None, []).append(c)
        return shoes, list(groups.values())

    def richest(self, hand: Sequence[int]) -> tuple[int, ...]:
        """The collection of `hand` with the most quality (and fewest cards among equals): a whole
        group with its best horseshoes, or every horseshoe; () when the hand makes none."""
        key = tuple(hand)
        if self._last_richest[0] != key:  # asked twice in a row for the same hand (legal moves, then the bot)
            self._last_richest = (key, self._richest(hand))
        return self._last_richest[1]

    def _richest(self, hand: Sequence[int]) -> tuple[int, ...]:
        r, quality = self.rules, self._quality
        shoes, groups = self._groups(hand)
        shoes.sort(key=lambda c: -quality[c])
        options = [g + shoes[: r.horseshoes_max] for g in groups]
        options.append(shoes)
        fit: list[list[int]] = [o for o in options if len(o) >= r.collection_min]
        if not fit:
            return ()
        ranked = sorted((self._worth(o), -len(o), i) for i, o in enumerate(fit))
        return tuple(sorted(fit[ranked[-1][2]]))

    def _collections(self, hand: tuple[int, ...]) -> set[tuple[int, ...]]:
        r = self.rules
        shoes, groups = self._groups(hand)
        found: set[tuple[int, ...]] = set()
        extras = [t for k in range(min(len(shoes), r.horseshoes_max) + 1) for t in combinations(shoes, k)]
        least = r.collection_min
        for group in groups:
            for t in extras:
                for size in range(max(1, least - len(t)), len(group) + 1):
                    if t:
                        found.update(tuple(sorted(part + t)) for part in combinations(group, size))
                    else:
                        found.update(combinations(group, size))
        for size in range(least, len(shoes) + 1):
            found.update(combinations(shoes, size))
        return found

    def exchanges(self, hand: Sequence[int], market: Sequence[int]) -> list[tuple[str, int, str]]:
        """("swap", card, feature) for every hand card and feature some market card shares (horseshoes
        by quality only); the house rule: an exchange takes at least one card."""
        key = (tuple(hand), tuple(market))
        if self._last_swaps[0] != key:  # asked again for the same hand (legal moves, the bot, the check)
            self._last_swaps = (key, self._exchanges(hand, market))
        return self._last_swaps[1]

    def _exchanges(self, hand: Sequence[int], market: Sequence[int]) -> list[tuple[str, int, str]]:
        offered = [{of[m] for m in market} for of in self._feature]
        out = []
        for card in sorted(hand):
            shoe = self._kind[card] == HORSESHOE
            for i, feature in enumerate(FEATURES):
                want = self._feature[i][card]
                if (i == 2 or not shoe) and want != NO_COLOUR and want in offered[i]:
                    out.append(("swap", card, feature))
        return out

    def _matching(self, card: int, feature: str, market: Sequence[int]) -> list[int]:
        of = self._feature[FEATURES.index(feature)]
        want = of[card]
        if want == NO_COLOUR:
            return []
        return [m for m in market if of[m] == want]

    def value(self, cards: Sequence[int], fairy: Fairy) -> int:
        """A collection's worth to `fairy`: disliked kinds count `disliked_value`, a wanted colour
        and a wanted kind each add the wish bonus."""
        r, total = self.rules, 0
        for c in cards:
            colour, kind, quality = r.objects[c]
            if kind == fairy.dislike:
                total += r.disliked_value
                continue
            total += quality + r.wish_bonus * ((colour == fairy.colour) + (kind == fairy.kind))
        return total

    def _worth(self, cards: Sequence[int]) -> float:
        """A collection's expected worth before the lady is known (wishes average out near one point)."""
        quality = self._quality
        return sum([quality[c] for c in cards]) + 0.3 * len(cards)

    def group_sums(
        self, hand: Sequence[int], sums: dict[str, int] | None = None, sign: int = 1
    ) -> dict[str, int]:
        """The quality (plus one a card) of each colour and kind in `hand`, added to `sums` (times `sign`)."""
        colour, kind, quality = self._colour, self._kind, self._quality
        sums = {} if sums is None else sums
        for c in hand:
            worth = sign * (quality[c] + 1)
            sums[colour[c]] = sums.get(colour[c], 0) + worth
            sums[kind[c]] = sums.get(kind[c], 0) + worth
        return sums

    def best_group(self, sums: dict[str, int]) -> float:
        """The strongest colour or kind of `group_sums` (horseshoes are neither)."""
        return float(max((v for k, v in sums.items() if k != NO_COLOUR and k != HORSESHOE), default=0))

    def winners(
        self, laid: Sequence[tuple[int, Sequence[int]]], fairy: Fairy, hand_sizes: Sequence[int]
    ) -> dict[int, int]:
        """Seat -> ladies won by the collections `laid` (in laying order) before `fairy`."""
        r = self.rules
        count, ladies = r.horseshoes_all
        shoes = [s for s, cs in laid if self._kinds(cs) == {HORSESHOE} and len(cs) >= count]
        if shoes:
            return {shoes[0]: ladies}
        full = [s for s, cs in laid if self._every_one(cs)]
        if len(full) > 1:
            return {s: r.both_every_one for s in full}
        if full:
            return {full[0]: r.every_one}
        values = [self.value(cs, fairy) for _, cs in laid]
        top = max(values)
        i = values.index(top)  # ties: the first laid
        seat, cards = laid[i]
        won = 1
        others = values[:i] + values[i + 1 :]
        if others and all(top - v >= r.ahead_by[0] for v in others):
            won = max(won, r.ahead_by[1])
        if not others and top >= r.alone_at[0]:
            won = max(won, r.alone_at[1])
        if hand_sizes[seat] == 0:
            won = max(won, r.empty_hand)
        if self._kinds(cards) == {HORSESHOE}:
            won = max(won, r.horseshoes_only)
        return {seat: won}

    def _kinds(self, cards: Sequence[int]) -> set[str]:
        return {self.rules.objects[c][1] for c in cards}

    def _every_one(self, cards: Sequence[int]) -> bool:
        if HORSESHOE in self._kinds(cards):
            return False
        return any(self._has_all(cards, k) for k in self.rules.neutral)

    def _has_all(self, cards: Sequence[int], kind: str) -> bool:
        return sum(1 for c in cards if self.rules.objects[c][1] == kind) == self._count.get(kind, -1)
