"""`pnp package`: a game's print-and-play zip (both papers, duplex and gutterfold, boxes and a guide)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import click

from pnp.buildplan.package import build_variants
from pnp.buildplan.plan import check_counts
from pnp.cli.common import (
    jobs_option,
    load_fonts,
    load_games,
    open_project,
    progress,
    project_option,
    rules_first,
    set_counts,
)
from pnp.cli.language import in_languages, lang_option
from pnp.data.reading.sheets import sheet_named
from pnp.geometry.sizes import paper_size
from pnp.output.package import PAPERS, SHEETS, write_zip
from pnp.output.print_guide import write_guide
from pnp.output.sheets import SheetOptions
from pnp.output.steps import BuildOptions
from pnp.output.workers import jobs_for


@click.command(name="package")
@click.argument("game")
@project_option
@jobs_option
@click.option(
    "--out", "out_dir", default="output", show_default=True, help="Output folder (relative to the project)."
)
@click.option("--players", type=int, default=None, help="Sets for per-player components.")
@click.option("--decks", type=int, default=None, help="Copies of components printed per deck.")
@lang_option
def package(
    game: str,
    project_dir: str,
    jobs: int | None,
    out_dir: str,
    players: int | None,
    decks: int | None,
    lang: str | None,
) -> None:
    """Write OUT/<game>-print-and-play.zip: A4 and Letter card sheets for duplex printers and for any
    printer (gutterfold), each in full and low ink, boards, booklets, checklist, tuck boxes, and a
    one-page print-and-cut guide (--lang de: in German, OUT/<game>-de-print-and-play.zip)."""
    project = open_project(project_dir)
    if lang == "all":
        raise click.BadParameter("one language per package (a code such as de)", param_hint="--lang")
    loaded = in_languages(project, load_games(project, (game,)), lang, True)
    the_game = loaded[0]
    counts = set_counts(players, decks)
    check_counts(loaded, counts)
    rules_first(loaded, False, ("packaged", "packages"))
    fonts = load_fonts(project)
    sheets = {name: sheet_named(name, project.root) for name in SHEETS}
    options = BuildOptions(SheetOptions(paper_size("a4")), counts)
    with (
        tempfile.TemporaryDirectory(prefix="pnp-package-") as tmp,
        progress(len(PAPERS) * len(SHEETS) * 20, "Packaging") as advance,
    ):
        files = build_variants(the_game, options, fonts, sheets, Path(tmp), jobs_for(jobs), lambda n: None)
        guides = {
            f"{paper}/print-guide.pdf": write_guide(
                the_game, paper_size(paper), [f for f in files if f.startswith(f"{paper}/")], fonts
            )
            for paper in PAPERS
        }
        advance(len(PAPERS) * len(SHEETS) * 20)
        root = f"{the_game.slug.replace('/', '-')}-print-and-play"
        path = project.output(out_dir) / f"{root}.zip"
        write_zip(path, root, files, guides)
    click.echo(
        f"Wrote {path} ({len(files) + len(guides)} files: A4 and Letter, duplex and gutterfold, "
        "full and low ink)"
    )
