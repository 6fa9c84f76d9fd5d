"""Exports made for real and read back: PNG sizes per profile, TTS sheets and JSON,
print-on-demand page order and boxes, a preview for every deck, folders per profile
and dpi recorded in the manifest."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from pnp.geometry.sizes import card_size
from pnp.output.exports.profiles import PROFILES, profile_frame
from pnp.output.exports.tts import Limits, grid_for, limits_for, tts_frame

from conftest import make_project, run

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
    rows = [
        f'      - {{key: "c{i}", name: "Card {i}", value: {i}, copies: {3 if i == 1 else 1}}}'
        for i in range(1, BIG + 1)
    ]
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


@pytest.mark.parametrize(
    "profile, size", [("tgc", (825, 1125)), ("mpc", (822, 1122)), ("plain", (744, 1039))]
)
def test_png_sizes_per_profile(bargains: Path, profile: str, size: tuple[int, int]) -> None:
    out = export(bargains, "export", "png", "bargains", "--profile", profile, "--jobs", "1")
    files = sorted((out / "bargains" / "png" / f"{profile}-300" / "deck").glob("*.png"))
    names = [f.name for f in files]
    assert names == sorted(
        ["BG-1.png", "BG-3.png", "BG-5.png", "BG-7.png", "BG-10.png", "back-bargain-back.png"]
    )
    for f in files:
        with Image.open(f) as im:
            assert (im.size, im.mode) == (size, "RGB"), f.name


def test_profiles_scale_other_sizes_the_same_way() -> None:
    tgc, mpc = PROFILES["tgc"], PROFILES["mpc"]
    assert (
        profile_frame(card_size("bridge"), tgc, 300).width,
        profile_frame(card_size("bridge"), tgc, 300).height,
    ) == (750, 1125)  # 2.25 x 3.5 in plus 1/8 in each side
    tarot = profile_frame(card_size("tarot"), mpc, 300)
    assert (tarot.width, tarot.height) == (825 + 72, 1425 + 72)  # 2.75 x 4.75 in + 2 x 36 px
    assert profile_frame(card_size("poker"), tgc, 600).width == 1650
    frame = profile_frame(card_size("poker"), tgc, 300)
    assert frame.trim == (37.5, 37.5, 750.0, 1050.0)  # the shop's cut line
    x, y, sx, sy = frame.placement(card_size("poker"))
    assert sx == sy == pytest.approx(750 / (63 / 25.4 * 300))  # one scale: 63 mm fills 2.5 in ...
    assert (x * 300 / 72, y * 300 / 72) == (
        pytest.approx(37.5),
        pytest.approx((1125 - 88 / 25.4 * 300 * sx) / 2),
    )
    assert frame.bleed_mm(card_size("poker")) > 3.175  # ... and the bleed art covers the taller trim


def test_png_matches_the_pdf_drawing(bargains: Path) -> None:
    """The trim of a PNG shows the card's own colours: the medallion of BG-1 is its theme colour."""
    out = export(bargains, "export", "png", "bargains", "--profile", "tgc", "--jobs", "1")
    with Image.open(out / "bargains" / "png" / "tgc-300" / "deck" / "BG-1.png") as im:
        corner = im.getpixel((5, 5))  # bleed: the border colour runs out to the edge
        medallion = im.getpixel((im.width // 2 - 150, int(im.height * 0.46)))
    assert corner == medallion == (0xF0, 0xCF, 0x63)


def test_png_parallel_equals_serial(meadow: Path, tmp_path: Path) -> None:
    serial = export(meadow, "export", "png", "--profile", "plain", "--dpi", "40", "--jobs", "1")
    a = {p.relative_to(serial): p.read_bytes() for p in (serial / "meadow" / "png").rglob("*.png")}
    parallel = export(meadow, "export", "png", "--profile", "plain", "--dpi", "40", "--jobs", "2")
    b = {p.relative_to(parallel): p.read_bytes() for p in (parallel / "meadow" / "png").rglob("*.png")}
    assert len(a) == BIG + 1 + 2 * 2 + 2 * 2  # faces + back; tokens: 2 sets x (2 faces + 2 backs)
    assert a == b
    assert (serial / "meadow" / "png" / "plain-40" / "tokens" / "TM-t1-set2.png").is_file()
    assert (serial / "meadow" / "png" / "plain-40" / "tokens" / "back-blue-set1.png").is_file()


def test_exports_never_collide_and_are_recorded(bargains: Path, tmp_path: Path) -> None:
    """Two profiles and two resolutions side by side; the manifest lists each with its options."""
    out = tmp_path / "out"
    for args in (("--profile", "tgc"), ("--profile", "mpc"), ("--profile", "tgc", "--dpi", "100")):
        r = run(
            "export", "png", "bargains", *args, "--jobs", "1", "--project", str(bargains), "--out", str(out)
        )
        assert r.code == 0, r.err
    folders = sorted(p.name for p in (out / "bargains" / "png").iterdir())
    assert folders == ["mpc-300", "tgc-100", "tgc-300"]
    with (
        Image.open(out / "bargains" / "png" / "tgc-100" / "deck" / "BG-1.png") as small,
        Image.open(out / "bargains" / "png" / "tgc-300" / "deck" / "BG-1.png") as big,
    ):
        assert (small.size, big.size) == ((275, 375), (825, 1125))
    manifest = json.loads((out / "manifest.json").read_text())
    entries = {e["folder"]: e for e in manifest["exports"]}
    assert sorted(entries) == ["bargains/png/mpc-300", "bargains/png/tgc-100", "bargains/png/tgc-300"]
    tgc = entries["bargains/png/tgc-100"]
    assert (tgc["kind"], tgc["profile"], tgc["dpi"], tgc["game"], tgc["counts"]) == (
        "png",
        "tgc",
        100,
        "BG",
        {},
    )
    assert tgc["files"] == sorted(
        str(p.relative_to(out)) for p in (out / "bargains/png/tgc-100").rglob("*.png")
    )
    assert len(tgc["files"]) == 6
    # exporting again replaces the entry for that folder, it does not add a second one
    assert (
        run(
            "export",
            "png",
            "bargains",
            "--profile",
            "tgc",
            "--dpi",
            "100",
            "--jobs",
            "1",
            "--project",
            str(bargains),
            "--out",
            str(out),
        ).code
        == 0
    )
    again = json.loads((out / "manifest.json").read_text())
    assert len(again["exports"]) == 3 and again["exports"] == manifest["exports"]


# -- Tabletop Simulator ------------------------------------------------------------------


def test_tts_grid_rules() -> None:
    full = Limits(10, 7)
    for n in range(1, full.per_sheet + 1):
        cols, rows = grid_for(n, full)
        assert 2 <= cols <= 10 and 2 <= rows <= 7 and cols * rows >= n
    assert grid_for(70, full) == (10, 7)  # every slot holds a face: the back has its own picture
    with pytest.raises(ValueError):
        grid_for(71, full)
    assert grid_for(15, Limits(5, 3)) == (5, 3)


def test_tts_cells_follow_the_dpi_within_4096_px() -> None:
    """300 dpi poker cards are 744 x 1039 px, so a sheet holds 5 x 3 of them (3720 x 3117 px)."""
    poker = card_size("poker")
    frame = tts_frame(poker, 300)
    assert (frame.width, frame.height) == (744, 1039)
    assert limits_for(frame) == Limits(5, 3)
    assert limits_for(tts_frame(poker, 100)) == Limits(10, 7)
    assert limits_for(tts_frame(card_size("tarot"), 300)) == Limits(4, 2)  # 827 x 1417 px
    big = tts_frame(poker, 700)  # too large for 2 x 2 within 4096 px: drawn as large as fits
    assert limits_for(big) == Limits(2, 2) and big.height <= 2048 and big.width == round(big.height * 63 / 88)
    with pytest.raises(ValueError, match="lower --dpi"):
        limits_for(profile_frame(poker, PROFILES["plain"], 700))


def _card(name: str, code: str, card_id: int, deck: str, entry: dict, guid: str) -> dict:
    return {
        "Name": "Card",
        "GUID": guid,
        "Nickname": name,
        "Description": code,
        "CardID": card_id,
        "CustomDeck": {deck: entry},
        "Locked": False,
        "Tooltip": True,
        "SidewaysCard": False,
        "HideWhenFaceDown": True,
        "Hands": True,
        "Transform": {
            "posX": 0.0,
            "posY": 1.0,
            "posZ": 0.0,
            "rotX": 0.0,
            "rotY": 180.0,
            "rotZ": 180.0,
            "scaleX": 1.0,
            "scaleY": 1.0,
            "scaleZ": 1.0,
        },
    }


def test_tts_saved_object_field_by_field(meadow: Path) -> None:
    out = export(meadow, "export", "tts", "--dpi", "100")
    folder = out / "meadow" / "tts" / "local-100"
    data = json.loads((folder / "big.json").read_text())
    assert {k: v for k, v in data.items() if k != "ObjectStates"} == {
        "SaveName": "Test Meadow: Big deck",
        "GameMode": "",
        "Gravity": 0.5,
        "Date": "",
        "Table": "",
        "Sky": "",
        "Note": "",
        "Rules": "",
        "XmlUI": "",
        "LuaScript": "",
        "LuaScriptState": "",
        "TabStates": {},
        "VersionNumber": "",
    }
    assert len(data["ObjectStates"]) == 1
    deck = data["ObjectStates"][0]
    custom = deck["CustomDeck"]
    # the folder's lasting name (through the output's links), not the generation that holds it now
    sheet1, sheet2 = (folder / "big-sheet1.png").absolute(), (folder / "big-sheet2.png").absolute()
    back = (folder / "big-back-green.png").absolute()
    assert ".pnp" not in sheet1.parts
    assert custom == {
        "1": {
            "FaceURL": sheet1.as_uri(),
            "BackURL": back.as_uri(),
            "NumWidth": 10,
            "NumHeight": 7,
            "BackIsHidden": True,
            "UniqueBack": False,
            "Type": 0,
        },
        "2": {
            "FaceURL": sheet2.as_uri(),
            "BackURL": back.as_uri(),
            "NumWidth": 3,
            "NumHeight": 2,
            "BackIsHidden": True,
            "UniqueBack": False,
            "Type": 0,
        },
    }  # 75 faces: all 70 slots of the first sheet, 5 on the second
    ids = [100, 100, 100] + list(range(101, 170)) + [200, 201, 202, 203, 204]
    assert deck["DeckIDs"] == ids and len(ids) == BIG_COPIES
    contained = deck["ContainedObjects"]
    assert len(contained) == BIG_COPIES
    first, seventieth = contained[0], contained[3 + 68]
    assert first == _card("Card 1", "TM-c1", 100, "1", custom["1"], first["GUID"])
    assert seventieth == _card("Card 70", "TM-c70", 169, "1", custom["1"], seventieth["GUID"])
    assert contained[-1] == _card("Card 75", "TM-c75", 204, "2", custom["2"], contained[-1]["GUID"])
    assert len({c["GUID"] for c in contained}) == BIG_COPIES and all(len(c["GUID"]) == 6 for c in contained)
    rest = {k: v for k, v in deck.items() if k not in ("CustomDeck", "DeckIDs", "ContainedObjects", "GUID")}
    assert rest == {
        "Name": "DeckCustom",
        "Nickname": "Test Meadow: Big deck",
        "Description": f"{BIG_COPIES} cards",
        "Transform": first["Transform"],
        "Locked": False,
        "Grid": True,
        "Snap": True,
        "Autoraise": True,
        "Sticky": True,
        "Tooltip": True,
        "SidewaysCard": False,
        "HideWhenFaceDown": True,
        "Hands": False,
    }
    with Image.open(sheet1) as sheet, Image.open(back) as back_im:
        assert sheet.mode == "RGB" and sheet.size == (10 * 248, 7 * 346)  # 63 x 88 mm at 100 dpi
        assert back_im.size == (248, 346)
        last = sheet.crop((9 * 248, 6 * 346, 10 * 248, 7 * 346))
        assert last.tobytes() != back_im.tobytes()  # the last slot is card 70, not the back
        assert len(last.resize((32, 32)).getcolors(4096) or ()) > 8
    # Cards with another back, or another set mark, go on their own sheets.
    tokens = json.loads((folder / "tokens.json").read_text())["ObjectStates"][0]
    backs = {e["BackURL"] for e in tokens["CustomDeck"].values()}
    assert len(tokens["CustomDeck"]) == 4 and len(backs) == 4  # 2 sets x 2 backs
    assert len(tokens["DeckIDs"]) == 2 * 3


def test_tts_base_url_names_hosted_pictures(bargains: Path) -> None:
    out = export(
        bargains, "export", "tts", "bargains", "--dpi", "60", "--base-url", "https://cards.example.org/bg/"
    )
    deck = json.loads((out / "bargains" / "tts" / "hosted-60" / "deck.json").read_text())["ObjectStates"][0]
    assert deck["CustomDeck"]["1"]["FaceURL"] == "https://cards.example.org/bg/deck-sheet1.png"
    assert deck["CustomDeck"]["1"]["BackURL"] == "https://cards.example.org/bg/deck-back-bargain-back.png"
    assert deck["ContainedObjects"][0]["CustomDeck"]["1"] == deck["CustomDeck"]["1"]
    r = run("export", "tts", "bargains", "--base-url", "ftp://x", "--project", str(bargains))
    assert r.code == 2 and "http" in r.err


# -- print on demand ------------------------------------------------------------------------


def test_pod_page_order_and_boxes(bargains: Path) -> None:
    out = export(bargains, "export", "pod", "bargains", "--jobs", "1")
    reader = PdfReader(str(out / "bargains" / "pod" / "drivethru" / "deck.pdf"))
    assert len(reader.pages) == 2 * 65
    for page in reader.pages:
        assert [float(v) for v in page.mediabox] == [0, 0, 198, 270]  # 2.75 x 3.75 in
        assert [float(v) for v in page.bleedbox] == [0, 0, 198, 270]
        assert [float(v) for v in page.trimbox] == [9, 9, 189, 261]  # 1/8 in bleed
    texts = [reader.pages[i].extract_text() or "" for i in range(4)]
    assert "BG-1" not in texts[0] and "Fairy Bargains" in texts[0]  # back 1
    assert "BG-1" in texts[1] and "Dewdrop" in texts[1]  # front 1
    assert "Fairy Bargains" in texts[2] and "Dewdrop" in texts[3]  # back 2, front 2
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


def test_fast_png_writer_matches_pillow_pixel_for_pixel(bargains: Path) -> None:
    """The export's own PNG writer (unfiltered rows) decodes to exactly the picture PDFium drew, at its dpi."""
    import io

    from pnp.output.exports.pngfile import png_bytes

    out = export(bargains, "export", "png", "bargains", "--profile", "tgc", "--dpi", "100", "--jobs", "1")
    path = out / "bargains" / "png" / "tgc-100" / "deck" / "BG-1.png"
    data = path.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    with Image.open(path) as im:
        im.load()
        assert (im.mode, im.size) == ("RGB", (275, 375))
        assert im.info["dpi"] == pytest.approx((100, 100), abs=0.01)
        again = png_bytes(im, 100)  # the same pixels through the Pillow-image path: the same bytes
        reference = io.BytesIO()
        im.save(reference, format="PNG")  # Pillow's own encoder: the same pixels
    assert again == data
    with Image.open(reference) as ref:
        assert ref.tobytes() == Image.open(io.BytesIO(data)).tobytes()
