"""Rules the booklets once got wrong against the published rules, pinned to the facts that now say them.

Each corrected rule is read from the built booklet PDF; turning its fact the other way turns
the sentence with it, so the wording can never drift from the database again.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_booklet_facts import booklet_words

from pnp.draw.fonts import Fonts

from conftest import ROOT

# game -> (fact edit, phrases with the facts as shipped, phrases with the fact turned, phrases never printed)
PINNED = {
    "tarot": (
        (
            "tiger: {defends_as_combo: true, attacks: false}",
            "tiger: {defends_as_combo: false, attacks: false}",
        ),
        [
            "in defence she is as good as a combo: she stops any attack, a combo or a single card",
            "Tiger counts as a combo when she defends, so she stops any attack, single or combo; "
            "she has no attack of her own",
        ],
        ["Tiger defends like a single card; she has no attack of her own"],
        ["blocks any combo but has no attack"],
    ),
    "feenbalz": (
        ("take_back_optional: true", "take_back_optional: false"),
        [
            "lets its player take cards from it back into the hand, as many as it takes to bring it down to five"
        ],
        ["must send cards back to the hand until it has five"],
        [],
    ),
    "fairy-bucks": (
        ("raising_optional: true", "raising_optional: false"),
        [
            "Each player still in the auction may add to their bid: whoever wants to lays one more card "
            "face down, the others add nothing"
        ],
        ["Again everyone still in the auction lays one more card face down"],
        [],
    ),
    "bargains": (
        ("minutes: {min: 30, max: 45}", "minutes: {min: 20, max: 40}"),
        ["Ages: 8 and up. Time: 30 to 45 minutes a game."],
        ["Time: 20 to 40 minutes a game."],
        ["about half an hour"],
    ),
    "fairy-meat": (
        None,
        ["what happens to a fairy who has lost her Live points, and the eating, is as the rulebook says"],
        [],
        ["a fairy reduced to no Live points is dead"],
    ),
}


@pytest.fixture(scope="module")
def fonts() -> Fonts:
    return Fonts.load(ROOT / "fonts")


@pytest.mark.parametrize("name", list(PINNED))
def test_a_corrected_rule_reads_from_its_fact(name: str, tmp_path: Path, fonts: Fonts) -> None:
    edit, shipped, turned, never = PINNED[name]
    words = booklet_words(ROOT / "card_data" / f"{name}.yaml", tmp_path / "shipped.pdf", fonts)
    for phrase in shipped:
        assert phrase in words, (name, phrase)
    for phrase in never + turned:
        assert phrase not in words, (name, phrase)
    if edit is None:
        return
    text = (ROOT / "card_data" / f"{name}.yaml").read_text(encoding="utf-8")
    assert text.count(edit[0]) == 1, edit
    changed = tmp_path / "card_data" / f"{name}.yaml"
    changed.parent.mkdir()
    changed.write_text(text.replace(edit[0], edit[1]), encoding="utf-8")
    words = booklet_words(changed, tmp_path / "turned.pdf", fonts)
    for phrase in turned:
        assert phrase in words, (name, phrase)
    for phrase in shipped:
        assert phrase not in words, (name, phrase)


def test_the_tiger_card_says_what_the_booklet_says() -> None:
    from pnp.data.reading.loader import load_game

    tarot = load_game(ROOT / "card_data/tarot.yaml")
    tiger = next(c for c in tarot.component("arcana").cards if c.values.get("role") == "tiger")
    assert tarot.facts["tiger"] == {"defends_as_combo": True, "attacks": False}
    assert "As good as a combo in defence" in tiger.text and "Never attacks" in tiger.text
