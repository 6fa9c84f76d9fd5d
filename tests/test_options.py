"""One declaration per option (`pnp.output.options`): the command line, serve's print settings, the sheet
defaults and the freshness key all come from it, and a value out of range is refused in the same words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pnp.cli.build import build
from pnp.output.options import OPTION, OPTIONS, PRINT_OPTIONS, freshness_key
from pnp.output.sheets import SheetOptions
from pnp.serve.builds import FIELDS, parse_settings

from conftest import make_project, run

# the parameters of `pnp build` that are the command's own (which games, which project, how many
# workers), shared with other commands and never part of what is printed
COMMAND_OWN = {"games", "project_dir", "jobs", "lang"}


def test_every_declared_option_is_on_the_command_line_and_in_serve() -> None:
    r = run("build", "--help")
    assert r.code == 0
    for o in OPTIONS:
        assert o.cli in r.out, o.name
    for o in PRINT_OPTIONS:
        assert o.name in FIELDS, o.name
    params = {p.name for p in build.params}
    assert params - COMMAND_OWN == set(OPTION), "a parameter of pnp build that is not declared"


def test_the_page_builds_its_form_from_the_declarations() -> None:
    from pnp.serve import server

    text = Path(server.__file__).read_text(encoding="utf-8")
    assert "print_options=[o.describe() for o in PRINT_OPTIONS]" in text
    described = [o.describe() for o in PRINT_OPTIONS]
    assert json.loads(json.dumps(described))[2] == {
        "name": "bleed",
        "kind": "number",
        "default": "3",
        "help": "Bleed in mm.",
        "low": 0,
        "high": 10,
        "choices": [],
    }


def test_sheet_defaults_are_the_declared_defaults() -> None:
    sheet = SheetOptions(None)  # type: ignore[arg-type]
    for name in ("duplex", "bleed", "back_offset", "crop_marks", "margin", "corner_radius", "gap"):
        assert getattr(sheet, name) == OPTION[name].default, name


@pytest.mark.parametrize(
    "name,value,says",
    [
        ("bleed", "11", "must be a number from 0 to 10"),
        ("bleed", "nan", "must be a number from 0 to 10"),
        ("back_offset", "30,0", None),  # within the one range (it was -20..20 in serve only)
        ("back_offset", "51,0", "each of X,Y must be a number of millimetres from -50 to 50"),
        ("players", "0", "must be a whole number from 1 to 10000"),
        ("duplex", "sideways", "must be one of long, short, off"),
        ("paper", "napkin", "napkin"),
        ("ink_limit", "50", "must be a number from 100 to 400"),
    ],
)
def test_a_value_is_refused_in_the_same_words_from_both(
    tmp_path: Path, name: str, value: str, says: str | None
) -> None:
    option = OPTION[name]
    if says is None:
        ctx = build.make_context("build", [option.cli, value])
        assert ctx.params[name] == dict(parse_settings({name: value}, []).values)[name] == (30.0, 0.0)
        return
    cli = run("build", "--project", str(tmp_path), option.cli, value)
    assert cli.code == 2 and says in cli.err and option.cli in cli.err, cli.err
    with pytest.raises(ValueError) as served:
        parse_settings({name: value}, [])
    assert says in str(served.value)
    cli_words = cli.err.split(f"'{option.cli}': ", 1)[1].strip()
    assert str(served.value) == f"{name}: {cli_words}"


def test_a_non_output_option_leaves_the_freshness_key_alone() -> None:
    values = {o.name: o.default for o in OPTIONS}
    key = freshness_key(values)
    for o in OPTIONS:
        changed = dict(values, **{o.name: "x" if o.kind in ("text", "file") else not o.default})
        assert (freshness_key(changed) == key) is (not o.output), o.name
    assert "out_dir" not in key and "force" not in key and "bleed" in key


@pytest.mark.slow
def test_a_forced_build_of_an_up_to_date_folder_rebuilds_nothing(tmp_path: Path) -> None:
    """--force (a non-output option) does not rebuild; --bleed (an output option) does."""
    proj = make_project(tmp_path / "proj", ("bargains",))
    out = tmp_path / "out"
    args = ("build", "--project", str(proj), "--out", str(out), "--jobs", "1")
    assert "Wrote" in run(*args).out
    assert "Up to date" in run(*args, "--force").out
    assert "Wrote" in run(*args, "--bleed", "2").out
