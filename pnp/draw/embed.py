"""Pictures as PDF image streams, made without decoding wherever the file allows.

A PNG's image data is a zlib stream of filtered rows, exactly what a PDF image
with `FlateDecode` and `Predictor 15` holds, so an 8-bit (or 1, 2, 4-bit grey
or palette) PNG that is not interlaced goes into the PDF as its joined IDAT
chunks: no pixel is decoded or compressed again. A palette becomes an
`Indexed` colour space; a single transparent colour (`tRNS` of a grey or RGB
picture) a colour-key `Mask`; palette transparency and an alpha channel an
`SMask`, for which the picture is decoded once. 16-bit and interlaced PNGs are
converted once. JPEG data is passed through (grey, RGB and CMYK, Adobe's
inverted CMYK with its `Decode`). `prepare` returns what the PDF needs; the
caller keeps it in the disk cache under the file's SHA-256 (`pnp.draw.images`).
"""

from __future__ import annotations

import io
import json
import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_DEFLATE_LEVEL = 6


@dataclass(frozen=True)
class ImageStream:
    """One PDF image XObject: its dictionary's values and its (already encoded) data."""

    width: int
    height: int
    colour_space: str  # DeviceGray | DeviceRGB | DeviceCMYK | Indexed
    bits: int
    filter: str  # FlateDecode | DCTDecode
    data: bytes
    predictor_colours: int = 0  # > 0: DecodeParms with Predictor 15 and this many colours
    palette: bytes = b""  # Indexed: the base (RGB) colours, 3 bytes each
    decode: tuple[float, ...] = ()  # e.g. Adobe CMYK JPEG: 1 0 1 0 1 0 1 0
    mask: tuple[int, ...] = ()  # colour-key masking ranges
    smask: ImageStream | None = None  # an alpha channel, DeviceGray
    decoded: bool = False  # whether making it decoded the pixels (for the tests and bench)


def prepare(data: bytes) -> ImageStream:
    """The PDF image of a PNG or JPEG file's bytes (ValueError for anything else or a broken file)."""
    if data.startswith(PNG_SIGNATURE):
        return _png(data)
    if data.startswith(b"\xff\xd8"):
        return _jpeg(data)
    raise ValueError("not a PNG or JPEG file")


# -- PNG -------------------------------------------------------------------------


@dataclass(frozen=True)
class _Png:
    width: int
    height: int
    depth: int
    colour_type: int
    interlace: int
    palette: bytes
    transparency: bytes
    idat: bytes


def _chunks(data: bytes) -> _Png:
    """The chunks a PDF needs, read without decoding any pixel."""
    pos, header, palette, transparency, idat = len(PNG_SIGNATURE), b"", b"", b"", []
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        body = data[pos + 8 : pos + 8 + length]
        if len(body) != length:
            raise ValueError("the PNG file is cut short")
        if kind == b"IHDR":
            header = body
        elif kind == b"PLTE":
            palette = body
        elif kind == b"tRNS":
            transparency = body
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + length
    if len(header) != 13 or not idat:
        raise ValueError("the PNG file has no header or no image data")
    width, height, depth, colour_type, _, _, interlace = struct.unpack(">IIBBBBB", header)
    return _Png(width, height, depth, colour_type, interlace, palette, transparency, b"".join(idat))


_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


def _png(data: bytes) -> ImageStream:
    png = _chunks(data)
    passes = png.interlace == 0 and (png.depth == 8 or (png.colour_type in (0, 3) and png.depth in (1, 2, 4)))
    if not passes or png.colour_type in (4, 6):
        return _converted(data)
    space = {0: "DeviceGray", 2: "DeviceRGB", 3: "Indexed"}[png.colour_type]
    image = ImageStream(
        png.width,
        png.height,
        space,
        png.depth,
        "FlateDecode",
        png.idat,
        predictor_colours=_CHANNELS[png.colour_type],
        palette=png.palette,
    )
    if not png.transparency:
        return image
    if png.colour_type == 3:  # alpha per palette entry: a soft mask, made from the decoded indices
        return _with_alpha(image, data)
    count = 1 if png.colour_type == 0 else 3  # one colour is transparent: a colour-key mask, no decoding
    values = struct.unpack(f">{count}H", png.transparency[: 2 * count])
    top = (1 << png.depth) - 1
    return ImageStream(
        **{**image.__dict__, "mask": tuple(v for value in values for v in (min(value, top),) * 2)}
    )


def _with_alpha(image: ImageStream, data: bytes) -> ImageStream:
    """`image` (passed through) with a soft mask from the picture's own alpha, decoded for it alone."""
    from PIL import Image  # lazy: only transparency needs decoding

    with Image.open(io.BytesIO(data)) as im:
        alpha = im.convert("RGBA").getchannel("A")
    return ImageStream(**{**image.__dict__, "smask": _grey(alpha), "decoded": True})


