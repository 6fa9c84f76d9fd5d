"""Everything `pnp check` verifies beyond the composition rules, without writing a file."""

from __future__ import annotations

import functools
import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from reportlab.pdfgen.canvas import Canvas

from pnp.data.format.errors import InputError, Problem
from pnp.data.format.model import Component, Game
from pnp.data.reading.boardspec import board_of
from pnp.data.store.cache import cached
from pnp.data.templating.slots import SlotKey, rendered_slots
from pnp.output.booklets import prepare
from pnp.output.same_names import same_names
from pnp.output.workers import chunked, run_all
from pnp.resolve.cards import check_cards, printed_cards
from pnp.resolve.fonts import Fonts
from pnp.resolve.pictures import Pictures, Placed

PARALLEL_FROM = 200  # distinct cards: below this one process draws them sooner than a pool would start


@dataclass(frozen=True)
class _Resolved:
    """What resolving some cards met: their problems, and where pictures were placed (for the warnings)."""

    problems: list[Problem]
    placed: dict[str, Placed]
    sharpest: dict[str, Placed]
    missing: dict[str, None]


def _resolve_some(
    game: Game, fonts: Fonts, parts: list[tuple[str, int, int]], slots: Slots | None = None
) -> _Resolved:
    """Resolve the faces and backs of cards `lo:hi` of each named component (`pnp.resolve.cards`)."""
    pictures = Pictures.for_project(game.root, game.symbols, None, game.draft)
    problems = check_cards(game, fonts, pictures, parts, slots=slots)
    return _Resolved(problems, pictures.placed, pictures.sharpest, pictures.missing)


Slots = dict[str, dict[SlotKey, dict[str, Any]]]  # each component's rendered slots (`rendered_slots`)
_State = tuple[list[Game], Fonts, list[Slots]]


def _start(games: list[Game], fonts: Fonts, slots: list[Slots]) -> _State:
    return games, fonts, slots


def _task(state: _State, item: tuple[int, list[tuple[str, int, int]]]) -> _Resolved:
    games, fonts, slots = state
    return _resolve_some(games[item[0]], fonts, item[1], slots[item[0]])


def resolve_cards(game: Game, fonts: Fonts, jobs: int = 1) -> list[str]:
    """Resolve every distinct face and back (`pnp.resolve`): templates, symbols, glyphs, pictures
    and text that must fit its box are checked exactly as a build meets them, nothing drawn, and
    every card is tried, so one InputError lists them all. A large deck is resolved on `jobs`
    worker processes, in parts. Returns warnings: pictures printed below 300 dpi, and a draft's
    missing pictures."""
    found = resolve_games([game], fonts, jobs)[0]
    if isinstance(found, InputError):
        raise found
    return found


def resolve_games(games: list[Game], fonts: Fonts, jobs: int = 1) -> list[list[str] | InputError]:
    """`resolve_cards` of several games (a game in each of its languages, say) on one pool of
    workers, so that the cores stay busy from the first game's cards to the last's: per game its
    warnings, or an InputError with its problems."""
    cards = [
        [(c.key, i) for c in g.components if c.is_cards for i in range(len(printed_cards(g, c)))]
        for g in games
    ]
    if jobs > 1 and sum(map(len, cards)) >= PARALLEL_FROM:
        items = [(n, _ranges(chunk)) for n, own in enumerate(cards) for chunk in chunked(own, jobs, 2, 10**6)]
        # the slots rendered (or read from the cache) once, here, rather than by every worker
        slots = [{c.key: rendered_slots(g, c) for c in g.components if c.is_cards} for g in games]
        found = run_all(_task, items, functools.partial(_start, games, fonts, slots), jobs)
        parts: list[list[_Resolved]] = [[] for _ in games]
        for (n, _), part in zip(items, found):
            parts[n].append(part)
    else:
        whole = [[(c.key, 0, 10**9) for c in g.components if c.is_cards] for g in games]
        parts = [[_resolve_some(g, fonts, every)] for g, every in zip(games, whole)]
    return [_outcome(g, own) for g, own in zip(games, parts)]


