"""Loading and checking databases: every kind of bad input gives a clear error, exit 2, no output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import run, shown

DB = "card_data/bargains.yaml"


def edit(project: Path, old: str, new: str, count: int = 1) -> None:
    path = project / DB
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, count))


def line_of(project: Path, needle: str, nth: int = 1) -> int:
    """Line number of the nth line containing `needle`."""
    hits = [i for i, line in enumerate((project / DB).read_text().splitlines(), 1) if needle in line]
    return hits[nth - 1]


BAD_INPUTS = [
    # (description, old, new, expected text in the message, line needle)
    (
        "wrong type",
        "copies: 13\n        text: An acorn",
        "copies: lots\n        text: An acorn",
        "copies: expected a whole number, found text 'lots'",
        "copies: lots",
    ),
    ("missing field", "        value: 5\n", "", "missing field 'value'", 'key: "5"'),
    ("unknown key", "        value: 7\n", "        vaule: 7\n", "did you mean 'value'", "vaule: 7"),
    (
        "negative copies",
        "copies: 13\n        text: Everyone",
        "copies: -2\n        text: Everyone",
        "copies: must be 0 or more",
        "copies: -2",
    ),
    ("duplicate card key", 'key: "7"', 'key: "5"', "duplicate card key '5'", ('key: "5"', 2)),
    ("value not allowed", "value: 10\n", "value: 11\n", "11 is not allowed", "value: 11"),
    ("unknown design", "face: bargain\n", "face: bargan\n", "did you mean 'bargain'", "face: bargan"),
    (
        "unknown component key",
        "card_size: poker",
        "card_sise: poker",
        "did you mean 'card_size'",
        "card_sise",
    ),
    (
        "duplicate yaml key",
        "    name: Bargain deck\n",
        "    name: Bargain deck\n    name: again\n",
        "duplicate key 'name'",
        "name: again",
    ),
    ("yaml syntax", "  - key: deck\n", "  - key: [deck\n", "YAML syntax", None),
    (
        "bad card size",
        "card_size: poker",
        "card_size: jumbo",
        "unknown card size 'jumbo'",
        "card_size: jumbo",
    ),
    ("unknown layout", "layout: value", "layout: valeu", "did you mean 'value'", "layout: valeu"),
    ("template syntax", '"{{ card.value }}"', '"{{ card.value }"', "template syntax", None),
]


@pytest.mark.parametrize("desc,old,new,message,needle", BAD_INPUTS, ids=[b[0] for b in BAD_INPUTS])
def test_bad_input_is_a_clear_error(
    project: Path, tmp_path: Path, desc: str, old: str, new: str, message: str, needle
) -> None:
    edit(project, old, new)
    out = tmp_path / "out"
    for command in (["build", "--out", str(out)], ["check"]):
        r = run(*command, "--project", str(project))
        assert r.code == 2, (desc, r.out, r.err)
        assert message in r.err, r.err
        assert "Traceback" not in r.err + r.out
        if needle:
            text, nth = needle if isinstance(needle, tuple) else (needle, 1)
            assert f"{DB}:{line_of(project, text, nth)}:" in r.err, r.err
    assert not out.exists() or not any(p for p in shown(out) if p.is_file())


def test_undefined_template_variable_names_the_card(project: Path) -> None:
    edit(project, '"{{ card.value }}"', '"{{ card.valu }}"')
    r = run("check", "--project", str(project))
    assert r.code == 2 and "faces.bargain.slots.value" in r.err and "BG-1" in r.err


def test_failed_build_keeps_previous_output(project: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert run("build", "--project", str(project), "--out", str(out)).code == 0
    before = {p: p.read_bytes() for p in shown(out) if p.is_file()}
    edit(project, "Small as morning dew", "Small as morning dew \u2603\U0001f9da")  # glyphs the font lacks
    r = run("build", "--project", str(project), "--out", str(out))
    assert r.code == 2 and "no glyph" in r.err and "BG-1" in r.err
    after = {p: p.read_bytes() for p in shown(out) if p.is_file()}
    assert after == before


def test_check_passes_and_fails_naming_the_value(project: Path) -> None:
    r = run("check", "--project", str(project))
    assert r.code == 0, r.out + r.err
    assert "bargains (BG)" in r.out and "ok" in r.out
    edit(project, "copies: 13\n        text: Lucky", "copies: 12\n        text: Lucky")
    r = run("check", "--project", str(project))
    assert r.code == 1
    assert "value=5" in r.out and "expected 13 with value 5, found 12" in r.out
    assert "deck-size" in r.out and "expected 65 cards, found 64" in r.out
    data = json.loads(run("check", "--project", str(project), "--json").out)
    assert data["ok"] is False
    broken = {v["rule"] for v in data["games"][0]["violations"]}
    assert "thirteen-of-each [value=5]" in broken
    v = next(v for v in data["games"][0]["violations"] if v["rule"].startswith("thirteen"))
    assert v["game"] == "Fairy Bargains" and v["component"] == "deck" and v["found"] == "12"


def test_check_file_argument_and_unknown_game(project: Path, tmp_path: Path) -> None:
    copy = tmp_path / "mine.yaml"
    copy.write_text((project / DB).read_text().replace("expected: 65", "expected: 66"))
    r = run("check", str(copy), "--project", str(project))
    assert r.code == 1 and "expected 66 cards, found 65" in r.out
    r = run("check", "bargins", "--project", str(project))
    assert r.code == 2 and "did you mean 'bargains'" in r.err


def test_expr_rule_reports_its_parameters(project: Path) -> None:
    edit(
        project,
        'expr: "deck.count() >= players * facts.hand_size + facts.pot_size"',
        'expr: "deck.count() >= players * 11 + facts.pot_size"',
    )
    r = run("check", "--project", str(project))
    assert r.code == 1 and "main-game-deal [players=6]" in r.out and "players=5" not in r.out


def test_schema_is_generated_from_the_model(tmp_path: Path) -> None:
    r = run("schema")
    schema = json.loads(r.out)
    card = schema["$defs"]["CardType"]
    assert {"key", "name", "copies"} <= set(card["properties"]) and card["additionalProperties"] is True
    assert "copies" not in card.get("required", [])
    rule = schema["$defs"]["Rule"]["properties"]["check"]["enum"]
    assert "count_by" in rule and "each_once" in rule
    assert schema["$defs"]["Component"]["additionalProperties"] is False


def test_list_shows_games_and_counts(project: Path) -> None:
    r = run("list", "--project", str(project))
    assert r.code == 0 and "bargains" in r.out and "BG" in r.out and "65 cards" in r.out


def test_not_a_project_folder(tmp_path: Path) -> None:
    r = run("check", "--project", str(tmp_path))
    assert r.code == 2 and "card_data" in r.err


def test_check_reads_boards_and_booklets(project: Path) -> None:
    """Boards and booklet templates are validated by `pnp check`, not only when building."""
    import shutil

    from conftest import ROOT

    shutil.copytree(ROOT / "templates", project / "templates", dirs_exist_ok=True)
    assert run("check", "--project", str(project)).code == 0
    edit(project, "x: 318, y: 42, card: poker", "x: 398, y: 42, card: poker")  # off the 400 mm board
    r = run("check", "--project", str(project))
    assert r.code == 2 and "discard" in r.err and DB in r.err, r.err
    edit(project, "x: 398, y: 42, card: poker", "x: 318, y: 42, card: poker")
    path = project / "templates" / "bargains.md.j2"
    path.write_text(path.read_text() + "\n{{ count('no-such-component') }}\n")
    r = run("check", "--project", str(project))
    assert r.code == 2 and "templates/bargains.md.j2" in r.err, r.err


def test_check_finds_text_that_does_not_fit(project: Path) -> None:
    """`pnp check` draws every face, so overflowing text is caught before anyone builds."""
    edit(
        project,
        "text: Lucky leaves change hands whenever fairies haggle.",
        "text: " + "Lucky leaves change hands whenever fairies haggle. " * 12,
    )
    r = run("check", "--project", str(project))
    assert r.code == 2 and "BG-5" in r.err and "does not fit" in r.err, r.err
    assert f"{DB}:" in r.err


@pytest.mark.parametrize(
    "command",
    [
        ["build", "bargains"],
        ["export", "png", "bargains"],
        ["preview", "bargains"],
        ["stack", "bargains", "rich", "--add", "10s"],
    ],
)
def test_unwritable_output_is_a_clear_error(project: Path, tmp_path: Path, command: list[str]) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    r = run(*command, "--project", str(project), "--out", str(blocker / "out"))
    assert r.code == 2 and "cannot create the output folder" in r.err and "Traceback" not in r.err, r.err
    assert not (project / "card_data" / "variants").exists()  # a failed stack leaves no variant behind
