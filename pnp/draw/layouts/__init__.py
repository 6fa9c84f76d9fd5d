"""Generic card layouts, one module each; a database's designs name them.
Part of the drawing stage; each takes its slot names from `pnp.data.format.catalog`.

Each module in this package defines `LAYOUT = Layout(...)`; the registry is
built from whatever modules are here, so adding a layout is adding a file.
A layout draws in a `CardContext` from rendered slot values and returns the
ink colour it wants for the collation code and set mark (None: the style ink).
"""
from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Callable, Mapping

from reportlab.lib.colors import Color

from pnp.data.format.catalog import Slot
from pnp.draw.context import CardContext

DrawFn = Callable[[CardContext, Mapping[str, Any]], "Color | None"]


@dataclass(frozen=True)
class Layout:
    """A named way to draw a card from slot values."""

    name: str
    slots: Mapping[str, Slot]  # name -> type and meaning, from pnp.data.format.catalog
    draw: DrawFn
    doc: str = ""


def _discover() -> Mapping[str, Layout]:
    found: dict[str, Layout] = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        layout = getattr(module, "LAYOUT", None)
        if isinstance(layout, Layout):
            found[layout.name] = layout
    return MappingProxyType(dict(sorted(found.items())))


LAYOUTS: Mapping[str, Layout] = _discover()
