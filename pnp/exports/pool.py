"""Spread picture work over the machine's cores.

Workers start once per command (a process pool whose initializer loads the
fonts), then take chunks of work. Results come back in submission order, so
output never depends on which worker finished first.
"""
from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence, TypeVar

from ..errors import InputError, Problem
from ..fonts import Fonts
from ..model import Game
from .raster import Scene

T = TypeVar("T")
R = TypeVar("R")
Scenes = dict[str, Scene]
Task = Callable[[Scenes, T], R]


@dataclass(frozen=True)
class Setup:
    """What every worker needs to draw: the games, the fonts folder and the set counts."""

    games: tuple[Game, ...]
    fonts_dir: str
    counts: tuple[tuple[str, int], ...] = ()

    def scenes(self) -> Scenes:
        fonts = Fonts.load(Path(self.fonts_dir))
        return {g.slug: Scene(g, fonts, self.counts) for g in self.games}


@dataclass(frozen=True)
class _Failed:
    problems: list[Problem]


_WORKER: Scenes = {}  # this worker process's scenes, set once by _init


def _init(setup: Setup) -> None:
    _WORKER.clear()
    _WORKER.update(setup.scenes())


def _call(fn: Task, item: object) -> object:
    try:
        return fn(_WORKER, item)
    except InputError as exc:  # its problems do not survive pickling as an exception
        return _Failed(exc.problems)


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def run(fn: Task, items: Sequence[T], setup: Setup, jobs: int,
        progress: Callable[[int], None] = lambda n: None,
        weight: Callable[[T], int] = lambda item: 1) -> list[R]:
    """fn(scenes, item) for every item, on up to `jobs` processes; results in item order."""
    if jobs <= 1 or len(items) <= 1:
        scenes = setup.scenes()
        out = []
        for item in items:
            out.append(fn(scenes, item))
            progress(weight(item))
        return out
    results: list[object] = [None] * len(items)
    with ProcessPoolExecutor(max_workers=min(jobs, len(items)), initializer=_init, initargs=(setup,)) as pool:
        futures = {pool.submit(_call, fn, item): i for i, item in enumerate(items)}
        for future in as_completed(futures):
            i = futures[future]
            results[i] = future.result()
            progress(weight(items[i]))
    problems = [p for r in results if isinstance(r, _Failed) for p in r.problems]
    if problems:
        raise InputError(problems)
    return results  # type: ignore[return-value]


def chunked(items: Sequence[T], jobs: int, per_worker: int = 4, most: int = 24) -> list[list[T]]:
    """Split items into chunks: a few per worker (for an even load and a lively progress bar)."""
    if not items:
        return []
    size = max(1, min(most, -(-len(items) // max(1, jobs * per_worker))))
    return [list(items[i:i + size]) for i in range(0, len(items), size)]
