"""Tests for the alternative combat engine, Nasty Hits and the Monte Carlo."""

from __future__ import annotations

import random
from functools import partial
from pathlib import Path

import pytest

from pnp.data.format.facts import combat_rules, nasty_table
from pnp.data.reading.loader import load_game
from pnp.engines.cards import Card, parse_card, parse_cards, standard_deck
from pnp.engines.combat import (
    CombatRules,
    DeckExhausted,
    SidePlay,
    Trump,
    damage_level,
    play_wild,
    points_for,
)
from pnp.engines.combat import resolve_attack as _resolve_attack
from pnp.engines.nasty_hits import nasty_hit as _nasty_hit
from pnp.engines.simulate import choose_play
from pnp.engines.simulate import simulate as _simulate

C = parse_card
# The engines take the game's numbers as arguments; these come from fairy-meat.yaml's facts.
FACTS = load_game(Path(__file__).resolve().parents[1] / "card_data" / "fairy-meat.yaml").facts
RULES = combat_rules(FACTS)
TABLE = nasty_table(FACTS)
resolve_attack = partial(_resolve_attack, rules=RULES)
simulate = partial(_simulate, rules=RULES)
nasty_hit = partial(_nasty_hit, table=TABLE)
nasty_hit_effect = TABLE.effect
NASTY_HITS = {row.band: row for row in TABLE.rows}


# --------------------------------------------------------------------------- cards


def test_parse_card_forms() -> None:
    assert C("KS") == Card("K", "spades")
    assert C("10H") == Card("10", "hearts")
    assert C("4c") == Card("4", "clubs")
    assert C("AS").is_ace_of_spades
    assert C("Joker") == Card("Joker", None)
    assert C("K of spades") == Card("K", "spades")
    assert C("ten of Hearts") == Card("10", "hearts")
    assert C("Q\u2663") == Card("Q", "clubs")
    assert parse_cards("KS QC 5C") == [C("KS"), C("QC"), C("5C")]
    for bad in ("", "1H", "KX", "Z of spades"):
        with pytest.raises(ValueError):
            C(bad)


def test_card_properties() -> None:
    king, three, joker = C("KS"), C("3D"), C("Joker")
    assert (king.colour, king.is_trump, king.is_numbered, king.value) == ("black", True, False, None)
    assert (three.colour, three.is_trump, three.is_numbered, three.value) == ("red", False, True, 3)
    assert joker.is_joker and joker.colour is None and not joker.is_trump and not joker.is_numbered
    assert str(C("10H")) == "10H" and C("KS").symbol == "K\u2660"
    with pytest.raises(ValueError):
        Card("Joker", "hearts")
    with pytest.raises(ValueError):
        Card("1", "hearts")


def test_standard_deck() -> None:
    deck = standard_deck()
    assert len(deck) == 54 and len(set(deck)) == 53
    assert sum(c.is_trump for c in deck) == 16
    assert sum(c.is_numbered for c in deck) == 36
    assert len(standard_deck(0)) == 52 and len(standard_deck(4)) == 56


# --------------------------------------------------------------------------- worked example


def dizzy_first(numbered: str) -> SidePlay:
    return SidePlay(C(numbered), "subtract", (C("KS"), C("QC")))


SPARKY_FIRST = SidePlay(C("2D"), "add", (C("KC"),))


def test_example_first_attack() -> None:
    r = resolve_attack(dizzy_first("3D"), SPARKY_FIRST)
    assert (r.attacker_value, r.defender_value) == (2, 3)
    assert r.highest_wins
    assert r.winner == "defender"
    assert (r.difference, r.points, r.bonus, r.damage) == (1, 1, 1, 0)
    assert r.cheaters == ("attacker", "defender")
    assert not r.ace_doubled and not r.nasty_hit


def test_example_counterfactual_five_of_clubs() -> None:
    r = resolve_attack(dizzy_first("5C"), SPARKY_FIRST)
    assert (r.attacker_value, r.defender_value) == (2, 3)
    assert not r.highest_wins
    assert r.winner == "attacker"
    assert (r.points, r.damage, r.bonus) == (1, 1, 0)
    assert r.cheaters == ("defender",)


def test_example_second_attack() -> None:
    sparky, drawn = play_wild("add", iter(parse_cards("AS JH 3H 9C")), trumps=(Trump.point("black"),))
    assert drawn == tuple(parse_cards("AS JH 3H"))
    assert sparky.numbered == C("3H") and len(sparky.wild) == 2
    dizzy = SidePlay(C("5C"), "add")
    r = resolve_attack(dizzy, sparky)
    assert (r.defender_value, r.attacker_value) == (6, 3)
    assert not r.highest_wins and r.winner == "attacker"
    assert (r.difference, r.points) == (3, 2)
    assert r.ace_of_spades and r.ace_doubled and r.damage == 4
    assert r.cheaters == ("defender",)
    assert r.nasty_hit


