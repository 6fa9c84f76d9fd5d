"""pnp on a foreign system: every command run in processes without fcntl, resource, os.getuid,
signal.setitimer, os.symlink or the fork start method, with a cp1252 console (tests/foreign/), as
on Windows. The output folder must hold plain files only."""

from __future__ import annotations

import http.client
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, links_or_store, make_project, start_server, stop_server

FOREIGN = Path(__file__).resolve().parent / "foreign"
ENV = {
    **os.environ,
    "PYTHONPATH": os.pathsep.join([str(FOREIGN), str(ROOT)]),
    "PYTHONIOENCODING": "cp1252",
    "PYTHONUTF8": "0",
}


def pnp(*args: str, cwd: Path | None = None, code: int = 0) -> subprocess.CompletedProcess[str]:
    """`pnp ARGS` in a foreign-system process; it must end with `code` and print no traceback."""
    proc = subprocess.run(
        [sys.executable, "-m", "pnp", *args],
        cwd=cwd,
        env=ENV,
        capture_output=True,
        text=True,
        encoding="cp1252",
        errors="replace",
        timeout=300,
    )
    assert proc.returncode == code and "Traceback" not in proc.stderr, (args, proc.stdout, proc.stderr)
    return proc


def plain_files_only(out: Path) -> list[Path]:
    """Every file under `out`, after checking there is no link and no pnp store left."""
    assert not links_or_store(out), links_or_store(out)
    return [Path(base, f) for base, _, files in os.walk(out) for f in files]


