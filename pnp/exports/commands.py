"""The `pnp export` group (png, tts, pod) and `pnp preview`."""
from __future__ import annotations

import sys
from contextlib import nullcontext
from pathlib import Path
from typing import Any, Callable, ContextManager

import click

from ..cli import fail_input, load_games, project_option
from ..errors import InputError
from ..model import Game
from ..project import Project


def _common(fn: Callable) -> Callable:
    """GAMES, --project, --out, --jobs, --players, --decks: shared by every export."""
    for option in reversed([
        click.argument("games", nargs=-1),
        project_option,
        click.option("--out", "out_dir", default="output", show_default=True,
                     help="Output folder (relative to the project); files go to OUT/<game>/<kind>/."),
        click.option("--jobs", "-j", type=click.IntRange(1, 256), default=None,
                     help="Worker processes [default: the machine's cores]."),
        click.option("--players", type=int, default=None, help="Sets for per-player components."),
        click.option("--decks", type=int, default=None, help="Copies of components printed per deck."),
    ]):
        fn = option(fn)
    return fn


class _Bar:
    """A click progress bar on a terminal, nothing otherwise."""

    def __init__(self, total: int, label: str):
        self._cm: ContextManager[Any] = (
            click.progressbar(length=total, label=label, file=sys.stderr, show_pos=True)
            if sys.stderr.isatty() else nullcontext(None))
        self._bar: Any = None

    def __enter__(self) -> Callable[[int], None]:
        self._bar = self._cm.__enter__()
        return self._bar.update if self._bar is not None else (lambda n: None)

    def __exit__(self, *exc: Any) -> None:
        self._cm.__exit__(*exc)


def _prepare(project_dir: str, games: tuple[str, ...], out_dir: str, jobs: int | None,
             players: int | None, decks: int | None) -> tuple[Project, list[Game], Path, int, dict[str, int]]:
    from ..build import check_counts
    from .pool import default_jobs

    project = Project.at(project_dir)
    loaded = load_games(project, games)
    counts = {k: v for k, v in (("players", players), ("decks", decks)) if v is not None}
    problems = []
    for game in loaded:
        try:
            check_counts(game, counts)
        except InputError as exc:
            problems += exc.problems
    if problems:
        raise InputError(problems)
    out = Path(out_dir) if Path(out_dir).is_absolute() else project.root / out_dir
    return project, loaded, out, jobs or default_jobs(), counts


def _targets(games: list[Game]) -> list:
    from .naming import Target, card_components
    return [Target(g, comp) for g in games for comp in card_components(g)]


def _setup(project: Project, games: list[Game], counts: dict[str, int]):
    from .pool import Setup
    return Setup(tuple(games), str(project.fonts), tuple(sorted(counts.items())))


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
    from .output import write_export
    from .png import export_png, png_count
    from .profiles import PROFILES

    try:
        project, loaded, out, jobs, counts = _prepare(project_dir, games, out_dir, jobs, players, decks)
        setup = _setup(project, loaded, counts)
        targets = _targets(loaded)
        total = png_count(targets, setup.scenes())
        with _Bar(total, "PNG") as progress:
            written = write_export(out, loaded, "png", lambda stage: export_png(
                targets, setup, stage, PROFILES[profile], dpi, jobs, progress))
    except InputError as exc:
        fail_input(exc)
        return
    click.echo(f"Wrote {len(written)} PNGs ({profile}, {dpi:g} dpi) to {out}/<game>/png/")


@export.command(name="tts")
@_common
def tts(games: tuple[str, ...], project_dir: str, out_dir: str, jobs: int | None, players: int | None,
        decks: int | None) -> None:
    """Tabletop Simulator deck sheets, backs and a saved-object JSON per deck: OUT/<game>/tts/.

    Copy or link the JSON into TTS's Saved Objects folder; it names the
    pictures by their local paths, so keep the output folder where it is.
    """
    from .output import write_export
    from .tts import export_tts, plan_sheets

    try:
        project, loaded, out, jobs, counts = _prepare(project_dir, games, out_dir, jobs, players, decks)
        setup = _setup(project, loaded, counts)
        targets = _targets(loaded)
        scenes = setup.scenes()
        total = 0
        for t in targets:
            sheets = plan_sheets(t, scenes[t.game.slug].printed(t.comp.key))
            total += sum(len(s.cards) for s in sheets) + len({s.back for s in sheets})
        with _Bar(total, "TTS") as progress:
            written = write_export(out, loaded, "tts", lambda stage: export_tts(
                targets, setup, stage, out, jobs, progress))
    except InputError as exc:
        fail_input(exc)
        return
    decks_n = sum(1 for p in written if p.suffix == ".json")
    click.echo(f"Wrote {decks_n} Tabletop Simulator deck(s) ({len(written)} files) to {out}/<game>/tts/")


@export.command(name="pod")
@_common
@click.option("--profile", type=click.Choice(["drivethru"]), default="drivethru", show_default=True,
              help="drivethru: DriveThruCards, 1/8 in bleed, pages back 1, front 1, back 2, ...")
def pod(games: tuple[str, ...], project_dir: str, out_dir: str, jobs: int | None, players: int | None,
        decks: int | None, profile: str) -> None:
    """Print-on-demand PDFs, one card per page with bleed, TrimBox and BleedBox: OUT/<game>/pod/."""
    from .output import write_export
    from .pod import export_pod
    from .profiles import PROFILES

    try:
        project, loaded, out, jobs, counts = _prepare(project_dir, games, out_dir, jobs, players, decks)
        setup = _setup(project, loaded, counts)
        targets = _targets(loaded)
        with _Bar(len(targets), "POD") as progress:
            written = write_export(out, loaded, "pod", lambda stage: export_pod(
                targets, setup, stage, PROFILES[profile], jobs, progress))
    except InputError as exc:
        fail_input(exc)
        return
    click.echo(f"Wrote {len(written)} print-on-demand PDF(s) ({profile}) to {out}/<game>/pod/")


@click.command(name="preview")
@_common
def preview(games: tuple[str, ...], project_dir: str, out_dir: str, jobs: int | None, players: int | None,
            decks: int | None) -> None:
    """One contact-sheet PNG per deck (every distinct card, with counts): OUT/<game>/preview/."""
    from .output import write_export
    from .preview import export_preview

    try:
        project, loaded, out, jobs, counts = _prepare(project_dir, games, out_dir, jobs, players, decks)
        setup = _setup(project, loaded, counts)
        targets = _targets(loaded)
        with _Bar(len(targets), "Preview") as progress:
            written = write_export(out, loaded, "preview", lambda stage: export_preview(
                targets, setup, stage, jobs, progress))
    except InputError as exc:
        fail_input(exc)
        return
    click.echo(f"Wrote {len(written)} preview(s) to {out}/<game>/preview/")
