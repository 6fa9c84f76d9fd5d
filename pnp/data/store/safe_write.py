"""Files written and read inside one folder only, whatever links a hostile copy of it holds.

`confined(path, root)` is `path` with its links followed, refused when that leaves
`root`. `write_bytes_atomic(path, data, root=root)` replaces `path` in one rename:
the folder must resolve inside `root`; the new content goes to a temporary file
beside it that is created exclusively under a random name (O_CREAT|O_EXCL, and
O_NOFOLLOW where the system has it), so a link planted at any name is never
written through; `os.replace` then puts the file at `path`, replacing a link
found there rather than its target. Readers see the old file or the new one,
never part of one.

What this does not cover: a folder swapped for a link between the check and the
write (closing that needs `dir_fd`, which Windows lacks); a project whose own
folders are meant to be links elsewhere is refused, as it would be on reading.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from pathlib import Path

_EXCLUSIVE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0) | getattr(os, "O_NOINHERIT", 0)
_TRIES = 8  # temporary names tried before giving up (each a fresh random name)


class OutsideRoot(ValueError):
    """A path that, its links followed, leaves the folder it must stay in."""

    def __init__(self, path: Path, root: Path, resolved: Path | None):
        self.path, self.root, self.resolved = path, root, resolved
        where = f"it leads to {resolved}" if resolved is not None else "it cannot be resolved (a link loop)"
        super().__init__(f"{path} must stay inside {root}, but {where}")


def confined(path: Path, root: Path) -> Path:
    """`path` with every link followed, or `OutsideRoot` when that is not inside `root` (itself resolved).

    A path that does not exist yet is resolved as far as it goes, so a dangling link that
    points outside is refused too."""
    home = Path(root).resolve()
    try:
        resolved = Path(path).resolve()
    except (OSError, RuntimeError):  # a link loop
        raise OutsideRoot(Path(path), home, None) from None
    if not resolved.is_relative_to(home):
        raise OutsideRoot(Path(path), home, resolved)
    return resolved


def _temp_name(path: Path) -> Path:
    return path.with_name(f".{path.name}.{secrets.token_hex(8)}.tmp")


def _create_exclusive(path: Path, nofollow: int, name: Callable[[Path], Path]) -> tuple[int, Path]:
    """A new file beside `path` under a fresh random name, open for writing: never an existing file or link."""
    for _ in range(_TRIES):
        tmp = name(path)
        if not nofollow and os.path.lexists(tmp):  # no O_NOFOLLOW (Windows): look before creating
            continue
        try:
            return os.open(tmp, _EXCLUSIVE | nofollow, 0o666), tmp  # the umask decides the permissions
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temporary name beside {path} after {_TRIES} tries")


def write_bytes_atomic(
    path: Path,
    data: bytes,
    *,
    root: Path,
    nofollow: int | None = None,
    name: Callable[[Path], Path] = _temp_name,
) -> Path:
    """Replace `path` with `data` in one rename, through a temporary file beside it; the path written.

    `path`'s folder must already exist and resolve inside `root` (`OutsideRoot` otherwise); a
    link at `path` is replaced, not followed. `nofollow` and `name` are for tests: the O_NOFOLLOW
    flag to use (the system's when None; 0 behaves as on Windows) and the temporary name maker.
    OSError when the file system refuses; the temporary file is then removed."""
    path = Path(path)
    folder = confined(path.parent, root)
    target = folder / path.name
    flag = getattr(os, "O_NOFOLLOW", 0) if nofollow is None else nofollow
    fd, tmp = _create_exclusive(target, flag, name)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return target


def read_bytes_confined(path: Path, root: Path) -> bytes:
    """The bytes of `path`, refused (`OutsideRoot`) when its links lead outside `root`."""
    return confined(path, root).read_bytes()
