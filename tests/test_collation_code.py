"""The collation code: placed, sized or left out by the design (`code:`), left out on small tokens,
and given a column as wide as the longest code on the checklist and a reprint's swap list."""

from __future__ import annotations

from pathlib import Path

import pdfplumber

from artwork import project
from conftest import run

GAME = """game: {name: Code Test, tag: EH, players: {min: 1, max: 4}}
faces:
  f:
    layout: custom
    elements:
      - {type: rect, frame: bleed, fill: "#f4ead0"}
      - {type: text, x: 0, y: 30, w: 63, h: 20, text: "{{ card.name }}", size: 12, align: center}CODE
  coin:
    layout: custom
    elements:
      - {type: rect, frame: bleed, fill: "#d9a520"}
      - {type: text, x: 0, y: 5, w: 22, h: 12, text: "{{ card.value }}", size: 30, align: center}
backs:
  b: {layout: back, slots: {title: Code Test}}
components:
  - key: deck
    kind: deck
    name: Deck
    face: f
    back: b
    cards:
      - {key: young-ember-sprite, name: Young Ember Sprite, copies: 2, text: first}
      - {key: a, name: Alder}
  - key: coins
    kind: tokens
    name: Coins
    card_size: SIZE
    shape: circle
    face: coin
    fields: {value: {type: int}}
    cards:
      - {key: c1, name: One, value: 7, copies: 2}
"""

MM = 72 / 25.4


def _game(tmp_path: Path, code: str = "", size: str = "22x22") -> Path:
    text = GAME.replace("CODE", f"\n    code: {code}" if code else "").replace("SIZE", size)
    return project(tmp_path / "proj", text, name="codes")


def _build(root: Path, *extra: str) -> Path:
    r = run("build", "codes", "--project", str(root), "--duplex", "off", *extra)
    assert r.code == 0, r.out + r.err
    return root / "output" / "codes"


def _words(pdf: Path, page: int = 0) -> list[dict]:
    with pdfplumber.open(str(pdf)) as doc:
        return doc.pages[page].extract_words()


def _code_tops(pdf: Path, prefix: str) -> list[float]:
    """Where each collation code starting with `prefix` stands on the first page: mm from its card's top."""
    with pdfplumber.open(str(pdf)) as doc:
        words = doc.pages[0].extract_words()
    return [w["top"] / MM for w in words if w["text"].startswith(prefix)]


def test_small_tokens_print_no_code_and_larger_ones_do(tmp_path: Path) -> None:
    out = _build(_game(tmp_path / "small"))
    assert not [w for w in _words(out / "coins.pdf") if w["text"].startswith("EH-")]
    out = _build(_game(tmp_path / "large", size="30x30"))
    assert [w for w in _words(out / "coins.pdf") if w["text"].startswith("EH-c1")]


def test_a_design_moves_resizes_or_leaves_out_the_code(tmp_path: Path) -> None:
    bottom = _build(_game(tmp_path / "bottom")) / "deck.pdf"
    top = _build(_game(tmp_path / "top", "{at: top, size: 7}")) / "deck.pdf"
    none = _build(_game(tmp_path / "none", "none")) / "deck.pdf"

    def code(pdf: Path) -> list[dict]:
        with pdfplumber.open(str(pdf)) as doc:
            return [  # each code's first letter (codes are set in the condensed face)
                c for c in doc.pages[0].chars if c["text"] == "E" and "Condensed" in c["fontname"]
            ]

    def name_top(pdf: Path) -> float:
        with pdfplumber.open(str(pdf)) as doc:
            return min(w["top"] for w in doc.pages[0].extract_words() if w["text"] == "Alder")

    low, high = code(bottom), code(top)
    assert low and high and not code(none)
    assert all(abs(c["size"] - 5.5) < 0.05 for c in low) and all(abs(c["size"] - 7) < 0.05 for c in high)
    # first row of cards: the name sits 30 to 50 mm below the card's top edge
    assert 35 * MM < min(c["top"] for c in low) - name_top(bottom) < 55 * MM  # at the foot
    assert 25 * MM < name_top(top) - min(c["top"] for c in high) < 50 * MM  # at the head
    assert "Alder" in " ".join(w["text"] for w in _words(none))  # the card still draws


def test_a_code_size_out_of_range_is_named_at_its_line(tmp_path: Path) -> None:
    root = _game(tmp_path, "{size: 30}")
    r = run("check", "--project", str(root))
    assert r.code != 0
    assert "codes.yaml:8: faces.f.code.size: must be 3 to 12 points, found 30" in r.out + r.err, r.out + r.err


def _no_overprint(pdf: Path, page: int, code: str, name: str) -> None:
    """On `page`, each line listing `code` has it end before the name on that line begins."""
    words = _words(pdf, page)
    codes = [w for w in words if w["text"] == code]
    assert codes, [w["text"] for w in words]
    for c in codes:
        (n,) = [w for w in words if w["text"] == name and abs(w["top"] - c["top"]) < 3]
        assert c["x1"] < n["x0"], (c, n)


def test_the_checklist_and_the_swap_list_make_room_for_long_codes(tmp_path: Path) -> None:
    root = _game(tmp_path, size="30x30")
    out = _build(root, "--tag", "one")
    _no_overprint(out / "checklist.pdf", 0, "EH-young-ember-sprite", "Young")
    db = root / "card_data" / "codes.yaml"
    db.write_text(db.read_text(encoding="utf-8").replace("text: first", "text: second"), encoding="utf-8")
    _build(root, "--only-changed", "--since", "one")
    with pdfplumber.open(str(out / "reprint.pdf")) as doc:
        last = len(doc.pages) - 1
    _no_overprint(out / "reprint.pdf", last, "EH-young-ember-sprite", "Young")
