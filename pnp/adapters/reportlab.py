"""ReportLab's internals, in one place: what pnp does with ReportLab beyond its public API.

Speed-ups (each writes the bytes ReportLab itself would, or measurably less work):
a form writer that keeps forms' graphics states and shadings (`use_fast_writer`),
forms compressed as they end, symbol operators captured once, fonts restored from parsed tables, images
registered under their content's name, a booklet laid out once for two PDFs,
platypus imported without three unused pattern compiles. Features ReportLab has
no public call for: the colour hook CMYK print files need (`colour_hook`).

Used only on the release series in `GATE.tested`; on any other release (or
with PNP_ADAPTERS=off) each function takes ReportLab's public route or returns
None for the caller to do so; PDF/X output is then refused with the reason.
"""

from __future__ import annotations

import copy
import io
import re
import sys
from collections.abc import Callable
from fnmatch import fnmatch
from typing import Any
from weakref import WeakKeyDictionary

import reportlab
from reportlab import rl_config
from reportlab.lib.rl_accel import fp_str
from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfbase.ttfonts import TTEncoding, TTFNameBytes, TTFont, TTFontFace
from reportlab.pdfgen.canvas import Canvas

from pnp.adapters import Gate

GATE = Gate("reportlab", reportlab.Version, ("4.4", "5.1"))
ACTIVE = GATE.active


# -- the stream writer ---------------------------------------------------------
def use_fast_writer() -> None:
    """Opt in to pnp's writer settings for every PDF of this process (idempotent).

    Always: compressed streams without ASCII85 wrapping (a public setting).
    When active: form objects written in one step (the same bytes) with their graphics states
    and shadings, which ReportLab's own form writer leaves out. (A zlib-level-1 stream filter, a
    one-step TrueType font writer and an ASCII shortcut installed as ReportLab's PDFDocEncoding
    codec were measured and removed: no bench row was 1.5x slower without them,
    docs/performance.md.)
    """
    rl_config.useA85 = 0
    if ACTIVE and pdfdoc.PDFFormXObject is not _Form:
        pdfdoc.PDFFormXObject = _Form


_NOT_IN_PDFDOC = re.compile("[\x18-\x1f]").search


def pdfdoc_bytes(x: Any) -> Any:
    """ReportLab's PDFDocEncoding of a name, number or string: ASCII (which the codec maps to
    itself, but for 0x18-0x1F) directly, anything else through the codec."""
    if isinstance(x, str):
        return x.encode("ascii") if x.isascii() and not _NOT_IN_PDFDOC(x) else x.encode("extpdfdoc")
    return x


class _Form(pdfdoc.PDFFormXObject):
    def format(self, document: Any) -> bytes:
        made = _form_bytes(self, document)
        return made if made is not None else super().format(document)


def _form_bytes(form: Any, document: Any) -> bytes | None:
    """ReportLab's bytes for `form` (PDFFormXObject.format then PDFStream.format), or None to let it."""
    if (
        form.Annots
        or form.Resources
        or form.BBox
        or form.Matrix
        or not isinstance(document.encrypt, pdfdoc.NoEncryption)
    ):
        return None
    if form.Contents is not None:  # compressed already (end_form_compressed): its stream, as is
        if form.Contents.filters is not None or set(form.Contents.dictionary.dict) != {"Filter"}:
            return None
        content = form.Contents.content
        flate = True
    elif form.stream:
        flate = bool(form.compression)
        content = pdfdoc.PDFZCompress.encode(form.stream) if flate else pdfdoc_bytes(form.stream)
    else:
        return None
    if not isinstance(content, bytes):
        return None
    ref = document.idToObjectNumberAndVersion
    resources = [
        b"/Font %d %d R" % ref[pdfdoc.BasicFonts],
        b"/ProcSet [ /PDF /Text /ImageB /ImageC /ImageI ]" if form.hasImages else b"/ProcSet [ /PDF /Text ]",
    ]
    if form.XObjects:
        names = sorted(form.XObjects.dict)
        resources.append(
            b"/XObject "
            + _dict_bytes(
                [
                    pdfdoc_bytes(pdfdoc.PDFName(k)) + b" %d %d R" % ref[form.XObjects.dict[k].name]
                    for k in names
                ]
            )
        )
    states = getattr(form, "ExtGState", None)  # see-through colours: ReportLab's own form writer drops them
    if isinstance(states, pdfdoc.PDFDictionary):
        resources.append(b"/ExtGState " + pdfdoc_bytes(states.format(document)))
    shadings = getattr(form, "pnp_shadings", None)
    if shadings:
        resources.append(
            b"/Shading " + _dict_bytes([b"/%s %d %d R" % (k.encode(), *ref[k]) for k in sorted(shadings)])
        )
    box = b" ".join(pdfdoc_bytes(fp_str(v)) for v in (form.lowerx, form.lowery, form.upperx, form.uppery))
    entries = [
        b"/BBox [ " + box + b" ]",
        *([b"/Filter [ /FlateDecode ]"] if flate else []),
        b"/FormType 1",
        b"/Length " + pdfdoc_bytes(fp_str(len(content))),
        b"/Matrix [ 1 0 0 1 0 0 ]",
        b"/Resources " + _dict_bytes(resources),
        b"/Subtype /Form",
        b"/Type /XObject",
    ]
    return _dict_bytes(entries) + b"\nstream\n" + content + b"endstream\n"


