"""The jinja2 sandbox with limits, for everything a database or template renders.

It refuses attribute names that start with `_` (so `__class__`/`__mro__`
escapes fail when the text is compiled), ranges over `MAX_TEMPLATE_RANGE` items,
repetition (`*`, `**`) and padding filters that would build huge values, and
work over `TEMPLATE_SECONDS` of CPU time or growing the process by `TEMPLATE_MEMORY`, on any
thread. Imported only when something is compiled.

What templates make is sized before it is made (`pnp.data.templating.sizing`).
"""

from __future__ import annotations

import operator
import os
import re
import signal
import sys
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any

import jinja2
from jinja2 import nodes
from jinja2.sandbox import ImmutableSandboxedEnvironment

from pnp.adapters import cpython
from pnp.adapters import jinja2 as j2
from pnp.data.format.limits import (
    MAX_TEMPLATE_OUTPUT,
    MAX_TEMPLATE_RANGE,
    TEMPLATE_MEMORY,
    TEMPLATE_SECONDS,
)
from pnp.data.templating.sizing import GUARDED as _GUARDED
from pnp.data.templating.sizing import (  # TemplateLimit, TemplateOverrun: raised from here as before
    TemplateLimit,
    TemplateOverrun,
    check_call,
    concat,
    made,
    size_filters,
    text_size,
)

_WIDE_FILTERS = ("center", "indent", "wordwrap", "truncate")
_WIDE_FORMAT = re.compile(r"\d{7,}")  # a field width of a million or more in a format string


def _size(value: Any) -> int:
    return len(value) if isinstance(value, (str, bytes, list, tuple)) else 1


def _check_format(text: str) -> None:
    if _WIDE_FORMAT.search(text):
        raise TemplateLimit("a format width that large is refused in templates")


class _Limited(j2.checking_str_format(ImmutableSandboxedEnvironment, _check_format, check_call)):  # type: ignore[misc]
    """The sandbox with limits on repetition, powers, ranges, format widths and the size of what it makes."""

    intercepted_binops = frozenset({"*", "**", "%", "+"})
    code_generator_class = j2.concat_generator("checked_concat")
    checked_concat = concat

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # templates of this environment that ran past their budget, and why (dropped with the template)
        self.overran: weakref.WeakKeyDictionary[Any, tuple[str, float]] = weakref.WeakKeyDictionary()

    def call_binop(self, context: Any, op: str, left: Any, right: Any) -> Any:
        if op == "%":
            if isinstance(left, str):
                _check_format(left)
                args = right if isinstance(right, tuple) else (right,)
                longest = max((text_size(v) for v in args), default=0)
                made(len(left) + left.count("%") * longest, "formatted text (%)")
            return operator.mod(left, right)
        if op == "+":
            if isinstance(left, (str, list, tuple)) and isinstance(right, (str, list, tuple)):
                made(len(left) + len(right), "joined value (+)")
            return operator.add(left, right)
        if op == "**" and isinstance(right, (int, float)) and abs(right) > 64 and abs(left) > 1:
            raise TemplateLimit(f"power {left!r} ** {right!r} is too large for a template")
        if op == "*":
            for seq, n in ((left, right), (right, left)):
                if (
                    isinstance(seq, (str, list, tuple))
                    and isinstance(n, int)
                    and _size(seq) * n > MAX_TEMPLATE_OUTPUT
                ):
                    raise TemplateLimit(f"repeating a value {n} times goes over {MAX_TEMPLATE_OUTPUT} items")
                if isinstance(seq, (str, list, tuple)) and isinstance(n, int):
                    made(_size(seq) * n, "a repeated value")
            return operator.mul(left, right)
        return operator.pow(left, right)

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805 - jinja2's signature
        """Refuse a string method that would pad to a huge width ('x'.ljust(10**9)) before it allocates."""
        if getattr(__obj, "__name__", "") in _WIDE_METHODS and isinstance(
            getattr(__obj, "__self__", None), str
        ):
            for v in (*args, *kwargs.values()):
                if isinstance(v, int) and not isinstance(v, bool) and v > MAX_TEMPLATE_OUTPUT:
                    raise TemplateLimit(
                        f"{__obj.__name__}({v}) is wider than the {MAX_TEMPLATE_OUTPUT}-character limit"
                    )
        owner = getattr(__obj, "__self__", None)
        name = getattr(__obj, "__name__", "")
        if isinstance(owner, str) and name == "join" and args:
            items = list(args[0])
            made(sum(text_size(v) for v in items) + len(owner) * len(items), "joined text")
            args = (items, *args[1:])
        elif isinstance(owner, str) and name == "replace" and len(args) >= 2:
            old, new = str(args[0]), str(args[1])
            times = owner.count(old) if old else len(owner) + 1
            made(len(owner) + times * max(0, len(new) - len(old)), "replaced text")
        result = super().call(__context, __obj, *args, **kwargs)
        if isinstance(result, (str, list, tuple)):
            made(len(result), "a value")
        return result


