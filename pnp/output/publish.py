"""Publishing output as a whole: every build is a complete new generation, switched in by one rename.

An output folder looks like this::

    output/manifest.json  -> .pnp/current/manifest.json
    output/bargains       -> .pnp/current/bargains
    output/.pnp/current   -> gen-XXXX           (the one link that switches)
    output/.pnp/gen-XXXX/ manifest.json, bargains/..., ...

A build writes its files into a new `gen-` folder (its staging folder), links
the unchanged files of the published generation into it (hard links: no bytes
copied), writes the manifest there, and only then replaces `.pnp/current`
with one `rename`. Killed at any instant, the folder shows either the whole
old output with its manifest or the whole new one. The top-level links never
change once made; a folder that an older pnp wrote as real folders is moved
into a generation once, the first time it is published to.
"""
from __future__ import annotations

import errno
import json
import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

from pnp.data.format.errors import problem
from pnp.output.manifest import MANIFEST, ordered, read_manifest
from pnp.output.outlock import locked

STORE = ".pnp"
CURRENT = "current"
GENERATION_PREFIX = "gen-"

Update = Callable[[dict[str, Any], Path], None]  # changes the manifest in place; the Path is the new generation


def published(out: Path) -> Path | None:
    """The generation folder the output shows now (None before the first publish of this layout)."""
    link = out / STORE / CURRENT
    try:
        target = os.readlink(link)
    except OSError:
        return None
    folder = out / STORE / target
    return folder if "/" not in target and folder.is_dir() else None


@contextmanager
def staging(out: Path) -> Iterator[Path]:
    """A new generation folder for a build, used while holding `out`'s lock; removed unless published.

    Files reach what `out` shows only through `publish`, so a failed build
    leaves the previous output as it was; folders a killed build left are
    removed by the next command that takes the lock.
    """
    with locked(out, clean=discard_unpublished):
        store = out / STORE
        try:
            store.mkdir(exist_ok=True)
            stage = _new_generation(out)
        except OSError as exc:
            raise problem(out, None, "--out", f"cannot write in the output folder: {exc.strerror or exc}; "
                                              "nothing was written") from None
        try:
            yield stage
        finally:
            if published(out) != stage:
                shutil.rmtree(stage, ignore_errors=True)
                try:
                    store.rmdir()  # a first build that failed leaves no trace
                except OSError:
                    pass


def _new_generation(out: Path) -> Path:
    """An empty generation folder in the store, readable like any folder pnp writes (not mkdtemp's 0700)."""
    folder = Path(tempfile.mkdtemp(prefix=GENERATION_PREFIX, dir=out / STORE))
    os.chmod(folder, 0o755)
    return folder


def publish(stage: Path, out: Path, update: Update | None = None,
            drop: Callable[[str], bool] = lambda rel: False) -> list[Path]:
    """Make `stage` the whole output: the files written there, with every other published file kept.

    `drop(relative path)` names earlier files the new generation leaves out
    (an export folder's old pictures); `update` changes the manifest, which is
    written last into the generation. Returns the new files as `out` shows them.
    """
    written = sorted(p.relative_to(stage).as_posix() for p in _files(stage))
    previous = published(out) or _adopt(out)
    if previous is not None:
        _carry_forward(previous, stage, set(written), drop)
    data = read_manifest(previous) if previous is not None else {}
    if update is not None:
        update(data, stage)
    write_json_atomic(stage / MANIFEST, ordered(data))
    for name in sorted(p.name for p in stage.iterdir()):
        # a new name's link shows nothing until the switch; a real folder the published generation
        # holds too is what an adoption killed halfway left (its files are in the generation already)
        _ensure_link(out, name, adopt=previous is not None and (previous / name).exists())
    _switch(out, stage)
    discard_unpublished(out)
    return [out / rel for rel in written]


def _files(folder: Path) -> list[Path]:
    """Regular files under `folder`, not following links."""
    found = []
    for base, dirs, files in os.walk(folder):
        found += [Path(base) / f for f in files if not os.path.islink(os.path.join(base, f))]
    return found


def _carry_forward(source: Path, stage: Path, written: set[str], drop: Callable[[str], bool],
                   names: list[str] | None = None) -> None:
    """Hard-link every file of `source` (or of its entries `names`) that the new output keeps into `stage`."""
    for name in names if names is not None else sorted(p.name for p in source.iterdir()):
        top = source / name
        if name == MANIFEST or name == STORE or top.is_symlink():
            continue
        for path in ([top] if top.is_file() else _files(top)):
            rel = path.relative_to(source).as_posix()
            if rel in written or drop(rel):
                continue
            dest = stage / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(path, dest)
            except OSError:  # a file system without hard links
                shutil.copy2(path, dest)