def _outcome(game: Game, found: list[_Resolved]) -> list[str] | InputError:
    """A game's resolved parts together: its warnings, or its problems (a back shared by many
    cards: its problem once)."""
    problems = [p for part in found for p in part.problems]
    if problems:
        return InputError(list(dict.fromkeys(problems)))
    pictures = Pictures(game.root, draft=game.draft)
    for part in found:
        pictures.absorb(part.placed, part.sharpest, part.missing)
    return pictures.warnings()


def _ranges(cards: list[tuple[str, int]]) -> list[tuple[str, int, int]]:
    """Cards (component, index) as ranges of neighbours: (deck, 0), (deck, 1) -> (deck, 0, 2)."""
    out: list[tuple[str, int, int]] = []
    for key, i in cards:
        if out and out[-1][0] == key and out[-1][2] == i:
            out[-1] = (key, out[-1][1], i + 1)
        else:
            out.append((key, i, i + 1))
    return out


def checked_cards(game: Game, fonts: Fonts, key: str | None, jobs: int = 1) -> list[str]:
    """`resolve_cards`, its outcome (warnings, or the problems it raises) kept in the disk cache under `key` when
    given: a digest of everything drawing the cards reads (`pnp serve` has one per picture already)."""
    if key is None:
        return resolve_cards(game, fonts, jobs)

    def compute() -> tuple[dict[str, list], list]:
        try:
            return {"warnings": resolve_cards(game, fonts), "problems": []}, []
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
        return resolve_cards(game, fonts)
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


def words_missing(game: Game) -> list[str]:
    """A warning when pnp has none of its own words (footers, checklist, print guide) in the game's
    language: no catalogue ships for it and the project has no messages/<lang>.yaml, so English stands in."""
    from pnp.data.reading.project import catalogues  # lazy, as above

    lang = game.lang
    if lang == "en" or lang.startswith(("en-", "en_")) or catalogues(game.root, lang):
        return []
    return [
        f"pnp has no words of its own in {lang!r}: footers, checklist and print guide print in English; "
        f"add messages/{lang}.yaml with every phrase translated (the keys of pnp/messages/de.yaml, "
        "see docs/languages.md)"
    ]


def validate(
    game: Game,
    fonts: Fonts,
    booklets: bool = True,
    cards_key: str | None = None,
    jobs: int = 1,
    cards: list[str] | InputError | None = None,
) -> list[str]:
    """Draw every card, read every board, render every booklet; raise all problems at once.
    Returns the warnings found on the way (low-resolution pictures, card types named alike).

    `pnp check` leaves booklets out while a composition rule is broken: a booklet
    describes a complete deck, and its errors would only echo the broken rule.
    `cards_key`: see `checked_cards`; `jobs`: the processes a large deck is drawn on; `cards`: the
    cards already resolved (`resolve_games`).
    """
    problems: list[Problem] = []
    warnings: list[str] = [*game.sheet_notes, *same_names(game)]

    def resolved() -> list[str]:
        if cards is None:
            return checked_cards(game, fonts, cards_key, jobs)
        if isinstance(cards, InputError):
            raise cards
        return cards

    steps: list[Callable[[], object]] = [lambda: warnings.extend(resolved())]
    for comp in game.components:
        if comp.kind == "deck" and comp.tuckbox:
            steps.append(functools.partial(_box_fits, game, comp))
        if comp.kind == "board":
            steps.append(functools.partial(_board_draws, game, comp, fonts))
        elif comp.kind == "booklet" and booklets:
            steps.append(functools.partial(prepare, game, comp, fonts))  # glyphs too, as a build
    for step in steps:
        try:
            step()
        except InputError as exc:
            problems += exc.problems
    if problems:
        raise InputError(list(dict.fromkeys(problems)))  # a booklet reads boards too: report each once
    return warnings


def every_problem(games: list[Game], fonts: Fonts, first: InputError, jobs: int = 1) -> InputError:
    """A build stopped at `first`: the whole list `pnp check` gives for the same games, so one run names
    every problem (the check runs only when something failed: a good build pays nothing for it)."""
    found: list[Problem] = []
    for game in games:
        try:
            validate(game, fonts, jobs=jobs)
        except InputError as exc:
            found += exc.problems
    return InputError(list(dict.fromkeys(found + first.problems)))


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
