"""pnp simulate: engines against hand-worked positions, bots, statistics, determinism, the seed's claim."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from pnp.data.reading.loader import load_game
from pnp.data.reading.project import Project
from pnp.engines.bargains import BargainsEngine, Table, closest_match, fewest_over
from pnp.engines.cards import parse_cards
from pnp.engines.play import STEP_LIMIT_END, IllegalMove, play_game
from pnp.engines.simulate import Play
from pnp.engines.skirmish import Fairy, Skirmish, SkirmishEngine, legal_plays
from pnp.simulate.registry import NoEngine, setup
from pnp.simulate.run import run_games
from pnp.simulate.stats import compare, rate_ci, summarise, welch

from conftest import ROOT, make_project, run


def _game(name: str, root: Path = ROOT):
    project = Project.at(root)
    return load_game(project.resolve_game(name), name, project.root)


def _stacked(tmp_path: Path, **variants: str) -> Path:
    """A project with Fairy Meat and stacked decks NAME=REMOVED (written as `pnp stack` writes them)."""
    proj = make_project(tmp_path / "proj", ("fairy-meat",))
    (proj / "card_data" / "variants").mkdir()
    for name, removed in variants.items():
        text = f"variant:\n  name: {name}\n  base: fairy-meat\n  remove:\n  - '{removed}'\n"
        (proj / "card_data" / "variants" / f"{name}.yaml").write_text(text, encoding="utf-8")
    return proj


# --------------------------------------------------------------------------- Fairy Meat


def test_skirmish_hand_worked_round() -> None:
    """Order by the higher card; Kill + 1 cards against Live; a 10 and a Jack against a 4 of the same
    colour wins by 7, 4 points of damage; the Nasty Hits draw (2 + 1 over the threshold = 3) is Clipped
    Wings, full damage, taken a point at a time from the larger of Live and Kill: 3/3 -> 1/1."""
    engine = SkirmishEngine(setup(_game("fairy-meat")).engine.rules)  # type: ignore[attr-defined]
    # drawn from the end: Order cards (fairy 1, fairy 2), attacker's 4, defender's 3, the Nasty Hits draw
    deck = parse_cards("2D 8H 7H 4S JC 2H 9S 10C 3D KS")
    s = Skirmish([Fairy(3, 3), Fairy(3, 3)], list(deck))
    rng = random.Random(0)
    engine._new_round(s, rng)
    engine._advance(s, rng)
    assert (s.order, s.phase, s.attacker, s.defender) == ([0, 1], "attack", 0, 1)
    assert sorted(map(str, s.hands["attack"])) == ["10C", "2H", "9S", "JC"]
    assert sorted(map(str, s.hands["defend"])) == ["4S", "7H", "8H"]
    ten, jack, four = parse_cards("10C JC 4S")
    attack = Play("add", (jack,), ten)
    assert attack in engine.legal_moves(s)
    engine.apply(s, attack, rng)
    assert engine.to_move(s) == 1
    engine.apply(s, Play("add", (), four), rng)
    assert (s.damage, s.nasty, s.combats) == (4, 1, 1)
    assert (s.fairies[1].kill, s.fairies[1].live) == (1, 1)
    assert (s.attacker, s.phase) == (1, "attack")  # the defender's own turn, against fairy 1
    # the Fairy Deck ran out: the Spoils Heap (every card used so far) became the new deck for the next hands
    held = s.deck + s.spoils + s.hands["attack"] + s.hands["defend"]
    assert sorted(map(str, held)) == sorted(map(str, deck))


def test_skirmish_legal_plays_and_end() -> None:
    five, four, king, queen, jack = parse_cards("5C 4H KS QH JD")
    plays = legal_plays([five, four, king, queen, jack], "attacker")
    # each Numbered card: no trump, or 1 black / 1-2 red Trumps, added or subtracted (cheats included)
    assert len(plays) == 2 * (1 + 2 * 1 + 2 * 2)
    assert Play("subtract", (king,), five) in plays and Play("add", (jack, queen), five) in plays
    assert legal_plays([king, queen], "defender") == [
        Play("add", (), None, king),
        Play("add", (), None, queen),
    ]
    assert legal_plays([], "defender") == [Play("add")]
    engine = setup(_game("fairy-meat")).engine
    s = Skirmish([Fairy(3, 3), Fairy(0, 0, dead=True)], [])
    assert engine.ended(s) == "last fairy standing"
    out = engine.outcome(s, "last fairy standing")
    assert out.winners == (0,) and out.scores == (6.0, 0.0)


def test_skirmish_plays_every_player_count_it_claims() -> None:
    s = setup(_game("fairy-meat"))
    assert s.players == (2, 8)
    for players in (2, 5, 8):
        out = play_game(s.engine, players, ["random"] * players, random.Random(players))
        assert out.end in ("last fairy standing", "round limit")
        assert len(out.scores) == players and out.turns > 0


def test_fairy_meat_claim_fast(tmp_path: Path) -> None:
    """The seed's claim at 400 games: median numbers out -> more damage per combat and shorter fights."""
    proj = _stacked(tmp_path, wild="4-6", mild="2,3,9,10")
    rows = _claim(proj, 400)
    assert (
        rows["wild"]["damage per combat"]["difference"] > 0
        and rows["wild"]["damage per combat"]["significant"]
    )
    assert rows["mild"]["rounds"]["difference"] > 0 and rows["mild"]["rounds"]["significant"]


