"""`pnp serve` without a browser: which edits re-render which cards, the problems panel, the server's rules."""

from __future__ import annotations

import http.client
import io
import json
import re
import time
from pathlib import Path

import pytest
from PIL import Image

from pnp.data.reading.project import Project
from pnp.serve.builds import Builder, parse_settings
from pnp.serve.live import Hub, Live
from pnp.serve.pictures import PictureCache
from pnp.serve.server import make_server, serve, stop
from pnp.serve.state import Tracker, changes

from conftest import assert_quick, make_project, run, start_server, stop_server

ACORN = "bargains/deck/face/3/"
BACK = "bargains/deck/back/bargain-back/"


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.fixture
def proj(tmp_path: Path) -> Path:
    return make_project(tmp_path / "proj", ("bargains", "tarot"))


def test_a_renamed_card_re_renders_that_card_only(proj: Path) -> None:
    tracker = Tracker(Project.at(proj))
    cache = PictureCache()
    before = tracker.refresh()
    assert cache.warm(list(before.pictures.items())) == len(before.pictures) == 6 + 25
    edit(proj / "card_data/bargains.yaml", "an oak of a deal", "an oak of a bargain")
    after = tracker.refresh()
    diff = changes(before, after)
    assert diff.changed == (ACORN,) and not diff.added and not diff.removed and not diff.problems
    assert after.games[1] is before.games[1]  # tarot's file did not change: reused as it was
    renders = cache.renders
    assert cache.warm(list(after.pictures.items())) == 1 and cache.renders == renders + 1
    # Bargains faces print their palette's title, not the card's name: a rename redraws nothing
    edit(proj / "card_data/bargains.yaml", "name: Acorn", "name: Oak Nut")
    renamed = tracker.refresh()
    assert changes(after, renamed).changed == () and renamed.tiles()[ACORN].name == "Oak Nut"
    # tarot faces print the name: that card changes, and the relationship chart that lists every name
    edit(proj / "card_data/tarot.yaml", "name: Tohsaka Rin,", "name: Rin of the Gems,")
    assert changes(renamed, tracker.refresh()).changed == (
        "tarot/arcana/face/1/1",
        "tarot/arcana/face/chart/1",
    )


def test_counts_and_booklets_redraw_nothing_a_design_redraws_its_faces(proj: Path) -> None:
    tracker = Tracker(Project.at(proj))
    before = tracker.refresh()
    path = proj / "card_data/bargains.yaml"
    edit(path, "copies: 13", "copies: 12")  # a count: no picture changes, a rule breaks
    mid = tracker.refresh()
    diff = changes(before, mid)
    assert diff.changed == () and diff.problems
    assert mid.tiles()[ACORN.replace("/3/", "/1/")].copies == 12
    (proj / "templates/bargains.md.j2").write_text("changed booklet\n", encoding="utf-8")
    assert changes(mid, tracker.refresh()).changed == ()  # booklet templates draw no card
    edit(path, "a bargain worth {{ card.value }}", "worth {{ card.value }}")
    design = changes(mid, tracker.refresh())
    assert len(design.changed) == 5 and BACK not in design.changed  # every face of the design, no back


