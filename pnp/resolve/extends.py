"""A layout that `extends` another, made whole: the parent's let names, frames and elements, with the
child's own elements overriding the parent's by `name` (only the keys they give) or added after them.

`extends` names a built-in layout (`value`) or another design of the same game (`faces.KEY`,
`backs.KEY`), which may extend in turn; an unknown parent, a cycle and an override of a name the
parent does not have are each a problem at the line that wrote it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from pnp.data.format.catalog import FREE_SLOTS
from pnp.data.format.elements import Element
from pnp.data.format.layout import Layout
from pnp.data.format.model import Design, Game
from pnp.data.reading.layouts import builtin

MAX_DEPTH = 16  # layouts extending layouts: more is a mistake, not a design


class ExtendsProblem(ValueError):
    """A layout chain that cannot be made whole: the line and field to fix, and why."""

    def __init__(self, line: int, field: str, message: str):
        super().__init__(f"{field}: {message}")
        self.line, self.field, self.message = line, field, message


def own_layout(design: Design) -> Layout:
    """A custom design's own part as a layout (before anything it extends)."""
    return Layout(
        doc="",
        let=design.let,
        elements=design.elements,
        code_color=design.code_color,
        frames=design.frames,
        extends=design.extends,
        line=design.line,
    )


def parent_of(game: Game | None, name: str) -> Layout | None:
    """The layout `extends: name` means: a built-in one, or a custom design of the game."""
    group, _, key = name.partition(".")
    if key and game is not None and group in ("faces", "backs"):
        design = getattr(game, group).get(key)
        return own_layout(design) if design is not None and design.layout in FREE_SLOTS else None
    return builtin().get(name)


def whole(layout: Layout, game: Game | None, where: str) -> Layout:
    """`layout` with everything it extends merged in; ExtendsProblem names the first thing wrong."""
    chain = [(where, layout)]
    seen = {where}
    while chain[-1][1].extends:
        name, at = chain[-1][1].extends or "", chain[-1][1]
        field = f"{chain[-1][0]}.extends"
        if name in seen:
            raise ExtendsProblem(at.line, field, f"{name!r} extends back to itself: {' -> '.join(seen)}")
        parent = parent_of(game, name)
        if parent is None:
            known = ", ".join(sorted(builtin()))
            raise ExtendsProblem(
                at.line,
                field,
                f"no layout {name!r} to extend; give a built-in layout ({known}) or a custom design "
                "of this game as faces.KEY or backs.KEY",
            )
        if len(chain) > MAX_DEPTH:
            raise ExtendsProblem(at.line, field, f"more than {MAX_DEPTH} layouts extend each other")
        seen.add(name)
        chain.append((name, parent))
    for name, part in chain:
        twice = twice_named(part.elements)
        if twice is not None:
            raise ExtendsProblem(
                twice[0], f"{name}.elements", f"two elements are named {twice[1]!r}; give each its own"
            )
    done = chain[-1][1]
    for name, child in reversed(chain[:-1]):
        done = merge(done, child, name)
    return done


def merge(parent: Layout, child: Layout, where: str) -> Layout:
    """The parent with the child's let names, frames and code colour over its own, and the child's
    elements overriding the parent's of the same name (the keys they give) or drawn after them."""
    elements = list(parent.elements)
    names = _names(elements)
    for i, el in enumerate(child.elements):
        if el.name and el.name in names:
            elements = [_override(e, el) for e in elements]
        elif not el.type:
            known = ", ".join(sorted(names)) or "none"
            raise ExtendsProblem(
                el.line,
                f"{where}.elements[{i}].name",
                f"the layout it extends has no element named {el.name!r} (its names: {known})",
            )
        else:
            elements.append(el)
    return dataclasses.replace(
        parent,
        let={**parent.let, **child.let},
        frames={**parent.frames, **child.frames},
        elements=tuple(elements),
        code_color=child.code_color or parent.code_color,
        extends=None,
        line=child.line or parent.line,
    )


def _names(elements: list[Element] | tuple[Element, ...]) -> set[str]:
    out: set[str] = set()
    for el in elements:
        if el.name:
            out.add(el.name)
        out |= _names(el.elements)
    return out


def twice_named(elements: tuple[Element, ...], seen: dict[str, int] | None = None) -> tuple[int, str] | None:
    """The line and name of the first element named like one before it (a name picks one element)."""
    seen = {} if seen is None else seen
    for el in elements:
        if el.name and el.name in seen:
            return el.line, el.name
        if el.name:
            seen[el.name] = el.line
        found = twice_named(el.elements, seen)
        if found:
            return found
    return None


def _override(el: Element, by: Element) -> Element:
    """`el` (and its children) with the element named like `by` changed in the keys `by` gives."""
    if el.name == by.name:
        given: Mapping[str, object] = {k: getattr(by, k) for k in by.given if k not in ("name",)}
        return dataclasses.replace(el, **given, line=by.line)  # type: ignore[arg-type]
    if el.elements:
        return dataclasses.replace(el, elements=tuple(_override(e, by) for e in el.elements))
    return el
