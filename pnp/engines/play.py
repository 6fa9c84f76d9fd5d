"""Whole games played by bots: the protocol every game engine follows, and one game played out.

An engine holds a game's rules as plain values (built from the database by `pnp.simulate.registry`)
and a state that only its own methods change. `play_game` asks the engine for the legal moves,
lets the seat's bot pick one, refuses anything not among them, and stops a game that has not ended
after `step_limit` decisions, reporting it as such instead of looping.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

STRENGTHS = ("random", "greedy")
STEP_LIMIT_END = "no end (step limit)"


class IllegalMove(ValueError):
    """A move the rules do not allow in this state (an engine or bot bug, never a user error)."""


@dataclass(frozen=True)
class Outcome:
    """How one game ended: score per seat, the winning seats (ties share), the end condition,
    turns and rounds played, and per-game figures of the engine's own (damage per combat...)."""

    scores: tuple[float, ...]
    winners: tuple[int, ...]
    end: str
    turns: int
    rounds: int
    metrics: Mapping[str, float] = field(default_factory=dict)


class Engine(Protocol):
    """A game's rules. `state` is whatever `start` returns; only the engine changes it."""

    def start(self, players: int, rng: random.Random) -> Any: ...

    def to_move(self, state: Any) -> int: ...

    def legal_moves(self, state: Any) -> Sequence[Any]: ...

    def apply(self, state: Any, move: Any, rng: random.Random) -> None: ...

    def ended(self, state: Any) -> str | None:
        """The end condition that holds now, or None while the game goes on."""
        ...

    def outcome(self, state: Any, end: str) -> Outcome: ...

    def greedy(self, state: Any, moves: Sequence[Any], rng: random.Random) -> Any:
        """The move of the engine's simple strong player: greedy, or a short lookahead."""
        ...


class LazyMoves(Sequence[Any]):
    """Legal moves listed only when a bot needs the whole list (the random bot does, a greedy one that
    builds its own move need not): `head` is always listed, `rest` lists the others, `some_rest`
    says whether there are any and `allows` checks one of them without listing them all."""

    def __init__(
        self,
        head: list[Any],
        rest: Callable[[], list[Any]],
        some_rest: Callable[[], bool],
        allows: Callable[[Any], bool],
    ) -> None:
        self.head, self._rest, self._some, self._allows = head, rest, some_rest, allows
        self._listed: list[Any] | None = None

    def _all(self) -> list[Any]:
        if self._listed is None:
            self._listed = self.head + self._rest()
        return self._listed

    def __len__(self) -> int:
        return len(self._all())

    def __getitem__(self, i: Any) -> Any:
        return self._all()[i]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._all())

    def __contains__(self, move: object) -> bool:
        return move in self.head or self._allows(move)

    def __bool__(self) -> bool:
        return bool(self.head) or self._some()

    def several(self) -> bool:
        """More than one legal move (without listing them when the head alone shows it)."""
        return len(self.head) > 1 or (bool(self.head) and self._some()) or len(self._all()) > 1


def choose(engine: Engine, strength: str, state: Any, moves: Sequence[Any], rng: random.Random) -> Any:
    """A bot's move: `random` picks any legal move alike, `greedy` asks the engine's own player."""
    if not (moves.several() if isinstance(moves, LazyMoves) else len(moves) > 1):
        return moves[0]
    if strength == "random":
        return moves[rng.randrange(len(moves))]
    if strength == "greedy":
        return engine.greedy(state, moves, rng)
    raise ValueError(f"unknown bot {strength!r}; use {' or '.join(STRENGTHS)}")


def play_game(
    engine: Engine, players: int, bots: Sequence[str], rng: random.Random, step_limit: int | None = None
) -> Outcome:
    """One whole game: bots[seat] plays each seat; every move is checked against the legal ones.
    `step_limit` (default: the engine's `step_limit`, else 10,000) bounds the decisions."""
    if step_limit is None:
        step_limit = int(getattr(engine, "step_limit", 10_000))
    if len(bots) != players:
        raise ValueError(f"{players} players need {players} bots, got {len(bots)}")
    state = engine.start(players, rng)
    for _ in range(step_limit):
        end = engine.ended(state)
        if end is not None:
            return engine.outcome(state, end)
        moves = engine.legal_moves(state)
        if not moves:
            raise IllegalMove("the game has not ended but no move is legal")
        seat = engine.to_move(state)
        move = choose(engine, bots[seat], state, moves, rng)
        if move not in moves:
            raise IllegalMove(f"seat {seat} chose {move!r}, which the rules do not allow here")
        engine.apply(state, move, rng)
    end = engine.ended(state)
    return engine.outcome(state, end if end is not None else STEP_LIMIT_END)


def best_seats(scores: Sequence[float], among: Sequence[int] | None = None) -> tuple[int, ...]:
    """The seats (of `among`, default all) that share the highest score."""
    seats = list(range(len(scores))) if among is None else list(among)
    if not seats:
        return ()
    top = max(scores[s] for s in seats)
    return tuple(s for s in seats if scores[s] == top)
