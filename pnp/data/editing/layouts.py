"""A design's geometry changed in its YAML text: only the numbers that moved, in the units they had.

`set_geometry` writes new x, y, w, h (x2, y2) of one of a custom design's own elements; `override`
writes them as an override of an element the design's layout supplies (`extends` it, by `name`),
turning a design that names a built-in layout into `layout: custom` with `extends:` when it must.
Nothing is written into pnp's own layout files. Values arrive in mm and are written back in the unit
the value they replace used (mm, cm, in, pt, or % of the frame); every other byte stays (yamltext).
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from pnp.data.editing import yamltext
from pnp.data.editing.cards import _encode, _read_text
from pnp.data.editing.yamltext import EditError

GEOMETRY = ("x", "y", "w", "h", "x2", "y2")
_LENGTH = re.compile(r"^\s*(-?(?:\d+\.?\d*|\.\d+))\s*(mm|cm|in|pt|%)?\s*$")
_PER_MM = {"mm": 1.0, "cm": 0.1, "in": 1 / 25.4, "pt": 72 / 25.4}


def unit_of(value: Any) -> str | None:
    """The unit a plain length is written in ('' for a bare number of mm), None for a template."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return ""
    match = _LENGTH.match(str(value)) if value is not None else None
    return (match[2] or "mm") if match else None


def written(mm: float, unit: str, side: float) -> Any:
    """`mm` as the file writes it in `unit` ('' a bare number; % of `side`), rounded to what a ruler
    reads (0.01 mm; 0.001 in other units)."""
    if unit == "":
        number = round(mm, 2)
        return int(number) if number == int(number) else number
    value = mm * 100 / side if unit == "%" else mm * _PER_MM[unit]
    text = f"{round(value, 2 if unit in ('mm', '%') else 3):f}".rstrip("0").rstrip(".")
    return f"{text or '0'}{unit}"


def _design(root: yaml.Node, where: str) -> yaml.MappingNode:
    group, _, key = where.partition(".")
    found = yamltext.lookup(root, group)
    design = yamltext.lookup(found[1], key) if found else None
    if design is None or not isinstance(design[1], yaml.MappingNode):
        raise EditError(f"no design {where} in the file (changed since the page loaded?)")
    return design[1]


def _elements(design: yaml.MappingNode, where: str) -> yaml.SequenceNode | None:
    found = yamltext.lookup(design, "elements")
    if found is None:
        return None
    if not isinstance(found[1], yaml.SequenceNode):
        raise EditError(f"{where}.elements is not a list; edit it in the file itself")
    return found[1]


def _mapping(node: yaml.Node, field: str) -> yaml.MappingNode:
    if not isinstance(node, yaml.MappingNode):
        raise EditError(f"{field} is not a mapping; edit it in the file itself")
    return node


def set_geometry(data: bytes, where: str, index: int, values: dict[str, Any]) -> bytes:
    """The file with element `index` of design `where` given `values` (as written: numbers or text)."""
    text = _read_text(data)
    seq = _elements(_design(yamltext.compose(text), where), where)
    if seq is None or not 0 <= index < len(seq.value):
        raise EditError(f"{where} has no element {index} (changed since the page loaded?)")
    item = _mapping(seq.value[index], f"{where}.elements[{index}]")
    return _encode(yamltext.set_values(text, item, values), data)


def override(data: bytes, where: str, name: str, parent: str, values: dict[str, Any]) -> bytes:
    """The file with `values` written as the override of the element named `name` in design `where`:
    into its override when it has one, else as a new one; a design that names built-in layout
    `parent` becomes `layout: custom` extending it."""
    text = _read_text(data)
    design = _design(yamltext.compose(text), where)
    layout = yamltext.lookup(design, "layout")
    if layout is None or not isinstance(layout[1], yaml.ScalarNode):
        raise EditError(f"{where} names no layout")
    if layout[1].value != "custom":
        text = yamltext.set_values(text, design, {"layout": "custom", "extends": parent})
        design = _design(yamltext.compose(text), where)
    seq = _elements(design, where)
    if seq is not None:
        for i, item in enumerate(seq.value):
            own = yamltext.lookup(item, "name") if isinstance(item, yaml.MappingNode) else None
            if own is not None and own[1].value == name:
                return set_geometry(_encode(text, data), where, i, values)
    entry = {"name": name, **values}
    if seq is None or not seq.value:
        flow = (
            "{" + ", ".join(f"{k}: {yamltext.render(v, flow=True, column=0)}" for k, v in entry.items()) + "}"
        )
        if seq is not None:  # `elements: []`
            return _encode(
                yamltext.apply(
                    text, [yamltext.Splice(seq.start_mark.index, seq.end_mark.index, f"[{flow}]")]
                ),
                data,
            )
        return _encode(_add_list(text, design, flow), data)
    if seq.flow_style:
        at = seq.value[-1].end_mark.index
        flow = ", ".join(f"{k}: {yamltext.render(v, flow=True, column=0)}" for k, v in entry.items())
        return _encode(yamltext.apply(text, [yamltext.Splice(at, at, f", {{{flow}}}")]), data)
    _, end = yamltext.item_span(text, seq, len(seq.value) - 1)
    return _encode(text[:end] + yamltext.new_item(text, seq, entry) + text[end:], data)


def _add_list(text: str, design: yaml.MappingNode, flow: str) -> str:
    """`elements:` added last to a block design mapping, holding one flow item."""
    if design.flow_style:
        raise EditError("the design is written on one line; give it an elements list in the file itself")
    column = design.value[0][0].start_mark.column
    at = yamltext.value_end(text, design.value[-1][1])
    at = at if at > 0 and text[at - 1] == "\n" else yamltext._line_end(text, at)
    lead = "" if at > 0 and text[at - 1] == "\n" else "\n"
    return text[:at] + f"{lead}{' ' * column}elements:\n{' ' * (column + 2)}- {flow}\n" + text[at:]
