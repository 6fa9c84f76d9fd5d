"""Running a planned build: steps on the workers in a new generation of the output, then published as a whole."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from pnp.buildplan.plan import longest_first, plan_build
from pnp.data.format.errors import InputError, Problem
from pnp.data.format.model import Game
from pnp.output import freshness
from pnp.output.manifest import record_build
from pnp.output.publish import publish, staging
from pnp.output.steps import BuildOptions, Output, Step
from pnp.output.workers import run_all, start_method
from pnp.resolve.fonts import Fonts, MissingGlyph


@dataclass(frozen=True)
class _Work:
    """What a build worker needs: the planned steps, the staging folder and the fonts."""

    steps: list[Step]
    stage: Path
    fonts: Fonts


def _run_step(work: _Work, index: int) -> list[Output]:
    """One step on a worker; a character its font lacks comes back as an input problem naming the step."""
    step = work.steps[index]
    try:
        made = step.run(work.stage, work.fonts, lambda: None)
    except MissingGlyph as exc:
        raise InputError(
            [
                Problem(
                    step.label,
                    None,
                    "",
                    f"{exc}; use a font that has it (fonts/fonts.yaml) or leave the character out",
                )
            ]
        ) from None
    return made if isinstance(made, list) else [made]


def _worker_start(work: _Work, games: list[Game], options: BuildOptions | None) -> Callable[[], _Work]:
    """How each worker gets the build's work: inherited where workers are forked; elsewhere planned again
    from the games and options, which pickle (steps are closures: they do not)."""
    if start_method() == "fork" or options is None:  # no options: only pnp serve's one-job builds
        return lambda: work
    return partial(_planned, games, options, work.stage, work.fonts, [s.label for s in work.steps])


def _planned(games: list[Game], options: BuildOptions, stage: Path, fonts: Fonts, labels: list[str]) -> _Work:
    """A spawned worker's work: the build's plan made again, the same steps (as their labels show)."""
    steps = plan_build(games, options)
    if [s.label for s in steps] != labels:
        raise RuntimeError("a build worker planned other steps than the build")
    return _Work(steps, stage, fonts)


def build(
    steps: list[Step],
    games: list[Game],
    out: Path,
    fonts: Fonts,
    progress: Callable[[int], None] = lambda n: None,
    jobs: int = 1,
    options: BuildOptions | None = None,
    settings: dict[str, Any] | None = None,
) -> list[Output]:
    """Run planned steps (on `jobs` workers) in a staging folder, then publish.

    On any error nothing in `out` changes. Each step writes its own files, so
    which worker ran a step never changes its bytes. `settings` (the build
    options as the command line gave them) key the outputs in the manifest,
    so an unchanged game is skipped next time (`pnp.output.freshness`).
    """
    with staging(out) as stage:
        work = _Work(steps, stage, fonts)
        if jobs > 1 and len(steps) > 1 and start_method() == "fork":
            fonts.preload()  # parsed once here, not once per worker (spawned workers parse their own)
        order = longest_first(steps)
        start = _worker_start(work, games, options)
        made = run_all(_run_step, order, start, jobs, progress, weight=lambda i: steps[i].weight)
        by_step = dict(zip(order, made))
        outputs = [o for i in range(len(steps)) for o in by_step[i]]  # plan order, whoever ran what
        publish(stage, out, lambda data, made: _record(data, made, outputs, games, options, settings))
    return outputs


def _record(
    data: dict[str, Any],
    made: Path,
    outputs: list[Output],
    games: list[Game],
    options: BuildOptions | None,
    settings: dict[str, Any] | None,
) -> None:
    """The manifest entry of a build about to be published (its files in `made`); with `settings` (the
    build options as the command line gave them) the outputs are keyed by their inputs, for the next
    build to skip what is unchanged."""
    recorded = options.as_dict() if options else {}
    files = [o.as_dict() for o in outputs]
    inputs = None
    if settings is not None:
        databases = {g.slug: (g.root, [g.source, *g.sheets] + _base_files(g)) for g in games}
        inputs, files = freshness.record(made, databases, settings, files)
    record_build(data, files, {g.slug: {**recorded, "language": g.lang} for g in games}, inputs)
    from pnp.output.prints import print_record  # lazy: digests only once the drawing is done

    found = data.get("prints")
    prints: dict[str, Any] = found if isinstance(found, dict) else {}
    counts = options.counts if options else {}
    data["prints"] = dict(sorted({**prints, **{g.slug: print_record(g, counts) for g in games}}.items()))


def _base_files(game: Game) -> list[Path]:
    variant = game.variant
    return [Path(variant["base_file"])] if isinstance(variant, dict) and "base_file" in variant else []
