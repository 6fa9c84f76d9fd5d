"""The vocabulary of a build: the options a person chose, a unit of work, and what it wrote."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnp.geometry.sizes import Size
from pnp.output.colour.convert import PrintColour
from pnp.output.options import OPTION
from pnp.output.sheets import SheetOptions
from pnp.resolve.fonts import Fonts


@dataclass(frozen=True)
class BuildOptions:
    """Everything `pnp build` lets a person choose."""

    sheets: SheetOptions
    counts: dict[str, int] = field(default_factory=dict)  # players / decks, for components printed in sets
    board_paper: Size | None = None
    colour: PrintColour | None = None  # CMYK PDF/X card sheets (`--cmyk`): the ink-limited profile
    max_dpi: float | None = OPTION[
        "max_dpi"
    ].default  # pictures sharper than this at their printed size are downsampled to it
    tuckbox: bool = OPTION[
        "tuckbox"
    ].default  # a tuck box for every deck (a deck's own `tuckbox: true` asks for its one)
    card_thickness: float | None = OPTION[
        "card_thickness"
    ].default  # mm per card in a tuck box (None: 300 gsm card, or sleeved)
    sleeved: bool = OPTION["sleeved"].default
    ink: str = OPTION[
        "ink"
    ].default  # full | low: light tints for fills, dark text, no large pictures (home printers)

    def as_dict(self) -> dict[str, Any]:
        """The options as the manifest records them."""

        def size(s: Size | None) -> dict[str, Any] | None:
            return None if s is None else {"name": s.name, "mm": [s.w, s.h]}

        o = self.sheets
        return {
            "paper": size(o.paper),
            "sheet": o.sheet.name if o.sheet else "duplex",
            "duplex": o.duplex,
            "bleed_mm": o.bleed,
            "margin_mm": o.margin,
            "crop_marks": o.crop_marks,
            "corner_radius_mm": o.corner_radius,
            "cut_files": o.cut_files,
            "back_offset_mm": list(o.back_offset),
            **({"gap_mm": o.gap} if o.gap else {}),  # recorded when asked for: older manifests unchanged
            **({"crop_length_mm": o.crop_length} if o.crop_length is not None else {}),
            "board_paper": size(self.board_paper),
            "counts": dict(sorted(self.counts.items())),
            "cmyk": self.colour is not None,
            "ink_limit_percent": self.colour.limit.percent if self.colour else None,
            "press_profile": self.colour.name if self.colour else None,
            "max_dpi": self.max_dpi,
            "tuckbox": self.tuckbox,
            "card_thickness_mm": self.card_thickness,
            "sleeved": self.sleeved,
            "ink": self.ink,
        }


@dataclass(frozen=True)
class Output:
    """One written PDF, as the manifest records it."""

    path: str
    game: str
    component: str
    kind: str
    pages: int
    card_size: tuple[float, float] | None = None
    cards: int | None = None
    copies: dict[str, int] | None = None
    part: tuple[int, int] | None = None  # (n, of): one of several PDFs of a huge deck
    sheets: tuple[int, int] | None = None  # first and last sheet of the deck in this part

    def as_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "path": self.path,
            "game": self.game,
            "component": self.component,
            "kind": self.kind,
            "pages": self.pages,
        }
        if self.card_size is not None:
            data.update(card_size_mm=list(self.card_size), cards=self.cards, copies=self.copies)
        if self.part is not None:
            data.update(part=list(self.part), sheets=list(self.sheets or ()))
        return data


@dataclass(frozen=True)
class Step:
    """One unit of build work (one PDF, or several from one layout); `run` writes into the staging folder."""

    label: str
    weight: int  # rough cost: the progress bar's share, and bigger steps are started first
    run: Callable[[Path, Fonts, Callable[[], None]], Output | list[Output]]
