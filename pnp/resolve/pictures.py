"""The project's pictures, checked and placed: PNG/JPEG and SVG files named by a design.

A picture is named by a path inside the project folder (`art/moth.png`) and
placed into a box with `fit: cover` (fills the box, cropped) or `contain`
(whole picture, centred). `Pictures` reads each file's header (or the SVG) once,
refuses what cannot be drawn, and records each raster placement's effective
resolution for `pnp check`'s warnings. Drawing them is `pnp.draw.images`.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnp.data.format.limits import MAX_PICTURE_PIXELS
from pnp.resolve.svg_reading import check_svg, read_svg

PICTURE_SUFFIXES = (".png", ".jpg", ".jpeg", ".svg")
FITS = ("cover", "contain")
_OTHER_IMAGES = (".gif", ".webp", ".bmp", ".tif", ".tiff", ".pdf", ".eps")
MIN_DPI = 300.0
MAX_USEFUL_DPI = 1200.0  # above this at its printed size a picture only makes the PDF bigger
_MM = 72 / 25.4


@dataclass(frozen=True)
class Picture:
    """An image file of the project, as a design names it, and how it fills its box."""

    name: str  # as written in the database, for messages
    path: Path  # resolved, inside the project
    fit: str = "cover"
    missing: bool = False  # a draft's picture not made yet: a labelled placeholder stands in

    @property
    def is_svg(self) -> bool:
        return self.path.suffix.lower() == ".svg"


@dataclass(frozen=True)
class Placed:
    """A raster picture as printed: its effective resolution and printed size."""

    name: str
    dpi: float
    w_mm: float
    h_mm: float

    def warning(self) -> str:
        if self.dpi > MAX_USEFUL_DPI:
            return (
                f"{self.name}: {self.dpi:.0f} dpi at its printed size ({self.w_mm:.1f} x {self.h_mm:.1f} mm); "
                f"600 dpi is plenty: `pnp build --max-dpi 600` prints it smaller and faster"
            )
        return (
            f"{self.name}: {self.dpi:.0f} dpi at its printed size ({self.w_mm:.1f} x {self.h_mm:.1f} mm); "
            f"{MIN_DPI:.0f} dpi or more prints sharp"
        )


def is_picture_name(value: Any) -> bool:
    """Whether a slot value names an image file rather than a symbol."""
    return isinstance(value, str) and value.strip().lower().endswith(PICTURE_SUFFIXES)


def picture_spec(value: Any) -> tuple[str, str] | None:
    """(file, fit) from a slot value: 'art/x.png' or {file: art/x.png, fit: contain}; None if not a picture."""
    if isinstance(value, Mapping):
        unknown = set(value) - {"file", "fit"}
        if unknown:
            raise ValueError(f"unknown key {sorted(unknown)[0]!r} (an image takes file and fit)")
        file = str(value.get("file") or "").strip()
        fit = str(value.get("fit") or "cover").strip()
        if fit not in FITS:
            raise ValueError(f"fit must be cover or contain, found {fit!r}")
        if not file:
            return None
        if not is_picture_name(file):
            raise ValueError(f"{file!r} is not a picture (use a .png, .jpg, .jpeg or .svg file)")
        return file, fit
    if is_picture_name(value):
        return str(value).strip(), "cover"
    if isinstance(value, str) and ("/" in value or value.strip().lower().endswith(_OTHER_IMAGES)):
        raise ValueError(f"{value!r} is not a picture (use a .png, .jpg, .jpeg or .svg file)")
    return None


@dataclass
class Pictures:
    """The pictures and own symbols of one project, as read so far. Mutable by design: what it has
    read, and the placement record."""

    root: Path
    symbols: Mapping[str, Path] = field(default_factory=dict)
    max_dpi: float | None = None  # pictures above this at their printed size are drawn downsampled
    draft: bool = False  # a missing picture is a placeholder and a warning, not an error
    missing: dict[str, None] = field(default_factory=dict)  # the draft's missing pictures, in order met
    placed: dict[str, Placed] = field(default_factory=dict)  # picture name -> lowest-resolution placement
    sharpest: dict[str, Placed] = field(default_factory=dict)  # picture name -> highest-resolution placement
    _pixels: dict[Path, tuple[int, int]] = field(default_factory=dict)
    _svgs: dict[Path, Any] = field(default_factory=dict)
    _named: dict[tuple[str, str], Picture | str] = field(default_factory=dict)  # a picture or its problem

    @classmethod
    def for_project(
        cls, root: Path, symbols: tuple[str, ...] = (), max_dpi: float | None = None, draft: bool = False
    ) -> Any:
        folder = root / "art" / "symbols"
        return cls(root.resolve(), {name: folder / f"{name}.svg" for name in symbols}, max_dpi, draft)

    def picture(self, value: Any) -> Picture | None:
        """A checked picture from a slot value (None when it names none); ValueError says what is wrong."""
        spec = picture_spec(value)
        if spec is None:
            return None
        found = self._named.get(spec)
        if found is None:
            try:
                found = self._named[spec] = self._checked(*spec)
            except ValueError as exc:
                found = self._named[spec] = str(exc)
        if isinstance(found, str):
            raise ValueError(found)
        return found

    def _checked(self, name: str, fit: str) -> Picture:
        """The picture `name` resolved inside the project and its file read (once per name and fit)."""
        try:
            path = (self.root / name).resolve()
        except (OSError, RuntimeError):  # a symlink loop, a name the file system cannot take
            raise ValueError(f"{name}: cannot be read (a symbolic link that leads back to itself?)") from None
        if not path.is_relative_to(self.root):
            raise ValueError(f"{name}: pictures must be files inside the project folder")
        if not path.is_file() and self.draft and not path.exists():
            self.missing[name] = None
            return Picture(name, path, fit, missing=True)
        if not path.is_file():
            raise ValueError(f"{name}: no such file")
        pic = Picture(name, path, fit)
        if pic.is_svg:
            self.drawing(path, name)
        else:
            self.pixels(path, name)
        return pic

    def pixels(self, path: Path, name: str) -> tuple[int, int]:
        if path not in self._pixels:
            from PIL import Image, UnidentifiedImageError  # Pillow comes with ReportLab

            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", Image.DecompressionBombWarning)  # pnp's own bound speaks
                    im = Image.open(path)  # reads the header only: the size is known before decoding
                with im:
                    width, height = im.size
                    if width * height > MAX_PICTURE_PIXELS:
                        raise ValueError(
                            f"{name}: {width} x {height} pixels is more than pnp draws "
                            f"({MAX_PICTURE_PIXELS // 1_000_000} million); scale the picture down"
                        )
                    im.verify()
                    self._pixels[path] = im.size
            except (OSError, UnidentifiedImageError, SyntaxError, Image.DecompressionBombError) as exc:
                raise ValueError(f"{name}: not a readable PNG or JPEG image ({exc})") from None
        return self._pixels[path]

    def drawing(self, path: Path, name: str) -> Any:
        if path not in self._svgs:
            # lazy: svglib (and lxml) only for a project with SVG pictures
            from svglib.svglib import (
                svg2rlg,  # lazy: svglib loads only for projects that use SVG
            )

            log = logging.getLogger("svglib")
            level = log.level
            log.setLevel(logging.CRITICAL)  # its complaints become our one error below
            check_svg(path, name)
            try:
                drawing = read_svg(svg2rlg, path, self.root)
            except Exception as exc:  # svglib raises whatever its XML and CSS parsers raise
                raise ValueError(f"{name}: not a readable SVG file ({type(exc).__name__})") from None
            finally:
                log.setLevel(level)
            if drawing is None or not drawing.width or not drawing.height:
                raise ValueError(f"{name}: not a readable SVG file (no picture or no size)")
            self._svgs[path] = drawing
        return self._svgs[path]

    def place(self, pic: Picture, w: float, h: float) -> float | None:
        """Note `pic` placed in a box of w x h points with its fit: its effective resolution (None for
        an SVG, a draft's missing picture or an empty box)."""
        if w <= 0 or h <= 0 or pic.missing or pic.is_svg:
            return None
        iw, ih = map(float, self.pixels(pic.path, pic.name))
        k = (max if pic.fit == "cover" else min)(w / iw, h / ih)
        return self._record(pic.name, iw, ih, iw * k, ih * k)

    def _record(self, name: str, iw: float, ih: float, pw: float, ph: float) -> float:
        """Note a placement's resolution (the lowest and the highest of each picture); returns it."""
        dpi = min(iw / (pw / 72), ih / (ph / 72))
        here = Placed(name, dpi, pw / _MM, ph / _MM)
        if name not in self.placed or dpi < self.placed[name].dpi:
            self.placed[name] = here
        if name not in self.sharpest or dpi > self.sharpest[name].dpi:
            self.sharpest[name] = here
        return dpi

    def absorb(
        self, placed: Mapping[str, Placed], sharpest: Mapping[str, Placed], missing: Mapping[str, None]
    ) -> None:
        """Take in what another Artwork recorded (a worker that drew some of the cards), as `_record` would."""
        self.missing.update(missing)
        for name, at in placed.items():
            if name not in self.placed or at.dpi < self.placed[name].dpi:
                self.placed[name] = at
        for name, at in sharpest.items():
            if name not in self.sharpest or at.dpi > self.sharpest[name].dpi:
                self.sharpest[name] = at

    def warnings(self) -> list[str]:
        """One line per raster picture printed below MIN_DPI somewhere, or far above what prints
        (MAX_USEFUL_DPI) when --max-dpi does not bring it down, in name order."""
        low = [p for p in self.placed.values() if p.dpi < MIN_DPI - 0.5]
        high = [p for p in self.sharpest.values() if p.dpi > MAX_USEFUL_DPI and not self.max_dpi]
        missing = [
            f"{name}: no such file yet; a placeholder is printed (--draft)" for name in sorted(self.missing)
        ]
        return missing + [p.warning() for p in sorted(low + high, key=lambda p: (p.name, p.dpi))]
