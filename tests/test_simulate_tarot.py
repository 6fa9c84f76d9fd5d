"""pnp simulate tarot: the duel engine against the deal, the rules' worked combo example, single
attacks, the end, and its bots."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pnp.data.reading.loader import load_game
from pnp.data.reading.project import Project
from pnp.engines.play import STEP_LIMIT_END, IllegalMove, play_game
from pnp.engines.tarot import MAP, NONE, Duel, TarotEngine
from pnp.simulate.registry import setup
from pnp.simulate.stats import rate_ci

from conftest import ROOT, make_project


def _engine(root: Path = ROOT) -> TarotEngine:
    project = Project.at(root)
    made = setup(load_game(project.resolve_game("tarot"), "tarot", project.root))
    assert made.players == (2, 2) and made.way == "duel"
    assert isinstance(made.engine, TarotEngine)
    return made.engine


@pytest.fixture(scope="module")
def engine() -> TarotEngine:
    return _engine()


def by_name(engine: TarotEngine) -> dict[str, int]:
    """Card ids by arcana key ('6' is Shirou ...) and by a few names of the worked example."""
    ids = {c.key: i for i, c in enumerate(engine.rules.cards)}
    names = {
        "Tiger": "0",
        "Rin": "1",
        "Shirou": "6",
        "Rider": "7",
        "Saber": "11",
        "Archer": "19",
        "Luvia": "10",
    }
    return {**ids, **{n: ids[k] for n, k in names.items()}}


def test_deal_and_first_cards_on_the_map(engine: TarotEngine) -> None:
    rng = random.Random(2)
    d = engine.start(2, rng)
    assert [len(h) for h in d.hands] == [6, 6] and len(d.stock) == 22 - 12 and len(d.placing) == 4
    while d.placing:
        engine.apply(d, engine.legal_moves(d)[0], rng)
    assert [len(h) for h in d.hands] == [4, 4]
    assert [[p for p, c in enumerate(t) if c is not None] for t in d.tracks] == [[1, 2], [1, 2]]
    assert engine.ended(d) is None and all(m[0] in ("move", "swap") for m in engine.legal_moves(d))  # type: ignore[index]


def test_the_rules_worked_combo_example(engine: TarotEngine) -> None:
    """Shirou steps A2 -> A3 and attacks B1 (Archer) with Saber; B holds with Rin; Archer strikes back
    and A stops it with Rider, both to the waste; A keeps one of Shirou and Saber on A3; refills."""
    c = by_name(engine)
    others = [
        c[k] for k in ("3", "5", "9", "13", "15", "16", "20", "21", "12", "14", "8")
    ]  # no link to the cast
    d = Duel(
        stock=others[6:],
        hands=[[c["Saber"], c["Rider"], others[0], others[1]], [c["Rin"], others[2], others[3], others[4]]],
        tracks=[[others[5], None, c["Shirou"], None, None], [None, c["Archer"], None, others[10], None]],
    )
    rng = random.Random(0)
    assert ("move", 2, 3, c["Saber"]) in engine.legal_moves(d)
    engine.apply(d, ("move", 2, 3, c["Saber"]), rng)
    assert engine.to_move(d) == 1 and ("hand", c["Rin"]) in engine.legal_moves(d)
    engine.apply(d, ("hand", c["Rin"]), rng)
    assert engine.to_move(d) == 0  # Archer strikes back at Shirou
    answers = engine.legal_moves(d)
    assert ("hand", c["Rider"]) in answers and MAP not in answers  # a bow card holds; Shirou is sword
    engine.apply(d, ("hand", c["Rider"]), rng)
    assert {c["Rin"], c["Archer"], c["Rider"]} <= set(d.waste) and d.loot == [[], []]
    kept = d.tracks[0][3]
    assert kept in (c["Shirou"], c["Saber"]) and ({c["Shirou"], c["Saber"]} - {kept}) <= set(d.waste)
    # the refill: A (2 in hand, 2 on the map) draws 2; B (3 in hand, 1 on the map) draws 2 and lays one on B0
    assert len(d.hands[0]) == 4 and d.placing == [1]
    assert len(d.hands[1]) == 5
    engine.apply(d, engine.legal_moves(d)[0], rng)
    assert d.tracks[1][0] is not None and len(d.hands[1]) == 4 and d.seat == 1


def test_single_attacks(engine: TarotEngine) -> None:
    c = by_name(engine)
    rng = random.Random(0)

    def duel(attacker: int, defender: int, hand: list[int]) -> Duel:
        return Duel(
            [], [[], list(hand)], [[None, attacker, None, None, None], [None, None, defender, None, None]]
        )

    d = duel(c["Saber"], c["Shirou"], [])  # two swords: the map card holds and both cancel
    engine.apply(d, ("move", 1, 2, "single"), rng)
    assert engine.legal_moves(d) == [NONE, MAP]
    engine.apply(d, MAP, rng)
    assert d.tracks == [[None] * 5, [None] * 5] and sorted(d.waste) == sorted([c["Saber"], c["Shirou"]])
    assert engine.ended(d) == "a side has no cards left"
    d = duel(c["Rin"], c["Archer"], [c["Rider"], c["Luvia"]])  # Rin strikes first: only a magic card holds
    engine.apply(d, ("move", 1, 2, "single"), rng)
    assert engine.legal_moves(d) == [NONE, ("hand", c["Luvia"])]
    engine.apply(d, NONE, rng)
    assert d.loot == [[c["Archer"]], []] and d.tracks[0][2] == c["Rin"]
    d = duel(c["Archer"], c["Rin"], [])  # a servant cannot overpower its own master
    engine.apply(d, ("move", 1, 2, "single"), rng)
    assert MAP in engine.legal_moves(d)
    assert not any(m[3] == "single" for m in engine._turns(duel(c["Tiger"], c["Rin"], [])))  # type: ignore[index]
    d = duel(c["Shirou"], c["Tiger"], [])  # Tiger on the map stops a combo and cannot strike back
    d.hands[0] = [c["Saber"]]
    engine.apply(d, ("move", 1, 2, c["Saber"]), rng)
    assert engine.legal_moves(d) == [NONE, MAP]
    engine.apply(d, MAP, rng)
    assert d.fight is None and d.tracks[1][2] == c["Tiger"] and d.tracks[0][2] in (c["Shirou"], c["Saber"])
    assert len(d.waste) == 1 and d.loot == [[], []]


def test_the_end_and_a_draw(engine: TarotEngine) -> None:
    c = by_name(engine)
    d = Duel([], [[], []], [[c["Saber"], None, None, None, None], [c["Rin"], None, None, None, None]])
    for _ in range(engine.rules.quiet_turns - 1):
        engine.apply(d, engine.legal_moves(d)[0], random.Random(0))
        assert engine.ended(d) is None
    engine.apply(d, engine.legal_moves(d)[0], random.Random(0))
    assert engine.ended(d) == "no change possible"
    assert engine.outcome(d, "no change possible").winners == ()  # equal loot: a draw
    d.loot = [[c["Archer"]], []]
    assert engine.outcome(d, "no change possible").winners == (0,)


def test_whole_games_and_greedy_beats_random(engine: TarotEngine) -> None:
    wins, games = 0.0, 80
    for i in range(games):
        bots = ["greedy", "random"] if i % 2 == 0 else ["random", "greedy"]
        out = play_game(engine, 2, bots, random.Random(i))
        assert out.end in ("no change possible", "a side has no cards left")
        assert sum(out.scores) + 0 <= 22
        wins += (i % 2 in out.winners) / len(out.winners) if out.winners else 0
    assert rate_ci(wins, games)["low"] > 0.5, wins / games


def test_a_changed_fact_changes_the_engine(tmp_path: Path) -> None:
    proj = make_project(tmp_path / "proj", ("tarot",))
    db = proj / "card_data" / "tarot.yaml"
    db.write_text(
        db.read_text(encoding="utf-8").replace("quiet_turns: 10", "quiet_turns: 4"), encoding="utf-8"
    )
    assert _engine(proj).rules.quiet_turns == 4


class _Cheat(TarotEngine):
    def greedy(self, d, moves, rng):  # type: ignore[no-untyped-def]
        if d.placing or d.fight is not None:
            return moves[0]
        return ("move", 0, 4, None)  # a jump of four spaces


def test_illegal_moves_refused_and_endless_games_reported(engine: TarotEngine) -> None:
    with pytest.raises(IllegalMove, match="rules do not allow"):
        play_game(_Cheat(engine.rules), 2, ["greedy"] * 2, random.Random(1))
    out = play_game(engine, 2, ["random"] * 2, random.Random(1), step_limit=6)
    assert out.end == STEP_LIMIT_END and out.winners == ()
