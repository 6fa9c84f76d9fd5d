"""A project's playtest feedback files read and checked: `playtest/ROUND.jsonl`, one entry a line
(`pnp.data.format.feedback`), written by `pnp serve --playtest` or typed by hand; every bad line
is a problem at file:line."""

from __future__ import annotations

import json
from datetime import UTC
from pathlib import Path

from pnp.data.format.errors import InputError, Problem
from pnp.data.format.feedback import Entry, is_round, parse_entry

FOLDER = "playtest"
MAX_BYTES = 64_000_000  # one round's file: hundreds of thousands of entries


def round_files(root: Path) -> dict[str, Path]:
    """Each round's feedback file in the project, by round name."""
    folder = root / FOLDER
    if not folder.is_dir():
        return {}
    return {p.stem: p for p in sorted(folder.glob("*.jsonl")) if is_round(p.stem) and p.is_file()}


def read_round(path: Path, name: str) -> list[Entry]:
    """Every entry of one round's file; InputError naming each bad line (`name`: the file as shown)."""
    if path.stat().st_size > MAX_BYTES:
        raise InputError([Problem(name, None, "", f"more than {MAX_BYTES:,} bytes; split the round")])
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(
            [Problem(name, None, "", f"not UTF-8 text ({exc.reason}); save it as UTF-8")]
        ) from None
    entries, problems = [], []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except (ValueError, RecursionError) as exc:
            problems.append(
                Problem(name, number, "", f"not a JSON object ({exc}); write one entry a line: {EXAMPLE}")
            )
            continue
        try:
            entries.append(parse_entry(data))
        except ValueError as exc:
            problems.append(Problem(name, number, "", str(exc)))
    if problems:
        raise InputError(problems)
    return entries


def game_rounds(root: Path, tag: str, shown: str = FOLDER) -> dict[str, list[Entry]]:
    """Each round's entries about the cards of the game tagged `tag`, rounds without any left out,
    the most recent (by its latest entry's time) last."""
    found = {}
    for name, path in round_files(root).items():
        mine = [e for e in read_round(path, f"{shown}/{path.name}") if e.card.startswith(f"{tag}-")]
        if mine:
            found[name] = mine
    return dict(sorted(found.items(), key=lambda kv: (max(_instant(e.time) for e in kv[1]), kv[0])))


def _instant(time: str) -> str:
    """A time comparable with another: as UTC, to the second."""
    from datetime import datetime

    moment = datetime.fromisoformat(time.replace("Z", "+00:00"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat()


EXAMPLE = '{"time": "2026-12-07T15:04:05Z", "card": "LM-moth", "ticks": ["unclear"], "text": "..."}'
