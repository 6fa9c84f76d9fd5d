"""Font roles: TrueType files from the project's fonts/ folder, embedded as subsets.

A project names its fonts in `fonts/fonts.yaml` (role -> file). Without that
file the Bitstream Vera fonts that ship inside ReportLab stand in, and
`Fonts.notice` says so (the commands print it); a broken `fonts.yaml` is an
input error naming the file and line. Text is checked glyph by glyph, so a
character a font lacks is reported (font file and role) rather than printed as
an empty box.
"""

from __future__ import annotations

import difflib
import hashlib
import logging
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont, TTFontFace

from pnp.adapters import reportlab as rl
from pnp.data.format.errors import InputError, Problem, problem
from pnp.data.store.cache import cached
from pnp.data.store.files import OUTSIDE, project_folder
from pnp.resolve.inline_markup import is_plain, span_style, tokens

log = logging.getLogger(__name__)

ROLES = ("body", "bold", "italic", "display", "serif", "serif-italic", "condensed")
# The faces `**bold**` and `*italic*` switch to, by the role the text is set in: (bold, italic,
# bold italic). Roles are whole fonts, so emphasis stays within the project's seven files; inside
# italic text, *italic* turns upright, as typesetters do.
EMPHASIS: dict[str, tuple[str, str, str]] = {
    "body": ("bold", "italic", "bold"),
    "bold": ("bold", "italic", "bold"),
    "italic": ("bold", "body", "bold"),
    "display": ("display", "serif-italic", "display"),
    "serif": ("display", "serif-italic", "display"),
    "serif-italic": ("display", "serif", "display"),
    "condensed": ("condensed", "italic", "condensed"),
}


ICON_ADVANCE = 1.0  # ems: the room an inline {icon} takes in a line of text


FACES = ("regular", "bold", "italic", "bold-italic")  # a family's faces; fonts.yaml names each file


def emphasis(role: str, bold: bool, italic: bool) -> str:
    """The role (or family face) that text set in `role` uses when it is bold and/or italic.

    A named family's faces are `Family`, `Family/bold`, `Family/italic` and `Family/bold-italic`."""
    if role not in EMPHASIS:
        family = role.split("/")[0]
        face = "bold-italic" if bold and italic else "bold" if bold else "italic" if italic else ""
        return f"{family}/{face}" if face else family
    if not (bold or italic):
        return role
    faces = EMPHASIS[role]
    return faces[2] if bold and italic else faces[0] if bold else faces[1]


_VERA = Path(reportlab.__file__).parent / "fonts"
_FALLBACK = {
    "body": "Vera.ttf",
    "bold": "VeraBd.ttf",
    "italic": "VeraIt.ttf",
    "display": "VeraBd.ttf",
    "serif": "Vera.ttf",
    "serif-italic": "VeraIt.ttf",
    "condensed": "VeraBd.ttf",
}


class MissingGlyph(Exception):
    """Text holds a character that its font cannot draw."""

    def __init__(self, text: str, chars: str, font: str):
        self.text, self.chars, self.font = text, chars, font
        shown = text if len(text) <= 60 else text[:57] + "..."
        super().__init__(f"font {font} has no glyph for {', '.join(repr(c) for c in chars)} in {shown!r}")

    def __reduce__(self) -> tuple:
        """Rebuilt from its own arguments, so a worker can hand it back to the build whole."""
        return (MissingGlyph, (self.text, self.chars, self.font))


CFF_ADVICE = (
    "the font has PostScript (CFF) outlines, which PDFs made here cannot embed; use a font with "
    "TrueType outlines (a .ttf file, most families offer one) or convert it, e.g. in FontForge: "
    "open it and generate fonts as TrueType"
)


def _postscript_outlines(path: Path) -> bool:
    """Whether a font file is an OpenType font with CFF outlines (it starts with `OTTO`)."""
    try:
        with open(path, "rb") as fh:
            return fh.read(4) == b"OTTO"
    except OSError:
        return False  # reported when the font is used


