"""Every number pnp takes is bounded before work starts: an error naming the option or the file:line, no traceback."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import assert_quick, make_project, posix_only, run, shown, timed


@pytest.mark.parametrize(
    "args,says",
    [
        (["--back-offset", "inf,0"], "--back-offset"),
        (["--back-offset", "nan,nan"], "--back-offset"),
        (["--back-offset", "1e300,1e300"], "--back-offset"),
        (["--paper", "99999999999999999999x5"], "--paper"),
        (["--board-paper", "1x1"], "--board-paper"),
        (["--margin", "nan"], "--margin"),
        (["--bleed", "nan"], "--bleed"),
        (["--corner-radius", "nan"], "--corner-radius"),
        (["--max-dpi", "inf"], "--max-dpi"),
    ],
)
def test_a_build_option_out_of_range_is_refused(tmp_path: Path, args: list[str], says: str) -> None:
    proj = make_project(tmp_path / "proj", ("bargains",))
    out = tmp_path / "out"
    r = run("build", "bargains", "--project", str(proj), "--out", str(out), *args)
    assert r.code == 2 and says in r.err and "Traceback" not in r.err, r.err
    assert not out.exists()


def test_a_card_size_out_of_range_names_its_line(tmp_path: Path) -> None:
    proj = make_project(tmp_path / "proj", ("bargains",))
    db = proj / "card_data" / "bargains.yaml"
    text = db.read_text(encoding="utf-8")
    db.write_text(text.replace("card_size: poker", "card_size: 999999999999999999999x5", 1), encoding="utf-8")
    line = text.split("card_size: poker")[0].count("\n") + 1
    r = run("check", "--project", str(proj))
    assert r.code == 2 and f"bargains.yaml:{line}:" in r.err and "5 to 1000 mm" in r.err, r.err


def test_an_export_too_large_to_draw_is_refused_at_once(tmp_path: Path) -> None:
    """A 1 m card at 1200 dpi would be a 2-gigapixel picture: refused before anything is drawn."""
    proj = make_project(tmp_path / "proj", ("bargains",))
    db = proj / "card_data" / "bargains.yaml"
    db.write_text(
        db.read_text(encoding="utf-8").replace("card_size: poker", "card_size: 1000x1000", 1),
        encoding="utf-8",
    )
    out = tmp_path / "out"
    r = run("export", "png", "bargains", "--dpi", "1200", "--project", str(proj), "--out", str(out))
    assert r.code == 2 and "47244 x 47244 pixels" in r.err and "Traceback" not in r.err, r.err
    assert not any(shown(out, ".png")) if out.exists() else True


@pytest.mark.parametrize(
    "template",
    [
        "{{ 'x'.ljust(10**9) }}",
        "{{ '%.999999999f' | format(1.0) }}",
        "{{ 'x'.zfill(10**8) }}",
        "{{ 'x'.center(2000000) }}",
    ],
)
def test_a_template_that_would_build_a_huge_string_is_refused_before_it_allocates(template: str) -> None:
    import tracemalloc

    from pnp.data.templating.engine import compile_text, render_template
    from pnp.data.templating.sandbox import TemplateLimit

    compiled = compile_text(template)
    tracemalloc.start()
    try:
        with pytest.raises(TemplateLimit):
            render_template(compiled, {})
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 10 * 2**20, peak  # refused before allocating, not stopped by a limit afterwards
    assert (
        render_template(compile_text("{{ 'ab'.ljust(4) }}|{{ '%.2f' | format(3.14159) }}"), {}) == "ab  |3.14"
    )


def test_a_huge_string_in_a_slot_is_a_located_error(tmp_path: Path) -> None:
    proj = make_project(tmp_path / "proj", ("bargains",))
    db = proj / "card_data" / "bargains.yaml"
    text = db.read_text(encoding="utf-8")
    db.write_text(
        text.replace('subtitle: "a bargain', 'subtitle: "{{ card.text.ljust(10**9) }}', 1), encoding="utf-8"
    )
    r = run("build", "bargains", "--project", str(proj), "--out", str(tmp_path / "out"))
    assert (
        r.code == 2
        and "ljust(1000000000)" in r.err
        and "bargains.yaml:" in r.err
        and "Traceback" not in r.err
    ), r.err


@posix_only
def test_a_huge_range_in_a_stack_selector_costs_nothing(tmp_path: Path) -> None:
    """`--remove 1-1000000000` selects the cards whose values fall in it, without listing the range."""
    import resource

    proj = make_project(tmp_path / "proj", ("fairy-meat",))
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with timed() as took:
        r = run(
            "stack",
            "fairy-meat",
            "big",
            "--remove",
            "1-1000000000",
            "--project",
            str(proj),
            "--out",
            str(tmp_path / "out"),
        )
    assert took.cpu < 30 and "Traceback" not in r.err  # generous: listing the range would take hours
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 300_000  # KB
    assert r.code in (0, 1), r.err  # built, or refused for the rules the stack breaks


def test_simulation_trials_are_bounded_to_seconds(tmp_path: Path) -> None:
    proj = make_project(tmp_path / "proj", ("fairy-meat",))
    r = run(
        "stack",
        "fairy-meat",
        "many",
        "--remove",
        "4-6",
        "--trials",
        "1000000",
        "--project",
        str(proj),
        "--out",
        str(tmp_path / "out"),
    )
    assert r.code == 2 and "--trials" in r.err and "200000" in r.err and not (tmp_path / "out").exists(), (
        r.err
    )


def test_a_very_long_word_in_a_booklet_table_is_named(tmp_path: Path) -> None:
    """A 4,900-character palette name (under the 5,000 a cell may hold) lands in a booklet table: it is taller
    than a page, an error naming the template, no traceback; a 7,500-character one is over the cell bound."""
    import re

    proj = make_project(tmp_path / "proj", ("fairy-bucks",))
    db = proj / "card_data" / "fairy-bucks.yaml"
    text = db.read_text(encoding="utf-8")
    for n, message in ((4900, "taller than a page"), (7500, "a table of 7500 characters")):
        db.write_text(
            re.sub(
                r"(moon: \{color: \"#[0-9a-f]{6}\", name: )Moon",
                lambda m, n=n: m.group(1) + "W" * n,
                text,
                count=1,
            ),
            encoding="utf-8",
        )
        r = run("build", "fairy-bucks", "--project", str(proj), "--out", str(tmp_path / "out"))
        assert r.code == 2 and "templates/fairy-bucks.md.j2" in r.err and message in r.err, r.err
        assert "Traceback" not in r.err


@pytest.mark.parametrize(
    "svg,says",
    [
        (
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'
            + "<g>" * 20_000
            + '<rect width="5" height="5"/>'
            + "</g>" * 20_000
            + "</svg>",
            "nested over 100 deep",
        ),
        (
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><path d="M 0 0 '
            + "L 1.234 5.678 " * 160_000
            + 'Z"/></svg>',
            "over 2,000,000 characters of path data",
        ),
    ],
    ids=["deep", "long path"],
)
def test_an_svg_too_deep_or_with_too_long_paths_is_named(tmp_path: Path, svg: str, says: str) -> None:
    """20,000 nested groups (a RecursionError traceback before) or 2 MB of path data (17 s before) in an
    own symbol: refused before drawing, at the line that uses it, the output folder untouched."""
    assert run("new", str(tmp_path / "game")).code == 0
    (tmp_path / "game" / "art" / "symbols" / "moth.svg").write_text(svg, encoding="utf-8")
    with timed() as took:
        r = run("build", "--project", str(tmp_path / "game"), "-j", "1")
    assert took.cpu < 15  # generous: 2 MB of path data took 17 s before it was refused
    assert r.code == 2 and "Traceback" not in r.err, r.err
    assert re.search(r"card_data/\w+\.yaml:\d+: .*art/symbols/moth\.svg: .*" + re.escape(says), r.err), r.err
    assert not shown(tmp_path / "game" / "output")


def _csv_deck(proj: Path, rows: list[str]) -> Path:
    """The Bargains deck's cards replaced by `cards: {from: deck.csv}` holding `rows` (after the header)."""
    db = proj / "card_data" / "bargains.yaml"
    text = db.read_text(encoding="utf-8")
    db.write_text(
        re.sub(
            r"(    cards:\n)(      - key: .*?\n)(    rules:)",
            r"    cards: {from: deck.csv}\n\3",
            text,
            count=1,
            flags=re.S,
        ),
        encoding="utf-8",
    )
    sheet = proj / "card_data" / "deck.csv"
    sheet.write_text("key,name,value,copies,text\n" + "".join(r + "\n" for r in rows), encoding="utf-8")
    return sheet


