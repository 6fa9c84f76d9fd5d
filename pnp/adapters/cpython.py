"""CPython's internals: leaving a finished program without tearing the interpreter down, and stopping
template work on a thread other than the main one.

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


def raise_in_thread(thread_id: int, exc_type: type[BaseException] | None) -> bool:
    """Raise `exc_type` in another thread at its next bytecode (PyThreadState_SetAsyncExc, through
    ctypes); None cancels one not yet raised. False where not tested: the caller then has no way to
    stop that thread's work."""
    if not ACTIVE:
        return False
    import ctypes
    exc = ctypes.py_object(exc_type) if exc_type is not None else None
    done = ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id), exc)
    return bool(done == 1)