@dataclass(frozen=True)
class Fonts:
    """Font files by role; each is parsed and registered the first time it is used.

    Parsing a TrueType file is the slowest part of starting a build, and most
    PDFs use only some of the roles, so registration waits until a role is asked for.
    """

    files: dict[str, Path]
    notice: str = ""  # set when the project's own fonts are not used: which fonts stand in, and why
    _loaded: dict[str, tuple[str, dict[int, int]]] = field(default_factory=dict, repr=False, compare=False)
    measured: dict[tuple[Any, ...], Any] = field(default_factory=dict, repr=False, compare=False)  # text.py's

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled without the fonts registered so far: a spawned worker registers its own."""
        return (Fonts, (self.files, self.notice))

    @classmethod
    def load(cls, folder: Path) -> Fonts:
        """The project's font roles (fonts/fonts.yaml), checked to exist inside the folder.

        Without fonts/fonts.yaml ReportLab's Bitstream Vera fonts are used and
        `notice` says so; a fonts.yaml that is broken or lacks a role is an InputError.
        """
        config = folder / "fonts.yaml"
        shown = f"{folder.name}/fonts.yaml"
        if not config.is_file():
            where = f"no {folder.name}/ folder" if not folder.is_dir() else f"no {shown}"
            vera = ", ".join(sorted({_FALLBACK[r] for r in ROLES}))
            return cls(
                {role: _VERA / _FALLBACK[role] for role in ROLES},
                f"note: {where} in {folder.parent}; using ReportLab's Bitstream Vera fonts instead ({vera})",
            )
        try:
            home = folder.resolve()
        except (OSError, RuntimeError) as exc:  # e.g. a symlink loop
            raise problem(folder, None, "fonts", f"cannot read the fonts folder: {exc}") from None
        if project_folder(folder) is None:
            raise problem(folder, None, "fonts", f"the fonts folder {OUTSIDE}")
        roles = cached(
            "font-roles",
            (str(config.resolve()),),
            lambda: (_read_roles(config, shown), [config]),
            within=home,
        )
        problems: list[Problem] = []
        files: dict[str, Path] = {}
        for role, (value, line) in roles.items():
            where = (
                f"families.{role.replace('/', '.')}" if "/" in role or role not in ROLES else f"roles.{role}"
            )
            if not (path := (folder / value).resolve()).is_relative_to(home):
                problems.append(Problem(shown, line, where, "font files must be inside the fonts folder"))
            elif not path.is_file():
                problems.append(Problem(shown, line, where, f"font file {value} not found in {folder.name}/"))
            elif _postscript_outlines(path):
                problems.append(Problem(shown, line, where, f"{folder.name}/{value}: {CFF_ADVICE}"))
            else:
                files[role] = path
        if problems:
            raise InputError(problems)
        return cls(files)

    def label(self, role: str) -> str:
        """How messages name a role's font: its file and the role, e.g. fonts/DejaVuSerif-Bold.ttf (display)."""
        path = self.files[role]
        return f"{path.parent.name}/{path.name} ({role})"

    def families(self) -> list[str]:
        """The named families fonts.yaml declares (besides the roles)."""
        return sorted(k for k in self.files if k not in ROLES and "/" not in k)

    def _font(self, role: str) -> tuple[str, dict[int, int]]:
        """The role's registered name and its font's cmap (code point -> glyph)."""
        if role not in self.files:
            known = [*ROLES, *self.families()]
            close = difflib.get_close_matches(role.split("/")[0], known, n=1, cutoff=0.6)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ValueError(
                f"unknown font {role.split('/')[0]!r}{hint}; fonts are the roles {', '.join(ROLES)}"
                + (f" and the families {', '.join(self.families())}" if self.families() else "")
                + " (fonts/fonts.yaml)"
            )
        if role not in self._loaded:
            try:
                name = _register(self.files[role])
            except Exception as exc:  # noqa: BLE001 - ReportLab raises several kinds for a bad font file
                why = (
                    CFF_ADVICE
                    if "postscript outlines" in str(exc).lower()
                    else f"not a usable TrueType font: {exc}"
                )
                raise problem(
                    self.label(role).split(" ")[0],
                    None,
                    f"roles.{role}",
                    f"{why} (named in fonts/fonts.yaml)",
                ) from None
            self._loaded[role] = (name, pdfmetrics.getFont(name).face.charToGlyph)
        return self._loaded[role]

    def preload(self) -> None:
        """Register every role now (before forking workers, so they inherit the parsed fonts)."""
        for role in self.files:
            self._font(role)

    def name(self, role: str) -> str:
        """The registered ReportLab font name for a role."""
        return self._font(role)[0]

    def used(self) -> set[str]:
        """Registered names of the roles used so far."""
        return {name for name, _ in self._loaded.values()}

    def check(self, text: str, role: str) -> None:
        """Raise MissingGlyph when `role`'s font cannot draw every character of `text`."""
        name, cmap = self._font(role)
        absent = set(map(ord, text)).difference(cmap)  # checked against the cmap dict in C
        missing = "".join(sorted(ch for ch in map(chr, absent) if not ch.isspace())) if absent else ""
        if missing:
            raise MissingGlyph(text, missing, self.label(role))

    def width(self, text: str, role: str, size: float) -> float:
        """Width of `text` at `size`; inline markup (bold, italic, icons) is measured as drawn."""
        if is_plain(text):
            return pdfmetrics.stringWidth(text, self.name(role), size)
        total, style, spans = 0.0, {"bold": False, "italic": False}, []
        span = span_style("")
        for t in tokens(text):
            if t.kind == "text":
                total += pdfmetrics.stringWidth(
                    t.text, self.name(emphasis(span.font or role, **style)), span.size_of(size)
                )
            elif t.kind == "icon":
                total += ICON_ADVANCE * span.size_of(size)
            elif t.kind == "span":
                if t.on:
                    spans.append(t.text)
                elif spans:
                    spans.pop()
                span = span_style(" ".join(spans))
            else:
                style[t.kind] = t.on
        return total

    def fit(self, text: str, role: str, max_width: float, size: float, min_size: float = 5.0) -> float:
        """The largest size up to `size` at which `text` fits `max_width`, not below `min_size`."""
        width = self.width(text, role, size)
        if width <= max_width or width == 0:
            return size
        return max(min_size, size * max_width / width)


