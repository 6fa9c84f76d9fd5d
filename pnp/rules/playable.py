"""Which player counts a deck can still be played with, judged by the game's essential rules.

Every essential rule belongs to one way to play the game. An `expr` rule with
`player_counts: variants.NAME.players` belongs to the way NAME (its player counts are that
range); one with `player_counts: game`, and every essential rule without player counts,
belongs to the game as a whole. A rule without player counts that breaks leaves no count
of any way playable.

For a stacked deck (a variant) the verdict decides how broken essential rules count:

- some way to play keeps none of its player counts (the deck cannot be played that way at
  all): the broken rules stay errors, so the stack is refused, and a `playable` line says
  which counts every way still has;
- every way keeps at least one count: the broken rules become warnings and the `playable`
  line names the counts that are lost (e.g. "playable for 2-3 players, not 4-6").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pnp.data.format.facts import MissingFact, lookup
from pnp.data.format.model import Component, Game, Rule

GAME = "game"  # the player_counts value (and way name) of the game as a whole
VERDICT_RULE = "playable"  # the rule name the verdict reports under


@dataclass(frozen=True)
class Way:
    """One way to play (a variant of the rules, or the game as a whole) and where it breaks."""

    name: str
    counts: tuple[int, ...]
    broken: dict[int, tuple[str, ...]] = field(default_factory=dict)  # count -> rules broken at it

    @property
    def playable(self) -> tuple[int, ...]:
        return tuple(n for n in self.counts if not self.broken.get(n))

    @property
    def lost(self) -> bool:
        """No player count of this way can be played."""
        return not self.playable

    def describe(self) -> str:
        """'variant 2: playable for 2-3 players, not 4' and the like."""
        head = "" if self.name == GAME else f"{self.name.replace('-', ' ')}: "
        ok, bad = self.playable, [n for n in self.counts if n not in self.playable]
        rules = sorted({r for n in bad for r in self.broken[n]})
        why = f" (broken: {', '.join(rules)})" if rules else ""
        if not bad:
            return f"{head}playable for {spans(ok)} {_players(ok)}"
        if not ok:
            return f"{head}not playable for any of its {spans(bad)} {_players(bad)}{why}"
        return f"{head}playable for {spans(ok)} {_players(ok)}, not {spans(bad)}{why}"


def _players(counts: Sequence[int]) -> str:
    return "player" if list(counts) == [1] else "players"


def spans(counts: Iterable[int]) -> str:
    """Player counts as short ranges: [2, 3, 5, 6] -> '2-3, 5-6'."""
    out: list[str] = []
    run: list[int] = []
    for n in sorted(set(counts)):
        if run and n == run[-1] + 1:
            run.append(n)
            continue
        if run:
            out.append(_span(run))
        run = [n]
    if run:
        out.append(_span(run))
    return ", ".join(out)


def _span(run: list[int]) -> str:
    return str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}"


MAX_PLAYER_COUNTS = 100  # player counts one rule is checked for (a range wider than this is a mistake)


def player_counts(game: Game, path: str) -> list[int]:
    """The player counts a rule's `player_counts` names: `game` (the game's own range) or a fact
    path to a {min, max} range. ValueError (or MissingFact) says what is wrong with it."""
    if path == GAME:
        return list(range(game.game.players.min, game.game.players.max + 1))
    found = lookup(game.facts, path)
    low: Any = found.get("min") if isinstance(found, dict) else None
    high: Any = found.get("max") if isinstance(found, dict) else None
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (low, high)):
        raise ValueError(f"fact {path!r} is not a {{min, max}} range of whole numbers")
    if not 0 < low <= high or high - low >= MAX_PLAYER_COUNTS:
        raise ValueError(f"fact {path!r} gives {low}-{high} players; expected 1 or more, min <= max")
    return list(range(low, high + 1))


def way_name(path: str | None) -> str:
    """The way a rule's player_counts names: `variants.main.players` -> 'main'; none -> the game."""
    if not path or path == GAME:
        return GAME
    parts = path.split(".")
    if len(parts) > 1 and parts[-1] == "players":
        parts = parts[:-1]
    return parts[-1]


Check = Callable[[Game, Component], list[Any]]  # the checker's check_component


def ways(game: Game, check: Check) -> list[Way]:
    """Every way to play the game's essential rules name, with the player counts each breaks at."""

    def counts_of(path: str) -> tuple[int, ...]:
        try:
            return tuple(player_counts(game, path))
        except (MissingFact, ValueError):  # the rule itself reports a bad range
            return tuple(player_counts(game, GAME))

    found: dict[str, tuple[int, ...]] = {}
    broken: dict[str, dict[int, set[str]]] = {}
    everywhere: set[str] = set()  # essential rules broken with no player count: every way loses all
    for comp in game.components:
        for rule in comp.rules:
            if not rule.essential:
                continue
            label = rule.id or rule.describe or rule.check
            if rule.check == "expr" and rule.player_counts:
                name, counts = way_name(rule.player_counts), counts_of(rule.player_counts)
                found.setdefault(name, counts)
                for n in counts:
                    if check(game, _at(comp, rule, n)):
                        broken.setdefault(name, {}).setdefault(n, set()).add(label)
            elif check(game, dataclasses.replace(comp, rules=(rule,))):
                everywhere.add(label)
    if not found:
        found[GAME] = counts_of(GAME)
    out = []
    for name, counts in found.items():
        at = broken.get(name, {})
        out.append(Way(name, counts, {n: tuple(sorted(at.get(n, set()) | everywhere)) for n in counts}))
    return out


def _at(comp: Component, rule: Rule, players: int) -> Component:
    """The component holding only `rule`, checked for one player count."""
    one = dataclasses.replace(rule, player_counts=None, params={"players": (players,), **rule.params})
    return dataclasses.replace(comp, rules=(one,))


def refused(found: Sequence[Way]) -> bool:
    """Whether the deck cannot be played at all in some way the game offers."""
    return any(w.lost for w in found)


def verdict(found: Sequence[Way]) -> str:
    """Every way in one line: 'main: playable for 2-3 players, not 4-6 (...); variant 2: ...'."""
    return "; ".join(w.describe() for w in found)
