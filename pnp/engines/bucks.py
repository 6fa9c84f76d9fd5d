"""Fairy Bucks as a whole game: items auctioned a few at a time with hidden bids revealed together.

Every player in an auction lays one card face down, then all are shown: a Poof! takes its owner's
bid back and out of this auction; the others' totals are compared, and a single highest total
makes the High Bidder. Being High Bidder after `streak` reveals in a row, or being the last one
in, wins the lot. Bids are made one seat after another, but no bot looks at a card laid in the
same reveal. Every number comes in as `BuckRules`, built from the game's facts and cards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from pnp.engines.play import Outcome, best_seats

POOF, PASS = "poof", "pass"


@dataclass(frozen=True)
class BuckRules:
    """Items as (points, symbol), the notes of one player's set, and the auction's numbers."""

    items: tuple[tuple[int, str], ...]
    notes: tuple[int, ...]
    symbols: tuple[str, ...]
    lot: int = 3
    castle_items: int = 1
    set_aside: int = 2
    set_aside_two: int = 1
    two_player_removed: int = 1
    set_bonus: int = 4
    streak: int = 2
    losers_discard: int = 1
    raising_optional: bool = True


@dataclass
class Auction:
    items: list[tuple[int, str]]
    hands: list[list[int]]
    won: list[list[tuple[int, str]]]
    castle: list[tuple[int, str]]
    lot: list[tuple[int, str]] = field(default_factory=list)
    bids: list[list[int]] = field(default_factory=list)
    active: list[bool] = field(default_factory=list)
    laid: dict[int, int | str] = field(default_factory=dict)  # this reveal's cards, by seat
    waiting: list[int] = field(default_factory=list)
    high: int | None = None
    run: int = 0
    reveals: int = 0
    auctions: int = 0
    turns: int = 0
    done: bool = False
    points_left: int = 0  # the points of the items still to be auctioned


class BucksEngine:
    """Fairy Bucks for 2-5 players."""

    def __init__(self, rules: BuckRules) -> None:
        self.rules = rules
        self.step_limit = 5_000

    def start(self, players: int, rng: random.Random) -> Auction:
        r = self.rules
        items = [i for i in r.items if players > 2 or i[0] != r.two_player_removed]
        rng.shuffle(items)
        castle, items = items[: r.castle_items], items[r.castle_items :]
        items = items[(r.set_aside_two if players == 2 else r.set_aside) :]
        a = Auction(items, [sorted(r.notes) for _ in range(players)], [[] for _ in range(players)], castle)
        self._next_lot(a)
        return a

    def to_move(self, a: Auction) -> int:
        return a.waiting[0]

    def legal_moves(self, a: Auction) -> Sequence[object]:
        seat = a.waiting[0]
        moves: list[object] = list(sorted(set(a.hands[seat])))
        moves.append(POOF)
        if a.reveals and self.rules.raising_optional:
            moves.append(PASS)
        return moves

    def apply(self, a: Auction, move: object, rng: random.Random) -> None:
        seat = a.waiting.pop(0)
        a.turns += 1
        if isinstance(move, int):
            a.hands[seat].remove(move)
        a.laid[seat] = move  # type: ignore[assignment]
        if not a.waiting:
            self._reveal(a)

    def ended(self, a: Auction) -> str | None:
        return "item deck used up" if a.done else None

    def outcome(self, a: Auction, end: str) -> Outcome:
        scores = tuple(float(self.score(w)) for w in a.won)
        return Outcome(
            scores,
            best_seats(scores),
            end,
            a.turns,
            a.auctions,
            {
                "reveals per auction": a.reveals / max(1, a.auctions),
                "money left": sum(map(sum, a.hands)) / len(a.hands),
            },
        )

    def score(self, won: Sequence[tuple[int, str]]) -> int:
        """Item points plus the set bonus for every set of one item of each symbol."""
        symbols = [s for _, s in won]
        sets = min(symbols.count(sym) for sym in self.rules.symbols)
        return sum([v for v, _ in won]) + self.rules.set_bonus * sets

    def greedy(self, a: Auction, moves: Sequence[object], rng: random.Random) -> object:
        """Bid in proportion to the lot's share of the points still to come: open at random below that
        budget, raise just enough to lead while the budget allows, wait while leading, else Poof!."""
        seat = a.waiting[0]
        mine = sum(a.bids[seat])
        others = [sum(a.bids[s]) for s in range(len(a.hands)) if s != seat and a.active[s]]
        lot = self.score(a.won[seat] + a.lot) - self.score(a.won[seat])
        to_come = lot + a.points_left + 4
        budget = (sum(a.hands[seat]) + mine) * lot * len(a.hands) / to_come  # a fair share of the lots
        notes = [m for m in moves if isinstance(m, int)]
        if a.reveals and others and mine > max(others):
            return PASS
        need = (max(others) + 1 - mine) if others else 1
        fitting = [n for n in notes if n >= need and mine + n <= budget + 1]
        if not a.reveals:  # an opening bid somewhere below the budget, not to be read
            cheap = [n for n in notes if n <= max(1.0, budget)]
            return rng.choice(cheap) if cheap else POOF
        if fitting:
            return min(fitting)
        return PASS if others and mine == max(others) else POOF

    # -- the flow
    def _next_lot(self, a: Auction) -> None:
        n = len(a.hands)
        if len(a.items) < self.rules.lot:
            self._castle(a)
            a.done = True
            return
        a.lot, a.items = a.items[: self.rules.lot], a.items[self.rules.lot :]
        a.points_left = sum(v for v, _ in a.items)
        a.bids, a.active = [[] for _ in range(n)], [True] * n
        a.high, a.run, a.laid = None, 0, {}
        a.auctions += 1
        a.waiting = list(range(n))

    def _reveal(self, a: Auction) -> None:
        a.reveals += 1
        n = len(a.hands)
        for seat, card in sorted(a.laid.items()):
            if card == POOF:  # the bid comes back and its owner is out of this auction
                a.hands[seat] += a.bids[seat]
                a.bids[seat], a.active[seat] = [], False
            elif isinstance(card, int):
                a.bids[seat].append(card)
        added = any(isinstance(c, int) for c in a.laid.values())
        a.laid = {}
        inside = [s for s in range(n) if a.active[s]]
        if len(inside) <= 1:
            self._sold(a, inside[0] if inside else None)
            return
        totals = {s: sum(a.bids[s]) for s in inside}
        top = max(totals.values())
        leaders = [s for s in inside if totals[s] == top]
        if len(leaders) == 1:
            a.run = a.run + 1 if a.high == leaders[0] else 1
            a.high = leaders[0]
            if a.run >= self.rules.streak:
                self._sold(a, a.high)
                return
        else:
            a.high, a.run = None, 0
            if not added:  # nobody raised and the lead is still shared: the lot is discarded
                self._sold(a, None)
                return
        a.waiting = inside

    def _sold(self, a: Auction, winner: int | None) -> None:
        for s in range(len(a.hands)):
            bid = sorted(a.bids[s])
            if s == winner or not bid:
                continue
            keep = bid[self.rules.losers_discard :] if winner is not None and a.active[s] else bid
            a.hands[s] += keep
        if winner is not None:
            a.won[winner] += a.lot
        self._next_lot(a)

    def _castle(self, a: Auction) -> None:
        money = [sum(h) for h in a.hands]
        top = max(money)
        if money.count(top) == 1:
            a.won[money.index(top)] += a.castle
