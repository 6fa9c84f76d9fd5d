"""Artwork: pictures from the project's art/ folder on faces and backs, and the project's own symbols."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from pypdf import PdfReader

from artwork import (
    CAP_SVG,
    LEAF_SVG,
    MM,
    count_images,
    game_yaml,
    image_boxes,
    picture,
    project,
)
from conftest import ROOT, page_texts, placements, run

CUSTOM_IMAGE = """layout: custom
    elements:
      - {type: rect, frame: bleed, fill: "#dddddd"}
      - {type: image, file: "{{ card.art }}", x: 10, y: 20, w: 30, h: 20,
         fit: "{{ 'contain' if card.n else 'cover' }}"}"""


def _build(root: Path, *extra: str) -> Path:
    r = run("build", "art", "--project", str(root), "--out", str(root / "out"), "--duplex", "off", *extra)
    assert r.code == 0, r.out + r.err
    return root / "out" / "art" / "deck.pdf"


def test_picture_lands_on_its_box(tmp_path: Path) -> None:
    """contain: a 3:1 picture in a 30 x 20 mm box is 30 x 10 mm, centred; cover: 60 x 20 mm, centred, clipped."""
    cards = (
        "      - {key: a, name: A, n: 1, art: art/wide.png}\n"
        "      - {key: b, name: B, n: 0, art: art/wide.png}"
    )
    root = project(tmp_path, game_yaml(CUSTOM_IMAGE, cards))
    picture(root / "art" / "wide.png", (900, 300))
    pdf = _build(root)
    faces = [p for p in placements(PdfReader(str(pdf)).pages[0])]
    images = image_boxes(pdf)
    assert len(faces) == 2 and len(images) == 2
    h = 88.0  # poker card height: element y runs down from the top of the trim
    for face, (_, (x0, y0, x1, y1)), want in zip(faces, images, [(10, 25, 40, 35), (-5, 20, 55, 40)]):
        ex0, ey_top, ex1, ey_bottom = want
        expected = (face.x + ex0, face.y + h - ey_bottom, face.x + ex1, face.y + h - ey_top)
        assert max(abs(a - b) for a, b in zip((x0, y0, x1, y1), expected)) < 0.1, ((x0, y0, x1, y1), expected)


def test_picture_is_embedded_once_for_fifty_cards(tmp_path: Path) -> None:
    cards = "\n".join(f"      - {{key: c{i}, name: Card {i}, n: {i}, art: art/same.png}}" for i in range(50))
    face = (
        'layout: value\n    slots: {value: "{{ card.n }}", title: "{{ card.name }}", art: "{{ card.art }}"}'
    )
    root = project(tmp_path, game_yaml(face, cards))
    picture(root / "art" / "same.png", (640, 640))
    pdf = _build(root)
    reader = PdfReader(str(pdf))
    assert sum(len(placements(p)) for p in reader.pages) == 50  # 50 distinct faces on the sheets
    assert sum(len(image_boxes(pdf, i)) for i in range(len(reader.pages))) == 50  # each shows the picture
    assert count_images(pdf) == 1
    # every face form refers to the one image object, which keeps its own resolution
    refs = {
        ref.idnum
        for page in reader.pages
        for face in page["/Resources"]["/XObject"].values()
        for ref in face.get_object()["/Resources"]["/XObject"].values()
        if ref.get_object()["/Subtype"] == "/Image"
    }
    assert len(refs) == 1
    image = reader.get_object(refs.pop())
    assert (image["/Width"], image["/Height"]) == (640, 640)


def test_low_resolution_picture_is_a_warning(tmp_path: Path) -> None:
    """A 100 px square contained in a 30 x 20 mm box prints 20 mm wide: 127 dpi. `pnp check` names the
    file and its dpi, and still passes."""
    cards = (
        "      - {key: a, name: A, n: 1, art: art/small.png}\n"
        "      - {key: b, name: B, n: 1, art: art/sharp.png}"
    )
    root = project(tmp_path, game_yaml(CUSTOM_IMAGE, cards))
    picture(root / "art" / "small.png", (100, 100))
    picture(root / "art" / "sharp.png", (600, 400))  # 600 px over 30 mm wide: 508 dpi
    r = run("check", "--project", str(root))
    assert r.code == 0, r.out + r.err
    warnings = [line for line in r.out.splitlines() if "warning:" in line]
    assert len(warnings) == 1, r.out
    assert "art/small.png: 127 dpi" in warnings[0]
    r = run("check", "--project", str(root), "--json")
    assert "art/small.png: 127 dpi" in r.out


def test_svg_stays_vector(tmp_path: Path) -> None:
    cards = "      - {key: a, name: A, n: 1, art: art/leaf.svg}"
    face = (
        'layout: portrait\n    slots: {title: "{{ card.name }}", art: {file: "{{ card.art }}", fit: contain}}'
    )
    back = "layout: back\n    slots: {art: art/leaf.svg}"
    root = project(tmp_path, game_yaml(face, cards, back))
    (root / "art" / "leaf.svg").write_text(LEAF_SVG)
    pdf = _build(root)
    assert count_images(pdf) == 0
    assert b"FormXob.Svg" in pdf.read_bytes()  # the SVG drawn once as its own form XObject
    assert b"/Helvetica" not in pdf.read_bytes()  # neither svglib's default font nor the SVG's own
    assert "Leaf" in page_texts(pdf)[0]  # the SVG's text, set in the project's (embedded) font


def test_svglib_loads_only_for_svg() -> None:
    """Drawing every card of a built-in game (what `pnp check` does) never imports svglib (slow to import)."""
    code = (
        "import sys; from click.testing import CliRunner; from pnp.cli import main; "
        "r = CliRunner().invoke(main, ['check', 'bargains', '--project', sys.argv[1]]); "
        "assert r.exit_code == 0, r.output; print('svglib' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code, str(ROOT)], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_full_bleed_back(tmp_path: Path) -> None:
    cards = "      - {key: a, name: A, n: 1}"
    face = 'layout: value\n    slots: {value: "1", title: A}'
    back = "layout: back\n    slots: {art: {file: art/back.jpg, fit: cover}}"
    root = project(tmp_path, game_yaml(face, cards, back))
    picture(root / "art" / "back.jpg", (900, 1200))
    r = run("build", "art", "--project", str(root), "--out", str(root / "out"))
    assert r.code == 0, r.out + r.err
    pdf = root / "out" / "art" / "deck.pdf"
    back_form = placements(PdfReader(str(pdf)).pages[1])[0]
    ((_, (x0, y0, x1, y1)),) = image_boxes(pdf, 1)
    # 63 x 88 mm plus 3 mm bleed each side is 69 x 94 mm; a 3:4 picture covering it is 70.5 x 94 mm
    assert abs((y1 - y0) - 94.0) < 0.1 and abs((x1 - x0) - 70.5) < 0.1
    assert abs((x0 + x1) / 2 - (back_form.x + 31.5)) < 0.1 and abs((y0 + y1) / 2 - (back_form.y + 44)) < 0.1


def test_own_symbol_as_pips_and_emblem(tmp_path: Path) -> None:
    """art/symbols/cap.svg is a suit: three pips and two corner pips, in the card's ink, not the SVG's red."""
    cards = "      - {key: a, name: A, n: 3}"
    face = 'layout: playing\n    slots: {rank: "{{ card.n }}", suit: cap, color: "#1f4e8c"}'
    back = "layout: back\n    slots: {title: T, emblem: cap, pattern: cap}"
    root = project(tmp_path, game_yaml(face, cards, back))
    (root / "art" / "symbols" / "cap.svg").write_text(CAP_SVG)
    pdf = _build(root)
    reader = PdfReader(str(pdf))
    face_form = reader.pages[0]["/Resources"]["/XObject"]
    form = next(iter(face_form.values())).get_object()
    data = form.get_data().decode("latin-1")
    svg_forms = {
        k: v.get_object() for k, v in form["/Resources"]["/XObject"].items() if k.startswith("/FormXob.Svg")
    }
    assert svg_forms, "the own symbol is drawn as a form"
    assert sum(data.count(f"{name} Do") for name in svg_forms) >= 5
    ink = svg_forms[next(iter(svg_forms))].get_data().decode("latin-1")
    assert ".121569 .305882 .54902 rg" in ink and ".752941 .188235 .188235 rg" not in ink


def test_unknown_symbol_lists_every_name(tmp_path: Path) -> None:
    cards = "      - {key: a, name: A, n: 1}"
    face = 'layout: value\n    slots: {value: "1", emblem: capp}'
    root = project(tmp_path, game_yaml(face, cards))
    (root / "art" / "symbols" / "cap.svg").write_text(CAP_SVG)
    r = run("check", "--project", str(root))
    assert r.code == 2
    assert (
        "card_data/art.yaml:4: faces.f.slots.emblem: card AT-a: unknown symbol 'capp'; did you mean cap?"
        in r.err
    )
    assert "built-in: acorn, beetle" in r.err and "own (art/symbols/): cap" in r.err


BAD = [
    (
        "missing image",
        "art/here.png",
        "art/gone.png",
        "faces.f.slots.art: card AT-a: art/gone.png: no such file",
    ),
    ("path escape", "art/here.png", "../outside.png", "pictures must be files inside the project folder"),
    (
        "absolute path",
        "art/here.png",
        "/etc/hostname.png",
        "pictures must be files inside the project folder",
    ),
    ("broken svg", "art/here.png", "art/broken.svg", "art/broken.svg: not a readable SVG file"),
    ("broken png", "art/here.png", "art/broken.png", "art/broken.png: not a readable PNG or JPEG image"),
    ("bad fit", "fit: cover", "fit: stretch", "fit must be cover or contain"),
    ("other format", "art/here.png", "art/here.gif", "'art/here.gif' is not a picture (use a .png"),
]


@pytest.mark.parametrize("desc,old,new,message", BAD, ids=[b[0] for b in BAD])
def test_bad_pictures_are_located(tmp_path: Path, desc: str, old: str, new: str, message: str) -> None:
    cards = "      - {key: a, name: A, n: 1, art: art/here.png}"
    face = 'layout: value\n    slots: {value: "1", art: {file: "{{ card.art }}", fit: cover}}'
    text = game_yaml(face, cards).replace(old, new)
    root = project(tmp_path / "p", text)
    picture(root / "art" / "here.png", (200, 200))
    picture(tmp_path / "outside.png", (200, 200))
    (root / "art" / "broken.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'><path d=")
    (root / "art" / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\nnot really")
    for command in ("check", "build"):
        r = run(
            command, "--project", str(root), *(["--out", str(root / "out")] if command == "build" else [])
        )
        assert r.code == 2, (command, r.out + r.err)
        assert "card_data/art.yaml:4: faces.f.slots.art" in r.err and message in r.err, r.err
        assert "Traceback" not in r.err
    assert not list((root / "out").rglob("*.pdf"))


def test_own_symbol_takes_an_outline(tmp_path: Path) -> None:
    """The value card's corner emblem is outlined: under the theme-coloured silhouette lies the same
    silhouette in the outline colour, stroked so it swells by the outline's width."""
    cards = "      - {key: a, name: A, n: 1}"
    face = 'layout: value\n    slots: {value: "1", title: A, emblem: cap, color: "#4f93c9"}'
    root = project(tmp_path, game_yaml(face, cards))
    (root / "art" / "symbols" / "cap.svg").write_text(CAP_SVG)
    reader = PdfReader(str(_build(root)))
    form = next(iter(reader.pages[0]["/Resources"]["/XObject"].values())).get_object()
    streams = [
        v.get_object().get_data().decode("latin-1")
        for k, v in form["/Resources"]["/XObject"].items()
        if k.startswith("/FormXob.Svg")
    ]
    fills = [s for s in streams if "\nf\n" in s and "\nB\n" not in s]
    outlines = [s for s in streams if "\nB\n" in s]  # filled and stroked: the swollen silhouette
    assert fills and outlines, streams
    deep = ".201373 .374706 .512353"  # #4f93c9 darkened by 0.35, the value layout's outline colour
    assert any(f"{deep} RG" in s for s in outlines), outlines[0][:400]


