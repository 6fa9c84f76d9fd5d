"""What a database may name from the drawing stage: layouts with their slots, built-in symbols.

The drawing stage implements these names (each layout module takes its slots
from here, and a test holds the two sides equal); keeping the names here lets
the loader check a database without importing any drawing code.
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Mapping

SLOTS: Mapping[str, frozenset[str]] = MappingProxyType({
    "arcana": frozenset({"accent", "color", "element", "emblem", "links", "name", "number", "subtitle", "text",
                         "title"}),
    "back": frozenset({"accent", "color", "emblem", "pattern", "spacing", "subtitle", "title"}),
    "chart": frozenset({"color", "groups", "node_group", "node_id", "node_label", "node_links", "node_number",
                        "nodes", "subtitle", "text", "title"}),
    "mat": frozenset({"art", "color", "space", "space_label", "space_symbol", "subtitle", "text", "title"}),
    "playing": frozenset({"accent", "badge", "color", "emblem", "kind", "rank", "role", "subtitle", "suit", "tint",
                          "title", "tone"}),
    "portrait": frozenset({"art", "art_color", "backdrop", "badges", "color", "index_color", "index_label",
                           "index_symbol", "ink", "ribbon", "ribbon_color", "ribbon_symbol", "subtitle", "text",
                           "text_height", "text_role", "text_size", "title", "value"}),
    "reference": frozenset({"color", "emblem", "rows", "size", "text", "title"}),
    "value": frozenset({"color", "emblem", "index", "subtitle", "text", "title", "value"}),
})

SYMBOLS: tuple[str, ...] = tuple(sorted((
    "heart", "diamond", "club", "spade", "moon", "sun", "star", "book", "sword", "bow", "magic", "tiger",
    "beetle", "flower", "stone", "feather", "mushroom", "shell", "horseshoe", "berry", "fairy", "dislike",
    "crown", "leaf", "acorn", "butterfly", "wing", "key", "bell", "lantern", "teardrop", "snowflake", "clover",
    "dragonfly", "seed", "coin", "castle", "skull", "sparkle", "hexagon", "triangle", "circle", "square",
)))


def has_symbol(name: object) -> bool:
    """True if `name` is a built-in symbol."""
    return name in SYMBOLS
