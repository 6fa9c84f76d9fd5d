"""`pnp check`: validate databases and check every composition rule."""

from __future__ import annotations

import dataclasses
import json
import sys
from typing import TYPE_CHECKING

import click

from pnp.cli.common import (
    as_drafts,
    display,
    draft_option,
    jobs_option,
    load_fonts,
    load_games,
    open_project,
    project_option,
)
from pnp.cli.language import in_languages, lang_option
from pnp.data.format.errors import InputError, Problem, echoes_left_out, in_order
from pnp.output.exports.naming import Target, card_components
from pnp.output.exports.setup import Setup
from pnp.output.preflight import resolve_games, untranslated, validate, words_missing
from pnp.output.workers import jobs_for
from pnp.rules.checker import Violation, checked

if TYPE_CHECKING:
    from pnp.data.format.model import Game
    from pnp.data.reading.project import Project
    from pnp.output.access.report import Finding
    from pnp.output.shop_check import FileReport


Report = list[tuple["Game", list[Violation], list[Problem]]]


def preflights(project: Project, games: list[Game], jobs: int | None) -> list[FileReport]:
    """DriveThruCards preflight of every deck of these games (`pnp.output.shop_check`)."""
    from pnp.output.shop_check import drivethru_preflight  # lazy: only --shop makes print files

    setup = Setup(tuple(games), str(project.fonts))
    targets = [Target(g, comp) for g in games for comp in card_components(g)]
    return drivethru_preflight(targets, setup, jobs_for(jobs))


def collect(
    project: Project, games: tuple[str, ...], lang: str | None, draft: bool, jobs: int | None
) -> tuple[Report, dict[str, list[str]]]:
    """Every game read and resolved in the languages asked for: each game's rule report and warnings,
    or InputError with every problem of all of them (a game read with problems resolved too, so one
    run names what reading and resolving found; `pnp build` gives the same list when it fails)."""
    partly: list[Problem] = []  # what reading found; the games read with it are resolved too
    loaded = as_drafts(
        in_languages(project, load_games(project, games, partly), lang, bool(games), partly), draft
    )
    fonts = load_fonts(project)
    report = [(game, checked(game), untranslated(game)) for game in loaded] if not partly else []
    warned: dict[str, list[str]] = {}
    problems: list[Problem] = []
    try:  # every game's cards on one pool of workers
        resolved: list[list[str] | InputError | None] = [*resolve_games(loaded, fonts, jobs_for(jobs))]
    except Exception:  # noqa: BLE001 - a game read with problems may not hold together: each on its own below
        if not partly:
            raise
        resolved = [None] * len(loaded)
    for game, cards in zip(loaded, resolved):  # every game resolved, all their problems in one run
        try:
            unbroken = not partly and not any(v.severity == "error" for _, vs, _ in report for v in vs)
            found = validate(game, fonts, unbroken, jobs=jobs_for(jobs), cards=cards)
            warned[game.slug] = words_missing(game) + found
        except InputError as exc:
            problems += exc.problems
        except Exception:  # noqa: BLE001 - a game read with problems may not hold together; they stand
            if not partly:
                raise
    if partly or problems:
        raise InputError(partly + echoes_left_out(problems, partly))
    return report, warned


@click.command()
@click.argument("games", nargs=-1)
@project_option
@lang_option
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
@draft_option
@jobs_option
@click.option(
    "--shop",
    type=click.Choice(["drivethru"]),
    default=None,
    help="Also preflight the shop's print files (drivethru: trim, bleed, PDF/X, ink limit, minimum type "
    "size, file size; each pass or fail).",
)
@click.option(
    "--access",
    is_flag=True,
    help="Also check that everyone can read the cards: colour vision, contrast and type size (docs/accessibility.md).",
)
def check(
    games: tuple[str, ...],
    project_dir: str,
    lang: str | None,
    as_json: bool,
    draft: bool,
    jobs: int | None,
    shop: str | None,
    access: bool,
) -> None:
    """Validate databases and check every composition rule, in every language each game is written in
    (--lang: in one): a text missing in a language, too long for its box in it, or with a character its
    font lacks, is reported.

    Exit 0 when all rules hold, 1 when any is broken or a translation is missing (or, with --access,
    a card is hard to read), 2 for unusable input.
    """

    try:
        project = open_project(project_dir)
        report, warned = collect(project, games, lang or "all", draft, jobs)
    except InputError as exc:
        if as_json:
            found = in_order(exc.problems)
            click.echo(
                json.dumps(
                    {
                        "ok": False,
                        "count": len(found),
                        "problems": [str(p) for p in found],
                        "located": [dataclasses.asdict(p) for p in found],
                    },
                    indent=2,
                )
            )
            sys.exit(2)
        raise
    broken = any(v.severity == "error" for _, vs, _ in report for v in vs) or any(
        gaps for _, _, gaps in report
    )
    files = preflights(project, [g for g, _, _ in report], jobs) if shop else []
    broken = broken or not all(f.ok for f in files)
    hard = _access(project, report) if access else {}
    broken = broken or any(hard.values())
    if as_json:
        click.echo(
            json.dumps(
                {
                    "ok": not broken,
                    "games": [
                        {
                            "game": g.game.name,
                            "name": g.slug,
                            "tag": g.tag,
                            "language": g.lang,
                            "file": display(project, g.source),
                            "ok": not any(v.severity == "error" for v in vs) and not gaps,
                            "violations": [v.as_dict() for v in vs],
                            "untranslated": [str(p) for p in gaps],
                            "warnings": warned[g.slug],
                            **(
                                {
                                    "access": [
                                        dict(f.as_dict(), problem=str(f.problem))
                                        for f in hard[(g.slug, g.lang)]
                                    ]
                                }
                                if access
                                else {}
                            ),
                        }
                        for g, vs, gaps in report
                    ],
                    **({"shop": {"name": shop, "files": [f.as_dict() for f in files]}} if shop else {}),
                },
                indent=2,
            )
        )
    else:
        for game, violations, gaps in report:
            rules = len(game.rules) + sum(len(c.rules) for c in game.components)
            errors = [v for v in violations if v.severity == "error"]
            status = "ok" if not errors else f"{len(errors)} broken"
            missing = f", {len(gaps)} missing {game.lang} text(s)" if gaps else ""
            click.echo(f"{game.slug} ({game.tag}): {rules} rules, {status}{missing}")
            for v in violations:
                click.echo(f"  {v}")
            for p in gaps:
                click.echo(f"  untranslated: {p}")
            for note in warned[game.slug]:
                click.echo(f"  warning: {note}")
            if access:
                _say_access(hard[(game.slug, game.lang)])
        for f in files:
            click.echo(f"{shop} {f.file}: {'ok' if f.ok else 'fails'}")
            for c in f.checks:
                click.echo(f"  {c}")
    sys.exit(1 if broken else 0)


def _access(project: Project, report: Report) -> dict[tuple[str, str], list[Finding]]:
    """Each game's access findings, in each language checked."""
    from pnp.output.access.report import check_game  # lazy: numpy and PDFium only for --access

    fonts = load_fonts(project)
    return {(game.slug, game.lang): check_game(game, fonts) for game, _, _ in report}


def _say_access(findings: list[Finding]) -> None:
    click.echo(f"  access: {len(findings) or 'no'} problem{'s' * (len(findings) != 1)}")
    for f in findings:
        click.echo(f"    {f.problem}")
