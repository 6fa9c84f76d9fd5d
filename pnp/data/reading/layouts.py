"""The built-in layouts, read from the element files shipped in `pnp/layouts/`, and every layout's slots.

A built-in layout is the same element data a `layout: custom` design holds
(see `pnp.data.format.layout`); reading one goes through the schema like a
database, so a broken file names its line. Each process reads them once.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from pnp.data.format.catalog import FREE_SLOTS, SLOT_TYPES, Slot
from pnp.data.format.errors import InputError
from pnp.data.format.layout import Layout
from pnp.data.format.located import line_of
from pnp.data.format.schema import Parser
from pnp.data.store.cache import cached
from pnp.data.templating.elements import check

FOLDER = Path(__file__).resolve().parent.parent.parent / "layouts"


def layout_file(name: str) -> Path:
    """The file a built-in layout is read from."""
    return FOLDER / f"{name}.yaml"


@lru_cache(maxsize=1)
def builtin() -> Mapping[str, Layout]:
    """Every layout shipped as element data, by name (raises InputError naming file:line for a broken one).

    Kept in the disk cache: the files change only with pnp's code, which keys every entry.
    """
    return MappingProxyType(cached("layouts", (), lambda: (_read_all(), [])))


def _read_all(expressions: bool = False) -> dict[str, Layout]:
    """The layouts read and their slots checked; `expressions`: every expression compiled too. pnp's
    own expressions are compiled by its tests (`test_layout`), and at run time only as a card uses
    them: compiling all of them costs a first run half a second."""
    from pnp.data.reading.yamlsrc import load_yaml  # lazy: a cached build reads no YAML

    found: dict[str, Layout] = {}
    for path in sorted(FOLDER.glob("*.yaml")):
        display = f"pnp/layouts/{path.name}"
        data = load_yaml(path, display)
        parser = Parser(display)
        spec = parser.record(Layout, data, "", line_of(data))
        if spec is not None and expressions:
            for line, field, message in check(spec.elements, list(data.get("elements") or []), "", ()):
                parser.fail(line, field.lstrip("."), message)
        if spec is not None:
            for slot, declared in spec.slots.items():
                if declared.type not in SLOT_TYPES:
                    parser.fail(
                        line_of(data.get("slots"), slot),
                        f"slots.{slot}.type",
                        f"unknown slot type {declared.type!r}; types: {', '.join(SLOT_TYPES)}",
                    )
        if parser.problems:
            raise InputError(parser.problems)
        assert spec is not None
        found[path.stem] = spec
    return found


@lru_cache(maxsize=1)
def layout_slots() -> Mapping[str, Mapping[str, Slot]]:
    """Every layout's slots by layout name: the built-in ones, and `custom` (whose slots are free)."""
    out: dict[str, Mapping[str, Slot]] = {name: MappingProxyType({}) for name in FREE_SLOTS}
    for name, spec in builtin().items():
        out[name] = MappingProxyType(dict(sorted(spec.slots.items())))
    return MappingProxyType(dict(sorted(out.items())))


# (an object too: any slot may be given per language, {en: ..., de: ...})
_JSON_TYPES = {
    "number": ["number", "string", "object"],
    "list": ["array", "object", "string"],
    "mapping": ["object", "string"],
    "art": ["string", "object"],
}


def slot_schema() -> list[dict[str, Any]]:
    """JSON Schema branches for a design: `if layout == X then` only X's slots, each described."""
    branches = []
    for layout, slots in layout_slots().items():
        props = {
            name: {
                "type": _JSON_TYPES.get(spec.type, ["string", "number", "object"]),
                "description": f"{spec.meaning} ({spec.type}: {SLOT_TYPES[spec.type]})",
            }
            for name, spec in slots.items()
        }
        branches.append(
            {
                "if": {"properties": {"layout": {"const": layout}}, "required": ["layout"]},
                "then": {
                    "properties": {
                        "slots": {
                            "type": "object",
                            "properties": props,
                            "additionalProperties": layout in FREE_SLOTS,
                        }
                    }
                },
            }
        )
    return branches
