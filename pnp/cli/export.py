"""The `pnp export` group (png, tts, pod) and `pnp preview`."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import click

from pnp.cli.common import jobs_option, load_fonts, load_games, progress, project_option, set_counts
from pnp.data.model import Game
from pnp.data.project import Project


def _common(fn: Callable) -> Callable:
    """GAMES, --project, --out, --jobs, --players, --decks: shared by every export."""
    for option in reversed([
        click.argument("games", nargs=-1),
        project_option,
        click.option("--out", "out_dir", default="output", show_default=True,
                     help="Output folder (relative to the project); files go to OUT/<game>/<kind>/."),
        jobs_option,
        click.option("--players", type=int, default=None, help="Sets for per-player components."),
        click.option("--decks", type=int, default=None, help="Copies of components printed per deck."),
    ]):
        fn = option(fn)
    return fn


@dataclass(frozen=True)
class _Job:
    """What every export works on: the games, where files go, the worker setup and the decks."""

    loaded: list[Game]
    out: Path
    jobs: int
    setup: Any
    targets: list


def _job(project_dir: str, games: tuple[str, ...], out_dir: str, jobs: int | None,
         players: int | None, decks: int | None) -> _Job:
    # lazy: only this command needs these (start-up speed)
    from pnp.build import check_counts
    from pnp.output.exports.naming import Target, card_components
    from pnp.output.exports.setup import Setup
    from pnp.output.workers import jobs_for

    project = Project.at(project_dir)
    loaded = load_games(project, games)
    counts = set_counts(players, decks)
    check_counts(loaded, counts)
    load_fonts(project)  # a broken fonts.yaml stops here; stand-in fonts are named once
    setup = Setup(tuple(loaded), str(project.fonts), tuple(sorted(counts.items())))
    targets = [Target(g, comp) for g in loaded for comp in card_components(g)]
    return _Job(loaded, project.output(out_dir), jobs_for(jobs), setup, targets)


def _write(job: _Job, kind: str, label: str, total: int,
           export: Callable[[Path, Callable[[int], None]], list[Path]]) -> list[Path]:
    """Run one export into a staging folder with a progress bar; publish it under OUT/<game>/<kind>/."""
    # lazy: only this command needs these (start-up speed)
    from pnp.output.exports.output import write_export

    with progress(total, label) as advance:
        return write_export(job.out, job.loaded, kind, lambda stage: export(stage, advance))


def _where(job: _Job, kind: str) -> str:
    """The folders an export wrote, named in full (e.g. output/bargains/png/)."""
    return ", ".join(f"{job.out / game.slug / kind}/" for game in job.loaded)


@click.group(name="export")
def export() -> None:
    """Pictures and files for print shops and Tabletop Simulator (one folder per game)."""


@export.command(name="png")
@_common
@click.option("--dpi", type=click.FloatRange(30, 1200), default=300, show_default=True, help="Resolution.")
@click.option("--profile", type=click.Choice(["plain", "tgc", "mpc"]), default="plain", show_default=True,
              help="plain: trimmed card; tgc: The Game Crafter (825x1125 px poker at 300 dpi); "
                   "mpc: MakePlayingCards (822x1122 px).")
def png(games: tuple[str, ...], project_dir: str, out_dir: str, jobs: int | None, players: int | None,
        decks: int | None, dpi: float, profile: str) -> None:
    """One RGB PNG per distinct card face and per distinct back: OUT/<game>/png/<component>/."""
    # lazy: only this command needs these (start-up speed)
    from pnp.output.exports.png import export_png, png_count
    from pnp.output.exports.profiles import PROFILES

    job = _job(project_dir, games, out_dir, jobs, players, decks)
    total = png_count(job.targets, job.setup.scenes())
    written = _write(job, "png", "PNG", total, lambda stage, advance: export_png(
        job.targets, job.setup, stage, PROFILES[profile], dpi, job.jobs, advance))
    click.echo(f"Wrote {len(written)} PNGs ({profile}, {dpi:g} dpi) to {_where(job, 'png')}")


@export.command(name="tts")
@_common
def tts(games: tuple[str, ...], project_dir: str, out_dir: str, jobs: int | None, players: int | None,
        decks: int | None) -> None:
    """Tabletop Simulator deck sheets, backs and a saved-object JSON per deck: OUT/<game>/tts/.

    Copy or link the JSON into TTS's Saved Objects folder; it names the
    pictures by their local paths, so keep the output folder where it is.
    """
    # lazy: only this command needs these (start-up speed)
    from pnp.output.exports.tts import export_tts, plan_sheets

    job = _job(project_dir, games, out_dir, jobs, players, decks)
    scenes = job.setup.scenes()
    total = 0
    for t in job.targets:
        sheets = plan_sheets(t, scenes[t.game.slug].printed(t.comp.key))
        total += sum(len(s.cards) for s in sheets) + len({s.back for s in sheets})
    written = _write(job, "tts", "TTS", total, lambda stage, advance: export_tts(
        job.targets, job.setup, stage, job.out, job.jobs, advance))
    decks_n = sum(1 for p in written if p.suffix == ".json")
    click.echo(f"Wrote {decks_n} Tabletop Simulator deck(s) ({len(written)} files) to {_where(job, 'tts')}")


@export.command(name="pod")
@_common
@click.option("--profile", type=click.Choice(["drivethru"]), default="drivethru", show_default=True,
              help="drivethru: DriveThruCards, 1/8 in bleed, pages back 1, front 1, back 2, ...")
def pod(games: tuple[str, ...], project_dir: str, out_dir: str, jobs: int | None, players: int | None,
        decks: int | None, profile: str) -> None:
    """Print-on-demand PDFs, one card per page with bleed, TrimBox and BleedBox: OUT/<game>/pod/."""
    # lazy: only this command needs these (start-up speed)
    from pnp.output.exports.pod import export_pod
    from pnp.output.exports.profiles import PROFILES

    job = _job(project_dir, games, out_dir, jobs, players, decks)
    written = _write(job, "pod", "POD", len(job.targets), lambda stage, advance: export_pod(
        job.targets, job.setup, stage, PROFILES[profile], job.jobs, advance))
    click.echo(f"Wrote {len(written)} print-on-demand PDF(s) ({profile}) to {_where(job, 'pod')}")


@click.command(name="preview")
@_common
def preview(games: tuple[str, ...], project_dir: str, out_dir: str, jobs: int | None, players: int | None,
            decks: int | None) -> None:
    """One contact-sheet PNG per deck (every distinct card, with counts): OUT/<game>/preview/."""
    # lazy: only this command needs these (start-up speed)
    from pnp.output.exports.preview import export_preview

    job = _job(project_dir, games, out_dir, jobs, players, decks)
    written = _write(job, "preview", "Preview", len(job.targets), lambda stage, advance: export_preview(
        job.targets, job.setup, stage, job.jobs, advance))
    click.echo(f"Wrote {len(written)} preview(s) to {_where(job, 'preview')}")
