"""Booklet text: a game's jinja2 template rendered with its database in context.

Every number a booklet states about the deck comes from helpers here
(`count`, `kinds`, `sum`, `values`, `distinct`, `cards`, `deck(...)`: the
vocabulary rule expressions use, see `pnp.rules.deck`), so the text can never
disagree with the cards.
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from pnp.data.format.errors import InputError, Problem
from pnp.data.format.model import Component, Game
from pnp.data.reading.boardspec import board_of
from pnp.data.reading.lookcheck import template_problems
from pnp.data.templating.engine import compile_text, file_environment, is_template, render_template
from pnp.data.templating.slots import card_view
from pnp.geometry.sizes import card_size


@dataclass
class Recorder:
    """Remembers every count a template asked for (what tests compare with the PDF)."""

    calls: list[tuple[str, dict[str, Any], int]] = field(default_factory=list)

    def note(self, what: str, args: dict[str, Any], value: int) -> int:
        self.calls.append((what, args, value))
        return value


def translated(name: str, lang: str) -> str:
    """The name of a template's sibling in `lang`: rules.md.j2 -> rules.de.md.j2."""
    path = PurePosixPath(name)
    stem, dot, rest = path.name.partition(".")
    return str(path.with_name(f"{stem}.{lang}{dot}{rest}"))


def template_name(game: Game, comp: Component) -> str:
    """The template a booklet is written from in the game's language: its translated sibling when
    templates/ holds one, else the template the database names."""
    name = comp.template or ""
    if (
        name
        and game.lang != game.game.languages[0]
        and (game.root / "templates" / translated(name, game.lang)).is_file()
    ):
        return translated(name, game.lang)
    return name


def template_path(game: Game, comp: Component) -> Path:
    """The booklet's template file (in the game's language), refused when missing or outside templates/."""
    name = template_name(game, comp) if comp.template else None
    field = f"{comp.key}.template"
    found = template_problems(game.where, game.root, name, comp.line, field)
    path = (game.root / "templates" / (name or "")).resolve()
    if not found and not path.is_file():  # a lone database's templates/ is looked at only now
        found = [Problem(game.where, comp.line, field, f"no template {name!r} in templates/")]
    if found:
        raise InputError(found)
    return path


def _component(game: Game, key: str) -> Component:
    try:
        return game.component(key)
    except KeyError:
        keys = ", ".join(c.key for c in game.components)
        raise KeyError(f"{game.game.name} has no component {key!r}; components: {keys}") from None


def context(game: Game, recorder: Recorder | None = None) -> dict[str, Any]:
    """What booklet templates see: the game, its components and counting helpers."""
    # lazy, like jinja2 in render(): a cached booklet text needs neither the rule checker nor the facts
    from pnp.data.format.facts import with_labels

    v = _Views(game, recorder or Recorder())
    ctx: dict[str, Any] = {
        "game": {
            "name": game.game.name,
            "tag": game.tag,
            "summary": game.game.summary,
            "credits": game.game.credits,
            "players": {"min": game.game.players.min, "max": game.game.players.max},
        },
        "decisions": list(game.decisions),
        "facts": with_labels(game.facts),
        "palettes": game.palettes,
        "components": [v.component(c.key) for c in game.components if c.kind != "booklet"],
        "boards": [c.key for c in game.components if c.kind == "board"],
        "has": lambda key: any(c.key == key for c in game.components),
        "deck": v.deck,
        "count": v.count,
        "kinds": v.kinds,
        "cards": v.cards,
        "sum": lambda component, field_name, **where: v.deck(component).sum(field_name, **where),
        "values": lambda component, field_name, **where: v.deck(component).values(field_name, **where),
        "distinct": lambda component, field_name, **where: v.deck(component).distinct(field_name, **where),
        "card": v.card,
        "component": v.component,
        "board": v.board,
        "plural": plural,
    }
    # the summary and the design notes may state numbers too: they read the same facts and counts
    ctx["game"]["summary"] = _prose(game, game.game.summary, ctx, "game.summary")
    ctx["decisions"] = [_prose(game, d, ctx, f"decisions[{i}]") for i, d in enumerate(game.decisions)]
    return ctx


def _prose(game: Game, text: str, ctx: dict[str, Any], field_name: str) -> str:
    """Database prose, rendered when it is a template ("{{ facts.auction_size | spell }} at a time")."""
    if not is_template(text):
        return text
    try:
        return render_template(compile_text(text), ctx)
    except Exception as exc:  # noqa: BLE001 - any failure to render is a problem of this text
        raise InputError([Problem(game.where, None, field_name, f"template: {exc}")]) from None


