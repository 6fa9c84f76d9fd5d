"""Variant databases: a base game plus stacking changes, loaded as an ordinary Game.

A variant file holds only a `variant:` mapping (see `stacking.VariantSpec`).
Loading it loads the base game from the same project, replaces the stacked
component with its changed copy (the other components are left to the base
game's own build) and sets `Game.variant`, so `pnp check` and `pnp build`
treat it like any database.

Checks of a variant: every rule of the base component runs on it. Rules marked
`essential` (without them the game cannot be played, e.g. a Nasty Hits draw
needs a Numbered card) are judged by `pnp.rules.playable`: when some way to play
keeps no player count they stay errors, so `pnp check`, `pnp build` and `pnp stack`
refuse such a deck; when each way keeps some count they are warnings naming the
counts lost. All its other rules, including those that pin the standard
deck's exact make-up, are warnings (a variant changes the deck on purpose, and
says how). For a Fairy Deck (fields
rank, suit, colour, role) warnings are added for uneven red/black Trumps or
Numbered cards (unless the base already has its own colour rules) and for
Order ties clearly likelier than with the base deck. A selector that picks
no base card is an input error.
"""

from __future__ import annotations

import dataclasses
import difflib
from pathlib import Path
from typing import Any

from pnp.data.format.errors import InputError, Problem
from pnp.data.format.located import Located, line_of
from pnp.data.format.model import Component, Game, Rule
from pnp.data.format.schema import Parser
from pnp.data.reading.project import Project
from pnp.data.stacking.stack import (
    StackProblem,
    VariantSpec,
    stack_copies,
    stacked_component,
)
from pnp.engines.cards import JOKER, Card
from pnp.engines.deckstats import p_order_tie

FAIRY_FIELDS = frozenset({"rank", "suit", "colour", "role"})
TIE_FAIRIES = (2, 3, 4, 5, 6)
TIE_MARGIN = 0.075  # how much likelier (absolute) than the base an Order tie may get before a warning


def is_variant_data(data: Any) -> bool:
    """Whether parsed YAML is a variant database rather than a game database."""
    return isinstance(data, dict) and "variant" in data and "game" not in data


