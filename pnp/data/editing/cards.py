"""Where a card is written (its game's YAML database, or a CSV/XLSX row) and its file changed there.

`locate` finds the file of a component's card list; `change`, `duplicate` and `add` return the
new bytes of that file with one card changed, copied or added, every other byte as it was
(see yamltext and rows). `typed` turns the page's form into values of each field's type.
Nothing here writes a file: the caller checks the new bytes first (as `pnp check` would).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from pnp.data.editing import rows, yamltext
from pnp.data.editing.yamltext import REMOVE, EditError
from pnp.data.format.model import FieldSpec
from pnp.data.reading.tables import read_rows

EDITABLE = ("name", "copies", "text", "face", "back")  # besides the component's declared fields


@dataclass(frozen=True)
class Where:
    """The file a component's cards are written in."""

    path: Path  # the database, or the spreadsheet it names
    display: str  # as messages name it, relative to the project
    kind: str  # yaml | csv | xlsx
    component: str
    sheet: str | None = None


def _comp_node(text: str, comp_key: str) -> tuple[yaml.Node, yaml.MappingNode]:
    root = yamltext.compose(text)
    found = yamltext.lookup(root, "components")
    if found is None or not isinstance(found[1], yaml.SequenceNode):
        if yamltext.lookup(root, "variant") is not None:
            raise EditError(
                "this game is a variant: its cards are written in its base game's database; edit them there"
            )
        raise EditError("the database has no list of components")
    for comp in found[1].value:
        key = yamltext.lookup(comp, "key")
        if key is not None and isinstance(key[1], yaml.ScalarNode) and key[1].value == comp_key:
            cards = yamltext.lookup(comp, "cards")
            if cards is None:
                raise EditError(f"component {comp_key!r} has no cards")
            return cards[1], comp
    raise EditError(f"no component {comp_key!r} in the database (changed since the page loaded?)")


def locate(database: Path, root: Path, comp_key: str) -> Where:
    """The file that holds `comp_key`'s cards; EditError when it cannot be edited from the page."""
    text = _read_text(database.read_bytes())
    cards, _ = _comp_node(text, comp_key)
    rel = _relative(database, root)
    if isinstance(cards, yaml.SequenceNode) and not cards.flow_style:
        return Where(database, rel, "yaml", comp_key)
    source = yamltext.lookup(cards, "from") if isinstance(cards, yaml.MappingNode) else None
    if source is None or not isinstance(source[1], yaml.ScalarNode):
        raise EditError(
            f"component {comp_key!r} writes its cards in a way the page cannot edit; edit the file"
        )
    path = (database.parent / source[1].value).resolve()
    if not path.is_relative_to(root.resolve()) or not path.is_file():
        raise EditError(f"{source[1].value!r} is not a file inside the project")
    sheet = yamltext.lookup(cards, "sheet")
    kind = "xlsx" if path.suffix.lower() == ".xlsx" else "csv"
    return Where(path, _relative(path, root), kind, comp_key, sheet[1].value if sheet else None)


def _relative(path: Path, root: Path) -> str:
    return str(path.resolve().relative_to(root.resolve()))


