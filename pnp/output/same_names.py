"""Card types of one component that share a name: allowed, but a player cannot tell them apart
on the checklist or the table, so `pnp check` (and a build) warn with where each is defined, unless
the component says `same_names: true` (variants told apart by a field, such as two Jokers)."""

from __future__ import annotations

from pnp.data.format.model import CardType, Game


def origin(game: Game, card: CardType) -> str:
    """Where a card type is defined as an editor shows it: `file:line` (a spreadsheet's line too)."""
    if card.source is not None:
        file, line, _ = card.source
        return f"{file}:{line}"
    return f"{_database(game)}:{card.line}"


def _database(game: Game) -> str:
    """The file a card's line is in: a stacked deck's cards keep the lines of its base game's file."""
    from pathlib import Path

    base = game.variant.get("base_file") if isinstance(game.variant, dict) else None
    if not base:
        return game.where
    try:
        return Path(base).resolve().relative_to(game.root.resolve()).as_posix()
    except ValueError:
        return str(base)


def same_names(game: Game) -> list[str]:
    """One warning per card type whose name an earlier one of the same component already has."""
    notes = []
    for comp in game.components:
        if comp.same_names:
            continue
        first: dict[str, CardType] = {}
        for card in comp.cards:
            name = " ".join(str(card.name).split()).casefold()
            if name not in first:
                first[name] = card
                continue
            earlier = first[name]
            notes.append(
                f"{origin(game, card)}: card name {card.name!r} ({game.code(card)}) is also the name of "
                f"{game.code(earlier)} at {origin(game, earlier)} in {comp.key}; give one of them "
                "another name, or players cannot tell them apart"
            )
    return notes
