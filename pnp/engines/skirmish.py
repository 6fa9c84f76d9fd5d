"""Fairy Meat's card-driven part as a whole game: a skirmish of fairies fighting with the Fairy Deck.

Each round every living fairy draws an Order card; in that order each attacks one enemy with the
alternative combat (Kill + extra cards against Live cards), a blow of the Nasty Hits threshold or
more draws on the Nasty Hits table, and every card used goes to the Spoils Heap, shuffled back in
when the Fairy Deck runs out. Combat, the table and all numbers come from `CombatRules`,
`NastyTable` and `SkirmishRules`, built from the game's facts. Choices that the seed leaves to the
table (start values, damage split, order ties, the round limit) are the database's `decisions:`.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from pnp.engines.cards import Card
from pnp.engines.combat import CombatRules, DeckExhausted, SidePlay, as_trumps, play_wild, resolve_attack
from pnp.engines.deckstats import order_value
from pnp.engines.nasty_hits import NastyTable, nasty_hit
from pnp.engines.play import Outcome, best_seats
from pnp.engines.simulate import Play, _trump_order, choose_play

# Nasty Hits rows that change how a fight goes, by name (the rest only matter on the tabletop).
DAZED, GBH, BRAINS, PANICKED, CONFUSED, BERSERK, BLEEDER, GUSHER = (
    "Dazed",
    "Grievous Bodily Harm (GBH)",
    "Brains Rattled",
    "Panicked",
    "Confused",
    "Berserk",
    "Bleeder",
    "Gusher",
)


@dataclass(frozen=True)
class SkirmishRules:
    """The numbers of a skirmish: combat and table, each fairy's start, cards and the round limit."""

    combat: CombatRules
    nasty: NastyTable
    deck: tuple[Card, ...]
    kill: int = 3
    live: int = 3
    rounds: int = 6
    attacker_extra: int = 1
    bonus_per_point: int = 1


@dataclass
class Fairy:
    kill: int
    live: int
    dead: bool = False
    dazed: bool = False
    gbh: int = 0
    bleeder: int = 0
    gusher: int = 0
    panicked: bool = False
    confused: bool = False
    order_trumps: int = 0


@dataclass
class Skirmish:
    fairies: list[Fairy]
    deck: list[Card]
    spoils: list[Card] = field(default_factory=list)
    round: int = 0
    order: list[int] = field(default_factory=list)
    pos: int = 0
    phase: str = "target"  # target, attack, defend
    attacker: int = 0
    defender: int = 0
    hands: dict[str, list[Card]] = field(default_factory=dict)
    a_play: Play | None = None
    bonus: dict[tuple[int, int], int] = field(default_factory=dict)
    combats: int = 0
    damage: int = 0
    nasty: int = 0
    deaths: int = 0


def _pile(s: Skirmish, rng: random.Random) -> Iterator[Card]:
    """Draw from the Fairy Deck; when it runs out the Spoils Heap is shuffled into a new one."""
    while True:
        if not s.deck:
            if not s.spoils:
                return
            s.deck, s.spoils = s.spoils, []
            rng.shuffle(s.deck)
        yield s.deck.pop()


def _draw(s: Skirmish, n: int, rng: random.Random) -> list[Card]:
    pile = _pile(s, rng)
    return [c for _, c in zip(range(max(0, n)), pile)]


def legal_plays(hand: Sequence[Card], role: str) -> list[Play]:
    """Every play the combat rules allow from a hand: a Numbered card if there is one (with none,
    some or all Trumps of one colour, added or subtracted, cheating included), else a Trump as a
    Wild Trump, else nothing (a forfeit)."""
    numbered = sorted(set(c for c in hand if c.is_numbered), key=str)
    trumps = [c for c in hand if c.is_trump]
    if not numbered:
        wilds = sorted(set(trumps), key=str)
        return [Play("add", (), None, w) for w in wilds] or [Play("add")]
    out: list[Play] = []
    by_colour = {col: _trump_order([t for t in trumps if t.colour == col], role) for col in ("red", "black")}  # type: ignore[arg-type]
    for card in numbered:
        out.append(Play("add", (), card))
        for shown in by_colour.values():
            for k in range(1, len(shown) + 1):
                out += [Play("add", tuple(shown[:k]), card), Play("subtract", tuple(shown[:k]), card)]
    return out


