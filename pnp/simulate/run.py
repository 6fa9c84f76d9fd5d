"""Many games on every core: each game seeded by its own index, so the figures never depend on how
many workers played them or in what order they finished."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

from pnp.engines.play import Engine, Outcome, play_game
from pnp.output.workers import chunked, run_all


@dataclass(frozen=True)
class Batch:
    """Games `first` .. `first + count - 1` of a run, all with the same players and bots."""

    first: int
    count: int
    players: int
    bots: tuple[str, ...]
    seed: int


def game_rng(seed: int, index: int) -> random.Random:
    """The generator of game `index` in a run seeded `seed` (string seeds hash the same everywhere)."""
    return random.Random(f"pnp-simulate/{seed}/{index}")


def _engine(engine: Engine) -> Engine:
    return engine


def play_batch(engine: Engine, batch: Batch) -> list[Outcome]:
    """Play one batch; a top-level function so spawned workers can receive it."""
    return [
        play_game(engine, batch.players, batch.bots, game_rng(batch.seed, i))
        for i in range(batch.first, batch.first + batch.count)
    ]


def run_games(
    engine: Engine,
    games: int,
    players: int,
    bots: Sequence[str],
    seed: int,
    jobs: int,
    progress: Callable[[int], None] = lambda n: None,
) -> list[Outcome]:
    """`games` games on up to `jobs` workers, outcomes in game order."""
    starts = chunked(range(games), jobs, per_worker=8, most=500)
    batches = [Batch(c[0], len(c), players, tuple(bots), seed) for c in starts]
    done = run_all(play_batch, batches, partial(_engine, engine), jobs, progress, weight=lambda b: b.count)
    return [o for chunk in done for o in chunk]
