"""Image sizes: where a card's trim sits in a picture, per print-shop profile."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pnp.geometry.sizes import Size

MM_PER_INCH = 25.4
SNAP_IN = 0.125  # shops size cards in 1/8 inches ...
SNAP_TOLERANCE = 1.0  # ... and a metric size within 1 mm of one is that size


@dataclass(frozen=True)
class Profile:
    """How a shop wants a card image: bleed per side (inches) and whether sizes snap to inches."""

    name: str
    bleed_in: float
    snap: bool
    doc: str
    cmyk: bool = False  # print files in CMYK (PDF/X) rather than RGB


PROFILES: dict[str, Profile] = {
    "plain": Profile("plain", 0.0, False, "the trimmed card at its exact metric size"),
    "tgc": Profile(
        "tgc", 0.125, True, "The Game Crafter: 1/8 in bleed per side (poker 825 x 1125 px at 300 dpi)"
    ),
    "mpc": Profile(
        "mpc", 0.12, True, "MakePlayingCards: 36 px bleed per side at 300 dpi (poker 822 x 1122 px)"
    ),
    "drivethru": Profile(
        "drivethru", 0.125, True, "DriveThruCards: 1/8 in bleed per side, CMYK PDF/X-1a", cmyk=True
    ),
}


MAX_EXPORT_PIXELS = 150_000_000  # one exported picture (a 450 MB RGB bitmap)


@dataclass(frozen=True)
class Frame:
    """A picture's size in pixels and where the card's trim lies in it (pixels from lower-left)."""

    width: int
    height: int
    trim: tuple[float, float, float, float]  # left, bottom, width, height
    dpi: float

    @property
    def page_pt(self) -> tuple[float, float]:
        """PDF page size that rasterises to width x height at `dpi`."""
        k = 72.0 / self.dpi
        return self.width * k, self.height * k

    def placement(self, card: Size) -> tuple[float, float, float, float]:
        """(x, y, s, s): where the card's corner goes (points) and its one scale for both axes.

        The card keeps its own proportions: scaled to fit the trim, centred in
        it; where a shop's trim is a hair longer on one axis, the card's bleed
        art fills the difference.
        """
        k = 72.0 / self.dpi
        left, bottom, w, h = self.trim
        native_w, native_h = card.w / MM_PER_INCH * self.dpi, card.h / MM_PER_INCH * self.dpi
        s = min(w / native_w, h / native_h)
        return (left + (w - native_w * s) / 2) * k, (bottom + (h - native_h * s) / 2) * k, s, s

    def bleed_mm(self, card: Size) -> float:
        """Bleed the drawing needs (card millimetres) to cover the whole picture around the card."""
        x, y, s, _ = self.placement(card)
        k = 72.0 / self.dpi
        drawn_w, drawn_h = card.w / MM_PER_INCH * self.dpi * s, card.h / MM_PER_INCH * self.dpi * s
        x, y = x / k, y / k
        margin = max(x, y, self.width - x - drawn_w, self.height - y - drawn_h, 0.0)
        return margin / self.dpi * MM_PER_INCH / s + 0.5


def shop_inches(size: Size) -> tuple[float, float]:
    """A card's trim in inches as shops size it: 63 x 88 mm is their 2.5 x 3.5 in poker card."""

    def snap(mm: float) -> float:
        inches = mm / MM_PER_INCH
        near = round(inches / SNAP_IN) * SNAP_IN
        return near if abs(near * MM_PER_INCH - mm) <= SNAP_TOLERANCE else inches

    return snap(size.w), snap(size.h)


def component_frame(game: Any, comp: Any, profile: Profile, dpi: float) -> Frame:
    """`profile_frame` for a component's cards; a picture too large is an input problem at its card_size."""
    # lazy: errors and sizes only for exports, not for the profiles table
    from pnp.data.format.errors import InputError, Problem
    from pnp.geometry.sizes import card_size

    try:
        return profile_frame(card_size(comp.card_size), profile, dpi)
    except ValueError as exc:
        raise InputError([Problem(game.where, comp.line, f"{comp.key}.card_size", str(exc))]) from None


def profile_frame(size: Size, profile: Profile, dpi: float) -> Frame:
    """The picture a profile asks for: trim plus bleed, in whole pixels at `dpi`."""
    if profile.snap:
        w_in, h_in = shop_inches(size)
    else:
        w_in, h_in = size.w / MM_PER_INCH, size.h / MM_PER_INCH
    bleed = profile.bleed_in * dpi
    width = round(w_in * dpi + 2 * bleed)
    height = round(h_in * dpi + 2 * bleed)
    if width * height > MAX_EXPORT_PIXELS:
        raise ValueError(
            f"a {size.label()} card at {dpi:g} dpi is {width} x {height} pixels, more than pnp "
            f"draws in one picture ({MAX_EXPORT_PIXELS // 1_000_000} million); use a lower --dpi"
        )
    return Frame(width, height, (bleed, bleed, width - 2 * bleed, height - 2 * bleed), dpi)


def cell_frame(size: Size, max_w: int, max_h: int) -> Frame:
    """The largest trimmed picture of a card (no bleed) fitting max_w x max_h pixels."""
    k = min(max_w / size.w, max_h / size.h)  # pixels per mm
    width, height = max(1, int(size.w * k)), max(1, int(size.h * k))
    return Frame(width, height, (0.0, 0.0, float(width), float(height)), k * MM_PER_INCH)
