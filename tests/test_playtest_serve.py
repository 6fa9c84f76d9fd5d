"""`pnp serve --playtest`: the feedback page a phone joins with the printed code, its posts checked
field by field and appended to playtest/ROUND.jsonl (50 at once keep 50 lines), and the page in Chromium."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from test_playtest import playtest_game
from test_serve_browser import CHROMIUM, DRIVER, FLAGS

from pnp.data.reading.project import Project
from pnp.serve.server import App, make_server, serve, stop

from conftest import posix_only, run, wait_for


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[App, int, Path]]:
    root = playtest_game(tmp_path / "p")
    server, app = make_server(Project.at(root), root / "output", 0, "127.0.0.1", True, True)
    serve(server, app)
    try:
        yield app, server.server_address[1], root
    finally:
        stop(server, app)


def request(
    port: int, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
) -> tuple[int, bytes, Any]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    data = body if isinstance(body, bytes) or body is None else json.dumps(body).encode()
    conn.request(method, path, body=data, headers=headers or {})
    answer = conn.getresponse()
    out = answer.status, answer.read(), answer.getheader("Set-Cookie")
    conn.close()
    return out


def posting(port: int, join: str) -> dict[str, str]:
    return {
        "Host": f"127.0.0.1:{port}",
        "Origin": f"http://127.0.0.1:{port}",
        "Content-Type": "application/json",
        "X-PNP-Join": join,
    }


def lines(root: Path, round_name: str = "round1") -> list[dict[str, Any]]:
    path = root / "playtest" / f"{round_name}.jsonl"
    return (
        [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()] if path.exists() else []
    )


def test_playtest_needs_allow_remote(tmp_path: Path) -> None:
    root = playtest_game(tmp_path / "p")
    r = run("serve", "--project", str(root), "--port", "0", "--playtest")
    assert r.code == 2 and "--allow-remote" in r.err


def test_a_phone_joins_and_its_feedback_lands_in_the_file(served: tuple[App, int, Path]) -> None:
    app, port, root = served
    assert app.playtest is not None
    join = app.playtest.join
    status, body, _ = request(port, "GET", "/play")
    assert status == 200 and b"Join the playtest" in body and join.encode() not in body
    assert request(port, "GET", "/play?join=WRONGONE")[0] == 403
    assert request(port, "GET", "/play/cards")[0] == 403
    status, body, cookie = request(port, "GET", f"/play?join={app.playtest.shown_join.lower()}")
    assert status == 200 and b"What did you think" in body and cookie and join in cookie
    status, body, _ = request(port, "GET", "/play/cards", headers={"Cookie": f"pnp-join={join}"})
    names = {c["code"]: c["name"] for c in json.loads(body)["cards"]}
    assert status == 200 and names["BG-1"] == "Dewdrop"
    # the join code opens the feedback page only: the project's files and state stay closed without the token
    assert request(port, "GET", "/play/../api/state?join=" + join)[0] in (403, 404)

    sent = {
        "card": "pnp:BG-1@round1/v0.4",
        "rating": 4,
        "ticks": ["too weak", "typo"],
        "text": "Dew is spelt dwe",
    }
    status, body, _ = request(port, "POST", "/play/feedback", sent, posting(port, join))
    assert status == 200, body
    assert json.loads(body) == {
        "ok": True,
        "round": "round1",
        "card": "BG-1",
        "file": "playtest/round1.jsonl",
    }
    (entry,) = lines(root)
    assert entry["card"] == "BG-1" and entry["version"] == "0.4" and entry["rating"] == 4
    assert entry["ticks"] == ["too weak", "typo"] and entry["text"] == "Dew is spelt dwe"
    assert entry["time"].endswith("Z")
    # a plain code goes to the game's round
    status, _, _ = request(
        port, "POST", "/play/feedback", {"card": "BG-3", "text": "fine"}, posting(port, join)
    )
    assert status == 200 and [e["card"] for e in lines(root)] == ["BG-1", "BG-3"]
    # the contact sheet shows it beside the card
    tiles = {
        t["code"]: t
        for g in state(port)["games"]
        for c in g["components"]
        for t in c["tiles"]
        if t["side"] == "face"
    }
    assert tiles["BG-1"]["feedback"] == {
        "round": "round1",
        "line": "1 entry, rated 4/5 (1), too weak 1, typo 1",
        "texts": ["Dew is spelt dwe"],
    }
    assert tiles["BG-5"]["feedback"] is None
    # a feedback file typed badly by hand is a problem on the page, at its line
    with (root / "playtest" / "round1.jsonl").open("a", encoding="utf-8") as f:
        f.write('{"time": "now", "card": "BG-1", "text": "x"}\n')
    problems = [p["text"] for p in state(port)["problems"]]
    assert any(p.startswith("playtest/round1.jsonl:3: time:") for p in problems), problems


def state(port: int) -> dict[str, Any]:
    status, body, _ = request(port, "GET", "/api/state", headers={"Host": f"127.0.0.1:{port}"})
    assert status == 200, body
    return json.loads(body)


@pytest.mark.parametrize(
    ("body", "status", "says"),
    [
        ({"card": "BG-1", "rating": 9}, 400, "rating"),
        ({"card": "BG-1", "ticks": ["great"]}, 400, "ticks"),
        ({"card": "BG-1", "mood": "happy", "text": "x"}, 400, "mood"),
        ({"card": "ZZ-1", "text": "x"}, 400, "card"),
        ({"card": "BG-2", "text": "x"}, 400, "card"),
        ({"card": "BG-1"}, 400, "rating, ticks or text"),
        ({"card": "BG-1", "text": "x" * 2001}, 400, "text"),
        (b"not json", 400, "not JSON"),
        (b"[1, 2]", 400, "JSON object"),
    ],
)
def test_a_bad_post_is_refused_and_nothing_is_written(
    served: tuple[App, int, Path], body: Any, status: int, says: str
) -> None:
    app, port, root = served
    assert app.playtest is not None
    got, answer, _ = request(port, "POST", "/play/feedback", body, posting(port, app.playtest.join))
    assert got == status and says in answer.decode(), answer
    assert lines(root) == []


@pytest.mark.parametrize(
    ("change", "status"),
    [
        ({"X-PNP-Join": ""}, 403),
        ({"Origin": "http://evil.example"}, 403),
        ({"Content-Type": "text/plain"}, 415),
    ],
)
def test_a_post_from_elsewhere_is_refused(
    served: tuple[App, int, Path], change: dict[str, str], status: int
) -> None:
    app, port, root = served
    assert app.playtest is not None
    headers = {**posting(port, app.playtest.join), **change}
    got, _, _ = request(port, "POST", "/play/feedback", {"card": "BG-1", "text": "x"}, headers)
    assert got == status and lines(root) == []


def test_fifty_phones_at_once_keep_fifty_lines(served: tuple[App, int, Path]) -> None:
    app, port, root = served
    assert app.playtest is not None
    (root / "playtest").mkdir()
    (root / "playtest" / "round1.jsonl").write_text(  # typed by hand, without its last newline
        '{"time": "2026-12-01T10:00:00Z", "card": "BG-3", "text": "by hand"}', encoding="utf-8"
    )

    def send(i: int) -> int:
        body = {"card": "BG-1", "rating": 1 + i % 5, "text": f"phone {i} " + "é" * 300}
        return request(port, "POST", "/play/feedback", body, posting(port, app.playtest.join))[0]

    with ThreadPoolExecutor(16) as pool:
        assert list(pool.map(send, range(50))) == [200] * 50
    found = lines(root)
    assert len(found) == 51 and found[0]["text"] == "by hand"
    assert sorted(int(e["text"].split()[1]) for e in found[1:]) == list(range(50))
    r = run("feedback", "bargains", "--project", str(root), "--json")
    assert r.code == 0, r.out + r.err
    assert json.loads(r.out)["cards"]["BG-1"]["entries"] == 50


@pytest.mark.skipif(not (CHROMIUM.is_file() and DRIVER.is_file()), reason="no headless browser (chromium)")
def test_the_page_in_chromium_posts_an_entry(served: tuple[App, int, Path], tmp_path: Path) -> None:
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By

    app, port, root = served
    assert app.playtest is not None
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (*FLAGS, "--window-size=400,800"):
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path / 'chromium-profile'}")
    driver = webdriver.Chrome(options=options, service=Service(str(DRIVER)))
    try:
        driver.get(f"http://127.0.0.1:{port}/play")
        driver.find_element(By.ID, "join").send_keys(app.playtest.shown_join)
        driver.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        wait_for(lambda: driver.find_elements(By.ID, "card"), "the feedback page after joining")
        driver.find_element(By.ID, "card").send_keys("pnp:BG-3@round1/v0.4")
        name = driver.find_element(By.ID, "name")
        wait_for(lambda: name.text, "the card's name: " + str(driver.get_log("browser")))
        driver.find_element(By.XPATH, "//input[@name='rating'][@value='2']/..").click()
        driver.find_element(By.XPATH, "//input[@value='too strong']").click()
        driver.find_element(By.ID, "text").send_keys("Costs too little")
        driver.find_element(By.ID, "send").click()
        wait_for(
            lambda: "Thank you" in driver.find_element(By.ID, "said").text, "the page saying it was noted"
        )
        driver.get(f"http://127.0.0.1:{port}/")  # the designer's contact sheet shows it beside the card
        wait_for(
            lambda: any(
                "too strong 1" in e.text for e in driver.find_elements(By.CSS_SELECTOR, ".tile .said")
            ),
            "the feedback beside its card on the contact sheet",
        )
    finally:
        driver.quit()
    (entry,) = lines(root)
    assert (entry["card"], entry["rating"], entry["ticks"], entry["text"]) == (
        "BG-3",
        2,
        ["too strong"],
        "Costs too little",
    )


@posix_only
def test_a_link_at_the_feedback_folder_is_not_followed(served: tuple[App, int, Path], tmp_path: Path) -> None:
    app, port, root = served
    assert app.playtest is not None
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (root / "playtest").symlink_to(elsewhere)
    status, body, _ = request(
        port, "POST", "/play/feedback", {"card": "BG-1", "text": "x"}, posting(port, app.playtest.join)
    )
    assert status == 500 and b"leads out of the project" in body
    assert list(elsewhere.iterdir()) == []
