"""Stacked-deck variants: selectors, changes, the variant database, `pnp check/build/stack`."""

from __future__ import annotations

import json
import logging
import shutil
from collections import Counter
from pathlib import Path

import pdfplumber
import pypdfium2 as pdfium
import pytest
import yaml
from click.testing import CliRunner

from pnp.cli import main
from pnp.data.format.errors import InputError
from pnp.data.format.model import Component
from pnp.data.reading.loader import load_game
from pnp.data.reading.variants import parse_spec
from pnp.data.reading.yamlsrc import load_yaml
from pnp.data.stacking.stack import (
    SelectorError,
    VariantSpec,
    parse_selector,
    select,
    stack_copies,
    variant_yaml,
    write_variant,
)
from pnp.geometry.sizes import MM

logging.getLogger("pdfminer").setLevel(logging.WARNING)  # its debug calls slow parsing down
MAIN = Path(__file__).resolve().parents[1]
REAL_FAIRY_MEAT = MAIN / "card_data" / "fairy-meat.yaml"
SUITS = {
    "hearts": ("H", "red", "heart"),
    "diamonds": ("D", "red", "diamond"),
    "clubs": ("C", "black", "club"),
    "spades": ("S", "black", "spade"),
}
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def fairy_meat_yaml() -> str:
    """A database that follows the Fairy Meat deck contract of ARCHITECTURE.md (a test stand-in)."""
    cards = []
    for suit, (initial, colour, _) in SUITS.items():
        for rank in RANKS:
            numbered = rank not in ("J", "Q", "K", "A")
            cards.append(
                {
                    "key": rank + initial,
                    "name": f"{rank} of {suit}",
                    "rank": rank,
                    "suit": suit,
                    "colour": colour,
                    "role": "numbered" if numbered else "trump",
                    "value": int(rank) if numbered else 0,
                }
            )
    cards += [
        {
            "key": f"JK{i}",
            "name": "Joker",
            "rank": "Joker",
            "suit": "none",
            "colour": "none",
            "role": "joker",
            "value": 0,
        }
        for i in (1, 2)
    ]
    suit_look = {
        s: {"emblem": e, "color": "#b0243a" if c == "red" else "#23202b"} for s, (_, c, e) in SUITS.items()
    }
    data = {
        "game": {"name": "Fairy Meat", "tag": "FM", "players": {"min": 2, "max": 8}},
        # the combat and Nasty Hits numbers belong to the contract: the statistics read them
        "facts": yaml.safe_load(REAL_FAIRY_MEAT.read_text(encoding="utf-8"))["facts"],
        "palettes": {"suit": {**suit_look, "none": {"emblem": "star", "color": "#6b4fa0"}}},
        "faces": {
            "fairy": {
                "layout": "value",
                "slots": {
                    "value": "{{ card.rank if card.role != 'joker' else 'JK' }}",
                    "title": "{{ card.name }}",
                    "color": "{{ palettes.suit[card.suit].color }}",
                    "emblem": "{{ palettes.suit[card.suit].emblem }}",
                },
            }
        },
        "backs": {
            "fairy-back": {
                "layout": "back",
                "slots": {"title": "Fairy Meat", "color": "#3a2a55", "emblem": "fairy"},
            }
        },
        "components": [
            {
                "key": "fairy-deck",
                "kind": "deck",
                "same_names": True,  # the two Jokers
                "name": "Fairy Deck",
                "card_size": "poker",
                "face": "fairy",
                "back": "fairy-back",
                "fields": {
                    "rank": {"type": "str", "choices": RANKS + ["Joker"]},
                    "suit": {"type": "str", "choices": list(SUITS) + ["none"]},
                    "colour": {"type": "str", "choices": ["red", "black", "none"]},
                    "role": {"type": "str", "choices": ["trump", "numbered", "joker"]},
                    "value": {"type": "int"},
                },
                "cards": cards,
                "rules": [
                    {"id": "deck-size", "check": "total", "expected": 54},
                    {"id": "sixteen-trumps", "check": "count", "where": {"role": "trump"}, "expected": 16},
                    {"id": "enough-to-deal", "check": "expr", "expr": "deck.count() >= 20"},
                    {
                        "id": "deadly-ace",
                        "check": "count",
                        "where": {"rank": "A", "suit": "spades"},
                        "min": 1,
                    },
                ],
            }
        ],
    }
    return yaml.safe_dump(data, sort_keys=False)


