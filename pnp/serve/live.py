"""Live updates: watch the project's folders, take a new snapshot, tell every open page.

A watcher thread (watchfiles) sees files saved under card_data/, templates/, art/ or
fonts/, refreshes the snapshot, and sends the open pages a server-sent event naming the
tiles whose pictures changed; a second thread renders those pictures ahead of the page.
Nothing a file holds can stop the watcher: every failure becomes a problem on the page.
"""

from __future__ import annotations

import json
import queue
import sys
import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import watchfiles

from pnp.serve.guard import MAX_STREAMS
from pnp.serve.pictures import PictureCache
from pnp.serve.state import WATCHED, Changes, Snapshot, Tracker, changes

DEBOUNCE_MS = 80  # a save is often several writes; wait this long for them to settle


class Hub:
    """The open pages' event queues; `send` reaches every page.

    At most `limit` pages listen: a new one ends the oldest stream (a page still open
    reconnects on its own), so streams nobody reads cannot pile up.
    """

    def __init__(self, limit: int = MAX_STREAMS) -> None:
        self._queues: dict[queue.Queue, None] = {}  # oldest first
        self._lock = threading.Lock()
        self.limit = limit

    def subscribe(self) -> queue.Queue:
        q: queue.Queue = queue.Queue(maxsize=256)
        with self._lock:
            while len(self._queues) >= self.limit:
                oldest = next(iter(self._queues))
                del self._queues[oldest]
                _end(oldest)
            self._queues[q] = None
        return q

    def unsubscribe(self, q: queue.Queue) -> None:
        with self._lock:
            self._queues.pop(q, None)

    def send(self, event: str | None, data: Any = None) -> None:
        """Queue an event for every page (None ends every event stream)."""
        message = None if event is None else f"event: {event}\ndata: {json.dumps(data, default=str)}\n\n"
        with self._lock:
            for q in list(self._queues):
                try:
                    q.put_nowait(message)
                except queue.Full:  # a page that stopped reading: it reconnects and reloads
                    del self._queues[q]
                    _end(q)

    @property
    def pages(self) -> int:
        return len(self._queues)


def _end(q: queue.Queue) -> None:
    """Tell the thread serving a stream to end it (room is made for the message if need be)."""
    try:
        q.get_nowait()
    except queue.Empty:
        pass
    try:
        q.put_nowait(None)
    except queue.Full:
        pass


def watch_filter(root: Path):
    """Only files under the watched folders, and not editors' swap or backup files."""
    default = watchfiles.DefaultFilter()
    root = root.resolve()

    def accept(change: watchfiles.Change, path: str) -> bool:
        try:
            rel = Path(path).resolve().relative_to(root)
        except ValueError:
            return False
        return bool(rel.parts) and rel.parts[0] in WATCHED and default(change, path)

    return accept


