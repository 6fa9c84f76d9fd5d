"""Publishing output as plain files: each file moved into place whole, the manifest last.

An output folder holds real files and folders, on any file system (FAT and
exFAT sticks, network shares, a synced home folder)::

    output/manifest.json            written last; names exactly what the folder holds
    output/bargains/deck.pdf, ...
    output/.pnp/                    only while a command writes: its staging folder and journal

A command writes its files into a staging folder inside `.pnp` (the same file
system, so each move is one `os.replace`). Publishing then writes a journal
naming the moves, moves each file over its old version, removes what the new
output leaves out, and moves the manifest in last. A reader sees every file
whole, old or new; killed halfway, the next command that takes the folder's
lock finds the journal and finishes the moves (or, with no journal, throws the
staging folder away), so the folder is repaired before anything else is
written. An output folder an older pnp published through symbolic links
(`.pnp/current`) is turned into plain files once, the same way.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from pnp.data.format.errors import problem
from pnp.data.store import files
from pnp.output.manifest import MANIFEST, ordered, read_manifest
from pnp.output.outlock import LOCK_FILE, locked, unwritable

STORE = ".pnp"
STAGE_PREFIX = "stage-"
JOURNAL = "journal.json"
_LINKED = "current"  # the link an older pnp published through

Update = Callable[
    [dict[str, Any], Path], None
]  # changes the manifest in place; the Path is the staging folder


@contextmanager
def staging(out: Path) -> Iterator[Path]:
    """A new staging folder for a command, used while holding `out`'s lock; removed afterwards.

    Files reach `out` only through `publish`, so a failed command leaves the
    previous output as it was.
    """
    with locked(out, clean=repair):
        store = out / STORE
        try:
            files.real_folder(store, out)
            stage = Path(tempfile.mkdtemp(prefix=STAGE_PREFIX, dir=store))
        except OSError as exc:
            raise unwritable(out, exc) from None
        try:
            yield stage
        finally:
            journal = _read_journal(store / JOURNAL)
            if journal is None or journal["stage"] != stage.name:  # else left for the next command to finish
                shutil.rmtree(stage, ignore_errors=True)
                _remove_empty(store)


def publish(
    stage: Path, out: Path, update: Update | None = None, drop: Callable[[str], bool] | None = None
) -> list[Path]:
    """Move the files written in `stage` into `out`, keeping every other file there.

    `drop(relative path)` names earlier files the new output leaves out (an
    export folder's old pictures); `update` changes the manifest, which is moved
    in last. Returns the new files as `out` shows them.
    """
    written = sorted(p.relative_to(stage).as_posix() for p in _files(stage))
    _refuse_clashes(out, written)
    keep = set(written)
    removed = sorted(rel for rel in _shown(out) if rel not in keep and drop(rel)) if drop else []
    data = read_manifest(out)
    if update is not None:
        update(data, stage)
    files.write_json(stage / MANIFEST, ordered(data), stage)
    files.write_json(out / STORE / JOURNAL, {"stage": stage.name, "files": written, "remove": removed}, out)
    _finish(out, stage, written, removed)
    return [out / rel for rel in written]


def _finish(out: Path, stage: Path, written: list[str], removed: list[str]) -> None:
    """The moves a journal names, in order, each safe to repeat: files, removals, the manifest, the journal."""
    for rel in written:
        source = stage / rel
        if source.is_file():
            files.real_folder((out / rel).parent, out)  # a link planted in place of a folder is refused
            try:
                os.replace(source, out / rel)
            except PermissionError:  # Windows keeps a file open in a viewer from being replaced
                raise problem(
                    out / rel,
                    None,
                    "--out",
                    "cannot replace this file: close it where it is open (a PDF viewer?) and run pnp "
                    "again, which finishes publishing",
                ) from None
    for rel in removed:
        (out / rel).unlink(missing_ok=True)
        _remove_empty_parents(out, (out / rel).parent)
    if (stage / MANIFEST).is_file():
        os.replace(stage / MANIFEST, out / MANIFEST)
    (out / STORE / JOURNAL).unlink(missing_ok=True)


def tidy(out: Path) -> None:
    """Repair what a killed command left in `out` (see `repair`), when it left anything."""
    if (out / STORE).is_dir():
        with locked(out, clean=repair):
            pass


def repair(out: Path) -> None:
    """Under the folder's lock, before anything is written: finish a publish a killed command left
    (its journal), throw away staging folders never published, and turn an older pnp's linked
    layout into plain files."""
    store = out / STORE
    if not store.is_dir() or store.is_symlink():
        return
    _unlink_layout(out)
    journal = _read_journal(store / JOURNAL)
    if journal is not None:
        stage = store / journal["stage"]
        _finish(out, stage, journal["files"], journal["remove"])
    (store / JOURNAL).unlink(missing_ok=True)
    for entry in store.iterdir():
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)
    _remove_empty(store)


def _read_journal(path: Path) -> dict[str, Any] | None:
    """The journal's moves, or None where there is none (or it is not one pnp wrote whole)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not (
        isinstance(data, dict)
        and isinstance(data.get("stage"), str)
        and data["stage"].startswith(STAGE_PREFIX)
        and "/" not in data["stage"]
        and "\\" not in data["stage"]
        and all(
            isinstance(data.get(k), list) and all(_relative(v) for v in data[k]) for k in ("files", "remove")
        )
    ):
        return None
    return data