def _adopt(out: Path) -> Path | None:
    """Move an output folder an older pnp wrote (real game folders and manifest) into a first generation.

    Each real folder trades places with its link in one `renameat2` exchange, so
    the folder shows the same files throughout; where the kernel or file system
    cannot exchange, the folder is renamed away and the link put in its place.
    """
    names = _legacy_names(out)
    manifest = out / MANIFEST
    if not names and not (manifest.is_file() and not manifest.is_symlink()):
        return None
    first = _new_generation(out)
    _carry_forward(out, first, set(), lambda rel: False, names)
    if manifest.is_file() and not manifest.is_symlink():
        os.link(manifest, first / MANIFEST)
    _switch(out, first)
    for name in [*names, MANIFEST]:
        _ensure_link(out, name, adopt=True)
    return first


def _legacy_names(out: Path) -> list[str]:
    """The folders an older pnp wrote straight into `out` (those its manifest names)."""
    data = read_manifest(out) if not (out / MANIFEST).is_symlink() else {}
    names: set[str] = set()
    for entry in data.get("files", []) if isinstance(data.get("files"), list) else []:
        if isinstance(entry, dict) and isinstance(entry.get("path"), str):
            names.add(entry["path"].split("/")[0])
    for key in ("builds", "inputs"):
        if isinstance(data.get(key), dict):
            names.update(str(k) for k in data[key])
    for entry in data.get("exports", []) if isinstance(data.get("exports"), list) else []:
        if isinstance(entry, dict) and isinstance(entry.get("folder"), str):
            names.add(entry["folder"].split("/")[0])
    return sorted(n for n in names if n and n not in (".", "..", STORE) and "/" not in n
                  and (out / n).is_dir() and not (out / n).is_symlink())


def _ensure_link(out: Path, name: str, adopt: bool = False) -> None:
    """`out/name` -> .pnp/current/name. A missing link is made; with `adopt`, a real entry of the
    same name (an older pnp's folder, already copied into the published generation) gives way."""
    top = out / name
    target = f"{STORE}/{CURRENT}/{name}"
    if top.is_symlink() and os.readlink(top) == target:
        return
    if top.is_dir() and not top.is_symlink():
        if not adopt:
            raise problem(top, None, "--out", "pnp keeps a link here, but a folder of your own has this "
                                              "name; move it away") from None
        tmp = _new_link(out, f"old-{name}", target)
        if _exchange(tmp, top):
            return
        tmp.unlink()  # no exchange here: the folder is moved aside below, then the link put in its place
    elif top.exists() and not adopt:
        raise problem(top, None, "--out", "pnp keeps a link here, but a file of your own has this name; "
                                          "move it away") from None
    _replace_with_link(out, top, target)


def _exchange(a: Path, b: Path) -> bool:
    """Swap two names in one step (Linux renameat2 RENAME_EXCHANGE); False where that is not possible."""
    try:
        # lazy: ctypes only on Linux, where renameat2 exists
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    return renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0


def _replace_with_link(out: Path, path: Path, target: str) -> None:
    """Put a link at `path` in one rename, made in the store first; a real folder there (an older pnp's,
    or .pnp/current in a copy that followed the links) is moved into the store, to be removed."""
    tmp = _new_link(out, f".link-{path.name}", target)
    if path.is_dir() and not path.is_symlink():
        os.rename(path, Path(tempfile.mkdtemp(prefix="old-", dir=out / STORE)) / path.name)
    os.replace(tmp, path)


def _new_link(out: Path, name: str, target: str) -> Path:
    """A link `name` in the store pointing at `target` (one left by a killed run is replaced)."""
    link = out / STORE / name
    link.unlink(missing_ok=True)
    try:
        os.symlink(target, link)
    except OSError as exc:
        if exc.errno in (errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.ENOSYS):
            raise problem(out, None, "--out", "this folder's file system cannot hold symbolic links (a FAT or "
                                              "exFAT stick?), which pnp publishes through; build into a folder on "
                                              "your disk and copy it with `cp -rL`; nothing was written") from None
        raise
    return link


def _switch(out: Path, stage: Path) -> None:
    """The one rename that publishes: .pnp/current now names `stage`."""
    _replace_with_link(out, out / STORE / CURRENT, stage.name)


def discard_unpublished(out: Path) -> None:
    """Remove every generation but the published one (earlier ones, and what a killed command left)."""
    store = out / STORE
    if not store.is_dir():
        return
    keep = published(out)
    for entry in store.iterdir():
        if entry.name == CURRENT or (keep is not None and entry == keep):
            continue
        if entry.is_dir() and not entry.is_symlink():
            shutil.rmtree(entry, ignore_errors=True)
        else:
            entry.unlink(missing_ok=True)


def write_json_atomic(path: Path, data: Any) -> None:
    """Write JSON through a temporary file in the same folder, then rename."""
    write_bytes_atomic(path, (json.dumps(data, indent=2, sort_keys=True) + "\n").encode("utf-8"))


def write_bytes_atomic(path: Path, data: bytes) -> None:
    """Write bytes through a temporary file in the same folder, then rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)