def test_broken_own_symbol_is_located(tmp_path: Path) -> None:
    cards = "      - {key: a, name: A, n: 1}"
    face = 'layout: value\n    slots: {value: "1", title: A, emblem: cap}'
    root = project(tmp_path, game_yaml(face, cards))
    (root / "art" / "symbols" / "cap.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'><path d=")
    r = run("check", "--project", str(root))
    assert r.code == 2, r.out + r.err
    assert (
        "card_data/art.yaml:4: faces.f: card AT-a: art/symbols/cap.svg: not a readable SVG file" in r.err
    ), r.err


GRADIENT_SVG = """<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="0">
    <stop offset="0" stop-color="#ff0000"/><stop offset="1" stop-color="#0000ff"/>
  </linearGradient></defs>
  <rect width="100" height="100" fill="url(#g)"/>
</svg>
"""


def _shading_names(form: object) -> tuple[set[str], set[str]]:
    """The names a form's content paints with `sh`, and those its /Resources /Shading holds."""
    import re as _re

    data = form.get_data().decode("latin-1")  # type: ignore[attr-defined]
    used = set(_re.findall(r"/(\S+)\s+sh\b", data))
    shading = form.get("/Resources", {}).get("/Shading", {})  # type: ignore[attr-defined]
    return used, {str(k).lstrip("/") for k in shading}


