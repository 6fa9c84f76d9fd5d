"""pnp serve's stack view: a stacked variant chosen on the page is simulated against its base, off the
request thread, with the numbers of `pnp simulate VARIANT --against BASE`, cached per file content."""

from __future__ import annotations

import http.client
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from pnp.data.reading.project import Project
from pnp.serve import compare as compare_module
from pnp.serve.compare import Comparisons
from pnp.serve.server import make_server

from conftest import make_project, run

GAMES = 60  # the page asks for more (pnp.serve.compare.GAMES); few keep the test quick


def _get(port: int, path: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", path)
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response.status, json.loads(body)


def _until_done(port: int, name: str) -> tuple[dict, int]:  # type: ignore[type-arg]
    """Ask for the comparison until it is done (the page polls the same way); the answers seen running."""
    running = 0
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        status, answer = _get(port, f"/api/compare?variant={name}")
        assert status == 200, answer
        if answer["status"] == "done":
            return answer, running
        assert answer["status"] == "running" and answer["variant"] == name
        running += 1
        time.sleep(0.05)  # polling, as the page does; no result depends on it
    raise AssertionError(f"no comparison for {name} within 60 s")


def _project(tmp_path: Path) -> Path:
    proj = make_project(tmp_path / "proj", ("fairy-meat",))
    (proj / "card_data" / "variants").mkdir()
    wild = proj / "card_data" / "variants" / "wild.yaml"
    wild.write_text("variant:\n  name: wild\n  base: fairy-meat\n  remove:\n  - '3-8'\n", encoding="utf-8")
    return proj


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Path, int, int]]:
    """A project with a stacked variant and its server (HTTP only: no thumbnails drawn meanwhile)."""
    proj = _project(tmp_path)
    server, app = make_server(Project.at(proj), proj / "output", 0, eager=False)
    games = GAMES
    app.comparisons = Comparisons(Project.at(proj), games=games)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield proj, int(server.server_address[1]), games
    finally:
        server.shutdown()
        server.server_close()


def test_stack_view_compares_a_variant_with_its_base(served: tuple[Path, int, int]) -> None:
    proj, port, games = served
    status, state = _get(port, "/api/state")
    assert status == 200 and state["variants"] == ["wild"]
    page = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    page.request("GET", "/static/app.js")
    script = page.getresponse().read().decode()
    assert "/api/compare?variant=" in script and "significant" in script
    answer, running = _until_done(port, "wild")
    assert running >= 1  # the first answer came at once, before the games were played
    assert answer["base"] == "fairy-meat" and answer["games"] == games and answer["players"] == 2
    assert f"pnp simulate wild --against fairy-meat --games {games}" in answer["command"]
    rows = {r["figure"]: r for r in answer["comparison"]}
    assert all(r["significant"] == (r["p"] < 0.05) for r in rows.values())
    assert rows["damage per combat"]["significant"] and rows["damage per combat"]["difference"] > 0
    assert rows["rounds"]["significant"] and rows["rounds"]["difference"] < 0  # shorter, bloodier fights
    again, running = _until_done(port, "wild")
    assert running == 0 and again == answer  # cached: the same file content answers at once
    wild = proj / "card_data" / "variants" / "wild.yaml"
    wild.write_text(wild.read_text(encoding="utf-8").replace("3-8", "2,3,9,10"), encoding="utf-8")
    changed, running = _until_done(port, "wild")
    assert running >= 1 and changed["comparison"] != answer["comparison"]
    status, missing = _get(port, "/api/compare?variant=..%2Fsecret")
    assert status == 404 and "no stacked variant" in missing["error"] and "wild" in missing["error"]


@pytest.mark.slow
def test_stack_view_numbers_are_those_of_pnp_simulate(tmp_path: Path) -> None:
    proj = _project(tmp_path)
    games = compare_module.GAMES
    expected = json.loads(
        run(
            "simulate",
            "wild",
            "--against",
            "fairy-meat",
            "--games",
            str(games),
            "--json",
            "--project",
            str(proj),
        ).out
    )
    answer = Comparisons(Project.at(proj))
    answer.ask("wild")
    deadline = time.monotonic() + 120
    while (got := answer.ask("wild")[0])["status"] == "running" and time.monotonic() < deadline:
        time.sleep(0.05)
    assert got["comparison"] == expected["comparison"] and got["players"] == expected["players"]
