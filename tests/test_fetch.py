"""`pnp fetch`: cards from a shared sheet, downloaded once from a local HTTP server started here,
recorded with their URL and date; builds read the copy and never use the network."""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import NoReturn

import pytest
import yaml

from pnp.data.reading.download import DownloadError, download
from pnp.data.reading.remote import download_url, local_name

from conftest import assert_quick, posix_only, run, timed

SHEET = (
    "key,name,copies,value,suit,text\nmoth,Glow Moth,6,1,moon,Worth 1.\npaper,Paper Lantern,5,2,sun,Worth 2.\n"
    "jar,Firefly Jar,4,3,star,Worth 3.\nbeacon,Harbour Beacon,3,5,sun,Worth 5.\nwind,Night Wind,2,0,leaf,Blow.\n"
)


class _Sheets(BaseHTTPRequestHandler):
    pages: dict[str, tuple[int, str, bytes]] = {}
    asked: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 - the http.server name
        self.asked.append(self.path)
        status, kind, body = self.pages.get(self.path, (404, "text/plain", b"no such sheet"))
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        return


@pytest.fixture()
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, type[_Sheets]]]:
    monkeypatch.setenv("NO_PROXY", "*")  # a proxy set for the machine must not stand between us and ourselves
    handler = type("Sheets", (_Sheets,), {"pages": {}, "asked": []})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", handler
    finally:
        httpd.shutdown()
        httpd.server_close()


def _starter(tmp_path: Path, url: str) -> Path:
    root = tmp_path / "game"
    assert run("new", str(root)).code == 0
    db = root / "card_data" / "lanterns.yaml"
    db.write_text(
        db.read_text(encoding="utf-8").replace("cards: {from: lanterns.csv}", f'cards: {{from: "{url}"}}'),
        encoding="utf-8",
    )
    (root / "card_data" / "lanterns.csv").unlink()
    return root


def test_fetch_downloads_records_and_builds_stay_offline(tmp_path: Path, server) -> None:  # type: ignore[no-untyped-def]
    base, sheets = server
    url = f"{base}/published/cards.csv"
    sheets.pages["/published/cards.csv"] = (200, "text/csv", SHEET.encode())
    root = _starter(tmp_path, url)
    db_line = next(
        i
        for i, t in enumerate((root / "card_data" / "lanterns.yaml").read_text().splitlines(), 1)
        if url in t
    )
    r = run("check", "--project", str(root))
    assert r.code == 2 and f"lanterns.yaml:{db_line}:" in r.err and "run `pnp fetch`" in r.err
    assert sheets.asked == []  # checking never downloads

    r = run("fetch", "--project", str(root))
    assert r.code == 0, r.out + r.err
    copy = root / "card_data" / "fetched" / local_name(url)
    assert copy.read_text(encoding="utf-8") == SHEET and f"{copy.name}: written" in r.out
    record = yaml.safe_load((root / "card_data" / "fetched" / "sources.yaml").read_text(encoding="utf-8"))
    assert record[copy.name]["url"] == url and record[copy.name]["fetched"].startswith("20")
    assert len(record[copy.name]["sha256"]) == 64

    sheets.pages.clear()  # the server forgets the sheet: builds do not notice
    out = root / "out"
    r = run("build", "--project", str(root), "--out", str(out))
    assert r.code == 0, r.out + r.err
    assert len(sheets.asked) == 1

    bad = SHEET.replace("moth,Glow Moth,6,1,moon", "moth,Glow Moth,6,1,mooon")
    copy.write_text(bad, encoding="utf-8")
    r = run("check", "--project", str(root))
    assert f"card_data/fetched/{copy.name}:2: column E (suit): 'mooon' is not allowed" in r.err


@pytest.mark.parametrize(
    ("page", "words"),
    [
        ((200, "text/html", b"<!DOCTYPE html><html>Sign in</html>"), "gave a web page, not a CSV table"),
        (None, "HTTP 404"),
        ((200, "text/csv", b""), "is empty"),
    ],
)
def test_a_sheet_that_cannot_be_had_writes_nothing(tmp_path: Path, server, page, words: str) -> None:  # type: ignore[no-untyped-def]
    base, sheets = server
    url = f"{base}/cards.csv"
    if page:
        sheets.pages["/cards.csv"] = page
    root = _starter(tmp_path, url)
    r = run("fetch", "--project", str(root))
    assert r.code == 2 and words in r.err and "nothing was written" in r.err and "Traceback" not in r.err, (
        r.err
    )
    assert "card_data/lanterns.yaml:" in r.err
    assert not (root / "card_data" / "fetched").exists()


