"""`pnp fetch`: cards from a shared sheet, downloaded once from a local HTTP server started here,
recorded with their URL and date; builds read the copy and never use the network."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import yaml

from pnp.data.reading.remote import download_url, local_name

from conftest import run

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
