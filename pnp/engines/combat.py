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
* The Ace of Spades doubles damage only (not a defender's bonus), and only
  when it is among the revealed trumps of either side.
* Under the damage-level variant only the damage dealt to a losing defender
  changes; a winning defender still earns the halved-difference points.
* Jokers take no part in combat: they cannot be played and are set aside
  when drawn while looking for a Numbered card.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from types import MappingProxyType
from typing import Iterable, Iterator, Literal, Mapping, Sequence

Mode = Literal["add", "subtract"]
Role = Literal["attacker", "defender"]
Winner = Literal["attacker", "defender", "draw"]

NUMBERED_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10")
TRUMP_RANKS = ("J", "Q", "K", "A")
RANKS = NUMBERED_RANKS + TRUMP_RANKS
SUITS = ("hearts", "diamonds", "clubs", "spades")
JOKER = "Joker"
_RED_SUITS = frozenset({"hearts", "diamonds"})
_NUMBERED_SET = frozenset(NUMBERED_RANKS)
_TRUMP_SET = frozenset(TRUMP_RANKS)
_SUIT_CODES = {"hearts": "H", "diamonds": "D", "clubs": "C", "spades": "S"}
_SUIT_SYMBOLS = {"hearts": "\u2665", "diamonds": "\u2666", "clubs": "\u2663", "spades": "\u2660"}


# --------------------------------------------------------------------------- cards


@dataclass(frozen=True)
class Card:
    """One playing card of the Fairy Deck; `suit` is None only for a Joker."""

    rank: str
    suit: str | None

    def __post_init__(self) -> None:
        if self.rank == JOKER:
            if self.suit is not None:
                raise ValueError("a Joker has no suit")
        elif self.rank not in RANKS:
            raise ValueError(f"unknown rank {self.rank!r}")
        elif self.suit not in SUITS:
            raise ValueError(f"unknown suit {self.suit!r}")

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER

    @property
    def is_trump(self) -> bool:
        """Jacks, Queens, Kings and Aces are Trumps."""
        return self.rank in _TRUMP_SET

    @property
    def is_numbered(self) -> bool:
        """Cards 2 to 10 are Numbered cards."""
        return self.rank in _NUMBERED_SET

    @property
    def colour(self) -> str | None:
        """'red' for hearts/diamonds, 'black' for clubs/spades, None for a Joker."""
        if self.suit is None:
            return None
        return "red" if self.suit in _RED_SUITS else "black"

    @property
    def value(self) -> int | None:
        """Face value of a Numbered card; None for Trumps and Jokers."""
        return int(self.rank) if self.rank in _NUMBERED_SET else None

    @property
    def is_ace_of_spades(self) -> bool:
        return self.rank == "A" and self.suit == "spades"

    @property
    def symbol(self) -> str:
        """Short form with a suit sign, e.g. 'K\u2660'."""
        return JOKER if self.suit is None else self.rank + _SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return JOKER if self.suit is None else self.rank + _SUIT_CODES[self.suit]


_RANK_WORDS: Mapping[str, str] = MappingProxyType({
    **{r.lower(): r for r in RANKS},
    "t": "10", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
    "seven": "7", "eight": "8", "nine": "9", "ten": "10",
    "jack": "J", "queen": "Q", "king": "K", "ace": "A",
})
_SUIT_WORDS: Mapping[str, str] = MappingProxyType({
    **{s: s for s in SUITS},
    **{s[:-1]: s for s in SUITS},
    **{c.lower(): s for s, c in _SUIT_CODES.items()},
    **{sym: s for s, sym in _SUIT_SYMBOLS.items()},
    "\u2661": "hearts", "\u2662": "diamonds", "\u2667": "clubs", "\u2664": "spades",
})


def parse_card(text: str) -> Card:
    """Read 'KS', '10H', '4C', 'A\u2660', 'Joker', 'K of spades' or 'ten of hearts'."""
    s = " ".join(text.strip().lower().split())
    if s in ("joker", "jk", "jkr"):
        return Card(JOKER, None)
    if " of " in s:
        rank_word, suit_word = (part.strip() for part in s.split(" of ", 1))
    elif len(s) >= 2:
        rank_word, suit_word = s[:-1].strip(), s[-1]
    else:
        raise ValueError(f"cannot read a card from {text!r}")
    rank, suit = _RANK_WORDS.get(rank_word), _SUIT_WORDS.get(suit_word)
    if rank is None or suit is None:
        raise ValueError(f"cannot read a card from {text!r}")
    return Card(rank, suit)


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse several cards: an iterable of texts, or one string separated by commas (or spaces)."""
    if isinstance(text, str):
        parts = text.split(",") if "," in text or " of " in text else text.split()
    else:
        parts = list(text)
    return [parse_card(p) for p in parts if p.strip()]


def standard_deck(jokers: int = 2) -> list[Card]:
    """A fresh 52-card deck (suit by suit, 2 up to Ace) followed by `jokers` Jokers."""
    if jokers < 0:
        raise ValueError("jokers must be >= 0")
    return [Card(r, s) for s in SUITS for r in RANKS] + [Card(JOKER, None)] * jokers


# --------------------------------------------------------------------------- one attack


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


def _as_trumps(items: Iterable[Trump | Card]) -> tuple[Trump, ...]:
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
        object.__setattr__(self, "trumps", _as_trumps(self.trumps))
        object.__setattr__(self, "wild", _as_trumps(self.wild))
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
        return tuple(n for n, c in (("attacker", self.attacker_cheated), ("defender", self.defender_cheated)) if c)

    @property
    def cheated(self) -> bool:
        return self.attacker_cheated or self.defender_cheated

    @property
    def nasty_hit(self) -> bool:
        """Three or more damage in a single attack calls for a Nasty Hits draw."""
        return self.damage >= 3


def points_for(difference: int) -> int:
    """Points scored: half the difference, rounded up."""
    return (abs(difference) + 1) // 2


def damage_level(difference: int) -> int:
    """Damage under the rulebook-levels variant: 1 up to 4, 2 up to 8, else 3 (0 for no difference)."""
    d = abs(difference)
    if d == 0:
        return 0
    return 1 if d <= 4 else 2 if d <= 8 else 3


def _own_and_cheat(side: SidePlay, applied: tuple[Trump, ...]) -> tuple[int, int]:
    colour = side.numbered.colour
    matching = sum(1 for t in applied if t.colour == colour)
    sign = 1 if side.mode == "add" else -1
    return sign * matching, len(applied) - matching


def _resolve(attacker: SidePlay, defender: SidePlay, a_reveal: bool, d_reveal: bool,
             damage_levels: bool) -> AttackResult:
    a_trumps, d_trumps = _applied(attacker, a_reveal), _applied(defender, d_reveal)
    a_own, a_cheat = _own_and_cheat(attacker, a_trumps)
    d_own, d_cheat = _own_and_cheat(defender, d_trumps)
    highest = attacker.numbered.colour == defender.numbered.colour
    a_val = (attacker.numbered.value or 0) + a_own
    d_val = (defender.numbered.value or 0) + d_own
    # The opponent of a cheat pushes both values its own way by one per trump:
    # up for itself and down for the cheat when highest wins, mirrored otherwise.
    step = 1 if highest else -1
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
    points = points_for(diff) if winner != "draw" else 0
    ace = any(t.is_ace_of_spades for t in a_trumps + d_trumps)
    damage = bonus = 0
    if winner == "attacker":
        damage = damage_level(diff) if damage_levels else points
        if ace:
            damage *= 2
    elif winner == "defender":
        bonus = points
    return AttackResult(
        attacker_value=a_val, defender_value=d_val, highest_wins=highest, winner=winner,
        difference=diff, points=points, damage=damage, bonus=bonus,
        attacker_cheated=a_cheat > 0, defender_cheated=d_cheat > 0,
        ace_of_spades=ace, ace_doubled=ace and winner == "attacker",
        attacker_revealed=a_reveal, defender_revealed=d_reveal,
    )


def _attacker_utility(r: AttackResult) -> int:
    """Zero-sum score from the attacker's side: damage dealt, or minus the bonus conceded."""
    return r.damage if r.winner == "attacker" else -r.bonus


def resolve_attack(attacker: SidePlay, defender: SidePlay, *, damage_levels: bool = False,
                   allow_withhold: bool = True) -> AttackResult:
    """Resolve one attack of the alternative combat system.

    When one side revealed no trumps at all, the other may leave its own
    face-down Trump cards unused after the Numbered cards are shown; with
    `allow_withhold` that side makes whichever choice scores better for it
    (damage dealt or bonus won, net of what it concedes), keeping them hidden
    on a tie.  Wild-route trumps and declared wild points are always used.
    """
    if allow_withhold and not defender.trumps and attacker.can_withhold:
        hidden = _resolve(attacker, defender, False, True, damage_levels)
        shown = _resolve(attacker, defender, True, True, damage_levels)
        return shown if _attacker_utility(shown) > _attacker_utility(hidden) else hidden
    if allow_withhold and not attacker.trumps and defender.can_withhold:
        hidden = _resolve(attacker, defender, True, False, damage_levels)
        shown = _resolve(attacker, defender, True, True, damage_levels)
        return shown if _attacker_utility(shown) < _attacker_utility(hidden) else hidden
    return _resolve(attacker, defender, True, True, damage_levels)


class DeckExhausted(ValueError):
    """The draw ran out before the card that was needed turned up."""


def play_wild(mode: Mode, draw: Iterator[Card], *, trumps: Iterable[Trump | Card] = (),
              wild: Iterable[Trump | Card] = ()) -> tuple[SidePlay, tuple[Card, ...]]:
    """Complete a side that has no Numbered card by drawing until one appears.

    `wild` starts with the Trump played in place of the Numbered card; every
    Trump drawn joins it, Jokers are set aside.  Returns the finished play and
    every card drawn, in order.
    """
    extra = list(_as_trumps(wild))
    drawn: list[Card] = []
    for card in draw:
        drawn.append(card)
        if card.is_numbered:
            return SidePlay(card, mode, _as_trumps(trumps), tuple(extra)), tuple(drawn)
        if card.is_trump:
            extra.append(Trump.of(card))
    raise DeckExhausted("no Numbered card left to draw")


# --------------------------------------------------------------------------- Nasty Hits


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


# --------------------------------------------------------------------------- strategy


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
_WEIGHTS: Mapping[str, tuple[float, float]] = MappingProxyType({
    "attacker": (1.0, 0.5),   # (weight of points won, weight of points lost)
    "defender": (0.5, 1.0),
})
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
        for signed in (value - w, w - value):   # same colour, then different colour
            if signed > 0:
                total += win_w * points_for(signed)
            elif signed < 0:
                total -= loss_w * points_for(signed)
    return total / (2 * len(_OPPONENT_VALUES))


_UTILITY: Mapping[str, tuple[float, ...]] = MappingProxyType({
    role: tuple(expected_utility(v, role) for v in range(_TABLE_LOW, _TABLE_HIGH + 1))  # type: ignore[arg-type]
    for role in ("attacker", "defender")
})


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
            for mode, final in (("add", base + count), ("subtract", base - count))[: 1 if count == 0 else 2]:
                score = table[final - _TABLE_LOW] if _TABLE_LOW <= final <= _TABLE_HIGH \
                    else expected_utility(final, role)
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
        return SidePlay(play.numbered, play.mode, _as_trumps(play.trumps))
    if play.wild is None:
        return None
    try:
        return play_wild(play.mode, pile, trumps=play.trumps, wild=(play.wild,))[0]
    except DeckExhausted:
        return None


def simulate(deck: list[Card], attacker_kill: int, defender_live: int, trials: int,
             seed: int, *, damage_levels: bool = False) -> CombatStats:
    """Estimate one attack: Kill+1 cards against Live cards from a shuffled `deck`.

    Each trial shuffles the deck with a single `random.Random(seed)`, deals
    the attacker then the defender, lets both sides use `choose_play`, and
    resolves the attack; Wild Trump draws (attacker first) come from the rest
    of the deck.  A side left with nothing to play (only Jokers, or a deck
    that ran dry) forfeits and loses by one point; if both do, it is a draw.
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
        r = resolve_attack(a_side, d_side, damage_levels=damage_levels)
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
        trials=trials, seed=seed, attacker_cards=a_n, defender_cards=d_n,
        expected_damage=damage / n, expected_bonus=bonus / n, p_nasty_hit=nasty / n,
        p_cheat=cheat / n, p_attacker_win=a_win / n, p_defender_win=d_win / n, p_draw=draws / n,
        p_ace_doubled=doubled / n, p_forfeit=forfeit / n,
    )
