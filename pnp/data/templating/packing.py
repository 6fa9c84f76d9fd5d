"""Rendered elements as JSON data and back: what the disk cache keeps of a resolved side."""

from __future__ import annotations

import dataclasses
from typing import Any

from pnp.data.format.colours import Colour
from pnp.data.format.elements import APPLIES, Element
from pnp.data.templating.elements import fresh

_DEFAULTS = {f.name: f.default for f in dataclasses.fields(Element) if f.default is not dataclasses.MISSING}
_ALL_FIELDS = frozenset(f.name for f in dataclasses.fields(Element))


def pack(el: Element) -> list[Any]:
    """A rendered element as JSON data: its type, the fields that differ from the defaults (a colour
    as {"rgb": [r, g, b]}, tuples as lists), its children (what the disk cache keeps, read back
    without walking it)."""
    fields = {
        k: _plain(v) for k, v in el.__dict__.items() if k != "elements" and _DEFAULTS.get(k, _NONE) != v
    }
    return [el.type, fields, [pack(child) for child in el.elements]]


def _plain(value: Any) -> Any:
    if isinstance(value, Colour):
        return {
            "rgb": [value.red, value.green, value.blue],
            "alpha": value.alpha,
            "cmyk": list(value.cmyk) if value.cmyk is not None else None,
        }
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    if value is None or type(value) in (str, int, float, bool):
        return value
    raise TypeError(f"a rendered element holds {type(value).__name__}")


def unpack(data: Any) -> Element:
    """The element `pack` made (ValueError for anything `pack` could not have made)."""
    if type(data) is not list or len(data) != 3:
        raise ValueError("not a packed element")
    kind, fields, children = data
    if (
        kind not in _BLANK
        or type(fields) is not dict
        or not fields.keys() <= _ALL_FIELDS
        or type(children) is not list
    ):
        raise ValueError("not a packed element")
    el = fresh(_BLANK[kind])
    el.__dict__.update({k: _unplain(k, v) for k, v in fields.items()})
    if children:
        el.__dict__["elements"] = tuple(unpack(child) for child in children)
    return el


def _unplain(name: str, value: Any) -> Any:
    if type(value) is dict:
        rgb, alpha, inks = value.get("rgb"), value.get("alpha"), value.get("cmyk")  # type: Any, Any, Any
        if (
            value.keys() != {"rgb", "alpha", "cmyk"}
            or not _numbers(rgb, 3)
            or not _numbers([alpha], 1)
            or not (inks is None or _numbers(inks, 4))
        ):
            raise ValueError(f"{name}: not a colour")
        return Colour(rgb[0], rgb[1], rgb[2], alpha, (inks[0], inks[1], inks[2], inks[3]) if inks else None)
    if type(value) is list:
        return tuple(_unplain(name, v) for v in value)
    if value is None or type(value) in (str, int, float, bool):
        return value
    raise ValueError(f"{name}: not a rendered value")


def _numbers(values: Any, n: int) -> bool:
    return type(values) is list and len(values) == n and all(type(v) in (float, int) for v in values)


def pack_colour(value: Any) -> Any:
    """A layout's code colour (a Colour, '#RRGGBB' text or None) as JSON data."""
    return _plain(value)


def unpack_colour(value: Any) -> Any:
    return _unplain("code_color", value)


_NONE = object()
_BLANK = {kind: Element(kind) for kind in APPLIES}  # type: ignore[arg-type]