@pytest.mark.slow
def test_fairy_meat_claim_at_5000_games(tmp_path: Path) -> None:
    """Median numbers removed: shorter, bloodier combats; extremes removed: longer ones; 5 % level."""
    rows = _claim(_stacked(tmp_path, wild="4-6", mild="2,3,9,10"), 5000)
    wild, mild = rows["wild"], rows["mild"]
    for fig, sign in (("rounds", -1), ("turns", -1), ("damage per combat", 1), ("deaths per fight", 1)):
        assert wild[fig]["significant"] and sign * wild[fig]["difference"] > 0, (fig, wild[fig])
    for fig, sign in (("rounds", 1), ("turns", 1), ("damage per combat", -1)):
        assert mild[fig]["significant"] and sign * mild[fig]["difference"] > 0, (fig, mild[fig])


def _claim(proj: Path, games: int) -> dict[str, dict[str, dict]]:
    base = summarise(run_games(setup(_game("fairy-meat", proj)).engine, games, 2, ("greedy",) * 2, 7, 2), 2)
    out = {}
    for name in ("wild", "mild"):
        this = summarise(run_games(setup(_game(name, proj)).engine, games, 2, ("greedy",) * 2, 7, 2), 2)
        out[name] = {r["figure"]: r for r in compare(this, base)}
    return out


# --------------------------------------------------------------------------- Fairy Bargains


def _table(engine: BargainsEngine, hands: list[list[int]], pot: list[int], pile: list[int]) -> Table:
    n = len(hands)
    return Table(hands, pot, pile, [0.0] * n, out=[False] * n)


def test_bargains_main_worked_example() -> None:
    """The booklet's example: 3 for the 5, 5 for the 10, and a 10 that turns up a 3 and takes 3, 3 and 5."""
    engine = setup(_game("bargains"), "main").engine
    assert fewest_over([1, 5, 10], 3) == [(5,), (10,)]  # the player picks either
    t = _table(engine, [[3, 1], [5, 1], [10, 1]], [1, 5, 10], [7, 3])
    for move in ((3, (5,)), (5, (10,)), (10, (3, 3, 5))):
        assert move in engine.legal_moves(t)
        engine.apply(t, move, random.Random(0))
    assert sorted(t.pot) == [1, 10] and t.pile == [7]
    assert t.scores == [1.0, 1.0, 3.0]


def test_bargains_variant_1_worked_example() -> None:
    engine = setup(_game("bargains"), "variant-1").engine
    assert closest_match([1, 5, 10], 3) == [(5,)] and closest_match([1, 3, 5, 3], 10) == [(3, 3, 5)]
    assert closest_match([1, 3, 5], 4) == [(1, 3)]  # an exact match first
    t = _table(engine, [[3, 1], [5, 1], [10, 1]], [1, 5, 10], [7, 3])
    for move in ((3, (5,)), (5, (10,)), (10, (3, 3, 5))):
        assert engine.legal_moves(t) and move in engine.legal_moves(t)
        engine.apply(t, move, random.Random(0))
    assert t.scores == [2.0, 5.0, 1.0] and sorted(t.pot) == [1, 10]


