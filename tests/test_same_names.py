"""Two card types of one component with the same name: `pnp check` passes but warns, naming where
each is defined (a YAML line, or a spreadsheet's line)."""

from __future__ import annotations

import csv
from pathlib import Path

from conftest import make_project, run


def _check(proj: Path) -> str:
    r = run("check", "bargains", "--project", str(proj))
    assert r.code == 0, r.out + r.err
    return r.out


def test_same_name_in_yaml_is_a_warning_with_both_lines(tmp_path: Path) -> None:
    proj = make_project(tmp_path / "p")
    db = proj / "card_data" / "bargains.yaml"
    text = db.read_text(encoding="utf-8")
    assert "        name: Acorn\n" in text
    db.write_text(text.replace("        name: Acorn\n", "        name: Dewdrop\n"), encoding="utf-8")
    lines = db.read_text(encoding="utf-8").splitlines()
    first, second = (
        i + 1 for i, line in enumerate(lines) if line.strip() == '- key: "1"' or line.strip() == '- key: "3"'
    )
    warnings = [line for line in _check(proj).splitlines() if "warning:" in line and "Dewdrop" in line]
    assert len(warnings) == 1, warnings
    assert f"card_data/bargains.yaml:{second}: card name 'Dewdrop'" in warnings[0]
    assert f"at card_data/bargains.yaml:{first}" in warnings[0]


def test_same_name_in_a_csv_names_both_lines_of_the_file(tmp_path: Path) -> None:
    proj = make_project(tmp_path / "p")
    with (proj / "card_data" / "deck.csv").open("w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(
            [["key", "name", "value", "copies"], ["1", "Dewdrop", 1, 13], ["3", "dewdrop ", 3, 13]]
            + [[str(v), f"Card {v}", v, 13] for v in (5, 7, 10)]
        )
    db = proj / "card_data" / "bargains.yaml"
    text = db.read_text(encoding="utf-8")
    start, end = text.index("    cards:\n      - key:"), text.index("    rules:", text.index("    cards:\n"))
    db.write_text(text[:start] + "    cards: {from: deck.csv}\n" + text[end:], encoding="utf-8")
    out = _check(proj)
    warnings = [line for line in out.splitlines() if "warning:" in line and "card name" in line]
    assert len(warnings) == 1, out
    assert (
        "card_data/deck.csv:3: card name 'dewdrop'" in warnings[0]
        and "at card_data/deck.csv:2" in warnings[0]
    )


def test_a_component_may_allow_shared_names(tmp_path: Path) -> None:
    proj = make_project(tmp_path / "p")
    db = proj / "card_data" / "bargains.yaml"
    text = db.read_text(encoding="utf-8").replace("        name: Acorn\n", "        name: Dewdrop\n")
    db.write_text(
        text.replace("    name: Bargain deck\n", "    name: Bargain deck\n    same_names: true\n"),
        encoding="utf-8",
    )
    assert "card name" not in _check(proj)
