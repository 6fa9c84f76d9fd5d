"""pnp simulate feenbalz: the engine against the rules' own examples, the deal, the specials, the end."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from pnp.data.reading.loader import load_game
from pnp.data.reading.project import Project
from pnp.engines.feenbalz import COLLECT, Court, FeenbalzEngine, Forest
from pnp.engines.feenbalz_gifts import Fairy
from pnp.engines.play import STEP_LIMIT_END, IllegalMove, play_game
from pnp.simulate.registry import setup
from pnp.simulate.stats import rate_ci

from conftest import ROOT


@pytest.fixture(scope="module")
def engine() -> FeenbalzEngine:
    project = Project.at(ROOT)
    game = load_game(project.resolve_game("feenbalz"), "feenbalz", project.root)
    made = setup(game)
    assert made.players == (3, 6) and made.way == "courtship"
    assert isinstance(made.engine, FeenbalzEngine)
    return made.engine


def card(engine: FeenbalzEngine, colour: str, kind: str, quality: int) -> int:
    return engine.rules.objects.index((colour, kind, quality))


def test_deal(engine: FeenbalzEngine) -> None:
    f = engine.start(4, random.Random(3))
    assert [len(h) for h in f.hands] == [5, 5, 5, 5] and len(f.market) == 5
    assert len(f.deck) == 69 - 4 * 5 - 5 and len(f.fairies) == 25 and f.ladies == [0] * 4
    held = sorted(f.deck + f.market + [c for h in f.hands for c in h])
    assert held == list(range(69))
    assert COLLECT in engine.legal_moves(f) and engine.ended(f) is None


def test_the_rules_exchange_example(engine: FeenbalzEngine) -> None:
    """Giving the red feather 1: by kind the two feathers, by colour the red stone and beetle, by
    quality every card of quality 1."""
    market = [
        card(engine, "yellow", "flower", 1),
        card(engine, "red", "stone", 1),
        card(engine, "blue", "feather", 3),
        card(engine, "green", "feather", 1),
        card(engine, "red", "beetle", 1),
    ]
    given = card(engine, "red", "feather", 1)
    assert engine._matching(given, "kind", market) == [market[2], market[3]]
    assert engine._matching(given, "colour", market) == [market[1], market[4]]
    assert engine._matching(given, "quality", market) == [market[0], market[1], market[3], market[4]]
    shoe = card(engine, "none", "horseshoe", 2)
    assert [m[2] for m in engine.exchanges([shoe], market)] == []  # nothing of quality 2 on offer
    assert [m[2] for m in engine.exchanges([given], market)] == ["colour", "kind", "quality"]


def test_the_rules_scoring_and_improving_example(engine: FeenbalzEngine) -> None:
    """Ulf's green collection before a lady who likes blue and beetles and dislikes shells is worth 7;
    adding a green stone 3, feather 1 and beetle 1 makes 13, which beats Olli's 11."""
    lady = Fairy("blue", "beetle", "shell")
    ulf = [
        card(engine, "green", "shell", 4),
        card(engine, "green", "beetle", 2),
        card(engine, "green", "beetle", 3),
    ]
    assert engine.fits(ulf) and engine.value(ulf, lady) == 7
    added = (
        card(engine, "green", "stone", 3),
        card(engine, "green", "feather", 1),
        card(engine, "green", "beetle", 1),
    )
    assert engine.value([*ulf, *added], lady) == 13
    olli = [
        card(engine, "blue", "flower", 2),
        card(engine, "blue", "flower", 3),
        card(engine, "blue", "stone", 3),
    ]
    assert engine.value(olli, lady) == 11  # 8 points and the blue bonus on each card
    f = Forest([], [], [[], list(added), [], []], [], [0] * 4)
    f.court = Court(0, [(0, olli), (1, ulf)], [], lady)
    assert ("add", tuple(sorted(added))) in engine.improvements(f, 1, ulf)
    assert ("add", added[:1]) not in engine.improvements(f, 1, ulf)  # 7 + 3 = 10 does not lead
    assert ("add", added[1:]) not in engine.improvements(f, 1, ulf)  # 7 + 1 + 2 = 10 neither


def test_collections_and_specials(engine: FeenbalzEngine) -> None:
    shoes = [card(engine, "none", "horseshoe", q) for q in range(5)]
    yellow = [card(engine, "yellow", "beetle", q) for q in (1, 2, 3)]
    assert engine.fits(shoes[:3]) and engine.fits(yellow + shoes[:2]) and not engine.fits(yellow + shoes[:3])
    assert not engine.fits(yellow[:2]) and not engine.fits(
        [yellow[0], card(engine, "red", "stone", 2), shoes[0]]
    )
    shells = [card(engine, c, "shell", q) for c in ("red", "green") for q in (0, 4)]
    agarics = [card(engine, c, "fly-agaric", q) for c in ("red", "green") for q in (0, 4)]
    assert engine.fits(shells[:2] + agarics[:1])  # neutral objects go together
    assert ("court", tuple(sorted(yellow))) in engine.collections(yellow + [shoes[0]])
    lady = Fairy("yellow", "none", "stone")
    hands = [3, 3, 3]
    assert engine.winners([(0, yellow), (1, shoes)], lady, hands) == {1: 3}  # five horseshoes beat all
    assert engine.winners([(0, yellow), (2, shells)], lady, hands) == {2: 2}  # all four shells win at once
    assert engine.winners([(0, shells), (2, agarics)], lady, hands) == {0: 1, 2: 1}
    low = [card(engine, "red", "flower", q) for q in (1, 2, 3)]
    assert engine.winners([(0, low), (1, low)], lady, hands) == {0: 1}  # a tie: the first laid
    big = [card(engine, "yellow", k, 3) for k in ("beetle", "flower", "feather")] + yellow[:2]
    assert engine.winners([(0, low), (1, big)], lady, hands) == {1: 2}  # 22 against 6: ten ahead
    assert engine.winners([(1, big)], lady, hands) == {1: 2}  # alone and worth ten or more
    assert engine.winners([(1, low)], lady, [3, 0, 3]) == {1: 2}  # its winner holds no cards
    assert engine.winners([(1, shoes[:3])], lady, hands) == {1: 2}  # pure horseshoes that win


