"""`pnp export tts`: Tabletop Simulator deck sheets, back images and a saved-object JSON.

Each card is drawn at `--dpi` (300 by default) at its own size. A sheet is a
grid of at most 10 x 7 cards and at most 4096 px each way, so large cards at a
high resolution get smaller grids and more sheets. Every slot holds a face:
the back is its own picture and `BackIsHidden` tells TTS to show it for hidden
cards, so no slot is given up to a hidden-card picture. Copies of a card share
one picture: the deck lists its card ID once per copy. Cards with different
backs (or set marks) go on different sheets, since a custom deck has one back
per sheet. Pictures are named by their local path, or by URL under
`--base-url` for images hosted on the web.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from pnp.data.format.errors import InputError, Problem
from pnp.data.format.model import Game
from pnp.data.store import files
from pnp.draw.faces import card_size_of
from pnp.geometry.sizes import Size
from pnp.output.exports.board_picture import write_boards
from pnp.output.exports.naming import Target, back_key, back_name, safe
from pnp.output.exports.output import folder
from pnp.output.exports.png import png_count
from pnp.output.exports.pngfile import save_png
from pnp.output.exports.profiles import MM_PER_INCH, Frame
from pnp.output.exports.raster import grid_pdf, page_png
from pnp.output.exports.setup import Scenes, Setup
from pnp.output.exports.tts_pieces import board_object, guid, save_file, token_bag, token_pictures
from pnp.output.workers import run_all
from pnp.resolve.cards import Printed

MAX_COLS, MAX_ROWS = 10, 7
MIN_SIDE = 2  # the smallest grid TTS's custom-deck dialog offers
MAX_SHEET_W = 4096  # px; larger sheets fail to load on some machines
MAX_SHEET_H = 4096
BLANK = "#28282e"  # unused slots


@dataclass(frozen=True)
class Limits:
    """The largest grid a sheet of cells of one size may have."""

    cols: int
    rows: int

    @property
    def per_sheet(self) -> int:
        return self.cols * self.rows


@dataclass(frozen=True)
class Sheet:
    """One deck sheet: which printed cards it shows, and its grid."""

    number: int  # 1-based, also the CustomDeck key
    cards: tuple[int, ...]  # indices into the component's printed cards
    back: int  # index of a card whose back this sheet's cards share
    cols: int
    rows: int


def limits_for(frame: Frame) -> Limits:
    """Columns and rows of cells that fit 10 x 7 and 4096 x 4096 px (at least 2 x 2)."""
    cols = min(MAX_COLS, MAX_SHEET_W // frame.width)
    rows = min(MAX_ROWS, MAX_SHEET_H // frame.height)
    if cols < MIN_SIDE or rows < MIN_SIDE:
        raise ValueError(
            f"{frame.width} x {frame.height} px per card is too large for a 2 x 2 sheet "
            f"within {MAX_SHEET_W} x {MAX_SHEET_H} px; use a lower --dpi"
        )
    return Limits(cols, rows)


def grid_for(n: int, limits: Limits = Limits(MAX_COLS, MAX_ROWS)) -> tuple[int, int]:
    """Columns and rows for n faces: as few rows as the column limit allows, at least 2 x 2."""
    if not 1 <= n <= limits.per_sheet:
        raise ValueError(f"a sheet holds 1 to {limits.per_sheet} faces, not {n}")
    rows = max(MIN_SIDE, math.ceil(n / limits.cols))
    return max(MIN_SIDE, math.ceil(n / rows)), rows


def plan_sheets(t: Target, cards: list[Printed], limits: Limits) -> list[Sheet]:
    """Group cards by back, then fill sheets of up to `limits.per_sheet` faces, in database order."""
    groups: dict[tuple[str, int | None], list[int]] = {}
    for i, p in enumerate(cards):
        groups.setdefault(back_key(t.comp, p), []).append(i)
    sheets: list[Sheet] = []
    for indices in groups.values():
        for start in range(0, len(indices), limits.per_sheet):
            part = tuple(indices[start : start + limits.per_sheet])
            cols, rows = grid_for(len(part), limits)
            sheets.append(Sheet(len(sheets) + 1, part, part[0], cols, rows))
    return sheets


def tts_frame(size: Size, dpi: float) -> Frame:
    """Per-card picture: the trimmed card at `dpi`, in whole pixels.

    A card too large for a 2 x 2 sheet at `dpi` (a big board card at 300 dpi)
    is drawn at the highest resolution that fits one.
    """
    dpi = min(
        dpi,
        MAX_SHEET_W // MIN_SIDE / (size.w / MM_PER_INCH),
        MAX_SHEET_H // MIN_SIDE / (size.h / MM_PER_INCH),
    )
    width, height = max(1, round(size.w / MM_PER_INCH * dpi)), max(1, round(size.h / MM_PER_INCH * dpi))
    return Frame(width, height, (0.0, 0.0, float(width), float(height)), dpi)


def tts_plan(t: Target, cards: list[Printed], dpi: float) -> tuple[Frame, list[Sheet]]:
    """The cell picture and the sheets of one component; an input error when the dpi cannot fit."""
    frame = tts_frame(card_size_of(t.comp), dpi)
    try:
        return frame, plan_sheets(t, cards, limits_for(frame))
    except ValueError as exc:
        raise InputError([Problem(t.game.where, t.comp.line, "--dpi", f"{t.comp.name}: {exc}")]) from None


@dataclass(frozen=True)
class SheetJob:
    """One picture a worker draws and writes: a sheet of faces, or one back (a 1 x 1 grid)."""

    game: str
    comp: str
    cells: tuple[tuple[int, str], ...]  # (printed card, "face" | "back") per slot
    cols: int
    rows: int
    frame: Frame  # one cell
    path: str


def draw_sheet(scenes: Scenes, job: SheetJob) -> int:
    """Worker: the whole sheet drawn as one PDF page and rasterised once (from the cache when its
    drawing is unchanged), written as PNG; returns how many cards it shows."""
    pdf = grid_pdf(scenes[job.game], job.comp, list(job.cells), job.frame, job.cols, job.rows, BLANK)
    size = (job.cols * job.frame.width, job.rows * job.frame.height)
    save_png(page_png(pdf, job.frame.dpi, size), job.path)
    return len(job.cells)


def locate(name: str, final_dir: Path, base_url: str | None) -> str:
    """Where TTS finds a picture: the hosted URL under `base_url`, or the local file's URI."""
    if base_url:
        return f"{base_url.rstrip('/')}/{quote(name)}"
    return (final_dir / name).as_uri()


