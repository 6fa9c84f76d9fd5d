"""Playtest rounds: a version on the printout, tagged prints, `pnp changes`, and a reprint of only
the cards that changed (read back from the PDFs)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pnp.data.reading.loader import load_game
from pnp.serve.state import since_last_tag

from artwork import picture, project
from conftest import page_texts, run

GAME = """game: {name: Round Test, tag: RT, players: {min: 1, max: 4}VERSION}
faces:
  f:
    layout: value
    slots: {value: "{{ card.n }}", title: "{{ card.name }}", text: "{{ card.text }}", art: "{{ card.art }}"}
backs:
  plain:
    layout: back
    slots: {title: Round Test}
  gold:
    layout: back
    slots: {title: GOLDTITLE}
components:
  - key: deck
    kind: deck
    name: Deck
    face: f
    back: plain
    fields:
      n: {type: int}
      art: {type: str}
    cards:
      - {key: a, name: Alder, n: 1, art: art/a.png, copies: 2, text: Alder first words.}
      - {key: b, name: Birch, n: 2, art: art/b.png, text: Birch first words.}
      - {key: c, name: Cedar, n: 3, art: art/c.png, text: Cedar stays.}
      - {key: d, name: Damson, n: 4, art: art/a.png, back: gold, text: Damson stays.}
      - {key: e, name: Elder, n: 5, art: art/a.png, text: Elder goes.}
      - {key: g, name: Gorse, n: 7, art: art/a.png, text: Gorse stays.}
