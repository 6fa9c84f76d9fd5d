"""Layouts as geometry data: `extends` and named frames checked and drawn, and the page's layout editor
writing moved boxes back into the YAML (only the numbers that moved, in their units; a built-in
layout's element as an override in the user's design; a file changed on disk is not overwritten)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from test_serve_editor import Page, changed_lines
from test_serve_safety import request

from pnp.data.editing.layouts import override, set_geometry, unit_of, written
from pnp.data.reading.project import Project
from pnp.serve.server import make_server, serve, stop

from conftest import run

STARTER_BACK = "    layout: back             # a built-in layout: its slots are listed by `pnp layouts`\n"


@pytest.fixture(scope="module")
def starter(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("starter") / "proj"
    assert run("new", str(folder)).code == 0
    return folder


def _copy(starter: Path, tmp_path: Path) -> Path:
    import shutil

    shutil.copytree(starter, tmp_path / "proj")
    return tmp_path / "proj"


def _database(proj: Path) -> Path:
    return proj / "card_data" / "lanterns.yaml"


def _edit(proj: Path, old: str, new: str) -> None:
    path = _database(proj)
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _check(proj: Path) -> Any:
    return run("check", "--project", str(proj))


# -- extends and frames, checked when a side is resolved ----------------------------------------------


@pytest.mark.parametrize(
    ("extends", "elements", "message"),
    [
        ("bak", "[]", "backs.night.extends: back of deck: no layout 'bak' to extend"),
        ("backs.night", "[]", "backs.night.extends: back of deck: 'backs.night' extends back to itself"),
        (
            "back",
            "[{name: titel, y: 20}]",
            "backs.night.elements[0].name: back of deck: the layout it extends has no element named 'titel'",
        ),
        ("back", "[{y: 20}]", "backs.night.elements[0].type: an element needs 'type'"),
        (
            "back",
            "[{name: a, type: rect}, {name: a, type: rect}]",
            "backs.night.elements: back of deck: two elements are named 'a'",
        ),
        ("back", "[{name: title, y: 2zz}]", "backs.night.elements[0].y: expected a length"),
    ],
)
def test_extends_problems_name_the_line(
    starter: Path, tmp_path: Path, extends: str, elements: str, message: str
) -> None:
    proj = _copy(starter, tmp_path)
    _edit(proj, STARTER_BACK, f"    layout: custom\n    extends: {extends}\n    elements: {elements}\n")
    result = _check(proj)
    assert result.code != 0
    assert message in (result.out + result.err), result.out + result.err
    assert "card_data/lanterns.yaml:7" in (result.out + result.err)  # the design's lines (74 to 77)
    assert "Traceback" not in (result.out + result.err)


def _side(proj: Path, which: str) -> dict[str, Any]:
    """The first card's face or back resolved: its elements (and its groups' children) by name."""
    from pnp.data.reading.loader import load_game
    from pnp.draw.images import Artwork
    from pnp.resolve.cards import back_job, face_job, printed_cards
    from pnp.resolve.fonts import Fonts
    from pnp.resolve.sides import resolve_side, trim_of

    game = load_game(_database(proj), "card_data/lanterns.yaml", proj)
    comp = game.components[0]
    _, job = (face_job if which == "face" else back_job)(game, comp, printed_cards(game, comp)[0])
    art = Artwork.for_project(proj, game.symbols)
    drawn = resolve_side(game, job, Fonts.load(proj / "fonts"), art, trim_of(game, comp, job, 3.0, "full"))
    inner = [e for g in drawn.elements if g.type == "group" for e in g.elements]
    return {e.name or f"#{i}": e for i, e in enumerate([*drawn.elements, *inner])}


def test_an_override_moves_only_that_element(starter: Path, tmp_path: Path) -> None:
    """The back extending `back` with its title at the middle of the medallion frame (the card's
    middle, 44 mm down a poker card) draws the title there, and everything else as before."""
    proj = _copy(starter, tmp_path)
    before = _side(proj, "back")
    _edit(
        proj,
        STARTER_BACK,
        "    layout: custom\n    extends: back\n    elements:\n      - {name: title, y: 50%}\n",
    )
    after = _side(proj, "back")
    assert (after["title"].frame, after["title"].y) == ("trim", pytest.approx(44.0))
    assert before["title"].y != pytest.approx(44.0)
    for name in ("emblem", "subtitle", "oval"):
        assert after[name] == before[name]


def test_named_frames_place_elements(starter: Path, tmp_path: Path) -> None:
    proj = _copy(starter, tmp_path)
    _edit(
        proj,
        "    elements:\n      - {type: rect, frame: bleed,",
        "    frames:\n      top: {frame: safe, x: 10%, y: 4, w: 20, h: 50%}\n"
        "    elements:\n      - {name: dot, type: ellipse, frame: top, x: 50%, y: 2, w: 4, h: 4, fill: red}\n"
        "      - {type: rect, frame: bleed,",
    )
    assert _check(proj).code == 0
    dot = _side(proj, "face")["dot"]  # safe is 3 mm in; the frame 10 % of the safe width (57 mm) in
    assert (dot.frame, dot.x, dot.y, dot.w) == ("safe", pytest.approx(5.7 + 10), pytest.approx(6.0), 4.0)
    _edit(proj, "frame: top, x", "frame: tpo, x")
    result = _check(proj)
    assert (
        "lanterns.yaml:60: faces.lantern.elements[0].frame: card LM-moth: no frame 'tpo'; "
        "frames: trim, safe, bleed, top"
    ) in (result.out + result.err)


def test_built_in_element_names_are_unique() -> None:
    from pnp.data.reading.layouts import builtin
    from pnp.resolve.extends import twice_named

    assert {name: twice_named(layout.elements) for name, layout in builtin().items()} == dict.fromkeys(
        builtin()
    )
    assert len([n for layout in builtin().values() for n in _all_names(layout.elements)]) > 100


def _all_names(elements: Any) -> list[str]:
    return [n for el in elements for n in ([el.name] if el.name else []) + _all_names(el.elements)]


def test_frames_inset_and_nest() -> None:
    from pnp.data.format.layout import Frame
    from pnp.data.templating.elements import frames

    card = {"w": 63.0, "h": 88.0, "safe": 3.0, "bleed": 3.0}
    placed = frames(
        [
            ("rule", Frame(inset=3.2)),
            ("box", Frame(frame="safe", x="10%", y=4, w=20, h="50%")),
            ("halo", Frame(frame="box", inset=-1.2)),
            ("field", Frame(bottom=8)),
            ("inner", Frame(frame="field", inset=5.2, bottom=1.2)),
        ],
        card,
        {},
    )
    assert placed["rule"] == ("trim", 3.2, 3.2, pytest.approx(56.6), pytest.approx(81.6))
    assert placed["box"] == ("safe", pytest.approx(5.7), 4.0, 20.0, 41.0)
    assert placed["halo"] == (
        "safe",
        pytest.approx(4.5),
        pytest.approx(2.8),
        pytest.approx(22.4),
        pytest.approx(43.4),
    )
    with pytest.raises(
        ValueError, match="frames.x.frame: no frame 'boxx' before it; frames: trim, safe, bleed"
    ):
        frames([("x", Frame(frame="boxx"))], card, {})


# -- write-back, text level ------------------------------------------------------------------------


def test_units_are_kept() -> None:
    assert [unit_of(v) for v in (3, 2.5, "4mm", "1in", "12pt", "50%", "{{ x }}")] == [
        "",
        "",
        "mm",
        "in",
        "pt",
        "%",
        None,
    ]
    assert written(17.5, "", 0) == 17.5 and written(20.0, "", 0) == 20
    assert written(25.4, "in", 0) == "1in" and written(12.7, "cm", 0) == "1.27cm"
    assert written(15, "%", 60) == "25%" and written(25.4 / 72 * 9, "pt", 0) == "9pt"


def test_set_geometry_changes_one_number(starter: Path) -> None:
    data = _database(starter).read_bytes()
    new = set_geometry(data, "faces.lantern", 3, {"x": 7.5})
    diff = changed_lines(data.decode(), new.decode())
    assert len(diff) == 2 and "x: 2.5" in diff[0] and "x: 7.5" in diff[1]
    assert diff[0].replace("x: 2.5", "x: 7.5")[1:] == diff[1][1:]


def test_override_turns_a_built_in_design_into_an_extension(starter: Path) -> None:
    data = _database(starter).read_bytes()
    once = override(data, "backs.night", "title", "back", {"y": 30})
    text = once.decode()
    assert "    layout: custom             # a built-in layout" in text
    assert "    extends: back\n" in text and "      - {name: title, y: 30}\n" in text
    twice = override(once, "backs.night", "title", "back", {"y": 31.5})
    assert changed_lines(once.decode(), twice.decode()) == [
        "-      - {name: title, y: 30}",
        "+      - {name: title, y: 31.5}",
    ]
    third = override(twice, "backs.night", "emblem", "back", {"x": "12mm"})
    assert changed_lines(twice.decode(), third.decode()) == ["+      - {name: emblem, x: 12mm}"]


# -- through HTTP ----------------------------------------------------------------------------------


def _get(page: Page, path: str) -> tuple[int, Any]:
    status, body = request(page.port, "GET", path)
    return status, json.loads(body)


@pytest.fixture
def served(starter: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    proj = _copy(starter, tmp_path)
    server, app = make_server(Project.at(proj), proj / "output", 0)
    serve(server, app)
    yield proj, Page(server.server_address[1], app.guard.token), app  # pytest stops it even when a test fails
    stop(server, app)


def _pictures(app: Any, side: str) -> list[str]:
    return [
        t["id"]
        for g in app.state()["games"]
        for c in g["components"]
        for t in c["tiles"]
        if t["side"] == side
    ]


def test_moving_outlines_writes_numbers(served: Any) -> None:
    proj, page, app = served
    face = _pictures(app, "face")[0]
    status, outline = _get(page, f"/api/layout?tile={face}")
    assert status == 200, outline
    assert outline["where"] == "faces.lantern" and outline["trim"]["safe"] == 3.0
    x, top, w, h = outline[
        "code"
    ]  # the collation code: centred, its baseline 0.9 mm above the safe zone's foot
    assert x + w / 2 == pytest.approx(31.5) and top + 0.75 * h == pytest.approx(88 - 3 - 0.9) and 5 < w < 25
    value = next(e for e in outline["elements"] if e["ref"] == {"index": 3})
    assert value["movable"] and value["sizable"] and value["box"] == pytest.approx([5.5, 5.5, 9, 8])
    before = _database(proj).read_text(encoding="utf-8")
    box = [value["box"][0] + 5, *value["box"][1:]]
    status, answer = page.post(
        "/api/layout",
        {"tile": face, "digest": outline["digest"], "changes": [{"ref": {"index": 3}, "box": box}]},
    )
    assert status == 200, answer
    diff = changed_lines(before, _database(proj).read_text(encoding="utf-8"))
    assert len(diff) == 2 and "x: 2.5, y: 2.5" in diff[0] and "x: 7.5, y: 2.5" in diff[1]
    # the page's digest is old now: a second save with it is refused, the file kept
    after = _database(proj).read_bytes()
    status, answer = page.post(
        "/api/layout",
        {"tile": face, "digest": outline["digest"], "changes": [{"ref": {"index": 3}, "box": box}]},
    )
    assert status == 409 and answer["reload"] and _database(proj).read_bytes() == after
    # without the page's token (another site's form): refused by the guard, the file kept
    body = json.dumps(
        {"tile": face, "digest": outline["digest"], "changes": [{"ref": {"index": 3}, "box": box}]}
    )
    headers = {"Origin": f"http://127.0.0.1:{page.port}", "Content-Type": "application/json"}
    status, _ = request(page.port, "POST", "/api/layout", headers, body.encode())
    assert status == 403 and _database(proj).read_bytes() == after


def test_a_built_in_element_lands_as_an_override(served: Any) -> None:
    proj, page, app = served
    back = _pictures(app, "back")[0]
    status, outline = _get(page, f"/api/layout?tile={back}")
    assert status == 200, outline
    title = next(e for e in outline["elements"] if e["ref"] == {"name": "title"})
    box = [title["box"][0], title["box"][1] + 4, *title["box"][2:]]
    shipped = (Path(__file__).parent.parent / "pnp" / "layouts" / "back.yaml").read_bytes()
    status, answer = page.post(
        "/api/layout",
        {"tile": back, "digest": outline["digest"], "changes": [{"ref": {"name": "title"}, "box": box}]},
    )
    assert status == 200, answer
    text = _database(proj).read_text(encoding="utf-8")
    # the title's y is 56% of the medallion frame (35.2 mm high on a poker card): 4 mm more, in its unit
    assert "    extends: back\n" in text and "      - {name: title, y: 67.36%}\n" in text
    assert (Path(__file__).parent.parent / "pnp" / "layouts" / "back.yaml").read_bytes() == shipped
    # (the save was checked as `pnp check` would before it was written: a refused one answers 422)
