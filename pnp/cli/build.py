"""`pnp build`: every game's PDFs into the output folder, plus manifest.json."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import click

from pnp.cli.changes import check_tag, keep_tag
from pnp.cli.common import (
    FiniteRange,
    as_drafts,
    colour_options,
    draft_option,
    jobs_option,
    load_fonts,
    load_games,
    open_project,
    parse_offset,
    print_colour,
    progress,
    project_option,
    rules_first,
    set_counts,
)
from pnp.cli.language import in_languages, lang_option
from pnp.data.format.errors import InputError

# parameters that never change a PDF's bytes
_NOT_OPTIONS = (
    "games",
    "project_dir",
    "jobs",
    "out_dir",
    "clean",
    "force",
    "tag",
    "only_changed",
    "since",
    "lang",
)
# (--lang picks the game folders built: feenbalz/de is a folder of its own)


@click.command()
@click.argument("games", nargs=-1)
@project_option
@jobs_option
@click.option(
    "--out", "out_dir", default="output", show_default=True, help="Output folder (relative to the project)."
)
@click.option("--paper", default="a4", show_default=True, help="a4, letter, a3, tabloid or WxH in mm.")
@click.option(
    "--duplex",
    type=click.Choice(["long", "short", "off"]),
    default="long",
    show_default=True,
    help="Paper edge your printer flips on; off prints fronts only.",
)
@click.option("--bleed", type=FiniteRange(0, 10), default=3.0, show_default=True, help="Bleed in mm.")
@click.option("--back-offset", default="0,0", show_default=True, help="Shift backs pages by X,Y mm.")
@click.option(
    "--crop-marks", type=click.Choice(["edge", "corner", "full", "off"]), default="edge", show_default=True
)
@click.option(
    "--crop-length",
    type=click.FloatRange(1, 30),
    default=None,
    metavar="MM",
    help="Every crop mark this long (never into the margin) [default: to the margin; 4 mm for corner].",
)
@click.option(
    "--gap",
    type=click.FloatRange(0, 10),
    default=0.0,
    show_default=True,
    metavar="MM",
    help="Space between neighbouring cards; each card's bleed fills up to half of it, and all of it round "
    "the block (0: cards share cut lines, or each keeps its whole bleed where that fits as many).",
)
@click.option(
    "--margin",
    type=FiniteRange(0, 30),
    default=5.0,
    show_default=True,
    help="Paper edge in mm the printer cannot print: nothing is drawn there.",
)
@click.option(
    "--tuckbox",
    is_flag=True,
    help="Also print a tuck box for every deck (a deck's tuckbox: true asks for its own).",
)
@click.option(
    "--card-thickness",
    type=FiniteRange(0.05, 3.0),
    default=None,
    metavar="MM",
    help="Card thickness for tuck boxes [default: 0.3 mm, 300 gsm card; 0.5 mm with --sleeved].",
)
@click.option(
    "--sleeved", is_flag=True, help="Tuck boxes with room for sleeved cards (3 mm wider and taller each)."
)
@click.option(
    "--ink",
    type=click.Choice(["full", "low"]),
    default="full",
    show_default=True,
    help="low: a version for home printers: fills as light tints, text dark, no large pictures.",
)
@click.option(
    "--corner-radius",
    type=FiniteRange(0, 10),
    default=0.0,
    show_default=True,
    metavar="MM",
    help="Rounded corners: guides on the fronts, and the radius of the cut files' outlines.",
)
@click.option(
    "--cut-files",
    is_flag=True,
    help="Also write each deck's cut outlines, <deck>-cut.svg and <deck>-cut.dxf, for a cutting machine.",
)
@click.option(
    "--cutter",
    type=click.Choice(["silhouette", "cricut"]),
    default=None,
    help="Print and cut on this machine: the same as --sheet silhouette or --sheet cricut.",
)
@click.option(
    "--sheet",
    default="duplex",
    show_default=True,
    metavar="NAME",
    help="How cards sit on the paper: duplex, gutterfold, fronts, or a sheet of the project's "
    "sheets/ folder (pnp sheets lists them).",
)
@lang_option
@click.option(
    "--players", type=int, default=None, help="Sets for per-player components (e.g. Fairy Bucks money)."
)
@click.option("--decks", type=int, default=None, help="Copies of components printed per deck (e.g. tarot).")
@click.option("--board-paper", default=None, help="Paper for boards (e.g. a3, tabloid); default: --paper.")
@click.option(
    "--cmyk", is_flag=True, help="Card sheets as CMYK PDF/X-1a within the ink limit (for a print shop)."
)
@colour_options
@click.option("--clean", is_flag=True, help="Rebuild every game, even those unchanged since the last build.")
@draft_option
@click.option(
    "--force", is_flag=True, help="Build even when a composition rule is broken (listed as warnings)."
)
@click.option(
    "--tag",
    default=None,
    metavar="NAME",
    help="Keep this print's card records as prints/GAME/NAME.json (for pnp changes and reprints).",
)
@click.option(
    "--only-changed",
    is_flag=True,
    help="Write only reprint.pdf: the cards new or changed since --since NAME (or the last build).",
)
@click.option(
    "--since", default=None, metavar="NAME", help="With --only-changed: the tagged print to compare with."
)
@click.option(
    "--max-dpi",
    type=FiniteRange(72, 4800),
    default=None,
    metavar="DPI",
    help="Draw pictures sharper than this at their printed size downsampled to it (default: as they are).",
)
@click.pass_context
def build(
    ctx: click.Context,
    games: tuple[str, ...],
    project_dir: str,
    jobs: int | None,
    out_dir: str,
    paper: str,
    duplex: str,
    bleed: float,
    back_offset: str,
    crop_marks: str,
    crop_length: float | None,
    gap: float,
    margin: float,
    tuckbox: bool,
    card_thickness: float | None,
    sleeved: bool,
    ink: str,
    corner_radius: float,
    cut_files: bool,
    cutter: str | None,
    sheet: str,
    lang: str | None,
    players: int | None,
    decks: int | None,
    board_paper: str | None,
    cmyk: bool,
    ink_limit: float,
    press_profile: str | None,
    clean: bool,
    force: bool,
    tag: str | None,
    only_changed: bool,
    since: str | None,
    max_dpi: float | None,
    draft: bool,
) -> None:
    """Build GAMES (all when none) into OUT, one folder per game, plus manifest.json.

    A game whose database, templates, fonts, art and options are unchanged
    since its last build into OUT (and whose PDFs are intact) is skipped.
    The composition rules are checked first (as `pnp check` does): a broken rule
    stops the build with exit 1 and nothing written, unless --force is given.
    """
    project = open_project(project_dir)
    out = project.output(out_dir)
    settings = {k: v for k, v in sorted(ctx.params.items()) if k not in _NOT_OPTIONS}
    settings["sheet"], read_spec = _sheet(cutter or sheet, project.root)
    files = [project.resolve_game(n) for n in games] if games else list(project.game_files().values())
    check_tag(tag)
    requested = files
    if since is not None and not only_changed:
        raise click.UsageError(
            "--since goes with --only-changed (pnp changes GAME --since NAME lists the changes)"
        )
    if only_changed:
        from pnp.cli.changes import reprint  # lazy: only a reprint needs it

        reprint(project, out, files, _options(ctx.params, read_spec()), since, force, tag, lang, bool(games))
        return
    try:
        chosen, units = _units(project, files, lang, bool(games))
    except InputError as exc:
        raise _as_check_says(project, files, lang, draft, exc) from None
    wanted = units if clean else _stale(project, out, units, settings)
    if not clean and not wanted:
        click.echo(
            f"Up to date: {len(units)} game(s) unchanged since the last build in {out} (--clean rebuilds)"
        )
        keep_tag(project, files, tag, set_counts(players, decks), chosen)
        return
    if not clean:
        requested, files = files, list(dict.fromkeys(u[1] for u in wanted))
    # lazy: only a build that draws needs these (start-up speed)
    from pnp.buildplan.plan import plan_build, total_weight
    from pnp.buildplan.run import build as run_build
    from pnp.output.workers import jobs_for

    options = _options(ctx.params, read_spec())
    if chosen is not None:
        loaded = [g for g in chosen if (g.slug, g.source) in wanted]
    else:
        try:
            loaded = load_games(project, tuple(str(p) for p in files))
        except InputError as exc:
            raise _as_check_says(project, files, None, draft, exc) from None
    loaded = as_drafts(loaded, draft)
    rules_first(loaded, force)
    steps = plan_build(loaded, options)
    fonts = load_fonts(project)
    try:
        with progress(total_weight(steps), "Building") as advance:
            outputs = run_build(steps, loaded, out, fonts, advance, jobs_for(jobs), options, settings)
    except InputError as exc:
        from pnp.output.preflight import every_problem  # lazy: only a build that failed

        raise every_problem(loaded, fonts, exc, jobs_for(jobs)) from None
    pages = sum(o.pages for o in outputs)
    if draft:  # what the draft still lacks, as check lists it
        from pnp.output.preflight import resolve_cards  # lazy: only a draft

        for game in loaded:
            for note in resolve_cards(game, fonts):
                click.echo(f"warning: {game.slug}: {note}", err=True)
    click.echo(f"Wrote {len(outputs)} PDFs ({pages} pages) to {out} and updated {out / 'manifest.json'}")
    keep_tag(project, requested, tag, options.counts, None if requested != files else loaded)


def _stale(project: Any, out: Path, units: list[Any], settings: dict[str, Any]) -> list[Any]:
    """The games (and languages) whose PDFs in `out` are missing or older than their input; an
    up-to-date folder is tidied."""
    from pnp.output import freshness  # lazy: the freshness check needs no drawing code

    manifest = freshness.read_manifest(out)
    digests: dict[Path, str] = {}
    stale = [
        u for u in units if not freshness.is_fresh(out, project.root, u[0], u[1], settings, manifest, digests)
    ]
    if not stale:
        from pnp.output.publish import tidy  # lazy: light, and only for an up-to-date folder

        tidy(out)
    return stale


def _as_check_says(
    project: Any, files: list[Path], lang: str | None, draft: bool, first: InputError
) -> InputError:
    """A build whose games did not read: the list `pnp check` gives for them, what reading found and
    what resolving the cards finds besides (`pnp.cli.check.collect`)."""
    from pnp.cli.check import collect  # lazy: only a build that failed

    try:
        collect(project, tuple(str(p) for p in files), lang, draft, 1)
    except InputError as exc:
        return exc
    return first


def _units(
    project: Any, files: list[Path], lang: str | None, named: bool
) -> tuple[Any, list[tuple[str, Path]]]:
    """The game folders to build, (folder, database): without --lang each game's first language, found
    without loading anything; with it, the games loaded in each language asked for (and those)."""
    if lang is None:
        return None, [(p.stem, p) for p in files]
    chosen = in_languages(project, load_games(project, tuple(map(str, files))), lang, named)
    return chosen, [(g.slug, g.source) for g in chosen]


def _sheet(name: str, root: Path) -> tuple[str, Callable[[], Any]]:
    """The --sheet setting as the freshness check keys it (the name and its file's digest: an edited sheet
    rebuilds what uses it) and how to read the sheet, later, only when something is drawn (no YAML before)."""
    from pnp.data.reading.sheets import read_sheet, sheet_file  # lazy, as above

    path, display = sheet_file(name, root)
    return f"{name} {hashlib.sha256(path.read_bytes()).hexdigest()[:16]}", lambda: read_sheet(path, display)


def _options(p: Mapping[str, Any], sheet: Any) -> Any:
    """The BuildOptions the command line asks for (`p`: its parameters; `sheet`: the sheet read);
    a bad paper name is a usage error."""
    from pnp.geometry.sizes import paper_size
    from pnp.output.sheets import SheetOptions
    from pnp.output.steps import BuildOptions

    try:
        sheet_paper = paper_size(p["paper"])
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--paper") from None
    try:
        boards = paper_size(p["board_paper"]) if p["board_paper"] else None
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--board-paper") from None
    colour = print_colour(p["ink_limit"], p["press_profile"]) if p["cmyk"] else None
    sheets = SheetOptions(
        sheet_paper,
        p["duplex"],
        p["bleed"],
        parse_offset(p["back_offset"]),
        p["crop_marks"],
        p["margin"],
        sheet,
        p["corner_radius"],
        p["cut_files"],
        p["gap"],
        p["crop_length"],
    )
    return BuildOptions(
        sheets,
        set_counts(p["players"], p["decks"]),
        boards,
        colour,
        p["max_dpi"],
        p["tuckbox"],
        p["card_thickness"],
        p["sleeved"],
        p["ink"],
    )
