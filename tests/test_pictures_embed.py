"""Pictures go into the PDF as they are: PNG image data passed through (no decoding, no deflating),
JPEG data as it is, the rest converted once and kept in the disk cache; the pixels on the page are
the picture's, for every PNG colour type and bit depth and every JPEG kind."""

from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image
from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas

from pnp.draw.embed import PNG_SIGNATURE, prepare
from pnp.draw.images import Artwork

W, H = 24, 16
SCALE = 4  # device pixels per picture pixel when rasterised


def _noise(channels: int, seed: int = 7) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.integers(0, 256, (H, W, channels), dtype=np.uint8)


def _png(im: Image.Image, **options: object) -> bytes:
    out = io.BytesIO()
    im.save(out, "PNG", **options)
    return out.getvalue()


def _interlaced_rgb(pixels: np.ndarray) -> bytes:
    """An Adam7-interlaced 8-bit RGB PNG, written by hand (Pillow writes no interlaced PNG)."""
    passes = [
        (0, 0, 8, 8),
        (4, 0, 8, 8),
        (0, 4, 4, 8),
        (2, 0, 4, 4),
        (0, 2, 2, 4),
        (1, 0, 2, 2),
        (0, 1, 1, 2),
    ]
    raw = b""
    for x0, y0, dx, dy in passes:
        sub = pixels[y0::dy, x0::dx]
        if sub.size:
            raw += b"".join(b"\x00" + row.tobytes() for row in sub)

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", W, H, 8, 2, 0, 0, 1)
    return PNG_SIGNATURE + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


def _kinds() -> dict[str, tuple[bytes, np.ndarray, bool]]:
    """name -> (file bytes, the RGB pixels it shows on white, passed through without decoding)."""
    rgba, rgb, grey = _noise(4), _noise(3), _noise(1)[:, :, 0]

    def on_white(pixels: np.ndarray, alpha: np.ndarray) -> np.ndarray:
        a = alpha[:, :, None].astype(float) / 255
        return np.rint(pixels.astype(float) * a + 255 * (1 - a)).astype(int)

    palette_im = Image.fromarray(rgb).quantize(16)
    pal_rgb = np.asarray(palette_im.convert("RGB"))
    idx = np.asarray(palette_im)
    trns = palette_im.copy()
    trns.info["transparency"] = bytes([0, 128] + [255] * 14)
    alpha_of = np.array([0, 128] + [255] * 14)[idx]
    key = rgb.copy()
    key[0, :] = (10, 20, 30)
    grey16 = (grey.astype(np.uint16) * 257 + 3).astype(np.uint16)
    return {
        "grey": (_png(Image.fromarray(grey, "L")), np.repeat(grey[:, :, None], 3, 2).astype(int), True),
        "grey 1-bit": (
            _png(Image.fromarray(grey > 127).convert("1")),
            np.repeat(np.where(grey > 127, 255, 0)[:, :, None], 3, 2),
            True,
        ),
        "grey+alpha": (
            _png(Image.fromarray(np.dstack([grey, rgba[:, :, 3]]), "LA")),
            on_white(np.repeat(grey[:, :, None], 3, 2), rgba[:, :, 3]),
            False,
        ),
        "rgb": (_png(Image.fromarray(rgb, "RGB")), rgb.astype(int), True),
        "rgb colour key": (
            _png(Image.fromarray(key, "RGB"), transparency=(10, 20, 30)),
            np.where((key == (10, 20, 30)).all(2)[:, :, None], 255, key).astype(int),
            True,
        ),
        "rgba": (_png(Image.fromarray(rgba, "RGBA")), on_white(rgba[:, :, :3], rgba[:, :, 3]), False),
        "palette": (_png(palette_im), pal_rgb.astype(int), True),
        "palette+tRNS": (
            _png(trns, transparency=bytes([0, 128] + [255] * 14)),
            on_white(pal_rgb, alpha_of),
            False,
        ),
        "grey 16-bit": (
            _png(Image.fromarray(grey16)),
            np.repeat((grey16 >> 8)[:, :, None], 3, 2).astype(int),
            False,
        ),
        "rgb interlaced": (_interlaced_rgb(rgb), rgb.astype(int), False),
    }


def _draw(tmp_path: Path, data: bytes, suffix: str) -> tuple[Path, Path]:
    """The picture drawn by pnp's Artwork at SCALE device pixels per picture pixel (at 72 dpi)."""
    (tmp_path / "art").mkdir(exist_ok=True)
    picture = tmp_path / "art" / f"p{suffix}"
    picture.write_bytes(data)
    art = Artwork.for_project(tmp_path)
    pic = art.picture(f"art/p{suffix}")
    pdf = tmp_path / "p.pdf"
    c = Canvas(str(pdf), pagesize=(W, H), invariant=1)
    art.draw(c, pic, 0, 0, W, H)
    c.showPage()
    c.save()
    return pdf, picture


