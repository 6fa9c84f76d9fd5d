"""File names for exported pictures: stable, readable, safe on every file system."""

from __future__ import annotations

import re
from dataclasses import dataclass

from pnp.data.format.model import Component, Game
from pnp.resolve.cards import Printed

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def safe(name: str) -> str:
    """A file-name-safe version of `name` (letters, digits, dot, dash, underscore)."""
    return _UNSAFE.sub("_", name).strip("._") or "card"


def set_suffix(p: Printed) -> str:
    return f"-set{p.set_index}" if p.set_index is not None else ""


def face_name(p: Printed) -> str:
    """BG-10, or BG-10-set2 for a card printed in marked sets."""
    return safe(p.code + set_suffix(p))


def back_key(comp: Component, p: Printed) -> tuple[str, int | None]:
    """What makes two backs the same picture: the design and the set."""
    return (p.card.design("back", comp), p.set_index)


def back_name(comp: Component, p: Printed) -> str:
    design, _ = back_key(comp, p)
    return safe(f"back-{design}{set_suffix(p)}")


def distinct_backs(comp: Component, cards: list[Printed]) -> list[int]:
    """Index of the first card showing each distinct back, in order."""
    seen: dict[tuple[str, int | None], int] = {}
    for i, p in enumerate(cards):
        seen.setdefault(back_key(comp, p), i)
    return list(seen.values())


def card_components(game: Game) -> list[Component]:
    """Components printed as cards (decks and reference cards)."""
    return [c for c in game.components if c.is_cards and any(card.copies for card in c.cards)]


@dataclass(frozen=True)
class Target:
    """One component of one game that an export writes."""

    game: Game
    comp: Component

    @property
    def label(self) -> str:
        return f"{self.game.tag} {self.comp.name}"


def by_game(targets: list[Target]) -> list[list[Target]]:
    """The targets grouped by game (each game's own language copy apart), in order."""
    groups: dict[str, list[Target]] = {}
    for t in targets:
        groups.setdefault(t.game.slug, []).append(t)
    return list(groups.values())