def make_project(root: Path, real: bool = False) -> Path:
    """A project folder with fairy-meat (the stand-in, or a copy of the real file) and bargains."""
    (root / "card_data").mkdir(parents=True, exist_ok=True)
    target = root / "card_data" / "fairy-meat.yaml"
    if real:
        shutil.copy(REAL_FAIRY_MEAT, target)
    else:
        target.write_text(fairy_meat_yaml(), encoding="utf-8")
    shutil.copy(MAIN / "card_data" / "bargains.yaml", root / "card_data" / "bargains.yaml")
    for folder in ("fonts", "templates"):
        if (MAIN / folder).is_dir():
            shutil.copytree(MAIN / folder, root / folder)
    return root


@pytest.fixture()
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path / "proj")


@pytest.fixture()
def deck(project: Path) -> Component:
    return load_game(project / "card_data" / "fairy-meat.yaml").component("fairy-deck")


def keys(text: str, comp: Component) -> list[str]:
    return [c.key for c in select(text, comp)]


# --------------------------------------------------------------------------- selectors


def test_selectors_read_as_people_say_them(deck: Component) -> None:
    low = keys("2-10 of clubs,diamonds", deck)
    assert len(low) == 18 and all(k[-1] in "CD" and k[:-1] not in "JQKA" for k in low)
    assert keys("trumps of hearts", deck) == ["JH", "QH", "KH", "AH"]
    assert sorted(keys("4-6", deck)) == sorted(f"{r}{s}" for r in "456" for s in "HDCS")
    assert keys("ace of spades", deck) == ["AS"]
    assert keys("jokers", deck) == ["JK1", "JK2"]
    assert keys("queens", deck) == ["QH", "QD", "QC", "QS"]
    assert len(keys("red", deck)) == 26 and len(keys("black trumps", deck)) == 8
    assert (
        keys("10s", deck) == keys("value=10", deck) == keys("rank=10", deck) == ["10H", "10D", "10C", "10S"]
    )
    assert keys("AS", deck) == ["AS"]  # a key is that card, not every ace
    assert keys("Ten of Hearts", deck) == ["10H"]
    assert keys("  2 - 3 of hearts , spades ", deck) == ["2H", "3H", "2S", "3S"]
    assert keys("numbered of spades", deck) == [f"{r}S" for r in RANKS[:9]]
    assert len(keys("kings,aces", deck)) == 8


def test_selectors_work_for_other_decks(project: Path) -> None:
    bargains = load_game(project / "card_data" / "bargains.yaml").component("deck")
    assert keys("10s", bargains) == keys("value=10", bargains) == keys("crown", bargains) == ["10"]
    assert keys("1,3", bargains) == ["1", "3"]


@pytest.mark.parametrize(
    "text, says",
    [
        ("wizards", "Valid forms"),
        ("queens,kingz", "'kingz' is not a value"),
        ("colour=plaid of hearts", "no"),
        ("11 of hearts", "does not have"),
        ("hearts of spades", "does not have"),
        ("6-4", "runs backwards"),
        ("", "empty selector"),
        ("size=big", "Valid forms"),
    ],
)
def test_bad_selectors_are_clear_errors(deck: Component, text: str, says: str) -> None:
    with pytest.raises(SelectorError) as err:
        select(text, deck)
    message = str(err.value)
    assert says in message or (says == "no" and "does not have" in message)
    if "Valid forms" in message:
        assert "2-10 of clubs,diamonds" in message and "ace of spades" in message and "rank: 2, 3" in message


