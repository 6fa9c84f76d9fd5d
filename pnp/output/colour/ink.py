"""Total ink of a PDF as a press would lay it down: Ghostscript renders CMYK separations.

Used to check print files: `max_ink` rasterises every page with Ghostscript's
32-bit CMYK TIFF device and returns the highest C+M+Y+K found, in percent.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path


class GhostscriptMissing(Exception):
    """Ghostscript (`gs`) is not installed."""


def ghostscript() -> str:
    found = shutil.which("gs")
    if not found:
        raise GhostscriptMissing("Ghostscript (gs) is needed to measure ink; install the ghostscript package")
    return found


def ink_per_page(pdf: Path, dpi: int = 36) -> list[float]:
    """Highest total ink (percent) on each page, rendered at `dpi`."""
    from PIL import (  # lazy: only checks of print files need it
        Image,
        ImageMath,
        ImageSequence,
    )

    with tempfile.TemporaryDirectory(prefix="pnp-ink-") as tmp:
        tiff = Path(tmp) / "pages.tif"
        subprocess.run(
            [
                ghostscript(),
                "-q",
                "-dBATCH",
                "-dNOPAUSE",
                "-dSAFER",
                "-sDEVICE=tiff32nc",
                f"-r{dpi}",
                f"-sOutputFile={tiff}",
                str(pdf),
            ],
            check=True,
            capture_output=True,
        )
        out = []
        with Image.open(tiff) as image:
            for frame in ImageSequence.Iterator(image):
                c, m, y, k = (ch.convert("I") for ch in frame.split())
                total = ImageMath.lambda_eval(lambda a: a["c"] + a["m"] + a["y"] + a["k"], c=c, m=m, y=y, k=k)
                out.append(total.getextrema()[1] * 100 / 255)
        return out


def max_ink(pdf: Path, dpi: int = 36) -> float:
    """Highest total ink (percent) anywhere in the PDF."""
    return max(ink_per_page(pdf, dpi), default=0.0)
