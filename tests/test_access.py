"""`pnp check --access` and `pnp preview --vision`: colour vision, contrast and type size, found on cards
drawn and read back as pixels; the simulation and colour difference checked against published values."""

from __future__ import annotations

import json
from pathlib import Path

import colorspacious
import numpy as np
import pytest
from PIL import Image

from pnp.output.access.vision import VISIONS, ciede2000, contrast, lab, luminance, simulate, simulate_image

from artwork import game_yaml, project
from conftest import run

RED, GREEN = "#961400", "#2d5000"  # a red and a green that protanopes and deuteranopes confuse
SUITED = "\"{{ '" + RED + "' if card.suit == 'red' else '" + GREEN + "' }}\""
SUIT_FIELD = "\n      suit: {type: str}"
SUIT_CARDS = "\n".join(
    f"      - {{key: {s[0]}{n}, name: Card {n}, suit: {s}, n: {n}}}" for s in ("red", "green") for n in (1, 2)
)


def _custom(elements: list[str]) -> str:
    lines = "\n".join(f"      - {e}" for e in elements)
    return f"layout: custom\n    elements:\n{lines}"


def _check(tmp_path: Path, elements: list[str], cards: str, fields: str = "", *extra: str) -> tuple[str, str]:
    yaml_text = game_yaml(_custom(elements), cards, fields=fields)
    root = project(tmp_path, yaml_text, name="access")
    r = run("check", "access", "--access", "--project", str(root), *extra)
    return r.out + r.err, yaml_text


def _suits(with_symbol: bool) -> list[str]:
    elements = [
        f"{{type: rect, frame: bleed, fill: {SUITED}}}",
        '{type: text, x: 5, y: 5, w: 30, h: 12, text: "{{ card.n }}", size: 24, fill: "#ffffff"}',
    ]
    if with_symbol:  # each suit its own symbol, in the same white
        elements.append(
            '{type: symbol, x: 20, y: 40, w: 12, h: 12, fill: "#ffffff", '
            "symbol: \"{{ 'crown' if card.suit == 'red' else 'clover' }}\"}"
        )
    return elements


def test_suits_in_red_and_green_alone_are_named_for_protanopia_and_deuteranopia(tmp_path: Path) -> None:
    out, _ = _check(tmp_path / "a", _suits(False), SUIT_CARDS, SUIT_FIELD)
    said = [line for line in out.splitlines() if "colour vision:" in line and "(low ink)" not in line]
    assert len(said) == 1, out
    assert "suit 'green' and 'red'" in said[0] and "protanopia" in said[0] and "deuteranopia" in said[0]
    assert "tritanopia" not in said[0]
    assert "access.yaml:" in said[0] and "components.deck" in said[0]

    out, _ = _check(tmp_path / "b", _suits(True), SUIT_CARDS, SUIT_FIELD)
    assert "colour vision" not in out and "access: no problems" in out, out


def _line_of(yaml_text: str, needle: str) -> int:
    return next(i for i, line in enumerate(yaml_text.splitlines(), 1) if needle in line)


def test_grey_on_grey_text_is_named_with_its_line(tmp_path: Path) -> None:
    grey = '{type: text, x: 5, y: 20, w: 50, h: 10, text: "Hard to read", size: 10, fill: "#8c8c8c"}'
    out, yaml_text = _check(
        tmp_path,
        ['{type: rect, frame: bleed, fill: "#7a7a7a"}', grey],
        "      - {key: a, name: A}",
    )
    line = _line_of(yaml_text, "Hard to read")
    said = [s for s in out.splitlines() if "contrast:" in s]
    assert len(said) == 1, out
    assert f"access.yaml:{line}" in said[0] and "'Hard to read'" in said[0] and "elements[1]" in said[0]
    ratio = float(said[0].split("stands ")[1].split(":1")[0])
    assert 1.0 <= ratio < 1.5  # #8c8c8c on #7a7a7a is 1.3:1


def test_small_text_is_named_and_shrink_to_fit_counts(tmp_path: Path) -> None:
    elements = [
        '{type: rect, frame: bleed, fill: "#ffffff"}',
        '{type: text, x: 5, y: 10, w: 50, h: 8, text: "Tiny print", size: 5, fill: "#000000"}',
        '{type: text, x: 5, y: 30, w: 12, h: 8, text: "A longish title", size: 12, min_size: 3, '
        'fill: "#000000"}',
        '{type: text, x: 5, y: 50, w: 50, h: 8, text: "Fine print", size: 8, fill: "#000000"}',
    ]
    out, yaml_text = _check(tmp_path, elements, "      - {key: a, name: A}")
    said = [s for s in out.splitlines() if "type size:" in s]
    assert len(said) == 2, out
    assert f"access.yaml:{_line_of(yaml_text, 'Tiny print')}" in said[0] and "5.0 pt" in said[0]
    assert "card AT-a" in said[0]
    assert f"access.yaml:{_line_of(yaml_text, 'A longish title')}" in said[1]
    assert "Fine print" not in out


def test_light_text_on_dark_needs_a_point_more(tmp_path: Path) -> None:
    elements = [
        '{type: rect, frame: bleed, fill: "#101010"}',
        '{type: text, x: 5, y: 10, w: 50, h: 8, text: "Reversed", size: 6.5, fill: "#ffffff"}',
    ]
    out, _ = _check(tmp_path, elements, "      - {key: a, name: A}")
    said = [s for s in out.splitlines() if "type size:" in s and "(low ink)" not in s]
    assert len(said) == 1 and "light-on-dark text 'Reversed'" in said[0] and "at least 7 pt" in said[0], out


