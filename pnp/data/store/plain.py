"""Values as plain JSON data and back, rebuilt only with pnp's own format classes: what the cache stores.

Nothing read back can name code: a class is named by a key of `CLASSES` (an
explicit list of the database format's dataclasses) and rebuilt by calling it
with its declared fields; anything else in an entry is JSON's own data, plus
tagged tuples, sets, bytes, paths, non-finite floats and mappings whose keys
are not text. Anything unexpected raises `ValueError` (the cache counts it a miss).
"""

from __future__ import annotations

import base64
import dataclasses
import math
from pathlib import Path
from typing import Any

from pnp.data.format import board, boardspec, catalog, colours, elements, layout, model
from pnp.data.format.located import Located, LocatedList

_MODULES = (model, board, boardspec, elements, layout, catalog, colours)
CLASSES: dict[str, type] = {
    f"{module.__name__.rsplit('.', 1)[1]}.{name}": cls
    for module in _MODULES
    for name, cls in vars(module).items()
    if isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__module__ == module.__name__
}
_NAMES = {cls: name for name, cls in CLASSES.items()}
_FIELDS = {cls: tuple(f.name for f in dataclasses.fields(cls)) for cls in CLASSES.values()}
_INIT = {cls: frozenset(f.name for f in dataclasses.fields(cls) if f.init) for cls in CLASSES.values()}
TAG = "~"  # a mapping with one key starting with this is a tagged value
_PRIMITIVE = (int, float, str)  # what a long list or table may hold as JSON as it is (JSON is written with
# allow_nan=False, so a table holding a non-finite float is not stored at all)
_RAW = 16


def encode(value: Any) -> Any:
    """`value` as JSON data (TypeError for something pnp never stores)."""
    kind = type(value)
    if value is None or kind in (bool, int, str):
        return value
    if kind is float:
        return value if math.isfinite(value) else {"~f": repr(value)}
    if kind is list:
        if len(value) > _RAW and all(type(v) in _PRIMITIVE for v in value):
            return {"~r": value}  # a long list of numbers or text: JSON as it is, nothing to rebuild
        if len(value) > _RAW and all(
            type(v) is tuple and all(type(x) in _PRIMITIVE for x in v) for v in value
        ):
            return {"~rt": [list(v) for v in value]}  # a long list of pairs (a font's glyph metrics)
        return [encode(v) for v in value]
    if kind is tuple:
        return {"~t": [encode(v) for v in value]}
    if kind is dict:
        if all(type(k) is str and not k.startswith(TAG) for k in value):
            return {k: encode(v) for k, v in value.items()}
        if len(value) > _RAW and all(
            type(k) in _PRIMITIVE and type(v) in _PRIMITIVE for k, v in value.items()
        ):
            return {"~z": [list(value), list(value.values())]}  # a long table (a font's glyph map)
        return {"~d": [[encode(k), encode(v)] for k, v in value.items()]}
    if kind in (set, frozenset):
        return {"~s" if kind is set else "~fs": [encode(v) for v in sorted(value, key=repr)]}
    if kind is bytes:
        return {"~b": base64.b64encode(value).decode("ascii")}
    if isinstance(value, Path):
        return {"~p": str(value)}
    if kind is Located:
        return {
            "~m": [[encode(k), encode(v)] for k, v in value.items()],
            "line": value.line,
            "keys": encode(getattr(value, "key_lines", {})),
        }
    if kind is LocatedList:
        return {
            "~l": [encode(v) for v in value],
            "line": value.line,
            "items": getattr(value, "item_lines", []),
        }
    if kind in _NAMES:
        return {"~c": _NAMES[kind], "f": {name: encode(value.__dict__[name]) for name in _FIELDS[kind]}}
    raise TypeError(f"the cache does not store {kind.__module__}.{kind.__qualname__}")


def decode(data: Any) -> Any:
    """What `encode` made, rebuilt (ValueError for anything it could not have made)."""
    kind = type(data)
    if data is None or kind in (bool, int, float, str):
        return data
    if kind is list:
        return [decode(v) for v in data]
    if kind is not dict:
        raise ValueError(f"unexpected {kind.__name__} in a cache entry")
    tag = next(iter(data), "") if len(data) in (1, 2, 3) else ""
    if not tag.startswith(TAG):
        return {k: decode(v) for k, v in data.items()}
    return _TAGGED.get(tag, _unknown)(data)


def _unknown(data: dict) -> Any:
    raise ValueError(f"unknown tag {next(iter(data))!r} in a cache entry")


def _float(data: dict) -> float:
    text = data["~f"]
    if text not in ("nan", "inf", "-inf"):
        raise ValueError(f"not a float: {text!r}")
    return float(text)


def _pairs(items: Any) -> list[tuple[Any, Any]]:
    if type(items) is not list or not all(type(p) is list and len(p) == 2 for p in items):
        raise ValueError("a mapping's pairs are damaged")
    return [(_key(decode(k)), decode(v)) for k, v in items]


def _key(value: Any) -> Any:
    return tuple(value) if type(value) is list else value


def _located(data: dict) -> Located:
    out = Located(_pairs(data["~m"]))
    out.line = int(data["line"])
    out.key_lines = {k: int(v) for k, v in decode(data["keys"]).items()}
    return out


def _located_list(data: dict) -> LocatedList:
    out = LocatedList(decode(data["~l"]))
    out.line = int(data["line"])
    out.item_lines = [int(v) for v in data["items"]]
    return out


def _instance(data: dict) -> Any:
    cls = CLASSES.get(data["~c"]) if type(data.get("~c")) is str else None
    fields = data.get("f")
    if cls is None or type(fields) is not dict or set(fields) != set(_FIELDS[cls]):
        raise ValueError(f"not a class the cache stores: {str(data.get('~c'))[:60]!r}")
    values = {name: decode(v) for name, v in fields.items()}
    made = cls(**{k: v for k, v in values.items() if k in _INIT[cls]})
    for name in _FIELDS[cls]:
        if name not in _INIT[cls]:
            object.__setattr__(made, name, values[name])
    return made


def _raw(data: dict) -> list[Any]:
    items = data["~r"]
    if type(items) is not list or not all(type(v) in _PRIMITIVE for v in items):
        raise ValueError("a long list is damaged")
    return items


def _raw_tuples(data: dict) -> list[tuple[Any, ...]]:
    items = data["~rt"]
    if type(items) is not list or not all(
        type(v) is list and all(type(x) in _PRIMITIVE for x in v) for v in items
    ):
        raise ValueError("a long list of tuples is damaged")
    return [tuple(v) for v in items]


def _table(data: dict) -> dict[Any, Any]:
    keys, values = data["~z"]
    if not all(type(v) in _PRIMITIVE for v in (*keys, *values)) or len(keys) != len(values):
        raise ValueError("a table is damaged")
    return dict(zip(keys, values))


_TAGGED = {
    "~f": _float,
    "~r": _raw,
    "~rt": _raw_tuples,
    "~z": _table,
    "~t": lambda d: tuple(decode(d["~t"])),
    "~d": lambda d: dict(_pairs(d["~d"])),
    "~s": lambda d: set(_key(v) for v in decode(d["~s"])),
    "~fs": lambda d: frozenset(_key(v) for v in decode(d["~fs"])),
    "~b": lambda d: base64.b64decode(d["~b"].encode("ascii"), validate=True),
    "~p": lambda d: Path(str(d["~p"])),
    "~m": _located,
    "~l": _located_list,
    "~c": _instance,
}
