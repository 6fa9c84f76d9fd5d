"""Nothing is lost: real `pnp build` processes killed halfway or racing into the same output folder."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from conftest import ROOT, make_project, run
from test_robust import snapshot

STAGING = ".pnp-staging-"


def start(project: Path, *args: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "pnp", "build", *args, "--project", str(project)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def stagings(out: Path) -> list[Path]:
    return sorted(out.glob(f"{STAGING}*"))


def test_killed_build_leaves_output_intact_and_is_cleaned_up(tmp_path: Path) -> None:
    project = make_project(tmp_path / "proj", ("bargains", "tarot"))
    out = project / "output"
    assert run("build", "--project", str(project)).code == 0
    before = snapshot(out)
    proc = start(project, "-j", "1", "--clean")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # kill it once its first PDF sits in the staging folder
        if any(p.suffix == ".pdf" for s in stagings(out) for p in s.rglob("*")):
            break
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.005)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert stagings(out), "the build was killed before it staged anything"
    after = {k: v for k, v in snapshot(out).items() if not k.startswith(STAGING)}
    assert after == before  # every earlier file, manifest.json included, byte for byte
    r = run("build", "bargains", "--clean", "--project", str(project))
    assert r.code == 0, r.err
    assert not stagings(out), "the next build removes what the killed one left"
    assert snapshot(out) == before  # builds are reproducible: the same bytes again


def test_two_builds_into_one_folder(tmp_path: Path) -> None:
    project = make_project(tmp_path / "proj", ("bargains", "tarot"))
    out = project / "output"
    first, second = start(project, "bargains"), start(project, "tarot")
    results = [p.communicate(timeout=120) + (p.returncode,) for p in (first, second)]
    for stdout, stderr, code in results:
        assert code == 0 and "Traceback" not in stderr, stderr
    assert not stagings(out)
    folders = {e["path"].split("/")[0] for e in json.loads((out / "manifest.json").read_text())["files"]}
    assert folders == {"bargains", "tarot"}  # neither build lost the other's manifest entries
    both = snapshot(out)
    assert run("build", "--clean", "--project", str(project)).code == 0
    assert snapshot(out) == both  # the same files as one build of both games


def test_a_second_build_waits_for_the_first(tmp_path: Path) -> None:
    """While another process holds the folder's lock, a build says it waits, then finishes."""
    project = make_project(tmp_path / "proj")
    out = project / "output"
    out.mkdir()
    holder = subprocess.Popen([sys.executable, "-c", (
        "import fcntl, os, sys\n"
        f"fd = os.open({str(out)!r}, os.O_RDONLY)\n"
        "fcntl.flock(fd, fcntl.LOCK_EX)\n"
        "print('locked', flush=True)\n"
        "sys.stdin.readline()\n")], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert holder.stdout.readline().strip() == "locked"
    proc = start(project, "bargains")
    first = proc.stderr.readline()  # blocks until the build reaches the lock
    assert first.strip() == f"waiting: another pnp command is writing to {out}", first
    assert proc.poll() is None and not (out / "manifest.json").exists()
    holder.communicate("go\n")
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 0, stderr
    assert (out / "manifest.json").is_file() and not stagings(out)
