"""A disk cache of validated databases: an unchanged game loads without YAML, jinja2 or checks.

An entry is keyed by what was asked (the kind of value and its arguments),
the pnp version, a fingerprint of pnp's own code and the versions of the
libraries whose output entries hold (`LIBRARIES`), and it records the
SHA-256 of every file the value was made from. A lookup recomputes those
hashes; any difference, a dependency that is missing or not a regular file, or
an entry that does not decode cleanly counts as a miss and the caller loads
afresh.

An entry's header holds its key and the size of its value: both are checked before
anything is decompressed, and decompression stops at that size, so a small planted file
that would inflate to gigabytes costs nothing (it is a miss, and removed). Values and
files over `MAX_ENTRY_BYTES` are neither read nor written. Nothing that failed to load is stored.

Safety: an entry is plain JSON data (`pnp.data.store.plain`), rebuilt only with
the format's own classes, so nothing read back can name code; it holds the
full key it was written for, so an entry swapped with another is a miss; the
folder is private to the user (0700), entries owned by anyone else are ignored
(Windows has no user ids: there the cache lies in the user's own profile folder),
and the size bound removes only files with pnp's entry name and header.
Entries are written through a temporary file and a rename.

Where: `$PNP_CACHE_DIR`, else `$XDG_CACHE_HOME/fairy-pnp`, else
`~/.cache/fairy-pnp`; `PNP_CACHE_DIR=off` turns the cache off.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import stat
import sys
import tempfile
import zlib
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

import pnp

log = logging.getLogger(__name__)

_FORMAT = 3  # bump when the entry layout changes
MAGIC = b"pnp-cache-3\n"  # the first bytes of every entry pnp writes
OLD_MAGIC = (b"pnp-cache-2\n",)  # earlier releases' entries: never read, but pruned like pnp's own
MAX_ENTRY_BYTES = 64 * 2**20  # an entry's file, and its value once decompressed: larger is a miss, dropped
_ENTRY = re.compile(r"^[a-z0-9-]+-[0-9a-f]{40}\.cache$")  # an entry's file name
MAX_DEP_BYTES = 100_000_000  # a dependency larger than this is a miss (it is no file pnp reads)
# Libraries whose output entries hold (drawn operators, font subsets, parsed tables, rendered text):
# a new release of any of them makes every entry a miss.
LIBRARIES = ("reportlab", "rl_accel", "pillow", "pypdfium2", "jinja2", "pyyaml", "svglib", "openpyxl")
KEEP = 400  # entries kept; writing one more removes the oldest (every edit of a database adds one)
# Shelves: their own entry counts (many small entries, one per drawn card or picture; rasters are whole
# exported sheets of up to a few MB each); they look at their size on one write in 64 (keys ending in 00..03),
# not listing the folder each time.
SHELF_KEEP = {"cards": 20_000, "pictures": 4_000, "thumbnails": 4_000, "rasters": 300}


def cache_dir() -> Path | None:
    """The cache folder, or None when the cache is turned off."""
    env = os.environ
    return _cache_dir(env.get("PNP_CACHE_DIR", ""), env.get("XDG_CACHE_HOME", ""), env.get("HOME", ""))


@lru_cache(maxsize=8)
def _cache_dir(value: str, xdg: str, home: str) -> Path | None:
    """cache_dir() for these environment values (a build asks hundreds of times)."""
    if value.lower() in ("off", "0", "no", "false"):
        return None
    if value:
        return Path(value)
    return Path(xdg or str(Path.home() / ".cache")) / "fairy-pnp"


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """pnp's version, the size and modification time of each of its modules and layout files, the versions of
    `LIBRARIES`, Python's and zlib's, and whether the adapters are turned off.

    A release changes the version; an edited checkout changes a module's stat; an
    upgraded library its version: a cached value never outlives the code that made it.
    """
    root = Path(pnp.__file__).parent
    h = hashlib.sha256(
        f"{pnp.__version__}|{_FORMAT}|{library_versions()}|{sys.version}|{zlib.ZLIB_RUNTIME_VERSION}"
        f"|{os.environ.get('PNP_ADAPTERS', '')}".encode()
    )
    for path in sorted([*root.rglob("*.py"), *root.glob("layouts/*.yaml")]):
        st = path.stat()
        h.update(f"{path.relative_to(root)}:{st.st_size}:{st.st_mtime_ns};".encode())
    return h.hexdigest()


def library_versions() -> str:
    """ "name version" of each of LIBRARIES as installed (first on sys.path, as imports find them).

    Read from the installed distributions' folder names: importlib.metadata would
    cost 20 ms of every command's start-up.
    """
    found: dict[str, str] = {}
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            if name.endswith(".dist-info"):
                dist, _, version = name[: -len(".dist-info")].partition("-")
                dist = dist.lower().replace("-", "_").replace(".", "_")
                if dist in LIBRARIES and dist not in found:
                    found[dist] = version
    return ";".join(f"{lib} {found.get(lib, '-')}" for lib in LIBRARIES)


def file_digest(path: Path) -> str:
    """SHA-256 of a file's bytes, read in pieces (a PDF of full-art cards is hundreds of MB)."""
    with open(path, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def _dep_digest(path: Path) -> str | None:
    """A dependency's digest when it is still a regular file of sane size (a FIFO or device: None)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_DEP_BYTES:
        return None
    return file_digest(path)


def _key(kind: str, ident: tuple) -> str:
    return hashlib.sha256(repr((kind, ident, code_fingerprint())).encode()).hexdigest()


def _entry_path(folder: Path, kind: str, key: str) -> Path:
    return folder / f"{kind}-{key[:40]}.cache"


def _inside(file: str | Path, within: Path | None) -> bool:
    """Whether a dependency lies in the folder its value may read from (after resolving links)."""
    if within is None:
        return False
    try:
        return Path(file).resolve().is_relative_to(within)
    except (OSError, RuntimeError, ValueError):  # a link loop, a NUL in a planted name
        return False


_getuid: Callable[[], int] | None = getattr(os, "getuid", None)  # None on Windows


def _mine(st: os.stat_result) -> bool:
    """Whether a cache file belongs to this user (on Windows, without user ids, every file in the
    cache folder does: it lies in the user's own profile)."""
    return _getuid is None or st.st_uid == _getuid()


def pack(key: str, body: bytes) -> bytes:
    """An entry's bytes: the header (magic, key, size of `body`) and `body` compressed."""
    return MAGIC + key.encode() + b"\n" + str(len(body)).encode() + b"\n" + zlib.compress(body, 1)


def unpack(path: Path, key: str) -> bytes | None:
    """The decompressed body of the entry file `path` when its header names `key` and a size within bounds
    that the body matches exactly; None otherwise (read no further than the header for another key, and
    inflated no further than the size declared). An entry of this key that is too large or does not
    inflate to its size is removed."""
    with open(path, "rb") as fh:
        head = fh.read(len(MAGIC) + len(key) + 1)
        if head != MAGIC + key.encode() + b"\n":
            return None  # not an entry, an older release's, or another key's (swapped or copied): a miss
        line = fh.readline(12)
        size = int(line) if line.endswith(b"\n") and line[:-1].isdigit() else -1
        if 0 <= size <= MAX_ENTRY_BYTES and os.fstat(fh.fileno()).st_size <= MAX_ENTRY_BYTES:
            inflate = zlib.decompressobj()
            body = inflate.decompress(fh.read(), size + 1)
            if len(body) == size and inflate.eof and not inflate.unconsumed_tail and not inflate.unused_data:
                return body
    log.debug("cache entry %s is larger than it says or than %d bytes: removed", path, MAX_ENTRY_BYTES)
    path.unlink(missing_ok=True)
    return None


def _read(path: Path, key: str, raw: bool = False, within: Path | None = None) -> Any:
    """The value of a valid entry for `key` whose files are unchanged and inside `within`; None otherwise."""
    try:
        st = path.stat()
        if not _mine(st) or not stat.S_ISREG(st.st_mode):
            return None
        if st.st_size > MAX_ENTRY_BYTES:
            path.unlink(missing_ok=True)
            return None
        body = unpack(path, key)
        if body is None:
            return None
        entry = json.loads(body)
        if type(entry) is not dict or entry.get("key") != key or type(entry.get("deps")) is not dict:
            return None  # another entry's file (swapped or copied): a miss
        for file, digest in entry["deps"].items():
            if not _inside(file, within) or _dep_digest(Path(file)) != digest:
                return None  # a file outside the project is never read for a cache entry
        if raw:
            return entry["value"]
        # lazy: the plain-data decoder only for an entry that is not raw JSON
        from pnp.data.store import (
            plain,  # lazy: a build with nothing to do reads no entry
        )

        return plain.decode(entry["value"])
    except FileNotFoundError:
        return None
    except Exception as exc:  # noqa: BLE001 - any damage to the cache is a miss, never an error
        log.debug("cache entry %s unusable, a miss: %s", path, exc)
        return None


def _write(
    path: Path, key: str, value: Any, deps: list[Path], raw: bool = False, within: Path | None = None
) -> None:
    from pnp.data.store import plain  # lazy, as in _read

    tmp = ""
    if not all(_inside(d, within) for d in deps):
        return  # made from a file outside the project (a database given by its path): not kept
    try:
        entry = {
            "key": key,
            "deps": {str(Path(d).resolve()): file_digest(Path(d)) for d in deps},
            "value": value if raw else plain.encode(value),
        }
        body = json.dumps(entry, separators=(",", ":"), allow_nan=False).encode()
        if len(body) > MAX_ENTRY_BYTES:
            return  # too large to be read back
        data = pack(key, body)
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
        _prune(path.parent, path)
    except Exception as exc:  # noqa: BLE001 - a cache that cannot be written only costs time
        log.debug("cache entry %s not written: %s", path, exc)
        if tmp:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _ours(path: Path) -> bool:
    """Whether a file is an entry pnp wrote (its header), so the size bound never removes a user's file."""
    try:
        with open(path, "rb") as fh:
            return fh.read(len(MAGIC)) in (MAGIC, *OLD_MAGIC)
    except OSError:
        return False


def _prune(folder: Path, written: Path) -> None:
    """Remove the least recently written entries beyond the folder's KEEP."""
    keep = SHELF_KEEP.get(folder.name, KEEP)
    if keep != KEEP and written.stem[-2:] not in ("00", "01", "02", "03"):
        return
    entries = [p for p in folder.iterdir() if _ENTRY.match(p.name)]
    if len(entries) <= keep:
        return
    entries.sort(key=lambda p: p.stat().st_mtime_ns)
    # a shelf goes down a tenth below its bound at once: a deck of more cards than it keeps would
    # otherwise list, stat and sort the whole shelf again every 64 writes
    spare = 0 if keep == KEEP else keep // 10
    for old in entries[: len(entries) - keep + spare]:
        if _ours(old):  # a file with pnp's name but not its header is someone else's: left alone
            old.unlink(missing_ok=True)


def cached(
    kind: str,
    ident: tuple,
    compute: Callable[[], tuple[Any, list[Path]]],
    shelf: str = "",
    raw: bool = False,
    within: Path | None = None,
) -> Any:
    """compute()'s value (it returns the value and the files it read), from the cache when still valid.

    Exceptions from compute() pass through and nothing is stored. `shelf`: a
    sub-folder with its own KEEP entries, for many small values (drawn symbols)
    that must not push the games out. `raw`: the value is JSON data already (lists, text-keyed
    mappings, numbers, text), stored and given back as it is; the caller checks what it reads.
    `within`: the folder (the project) every file the value is made from lies in; an entry naming
    a file anywhere else is a miss, and a value made from such a file is not stored.
    """
    folder = cache_dir()
    if folder is None:
        return compute()[0]
    folder = folder / shelf if shelf else folder
    key = _key(kind, ident)
    path = _entry_path(folder, kind, key)
    inside = Path(within).resolve() if within is not None else None
    value = _read(path, key, raw, inside)
    if value is not None:
        return value
    value, deps = compute()
    _write(path, key, value, list(deps), raw, inside)
    return value


def blob(kind: str, ident: tuple, compute: Callable[[], bytes], shelf: str = "pictures") -> bytes:
    """compute()'s bytes, kept as they are (no JSON, no compression: pictures are compressed already)
    under a key that `ident` must fully determine (e.g. the SHA-256 of a file's bytes and the options
    applied to it); no dependency is checked. Any damage to an entry is a miss."""
    found = peek(kind, ident, shelf)
    if found is not None:
        return found
    value = compute()
    put(kind, ident, value, shelf)
    return value


def _blob_path(kind: str, ident: tuple, shelf: str) -> tuple[Path, bytes] | None:
    """Where a blob entry lives and the header it starts with; None when the cache is off."""
    folder = cache_dir()
    if folder is None:
        return None
    key = _key(kind, ident)
    return _entry_path(folder / shelf, kind, key), MAGIC + key.encode() + b"\n"


def peek(kind: str, ident: tuple, shelf: str = "pictures") -> bytes | None:
    """The bytes `blob` keeps for (kind, ident), or None when there are none (or the entry is damaged)."""
    where = _blob_path(kind, ident, shelf)
    if where is None:
        return None
    path, head = where
    try:
        st = path.stat()
        if _mine(st) and stat.S_ISREG(st.st_mode) and st.st_size <= MAX_ENTRY_BYTES + len(head):
            data = path.read_bytes()
            if data.startswith(head):
                return data[len(head) :]
    except OSError:
        pass
    return None


def peek_line(kind: str, ident: tuple, shelf: str = "pictures", limit: int = 1 << 16) -> bytes | None:
    """The first line of what `blob` keeps for (kind, ident), read without the rest (None when there is
    no entry, or no line within `limit` bytes)."""
    where = _blob_path(kind, ident, shelf)
    if where is None:
        return None
    path, head = where
    try:
        with open(path, "rb") as fh:
            st = os.fstat(fh.fileno())
            if not (_mine(st) and stat.S_ISREG(st.st_mode)) or fh.read(len(head)) != head:
                return None
            line = fh.readline(limit)
    except OSError:
        return None
    return line[:-1] if line.endswith(b"\n") else None


def put(kind: str, ident: tuple, value: bytes, shelf: str = "pictures") -> None:
    """Keep `value` for (kind, ident) as `blob` does (through a temporary file and a rename)."""
    where = _blob_path(kind, ident, shelf)
    if where is None:
        return
    path, head = where
    tmp = ""
    if len(value) > MAX_ENTRY_BYTES:
        return  # too large to be read back
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
        with os.fdopen(fd, "wb") as fh:
            fh.write(head + value)
        os.replace(tmp, path)
        _prune(path.parent, path)
    except OSError as exc:
        log.debug("cache entry %s not written: %s", path, exc)
        if tmp:
            Path(tmp).unlink(missing_ok=True)