@dataclass(frozen=True)
class Planned:
    """One component's sheets as pictures to draw: the jobs, and each sheet's (face file, back file) names."""

    frame: Frame
    sheets: list[Sheet]
    work: list[SheetJob]
    names: dict[int, tuple[str, str]]


def plan_pictures(t: Target, cards: list[Printed], dest: Path, dpi: float) -> Planned:
    """The sheets and backs of one component as jobs writing into `dest`."""
    frame, sheets = tts_plan(t, cards, dpi)
    work: list[SheetJob] = []
    names: dict[int, tuple[str, str]] = {}
    stem = safe(t.comp.key)
    for i in sorted({s.back for s in sheets}):
        name = f"{stem}-{back_name(t.comp, cards[i])}.png"
        work.append(SheetJob(t.game.slug, t.comp.key, ((i, "back"),), 1, 1, frame, str(dest / name)))
    for s in sheets:
        name = f"{stem}-sheet{s.number}.png"
        cells = tuple((i, "face") for i in s.cards)
        work.append(SheetJob(t.game.slug, t.comp.key, cells, s.cols, s.rows, frame, str(dest / name)))
        names[s.number] = (name, f"{stem}-{back_name(t.comp, cards[s.back])}.png")
    return Planned(frame, sheets, work, names)


def draw_all(work: list[SheetJob], setup: Setup, jobs: int, progress: Callable[[int], None]) -> None:
    """Draw every sheet job on the workers, the largest first (an even finish)."""
    work = sorted(work, key=lambda j: -len(j.cells) * j.frame.width * j.frame.height)
    run_all(draw_sheet, work, setup.scenes, jobs, progress, weight=lambda j: len(j.cells))


def export_sheets(
    targets: list[Target],
    setup: Setup,
    jobs: int,
    progress: Callable[[int], None],
    dpi: float,
    dest: Callable[[Target], Path],
    describe: Callable[[Target, list[Printed], Planned], list[Path]],
) -> list[Path]:
    """Every target's sheets and backs drawn into `dest(target)`; `describe` writes what a table loads
    beside them (and returns those files, which this returns)."""
    scenes = setup.scenes()
    work: list[SheetJob] = []
    written: list[Path] = []
    for t in targets:
        cards = scenes[t.game.slug].printed(t.comp.key)
        planned = plan_pictures(t, cards, dest(t), dpi)
        work += planned.work
        written += describe(t, cards, planned)
    draw_all(work, setup, jobs, progress)
    return written


def sheet_total(targets: list[Target], scenes: Scenes, dpi: float) -> int:
    """Pictures `draw_all` counts for these targets (for the progress bar): faces plus distinct backs."""
    total = 0
    for t in targets:
        _, sheets = tts_plan(t, scenes[t.game.slug].printed(t.comp.key), dpi)
        total += sum(len(s.cards) for s in sheets) + len({s.back for s in sheets})
    return total


def tts_total(targets: list[Target], scenes: Scenes, dpi: float) -> int:
    """Pictures `export_tts` counts for the progress bar: the decks' sheet pictures, the tokens' faces and backs."""
    tokens = [t for t in targets if t.comp.kind == "tokens"]
    return sheet_total([t for t in targets if t not in tokens], scenes, dpi) + png_count(tokens, scenes)


