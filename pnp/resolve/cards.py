"""The distinct cards a component prints, the sides each has, and resolving them all (`pnp check`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pnp.data.format.errors import InputError, Problem
from pnp.data.format.model import CardType, Component, Game, Mark
from pnp.data.templating.slots import SlotKey, rendered_slots, sets_for
from pnp.resolve.fonts import Fonts
from pnp.resolve.pictures import Pictures
from pnp.resolve.sides import Job, resolve_side, trim_of


@dataclass(frozen=True)
class Printed:
    """One distinct card as printed: its type, set mark and how many copies."""

    card: CardType
    code: str
    copies: int
    mark: Mark | None
    set_index: int | None


def printed_cards(game: Game, comp: Component, counts: dict[str, int] | None = None) -> list[Printed]:
    """Every distinct printed card of a component, set by set, in database order."""
    out = []
    for index, mark in sets_for(comp, counts or {}):
        for card in comp.cards:
            if card.copies:
                out.append(Printed(card, game.code(card), card.copies, mark, index))
    return out


def face_job(game: Game, comp: Component, p: Printed) -> tuple[tuple, Job]:
    """A printed card's face: the key it is drawn once under, and what to resolve."""
    key = p.card.design("face", comp)
    job = Job(comp, game.faces[key], f"faces.{key}", p.card, p.mark, p.set_index)
    return ("face", comp.key, p.card.key, p.set_index), job


def back_job(game: Game, comp: Component, p: Printed) -> tuple[tuple, Job]:
    """A printed card's back (shared by every card with the same back design in its set)."""
    key = p.card.design("back", comp)
    job = Job(comp, game.backs[key], f"backs.{key}", None, p.mark, p.set_index)
    return ("back", comp.key, key, p.set_index), job


def check_cards(
    game: Game,
    fonts: Fonts,
    pictures: Pictures,
    parts: list[tuple[str, int, int]],
    bleed: float = 3.0,
    slots: Mapping[str, dict[SlotKey, dict[str, Any]]] | None = None,
) -> list[Problem]:
    """Resolve the faces and backs of cards `lo:hi` of each named component, each distinct side once;
    every problem found, in order met (pictures records where pictures print). `slots`: each
    component's rendered slots when already known (`rendered_slots`)."""
    problems: list[Problem] = []
    seen: set[tuple] = set()
    for name, lo, hi in parts:
        comp = game.component(name)
        known = slots[name] if slots is not None and name in slots else rendered_slots(game, comp)
        for printed in printed_cards(game, comp)[lo:hi]:
            for key, job in (face_job(game, comp, printed), back_job(game, comp, printed)):
                if key in seen:
                    continue
                seen.add(key)
                own = known.get((job.where, job.card.key if job.card else None, job.set_index, job.mark))
                try:
                    resolve_side(game, job, fonts, pictures, trim_of(game, comp, job, bleed, "full"), own)
                except InputError as exc:
                    problems += exc.problems
    return problems
