"""`pnp stack` refuses a deck the game cannot be played with, and a variant keeps its base's rules.

Essential rules (marked `essential: true` in a database) stay errors in a stacked deck: a
Fairy Meat deck of only Trumps (a Nasty Hit draw never ends), with one Numbered card (every
attack forfeited), with four cards (no attack can be dealt), a Bargains deck too small to
deal. Those exit 1 and write nothing unless --force; the statistics never give a win rate
for attacks that could not be played. Every other rule of the base runs as a warning.

Essential rules are checked for every player count of the way to play they belong to
(`player_counts`). A stack that leaves some way to play no player count at all is refused,
and a `playable` line says which counts each way keeps; one that only loses some counts is
stacked with that line as a warning (pnp.rules.playable).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import make_project, run


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_project(
        tmp_path_factory.mktemp("unplayable") / "proj",
        ("fairy-meat", "bargains", "feenbalz", "fairy-bucks", "tarot"),
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


@pytest.mark.parametrize(
    ("name", "args", "rule", "counts"),
    [
        (
            "five-pointers",
            ["fairy-bucks", "--remove", "1-4"],
            "one-full-auction [players=3]",
            "not playable for any of its 2-5 players (broken: one-full-auction)",
        ),
        (
            "horseshoes-only",
            [
                "feenbalz",
                "--component",
                "objects",
                "--remove",
                "beetle,flower,stone,feather,shell,fly-agaric",
            ],
            "deal-and-first-draw [players=3]",
            "not playable for any of its 3-6 players (broken: deal-and-first-draw)",
        ),
        (
            "no-main-colour",
            ["feenbalz", "--component", "objects", "--remove", "yellow,red,green,blue"],
            "deal-and-first-draw [players=6]",
            "not playable for any of its 3-6 players",
        ),
        (
            "tiger-cover-chart",
            ["tarot", "--remove", "1-21"],
            "arcana-for-the-deal [players=2]",
            "not playable for any of its 2 players (broken: arcana-for-the-deal)",
        ),
        (
            "no-tens",
            ["bargains", "--remove", "10s"],
            "variant-2-start [players=4]",
            "main: playable for 2-6 players; variant 1: playable for 2-6 players; "
            "variant 2: not playable for any of its 2-4 players (broken: variant-2-start); "
            "solitaire: playable for 1 player",
        ),
        (
            "two-decks-of-ones",
            ["bargains", "--decks", "2", "--remove", "3s,5s,7s,10s"],
            "main-game-deal [players=4]",
            "main: playable for 2-3 players, not 4-6 (broken: main-game-deal); "
            "variant 1: playable for 2-3 players, not 4-6 (broken: variant-1-deal); "
            "variant 2: not playable for any of its 2-4 players (broken: variant-2-start)",
        ),
    ],
)
def test_a_stack_without_a_way_to_play_names_the_rule_and_the_player_counts(
    project: Path, name: str, args: list[str], rule: str, counts: str
) -> None:
    res = run("stack", args[0], name, *args[1:], "--trials", "100", "--project", str(project))
    assert res.code == 1, res.out + res.err
    assert "nothing was stacked" in res.err and "--force stacks anyway" in res.err
    assert f"broken: {rule}:" in res.err and "broken: playable:" in res.err
    assert counts in res.err, res.err
    assert "Traceback" not in res.err and _nothing_written(project, name)


@pytest.mark.parametrize(
    ("name", "args", "counts"),
    [
        (
            "three-colours-fewer",
            ["feenbalz", "--component", "objects", "--remove", "yellow,red,green"],
            "playable for 3 players, not 4-6 (broken: deal-and-first-draw)",
        ),
        (
            "low-items",
            ["fairy-bucks", "--remove", "3-5"],
            "playable for 3-5 players, not 2 (broken: one-full-auction)",
        ),
    ],
)
def test_a_stack_that_loses_some_player_counts_is_stacked_with_a_warning_naming_them(
    project: Path, name: str, args: list[str], counts: str
) -> None:
    res = run("stack", args[0], name, *args[1:], "--trials", "100", "--project", str(project))
    assert res.code == 0, res.out + res.err
    assert "nothing was stacked" not in res.err
    assert "warning: playable:" in res.err and counts in res.err, res.err
    # the variant file is judged the same way by `pnp check` and `pnp build`
    check = run("check", name, "--project", str(project))
    assert check.code == 0 and counts in check.out


def test_player_counts_come_from_facts(tmp_path: Path) -> None:
    """A rule's player counts follow its fact: widen variant 2 to five players and one deck no longer
    holds a starting set for everyone; point it at a fact that is not a range and the rule says so."""
    proj = make_project(tmp_path / "proj", ("bargains",))
    path = proj / "card_data/bargains.yaml"
    text = path.read_text(encoding="utf-8")
    wider = text.replace(
        "      players: {min: 2, max: 4}\n      start:", "      players: {min: 2, max: 5}\n      start:"
    )
    assert wider != text
    path.write_text(wider, encoding="utf-8")
    res = run("check", "--project", str(proj))
    assert (
        res.code == 1
        and "variant-2-start [players=5]" in res.out
        and "variant-2-start [players=4]" not in res.out
    )
    path.write_text(text.replace("player_counts: variants.variant-2.players", "player_counts: hand_size"),
                    encoding="utf-8")  # fmt: skip
    res = run("check", "--project", str(proj))
    assert res.code == 1 and "variant-2-start" in res.out and "not a {min, max} range" in res.out
    path.write_text(
        text.replace("        player_counts: variants.variant-2.players\n", "        player_counts: variants.variant-2.players\n        params: {players: [2]}\n"),
        encoding="utf-8",
    )  # fmt: skip
    res = run("check", "--project", str(proj))
    assert res.code == 2 and "drop `players` from params" in res.err
