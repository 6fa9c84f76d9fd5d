"""A sheet: how cards sit on the paper, as data (`pnp/sheets/*.yaml` ship with pnp, a project adds `sheets/`)."""
from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as fld
from typing import Literal

from pnp.data.format.schema import doc as _d

MAX_FOLD_GAP = 30.0  # mm


@dataclass(frozen=True)
class SheetSpec:
    """Where fronts and backs go, and what is printed round them; the grid itself follows from the paper,
    the card size, the bleed and the margin."""

    about: str = fld(metadata=_d("what the sheet is for and how to use it, in a sentence or two"))
    backs: Literal["duplex", "fold", "none"] = fld(default="duplex", metadata=_d(
        "duplex: backs on the following page, placed for the printer's flip (--duplex long|short); "
        "fold: backs on the same page, mirrored across a fold line (gutterfold); none: fronts only"))
    fold_gap: float = fld(default=4.0, metadata=_d(
        "mm between the fronts and the backs of a fold sheet; the fold line runs down its middle"))
    marks: Literal["crop", "none"] = fld(default="crop", metadata=_d(
        "crop: crop marks in the style --crop-marks asks for; none: no marks"))
    target: bool = fld(default=True, metadata=_d(
        "a registration target on duplex sheets (its backs copy has a 1 mm scale to read an offset off)"))
    line: int = 0
    name: str = fld(default="", metadata={"internal": True})
    source: str = fld(default="", metadata={"internal": True})   # the file it was read from, for messages

    def __post_init__(self) -> None:
        if not 0 <= self.fold_gap <= MAX_FOLD_GAP:
            raise ValueError(f"fold_gap: must be 0 to {MAX_FOLD_GAP:g} mm, not {self.fold_gap:g}")
        if not self.about.strip() or len(self.about) > 600:
            raise ValueError("about: say what the sheet is for in 1 to 600 characters")
