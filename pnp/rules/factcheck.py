"""Rules over a game's facts: a fact's value (`fact`), player ranges (`players`) and tables of
value bands that must cover a range without gap or overlap (`bands`).

The option shapes of these kinds are declared in `pnp.data.format.facts.FACT_RULE_NEEDS`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pnp.data.format.facts import MissingFact, lookup, plain
from pnp.data.format.model import Game, Rule

Fail = Callable[..., None]


def check_fact_rule(game: Game, rule: Rule, fail: Fail) -> None:
    """Evaluate one rule of kind fact, players or bands; report through `fail(rule, expected, found, detail)`."""
    try:
        if rule.check == "fact":
            _fact(game, rule, fail)
        elif rule.check == "players":
            _players(game, rule, fail)
        elif rule.check == "bands":
            _bands(game, rule, fail)
    except MissingFact as exc:
        fail(rule, f"fact {rule.fact}", str(exc), rule.fact or "")
    except (TypeError, ValueError, AttributeError) as exc:  # a fact of the wrong shape is a broken rule
        fail(
            rule,
            f"fact {rule.fact} in the shape {rule.check} needs",
            f"{type(exc).__name__}: {exc}",
            rule.fact or "",
        )


def _fact(game: Game, rule: Rule, fail: Fail) -> None:
    value = plain(lookup(game.facts, rule.fact or ""))
    if rule.expected is not None:
        if value != plain(rule.expected):
            fail(rule, f"{rule.fact} = {plain(rule.expected)}", value, rule.fact or "")
        return
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        fail(rule, f"{rule.fact}: a number", value, rule.fact or "")
        return
    if (rule.min is not None and value < rule.min) or (rule.max is not None and value > rule.max):
        fail(rule, f"{rule.fact} between {rule.min} and {rule.max}", value, rule.fact or "")


def _players(game: Game, rule: Rule, fail: Fail) -> None:
    whole = game.game.players
    if rule.fact:
        found = lookup(game.facts, rule.fact)
        low = found.get("min") if isinstance(found, dict) else None
        high = found.get("max") if isinstance(found, dict) else None
        where = rule.fact
        if isinstance(low, int) and isinstance(high, int) and not whole.min <= low <= high <= whole.max:
            fail(rule, f"{where} inside the game's {whole.min}-{whole.max} players", f"{low}-{high}", where)
    else:
        low, high, where = whole.min, whole.max, "game.players"
    if (low, high) != (rule.min, rule.max):
        fail(rule, f"{rule.min}-{rule.max} players", f"{low}-{high}", where)


def _bound(value: Any) -> int | None:
    return None if value is None else int(value)


def _bands(game: Game, rule: Rule, fail: Fail) -> None:
    rows = lookup(game.facts, rule.fact or "")
    where = rule.fact or ""
    if not isinstance(rows, list) or not rows:
        fail(rule, f"{where}: a list of rows with from/to", rows, where)
        return
    bands: list[tuple[int | None, int | None]] = []
    for i, row in enumerate(rows):
        if not isinstance(row, dict) or "from" not in row or "to" not in row:
            fail(rule, "every row gives from and to (null = open)", row, f"{where}[{i}]")
            return
        bands.append((_bound(row["from"]), _bound(row["to"])))
    first_low, first_high = bands[0]
    if first_low is not None or first_high != rule.min:
        fail(rule, f"the first row covers {rule.min} or less", _show(bands[0]), f"{where}[0]")
    last_low, last_high = bands[-1]
    if last_high is not None or last_low != rule.max:
        fail(rule, f"the last row covers {rule.max} or more", _show(bands[-1]), f"{where}[{len(bands) - 1}]")
    for i, (low, high) in enumerate(bands):
        if i and low is None or i < len(bands) - 1 and high is None:
            fail(
                rule,
                "only the first row open below and the last open above",
                _show((low, high)),
                f"{where}[{i}]",
            )
        if low is not None and high is not None and low > high:
            fail(rule, "from at most to", _show((low, high)), f"{where}[{i}]")
    for i in range(1, len(bands)):
        prev_high, low = bands[i - 1][1], bands[i][0]
        if prev_high is None or low is None:
            continue
        if low > prev_high + 1:
            fail(rule, f"no gap after {prev_high}", f"next row starts at {low}", f"{where}[{i}]")
        elif low <= prev_high:
            fail(rule, f"no overlap at {low}", f"rows {i - 1} and {i} both cover {low}", f"{where}[{i}]")


def _show(band: tuple[int | None, int | None]) -> str:
    low, high = band
    return f"from {'open' if low is None else low} to {'open' if high is None else high}"