_WIDE_METHODS = frozenset({"ljust", "rjust", "center", "zfill", "expandtabs"})


def _checked_format(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The `format` filter with its format string checked like `%` (no huge widths or precisions)."""

    def checked(value: Any, *args: Any, **kwargs: Any) -> Any:
        _check_format(str(value))
        return fn(value, *args, **kwargs)

    checked.__dict__.update(getattr(fn, "__dict__", {}))
    return checked


def _guard_width(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def guarded(*args: Any, **kwargs: Any) -> Any:
        for v in list(args[1:]) + list(kwargs.values()):
            if isinstance(v, int) and not isinstance(v, bool) and v > MAX_TEMPLATE_OUTPUT:
                raise TemplateLimit(f"{name}({v}) is wider than the {MAX_TEMPLATE_OUTPUT}-character limit")
        return fn(*args, **kwargs)

    guarded.__dict__.update(getattr(fn, "__dict__", {}))  # keep jinja2's pass_context/pass_eval_context marks
    return guarded


def _range(*args: int) -> range:
    rng = range(*args)
    if len(rng) > MAX_TEMPLATE_RANGE:
        raise TemplateLimit(f"range of {len(rng)} items; templates may use at most {MAX_TEMPLATE_RANGE}")
    return rng


def environment(filters: dict[str, Callable[..., Any]], loader: jinja2.BaseLoader | None = None) -> _Limited:
    """A limited sandbox with strict undefined names and the given extra filters."""
    env = _Limited(
        undefined=jinja2.StrictUndefined, loader=loader, keep_trailing_newline=True, autoescape=False
    )
    for name in _WIDE_FILTERS:
        env.filters[name] = _guard_width(name, env.filters[name])
    env.filters["format"] = _checked_format(env.filters["format"])
    size_filters(env)
    env.globals["range"] = _range
    env.filters.update(filters)
    return env


OVERRUN_MEMORY_S = 60.0  # a template that overran is not run again for this long (a slow moment passes)


def overran(template: jinja2.Template) -> str:
    """Why `template` ran past its budget lately ('' if it did not)."""
    memo = getattr(template.environment, "overran", None)
    why, when = memo.get(template, ("", 0.0)) if memo is not None else ("", 0.0)
    return why if time.monotonic() - when < OVERRUN_MEMORY_S else ""


def remember_overrun(template: jinja2.Template, why: str) -> None:
    memo = getattr(template.environment, "overran", None)
    if memo is not None:
        memo[template] = (why, time.monotonic())


def refuse_private(tree: nodes.Node) -> None:
    """Names and attributes starting with `_` are how sandbox escapes begin; refuse them up front."""
    for node in tree.find_all((nodes.Getattr, nodes.Name)):
        name = node.attr if isinstance(node, nodes.Getattr) else node.name  # type: ignore[attr-defined]
        if name.startswith("_"):
            raise jinja2.TemplateSyntaxError(
                f"{name!r} is not allowed: templates are sandboxed and may not use names starting with '_'",
                node.lineno,
            )
    for node in tree.find_all(nodes.Getitem):
        if (
            isinstance(node.arg, nodes.Const)
            and isinstance(node.arg.value, str)
            and node.arg.value.startswith("_")
        ):
            raise jinja2.TemplateSyntaxError(
                f"{node.arg.value!r} is not allowed: templates are sandboxed and may not use names starting with '_'",
                node.lineno,
            )


_TICK = 0.01  # seconds between looks at the clock and the process's size


def _resident() -> int:
    """The process's resident memory in bytes: Linux's /proc, Windows' working set, elsewhere the peak
    so far (macOS, the BSDs); 0 where none can be read, which leaves the memory limit off."""
    if sys.platform == "win32":
        return _working_set()()
    try:
        return int(os.pread(_statm(os.getpid()), 128, 0).split()[1]) * _PAGE
    except (OSError, ValueError, IndexError, AttributeError):  # no /proc (or no pread)
        return _peak()


@lru_cache(maxsize=4)
def _statm(pid: int) -> int:
    """A descriptor of this process's /proc statm, opened once (keyed by pid: a forked worker opens its own)."""
    return os.open(f"/proc/{pid}/statm", os.O_RDONLY)  # not inherited by child processes (PEP 446)


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def _peak() -> int:
    """The process's peak resident memory in bytes (getrusage); 0 without the `resource` module."""
    if sys.platform == "win32":
        return 0
    try:
        import resource  # lazy: POSIX only, and only where /proc is missing
    except ImportError:
        return 0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024  # bytes on macOS, KiB elsewhere


@lru_cache(maxsize=1)
def _working_set() -> Callable[[], int]:
    """A reader of this process's working set in bytes (Windows: GetProcessMemoryInfo); it answers 0 when
    the call fails."""
    if sys.platform != "win32":  # _resident asks for it only there
        return lambda: 0
    import ctypes  # lazy: Windows only
    from ctypes import wintypes

    class Counters(ctypes.Structure):  # PROCESS_MEMORY_COUNTERS (the six sizes after the working set unread)
        _fields_ = [
            ("cb", wintypes.DWORD),
            ("PageFaultCount", wintypes.DWORD),
            ("PeakWorkingSetSize", ctypes.c_size_t),
            ("WorkingSetSize", ctypes.c_size_t),
            ("rest", ctypes.c_size_t * 6),
        ]

    kernel32 = ctypes.WinDLL("kernel32")
    kernel32.GetCurrentProcess.restype = wintypes.HANDLE
    info = kernel32.K32GetProcessMemoryInfo  # psapi's GetProcessMemoryInfo, in kernel32 since Windows 7
    info.argtypes = (wintypes.HANDLE, ctypes.POINTER(Counters), wintypes.DWORD)
    info.restype = wintypes.BOOL
    process = kernel32.GetCurrentProcess()  # a constant stand-in for this process, valid on any thread

    def read() -> int:
        counters = Counters(cb=ctypes.sizeof(Counters))  # one per call: the watchdog reads at the same time
        return int(counters.WorkingSetSize) if info(process, ctypes.byref(counters), counters.cb) else 0

    return read


def _cpu_clock() -> Callable[[], float]:
    """The calling thread's CPU-time clock, readable from any thread: the thread's own clock where
    the system has one (Linux, the BSDs), else the whole process's CPU time (Windows, macOS).
    CPU time, not the wall clock, so that a busy machine never changes whether work fits."""
    clock_of = getattr(time, "pthread_getcpuclockid", None)
    gettime: Callable[[int], float] | None = getattr(time, "clock_gettime", None)
    if clock_of is not None and gettime is not None:
        try:
            clock_id = clock_of(threading.get_ident())
            gettime(clock_id)
            return partial(gettime, clock_id)
        except (OSError, OverflowError):
            pass
    return time.process_time


@dataclass
class _Budget:
    """What one piece of template work may still use: CPU seconds and a memory ceiling."""

    seconds: float
    memory: int
    deadline: float = 0.0
    ceiling: int = 0

    def __post_init__(self) -> None:  # runs on the thread doing the work
        self.clock = _cpu_clock()
        self.deadline = self.clock() + self.seconds
        self.ceiling = _resident() + self.memory

    def overrun(self) -> str:
        """Why the work must stop now ('' while within its budget); memory first, the likelier cause of both."""
        if _resident() > self.ceiling:
            return f"template work used more than {self.memory // 2**20} MB of memory"
        try:
            spent = self.clock()
        except OSError:  # the thread has just ended
            return ""
        if spent > self.deadline:
            return f"template work took longer than {self.seconds:g} s of processor time"
        return ""


def limited(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """fn(*args, **kwargs) within the template limits: called straight when a limit is already running."""
    if _GUARDED.on:
        return fn(*args, **kwargs)
    with time_limit():
        return fn(*args, **kwargs)


@contextmanager
def time_limit(seconds: float = TEMPLATE_SECONDS, memory: int = TEMPLATE_MEMORY) -> Iterator[None]:
    """Stop the enclosed template work with TemplateLimit after `seconds` of its thread's CPU time, or once the process has grown
    by `memory` bytes, on any thread.

    On the main thread an interval timer looks every 10 ms; on another thread (and on
    Windows, which has no interval timer, on any) a watchdog thread does and raises
    the error into it (`pnp.adapters.cpython`).
    An enclosing limit already running is left in charge.
    """
    if _GUARDED.on:
        yield
        return
    _GUARDED.on, _GUARDED.made = True, 0
    budget = _GUARDED.budget = _Budget(seconds, memory)
    try:
        if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):
            with _timer(budget):
                yield
        else:
            with _WATCHDOG.guard(budget):
                yield
    finally:
        _GUARDED.on, _GUARDED.budget = False, None


@contextmanager
def _timer(budget: _Budget) -> Iterator[None]:
    """The main thread's limit: an interval timer whose handler raises when the budget is overrun."""
    if sys.platform == "win32":  # for the type checker: time_limit comes here only where setitimer exists
        raise NotImplementedError
    if signal.getitimer(signal.ITIMER_REAL)[0] > 0:  # someone else's timer: left in charge
        yield
        return

    def tick(signum: int, frame: Any) -> None:
        if why := budget.overrun():
            signal.setitimer(signal.ITIMER_REAL, 0)
            raise TemplateOverrun(why)

    previous = signal.signal(signal.SIGALRM, tick)
    signal.setitimer(signal.ITIMER_REAL, _TICK, _TICK)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


class _Watchdog:
    """One thread per process that stops other threads' template work when it overruns its budget."""

    def __init__(self) -> None:
        self._reset()
        if hasattr(os, "register_at_fork"):  # a forked worker starts afresh: its copy of the lock may be held
            os.register_at_fork(after_in_child=self._reset)

    def _reset(self) -> None:
        self._lock = threading.Lock()
        self._budgets: dict[int, tuple[_Budget, list[str]]] = {}
        self._thread: threading.Thread | None = None
        self._raise: Callable[[int, type[BaseException] | None], bool] = lambda ident, exc: False

    @contextmanager
    def guard(self, budget: _Budget) -> Iterator[None]:
        ident = threading.get_ident()
        why: list[str] = []
        with self._lock:
            self._budgets[ident] = (budget, why)
            if self._thread is None or not self._thread.is_alive():
                self._raise = cpython.thread_raiser()  # ready before it is needed (see there)
                _resident()  # the statm descriptor opened here, too
                self._thread = threading.Thread(target=self._watch, name="pnp-template-watchdog", daemon=True)
                self._thread.start()
        try:
            try:
                yield
            finally:
                self._leave(ident, why)
        except _Overrun:  # delivered by the watchdog, possibly while leaving
            self._leave(ident, why)
            raise TemplateOverrun(why[0] if why else "template work went over its limits") from None

    def _leave(self, ident: int, why: list[str]) -> None:
        with self._lock:
            if self._budgets.pop(ident, None) is not None and why:
                self._raise(ident, None)  # an error not yet delivered is cancelled

    def _watch(self) -> None:
        while True:
            time.sleep(_TICK)
            with self._lock:
                for ident, (budget, why) in list(self._budgets.items()):
                    if not why and (reason := budget.overrun()):
                        why.append(reason)
                        self._raise(ident, _Overrun)


class _Overrun(BaseException):
    """Raised into a thread by the watchdog; turned into TemplateLimit where the limit was set. A
    BaseException, like KeyboardInterrupt, so no `except Exception` on the way catches it first."""


_WATCHDOG = _Watchdog()
