"""Resolved sides kept in the disk cache: an unchanged card of a built-in layout resolves without jinja2.

A built-in layout's side whose slots hold no picture depends only on what the
key below digests: the slots, the card (size, style, code, ink), the font files
and the project's own symbol files. Its fitted elements are kept as JSON data
(`pnp.data.templating.packing.pack`); a side with a problem is never kept.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from pnp.data.format.elements import Element
from pnp.data.store.cache import cached
from pnp.data.templating import packing
from pnp.resolve.fonts import Fonts
from pnp.resolve.layout import Trim

Resolved = tuple[list[Element], Any]  # fitted elements, the ink asked for the code


def kept_side(
    layout: str,
    fonts: Fonts,
    symbols: Mapping[str, Path],
    trim: Trim,
    slots: Mapping[str, Any],
    compute: Callable[[], Resolved],
) -> Resolved:
    """compute()'s fitted elements and ink, from the cache when nothing they depend on changed."""
    key = _digest([dict(slots), dataclasses.asdict(trim), _files(fonts.files), _files(symbols)])
    packed = cached("side", (layout, key), lambda: (_pack(compute()), []), shelf="cards", raw=True)
    try:
        elements, ink = packed
        return [packing.unpack(el) for el in elements], packing.unpack_colour(ink)
    except (ValueError, TypeError):  # a damaged entry: resolved afresh
        return compute()


def _pack(done: Resolved) -> list[Any]:
    return [[packing.pack(el) for el in done[0]], packing.pack_colour(done[1])]


def _digest(seen: list[Any]) -> str:
    return hashlib.sha256(json.dumps(seen, sort_keys=True, default=repr).encode()).hexdigest()


def _files(files: Mapping[str, Path]) -> list[tuple[Any, ...]]:
    """Each file's name, path, size and time (a changed font or symbol file is a new key)."""
    out: list[tuple[Any, ...]] = []
    for name, path in sorted(files.items()):
        try:
            st = path.stat()
            out.append((name, str(path), st.st_size, st.st_mtime_ns))
        except OSError:
            out.append((name, str(path), 0, 0))
    return out
