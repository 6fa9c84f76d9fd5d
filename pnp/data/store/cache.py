"""A disk cache of validated databases: an unchanged game loads without YAML, jinja2 or checks.

An entry is keyed by what was asked (the kind of value and its arguments),
the pnp version, a fingerprint of pnp's own code and the versions of the
libraries whose output entries hold (`LIBRARIES`), and it records the
SHA-256 of every file the value was made from. A lookup recomputes those
hashes; any difference, a missing or unreadable file, or an entry that does
not unpickle cleanly counts as a miss and the caller loads afresh. Nothing
that failed to load is stored.

Safety: entries are read with an unpickler that only builds pnp's own data
classes, paths and plain containers, so a planted file cannot run code; the
folder is private to the user (0700) and entries owned by anyone else are
ignored. Entries are written through a temporary file and a rename.

Where: `$PNP_CACHE_DIR`, else `$XDG_CACHE_HOME/fairy-pnp`, else
`~/.cache/fairy-pnp`; `PNP_CACHE_DIR=off` turns the cache off.
"""
from __future__ import annotations

import hashlib
import io
import logging
import os
import pickle
import sys
import tempfile
import zlib
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable

import pnp

log = logging.getLogger(__name__)

_FORMAT = 1  # bump when the entry layout changes
# Libraries whose output entries hold (drawn operators, font subsets, parsed tables, rendered text):
# a new release of any of them makes every entry a miss.
LIBRARIES = ("reportlab", "rl_accel", "pillow", "pypdfium2", "jinja2", "pyyaml", "svglib", "openpyxl")
KEEP = 400  # entries kept; writing one more removes the oldest (every edit of a database adds one)
SHELF_KEEP = {"cards": 20_000}  # shelves of many small entries (one per drawn card) keep more, and
# look at their size on one write in 64 (those whose key ends in 00..03), not listing the folder each time
_ALLOWED_MODULES = ("pnp.data.",)
_ALLOWED_GLOBALS = {("pathlib", "PosixPath"), ("pathlib", "PurePosixPath"), ("pathlib", "WindowsPath"),
                    ("pathlib", "PureWindowsPath"), ("builtins", "set"), ("builtins", "frozenset"),
                    ("builtins", "tuple"), ("builtins", "list"), ("builtins", "dict")}


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
    h = hashlib.sha256(f"{pnp.__version__}|{_FORMAT}|{library_versions()}|{sys.version}|{zlib.ZLIB_RUNTIME_VERSION}"
                       f"|{os.environ.get('PNP_ADAPTERS', '')}".encode())
    for path in sorted([*root.rglob("*.py"), *root.glob("layouts/*.yaml")]):
        st = path.stat()
        h.update(f"{path.relative_to(root)}:{st.st_size}:{st.st_mtime_ns};".encode())
    return h.hexdigest()


def library_versions() -> str:
    """"name version" of each of LIBRARIES as installed (first on sys.path, as imports find them).

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
                dist, _, version = name[:-len(".dist-info")].partition("-")
                dist = dist.lower().replace("-", "_").replace(".", "_")
                if dist in LIBRARIES and dist not in found:
                    found[dist] = version
    return ";".join(f"{lib} {found.get(lib, '-')}" for lib in LIBRARIES)


def file_digest(path: Path) -> str:
    """SHA-256 of a file's bytes."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


class _SafeUnpickler(pickle.Unpickler):
    """Builds only pnp's data classes, paths and plain containers; anything else is refused."""

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in _ALLOWED_GLOBALS:
            return super().find_class(module, name)
        if module.startswith(_ALLOWED_MODULES):
            found = super().find_class(module, name)
            if isinstance(found, type):
                return found
        raise pickle.UnpicklingError(f"not allowed in the cache: {module}.{name}")


def _entry_path(folder: Path, kind: str, ident: tuple) -> Path:
    key = hashlib.sha256(repr((kind, ident, code_fingerprint())).encode()).hexdigest()
    return folder / f"{kind}-{key[:40]}.pickle"


def _read(path: Path) -> Any:
    """The value of a valid entry whose files are unchanged; None otherwise."""
    try:
        st = path.stat()
        if st.st_uid != os.getuid():
            return None
        entry = _SafeUnpickler(io.BytesIO(path.read_bytes())).load()
        if not isinstance(entry, dict) or entry.get("format") != _FORMAT:
            return None
        for file, digest in entry["deps"].items():
            if file_digest(Path(file)) != digest:
                return None
        return entry["value"]
    except FileNotFoundError:
        return None
    except Exception as exc:  # noqa: BLE001 - any damage to the cache is a miss, never an error
        log.debug("cache entry %s unusable, a miss: %s", path, exc)
        return None


def _write(path: Path, value: Any, deps: Iterable[Path]) -> None:
    try:
        entry = {"format": _FORMAT, "deps": {str(Path(d).resolve()): file_digest(Path(d)) for d in deps},
                 "value": value}
        data = pickle.dumps(entry, protocol=pickle.HIGHEST_PROTOCOL)
        _SafeUnpickler(io.BytesIO(data)).load()  # never store what could not be read back
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
        _prune(path.parent, path)
    except Exception as exc:  # noqa: BLE001 - a cache that cannot be written only costs time
        log.debug("cache entry %s not written: %s", path, exc)
        try:
            os.unlink(tmp)
        except Exception:  # noqa: BLE001
            pass


def _prune(folder: Path, written: Path) -> None:
    """Remove the least recently written entries beyond the folder's KEEP."""
    keep = SHELF_KEEP.get(folder.name, KEEP)
    if keep != KEEP and written.stem[-2:] not in ("00", "01", "02", "03"):
        return
    entries = list(folder.glob("*.pickle"))
    if len(entries) <= keep:
        return
    entries.sort(key=lambda p: p.stat().st_mtime_ns)
    for old in entries[:len(entries) - keep]:
        old.unlink(missing_ok=True)


def cached(kind: str, ident: tuple, compute: Callable[[], tuple[Any, list[Path]]], shelf: str = "") -> Any:
    """compute()'s value (it returns the value and the files it read), from the cache when still valid.

    Exceptions from compute() pass through and nothing is stored. `shelf`: a
    sub-folder with its own KEEP entries, for many small values (drawn symbols)
    that must not push the games out.
    """
    folder = cache_dir()
    if folder is None:
        return compute()[0]
    folder = folder / shelf if shelf else folder
    path = _entry_path(folder, kind, ident)
    value = _read(path)
    if value is not None:
        return value
    value, deps = compute()
    _write(path, value, deps)
    return value
