"""One writer at a time per output folder, and a clear error when the folder cannot be written.

Every command that writes into an output folder (build, stack, exports) holds
the lock of the file `.pnp.lock` in it (`filelock`: `flock` on Linux and macOS,
a Windows file lock elsewhere, either released by the system even when the
process is killed), so two builds into the same `--out` run one after the other
and never mix their files or lose each other's manifest entries. The empty lock
file stays after a build on Linux and macOS (removing it would let a waiter and
a newcomer lock two different files); it is never part of the output.
Whoever holds the lock removes what a killed run left behind.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from pnp.data.format.errors import InputError, problem

STAGING_PREFIX = ".pnp-staging-"  # staging folders of releases before generations (pnp.output.publish)
LOCK_WAIT = 600.0  # seconds to wait for another command writing to the same folder
LOCK_FILE = ".pnp.lock"  # the lock's file in the output folder (never output: see above)


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def ready(out: Path) -> None:
    """Create `out` when missing; refuse a file or a folder that cannot be created, and a link
    planted at the lock's name (opening it would reach the link's target)."""
    if out.exists() and not out.is_dir():
        raise problem(out, None, "--out", "this is a file, not a folder; name a folder for the output")
    if (out / LOCK_FILE).is_symlink():
        raise problem(out / LOCK_FILE, None, "--out", "a link stands at pnp's lock file; remove it")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise problem(
            out, None, "--out", f"cannot create the output folder: {exc.strerror or exc}; nothing was written"
        ) from None


def unwritable(out: Path, exc: OSError) -> InputError:
    """The error for an output folder that cannot be written in (nothing was written)."""
    return problem(
        out, None, "--out", f"cannot write in the output folder: {exc.strerror or exc}; nothing was written"
    )


@contextmanager
def locked(
    out: Path,
    say: Callable[[str], None] = _say,
    wait: float = LOCK_WAIT,
    clean: Callable[[Path], None] = lambda out: None,
) -> Iterator[None]:
    """Hold the output folder's lock (waiting for another writer to finish), then `clean` what a killed
    run left (and the staging folders and manifest temporaries older releases wrote)."""
    from filelock import FileLock, Timeout  # lazy: 7 ms of imports, and an up-to-date build locks nothing

    ready(out)
    lock = FileLock(out / LOCK_FILE)
    try:
        try:
            lock.acquire(timeout=0)
        except Timeout:
            say(f"waiting: another pnp command is writing to {out}")
            lock.acquire(timeout=wait, poll_interval=0.1)
    except Timeout:
        raise problem(
            out,
            None,
            "--out",
            f"another pnp command has been writing here for over {wait:g} s; nothing was written",
        ) from None
    except OSError as exc:  # the lock file cannot be created: a read-only folder
        raise unwritable(out, exc) from None
    try:
        clean_stale(out)
        clean(out)
        yield
    finally:
        lock.release()


def clean_stale(out: Path) -> None:
    """Remove staging folders and half-written temporary files an older release's killed run left in `out`."""
    for stale in out.glob(f"{STAGING_PREFIX}*"):
        shutil.rmtree(stale, ignore_errors=True)
    for stale in [*out.glob(".manifest.json.*"), out / ".manifest.lock"]:
        stale.unlink(missing_ok=True)
