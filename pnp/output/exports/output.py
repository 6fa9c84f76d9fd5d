"""Export folders: output/<game>/<kind>/, written through a staging folder and swapped in whole."""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from pnp.data.model import Game
from pnp.output.publish import publish, staging

EXTENSIONS = (".png", ".json", ".pdf")


def write_export(out: Path, games: list[Game], kind: str, fill: Callable[[Path], None]) -> list[Path]:
    """Let `fill` write into a staging folder (as <game>/<kind>/...), then publish into `out`.

    Files an earlier export left in those folders that this one did not write
    are removed, so a folder always shows one export, not a mix of two.
    """
    with staging(out) as stage:
        fill(stage)
        moved = publish(stage, out)
        keep = {p.resolve() for p in moved}
        for game in games:  # still under the output folder's lock
            folder = out / game.slug / kind
            if folder.is_dir():
                for old in folder.rglob("*"):
                    if old.is_file() and old.suffix in EXTENSIONS and old.resolve() not in keep:
                        old.unlink()
    return moved


def folder(stage: Path, game: Game, kind: str) -> Path:
    path = stage / game.slug / kind
    path.mkdir(parents=True, exist_ok=True)
    return path
