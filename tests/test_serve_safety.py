"""`pnp serve` as another site in the same browser, or a flood of connections, would try it.

Every case is a real HTTP request to a running server: rebinding Hosts, cross-site builds and
forms, the token, files outside the declared inputs, huge bodies, hundreds of idle
connections, a runaway template saved while serving.
"""

from __future__ import annotations

import http.client
import json
import logging
import re
import socket
import struct
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from pnp.data.reading.project import Project
from pnp.data.templating import sandbox
from pnp.serve.guard import MAX_BODY, MAX_STREAMS, TOKEN_HEADER
from pnp.serve.server import make_server, serve, stop

from conftest import assert_quick, make_project, run, wait_for

FOREVER = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"


@pytest.fixture
def running(tmp_path: Path):
    proj = make_project(tmp_path / "proj", ("bargains",))
    (proj / ".env").write_text("API_TOKEN=do-not-leak\n", encoding="utf-8")
    (proj / "pyproject.toml").write_text("[project]\nname = 'secret'\n", encoding="utf-8")
    (proj / "card_data" / ".env").write_text("API_TOKEN=do-not-leak\n", encoding="utf-8")
    server, app = make_server(Project.at(proj), proj / "output", 0)
    serve(server, app)
    try:
        yield proj, server, app
    finally:
        stop(server, app)


def request(
    port: int,
    method: str,
    path: str,
    headers: dict[str, str] | None = None,
    body: bytes | None = None,
    host: str = "127.0.0.1",
) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
    sent = {"Host": f"{host}:{port}", **(headers or {})}
    for name, value in sent.items():
        conn.putheader(name, value)
    if body is not None and "Content-Length" not in sent:
        conn.putheader("Content-Length", str(len(body)))
    conn.endheaders(body)
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response.status, data


def change_headers(port: int, token: str, **extra: str) -> dict[str, str]:
    return {
        "Origin": f"http://127.0.0.1:{port}",
        "Content-Type": "application/json",
        TOKEN_HEADER: token,
        **extra,
    }


def test_only_its_own_host_names_are_answered(running: Any) -> None:
    _, server, app = running
    port = server.server_address[1]
    for host in ("attacker.example", "127.0.0.1.attacker.example", "localhost.", "192.168.0.10"):
        for path in ("/", "/api/state", "/picture/x.png", "/files/card_data/bargains.yaml", "/events"):
            status, body = request(port, "GET", path, host=host)
            assert status == 421 and b"bargains" not in body and app.guard.token.encode() not in body, (
                host,
                path,
            )
    status, _ = request(port, "GET", "/api/state", headers={"Host": f"attacker.example:{port}"})
    assert status == 421
    for host in ("127.0.0.1", "localhost", "[::1]", "LOCALHOST"):
        status, body = request(port, "GET", "/api/state", host=host)
        assert status == 200 and json.loads(body)["games"][0]["slug"] == "bargains", host
    status, page = request(port, "GET", "/")
    assert status == 200 and app.guard.token in page.decode()  # the page it serves carries the token


