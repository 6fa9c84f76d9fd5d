"""Feenbalz as whole games: collect, exchange and court until someone has won enough fairy ladies.

Object cards are ids into `FeenRules.objects` (colour, kind, quality); horseshoes have colour
`none`. A turn is Collect, an exchange (a hand card and the feature named) or a courtship (the
cards laid). A courtship asks every other player in turn to join with a collection or draw a card,
reveals the top fairy, gives every courting player one chance to improve (only to take the lead),
and hands out one lady or, for a special collection, more (the largest special counts, never the
sum). The optional magic berries are not played. Every number comes from the game's facts.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

from pnp.engines.feenbalz_gifts import PASS, Fairy, FeenRules, Gifts
from pnp.engines.play import LazyMoves, Outcome, best_seats

COLLECT, OUT = ("collect",), ("out",)
__all__ = ["COLLECT", "OUT", "PASS", "Court", "Fairy", "FeenRules", "FeenbalzEngine", "Forest"]


@dataclass
class Court:
    """One courtship under way: who laid what, in laying order, and whose answer is awaited."""

    opener: int
    laid: list[tuple[int, list[int]]]
    asking: list[int]
    fairy: Fairy | None = None
    improving: list[int] = field(default_factory=list)  # indices into `laid` still to improve


@dataclass
class Forest:
    deck: list[int]
    market: list[int]
    hands: list[list[int]]
    fairies: list[Fairy]
    ladies: list[int]
    discard: list[int] = field(default_factory=list)
    seat: int = 0
    court: Court | None = None
    turns: int = 0
    courtships: int = 0
    extra: int = 0  # ladies won beyond one per courtship


class FeenbalzEngine(Gifts):
    """Feenbalz for 3-6 players, without the optional magic berries."""

    def __init__(self, rules: FeenRules) -> None:
        super().__init__(rules)
        self.step_limit = 4_000

    # -- protocol
    def start(self, players: int, rng: random.Random) -> Forest:
        deck = list(range(len(self.rules.objects)))
        rng.shuffle(deck)
        fairies = list(self.rules.fairies)
        rng.shuffle(fairies)
        d = self.rules.deal
        f = Forest(
            deck[players * d :],
            [],
            [deck[i * d : (i + 1) * d] for i in range(players)],
            fairies,
            [0] * players,
        )
        self._fill_market(f, rng)
        f.seat = rng.randrange(players)
        return f

    def to_move(self, f: Forest) -> int:
        c = f.court
        if c is None:
            return f.seat
        return c.asking[0] if c.asking else c.laid[c.improving[0]][0]

    def legal_moves(self, f: Forest) -> Sequence[object]:
        c = f.court
        if c is None:
            return self._with_collections([COLLECT], f.hands[f.seat], f.market)
        if c.asking:
            return self._with_collections([OUT], f.hands[c.asking[0]], None)
        seat, laid = c.laid[c.improving[0]]
        return [PASS, *self.improvements(f, seat, laid)]

    def _with_collections(self, head: list[object], hand: list[int], market: list[int] | None) -> LazyMoves:
        """`head`, the exchanges with `market` (if given) and every collection `hand` can lay, listed
        only when a bot needs them all."""
        swaps = (lambda: self.exchanges(hand, market)) if market is not None else list
        return LazyMoves(
            head,
            lambda: [*swaps(), *self.collections(hand)],
            lambda: bool(self.richest(hand)) or bool(swaps()),
            lambda m: self.may_lay(hand, m) or (isinstance(m, tuple) and m in swaps()),
        )

    def may_lay(self, hand: Sequence[int], move: object) -> bool:
        """Whether `move` is ("court", cards) with cards of `hand`, sorted, that make a collection."""
        if not (isinstance(move, tuple) and len(move) == 2 and move[0] == "court"):
            return False
        cards = move[1]
        if not isinstance(cards, tuple) or list(cards) != sorted(set(cards)):
            return False
        return set(cards) <= set(hand) and self.fits(cards)

    def apply(self, f: Forest, move: object, rng: random.Random) -> None:
        assert isinstance(move, tuple)
        c = f.court
        if c is None:
            self._act(f, move, rng)
        elif c.asking:
            seat = c.asking.pop(0)
            if move == OUT:
                self._draw(f, seat, self.rules.decline_draw, rng)
                self._limit(f, seat, rng)
            else:
                c.laid.append(self._lay(f, seat, move[1]))
        else:
            seat, laid = c.laid[c.improving.pop(0)]
            if move != PASS:
                for card in move[1]:
                    f.hands[seat].remove(card)
                laid += list(move[1])
        c = f.court
        if c is not None and c.fairy is None and not c.asking:
            self._reveal(f, rng)
        elif c is not None and c.fairy is not None and not c.improving:
            self._settle(f, rng)

    def _act(self, f: Forest, move: tuple[object, ...], rng: random.Random) -> None:
        f.turns += 1
        n = len(f.hands)
        if move == COLLECT:
            self._draw(f, f.seat, self.rules.collect, rng)
        elif move[0] == "swap":
            self._swap(f, int(move[1]), str(move[2]), rng)  # type: ignore[call-overload]
        else:
            laid = self._lay(f, f.seat, move[1])  # type: ignore[arg-type]
            f.court = Court(f.seat, [laid], [(f.seat + k) % n for k in range(1, n)])
            return
        self._limit(f, f.seat, rng)
        f.seat = (f.seat + 1) % n

    def ended(self, f: Forest) -> str | None:
        if f.court is not None:
            return None
        need = self.rules.ladies_needed[len(f.hands)]
        if max(f.ladies) >= need:
            return "enough ladies won"
        if not any(not x.black for x in f.fairies):
            return "fairy deck used up"
        return None

    def outcome(self, f: Forest, end: str) -> Outcome:
        scores = tuple(float(n) for n in f.ladies)
        return Outcome(
            scores,
            best_seats(scores) if max(scores) > 0 else (),
            end,
            f.turns,
            f.courtships,
            {"extra ladies": float(f.extra)},
        )

    # -- what a hand allows
    def improvements(self, f: Forest, seat: int, laid: Sequence[int]) -> list[tuple[str, tuple[int, ...]]]:
        """("add", cards) for every set of hand cards that keeps a collection and takes the lead."""
        c = f.court
        assert c is not None and c.fairy is not None
        hand = sorted(f.hands[seat])
        fits = [h for h in hand if self.fits([*laid, h])]
        out = []
        for size in range(1, len(fits) + 1):
            for add in combinations(fits, size):
                cards = [*laid, *add]
                if self.fits(cards) and self._leads(f, seat, cards):
                    out.append(("add", add))
        return out

    def _leads(self, f: Forest, seat: int, cards: Sequence[int]) -> bool:
        c = f.court
        assert c is not None and c.fairy is not None
        mine = self.value(cards, c.fairy)
        for i, (other, laid) in enumerate(c.laid):
            if other == seat:
                continue
            earlier = i < [s for s, _ in c.laid].index(seat)
            theirs = self.value(laid, c.fairy)
            if theirs > mine or (earlier and theirs == mine):
                return False
        return True

    # -- greedy
    def greedy(self, f: Forest, moves: Sequence[object], rng: random.Random) -> object:
        """Court with the best collection once it is worth enough, join when holding a strong one,
        improve with the fewest cards that lead, else exchange for the most cards of the hand's
        strongest group, else Collect."""
        c = f.court
        seat = self.to_move(f)
        if c is not None and not c.asking:
            adds = [m for m in moves if m != PASS]
            return min(adds, key=lambda m: (len(m[1]), -sum(m[1]))) if adds else PASS  # type: ignore[index]
        most = self.richest(f.hands[seat])
        best = ("court", most) if most else None
        hand_after = len(f.hands[seat]) - (len(best[1]) if best else 0)
        if best is not None and (self._worth(best[1]) >= 11 or hand_after == 0):
            return best
        if c is not None:
            return OUT
        swaps = (
            self.exchanges(f.hands[seat], f.market) if len(f.hands[seat]) < self.rules.hand_limit - 1 else []
        )
        if swaps:
            sums = self.group_sums(f.hands[seat])
            now = self.best_group(sums)
            gain, move = max((self._swap_gain(f, sums, m), i) for i, m in enumerate(swaps))
            if gain > now:
                return swaps[move]
        return COLLECT

    def _swap_gain(self, f: Forest, sums: dict[str, int], move: object) -> float:
        """The hand's strongest group (`sums` of the hand now) after the exchange `move`."""
        assert isinstance(move, tuple)
        got = self._matching(int(move[1]), str(move[2]), f.market)
        after = self.group_sums([int(move[1])], dict(sums), -1)
        return self.best_group(self.group_sums(got, after))

    # -- the flow
    def _draw(self, f: Forest, seat: int, n: int, rng: random.Random) -> None:
        for _ in range(n):
            if not f.deck:
                f.deck, f.discard = f.discard, []
                rng.shuffle(f.deck)
            if f.deck:
                f.hands[seat].append(f.deck.pop())

    def _fill_market(self, f: Forest, rng: random.Random) -> None:
        for _ in range(3):  # a market of nothing but worthless cards is shuffled away and laid anew
            while len(f.market) < self.rules.market:
                if not f.deck:
                    f.deck, f.discard = f.discard, []
                    rng.shuffle(f.deck)
                if not f.deck:
                    return
                f.market.append(f.deck.pop())
            if any(self.rules.objects[m][2] != self.rules.dead_quality for m in f.market):
                return
            f.deck += f.discard + f.market
            f.discard, f.market = [], []
            rng.shuffle(f.deck)

    def _swap(self, f: Forest, card: int, feature: str, rng: random.Random) -> None:
        got = self._matching(card, feature, f.market)
        if not got:
            raise ValueError("an exchange must take a card")  # legal_moves never offers one
        hand = f.hands[f.seat]
        hand.remove(card)
        hand += got
        f.market = [m for m in f.market if m not in got] + [card]
        self._fill_market(f, rng)

    def _lay(self, f: Forest, seat: int, cards: Sequence[int]) -> tuple[int, list[int]]:
        for card in cards:
            f.hands[seat].remove(card)
        return seat, list(cards)

    def _limit(self, f: Forest, seat: int, rng: random.Random) -> None:
        """More than `hand_limit` cards in `seat`'s hand (the only one that grew): the opponent with the
        fewest cards draws one at random, or it is discarded if nobody has room."""
        n, cap = len(f.hands), self.rules.hand_limit
        while len(f.hands[seat]) > cap:
            card = f.hands[seat].pop(rng.randrange(len(f.hands[seat])))
            others = [(len(f.hands[(seat + k) % n]), k) for k in range(1, n)]
            size, k = min(others)
            if size < cap:
                f.hands[(seat + k) % n].append(card)
            else:
                f.discard.append(card)

    def _reveal(self, f: Forest, rng: random.Random) -> None:
        c = f.court
        assert c is not None
        f.courtships += 1
        if f.fairies:
            c.fairy = f.fairies.pop()
        if c.fairy is None or c.fairy.black or len(c.laid) < 2:
            c.improving = []
        else:
            c.improving = list(range(len(c.laid)))
        if not c.improving:
            self._settle(f, rng)

    def _settle(self, f: Forest, rng: random.Random) -> None:
        c = f.court
        assert c is not None
        n = len(f.hands)
        if c.fairy is not None and not c.fairy.black:
            for seat, won in self.winners(c.laid, c.fairy, [len(h) for h in f.hands]).items():
                got = 1 + self._take_more(f, won - 1)
                f.ladies[seat] += got
                f.extra += got - 1
        for _, laid in c.laid:
            f.discard += laid
        f.court = None
        f.seat = (c.opener + 1) % n

    def _take_more(self, f: Forest, k: int) -> int:
        got = 0
        while got < k and f.fairies:
            if not f.fairies.pop().black:
                got += 1
        return got