def base_file(root: Path, base: str) -> Path:
    """The base game's database: a game name in card_data/ or a path inside the project."""
    project = Project(root)
    if not base.endswith((".yaml", ".yml")):
        files = project.game_files()
        if base not in files:
            close = difflib.get_close_matches(base, list(files), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ValueError(f"no base game {base!r}{hint}; games here: {', '.join(files) or 'none'}")
        return files[base]
    path = project.confined(base)
    if not path.is_file():
        raise ValueError(f"base file {base!r} not found")
    return path


def parse_spec(data: Located, name: str) -> VariantSpec:
    """The VariantSpec of a variant file, problems reported with file and line."""
    problems = [
        Problem(name, line_of(data, k), str(k), "a variant database holds only a 'variant:' mapping")
        for k in data
        if k != "variant"
    ]
    parser = Parser(name)
    spec = parser.record(VariantSpec, data["variant"], "variant", line_of(data, "variant"))
    problems += parser.problems
    if problems or spec is None:
        raise InputError(problems)
    return spec


def deck_component(base: Game, key: str) -> Component:
    """The component to stack: `key`, or the base's first deck."""
    if key:
        return base.component(key)
    for comp in base.components:
        if comp.kind == "deck":
            return comp
    raise KeyError("")


def is_fairy_deck(comp: Component) -> bool:
    return set(comp.fields) >= FAIRY_FIELDS


def fairy_cards(comp: Component) -> list[Card]:
    """The component's cards (each copy) as combat cards; needs fields rank and suit."""
    out: list[Card] = []
    for card in comp.cards:
        rank = str(card.get("rank"))
        if rank.lower() == JOKER.lower() or str(card.get("role")).lower() == "joker":
            item = Card(JOKER, None)
        else:
            item = Card(rank.upper(), str(card.get("suit")).lower())
        out += [item] * card.copies
    return out


def variant_rules(base: Component, stacked: Component) -> list[Rule]:
    """The checks a variant carries: kept base rules (as warnings) and generated warnings."""
    rules = [r if r.essential else dataclasses.replace(r, severity="warning") for r in base.rules]
    if not is_fairy_deck(base):
        return rules
    ids = {r.id for r in rules}
    has_colour_rules = any(r.field == "colour" or "colour" in (r.expr or "") for r in rules)
    for role, why in (
        ("trump", "a Trump of the other colour gets a fighter caught cheating"),
        ("numbered", "uneven Numbered colours tilt highest-wins against lowest-wins"),
    ):
        rid = f"even-{role}-colours"
        if rid not in ids and not has_colour_rules:
            rules.append(
                Rule(
                    check="balance",
                    id=rid,
                    severity="warning",
                    field="colour",
                    fields=("red", "black"),
                    where={"role": role},
                    describe=f"as many red as black {role} cards ({why})",
                    line=stacked.line,
                )
            )
    if "order-ties" not in ids:
        rules.append(_tie_rule(base, stacked))
    return rules


def _tie_rule(base: Component, stacked: Component) -> Rule:
    """A warning when Order ties get clearly likelier than with one base deck."""
    mine, theirs = fairy_cards(stacked), fairy_cards(base)
    worst, excess = TIE_FAIRIES[0], -1.0
    for k in TIE_FAIRIES:
        if k <= len(mine) and k <= len(theirs):
            d = float(p_order_tie(mine, k) - p_order_tie(theirs, k))
            if d > excess:
                worst, excess = k, d
    got = float(p_order_tie(mine, worst)) if worst <= len(mine) else 1.0
    std = float(p_order_tie(theirs, worst))
    return Rule(
        check="expr",
        id="order-ties",
        severity="warning",
        describe=(
            f"Order ties among {worst} fairies: {got:.1%} with this variant against {std:.1%} "
            f"with the base deck (warned above {100 * TIE_MARGIN:g} points more)"
        ),
        expr="tie <= base_tie + margin",
        params={"tie": (round(got, 4),), "base_tie": (round(std, 4),), "margin": (TIE_MARGIN,)},
        line=stacked.line,
    )


def build_variant(
    spec: VariantSpec, base: Game, source: Path, name: str, lines: dict[str, int | None] | None = None
) -> Game:
    """Apply a spec to its loaded base game; InputError lists every change that cannot be made."""
    lines = lines or {}
    if base.variant:
        raise InputError(
            [
                Problem(
                    name,
                    lines.get("variant.base"),
                    "variant.base",
                    "the base must be a game database, not another variant",
                )
            ]
        )
    try:
        comp = deck_component(base, spec.component)
    except KeyError:
        decks = [c.key for c in base.components if c.is_cards]
        hint = difflib.get_close_matches(spec.component, decks, n=1)
        raise InputError(
            [
                Problem(
                    name,
                    lines.get("variant.component"),
                    "variant.component",
                    f"{base.game.name} has no deck {spec.component!r}"
                    f"{f' (did you mean {hint[0]!r}?)' if hint else ''}; decks: {', '.join(decks)}",
                )
            ]
        ) from None
    if not comp.is_cards:
        raise InputError(
            [
                Problem(
                    name,
                    lines.get("variant.component"),
                    "variant.component",
                    f"{comp.key!r} is a {comp.kind}, not a deck of cards",
                )
            ]
        )
    stack = stack_copies(comp, spec)
    if stack.problems:
        raise InputError([_problem(name, p, lines) for p in stack.problems])
    stacked = stacked_component(comp, spec, stack.copies)
    line = lines.get("variant") or 1  # the variant's checks are reported against its own file
    stacked = dataclasses.replace(stacked, line=line)
    rules = tuple(dataclasses.replace(r, line=line) for r in variant_rules(comp, stacked))
    stacked = dataclasses.replace(stacked, rules=rules)
    info = {
        **spec.as_dict(),
        "component": comp.key,
        "mark": spec.label,
        "color": spec.color,
        "base_file": str(base.source),
    }
    return dataclasses.replace(base, components=(stacked,), variant=info, source=source)


def _problem(name: str, p: StackProblem, lines: dict[str, int | None]) -> Problem:
    return Problem(name, lines.get(p.field, lines.get("variant")), p.field, p.message)


def variant_lines(data: Located) -> dict[str, int | None]:
    out: dict[str, int | None] = {"variant": line_of(data, "variant")}
    raw = data.get("variant")
    if isinstance(raw, dict):
        for key in raw:
            out[f"variant.{key}"] = line_of(raw, key)
            if isinstance(raw[key], list):
                for i in range(len(raw[key])):
                    out[f"variant.{key}[{i}]"] = line_of(raw[key], i)
    return out


__all__ = ["is_variant_data", "build_variant", "variant_rules", "fairy_cards"]
