"""Inline markup, one reader for card text and booklets: **bold**, *italic*, {icon},
[attributes]{span} and backslash escapes, as tokens (`tokens`), as ReportLab paragraph
markup (`inline`) or as plain words (`plain`). See `pnp.draw.markup` for the blocks.

A span's attributes are a colour (any CSS form, or cmyk()), a size (9pt, or 120% of
the text's) and font=NAME (a font role or a family of fonts/fonts.yaml), in any
order; spans nest, the inner one winning.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

_BOLD = re.compile(r"\*\*(.+?)\*\*")
_ITALIC = re.compile(r"(?<![*\w])\*(?!\s)(.+?)(?<!\s)\*(?![*\w])")
# Style toggles and escaped characters travel as private-use characters between the passes
# (and in lines that `wrap` hands back), so a literal `*` can never be mistaken for one.
B_ON, B_OFF, I_ON, I_OFF = "\ue000", "\ue001", "\ue002", "\ue003"
S_ON, S_END, S_OFF = "\ue008", "\ue009", "\ue00a"  # a span: S_ON attributes S_END text S_OFF
_ESCAPES = {"*": "\ue004", "{": "\ue005", "}": "\ue006", "\\": "\ue007", "[": "\ue00b"}
_ESCAPE = re.compile(r"\\([*{}\\[])")
_TOKEN = re.compile("([\ue000-\ue003])|\\{([A-Za-z0-9][A-Za-z0-9_-]*)\\}|\ue008([^\ue009]*)\ue009|(\ue00a)")
_SPAN = re.compile(r"\[([^\[\]{}\n]{1,120})\]\{")
_ICON = re.compile(r"\{[A-Za-z0-9][A-Za-z0-9_-]*\}")
SPECIAL = frozenset("*{}\\\ue000\ue001\ue002\ue003\ue008\ue009\ue00a")
_ANY_SPECIAL = re.compile("[" + re.escape("".join(sorted(SPECIAL))) + "]").search


@dataclass(frozen=True)
class Token:
    """One inline event: `text`, a style toggle (`bold`/`italic`, `on`), or an `icon` (a symbol name)."""

    kind: str  # text bold italic icon span (text: the span's attributes)
    text: str = ""
    on: bool = False


def _spans(s: str) -> str:
    """`[attributes]{text}` spans as private markers, each closed by its own `}` (icons inside are
    skipped; a span never closed stays as written)."""
    out: list[str] = []
    stack: list[tuple[int, str]] = []  # each open span: its marker's index in `out`, and how it was written
    pos = 0
    while pos < len(s):
        opened = _SPAN.match(s, pos)
        icon = _ICON.match(s, pos)
        if opened:
            stack.append((len(out), opened.group(0)))
            out.append(S_ON + opened.group(1).strip() + S_END)
            pos = opened.end()
        elif icon:
            out.append(icon.group(0))
            pos = icon.end()
        elif s[pos] == "}" and stack:
            stack.pop()
            out.append(S_OFF)
            pos += 1
        else:
            out.append(s[pos])
            pos += 1
    for at, written in stack:  # never closed: literal text again
        out[at] = written
    return "".join(out)


def tokens(text: str) -> list[Token]:
    """Inline markup as events: **bold**, *italic*, {icon}, [attributes]{span}; a backslash keeps
    `*{}[\\` literal."""
    s = _ESCAPE.sub(lambda m: _ESCAPES[m.group(1)], text)
    s = _spans(s) if "]{" in s else s
    s = _BOLD.sub(lambda m: B_ON + m.group(1) + B_OFF, s)
    s = _ITALIC.sub(lambda m: I_ON + m.group(1) + I_OFF, s)
    out: list[Token] = []
    pos = 0
    for m in _TOKEN.finditer(s):
        if m.start() > pos:
            out.append(Token("text", _unescape(s[pos : m.start()])))
        if m.group(1):
            ch = m.group(1)
            out.append(Token("bold" if ch in (B_ON, B_OFF) else "italic", on=ch in (B_ON, I_ON)))
        elif m.group(3) is not None:
            out.append(Token("span", _unescape(m.group(3)), on=True))
        elif m.group(4):
            out.append(Token("span", on=False))
        else:
            out.append(Token("icon", m.group(2)))
        pos = m.end()
    if pos < len(s):
        out.append(Token("text", _unescape(s[pos:])))
    return out


_UNESCAPE = str.maketrans({v: k for k, v in _ESCAPES.items()})  # placeholders back to the characters


def _unescape(s: str) -> str:
    return s.translate(_UNESCAPE)


def escape(text: str) -> str:
    """Literal text made safe to put back into markup."""
    return re.sub(r"([*{}\\[])", r"\\\1", text)


def is_plain(text: str) -> bool:
    """True when `text` holds no markup character at all (drawn exactly as before markup existed)."""
    return not _ANY_SPECIAL(text)


def inline(
    text: str, size: float = 9.6, face: Callable[[str], str] | None = None, spacer: str | None = None
) -> str:
    """Inline markup to ReportLab paragraph markup (<b>, <i>, <font> for spans), everything else escaped.

    Tags are kept well nested: closing a span that another opened inside it
    (`**a *b** c*`) closes the inner one too and opens it again after. A span's
    size is worked out from `size` (the paragraph's); `face` names the registered
    font of a span's font=NAME. With `spacer` (a picture file), an icon keeps an em of
    room in the line and an <onDraw name="pnp_icon"> mark for the booklet to draw its
    symbol there (`pnp.output.booklet_icons`); without, it prints as written, `{name}`.
    """
    out: list[str] = []
    open_tags: list[tuple[str, str]] = []  # (name, opening tag), innermost last
    spans: list[str] = []

    def close(name: str) -> None:
        at = max(i for i, (n, _) in enumerate(open_tags) if n == name)
        reopen = open_tags[at + 1 :]
        out.extend(f"</{n}>" for n, _ in [*reversed(reopen), open_tags[at]])
        del open_tags[at:]
        for tag in reopen:
            open_tags.append(tag)
            out.append(tag[1])

    for t in tokens(text):
        if t.kind == "icon" and spacer:
            style = span_style(" ".join(spans))
            room = style.size_of(size)  # the icon's size travels with it: a line's font may not be set yet
            label = "|".join([t.text, f"{room:g}", *([_hex(style.colour)] if style.colour else [])])
            out.append(
                f'<img src="{html.escape(spacer)}" width="{room:g}" height="0"/>'
                f'<onDraw name="pnp_icon" label="{html.escape(label)}"/>'
            )
        elif t.kind in ("text", "icon"):
            out.append(html.escape(t.text if t.kind == "text" else "{" + t.text + "}", quote=False))
        elif t.kind == "span" and t.on:
            spans.append(t.text)
            tag = ("font", _font_tag(span_style(" ".join(spans)), size, face))
            open_tags.append(tag)
            out.append(tag[1])
        elif t.kind == "span":
            if spans:
                spans.pop()
                close("font")
        elif t.on and all(n != t.kind[0] for n, _ in open_tags):
            open_tags.append((t.kind[0], f"<{t.kind[0]}>"))
            out.append(f"<{t.kind[0]}>")
        elif not t.on and any(n == t.kind[0] for n, _ in open_tags):
            close(t.kind[0])
    out.extend(f"</{n}>" for n, _ in reversed(open_tags))
    joined, previous = "".join(out), ""
    while joined != previous:  # spans left empty by the reopening: <i></i>
        joined, previous = _EMPTY_SPAN.sub("", joined), joined
    return joined


def _hex(value: str) -> str:
    from pnp.data.format.colours import colour, to_hex  # lazy: only spans need it

    return to_hex(colour(value))[:7]


def _font_tag(style: SpanStyle, size: float, face: Callable[[str], str] | None) -> str:
    """A span's <font> tag: its size in points, its colour as #rrggbb, its font's registered name."""
    attrs = [f'size="{style.size_of(size):g}"']
    if style.colour:
        attrs.append(f'color="{_hex(style.colour)}"')
    if style.font and face is not None:
        attrs.append(f'face="{html.escape(face(style.font))}"')
    return f"<font {' '.join(attrs)}>"


_EMPTY_SPAN = re.compile(r"<([bi])></\1>|<font [^>]*></font>")


def plain(text: str) -> str:
    """Inline markup stripped: the words a reader sees (in a booklet, icons as `{name}`)."""
    return "".join(
        t.text if t.kind == "text" else "{" + t.text + "}" for t in tokens(text) if t.kind in ("text", "icon")
    )


def icons(text: str) -> list[str]:
    """The symbol names of the inline icons in `text`, in order."""
    return [t.text for t in tokens(text) if t.kind == "icon"]


@dataclass(frozen=True)
class SpanStyle:
    """What `[attributes]{...}` spans change: a colour, a size in points or a share of the text's,
    a font (a role or a family of fonts/fonts.yaml)."""

    colour: str = ""
    size: float = 0.0  # points; 0: the text's own
    scale: float = 1.0  # times the size
    font: str = ""

    def size_of(self, base: float) -> float:
        return (self.size or base) * self.scale


_ATTR = re.compile(r"[^\s(]+(?:\([^)]*\))?")
_AS_WRITTEN = str.maketrans({B_ON: "**", B_OFF: "**", I_ON: "*", I_OFF: "*"})


@lru_cache(maxsize=1024)
def span_style(attributes: str) -> SpanStyle:
    """The style of nested spans' attributes, read left to right (later ones win; sizes in % multiply).

    Each is a colour (#c00, red, rgb(200,0,0), cmyk(...)), a size (9pt or 120%) or font=NAME;
    anything else is a ValueError saying so."""
    from pnp.data.format.colours import colour  # lazy: plain text never needs it

    attributes = attributes.translate(_AS_WRITTEN)
    style = SpanStyle()
    for item in _ATTR.findall(attributes):
        number = re.fullmatch(r"(\d+(?:\.\d+)?)(pt|%)", item)
        if number:
            value = float(number.group(1))
            if number.group(2) == "pt":
                if not 2 <= value <= 200:
                    raise ValueError(f"span '[{attributes}]': a size from 2pt to 200pt, found {item}")
                style = SpanStyle(style.colour, value, 1.0, style.font)
            else:
                if not 10 <= value <= 500:
                    raise ValueError(f"span '[{attributes}]': a share from 10% to 500%, found {item}")
                style = SpanStyle(style.colour, style.size, style.scale * value / 100, style.font)
        elif item.startswith("font="):
            style = SpanStyle(style.colour, style.size, style.scale, item[5:])
        else:
            name = item.split("=", 1)[1] if item.startswith(("color=", "colour=")) else item
            try:
                colour(name, "")
            except ValueError:
                raise ValueError(
                    f"span '[{attributes}]': {item!r} is not a colour, a size (9pt, 120%) or "
                    "font=NAME; e.g. [#b5562b 120%]{Danger}"
                ) from None
            style = SpanStyle(name, style.size, style.scale, style.font)
    return style
