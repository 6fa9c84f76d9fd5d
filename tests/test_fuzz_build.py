"""Fuzzing whole projects through the command line: every kind of file, edited, then checked and drawn.

Where tests/test_fuzz.py loads edited databases, this runs `pnp check` and
`pnp build --force` (every card, board, booklet and checklist drawn) on edited
copies of: the five databases and the stacked variants; the starter project of
`pnp new` with its CSV; booklet templates; and `fonts/fonts.yaml`. Whatever the
edit, the answer is exit 0, 1 (a broken rule) or 2 with located problems: never
a traceback, never a hang. The commands run in-process with exceptions not
caught, so any exception fails the example.

The "ci" hypothesis profile runs a few fixed examples per kind; `PNP_FUZZ=deep`
runs EXAMPLES_DEEP of each (more than 5,000 in all) and prints the peak memory.
"""

from __future__ import annotations

import csv
import io
import os
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from test_fuzz import ESCAPE, NAMES, SOURCES, edit, mutate, render

from conftest import ROOT, run, timed

DEEP = os.environ.get("PNP_FUZZ") == "deep"
EXAMPLES_DEEP = int(
    os.environ.get("PNP_FUZZ_EXAMPLES", 1_500)
)  # per kind of file: four kinds, 6,000 examples
EXAMPLES_CI = 4
EXAMPLES_WIDE = 16  # the slow tier's run of each
SLOW = 60.0  # CPU seconds: an example running longer counts as a hang
examples = settings(max_examples=EXAMPLES_DEEP if DEEP else EXAMPLES_CI)


def cli(*args: str) -> int:
    """A pnp command that must end with 0, 1 or 2, quickly, problems naming where they are."""
    with timed() as took:
        r = run(*args)  # exceptions are not caught: a traceback fails the example
    assert took.cpu < SLOW, f"pnp {' '.join(args)} ran {took.cpu:.0f} s of CPU"
    assert r.code in (0, 1, 2), (r.code, r.err)
    assert "Traceback" not in r.err + r.out, r.err
    if r.code == 2:  # warnings of broken rules may come first (--force)
        assert re.search(r"^error: .+\n  \S", r.err, re.M), r.err
    return r.code


def check_and_build(target: str, project: Path, out: Path) -> None:
    cli("check", target, "--project", str(project))
    cli("build", target, "--project", str(project), "--out", str(out), "--force", "-j", "1")


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the repository's project (databases, templates, fonts, art) the examples edit and restore."""
    dest = tmp_path_factory.mktemp("fuzzproject")
    for folder in ("card_data", "templates", "fonts", "art"):
        if (ROOT / folder).is_dir():
            shutil.copytree(ROOT / folder, dest / folder)
    return dest


