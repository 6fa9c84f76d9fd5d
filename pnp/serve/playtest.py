"""`pnp serve --playtest`: a phone-sized page where players say what they think of a card, kept in
`playtest/ROUND.jsonl` in the project.

The page answers only what it must. A phone joins with the short join code `pnp serve` prints
(typed once, or in the printed address): it then gets the feedback page, the list of cards
(code and name, to pick or check a scanned code) and may post feedback; nothing else of the
project (the preview itself still needs the run's token). A post passes the guard's rules for a
change: one Host, a same-origin Origin, JSON, the join code in its header and a small
Content-Length; then every field is checked (400 naming it). Each entry is one line appended
under a file lock (`filelock`: also against another process) and flushed to disk (`fsync`)
before the answer, so posts sent at once are all kept, each whole.
"""

from __future__ import annotations

import dataclasses
import hmac
import json
import os
import secrets
import threading
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from http import HTTPStatus
from importlib.resources import files
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from pnp.data.format.errors import InputError, Problem
from pnp.data.format.feedback import Entry, parse_entry, parse_link
from pnp.data.format.model import Game
from pnp.data.reading.feedback import FOLDER
from pnp.serve.guard import Guard, Refusal, body_length, check_single, from_page, offered
from pnp.serve.state import ProblemItem

JOIN_COOKIE = "pnp-join"
JOIN_HEADER = "X-PNP-Join"
MAX_FEEDBACK_BODY = 16_000  # bytes: a rating, four ticks and 2,000 characters fit many times over
_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I: easy to read out and type on a phone
_FORM_FIELDS = ("card", "rating", "ticks", "text")


@dataclass(frozen=True)
class Answer:
    """What to send: status, body, content type and any headers."""

    status: HTTPStatus
    body: bytes
    kind: str = "application/json"
    headers: dict[str, str] = field(default_factory=dict)
    said: dict[str, Any] | None = None  # an entry kept: what to tell the pages


def _json(data: Any, status: HTTPStatus = HTTPStatus.OK) -> Answer:
    return Answer(status, json.dumps(data).encode(), headers={"Cache-Control": "no-store"})


