"""pnp's own words on the page (sheet footers, checklists, tuck boxes, board captions, the print guide),
by key: English here, the source every catalogue translates (`pnp/messages/<lang>.yaml`, and a
project's own `messages/<lang>.yaml`, read by `pnp.data.reading.messages`).

A phrase names its blanks `{like_this}`: plain names only, filled with `str.replace`, never with
`str.format` (a catalogue is a stranger's file: no attribute lookups, no format specs).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

BLANK = re.compile(r"\{([a-z_]+)\}")

ENGLISH: dict[str, str] = {
    "sheet": "sheet {number} of {total}",
    "fronts": "fronts",
    "backs": "backs",
    "fold": "fold on the dashes, glue, cut",
    "too_large_to_fold": "too large to fold: print both sides",
    "scale_bar": "50 mm",
    "checklist": "{game}: checklist",
    "checklist_document": "{game} checklist",
    "variant": "variant {name}",
    "version": "version {version}",
    "checklist_intro": "Tick a box for every printed copy. Codes are printed small at the foot of each card face.",
    "cards": "{count} cards",
    "in_all": "In all: {count} cards",
    "tuckbox_document": "{game}: {deck} tuck box",
    "tuckbox": "{game} · {deck} · tuck box for {count} cards, inside {w} x {h} x {d} mm · cut the solid lines, "
    "fold the dashed ones, glue the strips marked glue",
    "glue": "glue",
    "board_whole": "{w} x {h} mm · print at 100 % (the bar must measure 50 mm)",
    "board_tile": "tile {tile} of {tiles} ({cols} across, {rows} down) · trim each dashed edge, lay it {overlap} mm "
    "over its neighbour and match the crosses",
    "guide_document": "{game}: print-and-cut guide",
    "guide_title": "{game}: how to print and cut",
    "guide_files": "Which files",
    "guide_duplex_files": "{paper}/duplex/: card sheets for a printer that prints both sides ({decks}).",
    "guide_fold_files": "{paper}/gutterfold/: the same cards for any printer: fronts and backs on one page.",
    "guide_low_ink": "...-low-ink/: the same sheets with pale fills and dark text: for playtests, a third of the ink.",
    "guide_other_files": "{paper}/: {files}; tuck boxes: {boxes}.",
    "none": "none",
    "guide_before": "Before you print",
    "guide_scale": 'Print at 100 % ("actual size", no "fit to page"). Every card page has a 50 mm bar: measure '
    "it; if it is not 50 mm, the printer scaled the page and the cards will be the wrong size.",
    "guide_stock": "Card stock of 250-300 gsm prints well on most home printers; set the paper type to card.",
    "guide_duplex": "Duplex printer",
    "guide_duplex_print": "Print each deck file double-sided, flipping on the long edge (the printer's usual "
    "setting).",
    "guide_duplex_check": "Hold one printed sheet against a window: the target's 1 mm ticks show how far the backs "
    "moved. Rebuild with --back-offset X,Y to move them back, or use the gutterfold files "
    "instead.",
    "guide_fold": "Any printer: gutterfold",
    "guide_fold_print": "Print one side only. Fold each page on the dashed line, fronts outwards, and glue the "
    "halves back to back (a glue stick over the whole blank side, pressed flat under a book).",
    "guide_fold_cut": "When dry, cut along the crop marks: each front has its own back behind it.",
    "guide_cutting": "Cutting",
    "guide_cut": "Cut on the crop marks with a craft knife and a metal ruler, or a guillotine: cut every long line "
    "across the sheet first, then the short ones. Round the corners with a corner punch if you like.",
    "guide_tick": "Tick each card off on the checklist as you cut it: a missing code is a card to reprint.",
    "guide_tuckbox": "Tuck box",
    "guide_tuckbox_make": "Cut the solid lines, score and fold the dashed ones, glue the strips marked glue. The "
    "thumb notch goes at the top of the front.",
    "reprint": "{game}: reprint",
    "reprint_document": "{game}: reprint since {since}",
    "reprint_intro": "Cards changed since {since}. Tick each copy as you swap it.",
    "since_print": "print '{tag}'",
    "since_build": "the last build",
    "take_out": "Take out of the printed deck",
    "put_in": "Put in from this reprint",
    "added": "added",
    "removed": "removed",
    "changed": "changed: {what}",
    "face": "face",
    "back": "back",
    "copies": "copies",
}


def blanks(text: str) -> set[str]:
    """The blanks a phrase names."""
    return set(BLANK.findall(text))


def phrase(words: Mapping[str, str], key: str, values: Mapping[str, Any]) -> str:
    """The phrase `key` from `words` (English where it has none) with its blanks filled in."""
    text = words.get(key) or ENGLISH[key]
    return BLANK.sub(lambda m: str(values[m.group(1)]) if m.group(1) in values else m.group(0), text)
