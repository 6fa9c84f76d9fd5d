"""Files pnp writes and the project folders it reads, whatever links a stranger's copy holds.

Writing (`write_bytes`, `write_text`, `write_json`): every folder between the
root and the file must be a real folder (`real_folder`: a link there is refused
with a message, never followed); the bytes go to a temporary file created
exclusively under a random name beside the target (O_CREAT|O_EXCL, and
O_NOFOLLOW where the system has it), then `os.replace` puts it in place,
replacing a link found at the name rather than its target. A reader sees the
old file or the new one. `write_bytes_atomic` is the same step for a folder that
may hold links staying inside the root (`confined`).

Reading: `confined(path, root)` is `path` with its links followed, refused
(`OutsideRoot`) when that leaves `root`; `project_folder` is a project's own
folder (templates/, fonts/) only where it stays inside the project.

What this does not cover: a folder swapped for a link between the check and the
write (closing that needs `dir_fd`, which Windows lacks).
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pnp.data.format.errors import problem

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


def is_link(path: Path) -> bool:
    """Whether `path` is a symbolic link or (on Windows) a junction."""
    return path.is_symlink() or bool(getattr(path, "is_junction", lambda: False)())


def real_folder(folder: Path, root: Path, *, create: bool = True) -> Path:
    """`folder`, a real folder inside `root`: each missing step created, a linked step refused.

    `root` itself may be a link (the user named it); below it nothing is followed.
    """
    folder, root = Path(os.path.abspath(folder)), Path(os.path.abspath(root))
    if not folder.is_relative_to(root):
        raise problem(folder, None, "", f"pnp writes only inside {root}; this folder is outside it")
    if create:
        root.mkdir(parents=True, exist_ok=True)
    here = root
    for part in folder.relative_to(root).parts:
        here = here / part
        if is_link(here):
            raise problem(
                here,
                None,
                "",
                "this is a link to another place; pnp writes only into real folders here "
                "(remove the link, or replace it with a folder)",
            )
        if here.exists() and not here.is_dir():
            raise problem(here, None, "", "pnp needs a folder here, but a file has this name; move it away")
        if create and not here.exists():
            here.mkdir(exist_ok=True)
    return folder


def write_bytes(path: Path, data: bytes, root: Path) -> Path:
    """Write `data` to `path` whole, every folder on the way from `root` a real folder (see above)."""
    real_folder(path.parent, root)
    return write_bytes_atomic(path, data, root=root)


def write_text(path: Path, text: str, root: Path) -> Path:
    """Write `text` as UTF-8 (see `write_bytes`)."""
    return write_bytes(path, text.encode("utf-8"), root)


def write_json(path: Path, data: Any, root: Path) -> Path:
    """Write `data` as indented, key-sorted JSON (see `write_bytes`)."""
    return write_bytes(path, (json.dumps(data, indent=2, sort_keys=True) + "\n").encode("utf-8"), root)


def project_folder(folder: Path) -> Path | None:
    """`folder` (templates/, fonts/...) with links resolved, or None when that leads out of the
    folder holding it (the project): a project's folders are read only where they stay inside it."""
    try:
        home, project = folder.resolve(), folder.parent.resolve()
    except (OSError, RuntimeError):  # a link loop
        return None
    return home if home.is_relative_to(project) else None


OUTSIDE = "is a link to a folder outside the project; pnp reads only the project's own files (copy them here)"
