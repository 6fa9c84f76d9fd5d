"""The `board:` of a board component as a database writes it: typed, read by the schema like the rest.

A board is described, never coded: its size, title, and what lies on it.
Coordinates are millimetres from the board's top-left corner to the top-left
corner of each thing, x to the right and y downwards (as one reads a page).

    board:
      size: 420x297            # width x height in mm, or a paper name
      title: The Fairy Pot
      subtitle: optional second line
      color: "#5b3f8c"         # theme; default the game's accent
      emblem: sparkle          # corner ornaments
      areas:                   # card spaces, piles, zones and printed notes
        - {key: draw, kind: pile, label: Draw pile, x: 20, y: 40, card: deck, symbol: stone, note: face down}
        - {key: pot, kind: zone, label: The Fairy Pot, x: 100, y: 40, w: 200, h: 100, slots: 3, card: deck}
        - {key: help, kind: note, x: 20, y: 250, w: 380, h: 30, text: "Reminder text"}
      sides:                   # optional: who sits where, for maps
        A: {label: Player A, color: "#2f6f9f"}
        B: {label: Player B, color: "#9f3f2f", flip: true}
      positions:               # a map's track: card spaces with a side and an index
        - {key: A0, side: A, index: 0, x: 20, y: 160, card: tarot}
      links:                   # adjacencies between positions: [a, b] or [a, b, kind]
        - [A0, A1]             # kind "step": a card moves between them
        - [A3, B1, attack]     # kind "attack": cards fight across

`card` names a component of the same game (its card size is used) or a card
size (poker, tarot, 63x88...); `turn: true` lays the space sideways. Text may
be a template that reads the game's facts (`{{ facts.market }}`), and so may a
zone's `slots` and an area's `repeat` (a row of piles as long as a fact says). The laid-out
board (sizes resolved, cross-checked) is `pnp.data.reading.boardspec.BoardSpec`.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as fld
from typing import Literal

from pnp.data.format.colours import FORMS, rgb
from pnp.data.format.schema import doc as _d
from pnp.geometry.sizes import paper_size

LENGTH = 10_000.0  # mm: the most any board coordinate or size may be


def _mm(name: str, value: float | None) -> None:
    if value is not None and not -LENGTH <= value <= LENGTH:
        raise ValueError(
            f"{name}: expected a number of millimetres from {-LENGTH:g} to {LENGTH:g}, found {value:g}"
        )


def _colour(name: str, value: str | None) -> None:
    if value is not None:
        try:
            rgb(value)
        except ValueError:
            raise ValueError(f"{name}: not a colour: {value!r} (use {FORMS})") from None


def _whole(name: str, value: int, lo: int, hi: int) -> None:
    if not lo <= value <= hi:
        raise ValueError(f"{name}: expected a whole number from {lo} to {hi}, found {value}")


@dataclass(frozen=True)
class Area:
    """A card space, a pile, a zone holding several cards, or a printed note."""

    key: str = fld(metadata=_d("a name for the space, unique on the board"))
    x: float = fld(metadata=_d("mm from the board's left edge to the space's left edge"))
    y: float = fld(metadata=_d("mm from the board's top edge to the space's top edge"))
    kind: Literal["card", "pile", "zone", "note"] = fld(
        default="card",
        metadata=_d("card: one card; pile: a stack; zone: several cards (slots); note: printed text"),
    )
    label: str = fld(default="", metadata=_d("what goes there (every space but a note has one)"))
    w: float | None = fld(default=None, metadata=_d("width in mm (default: the card's)"))
    h: float | None = fld(default=None, metadata=_d("height in mm (default: the card's)"))
    card: str | None = fld(default=None, metadata=_d("a card component of this game, or a card size"))
    turn: bool = fld(default=False, metadata=_d("the card lies sideways"))
    symbol: str | None = fld(default=None, metadata=_d("a symbol drawn in the space"))
    note: str = fld(default="", metadata=_d("a short line under the label"))
    text: str = fld(default="", metadata=_d("a note's text"))
    slots: int | str = fld(
        default=0,
        metadata=_d(
            "zones: faint card outlines inside (0-200), or a template giving the number (`{{ facts.market }}`)"
        ),
    )
    repeat: int | str = fld(
        default=1,
        metadata=_d(
            "lay this space this many times (1-60), `step` mm apart, or a template giving the number; "
            "label and note may use `{{ n }}` (1, 2...) and keys get -1, -2..."
        ),
    )
    step: float = fld(default=0.0, metadata=_d("repeat: mm from one copy's left edge to the next one's"))
    fan: int = fld(default=1, metadata=_d("card, pile: this many cards shown fanned (1-60)"))
    flip: bool = fld(default=False, metadata=_d("labels upside down, for the player across the table"))
    color: str | None = fld(default=None, metadata=_d("the space's colour #RRGGBB"))
    line: int = 0

    def __post_init__(self) -> None:
        for name in ("x", "y", "w", "h"):
            _mm(name, getattr(self, name))
        if isinstance(self.slots, int):
            _whole("slots", self.slots, 0, 200)
        if isinstance(self.repeat, int):
            _whole("repeat", self.repeat, 1, 60)
        _mm("step", self.step)
        _whole("fan", self.fan, 1, 60)
        _colour("color", self.color)
        for name in ("w", "h"):
            value = getattr(self, name)
            if value is not None and value <= 0:
                raise ValueError(f"{name}: a space needs a size above 0 mm, found {value:g}")


@dataclass(frozen=True)
class Side:
    """One player's side of a map."""

    label: str = fld(default="", metadata=_d("the side's name (default its key)"))
    color: str | None = fld(default=None, metadata=_d("the side's colour #RRGGBB"))
    flip: bool = fld(default=False, metadata=_d("labels upside down: the player sits across the table"))

    def __post_init__(self) -> None:
        _colour("color", self.color)