def test_selector_parse_keeps_groups(deck: Component) -> None:
    sel = parse_selector("2-3 of hearts,spades", deck)
    assert len(sel.groups) == 2 and [t.text for t in sel.groups[1]] == ["hearts", "spades"]


# --------------------------------------------------------------------------- changes


def test_stack_copies_in_order(deck: Component) -> None:
    spec = VariantSpec(
        name="bloody",
        base="fairy-meat",
        decks=2,
        remove=("4-6",),
        add=("2-3 of hearts,spades", "2 of hearts"),
        jokers=3,
    )
    got = stack_copies(deck, spec)
    assert not got.problems
    c = got.copies
    assert c["4H"] == c["6S"] == 0 and c["2H"] == 4 and c["3S"] == 3 and c["2C"] == 2 and c["AS"] == 2
    assert (c["JK1"], c["JK2"]) == (2, 1)
    assert sum(c.values()) == 108 - 24 + 4 + 1 - 1


def test_remove_then_add_back_and_no_cards_left(deck: Component) -> None:
    back = stack_copies(
        deck, VariantSpec(name="x", base="fairy-meat", remove=("hearts",), add=("ace of hearts",))
    )
    assert back.copies["AH"] == 1 and back.copies["KH"] == 0
    empty = stack_copies(deck, VariantSpec(name="x", base="fairy-meat", remove=("red", "black", "jokers")))
    assert [p.message for p in empty.problems] == ["the changes leave no cards at all"]


def test_problems_name_the_entry(deck: Component, project: Path) -> None:
    got = stack_copies(
        deck, VariantSpec(name="x", base="fairy-meat", remove=("4-6", "wands"), add=("11 of hearts",))
    )
    assert [p.field for p in got.problems] == ["variant.remove[1]", "variant.add[0]"]
    bargains = load_game(project / "card_data" / "bargains.yaml").component("deck")
    no_jokers = stack_copies(bargains, VariantSpec(name="x", base="bargains", jokers=2))
    assert no_jokers.problems[0].field == "variant.jokers"


@pytest.mark.parametrize(
    "kwargs, says",
    [
        ({"name": "Bloody Deck"}, "name"),
        ({"decks": 9}, "decks"),
        ({"mark": "XYZ"}, "mark"),
        ({"color": "red"}, "color"),
        ({"jokers": -1}, "jokers"),
        ({"trials": 5}, "trials"),
    ],
)
def test_spec_validation(kwargs: dict, says: str) -> None:
    base = {"name": "ok", "base": "fairy-meat"}
    with pytest.raises(ValueError, match=says):
        VariantSpec(**{**base, **kwargs})


# --------------------------------------------------------------------------- the variant database


def test_variant_database_round_trips(project: Path) -> None:
    spec = VariantSpec(
        name="bloody",
        base="fairy-meat",
        component="fairy-deck",
        decks=2,
        remove=("4-6",),
        add=("2-3 of hearts,spades",),
        jokers=2,
        mark="B",
        color="#7a1f3d",
        trials=500,
        seed=9,
    )
    path = write_variant(project / "card_data" / "variants" / "bloody.yaml", spec, project)
    text = path.read_text(encoding="utf-8")
    assert text.startswith("#") and "  remove:\n  - 4-6\n" in text and "  jokers: 2\n" in text
    assert parse_spec(load_yaml(path), str(path)) == spec
    assert variant_yaml(parse_spec(load_yaml(path), str(path))) == text
    game = load_game(path)
    assert game.variant["name"] == "bloody" and game.variant["mark"] == "B" and game.slug == "bloody"
    assert [c.key for c in game.components] == ["fairy-deck"]
    comp = game.component("fairy-deck")
    assert comp.card_count == 108 - 24 + 4 - 2
    assert comp.sets is not None and comp.sets.marks[0].label == "B" and comp.sets.marks[0].color == "#7a1f3d"
    assert {c.key: c.copies for c in comp.cards}["2H"] == 3 and "5H" not in {c.key for c in comp.cards}
    # Every rule of the base component runs on the variant: essential ones as errors, the rest (the
    # standard deck's exact make-up too) as warnings; the stacking checks come on top.
    ids = {r.id: r.severity for r in comp.rules}
    base = load_game(project / "card_data" / "fairy-meat.yaml").component("fairy-deck")
    assert {r.id for r in base.rules} <= set(ids) and {"deck-size", "sixteen-trumps"} <= set(ids)
    assert all(ids[r.id] == ("error" if r.essential else "warning") for r in base.rules)
    assert set(ids) - {r.id for r in base.rules} == {
        "even-trump-colours",
        "even-numbered-colours",
        "order-ties",
    }