def _pixels(pdf: Path) -> np.ndarray:
    doc = pdfium.PdfDocument(str(pdf))
    try:
        image = np.asarray(doc[0].render(scale=SCALE, may_draw_forms=True).to_pil().convert("RGB"), dtype=int)
    finally:
        doc.close()
    return image[SCALE // 2 :: SCALE, SCALE // 2 :: SCALE]


@pytest.mark.parametrize("kind", list(_kinds()))
def test_every_png_kind_prints_its_own_pixels(tmp_path: Path, kind: str) -> None:
    data, want, passed = _kinds()[kind]
    pdf, _ = _draw(tmp_path, data, ".png")
    got = _pixels(pdf)
    assert got.shape == want.shape
    assert np.abs(got - want).max() <= 1, (kind, int(np.abs(got - want).max()))
    stream = prepare(data)
    assert stream.decoded is not passed or (stream.smask is not None and kind.startswith("palette"))
    if passed and stream.smask is None:  # the PNG's own image data, byte for byte
        (image,) = [
            x.get_object()
            for x in PdfReader(pdf).pages[0]["/Resources"]["/XObject"].values()
            if x.get_object()["/Subtype"] == "/Image"
        ]
        idat = b"".join(_idat(data))
        assert image._data == idat and image["/DecodeParms"]["/Predictor"] == 15


def _idat(data: bytes) -> list[bytes]:
    pos, out = 8, []
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        if kind == b"IDAT":
            out.append(data[pos + 8 : pos + 8 + length])
        pos += 12 + length
    return out


@pytest.mark.parametrize("mode", ["RGB", "L", "CMYK"])
def test_jpeg_data_is_passed_through(tmp_path: Path, mode: str) -> None:
    pixels = np.kron(_noise(4, 3)[:4, :6], np.ones((4, 4, 1), dtype=np.uint8))  # 4 x 4 blocks: little ringing
    im = Image.fromarray(pixels[:, :, : {"RGB": 3, "L": 1, "CMYK": 4}[mode]].squeeze(), mode)
    out = io.BytesIO()
    im.save(out, "JPEG", quality=95)
    data = out.getvalue()
    pdf, _ = _draw(tmp_path, data, ".jpg")
    (image,) = [x.get_object() for x in PdfReader(pdf).pages[0]["/Resources"]["/XObject"].values()]
    assert image._data == data and image["/Filter"] == "/DCTDecode"
    assert image["/ColorSpace"] == {"RGB": "/DeviceRGB", "L": "/DeviceGray", "CMYK": "/DeviceCMYK"}[mode]
    with Image.open(io.BytesIO(data)) as decoded:
        want = np.asarray(decoded.convert("RGB"), dtype=int)
    got = _pixels(pdf)
    if mode == "CMYK":  # shown through each program's own ink conversion; inverted inks would be ~200 off
        assert np.abs(got - want).mean() <= 25, float(np.abs(got - want).mean())
    else:
        assert np.abs(got - want).mean() <= 1.5 and np.median(np.abs(got - want)) <= 6, mode


def test_a_converted_picture_is_made_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An RGBA picture is decoded for the first PDF only: a second PDF (another build) reads it from
    the disk cache and decodes nothing."""
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    data, _, _ = _kinds()["rgba"]
    _draw(tmp_path, data, ".png")
    loads = []
    original = Image.Image.load
    monkeypatch.setattr(Image.Image, "load", lambda self: loads.append(self) or original(self))
    pdf, _ = _draw(tmp_path, data, ".png")
    assert loads == [] and _pixels(pdf).shape == (H, W, 3)


def _art_project(tmp_path: Path, picture: Image.Image, suffix: str = ".png", w: float = 20.0) -> Path:
    """A one-card deck whose face shows art/big<suffix> in a w x w mm box."""
    from artwork import game_yaml, project

    face = (
        f"layout: custom\n    elements:\n      - {{type: image, file: art/big{suffix}, x: 5, y: 5, w: {w}, h: {w}, "
        "fit: contain}"
    )
    root = project(tmp_path, game_yaml(face, "      - {key: a, name: A}"), name="art")
    picture.save(root / "art" / f"big{suffix}")
    return root


def _images(pdf: Path) -> list:
    found = []
    for page in PdfReader(pdf).pages:
        for x in (page.get("/Resources") or {}).get("/XObject", {}).values():
            form = x.get_object()
            inner = (form.get("/Resources") or {}).get("/XObject", {})
            found += [i.get_object() for i in inner.values() if i.get_object().get("/Subtype") == "/Image"]
            if form.get("/Subtype") == "/Image":
                found.append(form)
    return found


def test_a_picture_far_sharper_than_print_is_named_and_max_dpi_brings_it_down(tmp_path: Path) -> None:
    from conftest import run

    big = Image.fromarray(np.kron(_noise(3, 5), np.ones((80, 80, 1), dtype=np.uint8)))  # 1920 x 1280 px
    root = _art_project(tmp_path, big)
    r = run("check", "--project", str(root))
    assert r.code == 0 and "art/big.png: 2438 dpi at its printed size" in r.out + r.err, r.out + r.err
    assert "--max-dpi 600" in r.out + r.err
    r = run(
        "build", "--project", str(root), "--out", str(root / "out"), "--max-dpi", "300", "--duplex", "off"
    )
    assert r.code == 0, r.out + r.err
    (image,) = _images(root / "out" / "art" / "deck.pdf")
    assert (image["/Width"], image["/Height"]) == (236, 157)  # 20 mm at 300 dpi across, its shape kept
    r = run("build", "--project", str(root), "--out", str(root / "full"), "--duplex", "off")
    (image,) = _images(root / "full" / "art" / "deck.pdf")
    assert (image["/Width"], image["/Height"]) == (1920, 1280)  # unasked, nothing changes


def test_print_shop_pictures_are_cmyk_without_transparency(tmp_path: Path) -> None:
    from conftest import run

    picture = Image.fromarray(_noise(4, 9), "RGBA")
    root = _art_project(tmp_path, picture)
    r = run("build", "--project", str(root), "--out", str(root / "out"), "--cmyk")
    assert r.code == 0, r.out + r.err
    (image,) = _images(root / "out" / "art" / "deck.pdf")
    assert image["/ColorSpace"] == "/DeviceCMYK" and "/SMask" not in image
