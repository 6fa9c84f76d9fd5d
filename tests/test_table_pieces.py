"""Tokens and boards on the virtual tables, made for real and read back: Tabletop Simulator tiles (each
copy, its shape, face above and back below) and boards, Card Game Simulator game boards, playingcards.io
board widgets, and MPC Autofill leaving tokens out; counts, picture sizes and paths checked against the
games (Fairy Bargains' two mats, test_tokens' coins, hex tiles and markers)."""

from __future__ import annotations

import json
import zipfile
from io import BytesIO
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from PIL import Image
from test_tokens import GAME as TOKENS

from pnp.data.reading.boardspec import board_of
from pnp.data.reading.loader import load_game
from pnp.geometry.sizes import card_size
from pnp.output.exports.board_picture import MAX_SIDE, board_components
from pnp.output.exports.tts_pieces import TILE_TYPES, token_dpi

from conftest import make_project, run

DPI = 40
MM_PER_INCH = 25.4
SHAPES = {"coins": ("circle", 16), "tiles": ("hex", 5), "markers": ("rect", 3)}  # shape, copies


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> tuple[Path, dict[str, str]]:
    """Fairy Bargains and the token game exported once to every table that takes boards or tokens."""
    root = make_project(tmp_path_factory.mktemp("pieces") / "proj")
    (root / "card_data" / "tokens.yaml").write_text(TOKENS, encoding="utf-8")
    said = {}
    for target in ("tts", "cgs", "pcio", "mpc-autofill"):
        args = ("export", target, "--dpi", str(DPI), "--jobs", "1", "--project", str(root))
        r = run(*args, "--out", str(root / "out"))
        assert r.code == 0, r.err
        said[target] = r.out
    return root, said


def _file(url: str) -> Path:
    assert url.startswith("file://")
    return Path(unquote(urlparse(url).path))


def _size(path: Path) -> tuple[int, int]:
    with Image.open(path) as im:
        assert im.mode == "RGB"
        return im.size


def _boards(root: Path) -> dict[str, tuple[float, float]]:
    game = load_game(root / "card_data" / "bargains.yaml")
    return {c.key: (board_of(game, c).w, board_of(game, c).h) for c in board_components(game)}


def test_tts_tokens_are_tiles_of_their_shape_with_both_sides(made) -> None:
    root, said = made
    game = load_game(root / "card_data" / "tokens.yaml")
    for key, (shape, copies) in SHAPES.items():
        comp = game.component(key)
        saved = json.loads((root / "out" / "tokens" / "tts" / f"local-{DPI}" / f"{key}.json").read_text())
        (bag,) = saved["ObjectStates"]
        assert bag["Name"] == "Bag" and bag["Description"] == f"{copies} tokens"
        tiles = bag["ContainedObjects"]
        assert len(tiles) == copies == comp.card_count
        assert {t["Name"] for t in tiles} == {"Custom_Tile"}
        assert {t["CustomImage"]["CustomTile"]["Type"] for t in tiles} == {TILE_TYPES[shape]}
        names = {c.name: c.copies for c in comp.cards}
        assert {n: sum(t["Nickname"] == n for t in tiles) for n in names} == names
        assert len({t["GUID"] for t in tiles}) == copies
        size = card_size(comp.card_size)
        expected = (round(size.w / MM_PER_INCH * DPI), round(size.h / MM_PER_INCH * DPI))
        for t in tiles:
            face, back = (_file(t["CustomImage"][k]) for k in ("ImageURL", "ImageSecondaryURL"))
            assert face.parent.name == key and face.name.startswith("TK-") and back.name.startswith("back-")
            assert _size(face) == _size(back) == expected
    assert "token bags and boards" in said["tts"]


def test_tts_boards_are_custom_boards_within_4096_px(made) -> None:
    root, _ = made
    boards = _boards(root)
    assert len(boards) == 2
    for key, (w, h) in boards.items():
        saved = json.loads((root / "out" / "bargains" / "tts" / f"local-{DPI}" / f"{key}.json").read_text())
        (board,) = saved["ObjectStates"]
        assert board["Name"] == "Custom_Board" and board["Locked"] is True
        picture = _file(board["CustomImage"]["ImageURL"])
        px = _size(picture)
        assert max(px) <= MAX_SIDE and px == (int(w / MM_PER_INCH * DPI), int(h / MM_PER_INCH * DPI))


def test_a_large_token_is_drawn_within_4096_px(tmp_path: Path) -> None:
    path = tmp_path / "tokens.yaml"
    path.write_text(TOKENS.replace("card_size: 20x20", "card_size: 200x200"), encoding="utf-8")
    game = load_game(path)
    assert token_dpi(game.component("markers"), 1200) == pytest.approx(MAX_SIDE / (200 / MM_PER_INCH))
    assert token_dpi(game.component("coins"), 300) == 300


