"""The option shape of each kind of composition rule, checked when a database loads.

The model types a rule's options loosely (`expected` may be a number or a
mapping, `fields` a list or a mapping), because what they mean depends on the
rule's `check`. This module states, per kind, which options it needs, which it
takes, and the shape of each, so a wrong shape is a located input error
(`file:line: field: problem`) at load time and never an exception in the checker.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import jinja2

from pnp.data.format.errors import Problem
from pnp.data.format.facts import FACT_RULE_NEEDS
from pnp.data.format.limits import MAX_RULE_COMBINATIONS, MAX_TEXT
from pnp.data.format.model import CARD_RESERVED, Component, Rule
from pnp.data.reading.yamlsrc import line_of
from pnp.data.templating.engine import compile_expr

BOUNDS = ("expected", "min", "max")


@dataclass(frozen=True)
class Shape:
    """What one kind of rule takes: options it needs, options it accepts, one of which it needs."""

    needs: tuple[str, ...] = ()
    takes: frozenset[str] = frozenset()
    one_of: tuple[str, ...] = ()


SHAPES: dict[str, Shape] = {
    "total": Shape((), frozenset({"expected", "min", "max", "where"}), BOUNDS),
    "count": Shape(("where",), frozenset({"expected", "min", "max", "where"}), BOUNDS),
    "count_by": Shape(("field", "expected"), frozenset({"field", "expected", "where"})),
    "unique": Shape(("fields",), frozenset({"fields", "where"})),
    "each_once": Shape(("fields",), frozenset({"fields", "where"})),
    "balance": Shape(("field",), frozenset({"field", "fields", "where"})),
    "links": Shape(("field",), frozenset({"field", "where", "symmetric", "inverse"})),
    "expr": Shape(("expr",), frozenset({"expr", "params", "player_counts"})),
    # rules over the game's facts (pnp.data.format.facts, checked by pnp.rules.factcheck)
    "fact": Shape(FACT_RULE_NEEDS["fact"], frozenset({"fact", "expected", "min", "max"}), BOUNDS),
    "players": Shape(FACT_RULE_NEEDS["players"], frozenset({"fact", "min", "max"})),
    "bands": Shape(FACT_RULE_NEEDS["bands"], frozenset({"fact", "min", "max"})),
}
FACT_KINDS = frozenset({"fact", "players", "bands"})
OPTIONS = (
    "expected",
    "min",
    "max",
    "field",
    "fields",
    "where",
    "expr",
    "params",
    "symmetric",
    "inverse",
    "fact",
    "player_counts",
)
_EMPTY: dict[str, Any] = {
    "expected": None,
    "min": None,
    "max": None,
    "field": None,
    "fields": None,
    "where": {},
    "expr": None,
    "params": {},
    "symmetric": False,
    "inverse": None,
    "fact": None,
    "player_counts": None,
}


def _scalar(value: Any) -> bool:
    return isinstance(value, (str, int, float, bool)) and not (
        isinstance(value, float) and not math.isfinite(value)
    )


def _count(value: Any) -> bool:
    """A card count: a whole number, zero or more (true/false are not numbers here)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _found(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, (list, tuple)):
        return "a list"
    text = repr(value)
    return f"{type(value).__name__.replace('str', 'text')} {text[:40] + '...' if len(text) > 40 else text}"


class _RuleCheck:
    """Collects the shape problems of one rule, each at the line of the option it is about."""

    def __init__(self, file: str, comp: Component, rule: Rule, raw: Any, where: str):
        self.file, self.comp, self.rule, self.raw, self.where = file, comp, rule, raw, where
        self.problems: list[Problem] = []

    def fail(self, option: str | None, message: str) -> None:
        line = (
            line_of(self.raw, option, self.rule.line) if option else line_of(self.raw, None, self.rule.line)
        )
        self.problems.append(
            Problem(self.file, line, f"{self.where}.{option}" if option else self.where, message)
        )

    def field_name(self, option: str, name: Any) -> None:
        known = list(self.comp.fields) + list(CARD_RESERVED)
        if not isinstance(name, str):
            self.fail(option, f"expected a field name, found {_found(name)}")
        elif name not in known:
            close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            self.fail(
                option,
                f"rule names unknown field {name!r}{hint}; fields of {self.comp.key!r}: "
                f"{', '.join(self.comp.fields) or 'none'}",
            )

    def values(self, option: str, items: Any, what: str) -> None:
        """A list of plain values (text, numbers, true/false)."""
        if not isinstance(items, (list, tuple)):
            self.fail(option, f"expected a list of {what}, found {_found(items)}")
            return
        bad = [v for v in items if not _scalar(v)]
        if bad:
            self.fail(option, f"expected a list of {what}, found {_found(bad[0])} in it")


def check_rule(file: str, comp: Component, rule: Rule, raw: Any, where: str) -> list[Problem]:
    """Every shape problem of one rule: missing, unused and mistyped options."""
    r = _RuleCheck(file, comp, rule, raw, where)
    shape = SHAPES[rule.check]
    given = {o for o in OPTIONS if getattr(rule, o) != _EMPTY[o]}
    for need in shape.needs:
        if need not in given:
            r.fail(None, f"rule {rule.check!r} needs {need!r}")
    if shape.one_of and not given & set(shape.one_of):
        r.fail(None, f"rule {rule.check!r} needs {' or '.join(repr(o) for o in shape.one_of)}")
    for extra in sorted(given - shape.takes):
        r.fail(
            extra, f"rule {rule.check!r} does not use {extra!r}; it takes {', '.join(sorted(shape.takes))}"
        )
    for option in sorted(given & shape.takes):
        _CHECKS[option](r)
    return r.problems