def write(project: Path, name: str, body: str) -> Path:
    path = project / "card_data" / "variants" / f"{name}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(body, encoding="utf-8")
    return path


def test_variant_errors_are_located(project: Path) -> None:
    path = write(
        project,
        "bad",
        "variant:\n  name: bad\n  base: fairy-meat\n  add:\n    - 2 of hearts\n"
        "    - 11 of hearts\n  decs: 2\n",
    )
    with pytest.raises(InputError) as err:
        load_game(path, "bad.yaml")
    text = str(err.value)
    assert "bad.yaml:7: variant.decs: unknown key 'decs' (did you mean 'decks'?)" in text
    path = write(
        project,
        "bad",
        "variant:\n  name: bad\n  base: fairy-meat\n  add:\n    - 2 of hearts\n    - 11 of hearts\n",
    )
    with pytest.raises(InputError) as err:
        load_game(path, "bad.yaml")
    assert "bad.yaml:6: variant.add[1]: selector '11 of hearts' asks for cards that the base" in str(
        err.value
    )
    path = write(project, "bad", "variant:\n  name: bad\n  base: fairy-mead\n")
    with pytest.raises(InputError, match="did you mean 'fairy-meat'"):
        load_game(path, "bad.yaml")
    path = write(project, "bad", "variant:\n  name: bad\n  base: ../../../etc/passwd.yaml\n")
    with pytest.raises(InputError, match="inside the project"):
        load_game(path, "bad.yaml")
    write(project, "one", "variant:\n  name: one\n  base: fairy-meat\n")
    path = write(project, "two", "variant:\n  name: two\n  base: card_data/variants/one.yaml\n")
    with pytest.raises(InputError, match="not another variant"):
        load_game(path, "two.yaml")


# --------------------------------------------------------------------------- command line


def run(project: Path, *args: str) -> object:
    return (
        CliRunner(mix_stderr=False).invoke(main, [*args, "--project", str(project)])
        if _mix_stderr_supported()
        else CliRunner().invoke(main, [*args, "--project", str(project)])
    )


def _mix_stderr_supported() -> bool:
    import inspect

    return "mix_stderr" in inspect.signature(CliRunner.__init__).parameters


def test_check_variant_warns_or_fails(project: Path) -> None:
    write(
        project,
        "lopsided",
        "variant:\n  name: lopsided\n  base: fairy-meat\n  remove: [2-10 of clubs, trumps of hearts]\n",
    )
    res = run(project, "check", str(project / "card_data" / "variants" / "lopsided.yaml"))
    assert res.exit_code == 0, res.output
    assert "warning: even-trump-colours" in res.output and "red 4, black 8" in res.output
    assert "warning: even-numbered-colours" in res.output and "red 18, black 9" in res.output
    write(
        project, "even", 'variant:\n  name: even\n  base: fairy-meat\n  remove: ["2-10 of clubs,diamonds"]\n'
    )
    res = run(project, "check", str(project / "card_data" / "variants" / "even.yaml"))
    warnings = [line for line in res.output.splitlines() if "warning:" in line]
    assert (
        res.exit_code == 0
        and len(warnings) == 1
        and "warning: deck-size: expected 54 cards, found 36" in warnings[0]
    ), res.output  # the base's own rule, as a warning; the colours are even
    write(project, "ties", "variant:\n  name: ties\n  base: fairy-meat\n  remove: [4-8]\n")
    res = run(project, "check", str(project / "card_data" / "variants" / "ties.yaml"))
    assert res.exit_code == 0 and "warning: order-ties" in res.output and "with the base deck" in res.output
    write(project, "safe", "variant:\n  name: safe\n  base: fairy-meat\n  remove: [ace of spades]\n")
    res = run(project, "check", str(project / "card_data" / "variants" / "safe.yaml"))
    assert res.exit_code == 0 and "warning: deadly-ace: expected at least 1 cards, found 0" in res.output
    write(project, "greedy", "variant:\n  name: greedy\n  base: fairy-meat\n  add: [11 of hearts]\n")
    res = run(project, "check", str(project / "card_data" / "variants" / "greedy.yaml"))
    assert res.exit_code == 2 and "does not have" in (res.stderr if hasattr(res, "stderr") else res.output)


