"""Writing a file inside a folder pnp owns, so that nothing planted in that folder sends it elsewhere.

A stranger's project may hold links where pnp writes: at the file's own name,
at the name of a temporary file, or in place of a folder on the way. Here:

- every folder between the root and the file is a real folder inside the
  root (a link there is refused with a message, never followed);
- the bytes go to a new temporary file created exclusively, with a random
  name, beside the target (`tempfile.mkstemp`: `O_CREAT | O_EXCL`, so a link
  cannot be opened through), then `os.replace` puts it in place, which
  replaces a link standing at the name instead of writing through it.

The same holds on Windows, where a junction counts as a link.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from pnp.data.format.errors import problem


def is_link(path: Path) -> bool:
    """Whether `path` is a symbolic link or (on Windows) a junction."""
    return path.is_symlink() or bool(getattr(path, "is_junction", lambda: False)())


def inside(path: Path, root: Path) -> bool:
    """Whether `path`, links followed, is `root` or inside it (a link loop is not inside)."""
    try:
        return path.resolve().is_relative_to(root.resolve())
    except (OSError, RuntimeError):
        return False


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
    """Write `data` to `path` (inside `root`) whole: a reader sees the old file or the new one."""
    folder = real_folder(path.parent, root)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def write_text(path: Path, text: str, root: Path) -> Path:
    """Write `text` as UTF-8 (see `write_bytes`)."""
    return write_bytes(path, text.encode("utf-8"), root)


def write_json(path: Path, data: Any, root: Path) -> Path:
    """Write `data` as indented, key-sorted JSON (see `write_bytes`)."""
    return write_bytes(path, (json.dumps(data, indent=2, sort_keys=True) + "\n").encode("utf-8"), root)


def read_bytes(path: Path, root: Path, limit: int) -> bytes:
    """The bytes of a file that is inside `root` once links are resolved, at most `limit` of them."""
    if not inside(path, root):
        raise problem(path, None, "", "this is a link to a file outside the project; pnp reads only its own")
    with open(path, "rb") as fh:
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise problem(path, None, "", f"larger than {limit:,} bytes; pnp does not read it")
    return data


def project_folder(folder: Path) -> Path | None:
    """`folder` (templates/, fonts/...) with links resolved, or None when that leads out of the
    folder holding it (the project): a project's folders are read only where they stay inside it."""
    try:
        home, project = folder.resolve(), folder.parent.resolve()
    except (OSError, RuntimeError):  # a link loop
        return None
    return home if home.is_relative_to(project) else None


OUTSIDE = "is a link to a folder outside the project; pnp reads only the project's own files (copy them here)"
