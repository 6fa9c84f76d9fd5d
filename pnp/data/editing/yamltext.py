"""Change a YAML file's text the least it can be changed: one value, one key, one list item.

The file is parsed to nodes (PyYAML's composer keeps where each node starts and ends), and
only the characters of the values that change are replaced. Every other byte (comments, key
order, quoting, folding, blank lines) stays as the person wrote it. A new value keeps the
style of the one it replaces (plain, 'single', "double", | block) where it can; each edit is
read back and must give exactly the intended values, or it is refused.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import yaml

REMOVE = object()  # a change that takes the key out of the mapping
LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when installed: 15x faster, same marks


class EditError(ValueError):
    """An edit that cannot be written; the message says why."""


@dataclass(frozen=True)
class Splice:
    start: int
    end: int
    text: str


def compose(text: str) -> yaml.Node:
    try:
        node = yaml.compose(text, Loader=LOADER)
    except yaml.YAMLError as exc:
        raise EditError(
            f"the file is not valid YAML right now ({str(exc).splitlines()[0]}); fix it first"
        ) from None
    if node is None:
        raise EditError("the file is empty")
    return node


def lookup(node: yaml.Node, key: str) -> tuple[yaml.ScalarNode, yaml.Node] | None:
    """The (key, value) nodes of `key` in a mapping node."""
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode) and k.value == key:
                return k, v
    return None


def value_end(text: str, node: yaml.Node) -> int:
    """Where a value's own text ends (a block scalar's trailing blank lines belong to what follows)."""
    end = node.end_mark.index
    if isinstance(node, yaml.ScalarNode) and node.style in ("|", ">"):
        body = text[node.start_mark.index : end]
        cut = node.start_mark.index + len(body.rstrip())
        newline = text.find("\n", cut)
        return end if newline < 0 else min(end, newline + 1)
    if isinstance(node, yaml.MappingNode) and not node.flow_style and node.value:
        return value_end(text, node.value[-1][1])
    if isinstance(node, yaml.SequenceNode) and not node.flow_style and node.value:
        return value_end(text, node.value[-1])
    return end


def _line_start(text: str, at: int) -> int:
    return text.rfind("\n", 0, at) + 1


def _line_end(text: str, at: int) -> int:
    """Just past the newline of the line `at` is on (or the end of the text)."""
    if at > 0 and text[at - 1] == "\n":
        return at
    newline = text.find("\n", at)
    return len(text) if newline < 0 else newline + 1


def _plain_ok(value: str, flow: bool) -> bool:
    """Whether `value` may be written unquoted: it reads back the same with libyaml and with PyYAML's
    pure-Python loader (which refuses a tab inside a plain value that libyaml takes)."""
    if (
        not value
        or value != value.strip()
        or not value.isprintable()  # a tab or another control character: written "\t"-escaped instead
        or value.startswith(("'", '"', "|", ">"))
    ):
        return False
    probe = f"{{k: {value}}}" if flow else f"k: {value}"
    try:
        return all(
            yaml.load(probe, Loader=loader) == {"k": value}  # noqa: S506 - safe loaders
            for loader in {LOADER, yaml.SafeLoader}
        )
    except yaml.YAMLError:
        return False


def render(
    value: Any,
    *,
    flow: bool,
    column: int,
    style: str | None = None,
    wrap: tuple[int, int, int] | None = None,
    rest_of_line_empty: bool = True,
) -> str:
    """`value` as YAML text at a key in `column`; `style` is the replaced value's, `wrap` its folding
    (width, column of its first line, column of the others) when it was a plain scalar over lines."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(render(v, flow=True, column=0) for v in value) + "]"
    text = str(value)
    if "\n" in text:
        block = not flow and rest_of_line_empty and not text.endswith("\n\n") and not text[0].isspace()
        if block:  # a literal block, its lines two spaces in from the key (no newline after the last)
            lines = [" " * (column + 2) + line if line else "" for line in text.rstrip("\n").split("\n")]
            return f"|{'' if text.endswith(chr(10)) else '-'}\n" + "\n".join(lines)
        return json.dumps(text, ensure_ascii=False)
    if style == "'":
        return "'" + text.replace("'", "''") + "'"
    if style == '"' or not _plain_ok(text, flow):
        return json.dumps(text, ensure_ascii=False)
    if wrap and not flow:
        return _fold(text, *wrap)
    return text


def _fold(text: str, width: int, first: int, column: int) -> str:
    """A plain scalar folded over lines no wider than `width`, starting at column `first` and
    continuing at `column` (as the value it replaces was)."""
    words = text.split(" ")
    if any(not w for w in words):  # double spaces do not survive folding
        return text
    lines: list[str] = []
    line = ""
    for word in words:
        if line and len(line) + 1 + len(word) > width - (first if not lines else column):
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return ("\n" + " " * column).join(lines)


