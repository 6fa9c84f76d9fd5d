"""`pnp export screentop`: card-grid images and a deck description for Screentop.gg.

Screentop.gg builds a deck from a grid image whose rows and columns its editor
is told; it has no import format of its own. For each deck this writes its
sheets and backs (drawn exactly as for `pnp export tts`: at most 10 x 7 cards,
4096 px a side, one back per sheet) and `<deck>.json`: per sheet, the image, its
back, columns, rows, card size in pixels, and each slot's card name, code and
copies, in the order the editor numbers them (left to right, top to bottom).
Each board or play mat is one picture (at most 4096 px a side) with its own
`<board>.json` (image, size in pixels and millimetres), for the editor's board.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from pnp.data.store import files
from pnp.output.exports.board_picture import write_boards
from pnp.output.exports.naming import Target, safe
from pnp.output.exports.output import folder
from pnp.output.exports.setup import Setup
from pnp.output.exports.tts import Planned, export_sheets
from pnp.resolve.cards import Printed


def description(t: Target, cards: list[Printed], planned: Planned) -> dict[str, Any]:
    """What the Screentop editor is told about one deck's grids."""
    sheets = []
    for s in planned.sheets:
        face, back = planned.names[s.number]
        sheets.append(
            {
                "image": face,
                "back": back,
                "columns": s.cols,
                "rows": s.rows,
                "card_px": [planned.frame.width, planned.frame.height],
                "cards": [
                    {
                        "slot": slot,
                        "name": cards[i].card.name,
                        "code": cards[i].code,
                        "copies": cards[i].copies,
                    }
                    for slot, i in enumerate(s.cards)
                ],
            }
        )
    return {
        "table": "Screentop.gg",
        "game": t.game.game.name,
        "deck": t.comp.name,
        "cards": sum(p.copies for p in cards),
        "sheets": sheets,
    }


def export_screentop(
    targets: list[Target],
    setup: Setup,
    stage: Path,
    jobs: int,
    progress: Callable[[int], None] = lambda n: None,
    dpi: float = 300.0,
    sub: str = "",
) -> list[Path]:
    """Sheets, backs and one description per component under stage/<game>/screentop/<sub>/; returns them."""

    def describe(t: Target, cards: list[Printed], planned: Planned) -> list[Path]:
        path = folder(stage, t.game, "screentop", sub) / f"{safe(t.comp.key)}.json"
        files.write_json(path, description(t, cards, planned), stage)
        return [path]

    written = export_sheets(
        targets, setup, jobs, progress, dpi, lambda t: folder(stage, t.game, "screentop", sub), describe
    )
    for b in write_boards(setup, dpi, lambda game: folder(stage, game, "screentop", sub), stage):
        about = {
            "table": "Screentop.gg",
            "game": b.game.game.name,
            "board": b.comp.name,
            "image": b.path.name,
            "px": list(b.picture.px),
            "mm": list(b.picture.mm),
        }
        path = b.path.parent / f"{safe(b.comp.key)}.json"
        files.write_json(path, about, stage)
        written.append(path)
    return written
