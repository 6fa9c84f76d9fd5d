"""`pnp build`: every game's PDFs into the output folder, plus manifest.json."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from pnp.cli.changes import check_tag, keep_tag
from pnp.cli.common import (
    as_drafts,
    declared,
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
from pnp.data.format.errors import InputError
from pnp.output.options import OPTIONS, freshness_key


@click.command()
@click.argument("games", nargs=-1)
@project_option
@jobs_option
@lang_option
@declared(*(o.name for o in OPTIONS))
@click.pass_context
def build(
    ctx: click.Context, games: tuple[str, ...], project_dir: str, jobs: int | None, lang: str | None, **v: Any
) -> None:
    """Build GAMES (all when none) into OUT, one folder per game, plus manifest.json.

    A game whose database, templates, fonts, art and options are unchanged
    since its last build into OUT (and whose PDFs are intact) is skipped.
    The composition rules are checked first (as `pnp check` does): a broken rule
    stops the build with exit 1 and nothing written, unless --force is given.
    """
    project = open_project(project_dir)
    out = project.output(v["out_dir"])
    settings = freshness_key(v)
    settings["sheet"], read_spec = _sheet(v["cutter"] or v["sheet"], project.root)
    tag, since, draft, force = v["tag"], v["since"], v["draft"], v["force"]
    files = [project.resolve_game(n) for n in games] if games else list(project.game_files().values())
    check_tag(tag)
    requested = files
    if since is not None and not v["only_changed"]:
        raise click.UsageError(
            "--since goes with --only-changed (pnp changes GAME --since NAME lists the changes)"
        )
    if v["only_changed"]:
        from pnp.buildplan.options import build_options
        from pnp.cli.changes import reprint  # lazy: only a reprint needs it

        reprint(project, out, files, build_options(v, read_spec()), since, force, tag, lang, bool(games))
        return
    try:
        chosen, units = _units(project, files, lang, bool(games))
    except InputError as exc:
        raise _as_check_says(project, files, lang, draft, exc) from None
    wanted = units if v["clean"] else _stale(project, out, units, settings)
    if not v["clean"] and not wanted:
        click.echo(
            f"Up to date: {len(units)} game(s) unchanged since the last build in {out} (--clean rebuilds)"
        )
        keep_tag(project, files, tag, set_counts(v["players"], v["decks"]), chosen)
        return
    if not v["clean"]:
        requested, files = files, list(dict.fromkeys(u[1] for u in wanted))
    # lazy: only a build that draws needs these (start-up speed)
    from pnp.buildplan.options import build_options
    from pnp.buildplan.plan import plan_build, total_weight
    from pnp.buildplan.run import build as run_build
    from pnp.output.workers import jobs_for

    options = build_options(v, read_spec())
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
