"""Tokens and tiles: circles, squares and hexes with copies and fields like cards, on punch-out
sheets with a cut line around each; single- or double-sided. Measured from the built PDFs."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pdfplumber
import pypdfium2 as pdfium
import pytest

from artwork import project
from conftest import run

MM = 72 / 25.4
GAME = """game: {name: Token Test, tag: TK, players: {min: 1, max: 4}}
faces:
  coin:
    layout: custom
    elements:
      - {type: rect, frame: bleed, fill: "#d9a520"}
      - {type: text, x: 0, y: 6, w: 25, h: 10, text: "{{ card.value }}", size: 20, align: center}
  tile:
    layout: custom
    elements:
      - {type: rect, frame: bleed, fill: "#3f7a4a"}
      - {type: symbol, anchor: center, x: 50%, y: 45%, w: 12, h: 12, symbol: leaf, fill: white}
  marker:
    layout: custom
    elements:
      - {type: rect, frame: bleed, fill: "#3f4f8c"}
backs:
  coinback:
    layout: custom
    elements:
      - {type: rect, frame: bleed, fill: "#b5562b"}
components:
  - key: coins
    kind: tokens
    name: Coins
    card_size: 25x25
    shape: circle
    face: coin
    back: coinback
    fields: {value: {type: int}}
    cards:
      - {key: c1, name: One, value: 1, copies: 10}
      - {key: c5, name: Five, value: 5, copies: 6}
  - key: tiles
    kind: tokens
    name: Land tiles
    card_size: 34.64x30
    shape: hex
    face: tile
    cards:
      - {key: forest, name: Forest, copies: 5}
  - key: markers
    kind: tokens
    name: Markers
    card_size: 20x20
    face: marker
    back: coinback
    cards:
      - {key: m, name: Mark, copies: 3}
"""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = project(tmp_path_factory.mktemp("tokens"), GAME, name="tokens")
    r = run("build", "tokens", "--project", str(root), "--out", str(root / "out"), "--bleed", "2")
    assert r.code == 0, r.out + r.err
    return root / "out" / "tokens"


def _cut_lines(pdf: Path, page: int = 0) -> list[dict]:
    with pdfplumber.open(pdf) as doc:
        p = doc.pages[page]
        return [
            c for c in p.curves + p.rects if c.get("stroke") and not c.get("fill") and c["width"] > 15 * MM
        ]


def test_circle_tokens_are_cut_along_their_own_outline(built: Path) -> None:
    cuts = _cut_lines(built / "coins.pdf")
    assert len(cuts) == 16
    for c in cuts:
        assert abs(c["width"] / MM - 25) < 0.05 and abs(c["height"] / MM - 25) < 0.05
    centres = sorted(((c["x0"] + c["x1"]) / 2 / MM, (c["top"] + c["bottom"]) / 2 / MM) for c in cuts)
    nearest = min(math.dist(a, b) for a in centres for b in centres if a is not b)
    assert abs(nearest - 29) < 0.05  # 25 mm apart plus 2 x 2 mm of bleed: no token shares a cut


def test_hex_tiles_have_six_corners_and_no_back_pages(built: Path) -> None:
    cuts = _cut_lines(built / "tiles.pdf")
    assert len(cuts) == 5
    corners = [
        (round((x - cuts[0]["x0"]) / MM, 2), round((y - cuts[0]["top"]) / MM, 2)) for x, y in cuts[0]["pts"]
    ]
    assert sorted(set(corners)) == sorted(
        {(0.0, 15.0), (8.66, 0.0), (25.98, 0.0), (34.64, 15.0), (25.98, 30.0), (8.66, 30.0)}
    )
    with pdfplumber.open(built / "tiles.pdf") as doc:
        assert len(doc.pages) == 1  # single-sided: no back design, no back pages


def test_square_tokens_and_double_sided_backs_line_up(built: Path) -> None:
    with pdfplumber.open(built / "markers.pdf") as doc:
        assert len(doc.pages) == 2
        fronts = [r for r in doc.pages[0].rects if r.get("stroke") and not r.get("fill")]
        width = doc.pages[0].width
    assert len(fronts) == 3 and all(abs(r["width"] / MM - 20) < 0.05 for r in fronts)
    image = np.asarray(
        pdfium.PdfDocument(str(built / "markers.pdf"))[1].render(scale=1).to_pil().convert("RGB")
    )
    for r in fronts:  # long-edge duplex: the back of each marker is mirrored left to right
        x, y = width - (r["x0"] + r["x1"]) / 2, (r["top"] + r["bottom"]) / 2
        assert list(image[int(y), int(x)]) == [181, 86, 43]


def test_the_face_is_cut_to_its_shape_with_bleed(built: Path) -> None:
    cut = _cut_lines(built / "coins.pdf")[0]
    image = np.asarray(
        pdfium.PdfDocument(str(built / "coins.pdf"))[0].render(scale=4).to_pil().convert("RGB")
    )
    corner = image[int((cut["top"] + 1 * MM) * 4), int((cut["x0"] + 1 * MM) * 4)]
    inside_bleed = image[int((cut["top"] + 12.5 * MM) * 4), int((cut["x0"] - 1 * MM) * 4)]
    assert list(corner) == [255, 255, 255]  # outside the circle and its bleed: paper
    assert list(inside_bleed) == [217, 165, 32]  # 1 mm outside the cut, still the face's colour


def test_the_manifest_counts_tokens(built: Path) -> None:
    manifest = json.loads((built.parent / "manifest.json").read_text())
    entry = next(f for f in manifest["files"] if f["path"] == "tokens/coins.pdf")
    assert entry["kind"] == "tokens" and entry["cards"] == 16 and entry["copies"] == {"TK-c1": 10, "TK-c5": 6}


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (
            ("card_size: 25x25\n    shape: circle", "card_size: 25x20\n    shape: circle"),
            "a circle token is as high as it is wide",
        ),
        (
            ("kind: tokens\n    name: Markers", "kind: deck\n    name: Markers\n    shape: hex"),
            "only tokens have a shape",
        ),
    ],
)
def test_shape_mistakes_are_named(tmp_path: Path, edit: tuple[str, str], words: str) -> None:
    root = project(tmp_path, GAME.replace(*edit), name="tokens")
    r = run("check", "--project", str(root))
    assert r.code == 2 and words in r.err and "tokens.yaml:" in r.err, r.err


def test_list_shows_tokens_and_no_variants_where_there_are_none(tmp_path: Path) -> None:
    root = project(tmp_path, GAME, name="tokens")
    r = run("list", "--project", str(root))
    assert r.code == 0 and "coins            tokens     Coins" in r.out
    assert "Stacked variants" not in r.out
