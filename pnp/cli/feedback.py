"""`pnp feedback`: what players said about each card of a game in a playtest round."""

from __future__ import annotations

import json
from typing import Any

import click

from pnp.cli.common import load_games, open_project, project_option


@click.command()
@click.argument("game")
@project_option
@click.option("--round", "round_name", default=None, metavar="NAME", help="The round (default: the latest).")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON (for tools).")
def feedback(game: str, project_dir: str, round_name: str | None, as_json: bool) -> None:
    """Summarise what players said about GAME's cards in a playtest round, card by card.

    Reads playtest/ROUND.jsonl (written by pnp serve --playtest, or typed by hand, one
    JSON entry a line): per card the entries, the ticks counted, the ratings and the words.
    """
    from pnp.data.format.feedback import is_round, summary
    from pnp.data.reading.feedback import FOLDER, game_rounds

    if round_name is not None and not is_round(round_name):
        raise click.BadParameter(
            f"{round_name!r}: a round's name (1-40 letters, digits, . _ -)", param_hint="--round"
        )
    project = open_project(project_dir)
    (loaded,) = load_games(project, (game,))
    rounds = game_rounds(project.root, loaded.tag)
    if round_name is None and rounds:
        round_name = list(rounds)[-1]
    said = summary(rounds.get(round_name or "", []))
    names = {loaded.code(c): c.name for comp in loaded.components if comp.is_cards for c in comp.cards}
    report: dict[str, Any] = {
        "game": loaded.slug,
        "round": round_name,
        "file": f"{FOLDER}/{round_name}.jsonl" if round_name else None,
        "cards": {code: {"name": names.get(code, ""), **s.as_json()} for code, s in said.items()},
    }
    if as_json:
        click.echo(json.dumps(report, indent=2, ensure_ascii=False))
        return
    if not said:
        where = f"round {round_name}" if round_name else f"{FOLDER}/"
        click.echo(f"{loaded.game.name}: no feedback in {where} yet.")
        return
    total = sum(s.entries for s in said.values())
    click.echo(
        f"{loaded.game.name}, round {round_name}: {total} entries on {len(said)} cards ({report['file']})"
    )
    for code, s in said.items():
        name = names.get(code) or "(no longer in the game)"
        click.echo(f"  {code:14} {name}: {s.line()}")
        for text in s.texts:
            click.echo(f"      “{text}”")
