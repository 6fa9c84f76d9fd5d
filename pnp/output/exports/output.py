"""Export folders: output/<game>/<kind>/, written through a staging folder and swapped in whole."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from pnp.data.format.model import Game
from pnp.output.manifest import record_export
from pnp.output.publish import publish, staging

EXTENSIONS = (".png", ".json", ".pdf", ".xml", ".pcio", ".txt")


def export_folder(profile: str, dpi: float | None) -> str:
    """The sub-folder of one export: profile and resolution (`tgc-300`), or the profile alone for vector files."""
    return f"{profile}-{dpi:g}" if dpi else profile


def write_export(
    out: Path,
    games: list[Game],
    kind: str,
    fill: Callable[[Path], None],
    sub: str = "",
    after: Callable[[dict[str, Any], list[Path]], None] | None = None,
) -> list[Path]:
    """Let `fill` write into a staging folder (as <game>/<kind>/<sub>/...), then publish into `out`.

    Files an earlier export left in those folders are left out of the new
    output, so a folder always shows one export, not a mix of two; other
    profiles' and resolutions' folders beside it are kept. `after(manifest,
    files)` records the export in the manifest published with it.
    """
    folders = tuple(f"{game.slug}/{kind}/{sub}/" if sub else f"{game.slug}/{kind}/" for game in games)

    def earlier(rel: str) -> bool:
        return rel.startswith(folders) and Path(rel).suffix in EXTENSIONS

    with staging(out) as stage:
        fill(stage)
        written = sorted(out / p.relative_to(stage) for p in stage.rglob("*") if p.is_file())
        return publish(stage, out, (lambda data, made: after(data, written)) if after else None, earlier)


def folder(stage: Path, game: Game, kind: str, sub: str = "") -> Path:
    path = stage / game.slug / kind / sub if sub else stage / game.slug / kind
    path.mkdir(parents=True, exist_ok=True)
    return path


def record(
    data: dict[str, Any],
    out: Path,
    games: list[Game],
    kind: str,
    sub: str,
    moved: list[Path],
    details: dict[str, Any],
) -> None:
    """Record one export in OUT/manifest.json: one entry per game folder, with its options and files."""
    entries = []
    for game in games:
        where = f"{game.slug}/{kind}/{sub}" if sub else f"{game.slug}/{kind}"
        files = sorted(rel for p in moved if (rel := p.relative_to(out).as_posix()).startswith(where + "/"))
        entries.append({"folder": where, "game": game.game.tag, "kind": kind, **details, "files": files})
    record_export(data, entries)
