"""Limits on input, so a hostile or mistaken database is refused quickly instead of exhausting the machine.

Each limit is far above what a real card game needs; the README lists them.
"""

from __future__ import annotations

import re

MAX_FILE_BYTES = 5_000_000  # a database, variant or fonts.yaml file
MAX_YAML_VALUES = 200_000  # values after alias expansion (a "billion laughs" file stops here)
MAX_YAML_DEPTH = 64  # nesting of mappings and lists
MAX_TEXT = 10_000  # characters in one string (a card name, a slot, an expression)
MAX_SLOT_TEXT = 10_000  # characters of one slot's text once its template is rendered
MAX_SLOT_SYMBOLS = 500  # inline symbols ({sun}) in one slot's rendered text
MAX_COPIES = 10_000  # copies of one card type in one set
MAX_DECK_CARDS = 50_000  # cards in one component's set
MAX_SETS_CARDS = 200_000  # cards printed for one component over all its sets
MAX_RULE_COMBINATIONS = 10_000  # parameter combinations one `expr` rule is checked for
MAX_TEMPLATE_RANGE = 100_000  # items one range() in a template may produce
MAX_TEMPLATE_OUTPUT = 1_000_000  # characters one template may render
TEMPLATE_SECONDS = 1.0  # CPU seconds one template or expression may take (never wall-clock)
TEMPLATE_MEMORY = 256 * 2**20  # bytes the process may grow by while one template or expression runs
MAX_BOOKLET_TEXT = 5_000  # characters in one booklet paragraph, list item, table cell or aside
MAX_BOOKLET_BLOCKS = 3_000  # blocks (paragraphs, headings, lists, tables...) in one booklet
MAX_BOOKLET_ROWS = 1_000  # items of one list or rows of one table
MAX_ELEMENTS_DRAWN = 20_000  # elements one card face or back draws, repeats counted
MAX_PICTURE_PIXELS = 60_000_000  # pixels of one PNG or JPEG (a 300 dpi A2 poster is 35 million)
MAX_SVG_BYTES = 5_000_000  # bytes of one SVG picture or symbol
MAX_SVG_ELEMENTS = 50_000  # elements (tags) in one SVG
MAX_SVG_DEPTH = 100  # nesting of elements in one SVG (deeper overflows the drawing's recursion)
MAX_SVG_PATH = 2_000_000  # characters of path data (d, points) in one SVG, about 150,000 points
CONTROL_CHARS = re.compile(
    r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]"
)  # C0 and C1 controls but tab, LF, CR: refused in text
MAX_CORNERS = 64  # a polygon's sides, a star's points
MAX_HEXES = 2000  # the hexes of one hexgrid element
MAX_QR_TEXT = 400  # characters one qr element encodes (a few hundred keep it scannable at card size)
MIN_QR_MODULE = 0.2  # mm: the smallest module a home printer and a phone camera still tell apart