def _read_roles(config: Path, shown: str) -> dict[str, tuple[str, int | None]]:
    """fonts.yaml's roles as role -> (file name, line); every role present, known and a file name."""
    # lazy: the reading stage's YAML only when fonts.yaml is read afresh (a cached build reads none)
    from pnp.data.format.located import line_of
    from pnp.data.reading.yamlsrc import (
        load_yaml,  # lazy: an unchanged fonts.yaml comes from the cache without YAML
    )

    data = load_yaml(config, shown)
    roles = data.get("roles") if isinstance(data, dict) else None
    if not isinstance(roles, dict):
        raise problem(
            shown,
            line_of(data, "roles", 1),
            "roles",
            "expected a mapping of role to TrueType file, e.g. 'body: DejaVuSans.ttf'",
        )
    problems = [
        Problem(shown, line_of(roles, role), f"roles.{role}", f"unknown role; roles: {', '.join(ROLES)}")
        for role in roles
        if role not in ROLES
    ]
    out: dict[str, tuple[str, int | None]] = {}
    for role in ROLES:
        line, value = line_of(roles, role), roles.get(role)
        if role not in roles:
            problems.append(Problem(shown, line, f"roles.{role}", "no font file for this role"))
        elif not isinstance(value, str) or not value:
            problems.append(Problem(shown, line, f"roles.{role}", "expected the name of a TrueType file"))
        else:
            out[role] = (value, line)
    out.update(_read_families(data.get("families"), data, shown, problems))
    if problems:
        raise InputError(problems)
    return out


