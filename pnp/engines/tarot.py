"""The Fate/Tiger Colosseum tarot duel as whole games: two facing tracks, single and combo attacks,
strike-backs, refills from the stock and the loot count.

Cards are ids into `TarotRules.cards`. A turn moves one map card a step (and may attack the card
straight across) or swaps two neighbours. An attacked player answers (`defend` moves); a defence
with a hand card lets the defending map card strike back once, and an answer that holds against a
strike-back cancels the striking card with it (the rules' worked example). Combo cards are kept or lost as `combo_kept`
says, the one kept chosen by shuffling. Once the stock is empty, `quiet_turns` turns in a row
without an attack end the duel (the rules' "the gap can no longer change"). Hidden cards are
tracked (`shown`): the greedy bot reads only its own cards and the face-up ones.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import cast

from pnp.engines.play import Outcome, best_seats

NONE, MAP = ("none",), ("map",)
SINGLE = "single"


@dataclass(frozen=True)
class Arcana:
    """One character: element (none for Tiger), the keys of the cards it forms a combo with."""

    key: str
    element: str
    tiger: bool
    servants: frozenset[str] = frozenset()


@dataclass(frozen=True)
class TarotRules:
    cards: tuple[Arcana, ...]
    deal: int = 6
    on_map: int = 2
    in_hand: int = 4
    start_positions: tuple[int, ...] = (1, 2)
    refill_position: int = 0
    positions: int = 5
    last_on_map: int = 1
    combo_kept: int = 1
    tiger_attacks: bool = False
    tiger_defends_as_combo: bool = True
    quiet_turns: int = 10


@dataclass
class Fight:
    """An attack under way: the striking card's side and position, the attacked one's, the kind
    (single, or the attacker's combo hand card), and the combo card still to be settled."""

    striker: tuple[int, int]
    target: tuple[int, int]
    combo: int | None = None
    pending: int | None = None  # the attacker's combo card, settled when the fight ends
    home: tuple[int, int] = (0, 0)  # where the attacker stands
    fate: str = ""  # what befell the attacker's map card: "", "captured" or "cancelled"
    counter: bool = False  # a strike-back: any answer that holds cancels the striking card too


@dataclass
class Duel:
    stock: list[int]
    hands: list[list[int]]
    tracks: list[list[int | None]]
    loot: list[list[int]] = field(default_factory=lambda: [[], []])
    waste: list[int] = field(default_factory=list)
    seat: int = 0
    placing: list[int] = field(default_factory=list)  # seats that still lay a card on the map
    entry: list[int] = field(default_factory=list)  # where those cards go (start positions, then refill)
    fight: Fight | None = None
    shown: set[int] = field(default_factory=set)
    quiet: int = 0
    turns: int = 0
    attacks: int = 0


class TarotEngine:
    """The two-player tarot duel on one deck."""

    def __init__(self, rules: TarotRules) -> None:
        self.rules = rules
        self.step_limit = 3_000
        keys = {c.key: i for i, c in enumerate(rules.cards)}
        self._pair = {(i, keys[s]) for i, c in enumerate(rules.cards) for s in c.servants if s in keys}
        self._pair |= {(b, a) for a, b in self._pair}
        self._master_of = {(keys[s], i) for i, c in enumerate(rules.cards) for s in c.servants if s in keys}

    # -- the cards
    def combo(self, a: int, b: int) -> bool:
        """Whether `a` and `b` are a master and one of their servants."""
        return (a, b) in self._pair

    def attacks(self, card: int) -> bool:
        return self.rules.tiger_attacks or not self.rules.cards[card].tiger

    def stops(self, defender: int, striker: int) -> bool:
        """Whether a single `defender` holds against a single `striker`: Tiger, the same element, or the
        striker's own master; between different elements the one striking first wins."""
        d, s = self.rules.cards[defender], self.rules.cards[striker]
        if d.tiger:
            return True
        return d.element == s.element or (striker, defender) in self._master_of

    def faces(self, pos: int) -> int:
        return self.rules.positions - 1 - pos

    # -- protocol
    def start(self, players: int, rng: random.Random) -> Duel:
        if players != 2:
            raise ValueError("the tarot duel is for two players")
        deck = list(range(len(self.rules.cards)))
        rng.shuffle(deck)
        d = self.rules.deal
        duel = Duel(
            deck[2 * d :], [deck[:d], deck[d : 2 * d]], [[None] * self.rules.positions for _ in range(2)]
        )
        duel.seat = rng.randrange(2)
        for pos in self.rules.start_positions[: self.rules.on_map]:
            for side in (duel.seat, 1 - duel.seat):
                duel.placing.append(side)
                duel.entry.append(pos)
        return duel

    def to_move(self, d: Duel) -> int:
        if d.placing:
            return d.placing[0]
        if d.fight is not None:
            return d.fight.target[0]
        return d.seat

    def legal_moves(self, d: Duel) -> Sequence[object]:
        if d.placing:
            return [("place", c) for c in sorted(d.hands[d.placing[0]])]
        if d.fight is not None:
            return self._defences(d, d.fight)
        return self._turns(d)

    def _turns(self, d: Duel) -> list[object]:
        side, n = d.seat, self.rules.positions
        track, other = d.tracks[side], d.tracks[1 - side]
        out: list[object] = []
        for p, card in enumerate(track):
            if card is None:
                continue
            for q in (p - 1, p + 1):
                if not 0 <= q < n or track[q] is not None:
                    continue
                out.append(("move", p, q, None))
                if other[self.faces(q)] is not None and self.attacks(card):
                    out.append(("move", p, q, SINGLE))
                    out += [("move", p, q, h) for h in sorted(d.hands[side]) if self.combo(card, h)]
            if p + 1 < n and track[p + 1] is not None:
                out.append(("swap", p, p + 1))
        return out

    def _defences(self, d: Duel, f: Fight) -> list[object]:
        side, pos = f.target
        target = d.tracks[side][pos]
        striker = d.tracks[f.striker[0]][f.striker[1]]
        assert target is not None and striker is not None
        hand = sorted(d.hands[side])
        out: list[object] = [NONE]
        if f.combo is None:
            if self.stops(target, striker):
                out.append(MAP)
            return out + [("hand", h) for h in hand if self.stops(h, striker)]
        tiger = self.rules.tiger_defends_as_combo
        if tiger and self.rules.cards[target].tiger:
            out.append(MAP)
        out += [("hand", h) for h in hand if self.combo(target, h) or (tiger and self.rules.cards[h].tiger)]
        return out + [("pair", a, b) for a, b in combinations(hand, 2) if self.combo(a, b)]

    def apply(self, d: Duel, move: object, rng: random.Random) -> None:
        assert isinstance(move, tuple)
        if d.placing:
            self._place(d, d.placing.pop(0), d.entry.pop(0), int(move[1]))
            return
        if d.fight is not None:
            self._defend(d, d.fight, move, rng)
            return
        side, p, q = d.seat, int(move[1]), int(move[2])
        track = d.tracks[side]
        if move[0] == "swap":
            track[p], track[q] = track[q], track[p]
        else:
            track[p], track[q] = None, track[p]
            if move[3] is not None:
                self._attack(d, side, q, move[3])
                return
        self._end_turn(d, attacked=False)

    def ended(self, d: Duel) -> str | None:
        if d.placing or d.fight is not None:
            return None
        if not d.stock and d.quiet >= self.rules.quiet_turns:
            return "no change possible"
        if any(all(c is None for c in track) for track in d.tracks):
            return "a side has no cards left"
        return None

    def outcome(self, d: Duel, end: str) -> Outcome:
        scores = tuple(float(len(pile)) for pile in d.loot)
        winners = best_seats(scores)
        return Outcome(
            scores,
            winners if len(winners) == 1 else (),
            end,
            d.turns,
            -(-d.turns // 2),
            {"attacks": float(d.attacks), "cards captured": float(sum(map(len, d.loot)))},
        )

    # -- fights
    def _attack(self, d: Duel, side: int, pos: int, kind: object) -> None:
        d.attacks += 1
        card = d.tracks[side][pos]
        assert card is not None
        d.shown.add(card)
        fight = Fight((side, pos), (1 - side, self.faces(pos)), home=(side, pos))
        if isinstance(kind, int):
            d.hands[side].remove(kind)
            d.shown.add(kind)
            fight.combo = fight.pending = kind
        d.fight = fight

    def _defend(self, d: Duel, f: Fight, move: tuple[object, ...], rng: random.Random) -> None:
        side, pos = f.target
        target = d.tracks[side][pos]
        assert target is not None
        d.shown.add(target)
        if move == NONE:  # the attacked card is captured
            d.tracks[side][pos] = None
            d.shown.discard(target)
            d.loot[f.striker[0]].append(target)
            f.fate = "captured" if f.target == f.home else f.fate
            self._settle(d, f, rng)
            return
        if move == MAP:
            if f.combo is None:  # two singles cancel out
                for s, p in (f.striker, f.target):
                    card = d.tracks[s][p]
                    d.tracks[s][p] = None
                    assert card is not None
                    self._to_waste(d, card)
                f.fate = "cancelled"
            self._settle(d, f, rng)
            return
        for used in move[1:]:
            d.hands[side].remove(cast(int, used))
            self._to_waste(d, cast(int, used))
        f.combo = None
        if f.counter:  # a strike-back stopped from the hand: the striking card and the answer both go
            striker = d.tracks[f.striker[0]][f.striker[1]]
            assert striker is not None
            d.tracks[f.striker[0]][f.striker[1]] = None
            self._to_waste(d, striker)
            self._settle(d, f, rng)
            return
        if not self.attacks(target):  # Tiger holds but cannot strike back
            self._settle(d, f, rng)
            return
        f.striker, f.target, f.counter = f.target, f.striker, True  # the defending map card strikes back

    def _settle(self, d: Duel, f: Fight, rng: random.Random) -> None:
        """The fight is over. A combo attacker loses 2 - `combo_kept` of the pair to the waste, shuffled,
        counting the map card if it was cancelled; a captured map card loses its partner too. What is
        kept stands where the attacker stood (face down); more than one kept goes back to the hand."""
        if f.pending is not None:
            side, pos = f.home
            card = d.tracks[side][pos] if f.fate == "" else None
            pool = ([] if card is None else [card]) + [f.pending]
            rng.shuffle(pool)
            need = max(0, 2 - self.rules.combo_kept - (f.fate == "cancelled"))
            for c in pool[:need]:
                self._to_waste(d, c)
            kept = pool[need:]
            d.tracks[side][pos] = kept[0] if kept else None
            d.hands[side] += kept[1:]
            for c in kept:
                d.shown.discard(c)  # the kept card goes face down again
        d.fight = None
        self._end_turn(d, attacked=True)

    def _to_waste(self, d: Duel, card: int) -> None:
        d.waste.append(card)
        d.shown.discard(card)

    # -- refills
    def _end_turn(self, d: Duel, attacked: bool) -> None:
        d.turns += 1
        d.quiet = 0 if attacked or d.stock else d.quiet + 1
        r = self.rules
        for side in (d.seat, 1 - d.seat):
            on_map = sum(c is not None for c in d.tracks[side])
            hand = d.hands[side]
            while d.stock and len(hand) + on_map < r.on_map + r.in_hand:
                hand.append(d.stock.pop())
            want = r.on_map if d.stock or len(hand) > r.in_hand else r.last_on_map
            for _ in range(max(0, min(want - on_map, len(hand)))):
                d.placing.append(side)
                d.entry.append(r.refill_position)
        d.seat = 1 - d.seat

    def _place(self, d: Duel, side: int, entry: int, card: int) -> None:
        track = d.tracks[side]
        free = [p for p in range(len(track)) if track[p] is None]
        pos = min(free, key=lambda p: (abs(p - entry), p))
        d.hands[side].remove(card)
        track[pos] = card

    # -- greedy
    def greedy(self, d: Duel, moves: Sequence[object], rng: random.Random) -> object:
        """Lay the hand card least needed for combos and defence; attack with a combo, or with a single
        against a face-up card that cannot hold; defend with the cheapest card that holds."""
        side = self.to_move(d)
        hand = d.hands[side]
        if d.placing:
            return min(moves, key=lambda m: (self._use(m[1], hand), rng.random()))  # type: ignore[index]
        if d.fight is not None:
            held = [m for m in moves if m != NONE]
            return min(held, key=lambda m: self._cost(m, hand)) if held else NONE
        best, score = None, 0.0
        other = d.tracks[1 - side]
        for m in moves:
            s = self._attack_score(d, side, other, m)
            if s > score:
                best, score = m, s
        if best is not None:
            return best
        quiet = [m for m in moves if isinstance(m, tuple) and (m[0] == "swap" or m[3] is None)]
        return quiet[rng.randrange(len(quiet))]

    def _attack_score(self, d: Duel, side: int, other: Sequence[int | None], m: object) -> float:
        assert isinstance(m, tuple)
        if m[0] != "move" or m[3] is None:
            return 0.0
        target = other[self.faces(cast(int, m[2]))]
        card = d.tracks[side][cast(int, m[1])]
        assert target is not None and card is not None
        if isinstance(m[3], int):
            return 2.0
        if target in d.shown:
            return 0.0 if self.stops(target, card) else 3.0
        return 0.5

    def _use(self, card: int, hand: Sequence[int]) -> int:
        """How much a hand card is worth keeping: Tiger most, then combo partners."""
        if self.rules.cards[card].tiger:
            return 3
        return sum(1 for h in hand if h != card and self.combo(card, h))

    def _cost(self, move: object, hand: Sequence[int]) -> tuple[int, int]:
        assert isinstance(move, tuple)
        if move == MAP:
            return (1, 0)
        return (len(move) - 1, sum(self._use(cast(int, c), hand) for c in move[1:]))
