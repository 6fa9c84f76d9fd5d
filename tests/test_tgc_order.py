"""`pnp order tgc` against a stand-in for The Game Crafter's API on 127.0.0.1 (never the real one):
the documented requests in their order, the pictures uploaded whole, the cards and copies, a 5xx
answered by trying again, a 4xx stopping with one clear line, and --dry-run sending nothing."""

from __future__ import annotations

import json
import threading
import urllib.parse
from collections.abc import Iterator
from email.parser import BytesParser
from email.policy import HTTP
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from io import BytesIO
from pathlib import Path

import pytest
from PIL import Image

from pnp.data.reading.loader import load_game
from pnp.output.exports.naming import Target
from pnp.output.exports.setup import Setup
from pnp.output.tgc import Client, Credentials, OrderError, upload

from conftest import make_project, run

# The parameters each endpoint takes, from The Game Crafter's developer pages (thegamecrafter.com/developer/:
# Session.html, Folder.html, File.html, Game.html, Deck.html, Card.html): (required, optional). A bulk-cards
# call takes `cards`, "a JSON array" of objects with Card's create parameters (Deck.html), at most 100.
SESSION = {"session_id"}
DOCUMENTED: dict[tuple[str, str], tuple[set[str], set[str]]] = {
    ("POST", "/session"): ({"api_key_id", "username", "password"}, set()),
    ("GET", "/user/*"): (SESSION, set()),
    ("GET", "/user/*/designers"): (SESSION, set()),
    ("POST", "/game"): (SESSION | {"name", "designer_id"}, set()),
    ("POST", "/folder"): (SESSION | {"name"}, {"user_id", "parent_id"}),
    ("POST", "/file"): (SESSION | {"name", "file"}, {"folder_id"}),
    ("POST", "/deck"): (
        SESSION | {"name", "game_id"},
        {"identity", "quantity", "back_id", "has_proofed_back"},
    ),
    ("POST", "/deck/*/bulk-cards"): (SESSION | {"cards"}, set()),
    ("DELETE", "/session/*"): (set(), set()),
}
CARD = ({"name"}, {"quantity", "back_from", "face_id", "back_id", "has_proofed_face", "has_proofed_back"})
BULK = 100


def documented(method: str, path: str) -> tuple[set[str], set[str]] | None:
    """The documented parameters of `method path` (ids in the path matched by *), None when undocumented."""
    for (m, pattern), wanted in DOCUMENTED.items():
        parts, got = pattern.split("/"), path.split("/")
        if m == method and len(parts) == len(got) and all(a in ("*", b) for a, b in zip(parts, got)):
            return wanted
    return None


def misfit(method: str, path: str, params: dict) -> str | None:
    """What a request gets wrong against the documentation (as The Game Crafter's 400 would say), or None."""
    wanted = documented(method, path)
    if wanted is None:
        return f"no such endpoint: {method} {path}"
    required, optional = wanted
    if missing := required - params.keys():
        return f"missing {sorted(missing)}"
    if unknown := params.keys() - required - optional:
        return f"unknown {sorted(unknown)}"
    if path.endswith("/bulk-cards"):
        cards = json.loads(params["cards"])
        if not isinstance(cards, list) or not 1 <= len(cards) <= BULK:
            return f"cards: a JSON array of 1 to {BULK} cards"
        for card in cards:
            if CARD[0] - card.keys() or card.keys() - CARD[0] - CARD[1]:
                return f"cards: a card's parameters are {sorted(CARD[0] | CARD[1])}, not {sorted(card)}"
    return None


class StandIn(ThreadingHTTPServer):
    """Answers the documented endpoints; `fail` maps "METHOD /path-start" to statuses to answer first."""

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.log: list[tuple[str, str, dict]] = []
        self.files: dict[str, bytes] = {}
        self.fail: dict[str, list[int]] = {}
        self.ids = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/api"


