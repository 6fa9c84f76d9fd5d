"""`pnp showcase`: a fanned hand and a perspective row of chosen cards as PNG pictures, read back pixel
by pixel: the right size, cards drawn on the table colour, the fan's arc and the row's slant."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from conftest import make_project, run

TABLE = (235, 230, 220)
CARDS = "REBE1,GRBE1,BLBE1,YEBE1,F01"


@pytest.fixture(scope="module")
def shown(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_project(tmp_path_factory.mktemp("show") / "p", ("feenbalz",))
    r = run("showcase", "feenbalz", "--cards", CARDS, "--project", str(root))
    assert r.code == 0, r.out + r.err
    return root


def _mask(image: Image.Image) -> list[list[bool]]:
    """Which pixels are not the bare table (a card or its shadow), row by row."""
    w, h = image.size
    px = image.load()
    return [[sum(abs(a - b) for a, b in zip(px[x, y], TABLE)) > 40 for x in range(w)] for y in range(h)]


def _top(mask: list[list[bool]], x: int) -> int:
    """The first row with a card pixel in column x."""
    return next(y for y, row in enumerate(mask) if row[x])


def _span(row: list[bool]) -> tuple[int, int]:
    xs = [x for x, on in enumerate(row) if on]
    return xs[0], xs[-1]


def test_both_pictures_are_written_at_their_size_and_not_blank(shown: Path) -> None:
    folder = shown / "output" / "feenbalz" / "showcase"
    for name, size in (("hand.png", (1600, 1000)), ("row.png", (1600, 700))):
        image = Image.open(folder / name)
        assert image.format == "PNG" and image.size == size and image.mode == "RGB", name
        rgb = image.convert("RGB")
        colours = rgb.getcolors(maxcolors=1 << 20) or []
        assert len(colours) > 2000, name  # card art, text and shadows, not a flat fill
        corners = [
            rgb.getpixel(p) for p in ((0, 0), (size[0] - 1, 0), (0, size[1] - 1), (size[0] - 1, size[1] - 1))
        ]
        assert all(c == TABLE for c in corners), corners
        covered = sum(map(sum, _mask(rgb.resize((size[0] // 4, size[1] // 4))))) / (size[0] * size[1] / 16)
        assert 0.15 < covered < 0.9, (name, covered)
    manifest = json.loads((shown / "output" / "manifest.json").read_text(encoding="utf-8"))
    entry = next(e for e in manifest["exports"] if e["kind"] == "showcase")
    assert entry["cards"] == CARDS.split(",")
    assert entry["files"] == ["feenbalz/showcase/hand.png", "feenbalz/showcase/row.png"]


def test_the_hand_is_a_fan_and_the_row_leans_back(shown: Path) -> None:
    folder = shown / "output" / "feenbalz" / "showcase"
    hand = _mask(Image.open(folder / "hand.png").convert("RGB").resize((400, 250)))
    left, right = _span([any(row[x] for row in hand) for x in range(400)])
    quarter = (right - left) // 4
    middle, outer_l, outer_r = (
        _top(hand, (left + right) // 2),
        _top(hand, left + quarter // 2),
        _top(hand, right - quarter // 2),
    )
    assert middle + 10 < min(outer_l, outer_r), (middle, outer_l, outer_r)  # the cards' tops make an arc
    row = _mask(Image.open(folder / "row.png").convert("RGB").resize((400, 175)))
    lines = [y for y, r in enumerate(row) if any(r)]
    top_l, top_r = _span(row[lines[0] + 3])
    low_l, low_r = _span(row[lines[-1] - 12])  # above the shadow's soft edge
    assert top_r - top_l + 20 < low_r - low_l, ((top_l, top_r), (low_l, low_r))  # far edge narrower


def test_a_showcase_is_of_the_cards_asked_for(tmp_path: Path) -> None:
    root = make_project(tmp_path / "p", ("feenbalz",))
    r = run("showcase", "feenbalz", "--cards", "REBE1", "--project", str(root), "--out", "a")
    assert r.code == 0, r.err
    r = run("showcase", "feenbalz", "--cards", "BLBE1", "--project", str(root), "--out", "b")
    assert r.code == 0, r.err
    one = Image.open(root / "a" / "feenbalz" / "showcase" / "hand.png").convert("RGB")
    other = Image.open(root / "b" / "feenbalz" / "showcase" / "hand.png").convert("RGB")
    assert one.size == other.size and one.tobytes() != other.tobytes()
    r = run("showcase", "feenbalz", "--cards", "REBE1,NOPE", "--project", str(root))
    assert r.code == 2 and "no card 'NOPE'" in r.err and "--cards" in r.err, r.err
    assert "Traceback" not in r.err


def test_the_default_hand_is_written_in_a_language(tmp_path: Path) -> None:
    root = make_project(tmp_path / "p", ("feenbalz",))
    r = run("showcase", "feenbalz", "--lang", "de", "--project", str(root))
    assert r.code == 0, r.err
    for name in ("hand.png", "row.png"):
        assert Image.open(root / "output" / "feenbalz" / "de" / "showcase" / name).size[0] == 1600
