"""Built-in layouts drawn from element data look as the Python layouts they replaced drew them.

The reference pictures in tests/fixtures/layouts/ were drawn at 150 dpi by the
Python layout modules (commit 3e4d8e5, the last before they became element
files): one card per layout from the bundled games (the card `pnp layouts`
shows), and the playing layout's court, ace and joker. Each is drawn again
now and compared channel by channel. `mat.png` was redrawn when the mat's
collation code moved off its frame into a deeper border band at the foot, and
`arcana.png` when the arcana's fine frame made way for its code.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from pnp.data.reading.loader import load_game
from pnp.draw.faces import card_size_of
from pnp.geometry.sizes import card_size
from pnp.output.exports.profiles import PROFILES, profile_frame
from pnp.output.exports.raster import Request, Scene, render
from pnp.resolve.fonts import Fonts

from conftest import ROOT

REFS = ROOT / "tests" / "fixtures" / "layouts"
CASES = {  # reference picture -> game, component, printed card, side
    "arcana": ("tarot", "arcana", 0, "face"),
    "back": ("bargains", "deck", 0, "back"),
    "chart": ("tarot", "arcana", 23, "face"),
    "mat": ("fairy-bucks", "castle", 0, "face"),
    "playing": ("fairy-meat", "fairy-deck", 0, "face"),
    "portrait": ("fairy-bucks", "items", 0, "face"),
    "reference": ("fairy-bucks", "scoring", 0, "face"),
    "value": ("bargains", "deck", 0, "face"),
    "playing-court": ("fairy-meat", "fairy-deck", 10, "face"),
    "playing-ace": ("fairy-meat", "fairy-deck", 12, "face"),
    "playing-joker": ("fairy-meat", "fairy-deck", 52, "face"),
    "playing-red-court": ("fairy-meat", "fairy-deck", 22, "face"),
}
# card text changed in the database since the reference was drawn: drawn with the text it had then
TEXT_THEN = {
    "arcana": (
        'text: "{% if facts.tiger.defends_as_combo %}As good as a combo in defence: stops any attack.'
        "{% else %}Defends like a single card.{% endif %} {% if facts.tiger.attacks %}Attacks like a single card."
        '{% else %}Never attacks.{% endif %}"',
        'text: "Blocks any combo but never attacks."',
    ),
    "chart": (
        "text: When a master meets their own servant alone, the master wins, whoever strikes first.",
        "text: A lone servant never beats his own master, whoever strikes first.",
    ),
}

# colours made darker since (so `pnp check --access` passes): drawn with the colour they had then
COLOUR_THEN = {"tarot": (('none: {color: "#d0922a"', 'none: {color: "#e2a436"'),)}


def draw(game_name: str, comp_key: str, index: int, side: str, root: Path = ROOT) -> np.ndarray:
    game = load_game(root / "card_data" / f"{game_name}.yaml", root=root)
    size = card_size_of(game.component(comp_key))
    frame = profile_frame(card_size(f"{size.w}x{size.h}"), PROFILES["plain"], 150)
    (image,) = render(Scene(game, Fonts.load(ROOT / "fonts")), [Request(comp_key, index, side, frame)])
    return np.asarray(image.convert("RGB"), dtype=np.int16)


@pytest.mark.parametrize("name", sorted(CASES))
def test_layout_draws_as_before(name: str, tmp_path: Path) -> None:
    with Image.open(REFS / f"{name}.png") as ref:
        before = np.asarray(ref.convert("RGB"), dtype=np.int16)
    root = ROOT
    if name in TEXT_THEN:
        from conftest import make_project

        game = CASES[name][0]
        root = make_project(tmp_path / "then", (game,))
        db = root / "card_data" / f"{game}.yaml"
        text = db.read_text(encoding="utf-8")
        for now_, then in (TEXT_THEN[name], *COLOUR_THEN.get(game, ())):
            assert text.count(now_) == 1, now_
            text = text.replace(now_, then)
        db.write_text(text, encoding="utf-8")
    now = draw(*CASES[name], root=root)
    assert now.shape == before.shape
    diff = np.abs(now - before)
    assert diff.max() <= 8 and diff.mean() < 0.1, (name, int(diff.max()), float(diff.mean()))


def test_the_mat_code_sits_clear_of_the_frame() -> None:
    """The castle's code row holds only the border colour beside the code (no frame line, no panel),
    and the code itself in light ink on it."""
    a = draw("fairy-bucks", "castle", 0, "face")
    mm = 150 / 25.4
    h, w = a.shape[:2]
    row = a[int(h - 6.2 * mm) : int(h - 3.6 * mm)]
    beside = np.concatenate(
        [
            row[:, int(w / 2 - 30 * mm) : int(w / 2 - 12 * mm)],
            row[:, int(w / 2 + 12 * mm) : int(w / 2 + 30 * mm)],
        ],
        axis=1,
    )
    band = np.median(beside.reshape(-1, 3), axis=0)
    assert np.abs(beside - band).max() <= 12, "a frame line or the panel crosses the code's row"
    code = row[:, int(w / 2 - 10 * mm) : int(w / 2 + 10 * mm)]
    assert (code.sum(axis=2) > band.sum() + 300).sum() > 50, "the code is not in the band"


def test_the_comparison_sees_a_change() -> None:
    """A card drawn differently (another card of the deck) fails the same bounds."""
    with Image.open(REFS / "value.png") as ref:
        before = np.asarray(ref.convert("RGB"), dtype=np.int16)
    other = draw("bargains", "deck", 3, "face")
    diff = np.abs(other - before)
    assert diff.max() > 8


FACES = sorted(name for name, case in CASES.items() if case[3] == "face")


@pytest.mark.parametrize("name", FACES)
def test_the_collation_code_sits_on_a_clear_field(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Behind every built-in layout's collation code (its capitals, and 0.3 mm round them) lies one
    plain colour: the card drawn without its code shows no frame line, panel edge or picture there."""
    import pnp.draw.faces
    from pnp.resolve.cards import printed_cards

    game_name, comp_key, index, side = CASES[name]
    game = load_game(ROOT / "card_data" / f"{game_name}.yaml", root=ROOT)
    comp = game.component(comp_key)
    printed = printed_cards(game, comp)[index]
    label = f"{printed.code} \u00b7 {game.game.version}" if game.game.version else printed.code
    fonts = Fonts.load(ROOT / "fonts")
    half = fonts.width(label, "condensed", 5.5) / 2 * 25.4 / 72 + 0.3  # mm
    monkeypatch.setattr(pnp.draw.faces, "draw_footer", lambda *args: None)
    size = card_size_of(comp)
    dpi = 300
    frame = profile_frame(card_size(f"{size.w}x{size.h}"), PROFILES["plain"], dpi)
    (image,) = render(Scene(game, fonts), [Request(comp_key, index, side, frame)])
    a = np.asarray(image.convert("RGB"), dtype=int)
    mm = dpi / 25.4
    h, w = a.shape[:2]
    baseline = h - 3.9 * mm  # where draw_footer sets the code
    box = a[
        int(baseline - 1.75 * mm) : int(baseline + 0.3 * mm), int(w / 2 - half * mm) : int(w / 2 + half * mm)
    ]
    field = np.median(box.reshape(-1, 3), axis=0)
    off = np.abs(box - field).max(axis=2)
    assert (off > 12).sum() == 0, f"{name}: {(off > 12).sum()} pixels behind the code differ from its field"
