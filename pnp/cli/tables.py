"""`pnp export` targets for virtual tables and order tools: ttp, screentop, pcio, cgs, mpc-autofill."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from pnp.cli.common import FiniteRange
from pnp.cli.exporting import Job, common, make_job, where, write
from pnp.output.exports.autofill import MAX_ORDER, export_autofill
from pnp.output.exports.cgs import export_cgs
from pnp.output.exports.output import export_folder
from pnp.output.exports.pcio import export_pcio
from pnp.output.exports.png import png_count
from pnp.output.exports.screentop import export_screentop
from pnp.output.exports.ttp import export_ttp
from pnp.output.exports.tts import sheet_total

Export = Callable[[Job, Path, Callable[[int], None], float, str], list[Path]]


def _dpi(default: int, text: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return click.option("--dpi", type=FiniteRange(30, 1200), default=default, show_default=True, help=text)


def _run(
    options: dict[str, Any], kind: str, label: str, sheets: bool, export_fn: Export, cards_only: bool = False
) -> tuple[Job, list[Path], str]:
    """The games' job, the export written (sheets: drawn as grids; otherwise one picture per card), its folder.
    `cards_only`: tokens are left out, and named."""
    dpi = options.pop("dpi")
    job = make_job(**options)
    if cards_only:
        tokens = [t for t in job.targets if t.comp.kind == "tokens"]
        if tokens:
            click.echo(f"Left out (tokens, not cards): {', '.join(t.label for t in tokens)}")
            job = dataclasses.replace(job, targets=[t for t in job.targets if t not in tokens])
        if not job.targets:
            raise click.ClickException(f"nothing for {label}: these games have no cards, only tokens")
    scenes = job.setup.scenes()
    total = sheet_total(job.targets, scenes, dpi) if sheets else png_count(job.targets, scenes)
    sub = export_folder(kind if kind != "mpc-autofill" else "mpc", dpi)
    written = write(
        job,
        kind,
        label,
        total,
        lambda stage, advance: export_fn(job, stage, advance, dpi, sub),
        sub,
        {"profile": kind, "dpi": dpi},
    )
    return job, written, sub


@click.command(name="ttp")
@common
@_dpi(300, "Resolution of each card; sheets stay within 4096 px and 10 x 7 cards.")
def ttp(**options: Any) -> None:
    """Tabletop Playground: a package folder per game (Manifest.json, Templates/, Textures/):
    OUT/<game>/ttp/ttp-<dpi>/<Game>/.

    Copy the <Game> folder into Tabletop Playground's PersistentDownloadDir
    folder; the decks are then in the object library under the game's name.
    """
    job, written, sub = _run(
        options,
        "ttp",
        "TTP",
        True,
        lambda job, stage, advance, dpi, sub: export_ttp(
            job.targets, job.setup, stage, job.jobs, advance, dpi, sub
        ),
    )
    boards = sum(1 for p in written if p.name.endswith("-board.png"))
    templates = sum(1 for p in written if p.parent.name == "Templates") - boards
    click.echo(
        f"Wrote {templates} Tabletop Playground card template(s) and {boards} board(s) ({len(written)} files) "
        f"to {where(job, 'ttp', sub)}"
    )
    click.echo("Load: copy the package folder into Tabletop Playground's PersistentDownloadDir folder.")


@click.command(name="screentop")
@common
@_dpi(200, "Resolution of each card; sheets stay within 4096 px and 10 x 7 cards.")
def screentop(**options: Any) -> None:
    """Screentop.gg: card-grid images and a deck description per deck: OUT/<game>/screentop/screentop-<dpi>/."""
    job, written, sub = _run(
        options,
        "screentop",
        "Screentop",
        True,
        lambda job, stage, advance, dpi, sub: export_screentop(
            job.targets, job.setup, stage, job.jobs, advance, dpi, sub
        ),
    )
    boards = sum(1 for p in written if p.name.endswith("-board.png"))
    decks = sum(1 for p in written if p.suffix == ".json") - boards
    click.echo(
        f"Wrote {decks} Screentop.gg deck(s) and {boards} board(s) ({len(written)} files) to "
        f"{where(job, 'screentop', sub)}"
    )
    click.echo(
        "Load: in the Screentop editor add a deck from each sheet image with the columns and rows in its .json."
    )


@click.command(name="pcio")
@common
@_dpi(150, "Resolution of each card picture in the room file.")
def pcio(**options: Any) -> None:
    """playingcards.io: a room file per game: OUT/<game>/pcio/pcio-<dpi>/<game>.pcio."""
    job, written, sub = _run(
        options,
        "pcio",
        "pcio",
        False,
        lambda job, stage, advance, dpi, sub: export_pcio(
            job.targets, job.setup, stage, dpi, job.jobs, advance, sub
        ),
    )
    rooms = sum(1 for p in written if p.suffix == ".pcio")
    click.echo(f"Wrote {rooms} playingcards.io room file(s) to {where(job, 'pcio', sub)}")
    click.echo(
        "Load: create a fresh playingcards.io room and import the .pcio file (its Import/Export feature)."
    )


@click.command(name="cgs")
@common
@_dpi(300, "Resolution of each card picture.")
def cgs(**options: Any) -> None:
    """Card Game Simulator: a custom-game folder per game: OUT/<game>/cgs/cgs-<dpi>/<Game>/."""
    job, written, sub = _run(
        options,
        "cgs",
        "CGS",
        False,
        lambda job, stage, advance, dpi, sub: export_cgs(
            job.targets, job.setup, stage, dpi, job.jobs, advance, sub
        ),
    )
    games = sum(
        1 for p in written if p.parent.parent.name == sub and p.suffix == ".json" and p.stem == p.parent.name
    )
    click.echo(f"Wrote {games} Card Game Simulator game(s) to {where(job, 'cgs', sub)}")
    click.echo(
        "Load: copy the <Game> folder into Card Game Simulator's games folder and pick the game in CGS."
    )


@click.command(name="mpc-autofill")
@common
@_dpi(300, "Resolution of the pictures (822 x 1122 px for a poker card at 300 dpi).")
def mpc_autofill(**options: Any) -> None:
    """MakePlayingCards through MPC Autofill: pictures and XML orders per deck: OUT/<game>/mpc-autofill/mpc-<dpi>/."""
    job, written, sub = _run(
        options,
        "mpc-autofill",
        "MPC Autofill",
        False,
        lambda job, stage, advance, dpi, sub: export_autofill(
            job.targets, job.setup, stage, job.out, dpi, job.jobs, advance, sub
        ),
        cards_only=True,
    )
    orders = sum(1 for p in written if p.suffix == ".xml")
    click.echo(
        f"Wrote {orders} MPC Autofill order(s) (at most {MAX_ORDER} cards each) to "
        f"{where(job, 'mpc-autofill', sub)}"
    )
    click.echo(
        "Load: run MPC Autofill's desktop tool with an order .xml; keep the output folder where it is."
    )


COMMANDS = (ttp, screentop, pcio, cgs, mpc_autofill)