class Handler(BaseHTTPRequestHandler):
    server: StandIn

    def log_message(self, *args: object) -> None:  # quiet
        pass

    def _params(self) -> dict:
        url = urllib.parse.urlsplit(self.path)
        params = dict(urllib.parse.parse_qsl(url.query))
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        kind = self.headers.get("Content-Type", "")
        if kind.startswith("multipart/form-data"):
            message = BytesParser(policy=HTTP).parsebytes(f"Content-Type: {kind}\r\n\r\n".encode() + body)
            for part in message.iter_parts():
                name = part.get_param("name", header="content-disposition")
                if part.get_filename():
                    params["file"] = part.get_filename()
                    params["_bytes"] = part.get_payload(decode=True)
                else:
                    params[name] = part.get_content().strip()
        elif body:
            params.update(urllib.parse.parse_qsl(body.decode()))
        return params

    def _answer(self, status: int, data: dict) -> None:
        raw = json.dumps(data).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def _handle(self) -> None:
        path = urllib.parse.urlsplit(self.path).path.removeprefix("/api")
        params = self._params()
        data = params.pop("_bytes", None)
        self.server.log.append((self.command, path, params))
        for key, statuses in self.server.fail.items():
            if f"{self.command} {path}".startswith(key) and statuses:
                status = statuses.pop(0)
                return self._answer(
                    status, {"error": {"code": status, "message": f"stand-in says no\n({status})"}}
                )
        if path != "/session" and not params.get("session_id") and self.command != "DELETE":
            return self._answer(401, {"error": {"message": "no session"}})
        if wrong := misfit(self.command, path, params | ({"file": "x"} if data is not None else {})):
            return self._answer(400, {"error": {"code": 400, "message": wrong}})
        self.server.ids += 1
        new = f"ID{self.server.ids}"
        if path == "/session":
            return self._answer(200, {"result": {"id": "S1", "user_id": "U1"}})
        if path == "/user/U1":
            return self._answer(200, {"result": {"id": "U1", "root_folder_id": "ROOT"}})
        if path == "/user/U1/designers":
            return self._answer(200, {"result": {"items": [{"id": "D1"}]}})
        if path == "/file":
            self.server.files[new] = data or b""
        if path.endswith("/bulk-cards"):  # the cards made, as Deck.html's bulk-cards answers
            cards = [card | {"id": f"{new}-{n}"} for n, card in enumerate(json.loads(params["cards"]))]
            return self._answer(200, {"result": {"cards": cards}})
        self._answer(200, {"result": {"id": new}})

    do_GET = do_POST = do_DELETE = _handle


@pytest.fixture
def server() -> Iterator[StandIn]:
    s = StandIn()
    thread = threading.Thread(target=s.serve_forever, daemon=True)
    thread.start()
    try:
        yield s
    finally:
        s.shutdown()
        s.server_close()


@pytest.fixture(scope="module")
def bargains(tmp_path_factory) -> Path:
    return make_project(tmp_path_factory.mktemp("bargains") / "proj")


@pytest.fixture
def account(monkeypatch) -> None:
    for key, value in (("TGC_API_KEY_ID", "K"), ("TGC_USERNAME", "maker"), ("TGC_PASSWORD", "pw")):
        monkeypatch.setenv(key, value)


def test_upload_follows_the_documented_steps(bargains: Path, server: StandIn, account: None) -> None:
    r = run("order", "tgc", "bargains", "--api", server.url, "--project", str(bargains))
    assert r.code == 0, r.err
    order = [f"{m} {p}" for m, p, _ in server.log]
    assert order == [
        "POST /session",
        "GET /user/U1",
        "GET /user/U1/designers",
        "POST /game",
        "POST /folder",
        *["POST /file"] * 6,  # 5 distinct faces and the back
        "POST /deck",
        "POST /deck/ID12/bulk-cards",
        "DELETE /session/S1",
    ]
    params = [p for _, _, p in server.log]
    assert params[0] == {"api_key_id": "K", "username": "maker", "password": "pw"}
    assert params[3] == {"session_id": "S1", "name": "Fairy Bargains", "designer_id": "D1"}
    assert params[4] == {
        "session_id": "S1",
        "name": "Fairy Bargains (pnp)",
        "user_id": "U1",
        "parent_id": "ROOT",
    }
    for sent in params[5:11]:
        assert sent["folder_id"] == "ID5" and sent["file"].endswith(".png")
    for data in server.files.values():
        with Image.open(BytesIO(data)) as im:
            assert im.size == (825, 1125)  # The Game Crafter's poker picture with bleed
    deck = params[11]
    assert deck["identity"] == "PokerDeck" and deck["game_id"] == "ID4" and deck["has_proofed_back"] == "0"
    assert deck["back_id"] in server.files
    cards = json.loads(params[12]["cards"])
    assert sum(c["quantity"] for c in cards) == 65 and len(cards) == 5
    assert {c["face_id"] for c in cards} | {deck["back_id"]} == set(server.files)
    assert "Uploaded 1 deck(s), 65 cards" in r.out and "in 14 requests" in r.out
    assert "pw" not in r.out and '"password": "***"' in r.out