def test_google_sheets_links_become_csv_exports() -> None:
    sheet = "1AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
    assert (
        download_url(f"https://docs.google.com/spreadsheets/d/{sheet}/edit?usp=sharing")
        == f"https://docs.google.com/spreadsheets/d/{sheet}/export?format=csv&gid=0"
    )
    assert (
        download_url(f"https://docs.google.com/spreadsheets/d/{sheet}/edit#gid=1234")
        == f"https://docs.google.com/spreadsheets/d/{sheet}/export?format=csv&gid=1234"
    )
    assert (
        download_url("https://docs.google.com/spreadsheets/d/e/2PACX-1vTabc123/pubhtml")
        == "https://docs.google.com/spreadsheets/d/e/2PACX-1vTabc123/pub?output=csv&gid=0"
    )
    assert download_url("https://example.org/cards.csv") == "https://example.org/cards.csv"
    assert local_name(f"https://docs.google.com/spreadsheets/d/{sheet}/edit").startswith("sheet-1AbCdEfG-")
    assert local_name("https://example.org/x/cards.csv") != local_name("https://example.org/y/cards.csv")


def test_nothing_to_fetch(tmp_path: Path) -> None:
    root = tmp_path / "game"
    assert run("new", str(root)).code == 0
    r = run("fetch", "--project", str(root))
    assert r.code == 0 and "nothing to fetch" in r.out


# --- hostile or broken servers: a raw socket server on 127.0.0.1 answers whatever a test says ---

Reply = Callable[[socket.socket, str, "_Raw"], None]


@dataclass
class _Raw:
    """A server that reads one request per connection and hands the socket to `reply`."""

    reply: Reply
    base: str = ""
    asked: list[str] = field(default_factory=list)
    sent: int = 0  # bytes a dripping reply got out before the client hung up
    stop: threading.Event = field(default_factory=threading.Event)


def _serve_raw(listener: socket.socket, raw: _Raw) -> None:
    while not raw.stop.is_set():
        try:
            conn, _ = listener.accept()
        except TimeoutError:
            continue
        except OSError:
            return
        with conn:
            conn.settimeout(5)
            request = b""
            try:
                while b"\r\n\r\n" not in request and len(request) < 65536:
                    got = conn.recv(4096)
                    if not got:
                        break
                    request += got
                line = request.split(b"\r\n", 1)[0].decode("latin-1")
                raw.asked.append(line.split(" ")[1] if line.count(" ") >= 2 else line)
                raw.reply(conn, raw.asked[-1], raw)
            except OSError:  # the client hung up: what a hostile reply expects
                pass


@pytest.fixture()
def raw_server(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[Reply], _Raw]]:
    monkeypatch.setenv("NO_PROXY", "*")
    started: list[tuple[socket.socket, threading.Thread, _Raw]] = []

    def start(reply: Reply) -> _Raw:
        listener = socket.create_server(("127.0.0.1", 0))
        listener.settimeout(0.05)
        raw = _Raw(reply, f"http://127.0.0.1:{listener.getsockname()[1]}")
        thread = threading.Thread(target=_serve_raw, args=(listener, raw), daemon=True)
        thread.start()
        started.append((listener, thread, raw))
        return raw

    yield start
    for listener, thread, raw in started:
        raw.stop.set()
        thread.join(timeout=30)
        listener.close()


def _says(*parts: bytes) -> Reply:
    """A reply that sends `parts` and closes."""
    return lambda conn, path, raw: conn.sendall(b"".join(parts))


def _head(*lines: str) -> bytes:
    return ("HTTP/1.1 200 OK\r\n" + "".join(f"{x}\r\n" for x in lines) + "\r\n").encode("latin-1")


def _fetch_fails(tmp_path: Path, url: str, *words: str, timeout: str = "5") -> None:
    """`pnp fetch` of `url` exits 2 with one line per sheet holding `words`, no traceback, nothing written."""
    root = _starter(tmp_path, url)
    r = run("fetch", "--project", str(root), "--timeout", timeout)
    assert r.code == 2 and "Traceback" not in r.err and "nothing was written" in r.err, (r.code, r.out, r.err)
    assert len(r.err.splitlines()) == 2, r.err  # the summary and one line naming the sheet
    line = r.err.splitlines()[1]
    assert "card_data/lanterns.yaml:" in line and "cannot download" in line, line
    for word in words:
        assert word in line, (word, line)
    assert not (root / "card_data" / "fetched").exists()