def test_tts_pieces_are_the_same_bytes_made_again(made, tmp_path: Path) -> None:
    root, _ = made
    again = tmp_path / "again"
    r = run(
        "export",
        "tts",
        "tokens",
        "--dpi",
        str(DPI),
        "--jobs",
        "1",
        "--project",
        str(root),
        "--out",
        str(again),
    )
    assert r.code == 0, r.err
    first, second = root / "out" / "tokens" / "tts", again / "tokens" / "tts"
    files = sorted(p.relative_to(first) for p in first.rglob("*") if p.is_file())
    assert (
        files == sorted(p.relative_to(second) for p in second.rglob("*") if p.is_file()) and len(files) == 10
    )
    for rel in files:
        a, b = (first / rel).read_bytes(), (second / rel).read_bytes()
        if rel.suffix == ".json":  # pictures named by their absolute path, which differs
            a = a.replace((root / "out").as_uri().encode(), b"OUT")
            b = b.replace(again.as_uri().encode(), b"OUT")
        assert a == b, rel


def test_cgs_places_every_board_with_the_first_card(made) -> None:
    root, _ = made
    home = root / "out" / "bargains" / "cgs" / f"cgs-{DPI}" / "Fairy Bargains"
    spec = json.loads((home / "Fairy Bargains.json").read_text())
    (placed,) = spec["gameBoardCards"]
    cards = {c["id"] for c in json.loads((home / "AllCards.json").read_text())}
    assert placed["card"] in cards and spec["gameBoardImageFileType"] == "png"
    boards = _boards(root)
    assert [b["id"] for b in placed["boards"]] == [f"{key}-board" for key in boards]
    right = 0.0
    for b, (w, h) in zip(placed["boards"], boards.values()):
        assert b["size"] == {"x": round(w / MM_PER_INCH, 3), "y": round(h / MM_PER_INCH, 3)}
        assert b["offsetMin"]["x"] >= right  # side by side, none over another
        right = b["offsetMin"]["x"] + b["size"]["x"]
        assert max(_size(home / "boards" / f"{b['id']}.png")) <= MAX_SIDE
    assert spec["playMatSize"]["x"] >= right and spec["playMatSize"]["y"] >= 36
    tokens = json.loads(
        (root / "out" / "tokens" / "cgs" / f"cgs-{DPI}" / "Token Test" / "Token Test.json").read_text()
    )
    assert "gameBoardCards" not in tokens


def test_pcio_boards_are_board_widgets_with_their_pictures(made) -> None:
    root, _ = made
    with zipfile.ZipFile(root / "out" / "bargains" / "pcio" / f"pcio-{DPI}" / "bargains.pcio") as zf:
        widgets = json.loads(zf.read("widgets.json"))
        boards = [w for w in widgets if w["type"] == "board"]
        assert [w["id"] for w in boards] == [f"{key}-board" for key in _boards(root)]
        for w, (mm_w, mm_h) in zip(boards, _boards(root).values()):
            name = w["boardImage"].removeprefix("package://")
            with Image.open(BytesIO(zf.read(name))) as im:
                assert max(im.size) <= MAX_SIDE
                assert abs(im.size[0] / im.size[1] - mm_w / mm_h) < 0.01
            assert abs(w["width"] / w["height"] - mm_w / mm_h) < 0.01
    assert not any(p.name == ".pcio-boards" for p in (root / "out").rglob("*"))


def test_pcio_double_sided_tokens_keep_both_sides(made) -> None:
    root, _ = made
    with zipfile.ZipFile(root / "out" / "tokens" / "pcio" / f"pcio-{DPI}" / "tokens.pcio") as zf:
        widgets = json.loads(zf.read("widgets.json"))
        names = set(zf.namelist())
    decks = {w["id"]: w for w in widgets if w["type"] == "cardDeck"}
    coins = decks["coins-deck"]["cardTypes"]
    assert {t["back"] for t in coins.values()} == {"package://userassets/coins/back-coinback.png"}
    for t in coins.values():
        assert t["face"] != t["back"]
        assert {t["face"].removeprefix("package://"), t["back"].removeprefix("package://")} <= names
    assert sum(w["type"] == "card" and w["deck"] == "coins-deck" for w in widgets) == 16


def test_mpc_autofill_leaves_tokens_out(made) -> None:
    root, said = made
    assert "Left out (tokens, not cards): TK Coins, TK Land tiles, TK Markers" in said["mpc-autofill"]
    assert not list((root / "out" / "tokens").glob("mpc-autofill/**/*.xml"))
    assert list((root / "out" / "bargains").glob("mpc-autofill/**/*.xml"))
    r = run("export", "mpc-autofill", "tokens", "--project", str(root), "--out", str(root / "out2"))
    assert r.code == 1 and "only tokens" in r.err
