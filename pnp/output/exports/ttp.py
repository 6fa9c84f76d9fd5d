"""`pnp export ttp`: a Tabletop Playground package folder per game.

The package is `<Game>/` with `Manifest.json` (name, version, GUID),
`Textures/` (card sheets and backs, drawn exactly as for `pnp export tts`: at
most 10 x 7 cards and 4096 px a side) and `Templates/` (one card-stack template
per sheet, its back a separate texture, so cards with different backs, and
each side of a double-sided token, keep their own pictures). Each board or play
mat is a template of its own: one thick square card showing its picture (at
most 4096 px a side) on both sides. Template GUIDs
come from the game and component names, so a new export replaces the old
templates in place instead of adding copies.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pnp.data.format.model import Component, Game
from pnp.data.store import files
from pnp.draw.faces import card_size_of
from pnp.output.exports.board_picture import BoardPicture, write_boards
from pnp.output.exports.naming import Target, safe
from pnp.output.exports.output import folder
from pnp.output.exports.setup import Setup
from pnp.output.exports.tts import Planned, Sheet, export_sheets
from pnp.resolve.cards import Printed

THICKNESS_CM = 0.05  # a card's thickness on the table
BOARD_CM = 0.2  # a board's


def guid(*parts: object) -> str:
    """A stable 32-hex-digit GUID (the form Tabletop Playground's templates use)."""
    return hashlib.md5("/".join(map(str, parts)).encode("utf-8")).hexdigest().upper()


def card_object(
    guid_: str, name: str, face: str, size_mm: tuple[float, float], **fields: Any
) -> dict[str, Any]:
    """A card template (Tabletop Playground's "Card" type): the fields every one has, then `fields`."""
    return {
        "Type": "Card",
        "GUID": guid_,
        "Name": name,
        "Metadata": "",
        "CollisionType": "Regular",
        "Friction": 0.7,
        "Restitution": 0,
        "Density": 0.5,
        "SurfaceType": "Cardboard",
        "Roughness": 1,
        "Metallic": 0,
        "PrimaryColor": {"R": 255, "G": 255, "B": 255},
        "SecondaryColor": {"R": 0, "G": 0, "B": 0},
        "Flippable": True,
        "AutoStraighten": False,
        "ShouldSnap": True,
        "ScriptName": "",
        "Blueprint": "",
        "Models": [],
        "Collision": [],
        "SnapPointsGlobal": False,
        "SnapPoints": [],
        "ZoomViewDirection": {"X": 0, "Y": 0, "Z": 0},
        "Tags": [],
        "FrontTexture": face,
        "HiddenTexture": "",
        "HiddenIndex": -1,
        "Width": round(size_mm[0] / 10, 3),  # centimetres
        "Height": round(size_mm[1] / 10, 3),
        "UsePrimaryColorForSide": False,
        "FrontTextureOverrideExposed": False,
        "AllowFlippedInStack": False,
        "MirrorBack": True,
        "CardMetadata": {},
        "CardTags": {},
        **fields,
    }


def template(t: Target, cards: list[Printed], sheet: Sheet, face: str, back: str) -> dict[str, Any]:
    """The card-stack template of one sheet: every copy of each card on it, back as a separate texture."""
    size = card_size_of(t.comp)
    return card_object(
        guid(t.game.slug, t.comp.key, sheet.number),
        f"{t.game.game.name}: {t.comp.name} {sheet.number}",
        face,
        (size.w, size.h),
        BackTexture=back,
        BackIndex=-2,  # the back is a whole separate file
        NumHorizontal=sheet.cols,
        NumVertical=sheet.rows,
        Thickness=THICKNESS_CM,
        HiddenInHand=True,
        UsedWithCardHolders=True,
        CanStack=True,
        Model="Rounded",
        Indices=[slot for slot, i in enumerate(sheet.cards) for _ in range(cards[i].copies)],
        CardNames={str(slot): cards[i].card.name for slot, i in enumerate(sheet.cards)},
        CardMetadata={str(slot): cards[i].code for slot, i in enumerate(sheet.cards)},
    )


def board_template(game: Game, comp: Component, picture: BoardPicture, face: str) -> dict[str, Any]:
    """A board as one thick square card, its picture on both sides (a board has no back of its own)."""
    return card_object(
        guid(game.slug, comp.key, "board"),
        f"{game.game.name}: {comp.name}",
        face,
        picture.mm,
        BackTexture="",
        BackIndex=-1,  # the front picture on the back too
        NumHorizontal=1,
        NumVertical=1,
        Thickness=BOARD_CM,
        HiddenInHand=False,
        UsedWithCardHolders=False,
        CanStack=False,
        Model="Square",
        Indices=[0],
        CardNames={"0": comp.name},
    )


def export_ttp(
    targets: list[Target],
    setup: Setup,
    stage: Path,
    jobs: int,
    progress: Callable[[int], None] = lambda n: None,
    dpi: float = 300.0,
    sub: str = "",
) -> list[Path]:
    """One package per game under stage/<game>/ttp/<sub>/<Game>/; returns the template files."""

    def package(game: Game) -> Path:
        home = folder(stage, game, "ttp", sub) / safe(game.game.name)
        if not (home / "Manifest.json").exists():
            manifest = {"Name": game.game.name, "Version": "1", "GUID": guid(game.slug)}
            files.write_json(home / "Manifest.json", manifest, stage)
        (home / "Textures").mkdir(parents=True, exist_ok=True)
        return home

    def describe(t: Target, cards: list[Printed], planned: Planned) -> list[Path]:
        written = []
        for s in planned.sheets:
            face, back = planned.names[s.number]
            path = package(t.game) / "Templates" / f"{safe(t.comp.key)}-{s.number}.json"
            files.write_json(path, template(t, cards, s, face, back), stage)
            written.append(path)
        return written

    written = export_sheets(
        targets, setup, jobs, progress, dpi, lambda t: package(t.game) / "Textures", describe
    )
    for b in write_boards(setup, dpi, lambda game: package(game) / "Textures", stage):
        path = b.path.parent.parent / "Templates" / f"{safe(b.comp.key)}.json"
        files.write_json(path, board_template(b.game, b.comp, b.picture, b.path.name), stage)
        written.append(path)
    return written
