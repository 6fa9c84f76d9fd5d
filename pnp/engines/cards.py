"""Playing cards for the Fairy Meat combat system: ranks, suits, parsing and the standard deck."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

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


_RANK_WORDS: Mapping[str, str] = MappingProxyType(
    {
        **{r.lower(): r for r in RANKS},
        "t": "10",
        "two": "2",
        "three": "3",
        "four": "4",
        "five": "5",
        "six": "6",
        "seven": "7",
        "eight": "8",
        "nine": "9",
        "ten": "10",
        "jack": "J",
        "queen": "Q",
        "king": "K",
        "ace": "A",
    }
)
_SUIT_WORDS: Mapping[str, str] = MappingProxyType(
    {
        **{s: s for s in SUITS},
        **{s[:-1]: s for s in SUITS},
        **{c.lower(): s for s, c in _SUIT_CODES.items()},
        **{sym: s for s, sym in _SUIT_SYMBOLS.items()},
        "\u2661": "hearts",
        "\u2662": "diamonds",
        "\u2667": "clubs",
        "\u2664": "spades",
    }
)


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
