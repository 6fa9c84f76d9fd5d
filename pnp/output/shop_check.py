"""`pnp check --shop drivethru`: a preflight of the DriveThruCards print files, each check pass or fail.

The files are made exactly as `pnp export pod --profile drivethru` makes them
(CMYK PDF/X-1a:2003, one card a page, 1/8 in bleed), in a temporary folder,
then read back:

- trim: every page's TrimBox is the shop's card size (63 x 88 mm is 2.5 x 3.5 in);
- bleed: the BleedBox reaches 1/8 in past the trim on every side, inside the MediaBox;
- PDF/X: `GTS_PDFXVersion` is PDF/X-1a:2003, one GTS_PDFX output intent with
  its CMYK profile, only CMYK colour operators, every font embedded, no RGB,
  soft masks or transparency groups;
- ink limit: the most C+M+Y+K anywhere, as Ghostscript separates it, within
  the limit (plus 1 % for rounding);
- minimum type size: the smallest character of the text players read at
  least 7 pt (print shops' advice for legible type; DriveThruCards states no
  minimum of its own), and the collation codes (sorting marks read up close,
  5.5 pt by default) at least 5 pt, the least any card printer takes for type,
  each as drawn on the page;
- file size: each file within DriveThruCards' upload limit of 1 GB.
"""

from __future__ import annotations

import ctypes
import math
import re
import tempfile
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp.draw.faces import card_size_of
from pnp.output.colour.convert import PrintColour
from pnp.output.colour.icc import InkLimit
from pnp.output.exports.naming import Target
from pnp.output.exports.pod import export_pod
from pnp.output.exports.profiles import PROFILES, shop_inches
from pnp.output.exports.setup import Setup

BLEED_PT = 0.125 * 72
MAX_BYTES = 1_000_000_000  # DriveThruCards' limit for one uploaded file
MIN_TYPE_PT = 7.0  # text players read (cardsource.com art requirements: 7 pt or more)
MIN_CODE_PT = 5.0  # collation codes (cardusa.com artwork guidelines: never under 5 pt)
PDFX = "PDF/X-1a:2003"
TOLERANCE_PT = 0.01
INK_SLACK = 1.0  # percent: Ghostscript's 8-bit separations round
COLOUR_OPERATORS = {b"rg", b"RG", b"k", b"K", b"g", b"G", b"sc", b"SC", b"scn", b"SCN", b"cs", b"CS"}
CMYK_OPERATORS = {b"k", b"K"}


@dataclass(frozen=True)
class Check:
    """One preflight item: its name, whether it passed, and what was measured."""

    name: str
    ok: bool
    detail: str

    def __str__(self) -> str:
        return f"{self.name}: {'pass' if self.ok else 'FAIL'} ({self.detail})"


@dataclass(frozen=True)
class FileReport:
    """Every check of one print file."""

    target: Target
    file: str
    checks: list[Check]

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    def as_dict(self) -> dict[str, object]:
        """This file's preflight for `pnp check --json`."""
        return {
            "file": self.file,
            "deck": self.target.comp.name,
            "ok": self.ok,
            "checks": [{"check": c.name, "ok": c.ok, "detail": c.detail} for c in self.checks],
        }


def _boxes(pdf: Path, trim: tuple[float, float]) -> list[Check]:
    """Trim and bleed of every page against the shop's card size."""
    import pypdfium2  # lazy: only the preflight reads print files

    from pnp.output.exports.raster import PDFIUM

    bad_trim, bad_bleed, pages = [], [], 0
    with PDFIUM:
        doc = pypdfium2.PdfDocument(str(pdf))
        try:
            for i in range(len(doc)):
                page = doc[i]
                pages += 1
                tl, tb, tr, tt = page.get_trimbox()
                bl, bb, br, bt = page.get_bleedbox()
                ml, mb, mr, mt = page.get_mediabox()
                if abs(tr - tl - trim[0]) > TOLERANCE_PT or abs(tt - tb - trim[1]) > TOLERANCE_PT:
                    bad_trim.append(i + 1)
                margins = (tl - bl, tb - bb, br - tr, bt - tt)
                inside = bl >= ml - TOLERANCE_PT and bb >= mb - TOLERANCE_PT and br <= mr + TOLERANCE_PT
                if any(m < BLEED_PT - TOLERANCE_PT for m in margins) or not (
                    inside and bt <= mt + TOLERANCE_PT
                ):
                    bad_bleed.append(i + 1)
                page.close()
        finally:
            doc.close()
    size = f"{trim[0] / 72:g} x {trim[1] / 72:g} in"
    return [
        Check("trim", not bad_trim, f"{size} on {pages - len(bad_trim)} of {pages} pages" + _pages(bad_trim)),
        Check(
            "bleed",
            not bad_bleed,
            f"1/8 in each side on {pages - len(bad_bleed)} of {pages} pages" + _pages(bad_bleed),
        ),
    ]