def _dict_bytes(entries: list[bytes]) -> bytes:
    """A PDF dictionary as ReportLab lays one out: its entries (sorted by key) six to a line."""
    for i in reversed(range(6, len(entries), 6)):
        entries.insert(i, b"\n ")
    return b"<<\n" + b" ".join(entries) + b"\n>>"


# -- canvases ------------------------------------------------------------------
def end_form_compressed(c: Canvas, name: str) -> None:
    """End the current form; when active, compress its stream now rather than at save (a deck of
    many distinct cards otherwise holds megabytes of form text until then; the same bytes)."""
    shadings = dict(c._shadingUsed) if ACTIVE else {}
    c.endForm()
    if not ACTIVE:
        return
    form = c._doc.idToObject[pdfdoc.xObjectName(name)]
    form.pnp_shadings = shadings  # gradients: ReportLab's endForm leaves them out of the form's resources
    form.Contents = pdfdoc.PDFStream(
        pdfdoc.PDFDictionary({"Filter": pdfdoc.PDFArray([pdfdoc.PDFName("FlateDecode")])}),
        pdfdoc.PDFZCompress.encode(form.stream),  # ReportLab's own compression: the same bytes
        filters=None,
    )
    form.stream = None


def form_operators(draw: Callable[[Canvas], None]) -> tuple[str, ...] | None:
    """The operators `draw` writes into a form, to be replayed with addLiteral; None when not active."""
    if not ACTIVE:
        return None
    scratch = Canvas(io.BytesIO(), invariant=1)
    scratch.beginForm("scratch")
    start = len(scratch._code)
    draw(scratch)
    return tuple(scratch._code[start:])


def converts_colours(c: Canvas) -> bool:
    """Whether the canvas converts colours (a colour hook); True when that cannot be known."""
    return not ACTIVE or c._enforceColorSpace is not None


def known_to_convert_colours(c: Canvas) -> bool:
    """Whether the canvas is known to convert colours (a colour hook); False when that cannot be known."""
    return ACTIVE and c._enforceColorSpace is not None


def current_font(c: Canvas, default: str) -> str:
    """The canvas's current font name (`default` when that cannot be read)."""
    return c._fontname if ACTIVE else default


def copy_canvas(c: Canvas) -> Canvas | None:
    """An independent copy of a canvas and its document (forms, images, font subsets) before
    saving, sharing the registered fonts; None when not active (then lay the document out again)."""
    if not ACTIVE:
        return None
    fonts = {id(f): f for f in pdfmetrics._fonts.values()}
    memo: dict[int, Any] = {**fonts, id(c._doc.signature): None}
    twin = copy.deepcopy(c, memo)
    twin._doc.signature = c._doc.signature.copy()
    for font in fonts.values():
        states = getattr(font, "state", None)
        if states is not None and c._doc in states:
            states[twin._doc] = copy.deepcopy(states[c._doc], dict(fonts))
    return twin


def retarget(c: Canvas, path: str) -> None:
    """Make a canvas save to another file."""
    c._filename = path


# -- PDF/X ---------------------------------------------------------------------
def pdfx_unavailable() -> str:
    """Why PDF/X cannot be written with this ReportLab (asked before any work when not active)."""
    return f"PDF/X output needs ReportLab internals, used only where tested (ReportLab {GATE.version}: {GATE.why_off()})"


# -- fonts ---------------------------------------------------------------------
_NAMES = ("name", "familyName", "styleName", "fullName", "uniqueFontID")  # TTFNameBytes: kept as plain bytes
SUBSET_ONLY = ("hmetrics", "glyphPos")  # read only to cut a subset


def face_state(data: bytes) -> tuple[dict, dict]:
    """A font file parsed by ReportLab, as plain values in two parts: what measuring and describing
    the font read, and what only cutting subsets reads (SUBSET_ONLY). Left out: the file's bytes and
    name, the scale function and glyphToChar (the parser's scratch table, read nowhere else)."""
    state = {
        k: v
        for k, v in vars(TTFontFace(io.BytesIO(data))).items()
        if k not in ("_ttf_data", "_pdfScale", "glyphToChar", "filename")
    }
    for key in _NAMES:
        if isinstance(state.get(key), bytes):
            state[key] = bytes(state[key])
    return {k: v for k, v in state.items() if k not in SUBSET_ONLY}, {k: state[k] for k in SUBSET_ONLY}