def _converted(data: bytes) -> ImageStream:
    """A PNG the PDF cannot take as it is (16 bits, interlaced, an alpha channel): decoded once,
    written as 8-bit grey or RGB with its alpha as a soft mask."""
    from PIL import Image  # lazy: only these PNGs are decoded

    with Image.open(io.BytesIO(data)) as opened:
        opened.load()
        im: Any = opened
        alpha = None
        if im.mode in ("I", "I;16", "I;16B", "I;16L"):  # 16-bit grey: the top 8 bits
            im = im.point(lambda v: v * (1 / 256)).convert("L")
        elif im.mode in ("LA", "La", "PA", "RGBA", "RGBa", "P") or "transparency" in im.info:
            rgba = im.convert("RGBA")
            alpha = rgba.getchannel("A")
            im = rgba.convert("L" if im.mode in ("LA", "La") else "RGB")
        elif im.mode not in ("L", "RGB"):
            im = im.convert("RGB")
        image = _raw(im)
    if alpha is not None and alpha.getextrema() != (255, 255):
        image = ImageStream(**{**image.__dict__, "smask": _grey(alpha)})
    return image


def _raw(im: Any) -> ImageStream:
    """Decoded 8-bit grey or RGB pixels, deflated."""
    space = "DeviceGray" if im.mode == "L" else "DeviceRGB"
    return ImageStream(
        im.width,
        im.height,
        space,
        8,
        "FlateDecode",
        zlib.compress(im.tobytes(), _DEFLATE_LEVEL),
        decoded=True,
    )


def _grey(alpha: Any) -> ImageStream:
    return ImageStream(
        alpha.width,
        alpha.height,
        "DeviceGray",
        8,
        "FlateDecode",
        zlib.compress(alpha.tobytes(), _DEFLATE_LEVEL),
        decoded=True,
    )


def downsampled(data: bytes, size: tuple[int, int]) -> ImageStream:
    """The picture resampled to `size` pixels (Lanczos): a JPEG stays a JPEG (quality 92), anything
    else becomes deflated pixels with its alpha as a soft mask."""
    from PIL import Image  # lazy: only --max-dpi resamples

    with Image.open(io.BytesIO(data)) as im:
        im.load()
        if data.startswith(b"\xff\xd8"):
            small = im.resize(size, Image.Resampling.LANCZOS)
            out = io.BytesIO()
            small.save(out, "JPEG", quality=92, subsampling=0)
            return ImageStream(**{**_jpeg(out.getvalue()).__dict__, "decoded": True})
        has_alpha = im.mode in ("LA", "PA", "RGBA", "P") or "transparency" in im.info
        rgba = im.convert("RGBA" if has_alpha else "RGB").resize(size, Image.Resampling.LANCZOS)
        image = _raw(rgba.convert("RGB"))
        alpha = rgba.getchannel("A") if has_alpha else None
    if alpha is not None and alpha.getextrema() != (255, 255):
        image = ImageStream(**{**image.__dict__, "smask": _grey(alpha)})
    return image


def in_inks(data: bytes, convert: Any, size: tuple[int, int] | None = None) -> ImageStream:
    """The picture (resampled to `size` when given) as CMYK inks by `convert` (a PIL image in, a
    CMYK one out), transparency flattened onto white: what a PDF/X-1a print file may hold."""
    from PIL import Image  # lazy: only --cmyk converts pictures

    with Image.open(io.BytesIO(data)) as im:
        im.load()
        rgba = im.convert("RGBA")
    if size is not None:
        rgba = rgba.resize(size, Image.Resampling.LANCZOS)
    paper = Image.new("RGB", rgba.size, "white")
    paper.paste(rgba, mask=rgba.getchannel("A"))
    inks = convert(paper)
    return ImageStream(
        inks.width,
        inks.height,
        "DeviceCMYK",
        8,
        "FlateDecode",
        zlib.compress(inks.tobytes(), _DEFLATE_LEVEL),
        decoded=True,
    )


# -- JPEG ------------------------------------------------------------------------


