"""`pnp package`: one zip a person can print a game from, on either paper, with or without duplex.

Inside `<game>-print-and-play/`, per paper (`a4/`, `letter/`): the card sheets for a duplex printer
(`duplex/`) and for any printer (`gutterfold/`), each also in low ink (`duplex-low-ink/`, ...), the
boards, booklets, checklist and tuck boxes, and
`print-guide.pdf` (which file is for which printer; how to print, fold, cut and check). Each variant
is an ordinary build into a private folder (`pnp.buildplan.package`); the zip is written whole to a
temporary file and renamed, with fixed dates, so unchanged input gives the same bytes.
"""

from __future__ import annotations

import os
import tempfile
import zipfile
from pathlib import Path

from pnp.data.format.model import Game

PAPERS = ("a4", "letter")
SHEETS = ("duplex", "gutterfold")
INKS = ("full", "low")
EPOCH = (1980, 1, 1, 0, 0, 0)  # zip entries carry this date: the same input, the same zip


def is_card_sheet(game: Game, name: str) -> bool:
    """Whether a built file is card sheets (which differ between duplex and gutterfold): `<deck>.pdf`
    or a part of a huge deck, `<deck>-partN.pdf`."""
    return any(
        name == f"{c.key}.pdf" or name.startswith(f"{c.key}-part") for c in game.components if c.is_cards
    )


def write_zip(path: Path, root: str, files: dict[str, Path], extra: dict[str, bytes]) -> None:
    """The zip, whole or not at all: written beside `path` and renamed over it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    os.close(fd)
    try:
        with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=6) as z:
            entries = {**extra, **{k: p.read_bytes() for k, p in files.items()}}
            for name in sorted(entries):
                info = zipfile.ZipInfo(f"{root}/{name}", date_time=EPOCH)
                info.compress_type = zipfile.ZIP_DEFLATED
                info.external_attr = 0o644 << 16
                z.writestr(info, entries[name])
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