class SkirmishEngine:
    """Fairy Meat skirmish: every player one fairy; the last fairy standing wins."""

    def __init__(self, rules: SkirmishRules) -> None:
        self.rules = rules

    # -- protocol
    def start(self, players: int, rng: random.Random) -> Skirmish:
        deck = list(self.rules.deck)
        rng.shuffle(deck)
        s = Skirmish([Fairy(self.rules.kill, self.rules.live) for _ in range(players)], deck)
        self._new_round(s, rng)
        self._advance(s, rng)
        return s

    def to_move(self, s: Skirmish) -> int:
        return s.defender if s.phase == "defend" else s.attacker

    def legal_moves(self, s: Skirmish) -> Sequence[object]:
        if s.phase == "target":
            return [i for i in self._alive(s) if i != s.attacker]
        return legal_plays(s.hands[s.phase], "attacker" if s.phase == "attack" else "defender")

    def apply(self, s: Skirmish, move: object, rng: random.Random) -> None:
        if s.phase == "target":
            assert isinstance(move, int)
            self._engage(s, move, rng)
        elif s.phase == "attack":
            assert isinstance(move, Play)
            s.a_play, s.phase = move, "defend"
        else:
            assert isinstance(move, Play)
            self._combat(s, move, rng)
            s.pos += 1
            self._advance(s, rng)

    def ended(self, s: Skirmish) -> str | None:
        if len(self._alive(s)) <= 1:
            return "last fairy standing"
        if s.round > self.rules.rounds:
            return "round limit"
        return None

    def outcome(self, s: Skirmish, end: str) -> Outcome:
        scores = tuple(float(0 if f.dead else f.kill + f.live) for f in s.fairies)
        combats = max(1, s.combats)
        return Outcome(
            scores,
            best_seats(scores, self._alive(s)),
            end,
            s.combats,
            min(s.round, self.rules.rounds),
            {"damage per combat": s.damage / combats, "deaths per fight": s.deaths, "nasty hits": s.nasty},
        )

    def greedy(self, s: Skirmish, moves: Sequence[object], rng: random.Random) -> object:
        if s.phase == "target":  # the weakest enemy
            seats = [int(m) for m in moves if isinstance(m, int)]
            return min(seats, key=lambda i: (s.fairies[i].kill + s.fairies[i].live, i))
        return choose_play(s.hands[s.phase], "attacker" if s.phase == "attack" else "defender", rng)

    # -- the flow between decisions
    @staticmethod
    def _alive(s: Skirmish) -> list[int]:
        return [i for i, f in enumerate(s.fairies) if not f.dead]

    def _new_round(self, s: Skirmish, rng: random.Random) -> None:
        s.round += 1
        s.pos, s.bonus = 0, {}
        keys: dict[int, tuple[int, int, float]] = {}
        for i in self._alive(s):
            card = _draw(s, 1, rng)
            f = s.fairies[i]
            f.order_trumps = sum(c.is_trump for c in card)
            s.spoils += card
            value = order_value(card[0]) if card else None
            rank = 0 if f.panicked else 2 if f.confused else 1
            keys[i] = (rank, -(value or 1), rng.random())  # ties: as if drawn again
        s.order = sorted(keys, key=keys.__getitem__)

    def _advance(self, s: Skirmish, rng: random.Random) -> None:
        """Run the automatic steps up to the next decision (or the end)."""
        while self.ended(s) is None:
            if s.pos >= len(s.order):
                self._new_round(s, rng)
                if self.ended(s) is not None:
                    return
                continue
            i = s.order[s.pos]
            f = s.fairies[i]
            if not f.dead:
                self._hurt(s, i, f.gusher + f.bleeder * f.order_trumps)
            if f.dead or f.dazed:
                f.dazed = False
                s.pos += 1
                continue
            s.attacker, s.phase = i, "target"
            enemies = [j for j in self._alive(s) if j != i]
            if len(enemies) == 1:
                self._engage(s, enemies[0], rng)
            return

    def _engage(self, s: Skirmish, target: int, rng: random.Random) -> None:
        a, d = s.fairies[s.attacker], s.fairies[target]
        s.defender = target
        n_a = a.kill + self.rules.attacker_extra - a.gbh + s.bonus.pop((s.attacker, target), 0)
        n_d = d.live - d.gbh - int(d.dazed)
        s.hands = {"attack": _draw(s, n_a, rng), "defend": _draw(s, n_d, rng)}
        s.phase = "attack"

    def _side(self, s: Skirmish, play: Play, rng: random.Random) -> SidePlay | None:
        if play.numbered is not None:
            return SidePlay(play.numbered, play.mode, as_trumps(play.trumps))
        if play.wild is None:
            return None
        try:
            side, drawn = play_wild(play.mode, _pile(s, rng), trumps=play.trumps, wild=(play.wild,))
        except DeckExhausted:
            return None
        s.spoils += drawn
        return side

    def _combat(self, s: Skirmish, d_play: Play, rng: random.Random) -> None:
        assert s.a_play is not None
        a_side, d_side = self._side(s, s.a_play, rng), self._side(s, d_play, rng)
        s.spoils += s.hands["attack"] + s.hands["defend"]
        s.combats += 1
        damage = bonus = 0
        if a_side is None or d_side is None:  # a side with nothing to play loses by a point
            damage, bonus = (
                int(d_side is None and a_side is not None),
                int(a_side is None and d_side is not None),
            )
        else:
            r = resolve_attack(a_side, d_side, rules=self.rules.combat)
            damage, bonus = r.damage, r.bonus
        if bonus and s.defender in s.order[s.pos + 1 :]:  # she has her turn still to come this round
            key = (s.defender, s.attacker)
            s.bonus[key] = s.bonus.get(key, 0) + bonus * self.rules.bonus_per_point
        if damage:
            s.damage += damage
            self._blow(s, s.defender, damage, rng)

    def _blow(self, s: Skirmish, i: int, damage: int, rng: random.Random) -> None:
        f = s.fairies[i]
        if damage < self.rules.nasty.threshold:
            self._hurt(s, i, damage)
            return
        try:
            hit = nasty_hit(damage, _pile(s, rng), self.rules.nasty)
        except DeckExhausted:
            self._hurt(s, i, damage)
            return
        s.spoils += hit.cards
        s.nasty += hit.is_nasty
        name = hit.effect.name if hit.effect is not None else ""
        self._hurt(s, i, hit.damage_taken + (name == BRAINS))  # skirmish fairies have no Twinkle points
        if hit.fatal and not f.dead:
            f.dead, f.kill, f.live = True, 0, 0
            s.deaths += 1
        if f.dead:
            return
        f.dazed |= name == DAZED
        f.gbh += name == GBH
        f.bleeder += name == BLEEDER
        f.gusher += name == GUSHER
        if name in (PANICKED, CONFUSED):
            if f.panicked or f.confused:  # the other one cancels both
                f.panicked = f.confused = False
            else:
                f.panicked, f.confused = name == PANICKED, name == CONFUSED
        if name == BERSERK:
            f.kill, f.live, f.panicked, f.confused = f.kill + f.live, 0, False, False

    @staticmethod
    def _hurt(s: Skirmish, i: int, damage: int) -> None:
        """Damage comes off Kill or Live a point at a time, whichever is larger (Live on a tie)."""
        f = s.fairies[i]
        if f.dead or damage <= 0:
            return
        for _ in range(damage):
            if f.live >= f.kill and f.live > 0:
                f.live -= 1
            elif f.kill > 0:
                f.kill -= 1
        if f.kill + f.live == 0:
            f.dead = True
            s.deaths += 1
