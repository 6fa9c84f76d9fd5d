"""The `board:` structure of a board component, parsed and checked with file:line errors.

A board is described, never coded: its size, title, and what lies on it.
Coordinates are millimetres from the board's top-left corner to the top-left
corner of each thing, x to the right and y downwards (as one reads a page).

    board:
      size: 420x297            # width x height in mm
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
size (poker, tarot, 63x88...); `turn: true` lays the space sideways.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pnp.data.format.catalog import has_symbol, unknown_symbol
from pnp.data.format.errors import InputError, Problem
from pnp.data.format.located import line_of
from pnp.data.format.model import Component, Game
from pnp.data.reading.loader import derived
from pnp.data.templating.engine import compile_text, is_template, render_template
from pnp.geometry.sizes import card_size, paper_size

AREA_KINDS = ("card", "pile", "zone", "note")
LINK_KINDS = ("step", "attack")
_AREA_KEYS = {"key", "kind", "label", "x", "y", "w", "h", "card", "turn", "symbol", "note", "text",
              "slots", "fan", "flip", "color"}
_POSITION_KEYS = {"key", "label", "side", "index", "x", "y", "w", "h", "card", "turn", "note"}
_BOARD_KEYS = {"size", "title", "subtitle", "color", "emblem", "areas", "sides", "positions", "links"}
_SIDE_KEYS = {"label", "color", "flip"}


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
    slots: int = 0          # zones: faint card outlines inside
    slot_w: float = 0.0
    slot_h: float = 0.0
    fan: int = 1            # card/pile: show this many cards fanned (a play area)
    flip: bool = False      # labels upside down, for the player across the table
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


class _Reader:
    """Collects every problem of one board description with its line."""

    def __init__(self, game: Game, comp: Component):
        self.game, self.comp = game, comp
        self.problems: list[Problem] = []
        self.where = f"components[{comp.key}].board"

    def fail(self, node: Any, key: Any, field: str, message: str) -> None:
        self.problems.append(Problem(self.game.where, line_of(node, key, self.comp.line),
                                     f"{self.where}{field}", message))

    def known(self, node: dict, allowed: set[str], field: str) -> None:
        import difflib
        for k in node:
            if k not in allowed:
                close = difflib.get_close_matches(str(k), sorted(allowed), n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                self.fail(node, k, f"{field}.{k}", f"unknown key {k!r}{hint}; allowed: {', '.join(sorted(allowed))}")

    def number(self, node: dict, key: str, field: str, default: float | None = None) -> float:
        value = node.get(key, default)
        if value is None:
            self.fail(node, None, f"{field}.{key}", f"missing {key!r} (millimetres)")
            return 0.0
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not -10_000 <= value <= 10_000:
            self.fail(node, key, f"{field}.{key}", f"expected a number of millimetres, found {str(value)[:40]!r}")
            return 0.0
        return float(value)

    def whole(self, node: dict, key: str, field: str, default: int, lo: int, hi: int) -> int:
        """A whole number from `lo` to `hi` (a count of slots, cards in a fan)."""
        value = node.get(key, default)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            self.fail(node, key, f"{field}.{key}", f"expected a whole number from {lo} to {hi}, found {str(value)[:40]!r}")
            return default
        return value

    def text(self, node: dict, key: str, field: str, default: str = "") -> str:
        value = node.get(key, default)
        if value is None:
            return default
        if not isinstance(value, (str, int, float)) or isinstance(value, bool):
            self.fail(node, key, f"{field}.{key}", f"expected text, found {value!r}")
            return default
        if is_template(value):   # board text may state a game fact: "always {{ facts.market }} face up"
            from pnp.data.format.facts import (
                with_labels,  # lazy: only templated board text needs the facts
            )
            try:
                return render_template(compile_text(value), {"facts": with_labels(self.game.facts)})
            except Exception as exc:  # noqa: BLE001 - any failure to render is a problem of this text
                self.fail(node, key, f"{field}.{key}", f"template: {exc}")
                return default
        return str(value)

    def symbol(self, node: dict, key: str, field: str) -> str | None:
        name = node.get(key)
        if name is None:
            return None
        if not has_symbol(str(name), self.game.symbols):
            self.fail(node, key, f"{field}.{key}", unknown_symbol(str(name), self.game.symbols))
            return None
        return str(name)

    def card(self, node: dict, field: str) -> tuple[float, float] | None:
        """Width and height of the card a space holds (from `card` and `turn`)."""
        ref = node.get("card")
        if ref is None:
            return None
        size_name = str(ref)
        for comp in self.game.components:
            if comp.key == size_name and comp.is_cards:
                size_name = comp.card_size
                break
        try:
            size = card_size(size_name)
        except ValueError as exc:
            self.fail(node, "card", f"{field}.card", f"{exc}; or name a card component of this game")
            return None
        turn = node.get("turn", False)
        return (size.h, size.w) if turn else (size.w, size.h)


def board_of(game: Game, comp: Component) -> BoardSpec:
    """`parse_board`, kept in the disk cache with the game: an unchanged game's boards are not read again."""
    return derived("board", game, (comp.key,), lambda: parse_board(game, comp))


