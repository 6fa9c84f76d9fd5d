"""Text that is hard to read: its contrast with the pixels behind it (WCAG 2) and its size in points.

The pixels behind a text element are those where its drawing changes the side
(whole against the drawing without text), inside its box; where it changes nothing
(text the colour of its ground) the whole box. A halo, drawn round the letters,
is what they stand on. The ratio reported is the one 90 % of those pixels reach.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pnp.data.format.elements import Element
from pnp.data.format.errors import Problem
from pnp.data.format.model import Game
from pnp.draw.inks import color
from pnp.output.access.faces import Drawn, Words
from pnp.output.access.vision import contrast, luminance
from pnp.resolve.inline_markup import plain
from pnp.resolve.reads import Located

MIN_CONTRAST = 4.5  # WCAG 2, level AA for normal text
MIN_CONTRAST_LARGE = 3.0  # WCAG 2, level AA for large text ...
LARGE = 18.0  # points: ... which is text of at least this size
MIN_SIZE = 6.0  # points: the least print shops and type designers advise for small print
MIN_REVERSED = 7.0  # points: light letters on a dark ground spread less ink and fill in; a size more
CHANGED = 0.1  # a pixel whose channel changes by more than this (0..1) is part of the letters
SHARE = 10  # percentile: the ratio 90 % of the pixels behind the text reach


@dataclass(frozen=True)
class Reading:
    """How one text element reads: its contrast ratio and whether it is light on dark."""

    ratio: float
    reversed: bool


def reading(drawn: Drawn, words: Words) -> Reading | None:
    """The text's contrast with what lies behind it; None when its box is off the card."""
    height, width = drawn.whole.shape[:2]
    left, top, right, bottom = words.box
    left, top, right, bottom = max(0, left), max(0, top), min(width, right), min(height, bottom)
    if right <= left or bottom <= top:
        return None
    whole = drawn.whole[top:bottom, left:right]
    behind = drawn.backdrop[top:bottom, left:right]
    if words.el.halo and words.el.halo_width:
        halo = color(words.el.halo)
        behind = np.array([[list(map(float, halo.rgb()))]])
    else:
        letters = np.abs(whole - behind).max(axis=-1) > CHANGED
        behind = behind[letters] if letters.sum() >= 3 else behind.reshape(-1, 3)
    ground = np.asarray(behind, dtype=np.float64).reshape(-1, 3)
    ink = np.array(words.ink[:3])
    alpha = words.ink[3]
    seen = alpha * ink + (1 - alpha) * ground  # a see-through ink over each ground pixel
    ratios = contrast(luminance(seen), luminance(ground))
    lum_ink = float(np.median(luminance(seen)))
    lum_ground = float(np.median(luminance(ground)))
    return Reading(float(np.percentile(ratios, SHARE)), lum_ink > lum_ground)


def read_problems(game: Game, drawn: Drawn, ink: str) -> list[Problem]:
    """Every text element of the side below the contrast or the size it needs (inside a group: the size)."""
    at = Located(game, drawn.job.comp.key, drawn.job.design, drawn.job.where, drawn.job.card)
    version = " (low ink)" if ink == "low" else ""
    if drawn.printed.set_index is not None:
        version += f" in set {drawn.printed.set_index}"
    out = []
    for words in drawn.words:
        found = reading(drawn, words)
        if found is None:
            continue
        el = words.el
        field = f"elements[{_index(drawn, el, words.index)}]"
        size = float(el.size or 8.0)
        needed = MIN_CONTRAST_LARGE if size >= LARGE else MIN_CONTRAST
        if found.ratio < needed:
            message = (
                f"contrast{version}: text {_said(el)} stands {found.ratio:.1f}:1 against what is behind it; "
                f"at least {needed:g}:1 reads in poor light (a darker or lighter ink, or a plainer ground)"
            )
            out.append(at.element(el.line, field, message, el))
        small = _small(el, found.reversed, version)
        if small:
            out.append(at.element(el.line, field, small, el))
    for el in drawn.grouped:
        small = _small(el, False, version)
        if small:
            out.append(at.element(el.line, f"elements[{_index(drawn, el, 0)}]", small, el))
    return out


def _small(el: Element, reversed_: bool, version: str) -> str:
    """What is wrong with the text's size ("": nothing)."""
    size = float(el.size or 8.0)
    least = MIN_REVERSED if reversed_ else MIN_SIZE
    if size >= least - 1e-6:
        return ""
    kind = "light-on-dark text" if reversed_ else "text"
    return (
        f"type size{version}: {kind} {_said(el)} prints at {size:.1f} pt; at least {least:g} pt "
        "(shorter words, a larger box, or a larger min_size)"
    )


def _said(el: Element) -> str:
    text = el.text or " ".join(el.lines or ())
    said = " ".join(plain(str(text)).split())
    return repr(said if len(said) <= 40 else said[:39] + "…")


def _index(drawn: Drawn, el: Element, fallback: int) -> int:
    """The element's index in a custom design's list (its line tells), else `fallback`."""
    for i, own in enumerate(drawn.job.design.elements):
        if own.line == el.line:
            return i
    return fallback