def test_changes_need_the_page_origin_json_and_the_token(running: Any) -> None:
    proj, server, app = running
    port, token = server.server_address[1], app.guard.token
    good = b'{"paper": "a4"}'
    attempts = [
        change_headers(port, token, Origin="http://attacker.example"),
        change_headers(port, token, Origin="null"),
        {k: v for k, v in change_headers(port, token).items() if k != "Origin"},
        change_headers(port, token, **{"Content-Type": "text/plain"}),
        change_headers(port, token, **{"Content-Type": "application/x-www-form-urlencoded"}),
        change_headers(port, token, **{"Content-Type": "multipart/form-data; boundary=x"}),
        change_headers(port, "not-the-token"),
        {k: v for k, v in change_headers(port, token).items() if k != TOKEN_HEADER},
        change_headers(port, token, **{"Sec-Fetch-Site": "cross-site"}),
    ]
    for headers in attempts:
        for path in ("/api/build", "/api/edit", "/api/undo"):
            status, body = request(port, "POST", path, headers, good)
            assert status in (403, 415), (headers, path, status, body)
    # a form on another site, with a paper size that would crash a build: refused before it is read
    status, _ = request(
        port,
        "POST",
        "/api/build",
        {"Origin": "null", "Content-Type": "application/x-www-form-urlencoded"},
        b"paper=999x999",
    )
    assert status == 403  # answered before any build could start: nothing to wait for
    assert not (proj / "output").exists() and app.builder.status.state == "idle"
    # a rebinding page cannot post either, even with a copied token
    status, _ = request(
        port,
        "POST",
        "/api/build",
        {**change_headers(port, token), "Origin": f"http://attacker.example:{port}"},
        good,
        host="attacker.example",
    )
    assert status == 421
    status, body = request(port, "POST", "/api/build", change_headers(port, token), good)
    assert status == 202 and json.loads(body)["ok"]
    app.builder.join(60)
    assert app.builder.status.state == "done"


def test_files_serves_only_the_declared_inputs_and_outputs(running: Any) -> None:
    proj, server, _ = running
    port = server.server_address[1]
    (proj / "art").mkdir()
    (proj / "art/moon.png").write_bytes(b"\x89PNG fake")
    (proj / "art/notes.sh").write_text("echo hi", encoding="utf-8")
    (proj / "output/.pnp").mkdir(parents=True)
    (proj / "output/.pnp/current.json").write_text("{}", encoding="utf-8")
    (proj / "output/deck.pdf").write_bytes(b"%PDF-1.4")
    refused = [
        "/files/pyproject.toml",
        "/files/.env",
        "/files/card_data/.env",
        "/files/%2eenv",
        "/files/",
        "/files/card_data",
        "/files/card_data/",
        "/files/art/notes.sh",
        "/files/output/deck.pdf",
        "/output/.pnp/current.json",
        "/output/",
        "/files/card_data/../pyproject.toml",
        "/files/..%2f.env",
    ]
    for path in refused:
        status, body = request(port, "GET", path)
        assert status in (403, 404) and b"do-not-leak" not in body and b"secret" not in body, (path, status)
    for path in (
        "/files/card_data/bargains.yaml",
        "/files/art/moon.png",
        "/files/fonts/fonts.yaml",
        "/output/deck.pdf",
    ):
        assert request(port, "GET", path)[0] == 200, path
    # a link inside an input folder to a file outside it is refused too
    (proj / "card_data/leak.yaml").symlink_to(proj / ".env")
    assert request(port, "GET", "/files/card_data/leak.yaml")[0] == 403


def test_a_spreadsheet_a_database_names_elsewhere_in_the_project_is_an_input(tmp_path: Path) -> None:
    assert run("new", str(tmp_path / "starter")).code == 0
    proj = tmp_path / "starter"
    (proj / "sheets").mkdir()
    (proj / "card_data/lanterns.csv").rename(proj / "sheets/lanterns.csv")
    (proj / "sheets/other.csv").write_text("key,name\n", encoding="utf-8")
    db = proj / "card_data/lanterns.yaml"
    db.write_text(
        db.read_text(encoding="utf-8").replace("{from: lanterns.csv}", "{from: ../sheets/lanterns.csv}"),
        encoding="utf-8",
    )
    server, app = make_server(Project.at(proj), proj / "output", 0)
    serve(server, app)
    try:
        port = server.server_address[1]
        assert not app.live.snapshot.all_problems()
        assert request(port, "GET", "/files/sheets/lanterns.csv")[0] == 200
        assert request(port, "GET", "/files/sheets/other.csv")[0] == 403  # named by no database
    finally:
        stop(server, app)


