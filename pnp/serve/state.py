"""A snapshot of a project for the live preview: games, components, distinct cards, problems.

`Tracker.refresh` takes a new snapshot, reusing every game whose inputs (its database,
the templates, fonts, art and other card data) have the same content as last time. A game
that no longer loads keeps its last good cards, marked stale, beside its problems.
Problems read exactly as `pnp check` prints them.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from pnp.data.format.errors import InputError, Problem
from pnp.data.format.model import Component, Game
from pnp.data.reading.loader import load_game
from pnp.data.reading.project import Project
from pnp.data.templating.slots import rendered_slots
from pnp.draw.faces import card_size_of
from pnp.output.exports.naming import back_key, distinct_backs
from pnp.output.preflight import validate
from pnp.output.prints import ident as printed_ident
from pnp.resolve.cards import printed_cards
from pnp.resolve.fonts import Fonts
from pnp.rules.checker import checked
from pnp.serve.pictures import FileDigests, Source, game_reads, picture_key

WATCHED = ("card_data", "templates", "art", "fonts")


@dataclass(frozen=True)
class ProblemItem:
    """One problem for the problems panel: the CLI's own text, and where it points."""

    severity: str  # error | warning
    text: str
    file: str
    line: int | None
    game: str = ""

    @classmethod
    def of(cls, p: Problem, game: str = "", severity: str = "error") -> ProblemItem:
        return cls(severity, str(p), p.file, p.line, game)


@dataclass(frozen=True)
class Tile:
    """One distinct picture on a contact sheet: a face with its copies, or a back with its count."""

    id: str  # stable across edits: game/component/side/card/set
    side: str
    name: str
    code: str
    copies: int
    set: int | None
    mark: str
    picture: str  # content key ("" when the card cannot be drawn)
    file: str
    line: int
    fields: dict[str, Any]
    error: str = ""
    component: str = ""
    card: str = ""  # the card's key (faces: what the editor opens)
    since: str = ""  # "changed" or "new" since the game's last tagged print (pnp build --tag)


@dataclass(frozen=True)
class ComponentView:
    key: str
    name: str
    kind: str
    line: int
    size: str
    cards: int
    detail: str
    tiles: tuple[Tile, ...] = ()


@dataclass(frozen=True)
class GameView:
    slug: str
    name: str
    tag: str
    file: str
    players: str
    stale: bool
    components: tuple[ComponentView, ...]
    problems: tuple[ProblemItem, ...]
    digest: str = field(default="", repr=False)
    language: str = ""  # the language this view shows the game in
    languages: tuple[str, ...] = ()  # every language the game is written in (the page's switch)


@dataclass(frozen=True)
class Snapshot:
    """Everything the page shows, and the picture sources behind the tiles' keys."""

    version: int
    games: tuple[GameView, ...]
    problems: tuple[ProblemItem, ...] = ()
    pictures: dict[str, Source] = field(default_factory=dict, repr=False, compare=False)
    reading: bool = False  # the project's first reading is still under way (more games to come)

    def all_problems(self) -> list[ProblemItem]:
        return list(self.problems) + [p for g in self.games for p in g.problems]

    def tiles(self) -> dict[str, Tile]:
        return {t.id: t for g in self.games for c in g.components for t in c.tiles}

    def as_json(self) -> dict[str, Any]:
        games = [{k: v for k, v in asdict(g).items() if k != "digest"} for g in self.games]
        problems = [asdict(p) for p in self.all_problems()]
        return {"version": self.version, "games": games, "problems": problems, "reading": self.reading}


@dataclass(frozen=True)
class Changes:
    """What differs between two snapshots: tiles whose picture changed, came or went."""

    changed: tuple[str, ...] = ()
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    problems: bool = False
    shown: bool = False  # anything else the page shows (names, counts, sizes...)

    def __bool__(self) -> bool:
        return bool(self.changed or self.added or self.removed or self.problems or self.shown)


def changes(old: Snapshot | None, new: Snapshot) -> Changes:
    """The tiles a new snapshot re-renders (changed or added) and drops, and whether problems or text moved."""
    before = old.tiles() if old else {}
    after = new.tiles()
    return Changes(
        changed=tuple(i for i, t in after.items() if i in before and before[i].picture != t.picture),
        added=tuple(i for i in after if i not in before),
        removed=tuple(i for i in before if i not in after),
        problems=(old.all_problems() if old else []) != new.all_problems(),
        shown=old is None or _shown(old) != _shown(new),
    )


def _shown(snapshot: Snapshot) -> list[Any]:
    return [replace(g, digest="") for g in snapshot.games]


