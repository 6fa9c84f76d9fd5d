"""The thumbnails of `pnp serve`'s first page, drawn on every core while the page loads.

At start-up, before the server runs any thread, worker processes are started (forked on
Linux, spawned elsewhere) with the first snapshot's picture sources; each draws its share
of batches (one component's cards each, in page order, so the first screen comes first),
keeps every thumbnail in the disk cache and sends it back. The server asks here before
drawing a thumbnail itself, and waits for the worker that has it. Thumbnails already in
the disk cache are not drawn again at all. The workers are daemons: they end with the
server, however it ends.
"""

from __future__ import annotations

import logging
import multiprocessing
import multiprocessing.connection
import signal
import sys
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from itertools import groupby
from multiprocessing.process import BaseProcess
from typing import TYPE_CHECKING, Any, cast

from pnp.output.workers import can_start, exit_with_parent
from pnp.serve.pictures import Source, draw_many, store, stored

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from multiprocessing.connection import _ConnectionBase  # a Connection, or a PipeConnection on Windows

WAIT_S = 60.0  # longest wait for a worker's batch before drawing the picture here


def draw_batch(sources: dict[str, Source], keys: tuple[str, ...]) -> list[bytes]:
    """Thumbnails of `keys` (one component's cards) on one PDF, each kept in the disk cache."""
    pngs = draw_many([sources[k] for k in keys], "thumb")
    for key, png in zip(keys, pngs):
        store(key, "thumb", png)
    return pngs


def _worker(
    sources: dict[str, Source],
    batches: list[tuple[int, tuple[str, ...]]],
    conn: Any,
    forget: Callable[[], None] | None,
) -> None:
    """A worker: draw its batches in order, sending (batch number, pictures or None) for each.
    Ctrl+C is the server's to answer (it ends the workers); a terminated worker ends quietly."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    exit_with_parent()
    if forget is not None:
        forget()
    for number, keys in batches:
        try:
            conn.send((number, draw_batch(sources, keys)))
        except Exception:  # noqa: BLE001 - a card that cannot be drawn: the server draws it and reports why
            conn.send((number, None))
    conn.close()


@dataclass
class Ahead:
    """Thumbnails being drawn by worker processes: key -> (its batch's future, its place in the batch)."""

    pending: dict[str, tuple[Future, int]]
    workers: list[BaseProcess] = field(default_factory=list)

    @classmethod
    def start(
        cls,
        items: list[tuple[str, Source]],
        jobs: int,
        batch: int = 12,
        forget: Callable[[], None] = lambda: None,
    ) -> Ahead | None:
        """Start drawing the thumbnails of `items` not yet in the disk cache; None when there are none,
        or workers cannot be started safely (the server then draws them itself, as it always can).
        `forget` runs in each forked worker first (closing its copy of the server's socket; a spawned
        worker has none)."""
        todo = [(k, s) for k, s in dict(items).items() if stored(k, "thumb") is None]
        jobs = min(jobs, len(todo) // batch)
        method = can_start(jobs)
        if method is None:
            return None
        log.debug("%d thumbnails drawn ahead by %d %s workers", len(todo), jobs, method)
        batches: list[tuple[str, ...]] = []
        for _, group in groupby(todo, key=lambda ks: (id(ks[1].game), ks[1].comp)):
            members = [k for k, _ in group]
            batches += [tuple(members[i : i + batch]) for i in range(0, len(members), batch)]
        futures: list[Future] = [Future() for _ in batches]
        pending = {k: (futures[b], n) for b, keys in enumerate(batches) for n, k in enumerate(keys)}
        sources = dict(todo)
        workers: list[BaseProcess] = []
        conns: list[_ConnectionBase[Any, Any]] = []
        for w in range(jobs):  # batches dealt round the workers: the first screen's come first from each
            mine = [(b, batches[b]) for b in range(w, len(batches), jobs)]
            receive, send = multiprocessing.Pipe(duplex=False)
            theirs = {k: sources[k] for _, keys in mine for k in keys}  # what a spawned worker is sent
            args = (theirs, mine, send, forget if method == "fork" else None)
            proc = _process(method, _worker, args, f"pnp-serve-thumbnails-{w}")
            proc.start()
            send.close()
            workers.append(proc)
            conns.append(receive)
        threading.Thread(target=_collect, args=(conns, futures), daemon=True, name="pnp-serve-ahead").start()
        return cls(pending, workers)

    def result(self, key: str, timeout: float = WAIT_S) -> bytes | None:
        """The worker's picture for `key` (waiting for it); None when no worker has it or its batch failed."""
        found = self.pending.get(key)
        if found is None:
            return None
        future, n = found
        try:
            out = future.result(timeout)
        except Exception:  # noqa: BLE001 - stopped, or a worker that ended early: drawn here
            return None
        return None if out is None else out[n]

    def stop(self) -> None:
        """End the workers still drawing; whoever waits for their pictures draws them itself."""
        for proc in self.workers:
            if proc.is_alive():
                proc.terminate()
        for proc in self.workers:
            proc.join(5)
        for future, _ in self.pending.values():
            if not future.done():
                future.cancel()


def _process(method: str, target: Callable[..., None], args: tuple[Any, ...], name: str) -> BaseProcess:
    """A daemon process, not yet started, started by `method` ("fork" or "spawn"). `method` comes from
    `workers.can_start`, which offers fork only where the system has it (Linux): macOS and Windows
    spawn, as the foreign-system tests do (tests/test_foreign_system.py). The platform test is for
    the type checker, which knows no fork context on Windows."""
    if method == "fork" and sys.platform != "win32":
        return multiprocessing.get_context("fork").Process(target=target, args=args, name=name, daemon=True)
    return multiprocessing.get_context("spawn").Process(target=target, args=args, name=name, daemon=True)


def _collect(conns: list[_ConnectionBase[Any, Any]], futures: list[Future]) -> None:
    """Hand each batch the workers send to its future; a worker that ends early leaves its futures to `stop`."""
    live = list(conns)
    while live:
        for ready in multiprocessing.connection.wait(live):
            conn = cast("_ConnectionBase[Any, Any]", ready)
            try:
                number, pngs = conn.recv()
            except (EOFError, OSError):
                live.remove(conn)
                continue
            if not futures[number].done():
                futures[number].set_result(pngs)
    for future in futures:  # a worker killed, say: nothing more comes
        if not future.done():
            future.set_result(None)
