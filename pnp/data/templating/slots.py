"""What a design's slot templates see, rendering them, and the rendered slots kept on disk.

Rendering a slot needs jinja2 (and compiling its templates); both cost more
than drawing a small deck. Every face and back of a component is therefore
rendered once per content of the game and kept in the disk cache
(`pnp.data.store.cache`), keyed by a digest of everything a template can see, so
an unchanged game draws without importing jinja2 at all.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

from pnp.data.format.catalog import FREE_SLOTS
from pnp.data.format.model import CardType, Component, Design, Game, Mark
from pnp.data.store.cache import cached

SlotKey = tuple[str, "str | None", "int | None", "Mark | None"]  # design, card key, set index, mark


def sets_for(comp: Component, counts: dict[str, int]) -> list[tuple[int | None, Mark | None]]:
    """The marked sets a component prints: [(index, mark)], or one unmarked set."""
    spec = comp.sets
    if spec is None:
        return [(None, None)]
    n = counts.get(spec.option, spec.default)
    marks = list(spec.marks) or [Mark(label=str(i + 1)) for i in range(n)]
    return [(i + 1, marks[i]) for i in range(n)]


def _templated(value: Any) -> bool:
    if isinstance(value, (list, tuple)):
        return any(_templated(v) for v in value)
    return isinstance(value, str) and ("{{" in value or "{%" in value)


def card_view(game: Game, card: CardType) -> dict[str, Any]:
    """A card as templates see it: its fields plus key, name, copies, text and code.

    Card text and field values that are templates read the game's facts
    (`{{ facts.set_bonus }}`), so a number stated on a card lives only in `facts:`.
    """
    values, text = card.values, card.text
    if _templated(text) or any(_templated(v) for v in values.values()):
        env = {"facts": _facts(game)}
        text = render_slot(text, env)
        values = {k: render_slot(v, env) if _templated(v) else v for k, v in values.items()}
    return {
        **values,
        "key": card.key,
        "name": card.name,
        "copies": card.copies,
        "text": text,
        "code": game.code(card),
    }


def _facts(game: Game) -> Any:
    # lazy: facts (and through them the engines) only when a slot is rendered
    from pnp.data.format.facts import (
        with_labels,  # lazy: the rules engines only for games with facts
    )

    return with_labels(game.facts)


class _LazyCards(Sequence):
    """The component's cards as templates see them, built only if a template asks."""

    def __init__(self, game: Game, comp: Component):
        self._game, self._comp = game, comp
        self._items: list[dict[str, Any]] | None = None

    def _all(self) -> list[dict[str, Any]]:
        if self._items is None:
            self._items = [card_view(self._game, c) for c in self._comp.cards]
        return self._items

    def __getitem__(self, i: Any) -> Any:
        return self._all()[i]

    def __len__(self) -> int:
        return len(self._comp.cards)


def context(
    game: Game, comp: Component, card: CardType | None, mark: Mark | None, set_index: int | None
) -> dict[str, Any]:
    """What slot templates may use: this card, every card of the component, palettes, set mark."""
    return {
        "card": card_view(game, card) if card is not None else None,
        "cards": _LazyCards(game, comp),
        "game": {
            "name": game.game.name,
            "tag": game.tag,
            "players": game.game.players,
            "version": game.game.version,
        },
        "version": game.game.version,
        "component": {"key": comp.key, "name": comp.name},
        "palettes": game.palettes,
        "facts": _facts(game) if game.facts else {},
        "mark": mark,
        "set": set_index,
        "variant": game.variant,
    }


def render_slot(value: Any, ctx: dict[str, Any]) -> Any:
    """One slot's value for one card (raises jinja2.TemplateError)."""
    # lazy: jinja2 only when a slot is rendered (a cached game renders none)
    from pnp.data.templating.engine import (
        render_value,  # lazy: jinja2 only when something is rendered
    )

    return render_value(value, ctx)


def _every_slot(game: Game, comp: Component) -> dict[SlotKey, dict[str, Any]]:
    """Every face and back of the component, in every set it can print; a card whose
    templates fail ends the list (drawing renders the rest again and reports the problem)."""
    spec = comp.sets
    sets = sets_for(comp, {spec.option: spec.max} if spec else {})
    jobs: list[tuple[str, Design, CardType | None]] = []
    for card in comp.cards:
        key = card.design("face", comp)
        if key in game.faces and game.faces[key].layout not in FREE_SLOTS:  # custom elements render live
            jobs.append((f"faces.{key}", game.faces[key], card))
    for key in dict.fromkeys(card.design("back", comp) for card in comp.cards):
        if key in game.backs and game.backs[key].layout not in FREE_SLOTS:
            jobs.append((f"backs.{key}", game.backs[key], None))
    out: dict[SlotKey, dict[str, Any]] = {}
    for set_index, mark in sets:
        for where, design, job_card in jobs:
            ctx = context(game, comp, job_card, mark, set_index)
            try:
                out[(where, job_card.key if job_card else None, set_index, mark)] = {
                    slot: render_slot(value, ctx) for slot, value in design.slots.items()
                }
            except Exception:  # noqa: BLE001 - reported when the card is drawn
                return out  # stop at the first failure: a runaway template costs its time limit once, not per card
    return out


def rendered_slots(game: Game, comp: Component) -> dict[SlotKey, dict[str, Any]]:
    """The rendered slots of every face and back of `comp`, from the cache when the game is unchanged."""
    if not comp.is_cards:
        return {}
    seen = repr((game.game, game.palettes, game.facts, game.variant, game.faces, game.backs, comp))
    digest = hashlib.sha256(seen.encode()).hexdigest()
    return cached("slots", (digest,), lambda: (_every_slot(game, comp), []))
