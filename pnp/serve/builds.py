"""The page's Build button: the print settings form checked, then `pnp build` run in a thread.

The build is the CLI's own (`pnp.buildplan`), so the PDFs are the same bytes `pnp build` writes
with the same options, published atomically into the output folder. It runs on one worker
in the server process: forking worker processes from a threaded server could copy a held
lock into a child, and a preview's builds are small.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pnp.buildplan.options import build_options
from pnp.buildplan.plan import plan_build, total_weight
from pnp.buildplan.run import build
from pnp.data.format.errors import InputError
from pnp.data.reading.loader import load_game
from pnp.data.reading.project import Project
from pnp.data.reading.sheets import sheet_named
from pnp.output.options import OPTION, PRINT_OPTIONS
from pnp.output.steps import BuildOptions
from pnp.resolve.fonts import Fonts

MAX_FIELD = 100  # characters of one setting


@dataclass(frozen=True)
class Settings:
    """The print settings form: every declared print option's value (`pnp.output.options`)."""

    values: tuple[tuple[str, Any], ...] = tuple((o.name, o.default) for o in PRINT_OPTIONS)
    games: tuple[str, ...] = ()

    def options(self, root: Path) -> BuildOptions:
        v = dict(self.values)
        return build_options(v, sheet_named(v["cutter"] or v["sheet"], root))

    def command(self) -> str:
        """The same build on the command line (the options that are not their default)."""
        parts = ["pnp build", *self.games]
        for name, value in self.values:
            o = OPTION[name]
            if value != o.default:
                parts.append(o.cli if o.kind == "flag" else f"{o.cli} {o.show(value)}")
        return " ".join(parts)


FIELDS = (*(o.name for o in PRINT_OPTIONS), "games")


def _text(form: dict[str, Any], name: str) -> Any:
    """A setting as the page sends it (text or a flag; a script may send a number); else refused."""
    value = form.get(name)
    if value is None or isinstance(value, bool):
        return value
    if not isinstance(value, (str, int, float)):
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


def _file(value: str | None, root: Path | None) -> str | None:
    """A file setting (the press profile): a file inside the project."""
    if value is None:
        return None
    base = (root or Path.cwd()).resolve()
    path = (base / value).resolve()
    if not path.is_relative_to(base) or not path.is_file():
        raise ValueError("must be a file inside the project")
    return str(path)


def parse_settings(form: dict[str, Any], known_games: list[str], root: Path | None = None) -> Settings:
    """Settings from the page's form, each checked by its declaration as the command line checks it;
    ValueError names the field and what is wrong. `root`: the project (files are confined to it)."""
    unknown = [str(k)[:MAX_FIELD] for k in form if k not in FIELDS]
    if unknown:
        raise ValueError(f"{', '.join(unknown[:5])}: not a setting; the settings are {', '.join(FIELDS)}")
    values = []
    for o in PRINT_OPTIONS:
        try:
            value = o.parse(_text(form, o.name))
            values.append((o.name, _file(value, root) if o.kind == "file" else value))
        except ValueError as exc:
            raise ValueError(f"{o.name}: {exc}") from None
    return Settings(tuple(values), _games(form, known_games))


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
            if dict(settings.values)["draft"]:
                games = [dataclasses.replace(g, draft=True) for g in games]
            steps = plan_build(games, settings.options(self.project.root))
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
