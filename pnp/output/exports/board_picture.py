"""A board or play mat as one picture for a virtual table: drawn as `pnp build` draws it, whole (no tiles),
at the highest resolution up to `dpi` that keeps it within 4096 px a side."""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from reportlab.pdfgen.canvas import Canvas

from pnp.data.format.model import Component, Game
from pnp.data.reading.boardspec import board_of
from pnp.data.store import files
from pnp.geometry.sizes import pt
from pnp.output.board_art import draw_board
from pnp.output.exports.naming import safe
from pnp.output.exports.profiles import MM_PER_INCH
from pnp.output.exports.raster import Scene, page_png
from pnp.output.exports.setup import Setup

MAX_SIDE = 4096  # px: the largest texture the tables load everywhere


@dataclass(frozen=True)
class BoardPicture:
    """A board's PNG, its size in pixels and millimetres."""

    png: bytes
    px: tuple[int, int]
    mm: tuple[float, float]


def board_components(game: Game) -> list[Component]:
    """The game's boards and play mats."""
    return [c for c in game.components if c.kind == "board"]


def board_picture(scene: Scene, comp: Component, dpi: float) -> BoardPicture:
    """One board drawn whole and rasterised (through the disk cache of pictures)."""
    spec = board_of(scene.game, comp)
    dpi = min(dpi, MAX_SIDE / (spec.w / MM_PER_INCH), MAX_SIDE / (spec.h / MM_PER_INCH))
    px = (max(1, int(spec.w / MM_PER_INCH * dpi)), max(1, int(spec.h / MM_PER_INCH * dpi)))
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(pt(spec.w), pt(spec.h)), invariant=1, pageCompression=0)
    draw_board(c, scene.game, spec, scene.fonts, comp)
    c.showPage()
    c.save()
    return BoardPicture(page_png(buf.getvalue(), dpi, px), px, (spec.w, spec.h))


@dataclass(frozen=True)
class WrittenBoard:
    """A board whose picture an export wrote: its game, component, picture and file."""

    game: Game
    comp: Component
    picture: BoardPicture
    path: Path


def write_boards(setup: Setup, dpi: float, dest: Callable[[Game], Path], stage: Path) -> list[WrittenBoard]:
    """Every game's boards and play mats drawn whole and written as `<board>-board.png` into `dest(game)`."""
    scenes = setup.scenes()
    out = []
    for game in setup.games:
        for comp in board_components(game):
            picture = board_picture(scenes[game.slug], comp, dpi)
            path = dest(game) / f"{safe(comp.key)}-board.png"
            files.write_bytes(path, picture.png, stage)
            out.append(WrittenBoard(game, comp, picture, path))
    return out
