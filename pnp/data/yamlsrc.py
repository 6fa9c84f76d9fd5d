"""Safe YAML loading that remembers the line of every mapping key and list item."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from pnp.data.errors import Problem, problem
from pnp.data.located import Located, LocatedList, line_of


class _Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # libyaml's parser when installed: ~5x faster
    """SafeLoader that records source lines and rejects duplicate keys."""


def _mapping(loader: _Loader, node: yaml.MappingNode) -> Located:
    out = Located()
    out.line = node.start_mark.line + 1
    out.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if isinstance(key, (list, dict)):
            raise yaml.constructor.ConstructorError(None, None, "a mapping key must be a scalar", key_node.start_mark)
        if key in out:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r} (first on line {out.key_lines[key]})", key_node.start_mark)
        out[key] = loader.construct_object(value_node, deep=True)
        out.key_lines[key] = key_node.start_mark.line + 1
    return out


def _sequence(loader: _Loader, node: yaml.SequenceNode) -> LocatedList:
    out = LocatedList(loader.construct_object(child, deep=True) for child in node.value)
    out.line = node.start_mark.line + 1
    out.item_lines = [child.start_mark.line + 1 for child in node.value]
    return out


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _sequence)


def load_yaml(path: Path, display: str | None = None) -> Any:
    """Parse a YAML file with safe constructors only, keeping line numbers."""
    name = display or str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise problem(name, None, "", f"cannot read file: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise problem(name, None, "", "file is not valid UTF-8 text") from None
    try:
        return yaml.load(text, Loader=_Loader)  # noqa: S506 - _Loader derives from SafeLoader
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        raise problem(name, line, "", f"YAML syntax: {exc.problem or exc.context}") from None
    except yaml.YAMLError as exc:
        raise problem(name, None, "", f"YAML syntax: {exc}") from None


__all__ = ["Located", "LocatedList", "load_yaml", "line_of", "Problem"]
