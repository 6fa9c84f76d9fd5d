"""The one rule for names that become file or folder names: games, components, variants, languages.

A name is a slug: it starts with a letter or digit and holds only letters,
digits, `-` and `_`, at most 64 of them. That leaves out separators, `..`,
spaces, and the names Windows keeps for devices (`CON`, `NUL`, `COM1`...),
so a name from a stranger's database can never point a written file
somewhere else, on any system.
"""

from __future__ import annotations

import re

MAX_NAME = 64
_SLUG = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")
_DEVICES = frozenset(
    ["con", "prn", "aux", "nul", "conin$", "conout$"]
    + [f"{port}{n}" for port in ("com", "lpt") for n in range(10)]
    + [f"{port}{n}" for port in ("com", "lpt") for n in ("¹", "²", "³")]
)


def name_problem(name: object) -> str | None:
    """Why `name` cannot name a file, or None when it is a slug pnp can write under."""
    if not isinstance(name, str) or not name:
        return "a name is needed here (letters, digits, - and _)"
    if len(name) > MAX_NAME:
        return f"a name here is at most {MAX_NAME} characters long, found {len(name)}"
    if not _SLUG.fullmatch(name):
        return (
            f"{name!r} cannot be a file name: use letters, digits, - and _ only, "
            "starting with a letter or digit (no spaces, dots or slashes)"
        )
    if is_device(name):
        return f"{name!r} is a device name on Windows and cannot name a file there; choose another name"
    return None


def is_device(name: str) -> bool:
    """Whether Windows takes a file of this name (with any extension) for a device: `con`, `nul.txt`."""
    return name.split(".")[0].strip().lower() in _DEVICES
