"""YAML mappings and lists that remember their source lines (no YAML import here).

Kept apart from `yamlsrc` so that a game read back from the on-disk cache
(`pnp.data.store.cache`) needs these classes but not the YAML parser.
"""

from __future__ import annotations

from typing import Any


class Located(dict):
    """A YAML mapping that knows its own line and the line of each key (1-based)."""

    line: int = 0
    key_lines: dict[str, int]
    source: tuple[str, int, dict[str, str]] | None = None  # a spreadsheet row: (file, row, field -> column)


class LocatedList(list):
    """A YAML sequence that knows its own line and the line of each item (1-based)."""

    line: int = 0
    item_lines: list[int]


def line_of(node: Any, key: str | int | None = None, default: int | None = None) -> int | None:
    """Line of `node` (or of one of its keys/items), when the loader recorded it."""
    if isinstance(node, Located):
        if key is not None and key in node.key_lines:
            return node.key_lines[key]
        return node.line
    if isinstance(node, LocatedList):
        if isinstance(key, int) and 0 <= key < len(node.item_lines):
            return node.item_lines[key]
        return node.line
    return default
