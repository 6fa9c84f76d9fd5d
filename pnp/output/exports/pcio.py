"""`pnp export pcio`: a playingcards.io room file (`.pcio`) per game.

A `.pcio` file is a zip holding `widgets.json` (the room's widgets) and the
pictures it names under `userassets/`. Each deck becomes a `cardDeck` widget
whose card types are the deck's distinct faces, each with its own back (so the
two sides of a double-sided token stay together), and one `card` widget per
copy, stacked on the deck. Pictures are the trimmed cards at `--dpi` (150 by
default keeps the file small). Each board or play mat is a `board` widget (a
fixed picture under the cards, at its size on the table) showing the board
drawn whole at `--dpi`, at most 4096 px a side. A room holds at most about
1,200 widgets, so a game needing more is refused with the count.
"""

from __future__ import annotations

import io
import json
import shutil
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pnp.data.format.errors import InputError, Problem
from pnp.data.format.model import Game
from pnp.data.reading.boardspec import board_of
from pnp.data.store import files
from pnp.draw.faces import card_size_of
from pnp.output.exports.board_picture import board_components, write_boards
from pnp.output.exports.naming import Target, back_name, by_game, face_name, safe
from pnp.output.exports.output import folder
from pnp.output.exports.png import drawn_pictures
from pnp.output.exports.profiles import PROFILES
from pnp.output.exports.setup import Scenes, Setup
from pnp.resolve.cards import Printed

MAX_WIDGETS = 1200  # widgets playingcards.io keeps in one room
TABLE_PX_PER_MM = 1.8  # a poker card (88 mm) about 160 px high on the table
BOARDS = "_boards"  # the boards' folder in the room file (no deck's: safe() strips a leading _)
STAMP = (1980, 1, 1, 0, 0, 0)  # every zip entry's date: the same input gives the same bytes


def _template(side: str, w: int, h: int) -> dict[str, Any]:
    image = {"type": "image", "value": side, "valueType": "dynamic", "x": 0, "y": 0, "w": w, "h": h}
    return {"includeBorder": False, "includeRadius": True, "objects": [image]}


def deck_widgets(t: Target, cards: list[Printed], x: int) -> list[dict[str, Any]]:
    """One deck's `cardDeck` widget and a `card` widget per copy, at table position x."""
    size = card_size_of(t.comp)
    w, h = round(size.w * TABLE_PX_PER_MM), round(size.h * TABLE_PX_PER_MM)
    key = safe(t.comp.key)
    deck_id = f"{key}-deck"
    types = {
        face_name(p): {
            "face": f"package://userassets/{key}/{face_name(p)}.png",
            "back": f"package://userassets/{key}/{back_name(t.comp, p)}.png",
            "label": p.card.name,
        }
        for p in cards
    }
    deck = {
        "id": deck_id,
        "type": "cardDeck",
        "label": t.comp.name,
        "cardWidth": w,
        "cardHeight": h,
        "faceTemplate": _template("face", w, h),
        "backTemplate": _template("back", w, h),
        "cardTypes": types,
        "x": x,
        "y": 100,
        "z": 2,
    }
    out = [deck]
    for p in cards:
        for _ in range(p.copies):
            n = len(out)
            out.append(
                {
                    "id": f"{key}-{n}",
                    "type": "card",
                    "deck": deck_id,
                    "cardType": face_name(p),
                    "x": x,
                    "y": 100,
                    "z": 1000 + n,
                }
            )
    return out


def board_widgets(game: Game, y: int) -> list[dict[str, Any]]:
    """A `board` widget per board of the game, side by side from the left at table height y."""
    out, x = [], 100
    for comp in board_components(game):
        spec = board_of(game, comp)
        w, h = round(spec.w * TABLE_PX_PER_MM), round(spec.h * TABLE_PX_PER_MM)
        image = f"package://userassets/{BOARDS}/{safe(comp.key)}-board.png"
        out.append(
            {
                "id": f"{safe(comp.key)}-board",
                "type": "board",
                "boardImage": image,
                "width": w,
                "height": h,
                "x": x,
                "y": y,
                "z": 1,
            }
        )
        x += w + 40
    return out


def room(game_targets: list[Target], scenes: Scenes) -> list[dict[str, Any]]:
    """Every widget of one game's room: a hand, each deck side by side, then the boards below them."""
    widgets: list[dict[str, Any]] = [{"id": "hand", "type": "hand", "x": 50, "y": 820, "z": 1}]
    x, low = 100, 0
    for t in game_targets:
        widgets += deck_widgets(t, scenes[t.game.slug].printed(t.comp.key), x)
        x += round(card_size_of(t.comp).w * TABLE_PX_PER_MM) + 40
        low = max(low, 100 + round(card_size_of(t.comp).h * TABLE_PX_PER_MM))
    return widgets + board_widgets(game_targets[0].game, low + 60)


def pack(widgets: list[dict[str, Any]], pictures: dict[str, Path]) -> bytes:
    """The `.pcio` zip: widgets.json, then the pictures, in a fixed order with fixed dates."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        entries = [("widgets.json", json.dumps(widgets, indent=1, sort_keys=True).encode("utf-8"))]
        entries += [(name, pictures[name].read_bytes()) for name in sorted(pictures)]
        for name, data in entries:
            info = zipfile.ZipInfo(name, STAMP)
            info.compress_type = zipfile.ZIP_DEFLATED if name.endswith(".json") else zipfile.ZIP_STORED
            zf.writestr(info, data)
    return buf.getvalue()


def export_pcio(
    targets: list[Target],
    setup: Setup,
    stage: Path,
    dpi: float,
    jobs: int,
    progress: Callable[[int], None] = lambda n: None,
    sub: str = "",
) -> list[Path]:
    """One room file per game under stage/<game>/pcio/<sub>/<game>.pcio; returns them."""
    scenes = setup.scenes()
    rooms = [(mine, room(mine, scenes)) for mine in by_game(targets)]
    for mine, widgets in rooms:  # refused before anything is drawn
        if len(widgets) > MAX_WIDGETS:
            message = f"{len(widgets)} widgets (cards and decks), more than playingcards.io keeps in a room"
            where = mine[0].game.where
            raise InputError([Problem(where, None, "pcio", f"{message} ({MAX_WIDGETS}); export fewer decks")])
    written = []
    scratch = stage / ".pcio-boards"  # the boards' pictures, packed into the room files, then removed
    playing = setup.only({t.game.slug for t in targets})
    try:
        boards = write_boards(playing, dpi, lambda game: scratch / game.slug, stage)
        with drawn_pictures(targets, setup, stage, PROFILES["plain"], dpi, jobs, progress, sub) as drawn:
            for mine, widgets in rooms:
                game = mine[0].game
                pictures = {
                    f"userassets/{safe(t.comp.key)}/{p.name}": p for t in mine for p in drawn(t).glob("*.png")
                }
                pictures |= {
                    f"userassets/{BOARDS}/{b.path.name}": b.path for b in boards if b.game.slug == game.slug
                }
                path = folder(stage, game, "pcio", sub) / f"{safe(game.slug)}.pcio"
                files.write_bytes(path, pack(widgets, pictures), stage)
                written.append(path)
    finally:  # the boards' pictures live on only in the room files
        if scratch.exists():
            shutil.rmtree(scratch)
    return written
