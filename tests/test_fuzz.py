"""Fuzzing the loader: whatever a person does to a database, the answer is a clear error, never a crash.

Each example takes one of the five game databases or a stacked-deck variant file,
applies a few edits to its YAML tree (every node kind: a scalar replaced by [], {},
null, true, -1, 1.5, 10**12, a 10 KB string or a non-UTF-8 byte; a key removed or
duplicated; a list item dropped or repeated), writes it back and loads it. The
result must be a loaded game that the checker, the board reader and the booklet
renderer accept or reject with located problems, or an InputError naming the file.

The "ci" hypothesis profile (tests/conftest.py) runs a fixed, derandomized set of
examples; `PNP_FUZZ=deep` runs thousands of random ones.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.data.format.errors import InputError
from pnp.data.reading.boardspec import parse_board
from pnp.data.reading.loader import load_game
from pnp.output.booklets import prepare
from pnp.rules.checker import check_game

from conftest import ROOT

VARIANTS = {
    "bloody.yaml": {
        "variant": {
            "name": "bloody",
            "base": "fairy-meat",
            "decks": 2,
            "remove": ["4-6"],
            "add": ["2-3 of hearts,spades"],
            "jokers": 3,
            "color": "#8b1a1a",
        }
    },
    "rich.yaml": {"variant": {"name": "rich", "base": "bargains", "add": ["10s"], "mark": "R"}},
}
SOURCES: dict[str, Any] = {
    p.name: yaml.safe_load(p.read_text(encoding="utf-8")) for p in sorted((ROOT / "card_data").glob("*.yaml"))
}
SOURCES.update(VARIANTS)
NAMES = sorted(SOURCES)

BAD_BYTES = "NONUTF8SENTINEL"
DUP = "DUPSENTINEL"
ESCAPE = "fuzz-escape"  # a name that, taken as a path, would leave the project: tests look for it
REPLACEMENTS: list[Any] = [
    [],
    {},
    None,
    True,
    -1,
    1.5,
    10**12,
    "x" * 10_240,
    BAD_BYTES,
    # what a hostile tester tried: paths, device names, numbers that are not, formulas, a mapping, floods
    f"../../../../{ESCAPE}",
    "CON",
    float("inf"),
    float("nan"),
    10**30,
    {"text": "x", "n": 1},
    '=HYPERLINK("http://127.0.0.1/","x")',
    "{sun}" * 1_900,
]
KINDS = ["replace", "remove_key", "duplicate_key", "drop_item", "repeat_item"]


def nodes(data: Any, path: tuple = ()) -> list[tuple[tuple, Any]]:
    """Every node of a YAML tree with its path (keys and indices)."""
    out = [(path, data)]
    if isinstance(data, dict):
        for k, v in data.items():
            out += nodes(v, path + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += nodes(v, path + (i,))
    return out


def copy(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: copy(v) for k, v in data.items()}
    if isinstance(data, list):
        return [copy(v) for v in data]
    return data


def _parent(data: Any, path: tuple) -> Any:
    for step in path[:-1]:
        data = data[step]
    return data


def mutate(data: Any, kind: str, pick: int, token: int) -> Any:
    """Apply one edit of `kind` at the `pick`-th node that allows it (deterministic)."""
    data = copy(data)
    all_nodes = nodes(data)
    if kind == "replace":
        spots = [p for p, n in all_nodes if p and not isinstance(n, (dict, list))] or [
            p for p, _ in all_nodes if p
        ]
    elif kind in ("remove_key", "duplicate_key"):
        spots = [p for p, _ in all_nodes if p and isinstance(_parent(data, p), dict)]
    else:
        spots = [p for p, _ in all_nodes if p and isinstance(_parent(data, p), list)]
    if not spots:
        return data
    path = spots[pick % len(spots)]
    parent, last = _parent(data, path), path[-1]
    if kind == "replace":
        parent[last] = copy(REPLACEMENTS[token % len(REPLACEMENTS)])
    elif kind == "remove_key":
        del parent[last]
    elif kind == "duplicate_key":
        parent[f"{last}{DUP}"] = copy(parent[last])
    elif kind == "drop_item":
        del parent[last]
    else:
        parent.insert(last, copy(parent[last]))
    return data


def render(data: Any) -> bytes:
    dumper = getattr(
        yaml, "CSafeDumper", yaml.SafeDumper
    )  # libyaml's emitter: the fuzz spends less time writing
    text = yaml.dump(data, Dumper=dumper, sort_keys=False, allow_unicode=True, width=10**6)
    return text.replace(DUP, "").encode("utf-8").replace(BAD_BYTES.encode(), b"caf\xe9")


edit = st.tuples(st.sampled_from(KINDS), st.integers(0, 10**6), st.integers(0, len(REPLACEMENTS) - 1))


def exercise(path: Path, display: str) -> None:
    """Load a database and run everything that reads it without drawing: rules, boards, booklets."""
    try:
        game = load_game(path, display, ROOT)
        check_game(game)  # a database that loads can always be checked
        for comp in game.components:
            if comp.kind == "board":
                parse_board(game, comp)
            elif comp.kind == "booklet":
                prepare(game, comp)
    except InputError as exc:
        assert exc.problems and all(p.message for p in exc.problems)
        assert any(
            Path(p.file).name == display or p.file.startswith(("card_data/", "templates/"))
            for p in exc.problems
        ), [str(p) for p in exc.problems]


@given(name=st.sampled_from(NAMES), edits=st.lists(edit, min_size=1, max_size=3))
def test_any_edit_loads_or_fails_cleanly(
    tmp_path_factory, name: str, edits: list[tuple[str, int, int]]
) -> None:
    data = SOURCES[name]
    for kind, pick, token in edits:
        data = mutate(data, kind, pick, token)
    path = tmp_path_factory.mktemp("fuzz") / name
    path.write_bytes(render(data))
    exercise(path, name)


LINES = (ROOT / "card_data" / "bargains.yaml").read_text(encoding="utf-8").splitlines()
TOKENS = [
    "",
    "-1",
    "0",
    "13",
    "1.5",
    "true",
    "null",
    "[]",
    "{}",
    "[1, 2]",
    "{a: 1}",
    "'x'",
    '"{{ card.nope }}"',
    '"{% if %}"',
    "poker",
    "99x",
    "*anchor",
    "&anchor x",
    ":",
    "- x",
    "ünïcödé ✓",
    "!!python/object:os.system",
    '"{{ card.__class__.__mro__ }}"',
    '"{{ range(10**9)|list|length }}"',
    "1e999",
    ".nan",
]
line_edit = st.tuples(
    st.sampled_from(["delete", "duplicate", "value", "indent"]),
    st.integers(0, len(LINES) - 1),
    st.sampled_from(TOKENS + ["", " ", "    "]),
)


def edit_lines(lines: list[str], edits: list[tuple[str, int, str]]) -> str:
    """Text-level edits, for what a tree edit cannot make: broken indentation, tags, anchors."""
    out = list(lines)
    for kind, i, token in edits:
        i %= len(out)
        if kind == "delete":
            del out[i]
        elif kind == "duplicate":
            out.insert(i, out[i])
        elif kind == "value" and ":" in out[i]:
            out[i] = f"{out[i].split(':', 1)[0]}: {token}"
        elif kind == "indent" and not token.strip():
            out[i] = token + out[i].lstrip()
        out = out or [""]
    return "\n".join(out) + "\n"


@given(edits=st.lists(line_edit, min_size=1, max_size=3))
def test_any_line_edit_loads_or_fails_cleanly(tmp_path_factory, edits: list[tuple[str, int, str]]) -> None:
    path = tmp_path_factory.mktemp("lines") / "bargains.yaml"
    path.write_text(edit_lines(LINES, edits), encoding="utf-8")
    exercise(path, "bargains.yaml")


def test_every_source_loads_unchanged(tmp_path: Path) -> None:
    """The fuzz starts from databases that load: a mutation is what breaks them."""
    for name in NAMES:
        path = tmp_path / name
        path.write_bytes(render(SOURCES[name]))
        load_game(path, name, ROOT)


def test_mutations_cover_every_node_kind() -> None:
    """Each edit kind changes the rendered database (so the fuzz really tries it)."""
    base = render(SOURCES["bargains.yaml"])
    for kind in KINDS:
        tokens = range(len(REPLACEMENTS)) if kind == "replace" else [0]
        for token in tokens:
            assert render(mutate(SOURCES["bargains.yaml"], kind, 7, token)) != base, (kind, token)
    assert b"\xe9" in render(mutate(SOURCES["bargains.yaml"], "replace", 3, REPLACEMENTS.index(BAD_BYTES)))


# -- the slow tier: the same fuzz, 5,000 examples in all (still derandomized) ------------------

WIDE = 2_500


@pytest.mark.slow
@settings(max_examples=WIDE)
@given(name=st.sampled_from(NAMES), edits=st.lists(edit, min_size=1, max_size=3))
def test_many_edits_load_or_fail_cleanly(
    tmp_path_factory, name: str, edits: list[tuple[str, int, int]]
) -> None:
    test_any_edit_loads_or_fails_cleanly.hypothesis.inner_test(tmp_path_factory, name, edits)


@pytest.mark.slow
@settings(max_examples=WIDE)
@given(edits=st.lists(line_edit, min_size=1, max_size=3))
def test_many_line_edits_load_or_fail_cleanly(tmp_path_factory, edits: list[tuple[str, int, str]]) -> None:
    test_any_line_edit_loads_or_fails_cleanly.hypothesis.inner_test(tmp_path_factory, edits)
