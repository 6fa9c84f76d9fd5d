"""Build frozen dataclasses from located YAML, and JSON Schema from the same classes.

The dataclasses in `model.py` are the single description of the database
format: `parse` validates YAML against them (reporting file, line and field),
and `json_schema` turns them into a JSON Schema for editors.
"""

from __future__ import annotations

import dataclasses
import datetime
import difflib
import functools
import types
import typing
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints

from pnp.data.format.errors import Problem
from pnp.data.format.limits import CONTROL_CHARS
from pnp.data.format.located import line_of


@functools.cache
def _hints(cls: type) -> dict[str, Any]:
    """Resolved field types of a model class (resolving is slow; the model never changes)."""
    return get_type_hints(cls)


@functools.cache
def _fields(cls: type) -> tuple[dataclasses.Field, ...]:
    return dataclasses.fields(cls)


def yaml_name(f: dataclasses.Field) -> str:
    """The key a dataclass field has in YAML (metadata `yaml` overrides the name)."""
    return f.metadata.get("yaml", f.name)


def _is_optional(tp: Any) -> bool:
    return get_origin(tp) in (Union, types.UnionType) and type(None) in get_args(tp)


def _describe(tp: Any) -> str:
    origin = get_origin(tp)
    if tp is Any:
        return "any value"
    if origin is Literal:
        return "one of " + ", ".join(repr(a) for a in get_args(tp))
    if origin in (Union, types.UnionType):
        return " or ".join(_describe(a) for a in get_args(tp) if a is not type(None))
    if origin is list or origin is tuple:
        return "a list"
    if origin is dict:
        return "a mapping"
    if dataclasses.is_dataclass(tp):
        return "a mapping"
    return {str: "text", int: "a whole number", float: "a number", bool: "true or false"}.get(tp, str(tp))