def _all(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    data = b""
    with sock:
        try:
            while chunk := sock.recv(65536):
                data += chunk
        except ConnectionResetError:  # the body it did not read: the answer came first
            pass
    return data


def test_bodies_are_bounded_before_they_are_read(running: Any) -> None:
    _, server, app = running
    port, token = server.server_address[1], app.guard.token
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    head = (
        f"POST /api/build HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n"
        f"Content-Type: application/json\r\n{TOKEN_HEADER}: {token}\r\nContent-Length: 1500000000\r\n\r\n"
    )
    started = time.monotonic()
    sock.sendall(head.encode() + b"{" * 1000)
    answer = _all(sock).decode()
    assert answer.startswith("HTTP/1.1 413") and str(MAX_BODY) in answer
    assert_quick(time.monotonic() - started, 2.0, "the 413 answer")
    for body in (
        b"[" * 200_000,
        b"\xff\xfe",
        b"{not json",
    ):  # deep nesting, not UTF-8, not JSON: 400, no traceback
        assert request(port, "POST", "/api/edit", change_headers(port, token), body)[0] == 400
    assert request(port, "GET", "/api/state")[0] == 200
    chunked = {**change_headers(port, token), "Transfer-Encoding": "chunked"}
    assert request(port, "POST", "/api/build", chunked, b"")[0] == 411
    no_length = socket.create_connection(("127.0.0.1", port), timeout=10)
    no_length.sendall((head.replace("Content-Length: 1500000000\r\n", "")).encode())
    assert _all(no_length).startswith(b"HTTP/1.1 411")


def test_a_flood_of_connections_leaves_the_page_answering(running: Any) -> None:
    _, server, _ = running
    port = server.server_address[1]
    idle, streams = [], []
    try:
        for i in range(300):  # connections that never send a whole request
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            if i % 2:
                s.sendall(f"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n".encode())
            idle.append(s)
        for _ in range(3 * MAX_STREAMS):  # event streams nobody reads
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            s.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            streams.append(s)
        started = time.monotonic()
        status, body = request(port, "GET", "/api/state")
        took = time.monotonic() - started
        assert status == 200 and json.loads(body)["version"] >= 1
        assert_quick(took, 2.0, "/api/state under a flood")
        hub = server.RequestHandlerClass.app.live.hub
        wait_for(lambda: len(server.connections) <= 64 and hub.pages <= MAX_STREAMS, "connections shed")
        assert threading.active_count() < 120
    finally:
        for s in idle + streams:
            s.close()


def test_remote_needs_allow_remote_and_then_the_token(tmp_path: Path) -> None:
    proj = make_project(tmp_path / "proj", ("bargains",))
    r = run("serve", "--project", str(proj), "--port", "0", "--host", "0.0.0.0")
    assert r.code == 2 and "--allow-remote" in r.err and "Traceback" not in r.err
    with pytest.raises(ValueError, match="allow-remote"):
        make_server(Project.at(proj), proj / "output", 0, "0.0.0.0")
    server, app = make_server(Project.at(proj), proj / "output", 0, "0.0.0.0", allow_remote=True)
    serve(server, app)
    try:
        port, token = server.server_address[1], app.guard.token
        for path in ("/", "/api/state", "/files/card_data/bargains.yaml", "/static/app.js"):
            assert request(port, "GET", path, host="192.168.1.20")[0] == 403, path
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", f"/?token={token}", headers={"Host": f"192.168.1.20:{port}"})
        response = conn.getresponse()
        response.read()
        cookie = response.getheader("Set-Cookie")
        assert response.status == 200 and "HttpOnly" in cookie and "SameSite=Strict" in cookie
        jar = cookie.split(";")[0]
        assert request(port, "GET", "/api/state", {"Cookie": jar}, host="192.168.1.20")[0] == 200
        assert (
            request(port, "GET", "/api/state", {"Cookie": "pnp-token=guess"}, host="192.168.1.20")[0] == 403
        )
        origin = {"Origin": f"http://192.168.1.20:{port}", "Content-Type": "application/json", "Cookie": jar}
        assert (
            request(port, "POST", "/api/undo", origin, b"{}", host="192.168.1.20")[0] == 403
        )  # no header token
        assert (
            request(port, "POST", "/api/undo", {**origin, TOKEN_HEADER: token}, b"{}", host="192.168.1.20")[0]
            == 409
        )  # let in: nothing to undo
    finally:
        stop(server, app)


def test_a_runaway_template_saved_while_serving_stops_at_its_limit(tmp_path: Path) -> None:
    proj = make_project(tmp_path / "proj", ("bargains",))
    server, app = make_server(Project.at(proj), proj / "output", 0)
    serve(server, app)
    try:
        port = server.server_address[1]
        db = proj / "card_data/bargains.yaml"
        text = db.read_text(encoding="utf-8")
        assert "a bargain worth {{ card.value }}" in text
        db.write_text(text.replace("a bargain worth {{ card.value }}", FOREVER, 1), encoding="utf-8")
        started, slowest = time.monotonic(), 0.0

        def problems() -> list[str]:
            nonlocal slowest
            t0 = time.monotonic()
            status, body = request(port, "GET", "/api/state")
            slowest = max(slowest, time.monotonic() - t0)
            assert status == 200
            return [p["text"] for p in json.loads(body)["problems"]]

        found = wait_for(problems, "the runaway template shown as a problem", every=0.1)
        assert any(re.search(r"card_data/bargains\.yaml:\d+", p) for p in found), found
        assert any("longer than" in p or "time" in p for p in found), found
        assert_quick(time.monotonic() - started, 6.0, "the runaway template shown as a problem")
        assert_quick(slowest, 1.5, "/api/state while the template ran")
        db.write_text(text, encoding="utf-8")  # restored: the problem clears and nothing keeps burning
        wait_for(lambda: not problems(), "the problem cleared", every=0.1)
        wait_for(lambda: not sandbox._WATCHDOG._budgets, "no thread still running template work")
    finally:
        stop(server, app)


def test_a_card_that_fails_to_draw_keeps_its_last_good_picture(tmp_path: Path) -> None:
    assert run("new", str(tmp_path / "starter")).code == 0
    proj = tmp_path / "starter"
    server, app = make_server(Project.at(proj), proj / "output", 0)
    serve(server, app)
    try:
        port = server.server_address[1]

        def tile() -> dict[str, Any]:
            state = json.loads(request(port, "GET", "/api/state")[1])
            return next(
                t
                for g in state["games"]
                for c in g["components"]
                for t in c["tiles"]
                if t["id"] == "lanterns/deck/face/jar/"
            )

        good = tile()["picture"]
        assert request(port, "GET", f"/picture/{good}.png")[0] == 200
        db = proj / "card_data/lanterns.yaml"
        text = db.read_text(encoding="utf-8")
        db.write_text(  # a picture not made yet: the preview is a draft, with a placeholder
            text.replace(
                "file: art/lantern.svg", "file: \"art/{{ 'gone' if card.key == 'jar' else 'lantern' }}.svg\""
            ),
            encoding="utf-8",
        )
        wait_for(lambda: tile()["picture"] != good, "the edit seen", every=0.1)
        draft = tile()["picture"]
        assert request(port, "GET", f"/picture/{draft}.png")[0] == 200 and not tile().get("error")
        assert 'symbol: "{{ card.suit }}"' in text
        db.write_text(  # a symbol that does not exist: the card cannot be drawn
            text.replace(
                'symbol: "{{ card.suit }}"', "symbol: \"{{ 'gone' if card.key == 'jar' else card.suit }}\""
            ),
            encoding="utf-8",
        )
        wait_for(lambda: tile()["picture"] != draft, "the second edit seen", every=0.1)
        broken = tile()
        assert broken["fallback"] == draft  # the last picture that drew: shown, marked
        status, why = request(port, "GET", f"/picture/{broken['picture']}.png")
        assert status == 422 and b"gone" in why
        assert "gone" in tile()["error"]  # and the state says why, for every page
        assert request(port, "GET", f"/picture/{draft}.png")[0] == 200  # still served after the card changed
    finally:
        stop(server, app)


def _raw(port: int, head: str, body: bytes = b"") -> bytes:
    """A request sent as written (repeated headers, odd bytes), and everything answered."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    sock.sendall(
        head.encode("utf-8" if not head.isascii() and max(head) > "\xff" else "latin-1") + b"\r\n" + body
    )
    return _all(sock)


def _reset(sock: socket.socket) -> None:
    """Close with a reset (RST), as a crashed client or a dropped network does."""
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def test_a_dropped_client_is_a_debug_line_never_a_traceback(
    running: Any, caplog: pytest.LogCaptureFixture, capsys: pytest.CaptureFixture[str]
) -> None:
    _, server, app = running
    port, token = server.server_address[1], app.guard.token
    caplog.set_level(logging.DEBUG, logger="pnp.serve.server")
    post = (
        f"POST /api/edit HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n"
        f"Content-Type: application/json\r\n{TOKEN_HEADER}: {token}\r\nContent-Length: 5000\r\n\r\n"
    )
    partial = [
        f"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n",  # headers not finished
        post + '{"game": "barg',  # the body not finished
    ]
    for i in range(10):
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        sock.sendall(partial[i % 2].encode())
        if i % 2:  # the server is reading the body: wait until it answers nothing yet, then reset
            wait_for(lambda: len(server.connections) > 0, "the connection taken")
        _reset(sock)
    for _ in range(5):  # an answer nobody reads
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        sock.sendall(f"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        _reset(sock)

    def went_away() -> int:
        return sum("went away" in r.getMessage() for r in caplog.records)

    wait_for(lambda: went_away() >= 10, "every reset logged at debug level")
    assert request(port, "GET", "/api/state")[0] == 200
    err = capsys.readouterr().err
    assert "Traceback" not in err and "ConnectionResetError" not in err, err
    assert all(r.levelno == logging.DEBUG for r in caplog.records if r.name == "pnp.serve.server")


def test_content_length_and_bodies_of_the_wrong_shape_are_400(running: Any) -> None:
    _, server, app = running
    port, token = server.server_address[1], app.guard.token
    for length in ("\xb2", "\u0663", "+5", "5 5", "0x10", "-1", "", "1e3"):
        head = "".join(f"{k}: {v}\r\n" for k, v in change_headers(port, token).items())
        answer = _raw(
            port,
            f"POST /api/build HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{head}Content-Length: {length}\r\n",
            b"{}",
        )
        assert answer.startswith(b"HTTP/1.1 400") and b"Content-Length" in answer, (length, answer)
    head = "".join(f"{k}: {v}\r\n" for k, v in change_headers(port, token).items())
    for length in ("9" * 5000, "0" * 30 + "2000000"):
        answer = _raw(
            port, f"POST /api/build HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{head}Content-Length: {length}\r\n"
        )
        assert answer.startswith(b"HTTP/1.1 413"), (length[:20], answer)
    answer = _raw(
        port,
        f"POST /api/undo HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{head}Connection: close\r\nContent-Length: 0002\r\n",
        b"{}",
    )
    assert answer.startswith(b"HTTP/1.1 409"), answer  # leading zeros are still a plain number
    wrong = [
        ("/api/build", [], "JSON object"),
        ("/api/build", "bargains", "JSON object"),
        ("/api/build", 5, "JSON object"),
        ("/api/build", {"games": 5}, "games"),
        ("/api/build", {"games": "bargains"}, "games"),
        ("/api/build", {"games": [5]}, "games"),
        ("/api/build", {"games": [["bargains"]]}, "games"),
        ("/api/build", {"bleed": {"mm": 3}}, "bleed"),
        ("/api/build", {"players": [2]}, "players"),
        ("/api/build", {"players": "\xb2"}, "players"),
        ("/api/build", {"players": "9" * 50}, "players"),
        ("/api/build", {"paper": True}, "paper"),
        ("/api/build", {"paper": "a4", "colour": "red"}, "colour"),
        ("/api/edit", {}, "values"),
        ("/api/edit", {"game": ["bargains"], "values": {}}, "game"),
        ("/api/edit", {"game": "bargains", "component": 3, "values": {}}, "component"),
        ("/api/edit", {"game": "bargains", "card": {"k": 1}, "values": {}}, "card"),
        ("/api/edit", {"game": "bargains", "digest": 0, "values": {}}, "digest"),
        ("/api/edit", {"game": "bargains", "action": "delete", "values": {}}, "action"),
        ("/api/edit", {"game": "bargains", "values": []}, "values"),
        ("/api/edit", {"game": "bargains", "values": {"name": 5}}, "values.name"),
        ("/api/edit", {"game": "bargains", "values": {"name": ["x"]}}, "values.name"),
        ("/api/edit", {"game": "bargains", "values": {"text": "x" * 20_000}}, "values.text"),
        ("/api/edit", {"game": "bargains", "values": {}, "extra": 1}, "extra"),
        ("/api/edit", {"game": "bargains\x00", "values": {}}, "game"),
        ("/api/undo", {"all": True}, "undo"),
        ("/api/undo", [], "JSON object"),
    ]
    for path, body, word in wrong:
        status, answer = request(port, "POST", path, change_headers(port, token), json.dumps(body).encode())
        assert status == 400, (path, body, status, answer)
        assert word in json.loads(answer)["error"], (path, body, answer)
    assert app.builder.status.state == "idle"
    assert request(port, "GET", "/api/state")[0] == 200


def test_a_repeated_host_or_origin_header_is_refused(running: Any) -> None:
    _, server, app = running
    port, token = server.server_address[1], app.guard.token
    host = f"Host: 127.0.0.1:{port}\r\n"
    for head in (
        f"GET /api/state HTTP/1.1\r\nHost: attacker.example\r\n{host}",  # only the last would be checked
        f"GET /api/state HTTP/1.1\r\n{host}{host}",
        f"GET /api/state HTTP/1.1\r\n{host}Host: attacker.example\r\n",
    ):
        answer = _raw(port, head)
        assert answer.startswith(b"HTTP/1.1 400") and b"more than one host" in answer, (head, answer)
        assert b"bargains" not in answer
    good = "".join(f"{k}: {v}\r\n" for k, v in change_headers(port, token).items())
    for extra in (
        "Origin: http://attacker.example\r\n",
        f"Origin: http://127.0.0.1:{port}\r\n",
        "Content-Length: 200\r\n",
        f"{TOKEN_HEADER}: {token}\r\n",
    ):
        answer = _raw(port, f"POST /api/undo HTTP/1.1\r\n{host}{good}{extra}Content-Length: 2\r\n", b"{}")
        assert answer.startswith(b"HTTP/1.1 400") and b"more than one" in answer, (extra, answer)
    answer = _raw(
        port, f"POST /api/undo HTTP/1.1\r\n{host}{good}Connection: close\r\nContent-Length: 2\r\n", b"{}"
    )
    assert answer.startswith(b"HTTP/1.1 409"), answer  # the same request once each: let in


def test_a_request_the_server_fails_on_is_one_line_and_a_500(
    running: Any,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, server, app = running
    port = server.server_address[1]

    def broken() -> None:
        raise RuntimeError("a bug in the snapshot")

    monkeypatch.setattr(app, "state", broken)
    status, body = request(port, "GET", "/api/state")
    assert status == 500 and b"terminal" in body
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "a bug in the snapshot" in errors[0].getMessage()
    assert "/api/state" in errors[0].getMessage() and errors[0].exc_info is None
    assert "Traceback" not in capsys.readouterr().err
    monkeypatch.undo()
    assert request(port, "GET", "/api/state")[0] == 200  # the server goes on answering