def test_a_half_written_file_keeps_the_last_good_cards(proj: Path) -> None:
    tracker = Tracker(Project.at(proj))
    good = tracker.refresh()
    path = proj / "card_data/bargains.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text[: text.index("name: Clover")] + "name: [Clo", encoding="utf-8")
    broken = tracker.refresh()
    game = broken.games[0]
    assert game.stale and game.problems
    assert all(p.text.startswith("card_data/bargains.yaml:") and p.line for p in game.problems)
    assert [t.picture for t in broken.tiles().values()] == [t.picture for t in good.tiles().values()]
    assert set(broken.pictures) == set(good.pictures)  # the old pictures can still be drawn
    cli = run("check", "bargains", "--project", str(proj))
    assert cli.code == 2
    assert [p.text for p in game.problems] == [line.strip() for line in cli.err.splitlines()[1:]]
    path.write_text(text, encoding="utf-8")
    fixed = tracker.refresh()
    assert not fixed.games[0].stale and not fixed.all_problems()
    assert changes(broken, fixed).problems and not changes(broken, fixed).changed


def test_problems_read_as_pnp_check_prints_them(proj: Path) -> None:
    edit(proj / "card_data/bargains.yaml", "copies: 13", "copies: 12")
    snapshot = Tracker(Project.at(proj)).refresh()
    texts = [p.text for p in snapshot.all_problems()]
    cli = run("check", "--project", str(proj))
    assert cli.code == 1
    printed = [line.strip() for line in cli.out.splitlines() if line.startswith("  ")]
    assert texts == printed and len(texts) == 2
    assert all(
        p.file == "card_data/bargains.yaml" and p.line and p.severity == "error"
        for p in snapshot.all_problems()
    )
    data = snapshot.as_json()
    assert data["problems"][0]["text"] == texts[0] and json.dumps(data, default=str)


def test_the_watcher_tells_the_page_within_a_second(proj: Path) -> None:
    live = Live(Tracker(Project.at(proj)), PictureCache(), Hub())
    events = live.hub.subscribe()
    live.start()
    try:
        assert live.watching.is_set()
        start = time.monotonic()
        edit(proj / "card_data/bargains.yaml", "Nobody keeps it", "Nobody holds it")
        message = events.get(timeout=30)
        took = time.monotonic() - start
        while "event: build" in (message or ""):
            message = events.get(timeout=30)
    finally:
        live.stop()
    assert message and message.startswith("event: state")
    data = json.loads(message.split("data: ", 1)[1])
    assert data["changed"] == ["bargains/deck/face/10/"]
    assert_quick(took, 3.0, "from saving to the page's event")  # about 0.3 s


def test_a_server_answers_before_the_project_is_read_and_shows_each_game_as_read(proj: Path) -> None:
    server, app = make_server(Project.at(proj), proj / "output", 0, eager=False)
    port = server.server_address[1]
    events = app.live.hub.subscribe()
    assert app.live.snapshot.reading and not app.live.snapshot.games  # nothing read yet
    serve(server, app)
    try:
        status, body = _get(port, "/api/state")  # answered while the games are read (or just after)
        assert status == 200 and "reading" in json.loads(body)
        assert app.live.read.wait(120)
        said = []
        while not events.empty():
            message = events.get_nowait() or ""
            if message.startswith("event: state"):
                said.append(json.loads(message.split("data: ", 1)[1]))
        status, body = _get(port, "/api/state")
    finally:
        stop(server, app)
    whole = json.loads(body)
    assert not whole["reading"] and [g["slug"] for g in whole["games"]] == ["bargains", "tarot"]
    assert [d.get("reading", False) for d in said] == [True, True, False]  # a game at a time, then done
    assert sum(len(c["tiles"]) for g in whole["games"] for c in g["components"]) > 24


def _get(port: int, path: str) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", path)  # sent as written: no client-side clean-up of ../
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response.status, body


def test_the_server_binds_to_localhost_and_stays_in_its_folders(proj: Path, tmp_path: Path) -> None:
    (tmp_path / "secret.txt").write_text("not for the browser", encoding="utf-8")
    (proj / "output").mkdir()
    (proj / "output/readme.txt").write_text("built", encoding="utf-8")
    server, app = make_server(Project.at(proj), proj / "output", 0)
    serve(server, app)
    try:
        host, port = server.server_address[:2]
        assert host == "127.0.0.1"
        for path in (
            "/output/../../secret.txt",
            "/files/../secret.txt",
            "/files/%2e%2e/secret.txt",
            "/output/%2e%2e/%2e%2e/secret.txt",
            "/files/card_data/../../secret.txt",
        ):
            status, body = _get(port, path)
            assert status == 403 and b"not for the browser" not in body, path
        assert _get(port, "/output/readme.txt") == (200, b"built")
        assert _get(port, "/files/card_data/bargains.yaml")[0] == 200
        assert _get(port, "/static/../server.py")[0] == 403
        assert _get(port, "/static/state.py")[0] == 404
        status, body = _get(port, "/api/state")
        state = json.loads(body)
        assert status == 200 and [g["slug"] for g in state["games"]] == ["bargains", "tarot"]
        key = next(t for t in app.live.snapshot.tiles().values() if t.id == ACORN).picture
        thumb = Image.open(io.BytesIO(_get(port, f"/picture/{key}.png")[1]))
        full = Image.open(io.BytesIO(_get(port, f"/picture/{key}.png?size=full")[1]))
        assert thumb.size == (300, 419) and full.size == (744, 1039)  # 63 x 88 mm at 300 dpi
        assert _get(port, "/picture/0123abc.png")[0] == 404
        assert "live preview" in _get(port, "/")[1].decode()
    finally:
        stop(server, app)


def test_print_settings_from_the_form() -> None:
    s = parse_settings(
        {
            "paper": "letter",
            "duplex": "short",
            "bleed": "2",
            "crop_marks": "corner",
            "back_offset": "0.5,-1",
            "players": "3",
            "decks": "",
            "games": ["bargains"],
        },
        ["bargains", "tarot"],
    )
    assert s.command() == (
        "pnp build bargains --paper letter --duplex short --bleed 2 --crop-marks corner "
        "--back-offset 0.5,-1 --players 3"
    )
    assert s.options(Path.cwd()).counts == {"players": 3}
    for bad, word in (
        ({"paper": "napkin"}, "paper"),
        ({"bleed": "11"}, "bleed"),
        ({"players": "0"}, "players"),
        ({"duplex": "sideways"}, "duplex"),
        ({"games": ["chess"]}, "games"),
    ):
        with pytest.raises(ValueError, match=word):
            parse_settings(bad, ["bargains"])


def test_pnp_serve_prints_its_address_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    proj = make_project(tmp_path / "one", ("bargains",))
    process, line, port = start_server(proj)
    try:
        assert re.search(
            r"at http://127\.0\.0\.1:\d+/ \(reading the games\).*\nRead 1 game: 0 problems", line
        ), line
        status, body = _get(port, "/api/state")
        assert status == 200 and json.loads(body)["version"] == 1
    finally:
        out, err = stop_server(process)
    assert process.returncode == 0 and "Stopped." in out and "Traceback" not in err


def test_pnp_serve_refuses_a_folder_that_is_no_project(tmp_path: Path) -> None:
    r = run("serve", "--project", str(tmp_path), "--port", "0")
    assert r.code == 2 and "not a project folder" in r.err


def test_games_that_come_and_go(proj: Path) -> None:
    tracker = Tracker(Project.at(proj))
    both = tracker.refresh()
    tarot = proj / "card_data/tarot.yaml"
    text = tarot.read_text(encoding="utf-8")
    tarot.unlink()
    one = tracker.refresh()
    gone = changes(both, one)
    assert [g.slug for g in one.games] == ["bargains"] and len(gone.removed) == 25 and not gone.changed
    tarot.write_text(text, encoding="utf-8")
    again = changes(one, tracker.refresh())
    assert len(again.added) == 25 and set(again.added) == set(gone.removed)


def test_no_input_stops_the_snapshot(proj: Path) -> None:
    """Garbage, empty and wrong-shaped files, broken fonts, a vanished folder: problems, never an exception."""
    tracker = Tracker(Project.at(proj))
    good = tracker.refresh()
    db = proj / "card_data/bargains.yaml"
    text = db.read_bytes()
    for bad in (
        b"\xff\xfe\x00 not text",
        b"",
        b"- a list\n",
        b"game: [",
        text.replace(b"layout: value", b"layout: nope"),
    ):
        db.write_bytes(bad)
        snapshot = tracker.refresh()
        assert snapshot.games[0].stale and snapshot.all_problems()[0].text.startswith(
            "card_data/bargains.yaml"
        )
        assert set(snapshot.pictures) == set(good.pictures)
    db.write_bytes(text)
    (proj / "fonts/fonts.yaml").write_text("roles: [\n", encoding="utf-8")
    assert tracker.refresh().problems[0].text.startswith("fonts/fonts.yaml:2: YAML syntax")  # file and line
    (proj / "fonts/fonts.yaml").unlink()
    assert not tracker.refresh().all_problems()  # ReportLab's own fonts stand in
    for path in sorted((proj / "card_data").iterdir()):
        path.unlink()
    assert tracker.refresh().games == ()


def test_the_build_button_reports_progress_and_its_pdfs(tmp_path: Path) -> None:
    proj = make_project(tmp_path / "one", ("fairy-bucks",))
    seen: list[dict] = []
    builder = Builder(Project.at(proj), proj / "output", seen.append)
    assert builder.start(parse_settings({"players": "9"}, ["fairy-bucks"]))
    builder.join(30)
    assert seen[-1]["state"] == "failed" and "--players 9 is outside that" in seen[-1]["problems"][0]
    assert not (proj / "output").exists()
    seen.clear()
    assert builder.start(parse_settings({"players": "2"}, ["fairy-bucks"]))
    assert not builder.start(parse_settings({}, ["fairy-bucks"]))  # one build at a time
    builder.join(30)
    states = [s["state"] for s in seen]
    assert states[0] == "running" and states[-1] == "done" and set(states) == {"running", "done"}
    done = seen[-1]
    assert done["total"] > 1 and done["done"] == done["total"] and "--players 2" in done["command"]
    assert {f["path"] for f in done["files"]} >= {"fairy-bucks/money.pdf", "fairy-bucks/checklist.pdf"}
    assert all((proj / "output" / f["path"]).is_file() for f in done["files"])
    # a failed build keeps the list of the last good build's PDFs (they are untouched)
    assert builder.start(parse_settings({"players": "9"}, ["fairy-bucks"]))
    builder.join(30)
    assert seen[-1]["state"] == "failed" and seen[-1]["earlier"] == done["files"]
    assert all((proj / "output" / f["path"]).is_file() for f in seen[-1]["earlier"])
