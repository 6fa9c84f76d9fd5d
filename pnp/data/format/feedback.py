"""Playtest feedback as data: the text a card's QR code holds, and one entry of a round's feedback file.

A card printed for a playtest round with `playtest: {feedback: true}` carries a small QR code
holding `pnp:CODE@ROUND/vVERSION` (CODE and VERSION percent-encoded where they hold anything
but letters, digits and `-._~`): read by any phone, it names the card without a network. What
players say is kept in `playtest/ROUND.jsonl` in the project, one JSON object per line:

    {"time": "2026-12-07T15:04:05Z", "card": "LM-moth", "version": "0.4",
     "rating": 4, "ticks": ["too strong"], "text": "wins every fight"}

`time` and `card` are required, and at least one of `rating` (1 to 5), `ticks` and `text`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import quote, unquote

from pnp.data.format.names import is_device

ROUND = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,39}")  # a round's name: the file name and the print tag
TICKS = ("too strong", "too weak", "unclear", "typo")
MAX_TEXT = 2000  # characters of free text in one entry
MAX_CODE = 120  # characters of a card's collation code
_LINK = re.compile(
    r"pnp:(?P<code>[^@/\s]{1,360})@(?P<round>[A-Za-z0-9._-]{1,40})(?:/v(?P<version>\S{0,80}))?"
)
_FIELDS = ("time", "card", "version", "rating", "ticks", "text")


def is_round(name: str) -> bool:
    """Whether `name` may name a round (and its file on every system: not `con` or `nul`)."""
    return bool(ROUND.fullmatch(name)) and not is_device(name)


def card_link(code: str, round_name: str, version: str = "") -> str:
    """The text a card's feedback QR code holds."""
    tail = f"/v{quote(version, safe='')}" if version else ""
    return f"pnp:{quote(code, safe='')}@{round_name}{tail}"


def parse_link(text: str) -> tuple[str, str, str] | None:
    """(code, round, version) from a card's QR text (surrounding spaces allowed); None when it is not one."""
    found = _LINK.fullmatch(text.strip())
    if found is None or not is_round(found["round"]):
        return None
    return unquote(found["code"]), found["round"], unquote(found["version"] or "")


def round_name(given: str, version: str) -> str:
    """A game's playtest round: `playtest.round` when given, else its version made a plain word
    (`0.4` stays `0.4`, `round 3` is `round-3`), else `draft`."""
    if given:
        return given
    word = re.sub(r"[^A-Za-z0-9._-]+", "-", version).strip("-._")[:40].rstrip("-._")
    return word if is_round(word) else "draft"


@dataclass(frozen=True)
class Entry:
    """One thing a player said about one card."""

    time: str
    card: str
    version: str = ""
    rating: int | None = None
    ticks: tuple[str, ...] = ()
    text: str = ""

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"time": self.time, "card": self.card}
        if self.version:
            out["version"] = self.version
        if self.rating is not None:
            out["rating"] = self.rating
        if self.ticks:
            out["ticks"] = list(self.ticks)
        if self.text:
            out["text"] = self.text
        return out


def parse_entry(data: Any) -> Entry:
    """An entry from its JSON object; ValueError naming the field and what to write instead."""
    if not isinstance(data, dict):
        raise ValueError('an entry is a JSON object: {"time": ..., "card": ..., ...}')
    unknown = [str(k) for k in data if k not in _FIELDS]
    if unknown:
        raise ValueError(f"{unknown[0][:40]}: not a field of an entry (use {', '.join(_FIELDS)})")
    time = data.get("time")
    if not isinstance(time, str) or not _is_time(time):
        raise ValueError(f"time: an ISO 8601 time such as 2026-12-07T15:04:05Z, found {_shown(time)}")
    card = data.get("card")
    if not isinstance(card, str) or not card.strip() or len(card) > MAX_CODE or not card.isprintable():
        raise ValueError(f"card: the card's collation code such as LM-moth, found {_shown(card)}")
    version = data.get("version", "")
    if not isinstance(version, str) or len(version) > 24 or not version.isprintable():
        raise ValueError(f"version: at most 24 printable characters, found {_shown(version)}")
    rating = data.get("rating")
    if rating is not None and (
        isinstance(rating, bool) or not isinstance(rating, int) or not 1 <= rating <= 5
    ):
        raise ValueError(f"rating: a whole number from 1 to 5 (or leave it out), found {_shown(rating)}")
    ticks = data.get("ticks", [])
    if not isinstance(ticks, list) or any(t not in TICKS for t in ticks) or len(set(ticks)) != len(ticks):
        raise ValueError(f"ticks: a list of {', '.join(map(repr, TICKS))}, each once, found {_shown(ticks)}")
    text = data.get("text", "")
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        raise ValueError(f"text: words of at most {MAX_TEXT} characters, found {_shown(text)}")
    if rating is None and not ticks and not text.strip():
        raise ValueError("rating, ticks or text: an entry says something (a rating, a tick or words)")
    return Entry(time, card.strip(), version, rating, tuple(t for t in TICKS if t in ticks), text.strip())


def _is_time(text: str) -> bool:
    try:
        datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return False
    return len(text) <= 40


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


@dataclass(frozen=True)
class CardFeedback:
    """What one round said about one card: how many entries, each tick's count, the ratings, the words."""

    card: str
    entries: int
    ticks: dict[str, int]
    ratings: tuple[int, ...]
    texts: tuple[str, ...]

    @property
    def rating(self) -> float | None:
        return round(sum(self.ratings) / len(self.ratings), 2) if self.ratings else None

    def as_json(self) -> dict[str, Any]:
        return {
            "entries": self.entries,
            "ticks": self.ticks,
            "rating": self.rating,
            "ratings": list(self.ratings),
            "texts": list(self.texts),
        }

    def line(self) -> str:
        """One line: entries, the average rating, the ticks with their counts."""
        parts = [f"{self.entries} {'entry' if self.entries == 1 else 'entries'}"]
        if self.ratings:
            parts.append(f"rated {self.rating:g}/5 ({len(self.ratings)})")
        parts += [f"{tick} {n}" for tick, n in self.ticks.items()]
        return ", ".join(parts)


def summary(entries: list[Entry]) -> dict[str, CardFeedback]:
    """Per card, in the order first mentioned, what the entries said."""
    by_card: dict[str, list[Entry]] = {}
    for entry in entries:
        by_card.setdefault(entry.card, []).append(entry)
    return {
        card: CardFeedback(
            card,
            len(said),
            {t: n for t in TICKS if (n := sum(t in e.ticks for e in said))},
            tuple(e.rating for e in said if e.rating is not None),
            tuple(e.text for e in said if e.text),
        )
        for card, said in by_card.items()
    }