def test_the_profile_takes_away_what_it_says() -> None:
    probe = (
        "import os, signal, multiprocessing\n"
        "try:\n    import fcntl\nexcept ImportError:\n    print('no fcntl')\n"
        "print(hasattr(os, 'getuid'), hasattr(os, 'symlink'), hasattr(signal, 'setitimer'),"
        " multiprocessing.get_all_start_methods(), os.environ.get('PNP_FOREIGN_SYSTEM'))\n"
        "import sys; print(sys.stdout.encoding)\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], env=ENV, capture_output=True, text=True).stdout
    assert out.split("\n")[:3] == ["no fcntl", "False False False ['spawn'] 1", "cp1252"], out


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every bundled game, in a folder whose name has a space and a non-ASCII letter."""
    return make_project(
        tmp_path_factory.mktemp("foreign") / "Spiele für alle",
        tuple(p.stem for p in (ROOT / "card_data").glob("*.yaml")),
    )


def test_every_game_builds_and_checks_into_plain_files(project: Path) -> None:
    done = pnp("build", "--project", str(project), "-j", "2")
    assert "Wrote" in done.stdout
    files = plain_files_only(project / "output")
    manifest = json.loads((project / "output" / "manifest.json").read_text(encoding="utf-8"))
    assert {project / "output" / e["path"] for e in manifest["files"]} <= set(files)
    assert "Up to date" in pnp("build", "--project", str(project)).stdout
    pnp("check", "--project", str(project), code=0)
    pnp("list", "--project", str(project))


@pytest.mark.slow
def test_exports_previews_and_a_package(project: Path) -> None:
    out = project / "exports"
    pnp("export", "png", "bargains", "--project", str(project), "--out", str(out), "-j", "2")
    pnp("export", "tts", "tarot", "--project", str(project), "--out", str(out), "-j", "2")
    pnp("preview", "feenbalz", "--project", str(project), "--out", str(out), "-j", "2")
    pnp("package", "bargains", "--project", str(project), "--out", str(out), "-j", "2")
    files = plain_files_only(out)
    assert any(f.suffix == ".png" for f in files) and any(f.suffix == ".zip" for f in files)


def test_a_stack_a_tagged_print_and_its_changes(project: Path) -> None:
    pnp("stack", "fairy-meat", "lean", "--remove", "2-10 of clubs,diamonds", "--project", str(project))
    pnp("build", "bargains", "--tag", "round1", "--project", str(project))
    db = project / "card_data" / "bargains.yaml"
    text = db.read_text(encoding="utf-8")
    db.write_text(text.replace("Fairy Bargains", "Fairy Bargains Zwei", 1), encoding="utf-8", newline="\r\n")
    changes = pnp("changes", "bargains", "--since", "round1", "--project", str(project))
    assert changes.stdout.strip()
    pnp("build", "bargains", "--project", str(project))
    db.write_text(text, encoding="utf-8")
    plain_files_only(project / "output")


def test_a_new_project_with_the_commands_that_describe(tmp_path: Path) -> None:
    game = tmp_path / "Mein Spiel"
    pnp("new", str(game))
    pnp("check", "--project", str(game))
    pnp("build", "--project", str(game), "-j", "2", "--lang", "all")
    pnp("fetch", "--project", str(game))  # no shared sheet named: nothing to download
    pnp("sheets", "--project", str(game))
    pnp("layouts", "--project", str(game))
    assert "$defs" in json.loads(pnp("schema").stdout)
    assert len(plain_files_only(game / "output")) >= 5


def test_a_name_the_console_cannot_show_is_printed_as_its_code(tmp_path: Path) -> None:
    """A game named with letters and an emoji that cp1252 lacks: `pnp list` prints them as escapes
    on such a console, never an encoding traceback."""
    proj = make_project(tmp_path / "names", ("bargains",))
    db = proj / "card_data" / "bargains.yaml"
    text = db.read_text(encoding="utf-8")
    db.write_text(
        text.replace("name: Fairy Bargains", "name: Fairy Bargains \u0141\u00f3d\u017a \U0001f98b", 1),
        encoding="utf-8",
    )
    listed = pnp("list", "--project", str(proj)).stdout
    assert "Fairy Bargains \\u0141\u00f3d\\u017a \\U0001f98b" in listed, listed


def test_serve_draws_thumbnails_on_spawned_workers_and_stops(tmp_path: Path) -> None:
    """Two games' 31 thumbnails, none cached yet: drawn ahead on spawned worker processes (what a
    Windows or macOS server does) once the games are read, every one a picture, and Ctrl+C stops
    the server cleanly."""
    proj = make_project(tmp_path / "served", ("bargains", "tarot"))
    env = {**ENV, "PNP_CACHE_DIR": str(tmp_path / "cache"), "PNP_LOG": "debug"}
    process, _, port = start_server(proj, env, encoding="cp1252")
    try:
        state = json.loads(_get(port, "/api/state"))
        keys = [t["picture"] for g in state["games"] for c in g["components"] for t in c["tiles"]]
        assert len(keys) == 31 and all(_get(port, f"/picture/{k}.png").startswith(b"\x89PNG") for k in keys)
    finally:
        _, err = stop_server(process)
    assert process.returncode == 0 and "Traceback" not in err, err
    ahead = re.search(r"(\d+) thumbnails drawn ahead by 2 spawn workers", err)
    assert ahead and 1 <= int(ahead[1]) <= 31, err  # the page may ask for some first: drawn at once
    assert len(list((tmp_path / "cache" / "thumbnails").iterdir())) == 31


def _get(port: int, path: str) -> bytes:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("GET", path)
    response = conn.getresponse()
    body = response.read()
    assert response.status == 200, (path, response.status, body[:200])
    return body


def test_a_runaway_template_is_stopped_without_signals(tmp_path: Path) -> None:
    """No interval timer here: the watchdog thread stops an endless template on the main thread."""
    proj = make_project(tmp_path / "runaway", ("bargains",))
    db = proj / "card_data" / "bargains.yaml"
    endless = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"
    text = db.read_text(encoding="utf-8")
    assert 'subtitle: "a bargain worth {{ card.value }}"' in text
    db.write_text(text.replace("a bargain worth {{ card.value }}", endless, 1), encoding="utf-8")
    done = pnp("build", "bargains", "--project", str(proj), "-j", "1", code=2)
    assert "bargains.yaml:" in done.stderr and "longer than 1 s" in done.stderr, done.stderr
    assert not (proj / "output").exists() or not links_or_store(proj / "output")
