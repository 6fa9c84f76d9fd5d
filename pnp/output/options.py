"""Every print option, declared once: its name, kind, default, range, help and whether it changes
what is written.

`pnp build`'s options (`pnp.cli.options`), serve's print settings (`pnp.serve.builds`), the sheet
defaults (`SheetOptions`) and the freshness key (`pnp.buildplan.options`) are all made from
OPTIONS, and every value, from the command line or from the page, is checked by `Option.parse`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from pnp.geometry.grid import MARGIN
from pnp.geometry.sizes import paper_size

MAX_OFFSET = 50.0  # mm: a printer's misregistration is a few millimetres
MAX_COUNT = 10_000  # players or decks
KINDS = ("choice", "number", "count", "flag", "offset", "paper", "text", "file")


@dataclass(frozen=True)
class Option:
    """One option: `--name-with-hyphens` on the command line, `name` in serve's form and the key."""

    name: str
    kind: str  # one of KINDS
    default: Any
    help: str
    output: bool = True  # changes what a build writes: part of the freshness key
    low: float | None = None  # number: the range, both ends included
    high: float | None = None
    choices: tuple[str, ...] = ()  # choice: the values it takes
    metavar: str | None = None
    flag: str | None = None  # the command-line name when it is not --name (out_dir: --out)

    @property
    def cli(self) -> str:
        return self.flag or "--" + self.name.replace("_", "-")

    def show(self, value: Any) -> str:
        """A value as it is written on the command line."""
        if self.kind == "offset":
            return ",".join(f"{v:g}" for v in value)
        return f"{value:g}" if isinstance(value, float) else str(value)

    def parse(self, value: Any) -> Any:
        """The value from text (the command line, the page) or as given, checked; ValueError says what is
        wrong in the same words wherever it came from. Empty text is the default."""
        if isinstance(value, str):
            value = value.strip()
            if not value:
                return self.default
        if value is None:
            return self.default
        return _PARSE[self.kind](self, value)

    def describe(self) -> dict[str, Any]:
        """The declaration as serve's page builds its form field from it."""
        return {
            "name": self.name,
            "kind": self.kind,
            "default": None if self.default is None else self.show(self.default),
            "help": self.help,
            "low": self.low,
            "high": self.high,
            "choices": list(self.choices),
        }


def _number(opt: Option, value: Any) -> float:
    low, high = float(opt.low or 0), float(opt.high or 0)
    words = f"a number from {low:g} to {high:g}"
    if isinstance(value, bool):
        raise ValueError(f"must be {words}")
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"must be {words}, not {str(value)[:40]!r}") from None
    if not math.isfinite(number) or not low <= number <= high:
        raise ValueError(f"must be {words}")
    return number


def _count(opt: Option, value: Any) -> int:
    text = str(value)
    if isinstance(value, bool) or not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= MAX_COUNT:
        raise ValueError(f"must be a whole number from 1 to {MAX_COUNT}")
    return int(text)


