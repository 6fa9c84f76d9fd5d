"""Rules the booklets once got wrong against the published rules, pinned to the facts that now say them.

Each corrected rule is read from the built booklet PDF; turning its fact the other way turns
the sentence with it, so the wording can never drift from the database again.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_booklet_facts import booklet_words

from pnp.data.format.model import Game
from pnp.resolve.fonts import Fonts

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
    """The Tiger card's text is read from facts.tiger, like the booklet's sentence about her."""
    import dataclasses

    from pnp.data.reading.loader import load_game
    from pnp.data.templating.slots import card_view

    tarot = load_game(ROOT / "card_data/tarot.yaml")

    def tiger_text(game: Game) -> str:
        tiger = next(c for c in game.component("arcana").cards if c.values.get("role") == "tiger")
        return str(card_view(game, tiger)["text"])

    assert tarot.facts["tiger"] == {"defends_as_combo": True, "attacks": False}
    assert tiger_text(tarot) == "As good as a combo in defence: stops any attack. Never attacks."
    turned = dataclasses.replace(
        tarot, facts={**tarot.facts, "tiger": {"defends_as_combo": False, "attacks": True}}
    )
    assert tiger_text(turned) == "Defends like a single card. Attacks like a single card."


# ------------------------------------------------------------------ Feenbalz ties, the tarot cast, the German text


def _booklet(game: Game) -> str:
    from pnp.output.booklet_text import render

    return render(game, next(c for c in game.components if c.kind == "booklet"))


def _load(name: str, **kw: str) -> Game:
    from pnp.data.reading.loader import load_game

    return load_game(ROOT / "card_data" / f"{name}.yaml", **kw)


@pytest.mark.parametrize(
    "lang, rule, never",
    [
        (
            "en",
            "When the best collections are worth the same, the one laid out first wins.",
            "how a tie is settled",
        ),
        (
            "de",
            "Sind die besten Sammlungen gleich viel wert, gewinnt die zuerst ausgelegte.",
            "Gleichstand entschieden",
        ),
    ],
)
def test_a_feenbalz_tie_is_the_published_rule_not_a_house_rule(lang: str, rule: str, never: str) -> None:
    """The rules settle a tie (the collection laid out first wins): the booklet says so without a
    house-rule mark, and no note claims the rules are silent."""
    game = _load("feenbalz", lang=lang)
    text = _booklet(game)
    line = next(line for line in text.splitlines() if rule in line)
    assert "*(house rule)*" not in line and "*(Hausregel)*" not in line
    assert never not in text
    assert game.facts["tie_first_laid"] is True
    assert not any("tie" in d.lower() and "first" in d.lower() for d in game.decisions)


def _note(game: Game, start: str) -> str:
    """A design note as the booklet prints it."""
    return next(line for line in _booklet(game).splitlines() if line.startswith(f"- {start}"))


def test_the_tarot_notes_list_shared_servants_from_the_cards(tmp_path: Path) -> None:
    """Which servants have several masters (and which masters several servants) is read from the
    cards' links: Rider, with Sakura alone, is not among them until a second master is added."""
    game = _load("tarot")
    cards = [c for c in game.component("arcana").cards if c.values.get("part", "arcana") == "arcana"]
    shared = [c.values["short"] for c in cards if len(c.values.get("masters") or []) > 1]
    assert shared == ["Gilgamesh", "Saber", "Lancer"]
    note = _note(game, "Several masters share a servant")
    assert f"({', '.join(shared)})" in note and "Rider" not in note
    assert "(Sakura, Kirei)" in note and "Caster is a servant who is also a master" in note
    text = (ROOT / "card_data" / "tarot.yaml").read_text(encoding="utf-8")
    for old, new in (
        ('masters: ["2"],\n         text: "Chains', 'masters: ["2", "15"],\n         text: "Chains'),
        ('servants: ["13"]', 'servants: ["13", "7"]'),
    ):
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    changed = tmp_path / "card_data" / "tarot.yaml"
    changed.parent.mkdir()
    changed.write_text(text, encoding="utf-8")
    from pnp.data.reading.loader import load_game

    note = _note(load_game(changed, root=ROOT), "Several masters share a servant")
    assert "(Gilgamesh, Rider, Saber, Lancer)" in note and "(Sakura, Kirei, Zouken)" in note


# German wording a native player would use, and the stiff or wrong wording it replaced.
GERMAN = {
    "booklet": (
        [
            "behält sie; das wiederholt sich, bis niemand mehr als neun Karten hat",
            "Zu einer einzelnen Sammlung darf nicht nachgelegt werden.",
            "so viele Karten auf die Hand zurücknehmen, dass wieder fünf übrig sind",
            "zählt zum Handkartenlimit von 9 Karten",
            "Spielt jemand anderes eine Beere aus, machst du sie wirkungslos.",
        ],
        [
            "bis jede Hand wieder bei",
            "Eine einzelne Sammlung kann nicht nachgelegt werden",
            "zurücknehmen, bis wieder",
            "hebst du sie auf",
            "zum Limit von",
        ],
    ),
    "cards": (
        [
            "Gleichstand: Die zuerst gelegte Sammlung siegt.",
            "Handkartenlimit",
            "Über 9: Ein Gegner zieht dir Karten, bis du 9 hast.",
            "Oder alle Fliegenpilze, ohne Hufeisen",
            "FARBLOS",
            "kein Wunsch",
            "machst du sie wirkungslos",
        ],
        [
            "zuerst gelegt gewinnt",
            "Handlimit",
            "das Zuviel",
            "Oder Fliegenpilze",
            "OHNE",
            "'label': 'egal'",
            "hebst du sie auf",
        ],
    ),
}


def _card_words(game: Game) -> str:
    from pnp.data.templating.slots import card_view, rendered_slots

    words: list[str] = []
    for comp in game.components:
        for card in comp.cards:
            view = card_view(game, card)
            words += [str(view.get("text") or ""), repr(view.get("rows") or "")]
        for slots in rendered_slots(game, comp).values():
            words += [repr(v) for v in slots.values()]
    return "\n".join(words)


@pytest.mark.parametrize("where", list(GERMAN))
def test_the_german_feenbalz_reads_naturally(where: str) -> None:
    game = _load("feenbalz", lang="de")
    text = _booklet(game) if where == "booklet" else _card_words(game)
    wanted, gone = GERMAN[where]
    for phrase in wanted:
        assert phrase in text, phrase
    for phrase in gone:
        assert phrase not in text, phrase
