"""Card text with inline markup: **bold**, *italic*, {icon} and line breaks, wrapped and drawn.

`markup.tokens` reads the markup (the same reader booklets use); this module
turns it into runs in the font roles of `fonts.EMPHASIS`, wraps them into
lines and draws each line run by run, icons as symbol forms in reading order.
Text without any markup character never comes here (it is drawn as it always was).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable

from reportlab.lib.colors import Color
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from pnp.draw.fonts import ICON_ADVANCE, Fonts, emphasis
from pnp.draw.markup import B_OFF, B_ON, I_OFF, I_ON, escape, tokens

ICON_SIZE = 0.85   # ems: the box an inline icon's symbol fills
ICON_RISE = 0.34   # ems: the icon's centre above the baseline (about half the cap height)

IconFn = Callable[[str, float, float, float, Color], None]


@dataclass(frozen=True)
class Run:
    """Text in one style, or one inline icon (`icon` is a symbol name)."""

    text: str = ""
    bold: bool = False
    italic: bool = False
    icon: str = ""


def runs(text: str) -> list[Run]:
    """The styled runs of `text`, neighbours in the same style merged."""
    out: list[Run] = []
    style: dict[str, Any] = {"bold": False, "italic": False}
    for t in tokens(text):
        if t.kind == "text":
            if out and not out[-1].icon and (out[-1].bold, out[-1].italic) == (style["bold"], style["italic"]):
                out[-1] = Run(out[-1].text + t.text, **style)
            elif t.text:
                out.append(Run(t.text, **style))
        elif t.kind == "icon":
            out.append(Run(icon=t.text, **style))
        else:
            style[t.kind] = t.on
    return out


def is_styled(parts: list[Run]) -> bool:
    """True when any run is bold, italic or an icon (plain runs draw as plain text)."""
    return any(r.icon or r.bold or r.italic for r in parts)


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
        out.append("{" + r.icon + "}" if r.icon else escape(r.text))
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
                word.append(Run(piece, r.bold, r.italic))
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
            trial = line + [Run(" ", word[0].bold and line[-1].bold, word[0].italic and line[-1].italic)] + word
            if fonts.width(serialize(trial), role, size) <= width:
                line = trial
            else:
                lines.append(serialize(line))
                line = list(word)
        lines.append(serialize(line))
    return lines


def draw_line(c: Canvas, fonts: Fonts, x: float, y: float, parts: list[Run], role: str, size: float,
              fill: Color, align: str, icon: IconFn) -> None:
    """One line of runs from (x, y) on the baseline, aligned left, centre or right of x."""
    for r in parts:
        if r.text:
            fonts.check(r.text, emphasis(role, r.bold, r.italic))
    total = fonts.width(serialize(parts), role, size)
    x = x - total / 2 if align == "center" else x - total if align == "right" else x
    for r in parts:
        if r.icon:
            advance = ICON_ADVANCE * size
            icon(r.icon, x + advance / 2, y + ICON_RISE * size, ICON_SIZE * size, fill)
            x += advance
            continue
        face = emphasis(role, r.bold, r.italic)
        c.setFont(fonts.name(face), size)
        c.setFillColor(fill)
        c.drawString(x, y, r.text)
        x += stringWidth(r.text, fonts.name(face), size)
