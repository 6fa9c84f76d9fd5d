"""One worker pool for every command that spreads work over cores (build steps and exports).

On Linux workers are forked, so what they share (loaded games, registered fonts,
the planned steps) is inherited rather than pickled; elsewhere they are spawned
(Windows has no fork, and macOS's system libraries are not safe to fork), and
what `start` needs travels to them by pickling. Each worker builds its state
once with `start`, then takes items. Results come back in item order, so output
never depends on which worker finished first. With one job everything runs in
this process.
"""

from __future__ import annotations

import gc
import multiprocessing
import multiprocessing.connection
import os
import sys
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any, TypeVar

from pnp.data.format.errors import InputError, Problem

S = TypeVar("S")
T = TypeVar("T")
R = TypeVar("R")


def default_jobs() -> int:
    """The cores this process may run on (every core where the system cannot say): the job count when
    none is asked for."""
    affinity: Callable[[int], set[int]] | None = getattr(os, "sched_getaffinity", None)  # Linux only
    return max(1, len(affinity(0)) if affinity is not None else os.cpu_count() or 1)


def jobs_for(requested: int | None) -> int:
    """The job count for a `--jobs` value (None: every core)."""
    return max(1, requested) if requested else default_jobs()


@dataclass(frozen=True)
class _Failed:
    problems: list[Problem]


_STATE: dict[str, Any] = {}  # this worker process's state, set once by _init (one entry, "state")


def _init(start: Callable[[], Any]) -> None:
    """A worker: the garbage collector skips the inherited objects (frozen before a fork)
    and runs less often. Touching them would copy the pages they share with the parent, and
    collections would walk them again and again: together a tenth of a build's time. A worker
    lives for one command, so the cycles it leaves are few and freed when it exits."""
    gc.set_threshold(20_000, 10, 10)
    exit_with_parent()
    _STATE["state"] = start()


def exit_with_parent() -> None:
    """End this worker as soon as the process that forked it ends (killed, say, by SIGTERM): an orphaned
    worker would otherwise wait for work for ever, holding whatever it inherited (a server's socket)."""
    parent = multiprocessing.parent_process()
    if parent is None or parent.sentinel is None:
        return
    sentinel = parent.sentinel

    def watch() -> None:
        multiprocessing.connection.wait([sentinel])
        os._exit(1)

    threading.Thread(target=watch, name="pnp-worker-orphan-guard", daemon=True).start()


def _call(task: Callable[[Any, Any], Any], item: Any) -> Any:
    try:
        return task(_STATE["state"], item)
    except InputError as exc:  # its problems do not survive pickling as an exception
        return _Failed(exc.problems)


def start_method() -> str | None:
    """How worker processes start here: "fork" on Linux, "spawn" elsewhere (see above); None with neither.
    PNP_START_METHOD=spawn (or fork, where there is one) chooses, as bench/run.py does to compare them."""
    methods = multiprocessing.get_all_start_methods()
    chosen = os.environ.get("PNP_START_METHOD", "")
    if chosen in methods and chosen in ("fork", "spawn"):
        return chosen
    if sys.platform == "linux" and "fork" in methods:
        return "fork"
    return "spawn" if "spawn" in methods else None


def can_start(jobs: int) -> str | None:
    """The start method for `jobs` workers now; None when they should not start: one job, no start method,
    or a fork while another thread runs (a fork copies only the calling thread: a lock another thread
    held stays held in the worker)."""
    method = start_method() if jobs > 1 else None
    return None if method == "fork" and threading.active_count() > 1 else method


def run_all(
    task: Callable[[S, T], R],
    items: Sequence[T],
    start: Callable[[], S],
    jobs: int,
    progress: Callable[[int], None] = lambda n: None,
    weight: Callable[[T], int] = lambda item: 1,
) -> list[R]:
    """task(state, item) for every item on up to `jobs` workers; results in item order.

    `task` and the items travel to the workers by pickling; `start` runs in each
    worker: inherited where workers are forked, so it may close over anything, and
    pickled where they are spawned (a top-level function, or a partial of one).
    """
    method = start_method()
    if jobs <= 1 or len(items) <= 1 or method is None:
        state = start()
        out = []
        for item in items:
            out.append(task(state, item))
            progress(weight(item))
        return out
    results: list[Any] = [None] * len(items)
    gc.freeze()  # see _init: what the workers inherit is left alone by their garbage collector
    try:
        context = multiprocessing.get_context(method)
        with ProcessPoolExecutor(
            max_workers=min(jobs, len(items)), mp_context=context, initializer=_init, initargs=(start,)
        ) as pool:
            futures = {pool.submit(_call, task, item): i for i, item in enumerate(items)}
            gc.unfreeze()  # forked workers start at the first submit; this process collects as before
            for future in as_completed(futures):
                i = futures[future]
                results[i] = future.result()
                progress(weight(items[i]))
    finally:
        gc.unfreeze()
    problems = [p for r in results if isinstance(r, _Failed) for p in r.problems]
    if problems:
        raise InputError(problems)
    return results


def chunked(items: Sequence[T], jobs: int, per_worker: int = 4, most: int = 24) -> list[list[T]]:
    """Split items into chunks: a few per worker (for an even load and a lively progress bar)."""
    if not items:
        return []
    size = max(1, min(most, -(-len(items) // max(1, jobs * per_worker))))
    return [list(items[i : i + size]) for i in range(0, len(items), size)]
