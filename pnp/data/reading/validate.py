"""Read a game database afresh: parse YAML into the model and check everything up front.

Every problem found is collected with its file, line and field, so a person
can fix a database in one pass; `read_game` raises InputError when any exist.
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import jinja2

from pnp.data.format.catalog import FREE_SLOTS, has_symbol, unknown_symbol
from pnp.data.format.errors import InputError, PartlyRead, Problem
from pnp.data.format.facts import with_labels
from pnp.data.format.located import Located, line_of
from pnp.data.format.model import (
    BLANK_BACK,
    CARD_RESERVED,
    CardType,
    Component,
    Design,
    FieldSpec,
    Game,
)
from pnp.data.format.names import name_problem
from pnp.data.format.schema import Parser
from pnp.data.reading.languages import declared, in_language
from pnp.data.reading.layouts import layout_slots
from pnp.data.reading.lookcheck import check_look
from pnp.data.reading.messages import read_words
from pnp.data.reading.project import own_symbols
from pnp.data.reading.ruleshape import check_rule
from pnp.data.reading.spreadsheet import expand as expand_sheets
from pnp.data.reading.variants import (
    base_file,
    build_variant,
    parse_spec,
    variant_lines,
)
from pnp.data.reading.yamlhints import with_comment_hints
from pnp.data.reading.yamlsrc import load_yaml
from pnp.data.templating import elements as custom
from pnp.data.templating.engine import (
    compile_expr,
    compile_text,
    is_template,
    render_template,
)
from pnp.geometry import sizes as geometry

_PY_TYPES: dict[str, tuple[type, ...]] = {
    "int": (int,),
    "str": (str,),
    "bool": (bool,),
    "float": (int, float),
    "list": (list, tuple),
}


def _hint(name: str, options: Iterable[str]) -> str:
    close = difflib.get_close_matches(str(name), [str(o) for o in options], n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def read_game(
    path: Path,
    name: str,
    root: Path,
    load: Callable[[Path, str, Path], Game],
    overlay: Mapping[Path, bytes] | None = None,
    lang: str = "",
) -> Game:
    """Parse and validate one database file; raise InputError listing every problem.

    `pnp.data.reading.loader.load_game` is the entry point (it caches what this returns)
    and is passed in as `load`, which reads a variant's base game. `overlay` gives the
    bytes of some files (by resolved path) as an edit would leave them; `lang` is the language
    to read it in (one of game.languages; "" for the first).
    """
    if (bad_name := name_problem(path.stem)) is not None:  # the file name names the output folder
        raise InputError([Problem(name, None, "", f"the database's file name: {bad_name} (rename the file)")])
    overlay = overlay or {}
    data = load_yaml(path, name, overlay.get(path.resolve()))
    if isinstance(data, Located) and "variant" in data and "game" not in data:
        return load_variant(path, name, data, root, load)  # a stacked deck: base game + changes (`pnp stack`)
    parser = Parser(name)
    if not isinstance(data, Located):
        raise InputError(
            [Problem(name, line_of(data, None, 1), "", "a game database must be a YAML mapping")]
        )
    sheets: list[Path] = []
    sheet_notes: list[str] = []
    parser.problems += expand_sheets(
        data, name, path.resolve().parent, root, sheets, overlay, sheet_notes
    )  # cards: {from: x.csv}
    languages = declared(data) or ("en",)
    lang = lang or languages[0]
    if lang not in languages:
        raise InputError(
            [
                Problem(
                    name,
                    line_of(data.get("game"), "languages", line_of(data)),
                    "game.languages",
                    f"{path.stem} is not written in {lang!r}: its languages are "
                    f"{', '.join(languages)} (add {lang} to game.languages and give its text)",
                )
            ]
        )
    data, gaps, found = in_language(data, name, languages, lang)
    words, wrong = read_words(root, lang)
    parser.problems += found + wrong
    game = parser.record(Game, data, "", line_of(data))
    if game is None:
        raise InputError(with_comment_hints(parser.problems, name, path, overlay.get(path.resolve())))
    game = dataclasses.replace(
        game,
        source=path,
        root=root,
        symbols=own_symbols(root),
        sheets=tuple(sheets),
        sheet_notes=tuple(sheet_notes),
        unsaved=bool(overlay),
        language=lang,
        gaps=tuple(gaps),
        words=words,
    )
    checker = _Checker(name, data, parser.problems)
    game = checker.run(game)
    if checker.problems:
        raise PartlyRead(with_comment_hints(checker.problems, name, path, overlay.get(path.resolve())), game)
    return game


class _Checker:
    """Cross-field checks the type-level parse cannot make."""

    def __init__(self, file: str, raw: Located, problems: list[Problem]):
        self.file = file
        self.raw = raw
        self.problems = problems

    def fail(self, line: int | None, field: str, message: str) -> None:
        self.problems.append(Problem(self.file, line, field, message))

    def run(self, game: Game) -> Game:
        if any(c.kind == "tokens" and c.back is None for c in game.components):  # single-sided tokens
            game = dataclasses.replace(
                game,
                backs={**game.backs, BLANK_BACK: Design(layout="custom")},
                components=tuple(
                    dataclasses.replace(c, back=BLANK_BACK) if c.kind == "tokens" and c.back is None else c
                    for c in game.components
                ),
            )
        self._designs(game, "faces", game.faces)
        self._designs(game, "backs", game.backs)
        seen_components: dict[str, int] = {}
        seen_cards: dict[str, tuple[str, int]] = {}
        components = []
        for ci, comp in enumerate(game.components):
            where = f"components[{ci}]"
            if comp.key in seen_components:
                self.fail(
                    comp.line,
                    f"{where}.key",
                    f"duplicate component key {comp.key!r} (first on line {seen_components[comp.key]})",
                )
            seen_components[comp.key] = comp.line
            raw_comp = self.raw["components"][ci]
            components.append(self._component(game, comp, raw_comp, where, seen_cards))
        self.problems += check_look(self.file, game, self.raw)
        raw_rules = self.raw.get("rules") or []
        for ri, rule in enumerate(game.rules):
            self._rule(
                Component(key="facts", kind="reference", name="facts"), rule, raw_rules[ri], f"rules[{ri}]"
            )
        return dataclasses.replace(game, components=tuple(components))

    def _designs(self, game: Game, group: str, designs: dict[str, Design]) -> None:
        for key, design in designs.items():
            if key == BLANK_BACK:
                continue  # made here for single-sided tokens: nothing to check
            where = f"{group}.{key}"
            SLOTS = layout_slots()
            if design.layout not in SLOTS:
                self.fail(
                    design.line,
                    f"{where}.layout",
                    f"unknown layout {design.layout!r}{_hint(design.layout, SLOTS)}; layouts: {', '.join(sorted(SLOTS))}",
                )
                continue
            slots = SLOTS[design.layout]
            self._elements(game, design, where, group, key)
            for slot, value in design.slots.items():
                if design.layout in FREE_SLOTS:
                    if slot == "elements":
                        self.fail(
                            design.line,
                            f"{where}.slots.{slot}",
                            "a custom design's elements go under "
                            "the design's own 'elements' key, not under slots",
                        )
                elif slot not in slots:
                    self.fail(
                        design.line,
                        f"{where}.slots.{slot}",
                        f"layout {design.layout!r} has no slot {slot!r}{_hint(slot, slots)}",
                    )
                elif why := _wrong_shape(slots[slot].type, value):
                    raw_slots = self.raw.get(group, {}).get(key, {}).get("slots")
                    self.fail(line_of(raw_slots, slot) or design.line, f"{where}.slots.{slot}", why)
                for text in _strings(value):
                    if is_template(text):
                        try:
                            compile_text(text)
                        except jinja2.TemplateSyntaxError as exc:
                            self.fail(design.line, f"{where}.slots.{slot}", f"template syntax: {exc.message}")

    def _elements(self, game: Game, design: Design, where: str, group: str, key: str) -> None:
        if design.layout not in FREE_SLOTS:
            for name in ("elements", "let", "code_color", "extends", "frames"):
                if getattr(design, name):
                    self.fail(
                        design.line,
                        f"{where}.{name}",
                        f"only layout 'custom' draws {name} of its own "
                        f"(this design uses {design.layout!r}; `pnp layouts --show {design.layout}` "
                        "prints it to copy as a custom design)",
                    )
            return
        for name, expr in design.let.items():
            try:
                compile_expr(expr)
            except jinja2.TemplateSyntaxError as exc:
                self.fail(design.line, f"{where}.let.{name}", f"expression syntax: {exc.message}")
        if not design.elements and not design.extends:
            self.fail(design.line, f"{where}.elements", "a custom layout needs a list of elements to draw")
            return
        raw = self.raw[group][key].get("elements", [])
        for line, field, message in custom.check(
            design.elements, raw, where, game.symbols, bool(design.extends)
        ):
            self.fail(line, field, message)

    def _component(
        self, game: Game, comp: Component, raw: Located, where: str, seen_cards: dict[str, tuple[str, int]]
    ) -> Component:
        if comp.is_cards:
            try:
                size = geometry.card_size(comp.card_size)
            except ValueError as exc:
                self.fail(line_of(raw, "card_size"), f"{where}.card_size", str(exc))
            else:
                if comp.shape == "circle" and abs(size.w - size.h) > 0.05:
                    self.fail(
                        line_of(raw, "card_size"),
                        f"{where}.card_size",
                        f"a circle token is as high as it is "
                        f"wide; found {size.w:g} x {size.h:g} mm (e.g. card_size: 25x25)",
                    )
            if comp.shape != "rect" and comp.kind != "tokens":
                self.fail(
                    line_of(raw, "shape"),
                    f"{where}.shape",
                    f"only tokens have a shape; a {comp.kind} is "
                    "a rectangle (use kind: tokens for counters and tiles)",
                )
            for group, ref, designs in (("face", comp.face, game.faces), ("back", comp.back, game.backs)):
                if ref is None:
                    self.fail(line_of(raw), f"{where}.{group}", f"a {comp.kind} needs a {group} design")
                elif ref not in designs:
                    self.fail(
                        line_of(raw, group),
                        f"{where}.{group}",
                        f"no {group} design {ref!r}{_hint(ref, designs)}",
                    )
        if comp.sets:
            for mi, mark in enumerate(comp.sets.marks):
                if mark.emblem and not has_symbol(mark.emblem, game.symbols):
                    self.fail(
                        line_of(raw, "sets"),
                        f"{where}.sets.marks[{mi}].emblem",
                        unknown_symbol(mark.emblem, game.symbols),
                    )
        cards = []
        raw_cards = raw.get("cards", [])
        for i, card in enumerate(comp.cards):
            raw_card = raw_cards[i]
            cwhere = f"{where}.cards[{i}]"
            code_where = f"{cwhere} (key {card.key!r})"
            if card.key in seen_cards:
                other, line = seen_cards[card.key]
                self.fail(
                    card.line,
                    f"{code_where}.key",
                    f"duplicate card key {card.key!r} (first in {other} on line {line}); keys are unique in a game",
                )
            seen_cards[card.key] = (comp.key, card.line)
            for group, ref, designs in (("face", card.face, game.faces), ("back", card.back, game.backs)):
                if ref is not None and ref not in designs:
                    self.fail(
                        line_of(raw_card, group),
                        f"{code_where}.{group}",
                        f"no {group} design {ref!r}{_hint(ref, designs)}",
                    )
            card = dataclasses.replace(card, values=self._values(comp, card, raw_card, code_where))
            self._card_templates(game, card, raw_card, code_where)
            cards.append(card)
        raw_rules = raw.get("rules") or []
        for ri, rule in enumerate(comp.rules):
            self._rule(comp, rule, raw_rules[ri], f"{where}.rules[{ri}]")
        return dataclasses.replace(comp, cards=tuple(cards))

    def _card_templates(self, game: Game, card: CardType, raw: Located, where: str) -> None:
        """Card text and field values may read the game's facts (`{{ facts.set_bonus }}`): they must render."""
        env = {"facts": with_labels(game.facts)}
        for name, value in [("text", card.text), *card.values.items()]:
            for text in _strings(value):
                if not is_template(text):
                    continue
                try:
                    render_template(compile_text(text), env)
                except Exception as exc:  # noqa: BLE001 - any failure to render is a problem of this card
                    self.fail(line_of(raw, name), f"{where}.{name}", f"template: {exc}")

    def _values(self, comp: Component, card: CardType, raw: Located, where: str) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for name, value in card.values.items():
            line = line_of(raw, name)
            if name not in comp.fields:
                options = list(comp.fields) + list(CARD_RESERVED)
                declared = f"; fields of {comp.key!r}: {', '.join(comp.fields) or 'none'}"
                self.fail(line, f"{where}.{name}", f"unknown key {name!r}{_hint(name, options)}{declared}")
                continue
            values[name] = self._check_value(comp.fields[name], value, line, f"{where}.{name}")
        for name, spec in comp.fields.items():
            if name not in card.values:
                if spec.required and spec.default is None:
                    self.fail(line_of(raw), f"{where}.{name}", f"missing field {name!r}")
                values[name] = spec.default
        return values

    def _check_value(self, spec: FieldSpec, value: Any, line: int | None, where: str) -> Any:
        if value is None and not spec.required:
            return spec.default
        types = _PY_TYPES[spec.type]
        checked: Any = value  # isinstance against a tuple of types would narrow it to object
        if isinstance(value, bool) and bool not in types or not isinstance(checked, types):
            self.fail(line, where, f"expected {spec.type}, found {type(value).__name__} {value!r}")
            return value
        if spec.choices is not None:
            items = value if spec.type == "list" else [value]
            for item in items:
                if item not in spec.choices:
                    self.fail(
                        line,
                        where,
                        f"{item!r} is not allowed{_hint(item, spec.choices)}; "
                        f"choices: {', '.join(map(str, spec.choices))}",
                    )
        return list(value) if spec.type == "list" else value

    def _rule(self, comp: Component, rule: Any, raw: Any, where: str) -> None:
        self.problems += check_rule(self.file, comp, rule, raw, where)


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)


