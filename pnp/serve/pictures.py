"""Card pictures for the live preview: a content key per picture, and a cache of rendered PNGs.

A picture's key hashes exactly what its drawing reads (layout, resolved slots, collation
code, set mark, style, card size, fonts and any project file a slot names), so an edit
changes the keys of the cards it touches and of no other card; the cache renders a key once,
and keeps thumbnails in the disk cache too, so the next `pnp serve` draws none it has shown.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path
from typing import Any

from pnp.data.format.catalog import FREE_SLOTS
from pnp.data.format.model import Component, Game
from pnp.data.store.cache import peek, put
from pnp.data.templating.slots import context
from pnp.draw.faces import card_size_of
from pnp.geometry.sizes import Size
from pnp.output.exports.pngfile import LEVEL
from pnp.output.exports.profiles import PROFILES, Frame, cell_frame, profile_frame
from pnp.output.exports.raster import Request, Scene, render_png
from pnp.resolve.cards import Printed
from pnp.resolve.fonts import Fonts
from pnp.resolve.sides import Job, resolve_slots

THUMB_BOX = (300, 420)  # pixels: shown at half size on the contact sheet, sharp on dense screens
FULL_DPI = 300.0
CACHE_LIMIT = 4000  # pictures kept (thumbnails and 300 dpi views together)
THUMB_SHELF = "thumbnails"  # the disk cache's shelf for them


@dataclass(frozen=True)
class Source:
    """What drawing one picture needs: the loaded game, its fonts and which printed card."""

    game: Game
    fonts: Fonts
    comp: str
    index: int  # into printed_cards(game, comp) with the default set counts
    side: str  # "face" | "back"
    tile: str = ""  # the page's tile this picture is for (its last good picture is kept by this)


class FileDigests:
    """Content hashes of files, re-read only when a file's size or modification time changes."""

    def __init__(self) -> None:
        self._seen: dict[Path, tuple[int, int, str]] = {}

    def file(self, path: Path) -> str:
        try:
            st = path.stat()
        except OSError:
            return "missing"
        known = self._seen.get(path)
        if known and known[:2] == (st.st_mtime_ns, st.st_size):
            return known[2]
        try:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
        except OSError:
            return "unreadable"
        self._seen[path] = (st.st_mtime_ns, st.st_size, digest)
        return digest

    def folder(self, path: Path, pattern: str = "*") -> str:
        """One hash over every file under `path` (names and contents)."""
        h = hashlib.sha256()
        if path.is_dir():
            for f in sorted(p for p in path.rglob(pattern) if p.is_file()):
                h.update(f"{f.relative_to(path)}\0{self.file(f)}\0".encode())
        return h.hexdigest()


def design_of(game: Game, comp: Component, p: Printed, side: str) -> tuple[str, Any]:
    """The design a printed card's face or back uses, and where it is defined (faces.KEY)."""
    key = p.card.design(side, comp)
    return (f"faces.{key}", game.faces[key]) if side == "face" else (f"backs.{key}", game.backs[key])