def test_stack_command_writes_builds_and_reports(project: Path) -> None:
    res = run(project, "build", "fairy-meat")
    assert res.exit_code == 0, res.output
    res = run(
        project,
        "stack",
        "fairy-meat",
        "bloody",
        "--decks",
        "2",
        "--remove",
        "4-6",
        "--add",
        "2-3 of hearts,spades",
        "--jokers",
        "2",
        "--mark",
        "B",
        "--trials",
        "300",
        "--json",
    )
    assert res.exit_code == 0, res.output
    rep = json.loads(res.stdout if hasattr(res, "stdout") else res.output)
    assert rep["cards"] == 86 and rep["by_role"] == {"Trump": 32, "Numbered": 52, "Joker": 2}
    assert rep["combat"]["trials"] == 300
    spec = yaml.safe_load((project / "card_data" / "variants" / "bloody.yaml").read_text())["variant"]
    assert spec == {
        "name": "bloody",
        "base": "fairy-meat",
        "decks": 2,
        "remove": ["4-6"],
        "add": ["2-3 of hearts,spades"],
        "jokers": 2,
        "mark": "B",
        "trials": 300,
    }
    out = project / "output"
    manifest = {e["path"]: e for e in json.loads((out / "manifest.json").read_text())["files"]}
    assert manifest["bloody/stats.pdf"]["kind"] == "reference" and manifest["bloody/stats.pdf"]["pages"] == 1
    assert manifest["bloody/fairy-deck.pdf"]["cards"] == 86
    assert "fairy-meat/fairy-deck.pdf" in manifest  # the base game's entries survive
    deck_pdf = pdfium.PdfDocument(out / "bloody" / "fairy-deck.pdf")
    lines = [deck_pdf[i].get_textpage().get_text_range().split("\r\n") for i in range(len(deck_pdf))]
    assert [page.count("B") for page in lines[:2]] == [9, 9]  # fronts, then backs: one mark per card
    assert sum(page.count("B") for page in lines[::2]) == 86
    assert sum(page.count("B") for page in lines[1::2]) == 86
    deck_pdf.close()
    with pdfplumber.open(out / "bloody" / "checklist.pdf") as pdf:
        text = "\n".join(p.extract_text() for p in pdf.pages)
    assert "variant bloody" in text and "86 cards" in text and "FM-4H" not in text
    # Rebuilding from the variant file alone gives the same deck.
    first = (out / "bloody" / "fairy-deck.pdf").read_bytes()
    res = run(project, "build", str(project / "card_data" / "variants" / "bloody.yaml"))
    assert res.exit_code == 0, res.output
    assert (out / "bloody" / "fairy-deck.pdf").read_bytes() == first


