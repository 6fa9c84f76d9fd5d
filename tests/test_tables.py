"""Virtual-table and order-tool exports made for real and read back: Tabletop Playground packages,
Screentop.gg grids, playingcards.io room files, Card Game Simulator folders and MPC Autofill orders,
each checked against the game's cards (counts, copies, picture sizes, paths), and each made twice
to the same bytes."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
import zipfile
from io import BytesIO
from pathlib import Path

import pytest
import test_exports
from PIL import Image
from test_exports import BIG, BIG_COPIES

from pnp.data.reading.loader import load_game
from pnp.geometry.sizes import card_size
from pnp.output.exports.board_picture import board_picture
from pnp.output.exports.profiles import PROFILES, profile_frame
from pnp.output.exports.setup import Setup
from pnp.output.exports.tts import tts_frame

from conftest import make_project, run

bargains = test_exports.bargains  # the same projects as the other exports' tests
meadow = test_exports.meadow


def small_game(name: str, first: int, second: int) -> str:
    """A one-deck game of two poker cards with `first` and `second` copies."""
    return f"""
game: {{name: {name}, tag: TS, players: {{min: 1, max: 2}}}}
style: {{ink: "#1f1a2b", paper: "#fbf6ea", accent: "#5b3f8c"}}
faces:
  plain: {{layout: value, slots: {{value: "{{{{ card.value }}}}", title: "{{{{ card.name }}}}", color: "#8dbf6e"}}}}
backs:
  green: {{layout: back, slots: {{title: Small, color: "#2f5a3a"}}}}
components:
  - {{key: pile, kind: deck, name: Pile, card_size: poker, face: plain, back: green,
     fields: {{value: {{type: int}}}},
     cards: [{{key: a, name: Pebble, value: 1, copies: {first}}}, {{key: b, name: Stone, value: 2, copies: {second}}}]}}