def test_low_ink_sheets_are_checked_too(tmp_path: Path) -> None:
    # mid-grey text on a near-black panel reads in full ink; the low-ink panel is a pale tint
    elements = [
        '{type: rect, frame: bleed, fill: "#202020"}',
        '{type: text, x: 5, y: 10, w: 50, h: 8, text: "Pale on pale", size: 9, fill: "#959595"}',
    ]
    out, _ = _check(tmp_path, elements, "      - {key: a, name: A}", "", "--json")
    data = json.loads(out[out.index("{") :])
    found = data["games"][0]["access"]
    assert [f["check"] for f in found] == ["contrast"], found
    assert "(low ink)" in found[0]["message"] and found[0]["line"] and not data["ok"]


def test_simulation_matches_machado_2009_as_colorspacious_computes_it() -> None:
    rng = np.random.default_rng(51)
    colours = np.vstack([rng.random((200, 3)), np.eye(3), [[0.588, 0.078, 0.0], [0.176, 0.314, 0.0]]])
    for ours, theirs in (
        ("protanopia", "protanomaly"),
        ("deuteranopia", "deuteranomaly"),
        ("tritanopia", "tritanomaly"),
    ):
        space = {"name": "sRGB1+CVD", "cvd_type": theirs, "severity": 100}
        expected = np.clip(colorspacious.cspace_convert(colours, space, "sRGB1"), 0, 1)
        assert np.abs(simulate(colours, ours) - expected).max() < 1e-9
    # achromatopsia: a grey of the colour's own luminance
    grey = simulate(np.array([0.2, 0.6, 0.9]), "achromatopsia")
    assert grey[0] == grey[1] == grey[2]
    assert abs(luminance(grey) - luminance(np.array([0.2, 0.6, 0.9]))) < 1e-3


def test_a_picture_of_a_known_colour_is_simulated_to_the_published_value(tmp_path: Path) -> None:
    picture = Image.new("RGB", (8, 8), (150, 20, 0))  # RED
    for vision, theirs in (("protanopia", "protanomaly"), ("deuteranopia", "deuteranomaly")):
        seen = np.asarray(simulate_image(picture, vision))[4, 4]
        space = {"name": "sRGB1+CVD", "cvd_type": theirs, "severity": 100}
        expected = np.clip(colorspacious.cspace_convert([150 / 255, 20 / 255, 0], space, "sRGB1"), 0, 1)
        assert np.abs(seen - np.rint(expected * 255)).max() <= 1


@pytest.mark.parametrize(
    ("lab1", "lab2", "delta"),
    [  # Sharma, Wu and Dalal (2005), table 1: pairs 1, 2, 7, 17 and 25
        ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
        ((50.0, 3.1571, -77.2803), (50.0, 0.0, -82.7485), 2.8615),
        ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
        ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
        ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ],
)
def test_ciede2000_matches_the_published_test_data(lab1: tuple, lab2: tuple, delta: float) -> None:
    assert round(float(ciede2000(np.array(lab1), np.array(lab2))), 4) == delta
    assert round(float(ciede2000(np.array(lab2), np.array(lab1))), 4) == delta


def test_lab_and_wcag_contrast_of_known_colours() -> None:
    assert np.allclose(lab(np.array([1.0, 0.0, 0.0])), [53.24, 80.09, 67.20], atol=0.01)
    assert float(contrast(luminance(np.zeros(3)), luminance(np.ones(3)))) == pytest.approx(21.0)
    grey = np.array([0x77, 0x77, 0x77]) / 255  # #777 on white: WCAG's own example of 4.48:1
    assert round(float(contrast(luminance(grey), 1.0)), 2) == 4.48
    assert set(VISIONS) == {"protanopia", "deuteranopia", "tritanopia", "achromatopsia"}


def test_preview_vision_writes_the_sheets_as_they_are_seen(tmp_path: Path) -> None:
    root = project(tmp_path, game_yaml(_custom(_suits(False)), SUIT_CARDS, fields=SUIT_FIELD), name="access")
    out = root / "out"
    plain = run("preview", "access", "--project", str(root), "--out", str(out))
    seen = run("preview", "access", "--project", str(root), "--out", str(out), "--vision", "deuteranopia")
    assert plain.code == 0 and seen.code == 0, plain.err + seen.err
    assert "preview-deuteranopia" in seen.out
    printed = Image.open(out / "access" / "preview" / "deck.png")
    simulated = Image.open(out / "access" / "preview-deuteranopia" / "deck.png")
    assert printed.size == simulated.size
    expected = np.asarray(simulate_image(printed, "deuteranopia"), dtype=int)
    assert np.abs(np.asarray(simulated.convert("RGB"), dtype=int) - expected).max() <= 1
    # the red and the green suit: far apart as printed, close as seen
    assert np.abs(np.asarray(printed.convert("RGB"), dtype=int) - expected).max() > 60
    assert (out / "access" / "preview" / "deck.png").exists()  # the plain sheets stay beside them


def test_small_text_inside_a_group_is_named(tmp_path: Path) -> None:
    elements = [
        '{type: rect, frame: bleed, fill: "#ffffff"}',
        "type: group\n        elements:\n"
        '          - {type: text, x: 5, y: 10, w: 50, h: 8, text: "Grouped tiny", size: 4.5, fill: "#000000"}',
    ]
    out, yaml_text = _check(tmp_path, elements, "      - {key: a, name: A}")
    said = [s for s in out.splitlines() if "type size:" in s]
    assert len(said) == 1 and "'Grouped tiny' prints at 4.5 pt" in said[0], out
    assert f"access.yaml:{_line_of(yaml_text, 'Grouped tiny')}" in said[0]
