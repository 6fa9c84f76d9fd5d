"""The page's stack view: a stacked variant (card_data/variants/) played by bots against its base.

The numbers are those of `pnp simulate VARIANT --against BASE` (same seed, the variant's lowest
player count, greedy bots), at a modest game count so an answer comes in seconds. Each comparison is
worked out once on a thread of its own, never on the request's, and kept per content of the variant
file and its base database: asking again answers from memory, an edit starts a fresh one.
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass, field
from http import HTTPStatus
from pathlib import Path
from typing import Any

import yaml

from pnp.data.format.errors import InputError
from pnp.data.reading.loader import load_game
from pnp.data.reading.project import Project
from pnp.simulate.registry import NoEngine, setup
from pnp.simulate.run import run_games
from pnp.simulate.stats import compare, summarise

GAMES = 400  # enough for large differences to show, few enough for an answer in seconds
SEED = 1
KEPT = 64  # comparisons remembered (older ones are dropped)


@dataclass
class Comparisons:
    """Comparisons asked for, by variant name and file contents; the work runs on a thread each."""

    project: Project
    games: int = GAMES
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _known: dict[str, dict[str, Any]] = field(default_factory=dict)  # by contents digest
    _one: threading.Lock = field(default_factory=threading.Lock)  # one comparison plays at a time (one core)

    def variants(self) -> list[str]:
        return list(self.project.variant_files())

    def ask(self, name: str) -> tuple[dict[str, Any], HTTPStatus]:
        """The comparison for variant `name`: done, running (ask again) or why there is none."""
        files = self.project.variant_files()
        if name not in files:
            known = ", ".join(files) or "none (pnp stack makes them)"
            return {
                "ok": False,
                "error": f"no stacked variant {name[:80]!r}; there are: {known}",
            }, HTTPStatus.NOT_FOUND
        key = self._digest(files[name])
        with self._lock:
            found = self._known.get(key)
            if found is None:
                if len(self._known) >= KEPT:
                    self._known.pop(next(iter(self._known)))
                found = self._known[key] = {
                    "ok": True,
                    "status": "running",
                    "variant": name,
                    "games": self.games,
                }
                threading.Thread(target=self._work, args=(name, files[name], key), daemon=True).start()
            answer = dict(found)
        return answer, HTTPStatus.OK if answer["status"] != "error" else HTTPStatus.CONFLICT

    def _digest(self, path: Path) -> str:
        """The variant file's bytes and its base database's, hashed: what the comparison depends on."""
        data = path.read_bytes()
        digest = hashlib.sha256(data)
        try:
            base = str((yaml.safe_load(data) or {})["variant"]["base"])
            digest.update(self.project.resolve_game(base).read_bytes())
        except (yaml.YAMLError, InputError, KeyError, TypeError, OSError):
            pass  # a broken variant: the work below says what is wrong
        return f"{path.name}:{digest.hexdigest()}"

    def _work(self, name: str, path: Path, key: str) -> None:
        try:
            with self._one:
                answer = self._compare(name, path)
        except (InputError, NoEngine, OSError) as exc:
            problems = getattr(exc, "problems", None)
            text = "; ".join(str(p) for p in problems[:5]) if problems else str(exc)
            answer = {"ok": False, "status": "error", "variant": name, "error": text}
        with self._lock:
            self._known[key] = answer

    def _compare(self, name: str, path: Path) -> dict[str, Any]:
        root = self.project.root
        game = load_game(path, str(path.relative_to(root)), root)
        this = setup(game)
        base_name = str((game.variant or {}).get("base", ""))
        base_path = self.project.resolve_game(base_name)
        base = setup(load_game(base_path, str(base_path.relative_to(root)), root), this.way)
        players = this.players[0]
        bots = ("greedy",) * players
        mine = summarise(run_games(this.engine, self.games, players, bots, SEED, 1), players)
        theirs = summarise(run_games(base.engine, self.games, players, bots, SEED, 1), players)
        return {
            "ok": True,
            "status": "done",
            "variant": name,
            "base": base_name,
            "way": this.way,
            "games": self.games,
            "players": players,
            "seed": SEED,
            "bots": list(bots),
            "command": f"pnp simulate {name} --against {base_name} --games {self.games} --players {players}",
            "comparison": compare(mine, theirs),
        }
