"""The page's card editor: open a card's fields, save a change into its file, undo the last save.

A save is checked before anything is written: the new bytes of the one file are loaded and
checked exactly as `pnp check` would (rules, then drawing every card), from memory; an edit
that brings an error the game did not have already is refused with the messages. A file that
changed on disk since the page opened the card, or while the save was being checked, is not
overwritten (409: reload). The write itself is a new file renamed over the old one, so an editor
or the watcher never reads half a file.
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp.data.editing import cards as edits
from pnp.data.editing.yamltext import REMOVE, EditError
from pnp.data.format.errors import InputError
from pnp.data.format.model import FieldSpec, Game
from pnp.data.reading.loader import load_game
from pnp.serve.request import BadRequest, SaveRequest
from pnp.serve.state import ProblemItem, Tracker, check

UNDO_DEPTH = 20
PICTURE_NAMES = ("art", "picture", "image", "illustration", "portrait")
PICTURE_SUFFIXES = (".png", ".jpg", ".jpeg", ".svg")


class Refused(Exception):
    """An edit that is not written: HTTP status, the message, and any problems found."""

    def __init__(self, status: int, message: str, problems: list[str] | None = None, reload: bool = False):
        super().__init__(message)
        self.status, self.message, self.problems, self.reload = status, message, problems or [], reload

    def as_json(self) -> dict[str, Any]:
        return {"ok": False, "error": self.message, "problems": self.problems, "reload": self.reload}


@dataclass(frozen=True)
class Saved:
    """One save, for undo: the file's bytes before, and the digest of what was written."""

    path: Path
    display: str
    before: bytes
    after: str
    what: str


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _plain(text: str) -> str:
    """A problem's text without its line number (lines move when a card grows)."""
    return re.sub(r"^([^:]+):\d+:", r"\1:", text)


