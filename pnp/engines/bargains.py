"""Fairy Bargains as whole games: the main game, variant 1 (exact trades for points), variant 2
(starting sets, last player holding cards wins) and variant 3, the solitaire.

Cards are plain values (1, 3, 5, 7, 10 from the database's deck); every number (hand size, pot,
starting sets, piles) comes in as `BargainRules`, built from the game's facts. A move is one card
put in and the cards taken for it, as sorted tuples of values; the solitaire's moves are a match
(the pile positions cleared) or turning the next cards.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from pnp.engines.play import Outcome, best_seats

TURN = "turn"  # the solitaire move that turns the next stock cards


@dataclass(frozen=True)
class BargainRules:
    """The numbers one way of playing needs (from `facts`); `way` is main, variant-1, variant-2 or solitaire."""

    way: str
    deck: tuple[int, ...]
    hand_size: int = 6
    pot_size: int = 3
    points_per_card: int = 1
    deals_each: int = 1
    start: Mapping[int, int] = field(default_factory=dict)
    take_below: int = 1
    piles: int = 6
    turn: int = 3
    ties_share: bool = True


@dataclass
class Table:
    hands: list[list[int]]
    pot: list[int]
    pile: list[int]
    scores: list[float]
    discards: list[int] = field(default_factory=list)
    seat: int = 0
    dealer: int = 0
    deals: int = 0
    turns: int = 0
    out: list[bool] = field(default_factory=list)
    # solitaire: piles of face-down cards with the face-up one last, the play area, the stock
    piles: list[list[int]] = field(default_factory=list)
    play: list[int] = field(default_factory=list)


def subsets_upto(pot: Sequence[int], limit: int) -> list[tuple[int, ...]]:
    """Every distinct multiset of pot values totalling at most `limit` (the empty one included)."""
    counts = sorted(Counter(pot).items())
    out: list[tuple[int, ...]] = []

    def grow(i: int, chosen: tuple[int, ...], room: int) -> None:
        if i == len(counts):
            out.append(chosen)
            return
        value, n = counts[i]
        for k in range(min(n, room // value if value > 0 else n) + 1):
            grow(i + 1, chosen + (value,) * k, room - k * value)

    if limit >= 0:
        grow(0, (), limit)
    return out


def subsets_totalling(pot: Sequence[int], total: int) -> list[tuple[int, ...]]:
    """Every distinct non-empty multiset of pot values totalling exactly `total`, sorted."""
    counts = sorted(Counter(pot).items())
    after = [sum(v * n for v, n in counts[i:]) for i in range(len(counts) + 1)]  # what the rest can add
    out: list[tuple[int, ...]] = []

    def grow(i: int, chosen: tuple[int, ...], room: int) -> None:
        if room == 0:
            out.append(chosen)
            return
        if i == len(counts) or after[i] < room:
            return
        value, n = counts[i]
        for k in range(min(n, room // value) + 1):
            grow(i + 1, chosen + (value,) * k, room - k * value)

    if total > 0:
        grow(0, (), total)
    return sorted(out)


def fewest_over(pot: Sequence[int], card: int) -> list[tuple[int, ...]]:
    """Main game: the handfuls of the fewest cards whose sum beats `card` (every choice of them)."""
    ordered = sorted(pot)
    for size in range(1, len(pot) + 1):
        if sum(ordered[-size:]) <= card:
            continue  # even the biggest cards of this many do not beat it
        found = sorted({c for c in combinations(ordered, size) if sum(c) > card})
        if found:
            return found
    return []


def closest_match(pot: Sequence[int], card: int) -> list[tuple[int, ...]]:
    """Variant 1: handfuls that equal `card`; if none, those over it by as little as possible."""
    cap = card + max(pot, default=0)  # adding cards one by one passes `card` below this
    sums = {0}
    for value in pot:  # every total up to the cap that some handful reaches
        sums |= {t + value for t in sums if t + value <= cap}
    reachable = [t for t in sums if t >= card and t > 0]
    if not reachable:
        return []
    return subsets_totalling(pot, min(reachable))


class BargainsEngine:
    """Every way of playing Fairy Bargains; `rules.way` picks one."""

    def __init__(self, rules: BargainRules) -> None:
        self.rules = rules
        self.step_limit = 3_000  # variant 2 can go round for ever
        # the trades for a card against a pot, by (card, sorted pot): pots repeat a lot within a run
        self._trades: dict[tuple[int, tuple[int, ...]], list[tuple[int, ...]]] = {}

    def __getstate__(self) -> dict[str, object]:  # workers start with an empty memo
        return {**self.__dict__, "_trades": {}}

    # -- protocol
    def start(self, players: int, rng: random.Random) -> Table:
        t = Table([[] for _ in range(players)], [], [], [0.0] * players, out=[False] * players)
        if self.rules.way == "variant-2":
            t.hands = [
                [v for v, n in sorted(self.rules.start.items()) for _ in range(n)] for _ in range(players)
            ]
            t.seat = rng.randrange(players)
        elif self.rules.way == "solitaire":
            self._lay_out(t, rng)
        else:
            self._deal(t, rng)
        return t

    def to_move(self, t: Table) -> int:
        return 0 if self.rules.way == "solitaire" else t.seat

    def legal_moves(self, t: Table) -> Sequence[object]:
        way = self.rules.way
        if way == "solitaire":
            return self._solitaire_moves(t)
        moves: list[tuple[int, tuple[int, ...]]] = []
        cards = sorted(set(t.hands[t.seat]))
        if way == "variant-2":  # every take the dearest card affords, once, then filtered by price
            takes = [(sum(s), s) for s in subsets_upto(t.pot, cards[-1] - self.rules.take_below)]
            return [(c, s) for c in cards for total, s in takes if total <= c - self.rules.take_below]
        for card in cards:
            moves += [
                (card, s) for s in self._trades_for(card, tuple(sorted(t.pot + self._topped_up(t, card))))
            ]
        return moves

    def _trades_for(self, card: int, pot: tuple[int, ...]) -> list[tuple[int, ...]]:
        """The handfuls `card` may take from `pot` (sorted), remembered: the same pots come back often."""
        key = (card, pot)
        found = self._trades.get(key)
        if found is None:
            pick = fewest_over if self.rules.way == "main" else closest_match
            found = pick(pot, card) or [pot]
            if len(self._trades) >= 200_000:  # bounded: a long run does not grow without end
                self._trades.clear()
            self._trades[key] = found
        return found

    def apply(self, t: Table, move: object, rng: random.Random) -> None:
        if self.rules.way == "solitaire":
            self._solitaire_apply(t, move)
            return
        assert isinstance(move, tuple)
        card, taken = int(move[0]), tuple(move[1])
        if self.rules.way != "variant-2":
            extra = self._topped_up(t, card)
            t.pot += extra
            del t.pile[len(t.pile) - len(extra) :]
        t.hands[t.seat].remove(card)
        for v in taken:
            t.pot.remove(v)
        t.pot.append(card)
        t.turns += 1
        if self.rules.way == "main":
            t.scores[t.seat] += len(taken) * self.rules.points_per_card
        elif self.rules.way == "variant-1":
            t.scores[t.seat] += abs(sum(taken) - card)
            t.discards += taken
        else:
            t.hands[t.seat] += taken
            t.out[t.seat] = not t.hands[t.seat]
        self._next(t, rng)

    def ended(self, t: Table) -> str | None:
        way = self.rules.way
        if way == "solitaire":
            if not any(t.piles):
                return "bargain area cleared"
            return "stock used up" if not t.pile and not self._solitaire_moves(t) else None
        if way == "variant-2":
            return "last player with cards" if sum(not o for o in t.out) <= 1 else None
        return "every player has dealt" if t.deals >= self.rules.deals_each * len(t.hands) else None

    def outcome(self, t: Table, end: str) -> Outcome:
        way, n = self.rules.way, len(t.hands)
        if way == "solitaire":
            left = sum(len(p) for p in t.piles)
            won = (0,) if not left else ()
            return Outcome((float(-left),), won, end, t.turns, 1, {"cards left in the area": left})
        if way == "variant-2":
            alive = [i for i in range(n) if not t.out[i]]
            scores = tuple(float(sum(h)) for h in t.hands)
            winners = tuple(alive) if len(alive) == 1 else ()
            return Outcome(scores, winners, end, t.turns, -(-t.turns // n))
        scores = tuple(t.scores)
        winners = best_seats(scores)
        return Outcome(scores, winners, end, t.turns, t.deals)

    def greedy(self, t: Table, moves: Sequence[object], rng: random.Random) -> object:
        way = self.rules.way
        if way == "solitaire":  # clear as many cards as possible, turn only when nothing matches
            return max(moves, key=lambda m: (0, 0) if m == TURN else (1, len(m)))  # type: ignore[arg-type]
        if way == "variant-2":  # lose the least value, then keep the most cards
            return max(moves, key=lambda m: (sum(m[1]) - m[0], len(m[1]), -m[0]))  # type: ignore[index]
        if way == "main":  # most cards won; leave the big cards in the pot for the next player
            return max(moves, key=lambda m: (len(m[1]), -m[0], -sum(m[1])))  # type: ignore[index]
        return max(moves, key=lambda m: (sum(m[1]) - m[0], -m[0]))  # type: ignore[index]

    # -- main game and variant 1
    def _deal(self, t: Table, rng: random.Random) -> None:
        deck = list(self.rules.deck)
        rng.shuffle(deck)
        n, h = len(t.hands), self.rules.hand_size
        t.hands = [deck[i * h : (i + 1) * h] for i in range(n)]
        t.pot = deck[n * h : n * h + self.rules.pot_size]
        t.pile, t.discards = deck[n * h + self.rules.pot_size :], []
        t.seat = (t.dealer + 1) % n

    def _topped_up(self, t: Table, card: int) -> list[int]:
        """Cards the draw pile adds to the pot before `card` can be traded (the pile's top is its end)."""
        need = card + 1 if self.rules.way == "main" else card  # main: more than the card; variant 1: as much
        total, extra = sum(t.pot), []
        pile, top = t.pile, len(t.pile)
        while total < need and top:  # an empty pile was refilled from the discards by _next
            top -= 1
            extra.append(pile[top])
            total += pile[top]
        return extra

    def _next(self, t: Table, rng: random.Random) -> None:
        n = len(t.hands)
        if self.rules.way == "variant-2":
            for step in range(1, n + 1):
                seat = (t.seat + step) % n
                if not t.out[seat]:
                    t.seat = seat
                    return
            return
        if self.rules.way == "variant-1" and not t.pile and t.discards:
            t.pile, t.discards = t.discards, []
            rng.shuffle(t.pile)
        if any(t.hands):
            t.seat = (t.seat + 1) % n
            return
        t.deals += 1
        t.dealer = (t.dealer + 1) % n
        if t.deals < self.rules.deals_each * n:
            self._deal(t, rng)

    # -- solitaire
    def _lay_out(self, t: Table, rng: random.Random) -> None:
        deck = list(self.rules.deck)
        rng.shuffle(deck)
        k = self.rules.piles
        t.piles = [deck[sum(range(i + 1)) : sum(range(i + 2))] for i in range(k)]
        t.pile = deck[sum(range(k + 1)) :]
        t.play = []
        self._turn(t)

    def _turn(self, t: Table) -> None:
        for _ in range(self.rules.turn):
            if t.pile:
                t.play.append(t.pile.pop())

    def _solitaire_moves(self, t: Table) -> list[object]:
        moves: list[object] = []
        if t.play:
            tops = [(i, p[-1]) for i, p in enumerate(t.piles) if p]
            for size in range(1, len(tops) + 1):
                moves += [
                    tuple(i for i, _ in c)
                    for c in combinations(tops, size)
                    if sum(v for _, v in c) == t.play[-1]
                ]
        if t.pile:
            moves.append(TURN)
        return moves

    def _solitaire_apply(self, t: Table, move: object) -> None:
        t.turns += 1
        if move == TURN:
            self._turn(t)
            return
        assert isinstance(move, tuple)
        for i in move:
            t.piles[i].pop()
        t.play.pop()