def _read_text(data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise EditError("the file is not UTF-8 text right now; fix it first") from None


def _encode(text: str, original: bytes) -> bytes:
    bom = b"\xef\xbb\xbf" if original.startswith(b"\xef\xbb\xbf") else b""
    return bom + text.encode("utf-8")


def read(where: Where, data: bytes, key: str) -> dict[str, Any]:
    """The card's values as its file holds them (for the page's form)."""
    if where.kind == "yaml":
        for card in _yaml_cards(_read_text(data), where.component):
            if str(card.get("key")) == key:
                return card
    else:  # the loader's own reader, within its limits
        try:
            table = read_rows(where.path, where.sheet, data)
        except (OSError, ValueError, KeyError) as exc:
            raise EditError(f"{where.display} cannot be read right now ({exc}); fix it first") from None
        header = [str(h).strip() if h is not None else "" for h in table[0]] if table else []
        for r in table[1:] if "key" in header else []:
            cell = r[header.index("key")] if header.index("key") < len(r) else None
            if str(cell or "").strip() == key:
                return {h: v for h, v in zip(header, r) if h and str(v if v is not None else "").strip()}
    raise EditError(f"no card {key!r} in {where.display} (changed since the page loaded?)")


def _yaml_cards(text: str, comp_key: str) -> list[dict[str, Any]]:
    data = yaml.load(text, Loader=yamltext.LOADER)  # noqa: S506 - a safe loader
    for comp in data.get("components", []) if isinstance(data, dict) else []:
        if isinstance(comp, dict) and comp.get("key") == comp_key and isinstance(comp.get("cards"), list):
            return [c for c in comp["cards"] if isinstance(c, dict)]
    return []


def _card_index(text: str, comp_key: str, key: str) -> tuple[yaml.SequenceNode, int]:
    cards, _ = _comp_node(text, comp_key)
    if not isinstance(cards, yaml.SequenceNode):
        raise EditError(f"component {comp_key!r} has no card list in this file")
    for i, card in enumerate(cards.value):
        found = yamltext.lookup(card, "key")
        if found is not None and isinstance(found[1], yaml.ScalarNode) and found[1].value == key:
            return cards, i
    raise EditError(f"no card {key!r} in component {comp_key!r} (changed since the page loaded?)")


def _confirm(
    text: str, comp_key: str, index: int, changes: dict[str, Any], before: list[dict[str, Any]]
) -> None:
    """The edited text reads back as intended: the one card changed just so, every other card the same."""
    try:
        after = _yaml_cards(text, comp_key)
    except yaml.YAMLError:
        after = []
    expected = [dict(c) for c in before]
    if index == len(expected):
        expected.append({})
    for name, value in changes.items():
        if value is REMOVE:
            expected[index].pop(name, None)
        else:
            expected[index][name] = value
    norm = [{k: str(v) if k == "key" else v for k, v in c.items()} for c in expected]
    if [{k: str(v) if k == "key" else v for k, v in c.items()} for c in after] != norm:
        raise EditError("this value cannot be written into the file as it is laid out; edit the file itself")


def change(where: Where, data: bytes, key: str, changes: dict[str, Any]) -> bytes:
    """The file with card `key`'s values changed (REMOVE takes one out)."""
    if where.kind == "csv":
        return _encode(rows.csv_set(_read_text(data), key, changes), data)
    if where.kind == "xlsx":
        return rows.xlsx_set(data, where.sheet, key, changes)
    text = _read_text(data)
    before = _yaml_cards(text, where.component)
    cards, i = _card_index(text, where.component, key)
    new = yamltext.set_values(text, cards.value[i], changes)
    _confirm(new, where.component, i, changes, before)
    return _encode(new, data)


def duplicate(where: Where, data: bytes, key: str, changes: dict[str, Any]) -> bytes:
    """The file with a copy of card `key` right after it, changed by `changes` (a new key and name)."""
    if where.kind == "csv":
        return _encode(rows.csv_set(_read_text(data), key, changes, copy_after=True), data)
    if where.kind == "xlsx":
        return rows.xlsx_set(data, where.sheet, key, changes, copy_after=True)
    text = _read_text(data)
    before = _yaml_cards(text, where.component)
    cards, i = _card_index(text, where.component, key)
    start, end = yamltext.item_span(text, cards, i)
    copied = text[:end] + text[start:end] + text[end:]
    copied_cards, _ = _comp_node(copied, where.component)
    new = yamltext.set_values(copied, copied_cards.value[i + 1], changes)
    _confirm(
        new,
        where.component,
        i + 1,
        {**{k: v for k, v in before[i].items()}, **changes},
        before[: i + 1] + [{}] + before[i + 1 :],
    )
    return _encode(new, data)


def add(where: Where, data: bytes, values: dict[str, Any]) -> bytes:
    """The file with a new card (`values`, key and name first) after the last one."""
    values = {k: v for k, v in values.items() if v is not REMOVE}
    if where.kind == "csv":
        return _encode(rows.csv_add(_read_text(data), values), data)
    if where.kind == "xlsx":
        return rows.xlsx_set(data, where.sheet, None, values)
    text = _read_text(data)
    before = _yaml_cards(text, where.component)
    cards, _ = _comp_node(text, where.component)
    if not isinstance(cards, yaml.SequenceNode) or not cards.value:
        raise EditError("the component has no cards yet; write the first one in the file")
    _, end = yamltext.item_span(text, cards, len(cards.value) - 1)
    new = text[:end] + yamltext.new_item(text, cards, values) + text[end:]
    _confirm(new, where.component, len(before), values, before)
    return _encode(new, data)


def typed(form: dict[str, Any], fields: dict[str, FieldSpec]) -> dict[str, Any]:
    """The page's form (text in every box) as field values; an empty optional box is REMOVE.

    ValueError names the field and what it takes.
    """
    out: dict[str, Any] = {}
    for name, raw in form.items():
        if name not in fields and name not in (*EDITABLE, "key"):
            raise ValueError(f"{name}: not a field of this component")
        text = raw if isinstance(raw, str) else ("" if raw is None else str(raw))
        text = text.replace("\r\n", "\n")
        spec = fields.get(name)
        kind = "int" if name == "copies" else (spec.type if spec else "str")
        if not text.strip():
            if name in ("key", "name", "copies") or (
                spec is not None and spec.required and spec.default is None
            ):
                raise ValueError(f"{name}: every card needs one")
            out[name] = REMOVE
            continue
        out[name] = _value(name, text, kind, spec)
    return out


def _value(name: str, text: str, kind: str, spec: FieldSpec | None) -> Any:
    value: Any
    try:
        if kind == "int":
            value = int(text.strip())
        elif kind == "float":
            value = float(text.strip())
        elif kind == "bool":
            low = text.strip().lower()
            if low not in ("true", "false", "yes", "no"):
                raise ValueError
            value = low in ("true", "yes")
        elif kind == "list":
            value = [_scalar(v.strip()) for v in text.replace("\n", ";").split(";") if v.strip()]
        else:
            value = text if name == "text" else text.strip()
    except ValueError:
        what = {"int": "a whole number", "float": "a number", "bool": "true or false"}.get(kind, kind)
        raise ValueError(f"{name}: expected {what}, found {text!r}") from None
    if spec is not None and spec.choices is not None:
        for item in value if isinstance(value, list) else [value]:
            if item not in spec.choices:
                raise ValueError(f"{name}: {item!r} is not one of {', '.join(map(str, spec.choices))}")
    return value


def _scalar(text: str) -> Any:
    try:
        return int(text)
    except ValueError:
        return text
