"""A plain name or dotted path in a template is read directly, with the answer jinja2 gives."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import jinja2
import jinja2.sandbox
import pytest

from pnp.data.templating.engine import compile_expr


@dataclass(frozen=True)
class Card:
    name: str
    values: dict[str, Any]


CONTEXT: dict[str, Any] = {
    "deep": 3.5,
    "style": {"paper": "#fbf6ea", "items": [1, 2]},
    "card": Card("Moth", {"suit": "moon"}),
    "slots": {"values": "a key that is also a dict method"},
}


@pytest.mark.parametrize(
    "expr, expected",
    [
        ("deep", 3.5),
        ("style.paper", "#fbf6ea"),
        ("style.items", None),  # a key whose name a dict method also has: jinja2 finds the method first
        ("card.name", "Moth"),
        ("card.values.suit", "moon"),
        ("slots.values", None),  # the method wins in jinja2 too; both say the same below
    ],
)
def test_a_path_reads_as_jinja2_reads_it(expr: str, expected: Any) -> None:
    env = jinja2.sandbox.ImmutableSandboxedEnvironment(undefined=jinja2.StrictUndefined)
    want = env.compile_expression(expr, undefined_to_none=False)(**CONTEXT)
    got = compile_expr(expr)(**CONTEXT)
    if expected is None:  # the method: both hand it back
        assert callable(want) and callable(got)
    else:
        assert got == want == expected


@pytest.mark.parametrize("expr", ["nope", "card.nope", "style.paper.nope"])
def test_a_missing_name_is_jinja2s_error(expr: str) -> None:
    with pytest.raises(jinja2.UndefinedError):
        compile_expr(expr)(**CONTEXT)