class Tracker:
    """Follows one project folder; each `refresh` returns a new Snapshot.

    Holds the last snapshot, the loaded fonts and file digests so unchanged games are reused.
    """

    def __init__(self, project: Project, drawing: threading.RLock | None = None):
        self.project = project
        self.drawing = drawing or threading.RLock()  # held while a game is read (it draws on ReportLab)
        self.files = FileDigests()
        self.snapshot: Snapshot | None = None
        self._fonts: tuple[str, Fonts] | None = None
        self._sources: dict[str, dict[str, Source]] = {}  # game -> picture key -> source (last good load)
        self.loaded: dict[str, Game] = {}  # game -> its last good load (the editor's fields)

    @property
    def fonts(self) -> Fonts:
        """The fonts the last refresh drew with."""
        return self._load_fonts(self.files.folder(self.project.fonts))[0]

    def refresh(self, shown: Callable[[Snapshot], None] | None = None) -> Snapshot:
        """The project as it is now; `shown` is given the snapshot so far after each game is read
        (marked `reading`), so that a page can show the first games while the rest are read."""
        root = self.project.root
        fonts_digest = self.files.folder(self.project.fonts)
        fonts, font_problems = self._load_fonts(fonts_digest)
        shared = _hash(fonts_digest, self.files.folder(root / "art" / "symbols"))
        data = self.project.card_data
        others = [
            p for p in sorted(data.rglob("*")) if p.is_file() and (p.parent != data or p.suffix != ".yaml")
        ]
        context = _hash(
            shared,
            self.files.folder(self.project.templates),
            self.files.folder(root / "art"),
            *(f"{p}\0{self.files.file(p)}" for p in others),
        )
        previous = {g.slug: g for g in self.snapshot.games} if self.snapshot else {}
        games: list[GameView] = []
        pictures: dict[str, Source] = {}
        for slug, path in self.project.game_files().items():
            digest = _hash(context, self.files.file(path))
            old = previous.get(slug)
            view = (
                old
                if old is not None and old.digest == digest
                else self._game(path, digest, fonts, shared, old)
            )
            games.append(view)
            if shown is not None:
                seen = {k: v for g in games for k, v in self._sources.get(g.slug, {}).items()}
                shown(
                    Snapshot(self.snapshot.version + 1 if self.snapshot else 1, tuple(games), (), seen, True)
                )
            for lang in view.languages[1:]:  # the same game in its other languages: views of their own
                old = previous.get(f"{slug}/{lang}")
                keyed = _hash(digest, lang)
                games.append(
                    old
                    if old is not None and old.digest == keyed
                    else self._game(path, keyed, fonts, shared, old, lang)
                )
        self._sources = {g.slug: self._sources[g.slug] for g in games if g.slug in self._sources}
        self.loaded = {g.slug: self.loaded[g.slug] for g in games if g.slug in self.loaded}
        for view in games:
            pictures.update(self._sources.get(view.slug, {}))
        version = self.snapshot.version + 1 if self.snapshot else 1
        self.snapshot = Snapshot(version, tuple(games), tuple(font_problems), pictures)
        return self.snapshot

    def _load_fonts(self, digest: str) -> tuple[Fonts, list[ProblemItem]]:
        if self._fonts and self._fonts[0] == digest:
            return self._fonts[1], []
        keep = (
            self._fonts[1] if self._fonts else Fonts.load(self.project.root / "no-fonts-folder")
        )  # ReportLab's
        try:
            fonts = Fonts.load(self.project.fonts)
        except InputError as exc:
            return keep, [ProblemItem.of(p) for p in exc.problems]
        except Exception as exc:  # noqa: BLE001 - e.g. fonts.yaml that is not YAML: say so, keep the last fonts
            where = _display(self.project.root, self.project.fonts / "fonts.yaml")
            return keep, [
                ProblemItem("error", f"{where}: cannot read: {str(exc).splitlines()[0]}", where, None)
            ]
        self._fonts = (digest, fonts)
        return fonts, []

    def _game(
        self, path: Path, digest: str, fonts: Fonts, shared: str, old: GameView | None, lang: str = ""
    ) -> GameView:
        with self.drawing:  # one game at a time: pictures are drawn between them
            return self._read_game(path, digest, fonts, shared, old, lang)

    def _read_game(
        self, path: Path, digest: str, fonts: Fonts, shared: str, old: GameView | None, lang: str = ""
    ) -> GameView:
        where = _display(self.project.root, path)
        slug = f"{path.stem}/{lang}" if lang else path.stem  # `lang` is given for the other languages only
        try:
            game = load_game(path, where, self.project.root, lang=lang)
        except InputError as exc:
            problems = tuple(ProblemItem.of(p, slug) for p in exc.problems)
            if old is not None and old.components:  # keep the last good cards on the page
                return replace(old, stale=True, problems=problems, digest=digest)
            return GameView(slug, path.stem, "", where, "", True, (), problems, digest, lang)
        except Exception as exc:  # noqa: BLE001 - the preview reports anything and keeps serving
            return GameView(
                slug,
                path.stem,
                "",
                where,
                "",
                True,
                old.components if old else (),
                (ProblemItem("error", f"{where}: cannot load: {exc!r}", where, None, slug),),
                digest,
                lang,
                old.languages if old else (),
            )
        game = replace(game, draft=True)  # a preview before the art exists: placeholders, not errors
        self.loaded[game.slug] = game
        sources: dict[str, Source] = {}
        marks = since_last_tag(self.project.root, game)
        components = tuple(
            _component(game, comp, fonts, shared, self.files, sources, marks) for comp in game.components
        )
        keys = [t.picture for c in components for t in c.tiles]
        problems = check(game, fonts, _hash(*keys) if all(keys) else None)  # drawn once per content
        self._sources[game.slug] = sources
        p = game.game.players
        players = f"{p.min} players" if p.min == p.max else f"{p.min}-{p.max} players"
        return GameView(
            game.slug,
            game.game.name,
            game.tag,
            where,
            players,
            False,
            components,
            problems,
            digest,
            game.lang,
            game.game.languages,
        )


