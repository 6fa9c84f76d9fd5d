"""Rule expressions and booklet templates ask about cards with the same names, meaning the same."""

from __future__ import annotations

import pytest

from pnp.data.format.model import Rule
from pnp.data.reading.loader import load_game
from pnp.data.templating.engine import compile_text, render_template
from pnp.output.booklet_text import context
from pnp.rules.checker import check_component
from pnp.rules.deck import Deck

from conftest import ROOT


@pytest.fixture(scope="module")
def meat():
    return load_game(ROOT / "card_data" / "fairy-meat.yaml")


def test_each_name_answers_alike_in_rules_and_booklets(meat) -> None:
    comp = meat.component("fairy-deck")
    deck, seen = Deck(comp), context(meat)
    where = {"role": "trump"}
    assert seen["count"]("fairy-deck", **where) == deck.count(**where) == 16
    assert seen["kinds"]("fairy-deck") == deck.kinds() == 54
    assert seen["sum"]("fairy-deck", "value", role="numbered") == deck.sum("value", role="numbered") > 0
    ranks = seen["values"]("fairy-deck", "rank", **where)
    assert isinstance(ranks, list) and ranks == deck.values("rank", **where)
    assert (
        seen["distinct"]("fairy-deck", "rank", **where) == deck.distinct("rank", **where) == len(ranks) == 4
    )
    text = "{{ distinct('fairy-deck', 'suit') }} {{ values('fairy-deck', 'suit') | length }} {{ deck('fairy-deck').count() }}"
    assert render_template(compile_text(text), seen) == f"5 5 {comp.card_count}"


def test_a_rule_expression_uses_the_same_names(meat) -> None:
    comp = meat.component("fairy-deck")
    rules = (
        Rule(id="same", check="expr", expr="deck.distinct('suit') == deck.values('suit') | length == 5"),
        Rule(id="gone", check="expr", expr="total > 0"),
    )
    broken = check_component(meat, type(comp)(**{**comp.__dict__, "rules": rules}))
    assert [v.rule for v in broken] == ["gone"] and "'total' is undefined" in broken[0].found


def test_an_unknown_field_names_the_fields_there_are(meat) -> None:
    with pytest.raises(KeyError, match="has no field 'colur'.*fields: "):
        Deck(meat.component("fairy-deck")).count(colur="red")
    with pytest.raises(KeyError, match="has no field 'colur'"):
        context(meat)["values"]("fairy-deck", "colur")