@pytest.mark.parametrize(
    ("reply", "words"),
    [
        (_says(b"HELLO THERE\r\n\r\n"), ["did not reply in HTTP"]),
        (_says(_head("X-Big: " + "a" * 70_000)), ["line that is too long"]),
        (_says(_head(*(f"X-H{i}: {i}" for i in range(150)))), ["broken", "more than 100 headers"]),
        (
            _says(
                _head("Content-Type: text/csv", "Transfer-Encoding: chunked"), b"100\r\n", SHEET.encode()[:40]
            ),
            ["cut short"],
        ),
        (
            _says(_head("Content-Type: text/csv", "Content-Length: 1000"), SHEET.encode()),
            [f"sent {len(SHEET)} of the 1000 bytes"],
        ),
        (_says(b""), ["closed the connection without replying"]),
        (_says(_head("Content-Length: 1", "Content-Length: 2"), b"x"), ["invalid Content-Length"]),
    ],
    ids=["status-line", "70KB-header", "150-headers", "chunked-cut", "short-body", "no-reply", "two-lengths"],
)
def test_a_broken_reply_is_one_line_and_nothing_is_written(tmp_path: Path, raw_server, reply, words) -> None:  # type: ignore[no-untyped-def]
    raw = raw_server(reply)
    _fetch_fails(tmp_path, f"{raw.base}/cards.csv", f"{raw.base}/cards.csv", *words)
    assert raw.asked == ["/cards.csv"]


def _drip(head: bytes, body: bytes, every: float = 0.2) -> Reply:
    """A reply that sends `head`, then `body` a byte at a time, one every `every` seconds."""

    def reply(conn: socket.socket, path: str, raw: _Raw) -> None:
        conn.sendall(head)
        for i in range(len(body)):
            if raw.stop.wait(every):
                return
            conn.sendall(body[i : i + 1])
            raw.sent = i + 1

    return reply


@pytest.mark.parametrize("where", ["body", "headers"])
def test_the_timeout_bounds_the_whole_download_of_a_dripping_server(
    tmp_path: Path, raw_server, where: str
) -> None:  # type: ignore[no-untyped-def]
    """Each byte comes well within the timeout, so only a deadline for the whole download stops it:
    in the body (checked between reads) or in the headers (every read of the socket waits at most
    the time left). The drips would take a minute; the client hangs up before they end."""
    body = SHEET.encode()
    head = _head("Content-Type: text/csv", f"Content-Length: {len(body)}", "X-Pad: " + "p" * 300)
    raw = raw_server(_drip(head, body) if where == "body" else _drip(b"", head + body))
    with timed() as took:
        _fetch_fails(tmp_path, f"{raw.base}/cards.csv", "took longer than 1 s", timeout="1")
    assert 0 < raw.sent < (len(body) if where == "body" else len(head)), raw.sent
    assert_quick(took.wall, 10, "a dripping download stopped by --timeout 1")


def test_the_deadline_holds_below_a_second(raw_server) -> None:  # type: ignore[no-untyped-def]
    body = SHEET.encode()
    raw = raw_server(_drip(_head(f"Content-Length: {len(body)}"), body))
    with pytest.raises(DownloadError, match=r"took longer than 0\.5 s") as caught:
        download(f"{raw.base}/cards.csv", timeout=0.5, max_bytes=10_000)
    assert "\n" not in str(caught.value) and 0 < raw.sent < len(body) // 2


def test_a_body_over_the_size_cap_is_refused(raw_server) -> None:  # type: ignore[no-untyped-def]
    declared = raw_server(_says(_head("Content-Length: 5000"), b"x" * 5000))
    with pytest.raises(DownloadError, match="larger than"):
        download(f"{declared.base}/a.csv", timeout=5, max_bytes=1000)
    endless = raw_server(_says(_head(), b"x" * 5000))  # no length: read until closed
    with pytest.raises(DownloadError, match="larger than"):
        download(f"{endless.base}/a.csv", timeout=5, max_bytes=1000)


def _redirect(location: str, status: int = 302) -> Reply:
    return _says(f"HTTP/1.1 {status} Moved\r\nLocation: {location}\r\nContent-Length: 0\r\n\r\n".encode())


