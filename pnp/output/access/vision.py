"""Colour vision and colour difference: how pixels look to a reader with a colour vision deficiency.

Dichromacy is simulated with the model of Machado, Oliveira and Fernandes (2009,
"A physiologically-based model for simulation of color vision deficiency", IEEE
TVCG 15(6)) at severity 1.0, applied to linear sRGB as the authors do;
achromatopsia (no cone colour at all) keeps each pixel's CIE luminance Y only.
Differences are CIEDE2000 (Sharma, Wu and Dalal 2005) in CIELAB under D65;
contrast is the WCAG 2 ratio of relative luminances.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray
from PIL import Image

from pnp.output.access import VISIONS

Array = NDArray[np.floating[Any]]

# Machado et al. 2009, the supplementary table's matrices at severity 1.0 (linear RGB)
MACHADO: dict[str, tuple[tuple[float, float, float], ...]] = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
LUMINANCE = (0.2126, 0.7152, 0.0722)  # linear sRGB to CIE Y (D65)
_SRGB_TO_XYZ = np.array(
    [[0.4124564, 0.3575761, 0.1804375], [0.2126729, 0.7151522, 0.0721750], [0.0193339, 0.1191920, 0.9503041]]
)
_WHITE = np.array([0.95047, 1.0, 1.08883])  # D65


def to_linear(srgb: Array) -> Array:
    """sRGB values 0..1 to linear light (IEC 61966-2-1)."""
    return np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)


def to_srgb(linear: Array) -> Array:
    """Linear light 0..1 to sRGB values 0..1."""
    linear = np.clip(linear, 0.0, 1.0)
    return np.where(linear <= 0.0031308, linear * 12.92, 1.055 * linear ** (1 / 2.4) - 0.055)


def simulate(rgb: Array, vision: str) -> Array:
    """`rgb` (sRGB 0..1, any shape ending in 3) as a reader with `vision` sees it, sRGB 0..1."""
    linear = to_linear(np.asarray(rgb, dtype=np.float64))
    if vision == "achromatopsia":
        y = linear @ np.array(LUMINANCE)
        seen = np.repeat(y[..., None], 3, axis=-1)
    elif vision in MACHADO:
        seen = linear @ np.array(MACHADO[vision]).T
    else:
        raise ValueError(f"unknown vision {vision!r}: one of {', '.join(VISIONS)}")
    return to_srgb(seen)


def simulate_image(image: Image.Image, vision: str) -> Image.Image:
    """A picture as a reader with `vision` sees it (RGB in, RGB out)."""
    rgb = np.asarray(image.convert("RGB"), dtype=np.float64) / 255.0
    out = np.rint(simulate(rgb, vision) * 255.0).astype(np.uint8)
    return Image.fromarray(out, "RGB")


def pixels(image: Image.Image) -> Array:
    """A picture's pixels as sRGB 0..1, height x width x 3 (single precision: a deck's sides are kept
    at once)."""
    return np.asarray(image.convert("RGB"), dtype=np.float32) / np.float32(255.0)


def lab(srgb: Array) -> Array:
    """sRGB 0..1 to CIELAB (D65, 2 degree observer)."""
    xyz = to_linear(srgb) @ _SRGB_TO_XYZ.T / _WHITE
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], -1)


def ciede2000(lab1: Array, lab2: Array) -> Array:
    """The CIEDE2000 colour difference of CIELAB values (kL = kC = kH = 1), element by element."""
    l1, a1, b1 = np.moveaxis(np.asarray(lab1, dtype=np.float64), -1, 0)
    l2, a2, b2 = np.moveaxis(np.asarray(lab2, dtype=np.float64), -1, 0)
    c_bar = (np.hypot(a1, b1) + np.hypot(a2, b2)) / 2
    g = 0.5 * (1 - np.sqrt(c_bar**7 / (c_bar**7 + 25.0**7)))
    a1p, a2p = a1 * (1 + g), a2 * (1 + g)
    c1p, c2p = np.hypot(a1p, b1), np.hypot(a2p, b2)
    h1p = np.degrees(np.arctan2(b1, a1p)) % 360
    h2p = np.degrees(np.arctan2(b2, a2p)) % 360
    chroma0 = c1p * c2p == 0
    dh = h2p - h1p
    dh = np.where(dh > 180, dh - 360, np.where(dh < -180, dh + 360, dh))
    dh = np.where(chroma0, 0.0, dh)
    d_l, d_c = l2 - l1, c2p - c1p
    d_h = 2 * np.sqrt(c1p * c2p) * np.sin(np.radians(dh / 2))
    l_bar, cp_bar = (l1 + l2) / 2, (c1p + c2p) / 2
    h_sum = h1p + h2p
    h_bar = np.where(
        np.abs(h1p - h2p) <= 180, h_sum / 2, np.where(h_sum < 360, (h_sum + 360) / 2, (h_sum - 360) / 2)
    )
    h_bar = np.where(chroma0, h_sum, h_bar)
    t = (
        1
        - 0.17 * np.cos(np.radians(h_bar - 30))
        + 0.24 * np.cos(np.radians(2 * h_bar))
        + 0.32 * np.cos(np.radians(3 * h_bar + 6))
        - 0.20 * np.cos(np.radians(4 * h_bar - 63))
    )
    d_theta = 30 * np.exp(-(((h_bar - 275) / 25) ** 2))
    r_c = 2 * np.sqrt(cp_bar**7 / (cp_bar**7 + 25.0**7))
    s_l = 1 + 0.015 * (l_bar - 50) ** 2 / np.sqrt(20 + (l_bar - 50) ** 2)
    s_c = 1 + 0.045 * cp_bar
    s_h = 1 + 0.015 * cp_bar * t
    r_t = -np.sin(np.radians(2 * d_theta)) * r_c
    return np.sqrt((d_l / s_l) ** 2 + (d_c / s_c) ** 2 + (d_h / s_h) ** 2 + r_t * (d_c / s_c) * (d_h / s_h))


def luminance(srgb: Array) -> Array:
    """WCAG 2 relative luminance of sRGB 0..1 values (its own 0.03928 knee, as the standard writes it)."""
    srgb = np.asarray(srgb, dtype=np.float64)
    linear = np.where(srgb <= 0.03928, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)
    return linear @ np.array(LUMINANCE)


def contrast(lum1: Array | float, lum2: Array | float) -> Array:
    """The WCAG 2 contrast ratio of two relative luminances, 1 to 21."""
    hi, lo = np.maximum(lum1, lum2), np.minimum(lum1, lum2)
    return np.asarray((hi + 0.05) / (lo + 0.05))
