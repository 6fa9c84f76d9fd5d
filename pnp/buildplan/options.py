"""The declared options' values (`pnp.output.options`) as a build takes them."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pnp.geometry.sizes import paper_size
from pnp.output.sheets import SheetOptions
from pnp.output.steps import BuildOptions


def print_colour(ink_limit: float, press_profile: str | None) -> Any:
    """The ink-limited CMYK profile for these options (built here: it takes a moment)."""
    # lazy: only CMYK output needs colour management (start-up speed)
    from pnp.output.colour.convert import PrintColour
    from pnp.output.colour.icc import InkLimit

    return PrintColour.build(InkLimit(ink_limit), Path(press_profile) if press_profile else None)


def build_options(v: Mapping[str, Any], sheet: Any) -> BuildOptions:
    """The BuildOptions of checked values `v` (every declared option; `sheet`: the sheet read)."""
    sheets = SheetOptions(
        paper_size(v["paper"]),
        v["duplex"],
        v["bleed"],
        v["back_offset"],
        v["crop_marks"],
        v["margin"],
        sheet,
        v["corner_radius"],
        v["cut_files"],
        v["gap"],
        v["crop_length"],
    )
    counts = {k: v[k] for k in ("players", "decks") if v[k] is not None}
    return BuildOptions(
        sheets,
        counts,
        paper_size(v["board_paper"]) if v["board_paper"] else None,
        print_colour(v["ink_limit"], v["press_profile"]) if v["cmyk"] else None,
        v["max_dpi"],
        v["tuckbox"],
        v["card_thickness"],
        v["sleeved"],
        v["ink"],
    )
