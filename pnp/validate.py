"""Everything `pnp check` verifies beyond the composition rules, without drawing anything."""
from __future__ import annotations

from .boardspec import parse_board
from .booklets import prepare
from .errors import InputError, Problem
from .faces import validate_designs
from .model import Game


def validate(game: Game, booklets: bool = True) -> None:
    """Render every card's slots, read every board, render every booklet; raise all problems at once.

    `pnp check` leaves booklets out while a composition rule is broken: a booklet
    describes a complete deck, and its errors would only echo the broken rule.
    """
    problems: list[Problem] = []
    steps = [lambda: validate_designs(game)]
    for comp in game.components:
        if comp.kind == "board":
            steps.append(lambda comp=comp: parse_board(game, comp))
        elif comp.kind == "booklet" and booklets:
            steps.append(lambda comp=comp: prepare(game, comp))
    for step in steps:
        try:
            step()
        except InputError as exc:
            problems += exc.problems
    if problems:
        raise InputError(list(dict.fromkeys(problems)))  # a booklet reads boards too: report each once
