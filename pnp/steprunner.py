"""Run build steps on the machine's cores: whole steps per process, results in step order.

Worker processes are forked, so they share the loaded games and registered
fonts without pickling anything but the finished `Output` records. Every
step writes its own files, so which process drew a file never changes its
bytes. Where fork is unavailable (or with one core) steps run one by one.
"""
from __future__ import annotations

import multiprocessing
import os
import traceback
from pathlib import Path
from typing import Any, Callable

from .errors import InputError
from .fonts import Fonts
from .steps import Output, Step


def cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def _run(step: Step, stage: Path, fonts: Fonts, progress: Callable[[int], None]) -> Output:
    ticks = 0

    def tick() -> None:
        nonlocal ticks
        ticks += 1
        progress(1)

    out = step.run(stage, fonts, tick)
    if step.weight > ticks:
        progress(step.weight - ticks)
    return out


def _claim(counter: Any) -> int:
    with counter.get_lock():
        i = counter.value
        counter.value += 1
    return i


def _child(steps: list[Step], counter: Any, stage: Path, fonts: Fonts, conn: Any) -> None:
    done = []
    try:
        while (i := _claim(counter)) < len(steps):
            done.append((i, steps[i].run(stage, fonts, lambda: None)))
        conn.send(("ok", done))
    except InputError as exc:
        conn.send(("input", exc.problems))
    except BaseException:  # noqa: BLE001 - reported to the parent, which raises
        conn.send(("crash", traceback.format_exc()))
    finally:
        conn.close()


def run_steps(steps: list[Step], stage: Path, fonts: Fonts, progress: Callable[[int], None],
              jobs: int | None = None) -> list[Output]:
    """Every step's Output, in step order.

    Processes take the next unclaimed step until none is left (step costs are
    hard to guess: a two-page booklet can take longer than a ten-sheet deck).
    The parent works too, and reports progress as it goes.
    """
    jobs = min(jobs or cores(), len(steps))
    if jobs <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        return [_run(s, stage, fonts, progress) for s in steps]
    ctx = multiprocessing.get_context("fork")
    counter = ctx.Value("i", 0)
    children = []
    results: dict[int, Output] = {}
    try:
        for _ in range(jobs - 1):
            recv, send = ctx.Pipe(duplex=False)
            proc = ctx.Process(target=_child, args=(steps, counter, stage, fonts, send), daemon=True)
            proc.start()
            send.close()
            children.append((proc, recv))
        while (i := _claim(counter)) < len(steps):
            results[i] = _run(steps[i], stage, fonts, progress)
        problems = []
        for proc, recv in children:
            try:
                kind, payload = recv.recv()
            except EOFError:
                kind, payload = "crash", "a build worker stopped without a result"
            if kind == "ok":
                for i, out in payload:
                    results[i] = out
                    progress(steps[i].weight)
            elif kind == "input":
                problems += payload
            else:
                raise RuntimeError(f"build worker failed:\n{payload}")
        if problems:
            raise InputError(problems)
    finally:
        for proc, recv in children:
            recv.close()
            proc.join(timeout=60)
            if proc.is_alive():
                proc.terminate()
    return [results[i] for i in range(len(steps))]
