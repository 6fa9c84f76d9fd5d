"""The composition checker: evaluates a database's declarative rules, no game-specific code."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import asdict, astuple, dataclass, replace
from typing import Any

from pnp.data.format.facts import FACT_RULE_KINDS, MissingFact
from pnp.data.format.model import CardType, Component, Game, Rule
from pnp.data.templating.engine import compile_expr
from pnp.rules import playable
from pnp.rules.deck import Deck, matches, norm
from pnp.rules.factcheck import check_fact_rule


@dataclass(frozen=True)
class Violation:
    """A rule that does not hold, with what it wanted and what the database has."""

    game: str
    component: str
    rule: str
    expected: str
    found: str
    severity: str = "error"
    file: str = ""
    line: int = 0

    def __str__(self) -> str:
        level = "warning" if self.severity == "warning" else "broken"
        return (
            f"{self.game} / {self.component}: {level}: {self.rule}: expected {self.expected}, "
            f"found {self.found}  ({self.file}:{self.line})"
        )

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def _cards(comp: Component, where: dict[str, Any]) -> list[CardType]:
    return [c for c in comp.cards if matches(c, where)]


def _copies(cards: Iterable[CardType]) -> int:
    return sum(c.copies for c in cards)


def _bounds(rule: Rule, found: int) -> tuple[bool, str]:
    if rule.expected is not None:
        return found == int(rule.expected), str(rule.expected)
    lo, hi = rule.min, rule.max
    ok = (lo is None or found >= lo) and (hi is None or found <= hi)
    text = (
        f"between {lo} and {hi}"
        if lo is not None and hi is not None
        else (f"at least {lo}" if lo is not None else f"at most {hi}")
    )
    return ok, text


def _label(rule: Rule) -> str:
    return rule.id or rule.describe or rule.check


def check_component(game: Game, comp: Component) -> list[Violation]:
    """Every violated rule of one component."""
    out: list[Violation] = []

    def fail(rule: Rule, expected: Any, found: Any, detail: str = "") -> None:
        name = _label(rule) + (f" [{detail}]" if detail else "")
        out.append(
            Violation(
                game.game.name,
                comp.key,
                name,
                str(expected),
                str(found),
                rule.severity,
                game.where,
                rule.line,
            )
        )

    for rule in comp.rules:
        check = CHECKS.get(rule.check)
        if check is not None:
            check(game, comp, rule, _cards(comp, rule.where), fail)
    return out


Fail = Callable[..., None]  # fail(rule, expected, found, detail=""): report a broken rule


def _tally(cards: list[CardType], fields: list[str]) -> Counter[tuple[str, ...]]:
    """Cards (copies included) per combination of the fields' values."""
    seen: Counter[tuple[str, ...]] = Counter()
    for c in cards:
        seen[tuple(norm(c.get(f)) for f in fields)] += c.copies
    return seen


def _count(game: Game, comp: Component, rule: Rule, cards: list[CardType], fail: Fail) -> None:
    found = _copies(cards)
    ok, expected = _bounds(rule, found)
    if not ok:
        fail(rule, f"{expected} cards", f"{found}")


def _count_by(game: Game, comp: Component, rule: Rule, cards: list[CardType], fail: Fail) -> None:
    by_value = {combo[0]: n for combo, n in _tally(cards, [str(rule.field)]).items()}
    wanted = {norm(k): int(v) for k, v in (rule.expected or {}).items()}
    for value, n in wanted.items():
        if by_value.get(value, 0) != n:
            fail(rule, f"{n} with {rule.field} {value}", by_value.get(value, 0), f"{rule.field}={value}")
    for value, n in sorted(by_value.items()):
        if value not in wanted and n:
            fail(rule, f"no card with {rule.field} {value}", n, f"{rule.field}={value}")


def _unique(game: Game, comp: Component, rule: Rule, cards: list[CardType], fail: Fail) -> None:
    fields = list(rule.fields)
    for combo, n in sorted(_tally(cards, fields).items()):
        if n > 1:
            fail(rule, "at most 1 card", n, ", ".join(f"{f}={v}" for f, v in zip(fields, combo)))


def _each_once(game: Game, comp: Component, rule: Rule, cards: list[CardType], fail: Fail) -> None:
    fields = list(rule.fields)
    hits = _tally(cards, fields)
    combos = set(itertools.product(*[[norm(v) for v in rule.fields[f]] for f in fields]))
    for combo in sorted(combos):
        if hits.get(combo, 0) != 1:
            fail(
                rule,
                "exactly 1 card",
                hits.get(combo, 0),
                ", ".join(f"{f}={v}" for f, v in zip(fields, combo)),
            )
    for combo, n in sorted(hits.items()):
        if combo not in combos and n:
            fail(rule, "no such card", n, ", ".join(f"{f}={v}" for f, v in zip(fields, combo)))