@dataclass(frozen=True)
class _Views:
    """The game's cards, components and boards as booklet templates ask for them; counts recorded."""

    game: Game
    rec: Recorder

    def deck(self, component: str) -> Any:
        """A component's cards, queried as rule expressions query theirs (pnp.rules.deck)."""
        from pnp.rules.deck import Deck  # lazy: see context()

        return Deck(_component(self.game, component))

    def count(self, component: str, **where: Any) -> int:
        return self.rec.note("count", {"component": component, **where}, self.deck(component).count(**where))

    def kinds(self, component: str, **where: Any) -> int:
        return self.rec.note("kinds", {"component": component, **where}, self.deck(component).kinds(**where))

    def cards(self, component: str, **where: Any) -> list[dict[str, Any]]:
        from pnp.rules.deck import matches  # lazy: see context()

        comp = _component(self.game, component)
        self.deck(component).count(**where)  # a field the component lacks is an error that names its fields
        return [card_view(self.game, c) for c in comp.cards if matches(c, where) and c.copies]

    def card(self, key: str) -> dict[str, Any]:
        for comp in self.game.components:
            for c in comp.cards:
                if c.key == key:
                    return card_view(self.game, c)
        raise KeyError(f"{self.game.game.name} has no card {key!r}")

    def component(self, key: str) -> dict[str, Any]:
        comp = _component(self.game, key)
        view: dict[str, Any] = {"key": comp.key, "name": comp.name, "kind": comp.kind, "doc": comp.doc}
        if comp.is_cards:
            size = card_size(comp.card_size)
            view.update(
                size=size.label(),
                width=size.w,
                height=size.h,
                count=self.rec.note("count", {"component": key}, comp.card_count),
                kinds=sum(1 for c in comp.cards if c.copies),
            )
        if comp.sets:
            view["sets"] = {
                "option": comp.sets.option,
                "default": comp.sets.default,
                "min": comp.sets.min,
                "max": comp.sets.max,
                "marks": [{"label": m.label, "name": m.name or m.label} for m in comp.sets.marks],
            }
        if comp.kind == "board":
            view["board"] = self.board(key)
        return view

    def board(self, key: str) -> dict[str, Any]:
        comp = _component(self.game, key)
        spec = board_of(self.game, comp)
        sides = {}
        for s in spec.sides:
            mine = sorted((p for p in spec.positions if p.side == s.key), key=lambda p: p.index)
            sides[s.key] = {
                "label": s.label,
                "positions": [p.key for p in mine],
                "count": self.rec.note("positions", {"board": key, "side": s.key}, len(mine)),
                "first": mine[0].index if mine else None,
                "last": mine[-1].index if mine else None,
            }
        return {
            "name": comp.name,
            "width": spec.w,
            "height": spec.h,
            "title": spec.title,
            "positions": len(spec.positions),
            "sides": sides,
            "areas": [{"key": a.key, "label": a.label, "kind": a.kind} for a in spec.areas],
            "steps": sum(1 for link in spec.links if link.kind == "step"),
            "attacks": [[link.a, link.b] for link in spec.links if link.kind == "attack"],
        }


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


def render(game: Game, comp: Component, recorder: Recorder | None = None) -> str:
    """The booklet's text; template mistakes become InputError naming the template line."""
    import jinja2  # lazy: only an uncached booklet text is rendered

    path = template_path(game, comp)
    folder = game.root / "templates"
    env = file_environment(folder)
    name = path.relative_to(folder.resolve()).as_posix()
    try:
        template = env.get_template(name)
        return render_template(template, context(game, recorder))
    except jinja2.TemplateSyntaxError as exc:
        raise InputError(
            [Problem(f"templates/{name}", exc.lineno, "", f"template syntax: {exc.message}")]
        ) from None
    except InputError:
        raise
    except Exception as exc:  # noqa: BLE001 - any template failure is an input problem
        line = _template_line(exc, path)
        message = exc.args[0] if isinstance(exc, KeyError) and exc.args else str(exc)
        raise InputError(
            [Problem(f"templates/{name}", line, "", f"{type(exc).__name__}: {message}")]
        ) from None


def _template_line(exc: BaseException, path: Path) -> int | None:
    """The template line a rendering error came from (jinja2 maps frames to template lines)."""
    line = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename and Path(frame.filename).resolve() == path:
            line = frame.lineno
    return line
