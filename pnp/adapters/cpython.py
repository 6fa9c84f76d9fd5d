"""CPython's internals: leaving a finished program without tearing the interpreter down.

Freeing a finished build's objects one by one (parsed fonts, games, ReportLab's
tables) takes 40-80 ms, longer than a whole up-to-date build; the operating
system takes a process's memory back at once. Python has no public call that
runs the exit handlers and then skips the teardown, so `atexit._run_exitfuncs`
is used where tested; elsewhere the program exits the ordinary way.
"""
from __future__ import annotations

import atexit
import os
import platform
import sys

from pnp.adapters import Gate

GATE = Gate("python", platform.python_version(), ("3.11",))
ACTIVE = GATE.active


def exit_now(code: int) -> None:
    """End the process with `code`: exit handlers run and both streams are flushed either way."""
    if not ACTIVE:
        _flush()
        sys.exit(code)
    atexit._run_exitfuncs()
    _flush()
    os._exit(code)


def _flush() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # the reader went away (`pnp list | head`) or the stream is closed
            pass
