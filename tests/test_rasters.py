"""Pictures drawn once: TTS sheets drawn whole on one page, exports and previews rasterised once per
content (the disk cache), and `pnp serve`'s thumbnails drawn on worker processes at start-up and
kept for the next server."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import urllib.request
from pathlib import Path

import pytest
from PIL import Image, ImageChops

import pnp.output.exports.raster as raster

from conftest import make_project, run, start_server, stop_server, wait_for


@pytest.fixture(scope="module")
def bargains(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_project(tmp_path_factory.mktemp("rasters") / "proj", ("bargains",))


def _export(project: Path, *args: str) -> Path:
    out = project / "out"
    r = run(*args, "--project", str(project), "--out", str(out), "--jobs", "1")
    assert r.code == 0, r.err
    return out


def test_a_tts_sheet_shows_each_card_as_the_png_export_draws_it(bargains: Path) -> None:
    out = _export(bargains, "export", "png", "bargains", "--dpi", "100")
    _export(bargains, "export", "tts", "bargains", "--dpi", "100")
    tts = out / "bargains" / "tts" / "local-100"
    deck = json.loads((tts / "deck.json").read_text())["ObjectStates"][0]
    codes = {c["CardID"]: c["Description"] for c in deck["ContainedObjects"]}
    with Image.open(tts / "deck-sheet1.png") as sheet:
        for slot in (0, 1, 4):
            with Image.open(
                out / "bargains" / "png" / "plain-100" / "deck" / f"{codes[100 + slot]}.png"
            ) as card:
                w, h = card.size
                cols = sheet.size[0] // w
                assert sheet.size[0] % w == 0 and sheet.size[1] % h == 0
                x, y = slot % cols * w, slot // cols * h
                diff = ImageChops.difference(
                    sheet.crop((x, y, x + w, y + h)).convert("RGB"), card.convert("RGB")
                )
                assert max(hi for _, hi in diff.getextrema()) <= 2, slot  # the same pixels, bar rounding


def _pngs(out: Path) -> dict[str, bytes]:
    """Every published PNG under `out` (through the output's links), by its path."""
    found = {}
    for folder, _, files in os.walk(out, followlinks=True):
        if "/.pnp" not in folder:
            found.update(
                {f"{folder}/{f}": (Path(folder) / f).read_bytes() for f in files if f.endswith(".png")}
            )
    return found


def test_an_unchanged_export_or_preview_rasterises_nothing(
    bargains: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    args = [("export", "tts", "bargains", "--dpi", "60"), ("preview", "bargains")]
    for a in args:
        out = _export(bargains, *a)
    first = _pngs(out)

    def refuse(*_: object, **__: object) -> None:
        raise AssertionError("a picture was rasterised again")

    monkeypatch.setattr(raster, "rasterise_png", refuse)
    for a in args:
        _export(bargains, *a)
    assert _pngs(out) == first and len(first) > 2


def _serve(project: Path, cache: Path) -> tuple[subprocess.Popen, str]:
    proc, _, port = start_server(project, {**os.environ, "PNP_CACHE_DIR": str(cache)})
    return proc, f"http://127.0.0.1:{port}/"


def _thumbnails(base: str) -> dict[str, bytes]:
    state = json.loads(urllib.request.urlopen(base + "api/state", timeout=30).read())
    keys = [t["picture"] for g in state["games"] for c in g["components"] for t in c["tiles"]]
    return {k: urllib.request.urlopen(f"{base}picture/{k}.png", timeout=60).read() for k in keys}


def _stop(proc: subprocess.Popen) -> str:
    out, err = stop_server(proc, signal.SIGTERM)
    assert proc.returncode == 0 and "Stopped." in out and "Traceback" not in err, err
    return out


def _workers_left(project: Path) -> list[str]:
    """Processes still running `pnp serve` on this project (a worker that outlived its server)."""
    left = []
    for proc in Path("/proc").iterdir():
        try:
            cmd = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if "serve" in cmd and str(project) in cmd:
            left.append(cmd)
    return left


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="looks for left-over workers in /proc")
def test_serve_draws_thumbnails_once_for_every_later_server(tmp_path: Path) -> None:
    project = make_project(tmp_path / "proj", ("bargains", "tarot"))
    cache = tmp_path / "cache"
    proc, base = _serve(project, cache)
    try:
        pictures = _thumbnails(base)
    finally:
        _stop(proc)
    assert len(pictures) == 6 + 25
    for png in pictures.values():
        assert png.startswith(b"\x89PNG")
        with Image.open(__import__("io").BytesIO(png)) as im:
            assert im.mode == "RGB" and max(im.size) > 250
    kept = {p: (p.stat().st_ino, p.stat().st_mtime_ns) for p in (cache / "thumbnails").iterdir()}
    assert len(kept) == len(pictures)
    proc, base = _serve(project, cache)  # the next server draws none of them again
    try:
        assert _thumbnails(base) == pictures
    finally:
        _stop(proc)
    assert {p: (p.stat().st_ino, p.stat().st_mtime_ns) for p in (cache / "thumbnails").iterdir()} == kept


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="looks for left-over workers in /proc")
def test_a_server_stopped_while_drawing_leaves_no_worker(tmp_path: Path) -> None:
    project = make_project(tmp_path / "proj", ("bargains", "tarot"))
    for how in (signal.SIGTERM, signal.SIGKILL):
        proc, _ = _serve(project, tmp_path / f"cache-{how}")  # nothing drawn before: the workers are busy
        proc.send_signal(how)
        proc.communicate(timeout=20)
        wait_for(lambda: not _workers_left(project), f"no worker left after {how!r}", timeout=30)
