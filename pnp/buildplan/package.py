"""The builds a print-and-play package is made of: one per paper and sheet, into a private folder."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path

from pnp.buildplan.plan import plan_build
from pnp.buildplan.run import build
from pnp.data.format.model import Game
from pnp.data.format.sheetspec import SheetSpec
from pnp.geometry.sizes import paper_size
from pnp.output.package import INKS, PAPERS, SHEETS, is_card_sheet
from pnp.output.steps import BuildOptions
from pnp.resolve.fonts import Fonts


def build_variants(
    game: Game,
    options: BuildOptions,
    fonts: Fonts,
    sheets: Mapping[str, SheetSpec],
    folder: Path,
    jobs: int,
    progress: Callable[[int], None],
) -> dict[str, Path]:
    """Build the game once per paper, sheet and ink into `folder`; zip path -> file (the low-ink builds
    give only their card sheets)."""
    files: dict[str, Path] = {}
    for paper in PAPERS:
        for sheet in SHEETS:
            for ink in INKS:
                sheet_options = replace(options.sheets, paper=paper_size(paper), sheet=sheets[sheet])
                variant = replace(options, sheets=sheet_options, tuckbox=ink == "full", ink=ink)
                out = folder / f"{paper}-{sheet}-{ink}"
                build(plan_build([game], variant), [game], out, fonts, progress, jobs, variant)
                folder_name = sheet if ink == "full" else f"{sheet}-low-ink"
                for path in sorted((out / game.slug).resolve().iterdir()):
                    if path.suffix != ".pdf":
                        continue
                    if is_card_sheet(game, path.name):
                        files[f"{paper}/{folder_name}/{path.name}"] = path
                    elif sheet == SHEETS[0] and ink == "full":
                        files[f"{paper}/{path.name}"] = path
    return files
