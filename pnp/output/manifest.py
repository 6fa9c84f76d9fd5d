"""OUT/manifest.json: what every build and export wrote, and the options that made it.

The file holds `files` (each PDF a build wrote, as `Output.as_dict` gives it),
`builds` (per game folder, the options of its last build), `exports` (per
export folder such as `bargains/png/tgc-300`, its kind, profile, resolution,
options and files), `prints` (per game folder, every card of its last build
with digests of what it draws: `pnp.output.prints`) and `reprints`. Each command changes only the entries it owns; the
manifest is written into the new generation before it is published, so the
manifest and the files it lists always switch together (`pnp.output.publish`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pnp.output.freshness import owner

MANIFEST = "manifest.json"
GENERATOR = "fairy-pnp"


def read_manifest(out: Path) -> dict[str, Any]:
    """The manifest in `out` (an output folder or a generation), or an empty one (a missing or
    unreadable file counts as empty)."""
    try:
        data = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def ordered(data: dict[str, Any]) -> dict[str, Any]:
    """The manifest as written: generator and files first, empty sections left out."""
    out = {"generator": GENERATOR, "files": data.get("files", [])}
    for key in ("builds", "exports", "inputs", "prints", "reprints"):
        if data.get(key):
            out[key] = data[key]
    return out


def _list(value: Any) -> list[dict[str, Any]]:
    return [e for e in value if isinstance(e, dict)] if isinstance(value, list) else []


def record_build(
    data: dict[str, Any],
    files: list[dict[str, Any]],
    options: dict[str, dict[str, Any]],
    inputs: dict[str, dict[str, Any]] | None = None,
) -> None:
    """Replace the entries of the rebuilt game folders (the keys of `options`), keep the others.

    Every game (and every stacked variant) writes into a folder of its own, so
    the folder is what identifies its entries. `inputs` (per folder: input files
    and the key of its outputs, `pnp.output.freshness`) lets the next build skip it.
    """
    old = data.get("inputs")
    old = old if isinstance(old, dict) else {}
    fresh = {k: v for k, v in old.items() if k not in options}
    data["inputs"] = dict(sorted({**fresh, **(inputs or {})}.items()))
    builds = data.get("builds")
    builds = builds if isinstance(builds, dict) else {}
    folders = {*builds, *old, *options}  # a language's folder (feenbalz/de) lies inside its game's
    kept = [e for e in _list(data.get("files")) if _folder(str(e.get("path", "")), folders) not in options]
    data["files"] = sorted(kept + files, key=lambda e: e["path"])
    data["builds"] = dict(sorted({**builds, **options}.items()))


def _folder(path: str, folders: set[str]) -> str:
    return owner(path, folders) or path.split("/")[0]


def record_export(data: dict[str, Any], entries: list[dict[str, Any]]) -> None:
    """Add export entries (one per export folder), replacing earlier entries for the same folders."""
    folders = {e["folder"] for e in entries}
    kept = [e for e in _list(data.get("exports")) if e.get("folder") not in folders]
    data["exports"] = sorted(kept + entries, key=lambda e: e["folder"])