def test_bargains_variant_2_worked_example_and_end() -> None:
    engine = setup(_game("bargains"), "variant-2").engine
    t = engine.start(4, random.Random(3))
    assert all(sorted(h) == [1, 1, 1, 3, 3, 3, 5, 5, 7, 7, 10] for h in t.hands)
    t.seat = 0
    for move in ((1, ()), (3, (1,)), (3, ()), (7, (3, 3))):
        assert move in engine.legal_moves(t)
        engine.apply(t, move, random.Random(0))
    assert t.pot == [7] and sorted(t.hands[3]) == [1, 1, 1, 3, 3, 3, 3, 3, 5, 5, 7, 10]
    assert (3, (1, 3)) not in engine.legal_moves(t)  # 4 is more than one less than 3
    t.hands = [[1], [], [], [5]]
    t.out = [False, True, True, False]
    t.seat = 0
    engine.apply(t, (1, ()), random.Random(0))
    assert engine.ended(t) == "last player with cards" and engine.outcome(t, "x").winners == (3,)


def test_bargains_deal_and_solitaire_layout() -> None:
    main = setup(_game("bargains"), "main").engine
    t = main.start(4, random.Random(1))
    assert [len(h) for h in t.hands] == [6] * 4 and len(t.pot) == 3 and len(t.pile) == 65 - 27
    assert t.seat == 1  # play starts on the dealer's left
    out = play_game(main, 4, ["random"] * 4, random.Random(2))
    assert out.turns == 4 * 6 * 4 and sum(out.scores) > 0 and out.end == "every player has dealt"
    sol = setup(_game("bargains"), "solitaire").engine
    t = sol.start(1, random.Random(5))
    assert [len(p) for p in t.piles] == [1, 2, 3, 4, 5, 6] and len(t.play) == 3 and len(t.pile) == 65 - 21 - 3


def test_a_changed_fact_changes_the_engine(tmp_path: Path) -> None:
    proj = make_project(tmp_path / "proj", ("bargains",))
    path = proj / "card_data" / "bargains.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("hand_size: 6", "hand_size: 4"), encoding="utf-8"
    )
    out = play_game(setup(_game("bargains", proj), "main").engine, 3, ["random"] * 3, random.Random(1))
    assert out.turns == 3 * 4 * 3


# --------------------------------------------------------------------------- bots and the runner


class _Cheat(BargainsEngine):
    def greedy(self, t, moves, rng):  # type: ignore[no-untyped-def]
        return (99, ())


def test_illegal_moves_are_refused_and_endless_games_reported() -> None:
    engine = setup(_game("bargains"), "main").engine
    cheat = _Cheat(engine.rules)  # type: ignore[attr-defined]
    with pytest.raises(IllegalMove, match="does not allow|not allow"):
        play_game(cheat, 2, ["greedy", "random"], random.Random(1))
    out = play_game(engine, 2, ["random"] * 2, random.Random(1), step_limit=5)
    assert out.end == STEP_LIMIT_END and out.turns == 5


@pytest.mark.parametrize(
    ("game", "way"),
    [("fairy-meat", ""), ("bargains", "main"), ("bargains", "variant-2"), ("fairy-bucks", "")],
)
def test_greedy_beats_random(game: str, way: str) -> None:
    engine = setup(_game(game), way).engine
    wins = 0.0
    games = 300
    for i in range(games):
        bots = ["greedy", "random"] if i % 2 == 0 else ["random", "greedy"]
        out = play_game(engine, 2, bots, random.Random(i))
        greedy_seat = i % 2
        wins += (greedy_seat in out.winners) / max(1, len(out.winners)) if out.winners else 0
    assert rate_ci(wins, games)["low"] > 0.5, wins / games


def test_same_figures_for_a_seed_whatever_the_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PNP_START_METHOD", "spawn")
    engine = setup(_game("fairy-meat")).engine
    one = run_games(engine, 60, 3, ("greedy", "random", "greedy"), 11, 1)
    two = run_games(engine, 60, 3, ("greedy", "random", "greedy"), 11, 2)
    assert one == two
    other = run_games(engine, 60, 3, ("greedy", "random", "greedy"), 12, 1)
    assert other != one


def test_statistics_by_hand() -> None:
    r = rate_ci(50, 100)
    assert r["rate"] == 0.5 and abs(r["low"] - 0.4038) < 1e-3 and abs(r["high"] - 0.5962) < 1e-3
    t, p = welch({"mean": 1.0, "sd": 1.0, "n": 100}, {"mean": 0.5, "sd": 1.0, "n": 100})
    assert abs(t - 0.5 / (0.02**0.5)) < 1e-9 and 0.0 < p < 0.001