@dataclass
class Playtest:
    """The feedback side of one run of `pnp serve --playtest` over the project at `root`."""

    root: Path
    join: str = field(default_factory=lambda: "".join(secrets.choice(_ALPHABET) for _ in range(8)))
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def shown_join(self) -> str:
        """The join code as printed: two groups of four."""
        return f"{self.join[:4]}-{self.join[4:]}"

    def joined(self, headers: dict[str, str], query: str) -> bool:
        """Whether the request carries the join code (typed in `?join=`, its cookie or its header)."""
        found = offered(headers, query, JOIN_HEADER, "join", JOIN_COOKIE)
        return any(hmac.compare_digest(_plain(o).encode(), self.join.encode()) for o in found if o)

    def answer(
        self,
        method: str,
        url: Any,
        headers: dict[str, str],
        names: list[str],
        read: Callable[[int], bytes],
        guard: Guard,
        games: list[Game],
    ) -> Answer | Refusal:
        """A request to a feedback route (`url`: split): the guard's Host and single-header rules (`names`:
        the header names as sent), a post's own checks and Content-Length, then its answer (`body`: where
        `read`: reads a post's body)."""
        refused = check_single(names) or guard.check_host(headers.get("host"))
        if refused is not None or method != "POST":
            return refused or self.get(url.path, headers, url.query, games)
        refused = self.check_post(headers)
        length = body_length(headers, MAX_FEEDBACK_BODY) if refused is None else refused
        if isinstance(length, Refusal):
            return length
        return self.post(url.path, read(length), games)

    def get(self, route: str, headers: dict[str, str], query: str, games: Iterable[Game]) -> Answer:
        """GET /play (the page, or the join form) and /play/cards (the cards a phone may name)."""
        joined = self.joined(headers, query)
        if route == "/play":
            if not joined:
                wrong = "join" in parse_qs(query)
                return Answer(
                    HTTPStatus.FORBIDDEN if wrong else HTTPStatus.OK,
                    _html("join")
                    .replace("{{WRONG}}", "That code is not this session's." if wrong else "")
                    .encode(),
                    "text/html; charset=utf-8",
                    {"Cache-Control": "no-store"},
                )
            cookie = f"{JOIN_COOKIE}={self.join}; HttpOnly; SameSite=Strict; Path=/play"
            page = _html("play").replace("{{JOIN}}", self.join).encode()
            return Answer(
                HTTPStatus.OK,
                page,
                "text/html; charset=utf-8",
                {"Cache-Control": "no-store", "Set-Cookie": cookie},
            )
        if route == "/play/cards" and joined:
            return _json({"cards": cards(games)})
        if route == "/play/cards":
            return _json(
                {"ok": False, "error": "join first: type the code pnp serve printed"}, HTTPStatus.FORBIDDEN
            )
        return Answer(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain; charset=utf-8")

    def check_post(self, headers: dict[str, str]) -> Refusal | None:
        """A post's own check beyond the guard's Host: its origin, JSON, and the join code."""
        refused = from_page(headers, "feedback must come from the feedback page")
        if refused:
            return refused
        if not hmac.compare_digest(_plain(headers.get(JOIN_HEADER.lower(), "")).encode(), self.join.encode()):
            return Refusal(HTTPStatus.FORBIDDEN, "refused: join first with the code pnp serve printed")
        return None

    def post(self, route: str, body: bytes, games: Iterable[Game]) -> Answer:
        """POST /play/feedback: the entry checked and appended to its round's file."""
        if route != "/play/feedback":
            return Answer(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain; charset=utf-8")
        try:
            form = json.loads(body or b"{}")
        except (ValueError, RecursionError):
            return _json({"ok": False, "error": "the body is not JSON"}, HTTPStatus.BAD_REQUEST)
        try:
            round_name, entry = feedback_entry(form, list(games))
        except ValueError as exc:
            return _json({"ok": False, "error": str(exc)}, HTTPStatus.BAD_REQUEST)
        try:
            with self._lock:  # one thread at a time here; the file lock keeps other processes out too
                path = append_entry(self.root, round_name, entry)
        except OSError as exc:  # the phone hears it was not kept, and why
            error = f"cannot write {FOLDER}/{round_name}.jsonl: {exc.strerror or exc}"
            return _json({"ok": False, "error": error}, HTTPStatus.INTERNAL_SERVER_ERROR)
        said = {"ok": True, "round": round_name, "card": entry.card, "file": f"{FOLDER}/{path.name}"}
        return dataclasses.replace(_json(said), said=said)


def feedback_entry(form: Any, games: list[Game]) -> tuple[str, Entry]:
    """The round and entry a posted form makes (its time now, in UTC); ValueError naming the field."""
    if not isinstance(form, dict):
        raise ValueError("the body must be a JSON object ({...})")
    unknown = [str(k)[:40] for k in form if k not in _FORM_FIELDS]
    if unknown:
        raise ValueError(f"{unknown[0]}: not a field of feedback (send {', '.join(_FORM_FIELDS)})")
    given = form.get("card")
    if not isinstance(given, str) or not given.strip():
        raise ValueError("card: the card's code (such as LM-moth) or the text its QR code holds")
    link = parse_link(given)
    code = link[0] if link else given.strip()
    game = next((g for g in games if code.startswith(f"{g.tag}-")), None)
    if game is None or not (link or any(c["code"] == code for c in cards([game]))):
        raise ValueError(f"card: {code[:60]!r} is no card of the games served (type the code under the card)")
    round_name, version = link[1:] if link else (game.round, game.game.version)
    time = datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")
    data = {
        "time": time,
        "card": code,
        "version": version,
        **{k: form[k] for k in _FORM_FIELDS[1:] if k in form},
    }
    return round_name, parse_entry(data)


def append_entry(root: Path, round_name: str, entry: Entry) -> Path:
    """Add `entry` as one line to playtest/ROUND.jsonl under its lock, on disk before returning."""
    from filelock import FileLock  # lazy: only a server that takes feedback writes

    folder = root / FOLDER
    folder.mkdir(exist_ok=True)
    path = folder / f"{round_name}.jsonl"
    if path.is_symlink() or not folder.resolve().is_relative_to(root.resolve()):
        raise OSError(f"a link at {FOLDER}/ or its file leads out of the project; remove it")
    line = json.dumps(entry.as_json(), ensure_ascii=False) + "\n"
    with FileLock(str(folder / f".{round_name}.jsonl.lock")), open(path, "a+b") as f:
        f.seek(0, os.SEEK_END)
        if f.tell():  # a file typed by hand may end without a newline: start a line of our own
            f.seek(f.tell() - 1)
            if f.read(1) != b"\n":
                line = "\n" + line
        f.write(line.encode("utf-8"))
        f.flush()
        os.fsync(f.fileno())
    return path


def cards(games: Iterable[Game]) -> list[dict[str, str]]:
    """Every card a phone may name: its code, name, game and the round it prints for."""
    out = []
    for game in games:
        for comp in game.components:
            if comp.is_cards:
                out += [
                    {"code": game.code(c), "name": c.name, "game": game.game.name, "round": game.round}
                    for c in comp.cards
                ]
    return out


def _plain(code: str) -> str:
    """A join code as typed: upper case, without spaces or the hyphen."""
    return code.upper().replace("-", "").replace(" ", "")


def _html(name: str) -> str:
    return files("pnp.serve").joinpath(f"static/{name}.html").read_text(encoding="utf-8")


def tile_feedback(root: Path, games: Iterable[Game]) -> tuple[dict[str, dict[str, Any]], list[Problem]]:
    """Per card code, what its game's latest round said (round, one line, the last few words) for the
    contact sheet; and the problems of feedback files that do not read."""
    from pnp.data.format.feedback import summary
    from pnp.data.reading.feedback import game_rounds

    out: dict[str, dict[str, Any]] = {}
    problems: list[Problem] = []
    for game in games:
        try:
            rounds = game_rounds(root, game.tag)
        except InputError as exc:
            problems += [p for p in exc.problems if p not in problems]
            continue
        if rounds:
            name, entries = list(rounds.items())[-1]
            for code, said in summary(entries).items():
                out[code] = {"round": name, "line": said.line(), "texts": list(said.texts[-3:])}
    return out, problems


def annotate(data: dict[str, Any], root: Path, games: Iterable[Game]) -> None:
    """The preview's state with each face tile's `feedback` (None: nothing said) and the problems of
    feedback files that do not read."""
    said, unread = tile_feedback(root, games)
    for game in data["games"]:
        for comp in game["components"]:
            for tile in comp["tiles"]:
                tile["feedback"] = said.get(tile["code"]) if tile["side"] == "face" else None
    data["problems"] += [asdict(ProblemItem.of(p)) for p in unread]


def is_route(route: str) -> bool:
    """Whether `route` is the feedback page's."""
    return route == "/play" or route.startswith("/play/")
