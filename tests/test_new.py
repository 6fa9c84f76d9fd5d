"""`pnp new DIR`: a working project that `pnp check` and `pnp build` accept at once."""

from __future__ import annotations

import json
from pathlib import Path

from pnp.data.reading.loader import load_game

from conftest import run


def test_new_project_checks_and_builds(tmp_path: Path) -> None:
    dest = tmp_path / "my-game"
    r = run("new", str(dest))
    assert r.code == 0, r.err
    for rel in (
        "card_data/lanterns.yaml",
        "card_data/lanterns.csv",
        "art/lantern.svg",
        "art/symbols/moth.svg",
        "templates/rules.md.j2",
        "fonts/fonts.yaml",
        "fonts/Vera.ttf",
    ):
        assert (dest / rel).is_file(), rel
    assert run("check", "--project", str(dest)).code == 0
    r = run("build", "--project", str(dest))
    assert r.code == 0, r.err
    manifest = json.loads((dest / "output" / "manifest.json").read_text(encoding="utf-8"))
    files = {e["path"]: e for e in manifest["files"]}
    assert files["lanterns/deck.pdf"]["cards"] == 20 and "lanterns/rules.pdf" in files
    game = load_game(dest / "card_data" / "lanterns.yaml")
    deck = game.component("deck")
    assert deck.card_count == 20 and game.faces["lantern"].layout == "custom"
    assert "**" in deck.cards[0].text and "{" in deck.cards[0].text  # the starter shows off markup
    text = (dest / "card_data" / "lanterns.yaml").read_text(encoding="utf-8")
    assert text.count("\n#") + text.count("  # ") > 15  # comments that teach the format


def test_new_refuses_a_folder_that_is_not_empty(tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("mine", encoding="utf-8")
    r = run("new", str(tmp_path))
    assert r.code == 2 and "not empty" in r.err
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]