"""


@pytest.fixture(scope="module")
def heap(tmp_path_factory) -> Path:
    """660 cards of two faces: more than one MakePlayingCards order holds (612)."""
    root = make_project(tmp_path_factory.mktemp("heap") / "proj", ())
    (root / "card_data" / "heap.yaml").write_text(small_game("Test Heap", 650, 10), encoding="utf-8")
    return root


def export(project: Path, out: Path, *args: str) -> str:
    r = run("export", *args, "--jobs", "1", "--project", str(project), "--out", str(out))
    assert r.code == 0, r.err
    return r.out


def size_of(path: Path) -> tuple[int, int]:
    with Image.open(path) as im:
        assert im.mode == "RGB"
        return im.size


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


# -- MPC Autofill --------------------------------------------------------------------------


def test_mpc_autofill_orders_split_at_612(heap: Path, tmp_path: Path) -> None:
    said = export(heap, tmp_path / "out", "mpc-autofill", "--dpi", "40")
    deck = tmp_path / "out" / "heap" / "mpc-autofill" / "mpc-40" / "pile"
    assert "Wrote 2 MPC Autofill order(s)" in said and "612" in said
    orders = [ET.parse(deck / f"pile-order{n}.xml").getroot() for n in (1, 2)]
    assert not (deck / "pile-order3.xml").exists()
    assert [(o.findtext("details/quantity"), o.findtext("details/bracket")) for o in orders] == [
        ("612", "612"),
        ("48", "55"),
    ]
    counts: dict[str, int] = {}
    for order in orders:
        quantity = int(order.findtext("details/quantity") or 0)
        taken = [int(s) for card in order.iter("card") for s in (card.findtext("slots") or "").split(",")]
        assert sorted(taken) == list(range(quantity))  # every slot filled once, numbered from 0
        for card in order.find("fronts") or []:
            picture = Path(card.findtext("id") or "")
            assert picture.is_absolute() and picture.is_file(), picture
            counts[card.findtext("query") or ""] = counts.get(card.findtext("query") or "", 0) + len(
                (card.findtext("slots") or "").split(",")
            )
        back = Path(order.findtext("cardback") or "")
        assert back.is_file() and back.parent.name == "back"
        assert order.find("backs") is None  # one back for the whole deck
    assert counts == {"Pebble": 650, "Stone": 10}
    frame = profile_frame(card_size("poker"), PROFILES["mpc"], 40)
    for picture in (*deck.glob("front/*.png"), *deck.glob("back/*.png")):
        assert size_of(picture) == (frame.width, frame.height)
    assert len(list(deck.glob("front/*.png"))) == 2  # copies share one picture


def test_mpc_autofill_names_other_backs(meadow: Path, tmp_path: Path) -> None:
    export(meadow, tmp_path / "out", "mpc-autofill", "meadow", "--dpi", "30")
    order = ET.parse(tmp_path / "out" / "meadow" / "mpc-autofill" / "mpc-30" / "tokens" / "tokens-order1.xml")
    root = order.getroot()
    assert root.findtext("details/quantity") == "6"  # 2 sets x 3 copies
    backs = root.find("backs")
    assert backs is not None
    named = {Path(c.findtext("id") or "").name: c.findtext("slots") for c in backs}
    # the most used back is the card back; the pond stones' backs and the other set's are named by slot
    assert Path(root.findtext("cardback") or "").name not in named
    assert sum(len((s or "").split(",")) for s in named.values()) == 4
    assert all(Path(c.findtext("id") or "").is_file() for c in backs)


# -- Tabletop Playground ---------------------------------------------------------------------


def test_ttp_package_loads_as_is(meadow: Path, tmp_path: Path) -> None:
    said = export(meadow, tmp_path / "out", "ttp", "meadow", "--dpi", "40")
    package = tmp_path / "out" / "meadow" / "ttp" / "ttp-40" / "Test_Meadow"
    manifest = json.loads((package / "Manifest.json").read_text(encoding="utf-8"))
    assert manifest["Name"] == "Test Meadow" and re.fullmatch(r"[0-9A-F]{32}", manifest["GUID"])
    templates = sorted((package / "Templates").glob("*.json"))
    assert [t.name for t in templates] == [
        "big-1.json",
        "big-2.json",
        "tokens-1.json",
        "tokens-2.json",
        "tokens-3.json",
        "tokens-4.json",
    ]
    assert "Wrote 6 Tabletop Playground card template(s)" in said
    data = [json.loads(t.read_text(encoding="utf-8")) for t in templates]
    assert len({d["GUID"] for d in data}) == 6 and manifest["GUID"] not in {d["GUID"] for d in data}
    big = [d for d in data if d["Name"].startswith("Test Meadow: Big deck")]
    assert sum(len(d["Indices"]) for d in big) == BIG_COPIES
    assert sum(len(d["CardNames"]) for d in big) == BIG
    assert big[0]["CardNames"]["0"] == "Card 1" and big[0]["CardMetadata"]["0"] == "TM-c1"
    assert big[0]["Indices"][:4] == [0, 0, 0, 1]  # card 1 has three copies
    cell = tts_frame(card_size("poker"), 40)
    for d in data:
        assert d["Type"] == "Card" and d["BackIndex"] == -2
        face, back = package / "Textures" / d["FrontTexture"], package / "Textures" / d["BackTexture"]
        w, h = size_of(face)
        assert w <= 4096 and h <= 4096 and d["NumHorizontal"] <= 10 and d["NumVertical"] <= 7
        if d in big:
            assert (w, h) == (d["NumHorizontal"] * cell.width, d["NumVertical"] * cell.height)
            assert (d["Width"], d["Height"]) == (6.3, 8.8)  # centimetres
        assert size_of(back) == (w // d["NumHorizontal"], h // d["NumVertical"])
        assert max(d["Indices"]) < d["NumHorizontal"] * d["NumVertical"]
    tokens = [d for d in data if d not in big]
    assert len({d["BackTexture"] for d in tokens}) == 4  # each side of a token keeps its own back


# -- Screentop.gg ----------------------------------------------------------------------------


def test_screentop_grids_and_description(meadow: Path, tmp_path: Path) -> None:
    export(meadow, tmp_path / "out", "screentop", "meadow", "--dpi", "40")
    where = tmp_path / "out" / "meadow" / "screentop" / "screentop-40"
    deck = json.loads((where / "big.json").read_text(encoding="utf-8"))
    assert deck["cards"] == BIG_COPIES and deck["deck"] == "Big deck"
    assert [(s["columns"], s["rows"]) for s in deck["sheets"]] == [(10, 7), (3, 2)]
    assert sum(c["copies"] for s in deck["sheets"] for c in s["cards"]) == BIG_COPIES
    cell = tts_frame(card_size("poker"), 40)
    for s in deck["sheets"]:
        assert s["card_px"] == [cell.width, cell.height]
        assert size_of(where / s["image"]) == (s["columns"] * cell.width, s["rows"] * cell.height)
        assert size_of(where / s["back"]) == (cell.width, cell.height)
        assert [c["slot"] for c in s["cards"]] == list(range(len(s["cards"])))


# -- playingcards.io -------------------------------------------------------------------------


def test_pcio_room_file(meadow: Path, tmp_path: Path) -> None:
    export(meadow, tmp_path / "out", "pcio", "meadow", "--dpi", "30")
    path = tmp_path / "out" / "meadow" / "pcio" / "pcio-30" / "meadow.pcio"
    with zipfile.ZipFile(path) as zf:
        names = set(zf.namelist())
        widgets = json.loads(zf.read("widgets.json"))
        pictures = {n: Image.open(BytesIO(zf.read(n))).size for n in names if n.endswith(".png")}
    decks = {w["id"]: w for w in widgets if w["type"] == "cardDeck"}
    cards = [w for w in widgets if w["type"] == "card"]
    assert set(decks) == {"big-deck", "tokens-deck"}
    assert sum(1 for c in cards if c["deck"] == "big-deck") == BIG_COPIES
    assert sum(1 for c in cards if c["deck"] == "tokens-deck") == 6
    assert len(decks["big-deck"]["cardTypes"]) == BIG
    assert len({w["id"] for w in widgets}) == len(widgets)
    for deck in decks.values():
        for kind in deck["cardTypes"].values():
            for side in ("face", "back"):
                assert kind[side].startswith("package://") and kind[side][10:] in names
    for c in cards:
        assert c["cardType"] in decks[c["deck"]]["cardTypes"]
    poker = profile_frame(card_size("poker"), PROFILES["plain"], 30)
    assert pictures["userassets/big/TM-c1.png"] == (poker.width, poker.height)
    assert len(pictures) == BIG + 1 + 2 * 2 + 2 * 2


# -- Card Game Simulator ---------------------------------------------------------------------


def test_cgs_game_folder(bargains: Path, tmp_path: Path) -> None:
    export(bargains, tmp_path / "out", "cgs", "bargains", "--dpi", "40")
    home = tmp_path / "out" / "bargains" / "cgs" / "cgs-40" / "Fairy Bargains"
    spec = json.loads((home / "Fairy Bargains.json").read_text(encoding="utf-8"))
    assert spec["name"] == "Fairy Bargains" and spec["autoUpdate"] == -1
    assert spec["cardSize"] == {"x": 2.48, "y": 3.465}  # 63 x 88 mm in inches
    cards = json.loads((home / "AllCards.json").read_text(encoding="utf-8"))
    sets = json.loads((home / "AllSets.json").read_text(encoding="utf-8"))
    assert sets == [{"code": "deck", "name": "Bargain deck"}]
    assert [c["code"] for c in cards] == ["BG-1", "BG-3", "BG-5", "BG-7", "BG-10"]
    frame = profile_frame(card_size("poker"), PROFILES["plain"], 40)
    for c in cards:
        assert size_of(home / "sets" / c["set"] / f"{c['id']}.png") == (frame.width, frame.height)
    assert size_of(home / "CardBack.png") == (frame.width, frame.height)
    lines = (home / "decks" / "Bargain_deck.txt").read_text(encoding="utf-8").splitlines()
    assert lines[0] == "13 [deck-BG-1] Dewdrop (deck)"
    assert sum(int(line.split()[0]) for line in lines) == 65


# -- every target ----------------------------------------------------------------------------


@pytest.mark.parametrize("target", ["ttp", "screentop", "pcio", "cgs", "mpc-autofill"])
def test_same_input_same_bytes(bargains: Path, tmp_path: Path, target: str) -> None:
    out = tmp_path / "out"
    export(bargains, out, target, "bargains", "--dpi", "30")
    first = snapshot(out / "bargains" / target)
    export(bargains, out, target, "bargains", "--dpi", "30")
    assert snapshot(out / "bargains" / target) == first and first


# -- boards ----------------------------------------------------------------------------------


def test_boards_on_ttp_and_screentop(bargains: Path, tmp_path: Path) -> None:
    said = export(bargains, tmp_path / "out", "ttp", "bargains", "--dpi", "60")
    assert "1 Tabletop Playground card template(s) and 2 board(s)" in said
    package = tmp_path / "out" / "bargains" / "ttp" / "ttp-60" / "Fairy_Bargains"
    for key in ("pot-mat", "solitaire-mat"):
        board = json.loads((package / "Templates" / f"{key}.json").read_text(encoding="utf-8"))
        assert board["Indices"] == [0] and board["BackIndex"] == -1 and board["CanStack"] is False
        w, h = size_of(package / "Textures" / board["FrontTexture"])
        assert max(w, h) <= 4096
        assert w / h == pytest.approx(board["Width"] / board["Height"], rel=0.01)
        assert (w, h) == (int(board["Width"] / 2.54 * 60), int(board["Height"] / 2.54 * 60))  # 60 dpi
    export(bargains, tmp_path / "out", "screentop", "bargains", "--dpi", "60")
    where = tmp_path / "out" / "bargains" / "screentop" / "screentop-60"
    pot = json.loads((where / "pot-mat.json").read_text(encoding="utf-8"))
    assert pot["board"] and size_of(where / pot["image"]) == tuple(pot["px"])
    assert pot["px"][0] / pot["px"][1] == pytest.approx(pot["mm"][0] / pot["mm"][1], rel=0.01)


def test_a_large_board_stays_within_4096_px(bargains: Path) -> None:
    game = load_game(bargains / "card_data" / "bargains.yaml")
    scene = Setup((game,), str(bargains / "fonts")).scenes()[game.slug]
    picture = board_picture(scene, game.component("solitaire-mat"), 600)
    assert max(picture.px) == 4096 and size_of_png(picture.png) == picture.px
    assert picture.px[0] / picture.px[1] == pytest.approx(picture.mm[0] / picture.mm[1], rel=0.01)


def size_of_png(data: bytes) -> tuple[int, int]:
    with Image.open(BytesIO(data)) as im:
        return im.size


def test_pcio_refuses_a_room_too_full(tmp_path: Path) -> None:
    root = make_project(tmp_path / "proj", ())
    (root / "card_data" / "pile.yaml").write_text(small_game("Test Pile", 1250, 1), encoding="utf-8")
    r = run(
        "export", "pcio", "--dpi", "30", "--jobs", "1", "--project", str(root), "--out", str(tmp_path / "out")
    )
    assert r.code == 2
    assert "card_data/pile.yaml: pcio: 1253 widgets" in r.err and "(1200)" in r.err
    assert not (tmp_path / "out" / "pile" / "pcio").exists()
