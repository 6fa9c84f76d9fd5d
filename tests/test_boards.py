"""Boards: drawn from their database description (counted in the PDF), tiled with aligned overlaps."""

from __future__ import annotations

import copy
import dataclasses
from pathlib import Path

import pdfplumber
import pypdfium2 as pdfium
import pytest
from PIL import ImageChops, ImageStat

from pnp.data.format.errors import InputError
from pnp.data.reading.boardspec import parse_board
from pnp.data.reading.loader import load_game
from pnp.geometry.sizes import MM, paper_size
from pnp.output.boards import (
    board_step,
    cross_points,
    plan_for,
    tile_origin,
    write_board,
)
from pnp.output.sheets import SheetOptions
from pnp.output.steps import BuildOptions
from pnp.resolve.fonts import Fonts

from conftest import ROOT

MAP = """
game: {name: Map Test, tag: MT, players: {min: 2, max: 2}}
backs:
  b: {layout: back, slots: {title: T}}
faces:
  f: {layout: value, slots: {value: "{{ card.key }}"}}
components:
  - key: deck
    kind: deck
    name: Deck
    card_size: 50x80
    face: f
    back: b
    cards: [{key: "1", name: One}]
  - key: map
    kind: board
    name: Test map
    board:
      size: 340x250
      title: Test Map
      sides:
        A: {label: Side A, color: "#2c5d9e"}
        B: {label: Side B, color: "#9e3a2c", flip: true}
      areas:
        - {key: stock, kind: pile, label: Stock, x: 20, y: 40, card: deck}
      positions:
POSITIONS
      links:
LINKS
"""


def map_yaml(n: int) -> str:
    pos, links = [], []
    for i in range(n):
        pos.append(f"        - {{key: A{i}, side: A, index: {i}, x: {90 + i * 60}, y: 150, card: deck}}")
        pos.append(
            f"        - {{key: B{i}, side: B, index: {i}, x: {90 + (n - 1 - i) * 60}, y: 40, card: deck}}"
        )
    for s in "AB":
        links += [f"        - [{s}{i}, {s}{i + 1}]" for i in range(n - 1)]
    links += [f"        - [A{i}, B{n - 1 - i}, attack]" for i in range(n)]
    return MAP.replace("POSITIONS", "\n".join(pos)).replace("LINKS", "\n".join(links))


@pytest.fixture(scope="module")
def fonts() -> Fonts:
    return Fonts.load(ROOT / "fonts")


def load(tmp_path: Path, text: str):
    (tmp_path / "card_data").mkdir(exist_ok=True)
    path = tmp_path / "card_data" / "maptest.yaml"
    path.write_text(text, encoding="utf-8")
    return load_game(path)


def card_outlines(page, w_mm: float, h_mm: float) -> list[tuple[float, float]]:
    """Lower-left corners (mm from the page's lower-left) of drawn shapes exactly one card in size."""
    out = []
    for obj in page.curves + page.rects:
        if abs(obj["width"] - w_mm * MM) < 0.2 and abs(obj["height"] - h_mm * MM) < 0.2 and obj.get("stroke"):
            out.append((round(obj["x0"] / MM, 1), round((page.height - obj["bottom"]) / MM, 1)))
    return out


@pytest.mark.parametrize("n", [3, 4])
def test_positions_drawn_as_the_database_says(tmp_path: Path, fonts: Fonts, n: int) -> None:
    game = load(tmp_path, map_yaml(n))
    comp = game.component("map")
    spec = parse_board(game, comp)
    paper = paper_size("600x400")
    plan = plan_for(spec, paper)
    assert plan.whole
    pdf = tmp_path / "map.pdf"
    assert write_board(pdf, game, comp, spec, plan, paper, fonts) == 1
    ox, oy = tile_origin(plan, plan.tiles[0])
    with pdfplumber.open(pdf) as doc:
        page = doc.pages[0]
        words = {w["text"] for w in page.extract_words()}
        words |= {w[::-1] for w in words}  # labels on the far side are printed upside down
        outlines = card_outlines(page, 50, 80)
    keys = {p.key for p in spec.positions}
    assert len(keys) == 2 * n
    assert keys <= words  # every position carries its label
    # One dashed card outline per position, exactly where the database puts it.
    expected = {(round(ox + p.x, 1), round(oy + spec.h - p.y - p.h, 1)) for p in spec.positions}
    found = set(outlines)
    assert expected <= found
    # Nothing else is card-sized but the stock pile (its space plus two stacked outlines behind it).
    assert len(found) == len(expected) + 3
    assert spec.neighbours("A0", "attack") == [f"B{n - 1}"]


