"""What a print holds, card by card, and what changed since: records, tags and their difference.

A build records every printed card (`print_record`): its collation code (with its set, for
cards printed once per player), copies, the fields it shows (text rendered with the facts)
and two digests, one of everything its face draws (rendered slots, design and layout, the
pictures' bytes, fonts, own symbols, card size, style) and one of its back. The version
printed beside the code is left out, so a new version alone changes no card. The last
build's records sit in manifest.json; `pnp build --tag NAME` also keeps them in
`prints/<game>/NAME.json` in the project, small enough to commit. `diff` compares two records.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pnp.data.format.errors import InputError, Problem
from pnp.data.format.model import Component, Game
from pnp.data.format.names import is_device
from pnp.data.reading.layouts import builtin
from pnp.data.store.cache import file_digest
from pnp.data.templating.slots import card_view, rendered_slots
from pnp.draw.faces import card_size_of
from pnp.resolve.cards import Printed, printed_cards
from pnp.resolve.pictures import picture_spec

PRINTS = "prints"
TAG = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,39}")
_SKIP_FIELDS = ("code", "key")


def ident(p: Printed) -> str:
    """A printed card's name in a record: its code, and its set for cards printed once per set."""
    return p.code if p.set_index is None else f"{p.code}@{p.set_index}"


def print_record(game: Game, counts: Mapping[str, int] | None = None) -> dict[str, Any]:
    """Every printed card of the game with its copies, fields and face and back digests."""
    counts = dict(counts or {})
    shared = _shared_digest(game)
    pictures: dict[Path, str] = {}
    seen: dict[int, tuple[Any, str]] = {}  # declarations by identity (kept alive here): one text per design
    cards: dict[str, Any] = {}
    for comp in game.components:
        if not comp.is_cards:
            continue
        slots = rendered_slots(game, comp)
        for p in printed_cards(game, comp, counts):
            face, back = p.card.design("face", comp), p.card.design("back", comp)
            view = card_view(game, p.card)
            cards[ident(p)] = {
                "component": comp.key,
                "name": p.card.name,
                "copies": p.copies,
                "fields": {k: _plain(v) for k, v in sorted(view.items()) if k not in _SKIP_FIELDS},
                "face": _digest(
                    game,
                    comp,
                    f"faces.{face}",
                    game.faces.get(face),
                    p.card.key,
                    p,
                    slots,
                    shared,
                    pictures,
                    seen,
                ),
                "back": _digest(
                    game, comp, f"backs.{back}", game.backs.get(back), None, p, slots, shared, pictures, seen
                ),
            }
    return {
        "game": game.tag,
        "name": game.game.name,
        "version": game.game.version,
        "counts": counts,
        "cards": cards,
    }


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value, default=str))


def _digest(
    game: Game,
    comp: Component,
    where: str,
    design: Any,
    key: str | None,
    p: Printed,
    slots: Mapping[Any, Any],
    shared: str,
    pictures: dict[Path, str],
    seen: dict[int, tuple[Any, str]],
) -> str:
    """What one face or back draws, as a digest: a change to any part changes it."""

    def canon(value: Any) -> str:
        if id(value) not in seen:
            seen[id(value)] = (value, _canon(value))
        return seen[id(value)][1]

    drawn = slots.get((where, key, p.set_index, p.mark))
    layout = builtin().get(design.layout) if design is not None else None
    parts = [
        where,
        canon(design),
        canon(layout),
        json.dumps(drawn, sort_keys=True, default=repr),
        canon(card_size_of(comp)),
        canon(game.style),
        canon(p.mark),
        shared,
        *sorted(_pictures(game.root, drawn, pictures)),
    ]
    return hashlib.sha256("\x00".join(parts).encode()).hexdigest()[:20]


