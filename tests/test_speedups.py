"""Shortcuts taken for speed give exactly what the slow path gives: same values, same bytes.

They are the adapters' fast paths (pnp.adapters), so these tests run where the adapters are on;
tests/test_adapters.py covers the public fallback.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest
from reportlab.pdfbase import pdfdoc, pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import Paragraph

from pnp.adapters import reportlab as rl
from pnp.adapters.reportlab import pdfdoc_bytes as _pdfdoc_bytes
from pnp.data.reading import boardspec
from pnp.data.reading.loader import load_game
from pnp.geometry.sizes import paper_size
from pnp.output import booklet_story
from pnp.output.booklets import prepare, write_plain
from pnp.resolve import fonts as fonts_module
from pnp.resolve.fonts import Fonts

from conftest import ROOT, make_project, run, shown

pytestmark = pytest.mark.skipif(
    not rl.ACTIVE, reason="the ReportLab adapter is off on this ReportLab (pnp --version)"
)


def _codec(x: str) -> bytes | type:
    try:
        return x.encode("extpdfdoc")
    except UnicodeEncodeError:
        return UnicodeEncodeError


def _ours(x: str) -> bytes | type:
    try:
        return _pdfdoc_bytes(x)
    except UnicodeEncodeError:
        return UnicodeEncodeError


def test_the_encoding_shortcut_gives_what_reportlabs_codec_gives() -> None:
    """Every character of the Basic Multilingual Plane alone, and inside ASCII text."""
    for code in range(0x10000):
        if 0xD800 <= code <= 0xDFFF:
            continue
        ch = chr(code)
        assert _ours(ch) == _codec(ch), hex(code)
        assert _ours(f"a {ch} b") == _codec(f"a {ch} b"), hex(code)
    assert _pdfdoc_bytes(b"\x00raw") == b"\x00raw"  # (the form writer encodes with it)


def test_a_font_from_the_cache_is_the_parsed_font(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Restored from the disk cache: the same TTFont state as ReportLab's own parse (but for the parser's
    scratch table glyphToChar, and the subset tables until a subset is cut), so the same widths, subsets
    and bytes; a copy of the file elsewhere shares the entry under its own file name."""
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    path = ROOT / "fonts" / "DejaVuSerif-Italic.ttf"
    copy = tmp_path / "copy.ttf"
    copy.write_bytes(path.read_bytes())
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    fonts_module._parsed("probe-a", path, path.read_bytes(), digest)  # cold: parses and stores
    cached = fonts_module._parsed("probe-b", copy, copy.read_bytes(), digest)  # warm: restored
    fresh = TTFont("probe-b", str(copy))
    assert set(vars(cached)) == set(vars(fresh))
    for key in ("fontName", "_asciiReadable", "_shapable"):
        assert getattr(cached, key) == getattr(fresh, key), key
    subset_only = {"hmetrics", "glyphPos"}
    mine, theirs = vars(cached.face), vars(fresh.face)
    assert set(mine) - {"makeSubset"} == set(theirs) - {"glyphToChar"} - subset_only
    for key in set(mine) - {"_pdfScale", "makeSubset"}:
        assert mine[key] == theirs[key], key
        assert type(mine[key]) is type(theirs[key]), key
    assert [cached.face._pdfScale(v) for v in (0, 7, 2048)] == [fresh.face._pdfScale(v) for v in (0, 7, 2048)]
    subset = list(range(32, 300))
    parses = []
    monkeypatch.setattr(rl, "face_state", lambda data: parses.append(data) or None)
    assert cached.face.makeSubset(subset) == fresh.face.makeSubset(subset)  # cut: the subset tables read
    assert not parses  # stored by the cold parse itself, not parsed again
    assert all(mine[key] == theirs[key] for key in subset_only)
    again = fonts_module._parsed("probe-c", path, path.read_bytes(), digest)
    assert again.face.makeSubset(subset) == fresh.face.makeSubset(subset)  # from the cache, tables unread
    assert not subset_only & set(vars(again.face))


