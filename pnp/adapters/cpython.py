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
from collections.abc import Callable

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


def thread_raiser() -> Callable[[int, type[BaseException] | None], bool]:
    """A function that raises an exception type in another thread at its next bytecode
    (PyThreadState_SetAsyncExc, through ctypes), or with None cancels one not yet raised; it
    answers whether a thread was found. Where not tested it does nothing and answers False.

    Get it before it is needed: importing ctypes on a watchdog thread while the watched thread
    holds the GIL in long C calls can take as long as the work it should stop.
    """
    if not ACTIVE:
        return lambda thread_id, exc_type: False
    # lazy: ctypes only when the adapter is asked for its call
    import ctypes

    set_async_exc = ctypes.pythonapi.PyThreadState_SetAsyncExc
    set_async_exc.argtypes = (ctypes.c_ulong, ctypes.py_object)
    set_async_exc.restype = ctypes.c_int

    def raise_in(thread_id: int, exc_type: type[BaseException] | None) -> bool:
        return bool(set_async_exc(thread_id, exc_type if exc_type is not None else ctypes.py_object()) == 1)

    return raise_in
