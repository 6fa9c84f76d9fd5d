"""Playtest feedback: the qr element, a QR code on every card of a playtest round (read back from the
rendered page with zxing-cpp), the feedback file and what `pnp feedback` and `pnp changes` say of it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pdfplumber
import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader

from artwork import game_yaml, project
from conftest import codes_in, make_project, run

zxingcpp = pytest.importorskip("zxingcpp")

MM = 72 / 25.4


def decoded(pdf: Path, page: int = 0, dpi: int = 300) -> list[str]:
    """The text of every QR code on a page as a phone would read it: from the rendered pixels."""
    doc = pdfium.PdfDocument(str(pdf))
    try:
        image = doc[page].render(scale=dpi / 72).to_pil()
    finally:
        doc.close()
    return sorted(b.text for b in zxingcpp.read_barcodes(image) if b.format == zxingcpp.BarcodeFormat.QRCode)


def playtest_game(dest: Path, playtest: str = "{feedback: true, round: round1}") -> Path:
    """A copy of Fairy Bargains at version 0.4 with `playtest` set."""
    root = make_project(dest, ("bargains",))
    db = root / "card_data" / "bargains.yaml"
    text = db.read_text(encoding="utf-8")
    text = text.replace("game:\n  name: Fairy Bargains\n", '  name: Fairy Bargains\n  version: "0.4"\n', 1)
    db.write_text(f"playtest: {playtest}\ngame:\n{text}", encoding="utf-8")
    return root


def _toolbox(tmp_path: Path, element: str) -> tuple[int, str, Path]:
    face = f'layout: custom\n    elements:\n      - {{type: rect, fill: "#ffffff"}}\n      - {element}'
    root = project(
        tmp_path, game_yaml(face, "      - {key: a, name: Alder}\n      - {key: b, name: Birch}"), "qr"
    )
    r = run("build", "qr", "--project", str(root), "--out", str(root / "out"), "--duplex", "off")
    return r.code, r.out + r.err, root / "out" / "qr" / "deck.pdf"


def test_qr_element_is_vector_squares_that_decode(tmp_path: Path) -> None:
    code, said, pdf = _toolbox(
        tmp_path, '{type: qr, data: "seed {{ card.name }}", x: 10, y: 12, w: 30, h: 40, fill: "#203040"}'
    )
    assert code == 0, said
    assert decoded(pdf) == ["seed Alder", "seed Birch"]
    page = PdfReader(str(pdf)).pages[0]
    assert "/XObject" not in page["/Resources"] or not any(
        "/Image" in str(x.get_object().get("/Subtype")) for x in page["/Resources"]["/XObject"].values()
    )
    with pdfplumber.open(pdf) as doc:
        rects = doc.pages[0].rects
    white = [r for r in rects if r["non_stroking_color"] == (1, 1, 1) and round(r["width"] / MM, 2) == 30.0]
    assert len(white) == 2 and all(
        round(r["height"] / MM, 2) == 30.0 for r in white
    )  # square, centred in 30 x 40
    dark = [
        r for r in rects if r["non_stroking_color"] and abs(r["non_stroking_color"][0] - 0x20 / 255) < 0.01
    ]
    assert dark, "the modules are drawn as filled rectangles in the fill colour"
    # the quiet zone: 4 modules of light on every side of the dark ones (21 modules: a version 1 code)
    module = 30 * MM / (21 + 8)
    box = white[0]
    mine = [
        r
        for r in dark
        if box["x0"] - 0.1 <= r["x0"] and r["x1"] <= box["x1"] + 0.1 and box["top"] <= r["top"]
    ]
    assert min(r["x0"] for r in mine) == pytest.approx(box["x0"] + 4 * module, abs=0.05)
    assert min(r["top"] for r in mine) == pytest.approx(box["top"] + 4 * module, abs=0.05)


@pytest.mark.parametrize(
    ("element", "expected"),
    [
        ("{type: qr, x: 5, y: 5, w: 20, h: 20}", "data"),
        ('{type: qr, data: "{{ card.name * 30 }}", x: 5, y: 5, w: 8, h: 8}', "w: its"),
        ('{type: qr, data: "x", quiet: 12, w: 20, h: 20}', "quiet: from 0 to 8"),
        ('{type: qr, data: "x", background: "#zz", w: 20, h: 20}', "background:"),
    ],
)
def test_qr_element_problems_name_their_line(tmp_path: Path, element: str, expected: str) -> None:
    code, said, _ = _toolbox(tmp_path, element)
    assert code != 0
    assert re.search(r"card_data/qr\.yaml:\d+", said) and expected in said, said


def test_every_card_of_a_playtest_round_carries_its_code_round_and_version(tmp_path: Path) -> None:
    root = playtest_game(tmp_path / "p")
    r = run("build", "bargains", "--project", str(root), "--out", str(root / "out"))
    assert r.code == 0, r.out + r.err
    pdf = root / "out" / "bargains" / "deck.pdf"
    read = decoded(pdf)
    printed = codes_in(pdf)  # codes printed as text on the fronts
    first = PdfReader(str(pdf))
    assert len(read) == 9 and len(first.pages) > 1
    from pnp.data.format.feedback import parse_link

    found = [parse_link(t) for t in read]
    assert all(f is not None and f[1:] == ("round1", "0.4") for f in found), read
    on_page_one = {f[0] for f in found if f}
    assert on_page_one <= set(printed) and on_page_one
    # without the opt-in, no card carries one
    plain = make_project(tmp_path / "plain", ("bargains",))
    assert run("build", "bargains", "--project", str(plain), "--out", str(plain / "out")).code == 0
    assert decoded(plain / "out" / "bargains" / "deck.pdf") == []


def test_the_round_defaults_to_the_version_and_a_bad_round_is_named(tmp_path: Path) -> None:
    root = playtest_game(tmp_path / "p", "{feedback: true, corner: top-left}")
    r = run("build", "bargains", "--project", str(root), "--out", str(root / "out"))
    assert r.code == 0, r.out + r.err
    assert set(decoded(root / "out" / "bargains" / "deck.pdf")) == {"pnp:BG-1@0.4/v0.4"}
    bad = playtest_game(tmp_path / "bad", "{feedback: true, round: 'round one', size: 3}")
    r = run("check", "bargains", "--project", str(bad))
    assert r.code != 0
    assert "playtest.round" in r.out + r.err and "bargains.yaml:1" in r.out + r.err, r.out + r.err


HAND_TYPED = """{"time": "2026-12-01T10:00:00Z", "card": "BG-1", "rating": 2, "ticks": ["too weak"], "text": "never worth taking"}

