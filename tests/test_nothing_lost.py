"""Nothing is lost: real `pnp build` processes killed halfway or racing into the same output folder,
and killed at every step of publishing."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from test_robust import snapshot

from pnp.output.publish import published

from conftest import ROOT, make_project, run


def start(project: Path, *args: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, "-m", "pnp", "build", *args, "--project", str(project)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )


def stagings(out: Path) -> list[Path]:
    """Generations being written (or left by a killed build): every one but the published."""
    return sorted(p for p in (out / ".pnp").glob("gen-*") if p != published(out))


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
    after = snapshot(out)
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
    for _stdout, stderr, code in results:
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
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            (
                "import fcntl, os, sys\n"
                f"fd = os.open({str(out)!r}, os.O_RDONLY)\n"
                "fcntl.flock(fd, fcntl.LOCK_EX)\n"
                "print('locked', flush=True)\n"
                "sys.stdin.readline()\n"
            ),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout.readline().strip() == "locked"
    proc = start(project, "bargains")
    first = proc.stderr.readline()  # blocks until the build reaches the lock
    assert first.strip() == f"waiting: another pnp command is writing to {out}", first
    assert proc.poll() is None and not (out / "manifest.json").exists()
    holder.communicate("go\n")
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 0, stderr
    assert (out / "manifest.json").is_file() and not stagings(out)


# Runs `pnp build` and sends itself SIGKILL just before the N-th rename, link or symlink of
# publishing, counted from the moment publish() starts (renameat2 exchanges go through ctypes: the
# kill lands before or after them).
KILLER = """
import os, signal, sys
import pnp.output.publish as publish
n, count, armed = int(sys.argv[1]), [0], [False]
def hooked(fn):
    def call(*args, **kwargs):
        if armed[0]:
            count[0] += 1
            if count[0] == n:
                os.kill(os.getpid(), signal.SIGKILL)
        return fn(*args, **kwargs)
    return call
for name in ("replace", "rename", "symlink", "link"):
    setattr(os, name, hooked(getattr(os, name)))
real = publish.publish
def publishing(*args, **kwargs):
    armed[0] = True
    return real(*args, **kwargs)
publish.publish = publishing
import pnp.buildplan.run
pnp.buildplan.run.publish = publishing
from pnp.cli import run
sys.argv = ["pnp", "build", *sys.argv[2:]]
run()
"""


@pytest.mark.slow
@pytest.mark.parametrize("older", [False, True], ids=["generations", "older-layout"])
def test_killed_at_every_step_of_publishing_shows_old_or_new(tmp_path: Path, older: bool) -> None:
    """SIGKILL before each file-system change of publishing: the folder shows the whole old output or
    the whole new one, and the next build cleans up.

    `older-layout` starts from a folder an earlier release wrote (real game folders, a real
    manifest): the first publish adopts it into a generation without showing a mix either.
    """
    project = make_project(tmp_path / "proj", ("bargains", "tarot"))
    out = project / "output"
    assert run("build", "--project", str(project)).code == 0
    if older:
        _as_older_layout(out)
    pristine = tmp_path / "pristine"
    shutil.copytree(out, pristine, symlinks=True)
    old = snapshot(out)
    db = project / "card_data" / "bargains.yaml"
    db.write_text(
        db.read_text(encoding="utf-8").replace("Fairy Bargains", "Fairy Bargains Two", 1), encoding="utf-8"
    )
    expected = tmp_path / "expected"
    assert run("build", "--project", str(project), "--out", str(expected)).code == 0
    new = snapshot(expected)
    assert new != old and set(new) == set(old)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for n in range(1, 400):
        shutil.rmtree(out)
        shutil.copytree(pristine, out, symlinks=True)
        proc = subprocess.run(
            [sys.executable, "-c", KILLER, str(n), "-j", "1", "--project", str(project)],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        seen = snapshot(out)
        assert seen in (old, new), f"killed at step {n}: {sorted(set(seen.items()) ^ set(old.items()))[:3]}"
        if proc.returncode == 0:
            break
        assert proc.returncode == -signal.SIGKILL, proc.stderr
        assert run("build", "--project", str(project)).code == 0, f"the build after a kill at step {n}"
        assert snapshot(out) == new
        if seen == old:  # that build wrote, so it removed what the killed one left
            assert not stagings(out) and not list((out / ".pnp").glob("old-*")), n
    else:
        pytest.fail("the build never finished")
    assert n > 8, f"publishing was killed at only {n - 1} steps"
    assert snapshot(out) == new and not stagings(out)
    assert [p.name for p in (out / ".pnp").iterdir() if not p.name.startswith("gen-")] == ["current"]


def _as_older_layout(out: Path) -> None:
    """Rewrite a published output folder as an earlier release left it: real folders, no .pnp store."""
    older = out.parent / "older"
    older.mkdir()
    for entry in out.iterdir():
        if entry.name != ".pnp":
            src = entry.resolve()
            (shutil.copytree if src.is_dir() else shutil.copy2)(src, older / entry.name)
    shutil.rmtree(out)
    older.rename(out)


def test_a_file_system_without_links_is_named_and_nothing_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Publishing needs symbolic links; where the file system refuses them (FAT, exFAT) the build says so."""
    import errno

    project = make_project(tmp_path / "proj")
    out = tmp_path / "stick"

    def refused(*args: object, **kwargs: object) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "symlink", refused)
    r = run("build", "--project", str(project), "--out", str(out), "-j", "1")
    assert r.code == 2 and "cannot hold symbolic links" in r.err and "cp -rL" in r.err, r.err
    assert not any(out.iterdir())


def test_an_older_layout_is_adopted_where_folders_cannot_be_exchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without renameat2 (another kernel or file system) an older release's folders are moved aside and
    linked instead; the output then shows the same files, and nothing is left in the store."""
    import pnp.output.publish as publish

    project = make_project(tmp_path / "proj", ("bargains", "tarot"))
    out = project / "output"
    assert run("build", "--project", str(project)).code == 0
    _as_older_layout(out)
    before = snapshot(out)
    monkeypatch.setattr(publish, "_exchange", lambda a, b: False)
    assert run("build", "tarot", "--clean", "--project", str(project)).code == 0
    assert (
        snapshot(out) == before and (out / "bargains").is_symlink() and (out / "manifest.json").is_symlink()
    )
    assert sorted(p.name for p in (out / ".pnp").iterdir() if not p.name.startswith("gen-")) == ["current"]
