"""RGB colours to CMYK as the canvas draws them, through the ink-limited profile.

`CmykColours` is given to ReportLab as its colour hook (`enforceColorSpace`),
so every fill and stroke colour a drawing sets arrives as CMYK ink values and
the PDF carries no RGB at all. Colours go through LittleCMS (sRGB -> the
ink-limited profile); greys (equal red, green and blue) print on black ink
alone, at the tint that matches their lightness, so thin text and lines stay
sharp even when the press plates do not register exactly.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reportlab.lib.colors import CMYKColor, Color, toColor

from pnp.data.format.colours import to_hex
from pnp.data.format.errors import InputError, Problem
from pnp.output.colour.icc import (
    InkLimit,
    ProfileError,
    description_of,
    ink_limited_profile,
)


@dataclass(frozen=True)
class PrintColour:
    """What a CMYK print file needs: the output profile (ICC bytes), its name and the ink limit."""

    profile: bytes
    name: str
    limit: InkLimit

    @classmethod
    def build(cls, limit: InkLimit = InkLimit(), press: Path | None = None) -> PrintColour:  # noqa: B008 - a frozen value
        """The profile for CMYK output from `press` (default: Ghostscript's); exit 2 when it cannot be had."""
        from PIL import ImageCms  # lazy: only CMYK output converts colour

        from pnp.adapters import reportlab as rl  # lazy: only CMYK output writes PDF/X

        if not rl.ACTIVE:
            raise InputError([Problem("CMYK output", None, "--cmyk", rl.pdfx_unavailable())])
        try:
            profile = ink_limited_profile(limit, press)
        except (ProfileError, OSError, ImageCms.PyCMSError) as exc:
            where = str(press) if press else "CMYK output"
            raise InputError([Problem(where, None, "--press-profile" if press else "", str(exc))]) from None
        return cls(profile, description_of(profile), limit)


def _pixels(mode: str, values: list[tuple[int, ...]]):
    from PIL import Image  # lazy: only CMYK output converts colour

    image = Image.new(mode, (len(values), 1))
    image.frombytes(b"".join(bytes(v) for v in values))
    return image


class CmykColours:
    """Callable colour hook: any colour -> a CMYKColor within the ink limit (one per canvas)."""

    def __init__(self, colour: PrintColour):
        from PIL import ImageCms  # lazy: only CMYK output converts colour

        self._cms = ImageCms
        self._srgb = ImageCms.createProfile("sRGB")
        self._press = ImageCms.getOpenProfile(io.BytesIO(colour.profile))
        intent = ImageCms.Intent.RELATIVE_COLORIMETRIC
        self._to_cmyk = ImageCms.buildTransform(
            self._srgb, self._press, "RGB", "CMYK", renderingIntent=intent
        )
        self._grey = self._grey_ramp(intent)
        self._cache: dict[tuple[int, int, int], tuple[int, int, int, int]] = {}

    def _grey_ramp(self, intent: Any) -> list[int]:
        """Black-ink tint (0-255) for each grey level 0-255, matched on lightness L*."""
        lab = self._cms.createProfile("LAB")
        greys = self._cms.applyTransform(
            _pixels("RGB", [(v, v, v) for v in range(256)]),
            self._cms.buildTransform(self._srgb, lab, "RGB", "LAB", renderingIntent=intent),
        )
        tints = self._cms.applyTransform(
            _pixels("CMYK", [(0, 0, 0, k) for k in range(256)]),
            self._cms.buildTransform(self._press, lab, "CMYK", "LAB", renderingIntent=intent),
        )
        assert greys is not None and tints is not None  # only None when converting in place
        want, have = greys.tobytes()[::3], tints.tobytes()[::3]
        return [min(range(256), key=lambda k: (abs(have[k] - w), k)) for w in want]

    @property
    def key(self) -> str:
        """What the pictures this hook converts depend on (the output profile), for the disk cache."""
        return hashlib.sha256(self._press.tobytes()).hexdigest()[:24]

    def picture(self, image: Any) -> Any:
        """An RGB picture (a Pillow image) as CMYK inks through the output profile; a PDF/X-1a file
        allows no transparency, so a picture with alpha arrives flattened onto white paper."""
        # lazy: Pillow only for CMYK pictures
        from PIL import Image

        from pnp.adapters import pillow  # lazy: only CMYK output converts pictures

        out = Image.new("CMYK", image.size)
        out.frombytes(pillow.apply_transform(self._to_cmyk, image.convert("RGB"), "CMYK"))
        return out

    def cmyk(self, rgb: tuple[int, int, int]) -> tuple[int, int, int, int]:
        """Ink values (0-255 each) for an 8-bit sRGB colour."""
        if rgb not in self._cache:
            if rgb[0] == rgb[1] == rgb[2]:
                self._cache[rgb] = (0, 0, 0, self._grey[rgb[0]])
            else:
                out = self._convert(rgb)
                self._cache[rgb] = (out[0], out[1], out[2], out[3])
        return self._cache[rgb]

    def _convert(self, rgb: tuple[int, int, int]) -> bytes:
        """One colour through LittleCMS (the Pillow adapter: without copying the profile each time)."""
        from pnp.adapters import pillow  # lazy: only CMYK output converts colour

        return pillow.apply_transform(self._to_cmyk, _pixels("RGB", [rgb]), "CMYK")

    def __call__(self, value: Any) -> CMYKColor:
        c = toColor(value)
        if getattr(c, "alpha", 1) < 1:
            raise ValueError(
                f"a see-through colour ({to_hex(c)}: an alpha or an element's opacity below 1) cannot go "
                "into PDF/X-1a (--cmyk allows no transparency): make the colour opaque for print-shop "
                "output (opacity: 1)"
            )
        if isinstance(c, CMYKColor):
            return c
        assert isinstance(c, Color)
        red, green, blue = (max(0, min(255, round(v * 255))) for v in (c.red, c.green, c.blue))
        ink = self.cmyk((red, green, blue))
        return CMYKColor(*(v / 255 for v in ink), alpha=c.alpha)
