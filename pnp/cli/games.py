"""`pnp list`: the games, their components and card counts."""

from __future__ import annotations

from typing import Any

import click

from pnp.cli.common import load_games, open_project, project_option


@click.command(name="list")
@project_option
def list_games(project_dir: str) -> None:
    """Show games, their components and card counts, then the stacked variants."""
    project = open_project(project_dir)
    loaded = load_games(project, ())
    for game in loaded:
        p = game.game.players
        players = f"{p.min} players" if p.min == p.max else f"{p.min}-{p.max} players"
        click.echo(f"{game.slug:<12} {game.tag}  {game.game.name}  ({players})")
        for comp in game.components:
            click.echo(f"    {comp.key:<16} {comp.kind:<10} {comp.name:<32} {_detail(comp)}".rstrip())
    names = tuple(project.variant_files())
    variants = load_games(project, names) if names else []  # no names would mean every game
    if variants:
        click.echo("\nStacked variants (card_data/variants/; pnp build NAME, pnp check NAME):")
    for game in variants:
        base = game.variant.get("base", "?") if isinstance(game.variant, dict) else "?"
        cards = sum(c.card_count for c in game.components if c.is_cards)
        click.echo(f"{game.slug:<12} {game.tag}  {game.game.name}  (from {base}, {_plural(cards, 'card')})")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _detail(comp: Any) -> str:
    """What `pnp list` says about a component besides its name."""
    if comp.kind == "booklet":
        return f"templates/{comp.template}"
    if comp.kind == "board":
        size = comp.board.size if comp.board is not None else ""
        return f"{size} mm" if size else ""
    detail = f"{_plural(comp.card_count, 'card')}, {comp.card_size}"
    if comp.sets:
        detail += f", one set per {comp.sets.option[:-1]} ({comp.sets.min}-{comp.sets.max}, default {comp.sets.default})"
    return detail
