"""Safe YAML loading that remembers the line of every mapping key and list item."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from pnp.data.format.errors import Problem, problem
from pnp.data.format.limits import (
    MAX_FILE_BYTES,
    MAX_TEXT,
    MAX_YAML_DEPTH,
    MAX_YAML_VALUES,
)
from pnp.data.format.located import Located, LocatedList, line_of

_BASE: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's parser when installed: ~5x faster


class _Loader(_BASE):
    """SafeLoader that records source lines and rejects duplicate keys."""


def _mapping(loader: _Loader, node: yaml.MappingNode) -> Located:
    out = Located()
    out.line = node.start_mark.line + 1
    out.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if isinstance(key, (list, dict)):
            raise yaml.constructor.ConstructorError(
                None, None, "a mapping key must be a scalar", key_node.start_mark
            )
        if key in out:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r} (first on line {out.key_lines[key]})", key_node.start_mark
            )
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


def _limits(text: str, name: str) -> None:
    """Walk the parser's events (no recursion, nothing built) and refuse input over the limits.

    Counting what each anchor stands for, an alias adds the whole of it, so an
    alias bomb ("billion laughs") is refused before anything is expanded; nesting
    is checked here because the C parser would overflow the stack on it.
    """
    anchors: dict[str, int] = {}
    stack: list[list[Any]] = [[None, 0]]  # [anchor, values so far] of each open collection
    starts, ends = (
        (yaml.MappingStartEvent, yaml.SequenceStartEvent),
        (yaml.MappingEndEvent, yaml.SequenceEndEvent),
    )
    event: Any
    for event in yaml.parse(text, Loader=_Loader):
        kind = type(event)
        if kind is yaml.ScalarEvent:
            if len(event.value) > MAX_TEXT:
                raise problem(
                    name,
                    event.start_mark.line + 1,
                    "",
                    f"a text of {len(event.value)} characters; the limit is {MAX_TEXT}",
                )
            size = 1
            if event.anchor:
                anchors[event.anchor] = 1
        elif kind in starts:
            if len(stack) > MAX_YAML_DEPTH:
                raise problem(
                    name, event.start_mark.line + 1, "", f"nested more than {MAX_YAML_DEPTH} levels deep"
                )
            stack.append([event.anchor, 1])
            continue
        elif kind in ends:
            anchor, size = stack.pop()
            if anchor:
                anchors[anchor] = size
        elif kind is yaml.AliasEvent:
            size = anchors.get(event.anchor, 1)
        else:
            continue
        top = stack[-1]
        top[1] += size
        if top[1] > MAX_YAML_VALUES:
            raise problem(
                name,
                event.start_mark.line + 1,
                "",
                f"more than {MAX_YAML_VALUES} values once aliases are expanded",
            )


_FLOW = re.compile(r"[\[\]{}\"'#\n]")


def _flow_depth(text: str, name: str) -> None:
    """Refuse flow collections (`[`, `{`) nested over MAX_YAML_DEPTH before any YAML parser sees them.

    A scan of the brackets outside quotes and comments, so the message is pnp's on
    every PyYAML (libyaml refuses deep flow nesting itself, with its own words, at
    a depth that changed between releases). A text with no deep brackets costs one
    pass of a regular expression.
    """
    if text.count("[") + text.count("{") <= MAX_YAML_DEPTH:
        return
    depth, quote, line = 0, "", 1
    pos, end = 0, len(text)
    while pos < end:
        m = _FLOW.search(text, pos)
        if m is None:
            return
        ch, pos = m.group(), m.end()
        if ch == "\n":
            line += 1
            if quote == "#":
                quote = ""
        elif quote:
            if ch == quote and quote != "#":
                if quote == '"' and _escaped(text, m.start()):
                    continue
                if quote == "'" and text.startswith("'", pos):  # '' inside single quotes
                    pos += 1
                    continue
                quote = ""
        elif ch in "[{":
            depth += 1
            if depth > MAX_YAML_DEPTH:
                raise problem(name, line, "", f"nested more than {MAX_YAML_DEPTH} levels deep")
        elif ch in "]}":
            depth = max(0, depth - 1)
        elif ch == "#":
            if m.start() == 0 or text[m.start() - 1] in " \t\n":
                quote = "#"
        elif m.start() == 0 or text[m.start() - 1] in " \t\n[{,:-?":  # a quote that opens a scalar
            quote = ch


def _escaped(text: str, at: int) -> bool:
    """Whether the character at `at` follows an odd number of backslashes."""
    n = 0
    while at - n - 1 >= 0 and text[at - n - 1] == "\\":
        n += 1
    return n % 2 == 1


def load_yaml(path: Path, display: str | None = None, content: bytes | None = None) -> Any:
    """Parse a YAML file with safe constructors only, keeping line numbers, within the input limits.

    `content`: the file's bytes as they would be (an edit checked before it is written).
    """
    name = display or str(path)
    try:
        if content is not None:
            raw = content[: MAX_FILE_BYTES + 1]
        else:
            with open(path, "rb") as fh:
                raw = fh.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise problem(name, None, "", f"cannot read file: {exc.strerror}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise problem(name, None, "", f"file is larger than {MAX_FILE_BYTES // 1_000_000} MB")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise problem(
            name, line, "", f"not valid UTF-8 text (byte 0x{raw[exc.start]:02x}); save the file as UTF-8"
        ) from None
    _flow_depth(text, name)
    try:
        _limits(text, name)
        return yaml.load(text, Loader=_Loader)  # noqa: S506 - _Loader derives from SafeLoader
    except yaml.constructor.ConstructorError as exc:  # ours: a duplicate or non-scalar key
        mark = exc.problem_mark or exc.context_mark
        raise problem(name, mark.line + 1 if mark else None, "", f"{exc.problem or exc.context}") from None
    except yaml.MarkedYAMLError as exc:
        # lazy: the YAML explanations only for a file that does not parse
        from pnp.data.reading.yamlwords import explain

        at, words = explain(exc, text)
        raise problem(name, at, "", f"YAML syntax: {words}") from None
    except yaml.reader.ReaderError as exc:  # a control character: where it is, and what to do
        line = text[: max(0, exc.position)].count("\n") + 1
        raise problem(
            name,
            line,
            "",
            f"control character U+{exc.character:04X} is not allowed in a database "
            "(delete it; tabs and line breaks are fine)",
        ) from None
    except yaml.YAMLError as exc:
        raise problem(name, None, "", f"YAML syntax: {exc}") from None


__all__ = ["Located", "LocatedList", "load_yaml", "line_of", "Problem"]
