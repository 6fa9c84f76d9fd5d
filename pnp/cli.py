"""The `pnp` command line: build, check, list and schema (other commands add themselves here)."""
from __future__ import annotations

import json
import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

import click

from .errors import InputError
from .model import Game
from .project import Project

GAMES_HELP = "Game names (bargains, fairy-bucks, feenbalz, tarot, fairy-meat) or database files."


def project_option(fn: Callable) -> Callable:
    return click.option("--project", "project_dir", default=".", show_default=True,
                        type=click.Path(file_okay=False), help="Project folder holding card_data/, templates/, fonts/.")(fn)


def fail_input(exc: InputError) -> None:
    """Report unusable input and exit 2 (no traceback)."""
    click.echo(f"error: {len(exc.problems)} problem(s) in the input:", err=True)
    for p in exc.problems:
        click.echo(f"  {p}", err=True)
    sys.exit(2)


def load_games(project: Project, names: tuple[str, ...]) -> list[Game]:
    """Load the named games (all when none), collecting every problem before failing."""
    from .loader import load_game
    files = [project.resolve_game(n) for n in names] if names else list(project.game_files().values())
    games, problems = [], []
    for path in files:
        try:
            games.append(load_game(path, _display(project, path), project.root))
        except InputError as exc:
            problems += exc.problems
    if problems:
        raise InputError(problems)
    return games


def _display(project: Project, path: Path) -> str:
    try:
        return str(path.resolve().relative_to(project.root))
    except ValueError:
        return str(path)


def _project(project_dir: str) -> Project:
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


def _offset(text: str) -> tuple[float, float]:
    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        raise click.BadParameter("use X,Y in millimetres, e.g. 0.5,-1") from None
    return x, y


class _Group(click.Group):
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


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="fairy-pnp")
def main() -> None:
    """fairy-pnp: print-and-play PDFs, checks and stacked decks for fairy card games."""


@main.command()
@click.argument("games", nargs=-1)
@project_option
@click.option("--out", "out_dir", default="output", show_default=True, help="Output folder (relative to the project).")
@click.option("--paper", default="a4", show_default=True, help="a4, letter, a3, tabloid or WxH in mm.")
@click.option("--duplex", type=click.Choice(["long", "short", "off"]), default="long", show_default=True,
              help="Paper edge your printer flips on; off prints fronts only.")
@click.option("--bleed", type=click.FloatRange(0, 10), default=3.0, show_default=True, help="Bleed in mm.")
@click.option("--back-offset", default="0,0", show_default=True, help="Shift backs pages by X,Y mm.")
@click.option("--crop-marks", type=click.Choice(["edge", "corner", "full", "off"]), default="edge", show_default=True)
@click.option("--players", type=int, default=None, help="Sets for per-player components (e.g. Fairy Bucks money).")
@click.option("--decks", type=int, default=None, help="Copies of components printed per deck (e.g. tarot).")
@click.option("--board-paper", default=None, help="Paper for boards (e.g. a3, tabloid); default: --paper.")
def build(games: tuple[str, ...], project_dir: str, out_dir: str, paper: str, duplex: str, bleed: float,
          back_offset: str, crop_marks: str, players: int | None, decks: int | None, board_paper: str | None) -> None:
    """Build GAMES (all when none) into OUT, one folder per game, plus manifest.json."""
    from .build import BuildOptions, plan_build, total_weight
    from .build import build as run_build
    from .fonts import Fonts
    from .geometry import paper_size
    from .sheets import SheetOptions

    project = _project(project_dir)
    try:
        sheet_paper = paper_size(paper)
        boards = paper_size(board_paper) if board_paper else None
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None
    options = BuildOptions(SheetOptions(sheet_paper, duplex, bleed, _offset(back_offset), crop_marks),
                           set_counts(players, decks), boards)
    loaded = load_games(project, games)
    steps = plan_build(loaded, options)
    fonts = Fonts.load(project.fonts)
    out = project.output(out_dir)
    with progress(total_weight(steps), "Building") as advance:
        outputs = run_build(steps, loaded, out, fonts, advance)
    pages = sum(o.pages for o in outputs)
    click.echo(f"Wrote {len(outputs)} PDFs ({pages} pages) to {out} and updated {out / 'manifest.json'}")