def _relative(rel: Any) -> bool:
    """A path a journal may name: relative, inside the folder, not in pnp's store."""
    if not isinstance(rel, str) or not rel or "\\" in rel:
        return False
    parts = rel.split("/")
    return ".." not in parts and "" not in parts and parts[0] != STORE and not Path(rel).is_absolute()


def _unlink_layout(out: Path) -> None:
    """Turn a folder an older pnp published through links (`name -> .pnp/current/name`) into plain
    files: each folder of the linked generation moved to where its link was, the manifest last.
    Safe to repeat after a kill: what was moved is not moved again."""
    link = out / STORE / _LINKED
    if not link.is_symlink():
        return
    target = os.readlink(link)
    generation = out / STORE / target
    if "/" in target or "\\" in target or not generation.is_dir():
        link.unlink()
        return
    for entry in sorted(generation.iterdir()):
        if entry.name == MANIFEST:
            continue
        top = out / entry.name
        if top.is_symlink() and _exchange(entry, top):  # the folder takes the link's place in one step
            entry.unlink()
            continue
        if top.is_symlink():
            top.unlink()
        if not top.exists():
            os.rename(entry, top)
    for top in out.iterdir():  # links to what the generation no longer had
        if top.is_symlink() and os.readlink(top).startswith(f"{STORE}/{_LINKED}/"):
            top.unlink()
    if (generation / MANIFEST).is_file():
        os.replace(generation / MANIFEST, out / MANIFEST)
    link.unlink()


def _exchange(a: Path, b: Path) -> bool:
    """Swap two names in one step (Linux's renameat2 RENAME_EXCHANGE); False where that is not possible."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes  # lazy: only for a folder an older pnp published through links, on Linux

        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    return bool(renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0)


def _refuse_clashes(out: Path, written: list[str]) -> None:
    """A file to publish where a folder stands (or below a file) is refused before anything moves."""
    for folder in sorted({(out / rel).parent for rel in written}):
        files.real_folder(folder, out, create=False)  # a link planted in place of a folder
    for rel in written:
        target = out / rel
        if target.is_dir() and not target.is_symlink():
            raise problem(
                target, None, "--out", "pnp writes a file here, but a folder has this name; move it away"
            ) from None
        for parent in target.relative_to(out).parents:
            here = out / parent
            if parent != Path(".") and here.exists() and not here.is_dir():
                raise problem(
                    here, None, "--out", "pnp writes a folder here, but a file has this name; move it away"
                ) from None


def _files(folder: Path, skip: str = "") -> list[Path]:
    """Regular files under `folder` (not following links), leaving out its top-level folder `skip`."""
    found = []
    for base, dirs, names in os.walk(folder):
        if skip and Path(base) == folder:
            dirs[:] = [d for d in dirs if d != skip]
        found += [Path(base) / f for f in names if not os.path.islink(os.path.join(base, f))]
    return found


def _shown(out: Path) -> list[str]:
    """Every file `out` holds, as relative paths, leaving out pnp's store, lock and manifest."""
    found = [p.relative_to(out).as_posix() for p in _files(out, skip=STORE)]
    return [rel for rel in found if rel not in (MANIFEST, LOCK_FILE)]


def _remove_empty_parents(out: Path, folder: Path) -> None:
    while folder != out and folder.is_relative_to(out):
        if not _remove_empty(folder):
            return
        folder = folder.parent


def _remove_empty(folder: Path) -> bool:
    """Remove `folder` if it is empty; whether it was."""
    try:
        folder.rmdir()
    except OSError:
        return False
    return True
