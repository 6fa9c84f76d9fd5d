"""A sheet: how cards sit on the paper, as data (`pnp/sheets/*.yaml` ship with pnp, a project adds `sheets/`)."""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as fld
from typing import Literal

from pnp.data.format.schema import doc as _d

MAX_FOLD_GAP = 30.0  # mm


@dataclass(frozen=True)
class Registration:
    """A cutting machine's registration marks, drawn by pnp where the machine's software looks for them
    (set the same values there): a filled square in the top-left corner and L-shaped corner marks at
    the top right and bottom left, each `inset` mm from the paper's edges."""

    style: Literal["silhouette"] = fld(metadata=_d("silhouette: Silhouette Studio's Type 1 marks"))
    inset: float = fld(default=10.0, metadata=_d("mm from the paper's edges to the marks' outer edges"))
    length: float = fld(default=20.0, metadata=_d("mm each arm of an L mark runs"))
    thickness: float = fld(default=0.5, metadata=_d("mm each arm of an L mark is thick"))
    square: float = fld(default=5.0, metadata=_d("mm each side of the top-left square"))
    clearance: float = fld(default=3.0, metadata=_d("mm round the marks kept free of cards and print"))

    @property
    def zone(self) -> float:
        """mm from each marked corner's two edges that nothing else may use."""
        return self.inset + max(self.length, self.square) + self.clearance

    @property
    def frame(self) -> float:
        """mm from every edge the cards, their bleed and their cut lines keep: inside the frame the marks
        span (their outer edges, `inset` mm in), `clearance` mm clear of it."""
        return self.inset + self.clearance

    def __post_init__(self) -> None:
        for name in ("inset", "length", "thickness", "square", "clearance"):
            value = getattr(self, name)
            if not 0 <= value <= 60:
                raise ValueError(f"{name}: must be 0 to 60 mm, not {value:g}")


@dataclass(frozen=True)
class SheetSpec:
    """Where fronts and backs go, and what is printed round them; the grid itself follows from the paper,
    the card size, the bleed and the margin."""

    about: str = fld(metadata=_d("what the sheet is for and how to use it, in a sentence or two"))
    backs: Literal["duplex", "fold", "none"] = fld(
        default="duplex",
        metadata=_d(
            "duplex: backs on the following page, placed for the printer's flip (--duplex long|short); "
            "fold: backs on the same page, mirrored across a fold line (gutterfold); none: fronts only"
        ),
    )
    fold_gap: float = fld(
        default=16.0,
        metadata=_d(
            "mm between the fronts' and the backs' trims on a fold sheet; the fold line runs down its "
            "middle, and at least 2 x (bleed + 5) is used, so the fold keeps 5 mm from any bleed"
        ),
    )
    marks: Literal["crop", "none"] = fld(
        default="crop", metadata=_d("crop: crop marks in the style --crop-marks asks for; none: no marks")
    )
    target: bool = fld(
        default=True,
        metadata=_d(
            "a registration target on duplex sheets (its backs copy has a 1 mm scale to read an offset off)"
        ),
    )
    registration: Registration | None = fld(
        default=None,
        metadata=_d("a cutting machine's registration marks; the cards keep clear of their corners"),
    )
    print_area: tuple[float, float] | None = fld(
        default=None,
        metadata=_d(
            "[width, height] in mm the cards with their bleed must fit in, centred on the page "
            "(a machine's largest print-then-cut image)"
        ),
    )
    cut_files: bool = fld(
        default=False, metadata=_d("always write the cut outlines (SVG and DXF) beside the PDF")
    )
    line: int = 0
    name: str = fld(default="", metadata={"internal": True})
    source: str = fld(default="", metadata={"internal": True})  # the file it was read from, for messages

    def __post_init__(self) -> None:
        if not 0 <= self.fold_gap <= MAX_FOLD_GAP:
            raise ValueError(f"fold_gap: must be 0 to {MAX_FOLD_GAP:g} mm, not {self.fold_gap:g}")
        if self.print_area is not None and not all(20 <= v <= 3000 for v in self.print_area):
            raise ValueError("print_area: [width, height], each 20 to 3000 mm")
        if not self.about.strip() or len(self.about) > 600:
            raise ValueError("about: say what the sheet is for in 1 to 600 characters")
