"""Adapters: every use of a library's internals, one module per library.

Each module has a `GATE` naming the release series it was tested on (CI runs
the suite on the declared minimum and on the newest release) and applies its
internals only there; on any other release, or with `PNP_ADAPTERS=off` in the
environment, it takes the library's public route (same pages, slower) and
`pnp --version` says so. Imports nothing of pnp but this package.
"""

from __future__ import annotations

import importlib
import os
from dataclasses import dataclass

_MODULES = ("reportlab", "pillow", "jinja2", "cpython")


def series(version: str) -> str:
    """A release's series, "major.minor" ("4.4.10" -> "4.4")."""
    return ".".join(version.split(".")[:2])


@dataclass(frozen=True)
class Gate:
    """Whether one library's internals are used: its version against the series tested."""

    library: str
    version: str
    tested: tuple[str, ...]

    @property
    def active(self) -> bool:
        return os.environ.get("PNP_ADAPTERS", "").lower() != "off" and series(self.version) in self.tested

    def why_off(self) -> str:
        """Why the internals are not used (for a gate that is not active)."""
        if series(self.version) in self.tested:
            return "PNP_ADAPTERS=off"
        return f"adapter tested on {self._tested()} only"

    def describe(self) -> str:
        """One line for `pnp --version`."""
        if self.active:
            return f"{self.library} {self.version}: adapter on (tested on {self._tested()})"
        return f"{self.library} {self.version}: public API only, slower ({self.why_off()})"

    def _tested(self) -> str:
        return ", ".join(f"{s}.x" for s in self.tested)


def gates() -> list[Gate]:
    """Every adapter's gate (imports the libraries: for `pnp --version`, not for start-up)."""
    return [importlib.import_module(f"pnp.adapters.{name}").GATE for name in _MODULES]
