"""`pnp export tts`: Tabletop Simulator deck sheets, back images and a saved-object JSON.

A sheet is a grid of at most 10 x 7 pictures whose last slot holds the
hidden-card picture (the back), so one sheet carries up to 69 distinct faces.
Copies of a card share one picture: the deck lists its card ID once per copy.
Cards with different backs (or set marks) go on different sheets, since a
custom deck has one back per sheet.
"""
from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from PIL import Image

from pnp.draw.faces import Printed, card_size_of
from pnp.output.publish import write_json_atomic
from pnp.output.exports.naming import Target, back_key, back_name, safe
from pnp.output.exports.output import folder
from pnp.output.exports.setup import Scenes, Setup
from pnp.output.workers import chunked, run_all
from pnp.output.exports.profiles import Frame, cell_frame
from pnp.output.exports.raster import Request, render

MAX_COLS, MAX_ROWS = 10, 7
PER_SHEET = MAX_COLS * MAX_ROWS - 1   # the last slot shows hidden cards
MIN_SIDE = 2
MAX_SHEET_W = 4096                    # px; wider sheets fail to load on some machines
MAX_SHEET_H = 4096
BLANK = (40, 40, 46)                  # unused slots


@dataclass(frozen=True)
class Sheet:
    """One deck sheet: which printed cards it shows, and its grid."""

    number: int           # 1-based, also the CustomDeck key
    cards: tuple[int, ...]  # indices into the component's printed cards
    back: int              # index of a card whose back this sheet's cards share
    cols: int
    rows: int

    @property
    def hidden_slot(self) -> int:
        return self.cols * self.rows - 1


def grid_for(n: int) -> tuple[int, int]:
    """Columns and rows for n faces plus the hidden-card slot: at most 10 x 7, at least 2 x 2.

    The smallest grid TTS's custom-deck dialog offers is 2 x 2, so small decks
    use two rows rather than one long strip.
    """
    if not 1 <= n <= PER_SHEET:
        raise ValueError(f"a sheet holds 1 to {PER_SHEET} faces, not {n}")
    rows = max(MIN_SIDE, math.ceil((n + 1) / MAX_COLS))
    return max(MIN_SIDE, math.ceil((n + 1) / rows)), rows


def plan_sheets(t: Target, cards: list[Printed]) -> list[Sheet]:
    """Group cards by back, then fill sheets of up to 69 faces, in database order."""
    groups: dict[tuple[str, int | None], list[int]] = {}
    for i, p in enumerate(cards):
        groups.setdefault(back_key(t.comp, p), []).append(i)
    sheets: list[Sheet] = []
    for indices in groups.values():
        for start in range(0, len(indices), PER_SHEET):
            part = tuple(indices[start:start + PER_SHEET])
            cols, rows = grid_for(len(part))
            sheets.append(Sheet(len(sheets) + 1, part, part[0], cols, rows))
    return sheets