def _jpeg(data: bytes) -> ImageStream:
    """JPEG data as it is: size and components from its frame header, Adobe's inverted CMYK noted."""
    pos, adobe = 2, False
    while pos + 4 <= len(data):
        if data[pos] != 0xFF:
            raise ValueError("a broken JPEG file (no marker where one belongs)")
        marker = data[pos + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            pos += 2
            continue
        length = struct.unpack(">H", data[pos + 2 : pos + 4])[0]
        if marker == 0xEE and data[pos + 4 : pos + 9] == b"Adobe":
            adobe = True
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
            bits, height, width, components = struct.unpack(">BHHB", data[pos + 4 : pos + 10])
            space = {1: "DeviceGray", 3: "DeviceRGB", 4: "DeviceCMYK"}.get(components)
            if space is None or bits != 8:
                raise ValueError(f"a JPEG of {components} components at {bits} bits is not printable")
            decode = (1.0, 0.0) * 4 if space == "DeviceCMYK" and adobe else ()
            return ImageStream(width, height, space, 8, "DCTDecode", data, decode=decode)
        pos += 2 + length
    raise ValueError("a JPEG file without a frame header")


# -- kept in the disk cache ----------------------------------------------------------


def _head(image: ImageStream) -> dict[str, Any]:
    head = {k: v for k, v in image.__dict__.items() if k not in ("data", "smask", "palette")}
    head["palette"] = image.palette.hex()
    head["size"] = len(image.data)
    if image.smask is not None:
        head["smask"] = _head(image.smask)
    return head


def pack(image: ImageStream) -> bytes:
    """`image` as bytes for the cache: one JSON line describing it and its soft mask (so the PDF's
    objects are made from that line alone), then its data and its soft mask's."""
    rest = image.smask.data if image.smask is not None else b""
    return json.dumps(_head(image), separators=(",", ":")).encode() + b"\n" + image.data + rest


def _from_head(head: Any, data: bytes) -> tuple[ImageStream, int]:
    fields = {f for f in ImageStream.__dataclass_fields__ if f not in ("data", "smask")} | {"size"}
    if not isinstance(head, dict) or not fields <= set(head) <= fields | {"smask"}:
        raise ValueError("not a packed picture")
    size = int(head["size"])
    if not size > 0 or (data and size > len(data)):
        raise ValueError("a packed picture cut short")
    smask, used = _from_head(head["smask"], data[size:]) if "smask" in head else (None, 0)
    image = ImageStream(
        **{k: v for k, v in head.items() if k not in ("size", "smask", "palette", "decode", "mask")},
        palette=bytes.fromhex(head["palette"]),
        decode=tuple(head["decode"]),
        mask=tuple(head["mask"]),
        data=data[:size],
        smask=smask,
    )
    return image, size + used


def unpack(data: bytes) -> ImageStream:
    """What `pack` wrote (ValueError for anything else)."""
    line, _, rest = data.partition(b"\n")
    image, used = _from_head(json.loads(line), rest)
    if used != len(rest):
        raise ValueError("a packed picture cut short")
    return image


def unpack_head(line: bytes) -> ImageStream:
    """What `pack` wrote, from its first line only: the picture and its soft mask without their data."""
    return _from_head(json.loads(line), b"")[0]


def pdf_object(doc: Any, image: ImageStream, again: Callable[[], ImageStream] | None = None) -> Any:
    """The image XObject of `image` for ReportLab document `doc`, its data written as it is under the
    filter and parameters it was made with. With `again` (which makes the same picture anew), the
    object holds no data: it is read through `again` when the PDF is written."""
    # lazy: ReportLab's document objects only when a picture is embedded
    from reportlab.pdfbase import pdfdoc

    from pnp.adapters.reportlab_save import lazy_stream

    N, A = pdfdoc.PDFName, pdfdoc.PDFArray
    entries: dict[str, Any] = {
        "Type": N("XObject"),
        "Subtype": N("Image"),
        "Width": image.width,
        "Height": image.height,
        "BitsPerComponent": image.bits,
        "Filter": N(image.filter),
    }
    if image.colour_space == "Indexed":
        lookup = doc.Reference(pdfdoc.PDFStream(pdfdoc.PDFDictionary({}), image.palette, filters=None))
        entries["ColorSpace"] = A([N("Indexed"), N("DeviceRGB"), len(image.palette) // 3 - 1, lookup])
    else:
        entries["ColorSpace"] = N(image.colour_space)
    if image.predictor_colours:
        entries["DecodeParms"] = pdfdoc.PDFDictionary(
            {
                "Predictor": 15,
                "Colors": image.predictor_colours,
                "BitsPerComponent": image.bits,
                "Columns": image.width,
            }
        )
    if image.decode:
        entries["Decode"] = A(list(image.decode))
    if image.mask:
        entries["Mask"] = A(list(image.mask))
    if image.smask is not None:
        entries["SMask"] = doc.Reference(pdf_object(doc, image.smask, _mask_of(again) if again else None))
    if again is None:
        return pdfdoc.PDFStream(pdfdoc.PDFDictionary(entries), image.data, filters=None)
    return lazy_stream(entries, lambda: again().data)


def _mask_of(again: Callable[[], ImageStream]) -> Callable[[], ImageStream]:
    """Makes the soft mask of what `again` makes."""

    def mask() -> ImageStream:
        made = again().smask
        if made is None:
            raise ValueError("a picture changed while its PDF was written")
        return made

    return mask
