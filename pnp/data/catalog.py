"""What a database may name from the drawing stage: layouts with their slots, built-in symbols.

The drawing stage implements these names (each layout module takes its slots
from here, and a test holds the two sides equal); keeping the names here lets
the loader check a database without importing any drawing code.
"""
from __future__ import annotations

import difflib
from types import MappingProxyType
from typing import Mapping

SLOTS: Mapping[str, frozenset[str]] = MappingProxyType({
    "arcana": frozenset({"accent", "art", "color", "element", "emblem", "links", "name", "number", "subtitle", "text",
                         "title"}),
    "back": frozenset({"accent", "art", "color", "emblem", "pattern", "spacing", "subtitle", "title"}),
    "chart": frozenset({"art", "color", "groups", "node_group", "node_id", "node_label", "node_links", "node_number",
                        "nodes", "subtitle", "text", "title"}),
    "mat": frozenset({"art", "color", "space", "space_label", "space_symbol", "subtitle", "text", "title"}),
    "playing": frozenset({"accent", "art", "badge", "color", "emblem", "kind", "rank", "role", "subtitle", "suit",
                          "tint", "title", "tone"}),
    "portrait": frozenset({"art", "art_color", "backdrop", "badges", "color", "index_color", "index_label",
                           "index_symbol", "ink", "ribbon", "ribbon_color", "ribbon_symbol", "subtitle", "text",
                           "text_height", "text_role", "text_size", "title", "value"}),
    "reference": frozenset({"art", "color", "emblem", "rows", "size", "text", "title"}),
    "value": frozenset({"art", "color", "emblem", "index", "subtitle", "text", "title", "value"}),
    "custom": frozenset(),  # a custom design names its own slots and draws `elements`
})

# Layouts whose slot names the database chooses (the loader checks nothing about them).
FREE_SLOTS: frozenset[str] = frozenset({"custom"})

SYMBOLS: tuple[str, ...] = tuple(sorted((
    "heart", "diamond", "club", "spade", "moon", "sun", "star", "book", "sword", "bow", "magic", "tiger",
    "beetle", "flower", "stone", "feather", "mushroom", "shell", "horseshoe", "berry", "fairy", "dislike",
    "crown", "leaf", "acorn", "butterfly", "wing", "key", "bell", "lantern", "teardrop", "snowflake", "clover",
    "dragonfly", "seed", "coin", "castle", "skull", "sparkle", "hexagon", "triangle", "circle", "square",
)))


def has_symbol(name: object, own: tuple[str, ...] = ()) -> bool:
    """True if `name` is a built-in symbol or one of the project's own (`own`: names in art/symbols/)."""
    return name in SYMBOLS or name in own


def unknown_symbol(name: str, own: tuple[str, ...] | Mapping[str, object] = ()) -> str:
    """The message for a symbol name that is neither built in nor the project's own: every name there is."""
    known = sorted(set(SYMBOLS) | set(own))
    close = difflib.get_close_matches(str(name), known, n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    mine = f"; own (art/symbols/): {', '.join(sorted(own))}" if own else "; own: none (add art/symbols/NAME.svg)"
    return f"unknown symbol {name!r}{hint} (built-in: {', '.join(SYMBOLS)}{mine})"
