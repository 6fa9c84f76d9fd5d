"""Helpers for the artwork and custom-layout tests: small projects with pictures, and where images land."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from PIL import Image, ImageDraw
from pypdf import PdfReader

from conftest import ROOT, _mul, with_ctm

MM = 72 / 25.4

LEAF_SVG = """<svg xmlns="http://www.w3.org/2000/svg" width="100" height="140" viewBox="0 0 100 140">
  <rect width="100" height="140" fill="#e8f0d8"/>
  <path d="M50 10 C90 40 90 100 50 130 C10 100 10 40 50 10 Z" fill="#3f7f3a" stroke="#1d3b1b" stroke-width="3"/>
  <text x="30" y="136" font-family="Helvetica" font-size="9" fill="#1d3b1b">Leaf</text>
</svg>
"""
CAP_SVG = """<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">
  <path d="M10 55 C10 20 90 20 90 55 Z" fill="#c03030"/>
  <rect x="40" y="55" width="20" height="35" rx="6" fill="#eeeeee"/>
</svg>
"""


def picture(path: Path, size: tuple[int, int], fill: str = "#6a8fd0") -> None:
    """A deterministic test picture: a colour field with a diagonal of discs."""
    path.parent.mkdir(parents=True, exist_ok=True)
    im = Image.new("RGB", size, fill)
    d = ImageDraw.Draw(im)
    step = max(4, size[0] // 8)
    for i in range(0, size[0], step):
        d.ellipse(
            (i, i * size[1] // size[0], i + step * 2, i * size[1] // size[0] + step * 2), fill="#c85a3c"
        )
    im.save(path)


def game_yaml(
    face: str,
    cards: str,
    back: str = "layout: back\n    slots: {title: Test}",
    fields: str = "",
) -> str:
    """A one-deck game: `face` is the design under `faces.f` (indented 4), `cards` the card list (indented 6)."""
    return f"""game: {{name: Art Test, tag: AT, players: {{min: 1, max: 4}}}}
faces:
  f:
    {face}
backs:
  b:
    {back}
components:
  - key: deck
    kind: deck
    name: Deck
    face: f
    back: b
    fields:
      n: {{type: int, required: false, default: 0}}
      art: {{type: str, required: false, default: ""}}{fields}
    cards:
{cards}
"""


def project(tmp: Path, yaml_text: str, name: str = "art") -> Path:
    """A project folder holding one database, the fonts, and art/ (pictures added by the caller)."""
    (tmp / "card_data").mkdir(parents=True, exist_ok=True)
    if not (tmp / "fonts").exists():
        shutil.copytree(ROOT / "fonts", tmp / "fonts")
    (tmp / "art" / "symbols").mkdir(parents=True, exist_ok=True)
    (tmp / "card_data" / f"{name}.yaml").write_text(yaml_text, encoding="utf-8")
    return tmp


def image_boxes(pdf: Path, page: int = 0) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Every image drawn on a page (inside forms too): its XObject name and the box
    its unit square lands on, (x0, y0, x1, y1) in mm from the page's lower-left corner."""
    reader = PdfReader(str(pdf))
    pg = reader.pages[page]
    out: list[tuple[str, tuple[float, float, float, float]]] = []

    def walk(contents, resources, outer: list[float]) -> None:
        xobjects = resources.get("/XObject", {}) if resources else {}
        for operands, op, ctm in with_ctm(contents, reader, outer):
            if op == b"Do":
                xo = xobjects[str(operands[0])].get_object()
                if xo.get("/Subtype") == "/Image":
                    xs = [ctm[4], ctm[4] + ctm[0]]
                    ys = [ctm[5], ctm[5] + ctm[3]]
                    out.append((str(operands[0]), (min(xs) / MM, min(ys) / MM, max(xs) / MM, max(ys) / MM)))
                elif xo.get("/Subtype") == "/Form":
                    m = [float(v) for v in xo.get("/Matrix", [1, 0, 0, 1, 0, 0])]
                    walk(xo, xo.get("/Resources") or resources, _mul(m, ctm))

    walk(pg.get_contents(), pg["/Resources"], [1.0, 0, 0, 1.0, 0, 0])
    return out


def count_images(pdf: Path) -> int:
    """Image XObjects in the whole file (each embedded picture once): ReportLab writes object
    dictionaries uncompressed, so each image's dictionary says /Subtype /Image in the bytes."""
    return len(re.findall(rb"/Subtype\s*/Image\b", pdf.read_bytes()))