def tts_frame(t: Target) -> Frame:
    """Per-card picture size: the largest that keeps a full sheet within 4096 x 4096 px."""
    return cell_frame(card_size_of(t.comp), MAX_SHEET_W // MAX_COLS, MAX_SHEET_H // MAX_ROWS)


@dataclass(frozen=True)
class CellJob:
    game: str
    requests: tuple[Request, ...]


def draw_cells(scenes: Scenes, job: CellJob) -> list[bytes]:
    """Worker: raw RGB pixels of each requested picture."""
    return [im.tobytes() for im in render(scenes[job.game], list(job.requests))]


def export_tts(targets: list[Target], setup: Setup, stage: Path, final: Path, jobs: int,
               progress: Callable[[int], None] = lambda n: None) -> list[Path]:
    """Sheets, backs and one JSON per component under stage/<game>/tts/; returns the JSON files.

    `final` is the output folder the files are published to: the JSON names
    pictures by their absolute path there.
    """
    scenes = setup.scenes()
    plans = []
    work: list[CellJob] = []
    for t in targets:
        cards = scenes[t.game.slug].printed(t.comp.key)
        sheets = plan_sheets(t, cards)
        frame = tts_frame(t)
        requests = [Request(t.comp.key, i, "face", frame) for s in sheets for i in s.cards]
        backs = sorted({s.back for s in sheets})
        requests += [Request(t.comp.key, i, "back", frame) for i in backs]
        chunks = chunked(requests, jobs)
        plans.append((t, cards, sheets, frame, requests, backs, len(work), len(chunks)))
        work += [CellJob(t.game.slug, tuple(c)) for c in chunks]
    pixels = run_all(draw_cells, work, setup.scenes, jobs, progress, weight=lambda j: len(j.requests))
    written = []
    for t, cards, sheets, frame, requests, backs, first, count in plans:
        flat = [b for chunk in pixels[first:first + count] for b in chunk]
        images = [Image.frombytes("RGB", (frame.width, frame.height), b) for b in flat]
        faces = dict(zip(((r.index, r.side) for r in requests), images))
        dest = folder(stage, t.game, "tts")
        rel_dir = final.resolve() / t.game.slug / "tts"
        names: dict[int, tuple[str, str]] = {}
        for i in backs:
            name = f"{safe(t.comp.key)}-{back_name(t.comp, cards[i])}.png"
            faces[(i, "back")].save(dest / name, format="PNG", compress_level=6)
        for s in sheets:
            sheet = compose(s, frame, [faces[(i, "face")] for i in s.cards], faces[(s.back, "back")])
            name = f"{safe(t.comp.key)}-sheet{s.number}.png"
            sheet.save(dest / name, format="PNG", compress_level=6)
            names[s.number] = ((rel_dir / name).as_uri(),
                               (rel_dir / f"{safe(t.comp.key)}-{back_name(t.comp, cards[s.back])}.png").as_uri())
        path = dest / f"{safe(t.comp.key)}.json"
        write_json_atomic(path, saved_object(t, cards, sheets, names))
        written.append(path)
    return written


def compose(sheet: Sheet, frame: Frame, faces: list[Image.Image], hidden: Image.Image) -> Image.Image:
    """Faces left to right, top to bottom; the hidden-card picture in the last slot."""
    w, h = frame.width, frame.height
    image = Image.new("RGB", (sheet.cols * w, sheet.rows * h), BLANK)
    for slot, face in enumerate(faces):
        image.paste(face, ((slot % sheet.cols) * w, (slot // sheet.cols) * h))
    slot = sheet.hidden_slot
    image.paste(hidden, ((slot % sheet.cols) * w, (slot // sheet.cols) * h))
    return image


def _guid(*parts: object) -> str:
    """A stable 6-hex-digit object id (TTS's own format)."""
    return hashlib.sha1("/".join(map(str, parts)).encode()).hexdigest()[:6]


def _transform(y: float = 1.0) -> dict[str, float]:
    """Lying face down on the table (rotated 180 degrees about z)."""
    return {"posX": 0.0, "posY": y, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


def saved_object(t: Target, cards: list[Printed], sheets: list[Sheet],
                 urls: dict[int, tuple[str, str]]) -> dict[str, Any]:
    """The saved-object file TTS loads from its Saved Objects folder: one custom deck."""
    custom = {str(s.number): {"FaceURL": urls[s.number][0], "BackURL": urls[s.number][1],
                              "NumWidth": s.cols, "NumHeight": s.rows, "BackIsHidden": True,
                              "UniqueBack": False, "Type": 0} for s in sheets}
    deck_ids: list[int] = []
    contained: list[dict[str, Any]] = []
    for s in sheets:
        for slot, i in enumerate(s.cards):
            p = cards[i]
            card_id = s.number * 100 + slot
            for copy in range(p.copies):
                deck_ids.append(card_id)
                contained.append({
                    "Name": "Card", "GUID": _guid(t.game.slug, t.comp.key, i, copy),
                    "Nickname": p.card.name, "Description": p.code, "CardID": card_id,
                    "CustomDeck": {str(s.number): custom[str(s.number)]},
                    "Transform": _transform(), "Locked": False, "Tooltip": True, "SidewaysCard": False,
                    "HideWhenFaceDown": True,
                })
    name = f"{t.game.game.name}: {t.comp.name}"
    if len(contained) == 1:  # one card is a card, not a deck
        obj = {**contained[0], "Nickname": name}
    else:
        obj = {"Name": "DeckCustom", "GUID": _guid(t.game.slug, t.comp.key), "Nickname": name,
               "Description": f"{len(contained)} cards", "Transform": _transform(),
               "Locked": False, "Grid": True, "Snap": True, "Autoraise": True, "Sticky": True,
               "Tooltip": True, "SidewaysCard": False, "HideWhenFaceDown": True,
               "DeckIDs": deck_ids, "CustomDeck": custom, "ContainedObjects": contained}
    return {"SaveName": name, "GameMode": "", "Gravity": 0.5, "Date": "", "Table": "", "Sky": "",
            "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "", "LuaScriptState": "",
            "ObjectStates": [obj], "TabStates": {}, "VersionNumber": ""}