# --------------------------------------------------------------------------- engine rules


def test_matching_trumps_follow_declared_mode() -> None:
    up = resolve_attack(SidePlay(C("5H"), "add", (C("JH"), C("QD"))), SidePlay(C("6D"), "add"))
    assert (up.attacker_value, up.defender_value, up.winner) == (7, 6, "attacker")
    assert not up.cheated and up.points == 1
    low = SidePlay(C("5H"), "subtract", (C("JH"), C("QD")))
    down = resolve_attack(low, SidePlay(C("6D"), "add"), face_down="reveal")
    assert (down.attacker_value, down.winner, down.points) == (3, "defender", 2)
    assert down.bonus == 2 and down.damage == 0
    # Left free to, the attacker hides trumps that would only make things worse.
    hidden = resolve_attack(low, SidePlay(C("6D"), "add"))
    assert not hidden.attacker_revealed and (hidden.attacker_value, hidden.bonus) == (5, 1)


def test_draw_scores_nothing() -> None:
    r = resolve_attack(SidePlay(C("7S"), "add"), SidePlay(C("7C"), "add"))
    assert (r.winner, r.points, r.damage, r.bonus) == ("draw", 0, 0, 0)


def test_points_and_damage_levels() -> None:
    assert [points_for(d) for d in range(6)] == [0, 1, 1, 2, 2, 3]
    assert [damage_level(d, RULES) for d in (0, 1, 4, 5, 8, 9, 15)] == [0, 1, 1, 2, 2, 3, 3]
    other = CombatRules((2, 5, 9), 3, 4)  # the engine follows whatever the database says
    assert [damage_level(d, other) for d in (1, 2, 3, 5, 6, 9, 10)] == [1, 1, 2, 2, 3, 3, 4]
    att, dfd = SidePlay(C("10S"), "add", (C("KS"), C("AC"))), SidePlay(C("2C"), "add")
    plain = resolve_attack(att, dfd)
    assert (plain.difference, plain.points, plain.damage) == (10, 5, 5)
    levels = resolve_attack(att, dfd, damage_levels=True)
    assert (levels.points, levels.damage) == (5, 3)


def test_ace_of_spades_doubles_damage_not_bonus() -> None:
    att = SidePlay(C("9S"), "add", (C("AS"),))
    win = resolve_attack(att, SidePlay(C("4C"), "add"))
    assert (win.attacker_value, win.points, win.damage, win.ace_doubled) == (10, 3, 6, True)
    lose = resolve_attack(att, SidePlay(C("4H"), "add"))  # different colours: lowest wins
    assert lose.winner == "defender" and lose.bonus == 3 and not lose.ace_doubled


def test_withholding_when_opponent_shows_no_trumps() -> None:
    # The attacker showed a red trump but plays black: revealing would make it a
    # cheat, so with an opponent who declared "None" it keeps the trump hidden.
    att = SidePlay(C("8S"), "add", (C("JH"),))
    dfd = SidePlay(C("5C"), "add")
    r = resolve_attack(att, dfd)
    assert not r.attacker_revealed and not r.cheated
    assert (r.attacker_value, r.defender_value, r.winner) == (8, 5, "attacker")
    forced = resolve_attack(att, dfd, face_down="reveal")
    assert forced.attacker_cheated and (forced.attacker_value, forced.defender_value) == (7, 6)
    # A defender whose matching trumps would hurt it keeps them hidden too.
    r2 = resolve_attack(SidePlay(C("6C"), "add"), SidePlay(C("7S"), "subtract", (C("QS"),)))
    assert not r2.defender_revealed and r2.winner == "defender" and r2.defender_value == 7


def test_revealing_face_down_trumps_is_the_players_choice() -> None:
    """Whether a side facing "None" reveals its face-down trumps is an argument of the call."""
    att = SidePlay(C("9S"), "add", (C("JS"),))  # a matching black trump: revealing helps
    dfd = SidePlay(C("5C"), "add")
    best = resolve_attack(att, dfd)
    shown = resolve_attack(att, dfd, face_down="reveal")
    hidden = resolve_attack(att, dfd, face_down="hide")
    assert best == shown and shown.attacker_revealed and shown.attacker_value == 10
    assert not hidden.attacker_revealed and hidden.attacker_value == 9 and hidden.points < shown.points
    # The defender's choice the same way: hiding a matching trump it would rather show.
    d_hide = resolve_attack(SidePlay(C("9C"), "add"), SidePlay(C("6S"), "add", (C("QS"),)), face_down="hide")
    assert not d_hide.defender_revealed and d_hide.defender_value == 6
    with pytest.raises(ValueError):
        resolve_attack(att, dfd, face_down="sometimes")  # type: ignore[arg-type]