def parse_board(game: Game, comp: Component) -> BoardSpec:
    """The checked board of a board component; InputError lists every problem with its line."""
    r = _Reader(game, comp)
    raw = comp.board
    if not isinstance(raw, dict):
        raise InputError([Problem(game.where, comp.line, f"components[{comp.key}].board",
                                  "a board component needs a `board:` mapping (size, title, areas...)")])
    r.known(raw, _BOARD_KEYS, "")
    w = h = 0.0
    try:
        size = paper_size(str(raw.get("size", "")))  # WxH in mm, or a paper name
        w, h = size.w, size.h
    except ValueError:
        r.fail(raw, "size", ".size", f"expected WxH in millimetres (e.g. 420x297), found {raw.get('size')!r}")
    title = r.text(raw, "title", "", comp.name)
    color = r.text(raw, "color", "") or None
    emblem = r.symbol(raw, "emblem", "")

    sides = []
    raw_sides = raw.get("sides") or {}
    if not isinstance(raw_sides, dict):
        r.fail(raw, "sides", ".sides", "expected a mapping of side key -> {label, color, flip}")
        raw_sides = {}
    for key, node in raw_sides.items():
        if not isinstance(node, dict):
            r.fail(raw_sides, key, f".sides.{key}", "expected a mapping with label, color, flip")
            continue
        r.known(node, _SIDE_KEYS, f".sides.{key}")
        sides.append(Side(str(key), r.text(node, "label", f".sides.{key}", str(key)),
                          r.text(node, "color", f".sides.{key}") or None, bool(node.get("flip", False))))

    keys: dict[str, int | None] = {}

    def unique(node: dict, field: str) -> str:
        key = r.text(node, "key", field)
        if not key:
            r.fail(node, None, f"{field}.key", "missing 'key'")
        elif key in keys:
            r.fail(node, "key", f"{field}.key", f"duplicate key {key!r} (first on line {keys[key]})")
        keys[key] = line_of(node, "key")
        return key

    def inside(node: dict, field: str, x: float, y: float, bw: float, bh: float) -> None:
        if w and h and (x < 0 or y < 0 or x + bw > w + 1e-6 or y + bh > h + 1e-6):
            r.fail(node, None, field, f"reaches outside the {w:g} x {h:g} mm board "
                                      f"(spans x {x:g}..{x + bw:g}, y {y:g}..{y + bh:g})")

    areas = []
    for i, node in enumerate(_items(r, raw, "areas")):
        field = f".areas[{i}]"
        r.known(node, _AREA_KEYS, field)
        key = unique(node, field)
        kind = r.text(node, "kind", field, "card")
        if kind not in AREA_KINDS:
            r.fail(node, "kind", f"{field}.kind", f"unknown kind {kind!r}; kinds: {', '.join(AREA_KINDS)}")
        card = r.card(node, field)
        slots = r.whole(node, "slots", field, 0, 0, 200)
        fan = r.whole(node, "fan", field, 1, 1, 60)
        x, y = r.number(node, "x", field), r.number(node, "y", field)
        if kind in ("card", "pile") and card is not None:
            aw, ah = card
            aw += 0 if fan <= 1 else (fan - 1) * aw * 0.38
        else:
            aw, ah = r.number(node, "w", field), r.number(node, "h", field)
        if kind in ("card", "pile") and card is None and "w" not in node:
            r.fail(node, None, field, "a card space needs `card` (a component or card size) or w and h")
        if slots and card is None:
            r.fail(node, "slots", f"{field}.slots", "slots need `card` to know the size of each outline")
        label = r.text(node, "label", field)
        if kind != "note" and not label:
            r.fail(node, None, f"{field}.label", "missing 'label': every space says what goes there")
        areas.append(Area(key, kind, label, x, y, aw, ah, r.symbol(node, "symbol", field),
                          r.text(node, "note", field), r.text(node, "text", field), slots,
                          card[0] if card else 0.0, card[1] if card else 0.0, fan,
                          bool(node.get("flip", False)), r.text(node, "color", field) or None))
        inside(node, f"{field} ({key})", x, y, aw, ah)

    positions = []
    side_keys = {s.key for s in sides}
    for i, node in enumerate(_items(r, raw, "positions")):
        field = f".positions[{i}]"
        r.known(node, _POSITION_KEYS, field)
        key = unique(node, field)
        side = r.text(node, "side", field)
        if side_keys and side not in side_keys:
            r.fail(node, "side", f"{field}.side", f"unknown side {side!r}; sides: {', '.join(sorted(side_keys))}")
        index = node.get("index")
        if isinstance(index, bool) or not isinstance(index, int) or index < 0:
            r.fail(node, "index", f"{field}.index", f"expected a whole number 0 or more, found {index!r}")
            index = 0
        card = r.card(node, field)
        x, y = r.number(node, "x", field), r.number(node, "y", field)
        pw, ph = card if card else (r.number(node, "w", field), r.number(node, "h", field))
        positions.append(Position(key, r.text(node, "label", field, f"{side}{index}"), side, index, x, y, pw, ph,
                                  r.text(node, "note", field)))
        inside(node, f"{field} ({key})", x, y, pw, ph)

    pos_keys = {p.key for p in positions}
    links = []
    raw_links = _items(r, raw, "links", mappings=False)
    for i, node in enumerate(raw_links):
        field = f".links[{i}]"
        line_node, line_key = raw.get("links"), i
        if not isinstance(node, (list, tuple)) or len(node) not in (2, 3):
            r.fail(line_node, line_key, field, f"a link is [a, b] or [a, b, kind], found {node!r}")
            continue
        a, b = str(node[0]), str(node[1])
        kind = str(node[2]) if len(node) == 3 else "step"
        for end in (a, b):
            if end not in pos_keys:
                r.fail(line_node, line_key, field, f"no position {end!r}")
        if a == b:
            r.fail(line_node, line_key, field, f"a position cannot be linked to itself ({a!r})")
        if kind not in LINK_KINDS:
            r.fail(line_node, line_key, field, f"unknown link kind {kind!r}; kinds: {', '.join(LINK_KINDS)}")
        links.append(Link(a, b, kind))
    if r.problems:
        raise InputError(r.problems)
    return BoardSpec(w, h, title, r.text(raw, "subtitle", ""), color, emblem, tuple(areas), tuple(sides),
                     tuple(positions), tuple(links))


def _items(r: _Reader, raw: dict, key: str, mappings: bool = True) -> list[Any]:
    value = raw.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        r.fail(raw, key, f".{key}", "expected a list")
        return []
    out = []
    for i, item in enumerate(value):
        if mappings and not isinstance(item, dict):
            r.fail(value, i, f".{key}[{i}]", f"expected a mapping, found {item!r}")
            continue
        out.append(item)
    return out