@pytest.fixture(scope="module")
def starter(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dest = tmp_path_factory.mktemp("fuzzstarter") / "game"
    assert run("new", str(dest)).code == 0
    return dest


class Edited:
    """Write a file's edited bytes for one example and put the original back afterwards."""

    def __init__(self, path: Path, data: bytes):
        self.path, self.data, self.original = path, data, path.read_bytes()

    def __enter__(self) -> Path:
        self.path.write_bytes(self.data)
        return self.path

    def __exit__(self, *exc: Any) -> None:
        self.path.write_bytes(self.original)


# -- databases and variants -----------------------------------------------------------------


@pytest.mark.slow
@examples
@given(name=st.sampled_from(NAMES), edits=st.lists(edit, min_size=1, max_size=3))
def test_any_database_edit_checks_and_builds_cleanly(
    project: Path, tmp_path_factory: pytest.TempPathFactory, name: str, edits: list[tuple[str, int, int]]
) -> None:
    data = SOURCES[name]
    for kind, pick, token in edits:
        data = mutate(data, kind, pick, token)
    where = project / "card_data" / ("variants" if "variant" in SOURCES[name] else "") / name
    where.parent.mkdir(exist_ok=True)
    original = where.read_bytes() if where.exists() else None
    try:
        where.write_bytes(render(data))
        check_and_build(str(where), project, tmp_path_factory.mktemp("out"))
        base = tmp_path_factory.getbasetemp()
        assert not [*base.glob(f"{ESCAPE}*"), *base.glob(f"*/{ESCAPE}*")], "a file was written outside"
    finally:
        if original is None:
            where.unlink()
        else:
            where.write_bytes(original)


# -- the starter project: its database and its CSV -------------------------------------------

CELLS = [
    "",
    "0",
    "-1",
    "13",
    "1.5",
    "1e999",
    "nan",
    "true",
    "x" * 11_000,
    "ünïcödé ✓ 🧚",
    "**bold *both** it*",
    "{sun}",
    "{nope}",
    "{{ card.nope }}",
    "{% for i in range(10**9) %}{% endfor %}",
    "a\x00b",
    "=1+1",
    '"quoted',
    "line\nbreak",
    "9" * 40,
]
csv_edit = st.tuples(
    st.sampled_from(
        [
            "cell",
            "drop_column",
            "rename_column",
            "add_column",
            "drop_row",
            "repeat_row",
            "bad_bytes",
            "truncate",
        ]
    ),
    st.integers(0, 10**6),
    st.integers(0, 10**6),
    st.sampled_from(CELLS),
)


def edit_csv(text: str, edits: list[tuple[str, int, int, str]]) -> bytes:
    rows = list(csv.reader(io.StringIO(text)))
    raw = b""
    for kind, a, b, token in edits:
        if not rows:
            break
        r, c = a % len(rows), b % max(1, len(rows[0]))
        if kind == "cell" and rows[r]:
            rows[r][c % len(rows[r])] = token
        elif kind == "drop_column":
            rows = [row[:c] + row[c + 1 :] for row in rows]
        elif kind == "rename_column" and rows[0]:
            rows[0][c % len(rows[0])] = token or "renamed"
        elif kind == "add_column":
            rows = [row + [token if i else "extra"] for i, row in enumerate(rows)]
        elif kind == "drop_row" and len(rows) > 1:
            del rows[r]
        elif kind == "repeat_row":
            rows.insert(r, list(rows[r]))
        elif kind == "bad_bytes":
            raw = b"\xff\xfe\xe9"
        elif kind == "truncate":
            rows = rows[: r + 1]
    buf = io.StringIO()
    csv.writer(buf).writerows(rows)
    return buf.getvalue().encode("utf-8") + raw


@examples
@given(csv_edits=st.lists(csv_edit, max_size=3), yaml_edits=st.lists(edit, max_size=2))
def test_any_starter_edit_checks_and_builds_cleanly(
    starter: Path, tmp_path_factory: pytest.TempPathFactory, csv_edits: list, yaml_edits: list
) -> None:
    (db,) = (starter / "card_data").glob("*.yaml")
    (sheet,) = (starter / "card_data").glob("*.csv")
    data = yaml.safe_load(db.read_text(encoding="utf-8"))
    for kind, pick, token in yaml_edits:
        data = mutate(data, kind, pick, token)
    new_db = render(data) if yaml_edits else db.read_bytes()
    with Edited(db, new_db), Edited(sheet, edit_csv(sheet.read_text(encoding="utf-8"), csv_edits)):
        check_and_build(str(db), starter, tmp_path_factory.mktemp("out"))


# -- booklet templates ------------------------------------------------------------------------

TEMPLATE_TOKENS = [
    "{{",
    "}}",
    "{%",
    "%}",
    "{{ nope }}",
    "{{ game.nope }}",
    "{{ count('nope') }}",
    "{{ card('nope') }}",
    "{% include 'nope.md.j2' %}",
    "{% include '../../etc/passwd' %}",
    "{% for i in range(10**9) %}x{% endfor %}",
    "{{ 'x' * 10**8 }}",
    "**",
    "***",
    "*",
    "| a | b |",
    "|---|",
    "[[cards nope]]",
    "[[board nope]]",
    "[[cards 1 width=-5]]",
    "[[pagebreak]]",
    "# ",
    "#### deep",
    "> ",
    "- ",
    "1. ",
    "{sun}",
    "\x00",
    "\x85",
    "🧚",
    "x" * 6000,
]
template_edit = st.tuples(
    st.sampled_from(["insert", "delete", "duplicate", "append"]),
    st.integers(0, 10**6),
    st.sampled_from(TEMPLATE_TOKENS),
)
TEMPLATES = sorted(p.relative_to(ROOT / "templates").as_posix() for p in (ROOT / "templates").glob("*.j2"))


def edit_template(text: str, edits: list[tuple[str, int, str]]) -> str:
    lines = text.split("\n")
    for kind, i, token in edits:
        i %= max(1, len(lines))
        if kind == "insert":
            lines.insert(i, token)
        elif kind == "delete" and lines:
            del lines[i]
        elif kind == "duplicate" and lines:
            lines.insert(i, lines[i])
        else:
            lines[i] = lines[i] + token if lines else token
    return "\n".join(lines)


def _game_of_template(template: str) -> str:
    """The database whose booklet reads this template."""
    for path in sorted((ROOT / "card_data").glob("*.yaml")):
        if f"template: {template}" in path.read_text(encoding="utf-8"):
            return path.name
    return "bargains.yaml"


@examples
@given(template=st.sampled_from(TEMPLATES), edits=st.lists(template_edit, min_size=1, max_size=3))
def test_any_template_edit_checks_and_builds_cleanly(
    project: Path, tmp_path_factory: pytest.TempPathFactory, template: str, edits: list
) -> None:
    path = project / "templates" / template
    text = edit_template(path.read_text(encoding="utf-8"), edits)
    with Edited(path, text.encode("utf-8", "surrogatepass")):
        check_and_build(
            str(project / "card_data" / _game_of_template(template)), project, tmp_path_factory.mktemp("out")
        )


# -- fonts.yaml ---------------------------------------------------------------------------------

FONTS = yaml.safe_load((ROOT / "fonts" / "fonts.yaml").read_text(encoding="utf-8"))


@examples
@given(
    edits=st.lists(edit, min_size=1, max_size=3),
    game=st.sampled_from(sorted(p.name for p in (ROOT / "card_data").glob("*.yaml"))),
)
def test_any_font_list_edit_checks_and_builds_cleanly(
    project: Path, tmp_path_factory: pytest.TempPathFactory, edits: list, game: str
) -> None:
    data = FONTS
    for kind, pick, token in edits:
        data = mutate(data, kind, pick, token)
    with Edited(project / "fonts" / "fonts.yaml", render(data)):
        check_and_build(str(project / "card_data" / game), project, tmp_path_factory.mktemp("out"))


def test_the_edits_change_what_they_edit() -> None:
    """Each edit kind really changes its file (so the fuzz tries what it says)."""
    text = "a,b,c\n1,2,3\n4,5,6\n"
    for kind in ("cell", "drop_column", "rename_column", "add_column", "drop_row", "repeat_row", "bad_bytes"):
        assert edit_csv(text, [(kind, 1, 1, "zz")]) != text.encode(), kind
    template = (ROOT / "templates" / TEMPLATES[0]).read_text(encoding="utf-8")
    for kind in ("insert", "delete", "duplicate", "append"):
        assert edit_template(template, [(kind, 3, "{{")]) != template, kind
    assert render(mutate(FONTS, "replace", 1, 0)) != render(FONTS)


# -- the slow tier: each fuzz above with four times the examples (still derandomized) ----------

wide = settings(max_examples=EXAMPLES_WIDE)


@pytest.mark.slow
@wide
@given(name=st.sampled_from(NAMES), edits=st.lists(edit, min_size=1, max_size=3))
def test_more_database_edits_check_and_build_cleanly(project, tmp_path_factory, name, edits) -> None:
    test_any_database_edit_checks_and_builds_cleanly.hypothesis.inner_test(
        project, tmp_path_factory, name, edits
    )


@pytest.mark.slow
@wide
@given(csv_edits=st.lists(csv_edit, max_size=3), yaml_edits=st.lists(edit, max_size=2))
def test_more_starter_edits_check_and_build_cleanly(starter, tmp_path_factory, csv_edits, yaml_edits) -> None:
    test_any_starter_edit_checks_and_builds_cleanly.hypothesis.inner_test(
        starter, tmp_path_factory, csv_edits, yaml_edits
    )


@pytest.mark.slow
@wide
@given(template=st.sampled_from(TEMPLATES), edits=st.lists(template_edit, min_size=1, max_size=3))
def test_more_template_edits_check_and_build_cleanly(project, tmp_path_factory, template, edits) -> None:
    test_any_template_edit_checks_and_builds_cleanly.hypothesis.inner_test(
        project, tmp_path_factory, template, edits
    )


@pytest.mark.slow
@wide
@given(
    edits=st.lists(edit, min_size=1, max_size=3),
    game=st.sampled_from(sorted(p.name for p in (ROOT / "card_data").glob("*.yaml"))),
)
def test_more_font_list_edits_check_and_build_cleanly(project, tmp_path_factory, edits, game) -> None:
    test_any_font_list_edit_checks_and_builds_cleanly.hypothesis.inner_test(
        project, tmp_path_factory, edits, game
    )