class Parser:
    """Converts located YAML into dataclass instances, collecting problems."""

    def __init__(self, file: str):
        self.file = file
        self.problems: list[Problem] = []

    def fail(self, line: int | None, field: str, message: str) -> None:
        self.problems.append(Problem(self.file, line, field, message))

    def value(self, tp: Any, data: Any, field: str, line: int | None) -> Any:
        """Check `data` against type `tp`; return the converted value (or None after a problem)."""
        origin = get_origin(tp)
        if tp is Any:
            return data
        if _is_optional(tp):
            if data is None:
                return None
            inner = [a for a in get_args(tp) if a is not type(None)]
            tp = inner[0] if len(inner) == 1 else Union[tuple(inner)]  # noqa: UP007 - a union built at run time
            origin = get_origin(tp)
        if origin is Literal:
            if data in get_args(tp):
                return data
            close = difflib.get_close_matches(str(data), [str(a) for a in get_args(tp)], n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            self.fail(line, field, f"expected {_describe(tp)}, found {data!r}{hint}")
            return None
        if origin in (Union, types.UnionType):
            for option in get_args(tp):
                if self._matches(option, data):
                    return self.value(option, data, field, line)
            self.fail(line, field, f"expected {_describe(tp)}, found {_found(data)}")
            return None
        if origin in (list, tuple):
            if not isinstance(data, list):
                self.fail(line, field, f"expected a list, found {_found(data)}")
                return None
            (item_tp, *_) = get_args(tp) or (Any,)
            items = [
                self.value(item_tp, item, f"{field}[{i}]", line_of(data, i, line))
                for i, item in enumerate(data)
            ]
            return tuple(items)
        if origin is dict:
            key_tp, val_tp = get_args(tp) or (Any, Any)
            if not isinstance(data, dict):
                self.fail(line, field, f"expected a mapping, found {_found(data)}")
                return None
            return {
                self.value(key_tp, k, f"{field}", line_of(data, k, line)): self.value(
                    val_tp, v, f"{field}.{k}", line_of(data, k, line)
                )
                for k, v in data.items()
            }
        if isinstance(tp, type) and dataclasses.is_dataclass(tp):
            return self.record(tp, data, field, line)
        if tp is float:
            if isinstance(data, (int, float)) and not isinstance(data, bool):
                return float(data)
        elif tp is int:
            if isinstance(data, int) and not isinstance(data, bool):
                return data
        elif tp is str:
            if isinstance(data, str):
                bad = CONTROL_CHARS.search(data)
                if bad:
                    self.fail(
                        line,
                        field,
                        f"control character U+{ord(bad.group()):04X} in {data[:40]!r}; delete it "
                        "(a name or text may hold tabs and line breaks, nothing else unprintable)",
                    )
                    return None
                return data
            if isinstance(data, (int, float, datetime.date)) and not isinstance(
                data, bool
            ):  # keys such as 10 and
                return (
                    data.isoformat() if isinstance(data, datetime.date) else str(data)
                )  # 2026-11-25 are bare
        elif isinstance(data, tp):
            return data
        self.fail(line, field, f"expected {_describe(tp)}, found {_found(data)}")
        return None

    def _matches(self, tp: Any, data: Any) -> bool:
        origin = get_origin(tp)
        if dataclasses.is_dataclass(tp):
            return isinstance(data, dict) or (isinstance(data, list) and hasattr(tp, "__positional__"))
        if origin in (list, tuple):
            return isinstance(data, list)
        if origin is dict:
            return isinstance(data, dict)
        if origin is Literal:
            return data in get_args(tp)
        if tp is float:
            return isinstance(data, (int, float)) and not isinstance(data, bool)
        if tp is int:
            return isinstance(data, int) and not isinstance(data, bool)
        return tp is Any or isinstance(data, tp)

    def record(self, cls: type, data: Any, field: str, line: int | None) -> Any:
        """Build dataclass `cls` from a mapping, reporting unknown, missing and mistyped keys.

        A class with `__extra_keys__` keeps keys it does not declare in its `values` field,
        for the caller to check against the fields the database declares.
        """
        extra_ok = getattr(cls, "__extra_keys__", False)
        names = getattr(cls, "__positional__", None)
        if names and isinstance(data, list):  # a short form: [a, b] for {a: .., b: ..}
            least = len([f for f in _fields(cls) if f.default is dataclasses.MISSING])
            if not least <= len(data) <= len(names):
                self.fail(
                    line,
                    field,
                    f"expected [{', '.join(names)}]: {least} to {len(names)} items, found {len(data)}",
                )
                return None
            data = dict(zip(names, data))
        if not isinstance(data, dict):
            self.fail(line, field, f"expected a mapping, found {_found(data)}")
            return None
        hints = _hints(cls)
        fields = [f for f in _fields(cls) if f.init and not f.metadata.get("internal")]
        by_yaml = {yaml_name(f): f for f in fields}
        kwargs: dict[str, Any] = {}
        before = len(self.problems)
        for key in data:
            if key not in by_yaml and not extra_ok:
                close = difflib.get_close_matches(str(key), list(by_yaml), n=1, cutoff=0.6)
                hint = (
                    f" (did you mean {close[0]!r}?)"
                    if close
                    else f" (known keys: {', '.join(sorted(by_yaml))})"
                )
                self.fail(line_of(data, key, line), _join(field, key), f"unknown key {key!r}{hint}")
        for name, f in by_yaml.items():
            sub = _join(field, name)
            if name in data:
                kwargs[f.name] = self.value(hints[f.name], data[name], sub, line_of(data, name, line))
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                self.fail(line_of(data, None, line), sub, f"missing required key {name!r}")
        if extra_ok:
            kwargs["values"] = {k: v for k, v in data.items() if k not in by_yaml}
        if "line" in hints:
            kwargs["line"] = line_of(data, None, line) or 0
        if "given" in hints:  # which keys were written (an override changes only those)
            kwargs["given"] = tuple(by_yaml[k].name for k in data if k in by_yaml)
        if "source" in hints and getattr(data, "source", None):
            kwargs["source"] = getattr(data, "source")  # a spreadsheet row's file, row and columns
        if len(self.problems) > before:
            return None
        try:
            return cls(**kwargs)
        except ValueError as exc:  # a dataclass __post_init__ rejecting the combination
            key, _, rest = str(exc).partition(": ")
            if key in data and rest:  # "copies: must be ..." is about one key: point at its line
                self.fail(line_of(data, key, line), _join(field, key), rest)
            else:
                self.fail(line_of(data, None, line), field, str(exc))
            return None


def _join(field: str, key: Any) -> str:
    return f"{field}.{key}" if field else str(key)


def _found(data: Any) -> str:
    if data is None:
        return "nothing"
    if isinstance(data, bool):
        return f"{str(data).lower()} (true/false)"
    if isinstance(data, dict):
        return "a mapping"
    if isinstance(data, list):
        return "a list"
    return f"{type(data).__name__.replace('str', 'text')} {data!r}"


def json_schema(tp: Any, defs: dict[str, Any] | None = None) -> dict[str, Any]:
    """JSON Schema (draft 2020-12) for a type from the model."""
    top = defs is None
    defs = {} if defs is None else defs
    origin = get_origin(tp)
    if tp is Any:
        out: dict[str, Any] = {}
    elif _is_optional(tp):
        inner = [a for a in get_args(tp) if a is not type(None)]
        out = {"anyOf": [json_schema(a, defs) for a in inner] + [{"type": "null"}]}
    elif origin is Literal:
        out = {"enum": list(get_args(tp))}
    elif origin in (Union, types.UnionType):
        out = {"anyOf": [json_schema(a, defs) for a in get_args(tp)]}
    elif origin in (list, tuple):
        args = get_args(tp)
        out = {"type": "array", "items": json_schema(args[0] if args else Any, defs)}
    elif origin is dict:
        args = get_args(tp)
        out = {"type": "object", "additionalProperties": json_schema(args[1] if args else Any, defs)}
    elif isinstance(tp, type) and dataclasses.is_dataclass(tp):
        name = tp.__name__
        if name not in defs:
            defs[name] = {}  # placeholder against recursion
            hints = get_type_hints(tp)
            props, required = {}, []
            for f in dataclasses.fields(tp):
                if not f.init or f.metadata.get("internal") or f.name == "line":
                    continue
                sub = json_schema(hints[f.name], defs)
                if f.metadata.get("doc"):
                    sub = {**sub, "description": f.metadata["doc"]}
                props[yaml_name(f)] = sub
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                    required.append(yaml_name(f))
            body: dict[str, Any] = {
                "type": "object",
                "properties": props,
                "additionalProperties": bool(getattr(tp, "__extra_keys__", False)),
            }
            names = getattr(tp, "__positional__", None)
            if names:  # also written as a list, field by field
                body = {
                    "anyOf": [
                        body,
                        {
                            "type": "array",
                            "minItems": len(required),
                            "maxItems": len(names),
                            "prefixItems": [props[n] for n in names],
                        },
                    ]
                }
            if required:
                (body["anyOf"][0] if "anyOf" in body else body)["required"] = required
            if tp.__doc__:
                body["description"] = " ".join(tp.__doc__.split())
            defs[name] = body
        out = {"$ref": f"#/$defs/{name}"}
    elif tp is str:  # text: as it is, or per language ({en: ..., de: ...}; game.languages)
        out = {"anyOf": [{"type": "string"}, PER_LANGUAGE]}
    else:
        out = {"type": {int: "integer", float: "number", bool: "boolean"}[tp]}
    if top and defs:
        out = {**out, "$defs": defs}
    return out


PER_LANGUAGE = {
    "type": "object",
    "minProperties": 1,
    "description": "the text per language (game.languages)",
    "propertyNames": {"pattern": "^[a-z]{2,3}(-[a-z0-9]{2,8})?$"},
    "additionalProperties": {"type": ["string", "number", "null"]},
}


def doc(text: str, **more: Any) -> dict[str, Any]:
    """Field metadata with a description for the JSON Schema."""
    return {"doc": text, **more}


__all__ = ["Parser", "json_schema", "doc", "yaml_name", "typing"]
