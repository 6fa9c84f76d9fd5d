"""Bad input of every kind: each command answers with the file and line, an exit code, no traceback,
and leaves the output folder exactly as it was (byte for byte, manifest.json included).

Each case edits a copy of a project whose output was built once, runs one command
in-process (an exception would fail the test: no traceback can hide), and compares
the output folder before and after.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import make_project, run, shown, timed

DB = "card_data/bargains.yaml"
BOMB = "a: &a [x,x,x,x,x,x,x,x,x,x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]\n" for i in range(9)
)
LAYOUT = "    layout: value\n"  # where the face design's mapping starts: its problems are reported there
SLOT = 'subtitle: "a bargain worth {{ card.value }}"'


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """A project holding Fairy Bargains, built once into output/."""
    proj = make_project(tmp_path_factory.mktemp("robust") / "proj")
    r = run("build", "bargains", "--project", str(proj), "-j", "1")
    assert r.code == 0, r.err
    return proj


@pytest.fixture
def proj(built: Path, tmp_path: Path) -> Path:
    dest = tmp_path / "proj"
    shutil.copytree(built, dest)
    return dest


def snapshot(folder: Path) -> dict[str, str]:
    """Every file `folder` shows (an output folder: through its links) with the hash of its bytes."""
    return (
        {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest() for p in shown(folder)}
        if folder.is_dir()
        else {}
    )


def edit(proj: Path, old: str, new: str, file: str = DB) -> int:
    """Replace `old` by `new` in a project file; return the line where `new` starts."""
    path = proj / file
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return text[: text.index(old)].count("\n") + 1


def line_of(proj: Path, needle: str, file: str = DB) -> int:
    text = (proj / file).read_text(encoding="utf-8")
    return text[: text.index(needle)].count("\n") + 1


@dataclass(frozen=True)
class Case:
    """One class of bad input: an edit, the command that meets it, the answer expected."""

    id: str
    old: str
    new: str
    command: tuple[str, ...]
    code: int = 2
    text: str = ""  # a phrase the message must hold
    offset: int = 0  # the problem's line, relative to where the edit starts
    file: str = DB
    anchor: str = ""  # the problem is reported at this text's line instead


CASES = [
    Case("rule expected is a list", "expected: 65", "expected: []", ("build",), text="expected a card count"),
    Case(
        "count_by count is text",
        "{1: 13, 3: 13",
        "{1: many, 3: 13",
        ("check",),
        text="1: expected a card count",
    ),
    Case(
        "rule min above max",
        "expected: 65",
        "min: 70\n        max: 60",
        ("build",),
        text="below min",
        offset=1,
    ),
    Case(
        "rule names an unknown field",
        "field: value\n        expected: {1: 13",
        "field: valu\n        expected: {1: 13",
        ("list",),
        text="unknown field 'valu'",
    ),
    Case(
        "rule option its kind does not use",
        "check: total\n        expected: 65",
        "check: total\n        expected: 65\n        symmetric: true",
        ("build",),
        text="does not use 'symmetric'",
        offset=2,
    ),
    Case(
        "rule expression syntax",
        'expr: "deck.count() >= players * facts.hand_size + facts.pot_size"',
        'expr: "deck.count( >= 3"',
        ("check",),
        text="expression syntax",
    ),
    Case(
        "rule params not a list",
        "params: {piles: [5, 6, 7]}",
        "params: {piles: 5}",
        ("check",),
        text="expected a list",
    ),
    Case("copies 10**12", "copies: 13", "copies: 1000000000000", ("build",), text="at most 10000"),
    Case("100 KB card name", "name: Dewdrop", "name: " + "x" * 100_000, ("list",), text="the limit is 10000"),
    Case("non-UTF-8 byte", "name: Dewdrop", "name: Dewdr\udcf6p", ("build",), text="not valid UTF-8"),
    Case(
        "duplicate key",
        "name: Dewdrop\n",
        "name: Dewdrop\n        name: Drop\n",
        ("check",),
        text="duplicate key 'name'",
        offset=1,
    ),
    Case(
        "YAML syntax",
        "value: 1\n        copies: 13",
        "value: [1\n        copies: 13",
        ("list",),
        text="YAML syntax",
        offset=1,
    ),
    Case(
        "template range(10**9)",
        SLOT,
        'subtitle: "{{ range(10**9)|list|length }}"',
        ("build",),
        text="at most 100000",
        anchor=LAYOUT,
    ),
    Case(
        "sandbox escape",
        SLOT,
        'subtitle: "{{ card.__class__.__mro__ }}"',
        ("check",),
        text="sandboxed",
        anchor=LAYOUT,
    ),
    Case(
        "template repeats a string 10**9 times",
        SLOT,
        "subtitle: \"{{ 'x' * 10**9 }}\"",
        ("preview",),
        text="repeating a value",
        anchor=LAYOUT,
    ),
    Case(
        "template division by zero",
        SLOT,
        'subtitle: {expr: "1 // 0"}',
        ("export", "png"),
        text="ZeroDivisionError",
        anchor=LAYOUT,
    ),
    Case("style colour", 'paper: "#fbf6ea"', 'paper: "cream"', ("build",), text="#RRGGBB"),
    Case(
        "palette not a mapping",
        "palettes:\n  value:\n",
        "palettes:\n  value: 5\n  other:\n",
        ("list",),
        text="expected a mapping",
        offset=1,
    ),
    Case(
        "missing glyph",
        "text: Small as morning dew",
        "text: \u6f22 Small as morning dew",
        ("build",),
        text="fonts/DejaVuSerif-Italic.ttf (serif-italic)",
        anchor=LAYOUT,
    ),
    Case(
        "unknown card size",
        "card_size: poker",
        "card_size: huge",
        ("export", "tts"),
        text="unknown card size",
    ),
    Case("board size", "size: 400x272", "size: []", ("build",), text="board.size"),
    Case(
        "booklet template missing",
        "template: bargains.md.j2",
        "template: nosuch.md.j2",
        ("check",),
        text="no template 'nosuch.md.j2'",
    ),
    Case("unknown layout", "layout: value", "layout: valeu", ("build",), text="did you mean 'value'"),
    Case(
        "broken fonts.yaml",
        "roles:\n",
        "roles: [\n",
        ("build",),
        file="fonts/fonts.yaml",
        text="YAML syntax",
        offset=2,
    ),
    Case(
        "fonts.yaml names a missing file",
        "body: DejaVuSans.ttf",
        "body: Nope.ttf",
        ("export", "png"),
        file="fonts/fonts.yaml",
        text="Nope.ttf not found",
    ),
    Case(
        "fonts.yaml unknown role",
        "body: DejaVuSans.ttf",
        "body: DejaVuSans.ttf\n  headline: DejaVuSans.ttf",
        ("check",),
        file="fonts/fonts.yaml",
        text="unknown role",
        offset=1,
    ),
    Case(
        "one card too few",
        "copies: 13\n        text: Everyone",
        "copies: 12\n        text: Everyone",
        ("build",),
        code=1,
        text="deck-size: expected 65 cards, found 64",
        anchor="id: deck-size",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_input(proj: Path, case: Case) -> None:
    if "\udcf6" in case.new:  # a byte that is not UTF-8, written as such
        path = proj / case.file
        line = edit(proj, case.old, case.new.replace("\udcf6", "@"), case.file)
        path.write_bytes(path.read_bytes().replace(b"Dewdr@p", b"Dewdr\xf6p"))
    else:
        line = edit(proj, case.old, case.new, case.file)
    if case.anchor:
        line = line_of(proj, case.anchor, case.file)
    before = snapshot(proj / "output")
    games = () if case.command == ("list",) else ("bargains",)  # list takes no game names
    with timed() as took:
        r = run(*case.command, *games, "--project", str(proj))
    message = r.err + r.out
    assert r.code == case.code, message
    assert f"{case.file}:{line + case.offset}" in message, message
    assert case.text in message, message
    assert "Traceback" not in message
    assert snapshot(proj / "output") == before
    assert took.cpu < 20.0, (
        f"{case.id} took {took.cpu:.1f} s of CPU"
    )  # generous: a hang fails it, not a busy machine


def test_alias_bomb_is_refused_at_once(proj: Path) -> None:
    (proj / DB).write_text(BOMB, encoding="utf-8")
    before = snapshot(proj / "output")
    with timed() as took:
        r = run("check", "bargains", "--project", str(proj))
    assert took.cpu < 10.0  # generous: expanding the bomb would take minutes
    assert r.code == 2 and f"{DB}:" in r.err and "aliases are expanded" in r.err, r.err
    assert snapshot(proj / "output") == before


def test_deep_nesting_is_refused(proj: Path) -> None:
    """libyaml would overflow the C stack on this; the limit refuses it first."""
    with open(proj / DB, "a", encoding="utf-8") as fh:
        fh.write("extra: " + "[" * 100_000 + "]" * 100_000 + "\n")
    r = run("build", "bargains", "--project", str(proj))
    assert r.code == 2 and "nested more than 64 levels deep" in r.err, r.err
    assert f"{DB}:{line_of(proj, 'extra:')}" in r.err


@pytest.mark.parametrize(
    "template,message",
    [
        (
            "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}",
            "longer than 1 s",
        ),
        (
            "{% set s = 'x' * 999990 %}{% set ns = namespace(l=[]) %}"
            "{% for i in range(100000) %}{% set ns.l = ns.l + [s ~ i] %}{% endfor %}{{ ns.l|length }}",
            "more than 256 MB of memory",
        ),
    ],
    ids=["time", "memory"],
)
def test_template_work_is_stopped(proj: Path, template: str, message: str) -> None:
    line = line_of(proj, LAYOUT)
    edit(proj, SLOT, f'subtitle: "{template}"')
    before = snapshot(proj / "output")
    with timed() as took:
        r = run("build", "bargains", "--project", str(proj), "-j", "1")
    assert took.cpu < 20.0  # generous: the loops would run for hours
    assert r.code == 2 and f"{DB}:{line}" in r.err and message in r.err, r.err
    assert snapshot(proj / "output") == before


def test_force_builds_a_broken_deck_with_warnings(proj: Path) -> None:
    edit(proj, "copies: 13\n        text: Everyone", "copies: 12\n        text: Everyone")
    r = run("build", "bargains", "--project", str(proj), "--force")
    assert r.code == 0, r.err
    assert "warning: " in r.err and "deck-size" in r.err
    assert "Wrote 6 PDFs" in r.out


VARIANT = "variant:\n  name: rich\n  base: bargains\n  add:\n  - 10s\n"


@pytest.mark.parametrize(
    "old,new,text,line",
    [
        ("base: bargains", "base: bargins", "did you mean 'bargains'", 3),
        ("  add:\n  - 10s\n", "  decks: many\n", "expected a whole number", 4),
        ("  add:\n  - 10s\n", "  add:\n  - 11s of nothing\n", "--add", 5),
    ],
    ids=["variant base", "variant decks type", "variant selector"],
)
def test_bad_variant_file(proj: Path, old: str, new: str, text: str, line: int) -> None:
    path = proj / "card_data" / "variants" / "rich.yaml"
    path.parent.mkdir()
    path.write_text(VARIANT.replace(old, new), encoding="utf-8")
    before = snapshot(proj / "output")
    r = run("build", str(path), "--project", str(proj))
    assert r.code == 2 and "Traceback" not in r.err, r.err
    assert (
        f"card_data/variants/rich.yaml:{line}" in r.err and text.replace("--add", "variant.add") in r.err
    ), r.err
    assert snapshot(proj / "output") == before


def test_stack_with_a_bad_selector(proj: Path) -> None:
    before = snapshot(proj / "output")
    r = run("stack", "bargains", "rich", "--project", str(proj), "--add", "11s of nothing")
    assert r.code == 2 and "--add" in r.err and "Traceback" not in r.err, r.err
    assert not (proj / "card_data" / "variants").exists()
    assert snapshot(proj / "output") == before


def test_stack_on_a_broken_base(proj: Path) -> None:
    line = edit(proj, "expected: 65", "expected: {}")
    r = run("stack", "bargains", "rich", "--project", str(proj), "--add", "10s")
    assert r.code == 2 and f"{DB}:{line}" in r.err, r.err
    assert not (proj / "card_data" / "variants").exists()


def test_unknown_game(proj: Path) -> None:
    before = snapshot(proj / "output")
    r = run("preview", "bargans", "--project", str(proj))
    assert r.code == 2 and "did you mean 'bargains'" in r.err, r.err
    assert snapshot(proj / "output") == before


def test_schema_out(proj: Path) -> None:
    r = run("schema", "--out", str(proj / "output"))
    assert r.code == 2 and "is a folder" in r.err, r.err
    target = proj / "schema.json"
    r = run("schema", "--out", str(target))
    assert r.code == 0 and f"to {target}" in r.out and target.is_file()


def test_out_is_a_file(proj: Path) -> None:
    target = proj / "output" / "manifest.json"
    before = snapshot(proj / "output")
    r = run("build", "bargains", "--project", str(proj), "--out", str(target))
    assert r.code == 2 and f"{target}: --out: this is a file" in r.err, r.err
    assert snapshot(proj / "output") == before


def test_out_is_read_only(proj: Path) -> None:
    if os.geteuid() == 0:  # root writes through permission bits; /sys is read-only even for root
        target = Path("/sys/kernel")
    else:
        target = proj / "output"
        target.chmod(0o555)
    before = snapshot(proj / "output")
    try:
        r = run("build", "bargains", "--project", str(proj), "--out", str(target))
    finally:
        (proj / "output").chmod(0o755)
    assert r.code == 2 and "cannot write in the output folder" in r.err and "nothing was written" in r.err, (
        r.err
    )
    assert snapshot(proj / "output") == before


def test_no_fonts_folder_says_which_fonts(proj: Path, tmp_path: Path) -> None:
    shutil.rmtree(proj / "fonts")
    r = run("build", "bargains", "--project", str(proj), "--out", str(tmp_path / "out"))
    assert r.code == 0, r.err
    notes = [line for line in r.err.splitlines() if "fonts" in line]
    assert len(notes) == 1 and "no fonts/ folder" in notes[0] and "Bitstream Vera" in notes[0], r.err
