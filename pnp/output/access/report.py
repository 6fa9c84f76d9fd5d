"""`pnp check --access`: every card component of a game checked for colour vision, contrast and type size,
in full ink and in low ink (`pnp build --ink low`, whose pale tints are where contrast fails)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace

from pnp.data.format.errors import Problem
from pnp.data.format.model import Component, Game
from pnp.output.access.faces import draw_sides
from pnp.output.access.reading import read_problems
from pnp.output.access.telling import alike_problems
from pnp.resolve.fonts import Fonts

DPI = 72.0  # enough for 5 pt letters to show their pixels; colour is compared at half this
INKS = ("full", "low")


@dataclass(frozen=True)
class Finding:
    """One access problem of a component: what is checked (colour vision, contrast, type size) and where."""

    component: str
    check: str
    problem: Problem
    cards: int  # how many distinct sides share it (one printed line for all)

    def as_dict(self) -> dict[str, object]:
        return {"component": self.component, "check": self.check, "cards": self.cards, **asdict(self.problem)}


def check_component(game: Game, fonts: Fonts, comp: Component, dpi: float = DPI) -> list[Finding]:
    """The component's access problems, each element's once with how many sides it is on."""
    found: list[tuple[str, Problem]] = []
    for ink in INKS:
        drawn = draw_sides(game, fonts, comp, ink, dpi)
        found += [("colour vision", p) for p in alike_problems(game, comp, drawn, dpi / 2, ink)]
        for d in drawn:
            for p in read_problems(game, d, ink):
                found.append(("contrast" if ": contrast" in p.message else "type size", p))
    return _merged(comp.key, found)


def _merged(comp: str, found: list[tuple[str, Problem]]) -> list[Finding]:
    """One finding per check, place and ink; the first side's words, with the count of the others."""
    firsts: dict[tuple, tuple[str, Problem]] = {}
    counts: dict[tuple, int] = {}
    for check, p in found:
        version = p.message.split(": ", 2)[1] if check != "colour vision" else p.message
        key = (check, p.file, p.line, p.field, version)
        firsts.setdefault(key, (check, p))
        counts[key] = counts.get(key, 0) + 1
    out = []
    for key, (check, p) in firsts.items():
        n = counts[key]
        if n > 1:
            p = replace(p, message=f"{p.message} (and {n - 1} more card{'s' * (n > 2)})")
        out.append(Finding(comp, check, p, n))
    return out


def check_game(game: Game, fonts: Fonts, dpi: float = DPI) -> list[Finding]:
    """Every card component's access problems, in the game's order."""
    out: list[Finding] = []
    for comp in game.components:
        if comp.is_cards and comp.cards:
            out += check_component(game, fonts, comp, dpi)
    return out
