"""Font roles: TrueType files from the project's fonts/ folder, embedded as subsets.

A project names its fonts in `fonts/fonts.yaml` (role -> file). Without that
file the Bitstream Vera fonts that ship inside ReportLab stand in. Text is
checked glyph by glyph, so a character a font lacks is reported rather than
printed as an empty box.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from pnp.data.cache import cached
from pnp.data.errors import problem
from pnp.draw.markup import is_plain, tokens

ROLES = ("body", "bold", "italic", "display", "serif", "serif-italic", "condensed")
# The faces `**bold**` and `*italic*` switch to, by the role the text is set in: (bold, italic,
# bold italic). Roles are whole fonts, so emphasis stays within the project's seven files; inside
# italic text, *italic* turns upright, as typesetters do.
EMPHASIS: dict[str, tuple[str, str, str]] = {
    "body": ("bold", "italic", "bold"), "bold": ("bold", "italic", "bold"),
    "italic": ("bold", "body", "bold"), "display": ("display", "serif-italic", "display"),
    "serif": ("display", "serif-italic", "display"), "serif-italic": ("display", "serif", "display"),
    "condensed": ("condensed", "italic", "condensed"),
}


ICON_ADVANCE = 1.0  # ems: the room an inline {icon} takes in a line of text


def emphasis(role: str, bold: bool, italic: bool) -> str:
    """The role that text set in `role` uses when it is bold and/or italic."""
    if not (bold or italic):
        return role
    faces = EMPHASIS.get(role, EMPHASIS["body"])
    return faces[2] if bold and italic else faces[0] if bold else faces[1]


_VERA = Path(reportlab.__file__).parent / "fonts"
_FALLBACK = {"body": "Vera.ttf", "bold": "VeraBd.ttf", "italic": "VeraIt.ttf", "display": "VeraBd.ttf",
             "serif": "Vera.ttf", "serif-italic": "VeraIt.ttf", "condensed": "VeraBd.ttf"}


class MissingGlyph(Exception):
    """Text holds a character that its font cannot draw."""

    def __init__(self, text: str, chars: str, font: str):
        self.text, self.chars, self.font = text, chars, font
        super().__init__(f"font {font} has no glyph for {', '.join(repr(c) for c in chars)} in {text!r}")


@dataclass(frozen=True)
class Fonts:
    """Font files by role; each is parsed and registered the first time it is used.

    Parsing a TrueType file is the slowest part of starting a build, and most
    PDFs use only some of the roles, so registration waits until a role is asked for.
    """

    files: dict[str, Path]
    _loaded: dict[str, tuple[str, frozenset[int]]] = field(default_factory=dict, repr=False, compare=False)

    @classmethod
    def load(cls, folder: Path) -> "Fonts":
        """The project's font roles (fonts/fonts.yaml), checked to exist inside the folder."""
        config = folder / "fonts.yaml"
        if config.is_file():
            roles = cached("font-roles", (str(config.resolve()),), lambda: (_read_roles(config), [config]))
            files = {role: (folder / str(roles.get(role, ""))).resolve() for role in ROLES if role in roles}
        else:
            files = {}
        for role in ROLES:
            files.setdefault(role, _VERA / _FALLBACK[role])
        try:
            home = folder.resolve()
        except (OSError, RuntimeError) as exc:  # e.g. a symlink loop
            raise problem(folder, None, "fonts", f"cannot read the fonts folder: {exc}") from None
        for role, path in files.items():
            if not path.is_relative_to(home) and not path.is_relative_to(_VERA):
                raise problem(config, None, f"roles.{role}", "font files must be inside the fonts folder")
            if not path.is_file():
                raise problem(config, None, f"roles.{role}", f"font file {path.name} not found in {folder}")
        return cls(files)

    def _font(self, role: str) -> tuple[str, frozenset[int]]:
        if role not in self._loaded:
            name = _register(self.files[role])
            self._loaded[role] = (name, frozenset(pdfmetrics.getFont(name).face.charToGlyph))
        return self._loaded[role]

    def name(self, role: str) -> str:
        """The registered ReportLab font name for a role."""
        return self._font(role)[0]

    def used(self) -> set[str]:
        """Registered names of the roles used so far."""
        return {name for name, _ in self._loaded.values()}

    def check(self, text: str, role: str) -> None:
        """Raise MissingGlyph when `role`'s font cannot draw every character of `text`."""
        name, cmap = self._font(role)
        missing = "".join(sorted({ch for ch in text if ord(ch) not in cmap and not ch.isspace()}))
        if missing:
            raise MissingGlyph(text, missing, name)

    def width(self, text: str, role: str, size: float) -> float:
        """Width of `text` at `size`; inline markup (bold, italic, icons) is measured as drawn."""
        if is_plain(text):
            return pdfmetrics.stringWidth(text, self.name(role), size)
        total, style = 0.0, {"bold": False, "italic": False}
        for t in tokens(text):
            if t.kind == "text":
                total += pdfmetrics.stringWidth(t.text, self.name(emphasis(role, **style)), size)
            elif t.kind == "icon":
                total += ICON_ADVANCE * size
            else:
                style[t.kind] = t.on
        return total

    def fit(self, text: str, role: str, max_width: float, size: float, min_size: float = 5.0) -> float:
        """The largest size up to `size` at which `text` fits `max_width`, not below `min_size`."""
        width = self.width(text, role, size)
        if width <= max_width or width == 0:
            return size
        return max(min_size, size * max_width / width)


def _read_roles(config: Path) -> dict[str, str]:
    """fonts.yaml's `roles` (role -> file name), as plain strings."""
    import yaml  # lazy: an unchanged fonts.yaml comes from the cache without the YAML parser
    data = yaml.safe_load(config.read_text(encoding="utf-8")) or {}
    roles = data.get("roles", {}) if isinstance(data, dict) else {}
    return {str(k): str(v) for k, v in roles.items()} if isinstance(roles, dict) else {}


def _register(path: Path) -> str:
    """Register a TrueType file under a name derived from its content; idempotent."""
    digest = hashlib.sha1(path.read_bytes()).hexdigest()[:8]
    name = f"{path.stem}-{digest}"
    if name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(name, str(path)))
    return name