def game_reads(game: Game) -> str:
    """A digest of what a custom design's elements may read besides the card: the palettes, the facts and
    the game's own fields (in the language it was read in). Made once per component, not per card."""
    text = json.dumps([game.palettes, game.facts, repr(game.game)], sort_keys=True, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()


def picture_key(
    game: Game,
    comp: Component,
    p: Printed,
    side: str,
    shared: str,
    files: FileDigests,
    rendered: dict[Any, dict[str, Any]] | None = None,
    reads: str | None = None,
) -> str:
    """The content key of one picture (raises InputError when a slot template fails).

    `shared` digests what every card reads (fonts, the project's own symbols); `rendered` is the
    component's `rendered_slots` (from the disk cache when the game is unchanged: no jinja2); `reads`
    is `game_reads(game)`, made once by the caller.
    """
    where, design = design_of(game, comp, p, side)
    card = p.card if side == "face" else None
    known = (rendered or {}).get((where, card.key if card else None, p.set_index, p.mark))
    slots = resolve_slots(game, Job(comp, design, where, card, p.mark, p.set_index), known=known)
    named: list[Any] = [slots]
    if design.layout in FREE_SLOTS:  # the files its own image elements name for this card
        # lazy: the element templates only for custom designs
        from pnp.data.templating.elements import files_named

        named.append(
            files_named(design.elements, {**context(game, comp, card, p.mark, p.set_index), "slots": slots})
        )
    # a custom design's elements read the card, the palettes and the facts themselves (in the game's language)
    read = (
        [
            [card.name, card.text, card.values, card.copies] if card else None,
            reads if reads is not None else game_reads(game),
        ]
        if design.layout in FREE_SLOTS
        else None
    )
    refs = {text: files.file(path) for text, path in _named_files(named, game.root)}
    payload: list[Any] = [
        repr(dataclasses.replace(design, line=0)),
        slots,
        dataclasses.asdict(game.style),
        p.code if side == "face" else "",
        dataclasses.asdict(p.mark) if p.mark else None,
        comp.card_size,
        shared,
        refs,
        repr(game.variant),
        read,
    ]
    if game.playtest.feedback and side == "face":  # the QR code names the round and version
        payload.append([dataclasses.asdict(game.playtest), game.round, game.game.version])
    text = json.dumps(payload, sort_keys=True, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def _named_files(value: Any, root: Path) -> list[tuple[str, Path]]:
    """Strings among the resolved slots that name a file inside the project (artwork)."""
    out: list[tuple[str, Path]] = []
    if isinstance(value, str):
        if "/" in value and "\n" not in value and len(value) < 300:
            try:
                path = (root / value).resolve()
            except (OSError, RuntimeError):  # a symlink loop: drawing reports it
                return out
            if path.is_relative_to(root.resolve()) and path.is_file():
                out.append((value, path))
    elif isinstance(value, (list, tuple)):
        for v in value:
            out += _named_files(v, root)
    elif isinstance(value, dict):
        for v in value.values():
            out += _named_files(v, root)
    return out


def frame_for(size_name: str, card: Size) -> Frame:
    """The thumbnail (fits THUMB_BOX) or the 300 dpi view of a card, trimmed, no bleed."""
    if size_name == "full":
        return profile_frame(card, PROFILES["plain"], FULL_DPI)
    return cell_frame(card, *THUMB_BOX)


class DrawFailed(Exception):
    """A picture that cannot be drawn; the message says why (it is kept, not drawn again)."""


class PictureCache:
    """PNG bytes by (key, size); renders a picture the first time it is asked for.

    Mutable by design (it is the cache). `drawing` serialises all drawing in the server
    (pictures, the checks of a refresh, builds): PDFium must not be used from two threads
    at once, and ReportLab's fonts keep per-document state in objects every thread shares.
    It also remembers, per tile, the last picture that was drawn (`good`), so a card whose
    new version fails keeps showing its last good picture, and why the new one failed.
    """

    def __init__(self, limit: int = CACHE_LIMIT):
        self._png: OrderedDict[tuple[str, str], bytes] = OrderedDict()
        self.drawing = threading.RLock()
        self._limit = limit
        self.renders = 0
        self.good: dict[str, tuple[str, Source]] = {}  # tile id -> its last key drawn, and how
        self.failed: OrderedDict[str, str] = OrderedDict()  # key -> why it cannot be drawn
        self.ahead: Any = None  # the start-up workers' thumbnails (pnp.serve.ahead.Ahead), while they draw

    def has(self, key: str, size: str = "thumb") -> bool:
        return (key, size) in self._png

    def mark_fallbacks(self, data: dict[str, Any]) -> None:
        """Each tile of a snapshot's JSON with the picture shown while its own cannot be drawn (its
        last good one) and why."""
        for game in data["games"]:
            for comp in game["components"]:
                for tile in comp["tiles"]:
                    good = self.good.get(tile["id"])
                    tile["fallback"] = good[0] if good and good[0] != tile["picture"] else ""
                    if tile["picture"] in self.failed and not tile["error"]:
                        tile["error"] = self.failed[tile["picture"]]

    def source(self, key: str) -> Source | None:
        """The source of a tile's last good picture (still served after the card changed)."""
        return next((s for k, s in list(self.good.values()) if k == key), None)

    def get(self, key: str, size: str, source: Source) -> bytes:
        """The picture; DrawFailed (with the reason) when it cannot be drawn.

        From memory, from the start-up workers (`ahead`), from the disk cache, else drawn here.
        """
        with self.drawing:
            if (key, size) in self._png:
                self._png.move_to_end((key, size))
                return self._png[(key, size)]
            if key in self.failed:
                raise DrawFailed(self.failed[key])
        early = self.ahead.result(key) if self.ahead is not None and size == "thumb" else None
        with self.drawing:
            png = self._png.get((key, size)) or early or stored(key, size)
            if png is None:
                try:
                    png = draw(source, size)
                except Exception as exc:  # noqa: BLE001 - any failure is the card's; the page shows it
                    self._fail(key, exc)
                    raise DrawFailed(self.failed[key]) from None
                self.renders += 1
                store(key, size, png)
            self._keep(key, size, source, png)
            return png

    def _keep(self, key: str, size: str, source: Source, png: bytes) -> None:
        self._png[(key, size)] = png
        if source.tile:
            self.good[source.tile] = (key, source)
        while len(self._png) > self._limit:
            self._png.popitem(last=False)

    def _fail(self, key: str, exc: Exception) -> None:
        problems = getattr(exc, "problems", None)
        self.failed[key] = (
            "; ".join(str(p) for p in problems) if problems else (str(exc) or type(exc).__name__)
        )
        while len(self.failed) > self._limit:
            self.failed.popitem(last=False)

    def warm(
        self,
        items: list[tuple[str, Source]],
        size: str = "thumb",
        batch: int = 12,
        stop: threading.Event | None = None,
    ) -> int:
        """Have every picture of `items` at hand: from the start-up workers or the disk cache, else rendered
        a batch per component on one PDF (twice as fast as one by one); the lock is let go between
        batches so the page's requests get in. Returns how many were drawn or fetched."""
        todo, done = [], 0
        for key, source in items:
            if stop is not None and stop.is_set():
                return 0
            if self.has(key, size):
                continue
            png = (self.ahead.result(key) if self.ahead is not None and size == "thumb" else None) or stored(
                key, size
            )
            if png is None:
                todo.append((key, source))
                continue
            with self.drawing:
                self._keep(key, size, source, png)
            done += 1
        for _, group in groupby(todo, key=lambda ks: (id(ks[1].game), ks[1].comp)):
            members = list(group)
            for i in range(0, len(members), batch):
                if stop is not None and stop.is_set():
                    return done
                chunk = [(k, s) for k, s in members[i : i + batch]]
                with self.drawing:
                    chunk = [(k, s) for k, s in chunk if (k, size) not in self._png]
                    if not chunk:
                        continue
                    try:
                        pngs = draw_many([s for _, s in chunk], size)
                    except Exception:  # noqa: BLE001, S112 - drawn (and reported) one by one when the page asks
                        continue
                    for (key, src), png in zip(chunk, pngs):
                        self._keep(key, size, src, png)
                        store(key, size, png)
                    self.renders += len(chunk)
                    done += len(chunk)
        return done


def draw_many(sources: list[Source], size: str) -> list[bytes]:
    """Pictures of cards of one component of one game, drawn on one PDF."""
    first = sources[0]
    comp = first.game.component(first.comp)
    frame = frame_for(size, card_size_of(comp))
    requests = [Request(s.comp, s.index, s.side, frame) for s in sources]
    return render_png(Scene(first.game, first.fonts), requests, level=1 if size == "thumb" else LEVEL)


def draw(source: Source, size: str) -> bytes:
    """One card picture as PNG bytes, drawn by the sheets' own form code and rasterised by PDFium."""
    return draw_many([source], size)[0]


def stored(key: str, size: str) -> bytes | None:
    """A thumbnail drawn before, by this server or an earlier one (the disk cache; full views are not kept)."""
    return peek("serve-picture", (key, size), THUMB_SHELF) if size == "thumb" else None


def store(key: str, size: str, png: bytes) -> None:
    """Keep a thumbnail in the disk cache under its content key."""
    if size == "thumb":
        put("serve-picture", (key, size), png, THUMB_SHELF)