@dataclass(frozen=True)
class Position:
    """A map position: a card space on one side's track, numbered from that side's start."""

    key: str = fld(metadata=_d("a name for the position, unique on the board"))
    side: str = fld(metadata=_d("the side whose track it is on"))
    index: int = fld(metadata=_d("its place on that track, from 0"))
    x: float = fld(metadata=_d("mm from the board's left edge"))
    y: float = fld(metadata=_d("mm from the board's top edge"))
    label: str | None = fld(default=None, metadata=_d("printed name (default side and index, e.g. A0)"))
    w: float | None = fld(default=None, metadata=_d("width in mm (default: the card's)"))
    h: float | None = fld(default=None, metadata=_d("height in mm (default: the card's)"))
    card: str | None = fld(default=None, metadata=_d("a card component of this game, or a card size"))
    turn: bool = fld(default=False, metadata=_d("the card lies sideways"))
    note: str = fld(default="", metadata=_d("a short line under the label"))
    line: int = 0

    def __post_init__(self) -> None:
        for name in ("x", "y", "w", "h"):
            _mm(name, getattr(self, name))
        if self.index < 0:
            raise ValueError(f"index: expected a whole number 0 or more, found {self.index}")


@dataclass(frozen=True)
class Link:
    """Two positions next to each other, written [a, b] or [a, b, kind]: cards step between them or
    attack across."""

    __positional__ = ("a", "b", "kind")

    a: str = fld(metadata=_d("one position's key"))
    b: str = fld(metadata=_d("the other position's key"))
    kind: Literal["step", "attack"] = fld(
        default="step", metadata=_d("step: a card moves; attack: cards fight")
    )
    line: int = 0


@dataclass(frozen=True)
class Board:
    """What a board component shows, in millimetres from its top-left corner."""

    size: str = fld(metadata=_d("width x height in mm (e.g. 420x297) or a paper name (a3)"))
    title: str | None = fld(default=None, metadata=_d("the heading (default the component's name)"))
    subtitle: str = fld(default="", metadata=_d("a second line under the title"))
    color: str | None = fld(default=None, metadata=_d("theme colour #RRGGBB (default the game's accent)"))
    emblem: str | None = fld(default=None, metadata=_d("a symbol for the corner ornaments"))
    areas: tuple[Area, ...] = fld(default=(), metadata=_d("card spaces, piles, zones and printed notes"))
    sides: dict[str, Side] = fld(default_factory=dict, metadata=_d("maps: side key -> who sits there"))
    positions: tuple[Position, ...] = fld(default=(), metadata=_d("maps: the track's card spaces"))
    links: tuple[Link, ...] = fld(default=(), metadata=_d("maps: [a, b] or [a, b, kind] between positions"))
    line: int = 0

    def __post_init__(self) -> None:
        _colour("color", self.color)
        try:
            paper_size(self.size)
        except ValueError:
            raise ValueError(
                f"size: expected WxH in millimetres (e.g. 420x297) or a paper name, found {self.size!r}"
            ) from None