def test_stack_command_text_report_and_errors(project: Path) -> None:
    # without 1s variant 2 cannot start (essential rule variant-2-start): refused, unless --force
    res = run(project, "stack", "bargains", "rich", "--add", "10s", "--remove", "1s")
    assert res.exit_code == 1 and not (project / "card_data" / "variants" / "rich.yaml").exists()
    res = run(project, "stack", "bargains", "rich", "--add", "10s", "--remove", "1s", "--force")
    assert res.exit_code == 0, res.output
    assert "65 cards" in res.output and "10 26" in res.output
    assert (project / "output" / "rich" / "deck.pdf").is_file()
    res = run(project, "stack", "fairy-meat", "oops", "--remove", "wizards")
    assert res.exit_code == 2
    err = res.stderr if hasattr(res, "stderr") else res.output
    assert "--remove (#1)" in err and "Valid forms" in err and "trumps of hearts" in err
    assert not (project / "card_data" / "variants" / "oops.yaml").exists()
    res = run(project, "stack", "fairy-meat", "bargains")
    assert res.exit_code == 2


@pytest.mark.skipif(not REAL_FAIRY_MEAT.is_file(), reason="card_data/fairy-meat.yaml not written yet")
def test_real_fairy_meat_database(tmp_path: Path) -> None:
    project = make_project(tmp_path / "real", real=True)
    game = load_game(project / "card_data" / "fairy-meat.yaml")
    deck = game.component("fairy-deck")
    assert deck.card_count == 54
    assert len(keys("trumps", deck)) == 16 and keys("ace of spades", deck) == ["AS"]
    assert len(keys("2-10 of clubs,diamonds", deck)) == 18
    res = run(project, "stack", "fairy-meat", "double", "--decks", "2", "--trials", "200", "--json")
    assert res.exit_code == 0, res.output
    rep = json.loads(res.stdout if hasattr(res, "stdout") else res.output)
    assert rep["cards"] == 108 and rep["by_role"] == {"Trump": 32, "Numbered": 72, "Joker": 4}
    assert Counter(
        c.copies
        for c in load_game(project / "card_data" / "variants" / "double.yaml").component("fairy-deck").cards
    ) == Counter({2: 54})


def test_variants_are_known_by_name(project: Path) -> None:
    """`pnp list`, `pnp check NAME` and `pnp build NAME` find a stacked variant in card_data/variants/."""
    from conftest import run

    r = run("stack", "bargains", "rich", "--add", "10s", "--trials", "100", "--project", str(project))
    assert r.code == 0, r.out + r.err
    listed = run("list", "--project", str(project))
    assert listed.code == 0 and "Stacked variants" in listed.out
    assert any(
        line.startswith("rich ") and "(from bargains, 78 cards)" in line for line in listed.out.splitlines()
    )
    assert run("check", "rich", "--project", str(project)).code == 0
    (project / "output" / "rich" / "deck.pdf").unlink()
    built = run("build", "rich", "--project", str(project), "--duplex", "off")
    assert built.code == 0, built.out + built.err
    assert (project / "output" / "rich" / "deck.pdf").is_file()
    typo = run("build", "ritch", "--project", str(project))
    assert typo.code == 2 and "did you mean 'rich'?" in typo.err


# --------------------------------------------------------------------------- every bundled deck, unchanged

BUNDLED = sorted((MAIN / "card_data").glob("*.yaml"))


def _deck_components() -> list[tuple[str, str]]:
    out = []
    for path in BUNDLED:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        out += [(path.stem, c["key"]) for c in data["components"] if c.get("kind") == "deck"]
    return out


@pytest.fixture(scope="module")
def bundled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from conftest import make_project as copy_games

    return copy_games(tmp_path_factory.mktemp("bundled") / "proj", tuple(p.stem for p in BUNDLED))


@pytest.mark.parametrize(("game", "component"), _deck_components())
def test_every_unchanged_stack_is_accepted_and_builds(bundled: Path, game: str, component: str) -> None:
    """`pnp stack GAME NAME --component C` with no changes: no rule broken, no warning, the deck built."""
    from conftest import run as cli

    name = f"same-{game}-{component}"
    res = cli("stack", game, name, "--component", component, "--trials", "100", "--project", str(bundled))
    assert res.code == 0, res.out + res.err
    assert "warning" not in res.err and "broken" not in res.err, res.err
    assert (bundled / "output" / name / f"{component}.pdf").is_file()
    assert cli("check", name, "--project", str(bundled)).code == 0


