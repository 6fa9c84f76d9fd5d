"""The work of a build: the chosen games as a list of steps, checked before anything is drawn."""

from __future__ import annotations

from pnp.buildplan.steps import MAKERS, checklist_step, stats_step
from pnp.data.format.errors import InputError, Problem
from pnp.data.format.model import Game
from pnp.output.steps import BuildOptions, Step


def check_counts(games: list[Game], counts: dict[str, int]) -> None:
    """Refuse --players/--decks outside what the games' sets allow."""
    problems = []
    for game in games:
        for comp in game.components:
            spec = comp.sets
            if spec is None or spec.option not in counts:
                continue
            n = counts[spec.option]
            if not spec.min <= n <= spec.max:
                problems.append(
                    Problem(
                        game.where,
                        comp.line,
                        f"--{spec.option}",
                        f"{game.game.name} prints {spec.min} to {spec.max} sets of {comp.name}; "
                        f"--{spec.option} {n} is outside that",
                    )
                )
    if problems:
        raise InputError(problems)


def plan_build(games: list[Game], options: BuildOptions) -> list[Step]:
    """All the work for these games, checked before anything is drawn."""
    check_counts(games, options.counts)
    steps: list[Step] = []
    problems: list[Problem] = []
    for game in games:
        for comp in game.components:
            maker = MAKERS.get(comp.kind)
            if maker is None:
                problems.append(
                    Problem(
                        game.where,
                        comp.line,
                        f"{comp.key}.kind",
                        f"this version cannot draw {comp.kind!r} components yet",
                    )
                )
                continue
            try:
                made = maker(
                    game, comp, options
                )  # a maker may return several steps (a huge deck: one per part)
                steps.extend(made if isinstance(made, list) else [made])
                if comp.kind == "deck" and (comp.tuckbox or options.tuckbox):
                    from pnp.output.tuckbox import tuckbox_step  # lazy: only decks that get a box

                    steps.append(tuckbox_step(game, comp, options))
            except InputError as exc:
                problems += exc.problems
        steps.append(checklist_step(game, options))
        if game.variant:  # a stacked deck also gets its statistics sheet
            steps.append(stats_step(game, options))
    if problems:
        raise InputError(problems)
    return steps


def total_weight(steps: list[Step]) -> int:
    return sum(s.weight for s in steps)


def longest_first(steps: list[Step]) -> list[int]:
    """Step indices by falling weight (ties in plan order), so two workers finish close together."""
    return sorted(range(len(steps)), key=lambda i: -steps[i].weight)
