"""Card text with inline markup: **bold**, *italic*, {icon} and line breaks, wrapped and drawn.

`inline_markup.tokens` reads the markup (the same reader booklets use); this module
turns it into runs in the font roles of `fonts.EMPHASIS`, wraps them into
lines and draws each line run by run, icons as symbol forms in reading order.
Text without any markup character never comes here (it is drawn as it always was).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from reportlab.lib.colors import Color
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from pnp.draw.fonts import ICON_ADVANCE, Fonts, emphasis
from pnp.draw.inks import color, faded, text_ink
from pnp.draw.inline_markup import B_OFF, B_ON, I_OFF, I_ON, escape, span_style, tokens

ICON_SIZE = 0.85  # ems: the box an inline icon's symbol fills
ICON_RISE = 0.34  # ems: the icon's centre above the baseline (about half the cap height)

IconFn = Callable[[str, float, float, float, Color], None]


@dataclass(frozen=True)
class Run:
    """Text in one style, or one inline icon (`icon` is a symbol name); `span` holds the attributes
    of the `[...]{...}` spans it is in, outermost first."""

    text: str = ""
    bold: bool = False
    italic: bool = False
    icon: str = ""
    span: str = ""


def runs(text: str) -> list[Run]:
    """The styled runs of `text`, neighbours in the same style merged."""
    out: list[Run] = []
    style: dict[str, Any] = {"bold": False, "italic": False}
    spans: list[str] = []
    for t in tokens(text):
        span = " ".join(spans)
        if t.kind == "text":
            last = out[-1] if out else None
            if (
                last
                and not last.icon
                and (last.bold, last.italic, last.span) == (style["bold"], style["italic"], span)
            ):
                out[-1] = replace(last, text=last.text + t.text)
            elif t.text:
                out.append(Run(t.text, span=span, **style))
        elif t.kind == "icon":
            out.append(Run(icon=t.text, span=span, **style))
        elif t.kind == "span":
            if t.on:
                span_style(t.text)  # an attribute that is not one: the error names it
                spans.append(t.text)
            elif spans:
                spans.pop()
        else:
            style[t.kind] = t.on
    return out


def is_styled(parts: list[Run]) -> bool:
    """True when any run is bold, italic, in a span or an icon (plain runs draw as plain text)."""
    return any(r.icon or r.bold or r.italic or r.span for r in parts)


def serialize(parts: list[Run]) -> str:
    """Runs back to markup that `runs` reads the same (style changes as private toggles)."""
    out, bold, italic = [], False, False
    for r in parts:
        if r.bold != bold:
            out.append(B_ON if r.bold else B_OFF)
            bold = r.bold
        if r.italic != italic:
            out.append(I_ON if r.italic else I_OFF)
            italic = r.italic
        body = "{" + r.icon + "}" if r.icon else escape(r.text)
        out.append(f"[{r.span}]{{{body}}}" if r.span else body)
    return "".join(out)


def _words(parts: list[Run]) -> list[list[list[Run]]]:
    """Paragraph lines (split at newlines) of words, each word a list of runs."""
    paras: list[list[list[Run]]] = [[]]
    word: list[Run] = []
    for r in parts:
        pieces = [r.text] if r.icon else re.split(r"(\s+)", r.text)
        for piece in pieces:
            if r.icon:
                word.append(r)
            elif piece and piece.isspace():
                if word:
                    paras[-1].append(word)
                    word = []
                for _ in range(piece.count("\n")):
                    paras.append([])
            elif piece:
                word.append(replace(r, text=piece))
    if word:
        paras[-1].append(word)
    return paras


def wrap(fonts: Fonts, text: str, role: str, size: float, width: float) -> list[str]:
    """Greedy word wrap of marked-up text; each line comes back as markup ('' for a blank line)."""
    lines: list[str] = []
    for words in _words(runs(text)):
        if not words:
            lines.append("")
            continue
        line = list(words[0])
        for word in words[1:]:
            same = word[0].span if word[0].span == line[-1].span else ""
            trial = (
                line
                + [Run(" ", word[0].bold and line[-1].bold, word[0].italic and line[-1].italic, span=same)]
                + word
            )
            if fonts.width(serialize(trial), role, size) <= width:
                line = trial
            else:
                lines.append(serialize(line))
                line = list(word)
        lines.append(serialize(line))
    return lines


def draw_line(
    c: Canvas,
    fonts: Fonts,
    x: float,
    y: float,
    parts: list[Run],
    role: str,
    size: float,
    fill: Color,
    align: str,
    icon: IconFn,
) -> None:
    """One line of runs from (x, y) on the baseline, aligned left, centre or right of x; a span's
    colour, size and font apply to its runs."""
    for r in parts:
        if r.text:
            fonts.check(r.text, emphasis(span_style(r.span).font or role, r.bold, r.italic))
    total = fonts.width(serialize(parts), role, size)
    x = x - total / 2 if align == "center" else x - total if align == "right" else x
    for r in parts:
        style = span_style(r.span)
        own = style.size_of(size)
        ink = faded_like(color(style.colour), fill) if style.colour else fill
        if r.icon:
            advance = ICON_ADVANCE * own
            icon(r.icon, x + advance / 2, y + ICON_RISE * own, ICON_SIZE * own, ink)
            x += advance
            continue
        face = emphasis(style.font or role, r.bold, r.italic)
        c.setFont(fonts.name(face), own)
        c.setFillColor(text_ink(c, ink))
        c.drawString(x, y, r.text)
        x += stringWidth(r.text, fonts.name(face), own)


def faded_like(ink: Color, fill: Color) -> Color:
    """A span's colour at the text's own alpha (an element's opacity reaches its spans)."""
    alpha = float(getattr(fill, "alpha", 1.0))
    if alpha >= 1:
        return ink
    return faded(ink, alpha)