def set_values(text: str, mapping: yaml.MappingNode, changes: dict[str, Any]) -> str:
    """`text` with the keys of `mapping` changed (REMOVE takes a key out; a new key is added last)."""
    flow = bool(mapping.flow_style)
    splices: list[Splice] = []
    pairs = mapping.value
    for name, value in changes.items():
        found = lookup(mapping, name)
        if found is None:
            if value is REMOVE:
                continue
            splices.append(_add(text, mapping, name, value))
            continue
        key, old = found
        if value is REMOVE:
            splices.append(_remove(text, mapping, pairs.index(found)))
            continue
        if not isinstance(old, yaml.ScalarNode) and not (
            isinstance(old, yaml.SequenceNode) and old.flow_style
        ):
            raise EditError(f"{name}: written as a block in the file; edit this value in the file itself")
        start, end = old.start_mark.index, value_end(text, old)
        block_old = isinstance(old, yaml.ScalarNode) and old.style in ("|", ">")
        rest = text[end : _line_end(text, end)] if not block_old else ""
        wrap = None
        if (
            isinstance(old, yaml.ScalarNode)
            and old.style is None
            and old.start_mark.line != old.end_mark.line
        ):
            lines = text[_line_start(text, start) : end].split("\n")
            wrap = (max(len(x) for x in lines), old.start_mark.column, len(lines[1]) - len(lines[1].lstrip()))
        new = render(
            value,
            flow=flow,
            column=key.start_mark.column,
            style=getattr(old, "style", None),
            wrap=wrap,
            rest_of_line_empty=block_old or not rest.strip(),
        )
        if block_old:  # the old text took its line's newline with it
            new += "\n"
        splices.append(Splice(start, end, new))
    return apply(text, splices)


def _add(text: str, mapping: yaml.MappingNode, name: str, value: Any) -> Splice:
    if not mapping.value:
        raise EditError("an empty mapping cannot take new keys here; edit the file itself")
    last_key, last = mapping.value[-1]
    if mapping.flow_style:
        at = value_end(text, last)
        return Splice(at, at, f", {name}: {render(value, flow=True, column=0)}")
    column = mapping.value[0][0].start_mark.column
    at = value_end(text, last)
    if not (at > 0 and text[at - 1] == "\n"):  # past the rest of the last value's line (a comment)
        at = _line_end(text, at)
    lead = "" if at > 0 and text[at - 1] == "\n" else "\n"
    return Splice(at, at, f"{lead}{' ' * column}{name}: {render(value, flow=False, column=column)}\n")


def _remove(text: str, mapping: yaml.MappingNode, index: int) -> Splice:
    key, value = mapping.value[index]
    if mapping.flow_style:
        if index > 0:
            return Splice(value_end(text, mapping.value[index - 1][1]), value_end(text, value), "")
        if len(mapping.value) > 1:
            return Splice(key.start_mark.index, mapping.value[1][0].start_mark.index, "")
        return Splice(key.start_mark.index, value_end(text, value), "")
    start = _line_start(text, key.start_mark.index)
    if text[start : key.start_mark.index].strip():  # the key shares its line with a `- `: leave it, emptied
        raise EditError(
            f"{key.value}: it starts the card's first line; give it a value instead of removing it"
        )
    return Splice(start, _line_end(text, value_end(text, value)), "")


def apply(text: str, splices: list[Splice]) -> str:
    for s in sorted(splices, key=lambda s: s.start, reverse=True):
        text = text[: s.start] + s.text + text[s.end :]
    return text


def item_span(text: str, seq: yaml.SequenceNode, index: int) -> tuple[int, int]:
    """The lines a block sequence's item takes (from its `- ` line to the end of its last value's line)."""
    item = seq.value[index]
    return _line_start(text, item.start_mark.index), _line_end(text, value_end(text, item))


def new_item(text: str, seq: yaml.SequenceNode, values: dict[str, Any]) -> str:
    """A new item for a block sequence of mappings, written like its last item (flow or block)."""
    last = seq.value[-1]
    start = _line_start(text, last.start_mark.index)
    dash = text[start : last.start_mark.index]
    if not isinstance(last, yaml.MappingNode) or not re.fullmatch(r" *- +", dash):
        raise EditError(
            "the card list is not written one `- ` item per card; add the card in the file itself"
        )
    if last.flow_style:
        return (
            dash
            + "{"
            + ", ".join(f"{k}: {render(v, flow=True, column=0)}" for k, v in values.items())
            + "}\n"
        )
    column = len(dash)
    lines = []
    for i, (k, v) in enumerate(values.items()):
        lead = dash if i == 0 else " " * column
        lines.append(f"{lead}{k}: {render(v, flow=False, column=column)}\n")
    return "".join(lines)
