"""A board laid out from its declaration (`pnp.data.format.board`): sizes resolved, text rendered, checked.

The schema has read the `board:` mapping into typed dataclasses (types, keys
and ranges, with file:line); this resolves what the schema cannot: the card
sizes spaces take, templated text, unique keys, spaces inside the board,
sides and link ends that exist. Every problem names the file and line.
"""

from __future__ import annotations

from dataclasses import replace

from pnp.data.format import board as decl
from pnp.data.format.boardspec import Area, BoardSpec, Link, Position, Side
from pnp.data.format.catalog import has_symbol, unknown_symbol
from pnp.data.format.errors import InputError, Problem
from pnp.data.format.model import Component, Game
from pnp.data.reading.loader import derived
from pnp.data.templating.engine import compile_text, is_template, render_template
from pnp.geometry.sizes import card_size, paper_size

AREA_KINDS = ("card", "pile", "zone", "note")
LINK_KINDS = ("step", "attack")

MIN_SPACE = 10.0  # mm: the least width or height of a space or position given by size (padding and a line)


class _Resolver:
    """Lays out one board, collecting every problem with its line."""

    def __init__(self, game: Game, comp: Component):
        self.game, self.comp = game, comp
        self.problems: list[Problem] = []
        self.where = f"components[{comp.key}].board"
        self.keys: dict[str, int] = {}
        self.w = self.h = 0.0

    def fail(self, line: int | None, field: str, message: str) -> None:
        self.problems.append(
            Problem(self.game.where, line or self.comp.line, f"{self.where}{field}", message)
        )

    def text(self, value: str | None, line: int, field: str, default: str = "", n: int | None = None) -> str:
        """Board text, rendered when it is a template: "always {{ facts.market }} face up";
        `n` counts the copies of a repeated space."""
        if value is None or value == "":
            return default
        if not is_template(value):
            return value
        # lazy: facts (and through them the engines) only for a templated board value
        from pnp.data.format.facts import (
            with_labels,  # lazy: only templated board text needs the facts
        )

        try:
            return render_template(compile_text(value), {"facts": with_labels(self.game.facts), "n": n})
        except Exception as exc:  # noqa: BLE001 - any failure to render is a problem of this text
            self.fail(line, field, f"template: {exc}")
            return default

    def whole(self, value: int | str, line: int, field: str, lo: int, hi: int) -> int:
        """A count that may be a template reading the facts (`{{ facts.market }}`), from lo to hi."""
        text = self.text(value, line, field, str(lo)) if isinstance(value, str) else str(value)
        if not text.strip().isdigit() or not lo <= int(text) <= hi:
            self.fail(line, field, f"expected a whole number from {lo} to {hi}, found {text!r}")
            return lo
        return int(text)

    def areas(self, a: decl.Area, field: str) -> list[Area]:
        """The space, or its copies when it repeats (keys key-1, key-2..., `n` in label and note)."""
        count = self.whole(a.repeat, a.line, f"{field}.repeat", 1, 60)
        if count == 1 and a.repeat == 1:
            return [self.area(a, field)]
        last = a.x + (count - 1) * a.step
        if not -decl.LENGTH <= last <= decl.LENGTH:
            self.fail(a.line, f"{field}.step", f"{count} copies {a.step:g} mm apart reach x {last:g} mm")
            return []
        return [
            self.area(replace(a, key=f"{a.key}-{n}", x=a.x + (n - 1) * a.step), field, n)
            for n in range(1, count + 1)
        ]

    def symbol(self, name: str | None, line: int, field: str) -> str | None:
        if name is not None and not has_symbol(name, self.game.symbols):
            self.fail(line, field, unknown_symbol(name, self.game.symbols))
            return None
        return name

    def card(self, ref: str | None, turn: bool, line: int, field: str) -> tuple[float, float] | None:
        """Width and height of the card a space holds: a card component of this game, or a card size."""
        if ref is None:
            return None
        size_name = next((c.card_size for c in self.game.components if c.key == ref and c.is_cards), ref)
        try:
            size = card_size(size_name)
        except ValueError as exc:
            self.fail(line, f"{field}.card", f"{exc}; or name a card component of this game")
            return None
        return (size.h, size.w) if turn else (size.w, size.h)

    def unique(self, key: str, line: int, field: str) -> None:
        if key in self.keys:
            self.fail(line, f"{field}.key", f"duplicate key {key!r} (first on line {self.keys[key]})")
        self.keys.setdefault(key, line)

    def inside(self, line: int, field: str, x: float, y: float, bw: float, bh: float) -> None:
        if self.w and self.h and (x < 0 or y < 0 or x + bw > self.w + 1e-6 or y + bh > self.h + 1e-6):
            self.fail(
                line,
                field,
                f"reaches outside the {self.w:g} x {self.h:g} mm board "
                f"(spans x {x:g}..{x + bw:g}, y {y:g}..{y + bh:g})",
            )

    def area(self, a: decl.Area, field: str, n: int | None = None) -> Area:
        self.unique(a.key, a.line, field)
        card = self.card(a.card, a.turn, a.line, field)
        if a.kind in ("card", "pile") and card is not None:
            aw, ah = card
            aw += 0 if a.fan <= 1 else (a.fan - 1) * aw * 0.38
        else:
            aw, ah = self.size(a.w, a.h, a.line, field)
        if a.kind in ("card", "pile") and card is None and a.w is None:
            self.fail(a.line, field, "a card space needs `card` (a component or card size) or w and h")
        slots = self.whole(a.slots, a.line, f"{field}.slots", 0, 200)
        if slots and card is None:
            self.fail(a.line, f"{field}.slots", "slots need `card` to know the size of each outline")
        label = self.text(a.label, a.line, f"{field}.label", n=n)
        if a.kind != "note" and not label:
            self.fail(a.line, f"{field}.label", "missing 'label': every space says what goes there")
        self.inside(a.line, f"{field} ({a.key})", a.x, a.y, aw, ah)
        return Area(
            a.key,
            a.kind,
            label,
            a.x,
            a.y,
            aw,
            ah,
            self.symbol(a.symbol, a.line, f"{field}.symbol"),
            self.text(a.note, a.line, f"{field}.note", n=n),
            self.text(a.text, a.line, f"{field}.text", n=n),
            slots,
            card[0] if card else 0.0,
            card[1] if card else 0.0,
            a.fan,
            a.flip,
            a.color,
        )

    def size(self, w: float | None, h: float | None, line: int, field: str) -> tuple[float, float]:
        for name, value in (("w", w), ("h", h)):
            if value is None:
                self.fail(line, f"{field}.{name}", f"missing {name!r} (millimetres)")
            elif value < MIN_SPACE:  # the drawing pads a space by a few mm each side: smaller has no room
                self.fail(
                    line,
                    f"{field}.{name}",
                    f"{value:g} mm is too small for a space: at least {MIN_SPACE:g} mm",
                )
        return w or 0.0, h or 0.0

    def position(self, p: decl.Position, sides: set[str], field: str) -> Position:
        self.unique(p.key, p.line, field)
        if sides and p.side not in sides:
            self.fail(p.line, f"{field}.side", f"unknown side {p.side!r}; sides: {', '.join(sorted(sides))}")
        card = self.card(p.card, p.turn, p.line, field)
        pw, ph = card if card else self.size(p.w, p.h, p.line, field)
        self.inside(p.line, f"{field} ({p.key})", p.x, p.y, pw, ph)
        return Position(
            p.key,
            self.text(p.label, p.line, f"{field}.label", f"{p.side}{p.index}"),
            p.side,
            p.index,
            p.x,
            p.y,
            pw,
            ph,
            self.text(p.note, p.line, f"{field}.note"),
        )

    def link(self, link: decl.Link, positions: set[str], field: str) -> Link:
        for end in (link.a, link.b):
            if end not in positions:
                self.fail(link.line, field, f"no position {end!r}")
        if link.a == link.b:
            self.fail(link.line, field, f"a position cannot be linked to itself ({link.a!r})")
        return Link(link.a, link.b, link.kind)


