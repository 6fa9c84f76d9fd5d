"""The `pnp export` group (png, tts, pod) and `pnp preview`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from pnp.buildplan.plan import check_counts
from pnp.cli.common import (
    FiniteRange,
    colour_options,
    jobs_option,
    load_fonts,
    load_games,
    print_colour,
    progress,
    project_option,
    set_counts,
)
from pnp.cli.language import chosen_lang, export_lang_option, in_languages
from pnp.data.reading.project import Project
from pnp.output.access import VISIONS
from pnp.output.exports.mpc import export_mpc, mpc_count
from pnp.output.exports.naming import Target, card_components
from pnp.output.exports.output import export_folder, record, write_export
from pnp.output.exports.png import export_png, png_count
from pnp.output.exports.pod import export_pod
from pnp.output.exports.preview import export_preview
from pnp.output.exports.profiles import PROFILES
from pnp.output.exports.setup import Setup
from pnp.output.exports.tts import export_tts, tts_plan
from pnp.output.workers import jobs_for

if TYPE_CHECKING:
    from pnp.data.format.model import Game


def _common(fn: Callable) -> Callable:
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
class _Job:
    """What every export works on: the games, where files go, the worker setup and the decks."""

    loaded: list[Game]
    out: Path
    jobs: int
    setup: Any
    targets: list


def _job(
    project_dir: str,
    games: tuple[str, ...],
    out_dir: str,
    jobs: int | None,
    players: int | None,
    decks: int | None,
) -> _Job:

    project = Project.at(project_dir)
    loaded = in_languages(project, load_games(project, games), chosen_lang(), bool(games))
    counts = set_counts(players, decks)
    check_counts(loaded, counts)
    load_fonts(project)  # a broken fonts.yaml stops here; stand-in fonts are named once
    setup = Setup(tuple(loaded), str(project.fonts), tuple(sorted(counts.items())))
    targets = [Target(g, comp) for g in loaded for comp in card_components(g)]
    return _Job(loaded, project.output(out_dir), jobs_for(jobs), setup, targets)


def _write(
    job: _Job,
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


def _where(job: _Job, kind: str, sub: str = "") -> str:
    """The folders an export wrote, named in full (e.g. output/bargains/png/tgc-300/)."""
    return ", ".join(f"{job.out / game.slug / kind / sub}/" for game in job.loaded)


@click.group(name="export")
def export() -> None:
    """Pictures and files for print shops and Tabletop Simulator (one folder per game)."""


@export.command(name="png")
@_common
@click.option("--dpi", type=FiniteRange(30, 1200), default=300, show_default=True, help="Resolution.")
@click.option(
    "--profile",
    type=click.Choice(["plain", "tgc", "mpc"]),
    default="plain",
    show_default=True,
    help="plain: trimmed card; tgc: The Game Crafter (825x1125 px poker at 300 dpi); "
    "mpc: MakePlayingCards (822x1122 px).",
)
def png(
    games: tuple[str, ...],
    project_dir: str,
    out_dir: str,
    jobs: int | None,
    players: int | None,
    decks: int | None,
    dpi: float,
    profile: str,
) -> None:
    """One RGB PNG per distinct card face and per distinct back: OUT/<game>/png/<component>/."""
    job = _job(project_dir, games, out_dir, jobs, players, decks)
    total = png_count(job.targets, job.setup.scenes())
    sub = export_folder(profile, dpi)
    written = _write(
        job,
        "png",
        "PNG",
        total,
        lambda stage, advance: export_png(
            job.targets, job.setup, stage, PROFILES[profile], dpi, job.jobs, advance, sub=sub
        ),
        sub,
        {"profile": profile, "dpi": dpi},
    )
    click.echo(f"Wrote {len(written)} PNGs ({profile}, {dpi:g} dpi) to {_where(job, 'png', sub)}")


@export.command(name="tts")
@_common
@click.option(
    "--dpi",
    type=FiniteRange(30, 1200),
    default=300,
    show_default=True,
    help="Resolution of each card; sheets stay within 4096 px and 10 x 7 cards.",
)
@click.option(
    "--base-url",
    default=None,
    metavar="URL",
    help="Where the pictures will be hosted (http or https); the JSON then names them by URL.",
)
def tts(
    games: tuple[str, ...],
    project_dir: str,
    out_dir: str,
    jobs: int | None,
    players: int | None,
    decks: int | None,
    dpi: float,
    base_url: str | None,
) -> None:
    """Tabletop Simulator deck sheets, backs and a saved-object JSON per deck: OUT/<game>/tts/<local|hosted>-<dpi>/.

    Copy the JSON into TTS's Saved Objects folder. Without --base-url it names
    the pictures by their local paths, so keep the output folder where it is;
    with it, upload the folder's PNGs to that URL first.
    """

    if base_url is not None and not base_url.lower().startswith(("http://", "https://")):
        raise click.BadParameter("give an http:// or https:// address", param_hint="--base-url")
    job = _job(project_dir, games, out_dir, jobs, players, decks)
    scenes = job.setup.scenes()
    total = 0
    for t in job.targets:
        _, sheets = tts_plan(t, scenes[t.game.slug].printed(t.comp.key), dpi)
        total += sum(len(s.cards) for s in sheets) + len({s.back for s in sheets})
    sub = export_folder("hosted" if base_url else "local", dpi)
    written = _write(
        job,
        "tts",
        "TTS",
        total,
        lambda stage, advance: export_tts(
            job.targets, job.setup, stage, job.out, job.jobs, advance, dpi, sub, base_url
        ),
        sub,
        {"profile": "hosted" if base_url else "local", "dpi": dpi, "base_url": base_url},
    )
    decks_n = sum(1 for p in written if p.suffix == ".json")
    click.echo(
        f"Wrote {decks_n} Tabletop Simulator deck(s) ({len(written)} files) to {_where(job, 'tts', sub)}"
    )


@export.command(name="pod")
@_common
@click.option(
    "--profile",
    type=click.Choice(["drivethru", "mpc"]),
    default="drivethru",
    show_default=True,
    help="drivethru: DriveThruCards, a CMYK PDF/X-1a per deck, pages back 1, front 1, back 2, ...; "
    "mpc: MakePlayingCards, 822x1122 px PNGs laid out for its uploader.",
)
@click.option(
    "--dpi",
    type=FiniteRange(30, 1200),
    default=300,
    show_default=True,
    help="Resolution of the mpc pictures (the PDF is vector).",
)
@colour_options
def pod(
    games: tuple[str, ...],
    project_dir: str,
    out_dir: str,
    jobs: int | None,
    players: int | None,
    decks: int | None,
    profile: str,
    dpi: float,
    ink_limit: float,
    press_profile: str | None,
) -> None:
    """Print-on-demand files per deck: OUT/<game>/pod/drivethru/ or OUT/<game>/pod/mpc-<dpi>/."""
    job = _job(project_dir, games, out_dir, jobs, players, decks)
    if profile == "mpc":
        sub = export_folder(profile, dpi)
        written = _write(
            job,
            "pod",
            "MPC",
            mpc_count(job.targets, job.setup.scenes()),
            lambda stage, advance: export_mpc(job.targets, job.setup, stage, dpi, job.jobs, advance, sub),
            sub,
            {"profile": profile, "dpi": dpi},
        )
        click.echo(f"Wrote {len(written)} MakePlayingCards files ({dpi:g} dpi) to {_where(job, 'pod', sub)}")
        return

    sub = export_folder(profile, None)
    colour = print_colour(ink_limit, press_profile)
    written = _write(
        job,
        "pod",
        "POD",
        len(job.targets),
        lambda stage, advance: export_pod(
            job.targets, job.setup, stage, PROFILES[profile], job.jobs, advance, sub, colour
        ),
        sub,
        {
            "profile": profile,
            "dpi": None,
            "colour": "CMYK PDF/X-1a:2003",
            "ink_limit_percent": ink_limit,
            "press_profile": colour.name,
        },
    )
    click.echo(
        f"Wrote {len(written)} print-on-demand PDF(s) ({profile}, CMYK PDF/X-1a) to {_where(job, 'pod', sub)}"
    )


@click.command(name="preview")
@_common
@click.option(
    "--vision",
    type=click.Choice(VISIONS),
    default=None,
    help="The sheets as a reader with this colour vision sees them (Machado 2009): OUT/<game>/preview-VISION/.",
)
def preview(
    games: tuple[str, ...],
    project_dir: str,
    out_dir: str,
    jobs: int | None,
    players: int | None,
    decks: int | None,
    vision: str | None,
) -> None:
    """One contact-sheet PNG per deck (every distinct card, with counts): OUT/<game>/preview/."""
    job = _job(project_dir, games, out_dir, jobs, players, decks)
    kind = f"preview-{vision}" if vision else "preview"
    written = _write(
        job,
        kind,
        "Preview",
        len(job.targets),
        lambda stage, advance: export_preview(job.targets, job.setup, stage, job.jobs, advance, vision or ""),
        details={"vision": vision} if vision else None,
    )
    click.echo(f"Wrote {len(written)} preview(s) to {_where(job, kind)}")