def test_side_play_validation() -> None:
    with pytest.raises(ValueError):
        SidePlay(C("KS"), "add")
    with pytest.raises(ValueError):
        SidePlay(C("5S"), "double")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        SidePlay(C("5S"), "add", (C("KS"), C("QH")))
    with pytest.raises(ValueError):
        Trump.of(C("5S"))
    with pytest.raises(DeckExhausted):
        play_wild("add", iter(parse_cards("KS Joker")))


# --------------------------------------------------------------------------- Nasty Hits


def test_nasty_hits_table_covers_all_values() -> None:
    assert len(NASTY_HITS) == 12
    assert nasty_hit_effect(-4).name == "Spawny Get"
    assert nasty_hit_effect(0).name == "Spawny Get"
    assert [nasty_hit_effect(v).name for v in range(1, 12)] == [
        "Narrow Escape",
        "Dazed",
        "Clipped Wings",
        "Grievous Bodily Harm (GBH)",
        "Brains Rattled",
        "Panicked",
        "Confused",
        "Berserk",
        "Bleeder",
        "Gusher",
        "Head Off",
    ]
    assert nasty_hit_effect(25).name == "Head Off"
    assert all(e.description.endswith(".") for e in NASTY_HITS.values())


def test_nasty_hit_draw_modifiers() -> None:
    r = nasty_hit(5, iter(parse_cards("KS QC JH 4D 9S")))
    assert (r.black_trumps, r.red_trumps, r.numbered) == (2, 1, C("4D"))
    assert r.value == 4 + 2 + 2 - 1 and r.effect is not None and r.effect.name == "Confused"
    assert r.damage_taken == 5 and r.is_nasty and len(r.cards) == 4


def test_nasty_hit_joker_and_damage_changes() -> None:
    j = nasty_hit(5, iter(parse_cards("KS Joker 4D")))
    assert j.joker and not j.is_nasty and j.damage_taken == 3
    spawny = nasty_hit(3, iter(parse_cards("JH QD 2C")))
    assert spawny.value == 0 and spawny.damage_taken == 0
    narrow = nasty_hit(3, iter([C("AH"), C("2S")]))
    assert narrow.effect is not None and narrow.effect.name == "Narrow Escape" and narrow.damage_taken == 2
    dead = nasty_hit(6, iter([C("AS"), C("9C")]))
    assert dead.value == 13 and dead.fatal
    with pytest.raises(ValueError):
        nasty_hit(2, iter([C("5S")]))


# --------------------------------------------------------------------------- strategy and Monte Carlo


def test_choose_play_is_honest() -> None:
    rng = random.Random(1)
    for _ in range(300):
        hand = random.Random(rng.random()).sample(standard_deck(), 5)
        for role in ("attacker", "defender"):
            play = choose_play(hand, role, rng)  # type: ignore[arg-type]
            if play.numbered is not None:
                assert play.numbered in hand and play.wild is None
                assert all(t in hand and t.colour == play.numbered.colour for t in play.trumps)
            elif any(c.is_trump for c in hand):
                assert play.wild is not None and play.wild.is_trump and play.trumps == ()


def test_choose_play_wild_and_forfeit() -> None:
    rng = random.Random(0)
    att = choose_play(parse_cards("KH AS"), "attacker", rng)
    assert att.numbered is None and att.wild == C("AS")
    dfd = choose_play(parse_cards("KH AS"), "defender", rng)
    assert dfd.wild == C("KH")
    assert choose_play([C("Joker")], "defender", rng).forfeits


def test_simulate_reproducible_and_sane() -> None:
    deck = standard_deck()
    a = simulate(deck, 3, 2, 3000, seed=7)
    b = simulate(deck, 3, 2, 3000, seed=7)
    assert a == b
    assert a.p_attacker_win + a.p_defender_win + a.p_draw == pytest.approx(1.0)
    assert a.p_attacker_win > a.p_defender_win
    assert 0 < a.p_cheat < 0.2 and 0 < a.p_nasty_hit < a.p_attacker_win
    assert a.expected_damage > 0
    assert simulate(deck, 3, 2, 3000, seed=8) != a
    with pytest.raises(ValueError):
        simulate(deck, 40, 20, 10, seed=1)


def test_simulate_is_reproducible() -> None:
    """The same seed gives the same figures (its speed is measured in bench/, not here)."""
    stats = simulate(standard_deck(), 4, 3, 20_000, seed=2024)
    assert stats.trials == 20_000
    assert simulate(standard_deck(), 4, 3, 20_000, seed=2024) == stats
