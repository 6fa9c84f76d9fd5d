"""Everything `pnp check` verifies beyond the composition rules, without writing a file."""

from __future__ import annotations

import functools
import io
from collections.abc import Callable

from reportlab.pdfgen.canvas import Canvas

from pnp.data.format.errors import InputError, Problem
from pnp.data.format.model import Component, Game
from pnp.data.reading.boardspec import board_of
from pnp.data.store.cache import cached
from pnp.draw.faces import FormCache, printed_cards
from pnp.draw.fonts import Fonts
from pnp.output.booklets import prepare


def draw_cards(game: Game, fonts: Fonts) -> list[str]:
    """Draw every distinct face and back on a throwaway canvas: templates, symbols,
    glyphs and text that must fit its box fail here exactly as they would in a build.
    Returns warnings: pictures printed below 300 dpi."""
    forms = FormCache(Canvas(io.BytesIO()), game, fonts, 3.0)
    for comp in game.components:
        if comp.is_cards:
            for printed in printed_cards(game, comp):
                forms.face(comp, printed)
                forms.back(comp, printed)
    return forms.art.warnings()


def checked_cards(game: Game, fonts: Fonts, key: str | None) -> list[str]:
    """`draw_cards`, its outcome (warnings, or the problems it raises) kept in the disk cache under `key` when
    given: a digest of everything drawing the cards reads (`pnp serve` has one per picture already)."""
    if key is None:
        return draw_cards(game, fonts)

    def compute() -> tuple[dict[str, list], list]:
        try:
            return {"warnings": draw_cards(game, fonts), "problems": []}, []
        except InputError as exc:
            return {
                "warnings": [],
                "problems": [[p.file, p.line, p.field, p.message] for p in exc.problems],
            }, []

    found = cached("card-check", (key, game.where), compute, raw=True)
    try:
        problems = [
            Problem(str(f), None if n is None else int(n), str(k), str(m)) for f, n, k, m in found["problems"]
        ]
        warnings = [str(w) for w in found["warnings"]]
    except (TypeError, ValueError, KeyError):  # an entry of another shape: drawn afresh
        return draw_cards(game, fonts)
    if problems:
        raise InputError(problems)
    return warnings


def untranslated(game: Game) -> list[Problem]:
    """The texts a game gives in other languages but not in the one it was read in (its default
    language's words stand in), and the booklets with no template of their own in it."""
    from pnp.output.booklet_text import template_name, translated  # lazy, as above

    default = game.game.languages[0]
    found = [
        Problem(
            g.file,
            g.line,
            g.field,
            f"no {g.language} text (game.languages: "
            f"{', '.join(game.game.languages)}); the {default} words stand in",
        )
        for g in game.gaps
        if g.language == game.lang
    ]
    for comp in game.components:
        if (
            comp.kind == "booklet"
            and comp.template
            and game.lang != default
            and template_name(game, comp) == comp.template
        ):  # no sibling in this language
            found.append(
                Problem(
                    game.where,
                    comp.line,
                    f"{comp.key}.template",
                    f"no {game.lang} booklet: add "
                    f"templates/{translated(comp.template, game.lang)} (the {default} booklet stands in)",
                )
            )
    return list(dict.fromkeys(found))


def validate(game: Game, fonts: Fonts, booklets: bool = True, cards_key: str | None = None) -> list[str]:
    """Draw every card, read every board, render every booklet; raise all problems at once.
    Returns the warnings found on the way (low-resolution pictures).

    `pnp check` leaves booklets out while a composition rule is broken: a booklet
    describes a complete deck, and its errors would only echo the broken rule.
    `cards_key`: see `checked_cards`.
    """
    problems: list[Problem] = []
    warnings: list[str] = []
    steps: list[Callable[[], object]] = [lambda: warnings.extend(checked_cards(game, fonts, cards_key))]
    for comp in game.components:
        if comp.kind == "deck" and comp.tuckbox:
            steps.append(functools.partial(_box_fits, game, comp))
        if comp.kind == "board":
            steps.append(functools.partial(_board_draws, game, comp, fonts))
        elif comp.kind == "booklet" and booklets:
            steps.append(functools.partial(prepare, game, comp))
    for step in steps:
        try:
            step()
        except InputError as exc:
            problems += exc.problems
    if problems:
        raise InputError(list(dict.fromkeys(problems)))  # a booklet reads boards too: report each once
    return warnings


def _board_draws(game: Game, comp: Component, fonts: Fonts) -> None:
    """Read a board and draw it on a throwaway canvas: a space too small for its text fails here, with its
    line, as it would in a build."""
    from pnp.output.board_art import draw_board  # lazy: only games with boards

    spec = board_of(game, comp)
    draw_board(Canvas(io.BytesIO()), game, spec, fonts, comp)


def _box_fits(game: Game, comp: Component) -> None:
    """A deck's `tuckbox: true`: its box must fit A4 or A3 inside the margin (InputError naming the deck)."""
    from pnp.geometry.sizes import paper_size  # lazy: only decks asking for a box
    from pnp.output.sheets import SheetOptions

    # lazy: as above
    from pnp.output.steps import BuildOptions
    from pnp.output.tuckbox import box_for

    box_for(game, comp, BuildOptions(SheetOptions(paper_size("a4"))))
