"""What a database may name from the drawing stage: slot types, the custom layout, symbols.

The built-in layouts declare their own slots in their files (pnp/layouts/,
read by `pnp.data.reading.layouts`); the symbol names here are the ones the
drawing stage draws (a test holds the two sides equal), so the loader checks a
database without importing any drawing code.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

SLOT_TYPES: Mapping[str, str] = MappingProxyType(
    {
        "text": "one line of text; inline markup allowed (**bold**, *italic*, {icon}); shrinks to fit",
        "paragraph": "wrapped text; inline markup and line breaks allowed; shrinks to fit, `pnp check` reports overflow",
        "colour": "a colour: #RRGGBB, #RGB, #RRGGBBAA (see-through), a CSS name, rgb(), rgba() or cmyk() (inks in %)",
        "symbol": "a symbol name: built in (listed by `pnp layouts`) or your own art/symbols/NAME.svg",
        "number": "a number",
        "choice": "one of the words the meaning lists",
        "list": "a list (often from a template: {expr: ...})",
        "mapping": "a mapping (often from a template: {expr: ...})",
        "name": "a field or card size name",
        "art": "a picture in the project (art/x.png, .jpg or .svg; a template such as art/{{ card.key }}.png "
        "allowed; or {file: ..., fit: cover|contain}) drawn where the layout keeps its picture; or a symbol name",
    }
)


@dataclass(frozen=True)
class Slot:
    """One slot of a layout: the kind of value it takes (a key of SLOT_TYPES) and what it shows."""

    type: str
    meaning: str


# Layouts whose slot names the database chooses (the loader checks nothing about them).
FREE_SLOTS: frozenset[str] = frozenset({"custom"})
CUSTOM_DOC = (
    "Drawn from the design's own `let` names and list of elements (the element language of the built-in "
    "layouts: rect, round_rect, ellipse, line, path, text, paragraph, image, symbol, pattern, group), "
    "in mm or any unit from a corner of the trim, safe zone or bleed."
)


SYMBOLS: tuple[str, ...] = tuple(
    sorted(
        (
            "heart",
            "diamond",
            "club",
            "spade",
            "moon",
            "sun",
            "star",
            "book",
            "sword",
            "bow",
            "magic",
            "tiger",
            "beetle",
            "flower",
            "stone",
            "feather",
            "mushroom",
            "shell",
            "horseshoe",
            "berry",
            "fairy",
            "dislike",
            "crown",
            "leaf",
            "acorn",
            "butterfly",
            "wing",
            "key",
            "bell",
            "lantern",
            "teardrop",
            "snowflake",
            "clover",
            "dragonfly",
            "seed",
            "coin",
            "castle",
            "skull",
            "sparkle",
            "hexagon",
            "triangle",
            "circle",
            "square",
        )
    )
)


def has_symbol(name: object, own: tuple[str, ...] = ()) -> bool:
    """True if `name` is a built-in symbol or one of the project's own (`own`: names in art/symbols/)."""
    return name in SYMBOLS or name in own


def unknown_symbol(name: str, own: tuple[str, ...] | Mapping[str, object] = ()) -> str:
    """The message for a symbol name that is neither built in nor the project's own: every name there is."""
    known = sorted(set(SYMBOLS) | set(own))
    close = difflib.get_close_matches(str(name), known, n=3, cutoff=0.5)
    hint = f"; did you mean {', '.join(close)}?" if close else ""
    mine = (
        f"; own (art/symbols/): {', '.join(sorted(own))}" if own else "; own: none (add art/symbols/NAME.svg)"
    )
    return f"unknown symbol {name!r}{hint} (built-in: {', '.join(SYMBOLS)}{mine})"