# --------------------------------------------------------------------------- the command


def test_cli_json_against_and_player_counts(tmp_path: Path) -> None:
    r = run(
        "simulate",
        "bargains",
        "main",
        "--games",
        "60",
        "--players",
        "3",
        "--json",
        "--project",
        str(ROOT),
        "--bots",
        "greedy,random,random",
        "--against",
        "variant-1",
        "--jobs",
        "1",
    )
    assert r.code == 0, r.err
    data = json.loads(r.out)
    assert data["players"] == 3 and data["summary"]["games"] == 60 and len(data["summary"]["win rate"]) == 3
    assert data["against"]["way"] == "variant-1"
    assert {row["figure"] for row in data["comparison"]} >= {"turns", "score spread", "win rate, seat 1"}
    bad = run("simulate", "bargains", "variant-2", "--players", "5", "--project", str(ROOT))
    assert bad.code == 2 and "2-4 players" in bad.err
    text = run(
        "simulate", "fairy-meat", "--games", "40", "--players", "4", "--project", str(ROOT), "--jobs", "1"
    )
    assert text.code == 0 and "damage per combat" in text.out and "95% CI" in text.out
    proj = make_project(tmp_path / "proj", ("tarot",))
    (proj / "card_data" / "tarot.yaml").rename(proj / "card_data" / "my-duel.yaml")  # a game of one's own
    none = run("simulate", "my-duel", "--project", str(proj))
    assert none.code != 0 and "no engine plays" in none.err and "tarot" in none.err


def test_unknown_way_is_named() -> None:
    with pytest.raises(NoEngine, match="variant-9"):
        setup(_game("bargains"), "variant-9")


# --------------------------------------------------------------------------- Fairy Bucks


def test_bucks_setup_auction_and_scoring() -> None:
    from pnp.engines.bucks import PASS, POOF

    engine = setup(_game("fairy-bucks")).engine
    two = engine.start(2, random.Random(1))
    # 24 items, the four 1-point ones out, 1 under the castle, 1 set aside: 18 left, 3 on sale
    assert len(two.castle) == 1 and len(two.items) + len(two.lot) == 18 and len(two.lot) == 3
    assert all(v != 1 for v, _ in two.items + two.lot + two.castle)
    assert two.hands[0] == list(range(1, 11)) and engine.legal_moves(two)[-1] == POOF
    a = engine.start(3, random.Random(2))
    lot = list(a.lot)
    for move in (5, 4, 4):  # seat 1 high bidder once
        engine.apply(a, move, random.Random(0))
    assert a.high == 0 and a.run == 1 and PASS in engine.legal_moves(a)
    for move in (PASS, 1, POOF):  # seat 2 ties at 5, seat 3 takes its 4 back: no high bidder
        engine.apply(a, move, random.Random(0))
    assert a.high is None and a.active == [True, True, False] and 4 in a.hands[2]
    for move in (3, PASS):  # seat 1 leads 8 to 5 ...
        engine.apply(a, move, random.Random(0))
    for move in (PASS, PASS):  # ... and again: two reveals in a row win the lot
        engine.apply(a, move, random.Random(0))
    assert a.won[0] == lot and a.auctions == 2
    assert sorted(a.hands[0]) == [1, 2, 4, 6, 7, 8, 9, 10]  # the winning bid is spent
    assert sorted(a.hands[1]) == [2, 3, 4, 5, 6, 7, 8, 9, 10]  # seat 2 loses its lowest note, the 1
    symbols = engine.rules.symbols  # type: ignore[attr-defined]
    won = [(5, symbols[0]), (4, symbols[1]), (3, symbols[2]), (2, symbols[3]), (1, symbols[0])]
    assert engine.score(won) == 15 + 4  # one full set of the four symbols


def test_solitaire_greedy_clears_more_than_random() -> None:
    engine = setup(_game("bargains"), "solitaire").engine
    left = {bot: 0.0 for bot in ("greedy", "random")}
    for bot in left:
        for i in range(200):
            out = play_game(engine, 1, [bot], random.Random(i))
            assert out.end in ("bargain area cleared", "stock used up")
            left[bot] += out.metrics["cards left in the area"]
    assert left["greedy"] < left["random"]
