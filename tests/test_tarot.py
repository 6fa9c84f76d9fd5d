"""Fate/Tiger Colosseum tarot: built PDFs counted by collation code, the chart built from
the links, and the checker failing on broken copies of the database."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from pnp.cli import main
from pnp.data.reading.loader import load_game
from pnp.data.templating.engine import roman
from pnp.resolve.charting import layers, nodes_from
from pnp.resolve.sides import Job, resolve_slots

from conftest import page_texts

ROOT = Path(__file__).resolve().parents[1]
DB = ROOT / "card_data" / "tarot.yaml"
CODE = re.compile(r"\bTA-([A-Za-z0-9]+)\b")


@pytest.fixture(scope="module")
def game():
    return load_game(DB)


@pytest.fixture(scope="module")
def two_decks(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("tarot")
    result = CliRunner().invoke(
        main, ["build", "tarot", "--project", str(ROOT), "--out", str(out), "--decks", "2"]
    )
    assert result.exit_code == 0, result.output
    return out


def run_check(path: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["check", str(path), "--project", str(ROOT)])
    return result.exit_code, result.output


def broken_copy(tmp_path: Path, old: str, new: str) -> Path:
    text = DB.read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / "tarot.yaml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


# --------------------------------------------------------------------------- built PDFs


def test_two_decks_print_every_card_twice_by_code(two_decks: Path, game) -> None:
    comp = game.component("arcana")
    texts = page_texts(two_decks / "tarot" / "arcana.pdf")
    found = Counter(CODE.findall("\n".join(texts)))
    wanted = {card.key: card.copies * 2 for card in comp.cards}
    assert dict(found) == wanted
    assert sum(found.values()) == 48
    numbers = [c.get("number") for c in comp.cards if c.get("part") == "arcana"]
    assert sorted(numbers) == list(range(22))


def test_manifest_and_backs(two_decks: Path) -> None:
    manifest = json.loads((two_decks / "manifest.json").read_text())
    entry = next(f for f in manifest["files"] if f["path"] == "tarot/arcana.pdf")
    assert entry["card_size_mm"] == [70.0, 120.0]
    assert entry["cards"] == 48 and set(entry["copies"].values()) == {2}
    texts = page_texts(two_decks / "tarot" / "arcana.pdf")
    assert len(texts) % 2 == 0
    for front, back in zip(texts[::2], texts[1::2]):  # duplex: fronts page, then its backs page
        assert CODE.search(front) and not CODE.search(back)
        assert "backs" in back


def test_faces_show_roman_numerals_and_arcana_names(two_decks: Path) -> None:
    text = "\n".join(page_texts(two_decks / "tarot" / "arcana.pdf"))
    for label in (
        "XXI",
        "XIV",
        "THE WORLD",
        "THE FOOL",
        "WHEEL OF FORTUNE",
        "Masters and Servants",
        "Tarot of the Grail War",
    ):
        assert label in text
    assert roman(0) == "0" and roman(4) == "IV" and roman(19) == "XIX" and roman(21) == "XXI"


def test_decks_outside_range_is_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["build", "tarot", "--project", str(ROOT), "--out", str(tmp_path), "--decks", "3"]
    )
    assert result.exit_code == 2
    assert "--decks 3" in result.output


# --------------------------------------------------------------------------- chart from links


def chart_edges(g) -> set[tuple[str, str]]:
    comp = g.component("arcana")
    chart = next(c for c in comp.cards if c.key == "chart")
    slots = resolve_slots(g, Job(comp, g.faces["chart"], "faces.chart", chart, None, None))
    nodes = nodes_from(
        slots["nodes"],
        slots.get("node_id") or "id",
        slots.get("node_label") or "label",
        slots.get("node_group") or "group",
        slots.get("node_links") or "links",
        slots.get("node_number"),
    )
    _, _, edges = layers(nodes)
    return set(edges)


def test_chart_edges_are_the_database_links(game) -> None:
    comp = game.component("arcana")
    links = {(c.key, str(s)) for c in comp.cards for s in c.get("servants") or []}
    assert chart_edges(game) == links
    assert ("14", "9") in links  # Caster is a servant who keeps a servant


def test_editing_a_link_changes_the_chart(tmp_path: Path, game) -> None:
    path = broken_copy(
        tmp_path,
        'role: none, epithet: "heiress with no servant",',
        'role: master, servants: ["19"], epithet: "heiress with no servant",',
    )
    path.write_text(path.read_text().replace('masters: ["1"],', 'masters: ["1", "10"],', 1))
    edited = load_game(path)
    assert chart_edges(edited) - chart_edges(game) == {("10", "19")}
    assert run_check(path)[0] == 0


# --------------------------------------------------------------------------- checker


def test_database_passes() -> None:
    code, out = run_check(DB)
    assert code == 0, out
    assert "ok" in out


def test_duplicated_arcana_number_is_reported(tmp_path: Path) -> None:
    path = broken_copy(tmp_path, "short: Rin, number: 1,", "short: Rin, number: 0,")
    code, out = run_check(path)
    assert code == 1
    assert "arcana-numbers" in out and "number=0" in out and "number=1" in out


def test_link_to_a_missing_card_is_reported(tmp_path: Path) -> None:
    path = broken_copy(tmp_path, 'servants: ["19"]', 'servants: ["99"]')
    code, out = run_check(path)
    assert code == 1
    assert "servant-links" in out and "1 -> 99 (no such card)" in out


def test_one_sided_link_is_reported(tmp_path: Path) -> None:
    path = broken_copy(tmp_path, 'masters: ["6", "12"]', 'masters: ["6"]')
    code, out = run_check(path)
    assert code == 1
    assert "servant-links" in out and "12 -> 11" in out


def test_element_for_tiger_is_reported(tmp_path: Path) -> None:
    path = broken_copy(tmp_path, "arcana: The Fool, element: none,", "arcana: The Fool, element: sword,")
    code, out = run_check(path)
    assert code == 1
    assert "elements" in out


def test_element_without_combo_is_reported(tmp_path: Path) -> None:
    path = broken_copy(tmp_path, 'masters: ["20"], servants: ["9"]', 'servants: ["9"]')
    path.write_text(path.read_text().replace('servants: ["14"]', "servants: []", 1))
    code, out = run_check(path)
    assert code == 1
    assert "combo-per-element [e=magic]" in out
