"""Fuzzing the loader: whatever a person does to a database, the answer is a clear error, never a crash."""
from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import ROOT
from pnp.data.errors import InputError
from pnp.data.loader import load_game
from pnp.rules.checker import check_game

LINES = (ROOT / "card_data" / "bargains.yaml").read_text().splitlines()
TOKENS = ["", "-1", "0", "13", "1.5", "true", "null", "[]", "{}", "[1, 2]", "{a: 1}", "'x'", '"{{ card.nope }}"',
          '"{% if %}"', "poker", "99x", "*anchor", "&anchor x", ":", "- x", "ünïcödé ✓", "!!python/object:os.system"]

edit = st.one_of(
    st.tuples(st.just("delete"), st.integers(0, len(LINES) - 1), st.just("")),
    st.tuples(st.just("duplicate"), st.integers(0, len(LINES) - 1), st.just("")),
    st.tuples(st.just("value"), st.integers(0, len(LINES) - 1), st.sampled_from(TOKENS)),
    st.tuples(st.just("indent"), st.integers(0, len(LINES) - 1), st.sampled_from(["", " ", "    "])),
)


def mutate(lines: list[str], edits: list[tuple[str, int, str]]) -> str:
    out = list(lines)
    for kind, i, token in edits:
        i %= len(out)
        if kind == "delete":
            del out[i]
        elif kind == "duplicate":
            out.insert(i, out[i])
        elif kind == "value" and ":" in out[i]:
            key = out[i].split(":", 1)[0]
            out[i] = f"{key}: {token}"
        elif kind == "indent":
            out[i] = token + out[i].lstrip()
        if not out:
            out = [""]
    return "\n".join(out) + "\n"


@given(edits=st.lists(edit, min_size=1, max_size=3))
@settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_any_edit_loads_or_fails_cleanly(tmp_path: Path, edits: list[tuple[str, int, str]]) -> None:
    path = tmp_path / "bargains.yaml"
    path.write_text(mutate(LINES, edits), encoding="utf-8")
    try:
        game = load_game(path, "bargains.yaml", ROOT)
    except InputError as exc:
        assert exc.problems and all(p.file == "bargains.yaml" and p.message for p in exc.problems)
        return
    check_game(game)  # a database that loads can always be checked
