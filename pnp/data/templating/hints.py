"""Template errors in a designer's words, with a did-you-mean from what the template can see.

jinja2 says `'dict object' has no attribute 'flavour'`; a designer wants to know
that the *card* has no field `flavour`, that `flavor` or `value` was perhaps
meant, and which fields there are. `explain` finds the name the template wrote
before `.flavour`, looks it up in the context the template ran with, and offers
the closest of its keys.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from typing import Any

_NO_ATTR = re.compile(r"^'(?P<what>[^']*)' has no attribute '(?P<name>[^']+)'$")
_UNDEFINED = re.compile(r"^'(?P<name>[^']+)' is undefined$")
_OWNER = {
    "card": "the card",
    "slots": "the design's slots",
    "game": "game",
    "palettes": "palettes",
    "facts": "facts",
    "mark": "mark",
}


def explain(message: str, source: Any, context: dict[str, Any]) -> str:
    """`message` (a jinja2 error's) reworded when it is about a missing name or attribute."""
    m = _NO_ATTR.match(message)
    if m:
        return _attribute(m["name"], _texts(source), context) or message
    m = _UNDEFINED.match(message)
    if m:
        known = sorted(k for k in context if not k.startswith("_"))
        return f"no name {m['name']!r} here{_guess(m['name'], known)}; templates see {', '.join(known)}"
    return message


def _attribute(name: str, texts: list[str], context: dict[str, Any]) -> str:
    """'the card has no field ...' when the template wrote `PATH.name` and PATH is a plain dotted path."""
    pattern = re.compile(
        r"([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\s*(?:\.\s*"
        + re.escape(name)
        + r"\b|\[\s*['\"]"
        + re.escape(name)
        + r"['\"]\s*\])"
    )
    for text in texts:
        for m in pattern.finditer(text):
            owner = _lookup(m.group(1), context)
            if isinstance(owner, dict):
                keys = sorted(str(k) for k in owner)
                what = _OWNER.get(m.group(1), m.group(1))
                noun = "field" if m.group(1) == "card" else "key"
                listed = ", ".join(keys[:30]) + (", ..." if len(keys) > 30 else "")
                return f"{what} has no {noun} {name!r}{_guess(name, keys)}; it has {listed or 'none'}"
    return ""


def _lookup(path: str, context: dict[str, Any]) -> Any:
    value: Any = context
    for part in path.split("."):
        if not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return value


def _guess(name: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _texts(source: Any) -> list[str]:
    """The strings inside a template value (a string, or lists and mappings of them)."""
    if isinstance(source, str):
        return [source]
    if isinstance(source, dict):
        return [t for v in source.values() for t in _texts(v)]
    if isinstance(source, (list, tuple)):
        return [t for v in source for t in _texts(v)]
    return []
