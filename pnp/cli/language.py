"""`--lang`: which of its languages a game is built, checked or exported in."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

import click

from pnp.cli.common import read_into
from pnp.data.format.errors import InputError, Problem
from pnp.data.reading.project import Project

if TYPE_CHECKING:
    from pnp.data.format.model import Game


LANG_HELP = (
    "A language the game is written in (its game.languages, e.g. de), or all [default: its first]. "
    "Other languages than the first go to GAME/CODE/."
)


def lang_option(fn: Callable) -> Callable:
    return click.option("--lang", default=None, metavar="CODE", help=LANG_HELP)(fn)


def export_lang_option(fn: Callable) -> Callable:
    """--lang for the exports: kept in the command's context (read by `chosen_lang`), not passed on."""

    def keep(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
        ctx.meta["pnp.lang"] = value

    return click.option(
        "--lang", default=None, metavar="CODE", expose_value=False, callback=keep, help=LANG_HELP
    )(fn)


def chosen_lang() -> str | None:
    """The --lang of the running export command (None: each game's first language)."""
    ctx = click.get_current_context(silent=True)
    return ctx.meta.get("pnp.lang") if ctx is not None else None


def in_languages(
    project: Project, games: list[Game], lang: str | None, named: bool, partly: list[Problem] | None = None
) -> list[Game]:
    """Each game in the languages `lang` asks for (None: as loaded, in its first). A game not written in
    a language asked for by its code is an error when it was named, and left out when all were meant (an
    error too when no game is written in it). `partly`: see `pnp.cli.common.load_games`."""
    if lang is None:
        return games
    out: list[Game] = []
    problems: list[Problem] = []
    for game in games:
        languages = game.game.languages
        if lang != "all" and lang not in languages:
            if named:
                problems.append(
                    Problem(
                        game.where,
                        None,
                        "game.languages",
                        f"{game.slug} is not written in {lang!r}; its languages: "
                        f"{', '.join(languages)} (--lang all builds every one)",
                    )
                )
            continue
        for code in languages if lang == "all" else (lang,):
            read_into(out, problems, partly, partial(_in_language, game, code))
    if problems:
        raise InputError(problems)
    if not out:
        written = "; ".join(f"{g.slug}: {', '.join(g.game.languages)}" for g in games)
        raise click.BadParameter(f"no game is written in {lang!r} ({written})", param_hint="--lang")
    return out


def _in_language(game: Game, code: str) -> Game:
    """`game` in the language `code` (itself when loaded in it)."""
    from pnp.data.reading.loader import load_game  # lazy, as in load_games

    return game if code == game.lang else load_game(game.source, game.where, game.root, lang=code)