def _pages(numbers: list[int]) -> str:
    return (
        f"; wrong on page {', '.join(map(str, numbers[:5]))}{' ...' if len(numbers) > 5 else ''}"
        if numbers
        else ""
    )


def _embedded(font: Any) -> bool:
    """Whether a font's program is in the file (a composite font's, in its descendant)."""
    if "/DescendantFonts" in font:
        font = font["/DescendantFonts"][0].get_object()
    desc = font.get("/FontDescriptor")
    return desc is not None and any(k in desc.get_object() for k in ("/FontFile", "/FontFile2", "/FontFile3"))


def _pdfx(pdf: Path) -> Check:
    """PDF/X-1a: version key, output intent, CMYK only, fonts embedded, nothing transparent."""
    from pypdf import PdfReader  # lazy: only the preflight reads PDF structure
    from pypdf.generic import ContentStream

    reader: Any = PdfReader(str(pdf))
    wrong: list[str] = []
    info = reader.trailer.get("/Info")
    if info is None or info.get_object().get("/GTS_PDFXVersion") != PDFX:
        wrong.append(f"GTS_PDFXVersion is not {PDFX}")
    intents = reader.trailer["/Root"].get("/OutputIntents") or []
    if len(intents) != 1 or intents[0].get_object().get("/S") != "/GTS_PDFX":
        wrong.append("no single GTS_PDFX output intent")
    elif "/DestOutputProfile" not in intents[0].get_object():
        wrong.append("the output intent has no profile")
    seen: set[int] = set()
    operators: set[bytes] = set()
    fonts: list[Any] = []

    def walk(stream: Any, resources: Any) -> None:
        operators.update(op for _, op in ContentStream(stream, reader).operations if op in COLOUR_OPERATORS)
        resources = resources.get_object() if resources is not None else {}
        fonts.extend(f.get_object() for f in (resources.get("/Font") or {}).values())
        for ref in (resources.get("/XObject") or {}).values():
            obj = ref.get_object()
            if id(obj) not in seen and obj.get("/Subtype") == "/Form":
                seen.add(id(obj))
                walk(obj, obj.get("/Resources"))

    for page in reader.pages:
        walk(page.get_contents(), page.get("/Resources"))
        if "/Group" in page:
            wrong.append("a page has a transparency group")
            break
    if operators - CMYK_OPERATORS:
        wrong.append(
            f"colour operators other than CMYK: {', '.join(sorted(o.decode() for o in operators - CMYK_OPERATORS))}"
        )
    unembedded = sorted(str(f.get("/BaseFont")) for f in fonts if not _embedded(f))
    if unembedded:
        wrong.append(f"fonts not embedded: {', '.join(unembedded)}")
    data = pdf.read_bytes()
    if b"/DeviceRGB" in data or b"/SMask" in data:
        wrong.append("RGB colour or a soft mask")
    return Check("PDF/X", not wrong, "; ".join(wrong) if wrong else f"{PDFX}, CMYK only, fonts embedded")


def _ink(pdf: Path, limit: float) -> Check:
    from pnp.output.colour.ink import GhostscriptMissing, max_ink

    try:
        most = max_ink(pdf)
    except GhostscriptMissing as exc:
        return Check("ink limit", False, f"not measured: {exc}")
    return Check("ink limit", most <= limit + INK_SLACK, f"most ink {most:.0f} %, limit {limit:g} %")


