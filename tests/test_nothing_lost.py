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

from conftest import ROOT, links_or_store, make_project, posix_only, run


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
    """Staging folders being written (or left by a killed build)."""
    return sorted((out / ".pnp").glob("stage-*"))


def plain(out: Path) -> bool:
    """Whether `out` holds only real files and folders (no link anywhere) and nothing of pnp's store."""
    return not links_or_store(out)


@posix_only
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
                "import sys\n"
                "from filelock import FileLock\n"
                f"lock = FileLock({str(out / '.pnp.lock')!r})\n"
                "lock.acquire()\n"
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


# Runs `pnp build` and sends itself SIGKILL just before the N-th rename, replace or unlink of
# publishing, counted from the moment publish() starts.
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
for name in ("replace", "rename", "unlink", "rmdir"):
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


def _whole(seen: dict[str, str], old: dict[str, str], new: dict[str, str]) -> list[str]:
    """The files of `seen` that are neither their old nor their new bytes (torn, or from nowhere)."""
    return [rel for rel, digest in seen.items() if digest not in (old.get(rel), new.get(rel))]


@pytest.mark.slow
@posix_only
@pytest.mark.parametrize("older", [False, True], ids=["plain", "linked-layout"])
def test_killed_at_every_step_of_publishing_leaves_every_file_whole(tmp_path: Path, older: bool) -> None:
    """SIGKILL before each file-system change of publishing: every file is whole, its old bytes or
    its new, and the next build repairs the rest: the new output, plain files, nothing left over.

    `linked-layout` starts from a folder an earlier release published through symbolic links
    (`name -> .pnp/current/name`): the first publish turns it into plain files, losing nothing.
    """
    project = make_project(tmp_path / "proj", ("bargains", "tarot"))
    out = project / "output"
    assert run("build", "--project", str(project)).code == 0
    if older:
        _as_linked_layout(out)
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
        assert set(seen) == set(old) and not _whole(seen, old, new), (
            f"killed at step {n}: {_whole(seen, old, new)}"
        )
        if proc.returncode == 0:
            break
        assert proc.returncode == -signal.SIGKILL, proc.stderr
        assert run("build", "--project", str(project)).code == 0, f"the build after a kill at step {n}"
        assert snapshot(out) == new and plain(out), n
    else:
        pytest.fail("the build never finished")
    assert n > 8, f"publishing was killed at only {n - 1} steps"
    assert snapshot(out) == new and plain(out)


def _as_linked_layout(out: Path) -> None:
    """Rewrite a published output folder as the release before plain files left it: every top-level
    entry a link into the published generation `.pnp/gen-old`, `.pnp/current` naming it."""
    generation = out / ".pnp" / "gen-old"
    generation.mkdir(parents=True)
    for entry in sorted(out.iterdir()):
        if entry.name not in (".pnp", ".pnp.lock"):  # the lock file came after the linked layout
            entry.rename(generation / entry.name)
            os.symlink(f".pnp/current/{entry.name}", out / entry.name)
    os.symlink("gen-old", out / ".pnp" / "current")


@posix_only
def test_a_linked_output_folder_becomes_plain_files(tmp_path: Path) -> None:
    """An output folder an earlier release published through links shows the same files after the
    next build, as real files and folders, with no link and no store left."""
    project = make_project(tmp_path / "proj", ("bargains", "tarot"))
    out = project / "output"
    assert run("build", "--project", str(project)).code == 0
    before = snapshot(out)
    _as_linked_layout(out)
    assert snapshot(out) == before and (out / "bargains").is_symlink()
    assert run("build", "tarot", "--clean", "--project", str(project)).code == 0
    assert snapshot(out) == before and plain(out)


def test_a_file_system_without_links_holds_the_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Publishing makes no link of any kind, so a FAT or exFAT stick (which refuses them) holds the output."""
    import errno

    project = make_project(tmp_path / "proj")
    out = tmp_path / "stick"

    def refused(*args: object, **kwargs: object) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "symlink", refused)
    monkeypatch.setattr(os, "link", refused)
    r = run("build", "--project", str(project), "--out", str(out), "-j", "1")
    assert r.code == 0, r.err
    assert (out / "manifest.json").is_file() and (out / "bargains" / "deck.pdf").is_file() and plain(out)