@main.command()
@click.argument("games", nargs=-1)
@project_option
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def check(games: tuple[str, ...], project_dir: str, as_json: bool) -> None:
    """Validate databases and check every composition rule.

    Exit 0 when all rules hold, 1 when any is broken, 2 for unusable input.
    """
    from .fonts import Fonts
    from .rules import check_game
    from .validate import validate

    try:
        project = _project(project_dir)
        loaded = load_games(project, games)
        fonts = Fonts.load(project.fonts)
        report = [(game, check_game(game)) for game in loaded]
        for game, violations in report:
            validate(game, fonts, booklets=not any(v.severity == "error" for v in violations))
    except InputError as exc:
        if as_json:
            click.echo(json.dumps({"ok": False, "problems": [str(p) for p in exc.problems]}, indent=2))
            sys.exit(2)
        raise
    broken = any(v.severity == "error" for _, vs in report for v in vs)
    if as_json:
        click.echo(json.dumps({"ok": not broken, "games": [
            {"game": g.game.name, "name": g.slug, "tag": g.tag, "file": _display(project, g.source),
             "ok": not any(v.severity == "error" for v in vs), "violations": [v.as_dict() for v in vs]}
            for g, vs in report]}, indent=2))
    else:
        for game, violations in report:
            rules = sum(len(c.rules) for c in game.components)
            errors = [v for v in violations if v.severity == "error"]
            status = "ok" if not errors else f"{len(errors)} broken"
            click.echo(f"{game.slug} ({game.tag}): {rules} rules, {status}")
            for v in violations:
                click.echo(f"  {v}")
    sys.exit(1 if broken else 0)


@main.command(name="list")
@project_option
def list_games(project_dir: str) -> None:
    """Show games, their components and card counts."""
    loaded = load_games(_project(project_dir), ())
    for game in loaded:
        p = game.game.players
        players = f"{p.min} players" if p.min == p.max else f"{p.min}-{p.max} players"
        click.echo(f"{game.slug:<12} {game.tag}  {game.game.name}  ({players})")
        for comp in game.components:
            click.echo(f"    {comp.key:<16} {comp.kind:<10} {comp.name:<32} {_detail(comp)}".rstrip())


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _detail(comp: Any) -> str:
    """What `pnp list` says about a component besides its name."""
    if comp.kind == "booklet":
        return f"templates/{comp.template}"
    if comp.kind == "board":
        size = comp.board.get("size", "") if isinstance(comp.board, dict) else ""
        return f"{size} mm" if size else ""
    detail = f"{_plural(comp.card_count, 'card')}, {comp.card_size}"
    if comp.sets:
        detail += f", one set per {comp.sets.option[:-1]} ({comp.sets.min}-{comp.sets.max}, default {comp.sets.default})"
    return detail


@main.command()
@project_option
@click.option("--out", "out_file", default=None, help="Write to this file instead of standard output.")
def schema(project_dir: str, out_file: str | None) -> None:
    """Print the JSON Schema of the card database format (for editors).

    The format is the same for every project; --project is accepted for symmetry.
    """
    from .model import Game
    from .schema import json_schema

    data = {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "fairy-pnp card database",
            **json_schema(Game)}
    text = json.dumps(data, indent=2)
    if out_file:
        Path(out_file).write_text(text + "\n", encoding="utf-8")
    else:
        click.echo(text)


# Commands defined in their own modules register here (imported last: they use the helpers above).
from .exports.commands import export, preview  # noqa: E402
from .stackcli import stack  # noqa: E402

for _command in (export, preview, stack):
    main.add_command(_command)


if __name__ == "__main__":
    main()