class Editor:
    """Edits cards of the tracked project, one save at a time."""

    def __init__(self, tracker: Tracker, drawing: threading.RLock):
        self.tracker, self.drawing = tracker, drawing
        self._lock = threading.Lock()
        self._undo: list[Saved] = []

    # -- reading ---------------------------------------------------------------------------------------
    def _game(self, slug: str) -> tuple[Path, Game]:
        if "/" in slug:
            raise Refused(
                409,
                f"{slug} is the game in another language: cards are edited in its first language, "
                "and their translations in the database beside it ({en: ..., de: ...})",
            )
        path = self.tracker.project.game_files().get(slug)
        game = self.tracker.loaded.get(slug)
        if path is None or game is None:
            raise Refused(404, f"no game {slug!r} loads right now; fix its problems first")
        return path, game

    def _where(self, slug: str, comp: str) -> tuple[Path, Game, edits.Where]:
        path, game = self._game(slug)
        if not any(c.key == comp and c.is_cards for c in game.components):
            raise Refused(404, f"{slug} has no card component {comp!r}")
        try:
            return path, game, edits.locate(path, self.tracker.project.root, comp)
        except (EditError, OSError) as exc:
            raise Refused(422, str(exc)) from None

    def open(self, slug: str, comp: str, card: str | None) -> dict[str, Any]:
        """What the form shows: the card's values as written, every field it may have, the file's digest."""
        path, game, where = self._where(slug, comp)
        data = where.path.read_bytes()
        try:
            values = _first_language(edits.read(where, data, card)) if card else {}
        except EditError as exc:
            raise Refused(404, str(exc)) from None
        component = game.component(comp)
        fields: list[dict[str, Any]] = [
            {"name": "name", "type": "str", "required": True, "doc": "the card's name"},
            {"name": "copies", "type": "int", "required": True, "doc": "how many of it one set holds"},
        ]
        for name, spec in component.fields.items():
            fields.append(
                {
                    "name": name,
                    "type": spec.type,
                    "required": spec.required and spec.default is None,
                    "choices": list(spec.choices) if spec.choices is not None else None,
                    "doc": spec.doc,
                    "picture": name in PICTURE_NAMES
                    or str(values.get(name, "")).lower().endswith(PICTURE_SUFFIXES),
                }
            )
        fields.append(
            {"name": "text", "type": "text", "required": False, "doc": "rules text printed on the card"}
        )
        shown = {f["name"]: _form_text(_effective(values, f["name"], component.fields)) for f in fields}
        if not card:
            shown["name"] = ""
        return {
            "game": slug,
            "component": comp,
            "card": card or "",
            "file": where.display,
            "kind": where.kind,
            "digest": digest(data),
            "fields": fields,
            "values": shown,
            "art": self._art(),
            "undo": self._undo[-1].what if self._undo else "",
        }

    def _art(self) -> list[str]:
        folder = self.tracker.project.root / "art"
        if not folder.is_dir():
            return []
        root = self.tracker.project.root
        return sorted(
            str(p.relative_to(root))
            for p in folder.rglob("*")
            if p.suffix.lower() in PICTURE_SUFFIXES and p.is_file() and not p.is_symlink()
        )[:500]

    # -- writing ---------------------------------------------------------------------------------------
    def save(self, request: dict[str, Any]) -> dict[str, Any]:
        """Change, duplicate or add a card; Refused says why nothing was written."""
        try:
            ask = SaveRequest.parse(request)
        except BadRequest as exc:
            raise Refused(400, str(exc)) from None
        slug, comp, card, action = ask.game, ask.component, ask.card, ask.action
        with self._lock:
            path, game, where = self._where(slug, comp)
            data = where.path.read_bytes()
            if digest(data) != ask.digest:
                raise Refused(
                    409,
                    f"{where.display} changed on disk since the page opened this card; it is shown "
                    "again as the file is now (nothing was written)",
                    reload=True,
                )
            try:
                values = edits.typed(ask.values, game.component(comp).fields)
                new = self._new_bytes(where, data, action, card, values, game.component(comp).fields)
            except (ValueError, EditError) as exc:
                raise Refused(422, str(exc)) from None
            self._check(path, slug, where, new)
            if not _replace(where.path, new, digest(data)):  # saved in another program while checking
                raise Refused(
                    409,
                    f"{where.display} changed on disk while this save was being checked; nothing was "
                    "written: the card is shown again as the file is now, make the change again",
                    reload=True,
                )
            what = {
                "change": f"changed {card}",
                "duplicate": f"copied {card} as {values.get('key')}",
                "add": f"added {values.get('key')}",
            }[action]
            self._undo = (self._undo + [Saved(where.path, where.display, data, digest(new), what)])[
                -UNDO_DEPTH:
            ]
            return {
                "ok": True,
                "file": where.display,
                "digest": digest(new),
                "saved": what,
                "card": str(values.get("key", card)),
            }

    @staticmethod
    def _new_bytes(
        where: edits.Where,
        data: bytes,
        action: str,
        card: str,
        values: dict[str, Any],
        fields: dict[str, FieldSpec],
    ) -> bytes:
        if action == "change":
            values.pop("key", None)  # a card keeps its key (its collation code): copy it for a new one
            current = edits.read(where, data, card)
            shown = _first_language(current)
            values = {
                k: v for k, v in values.items() if _form_text(_effective(shown, k, fields)) != _form_text(v)
            }  # only what the form changed
            if not values:
                raise EditError("nothing to save: the values are the ones in the file")
            translated = [k for k in values if isinstance(current.get(k), dict)]
            if translated:
                raise EditError(
                    f"{', '.join(translated)}: given in several languages in {where.display}; change "
                    "it there (the page writes a value in one language only)"
                )
            return edits.change(where, data, card, values)
        if values.get("key") in (None, REMOVE):
            raise ValueError("key: a new card needs a key of its own")
        if action == "duplicate":
            return edits.duplicate(where, data, card, values)
        return edits.add(where, data, values)

    def _check(self, database: Path, slug: str, where: edits.Where, new: bytes) -> None:
        """Load and check the game as the edit would leave it; refuse errors it did not have before."""
        root = self.tracker.project.root
        display = str(database.resolve().relative_to(root))
        before = {
            _plain(p.text)
            for g in (self.tracker.snapshot.games if self.tracker.snapshot else ())
            if g.slug == slug
            for p in g.problems
            if p.severity == "error"
        }
        with self.drawing:
            try:
                game = load_game(database, display, root, overlay={where.path.resolve(): new})
                found: tuple[ProblemItem, ...] = check(game, self.tracker.fonts)
                errors = [p.text for p in found if p.severity == "error"]
            except InputError as exc:
                errors = [str(p) for p in exc.problems]
        fresh = [e for e in errors if _plain(e) not in before]
        if fresh:
            raise Refused(422, f"not saved: {where.display} would not pass pnp check", fresh)

    def remember(self, saved: Saved) -> None:
        """A save made elsewhere (the layout editor), for the undo button."""
        with self._lock:
            self._undo = (self._undo + [saved])[-UNDO_DEPTH:]

    def undo(self) -> dict[str, Any]:
        """Put back the file of the last save, if nobody changed it since."""
        with self._lock:
            if not self._undo:
                raise Refused(409, "nothing to undo")
            last = self._undo[-1]
            try:
                replaced = _replace(last.path, last.before, last.after)
            except OSError:
                replaced = False
            if not replaced:
                self._undo.clear()
                raise Refused(
                    409, f"{last.display} changed on disk after that save; undo it in the file itself"
                )
            self._undo.pop()
            return {
                "ok": True,
                "file": last.display,
                "undone": last.what,
                "undo": self._undo[-1].what if self._undo else "",
            }


def _first_language(values: dict[str, Any]) -> dict[str, Any]:
    """A card's values with each text given per language ({en: ..., de: ...}) as its first language's."""
    return {k: next(iter(v.values()), "") if isinstance(v, dict) and v else v for k, v in values.items()}


def _effective(values: dict[str, Any], name: str, fields: dict[str, FieldSpec]) -> Any:
    """A card's value for `name` as the game reads it: written, else the default (copies: 1)."""
    if name in values:
        return values[name]
    if name == "copies":
        return 1
    spec = fields.get(name)
    return spec.default if spec is not None else None


def _form_text(value: Any) -> str:
    if value is None or value is REMOVE:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "; ".join(str(v) for v in value)
    return str(value)


def _replace(path: Path, data: bytes, expected: str) -> bool:
    """Replace the file's content with `data` in one rename (same folder, same permissions), only if
    its bytes still have the digest `expected`; False, and nothing written, when they do not.

    The new content is written to a file created exclusively beside it first, and the file is read
    again just before the rename, so a save made in another program meanwhile is never lost (the
    window left is the rename itself: no portable lock keeps other programs from writing)."""
    mode = path.stat().st_mode & 0o7777
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".pnp-edit", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        if digest(path.read_bytes()) != expected:
            Path(tmp).unlink()
            return False
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return True