def _flag(opt: Option, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if str(value).lower() in ("1", "true", "yes", "on"):
        return True
    if str(value).lower() in ("0", "false", "no", "off"):
        return False
    raise ValueError("must be true or false")


def _choice(opt: Option, value: Any) -> str:
    if value not in opt.choices:
        raise ValueError(f"must be one of {', '.join(opt.choices)}")
    return str(value)


def _offset(opt: Option, value: Any) -> tuple[float, float]:
    try:
        x, y = (float(v) for v in (value.split(",") if isinstance(value, str) else value))
    except (TypeError, ValueError):
        raise ValueError("use X,Y in millimetres, e.g. 0.5,-1") from None
    if not all(math.isfinite(v) and abs(v) <= MAX_OFFSET for v in (x, y)):
        raise ValueError(
            f"each of X,Y must be a number of millimetres from {-MAX_OFFSET:g} to {MAX_OFFSET:g}"
        )
    return x, y


def _paper(opt: Option, value: Any) -> str:
    paper_size(str(value))  # ValueError naming the sizes it knows
    return str(value)


def _text(opt: Option, value: Any) -> str:
    if not isinstance(value, str) or len(value) > 200:
        raise ValueError("must be a name of at most 200 characters")
    return value


_PARSE = {
    "choice": _choice,
    "number": _number,
    "count": _count,
    "flag": _flag,
    "offset": _offset,
    "paper": _paper,
    "text": _text,
    "file": _text,  # that the file exists is checked where it is opened
}

OPTIONS: tuple[Option, ...] = (
    Option("paper", "paper", "a4", "a4, letter, a3, tabloid or WxH in mm."),
    Option(
        "duplex",
        "choice",
        "long",
        "Paper edge your printer flips on; off prints fronts only.",
        choices=("long", "short", "off"),
    ),
    Option("bleed", "number", 3.0, "Bleed in mm.", low=0, high=10),
    Option("crop_marks", "choice", "edge", "Crop marks.", choices=("edge", "corner", "full", "off")),
    Option("back_offset", "offset", (0.0, 0.0), "Shift backs pages by X,Y mm.", metavar="X,Y"),
    Option(
        "crop_length",
        "number",
        None,
        "Every crop mark this long (never into the margin) [default: to the margin; 4 mm for corner].",
        low=1,
        high=30,
        metavar="MM",
    ),
    Option(
        "gap",
        "number",
        0.0,
        "Space between neighbouring cards; each card's bleed fills up to half of it, and all of it round "
        "the block (0: cards share cut lines, or each keeps its whole bleed where that fits as many).",
        low=0,
        high=10,
        metavar="MM",
    ),
    Option(
        "margin",
        "number",
        MARGIN,
        "Paper edge in mm the printer cannot print: nothing is drawn there.",
        low=0,
        high=30,
    ),
    Option(
        "tuckbox",
        "flag",
        False,
        "Also print a tuck box for every deck (a deck's tuckbox: true asks for its own).",
    ),
    Option(
        "card_thickness",
        "number",
        None,
        "Card thickness for tuck boxes [default: 0.3 mm, 300 gsm card; 0.5 mm with --sleeved].",
        low=0.05,
        high=3.0,
        metavar="MM",
    ),
    Option("sleeved", "flag", False, "Tuck boxes with room for sleeved cards (3 mm wider and taller each)."),
    Option(
        "ink",
        "choice",
        "full",
        "low: a version for home printers: fills as light tints, text dark, no large pictures.",
        choices=("full", "low"),
    ),
    Option(
        "corner_radius",
        "number",
        0.0,
        "Rounded corners: guides on the fronts, and the radius of the cut files' outlines.",
        low=0,
        high=10,
        metavar="MM",
    ),
    Option(
        "cut_files",
        "flag",
        False,
        "Also write each deck's cut outlines, <deck>-cut.svg and <deck>-cut.dxf, for a cutting machine.",
    ),
    Option(
        "cutter",
        "choice",
        None,
        "Print and cut on this machine: the same as --sheet silhouette or --sheet cricut.",
        choices=("silhouette", "cricut"),
    ),
    Option(
        "sheet",
        "text",
        "duplex",
        "How cards sit on the paper: duplex, gutterfold, fronts, or a sheet of the project's "
        "sheets/ folder (pnp sheets lists them).",
        metavar="NAME",
    ),
    Option("players", "count", None, "Sets for per-player components (e.g. Fairy Bucks money)."),
    Option("decks", "count", None, "Copies of components printed per deck (e.g. tarot)."),
    Option("board_paper", "paper", None, "Paper for boards (e.g. a3, tabloid); default: --paper."),
    Option("cmyk", "flag", False, "Card sheets as CMYK PDF/X-1a within the ink limit (for a print shop)."),
    Option(
        "ink_limit",
        "number",
        240.0,
        "Most total ink (C+M+Y+K, percent) CMYK output may use.",
        low=100,
        high=400,
    ),
    Option(
        "press_profile",
        "file",
        None,
        "ICC profile of the shop's press (CMYK, Lab connection space) "
        "[default: Ghostscript's SWOP-like CMYK profile].",
        metavar="FILE",
    ),
    Option(
        "max_dpi",
        "number",
        None,
        "Draw pictures sharper than this at their printed size downsampled to it (default: as they are).",
        low=72,
        high=4800,
        metavar="DPI",
    ),
    Option(
        "draft",
        "flag",
        False,
        "A playtest print before the art exists: a missing picture prints as a labelled placeholder "
        "and is listed as a warning (without --draft it is an error).",
    ),
    # how the command runs, not what it prints: never part of the freshness key, not on serve's page
    Option("out_dir", "text", "output", "Output folder (relative to the project).", False, flag="--out"),
    Option("clean", "flag", False, "Rebuild every game, even those unchanged since the last build.", False),
    Option(
        "force", "flag", False, "Build even when a composition rule is broken (listed as warnings).", False
    ),
    Option(
        "tag",
        "text",
        None,
        "Keep this print's card records as prints/GAME/NAME.json (for pnp changes and reprints).",
        False,
        metavar="NAME",
    ),
    Option(
        "only_changed",
        "flag",
        False,
        "Write only reprint.pdf: the cards new or changed since --since NAME (or the last build).",
        False,
    ),
    Option(
        "since", "text", None, "With --only-changed: the tagged print to compare with.", False, metavar="NAME"
    ),
)
OPTION = {o.name: o for o in OPTIONS}
PRINT_OPTIONS = tuple(o for o in OPTIONS if o.output)  # serve's print settings


def freshness_key(values: dict[str, Any]) -> dict[str, Any]:
    """The values of the options that change what a build writes (the others never rebuild a game)."""
    return {o.name: values[o.name] for o in OPTIONS if o.output}