def test_black_fairy_and_the_end(engine: FeenbalzEngine) -> None:
    rng = random.Random(1)
    f = engine.start(3, rng)
    hand = [card(engine, "yellow", "beetle", q) for q in (1, 2, 3)]
    f.hands = [list(hand), [], []]
    f.fairies = [Fairy("red", "stone", "shell"), Fairy("none", "none", "none", black=True)]
    f.seat = 0
    engine.apply(f, ("court", tuple(hand)), rng)
    engine.apply(f, ("out",), rng)
    engine.apply(f, ("out",), rng)  # the black fairy: nobody wins, everything to the discard pile
    assert f.court is None and f.ladies == [0, 0, 0] and set(hand) <= set(f.discard) and f.seat == 1
    f.ladies = [5, 6, 0]
    assert engine.ended(f) == "enough ladies won"
    assert engine.outcome(f, "enough ladies won").winners == (1,)
    f.ladies = [2, 2, 1]
    f.fairies = [Fairy("none", "none", "none", black=True)]
    assert engine.ended(f) == "fairy deck used up"
    assert engine.outcome(f, "fairy deck used up").winners == (0, 1)


def test_every_player_count_plays_to_an_end(engine: FeenbalzEngine) -> None:
    for players in (3, 4, 5, 6):
        out = play_game(engine, players, ["random"] * players, random.Random(players))
        assert out.end in ("enough ladies won", "fairy deck used up"), out.end
        assert len(out.scores) == players and out.turns > 0 and out.rounds > 0


def test_greedy_beats_random(engine: FeenbalzEngine) -> None:
    wins, games = 0.0, 45
    for i in range(games):
        bots = ["random"] * 3
        bots[i % 3] = "greedy"
        out = play_game(engine, 3, bots, random.Random(i))
        wins += (i % 3 in out.winners) / len(out.winners) if out.winners else 0
    assert rate_ci(wins, games)["low"] > 1 / 3, wins / games


def test_changed_fact_changes_the_engine(tmp_path: Path) -> None:
    from conftest import make_project

    proj = make_project(tmp_path / "proj", ("feenbalz",))
    db = proj / "card_data" / "feenbalz.yaml"
    db.write_text(
        db.read_text(encoding="utf-8").replace("wish_bonus: 1 ", "wish_bonus: 2 "), encoding="utf-8"
    )
    project = Project.at(proj)
    made = setup(load_game(project.resolve_game("feenbalz"), "feenbalz", project.root))
    assert made.engine.rules.wish_bonus == 2  # type: ignore[attr-defined]


def test_moves_listed_lazily_are_checked_in_full(engine: FeenbalzEngine) -> None:
    """The collections are listed only when a bot needs them, but a move is still checked against them:
    everything listed is allowed, a collection out of order, of cards not held or not matching is not."""
    rng = random.Random(5)
    f = engine.start(3, rng)
    yellow = [card(engine, "yellow", "beetle", q) for q in (1, 2, 3)]
    red = card(engine, "red", "stone", 2)
    f.hands[f.seat] = [*yellow, red]
    moves = engine.legal_moves(f)
    listed = list(moves)
    assert ("court", tuple(sorted(yellow))) in listed and all(m in moves for m in listed)
    assert len(listed) == len(set(listed)) == len(moves)
    assert ("court", tuple(sorted(yellow, reverse=True))) not in moves
    assert ("court", tuple(sorted([*yellow[:2], red]))) not in moves  # no shared colour or kind
    assert (
        "court",
        tuple(sorted([*yellow[:2], card(engine, "yellow", "flower", 1)])),
    ) not in moves  # not held
    assert engine.richest(f.hands[f.seat]) == tuple(sorted(yellow))


class _Cheat(FeenbalzEngine):
    def greedy(self, f, moves, rng):  # type: ignore[no-untyped-def]
        return ("court", tuple(sorted(f.hands[self.to_move(f)][:2])))  # two cards are no collection


def test_illegal_moves_refused_and_endless_games_reported(engine: FeenbalzEngine) -> None:
    with pytest.raises(IllegalMove, match="rules do not allow"):
        play_game(_Cheat(engine.rules), 3, ["greedy"] * 3, random.Random(1))
    out = play_game(engine, 4, ["random"] * 4, random.Random(1), step_limit=7)
    assert out.end == STEP_LIMIT_END and out.winners == ()
