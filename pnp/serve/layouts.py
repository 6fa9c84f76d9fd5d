"""The page's layout editor: a card's elements as boxes on its picture, and moved boxes saved as numbers.

`outline` resolves the side a picture shows and gives each element's box in mm from the trim's
top-left corner, the guides (trim, bleed, safe, named frames, the collation code's area) and, for
each element, how the page may change it: one of a custom design's own elements by its index, an
element its layout supplies (built in or extended) by its `name`. `save` turns moved boxes back into
x, y, w, h (x2, y2) in the units the file used, writes only those numbers (an element a layout
supplies as an override in the design: `pnp.data.editing.layouts`), checks the file as `pnp check`
would and replaces it only if nobody changed it since the page read it (409 otherwise).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from pnp.data.editing import layouts as texts
from pnp.data.editing.cards import Where
from pnp.data.editing.yamltext import EditError
from pnp.data.format.catalog import FREE_SLOTS
from pnp.data.format.elements import Element
from pnp.data.format.errors import InputError
from pnp.data.format.model import CodeSpot, Design, Game
from pnp.data.reading.loader import load_game
from pnp.data.templating.elements import FRAMES_SEEN
from pnp.data.templating.sandbox import time_limit
from pnp.draw.images import Artwork
from pnp.resolve.cards import back_job, face_job, printed_cards
from pnp.resolve.layout import PT, ElementProblem, Trim, layout_context
from pnp.resolve.measures import Measures
from pnp.resolve.sides import code_spot, resolve_side, resolve_slots, side_layout, trim_of
from pnp.serve.editor import Editor, Refused, Saved, _replace, digest
from pnp.serve.live import Live
from pnp.serve.pictures import Source

BLEED = 3.0  # mm: the bleed the guides show (what `pnp build` prints by default)
MOVED = 0.005  # mm: a box that moved less than this kept its numbers
Box = tuple[float, float, float, float]


def _base(trim: Trim, frame: str) -> Box:
    inset = {"trim": 0.0, "safe": trim.safe, "bleed": -trim.bleed}[frame]
    return inset, inset, trim.w - 2 * inset, trim.h - 2 * inset


def frame_boxes(trim: Trim, named: dict[str, Any]) -> dict[str, Box]:
    """Every frame an element may name, as a box in mm from the trim's corner (`named`: a layout's
    frames placed for the card, name -> (trim, safe or bleed, x, y, w, h))."""
    out = {name: _base(trim, name) for name in ("trim", "safe", "bleed")}
    for name, (base, x, y, w, h) in named.items():
        bx, by, _, _ = _base(trim, base)
        out[name] = (bx + x, by + y, w, h)
    return out


def box_of(el: Element, trim: Trim) -> Box:
    """A rendered element's box in mm from the trim's corner (a line: the box round its ends)."""
    fx, fy, fw, fh = _base(trim, el.frame)
    x, y = float(el.x), float(el.y)
    if el.type == "line":
        x2, y2 = float(el.x2 or 0.0), float(el.y2 or 0.0)
        return fx + min(x, x2), fy + min(y, y2), abs(x2 - x), abs(y2 - y)
    w = float(el.w) if el.w is not None else fw - x
    h = float(el.h) if el.h is not None else fh - y
    if el.anchor == "center":
        x, y = x - w / 2, y - h / 2
    return fx + x, fy + y, w, h


class LayoutEditor:
    """Outlines and geometry saves for the pictures of the tracked project."""

    def __init__(self, editor: Editor, live: Live):
        self.editor, self.live = editor, live

    def _tile(self, tile: str) -> Source | None:
        """The picture source of a page's tile (its id stays while its picture's key changes with each edit)."""
        return next((s for s in self.live.snapshot.pictures.values() if tile and s.tile == tile), None)

    def _side(self, source: Source | None, fresh: bool = False) -> dict[str, Any]:
        """The side a picture shows, resolved (`fresh`: from the game's file as it is now)."""
        if source is None:
            raise Refused(404, "no such picture (the card has changed since); reload")
        game = source.game
        if fresh:  # the picture's game may be older than the last save: read the file again
            try:
                game = load_game(Path(game.source), game.where, game.root, lang=game.language or "")
            except InputError as exc:
                raise Refused(
                    409, "the game does not load right now: " + str(exc.problems[0]), reload=True
                ) from None
        try:
            comp = game.component(source.comp)
            printed = printed_cards(game, comp)[source.index]
        except (KeyError, IndexError, ValueError):
            raise Refused(409, "this card is no longer in the game; reload", reload=True) from None
        _, job = face_job(game, comp, printed) if source.side == "face" else back_job(game, comp, printed)
        trim = trim_of(game, comp, job, BLEED, "full")
        art = Artwork.for_project(game.root, game.symbols, None, game.draft)
        try:
            with self.editor.drawing:
                side = resolve_side(game, job, source.fonts, art, trim)
        except InputError as exc:
            raise Refused(
                422, "this card does not draw right now: " + "; ".join(map(str, exc.problems))
            ) from None
        try:
            layout, seen = side_layout(game, job)
            with time_limit():
                placed = layout_context(source.fonts, trim, layout, resolve_slots(game, job, art), seen)
        except (InputError, ElementProblem) as exc:
            raise Refused(422, f"this card does not draw right now: {exc}") from None
        return {
            "game": game,
            "job": job,
            "trim": trim,
            "side": side,
            "frames": frame_boxes(trim, placed.get(FRAMES_SEEN, {})),
            "named": _named(layout.elements),
            "fonts": source.fonts,
        }

    def outline(self, tile: str) -> dict[str, Any]:
        """What the page draws over the picture of `tile` (see the module's doc)."""
        return self._outline(self._tile(tile), True)[0]

    def _outline(self, source: Source | None, fresh: bool) -> tuple[dict[str, Any], Game]:
        found = self._side(source, fresh)
        game, job, trim = found["game"], found["job"], found["trim"]
        items = [
            _item(el, i, job.design, trim, found["frames"], found["named"])
            for i, el in enumerate(_flat(found["side"].elements))
        ]
        code = _code_area(code_spot(job.design, job.comp), trim, Measures(found["fonts"]).width)
        return {
            "game": game.slug,
            "where": job.where,
            "file": str(game.where),
            "digest": digest(Path(game.source).read_bytes()),
            "layout": job.design.layout,
            "extends": job.design.extends,
            "trim": {"w": trim.w, "h": trim.h, "bleed": trim.bleed, "safe": trim.safe},
            "frames": found["frames"],
            "code": code,
            "elements": items,
        }, game

    def save(self, request: dict[str, Any]) -> dict[str, Any]:
        """Write moved boxes of a tile's card into its design's file; Refused says why nothing was written."""
        changes = request.get("changes")
        if not isinstance(changes, list) or not changes or len(changes) > 200:
            raise Refused(400, "changes: give a list of {ref, box} (1 to 200)")
        now, game = self._outline(self._tile(str(request.get("tile", ""))), True)
        path = Path(game.source)
        data = path.read_bytes()
        if digest(data) != request.get("digest") or now["digest"] != request.get("digest"):
            raise Refused(
                409, f"{now['file']} changed on disk since the page read it; nothing was written", reload=True
            )
        new = data
        try:
            for change in changes:
                new = _apply(new, now, change)
        except (EditError, ValueError, TypeError, KeyError) as exc:
            raise Refused(422, str(exc)) from None
        if new == data:
            raise Refused(422, "nothing to save: every box is where the file puts it")
        display = str(now["file"])
        self.editor._check(path, game.slug.split("/")[0], Where(path, display, "yaml", ""), new)
        if not _replace(path, new, digest(data)):
            raise Refused(
                409,
                f"{display} changed on disk while this save was checked; nothing was written",
                reload=True,
            )
        self.editor.remember(Saved(path, display, data, digest(new), f"moved elements of {now['where']}"))
        self.live.refresh()  # every card of the design redrawn now, not after the watcher's debounce
        return {"ok": True, "file": display, "digest": digest(new)}


def _code_area(spot: CodeSpot | None, trim: Trim, width: Any) -> list[float] | None:
    """Where the collation code prints (as the card's footer places it), in mm from the trim's corner."""
    if spot is None or not trim.code:
        return None
    size = spot.size * PT
    if spot.y is not None:
        base = spot.y
    elif spot.at == "top":
        base = trim.safe + 0.75 * size
    else:
        base = trim.h - trim.safe - 0.9
    wide = width(trim.code, "condensed", spot.size)
    centre = trim.w / 2 if spot.x is None else spot.x
    return [centre - wide / 2, base - 0.75 * size, wide, size]


def _flat(elements: tuple[Element, ...]) -> list[Element]:
    """The elements the page outlines: each drawn one, a group's children in its place."""
    out: list[Element] = []
    for el in elements:
        if el.type == "group":
            out += _flat(el.elements)
        else:
            out.append(el)
    return out


def _named(elements: tuple[Element, ...]) -> dict[str, Element]:
    """A layout's elements by name, as written (before rendering), groups' children too."""
    out: dict[str, Element] = {}
    for el in elements:
        if el.name:
            out[el.name] = el
        out.update(_named(el.elements))
    return out


def _ref(el: Element, design: Design) -> dict[str, Any] | None:
    """How the page names an element to change: a custom design's own by index, a supplied one by name."""
    if design.layout in FREE_SLOTS:
        for i, own in enumerate(design.elements):
            if own.line == el.line and own.type:
                return {"index": i}
        if not design.extends:  # an element inside one of its own groups: changed in the file
            return None
    return {"name": el.name} if el.name else None


def _item(
    el: Element, i: int, design: Design, trim: Trim, boxes: dict[str, Box], named: dict[str, Element]
) -> dict[str, Any]:
    """One outline: its box, how the page names it, and the unit of each number a move would write
    (None: a template in the design's own element; an override of a supplied one is written in mm
    where its layout computes the number)."""
    ref = _ref(el, design)
    own = ref is not None and "index" in ref
    src = design.elements[ref["index"]] if ref is not None and own else named.get(el.name or "", el)
    fields = ("x", "y", "x2", "y2") if el.type == "line" else ("x", "y", "w", "h")
    units: dict[str, str | None] = {}
    for f in fields:
        value = getattr(src, f)
        unit = "" if value is None else texts.unit_of(value)
        units[f] = unit if own or unit is not None else ""
    fx, fy, _, _ = _base(trim, el.frame)
    ends = [fx + float(el.x), fy + float(el.y), fx + float(el.x2 or 0), fy + float(el.y2 or 0)]
    return {
        "ends": ends if el.type == "line" else None,
        "id": i,
        "type": el.type,
        "name": el.name or "",
        "ref": ref,
        "box": box_of(el, trim),
        "frame": src.frame if src.frame in boxes else el.frame,
        "anchor": el.anchor,
        "units": units,
        "movable": ref is not None and units["x"] is not None and units["y"] is not None,
        "sizable": ref is not None
        and el.type != "line"
        and units.get("w") is not None
        and units.get("h") is not None,
    }


def _apply(data: bytes, now: dict[str, Any], change: Any) -> bytes:
    """The file with one element's new box written (only the numbers that moved)."""
    ref, box = change["ref"], change["box"]
    if not (
        isinstance(box, list)
        and len(box) == 4
        and all(isinstance(v, (int, float)) and math.isfinite(v) for v in box)
    ):
        raise ValueError("box: give [x, y, w, h] in mm")
    item = next((e for e in now["elements"] if e["ref"] == ref), None)
    if item is None or not item["movable"]:
        raise ValueError(f"{ref}: not an element the page can move (its position is a template)")
    old, units = item["box"], item["units"]
    fx, fy, fw, fh = now["frames"][item["frame"]]
    values: dict[str, Any] = {}
    if item["type"] == "line":
        dx, dy = box[0] - old[0], box[1] - old[1]
        for f, d in (("x", dx), ("y", dy), ("x2", dx), ("y2", dy)):
            if abs(d) > MOVED:
                raw = _rendered(item, f, old, fx, fy) + d
                values[f] = texts.written(raw, units[f] or "", fw if f.startswith("x") else fh)
    else:
        half = 0.5 if item["anchor"] == "center" else 0.0
        want = {"x": box[0] + box[2] * half - fx, "y": box[1] + box[3] * half - fy, "w": box[2], "h": box[3]}
        was = {"x": old[0] + old[2] * half - fx, "y": old[1] + old[3] * half - fy, "w": old[2], "h": old[3]}
        for f in ("x", "y", "w", "h"):
            if abs(want[f] - was[f]) > MOVED:
                if units[f] is None:
                    raise ValueError(f"{ref}: its {f} is a template; change it in the file")
                values[f] = texts.written(want[f], units[f], fw if f in ("x", "w") else fh)
    if not values:
        return data
    if "index" in ref:
        return texts.set_geometry(data, now["where"], int(ref["index"]), values)
    parent = now["extends"] if now["layout"] in FREE_SLOTS else now["layout"]
    return texts.override(data, now["where"], str(ref["name"]), str(parent), values)


def _rendered(item: dict[str, Any], f: str, old: list[float], fx: float, fy: float) -> float:
    """A line's end as its frame measures it, from the outline's box (the page sent only moves)."""
    x0, y0, w, h = old
    ends = item.get("ends") or [x0, y0, x0 + w, y0 + h]
    return {"x": ends[0] - fx, "y": ends[1] - fy, "x2": ends[2] - fx, "y2": ends[3] - fy}[f]
