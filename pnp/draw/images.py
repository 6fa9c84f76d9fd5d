"""Artwork from the project's files: PNG/JPEG pictures, SVG pictures and the project's own SVG symbols.

A picture is named by a path inside the project folder (`art/moth.png`) and
placed into a box with `fit: cover` (fills the box, cropped) or `contain`
(whole picture, centred). Raster images are embedded once per PDF, at their
own resolution, under a name made from their bytes (so a PDF never depends on
where the project lives); SVG files stay vector, drawn once into a form
XObject. `Artwork` belongs to one canvas: it caches what it has read and
records each raster placement's effective resolution for `pnp check`.
"""

from __future__ import annotations

import copy
import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reportlab.lib.colors import Color
from reportlab.pdfgen.canvas import Canvas

from pnp.adapters import reportlab as rl
from pnp.adapters import reportlab_save as rls
from pnp.draw import embed
from pnp.draw.pdf import place_form
from pnp.resolve.pictures import Picture, Pictures


@dataclass
class Artwork(Pictures):
    """The pictures and own symbols one canvas draws (`Pictures` read and checked them). Mutable by
    design: caches of what this canvas holds."""

    _digests: dict[Path, str] = field(default_factory=dict)  # SHA-256 of each picture file, read once

    def digest(self, path: Path) -> str:
        """The SHA-256 of the file's bytes, hashed once: its name in the PDF and its cache key."""
        if path not in self._digests:
            # lazy: the cache module only for a PDF with pictures
            from pnp.data.store.cache import file_digest

            self._digests[path] = file_digest(path)
        return self._digests[path]

    def key(self, path: Path) -> str:
        """A short name from the file's bytes: the same picture gets the same name in any folder."""
        return self.digest(path)[:16]

    # -- drawing -------------------------------------------------------------
    def draw(
        self,
        c: Canvas,
        pic: Picture,
        x: float,
        y: float,
        w: float,
        h: float,
        shape: str = "rect",
        radius: float = 0.0,
    ) -> None:
        """Place `pic` into the box (points) with its fit, clipped to the box's shape (rect, round, ellipse)."""
        if w <= 0 or h <= 0:
            return
        if pic.missing:
            from pnp.draw.placeholder import placeholder  # lazy: only a draft's missing picture

            placeholder(c, pic.name, x, y, w, h)
            return
        if pic.is_svg:
            drawing = self.drawing(pic.path, pic.name)
            iw, ih = float(drawing.width), float(drawing.height)
        else:
            iw, ih = map(float, self.pixels(pic.path, pic.name))
        k = (max if pic.fit == "cover" else min)(w / iw, h / ih)
        pw, ph = iw * k, ih * k
        px, py = x + (w - pw) / 2, y + (h - ph) / 2
        c.saveState()
        clip = c.beginPath()
        if shape == "ellipse":
            clip.ellipse(x, y, w, h)
        elif shape == "round":
            clip.roundRect(x, y, w, h, radius)
        else:
            clip.rect(x, y, w, h)
        c.clipPath(clip, stroke=0, fill=0)
        if pic.is_svg:
            place_form(c, self._svg_form(c, pic.path, None), px, py, k)
        else:
            c.transform(pw, 0, 0, ph, px, py)
            dpi = self._record(pic.name, iw, ih, pw, ph)
            self._image(
                c, pic.path, self._target(iw, ih, pw, ph) if self.max_dpi and dpi > self.max_dpi else None
            )
        c.restoreState()

    def symbol(
        self,
        c: Canvas,
        name: str,
        cx: float,
        cy: float,
        size: float,
        fill: Color | None,
        stroke: Color | None = None,
        stroke_width: float | None = None,
    ) -> None:
        """An own symbol (art/symbols/NAME.svg) as a one-colour silhouette fitted to a size x size box,
        with an optional outline around it, counted inside the box, as built-in symbols have."""
        if (fill is None and stroke is None) or size <= 0:
            return
        path = self.symbols[name]
        drawing = self.drawing(path, f"art/symbols/{name}.svg")
        dw, dh = float(drawing.width), float(drawing.height)
        sw = (
            0.0
            if stroke is None
            else max(0.25, size * 0.035)
            if stroke_width is None
            else float(stroke_width)
        )
        k = max(size - 2 * sw, size * 0.5) / max(dw, dh)
        x, y = cx - dw * k / 2, cy - dh * k / 2
        if stroke is not None and sw > 0:  # the silhouette in the outline colour, grown by the outline width
            place_form(c, self._svg_form(c, path, stroke, round(sw / k, 3)), x, y, k)
        if fill is not None:
            place_form(c, self._svg_form(c, path, fill), x, y, k)

    def _svg_form(self, c: Canvas, path: Path, ink: Color | None, grow: float = 0.0) -> str:
        """The SVG drawn once per PDF (per colour and outline) as a form XObject at its own size."""
        tint = "" if ink is None else f"{ink.red:.4f},{ink.green:.4f},{ink.blue:.4f}"
        form = "Svg" + hashlib.sha256(f"{self.key(path)}|{tint}|{grow:g}".encode()).hexdigest()[:12]
        if not c.hasForm(form):
            # lazy: ReportLab's graphics renderer only for an SVG
            from reportlab.graphics import renderPDF

            drawing = self.drawing(path, path.name)
            if ink is not None:
                drawing = _tinted(drawing, ink, grow)
            c.beginForm(form, -grow, -grow, float(drawing.width) + grow, float(drawing.height) + grow)
            # svglib's renderer starts from Helvetica; start it from the canvas's own (embedded) font
            # instead, so the PDF never refers to a font it does not carry
            renderPDF.draw(
                _with_font(drawing, rl.current_font(c, getattr(c, "pnp_font", "Helvetica"))), c, 0, 0
            )
            rl.end_form_compressed(c, form)  # with its gradients' shadings in the form's resources
        return form

    def _image(self, c: Canvas, path: Path, size: tuple[int, int] | None = None) -> None:
        """The picture in the unit square (downsampled to `size` pixels when given): an image XObject
        registered once per PDF and named by its bytes, its data prepared once ever (the adapter), or
        drawImage, which ReportLab re-encodes."""
        convert = getattr(rl.colour_hook(c), "picture", None)  # CMYK output: pictures in inks too
        name = "Img" + self.key(path) + (f"x{size[0]}x{size[1]}" if size else "") + ("k" if convert else "")
        if rls.register_image_stream(c, name, lambda doc: self._pdf_object(doc, path, size, convert)):
            c.doForm(name)
        else:
            c.drawImage(str(path), 0, 0, 1, 1, mask="auto")

    def _pdf_object(self, doc: Any, path: Path, size: tuple[int, int] | None, convert: Any) -> Any:
        """The picture's image XObject, described from the first line of its cache entry; its data (and
        its soft mask's) read once, as the PDF is written, so a deck of full-art cards never holds
        all its pictures at once."""
        # lazy: the cache's blob shelf only for a PDF with pictures
        from pnp.data.store.cache import peek_line

        line = peek_line("picture", self._ident(path, size, convert))
        meta = embed.unpack_head(line) if line else self.stream(path, size, convert)
        return embed.pdf_object(
            doc, meta, _Once(lambda: self.stream(path, size, convert), 1 + bool(meta.smask))
        )

    def _ident(self, path: Path, size: tuple[int, int] | None, convert: Any) -> tuple:
        """What the picture's cache entry is keyed by: its bytes and how it is prepared."""
        if convert is None:
            return (self.digest(path), size)
        return (self.digest(path), size, "cmyk", getattr(getattr(convert, "__self__", None), "key", ""))

    def stream(self, path: Path, size: tuple[int, int] | None = None, convert: Any = None) -> Any:
        """The picture as a PDF image stream (`pnp.draw.embed`): PNG data passed through, the rest
        converted (downsampled to `size`, in CMYK inks by `convert`), made once for its bytes and
        the options, and kept in the disk cache."""
        # lazy: the cache's blob shelf only for a picture not yet prepared
        from pnp.data.store.cache import blob

        data = path.read_bytes  # the bytes read only on a cache miss
        if convert is not None:
            made = lambda: embed.pack(embed.in_inks(data(), convert, size))  # noqa: E731
        elif size:
            made = lambda: embed.pack(embed.downsampled(data(), size))  # noqa: E731
        else:
            made = lambda: embed.pack(embed.prepare(data()))  # noqa: E731
        return embed.unpack(blob("picture", self._ident(path, size, convert), made))

    def _target(self, iw: float, ih: float, pw: float, ph: float) -> tuple[int, int]:
        """The pixel size at which a picture printed pw x ph points has max_dpi."""
        k = float(self.max_dpi or 0) / 72
        return max(1, min(int(iw), round(pw * k))), max(1, min(int(ih), round(ph * k)))


