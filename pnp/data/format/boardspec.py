"""A board as laid out from its declaration (`pnp.data.format.board`), in millimetres: what drawing,
booklets and the cache read. Made by `pnp.data.reading.boardspec.parse_board`."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Area:
    """A card space, a pile, a zone holding several cards, or a printed note."""

    key: str
    kind: str
    label: str
    x: float
    y: float
    w: float
    h: float
    symbol: str | None = None
    note: str = ""
    text: str = ""
    slots: int = 0  # zones: faint card outlines inside
    slot_w: float = 0.0
    slot_h: float = 0.0
    fan: int = 1  # card/pile: show this many cards fanned (a play area)
    flip: bool = False  # labels upside down, for the player across the table
    color: str | None = None


@dataclass(frozen=True)
class Side:
    """One player's side of a map."""

    key: str
    label: str
    color: str | None = None
    flip: bool = False


@dataclass(frozen=True)
class Position:
    """A map position: a card space on one side's track, numbered from that side's start."""

    key: str
    label: str
    side: str
    index: int
    x: float
    y: float
    w: float
    h: float
    note: str = ""


@dataclass(frozen=True)
class Link:
    """Two positions next to each other: cards step between them or attack across."""

    a: str
    b: str
    kind: str = "step"


@dataclass(frozen=True)
class BoardSpec:
    """A whole board, in millimetres."""

    w: float
    h: float
    title: str
    subtitle: str = ""
    color: str | None = None
    emblem: str | None = None
    areas: tuple[Area, ...] = ()
    sides: tuple[Side, ...] = ()
    positions: tuple[Position, ...] = ()
    links: tuple[Link, ...] = ()

    def position(self, key: str) -> Position:
        for p in self.positions:
            if p.key == key:
                return p
        raise KeyError(key)

    def side(self, key: str) -> Side | None:
        for s in self.sides:
            if s.key == key:
                return s
        return None

    def neighbours(self, key: str, kind: str | None = None) -> list[str]:
        """Positions linked to `key` (optionally only links of one kind), in database order."""
        out = []
        for link in self.links:
            if kind is not None and link.kind != kind:
                continue
            if link.a == key:
                out.append(link.b)
            elif link.b == key:
                out.append(link.a)
        return out
