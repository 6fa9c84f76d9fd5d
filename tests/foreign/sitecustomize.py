"""A foreign system for the tests: put this folder first on PYTHONPATH and Python starts without
what Windows lacks (and macOS, for fork and the thread clocks), so pnp must take its portable paths.

Gone: the modules `fcntl` and `resource`; `os.getuid`, `os.symlink`, `os.fork`, `os.pread`,
`os.sched_getaffinity`; `signal.setitimer`, `signal.getitimer` and `SIGALRM`;
`time.pthread_getcpuclockid` and `time.clock_gettime`; multiprocessing's fork and forkserver
start methods (spawn only). The tests also run these processes with a cp1252 console
(PYTHONIOENCODING). Nothing here is imported by pnp itself.
"""

import multiprocessing
import os
import signal
import sys
import time

sys.modules["fcntl"] = None  # type: ignore[assignment]  # `import fcntl` now raises ImportError
sys.modules["resource"] = None  # type: ignore[assignment]
for module, names in (
    (os, ("getuid", "geteuid", "symlink", "fork", "pread", "sched_getaffinity", "register_at_fork")),
    (signal, ("setitimer", "getitimer", "SIGALRM", "ITIMER_REAL")),
    (time, ("pthread_getcpuclockid", "clock_gettime")),
):
    for name in names:
        if hasattr(module, name):
            delattr(module, name)

_get_context = multiprocessing.get_context


def _spawn_only(method=None):
    if method in ("fork", "forkserver"):
        raise ValueError(f"cannot find context for {method!r}")
    return _get_context("spawn")


multiprocessing.get_context = _spawn_only
multiprocessing.get_all_start_methods = lambda: ["spawn"]
multiprocessing.set_start_method("spawn", force=True)
os.environ["PNP_FOREIGN_SYSTEM"] = "1"  # seen by the tests, to know the profile is on