def test_tiles_overlap_and_align(tmp_path: Path, fonts: Fonts) -> None:
    game = load(tmp_path, map_yaml(4))
    comp = game.component("map")
    spec = parse_board(game, comp)
    paper = paper_size("a4")
    plan = plan_for(spec, paper)
    assert plan.cols * plan.rows == len(plan.tiles) > 1
    pdf = tmp_path / "tiles.pdf"
    write_board(pdf, game, comp, spec, plan, paper, fonts)
    crosses = cross_points(plan)
    assert crosses
    # Each alignment cross lies inside an overlap, so it is printed on at least two tiles.
    for x, y in crosses:
        holders = [t for t in plan.tiles if t.x < x < t.x + t.w and t.y < y < t.y + t.h]
        assert len(holders) >= 2
    # Pixels: the strip two horizontal neighbours share looks the same on both sheets.
    dpi = 60
    doc = pdfium.PdfDocument(str(pdf))
    try:
        left, right = plan.tiles[0], plan.tiles[1]
        imgs = [doc[i].render(scale=dpi / 72).to_pil().convert("L") for i in (0, 1)]
    finally:
        doc.close()
    px = dpi / 25.4

    def strip(img, tile, x0, x1):
        ox, oy = tile_origin(plan, tile)
        page_h = img.height / px
        top = page_h - (oy + tile.h - 2)
        bottom = page_h - (oy + 2)
        return img.crop(
            (
                round((ox + x0 - tile.x) * px),
                round(top * px),
                round((ox + x1 - tile.x) * px),
                round(bottom * px),
            )
        )

    a = strip(imgs[0], left, right.x + 0.6, right.x + 4)
    b = strip(imgs[1], right, right.x + 0.6, right.x + 4)
    assert a.size == b.size
    diff = ImageStat.Stat(ImageChops.difference(a, b)).mean[0]
    assert diff < 6, diff
    # And the strip is not blank: the board really is there.
    lo, hi = a.getextrema()
    assert hi - lo > 40
    with pdfplumber.open(pdf) as d:
        labels = [" ".join(w["text"] for w in p.extract_words()) for p in d.pages]
    for t, text in zip(plan.tiles, labels):
        assert t.label in text and f"of {len(plan.tiles)}" in text


def test_board_paper_prints_whole(tmp_path: Path) -> None:
    game = load_game(ROOT / "card_data" / "bargains.yaml")
    comp = game.component("pot-mat")
    a4 = BuildOptions(SheetOptions(paper_size("a4")))
    a3 = BuildOptions(SheetOptions(paper_size("a4")), board_paper=paper_size("a3"))
    assert board_step(game, comp, a4).weight > 1
    assert board_step(game, comp, a3).weight == 1


def test_bargains_boards_build(tmp_path: Path, fonts: Fonts) -> None:
    game = load_game(ROOT / "card_data" / "bargains.yaml")
    comp = game.component("solitaire-mat")
    spec = parse_board(game, comp)
    piles = [a for a in spec.areas if a.key.startswith("pile-")]
    assert (
        len(piles) == game.facts["variants"]["solitaire"]["piles"]["harder"] == 7
    )  # a pile per harder-game pile
    step = board_step(game, comp, BuildOptions(SheetOptions(paper_size("a4"))))
    out = step.run(tmp_path, fonts, lambda: None)
    assert out.kind == "board" and out.pages == step.weight
    with pdfplumber.open(tmp_path / out.path) as doc:
        text = " ".join(p.extract_text() or "" for p in doc.pages)
    for a in piles:
        assert a.label in text


def test_mats_lay_out_as_many_spaces_as_the_facts_say() -> None:
    """The solitaire mat's piles, the Fairy Pot's and the market's outlines follow the facts."""
    bargains = load_game(ROOT / "card_data" / "bargains.yaml")
    facts = copy.deepcopy(bargains.facts)
    facts["variants"]["solitaire"]["piles"] = {"easier": 3, "normal": 4, "harder": 5}
    facts["pot_size"] = 4
    game = dataclasses.replace(bargains, facts=facts, unsaved=True)
    mat = parse_board(game, game.component("solitaire-mat"))
    piles = [a for a in mat.areas if a.key.startswith("pile-")]
    assert [a.label for a in piles] == ["Pile 1", "Pile 2", "Pile 3", "Pile 4", "Pile 5"]
    assert [a.x for a in piles] == [20 + 71 * i for i in range(5)]
    assert piles[3].note == "4 cards; leave it empty for the easier game"
    assert piles[4].note == "5 cards; the harder game only" and piles[2].note == "3 cards"
    pot = next(a for a in parse_board(game, game.component("pot-mat")).areas if a.key == "pot")
    assert pot.slots == 4
    feenbalz = load_game(ROOT / "card_data" / "feenbalz.yaml")
    game = dataclasses.replace(feenbalz, facts={**feenbalz.facts, "market": 6}, unsaved=True)
    market = parse_board(game, game.component("market-mat"))
    assert next(a for a in market.areas if a.key == "market").slots == 6
    assert market.subtitle.startswith("six objects on offer")