class _Once:
    """Makes a picture when the PDF first asks for its data and hands the same one to its `uses`
    askers (the picture and its soft mask), then lets it go."""

    def __init__(self, make: Any, uses: int):
        self.make, self.uses, self.held = make, uses, None

    def __call__(self) -> Any:
        made = self.held or self.make()
        self.uses -= 1
        self.held = made if self.uses > 0 else None
        return made


def _with_font(drawing: Any, font: str) -> Any:
    """A copy of the drawing whose text (and the renderer's starting state) uses `font`: the PDF
    embeds that font, while the SVG's own font names (Helvetica, Arial...) it would not carry."""

    out = copy.deepcopy(drawing)
    out.__dict__["initialFontName"] = font  # the renderer reads its starting state from initial* attributes
    stack = [out]
    while stack:
        node = stack.pop()
        if getattr(node, "fontName", None) is not None:
            node.fontName = font
        stack.extend(getattr(node, "contents", []) or [])
    return out


def _tinted(drawing: Any, ink: Color, grow: float = 0.0) -> Any:
    """A copy of an SVG drawing with every painted fill and stroke in `ink`: a one-colour silhouette.

    With `grow` (drawing units) every painted shape is also stroked twice that wide, so the
    silhouette swells by `grow` all round: the outline drawn under the filled symbol.
    """

    out = copy.deepcopy(drawing)
    scale = 1.0
    for node in getattr(out, "contents", []) or []:  # svglib's top group maps SVG units to points
        transform = getattr(node, "transform", None)
        if transform:
            scale = abs(float(transform[0])) or 1.0
            break
    stack = [out]
    while stack:
        node = stack.pop()
        filled = getattr(node, "fillColor", None) is not None
        stroked = getattr(node, "strokeColor", None) is not None
        if filled:
            node.fillColor = ink
        if stroked:
            node.strokeColor = ink
        if grow and (filled or stroked):
            node.strokeColor = ink
            node.strokeWidth = (
                float(getattr(node, "strokeWidth", 0) or 0) if stroked else 0.0
            ) + 2 * grow / scale
            node.strokeLineJoin = 1
        stack.extend(getattr(node, "contents", []) or [])
    return out
