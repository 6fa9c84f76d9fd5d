"""Tabletop Simulator pieces that are not card decks: tokens and boards.

Tokens (`kind: tokens`) become `Custom_Tile` objects, TTS's flat pieces with a
top and a bottom picture and a shape (box, hex or circle, as the tokens'
`shape`): one tile per copy, gathered in a bag, so each side of a double-sided
token keeps its own picture. Each distinct face and back is one picture of the
trimmed token at `--dpi`, lowered where needed to stay within 4096 px a side.
A board or play mat becomes a `Custom_Board`, TTS's locked, one-picture table
piece (sized from its picture), drawn whole as `pnp build` draws it, within
4096 px a side. Both are saved-object JSON files, as the decks are.
(TTS knowledge base: custom-content/custom-tile.md and custom-board.md.)
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pnp.data.format.model import Component, Game
from pnp.draw.faces import card_size_of
from pnp.output.exports.board_picture import MAX_SIDE
from pnp.output.exports.naming import Target, back_name, face_name
from pnp.output.exports.png import export_png
from pnp.output.exports.profiles import MM_PER_INCH, PROFILES
from pnp.output.exports.setup import Setup
from pnp.resolve.cards import Printed

TILE_TYPES = {"rect": 0, "hex": 1, "circle": 2}  # CustomTile.Type: 0 box, 1 hex, 2 circle, 3 rounded
TILE_THICKNESS = 0.1  # TTS units (about an inch): a punched cardboard token


def guid(*parts: object) -> str:
    """A stable 6-hex-digit object id (TTS's own format)."""
    return hashlib.sha1("/".join(map(str, parts)).encode()).hexdigest()[:6]


def lying(y: float = 1.0) -> dict[str, float]:
    """A transform: on the table, face up, at scale 1."""
    keys = ("posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ")
    return dict(zip(keys, (0.0, y, 0.0, 0.0, 180.0, 0.0, 1.0, 1.0, 1.0)))


def save_file(name: str, obj: dict[str, Any]) -> dict[str, Any]:
    """The saved-object file TTS loads from its Saved Objects folder, holding `obj`."""
    return {
        "SaveName": name,
        "GameMode": "",
        "Gravity": 0.5,
        "Date": "",
        "Table": "",
        "Sky": "",
        "Note": "",
        "Rules": "",
        "XmlUI": "",
        "LuaScript": "",
        "LuaScriptState": "",
        "ObjectStates": [obj],
        "TabStates": {},
        "VersionNumber": "",
    }


def token_dpi(comp: Component, dpi: float) -> float:
    """`dpi`, lowered where a token's picture would pass 4096 px a side."""
    size = card_size_of(comp)
    return min(dpi, MAX_SIDE / (max(size.w, size.h) / MM_PER_INCH))


def tile(t: Target, p: Printed, copy: int, face: str, back: str) -> dict[str, Any]:
    """One copy of a token as a Custom_Tile: its face on top, its back below."""
    return {
        "Name": "Custom_Tile",
        "GUID": guid(t.game.slug, t.comp.key, face_name(p), copy),
        "Nickname": p.card.name,
        "Description": p.code,
        "Transform": lying(),
        "Locked": False,
        "Tooltip": True,
        "CustomImage": {
            "ImageURL": face,
            "ImageSecondaryURL": back,
            "ImageScalar": 1.0,
            "WidthScale": 0.0,
            "CustomTile": {
                "Type": TILE_TYPES[t.comp.shape],
                "Thickness": TILE_THICKNESS,
                "Stackable": True,
                "Stretch": True,
            },
        },
    }


def token_bag(t: Target, cards: list[Printed], url: Callable[[str], str]) -> dict[str, Any]:
    """Every copy of every token of a component as tiles in one bag; `url` locates a picture by file name."""
    tiles = [
        tile(t, p, copy, url(f"{face_name(p)}.png"), url(f"{back_name(t.comp, p)}.png"))
        for p in cards
        for copy in range(p.copies)
    ]
    name = f"{t.game.game.name}: {t.comp.name}"
    bag = {
        "Name": "Bag",
        "GUID": guid(t.game.slug, t.comp.key),
        "Nickname": name,
        "Description": f"{len(tiles)} tokens",
        "Transform": lying(),
        "Locked": False,
        "Tooltip": True,
        "Bag": {"Order": 0},
        "ContainedObjects": tiles,
    }
    return save_file(name, bag)


def board_object(game: Game, comp: Component, image: str) -> dict[str, Any]:
    """A board as a Custom_Board showing its picture (TTS sizes it from the picture's proportions)."""
    name = f"{game.game.name}: {comp.name}"
    board = {
        "Name": "Custom_Board",
        "GUID": guid(game.slug, comp.key, "board"),
        "Nickname": name,
        "Description": "",
        "Transform": lying(0.5),
        "Locked": True,
        "Grid": True,
        "Tooltip": True,
        "CustomImage": {"ImageURL": image, "ImageSecondaryURL": "", "ImageScalar": 1.0, "WidthScale": 0.0},
    }
    return save_file(name, board)


def token_pictures(
    tokens: list[Target],
    setup: Setup,
    stage: Path,
    jobs: int,
    progress: Callable[[int], None],
    dpi: float,
    sub: str,
) -> None:
    """Each token component's distinct faces and backs under stage/<game>/tts/<sub>/<component>/."""
    for t in tokens:
        export_png([t], setup, stage, PROFILES["plain"], token_dpi(t.comp, dpi), jobs, progress, "tts", sub)
