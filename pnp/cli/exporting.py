"""What every `pnp export` command shares: its options, the games and decks it works on, and writing
through a staging folder into OUT/<game>/<kind>/<sub>/ with the export recorded in the manifest."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from pnp.buildplan.plan import check_counts
from pnp.cli.common import jobs_option, load_fonts, load_games, progress, project_option, set_counts
from pnp.cli.language import chosen_lang, export_lang_option, in_languages
from pnp.data.reading.project import Project
from pnp.output.exports.naming import Target, card_components
from pnp.output.exports.output import record, write_export
from pnp.output.exports.setup import Setup
from pnp.output.workers import jobs_for

if TYPE_CHECKING:
    from pnp.data.format.model import Game


def common(fn: Callable) -> Callable:
    """GAMES, --project, --out, --jobs, --players, --decks: shared by every export."""
    options: list[Callable[[Callable], Callable]] = [
        click.argument("games", nargs=-1),
        project_option,
        click.option(
            "--out",
            "out_dir",
            default="output",
            show_default=True,
            help="Output folder (relative to the project); files go to OUT/<game>/<kind>/<profile>-<dpi>/.",
        ),
        jobs_option,
        click.option("--players", type=int, default=None, help="Sets for per-player components."),
        click.option("--decks", type=int, default=None, help="Copies of components printed per deck."),
        export_lang_option,
    ]
    for option in reversed(options):
        fn = option(fn)
    return fn


@dataclass(frozen=True)
class Job:
    """What every export works on: the games, where files go, the worker setup and the decks."""

    loaded: list[Game]
    out: Path
    jobs: int
    setup: Any
    targets: list


def make_job(
    project_dir: str,
    games: tuple[str, ...],
    out_dir: str,
    jobs: int | None,
    players: int | None,
    decks: int | None,
) -> Job:

    project = Project.at(project_dir)
    loaded = in_languages(project, load_games(project, games), chosen_lang(), bool(games))
    counts = set_counts(players, decks)
    check_counts(loaded, counts)
    load_fonts(project)  # a broken fonts.yaml stops here; stand-in fonts are named once
    setup = Setup(tuple(loaded), str(project.fonts), tuple(sorted(counts.items())))
    targets = [Target(g, comp) for g in loaded for comp in card_components(g)]
    return Job(loaded, project.output(out_dir), jobs_for(jobs), setup, targets)


def write(
    job: Job,
    kind: str,
    label: str,
    total: int,
    export: Callable[[Path, Callable[[int], None]], Any],
    sub: str = "",
    details: dict[str, Any] | None = None,
) -> list[Path]:
    """Run one export into a staging folder with a progress bar; publish it under OUT/<game>/<kind>/<sub>/.

    The export is recorded in OUT/manifest.json with `details` (its profile and options).
    """

    counts = dict(job.setup.counts)
    with progress(total, label) as advance:
        return write_export(
            job.out,
            job.loaded,
            kind,
            lambda stage: export(stage, advance),
            sub,
            lambda data, moved: record(
                data, job.out, job.loaded, kind, sub, moved, {**(details or {}), "counts": counts}
            ),
        )


def where(job: Job, kind: str, sub: str = "") -> str:
    """The folders an export wrote, named in full (e.g. output/bargains/png/tgc-300/)."""
    return ", ".join(f"{job.out / game.slug / kind / sub}/" for game in job.loaded)
