"""Which games need building: outputs keyed by the hash of their inputs and options.

A game's inputs are its database file (and a stacked deck's base database),
every file under the project's templates/, fonts/ and art/, the build options and
pnp's own code (`pnp.data.store.cache.code_fingerprint`, which holds the versions of
the libraries and of zlib, since they shape the bytes). After a build the manifest
records, per game folder, the input files with their SHA-256 and the key
made from them (`inputs`), and each file entry carries that key and the
SHA-256 and size of the PDF written. A game is fresh, and `pnp build` skips
it without loading anything, when its key is unchanged and every recorded
output is still there with the same bytes.

Deliberately small and standalone (no ReportLab, YAML or jinja2), so the
check costs only reading and hashing files.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from pnp.data.store.cache import code_fingerprint, file_digest

SHARED_FOLDERS = ("templates", "fonts", "art", "messages")  # every game may read these (art: pictures, own
# symbols; messages: the project's own words for pnp's phrases)


def owner(path: str, folders: Any) -> str | None:
    """The game folder an output path belongs to: the longest of `folders` it lies in (feenbalz/de/x.pdf
    is feenbalz/de's, not feenbalz's)."""
    found = [f for f in folders if isinstance(f, str) and path.startswith(f"{f}/")]
    return max(found, key=len) if found else None


def _rel(root: Path, path: Path) -> str:
    path = path.resolve()
    return path.relative_to(root).as_posix() if path.is_relative_to(root) else str(path)


def input_files(root: Path, databases: list[Path], digests: dict[Path, str] | None = None) -> dict[str, str]:
    """relative path -> SHA-256 for the databases and every file in the shared folders.

    `digests` memoises hashes across games of one build (the shared folders are the same).
    """
    root = root.resolve()
    memo = {} if digests is None else digests
    files = [Path(p).resolve() for p in databases]
    for folder in SHARED_FOLDERS:
        base = root / folder
        if base.is_dir():
            files += sorted(
                p.resolve() for p in base.rglob("*") if p.is_file() and not p.name.startswith(".")
            )
    out = {}
    for path in files:
        if path not in memo:
            memo[path] = file_digest(path)
        out[_rel(root, path)] = memo[path]
    return dict(sorted(out.items()))


def build_key(inputs: dict[str, str], options: dict[str, Any]) -> str:
    """The key of a game's outputs: its inputs, the build options and the code that draws them."""
    text = json.dumps(
        {"inputs": inputs, "options": options, "engine": code_fingerprint()}, sort_keys=True, default=str
    )
    return hashlib.sha256(text.encode()).hexdigest()


def read_manifest(out: Path) -> dict[str, Any]:
    try:
        data = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def is_fresh(
    out: Path,
    root: Path,
    folder: str,
    database: Path,
    options: dict[str, Any],
    manifest: dict[str, Any],
    digests: dict[Path, str] | None = None,
) -> bool:
    """Whether the last build of `folder` used the same inputs and options and its PDFs are intact."""
    record = manifest.get("inputs", {}).get(folder) if isinstance(manifest.get("inputs"), dict) else None
    if not isinstance(record, dict) or not isinstance(record.get("files"), dict):
        return False
    root = root.resolve()
    databases = [database] + [
        root / rel for rel in record["files"] if not rel.startswith(tuple(f"{f}/" for f in SHARED_FOLDERS))
    ]
    try:
        key = build_key(
            input_files(root, list(dict.fromkeys(p.resolve() for p in databases)), digests), options
        )
    except OSError:
        return False
    if key != record.get("key"):
        return False
    entries = [
        e
        for e in manifest.get("files", [])
        if isinstance(e, dict) and owner(str(e.get("path", "")), manifest["inputs"]) == folder
    ]
    if not entries:
        return False
    for entry in entries:
        path = out / str(entry.get("path"))
        try:
            if (
                entry.get("key") != key
                or path.stat().st_size != entry.get("bytes")
                or file_digest(path) != entry.get("sha256")
            ):
                return False
        except OSError:
            return False
    return True


def record(
    made: Path,
    databases: dict[str, tuple[Path, list[Path]]],
    options: dict[str, Any],
    files: list[dict[str, Any]],
) -> tuple[dict[str, dict[str, Any]], list[dict[str, Any]]]:
    """The `inputs` records of the built game folders (folder -> project root and database files)
    and their file entries stamped with key, size and SHA-256 (of the files as written in `made`)."""
    digests: dict[Path, str] = {}
    records = {}
    for folder, (root, dbs) in databases.items():
        inputs = input_files(root, dbs, digests)
        records[folder] = {"files": inputs, "key": build_key(inputs, options)}
    stamped = []
    for entry in files:
        built = owner(str(entry["path"]), records)
        if built is not None:
            path = made / entry["path"]
            entry = {
                **entry,
                "key": records[built]["key"],
                "bytes": path.stat().st_size,
                "sha256": file_digest(path),
            }
        stamped.append(entry)
    return records, stamped