def _canon(value: Any) -> str:
    """A stable text of a declaration: its values without the line numbers it was read from."""

    def plain(v: Any) -> Any:
        if dataclasses.is_dataclass(v) and not isinstance(v, type):
            return {f.name: plain(getattr(v, f.name)) for f in dataclasses.fields(v) if f.name != "line"}
        if isinstance(v, Mapping):
            return {str(k): plain(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [plain(x) for x in v]
        return v if isinstance(v, (str, int, float, bool)) or v is None else repr(v)

    return json.dumps(plain(value), sort_keys=True)


def _pictures(root: Path, value: Any, memo: dict[Path, str]) -> set[str]:
    """Digests of the picture files a rendered slot value names (nested values too)."""
    found: set[str] = set()
    if isinstance(value, Mapping):
        for v in value.values():
            found |= _pictures(root, v, memo)
    elif isinstance(value, (list, tuple)):
        for v in value:
            found |= _pictures(root, v, memo)
    if isinstance(value, (str, Mapping)):
        try:
            spec = picture_spec(value)
        except ValueError:
            spec = None
        path = (root / spec[0]).resolve() if spec else None
        if path is not None and path.is_relative_to(root.resolve()) and path.is_file():
            if path not in memo:
                memo[path] = file_digest(path)
            found.add(f"{spec[0]}:{memo[path]}")  # type: ignore[index]
    return found


def _shared_digest(game: Game) -> str:
    """Fonts and the game's own symbols: every card uses them, so a change marks every card."""
    h = hashlib.sha256()
    fonts = game.root / "fonts"
    files = sorted(fonts.glob("*")) if fonts.is_dir() else []
    files += [game.root / "art" / "symbols" / f"{name}.svg" for name in game.symbols]
    for path in files:
        if path.is_file():
            h.update(f"{path.name}\x00{file_digest(path)}".encode())
    return h.hexdigest()


# ---------------------------------------------------------------------------------------------- tags


def tag_file(root: Path, slug: str, name: str) -> Path:
    """Where the print tagged `name` of a game is kept; ValueError for a name that is not a plain word."""
    if not TAG.fullmatch(name) or is_device(name):
        raise ValueError(
            f"a print's name is 1-40 letters, digits, dots, hyphens or underscores, found {name!r}"
        )
    return root / PRINTS / slug / f"{name}.json"


def save_tag(root: Path, slug: str, name: str, record: dict[str, Any]) -> Path:
    """Keep a print's record under its name (written whole: a temporary file renamed)."""
    from pnp.data.store import files  # lazy: only tagging writes here

    return files.write_json(tag_file(root, slug, name), record, root)


def tags(root: Path, slug: str) -> list[str]:
    """The game's tagged prints, oldest first."""
    folder = root / PRINTS / slug
    found = [p for p in folder.glob("*.json") if TAG.fullmatch(p.stem)] if folder.is_dir() else []
    return [p.stem for p in sorted(found, key=lambda p: (p.stat().st_mtime_ns, p.name))]


def earlier_print(
    root: Path, manifest: Mapping[str, Any], game: Game, since: str | None
) -> tuple[dict[str, Any], str]:
    """The record to compare with: the print tagged `since`, or the last build's; InputError if none."""
    if since is not None:
        try:
            path = tag_file(root, game.slug, since)
        except ValueError as exc:
            raise InputError([Problem("--since", None, "", str(exc))]) from None
        record = _read(path)
        if record is None:
            known = ", ".join(tags(root, game.slug)) or "none yet (pnp build GAME --tag NAME keeps one)"
            raise InputError(
                [
                    Problem(
                        f"{PRINTS}/{game.slug}/{since}.json",
                        None,
                        "",
                        f"no print of {game.slug} tagged {since!r}; tagged prints: {known}",
                    )
                ]
            )
        return record, f"print {since!r}"
    prints = manifest.get("prints")
    record = prints.get(game.slug) if isinstance(prints, dict) else None
    if not _is_record(record):
        raise InputError(
            [
                Problem(
                    "manifest.json",
                    None,
                    "prints",
                    f"no earlier build of {game.slug} to compare with: build it first "
                    f"(pnp build {game.slug}), or name a tagged print with --since",
                )
            ]
        )
    return record, "the last build"  # type: ignore[return-value]


def _read(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if _is_record(data) else None


def _is_record(data: Any) -> bool:
    return isinstance(data, dict) and isinstance(data.get("cards"), dict)


# ------------------------------------------------------------------------------------------- changes


@dataclass(frozen=True)
class CardChange:
    """One card added, removed or changed: which fields (old, new), and whether its face or back draws anew."""

    ident: str
    name: str
    component: str
    kind: str  # added | removed | changed
    copies: tuple[int, int]  # (before, now); 0 when it did not exist
    fields: dict[str, tuple[Any, Any]]
    face: bool = False
    back: bool = False
    printed_name: str = ""  # the name on the copies printed before (a changed card's may differ)

    @property
    def old_name(self) -> str:
        """The card's name as it was printed: what to look for when taking it out of the deck."""
        return self.printed_name or self.name

    def as_dict(self) -> dict[str, Any]:
        return {
            "card": self.ident,
            "name": self.name,
            "component": self.component,
            "kind": self.kind,
            "copies": list(self.copies),
            "fields": {k: {"old": o, "new": n} for k, (o, n) in self.fields.items()},
            "face": self.face,
            "back": self.back,
        }


@dataclass(frozen=True)
class Changes:
    """Every card that differs between an earlier print and now."""

    game: str
    since: str
    items: tuple[CardChange, ...]
    tag: str | None = None  # the tagged print compared with (None: the last build)

    def of(self, kind: str) -> list[CardChange]:
        return [c for c in self.items if c.kind == kind]

    def as_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "since": self.since,
            "added": [c.as_dict() for c in self.of("added")],
            "removed": [c.as_dict() for c in self.of("removed")],
            "changed": [c.as_dict() for c in self.of("changed")],
        }


def diff(
    old: Mapping[str, Any], new: Mapping[str, Any], game: str, since: str, tag: str | None = None
) -> Changes:
    """The cards added, removed and changed from `old` to `new` (two print records; `tag`: the name of
    the print `old` was kept as)."""
    before, now = old.get("cards", {}), new.get("cards", {})
    items: list[CardChange] = []
    for key in sorted(set(before) | set(now)):
        a, b = before.get(key), now.get(key)
        if not isinstance(a, dict):
            items.append(CardChange(key, b["name"], b["component"], "added", (0, b["copies"]), {}))
        elif not isinstance(b, dict):
            items.append(
                CardChange(
                    key,
                    str(a.get("name", key)),
                    str(a.get("component", "")),
                    "removed",
                    (int(a.get("copies", 0)), 0),
                    {},
                )
            )
        else:
            fa, fb = a.get("fields") or {}, b.get("fields") or {}
            fields = {k: (fa.get(k), fb.get(k)) for k in sorted(set(fa) | set(fb)) if fa.get(k) != fb.get(k)}
            face, back = a.get("face") != b["face"], a.get("back") != b["back"]
            if fields or face or back or a.get("copies") != b["copies"]:
                items.append(
                    CardChange(
                        key,
                        b["name"],
                        b["component"],
                        "changed",
                        (int(a.get("copies", 0)), b["copies"]),
                        fields,
                        face,
                        back,
                        str(a.get("name") or b["name"]),
                    )
                )
    return Changes(game, since, tuple(items), tag)