def test_redirects_to_another_scheme_or_to_another_service_of_this_machine_are_refused(
    tmp_path: Path, raw_server, server
) -> None:  # type: ignore[no-untyped-def]
    other, sheets = server
    sheets.pages["/cards.csv"] = (200, "text/csv", SHEET.encode())
    port = other.rsplit(":", 1)[1]
    for i, (location, words) in enumerate(
        [
            ("ftp://127.0.0.1/cards.csv", ["not an http:// or https:// address"]),
            ("file:///etc/passwd", ["not an http:// or https:// address"]),
            (f"{other}/cards.csv", ["which is this machine", "redirects to other machines only"]),
            (f"http://localhost:{port}/cards.csv", ["which is this machine"]),
            (f"http://[::ffff:127.0.0.1]:{port}/cards.csv", ["which is this machine"]),
            (f"http://0.0.0.0:{port}/cards.csv", ["which is this machine"]),
        ]
    ):
        raw = raw_server(_redirect(location))
        _fetch_fails(tmp_path / str(i), f"{raw.base}/cards.csv", *words)
    assert sheets.asked == []


def test_a_redirect_on_the_same_host_and_port_is_followed_and_loops_are_capped(
    tmp_path: Path, raw_server
) -> None:  # type: ignore[no-untyped-def]
    def moved_then_sheet(conn: socket.socket, path: str, raw: _Raw) -> None:
        if path == "/old.csv":
            _redirect("/new.csv", 301)(conn, path, raw)
        else:
            _says(_head("Content-Type: text/csv", f"Content-Length: {len(SHEET)}"), SHEET.encode())(
                conn, path, raw
            )

    raw = raw_server(moved_then_sheet)
    root = _starter(tmp_path / "moved", f"{raw.base}/old.csv")
    r = run("fetch", "--project", str(root))
    assert r.code == 0, r.err
    assert raw.asked == ["/old.csv", "/new.csv"]
    assert (root / "card_data" / "fetched" / local_name(f"{raw.base}/old.csv")).read_text(
        encoding="utf-8"
    ) == SHEET

    loop = raw_server(lambda conn, path, raw: _redirect(f"{raw.base}/again.csv")(conn, path, raw))
    _fetch_fails(tmp_path / "loop", f"{loop.base}/cards.csv", "more than 10 redirects")
    assert len(loop.asked) == 11


@pytest.mark.parametrize(
    ("tail", "shown_as"),
    [
        ("/a b.csv", "/a b.csv"),
        ("/a.csv\\r\\nX-Evil: 1", "/a.csv\\r\\nX-Evil: 1"),
        ("/a\\x01.csv", "/a\\x01.csv"),
    ],
)
def test_an_address_with_a_space_or_control_character_is_refused_before_connecting(
    tmp_path: Path, raw_server, tail: str, shown_as: str
) -> None:  # type: ignore[no-untyped-def]
    raw = raw_server(_says(_head(f"Content-Length: {len(SHEET)}"), SHEET.encode()))
    _fetch_fails(tmp_path, f"{raw.base}{tail}", "space, line break or control character", shown_as)
    assert raw.asked == []


def test_no_listener_and_an_unknown_host_are_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]  # closed at once: nothing listens there
    monkeypatch.setenv("NO_PROXY", "*")
    _fetch_fails(tmp_path / "refused", f"http://127.0.0.1:{port}/cards.csv", "refused the connection")

    def no_such_host(*args: object, **kwargs: object) -> NoReturn:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", no_such_host)
    _fetch_fails(tmp_path / "dns", "https://sheets.invalid/cards.csv", "host name could not be found")


# --- links planted in the project ---


def _link(link: Path, to: Path) -> None:
    try:
        link.symlink_to(to)
    except OSError as exc:  # Windows without the right to make links
        pytest.skip(f"cannot make a symbolic link here: {exc}")


@pytest.fixture()
def sheet_project(tmp_path: Path, server) -> tuple[Path, Path, str]:  # type: ignore[no-untyped-def]
    """A project whose cards come from a served sheet, the fetched/ folder made, and a file outside it."""
    base, sheets = server
    url = f"{base}/cards.csv"
    sheets.pages["/cards.csv"] = (200, "text/csv", SHEET.encode())
    root = _starter(tmp_path, url)
    (root / "card_data" / "fetched").mkdir()
    outside = tmp_path / "outside.txt"
    outside.write_text("secret: kept\n", encoding="utf-8")
    return root, outside, url