def _expected(r: _RuleCheck) -> None:
    value = r.rule.expected
    if r.rule.check == "fact":  # any value the fact must equal; only not together with bounds
        if any(getattr(r.rule, o) is not None for o in ("min", "max")):
            r.fail("expected", "give either 'expected' or 'min'/'max', not both")
        return
    if r.rule.check == "count_by":
        if not isinstance(value, dict):
            r.fail("expected", f"expected a mapping of value to card count, found {_found(value)}")
            return
        for key, n in value.items():
            if not _scalar(key):
                r.fail("expected", f"a value must be text or a number, found {_found(key)}")
            if not _count(n):
                r.fail("expected", f"{key}: expected a card count (0 or more), found {_found(n)}")
    elif not _count(value):
        r.fail("expected", f"expected a card count (a whole number, 0 or more), found {_found(value)}")
    elif any(getattr(r.rule, o) is not None for o in ("min", "max")):
        r.fail("expected", "give either 'expected' or 'min'/'max', not both")


def _bound(option: str) -> Callable[[_RuleCheck], None]:
    def check(r: _RuleCheck) -> None:
        value = getattr(r.rule, option)
        if r.rule.check in FACT_KINDS:  # bounds on a fact or a player count: any number
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                r.fail(option, f"expected a number, found {_found(value)}")
            elif option == "max" and isinstance(r.rule.min, (int, float)) and r.rule.min > value:
                r.fail(option, f"max {value} is below min {r.rule.min}")
            return
        if not _count(value):
            r.fail(option, f"expected a card count (a whole number, 0 or more), found {_found(value)}")
        elif option == "max" and _count(r.rule.min) and r.rule.min > value:
            r.fail(option, f"max {value} is below min {r.rule.min}")

    return check


def _field(r: _RuleCheck) -> None:
    r.field_name("field", r.rule.field)


def _fields(r: _RuleCheck) -> None:
    fields = r.rule.fields
    if r.rule.check == "unique":
        if not isinstance(fields, (list, tuple)) or not fields:
            r.fail("fields", f"expected a list of field names, found {_found(fields)}")
            return
        for name in fields:
            r.field_name("fields", name)
    elif r.rule.check == "each_once":
        if not isinstance(fields, dict) or not fields:
            r.fail("fields", f"expected a mapping of field name to its values, found {_found(fields)}")
            return
        for name, values in fields.items():
            r.field_name("fields", name)
            r.values("fields", values, f"values of {name}")
    else:  # balance: the values of `field` that must come out even
        r.values("fields", fields, f"values of {r.rule.field}")


def _where(r: _RuleCheck) -> None:
    where = r.rule.where
    if not isinstance(where, dict):
        r.fail("where", f"expected a mapping of field name to value(s), found {_found(where)}")
        return
    for name, want in where.items():
        r.field_name("where", name)
        if isinstance(want, (list, tuple)):
            r.values("where", want, f"values of {name}")
        elif not _scalar(want) and want is not None:
            r.fail("where", f"{name}: expected a value or a list of values, found {_found(want)}")


def _expr(r: _RuleCheck) -> None:
    expr = r.rule.expr
    if not isinstance(expr, str):
        r.fail("expr", f"expected a jinja2 expression, found {_found(expr)}")
        return
    if len(expr) > MAX_TEXT:
        r.fail("expr", f"expression is {len(expr)} characters long; the limit is {MAX_TEXT}")
        return
    try:
        compile_expr(expr)
    except jinja2.TemplateSyntaxError as exc:
        r.fail("expr", f"expression syntax: {exc.message}")


def _params(r: _RuleCheck) -> None:
    params = r.rule.params
    if not isinstance(params, dict):
        r.fail("params", f"expected a mapping of name to a list of values, found {_found(params)}")
        return
    combos = 1
    for name, values in params.items():
        if not isinstance(name, str) or not name.isidentifier():
            r.fail("params", f"a parameter name must be a plain word, found {_found(name)}")
        r.values("params", values, f"values of {name}")
        combos *= max(1, len(values)) if isinstance(values, (list, tuple)) else 1
    if combos > MAX_RULE_COMBINATIONS:
        r.fail("params", f"{combos} combinations to check; the limit is {MAX_RULE_COMBINATIONS}")


def _flag(r: _RuleCheck) -> None:
    if not isinstance(r.rule.symmetric, bool):
        r.fail("symmetric", f"expected true or false, found {_found(r.rule.symmetric)}")


def _inverse(r: _RuleCheck) -> None:
    r.field_name("inverse", r.rule.inverse)


def _fact(r: _RuleCheck) -> None:
    path = r.rule.fact
    if not isinstance(path, str) or not path or any(not part for part in path.split(".")):
        r.fail(
            "fact",
            f"expected a dotted path into the facts (e.g. set_aside.two_players), found {_found(path)}",
        )


def _player_counts(r: _RuleCheck) -> None:
    path = r.rule.player_counts
    if not isinstance(path, str) or not path or any(not part for part in path.split(".")):
        r.fail(
            "player_counts",
            f"expected `game` or a dotted path to a {{min, max}} range in the facts "
            f"(e.g. variants.main.players), found {_found(path)}",
        )
    elif isinstance(r.rule.params, dict) and "players" in r.rule.params:
        r.fail("player_counts", "player_counts sets `players` itself; drop `players` from params")


_CHECKS: dict[str, Callable[[_RuleCheck], None]] = {
    "expected": _expected,
    "min": _bound("min"),
    "max": _bound("max"),
    "field": _field,
    "fields": _fields,
    "where": _where,
    "expr": _expr,
    "params": _params,
    "symmetric": _flag,
    "inverse": _inverse,
    "fact": _fact,
    "player_counts": _player_counts,
}