@dataclass(frozen=True)
class Smallest:
    """The smallest character of some text as drawn: its size in points, its page and the text around it."""

    size: float = math.inf
    page: int = 0
    sample: str = ""


def _code_chars(chars: str, labels: Collection[str]) -> set[int]:
    """Indices of the characters in `chars` that belong to one of the collation codes `labels`."""
    marked: set[int] = set()
    for label in labels:
        for found in re.finditer(re.escape(label), chars):
            marked.update(range(found.start(), found.end()))
    return marked


def smallest_type(pdf: Path, labels: Collection[str] = ()) -> tuple[Smallest, Smallest]:
    """The smallest printed character of the text and of the collation codes (`labels`), as drawn."""
    import pypdfium2
    import pypdfium2.raw as raw

    from pnp.output.exports.raster import PDFIUM

    best = [Smallest(), Smallest()]  # text, codes
    with PDFIUM:
        doc = pypdfium2.PdfDocument(str(pdf))
        try:
            for i in range(len(doc)):
                page = doc[i]
                text = page.get_textpage()
                n = text.count_chars()
                chars = "".join(chr(raw.FPDFText_GetUnicode(text.raw, j)) for j in range(n))
                codes = _code_chars(chars, labels)
                for j, char in enumerate(chars):
                    if raw.FPDFText_IsGenerated(text.raw, j) or char.isspace():
                        continue
                    m = raw.FS_MATRIX()
                    raw.FPDFText_GetMatrix(text.raw, j, ctypes.byref(m))
                    size = raw.FPDFText_GetFontSize(text.raw, j) * math.hypot(m.c, m.d)
                    kind = int(j in codes)
                    if size < best[kind].size - 1e-6:
                        best[kind] = Smallest(size, i + 1, " ".join(chars[max(0, j - 8) : j + 8].split()))
                text.close()
                page.close()
        finally:
            doc.close()
    return best[0], best[1]


def code_labels(t: Target) -> list[str]:
    """The collation codes a deck prints, as printed (with the game's version beside them)."""
    version = t.game.game.version
    codes = [t.game.code(card) for card in t.comp.cards]
    return [f"{c} \u00b7 {version}" if version else c for c in codes]


def type_size(pdf: Path, labels: Collection[str]) -> Check:
    text, codes = smallest_type(pdf, labels)
    if text.size == codes.size == math.inf:
        return Check("minimum type size", True, "no text")
    parts, ok = [], True
    for what, least, found in (("text", MIN_TYPE_PT, text), ("collation codes", MIN_CODE_PT, codes)):
        if found.size < math.inf:
            ok = ok and found.size >= least - 0.05
            parts.append(
                f"{what} smallest {found.size:.1f} pt (page {found.page}: {found.sample!r}), at least {least:g} pt"
            )
    return Check("minimum type size", ok, "; ".join(parts))


def preflight(pdf: Path, t: Target, ink_limit: float) -> list[Check]:
    """Every check of one DriveThruCards print file."""
    w_in, h_in = shop_inches(card_size_of(t.comp))
    size = pdf.stat().st_size
    return [
        *_boxes(pdf, (w_in * 72, h_in * 72)),
        _pdfx(pdf),
        _ink(pdf, ink_limit),
        type_size(pdf, code_labels(t)),
        Check(
            "file size",
            size <= MAX_BYTES,
            f"{size / 1_000_000:.1f} MB, at most {MAX_BYTES // 1_000_000_000} GB",
        ),
    ]


def drivethru_preflight(
    targets: list[Target], setup: Setup, jobs: int, ink_limit: float = 240.0
) -> list[FileReport]:
    """Make every deck's DriveThruCards file in a temporary folder and check each."""
    colour = PrintColour.build(InkLimit(ink_limit))
    reports = []
    with tempfile.TemporaryDirectory(prefix="pnp-preflight-") as tmp:
        paths = export_pod(targets, setup, Path(tmp), PROFILES["drivethru"], jobs, colour=colour)
        for t, pdf in zip(targets, paths):
            reports.append(FileReport(t, f"{t.game.slug}/{pdf.name}", preflight(pdf, t, ink_limit)))
    return reports
