"""Exports made for real and read back: PNG sizes per profile, TTS sheets and JSON,
print-on-demand page order and boxes, a preview for every deck."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from conftest import make_project, run
from pnp.output.exports.profiles import PROFILES, profile_frame
from pnp.output.exports.tts import PER_SHEET, grid_for
from pnp.geometry.sizes import card_size

# A made-up game that exercises what Fairy Bargains does not: more than 69
# distinct faces (two TTS sheets), two card sizes, marked sets and a card with
# its own back.
MEADOW = """
game: {name: Test Meadow, tag: TM, players: {min: 1, max: 3}}
style: {ink: "#1f1a2b", paper: "#fbf6ea", accent: "#5b3f8c"}
palettes:
  hue: {0: "#f0cf63", 1: "#8dbf6e", 2: "#4f93c9", 3: "#b8506a", 4: "#3f2d66"}
faces:
  plain:
    layout: value
    slots: {value: "{{ card.value }}", title: "{{ card.name }}", color: "{{ palettes.hue[card.value % 5] }}",
            emblem: leaf, text: "meadow card {{ card.key }}"}
backs:
  green: {layout: back, slots: {title: Meadow, color: "#2f5a3a", emblem: leaf}}
  blue: {layout: back, slots: {title: Pond, color: "#24456b", emblem: shell}}
components:
  - key: big
    kind: deck
    name: Big deck
    card_size: poker
    face: plain
    back: green
    fields: {value: {type: int}}
    cards:
{cards}
  - key: tokens
    kind: deck
    name: Tokens
    card_size: mini
    face: plain
    back: green
    fields: {value: {type: int}}
    sets:
      option: players
      default: 2
      min: 1
      max: 3
      marks: [{label: A, color: "#c0392b"}, {label: B, color: "#2471a3"}, {label: C, color: "#1e8449"}]
    cards:
      - {key: t1, name: Seed, value: 1, copies: 2}
      - {key: t2, name: Pond stone, value: 2, copies: 1, back: blue}