def export_tts(
    targets: list[Target],
    setup: Setup,
    stage: Path,
    final: Path,
    jobs: int,
    progress: Callable[[int], None] = lambda n: None,
    dpi: float = 300.0,
    sub: str = "",
    base_url: str | None = None,
) -> list[Path]:
    """Sheets, backs and one JSON per component under stage/<game>/tts/<sub>/; returns the JSON files.

    `final` is the output folder the files are published to: without
    `base_url` the JSON names pictures by their absolute path there. Each
    sheet and back is one job for the workers (drawn, rasterised and encoded there).
    """

    def final_dir(game: Game) -> Path:
        return Path(os.path.abspath(final / game.slug / "tts" / sub))  # its lasting name, not a generation

    def describe(t: Target, cards: list[Printed], planned: Planned) -> list[Path]:
        urls = {
            n: (locate(face, final_dir(t.game), base_url), locate(back, final_dir(t.game), base_url))
            for n, (face, back) in planned.names.items()
        }
        path = folder(stage, t.game, "tts", sub) / f"{safe(t.comp.key)}.json"
        files.write_json(path, saved_object(t, cards, planned.sheets, urls), stage)
        return [path]

    def token_url(t: Target) -> Callable[[str], str]:
        return lambda name: locate(f"{t.comp.key}/{name}", final_dir(t.game), base_url)

    decks = [t for t in targets if t.comp.kind != "tokens"]
    tokens = [t for t in targets if t.comp.kind == "tokens"]
    here = lambda game: folder(stage, game, "tts", sub)  # noqa: E731
    written = (
        export_sheets(decks, setup, jobs, progress, dpi, lambda t: here(t.game), describe) if decks else []
    )
    token_pictures(tokens, setup, stage, jobs, progress, dpi, sub)
    scenes = setup.scenes()
    for t in tokens:
        bag = token_bag(t, scenes[t.game.slug].printed(t.comp.key), token_url(t))
        written.append(here(t.game) / f"{safe(t.comp.key)}.json")
        files.write_json(written[-1], bag, stage)
    for b in write_boards(setup, dpi, here, stage):
        image = locate(b.path.name, final_dir(b.game), base_url)
        written.append(here(b.game) / f"{safe(b.comp.key)}.json")
        files.write_json(written[-1], board_object(b.game, b.comp, image), stage)
    return written


def _transform(y: float = 1.0) -> dict[str, float]:
    """Lying face down on the table (rotated 180 degrees about z)."""
    return {
        "posX": 0.0,
        "posY": y,
        "posZ": 0.0,
        "rotX": 0.0,
        "rotY": 180.0,
        "rotZ": 180.0,
        "scaleX": 1.0,
        "scaleY": 1.0,
        "scaleZ": 1.0,
    }


def saved_object(
    t: Target, cards: list[Printed], sheets: list[Sheet], urls: dict[int, tuple[str, str]]
) -> dict[str, Any]:
    """The saved-object file TTS loads from its Saved Objects folder: one custom deck."""
    custom = {
        str(s.number): {
            "FaceURL": urls[s.number][0],
            "BackURL": urls[s.number][1],
            "NumWidth": s.cols,
            "NumHeight": s.rows,
            "BackIsHidden": True,
            "UniqueBack": False,
            "Type": 0,
        }
        for s in sheets
    }
    deck_ids: list[int] = []
    contained: list[dict[str, Any]] = []
    for s in sheets:
        for slot, i in enumerate(s.cards):
            p = cards[i]
            card_id = s.number * 100 + slot
            for copy in range(p.copies):
                deck_ids.append(card_id)
                contained.append(
                    {
                        "Name": "Card",
                        "GUID": guid(t.game.slug, t.comp.key, i, copy),
                        "Nickname": p.card.name,
                        "Description": p.code,
                        "CardID": card_id,
                        "CustomDeck": {str(s.number): custom[str(s.number)]},
                        "Transform": _transform(),
                        "Locked": False,
                        "Tooltip": True,
                        "SidewaysCard": False,
                        "HideWhenFaceDown": True,
                        "Hands": True,
                    }
                )
    name = f"{t.game.game.name}: {t.comp.name}"
    if len(contained) == 1:  # one card is a card, not a deck
        obj = {**contained[0], "Nickname": name}
    else:
        obj = {
            "Name": "DeckCustom",
            "GUID": guid(t.game.slug, t.comp.key),
            "Nickname": name,
            "Description": f"{len(contained)} cards",
            "Transform": _transform(),
            "Locked": False,
            "Grid": True,
            "Snap": True,
            "Autoraise": True,
            "Sticky": True,
            "Tooltip": True,
            "SidewaysCard": False,
            "HideWhenFaceDown": True,
            "Hands": False,
            "DeckIDs": deck_ids,
            "CustomDeck": custom,
            "ContainedObjects": contained,
        }
    return save_file(name, obj)