@pytest.mark.parametrize("copies", ["inf", "-inf", "nan", "1e400", "20000"])
def test_copies_in_a_spreadsheet_must_be_a_finite_whole_number_within_the_limit(
    tmp_path: Path, copies: str
) -> None:
    proj = make_project(tmp_path / "proj", ("bargains",))
    _csv_deck(proj, ["a,Alpha,1,1,x", f"b,Beta,3,{copies},y"])
    r = run("check", "--project", str(proj))
    assert r.code == 2 and "Traceback" not in r.err, r.err
    assert "card_data/deck.csv:3" in r.err and "copies" in r.err, r.err


def test_a_variant_that_adds_too_many_cards_is_refused_before_it_grows(tmp_path: Path) -> None:
    """100,000 additions: refused at the one that passes a database's own limit, naming its line, at once."""
    proj = make_project(tmp_path / "proj", ("bargains",))
    variant = proj / "card_data" / "variants" / "huge.yaml"
    variant.parent.mkdir()
    variant.write_text(
        "variant:\n  name: huge\n  base: bargains\n  add:\n" + "  - 10s\n" * 100_000, encoding="utf-8"
    )
    with timed() as took:
        r = run("check", str(variant), "--project", str(proj))
    assert r.code == 2 and "Traceback" not in r.err, r.err
    assert re.search(r"variants/huge.yaml:\d+: variant.add\[\d+\]: .* the limit is 10000", r.err), r.err
    assert_quick(took.wall, 20.0, "refusing a variant of 100,000 additions")