def _balance(game: Game, comp: Component, rule: Rule, cards: list[CardType], fail: Fail) -> None:
    tally = {combo[0]: n for combo, n in _tally(cards, [str(rule.field)]).items()}
    values = [norm(v) for v in rule.fields] if rule.fields else sorted(tally)
    per_value = {v: tally.get(v, 0) for v in values}
    if len(set(per_value.values())) > 1:
        fail(
            rule,
            f"equal counts of {rule.field} " + " / ".join(values),
            ", ".join(f"{v} {n}" for v, n in per_value.items()),
        )


def _links(game: Game, comp: Component, rule: Rule, cards: list[CardType], fail: Fail) -> None:
    """Every link names a card of the component, and (with symmetric/inverse) is returned."""
    by_key = {c.key: c for c in comp.cards}
    back_field = rule.inverse or (rule.field if rule.symmetric else None)
    for card in cards:
        for target in card.get(rule.field) or []:
            other = by_key.get(str(target))
            if other is None:
                fail(
                    rule,
                    f"{rule.field} to an existing card",
                    f"{card.key} -> {target} (no such card)",
                    card.key,
                )
                continue
            if back_field and card.key not in [str(k) for k in (other.get(back_field) or [])]:
                fail(
                    rule,
                    f"{target}.{back_field} to list {card.key}",
                    f"{target}.{back_field} = {list(other.get(back_field) or [])}",
                    f"{card.key} -> {target}",
                )


def _expr(game: Game, comp: Component, rule: Rule, cards: list[CardType], fail: Fail) -> None:
    fn = compile_expr(rule.expr or "true")
    params = dict(rule.params)
    if rule.player_counts:
        try:
            params = {"players": tuple(playable.player_counts(game, rule.player_counts)), **params}
        except (MissingFact, ValueError) as exc:
            fail(rule, f"player_counts: {rule.player_counts}", str(exc))
            return
    names = list(params)
    players = {"min": game.game.players.min, "max": game.game.players.max}
    for combo in itertools.product(*[params[n] for n in names]) if names else [()]:
        env = {
            "deck": Deck(comp),
            "facts": game.facts,
            "game": {"players": players},
            **dict(zip(names, combo)),
        }
        try:
            ok = bool(fn(**env))
        except Exception as exc:  # a broken expression is a broken rule, reported as such
            fail(rule, rule.describe or rule.expr, f"error evaluating {rule.expr!r}: {exc}")
            continue
        if not ok:
            detail = ", ".join(f"{n}={v}" for n, v in zip(names, combo))
            fail(rule, rule.describe or rule.expr, f"false for {rule.expr}", detail)


CHECKS: dict[str, Callable[[Game, Component, Rule, list[CardType], Fail], None]] = {
    "total": _count,
    "count": _count,
    "count_by": _count_by,
    "unique": _unique,
    "each_once": _each_once,
    "balance": _balance,
    "links": _links,
    "expr": _expr,
    **{
        kind: lambda game, comp, rule, cards, fail: check_fact_rule(game, rule, fail)
        for kind in FACT_RULE_KINDS
    },
}

FACTS = "facts"  # the name game-level rules report under, as if they were a component


def check_game(game: Game) -> list[Violation]:
    """Every violation of the game's own rules (over its facts) and of every component's.

    A stacked deck (a variant) is judged by `pnp.rules.playable`: its broken essential rules
    stay errors only when some way to play keeps no player count; otherwise they are warnings,
    and either way a `playable` line names the player counts the deck still serves."""
    own = Component(key=FACTS, kind="reference", name="facts", rules=game.rules)
    found = check_component(game, own)
    if not game.variant:
        return found + [v for comp in game.components for v in check_component(game, comp)]
    essential: list[Violation] = []
    for comp in game.components:
        found += check_component(game, replace(comp, rules=tuple(r for r in comp.rules if not r.essential)))
        essential += check_component(game, replace(comp, rules=tuple(r for r in comp.rules if r.essential)))
    if not essential:
        return found
    ways = playable.ways(game, check_component)
    level = "error" if playable.refused(ways) else "warning"
    comp = game.components[0]
    summary = Violation(
        game.game.name,
        comp.key,
        playable.VERDICT_RULE,
        "every way to play keeps a player count it can be played with",
        playable.verdict(ways),
        level,
        game.where,
        comp.line,
    )
    return found + [summary] + [replace(v, severity=level) for v in essential]


def checked(game: Game) -> list[Violation]:
    """`check_game(game)`, kept in the disk cache with the game: an unchanged game's rules are not
    evaluated again (they compile expressions). What `pnp check`, `pnp build` and `pnp serve` report."""
    # lazy: the loader (and its cache) only when rules are checked
    from pnp.data.reading.loader import (
        derived,  # lazy: the checker itself needs no loader
    )

    rows = derived("rule-check", game, (), lambda: [astuple(v) for v in check_game(game)])
    return [Violation(*row) for row in rows]
