"""Card text measured: marked-up text read into styled runs, wrapped to a width and fitted to a box.

`inline_markup.tokens` reads the markup (the same reader booklets use); this
module turns it into runs in the font roles of `fonts.EMPHASIS` and wraps them
into lines by their drawn width. Drawing (`pnp.draw.richtext`) draws the lines
this module decided; nothing here touches a canvas.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from reportlab.pdfbase.pdfmetrics import stringWidth

from pnp.geometry.sizes import pt
from pnp.resolve.fonts import ICON_ADVANCE, Fonts, MissingGlyph, emphasis
from pnp.resolve.inline_markup import B_OFF, B_ON, I_OFF, I_ON, escape, is_plain, span_style, tokens

MEASURED = 200_000  # texts remembered per run at most (about 60 MB at the longest)


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
    """Greedy word wrap of marked-up text; each line comes back as markup ('' for a blank line).

    A line's width is the sum of its runs' widths (as `Fonts.width` measures them), so each
    word is measured once rather than the whole line again for every word."""
    lines: list[str] = []
    for words in _words(runs(text)):
        if not words:
            lines.append("")
            continue
        line = list(words[0])
        line_w = _width(fonts, line, role, size)
        for word in words[1:]:
            same = word[0].span if word[0].span == line[-1].span else ""
            space = Run(" ", word[0].bold and line[-1].bold, word[0].italic and line[-1].italic, span=same)
            trial_w = line_w + _width(fonts, [space, *word], role, size)
            if trial_w <= width:
                line += [space, *word]
                line_w = trial_w
            else:
                lines.append(serialize(line))
                line = list(word)
                line_w = _width(fonts, line, role, size)
        lines.append(serialize(line))
    return lines


_UNSTYLED = span_style("")


def _width(fonts: Fonts, parts: list[Run], role: str, size: float) -> float:
    """The drawn width of runs, each in its own face and size (an icon: its advance)."""
    total = 0.0
    for r in parts:
        span = span_style(r.span) if r.span else _UNSTYLED
        own = span.size_of(size)
        if r.icon:
            total += ICON_ADVANCE * own
        elif r.text:
            total += stringWidth(r.text, fonts.name(emphasis(span.font or role, r.bold, r.italic)), own)
    return total


def lines_of(fonts: Fonts, text: str, role: str, size: float, width: float) -> list[str]:
    """Greedy word wrap to `width` points; blank lines in `text` start new paragraphs (kept as '').

    Marked-up text wraps by its drawn width and each line comes back as markup."""
    if not is_plain(text):
        return wrap(fonts, text, role, size, width)
    lines: list[str] = []
    for para in text.split("\n"):
        words = para.split()
        if not words:
            lines.append("")
            continue
        line = words[0]
        for word in words[1:]:
            trial = f"{line} {word}"
            if fonts.width(trial, role, size) <= width:
                line = trial
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines


class TooLong(ValueError):
    """Text that does not fit its box even at its least size."""


def _remembered(fonts: Fonts, key: tuple[Any, ...], work: Callable[[], Any]) -> Any:
    """work()'s answer (or its TooLong/MissingGlyph), worked out once per text and box for these fonts:
    a deck repeats its rules texts and frames on many cards (bench: `pnp check`, 1,000-card CSV)."""
    found = fonts.measured.get(key)
    if found is None:
        try:
            found = (work(), None)
        except (TooLong, MissingGlyph) as exc:
            found = (None, exc)
        if len(fonts.measured) < MEASURED:
            fonts.measured[key] = found
    if found[1] is not None:
        raise found[1].with_traceback(None)
    return found[0]


def fit_paragraph(
    fonts: Fonts, text: str, role: str, size: float, least: float, width: float, height: float, leading: float
) -> tuple[float, list[str]]:
    """The size (not below `least`, in 0.25 pt steps) and lines at which `text` fits a box of
    `width` x `height` points; TooLong when it does not fit even then."""
    key = ("paragraph", text, role, size, least, width, height, leading)
    size, lines = _remembered(
        fonts, key, lambda: _fit_paragraph(fonts, text, role, size, least, width, height, leading)
    )
    return size, list(lines)


def _fit_paragraph(
    fonts: Fonts, text: str, role: str, size: float, least: float, width: float, height: float, leading: float
) -> tuple[float, tuple[str, ...]]:
    while True:
        lines = lines_of(fonts, text, role, size, width)
        needed = len(lines) * size * leading
        if needed <= height or size <= least:
            break
        size = max(least, size - 0.25)
    if needed > height + 0.01:
        raise TooLong(
            f"text does not fit its {width / pt(1):.0f} x {height / pt(1):.0f} mm box "
            f"even at {least:g} pt: {text[:40]!r}..."
        )
    return size, tuple(lines)


def fit_line(fonts: Fonts, text: str, role: str, size: float, least: float, width: float) -> float:
    """The size one line of `text` takes in `width` points (shrunk, not below `least`); TooLong when
    it does not fit even then."""
    key = ("line", text, role, size, least, width)
    return float(_remembered(fonts, key, lambda: _fit_line(fonts, text, role, size, least, width)))


def _fit_line(fonts: Fonts, text: str, role: str, size: float, least: float, width: float) -> float:
    fitted = fonts.fit(text, role, width, size, least)
    if fitted <= least and fonts.width(text, role, fitted) > width + 0.01:
        raise TooLong(f"text does not fit its {width / pt(1):.1f} mm box even at {least:g} pt: {text[:40]!r}")
    return fitted


def check_glyphs(fonts: Fonts, text: str, role: str) -> None:
    """MissingGlyph when a font a run of `text` is drawn in lacks one of its characters (each run in
    its own face: bold, italic, a span's font)."""
    _remembered(fonts, ("glyphs", text, role), lambda: _check_glyphs(fonts, text, role))


def _check_glyphs(fonts: Fonts, text: str, role: str) -> None:
    if is_plain(text):
        fonts.check(text, role)
        return
    for r in runs(text):
        if r.text:
            fonts.check(r.text, fonts_face(role, r))


def fonts_face(role: str, r: Run) -> str:
    """The font role a run is drawn in."""
    return emphasis(span_style(r.span).font or role, r.bold, r.italic)


def icons(text: str) -> list[str]:
    """The inline icons (symbol names) `text` draws, in order."""
    return [] if is_plain(text) else [r.icon for r in runs(text) if r.icon]
