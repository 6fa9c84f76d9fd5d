"""What every `pnp` command shares: the project option, loading games, progress, error exits."""

from __future__ import annotations

import dataclasses
import math
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import click

from pnp.data.format.errors import InputError, PartlyRead, Problem, in_order
from pnp.data.reading.project import Project
from pnp.output.options import OPTION, Option

if TYPE_CHECKING:
    from pnp.data.format.model import Game

GAMES_HELP = "Game names (bargains, fairy-bucks, feenbalz, tarot, fairy-meat) or database files."


class FiniteRange(click.FloatRange):
    """click's FloatRange that also refuses nan and inf (which compare false with both bounds and so slip
    through a range check)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number.", param, ctx)
        return number


class Declared(click.ParamType):
    """A declared option's values, checked by its declaration (the same words as serve's)."""

    def __init__(self, option: Option):
        self.option, self.name = option, option.kind

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            return self.option.parse(value)
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


def click_option(o: Option) -> Callable[[Callable], Callable]:
    """The command-line option of a declared option (`pnp.output.options`)."""
    if o.kind == "flag":
        return click.option(o.cli, o.name, is_flag=True, help=o.help)
    choices = f"[{'|'.join(o.choices)}]" if o.choices else None
    return click.option(
        o.cli,
        o.name,
        type=click.Path(dir_okay=False, exists=True) if o.kind == "file" else Declared(o),
        default=o.show(o.default) if o.kind == "offset" else o.default,
        show_default=o.default is not None,
        metavar=o.metavar or choices,
        help=o.help,
    )


def declared(*names: str) -> Callable[[Callable], Callable]:
    """The declared options `names`, in this order, on a command."""

    def add(fn: Callable) -> Callable:
        for name in reversed(names):
            fn = click_option(OPTION[name])(fn)
        return fn

    return add


draft_option = declared("draft")
colour_options = declared("ink_limit", "press_profile")  # how CMYK output is separated


def project_option(fn: Callable) -> Callable:
    return click.option(
        "--project",
        "project_dir",
        default=".",
        show_default=True,
        type=click.Path(file_okay=False),
        help="Project folder holding card_data/, templates/, fonts/.",
    )(fn)


def jobs_option(fn: Callable) -> Callable:
    return click.option(
        "--jobs",
        "-j",
        type=click.IntRange(1, 256),
        default=None,
        help="Worker processes [default: the machine's cores].",
    )(fn)


def fail_input(exc: InputError) -> None:
    """Report unusable input and exit 2 (no traceback)."""
    problems = in_order(exc.problems)  # several steps may meet the same problem: each once
    click.echo(f"error: {len(problems)} problem(s) in the input:", err=True)
    for p in problems:
        click.echo(f"  {p}", err=True)
    if len(problems) > 3:  # the count again below a long list
        click.echo(f"{len(problems)} problems: fix them and run the command again", err=True)
    sys.exit(2)


def as_drafts(games: list[Game], draft: bool) -> list[Game]:
    """The games as --draft prints them (unchanged without it)."""
    return [dataclasses.replace(g, draft=True) for g in games] if draft else games


def load_games(project: Project, names: tuple[str, ...], partly: list[Problem] | None = None) -> list[Game]:
    """Load the named games (all when none), collecting every problem before failing.

    With `partly` (`pnp check`), a game read with problems is kept as far as it could be read and its
    problems go into `partly` instead: its cards are checked too."""
    from pnp.data.reading.loader import (
        load_game,  # lazy: `pnp build` with nothing to do loads nothing
    )

    files = [project.resolve_game(n) for n in names] if names else list(project.game_files().values())
    games: list[Game] = []
    problems: list[Problem] = []
    for path in files:
        read_into(games, problems, partly, partial(load_game, path, display(project, path), project.root))
    if problems:
        raise InputError(problems)
    return games


def read_into(
    games: list[Game], problems: list[Problem], partly: list[Problem] | None, read: Callable[[], Game]
) -> None:
    """read() added to `games`, or its problems to `problems`; with `partly` (`pnp check`), a game read
    with problems is added as far as it could be read, its problems going into `partly`."""
    try:
        games.append(read())
    except PartlyRead as exc:
        if partly is None:
            problems += exc.problems
        else:
            partly += exc.problems
            games.append(cast("Game", exc.model))
    except InputError as exc:
        problems += exc.problems


def rules_first(games: list[Game], force: bool, verb: tuple[str, str] = ("built", "builds")) -> None:
    """Check every composition rule before building: a broken one stops the build (exit 1).

    With `force` broken rules are printed as warnings and the build goes on;
    rules of severity warning are printed and never stop it. `verb` names the work
    in the message (`pnp stack`: stacked, stacks).
    """
    from pnp.rules.checker import checked  # lazy: every command imports this module (start-up speed)

    violations = [v for game in games for v in checked(game)]
    errors = [v for v in violations if v.severity == "error"]
    if errors and not force:
        click.echo(
            f"error: {len(errors)} composition rule(s) broken; nothing was {verb[0]} "
            f"(see `pnp check`; --force {verb[1]} anyway):",
            err=True,
        )
        for v in errors:
            click.echo(f"  {v}", err=True)
        sys.exit(1)
    for v in violations:
        click.echo(f"warning: {v}", err=True)


def load_fonts(project: Project) -> Any:
    """The project's fonts; says so (one line on stderr) when stand-in fonts are used."""
    # lazy: only the commands that draw need fonts (start-up speed)
    from pnp.resolve.fonts import Fonts

    fonts = Fonts.load(project.fonts)
    if fonts.notice:
        click.echo(fonts.notice, err=True)
    return fonts


def display(project: Project, path: Path) -> str:
    try:
        return str(path.resolve().relative_to(project.root))
    except ValueError:
        return str(path)


def open_project(project_dir: str) -> Project:
    return Project.at(project_dir)


def set_counts(players: int | None, decks: int | None) -> dict[str, int]:
    """--players / --decks as the counts of components printed in sets (only those given)."""
    return {k: v for k, v in (("players", players), ("decks", decks)) if v is not None}


@contextmanager
def progress(total: int, label: str) -> Iterator[Callable[[int], None]]:
    """A progress bar on a terminal (nothing otherwise); yields the function that advances it."""
    if not sys.stderr.isatty():
        yield lambda n: None
        return
    with click.progressbar(length=total, label=label, file=sys.stderr, show_pos=True) as bar:
        yield bar.update


class Group(click.Group):
    """The command group; a file that cannot be read or written ends any command with exit 2."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except InputError as exc:
            fail_input(exc)
        except BrokenPipeError:  # the reader went away (`pnp list | head`): stop quietly
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(0)
        except OSError as exc:
            where = f" {exc.filename}" if exc.filename else ""
            click.echo(f"error: cannot read or write{where}: {exc.strerror or exc}", err=True)
            sys.exit(2)


def version_option(fn: Callable) -> Callable:
    """--version: pnp's version, then each library an adapter uses and whether the adapter is on."""

    def show(ctx: click.Context, param: click.Parameter, value: bool) -> None:
        if not value or ctx.resilient_parsing:
            return
        from pnp import __version__
        from pnp.adapters import gates  # lazy: imports the libraries

        click.echo(f"pnp (fairy-pnp) {__version__}")
        for gate in gates():
            click.echo(f"  {gate.describe()}")
        ctx.exit()

    return click.option(
        "--version",
        is_flag=True,
        expose_value=False,
        is_eager=True,
        callback=show,
        help="Show the version and how pnp uses each library, then exit.",
    )(fn)