def test_svg_gradient_prints_its_colours(tmp_path: Path) -> None:
    """An SVG picture with a gradient: every `sh` in a form names a shading the form's resources
    hold (else readers paint black), and the page shows red on the left and blue on the right."""
    import numpy as np
    import pypdfium2 as pdfium

    cards = "      - {key: a, name: A, n: 1, art: art/fade.svg}"
    face = 'layout: custom\n    elements:\n      - {type: image, file: "{{ card.art }}", x: 0, y: 0, w: 63, h: 88, fit: cover}'
    root = project(tmp_path, game_yaml(face, cards))
    (root / "art" / "fade.svg").write_text(GRADIENT_SVG, encoding="utf-8")
    pdf = _build(root)
    reader = PdfReader(str(pdf))
    seen = 0
    for page in reader.pages:
        stack = list(page["/Resources"].get("/XObject", {}).values())
        while stack:
            obj = stack.pop().get_object()
            if obj.get("/Subtype") != "/Form":
                continue
            used, held = _shading_names(obj)
            assert used <= held, (used, held)
            seen += len(used)
            stack += list(obj.get("/Resources", {}).get("/XObject", {}).values())
    assert seen >= 1
    face_at = placements(reader.pages[0])[0]
    doc = pdfium.PdfDocument(str(pdf))
    scale = 2.0
    pixels = np.asarray(doc[0].render(scale=scale).to_pil().convert("RGB"), dtype=np.int16)
    height = pixels.shape[0]
    row = int(height - (face_at.y + 44) * MM * scale)
    left = pixels[row, int((face_at.x + 5) * MM * scale)]
    right = pixels[row, int((face_at.x + 58) * MM * scale)]
    assert left[0] > 180 and left[2] < 90, left
    assert right[2] > 180 and right[0] < 90, right