def board_of(game: Game, comp: Component) -> BoardSpec:
    """`parse_board`, kept in the disk cache with the game: an unchanged game's boards are not read again."""
    return derived("board", game, (comp.key,), lambda: parse_board(game, comp))


def parse_board(game: Game, comp: Component) -> BoardSpec:
    """The laid-out board of a board component; InputError lists every problem with its line."""
    board = comp.board
    if not isinstance(board, decl.Board):
        raise InputError(
            [
                Problem(
                    game.where,
                    comp.line,
                    f"components[{comp.key}].board",
                    "a board component needs a `board:` mapping (size, title, areas...)",
                )
            ]
        )
    r = _Resolver(game, comp)
    try:
        size = paper_size(board.size)  # WxH in mm, or a paper name
        r.w, r.h = size.w, size.h
    except ValueError:
        r.fail(board.line, ".size", f"expected WxH in millimetres (e.g. 420x297), found {board.size!r}")
    sides = tuple(
        Side(key, r.text(s.label, board.line, f".sides.{key}.label", key), s.color, s.flip)
        for key, s in board.sides.items()
    )
    areas = tuple(area for i, a in enumerate(board.areas) for area in r.areas(a, f".areas[{i}]"))
    positions = tuple(
        r.position(p, set(board.sides), f".positions[{i}]") for i, p in enumerate(board.positions)
    )
    links = tuple(r.link(k, {p.key for p in positions}, f".links[{i}]") for i, k in enumerate(board.links))
    spec = BoardSpec(
        r.w,
        r.h,
        r.text(board.title, board.line, ".title", comp.name),
        r.text(board.subtitle, board.line, ".subtitle"),
        board.color,
        r.symbol(board.emblem, board.line, ".emblem"),
        areas,
        sides,
        positions,
        links,
    )
    if r.problems:
        raise InputError(r.problems)
    return spec
