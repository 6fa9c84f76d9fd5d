"""The benchmark cannot rot: every bench script runs once on a tiny input, and the floor is still pnp."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, run

BENCH = ROOT / "bench"


def _py(*args: str, env: dict[str, str] | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    proc = subprocess.run(
        [sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc


def test_the_floor_replays_pnp_byte_for_byte(tmp_path: Path) -> None:
    """bench/deck.py draws what `pnp build` draws, and bench/floor.py's bare ReportLab replay of
    its calls is the same PDF, byte for byte (else the pnp/floor ratio measures nothing)."""
    deck, log, floor = tmp_path / "deck.pdf", tmp_path / "calls", tmp_path / "floor.pdf"
    _py(
        str(BENCH / "deck.py"),
        str(ROOT / "card_data" / "bargains.yaml"),
        "deck",
        str(deck),
        "--record",
        str(log),
    )
    _py(str(BENCH / "floor.py"), str(log), str(floor), "--same-as", str(deck))
    r = run("build", "bargains", "--project", str(ROOT), "--out", str(tmp_path / "out"))
    assert r.code == 0, r.err
    built = (tmp_path / "out" / "bargains" / "deck.pdf").read_bytes()
    assert deck.read_bytes() == built == floor.read_bytes()


def test_the_floor_check_fails_on_a_different_pdf(tmp_path: Path) -> None:
    deck, log, floor = tmp_path / "deck.pdf", tmp_path / "calls", tmp_path / "floor.pdf"
    _py(
        str(BENCH / "deck.py"),
        str(ROOT / "card_data" / "bargains.yaml"),
        "deck",
        str(deck),
        "--record",
        str(log),
        "--smoke",
    )
    other = tmp_path / "other.pdf"
    other.write_bytes(deck.read_bytes() + b"\n")
    proc = subprocess.run(
        [sys.executable, str(BENCH / "floor.py"), str(log), str(floor), "--same-as", str(other)],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 1 and "differs" in proc.stderr


def test_synthetic_smoke_writes_a_buildable_project(tmp_path: Path) -> None:
    proc = _py(str(BENCH / "synthetic.py"), "10000", str(tmp_path / "syn"), "--smoke")
    assert Path(proc.stdout.strip()).is_file()
    r = run("build", "synthetic", "--project", str(tmp_path / "syn"), "--out", str(tmp_path / "out"))
    assert r.code == 0, r.err
    assert (tmp_path / "out" / "synthetic" / "deck.pdf").stat().st_size > 0


def test_protograf_deck_smoke_runs_or_skips_cleanly(tmp_path: Path) -> None:
    env = {**os.environ, "PNP_BENCH_SMOKE": "1", "PNP_BENCH_OUT": str(tmp_path / "pg.pdf")}
    _py(str(BENCH / "protograf_deck.py"), env=env, cwd=tmp_path)


@pytest.mark.slow
@pytest.mark.skipif(os.environ.get("PNP_SKIP_BENCH_SMOKE") == "1", reason="PNP_SKIP_BENCH_SMOKE=1")
def test_run_smoke_prints_the_table() -> None:
    """bench/run.py --smoke: every row once on tiny inputs; it exits 1 if the floor is not pnp's PDF."""
    proc = _py(str(BENCH / "run.py"), "--smoke")
    assert "| Fairy Bargains deck: pnp / bare ReportLab |" in proc.stdout
    assert "byte-identical PDFs" in proc.stdout
    assert "nothing changed" in proc.stdout and "PNG export" in proc.stdout
    assert (
        "full-art deck, 6 cards with PNG pictures" in proc.stdout
        and "PDF bytes per picture byte" in proc.stdout
    )
    assert (
        "`pnp export tts` (Fairy Bargains)" in proc.stdout
        and "`pnp serve` first page (6 cards)" in proc.stdout
    )


def test_fullart_smoke_makes_a_buildable_project_and_its_floor(tmp_path: Path) -> None:
    """bench/fullart.py: a project whose cards each show their own picture, and bare ReportLab's PDF."""
    _py(str(BENCH / "fullart.py"), "make", str(tmp_path / "fa"), "3", "jpeg")
    _py(str(BENCH / "fullart.py"), "bare", str(tmp_path / "fa"), str(tmp_path / "bare.pdf"))
    assert (
        len(list((tmp_path / "fa" / "art").glob("*.jpg"))) == 3 and (tmp_path / "bare.pdf").stat().st_size > 0
    )
    r = run("build", "fullart", "--project", str(tmp_path / "fa"), "--out", str(tmp_path / "out"))
    assert r.code == 0, r.err