def _read_families(
    families: Any, data: Any, shown: str, problems: list[Problem]
) -> dict[str, tuple[str, int | None]]:
    """fonts.yaml's `families`: NAME: {regular: FILE, bold: FILE, italic: FILE, bold-italic: FILE}, as
    the faces NAME, NAME/bold, NAME/italic and NAME/bold-italic; a face not given uses the nearest one."""
    # lazy: as in _read_roles
    from pnp.data.format.located import line_of

    out: dict[str, tuple[str, int | None]] = {}
    if families is None:
        return out
    if not isinstance(families, dict):
        problems.append(
            Problem(
                shown,
                line_of(data, "families"),
                "families",
                "expected a mapping of family "
                "name to its faces, e.g. 'Lobster: {regular: Lobster-Regular.ttf}'",
            )
        )
        return out
    for name, faces in families.items():
        line = line_of(families, name)
        if (
            not isinstance(name, str)
            or not re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]{0,39}", name)
            or name in ROLES
        ):
            problems.append(
                Problem(
                    shown,
                    line,
                    f"families.{name}",
                    "a family name is a word of letters, digits, "
                    f"'-' or '_' (at most 40) and not a role ({', '.join(ROLES)})",
                )
            )
            continue
        if isinstance(faces, str):
            faces = {"regular": faces}
        if not isinstance(faces, dict) or not isinstance(faces.get("regular"), str):
            problems.append(
                Problem(
                    shown,
                    line,
                    f"families.{name}",
                    "expected at least 'regular: FILE.ttf' (and bold, italic, bold-italic)",
                )
            )
            continue
        for face in faces:
            if face not in FACES or not isinstance(faces[face], str) or not faces[face]:
                problems.append(
                    Problem(
                        shown,
                        line_of(faces, face, line),
                        f"families.{name}.{face}",
                        f"faces are {', '.join(FACES)}, each the name of a TrueType file",
                    )
                )
        given = {f: faces[f] for f in FACES if isinstance(faces.get(f), str) and faces[f]}
        nearest = {
            "regular": ("regular",),
            "bold": ("bold", "regular"),
            "italic": ("italic", "regular"),
            "bold-italic": ("bold-italic", "bold", "italic", "regular"),
        }
        for face, order in nearest.items():
            pick = next(f for f in order if f in given)
            out[name if face == "regular" else f"{name}/{face}"] = (given[pick], line_of(faces, pick, line))
    return out


def _register(path: Path) -> str:
    """Register a TrueType file under a name derived from its content; idempotent."""
    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    name = f"{path.stem}-{digest[:8]}"
    if name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(_parsed(name, path, data, digest))
    return name


def _parsed(name: str, path: Path, data: bytes, digest: str) -> TTFont:
    """TTFont(name, path), its parsed tables kept in the disk cache under the file's SHA-256.

    Parsing a font (cmap, widths, glyph offsets: tens of thousands of values read
    one by one) is most of a build's start-up. The cache keeps what measuring and
    describing the font need in one entry, and the glyph offsets and metrics that
    only cutting a subset reads (half the values) in another, read only when a
    subset is not in the cache itself. A restored face has the state ReportLab's
    own parse gives, so PDFs are byte-identical (a test holds them so). Any
    surprise in the cached values means a fresh parse; on a ReportLab the adapter
    was not tested on, ReportLab parses the file itself.
    """
    if not rl.ACTIVE:
        return TTFont(name, str(path))
    state = cached("ttf-face", (digest,), lambda: (_parse_once(data, digest), []))
    try:
        return rl.restored_font(
            name, str(path), data, state, lambda face, glyphs: _subset_of(digest, glyphs, face)
        )
    except Exception as exc:  # noqa: BLE001 - a cache entry that does not fit this ReportLab: parse the file
        log.debug("font %s: cached tables unusable (%s); parsing the file", path, exc)
        return TTFont(name, str(path))


@lru_cache(maxsize=256)
def _subset_of(digest: str, subset: tuple[int, ...], face: TTFontFace) -> bytes:
    """face.makeSubset(subset), the font file embedded for one PDF's glyphs: made once per
    process and kept in the disk cache. PDFs share subsets (ReportLab puts ASCII first, in
    order), and a PDF uses the same characters from one build to the next."""

    def tables() -> dict:
        return cached("ttf-glyphs", (digest,), lambda: (rl.face_state(rl.file_data(face))[1], []))

    return cached(
        "ttf-subset",
        (digest, subset),
        lambda: (rl.cut_subset(face, subset, tables), []),
        shelf="font-subsets",
    )


def _parse_once(data: bytes, digest: str) -> dict:
    """A font parsed afresh: its subset tables stored in their own entry from this same
    parse (workers then read them, not the file); the rest returned for the face's entry."""
    state, tables = rl.face_state(data)
    cached("ttf-glyphs", (digest,), lambda: (tables, []))
    return state
