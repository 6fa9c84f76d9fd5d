"""Game facts: the numbers and tables a game's rules state, kept once in the database.

A database's `facts:` mapping holds every number or table that booklets,
reference cards, the combat engine and the statistics use (set-aside counts,
hand sizes, the Nasty Hits table...). Templates read it as `facts`, rule
expressions too, and the engines get typed copies built here (`combat_rules`,
`nasty_table`), because `pnp.engines` may not import the database model.

The rule kinds that check facts, and the options each one needs, are declared
here in `FACT_RULE_NEEDS` (the loader merges them into its table of rule shapes).
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Any

from pnp.engines.combat import CombatRules
from pnp.engines.nasty_hits import NastyHitEffect, NastyTable

# Rule kinds over facts and the options each needs (see docs/facts.md):
#   fact     `fact` (a dotted path) and `expected` (any value) or `min`/`max` (numbers)
#   players  `min` and `max`; optional `fact` naming a {min, max} range (a variant's players)
#   bands    `fact` naming a list of rows with `from`/`to` (null = open), `min` (first row: that or
#            less) and `max` (last row: that or more); rows must follow on without gap or overlap
FACT_RULE_NEEDS: dict[str, tuple[str, ...]] = {
    "fact": ("fact",),
    "players": ("min", "max"),
    "bands": ("fact", "min", "max"),
}
FACT_RULE_KINDS = tuple(FACT_RULE_NEEDS)


class MissingFact(KeyError):
    """A dotted path that names no fact; the message says which step failed and what is there."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "missing fact"


def _step(node: Any, part: str) -> tuple[bool, Any]:
    if isinstance(node, Mapping):
        for key in (part, int(part) if part.lstrip("-").isdigit() else None):
            if key is not None and key in node:
                return True, node[key]
        return False, None
    if isinstance(node, (list, tuple)) and part.isdigit() and int(part) < len(node):
        return True, node[int(part)]
    return False, None


def lookup(facts: Mapping[str, Any], path: str) -> Any:
    """The fact at a dotted path (`set_aside.two_players`, `ladies_needed.5`); MissingFact if none."""
    node: Any = facts
    done: list[str] = []
    for part in str(path).split("."):
        found, nxt = _step(node, part)
        if not found:
            here = ".".join(done) or "facts"
            keys = [str(k) for k in node] if isinstance(node, Mapping) else []
            close = difflib.get_close_matches(part, keys, n=1)
            hint = (
                f" (did you mean {close[0]!r}?)"
                if close
                else (f"; {here} has {', '.join(keys)}" if keys else "")
            )
            raise MissingFact(f"no fact {path!r}: {here} has no {part!r}{hint}")
        node, done = nxt, done + [part]
    return node


def plain(value: Any) -> Any:
    """A fact as plain comparable data: mapping keys as text, lists for every sequence."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def band_label(low: Any, high: Any) -> str:
    """How a band reads in a table: ≤0, 5, 3-4, ≥11."""
    if low is None:
        return f"\u2264{high}"
    if high is None:
        return f"\u2265{low}"
    return str(low) if low == high else f"{low}-{high}"


def nasty_table(facts: Mapping[str, Any]) -> NastyTable:
    """The Nasty Hits table of `facts.nasty_hits` for the engine (KeyError/ValueError when malformed)."""
    spec = lookup(facts, "nasty_hits")
    rows = tuple(
        NastyHitEffect(
            band_label(r.get("from"), r.get("to")),
            r.get("from"),
            r.get("to"),
            str(r["name"]),
            str(r["text"]),
            str(r.get("damage", "full")),
            bool(r.get("fatal", False)),
        )
        for r in spec["rows"]
    )
    return NastyTable(
        rows,
        int(spec["threshold"]),
        str(spec["joker_damage"]),
        int(spec.get("per_damage", 1)),
        int(spec["black_trump"]),
        int(spec["red_trump"]),
    )


def combat_rules(facts: Mapping[str, Any]) -> CombatRules:
    """The alternative combat's numbers of `facts.combat` and `facts.nasty_hits` for the engine."""
    combat = lookup(facts, "combat")
    return CombatRules(
        tuple(combat["damage_steps"]),
        int(lookup(facts, "ace_of_spades.multiplier")),
        int(lookup(facts, "nasty_hits.threshold")),
        int(combat.get("trump_step", 1)),
        int(combat.get("points_divisor", 2)),
    )


def with_labels(value: Any) -> Any:
    """Facts as templates see them: every row with `from` and `to` (a band) also gets its `label`."""
    if isinstance(value, Mapping):
        out = {k: with_labels(v) for k, v in value.items()}
        if "from" in value and "to" in value and "label" not in value:
            out["label"] = band_label(value.get("from"), value.get("to"))
        return out
    if isinstance(value, (list, tuple)):
        return [with_labels(v) for v in value]
    return value
