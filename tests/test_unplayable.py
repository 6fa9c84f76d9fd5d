"""`pnp stack` refuses a deck the game cannot be played with, and a variant keeps its base's rules.

Essential rules (marked `essential: true` in a database) stay errors in a stacked deck: a
Fairy Meat deck of only Trumps (a Nasty Hit draw never ends), with one Numbered card (every
attack forfeited), with four cards (no attack can be dealt), a Bargains deck too small to
deal. Those exit 1 and write nothing unless --force; the statistics never give a win rate
for attacks that could not be played. Every other rule of the base runs as a warning.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import make_project, run


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_project(
        tmp_path_factory.mktemp("unplayable") / "proj", ("fairy-meat", "bargains", "feenbalz")
    )


def _nothing_written(project: Path, name: str) -> bool:
    return (
        not (project / "card_data/variants" / f"{name}.yaml").exists()
        and not (project / "output" / name).exists()
    )


@pytest.mark.parametrize(
    ("name", "args", "rule"),
    [
        ("only-trumps", ["fairy-meat", "--remove", "numbered", "--remove", "jokers"], "nasty-hit-draw"),
        ("one-numbered", ["fairy-meat", "--remove", "numbered", "--add", "2H"], "numbered-for-both"),
        (
            "four-cards",
            [
                "fairy-meat",
                "--remove",
                "trumps",
                "--remove",
                "numbered",
                "--remove",
                "jokers",
                "--add",
                "2-5 of hearts",
            ],
            "one-attack",
        ),
        (
            "tiny-bargains",
            ["bargains", "--remove", "1s", "--remove", "3s", "--remove", "5s", "--remove", "7s"],
            "main-game-deal [players=2]",
        ),
    ],
)
def test_an_unplayable_stack_is_refused_and_nothing_is_written(
    project: Path, name: str, args: list[str], rule: str
) -> None:
    res = run("stack", args[0], name, *args[1:], "--trials", "100", "--project", str(project))
    assert res.code == 1, res.out + res.err
    assert "nothing was stacked" in res.err and "--force stacks anyway" in res.err
    assert f"broken: {rule}:" in res.err and "Traceback" not in res.err
    assert _nothing_written(project, name)


def test_force_stacks_it_and_the_report_gives_no_win_rate_for_unplayed_attacks(project: Path) -> None:
    res = run(
        "stack",
        "fairy-meat",
        "forced",
        "--remove",
        "numbered",
        "--add",
        "2H",
        "--trials",
        "100",
        "--force",
        "--project",
        str(project),
    )
    assert res.code == 0, res.err
    assert "warning: " in res.err and "numbered-for-both" in res.err
    combat = [line for line in res.out.splitlines() if line.strip().startswith("Kill ")]
    assert combat and all("not played (every simulated attack was forfeited" in line for line in combat)
    assert not any("attacker wins" in line for line in combat)
    report = json.loads((project / "output/forced/stats.json").read_text(encoding="utf-8"))
    assert all(m["variant"] is None and m["not_played"] for m in report["combat"]["matchups"])
    import pdfplumber

    with pdfplumber.open(project / "output/forced/stats.pdf") as pdf:
        text = pdf.pages[0].extract_text()
    assert "- / 44.5%" in text.replace("\n", " ") or "- / " in text
    assert "not played" in text
    # two Numbered cards: both sides can play, and the rates are there again
    res = run(
        "stack",
        "fairy-meat",
        "two-numbered",
        "--remove",
        "numbered",
        "--add",
        "2H,3H",
        "--trials",
        "100",
        "--project",
        str(project),
    )
    assert res.code == 0 and "attacker wins" in res.out


def test_a_variant_runs_every_rule_of_its_base(project: Path) -> None:
    """Removing every horseshoe from Feenbalz is a change the base's own rules now point out."""
    res = run(
        "stack",
        "feenbalz",
        "no-horseshoes",
        "--component",
        "objects",
        "--remove",
        "category=horseshoe",
        "--project",
        str(project),
    )
    assert res.code == 0, res.err
    assert "warning: " in res.err and "five-horseshoes" in res.err
    check = run("check", str(project / "card_data/variants/no-horseshoes.yaml"), "--project", str(project))
    assert check.code == 0 and "five-horseshoes" in check.out
    from pnp.data.reading.loader import load_game

    base = load_game(project / "card_data/feenbalz.yaml").component("objects")
    variant = load_game(project / "card_data/variants/no-horseshoes.yaml").component("objects")
    kept = {r.id: r.severity for r in variant.rules}
    assert {r.id for r in base.rules} <= set(kept)
    assert all(kept[r.id] == ("error" if r.essential else "warning") for r in base.rules)