def check(game: Game, fonts: Fonts, cards_key: str | None = None) -> tuple[ProblemItem, ...]:
    """`pnp check` for one loaded game: rule violations, then what drawing the cards finds (its outcome
    cached under `cards_key`, a digest of every tile's picture key, when given)."""
    out: list[ProblemItem] = []
    try:
        violations = checked(game)
        out += [ProblemItem(v.severity, str(v), v.file, v.line, game.slug) for v in violations]
        validate(
            game, fonts, booklets=not any(v.severity == "error" for v in violations), cards_key=cards_key
        )
    except InputError as exc:
        out += [ProblemItem.of(p, game.slug) for p in exc.problems]
    except Exception as exc:  # noqa: BLE001 - reported on the page; the server keeps going
        out.append(ProblemItem("error", f"{game.where}: cannot check: {exc!r}", game.where, None, game.slug))
    return tuple(out)


def since_last_tag(root: Path, game: Game) -> dict[str, str]:
    """Per printed card (`pnp.output.prints.ident`): "changed" or "new" since the last tagged print."""
    # lazy: print records only for a project with tagged prints
    from pnp.output.prints import diff, earlier_print, print_record, tags

    names = tags(root, game.slug)
    if not names:
        return {}
    try:
        old, label = earlier_print(root, {}, game, names[-1])
        found = diff(old, print_record(game, dict(old.get("counts") or {})), game.slug, label)
    except (InputError, OSError):
        return {}
    return {c.ident: "new" if c.kind == "added" else "changed" for c in found.items if c.kind != "removed"}


def _component(
    game: Game,
    comp: Component,
    fonts: Fonts,
    shared: str,
    files: FileDigests,
    sources: dict[str, Source],
    marks: dict[str, str],
) -> ComponentView:
    if comp.kind == "booklet":
        return ComponentView(comp.key, comp.name, comp.kind, comp.line, "", 0, f"templates/{comp.template}")
    if not comp.is_cards:
        size = comp.board.size if comp.board is not None else ""
        return ComponentView(comp.key, comp.name, comp.kind, comp.line, f"{size} mm" if size else "", 0, "")
    cards = printed_cards(game, comp)
    rendered = rendered_slots(game, comp)
    reads = game_reads(game)
    tiles: list[Tile] = []

    def tile(
        index: int,
        side: str,
        ident: str,
        name: str,
        code: str,
        copies: int,
        line: int,
        fields: dict[str, Any],
        file: str = "",
    ) -> Tile:
        p = cards[index]
        ident = f"{game.slug}/{comp.key}/{side}/{ident}/{p.set_index or ''}"
        try:
            key = picture_key(game, comp, p, side, shared, files, rendered, reads)
            sources[key] = Source(game, fonts, comp.key, index, side, ident)
            error = ""
        except InputError as exc:
            key, error = "", "; ".join(str(x) for x in exc.problems)
        return Tile(
            ident,
            side,
            name,
            code,
            copies,
            p.set_index,
            p.mark.label if p.mark else "",
            key,
            file or game.where,
            line,
            fields,
            error,
            comp.key,
            p.card.key if side == "face" else "",
            marks.get(printed_ident(p), "") if side == "face" else "",
        )

    for i, p in enumerate(cards):
        fields = dict(p.card.values) | ({"text": p.card.text} if p.card.text else {})
        file, line = p.card.source[:2] if p.card.source else (game.where, p.card.line)  # a sheet's own line
        tiles.append(tile(i, "face", p.card.key, p.card.name, p.code, p.copies, line, fields, file))
    for i in distinct_backs(comp, cards):
        design, set_index = back_key(comp, cards[i])
        count = sum(p.copies for p in cards if back_key(comp, p) == (design, set_index))
        line = game.backs[design].line if design in game.backs else comp.line
        tiles.append(tile(i, "back", design, "back", design, count, line, {"design": design}))
    detail = ""
    if comp.sets:
        n = len({p.set_index for p in cards})
        detail = f"one set per {comp.sets.option[:-1]}, {n} set{'s' * (n != 1)} shown"
    return ComponentView(
        comp.key,
        comp.name,
        comp.kind,
        comp.line,
        card_size_of(comp).label(),
        sum(p.copies for p in cards),
        detail,
        tuple(tiles),
    )


def _display(root: Path, path: Path) -> str:
    try:
        return str(path.resolve().relative_to(root))
    except ValueError:
        return str(path)


def _hash(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()
