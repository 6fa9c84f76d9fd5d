"""Telling cards apart without full colour vision: fields whose values only a colour shows.

For each field of a component whose values differ from card to card (a suit, a
colour, a kind: 2 to MAX_VALUES distinct values, and the marked set a card belongs
to), each two of its values are compared on two faces, one of each, chosen to
differ in as few other fields as the deck allows. The faces differ where their
CIEDE2000 difference is at least THRESHOLD; as a reader with each simulated vision
sees them, they must still differ on at least MIN_AREA mm² (a symbol, a word, a
pattern: anything not colour alone), or the field is named.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np

from pnp.data.format.errors import Problem
from pnp.data.format.model import Component, Game
from pnp.output.access.faces import Drawn
from pnp.output.access.vision import VISIONS, Array, ciede2000, lab, simulate

THRESHOLD = 10.0  # CIEDE2000: below this two colours are hard to tell apart at a glance across a table
MIN_AREA = 3.0  # mm²: a difference smaller than this (a speck, an edge) does not tell two cards apart
MAX_VALUES = 16  # a field with more distinct values is a name or a number, printed as words
SHRINK = 2  # the faces compared at half the resolution they were drawn at


@dataclass(frozen=True)
class Alike:
    """Two values of a field that look alike to readers with some visions, on two example cards."""

    field: str
    values: tuple[str, str]
    codes: tuple[str, str]
    visions: tuple[str, ...]


def _value(d: Drawn, name: str) -> str:
    if name == "set":
        return "" if d.printed.set_index is None else str(d.printed.set_index)
    value: Any = d.printed.card.get(name)
    return "" if value is None else str(value)


def fields_of(comp: Component, faces: list[Drawn]) -> list[str]:
    """The fields worth comparing: 2 to MAX_VALUES distinct values among the faces."""
    names = [*comp.fields, "set"]
    return [n for n in names if 2 <= len({_value(d, n) for d in faces}) <= MAX_VALUES]


@dataclass
class _Seen:
    """Each face's pixels at half resolution, made when first asked (per component)."""

    dpi: float
    small: dict[int, Array]
    compared: dict[tuple[int, int], dict[str, float]]

    def of(self, index: int, face: Drawn) -> Array:
        if index not in self.small:
            h, w = face.whole.shape[:2]
            k = SHRINK
            self.small[index] = (
                face.whole[: h // k * k, : w // k * k].reshape(h // k, k, w // k, k, 3).mean(axis=(1, 3))
            )
        return self.small[index]

    def pair(self, ia: int, ib: int, faces: list[Drawn]) -> dict[str, float]:
        """`areas` of two faces, each two compared once whichever field chose them."""
        if (ia, ib) not in self.compared:
            self.compared[(ia, ib)] = self.areas(self.of(ia, faces[ia]), self.of(ib, faces[ib]))
        return self.compared[(ia, ib)]

    def areas(self, a: Array, b: Array) -> dict[str, float]:
        """mm² where two faces differ by at least THRESHOLD, as drawn ("normal") and under each vision
        (only the pixels that differ at all are compared: the same pixel looks the same to everyone)."""
        pixel = (25.4 * SHRINK / self.dpi) ** 2
        differ = np.abs(a - b).max(axis=-1) > 0.5 / 255
        # each pair of colours once, to 6 bits a channel (a step of 4 in 255 moves CIEDE2000 by about 1)
        pairs = np.rint(np.concatenate([a[differ], b[differ]], axis=-1) * 63).astype(np.uint64)
        keys, counts = np.unique(pairs @ (np.uint64(64) ** np.arange(6, dtype=np.uint64)), return_counts=True)
        rows = (keys[:, None] // (np.uint64(64) ** np.arange(6, dtype=np.uint64))) % np.uint64(64)
        pa, pb = rows[:, :3] / 63.0, rows[:, 3:] / 63.0

        def area(va: Array, vb: Array) -> float:
            return float(counts[ciede2000(lab(va), lab(vb)) >= THRESHOLD].sum()) * pixel

        out = {"normal": area(pa, pb)}
        if out["normal"] >= MIN_AREA:
            out.update({v: area(simulate(pa, v), simulate(pb, v)) for v in VISIONS})
        return out


def alike(comp: Component, faces: list[Drawn], dpi: float) -> list[Alike]:
    """Every two values of a field that some vision cannot tell apart on the faces."""
    faces = [d for d in faces if d.is_face]
    seen = _Seen(dpi, {}, {})
    names = fields_of(comp, faces)
    out = []
    for name in names:
        groups: dict[str, list[int]] = {}
        for i, d in enumerate(faces):
            groups.setdefault(_value(d, name), []).append(i)
        others = [n for n in names if n != name]
        for va, vb in itertools.combinations(sorted(groups), 2):
            ia, ib = min(
                itertools.product(groups[va], groups[vb]),
                key=lambda pair: sum(_value(faces[pair[0]], o) != _value(faces[pair[1]], o) for o in others),
            )
            a, b = faces[ia], faces[ib]
            if a.whole.shape != b.whole.shape:
                continue
            areas = seen.pair(ia, ib, faces)
            if areas["normal"] < MIN_AREA:
                continue  # alike to every reader: not a question of colour vision
            lost = tuple(v for v in VISIONS if areas[v] < MIN_AREA)
            if lost:
                out.append(Alike(name, (va, vb), (a.printed.code, b.printed.code), lost))
    return out


def alike_problems(game: Game, comp: Component, faces: list[Drawn], dpi: float, ink: str) -> list[Problem]:
    """Each field two of whose values look alike to a simulated vision, at the component's line."""
    version = " (low ink)" if ink == "low" else ""
    out = []
    for found in alike(comp, faces, dpi):
        what = found.field
        va, vb = found.values
        out.append(
            Problem(
                game.where,
                comp.line,
                f"components.{comp.key}",
                f"colour vision{version}: {what} {va!r} and {vb!r} differ in colour alone, and look alike "
                f"with {', '.join(found.visions)} (cards {found.codes[0]} and {found.codes[1]}: CIEDE2000 "
                f"below {THRESHOLD:g} but for {MIN_AREA:g} mm²); give each {what} its own symbol, "
                "pattern or word, or colours that differ in lightness",
            )
        )
    return out
