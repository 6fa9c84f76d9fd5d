"""Single-fact mutations: every game fact the published rules state is checked by a rule.

Each case edits one fact (or one card the facts pin down) in a copy of a database;
`pnp check` must then exit 1 and name the rule that states the fact. A case whose
text is no longer in the database fails too, so the table cannot silently go stale.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import ROOT, run

# (game, case, text in the database, replacement, rule that must be named)
MUTATIONS = [
    # Fairy Bucks
    (
        "fairy-bucks",
        "players",
        "players: {min: 2, max: 5}",
        "players: {min: 2, max: 6}",
        "fairy-bucks-players",
    ),
    ("fairy-bucks", "set aside", "set_aside: {default: 2,", "set_aside: {default: 3,", "set-aside"),
    ("fairy-bucks", "set aside, two players", "two_players: 1}   #", "two_players: 2}   #", "set-aside"),
    (
        "fairy-bucks",
        "two-player removal",
        "two_player_removed_value: 1",
        "two_player_removed_value: 2",
        "two-player-removal",
    ),
    ("fairy-bucks", "set bonus", "set_bonus: 4", "set_bonus: 5", "set-bonus"),
    (
        "fairy-bucks",
        "set symbols",
        "set_symbols: [moon, sun, star, book]",
        "set_symbols: [moon, sun, star]",
        "set-symbols",
    ),
    ("fairy-bucks", "auction size", "auction_size: 3", "auction_size: 4", "auction-size"),
    ("fairy-bucks", "castle item", "castle_items: 1", "castle_items: 2", "castle-item"),
    ("fairy-bucks", "ties", "ties_share: true", "ties_share: false", "ties-share"),
    (
        "fairy-bucks",
        "High Bidder streak",
        "high_bidder_streak: 2",
        "high_bidder_streak: 3",
        "high-bidder-twice",
    ),
    ("bargains", "variant 2 take", "take_below: 1 ", "take_below: 0 ", "variant-2-take"),
    ("bargains", "point per card", "points_per_card: 1 ", "points_per_card: 2 ", "a-point-a-card"),
    ("bargains", "deals", "deals_each: 1 ", "deals_each: 2 ", "everyone-deals-once"),
    (
        "bargains",
        "stock passes",
        "solitaire_passes: 1 ",
        "solitaire_passes: 2 ",
        "one-pass-through-the-stock",
    ),
    ("fairy-bucks", "series", "series: {min: 3, max: 4}", "series: {min: 3, max: 5}", "a-series-of-games"),
    ("fairy-bucks", "losers' notes", "losers_discard: 1 ", "losers_discard: 2 ", "losers-lose-their-lowest"),
    (
        "fairy-bucks",
        "castle tie",
        "castle_needs_most: true ",
        "castle_needs_most: false ",
        "castle-to-the-richest-alone",
    ),
    ("tarot", "combo kept", "combo_kept: 1 ", "combo_kept: 0 ", "one-of-the-pair-stays"),
    ("feenbalz", "disliked", "disliked_value: 0 ", "disliked_value: 1 ", "disliked-counts-nothing"),
    ("feenbalz", "tie", "tie_first_laid: true ", "tie_first_laid: false ", "tie-to-the-first-laid"),
    ("feenbalz", "staying out", "decline_draw: 1 ", "decline_draw: 2 ", "one-card-to-stay-out"),
    ("feenbalz", "improving", "improve_turns: 1 ", "improve_turns: 2 ", "one-chance-to-improve"),
    (
        "feenbalz",
        "dead market",
        "dead_market_quality: 0 ",
        "dead_market_quality: 1 ",
        "a-market-of-zeros-is-renewed",
    ),
    ("feenbalz", "berry swap", "berry_swap_draw: 1 ", "berry_swap_draw: 2 ", "one-card-for-a-berry"),
    ("feenbalz", "both sets", "every_one_both_ladies: 1 ", "every_one_both_ladies: 2 ", "two-full-sets-meet"),
    ("tarot", "one step", "step: 1 ", "step: 2 ", "one-step"),
    ("tarot", "last map card", "last_on_map: 1 ", "last_on_map: 2 ", "last-card-on-the-map"),
    # Feenbalz
    ("feenbalz", "players", "players: {min: 3, max: 6}", "players: {min: 3, max: 7}", "feenbalz-players"),
    (
        "feenbalz",
        "ladies for 3-4",
        "ladies_needed: {3: 6, 4: 6,",
        "ladies_needed: {3: 6, 4: 5,",
        "ladies-needed",
    ),
    ("feenbalz", "ladies for 5-6", "5: 5, 6: 5}   #", "5: 5, 6: 4}   #", "ladies-needed"),
    ("feenbalz", "hand limit", "hand_limit: 9", "hand_limit: 10", "hand-limit"),
    ("feenbalz", "collection size", "collection: {min: 3,", "collection: {min: 2,", "collection-limits"),
    (
        "feenbalz",
        "improving limit",
        "improved_max: 5, horseshoes_max: 2}\n  ladies",
        "improved_max: 6, horseshoes_max: 2}\n  ladies",
        "collection-limits",
    ),
    (
        "feenbalz",
        "horseshoes",
        "horseshoes_max: 2}\n  ladies",
        "horseshoes_max: 3}\n  ladies",
        "collection-limits",
    ),
    (
        "feenbalz",
        "stalemate rule removed",
        "  stalemate:\n    en: >-\n",
        "  no_stalemate:\n    en: >-\n",
        "game-can-end",
    ),
    ("feenbalz", "deal", "deal: 5 ", "deal: 6 ", "deal-and-market"),
    ("feenbalz", "wish bonus", "wish_bonus: 1 ", "wish_bonus: 2 ", "wish-bonus"),
    (
        "feenbalz",
        "ten ahead",
        "ahead_by: {margin: 10, ladies: 2}  ",
        "ahead_by: {margin: 8, ladies: 2}  ",
        "special-collections",
    ),
    (
        "feenbalz",
        "five horseshoes",
        "horseshoes_all: {count: 5, ladies: 3}  ",
        "horseshoes_all: {count: 5, ladies: 2}  ",
        "special-collections",
    ),
    # Fairy Meat
    ("fairy-meat", "players", "players: {min: 2, max: 8}", "players: {min: 2, max: 6}", "fairy-meat-players"),
    (
        "fairy-meat",
        "Nasty Hits overlap",
        "{from: 10, to: 10, name: Gusher",
        "{from: 10, to: 11, name: Gusher",
        "nasty-hits-bands",
    ),
    (
        "fairy-meat",
        "Nasty Hits gap",
        "{from: 11, to: null, name: Head Off",
        "{from: 12, to: null, name: Head Off",
        "nasty-hits-bands",
    ),
    (
        "fairy-meat",
        "Nasty Hits lowest row",
        "{from: null, to: 0, name: Spawny Get",
        "{from: null, to: -1, name: Spawny Get",
        "nasty-hits-bands",
    ),
    ("fairy-meat", "Nasty Hit threshold", "threshold: 3 ", "threshold: 4 ", "nasty-hit-threshold"),
    ("fairy-meat", "Nasty Hit modifiers", "black_trump: 1 ", "black_trump: 2 ", "nasty-hit-modifiers"),
    (
        "fairy-meat",
        "Nasty Hit effect",
        "name: Narrow Escape, damage: half-up",
        "name: Narrow Escape, damage: full",
        "nasty-hit-results",
    ),
    ("fairy-meat", "Ace of Spades", "multiplier: 2 ", "multiplier: 3 ", "ace-of-spades-doubles"),
    ("fairy-meat", "damage levels", "damage_steps: [4, 8]", "damage_steps: [4, 9]", "damage-levels"),
    (
        "fairy-meat",
        "attacker's extra card",
        "attacker_extra_cards: 1",
        "attacker_extra_cards: 2",
        "attacker-extra-card",
    ),
    ("fairy-meat", "Trump step", "trump_step: 1 ", "trump_step: 2 ", "combat-numbers"),
    ("fairy-meat", "points halved", "points_divisor: 2 ", "points_divisor: 3 ", "combat-numbers"),
    ("fairy-meat", "wrestlers' draw", "wrestle_draw_damage: 1 ", "wrestle_draw_damage: 0 ", "combat-numbers"),
    (
        "fairy-meat",
        "diamond Fungus",
        "diamonds: {trump: [Panicked, Confused]",
        "diamonds: {trump: [Panicked, Bleeder]",
        "fungus-diamonds",
    ),
    (
        "fairy-meat",
        "club Fungus",
        "clubs: {trump: [Clipped Wings, GBH], ace: all}",
        "clubs: {trump: [Clipped Wings, GBH], ace: none}",
        "fungus-clubs",
    ),
    (
        "fairy-meat",
        "heart Fungus",
        "hearts: {trump: [Bleeder, Gusher]",
        "hearts: {trump: [Gusher]",
        "fungus-hearts",
    ),
    ("fairy-meat", "Joker Fungus", "joker: nasty-hit", "joker: nothing", "fungus-joker"),
    # Tarot
    ("tarot", "players", "players: {min: 2, max: 2}", "players: {min: 2, max: 4}", "tarot-players"),
    ("tarot", "deal", "deal: 6 ", "deal: 7 ", "tarot-deal"),
    ("tarot", "map cards", "on_map: 2 ", "on_map: 3 ", "deal-splits"),
    ("tarot", "hand cards", "in_hand: 4 ", "in_hand: 3 ", "deal-splits"),
    ("tarot", "start positions", "start_positions: [1, 2]", "start_positions: [0, 1]", "positions"),
    ("tarot", "refill position", "refill_position: 0", "refill_position: 3", "positions"),
    (
        "tarot",
        "sample element (fact)",
        "Saber: sword, Archer: bow, Rin: magic, Rider: bow}   #",
        "Saber: bow, Archer: bow, Rin: magic, Rider: bow}   #",
        "sample-elements",
    ),
    (
        "tarot",
        "sample element (card)",
        "arcana: The Chariot, element: bow",
        "arcana: The Chariot, element: magic",
        "example-cast",
    ),
    # Fairy Bargains
    ("bargains", "players", "players: {min: 1, max: 6}", "players: {min: 1, max: 7}", "bargains-players"),
    (
        "bargains",
        "main game players",
        "main: {players: {min: 2, max: 6}}",
        "main: {players: {min: 2, max: 5}}",
        "main-players",
    ),
    (
        "bargains",
        "variant 1 players",
        "variant-1: {players: {min: 2, max: 6}}",
        "variant-1: {players: {min: 3, max: 6}}",
        "variant-1-players",
    ),
    (
        "bargains",
        "variant 2 players",
        "players: {min: 2, max: 4}",
        "players: {min: 2, max: 5}",
        "variant-2-stock",
    ),
    ("bargains", "variant 2 start", "start: {10: 1, 7: 2,", "start: {10: 2, 7: 2,", "variant-2-start"),
    (
        "bargains",
        "solitaire players",
        "players: {min: 1, max: 1}\n      piles",
        "players: {min: 1, max: 2}\n      piles",
        "solitaire-players",
    ),
    ("bargains", "hand size", "hand_size: 6", "hand_size: 7", "hand-and-pot"),
    ("bargains", "Fairy Pot", "pot_size: 3", "pot_size: 4", "hand-and-pot"),
    (
        "bargains",
        "solitaire piles",
        "normal: 6, harder: 7}\n      turn",
        "normal: 8, harder: 7}\n      turn",
        "solitaire-piles",
    ),
]
GAMES = ("fairy-bucks", "feenbalz", "fairy-meat", "tarot", "bargains")


def test_every_game_has_enough_mutations() -> None:
    for game in GAMES:
        assert sum(1 for m in MUTATIONS if m[0] == game) >= 8, game


@pytest.mark.parametrize("game,case,old,new,rule", MUTATIONS, ids=[f"{m[0]}: {m[1]}" for m in MUTATIONS])
def test_a_wrong_fact_breaks_check(
    tmp_path: Path, game: str, case: str, old: str, new: str, rule: str
) -> None:
    text = (ROOT / "card_data" / f"{game}.yaml").read_text(encoding="utf-8")
    assert text.count(old) == 1, (case, old)
    broken = tmp_path / f"{game}.yaml"
    broken.write_text(text.replace(old, new), encoding="utf-8")
    r = run("check", str(broken), "--project", str(ROOT))
    assert r.code == 1, (case, r.out, r.err)
    assert f": broken: {rule}" in r.out, (case, rule, r.out)


def test_a_stacked_deck_without_numbered_cards_fails(tmp_path: Path) -> None:
    """Essential rules stay errors in a variant; balance advice stays a warning."""
    from conftest import make_project

    project = make_project(tmp_path / "proj", ("fairy-meat",))
    refused = run(
        "stack",
        "fairy-meat",
        "nonum",
        "--remove",
        "2-10",
        "--jokers",
        "0",
        "--trials",
        "100",
        "--project",
        str(project),
        "--out",
        str(tmp_path / "out"),
    )
    assert refused.code == 1 and "nothing was stacked" in refused.err, refused.err
    made = run(
        "stack",
        "fairy-meat",
        "nonum",
        "--remove",
        "2-10",
        "--jokers",
        "0",
        "--trials",
        "100",
        "--force",
        "--project",
        str(project),
        "--out",
        str(tmp_path / "out"),
    )
    assert made.code == 0, made.err
    r = run("check", str(project / "card_data" / "variants" / "nonum.yaml"), "--project", str(project))
    assert r.code == 1 and ": broken: nasty-hit-draw" in r.out, r.out
    lean = run(
        "stack",
        "fairy-meat",
        "lean",
        "--remove",
        "2-10 of clubs",
        "--trials",
        "100",
        "--project",
        str(project),
        "--out",
        str(tmp_path / "out"),
    )
    assert lean.code in (0, 1), lean.err
    r = run("check", str(project / "card_data" / "variants" / "lean.yaml"), "--project", str(project))
    assert r.code == 0 and "warning" in r.out and "broken" not in r.out, r.out