@posix_only
@pytest.mark.parametrize("name", ["{copy}", ".{copy}.tmp", ".sources.yaml.tmp"])
def test_a_link_planted_at_a_name_fetch_writes_is_not_written_through(sheet_project, name: str) -> None:  # type: ignore[no-untyped-def]
    """At the copy's own name (to a file holding the same sheet: not taken as the copy) and at the
    temporary names earlier releases wrote through."""
    root, outside, url = sheet_project
    copy = root / "card_data" / "fetched" / local_name(url)
    if name == "{copy}":
        outside.write_text(SHEET, encoding="utf-8")
    before = outside.read_text(encoding="utf-8")
    planted = copy.parent / name.format(copy=copy.name)
    _link(planted, outside)
    r = run("fetch", "--project", str(root))
    assert r.code == 0, r.err
    assert outside.read_text(encoding="utf-8") == before
    assert copy.read_text(encoding="utf-8") == SHEET and not copy.is_symlink()


@posix_only
def test_a_fetched_folder_linked_out_of_the_project_is_refused(sheet_project, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root, _, _ = sheet_project
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (root / "card_data" / "fetched").rmdir()
    _link(root / "card_data" / "fetched", elsewhere)
    r = run("fetch", "--project", str(root))
    assert r.code == 2 and "Traceback" not in r.err and len(r.err.splitlines()) == 1, r.err
    assert r.err.startswith("error: card_data/fetched is a link that leads outside the project"), r.err
    assert "nothing was written" in r.err
    assert list(elsewhere.iterdir()) == []


@posix_only
def test_a_sources_record_linked_out_of_the_project_is_not_read(sheet_project) -> None:  # type: ignore[no-untyped-def]
    root, outside, url = sheet_project
    record = root / "card_data" / "fetched" / "sources.yaml"
    _link(record, outside)
    r = run("fetch", "--project", str(root))
    assert r.code == 2 and "Traceback" not in r.err and len(r.err.splitlines()) == 1, r.err
    assert r.err.startswith("error: card_data/fetched/sources.yaml is a link that leads outside the project")
    assert record.is_symlink() and outside.read_text(encoding="utf-8") == "secret: kept\n"
    assert not (root / "card_data" / "fetched" / local_name(url)).exists()


def test_tls_to_a_server_that_is_silent_or_speaks_plain_http(raw_server) -> None:  # type: ignore[no-untyped-def]
    silent = raw_server(_says(b""))  # it waits for a request's end, which a TLS hello never has
    with pytest.raises(DownloadError, match=r"took longer than 0\.5 s"):
        download(silent.base.replace("http:", "https:") + "/a.csv", timeout=0.5, max_bytes=1000)

    with socket.create_server(("127.0.0.1", 0)) as plain:

        def answer_plainly() -> None:
            conn, _ = plain.accept()
            with conn:
                conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")

        thread = threading.Thread(target=answer_plainly, daemon=True)
        thread.start()
        with pytest.raises(DownloadError, match="no secure connection could be made") as caught:
            download(f"https://127.0.0.1:{plain.getsockname()[1]}/a.csv", timeout=5, max_bytes=1000)
        thread.join(timeout=30)
    assert "\n" not in str(caught.value)


def _own_address() -> str | None:
    """This machine's address on its network, if it has one (a UDP socket is connected: nothing is sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))
            address = str(probe.getsockname()[0])
    except OSError:
        return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def test_a_redirect_to_this_machines_own_network_address_is_refused(
    tmp_path: Path, raw_server, server
) -> None:  # type: ignore[no-untyped-def]
    own = _own_address()
    if own is None:
        pytest.skip("this machine has no network address besides loopback")
    other, sheets = server
    raw = raw_server(_redirect(f"http://{own}:{other.rsplit(':', 1)[1]}/cards.csv"))
    _fetch_fails(tmp_path, f"{raw.base}/cards.csv", "which is this machine")
    assert sheets.asked == []


@posix_only
def test_a_build_does_not_read_a_copy_linked_out_of_the_project(sheet_project, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    root, outside, url = sheet_project
    outside.write_text(SHEET, encoding="utf-8")
    _link(root / "card_data" / "fetched" / local_name(url), outside)
    r = run("check", "--project", str(root))
    assert r.code == 2 and "is a link to a file outside the project" in r.err, r.err
