"""Load-time checks of a game's look and files: style and set colours, booklet templates.

The model types these values as text; what the text must look like (a
`#RRGGBB` colour, a template file inside `templates/`) is checked here, so a
typo is a located input error when the database loads rather than a failure
halfway through drawing.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pnp.data.format.colours import colour
from pnp.data.format.errors import Problem
from pnp.data.format.limits import MAX_SETS_CARDS
from pnp.data.format.model import Game
from pnp.data.reading.yamlhints import COMMENT_HINT
from pnp.data.reading.yamlsrc import line_of
from pnp.data.store.files import OUTSIDE, project_folder


def _not_colour(value: str) -> str | None:
    """Why `value` is not a colour (None when it is one)."""
    try:
        colour(value, "")
    except ValueError as exc:
        return str(exc)
    return None


_COLOUR_KEYS = re.compile(r"colou?r|ink|fill|stroke", re.I)  # a palette entry keyed so holds a colour
_COLOUR_START = ("#", "rgb(", "rgba(", "cmyk(")  # a value meant as a colour, whatever its key


def _palette_colours(file: str, table: dict, where: str, line: int | None) -> list[Problem]:
    """Each palette entry meant as a colour (by its key, or its value's form) that is not one, at its
    own line: reported there once, not at every element that uses it."""
    problems: list[Problem] = []
    for key, value in table.items():
        at, field = line_of(table, key, line), f"{where}.{key}"
        if isinstance(value, dict):
            problems += _palette_colours(file, value, field, at)
            continue
        named = bool(_COLOUR_KEYS.fullmatch(str(key)))
        if value is None and named:
            problems.append(Problem(file, at, field, f"no colour; {COMMENT_HINT}"))
        elif (
            isinstance(value, str)
            and "{{" not in value
            and (named or value.lower().startswith(_COLOUR_START))
        ):
            why = _not_colour(value)
            if why:
                problems.append(Problem(file, at, field, why))
    return problems


def check_look(file: str, game: Game, raw: Any) -> list[Problem]:
    """Every problem with the style colours, set mark colours and booklet templates of a game."""
    problems: list[Problem] = []
    style = raw.get("style") if isinstance(raw, dict) else None
    for name in ("ink", "paper", "accent"):
        value = getattr(game.style, name)
        why = _not_colour(value)
        if why:
            problems.append(Problem(file, line_of(style, name, line_of(raw, "style")), f"style.{name}", why))
    palettes = raw.get("palettes") if isinstance(raw, dict) else None
    if isinstance(palettes, dict):
        problems += _palette_colours(file, palettes, "palettes", line_of(raw, "palettes"))
    raw_comps = raw.get("components") if isinstance(raw, dict) else None
    for ci, comp in enumerate(game.components):
        raw_comp = raw_comps[ci] if isinstance(raw_comps, list) and ci < len(raw_comps) else None
        where = f"components[{ci}]"
        if comp.sets and comp.sets.max * comp.card_count > MAX_SETS_CARDS:
            problems.append(
                Problem(
                    file,
                    line_of(raw_comp, "sets", comp.line),
                    f"{where}.sets.max",
                    f"{comp.sets.max} sets of {comp.card_count} cards; the limit is "
                    f"{MAX_SETS_CARDS} cards over all sets",
                )
            )
        if comp.sets:
            for mi, mark in enumerate(comp.sets.marks):
                why = _not_colour(mark.color)
                if why:
                    problems.append(
                        Problem(
                            file, line_of(raw_comp, "sets", comp.line), f"{where}.sets.marks[{mi}].color", why
                        )
                    )
        if comp.kind == "booklet":
            problems += template_problems(
                file, game.root, comp.template, line_of(raw_comp, "template", comp.line), f"{where}.template"
            )
    return problems


def template_problems(file: str, root: Path, name: str | None, line: int | None, field: str) -> list[Problem]:
    """A booklet's template: named, inside templates/, and there."""
    folder = root / "templates"
    if not name:
        return [Problem(file, line, field, "a booklet needs `template:`, a file in templates/")]
    try:
        path = (folder / name).resolve()
    except (OSError, RuntimeError):  # a symlink loop
        return [
            Problem(file, line, field, f"cannot read {name!r} (a symbolic link that leads back to itself?)")
        ]
    if project_folder(folder) is None:
        return [Problem(file, line, field, f"templates/ {OUTSIDE}")]
    if not path.is_relative_to(folder.resolve()):
        return [Problem(file, line, field, "the template must be inside the templates/ folder")]
    if folder.is_dir() and not path.is_file():  # a lone database file (no project) is checked when built
        return [Problem(file, line, field, f"no template {name!r} in templates/")]
    return []
