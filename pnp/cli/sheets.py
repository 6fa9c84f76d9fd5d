"""`pnp sheets`: every sheet `pnp build --sheet` can use, what it is for, and a picture of it."""

from __future__ import annotations

from pathlib import Path

import click

from pnp.cli.common import fail_input
from pnp.data.format.errors import InputError
from pnp.data.reading.sheets import read_sheet, sheet_files
from pnp.data.store import files
from pnp.geometry.grid import FOLD_CLEAR
from pnp.geometry.sizes import card_size, paper_size
from pnp.output.sheet_pictures import sheet_grid, sheet_picture


@click.command(name="sheets")
@click.option(
    "--project",
    "project_dir",
    default=".",
    show_default=True,
    type=click.Path(file_okay=False),
    help="Project folder (its sheets/ folder adds sheets).",
)
@click.option(
    "--paper", default="a4", show_default=True, help="Paper of the pictures: a4, letter, a3, or WxH mm."
)
@click.option(
    "--card", default="poker", show_default=True, help="Card size of the pictures: poker, tarot, ... or WxH."
)
@click.option(
    "--out",
    "out_dir",
    default="output",
    show_default=True,
    help="Pictures go to OUT/sheets/ (relative to the project).",
)
def sheets(project_dir: str, paper: str, card: str, out_dir: str) -> None:
    """List the sheets (built in, then the project's sheets/), with how many cards of one size fit, and
    draw each one's picture: fronts pale, backs dark with their front's number, the fold in red."""
    root = Path(project_dir).resolve()
    project = root if (root / "card_data").is_dir() else None
    try:
        paper_mm, card_mm = paper_size(paper), card_size(card)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    folder = (Path(out_dir) if Path(out_dir).is_absolute() else root / out_dir) / "sheets"
    broken: list = []
    for path, display in sheet_files(project).values():
        try:
            spec = read_sheet(path, display)
        except InputError as exc:  # listed with the others' problems at the end
            broken += exc.problems
            continue
        click.echo(f"{spec.name}  ({spec.source})")
        click.echo(f"  {' '.join(spec.about.split())}")
        try:
            grid = sheet_grid(spec, paper_mm, card_mm)
        except ValueError as exc:
            click.echo(f"  {card_mm.label()} on {paper_mm.label()}: {exc}")
            continue
        way = "portrait" if grid.page.h >= grid.page.w else "landscape"
        click.echo(
            f"  {card_mm.label()} on {paper_mm.label()}: {grid.per_page} per page "
            f"({grid.cols} x {grid.rows}, {way}{', fold ' + grid.fold if grid.fold else ''})"
        )
        if grid.fold:
            click.echo(
                f"  fronts and backs {grid.fold_gap:g} mm apart: the fold {FOLD_CLEAR:g} mm from any bleed"
            )
        if spec.registration:
            click.echo(f"  cards {spec.registration.frame:g} mm from every edge, inside the marks' frame")
        path = folder / f"{spec.name}-{paper}-{card}.png".replace(" ", "")
        files.write_bytes(path, sheet_picture(spec, grid), folder.parent)
        click.echo(f"  picture: {path}")
    if broken:
        fail_input(InputError(broken))