def restored_font(
    name: str,
    path: str,
    data: bytes,
    state: dict,
    make_subset: Callable[[TTFontFace, tuple[int, ...]], bytes],
) -> TTFont:
    """TTFont(name, path) from a parsed state (face_state's first part), in the state ReportLab's
    own parse gives (a test compares them); `make_subset(face, glyphs)` cuts its subsets."""
    face = TTFontFace.__new__(TTFontFace)
    face.__dict__.update(state)
    for key in _NAMES:
        if isinstance(state.get(key), bytes):
            face.__dict__[key] = TTFNameBytes(state[key])
    face.filename = path
    face._ttf_data = data
    per_unit = 1000 / face.unitsPerEm
    face._pdfScale = (lambda x: x) if face.unitsPerEm == 1000 else (lambda x: x * per_unit)
    face.makeSubset = lambda subset: make_subset(face, tuple(subset))
    font = TTFont.__new__(TTFont)
    font.fontName = name
    font.face = face
    font.encoding = TTEncoding()
    font.state = WeakKeyDictionary()
    font._asciiReadable = rl_config.ttfAsciiReadable
    font.shapable = not any(fnmatch(name, glob) for glob in getattr(rl_config, "unShapedFontGlob", ()))
    return font


def cut_subset(face: TTFontFace, glyphs: tuple[int, ...], tables: Callable[[], dict]) -> bytes:
    """ReportLab's subset of a restored face; `tables()` supplies the SUBSET_ONLY tables if missing."""
    if not all(key in vars(face) for key in SUBSET_ONLY):
        vars(face).update(tables())
    return TTFontFace.makeSubset(face, list(glyphs))


def file_data(face: TTFontFace) -> bytes:
    """A restored face's font file bytes."""
    return face._ttf_data


# -- platypus ------------------------------------------------------------------
_LATER = (
    "(^(?:[a-z0-9\\.\\-\\+]*)://)",  # paragraph.uri_pat (web addresses, for hyphenation)
    "([\u2e80-\uffff])",  # textsplit.rx (cjkwrap)
    "#[^\\n]*|(^|[^a-zA-Z0-9_.\\\"'])(as|",
)  # PyFontify.matchRE (Python source)


class _OnFirstUse:
    """A compiled pattern in waiting: compiled the first time any attribute is asked for."""

    def __init__(self, pattern: str, flags: int) -> None:
        self._args = (pattern, flags)
        self._compiled: re.Pattern[str] | None = None

    def __getattr__(self, name: str) -> Any:
        if self._compiled is None:
            self._compiled = re.compile(*self._args)
        return getattr(self._compiled, name)


def import_platypus() -> None:
    """Import reportlab.platypus; when active, three patterns booklets never use (over 50 ms of
    compiling) become stand-ins that compile on first use, and `re.compile` is itself again after."""
    if "reportlab.platypus.paragraph" in sys.modules or not ACTIVE:
        import reportlab.platypus  # noqa: F401

        return
    compile_now = re.compile

    def compile_later(pattern: Any, flags: int = 0) -> Any:
        if isinstance(pattern, str) and pattern.startswith(_LATER):
            return _OnFirstUse(pattern, flags)
        return compile_now(pattern, flags)

    re.compile = compile_later
    try:
        import reportlab.platypus  # noqa: F401
    finally:
        re.compile = compile_now


def forms_keep_resources() -> bool:
    """Whether a form keeps the graphics states (see-through inks) and shadings (gradients) drawn in
    it: pnp's form writer (use_fast_writer) does; ReportLab's own leaves them out."""
    return ACTIVE and pdfdoc.PDFFormXObject is _Form


def prints_in_inks(c: Canvas) -> bool:
    """Whether the canvas turns every colour into inks (CMYK print-shop output, which allows no
    transparency), whatever the adapters do."""
    return getattr(c, "_enforceColorSpace", None) is not None


def colour_hook(c: Canvas) -> Callable[[Any], Any] | None:
    """The canvas's colour hook (e.g. to CMYK) for colours ReportLab passes around it (gradient stops)."""
    return c._enforceColorSpace if ACTIVE else None


def paragraph_cursor(c: Canvas) -> tuple[float, float, Any] | None:
    """In an <onDraw> callback: the line's x and baseline y (current space) and its fill colour."""
    info = getattr(c, "_curr_tx_info", None) if ACTIVE else None
    if not isinstance(info, dict) or "tx" not in info:
        return None
    style = getattr(info.get("xs"), "style", None)
    ink = getattr(info["tx"], "_fillColorObj", None) or getattr(style, "textColor", None)
    return float(info["cur_x"]), float(info["cur_y"]), ink


def set_paragraph_callback(c: Canvas, name: str, callback: Callable[[Canvas, str, str | None], None]) -> None:
    """What a paragraph's <onDraw name=NAME> calls: ReportLab 5 asks getNamedCB, 4.4 the canvas attribute."""
    if hasattr(c, "setNamedCB"):
        c.setNamedCB(name, callback)
    else:
        setattr(c, name, callback)
