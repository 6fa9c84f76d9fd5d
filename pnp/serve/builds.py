"""The page's Build button: the print settings form checked, then `pnp build` run in a thread.

The build is the CLI's own (`pnp.buildplan`), so the PDFs are the same bytes `pnp build` writes
with the same options, published atomically into the output folder. It runs on one worker
in the server process: forking worker processes from a threaded server could copy a held
lock into a child, and a preview's builds are small.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pnp.buildplan.plan import plan_build, total_weight
from pnp.buildplan.run import build
from pnp.data.format.errors import InputError
from pnp.data.reading.loader import load_game
from pnp.data.reading.project import Project
from pnp.geometry.sizes import paper_size
from pnp.output.sheets import SheetOptions
from pnp.output.steps import BuildOptions
from pnp.resolve.fonts import Fonts

DUPLEX = ("long", "short", "off")
CROP_MARKS = ("edge", "corner", "full", "off")


@dataclass(frozen=True)
class Settings:
    """The print settings form, as `pnp build` options."""

    paper: str = "a4"
    duplex: str = "long"
    bleed: float = 3.0
    crop_marks: str = "edge"
    back_offset: tuple[float, float] = (0.0, 0.0)
    players: int | None = None
    decks: int | None = None
    games: tuple[str, ...] = ()

    def options(self) -> BuildOptions:
        counts = {k: v for k, v in (("players", self.players), ("decks", self.decks)) if v is not None}
        sheets = SheetOptions(
            paper_size(self.paper), self.duplex, self.bleed, self.back_offset, self.crop_marks
        )
        return BuildOptions(sheets, counts)

    def command(self) -> str:
        """The same build on the command line."""
        parts = [
            "pnp build",
            *self.games,
            f"--paper {self.paper}",
            f"--duplex {self.duplex}",
            f"--bleed {self.bleed:g}",
            f"--crop-marks {self.crop_marks}",
            f"--back-offset {self.back_offset[0]:g},{self.back_offset[1]:g}",
        ]
        parts += [
            f"--{k} {v}" for k, v in (("players", self.players), ("decks", self.decks)) if v is not None
        ]
        return " ".join(parts)


FIELDS = (
    "paper",
    "duplex",
    "bleed",
    "crop_marks",
    "back_offset_x",
    "back_offset_y",
    "players",
    "decks",
    "games",
)
MAX_FIELD = 100  # characters of one setting
MAX_COUNT = 10_000  # players or decks


def _text(form: dict[str, Any], name: str) -> str:
    """A setting as text: the page sends text, a script may send a number; anything else is refused."""
    value = form.get(name)
    if value is None:
        return ""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise ValueError(f"{name}: expected text or a number, found {type(value).__name__}")
    text = str(value).strip()
    if len(text) > MAX_FIELD:
        raise ValueError(f"{name}: longer than {MAX_FIELD} characters")
    return text


def _games(form: dict[str, Any], known_games: list[str]) -> tuple[str, ...]:
    value = form.get("games")
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(g, str) for g in value):
        raise ValueError(f"games: expected a list of game names, found {type(value).__name__}")
    unknown = [g for g in value if g not in known_games]
    if unknown:
        raise ValueError(f"games: no such game {', '.join(repr(g[:MAX_FIELD]) for g in unknown[:5])}")
    return tuple(dict.fromkeys(value))


def parse_settings(form: dict[str, Any], known_games: list[str]) -> Settings:
    """Settings from the page's form; ValueError names the field and what is wrong."""
    unknown = [str(k)[:MAX_FIELD] for k in form if k not in FIELDS]
    if unknown:
        raise ValueError(f"{', '.join(unknown[:5])}: not a setting; the settings are {', '.join(FIELDS)}")

    def number(name: str, low: float, high: float, default: float) -> float:
        text = _text(form, name)
        try:
            value = float(text) if text else default
        except ValueError:
            raise ValueError(f"{name}: not a number: {text!r}") from None
        if not low <= value <= high:
            raise ValueError(f"{name}: must be between {low:g} and {high:g}")
        return value

    def count(name: str) -> int | None:
        text = _text(form, name)
        if not text:
            return None
        if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= MAX_COUNT:
            raise ValueError(f"{name}: a whole number from 1 to {MAX_COUNT}, or empty for the game's default")
        return int(text)

    paper = _text(form, "paper") or "a4"
    paper_size(paper)  # raises ValueError naming the sizes it knows
    duplex, crop = _text(form, "duplex") or "long", _text(form, "crop_marks") or "edge"
    if duplex not in DUPLEX:
        raise ValueError(f"duplex: one of {', '.join(DUPLEX)}")
    if crop not in CROP_MARKS:
        raise ValueError(f"crop_marks: one of {', '.join(CROP_MARKS)}")
    offset = (number("back_offset_x", -20, 20, 0.0), number("back_offset_y", -20, 20, 0.0))
    games = _games(form, known_games)
    return Settings(
        paper, duplex, number("bleed", 0, 10, 3.0), crop, offset, count("players"), count("decks"), games
    )


