"""Stacked decks: selectors, the changes a variant makes to a base deck, and the variant file.

A variant names a base game and one of its deck components, then changes it:

1. ``decks``: that many copies of the base deck are shuffled together;
2. ``remove``: every copy of the cards a selector picks leaves the stack;
3. ``add``: each entry brings in the cards it picks from one more base deck
   (name an entry twice for two more copies);
4. ``jokers``: when given, the stack ends with exactly this many Jokers.

Selectors are read against the values the base deck's cards actually carry,
so the same words work for any game: a value or its plural (``trumps``,
``queens``, ``10s``, ``red``), a number range (``4-6``), alternatives joined by
commas (``clubs,diamonds``), narrowing words joined by ``of`` or spaces
(``2-10 of clubs,diamonds``, ``ace of spades``, ``red trumps``), an explicit
``field=value`` (``value=10``) or a card key (``AS``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from pnp.data.format.limits import MAX_COPIES, MAX_DECK_CARDS
from pnp.data.format.model import CardType, Component, Mark, SetsSpec
from pnp.data.format.names import name_problem

# English words for ranks: general card vocabulary, not the rules of any one game.
_WORDS: Mapping[str, str] = {
    "one": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
    "ten": "10",
    "jack": "j",
    "queen": "q",
    "king": "k",
    "ace": "a",
}
_CONNECTORS = frozenset({"of", "the", "all"})
_RANGE = re.compile(r"^(\d+)-(\d+)$")
_NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")
_HEX = re.compile(r"^#[0-9a-fA-F]{6}$")
MAX_DECKS = 8

from pnp.data.stacking.words import DEFAULT_COLOR, FORMS  # noqa: E402 - re-exported


class SelectorError(ValueError):
    """A selector that cannot be read, or that asks for cards the base deck does not have."""


def _norm(value: Any) -> str:
    return str(value).strip().lower()


def _text_fields(comp: Component) -> list[str]:
    return [name for name, spec in comp.fields.items() if spec.type in ("str", "int")]


def vocabulary(comp: Component) -> dict[str, dict[str, set[str]]]:
    """Field (and card name) -> normalised value -> card keys carrying it (cards with copies only)."""
    out: dict[str, dict[str, set[str]]] = {name: {} for name in [*_text_fields(comp), "name"]}
    for card in comp.cards:
        if not card.copies:
            continue
        for name in out:
            value = card.get(name)
            if value is not None:
                out[name].setdefault(_norm(value), set()).add(card.key)
    return out


@dataclass(frozen=True)
class Term:
    """One alternative: card keys it picks (already resolved against the base deck)."""

    text: str
    keys: frozenset[str]


@dataclass(frozen=True)
class Selector:
    """Groups narrowed together; each group is a union of terms."""

    text: str
    groups: tuple[tuple[Term, ...], ...]

    @property
    def keys(self) -> frozenset[str]:
        """Keys of every base card the selector picks."""
        picked: frozenset[str] | None = None
        for group in self.groups:
            union = frozenset().union(*(t.keys for t in group))
            picked = union if picked is None else picked & union
        return picked or frozenset()


def _candidates(word: str) -> list[str]:
    forms = [word, word + "s"]
    if word.endswith("es"):
        forms.append(word[:-2])
    if word.endswith("s"):
        forms.append(word[:-1])
    return forms + [_WORDS[f] for f in list(forms) if f in _WORDS]


def _known_words(comp: Component) -> str:
    words: list[str] = []
    for name in _text_fields(comp):
        seen = list(
            dict.fromkeys(str(c.get(name)) for c in comp.cards if c.copies and c.get(name) is not None)
        )
        words.append(f"{name}: {', '.join(seen[:14])}{', ...' if len(seen) > 14 else ''}")
    return "; ".join(words)


def _unknown(
    text: str, word: str, comp: Component, vocab: Mapping[str, Mapping[str, set[str]]]
) -> SelectorError:
    forms = "\n".join(f"  - {f}" for f in FORMS)
    return SelectorError(
        f"unknown selector {text!r}: {word!r} is not a value, field or card key of "
        f"{comp.key!r}.\nValid forms:\n{forms}\nValues in this deck: {_known_words(comp)}"
    )


def _term(written: str, text: str, comp: Component, vocab: Mapping[str, Mapping[str, set[str]]]) -> Term:
    keys = {c.key for c in comp.cards if c.copies}
    if written in keys and not written.isdigit():  # a key as printed (case counts: 10S, not 10s)
        return Term(written, frozenset({written}))
    word = written.lower()
    if "=" in word:
        name, _, value = word.partition("=")
        if name not in vocab:
            raise _unknown(text, name, comp, vocab)
        return Term(word, frozenset(vocab[name].get(value, set())))
    match = _RANGE.match(word)
    if match:
        lo, hi = int(match.group(1)), int(match.group(2))
        if lo > hi:
            raise SelectorError(f"selector {text!r}: the range {word} runs backwards; write {hi}-{lo}")
        # the values the cards have that fall in the range (never the range itself: 1-1000000000 is fine)
        return Term(
            word,
            frozenset(
                k
                for vals in vocab.values()
                for v, keys in vals.items()
                if v.isdigit() and str(int(v)) == v and lo <= int(v) <= hi
                for k in keys
            ),
        )
    if word.isdigit():
        return Term(word, frozenset(k for vals in vocab.values() for k in vals.get(word, ())))
    found: set[str] = set()
    for form in _candidates(word):
        for by_value in vocab.values():
            found |= by_value.get(form, set())
    if not found:
        raise _unknown(text, written, comp, vocab)
    return Term(word, frozenset(found))


def parse_selector(text: str, comp: Component) -> Selector:
    """Read a selector against a deck component; SelectorError names the valid forms."""
    raw = " ".join(str(text).split())
    raw = re.sub(r"\s*,\s*", ",", raw)
    raw = re.sub(r"\s*=\s*", "=", raw)
    raw = re.sub(r"(?<=\d)\s*-\s*(?=\d)", "-", raw)
    words = [w for w in raw.split(" ") if w and w.lower() not in _CONNECTORS]
    if not words:
        raise SelectorError(f"empty selector {text!r}; valid forms:\n" + "\n".join(f"  - {f}" for f in FORMS))
    vocab = vocabulary(comp)
    groups = tuple(
        tuple(_term(alt, str(text), comp, vocab) for alt in word.split(",") if alt) for word in words
    )
    return Selector(str(text), groups)


def select(text: str, comp: Component) -> list[CardType]:
    """The base cards a selector picks, in deck order; an error when it picks none."""
    keys = parse_selector(text, comp).keys
    cards = [c for c in comp.cards if c.key in keys and c.copies]
    if not cards:
        raise SelectorError(f"selector {text!r} asks for cards that the base {comp.key!r} does not have")
    return cards


# --------------------------------------------------------------------------- variant spec


@dataclass(frozen=True)
class VariantSpec:
    """What a variant database says: its base and the changes, in the order they apply."""

    name: str
    base: str
    component: str = ""
    decks: int = 1
    remove: tuple[str, ...] = ()
    add: tuple[str, ...] = ()
    jokers: int | None = None
    mark: str = ""
    color: str = DEFAULT_COLOR
    describe: str = ""
    trials: int | None = None
    seed: int | None = None

    def __post_init__(self) -> None:
        if not _NAME.match(self.name):
            raise ValueError(f"name: use lower-case letters, digits and hyphens (found {self.name!r})")
        if (wrong := name_problem(self.name)) is not None:  # a device name such as `con`
            raise ValueError(f"name: {wrong}")
        if not 1 <= self.decks <= MAX_DECKS:
            raise ValueError(f"decks: 1 to {MAX_DECKS} base decks can be stacked, not {self.decks}")
        if self.jokers is not None and not 0 <= self.jokers <= 4 * MAX_DECKS:
            raise ValueError(f"jokers: 0 to {4 * MAX_DECKS}, not {self.jokers}")
        if self.mark and not 1 <= len(self.mark) <= 2:
            raise ValueError(f"mark: one or two characters fit the set disc, not {self.mark!r}")
        if self.trials is not None and not 100 <= self.trials <= 1_000_000:
            raise ValueError(f"trials: 100 to 1000000 simulated attacks, not {self.trials}")
        if not _HEX.match(self.color):
            raise ValueError(f"color: use #RRGGBB, not {self.color!r}")

    @property
    def label(self) -> str:
        """The letter(s) printed in the variant mark."""
        return self.mark or self.name[0].upper()

    def as_dict(self) -> dict[str, Any]:
        """The spec as the variant file and templates see it (defaults left out)."""
        data = asdict(self)
        out: dict[str, Any] = {"name": self.name, "base": self.base}
        for key in (
            "component",
            "decks",
            "remove",
            "add",
            "jokers",
            "mark",
            "color",
            "describe",
            "trials",
            "seed",
        ):
            value = data[key]
            if key in ("remove", "add"):
                value = list(value)
            if (
                value in ("", (), [], None)
                or (key == "decks" and value == 1)
                or (key == "color" and value == DEFAULT_COLOR)
            ):
                continue
            out[key] = value
        return out

    def summary(self) -> str:
        """The changes in one line, e.g. '2 decks; remove 4-6; add 2-3 of hearts; 2 jokers'."""
        parts = [f"{self.decks} deck{'s' if self.decks != 1 else ''} of {self.base}"]
        parts += [f"remove {r}" for r in self.remove] + [f"add {a}" for a in self.add]
        if self.jokers is not None:
            parts.append(f"{self.jokers} joker{'s' if self.jokers != 1 else ''}")
        return "; ".join(parts)


def variant_yaml(spec: VariantSpec) -> str:
    """The variant database text: a short header and the `variant:` mapping."""
    header = (
        f"# Stacked deck '{spec.name}', written by `pnp stack`. The base game's database is\n"
        f"# left untouched; this file only names it and the changes, applied in order:\n"
        f"# decks, remove, add, jokers. Rebuild with `pnp build` on this file.\n"
    )
    import yaml  # lazy: only writing a variant needs the YAML emitter (start-up speed of every command)

    body = yaml.safe_dump({"variant": spec.as_dict()}, sort_keys=False, allow_unicode=True, width=100)
    return header + body


def write_variant(path: Path, spec: VariantSpec, root: Path) -> Path:
    """Write the variant database (replacing an older one of the same name) inside project `root`."""
    from pnp.data.store import files  # lazy: only `pnp stack` writes a variant

    return files.write_text(path, variant_yaml(spec), root)


# --------------------------------------------------------------------------- applying changes


@dataclass(frozen=True)
class StackProblem:
    """A change that cannot be made: the variant key it sits under and why."""

    field: str
    message: str


@dataclass(frozen=True)
class Stack:
    """The outcome of applying a spec: copies per card key, in base order."""

    copies: dict[str, int]
    problems: tuple[StackProblem, ...] = field(default=())


def stack_copies(comp: Component, spec: VariantSpec) -> Stack:
    """Copies of every base card after the spec's changes (problems collected, not raised).

    The deck is bounded as it grows: the first change that takes a card over `MAX_COPIES` or the deck
    over `MAX_DECK_CARDS` (the limits of a database's own set) is the problem, and nothing after it runs.
    """
    base = {c.key: c.copies for c in comp.cards}
    copies = {k: n * spec.decks for k, n in base.items()}
    problems: list[StackProblem] = []
    total = sum(copies.values())
    chosen: dict[
        str, list[CardType]
    ] = {}  # selector text -> its cards (a change named many times is read once)

    def picked(group: str, i: int, text: str) -> list[CardType]:
        if text not in chosen:
            try:
                chosen[text] = select(text, comp)
            except SelectorError as exc:
                problems.append(StackProblem(f"variant.{group}[{i}]", str(exc)))
                chosen[text] = []
        return chosen[text]

    def too_many(where: str, key: str) -> bool:
        if copies[key] > MAX_COPIES:
            problems.append(
                StackProblem(where, f"{key!r} would have {copies[key]} copies; the limit is {MAX_COPIES}")
            )
        elif total > MAX_DECK_CARDS:
            problems.append(
                StackProblem(where, f"the deck would hold {total} cards; the limit is {MAX_DECK_CARDS}")
            )
        else:
            return False
        return True

    if any(too_many("variant.decks", key) for key in copies):
        return Stack(copies, tuple(problems))
    for i, text in enumerate(spec.remove):
        for card in picked("remove", i, text):
            total -= copies[card.key]
            copies[card.key] = 0
    for i, text in enumerate(spec.add):
        for card in picked("add", i, text):
            copies[card.key] += base[card.key]
            total += base[card.key]
            if too_many(f"variant.add[{i}]", card.key):
                return Stack(copies, tuple(problems))
    if spec.jokers is not None:
        try:
            jokers = select("jokers", comp)
        except SelectorError:
            problems.append(StackProblem("variant.jokers", f"{comp.key!r} has no jokers to count"))
            jokers = []
        for card in jokers:
            total -= copies[card.key]
            copies[card.key] = 0
        for i in range(spec.jokers if jokers else 0):
            copies[jokers[i % len(jokers)].key] += 1
            total += 1
            if too_many("variant.jokers", jokers[i % len(jokers)].key):
                return Stack(copies, tuple(problems))
    if not problems and not any(copies.values()):
        problems.append(StackProblem("variant", "the changes leave no cards at all"))
    return Stack(copies, tuple(problems))


def stacked_component(
    comp: Component, spec: VariantSpec, copies: Mapping[str, int], rules: Iterable[Any] = ()
) -> Component:
    """The base component with the stacked copies, the variant mark on every card, and `rules`.

    A deck the base prints once per player (money, say) keeps its sets as they are: each
    player's set goes on telling itself apart by its own colour and emblem, and the designs
    that read them (`mark.emblem`, `mark.name`) draw as they do for the base. Every other deck
    becomes one stack carrying the variant mark (--decks already says how many base decks it holds).
    """

    cards = tuple(replace(c, copies=copies[c.key]) for c in comp.cards if copies.get(c.key))
    name = f"{comp.name} ({spec.name})"
    if comp.sets is not None and comp.sets.option == "players":
        return replace(comp, name=name, cards=cards, rules=tuple(rules))
    mark = Mark(label=spec.label, color=spec.color, name=f"variant {spec.name}")
    sets = SetsSpec(option="decks", default=1, min=1, max=1, marks=(mark,))
    return replace(comp, name=name, cards=cards, sets=sets, rules=tuple(rules))
