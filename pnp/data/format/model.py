"""The card database format: frozen dataclasses that `schema.Parser` fills from YAML.

A game file holds metadata, designs (faces and backs), palettes and
components. Deck-like components hold card types; each card type has a
`key`, a `name`, `copies` and the values of the fields its component declares.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from dataclasses import field as fld
from pathlib import Path
from typing import Any, ClassVar, Literal

from pnp.data.format.board import Board
from pnp.data.format.elements import Element
from pnp.data.format.feedback import is_round, round_name
from pnp.data.format.layout import Frame
from pnp.data.format.limits import MAX_COPIES, MAX_DECK_CARDS
from pnp.data.format.messages import phrase
from pnp.data.format.names import name_problem
from pnp.data.format.schema import doc as _d

Kind = Literal["deck", "reference", "tokens", "board", "booklet"]
CARD_KINDS = ("deck", "reference", "tokens")
BLANK_BACK = "(single-sided)"  # the back design of tokens that name none: white, and no back pages printed
CARD_RESERVED = ("key", "name", "copies", "face", "back", "text")
LANGUAGE_CODE = re.compile(r"[a-z]{2,3}(-[a-z0-9]{2,8})?")  # en, de, pt-br


@dataclass(frozen=True)
class Players:
    """How many people can play."""

    min: int
    max: int

    def __post_init__(self) -> None:
        if not 1 <= self.min <= self.max:
            raise ValueError(f"players: min {self.min} and max {self.max} must satisfy 1 <= min <= max")


@dataclass(frozen=True)
class FieldSpec:
    """A field that every card of a component carries (declared once, checked on every card)."""

    type: Literal["int", "str", "bool", "float", "list"] = fld(default="str", metadata=_d("value type"))
    required: bool = fld(default=True, metadata=_d("whether every card must give it"))
    choices: tuple[Any, ...] | None = fld(default=None, metadata=_d("the only values allowed"))
    default: Any = fld(default=None, metadata=_d("value for cards that leave it out"))
    doc: str = fld(default="", metadata=_d("what the field means"))


@dataclass(frozen=True)
class Mark:
    """Identifies one printed set of a component (a player's money, a second deck, a variant)."""

    label: str = fld(metadata=_d("short text printed on face and back"))
    color: str = fld(default="#444444", metadata=_d("set colour, #RRGGBB"))
    emblem: str | None = fld(default=None, metadata=_d("vector symbol name"))
    name: str = fld(default="", metadata=_d("longer name for checklists"))


@dataclass(frozen=True)
class SetsSpec:
    """A component printed several times, once per player or per deck, each set marked."""

    option: Literal["players", "decks"] = fld(metadata=_d("the build option that says how many sets"))
    default: int = 1
    min: int = 1
    max: int = 1
    marks: tuple[Mark, ...] = ()

    def __post_init__(self) -> None:
        if not 1 <= self.min <= self.default <= self.max:
            raise ValueError(
                f"sets: need 1 <= min ({self.min}) <= default ({self.default}) <= max ({self.max})"
            )
        if self.marks and len(self.marks) < self.max:
            raise ValueError(f"sets: {len(self.marks)} marks given but up to {self.max} sets can be printed")


CODE_SIZES = (3.0, 12.0)  # points: the collation code's type, smallest to largest


@dataclass(frozen=True)
class CodeSpot:
    """Where a design prints the collation code (`TAG-key · version`) and how large."""

    at: Literal["bottom", "top"] = fld(
        default="bottom", metadata=_d("the edge of the safe zone the code sits at")
    )
    size: float = fld(default=5.5, metadata=_d("type size in points, 3 to 12"))
    x: float | None = fld(
        default=None, metadata=_d("mm from the trim's left edge to the code's centre (default: the middle)")
    )
    y: float | None = fld(
        default=None, metadata=_d("mm from the trim's top edge to the code's baseline (default: from `at`)")
    )

    def __post_init__(self) -> None:
        low, high = CODE_SIZES
        if not low <= self.size <= high:
            raise ValueError(f"size: must be {low:g} to {high:g} points, found {self.size:g}")


@dataclass(frozen=True)
class Design:
    """A face or back design: a generic layout and the values of its slots (jinja2 text allowed)."""

    layout: str = fld(metadata=_d("layout name, e.g. value, portrait, playing, reference, back"))
    slots: dict[str, Any] = fld(
        default_factory=dict, metadata=_d("layout slots; strings are jinja2 templates")
    )
    let: dict[str, str] = fld(
        default_factory=dict,
        metadata=_d(
            "layout custom: names computed per card, in order (jinja2 expressions over slots and earlier names)"
        ),
    )
    elements: tuple[Element, ...] = fld(default=(), metadata=_d("layout custom: what it draws, in order"))
    code_color: str | None = fld(
        default=None,
        metadata=_d(
            "layout custom: the collation code's colour, a template that may use the let names (default: the "
            "slot code_color, else the style's ink)"
        ),
    )
    extends: str | None = fld(
        default=None,
        metadata=_d(
            "layout custom: a built-in layout (or another design of this game) whose let names, frames and "
            "elements it takes; its own elements with the `name` of one of those change only the keys they give"
        ),
    )
    frames: dict[str, Frame] = fld(
        default_factory=dict,
        metadata=_d("layout custom: named boxes its elements may be measured from (`frame: NAME`)"),
    )
    code: CodeSpot | Literal["none"] | None = fld(
        default=None,
        metadata=_d(
            "the collation code: `none` leaves it out, or {at: bottom or top, size: points, x: mm, y: mm}; "
            "default: centred at the bottom in 5.5 pt (left out on tokens under 24 mm across)"
        ),
    )
    doc: str = ""
    line: int = 0


@dataclass(frozen=True)
class CardType:
    """One distinct card; `copies` says how many of it are printed in one set.

    Besides the keys below, a card gives a value for each field its component declares.
    """

    __extra_keys__: ClassVar[bool] = True

    key: str = fld(metadata=_d("unique in the game; the collation code is TAG-key"))
    name: str
    copies: int = fld(default=1, metadata=_d("how many of this card one set holds"))
    face: str | None = fld(default=None, metadata=_d("face design, when not the component's"))
    back: str | None = fld(default=None, metadata=_d("back design, when not the component's"))
    text: str = fld(default="", metadata=_d("rules text printed on the card"))
    values: dict[str, Any] = fld(default_factory=dict, metadata={"internal": True})
    line: int = 0
    source: tuple[str, int, dict[str, str]] | None = fld(
        default=None, metadata={"internal": True}
    )  # sheet row

    def __post_init__(self) -> None:
        if not 0 <= self.copies <= MAX_COPIES:
            raise ValueError(f"copies: must be 0 or more and at most {MAX_COPIES}, found {self.copies}")

    def design(self, kind: str, comp: Component) -> str:
        """The key of this card's face or back design (`kind`): its own, else the component's."""
        key = (self.face or comp.face) if kind == "face" else (self.back or comp.back)
        if key is None:
            raise ValueError(f"card {self.key}: no {kind} design (the component names none)")
        return key

    def get(self, name: str | None) -> Any:
        """A field value, or one of key/name/copies/text (None for no name)."""
        if name is None:
            return None
        if name in self.values:
            return self.values[name]
        return getattr(self, name) if name in CARD_RESERVED else None


@dataclass(frozen=True)
class Rule:
    """A composition rule, checked by `pnp check` without game-specific code."""

    check: Literal[
        "total",
        "count",
        "count_by",
        "unique",
        "each_once",
        "expr",
        "links",
        "balance",
        "fact",
        "players",
        "bands",
    ] = fld(metadata=_d("kind of rule"))
    id: str = fld(default="", metadata=_d("short name shown in reports"))
    describe: str = fld(default="", metadata=_d("the rule in words"))
    severity: Literal["error", "warning"] = "error"
    expected: Any = fld(default=None, metadata=_d("total/count: a number; count_by: value -> count"))
    min: int | None = None
    max: int | None = None
    field: str | None = fld(default=None, metadata=_d("field for count_by/links/balance"))
    fields: Any = fld(default=None, metadata=_d("unique: field list; each_once: field -> values"))
    where: dict[str, Any] = fld(default_factory=dict, metadata=_d("only cards whose fields match"))
    expr: str | None = fld(default=None, metadata=_d("jinja2 expression that must be true"))
    params: dict[str, tuple[Any, ...]] = fld(
        default_factory=dict, metadata=_d("expr is checked for every combination")
    )
    symmetric: bool = fld(default=False, metadata=_d("links: every link must be returned"))
    inverse: str | None = fld(default=None, metadata=_d("links: field on the target that must link back"))
    fact: str | None = fld(default=None, metadata=_d("fact/bands/players: dotted path into the game's facts"))
    essential: bool = fld(
        default=False, metadata=_d("the game is unplayable without it: stays an error in variants")
    )
    player_counts: str | None = fld(
        default=None,
        metadata=_d(
            "expr: check once per player count, as `players`: a fact path to a {min, max} range "
            "(e.g. variants.main.players) or `game` for the game's own range"
        ),
    )
    line: int = 0


@dataclass(frozen=True)
class Component:
    """A deck, reference cards, tokens (counters and tiles on punch-out sheets), a board or a booklet."""

    key: str
    kind: Kind
    name: str
    doc: str = ""
    card_size: str = fld(default="poker", metadata=_d("poker, bridge, tarot, mini, square or WxH in mm"))
    same_names: bool = fld(
        default=False,
        metadata=_d(
            "true when card types may share a name on purpose (variants told apart by a field); "
            "otherwise `pnp check` warns about each repeated name"
        ),
    )
    shape: Literal["rect", "circle", "hex"] = fld(
        default="rect",
        metadata=_d(
            "tokens: the outline they are cut along (circle: card_size square; hex: flat top and bottom, the "
            "width corner to corner, e.g. 30x26)"
        ),
    )
    face: str | None = fld(default=None, metadata=_d("default face design"))
    back: str | None = fld(default=None, metadata=_d("default back design"))
    fields: dict[str, FieldSpec] = fld(default_factory=dict)
    cards: tuple[CardType, ...] = fld(default=(), metadata={"doc": "card types", "cards": True})
    rules: tuple[Rule, ...] = ()
    sets: SetsSpec | None = None
    board: Board | None = fld(default=None, metadata=_d("what the board shows (boards only)"))
    template: str | None = fld(default=None, metadata=_d("jinja2 template in templates/ (booklets)"))
    tuckbox: bool = fld(
        default=False,
        metadata=_d(
            "decks: also print a tuck box sized for the deck (pnp build --tuckbox does for every deck)"
        ),
    )
    line: int = 0

    def __post_init__(self) -> None:
        if (wrong := name_problem(self.key)) is not None:  # the key names the component's output files
            raise ValueError(f"key: {wrong}")
        if self.card_count > MAX_DECK_CARDS:
            raise ValueError(f"cards: {self.card_count} cards in one set; the limit is {MAX_DECK_CARDS}")

    @property
    def is_cards(self) -> bool:
        return self.kind in CARD_KINDS

    @property
    def single_sided(self) -> bool:
        """Tokens without a back: their sheets print no back pages."""
        return self.back == BLANK_BACK

    @property
    def card_count(self) -> int:
        """Cards in one set."""
        return sum(c.copies for c in self.cards)


@dataclass(frozen=True)
class Meta:
    """Who and what the game is."""

    name: str
    tag: str = fld(metadata=_d("two capital letters that start every collation code"))
    players: Players
    credits: str = ""
    summary: str = ""
    version: str = fld(
        default="",
        metadata=_d(
            "this print's version (free text such as 0.4 or 2026-11-25), printed small beside every collation code"
        ),
    )
    languages: tuple[str, ...] = fld(
        default=("en",),
        metadata=_d(
            "the languages its text is given in, the default first (any text may then be {en: ..., de: ...})"
        ),
    )

    def __post_init__(self) -> None:
        if (
            not self.languages
            or len(set(self.languages)) != len(self.languages)
            or not all(
                LANGUAGE_CODE.fullmatch(code) and name_problem(code) is None for code in self.languages
            )
        ):
            raise ValueError(
                f"languages: a list of language codes such as [en, de], each once, the default "
                f"first; found {list(self.languages)}"
            )
        if not (len(self.tag) == 2 and self.tag.isalpha() and self.tag.isupper()):
            raise ValueError(f"tag: must be two capital letters, found {self.tag!r}")
        if len(self.version) > 24 or any(not ch.isprintable() for ch in self.version):
            raise ValueError(f"version: at most 24 printable characters, found {self.version!r}")


@dataclass(frozen=True)
class Gap:
    """A text the database gives in some languages but not in the one it was read in; the default
    language's words stand in for it (`pnp check` reports it)."""

    file: str
    line: int | None
    field: str
    language: str


@dataclass(frozen=True)
class Style:
    """Game-wide look: colours used by layouts and the font roles from fonts/fonts.yaml."""

    ink: str = "#1d1a24"
    paper: str = "#fbf7ee"
    accent: str = "#6b4fa0"
    fonts: dict[str, str] = fld(default_factory=dict, metadata=_d("role -> font name override"))


@dataclass(frozen=True)
class Playtest:
    """Playtest feedback: a small QR code on every card face naming the card, the round and the version
    (`pnp serve --playtest` collects what players say about it)."""

    feedback: bool = fld(
        default=False, metadata=_d("print a small QR code (card code, round, version) on every card face")
    )
    round: str = fld(
        default="",
        metadata=_d("the round's name, as `pnp build --tag` would keep it (default: the version, or draft)"),
    )
    size: float = fld(default=9.0, metadata=_d("the QR code's side in mm, its margin included (6 to 20)"))
    corner: Literal["bottom-right", "bottom-left", "top-right", "top-left"] = fld(
        default="bottom-right", metadata=_d("the corner of the safe zone it sits in")
    )

    def __post_init__(self) -> None:
        if self.round and not is_round(self.round):
            raise ValueError(
                f"round: 1-40 letters, digits, dots, hyphens or underscores, found {self.round!r}"
            )
        if not 6 <= self.size <= 20:
            raise ValueError(f"size: from 6 to 20 mm, found {self.size:g}")


@dataclass(frozen=True)
class Game:
    """A whole card database."""

    game: Meta
    components: tuple[Component, ...]
    style: Style = Style()
    playtest: Playtest = fld(default=Playtest(), metadata=_d("playtest feedback codes on the cards"))
    faces: dict[str, Design] = fld(default_factory=dict)
    backs: dict[str, Design] = fld(default_factory=dict)
    palettes: dict[str, dict[Any, Any]] = fld(default_factory=dict, metadata=_d("lookup tables for designs"))
    decisions: tuple[str, ...] = fld(default=(), metadata=_d("design decisions where the rules leave room"))
    facts: dict[str, Any] = fld(
        default_factory=dict,
        metadata=_d("numbers and tables of the rules, read by booklets, card text, engines and statistics"),
    )
    rules: tuple[Rule, ...] = fld(default=(), metadata=_d("rules over the facts and player counts"))
    variant: Any = fld(default=None, metadata=_d("set by `pnp stack`: base game and changes"))
    source: Path = fld(default=Path("."), metadata={"internal": True})
    root: Path = fld(default=Path("."), metadata={"internal": True})  # project folder: templates/ and fonts/
    symbols: tuple[str, ...] = fld(default=(), metadata={"internal": True})  # own symbols: art/symbols/*.svg
    sheets: tuple[Path, ...] = fld(
        default=(), metadata={"internal": True}
    )  # spreadsheets its cards came from
    sheet_notes: tuple[str, ...] = fld(
        default=(), metadata={"internal": True}
    )  # warnings from reading them (columns ignored, a separator guessed)
    unsaved: bool = fld(
        default=False, metadata={"internal": True}
    )  # read from an edit not yet written: not cached
    language: str = fld(default="", metadata={"internal": True})  # the language read in ("": the default)
    gaps: tuple[Gap, ...] = fld(default=(), metadata={"internal": True})  # texts missing in that language
    words: dict[str, str] = fld(default_factory=dict, metadata={"internal": True})  # pnp's own words in it
    draft: bool = fld(
        default=False, metadata={"internal": True}
    )  # printed as a draft (--draft, serve): a missing picture is a labelled placeholder

    @property
    def tag(self) -> str:
        return self.game.tag

    @property
    def lang(self) -> str:
        """The language this copy of the game prints in."""
        return self.language or self.game.languages[0]

    @property
    def slug(self) -> str:
        """Name on the command line: the database file's name without `.yaml`; in a language other than
        the default, followed by it (`feenbalz/de`): the game's output folder."""
        return self.source.stem if self.lang == self.game.languages[0] else f"{self.source.stem}/{self.lang}"

    def say(self, key: str, **values: Any) -> str:
        """One of pnp's own phrases (`pnp.data.format.messages`) in this game's language, filled in."""
        return phrase(self.words, key, values)

    @property
    def where(self) -> str:
        """The database file as messages name it: relative to the project when inside it."""
        try:
            return str(self.source.resolve().relative_to(self.root.resolve()))
        except ValueError:
            return str(self.source)

    def component(self, key: str) -> Component:
        for comp in self.components:
            if comp.key == key:
                return comp
        raise KeyError(key)

    @property
    def round(self) -> str:
        """The playtest round its cards print for (`pnp.data.format.feedback.round_name`)."""
        return round_name(self.playtest.round, self.game.version)

    def code(self, card: CardType) -> str:
        """The collation code printed on a card: tag, hyphen, card key."""
        return f"{self.tag}-{card.key}"