def test_the_wrap_memo_keeps_the_booklet_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A booklet laid out with the memoised paragraphs is byte for byte the one plain Paragraphs give."""
    game = load_game(ROOT / "card_data" / "feenbalz.yaml")
    comp = next(c for c in game.components if c.kind == "booklet")
    fonts = Fonts.load(ROOT / "fonts")
    prep = prepare(game, comp, fonts)
    write_plain(prep, tmp_path / "memo.pdf", paper_size("a4"), fonts)
    monkeypatch.setattr(booklet_story, "Para", Paragraph)
    write_plain(prep, tmp_path / "plain.pdf", paper_size("a4"), fonts)
    assert (tmp_path / "memo.pdf").read_bytes() == (tmp_path / "plain.pdf").read_bytes()


def test_a_board_is_read_once_while_its_game_is_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    game = load_game(ROOT / "card_data" / "tarot.yaml")
    comp = next(c for c in game.components if c.kind == "board")
    first = boardspec.board_of(game, comp)
    assert first == boardspec.parse_board(game, comp)

    def unexpected(*_: object) -> None:
        raise AssertionError("read again")

    monkeypatch.setattr(boardspec, "parse_board", unexpected)
    assert boardspec.board_of(game, comp) == first


def test_registered_fonts_measure_as_reportlab_does() -> None:
    """Text widths through the registered (cached) fonts equal a freshly parsed font's."""
    fonts = Fonts.load(ROOT / "fonts")
    for role in ("body", "serif", "condensed"):
        name = fonts.name(role)
        fresh = TTFont(f"{name}-fresh", str(fonts.files[role]))
        text = "Fairy Bargains: 5 × ♥ — Éa"
        assert pdfmetrics.stringWidth(text, name, 10) == fresh.stringWidth(text, 10)


def test_platypus_without_its_unused_patterns_up_front() -> None:
    """Imported through pnp.output.platypus: the address, CJK-wrap and Python-keyword patterns wait for
    first use and then match exactly as ReportLab's own; every other pattern and re.compile itself are
    untouched."""
    script = (
        "import re, sys\n"
        "compile_before = re.compile\n"
        "import pnp.output.platypus\n"
        "from reportlab.platypus import paragraph as P\n"
        "from reportlab.lib import PyFontify, textsplit\n"
        "assert re.compile is compile_before\n"
        "later = (P.uri_pat, textsplit.rx, PyFontify.matchRE)\n"
        "assert all(type(p).__name__ == '_OnFirstUse' for p in later)\n"
        "assert isinstance(P._wsc_re_split.__self__, re.Pattern) and isinstance(PyFontify.idRE, re.Pattern)\n"
        "samples = ('https://example.com/a/b', 'ftp://x.org', 'not an address', 'HTTP://EXAMPLE.COM',\n"
        "           'if x: # note', '\u6f22\u5b57 text', 'import os as o')\n"
        "for pattern in later:\n"
        "    real = re.compile(*pattern._args)\n"
        "    for s in samples:\n"
        "        mine, theirs = pattern.search(s), real.search(s)\n"
        "        assert (mine and mine.groups(), mine and mine.span()) == (theirs and theirs.groups(), theirs and theirs.span()), s\n"
        "assert P._uri_split_pairs('https://example.com/a') == P._uri_split_pairs('https://example.com/a')\n"
        "assert PyFontify.fontify('import os # x') and textsplit.rx.sub(r'\\1 ', '\\u6f22a') == '\\u6f22 a'\n"
        "print('ok')\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr


def test_every_cache_on_or_off_the_same_pdfs(tmp_path: Path) -> None:
    """A whole game (cards, board, booklet) built with no disk cache, then twice with one (cold, then
    warm: games, boards, fonts, font subsets and symbol operators all read back): the same bytes."""
    project = make_project(tmp_path / "proj", ("tarot",))
    builds = {}
    for label, cache in (
        ("off", "off"),
        ("cold", str(tmp_path / "cache")),
        ("warm", str(tmp_path / "cache")),
    ):
        out = tmp_path / label
        proc = subprocess.run(
            [sys.executable, "-m", "pnp", "build", "--project", str(project), "--out", str(out)],
            env={**os.environ, "PNP_CACHE_DIR": cache},
            capture_output=True,
            text=True,
        )
        assert proc.returncode == 0, proc.stderr
        builds[label] = {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(shown(out, ".pdf"))}
    assert len(builds["off"]) >= 4
    assert builds["off"] == builds["cold"] == builds["warm"]
    shelves = {p.name for p in (tmp_path / "cache").iterdir() if p.is_dir()}
    assert {"symbols", "font-subsets"} <= shelves


@pytest.mark.parametrize("extra", [(), ("--cmyk",)])
def test_forms_and_fonts_written_directly_are_reportlabs_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, extra: tuple[str, ...]
) -> None:
    """Every form XObject (cards, symbols, backs, board, booklet pages placed two up) and every font
    object of a whole game, CMYK too, written by the adapter's _Form and by
    ReportLab's own classes: the same PDFs."""
    project = make_project(tmp_path / "proj", ("feenbalz",))
    built = {}
    for label in ("direct", "reportlab"):
        if label == "reportlab":
            monkeypatch.setattr(pdfdoc, "PDFFormXObject", rl._Form.__mro__[1])
        out = tmp_path / label
        result = run("build", "--project", str(project), "--out", str(out), "-j", "1", *extra)
        assert result.code == 0, result.err
        built[label] = {p.relative_to(out).as_posix(): p.read_bytes() for p in sorted(shown(out, ".pdf"))}
    assert len(built["direct"]) >= 6 and built["direct"] == built["reportlab"]
