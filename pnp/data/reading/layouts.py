"""The built-in layouts, read from the element files shipped in `pnp/layouts/`, and every layout's slots.

A built-in layout is the same element data a `layout: custom` design holds
(see `pnp.data.format.layout`); reading one goes through the schema like a
database, so a broken file names its line. Each process reads them once.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
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


class _Shipped(Mapping[str, Layout]):
    """pnp's layouts by name, each read (and kept in the disk cache: the files change only with pnp's
    code, which keys every entry) when first asked for: a game reads the one or two it uses, not
    all eight (0.15 s of a first run). A memo of this process, like an lru_cache."""

    def __init__(self) -> None:
        self._names = tuple(sorted(path.stem for path in FOLDER.glob("*.yaml")))
        self._read: dict[str, Layout] = {}

    def __getitem__(self, name: str) -> Layout:
        if name not in self._names:
            raise KeyError(name)
        if name not in self._read:
            self._read[name] = cached("layout", (name,), lambda: (_read_one(layout_file(name)), []))
        return self._read[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)


@lru_cache(maxsize=1)
def builtin() -> Mapping[str, Layout]:
    """Every layout shipped as element data, by name, each read as first used (raises InputError naming
    file:line for a broken one)."""
    return _Shipped()


def _read_all(expressions: bool = False) -> dict[str, Layout]:
    """Every layout read and checked (`_read_one`); the tests' way to check them all."""
    return {path.stem: _read_one(path, expressions) for path in sorted(FOLDER.glob("*.yaml"))}


def _read_one(path: Path, expressions: bool = False) -> Layout:
    """A layout read and its slots checked; `expressions`: every expression compiled too. pnp's
    own expressions are compiled by its tests (`test_layout`), and at run time only as a card uses
    them: compiling all of them costs a first run half a second."""
    from pnp.data.reading.yamlsrc import load_yaml  # lazy: a cached build reads no YAML

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
    return spec


class _Slots(Mapping[str, Mapping[str, Slot]]):
    """Every layout's slots by name (`custom` has free slots), each layout read as first asked for."""

    def __getitem__(self, name: str) -> Mapping[str, Slot]:
        if name in FREE_SLOTS:
            return MappingProxyType({})
        return MappingProxyType(dict(sorted(builtin()[name].slots.items())))

    def __iter__(self) -> Iterator[str]:
        return iter(sorted({*FREE_SLOTS, *builtin()}))

    def __len__(self) -> int:
        return len({*FREE_SLOTS, *builtin()})


@lru_cache(maxsize=1)
def layout_slots() -> Mapping[str, Mapping[str, Slot]]:
    """Every layout's slots by layout name: the built-in ones, and `custom` (whose slots are free)."""
    return _Slots()


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