"""
BIG = 75  # distinct faces in `big`: one full sheet of 69 and one of 6
BIG_COPIES = BIG + 2  # card 1 has three copies


def meadow_yaml() -> str:
    rows = [f'      - {{key: "c{i}", name: "Card {i}", value: {i}, copies: {3 if i == 1 else 1}}}'
            for i in range(1, BIG + 1)]
    return MEADOW.replace("{cards}", "\n".join(rows))


@pytest.fixture(scope="module")
def meadow(tmp_path_factory) -> Path:
    root = make_project(tmp_path_factory.mktemp("meadow") / "proj", ())
    (root / "card_data" / "meadow.yaml").write_text(meadow_yaml(), encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def bargains(tmp_path_factory) -> Path:
    return make_project(tmp_path_factory.mktemp("bargains") / "proj")


def export(project: Path, *args: str) -> Path:
    out = project / "out"
    r = run(*args, "--project", str(project), "--out", str(out))
    assert r.code == 0, r.err
    return out


# -- PNG ------------------------------------------------------------------------

@pytest.mark.parametrize("profile, size", [("tgc", (825, 1125)), ("mpc", (822, 1122)), ("plain", (744, 1039))])
def test_png_sizes_per_profile(bargains: Path, profile: str, size: tuple[int, int]) -> None:
    out = export(bargains, "export", "png", "bargains", "--profile", profile, "--jobs", "1")
    files = sorted((out / "bargains" / "png" / "deck").glob("*.png"))
    names = [f.name for f in files]
    assert names == sorted(["BG-1.png", "BG-3.png", "BG-5.png", "BG-7.png", "BG-10.png", "back-bargain-back.png"])
    for f in files:
        with Image.open(f) as im:
            assert (im.size, im.mode) == (size, "RGB"), f.name


def test_profiles_scale_other_sizes_the_same_way() -> None:
    tgc, mpc = PROFILES["tgc"], PROFILES["mpc"]
    assert (profile_frame(card_size("bridge"), tgc, 300).width, profile_frame(card_size("bridge"), tgc, 300).height) \
        == (750, 1125)  # 2.25 x 3.5 in plus 1/8 in each side
    tarot = profile_frame(card_size("tarot"), mpc, 300)
    assert (tarot.width, tarot.height) == (825 + 72, 1425 + 72)  # 2.75 x 4.75 in + 2 x 36 px
    assert profile_frame(card_size("poker"), tgc, 600).width == 1650
    frame = profile_frame(card_size("poker"), tgc, 300)
    assert frame.trim == (37.5, 37.5, 750.0, 1050.0)  # the shop's cut line


def test_png_matches_the_pdf_drawing(bargains: Path) -> None:
    """The trim of a PNG shows the card's own colours: the medallion of BG-1 is its theme colour."""
    out = export(bargains, "export", "png", "bargains", "--profile", "tgc", "--jobs", "1")
    with Image.open(out / "bargains" / "png" / "deck" / "BG-1.png") as im:
        corner = im.getpixel((5, 5))          # bleed: the border colour runs out to the edge
        medallion = im.getpixel((im.width // 2 - 150, int(im.height * 0.46)))
    assert corner == medallion == (0xF0, 0xCF, 0x63)


def test_png_parallel_equals_serial(meadow: Path, tmp_path: Path) -> None:
    serial = export(meadow, "export", "png", "--profile", "plain", "--dpi", "40", "--jobs", "1")
    a = {p.relative_to(serial): p.read_bytes() for p in (serial / "meadow" / "png").rglob("*.png")}
    parallel = export(meadow, "export", "png", "--profile", "plain", "--dpi", "40", "--jobs", "2")
    b = {p.relative_to(parallel): p.read_bytes() for p in (parallel / "meadow" / "png").rglob("*.png")}
    assert len(a) == BIG + 1 + 2 * 2 + 2 * 2  # faces + back; tokens: 2 sets x (2 faces + 2 backs)
    assert a == b
    assert (serial / "meadow" / "png" / "tokens" / "TM-t1-set2.png").is_file()
    assert (serial / "meadow" / "png" / "tokens" / "back-blue-set1.png").is_file()


# -- Tabletop Simulator ------------------------------------------------------------------

def test_tts_grid_rules() -> None:
    for n in range(1, PER_SHEET + 1):
        cols, rows = grid_for(n)
        assert 2 <= cols <= 10 and 2 <= rows <= 7 and cols * rows >= n + 1
    assert grid_for(69) == (10, 7)
    with pytest.raises(ValueError):
        grid_for(70)


def test_tts_sheets_hidden_slot_and_json(meadow: Path) -> None:
    out = export(meadow, "export", "tts")
    folder = out / "meadow" / "tts"
    data = json.loads((folder / "big.json").read_text())
    deck = data["ObjectStates"][0]
    assert deck["Name"] == "DeckCustom"
    custom = deck["CustomDeck"]
    assert sorted(custom) == ["1", "2"]  # 75 faces: 69 on the first sheet, 6 on the second
    assert (custom["1"]["NumWidth"], custom["1"]["NumHeight"]) == (10, 7)
    assert (custom["2"]["NumWidth"], custom["2"]["NumHeight"]) == grid_for(6)
    assert len(deck["DeckIDs"]) == len(deck["ContainedObjects"]) == BIG_COPIES
    assert deck["DeckIDs"][:4] == [100, 100, 100, 101]  # three copies of c1 share one picture
    assert deck["DeckIDs"][-1] == 205
    for key, entry in custom.items():
        assert entry["BackIsHidden"] is True and entry["UniqueBack"] is False
        face, back = (Path(entry[k].removeprefix("file://")) for k in ("FaceURL", "BackURL"))
        assert face.is_absolute() and face.is_file() and back.is_file()
        with Image.open(face) as sheet, Image.open(back) as back_im:
            w, h = sheet.width // entry["NumWidth"], sheet.height // entry["NumHeight"]
            assert sheet.mode == "RGB" and sheet.width <= 4096 and sheet.height <= 4096
            assert back_im.size == (w, h)
            last = sheet.crop((sheet.width - w, sheet.height - h, sheet.width, sheet.height))
            assert last.tobytes() == back_im.tobytes()  # hidden slot = the back
    card = deck["ContainedObjects"][3]
    assert (card["Name"], card["CardID"], card["Nickname"], card["Description"]) == ("Card", 101, "Card 2", "TM-c2")
    assert card["CustomDeck"] == {"1": custom["1"]}
    # Cards with another back, or another set mark, go on their own sheets.
    tokens = json.loads((folder / "tokens.json").read_text())["ObjectStates"][0]
    backs = {e["BackURL"] for e in tokens["CustomDeck"].values()}
    assert len(tokens["CustomDeck"]) == 4 and len(backs) == 4  # 2 sets x 2 backs
    assert len(tokens["DeckIDs"]) == 2 * 3


# -- print on demand ------------------------------------------------------------------------

def test_pod_page_order_and_boxes(bargains: Path) -> None:
    out = export(bargains, "export", "pod", "bargains", "--jobs", "1")
    reader = PdfReader(str(out / "bargains" / "pod" / "deck.pdf"))
    assert len(reader.pages) == 2 * 65
    for i, page in enumerate(reader.pages):
        assert [float(v) for v in page.mediabox] == [0, 0, 198, 270]  # 2.75 x 3.75 in
        assert [float(v) for v in page.bleedbox] == [0, 0, 198, 270]
        assert [float(v) for v in page.trimbox] == [9, 9, 189, 261]    # 1/8 in bleed
    texts = [reader.pages[i].extract_text() or "" for i in range(4)]
    assert "BG-1" not in texts[0] and "Fairy Bargains" in texts[0]  # back 1
    assert "BG-1" in texts[1] and "Dewdrop" in texts[1]               # front 1
    assert "Fairy Bargains" in texts[2] and "Dewdrop" in texts[3]     # back 2, front 2
    assert "Acorn" in (reader.pages[2 * 13 + 1].extract_text() or "")  # after 13 Dewdrops


# -- preview -------------------------------------------------------------------------------

def test_preview_for_every_deck(meadow: Path, bargains: Path) -> None:
    for project, game, decks in ((meadow, "meadow", {"big", "tokens"}), (bargains, "bargains", {"deck"})):
        out = export(project, "preview", game)
        files = {p.stem: p for p in (out / game / "preview").glob("*.png")}
        assert set(files) == decks
        for p in files.values():
            with Image.open(p) as im:
                assert im.mode == "RGB" and 400 < im.width <= 2400
                assert len(im.resize((64, 64)).getcolors(4096) or ()) > 20  # cards, not a blank page


def test_export_refuses_unknown_game(bargains: Path) -> None:
    r = run("export", "png", "nonesuch", "--project", str(bargains))
    assert r.code == 2 and "no such game" in r.err
