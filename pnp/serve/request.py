"""The card editor's save request, checked for shape before the editor reads any file.

The page sends `{game, component, card, digest, action, values}` with every value as text. A
field of another type, an unknown field, text over the limits or a control character in a
value is refused here with a message naming the field (the server answers 400). Only the
card's `text` may hold line breaks and tabs; every other value is one line of printable text,
so nothing a YAML, CSV or XLSX file cannot hold as typed ever reaches the writers.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any

from pnp.data.format.limits import MAX_TEXT

ACTIONS = ("change", "duplicate", "add")
FIELDS = ("game", "component", "card", "digest", "action", "values")
MAX_NAME = 200  # characters of a game, component, card key or field name
MAX_VALUES = 200  # fields in one save
MULTI_LINE = ("text",)  # the form's one text area: line breaks and tabs allowed


class BadRequest(ValueError):
    """A request of the wrong shape; the message names the field."""


@dataclass(frozen=True)
class SaveRequest:
    game: str
    component: str
    card: str
    digest: str
    action: str
    values: dict[str, str]

    @classmethod
    def parse(cls, body: dict[str, Any]) -> SaveRequest:
        unknown = [str(k)[:MAX_NAME] for k in body if k not in FIELDS]
        if unknown:
            raise BadRequest(f"{', '.join(unknown[:5])}: not a field of a save; send {', '.join(FIELDS)}")
        action = _text(body, "action", MAX_NAME, "change")
        if action not in ACTIONS:
            raise BadRequest(f"action: one of {', '.join(ACTIONS)}, found {action[:MAX_NAME]!r}")
        values = body.get("values")
        if not isinstance(values, dict):
            raise BadRequest(f"values: expected an object of field: text, found {_kind(values)}")
        if len(values) > MAX_VALUES:
            raise BadRequest(f"values: more than {MAX_VALUES} fields")
        checked: dict[str, str] = {}
        for name, value in values.items():
            _line(f"values: the field name {name[:MAX_NAME]!r}", name, MAX_NAME)
            if value is None:
                value = ""
            if not isinstance(value, str):
                raise BadRequest(f"values.{name}: expected text, found {_kind(value)}")
            if len(value) > MAX_TEXT:
                raise BadRequest(f"values.{name}: longer than {MAX_TEXT} characters")
            value = value.replace("\r\n", "\n")
            bad = _unwritable(value, multi_line=name in MULTI_LINE)
            if bad:
                raise BadRequest(f"values.{name}: holds {bad}; type it without that character")
            checked[name] = value
        return cls(
            _line("game", _text(body, "game", MAX_NAME), MAX_NAME),
            _line("component", _text(body, "component", MAX_NAME), MAX_NAME),
            _line("card", _text(body, "card", MAX_NAME), MAX_NAME),
            _text(body, "digest", MAX_NAME),
            action,
            checked,
        )


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", bool: "true/false", type(None): "null"}.get(
        type(value), type(value).__name__
    )


def _text(body: dict[str, Any], name: str, limit: int, default: str = "") -> str:
    value = body.get(name)
    if value is None:
        return default
    if not isinstance(value, str):
        raise BadRequest(f"{name}: expected text, found {_kind(value)}")
    if len(value) > limit:
        raise BadRequest(f"{name}: longer than {limit} characters")
    return value


def _line(what: str, value: str, limit: int) -> str:
    if len(value) > limit:
        raise BadRequest(f"{what}: longer than {limit} characters")
    bad = _unwritable(value, multi_line=False)
    if bad:
        raise BadRequest(f"{what}: holds {bad}")
    return value


def _unwritable(text: str, multi_line: bool) -> str | None:
    """The first character a card file cannot hold as typed, described; None when there is none.

    Control characters (NUL, escape, DEL, C1 ...), lone surrogates and the noncharacters U+FFFE and
    U+FFFF; a tab, line break or carriage return too unless `multi_line` (a lone CR never)."""
    for ch in text:
        if multi_line and ch in "\n\t":
            continue
        if unicodedata.category(ch) in ("Cc", "Cs") or ch in "\ufffe\uffff":
            name = {"\t": "a tab", "\n": "a line break", "\r": "a carriage return"}.get(ch)
            return name or f"the control character U+{ord(ch):04X}"
    return None