def load_variant(
    path: Path, name: str, data: Located, root: Path, load: Callable[[Path, str, Path], Game]
) -> Game:
    """Load a variant database: its base game from the same project, then the changes."""
    spec = parse_spec(data, name)
    lines = variant_lines(data)
    try:
        if not (root / "card_data").is_dir():
            raise ValueError("a variant database must sit inside a project (a folder with card_data/)")
        base_path = base_file(root, spec.base)
    except (ValueError, InputError) as exc:
        message = str(exc).split(": ", 2)[-1] if isinstance(exc, InputError) else str(exc)
        raise InputError([Problem(name, lines.get("variant.base"), "variant.base", message)]) from None
    base = load(base_path, str(base_path.relative_to(root)), root)
    return build_variant(spec, base, path, name, lines)


_ONE_VALUE = ("text", "paragraph", "colour", "symbol", "number", "choice", "name")  # slot types of one value


def _wrong_shape(kind: str, value: Any) -> str:
    """Why a slot of type `kind` cannot take `value` as written ('' when it can): a mapping or list where one
    value belongs. `{expr: ...}` computes any shape and is checked when drawn."""
    if isinstance(value, dict) and set(value) == {"expr"}:
        return ""
    if kind in _ONE_VALUE and isinstance(value, (dict, list)):
        shape = "mapping" if isinstance(value, dict) else "list"
        return f"a {kind} slot takes one value (text, a number or a template), not a {shape}"
    if kind == "list" and isinstance(value, dict):
        return "a list slot takes a list (or {expr: ...}), not a mapping"
    return ""
