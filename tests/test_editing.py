"""Writing a card back into its file: the value lands, reads back exactly, and no other byte moves.

Every card of every bundled database is edited with awkward values (YAML syntax characters,
quotes, line breaks, non-ASCII), in flow and block style; the result must load to the intended
values and differ from the original only inside that card.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pnp.data.editing import cards, rows, yamltext
from pnp.data.editing.yamltext import REMOVE, EditError
from pnp.data.reading.tables import FORMULA_START, cell_from_text, read_rows, text_cell

from conftest import ROOT

AWKWARD = [
    "plain words",
    "a: colon",
    "# not a comment",
    "quote's",
    'say "hi"',
    "- dash first",
    "{braces}, [list]",
    "two\nlines",
    "ends with newline\n",
    "  leading spaces",
    "trailing ",
    "ümlaut – dash ✓",
    "@at",
    "*star",
    "yes",
    "null",
    "12",
    "3.5",
    "|pipe",
    ">fold",
    "%percent",
    "`tick",
    "x" * 150,
]
DATABASES = sorted((ROOT / "card_data").glob("*.yaml"))


def _cards_of(text: str) -> dict[str, list[dict]]:
    data = yaml.load(text, Loader=yamltext.LOADER)  # noqa: S506 - a safe loader (libyaml's when installed)
    return {c["key"]: c["cards"] for c in data["components"] if isinstance(c.get("cards"), list)}


def _common(a: str, b: str) -> int:
    """The length of the longest common start of two texts (a binary search: slices compare in C)."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _outside(before: str, after: str) -> tuple[str, str]:
    """The common start and end of two texts (what an edit must leave alone)."""
    start = _common(before, after)
    end = min(_common(before[::-1], after[::-1]), min(len(before), len(after)) - start)
    return before[:start], before[len(before) - end :]


@pytest.mark.parametrize("database", DATABASES, ids=lambda p: p.stem)
def test_every_card_takes_awkward_values_and_nothing_else_moves(database: Path) -> None:
    raw = database.read_bytes()
    text = raw.decode()
    lists = _cards_of(text)
    assert lists, database
    checked = 0
    for comp, card_list in lists.items():
        where = cards.locate(database, ROOT, comp)
        for i, card in enumerate(card_list[:3]):
            for value in (AWKWARD * 2)[
                i * 8 : i * 8 + 4
            ]:  # four of the awkward values per card, others each time
                for name in ("text", "name"):
                    if isinstance(card.get(name), dict):
                        continue  # a text per language ({en: ..., de: ...}) is edited in the file
                    new = cards.change(where, raw, str(card["key"]), {name: value}).decode()
                    after = _cards_of(new)
                    expected = [dict(c) for c in card_list]
                    expected[i][name] = value
                    assert after[comp] == expected, (database.name, card["key"], name, value)
                    assert {k: v for k, v in after.items() if k != comp} == {
                        k: v for k, v in lists.items() if k != comp
                    }
                    head, tail = _outside(text, new)
                    assert len(head) + len(tail) >= len(text) - 2000  # only the card's own lines differ
                    checked += 1
    assert checked >= 16


def test_keys_are_added_and_removed_in_flow_and_block_cards() -> None:
    text = (
        'cards:\n  - {key: a, name: A, text: "x"}   # flow\n'
        "  - key: b\n    name: B\n    text: |\n      one\n      two\n\n    copies: 2\n# the end\n"
    )
    node = yamltext.compose(text)
    seq = node.value[0][1]
    added = yamltext.set_values(text, seq.value[0], {"copies": 3, "text": REMOVE})
    assert added.splitlines()[1] == "  - {key: a, name: A, copies: 3}   # flow"
    node = yamltext.compose(added)
    removed = yamltext.set_values(added, node.value[0][1].value[1], {"text": REMOVE, "value": 5})
    assert removed.endswith("  - key: b\n    name: B\n\n    copies: 2\n    value: 5\n# the end\n"), removed
    blocky = yamltext.set_values(text, seq.value[1], {"text": "only one line"})
    assert "    text: only one line\n\n    copies: 2\n" in blocky
    with pytest.raises(EditError, match="starts the card"):
        yamltext.set_values(text, seq.value[1], {"key": REMOVE})