"""


def _project(tmp_path: Path, version: str = "") -> Path:
    root = project(
        tmp_path / "proj",
        GAME.replace("VERSION", f", version: '{version}'" if version else ""),
        name="rounds",
    )
    for name, fill in (("a", "#6a8fd0"), ("b", "#8fd06a"), ("c", "#d06a8f")):
        picture(root / "art" / f"{name}.png", (200, 160), fill)
    return root


def _build(root: Path, *extra: str) -> run:
    r = run("build", "rounds", "--project", str(root), "--duplex", "off", *extra)
    assert r.code == 0, r.out + r.err
    return r


def _play_a_round(root: Path) -> None:
    """Two texts, one picture and one back change; Elder leaves and Furze comes."""
    db = root / "card_data" / "rounds.yaml"
    text = db.read_text(encoding="utf-8")
    text = (
        text.replace("Alder first words.", "Alder second words.")
        .replace("Birch first words.", "Birch new.")
        .replace("GOLDTITLE", "Golden")
        .replace(
            "      - {key: e, name: Elder, n: 5, art: art/a.png, text: Elder goes.}\n",
            "      - {key: f, name: Furze, n: 6, art: art/a.png, copies: 3, text: Furze comes.}\n",
        )
    )
    db.write_text(text, encoding="utf-8")
    picture(root / "art" / "c.png", (200, 160), "#222222")


def _codes(pages: list[str]) -> list[str]:
    return [w for page in pages for w in page.split() if w.startswith("RT-")]


def test_changes_names_exactly_what_changed_and_the_reprint_holds_exactly_those(tmp_path: Path) -> None:
    root = _project(tmp_path)
    r = _build(root, "--tag", "round1")
    assert "Tagged this print of rounds as 'round1'" in r.out
    assert (root / "prints" / "rounds" / "round1.json").is_file()
    _play_a_round(root)

    r = run("changes", "rounds", "--since", "round1", "--json", "--project", str(root))
    assert r.code == 0, r.out + r.err
    found = json.loads(r.out)
    assert [c["card"] for c in found["added"]] == ["RT-f"]
    assert [c["card"] for c in found["removed"]] == ["RT-e"]
    changed = {c["card"]: c for c in found["changed"]}
    assert set(changed) == {"RT-a", "RT-b", "RT-c", "RT-d"}
    assert changed["RT-a"]["fields"] == {"text": {"old": "Alder first words.", "new": "Alder second words."}}
    assert list(changed["RT-b"]["fields"]) == ["text"]
    assert changed["RT-c"]["fields"] == {} and changed["RT-c"]["face"] and not changed["RT-c"]["back"]
    assert changed["RT-d"]["fields"] == {} and changed["RT-d"]["back"] and not changed["RT-d"]["face"]
    md = (root / "output" / "rounds" / "changes.md").read_text(encoding="utf-8")
    assert "'Alder first words.' -> 'Alder second words.'" in md and "## Removed (1)" in md

    r = _build(root, "--only-changed", "--since", "round1")
    assert "reprint.pdf" in r.out
    pages = page_texts(root / "output" / "rounds" / "reprint.pdf")
    fronts = [p for p in pages[:-1] if "fronts" in p]
    on_sheets = sorted(c for c in _codes(fronts) if c != "RT-")
    assert on_sheets == sorted(["RT-a"] * 2 + ["RT-b", "RT-c", "RT-d"] + ["RT-f"] * 3), on_sheets
    listing = " ".join(pages[-1].split())
    assert "Take out of the printed deck" in listing and "RT-e Elder (removed)" in listing
    assert "RT-a Alder (changed: text)" in listing and "RT-c Cedar (changed: face)" in listing
    assert "RT-d Damson (changed: back)" in listing and "RT-f Furze (added)" in listing
    assert "RT-g" not in " ".join(pages)
    manifest = json.loads((root / "output" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["reprints"]["rounds"]["cards"] == 2 + 1 + 1 + 1 + 3


def test_an_unchanged_deck_reprints_nothing_and_says_so(tmp_path: Path) -> None:
    root = _project(tmp_path)
    _build(root, "--tag", "r1")
    _play_a_round(root)
    _build(root, "--only-changed", "--since", "r1")
    assert (root / "output" / "rounds" / "reprint.pdf").is_file()
    _build(root, "--tag", "r2")
    r = _build(root, "--only-changed", "--since", "r2")
    assert "no card changed since print 'r2'" in r.out and "Nothing to reprint for rounds." in r.out
    assert not (root / "output" / "rounds" / "reprint.pdf").exists()  # the old reprint is gone too
    r = run("changes", "rounds", "--project", str(root))  # against the last build
    assert r.code == 0 and "no card changed since the last build" in r.out


def test_a_new_version_alone_changes_no_card_and_is_printed(tmp_path: Path) -> None:
    root = _project(tmp_path, version="0.4")
    _build(root, "--tag", "v04")
    face = " ".join(page_texts(root / "output" / "rounds" / "deck.pdf"))
    assert "RT-a · 0.4" in face
    assert "checklist (version 0.4)" in " ".join(page_texts(root / "output" / "rounds" / "checklist.pdf"))
    db = root / "card_data" / "rounds.yaml"
    db.write_text(
        db.read_text(encoding="utf-8").replace("version: '0.4'", "version: '0.5'"), encoding="utf-8"
    )
    r = run("changes", "rounds", "--since", "v04", "--project", str(root))
    assert r.code == 0 and "no card changed" in r.out


def test_serve_marks_the_cards_changed_since_the_last_tag(tmp_path: Path) -> None:
    root = _project(tmp_path)
    assert since_last_tag(root, load_game(root / "card_data" / "rounds.yaml", root=root)) == {}
    _build(root, "--tag", "r1")
    _play_a_round(root)
    marks = since_last_tag(root, load_game(root / "card_data" / "rounds.yaml", root=root))
    assert marks == {
        "RT-a": "changed",
        "RT-b": "changed",
        "RT-c": "changed",
        "RT-d": "changed",
        "RT-f": "new",
    }


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["build", "rounds", "--tag", "../up"], 2, "--tag"),
        (["build", "rounds", "--only-changed", "--since", "nope"], 2, "no print of rounds tagged 'nope'"),
        (["changes", "rounds"], 2, "no earlier build of rounds"),
        (["build", "rounds", "--since", "r1"], 2, "--since goes with --only-changed"),
    ],
)
def test_mistakes_are_named_and_nothing_is_written(
    tmp_path: Path, args: list[str], code: int, message: str
) -> None:
    root = _project(tmp_path)
    r = run(*args, "--project", str(root))
    assert r.code == code, r.out + r.err
    assert message in r.out + r.err and "Traceback" not in r.err
    assert not (root / "prints").exists() and not (root / "output" / "rounds" / "reprint.pdf").exists()


def test_a_layout_can_place_the_version(tmp_path: Path) -> None:
    root = _project(tmp_path, version="0.7")
    db = root / "card_data" / "rounds.yaml"
    db.write_text(
        db.read_text(encoding="utf-8").replace(
            'title: "{{ card.name }}"', 'title: "{{ card.name }} r{{ version }}"'
        ),
        encoding="utf-8",
    )
    _build(root)
    assert "Alder r0.7" in " ".join(page_texts(root / "output" / "rounds" / "deck.pdf"))


def test_the_booklet_cover_says_the_version(tmp_path: Path) -> None:
    from pnp.geometry.sizes import paper_size
    from pnp.output.booklets import prepare, write_plain
    from pnp.resolve.fonts import Fonts

    from conftest import ROOT

    db = tmp_path / "card_data" / "bargains.yaml"
    db.parent.mkdir()
    db.write_text(
        (ROOT / "card_data" / "bargains.yaml")
        .read_text(encoding="utf-8")
        .replace("  tag: BG\n", "  tag: BG\n  version: 2026-11-26\n"),
        encoding="utf-8",
    )
    game = load_game(db, root=ROOT)
    fonts = Fonts.load(ROOT / "fonts")
    write_plain(
        prepare(game, game.component("rules"), fonts), tmp_path / "rules.pdf", paper_size("a4"), fonts
    )
    first = " ".join(page_texts(tmp_path / "rules.pdf")[0].split())
    assert "Fairy Bargains Version 2026-11-26 Trade a card" in first