def test_bundled_decks_are_all_covered() -> None:
    assert {g for g, _ in _deck_components()} == {
        "bargains",
        "fairy-bucks",
        "feenbalz",
        "tarot",
        "fairy-meat",
    }
    assert ("fairy-bucks", "money") in _deck_components() and ("tarot", "arcana") in _deck_components()


def test_a_deck_printed_per_player_keeps_its_players_sets(bundled: Path) -> None:
    """Fairy Bucks money is printed once per player, each set with its own colour and emblem, which the
    designs read (`mark.emblem`); a stack of it draws the same sets instead of failing on a missing emblem."""
    from conftest import run as cli

    res = cli("stack", "fairy-bucks", "thin-purse", "--component", "money", "--remove", "7-10",
              "--trials", "100", "--project", str(bundled))  # fmt: skip
    assert res.code == 0, res.out + res.err
    assert "unknown symbol" not in res.err
    base = load_game(bundled / "card_data" / "fairy-bucks.yaml").component("money")
    stacked = load_game(bundled / "card_data" / "variants" / "thin-purse.yaml").component("money")
    assert stacked.sets == base.sets and stacked.card_count == 7
    manifest = json.loads((bundled / "output" / "manifest.json").read_text(encoding="utf-8"))
    entry = next(e for e in manifest["files"] if e["path"] == "thin-purse/money.pdf")
    assert base.sets is not None and entry["cards"] == 7 * base.sets.default  # one 7-card set per player


@pytest.mark.parametrize(
    ("name", "removed", "alone"),
    [
        ("no-saber", ["Saber"], {"Shirou", "Kiritsugu", "Luvia"}),
        ("no-masters", ["master"], {"Tiger", "Luvia", "Rider", "Lancer", "Archer", "Saber Alter"}),
    ],
)
def test_tarot_chart_makes_room_for_unlinked_characters(
    bundled: Path, name: str, removed: list[str], alone: set[str]
) -> None:
    """Removing Saber (or every master) leaves characters without a link; the chart's strip for them
    wraps into more rows instead of squeezing their names below the smallest type size."""
    from conftest import run as cli

    args = [a for r in removed for a in ("--remove", r)]
    res = cli("stack", "tarot", name, *args, "--trials", "100", "--project", str(bundled))
    assert res.code == 0, res.out + res.err
    assert "does not fit" not in res.err
    with pdfplumber.open(bundled / "output" / name / "arcana.pdf") as pdf:
        text = "\n".join(p.extract_text() or "" for p in pdf.pages)
    assert all(short in text for short in alone)


def test_chart_strip_wraps_at_full_width() -> None:
    from pnp.resolve.charting import Node, box_width, strip, strip_rows
    from pnp.resolve.fonts import Fonts

    fonts = Fonts.load(MAIN / "fonts")
    one = [Node("10", "Luvia", "magic", "X", ())]
    assert strip_rows(fonts, one, 60) == 1 and strip_rows(fonts, [], 60) == 0
    many = [Node(str(i), name, "sword", str(i), ()) for i, name in enumerate(
        ["Kiritsugu", "Shirou", "Luvia", "True Assassin", "Saber Alter", "Gilgamesh", "Berserker"])]  # fmt: skip
    rows = strip_rows(fonts, many, 60)
    boxes = strip(fonts, many, 5, 100, 60)
    widest = max(box_width(fonts, n) for n in many) / MM
    assert rows > 1 and len({b["y"] for b in boxes}) == rows
    assert all(abs(b["w"] - widest) < 1e-6 for b in boxes)  # nobody squeezed
    for a in boxes:  # inside the strip, and no two boxes overlap
        assert a["x"] >= 5 - 1e-6 and a["x"] + a["w"] <= 65 + 1e-6
        for b in boxes:
            if a is not b and a["y"] == b["y"]:
                assert a["x"] + a["w"] <= b["x"] or b["x"] + b["w"] <= a["x"]