def test_the_stand_in_refuses_what_the_documentation_does_not_take(server: StandIn) -> None:
    client = Client(server.url, lambda line: None)
    card = {"name": "Pebble", "quantity": 2, "face_id": "F1"}
    made = client.call("POST", "/deck/D9/bulk-cards", {"session_id": "S1", "cards": json.dumps([card])})
    assert made["cards"][0]["face_id"] == "F1"
    for params, said in (
        ({"session_id": "S1", "card_list": json.dumps([card])}, r"missing \['cards'\]"),
        ({"session_id": "S1", "cards": json.dumps([card] * 101)}, "JSON array of 1 to 100"),
        ({"session_id": "S1", "cards": json.dumps([card | {"image": "x"}])}, "a card's parameters"),
    ):
        with pytest.raises(OrderError, match=f"HTTP 400.*{said}"):
            client.call("POST", "/deck/D9/bulk-cards", params)


def test_a_5xx_is_tried_again(server: StandIn) -> None:
    server.fail = {"POST /folder": [503, 502]}
    said: list[str] = []
    pauses: list[float] = []
    client = Client(server.url, said.append, pause=pauses.append)
    assert client.call("POST", "/folder", {"session_id": "S1", "name": "x"})["id"] == "ID1"
    assert [f"{m} {p}" for m, p, _ in server.log] == ["POST /folder"] * 3
    assert pauses == [1.0, 3.0] and sum("trying again" in line for line in said) == 2
    server.fail = {"POST /folder": [500, 500, 500]}
    with pytest.raises(OrderError, match=r"POST /folder failed 3 times \(HTTP 500\)"):
        client.call("POST", "/folder", {"session_id": "S1", "name": "x"})


def test_a_4xx_stops_with_one_line(bargains: Path, server: StandIn, account: None) -> None:
    server.fail = {"POST /deck": [400]}
    r = run("order", "tgc", "bargains", "--api", server.url, "--project", str(bargains))
    assert r.code == 1
    (line,) = r.err.strip().splitlines()
    assert line == "Error: The Game Crafter refused POST /deck (HTTP 400): stand-in says no (400)"
    assert [m for m, p, _ in server.log].count("POST") == 10 and server.log[-1][
        1
    ] == "/deck"  # not tried again


def test_dry_run_sends_nothing(bargains: Path, server: StandIn, monkeypatch) -> None:
    for key in ("TGC_API_KEY_ID", "TGC_USERNAME", "TGC_PASSWORD"):
        monkeypatch.delenv(key, raising=False)
    r = run("order", "tgc", "bargains", "--dry-run", "--api", server.url, "--project", str(bargains))
    assert r.code == 0, r.err
    assert server.log == []
    lines = [line for line in r.out.splitlines() if line.startswith("would send: ")]
    assert len(lines) == 14 and lines[0].startswith("would send: POST /session")
    assert lines[-1].startswith("would send: DELETE /session/")


def test_credentials_stay_outside_the_project(
    bargains: Path, server: StandIn, tmp_path: Path, monkeypatch
) -> None:
    for key in ("TGC_API_KEY_ID", "TGC_USERNAME", "TGC_PASSWORD"):
        monkeypatch.delenv(key, raising=False)
    r = run("order", "tgc", "bargains", "--api", server.url, "--project", str(bargains))
    assert r.code == 2 and "TGC_API_KEY_ID" in r.err
    inside = bargains / "tgc.yaml"
    inside.write_text("api_key_id: K\nusername: maker\npassword: pw\n", encoding="utf-8")
    try:
        r = run(
            "order",
            "tgc",
            "bargains",
            "--credentials",
            str(inside),
            "--api",
            server.url,
            "--project",
            str(bargains),
        )
        assert r.code == 2 and "out of the project" in r.err
    finally:
        inside.unlink()
    outside = tmp_path / "tgc.yaml"
    outside.write_text("api_key_id: K\nusername: maker\npassword: pw\n", encoding="utf-8")
    server.fail = {"POST /session": [403]}
    r = run(
        "order",
        "tgc",
        "bargains",
        "--credentials",
        str(outside),
        "--api",
        server.url,
        "--project",
        str(bargains),
    )
    assert r.code == 1 and server.log[0][2] == {"api_key_id": "K", "username": "maker", "password": "pw"}
    assert "refused POST /session (HTTP 403)" in r.err


def test_an_answer_without_its_id_stops_with_one_line(bargains: Path, server: StandIn) -> None:
    class Bare(Client):
        def call(self, method: str, path: str, params: dict, file: tuple | None = None) -> dict:
            answer = super().call(method, path, params, file)
            return {} if path == "/folder" else answer

    game = load_game(bargains / "card_data" / "bargains.yaml")
    targets = [Target(game, game.component("deck"))]
    scenes = Setup((game,), str(bargains / "fonts")).scenes()
    client = Bare(server.url, lambda line: None)
    with pytest.raises(
        OrderError, match=r"answer lacked 'id' \(has its API changed\?\); nothing more was sent"
    ):
        upload(client, targets, scenes, lambda t: bargains, Credentials("K", "u", "p"), None, False)
    assert server.log[-1][1] == "/folder"