{"time": "2026-12-01T10:05:00+01:00", "card": "BG-1", "ticks": ["too weak", "typo"]}
{"time": "2026-12-01T10:07:00Z", "card": "BG-5", "rating": 5}
"""


def _typed(root: Path, name: str, text: str) -> None:
    (root / "playtest").mkdir(exist_ok=True)
    (root / "playtest" / f"{name}.jsonl").write_text(text, encoding="utf-8")


def test_pnp_feedback_summarises_a_hand_typed_round(tmp_path: Path) -> None:
    root = playtest_game(tmp_path / "p")
    _typed(root, "round0", '{"time": "2026-11-01T10:00:00Z", "card": "BG-3", "text": "older round"}\n')
    _typed(root, "round1", HAND_TYPED)
    r = run("feedback", "bargains", "--project", str(root))
    assert r.code == 0, r.out + r.err
    assert "round round1: 3 entries on 2 cards" in r.out
    assert "BG-1           Dewdrop: 2 entries, rated 2/5 (1), too weak 2, typo 1" in r.out
    assert "never worth taking" in r.out and "older round" not in r.out
    r = run("feedback", "bargains", "--project", str(root), "--round", "round0", "--json")
    report = json.loads(r.out)
    assert report["round"] == "round0" and report["cards"]["BG-3"]["texts"] == ["older round"]
    assert report["cards"]["BG-3"]["entries"] == 1 and report["cards"]["BG-3"]["rating"] is None


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ('{"time": "yesterday", "card": "BG-1", "text": "x"}', "time:"),
        ('{"time": "2026-12-01T10:00:00Z", "card": "BG-1", "rating": 6}', "rating:"),
        ('{"time": "2026-12-01T10:00:00Z", "card": "BG-1", "ticks": ["boring"]}', "ticks:"),
        ('{"time": "2026-12-01T10:00:00Z", "card": "BG-1"}', "rating, ticks or text"),
        ('{"time": "2026-12-01T10:00:00Z", "card": "BG-1", "text": "x", "mood": 1}', "mood:"),
        ("{'time': 'single quotes'}", "not a JSON object"),
    ],
)
def test_a_bad_line_typed_by_hand_is_named_at_its_line(tmp_path: Path, line: str, says: str) -> None:
    root = playtest_game(tmp_path / "p")
    _typed(root, "round1", HAND_TYPED + line + "\n")
    r = run("feedback", "bargains", "--project", str(root))
    assert r.code == 2, r.out + r.err
    assert "playtest/round1.jsonl:5" in r.err and says in r.err, r.err


def test_pnp_changes_shows_the_last_rounds_feedback_and_what_changed_since(tmp_path: Path) -> None:
    root = playtest_game(tmp_path / "p")
    out = str(root / "out")
    r = run("build", "bargains", "--project", str(root), "--out", out, "--tag", "round1")
    assert r.code == 0, r.out + r.err
    _typed(root, "round1", HAND_TYPED)
    db = root / "card_data" / "bargains.yaml"
    db.write_text(
        db.read_text(encoding="utf-8").replace("name: Dewdrop", "name: Dewfall", 1), encoding="utf-8"
    )
    r = run("changes", "bargains", "--project", str(root), "--out", out)
    assert r.code == 0, r.out + r.err
    assert "Feedback in round round1 (playtest/round1.jsonl); changed since print 'round1'?" in r.out
    assert "BG-1           Dewfall: 2 entries, rated 2/5 (1), too weak 2, typo 1  [changed]" in r.out
    assert "BG-5" in r.out and "[unchanged]" in r.out and "never worth taking" in r.out
    written = (root / "out" / "bargains" / "changes.md").read_text(encoding="utf-8")
    assert "## Feedback in round round1 (changed since print 'round1'?)" in written
    assert "- **BG-1** Dewfall: 2 entries, rated 2/5 (1), too weak 2, typo 1 (changed)" in written
    report = json.loads(run("changes", "bargains", "--project", str(root), "--out", out, "--json").out)
    said = report["feedback"]
    assert said["round"] == "round1" and said["cards"]["BG-1"]["since"] == "changed"
    assert said["cards"]["BG-5"] == {
        "name": said["cards"]["BG-5"]["name"],
        "entries": 1,
        "ticks": {},
        "rating": 5.0,
        "ratings": [5],
        "texts": [],
        "since": "unchanged",
    }


def test_a_cards_link_reads_back_whatever_its_code_and_version_hold() -> None:
    from pnp.data.format.feedback import card_link, parse_link, round_name

    for code, version in [
        ("LM-moth", "0.4"),
        ("LM-Über Größe", "round 3 / final"),
        ("LM-a@b", ""),
        ("LM-1", "2026-11-25"),
    ]:
        link = card_link(code, "round2", version)
        assert " " not in link and parse_link(f"  {link}\n") == (code, "round2", version)
    assert parse_link("LM-moth") is None and parse_link("pnp:LM-moth@con/v1") is None
    assert [round_name("", v) for v in ("0.4", "round 3", "", "con", "...")] == [
        "0.4",
        "round-3",
        "draft",
        "draft",
        "draft",
    ]
    assert round_name("r2", "0.4") == "r2"