@dataclass
class Status:
    """Where the current or last build is; sent to the page as it changes."""

    state: str = "idle"  # idle | running | done | failed
    done: int = 0
    total: int = 0
    command: str = ""
    seconds: float = 0.0
    files: list[dict[str, Any]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    earlier: list[dict[str, Any]] = field(default_factory=list)  # the last good build's files (untouched)


class Builder:
    """Runs one build at a time and reports its progress through `notify`."""

    def __init__(
        self,
        project: Project,
        out: Path,
        notify: Callable[[dict[str, Any]], None],
        drawing: threading.RLock | None = None,
    ):
        self.project, self.out, self.notify = project, out, notify
        self.drawing = drawing or threading.RLock()  # shared with the pictures: one thread draws at a time
        self._lock = threading.Lock()
        self.status = Status()
        self._thread: threading.Thread | None = None

    def start(self, settings: Settings) -> bool:
        """Start a build; False when one is already running."""
        with self._lock:
            if self.status.state == "running":
                return False
            last = self.status.files if self.status.state == "done" else self.status.earlier
            self.status = Status("running", command=settings.command(), earlier=last)
            self._thread = threading.Thread(
                target=self._run, args=(settings,), daemon=True, name="pnp-serve-build"
            )
            self._thread.start()
        self._send()
        return True

    def join(self, timeout: float | None = None) -> None:
        if self._thread:
            self._thread.join(timeout)

    def snapshot(self) -> dict[str, Any]:
        return asdict(self.status)

    def _send(self) -> None:
        self.notify(self.snapshot())

    def _run(self, settings: Settings) -> None:
        started = time.monotonic()
        last = [0.0]

        def advance(n: int) -> None:
            self.status.done += n
            now = time.monotonic()
            if now - last[0] > 0.1:  # a few progress events a second are enough for a bar
                last[0] = now
                self._send()

        try:
            files = self.project.game_files()
            # a game, or a game in another language than its first: feenbalz/de
            wanted = [g.partition("/")[::2] for g in settings.games] or [(g, "") for g in files]
            games, problems = [], []
            for name, lang in wanted:
                path = files[name]
                try:
                    games.append(
                        load_game(
                            path, str(path.relative_to(self.project.root)), self.project.root, lang=lang
                        )
                    )
                except InputError as exc:
                    problems += exc.problems
            if problems:
                raise InputError(problems)
            steps = plan_build(games, settings.options())
            self.status.total = total_weight(steps)
            self._send()
            with self.drawing:
                outputs = build(steps, games, self.out, Fonts.load(self.project.fonts), advance, jobs=1)
            self.status.files = [
                {"path": o.path, "pages": o.pages, "kind": o.kind, "game": o.game} for o in outputs
            ]
            self.status.state = "done"
        except InputError as exc:
            self.status.problems = [str(p) for p in exc.problems]
            self.status.state = "failed"
        except Exception as exc:  # noqa: BLE001 - shown on the page; the server stays up
            self.status.problems = [f"build failed: {exc!r}"]
            self.status.state = "failed"
        self.status.seconds = round(time.monotonic() - started, 2)
        self._send()
