"""One writer at a time per output folder, and a clear error when the folder cannot be written.

Every command that writes into an output folder (build, stack, exports) holds
an advisory lock on the folder itself (`flock`, released by the kernel even
when the process is killed), so two builds into the same `--out` run one after
the other and never mix their files or lose each other's manifest entries.
Whoever holds the lock removes what a killed run left behind.
"""
from __future__ import annotations

import fcntl
import os
import shutil
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

from pnp.data.format.errors import problem

STAGING_PREFIX = ".pnp-staging-"  # staging folders of releases before generations (pnp.output.publish)
LOCK_WAIT = 600.0  # seconds to wait for another command writing to the same folder


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def ready(out: Path) -> None:
    """Create `out` when missing; refuse a file or a folder that cannot be created."""
    if out.exists() and not out.is_dir():
        raise problem(out, None, "--out", "this is a file, not a folder; name a folder for the output")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise problem(out, None, "--out", f"cannot create the output folder: {exc.strerror or exc}; "
                                          "nothing was written") from None


@contextmanager
def locked(out: Path, say: Callable[[str], None] = _say, wait: float = LOCK_WAIT,
           clean: Callable[[Path], None] = lambda out: None) -> Iterator[None]:
    """Hold the output folder's lock (waiting for another writer to finish), then `clean` what a killed
    run left (and the staging folders and manifest temporaries older releases wrote)."""
    ready(out)
    fd = os.open(out, os.O_RDONLY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            say(f"waiting: another pnp command is writing to {out}")
            deadline = time.monotonic() + wait
            while True:
                time.sleep(0.1)
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise problem(out, None, "--out", f"another pnp command has been writing here for over "
                                                          f"{wait:g} s; nothing was written") from None
        clean_stale(out)
        clean(out)
        yield
    finally:
        os.close(fd)  # closing the descriptor releases the lock


def clean_stale(out: Path) -> None:
    """Remove staging folders and half-written temporary files an older release's killed run left in `out`."""
    for stale in out.glob(f"{STAGING_PREFIX}*"):
        shutil.rmtree(stale, ignore_errors=True)
    for stale in [*out.glob(".manifest.json.*"), out / ".manifest.lock"]:
        stale.unlink(missing_ok=True)
