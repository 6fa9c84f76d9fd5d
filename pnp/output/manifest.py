"""OUT/manifest.json: what every build and export wrote, and the options that made it.

The file holds `files` (each PDF a build wrote, as `Output.as_dict` gives it),
`builds` (per game folder, the options of its last build) and `exports` (per
export folder such as `bargains/png/tgc-300`, its kind, profile, resolution,
options and files). Each update reads the file, replaces only the entries it
owns and writes the whole file through a temporary file and a rename, holding
a lock so two commands writing at once never lose each other's entries.
"""
from __future__ import annotations

import fcntl
import json
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from pnp.output.publish import write_json_atomic

MANIFEST = "manifest.json"
LOCK = ".manifest.lock"
GENERATOR = "fairy-pnp"


def read_manifest(out: Path) -> dict[str, Any]:
    """The manifest as stored, or an empty one (a missing or unreadable file counts as empty)."""
    try:
        data = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


@contextmanager
def _locked(out: Path) -> Iterator[dict[str, Any]]:
    """Read, let the caller change, and write the manifest whole, under an exclusive lock."""
    out.mkdir(parents=True, exist_ok=True)
    fd = os.open(out / LOCK, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        data = read_manifest(out)
        yield data
        ordered = {"generator": GENERATOR, "files": data.get("files", [])}
        for key in ("builds", "exports", "inputs"):
            if data.get(key):
                ordered[key] = data[key]
        write_json_atomic(out / MANIFEST, ordered)
    finally:
        os.close(fd)  # closing releases the lock


def _list(value: Any) -> list[dict[str, Any]]:
    return [e for e in value if isinstance(e, dict)] if isinstance(value, list) else []


def record_build(out: Path, files: list[dict[str, Any]], options: dict[str, dict[str, Any]],
                 inputs: dict[str, dict[str, Any]] | None = None) -> None:
    """Replace the entries of the rebuilt game folders (the keys of `options`), keep the others.

    Every game (and every stacked variant) writes into a folder of its own, so
    the folder is what identifies its entries. `inputs` (per folder: input files
    and the key of its outputs, `pnp.output.freshness`) lets the next build skip it.
    """
    with _locked(out) as data:
        old = data.get("inputs")
        old = old if isinstance(old, dict) else {}
        fresh = {k: v for k, v in old.items() if k not in options}
        data["inputs"] = dict(sorted({**fresh, **(inputs or {})}.items()))
        kept = [e for e in _list(data.get("files")) if str(e.get("path", "")).split("/")[0] not in options]
        data["files"] = sorted(kept + files, key=lambda e: e["path"])
        builds = data.get("builds")
        builds = builds if isinstance(builds, dict) else {}
        data["builds"] = dict(sorted({**builds, **options}.items()))


def record_export(out: Path, entries: list[dict[str, Any]]) -> None:
    """Add export entries (one per export folder), replacing earlier entries for the same folders."""
    folders = {e["folder"] for e in entries}
    with _locked(out) as data:
        kept = [e for e in _list(data.get("exports")) if e.get("folder") not in folders]
        data["exports"] = sorted(kept + entries, key=lambda e: e["folder"])
