"""`pnp export ttp`: a Tabletop Playground package folder per game.

The package is `<Game>/` with `Manifest.json` (name, version, GUID),
`Textures/` (card sheets and backs, drawn exactly as for `pnp export tts`: at
most 10 x 7 cards and 4096 px a side) and `Templates/` (one card-stack template
per sheet, its back a separate texture, so cards with different backs, and
each side of a double-sided token, keep their own pictures). Template GUIDs
come from the game and component names, so a new export replaces the old
templates in place instead of adding copies.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pnp.data.store import files
from pnp.draw.faces import card_size_of
from pnp.output.exports.naming import Target, safe
from pnp.output.exports.output import folder
from pnp.output.exports.setup import Setup
from pnp.output.exports.tts import Planned, Sheet, export_sheets
from pnp.resolve.cards import Printed

THICKNESS_CM = 0.05  # a card's thickness on the table


def guid(*parts: object) -> str:
    """A stable 32-hex-digit GUID (the form Tabletop Playground's templates use)."""
    return hashlib.md5("/".join(map(str, parts)).encode("utf-8")).hexdigest().upper()


def template(t: Target, cards: list[Printed], sheet: Sheet, face: str, back: str) -> dict[str, Any]:
    """The card-stack template of one sheet: every copy of each card on it, back as a separate texture."""
    size = card_size_of(t.comp)
    indices = [slot for slot, i in enumerate(sheet.cards) for _ in range(cards[i].copies)]
    return {
        "Type": "Card",
        "GUID": guid(t.game.slug, t.comp.key, sheet.number),
        "Name": f"{t.game.game.name}: {t.comp.name} {sheet.number}",
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
        "BackTexture": back,
        "HiddenTexture": "",
        "BackIndex": -2,  # the back is a whole separate file
        "HiddenIndex": -1,
        "NumHorizontal": sheet.cols,
        "NumVertical": sheet.rows,
        "Width": round(size.w / 10, 3),  # centimetres
        "Height": round(size.h / 10, 3),
        "Thickness": THICKNESS_CM,
        "HiddenInHand": True,
        "UsedWithCardHolders": True,
        "CanStack": True,
        "UsePrimaryColorForSide": False,
        "FrontTextureOverrideExposed": False,
        "AllowFlippedInStack": False,
        "MirrorBack": True,
        "Model": "Rounded",
        "Indices": indices,
        "CardNames": {str(slot): cards[i].card.name for slot, i in enumerate(sheet.cards)},
        "CardMetadata": {str(slot): cards[i].code for slot, i in enumerate(sheet.cards)},
        "CardTags": {},
    }


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

    def package(t: Target) -> Path:
        home = folder(stage, t.game, "ttp", sub) / safe(t.game.game.name)
        if not (home / "Manifest.json").exists():
            manifest = {"Name": t.game.game.name, "Version": "1", "GUID": guid(t.game.slug)}
            files.write_json(home / "Manifest.json", manifest, stage)
        (home / "Textures").mkdir(parents=True, exist_ok=True)
        return home

    def describe(t: Target, cards: list[Printed], planned: Planned) -> list[Path]:
        written = []
        for s in planned.sheets:
            face, back = planned.names[s.number]
            path = package(t) / "Templates" / f"{safe(t.comp.key)}-{s.number}.json"
            files.write_json(path, template(t, cards, s, face, back), stage)
            written.append(path)
        return written

    return export_sheets(targets, setup, jobs, progress, dpi, lambda t: package(t) / "Textures", describe)