def test_csv_rows_change_alone_whatever_the_file_looks_like() -> None:
    text = 'key,name,copies,text\r\nA,"Quoted, name",2,"two\r\nlines"\r\nB,Plain,1,\r\n'
    new = rows.csv_set(text, "B", {"name": 'Say "hi"', "text": "x, y"})
    assert new == 'key,name,copies,text\r\nA,"Quoted, name",2,"two\r\nlines"\r\nB,"Say ""hi""",1,"x, y"\r\n'
    added = rows.csv_set(
        text, "A", {"suit": "moon"}
    )  # a new column: at the end of the header and that row only
    assert added.splitlines()[0] == "key,name,copies,text,suit"
    assert list(csv.reader(io.StringIO(added)))[1] == ["A", "Quoted, name", "2", "two\r\nlines", "moon"]
    assert rows.csv_add("key,name\nA,a", {"key": "B", "name": "b"}) == "key,name\nA,a\nB,b\n"
    with pytest.raises(EditError, match="no row with key 'C'"):
        rows.csv_set(text, "C", {"name": "x"})


@settings(max_examples=60, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=40))
def test_any_text_reads_back_exactly(value: str) -> None:
    """Whatever a person types into a field, the file reads back to exactly that (or the edit is refused)."""
    text = "cards:\n  - key: a\n    name: A\n  - {key: b, name: B}\n"
    for index in (0, 1):
        node = yamltext.compose(text).value[0][1].value[index]
        try:
            new = yamltext.set_values(text, node, {"name": value})
            loaded = yaml.safe_load(new)["cards"][index]["name"]
        except (EditError, yaml.YAMLError):
            continue
        assert loaded == value or (not value and loaded is None), (index, value, new)


@settings(max_examples=80, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.text(
        st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\ufffe\uffff") | st.just("\t"),
        min_size=1,
        max_size=30,
    )
)
def test_a_value_with_tabs_reads_back_with_both_yaml_loaders(value: str) -> None:
    """libyaml takes a tab inside a plain value; PyYAML's pure-Python loader does not: such a value
    is written quoted, so both read it back the same (and no text the form allows is refused)."""
    text = "cards:\n  - key: a\n    name: A\n  - {key: b, name: B}\n"
    for index in (0, 1):
        node = yamltext.compose(text).value[0][1].value[index]
        try:
            new = yamltext.set_values(text, node, {"name": value})
        except EditError:
            assert not value.strip(), value  # only a value of spaces alone may be refused
            continue
        for loader in (yaml.SafeLoader, yamltext.LOADER):
            loaded = yaml.load(new, Loader=loader)["cards"][index]["name"]  # noqa: S506 - safe loaders
            assert loaded == value, (loader, index, value, new)


def test_a_name_with_a_tab_is_written_quoted() -> None:
    text = "cards:\n  - key: a\n    name: A\n"
    new = yamltext.set_values(text, yamltext.compose(text).value[0][1].value[0], {"name": "Fire\tfly"})
    assert new == 'cards:\n  - key: a\n    name: "Fire\\tfly"\n'
    assert yaml.load(new, Loader=yaml.SafeLoader)["cards"][0]["name"] == "Fire\tfly"  # noqa: S506


@settings(max_examples=200, derandomize=True, deadline=None)
@given(st.text(st.sampled_from("'=+-@\t\rab ,\"\n"), max_size=12))
def test_a_csv_cell_reads_back_as_written_and_never_starts_a_formula(value: str) -> None:
    cell = text_cell(value)
    assert cell_from_text(cell) == value
    assert not cell.startswith(FORMULA_START)
    text = rows.csv_set("key,name,text\nA,a,x\n", "A", {"text": value})
    assert read_rows(Path("cards.csv"), None, text.encode())[1][2:] == ([value] if value else [])


def test_a_control_character_never_reaches_openpyxl_as_an_error() -> None:
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    book.active.append(["key", "name"])
    book.active.append(["a", "A"])
    out = io.BytesIO()
    book.save(out)
    with pytest.raises(EditError, match="control character"):
        rows.xlsx_set(out.getvalue(), None, "a", {"name": "nul\x00"})
    new = rows.xlsx_set(out.getvalue(), None, "a", {"name": "=1+1", "text": "@x"})
    ws = openpyxl.load_workbook(io.BytesIO(new)).active
    assert [(c.value, c.data_type) for c in ws[2]] == [("a", "s"), ("=1+1", "s"), ("@x", "s")]
    assert read_rows(Path("cards.xlsx"), None, new)[1] == ["a", "=1+1", "@x"]


def test_a_semicolon_csv_stays_one_when_a_card_is_saved() -> None:
    text = "key;name;text\r\nA;a;x, y\r\nB;b;z\r\n"
    assert rows.csv_set(text, "B", {"name": "bee"}) == "key;name;text\r\nA;a;x, y\r\nB;bee;z\r\n"
    assert rows.csv_add(text, {"key": "C", "name": "c"}).endswith("B;b;z\r\nC;c;\r\n")