class Live:
    """The current snapshot of a project, kept fresh by a watcher thread."""

    def __init__(self, tracker: Tracker, cache: PictureCache, hub: Hub, eager: bool = True):
        """`eager`: the project is read now; otherwise `start` reads it in the background, and until
        then the snapshot is an empty one marked `reading` (the page says so)."""
        self.tracker, self.cache, self.hub = tracker, cache, hub
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._warm = threading.Event()
        self._threads: list[threading.Thread] = []
        self.watching = threading.Event()  # set once the watcher sees the folders
        self.read = threading.Event()  # set once the project has been read (the first snapshot is whole)
        self.snapshot: Snapshot = Snapshot(0, (), reading=True)
        if eager:
            with cache.drawing:
                self.snapshot = tracker.refresh()
            self.read.set()
        self.last = Changes()

    def start(self, wait: float = 5.0, jobs: int = 0, forget: Callable[[], None] = lambda: None) -> None:
        """Start drawing the first page's thumbnails on `jobs` worker processes (every core when 0; each runs
        `forget` first), then the watcher and the picture warmer; return once the watcher runs (or after `wait` s).
        A project not read yet is read first, in the background, each game shown as soon as it is read."""
        if self.read.is_set():
            self._ahead(jobs, forget)
            targets = [self._watch, self._warmer]
        else:
            targets = [partial(self._first, jobs, forget), self._watch, self._warmer]
        for target in targets:
            name = getattr(target, "__name__", None) or target.func.__name__  # type: ignore[attr-defined]
            t = threading.Thread(target=target, daemon=True, name=f"pnp-serve-{name.strip('_')}")
            t.start()
            self._threads.append(t)
        self._warm.set()
        self.watching.wait(wait)

    def _ahead(self, jobs: int, forget: Callable[[], None]) -> None:
        from pnp.output.workers import jobs_for  # lazy, like the workers themselves

        # lazy: the thumbnail workers only when the server starts them
        from pnp.serve.ahead import Ahead

        self.cache.ahead = Ahead.start(
            list(self.snapshot.pictures.items()), jobs_for(jobs or None), forget=forget
        )

    def _first(self, jobs: int, forget: Callable[[], None]) -> None:
        """Read the project for the first time, telling the pages after each game; then draw ahead."""

        def shown(partly: Snapshot) -> None:
            self.snapshot = partly
            self.hub.send("state", {"version": partly.version, "reading": True})
            self._warm.set()

        try:
            with self._lock:
                try:
                    new = self.tracker.refresh(shown)
                except Exception as exc:  # noqa: BLE001 - e.g. a folder deleted mid-scan: the next save reads again
                    print(f"pnp serve: could not read the project: {exc!r}", file=sys.stderr)
                    new = Snapshot(1, ())
                self.snapshot = new
            self.hub.send("state", {"version": new.version, "problems": len(new.all_problems())})
            if not self._stop.is_set():
                self._ahead(jobs, forget)
                self._warm.set()
        finally:
            self.read.set()

    def stop(self) -> None:
        if self.cache.ahead is not None:
            self.cache.ahead.stop()
        self._stop.set()
        self._warm.set()
        self.hub.send(None)
        for t in self._threads:
            t.join(timeout=5)

    def refresh(self) -> Changes:
        """Take a new snapshot now; tell the pages what changed. Never raises."""
        with self._lock:
            old = self.snapshot
            try:
                with self.cache.drawing:
                    new = self.tracker.refresh()
            except Exception as exc:  # noqa: BLE001 - e.g. a folder deleted mid-scan: try on the next save
                print(f"pnp serve: could not read the project: {exc!r}", file=sys.stderr)
                return Changes()
            self.snapshot = new
            diff = changes(old, new)
            self.last = diff
        if diff:
            self.hub.send(
                "state",
                {
                    "version": new.version,
                    "changed": diff.changed,
                    "added": diff.added,
                    "removed": diff.removed,
                    "problems": len(new.all_problems()),
                },
            )
            self._warm.set()
        return diff

    def _watch(self) -> None:
        root = self.tracker.project.root
        while not self._stop.is_set():
            try:
                # rust_timeout + yield_on_timeout: an empty batch now and then says the watcher is running
                for batch in watchfiles.watch(
                    root,
                    watch_filter=watch_filter(root),
                    debounce=DEBOUNCE_MS,
                    step=20,
                    stop_event=self._stop,
                    raise_interrupt=False,
                    rust_timeout=100,
                    yield_on_timeout=True,
                ):
                    self.watching.set()
                    if batch:
                        self.refresh()
            except Exception as exc:  # noqa: BLE001 - keep watching whatever happened
                print(f"pnp serve: watching stopped for a moment: {exc!r}", file=sys.stderr)
                self._stop.wait(1.0)

    def _warmer(self) -> None:
        """Render the current snapshot's missing thumbnails, so an edit shows up at once."""
        while not self._stop.is_set():
            self._warm.wait()
            self._warm.clear()
            if self._stop.is_set():
                return
            try:
                self.cache.warm(list(self.snapshot.pictures.items()), stop=self._stop)
            except Exception as exc:  # noqa: BLE001 - a card that cannot be drawn says so when the page asks
                print(f"pnp serve: could not draw a card ahead: {exc!r}", file=sys.stderr)
