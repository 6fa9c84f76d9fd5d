"""`pnp simulate`: play a game many times with bots and print what its rules and deck do to it."""

from __future__ import annotations

import json
from typing import Any

import click

from pnp.cli.common import display, jobs_option, open_project, progress, project_option
from pnp.data.format.errors import InputError, Problem
from pnp.data.reading.loader import load_game
from pnp.engines.play import STRENGTHS
from pnp.output.workers import jobs_for
from pnp.simulate.registry import NoEngine, Setup, setup
from pnp.simulate.report import format_comparison, format_summary
from pnp.simulate.run import run_games
from pnp.simulate.stats import compare, summarise


def _bots(text: str, players: int) -> tuple[str, ...]:
    names = tuple(b.strip() for b in text.split(",") if b.strip()) or ("greedy",)
    bad = [b for b in names if b not in STRENGTHS]
    if bad:
        raise click.BadParameter(f"{bad[0]!r} is no bot; use {' or '.join(STRENGTHS)}", param_hint="--bots")
    if len(names) not in (1, players):
        raise click.BadParameter(
            f"name one bot for every seat or {players} (one per seat)", param_hint="--bots"
        )
    return names * players if len(names) == 1 else names


def _setup(project: Any, name: str, way: str, option: str) -> tuple[str, Setup]:
    try:
        path = project.resolve_game(name)
    except InputError as exc:
        raise InputError([Problem(p.file, p.line, option, p.message) for p in exc.problems]) from None
    game = load_game(path, display(project, path), project.root)
    try:
        return game.game.name if not game.variant else f"{game.game.name} {game.variant['name']}", setup(
            game, way
        )
    except NoEngine as exc:
        raise InputError([Problem(display(project, path), None, option, str(exc))]) from None


def _run(
    label: str, s: Setup, games: int, players: int, bots: tuple[str, ...], seed: int, jobs: int
) -> dict[str, Any]:
    with progress(games, f"Playing {label}") as advance:  # on stderr: --json output stays clean
        outcomes = run_games(s.engine, games, players, bots, seed, jobs, advance)
    return {
        "game": label,
        "way": s.way,
        "players": players,
        "seed": seed,
        "bots": list(bots),
        "summary": summarise(outcomes, players),
    }


@click.command()
@click.argument("game")
@click.argument("variant", required=False, default="")
@project_option
@jobs_option
@click.option(
    "--games", type=click.IntRange(1, 10_000_000), default=1000, show_default=True, help="Games to play."
)
@click.option("--players", type=int, default=None, help="Players (default: the fewest the game allows).")
@click.option(
    "--seed", type=int, default=1, show_default=True, help="Seed: the same seed gives the same figures."
)
@click.option(
    "--bots",
    default="greedy",
    show_default=True,
    help="random or greedy, one for all or one per seat (comma-separated).",
)
@click.option(
    "--against",
    default="",
    metavar="BASE",
    help="Compare with BASE: another game or stacked deck, or another way of playing this game.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def simulate(
    game: str,
    variant: str,
    project_dir: str,
    jobs: int | None,
    games: int,
    players: int | None,
    seed: int,
    bots: str,
    against: str,
    as_json: bool,
) -> None:
    """Play GAME (a bundled game or a stacked deck) GAMES times with bots and print its figures.

    VARIANT is a way of playing the game (Fairy Bargains: main, variant-1, variant-2, solitaire).
    Every figure carries its 95 % confidence interval; --against compares with BASE (run with the
    same seed, players and bots) and marks the differences significant at 5 %.
    """
    project = open_project(project_dir)
    label, this = _setup(project, game, variant, "GAME")
    low, high = this.players
    count = low if players is None else players
    _check_players(f"{label} ({this.way})", this, count, "--players")
    base_label, base = label, None
    if against in this.ways:
        base = _setup(project, game, against, "--against")[1]
    elif against:
        base_label, base = _setup(project, against, variant, "--against")
    if base is not None:
        _check_players(f"{base_label} ({base.way})", base, count, "--against")
    seats = _bots(bots, count)
    n_jobs = jobs_for(jobs)
    result = _run(label, this, games, count, seats, seed, n_jobs)
    if base is not None:
        base_result = _run(base_label, base, games, count, seats, seed, n_jobs)
        result["against"] = base_result
        result["comparison"] = compare(result["summary"], base_result["summary"])
    if as_json:
        click.echo(json.dumps(result, indent=2))
        return
    click.echo(format_summary(result))
    if base is not None:
        other = result["against"]
        click.echo("\n" + format_summary(other) + "\n")
        click.echo(
            format_comparison(
                result["comparison"], f"{label} ({this.way})", f"{other['game']} ({other['way']})"
            )
        )


def _check_players(label: str, s: Setup, count: int, option: str) -> None:
    low, high = s.players
    if not low <= count <= high:
        raise click.BadParameter(f"{label} is for {low}-{high} players, not {count}", param_hint=option)
