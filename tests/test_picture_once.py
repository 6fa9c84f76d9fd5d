"""One picture object per file per PDF: a picture drawn on many cards is hashed once, held once in the
PDF (with its soft mask), and its prepared data read from the disk cache once as the PDF is written."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas

from pnp.data.store import cache
from pnp.draw.images import Artwork


def _picture(root: Path) -> None:
    rng = np.random.default_rng(3)
    (root / "art").mkdir(parents=True)
    out = io.BytesIO()
    Image.fromarray(rng.integers(0, 256, (16, 24, 4), dtype=np.uint8), "RGBA").save(out, "PNG")
    (root / "art" / "moth.png").write_bytes(out.getvalue())


def _deck(root: Path, name: str, pages: int = 3, per_page: int = 9) -> Path:
    """The picture on every card of a few pages, as a card sheet places it."""
    art = Artwork.for_project(root)
    pic = art.picture("art/moth.png")
    assert pic is not None
    pdf = root / name
    c = Canvas(str(pdf), pagesize=(300, 300), invariant=1)
    for _ in range(pages):
        for i in range(per_page):
            art.draw(c, pic, 10 + 30 * i, 10 + 20 * i, 24, 16)
        c.showPage()
    c.save()
    return pdf


def _image_objects(pdf: Path) -> tuple[set[int], set[int]]:
    """The distinct image XObjects the pages use, and their soft masks (by object number)."""
    images, masks = set(), set()
    for page in PdfReader(pdf).pages:
        for ref in (page.get("/Resources") or {}).get("/XObject", {}).values():
            obj = ref.get_object()
            if obj.get("/Subtype") == "/Image":
                images.add(ref.idnum)
                if "/SMask" in obj:
                    masks.add(obj.raw_get("/SMask").idnum)
    return images, masks


def test_a_picture_on_many_cards_is_held_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    _picture(tmp_path)
    images, masks = _image_objects(_deck(tmp_path, "first.pdf"))
    assert len(images) == 1 and len(masks) == 1


def test_a_picture_is_hashed_once_and_its_prepared_data_read_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    _picture(tmp_path)
    first = _deck(tmp_path, "first.pdf")  # prepares the picture into the disk cache
    hashed, read = [], []
    digest, peek = cache.file_digest, cache.peek
    monkeypatch.setattr(cache, "file_digest", lambda path: hashed.append(path) or digest(path))
    monkeypatch.setattr(cache, "peek", lambda kind, *a, **k: read.append(kind) or peek(kind, *a, **k))
    second = _deck(tmp_path, "second.pdf")
    assert len(hashed) == 1 and read == ["picture"]
    assert second.read_bytes() == first.read_bytes()  # the same picture object either way
