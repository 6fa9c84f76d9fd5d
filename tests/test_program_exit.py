"""The `pnp` program (`python -m pnp`) leaves without tearing the interpreter down: same exit
codes, every byte of output flushed, exit handlers run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import ROOT, run


def _pnp(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pnp", *args], cwd=ROOT, capture_output=True, text=True)


def test_a_long_output_into_a_pipe_arrives_whole() -> None:
    """`pnp schema` writes tens of kilobytes to a pipe (block-buffered): all of it, as in-process."""
    proc = _pnp("schema")
    assert proc.returncode == 0, proc.stderr
    assert len(proc.stdout) > 8192
    assert proc.stdout == run("schema").out
    json.loads(proc.stdout)


def test_exit_codes_are_the_commands_own(tmp_path: Path) -> None:
    assert _pnp("check").returncode == 0
    broken = tmp_path / "bargains.yaml"
    broken.write_text(
        (ROOT / "card_data" / "bargains.yaml")
        .read_text(encoding="utf-8")
        .replace("copies: 13", "copies: 12", 1),
        encoding="utf-8",
    )
    proc = _pnp("check", str(broken), "--project", str(ROOT))
    assert proc.returncode == 1 and "expected 65 cards, found 64" in proc.stdout, proc.stdout + proc.stderr
    proc = _pnp("build", "no-such-game")
    assert proc.returncode == 2 and "no such game" in proc.stderr
    proc = _pnp("build", "--bleed", "99")
    assert proc.returncode == 2 and "--bleed" in proc.stderr


def test_exit_handlers_still_run(tmp_path: Path) -> None:
    """A handler registered during a command runs before the process ends."""
    mark = tmp_path / "ran"
    code = (
        "import atexit, pathlib, sys\n"
        "from pnp import cli\n"
        f"atexit.register(pathlib.Path({str(mark)!r}).write_text, 'yes')\n"
        "sys.argv = ['pnp', 'list']\n"
        "cli.run()\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert mark.read_text() == "yes"
    assert "bargains" in proc.stdout