def _edit(proj: Path, old: str, new: str) -> None:
    """Replace the first `old` in the Bargains database with `new`."""
    db = proj / "card_data" / "bargains.yaml"
    text = db.read_text(encoding="utf-8")
    assert old in text, old
    db.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.parametrize(
    "old,new,says",
    [
        ("          w: 110\n", "          w: 1\n", "1 mm is too small for a space"),
        ("          w: 110\n", "          w: 12\n", "does not fit"),
        ('      subtitle: "a bargain worth {{ card.value }}"\n', "      subtitle: {a: 1}\n", "not a mapping"),
        ('      subtitle: "a bargain worth {{ card.value }}"\n', "      subtitle: [a, b]\n", "not a list"),
        (
            '      subtitle: "a bargain worth {{ card.value }}"\n',
            "      subtitle: {expr: \"{'a': 1}\"}\n",
            "gives a mapping",
        ),
    ],
    ids=["board space too small", "board text too long", "slot mapping", "slot list", "slot expr mapping"],
)
def test_what_build_would_refuse_check_refuses_first(tmp_path: Path, old: str, new: str, says: str) -> None:
    """A board space too small for its text, and a slot given a mapping where a value belongs: `pnp check`
    names the line (before, it passed and the build failed with a traceback), and the build says the same."""
    proj = make_project(tmp_path / "proj", ("bargains",))
    _edit(proj, old, new)
    r = run("check", "--project", str(proj))
    assert r.code == 2 and says in r.err and "Traceback" not in r.err, r.err
    assert re.search(r"card_data/bargains.yaml:\d+:", r.err), r.err
    out = tmp_path / "out"
    b = run("build", "bargains", "--project", str(proj), "--out", str(out))
    assert b.code == 2 and says in b.err and "Traceback" not in b.err, b.err


@pytest.mark.parametrize(
    "text,says",
    [
        ("{{ '{sun}' * 190000 }}", "renders 950000 characters; one slot's text may have 10000"),
        ("{{ '{sun} ' * 501 }}", "more than 500 inline symbols"),
    ],
)
def test_a_slot_text_too_long_to_fit_is_refused_at_once(tmp_path: Path, text: str, says: str) -> None:
    """A card text rendered to 190,000 symbols took check half a minute fitting it to its box; it is
    refused before any fitting, naming the design's line, in check and in build."""
    proj = make_project(tmp_path / "proj", ("bargains",))
    _edit(proj, '      text: "{{ card.text }}"\n', f'      text: "{text}"\n')
    with timed() as took:
        r = run("check", "--project", str(proj))
    assert r.code == 2 and says in r.err and "Traceback" not in r.err, r.err
    assert re.search(r"card_data/bargains.yaml:\d+: faces.bargain.slots.text: card BG-1: ", r.err), r.err
    assert_quick(took.wall, 10.0, "refusing a slot of 190,000 symbols")
    b = run("build", "bargains", "--project", str(proj), "--out", str(tmp_path / "out"))
    assert b.code == 2 and says in b.err and "Traceback" not in b.err, b.err