@pytest.mark.parametrize(
    "area,message",
    [
        ('{key: p, kind: pile, label: "P{{ n }}", x: 20, y: 40, card: deck, repeat: 9, step: 60}', "outside"),
        ('{key: p, kind: pile, label: P, x: 20, y: 40, card: deck, repeat: "{{ 0 }}", step: 60}', "repeat"),
        ('{key: p, kind: zone, label: P, x: 20, y: 40, w: 60, h: 90, card: deck, slots: "many"}', "slots"),
        ("{key: p, kind: pile, label: P, x: 20, y: 40, card: deck, repeat: 60, step: 9000}", "step"),
    ],
)
def test_repeated_and_counted_spaces_are_checked(tmp_path: Path, area: str, message: str) -> None:
    text = map_yaml(3).replace(
        "        - {key: stock, kind: pile, label: Stock, x: 20, y: 40, card: deck}", "        - " + area
    )
    game = load(tmp_path, text)
    with pytest.raises(InputError) as err:
        parse_board(game, game.component("map"))
    line = int(str(err.value).split("maptest.yaml:")[1].split(":")[0])
    assert text.split("\n")[line - 1].strip() == "- " + area
    assert message in str(err.value)


@pytest.mark.parametrize(
    "change,field",
    [
        ("      size: 340x250", "size"),
        ("        - {key: stock, kind: pile, label: Stock, x: 20, y: 40, card: deck, colour: red}", "colour"),
        ("        - {key: stock, kind: pile, label: Stock, x: 320, y: 40, card: deck}", "outside"),
        ("        - [A0, Z9]", "Z9"),
        ("        - {key: stock, kind: pile, label: Stock, x: 20, y: 40, card: deck, color: back}", "color"),
        ("        - {key: stock, kind: zone, label: Stock, x: 20, y: 40, w: 30, h: 0}", "h"),
    ],
)
def test_board_errors_name_file_and_line(tmp_path: Path, change: str, field: str) -> None:
    text = map_yaml(3)
    if field == "size":
        text = text.replace(change, "      size: huge")
    elif field == "Z9":
        text = text.replace("        - [A0, A1]", change)
    else:
        text = text.replace(
            "        - {key: stock, kind: pile, label: Stock, x: 20, y: 40, card: deck}", change
        )
    with pytest.raises(InputError) as err:  # the schema (types, keys) or the layout (sizes, links)
        game = load(tmp_path, text)
        parse_board(game, game.component("map"))
    message = str(err.value)
    assert "maptest.yaml:" in message
    line = int(message.split("maptest.yaml:")[1].split(":")[0])
    changed = change.strip() if field != "size" else "size: huge"
    assert text.split("\n")[line - 1].strip() == changed, (message, text.split("\n")[line - 1])
    assert field.split()[0] in message or field == "outside" and "outside" in message


def test_schema_describes_boards_and_every_bundled_board_validates() -> None:
    """`pnp schema` holds the board format (from the same dataclasses the loader reads), so an editor
    checks a board as it is typed: every bundled board passes, a misspelt key or a short link does not."""
    import json

    import jsonschema
    import yaml

    from conftest import ROOT, run

    schema = json.loads(run("schema").out)
    assert {"Board", "Area", "Position", "Side", "Link"} <= set(schema["$defs"])
    validator = jsonschema.Draft202012Validator(schema)
    boards = 0
    for path in sorted((ROOT / "card_data").glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert not list(validator.iter_errors(data)), path.name
        boards += sum(1 for c in data["components"] if c.get("board"))
    assert boards >= 4
    data = yaml.safe_load((ROOT / "card_data" / "tarot.yaml").read_text(encoding="utf-8"))
    board = next(c["board"] for c in data["components"] if c.get("board"))
    board["links"][0] = [board["links"][0][0]]
    assert list(validator.iter_errors(data))
    board["links"].pop(0)
    board["areas" if board.get("areas") else "positions"][0]["colour"] = "red"
    assert any("colour" in e.message for e in validator.iter_errors(data))


def _page_streams(pdf: Path) -> list[int]:
    from pypdf import PdfReader

    return [len(page.get_contents().get_data()) for page in PdfReader(pdf).pages]


def test_a_page_of_a_huge_board_costs_what_a_page_of_a_small_one_does(tmp_path: Path, fonts: Fonts) -> None:
    """Each tile page draws only its own crosses and places the assembly map drawn once, so a
    2 m board's pages are no bigger than a small board's (they held every cross and map cell)."""
    sizes = {}
    for label, size in (("small", "600x700"), ("huge", "2000x2000")):
        (tmp_path / label).mkdir()
        game = load(tmp_path / label, map_yaml(4).replace("size: 340x250", f"size: {size}"))
        comp = game.component("map")
        spec = parse_board(game, comp)
        plan = plan_for(spec, paper_size("a4"))
        pdf = tmp_path / f"{label}.pdf"
        write_board(pdf, game, comp, spec, plan, paper_size("a4"), fonts)
        sizes[label] = (len(plan.tiles), max(_page_streams(pdf)))
    (small_tiles, small_page), (huge_tiles, huge_page) = sizes["small"], sizes["huge"]
    assert small_tiles >= 9 and huge_tiles > 6 * small_tiles  # both have middle tiles, crossed on four sides
    assert huge_page < 1.5 * small_page, sizes
