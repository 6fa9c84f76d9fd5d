"""`pnp order tgc`: a game's decks uploaded to The Game Crafter through its REST API.

The steps follow The Game Crafter's developer documentation, in this order:

1. `POST /session` (api_key_id, username, password) opens a session;
2. `GET /user/<id>` gives the account's root folder; `GET /user/<id>/designers`
   a designer for the new game, and `POST /game` makes it (unless `--game-id`
   names one already there);
3. `POST /folder` makes a folder for the pictures; `POST /file` uploads each
   distinct face and back once (multipart);
4. `POST /deck` per deck (its identity from the card size, its most used back),
   then `POST /deck/<id>/bulk-cards` with at most 100 cards a call, sent as the
   form field `cards`: a JSON array of objects taking the parameters of a single
   card's `POST /card` (developer/Deck.html and Card.html): each card's name,
   `face_id`, `quantity` (at most 99 an entry), and `back_from: Card` with its
   own `back_id` where its back differs from the deck's;
5. proof: the decks' backs and the cards' faces are marked proofed only when
   asked (`--proofed`: you have looked at the pictures yourself);
6. `DELETE /session/<id>` closes the session.

A 5xx answer or a dropped connection is tried again (three tries in all); a
4xx answer stops the upload with The Game Crafter's own message. The pictures
are The Game Crafter's PNGs (`pnp export png --profile tgc`).
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnp.output.exports.naming import Target, back_name, distinct_backs, face_name
from pnp.output.exports.setup import Scenes

API = "https://www.thegamecrafter.com/api"
TRIES = 3
PAUSES = (1.0, 3.0)  # seconds before the second and the third try
BULK = 100  # cards in one bulk-cards call
MAX_QUANTITY = 99  # copies in one card entry
BOUNDARY = "pnp-tgc-upload-boundary"
SECRET = ("password", "api_key_id")
# The Game Crafter's deck products by pnp's card size names (the same trim: 2.5 x 3.5 in is 63 x 88 mm).
IDENTITIES = {"poker": "PokerDeck", "bridge": "BridgeDeck", "mini": "MiniDeck", "tarot": "TarotDeck"}


class OrderError(Exception):
    """The upload could not go on; the message is one line for the user."""


@dataclass(frozen=True)
class Credentials:
    api_key_id: str
    username: str
    password: str


@dataclass
class Client:
    """Sends API calls (or, dry, prints them); `say` gets one line per request."""

    base: str
    say: Callable[[str], None]
    dry: bool = False
    pause: Callable[[float], None] = time.sleep
    opener: Callable[..., Any] = urllib.request.urlopen
    sent: list[str] = field(default_factory=list)

    def call(
        self, method: str, path: str, params: dict[str, Any], upload: tuple[str, bytes] | None = None
    ) -> dict[str, Any]:
        shown = {k: ("***" if k in SECRET else v) for k, v in params.items()}
        line = f"{method} {path} {json.dumps(shown, sort_keys=True)}" + (
            f" + file {upload[0]}" if upload else ""
        )
        self.say(("would send: " if self.dry else "") + line)
        self.sent.append(f"{method} {path}")
        if self.dry:
            return {
                "id": f"<{path.strip('/').split('/')[0]}-{len(self.sent)}>",
                "user_id": "<user>",
                "items": [{"id": "<designer>"}],
                "root_folder_id": "<root>",
            }
        return self._send(method, path, params, upload)

    def _request(
        self, method: str, path: str, params: dict[str, Any], upload: tuple[str, bytes] | None
    ) -> urllib.request.Request:
        url = f"{self.base.rstrip('/')}{path}"
        if upload:
            body = multipart(params, upload)
            headers = {"Content-Type": f"multipart/form-data; boundary={BOUNDARY}"}
            return urllib.request.Request(url, body, headers, method=method)
        query = urllib.parse.urlencode({k: str(v) for k, v in params.items()})
        if method in ("GET", "DELETE"):
            return urllib.request.Request(f"{url}?{query}", method=method)
        headers = {"Content-Type": "application/x-www-form-urlencoded"}
        return urllib.request.Request(url, query.encode("ascii"), headers, method=method)

    def _send(
        self, method: str, path: str, params: dict[str, Any], upload: tuple[str, bytes] | None
    ) -> dict[str, Any]:
        for attempt in range(TRIES):
            try:
                with self.opener(self._request(method, path, params, upload), timeout=60) as answer:
                    data = json.loads(answer.read().decode("utf-8") or "{}")
                    return dict(data.get("result", data))
            except urllib.error.HTTPError as exc:
                if exc.code < 500:
                    raise OrderError(
                        f"The Game Crafter refused {method} {path} (HTTP {exc.code}): {_message(exc)}"
                    ) from None
                problem = f"HTTP {exc.code}"
            except (urllib.error.URLError, OSError) as exc:
                problem = str(getattr(exc, "reason", exc))
            if attempt < TRIES - 1:
                self.say(f"  {problem}; trying again")
                self.pause(PAUSES[attempt])
        raise OrderError(f"{method} {path} failed {TRIES} times ({problem}); nothing more was sent")


def _message(exc: urllib.error.HTTPError) -> str:
    """The error message in The Game Crafter's answer ({"error": {"message": ...}}), on one line."""
    try:
        data = json.loads(exc.read().decode("utf-8"))
        text = str(data.get("error", {}).get("message") or data)
    except (ValueError, AttributeError, OSError):
        text = exc.reason if isinstance(exc.reason, str) else "no message"
    return " ".join(text.split())


def multipart(params: dict[str, Any], upload: tuple[str, bytes]) -> bytes:
    """A multipart/form-data body: the fields, then the file as `file`."""
    parts = [
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
        for k, v in params.items()
    ]
    name, data = upload
    parts.append(
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'
        "Content-Type: image/png\r\n\r\n".encode()
        + data
        + b"\r\n"
    )
    return b"".join(parts) + f"--{BOUNDARY}--\r\n".encode()


def identity(t: Target) -> str:
    """The Game Crafter's deck product for a component's card size; an OrderError when it sells none."""
    size = str(t.comp.card_size).strip().lower()
    if size not in IDENTITIES:
        raise OrderError(
            f"{t.game.where}: {t.comp.key}: The Game Crafter has no deck of card_size {t.comp.card_size!r}; "
            f"it takes {', '.join(IDENTITIES)}"
        )
    return IDENTITIES[size]


def _entries(
    t: Target, cards: list[Any], files: dict[str, str], deck_back: str, proofed: bool
) -> list[dict[str, Any]]:
    """Every card of one deck as bulk-cards entries (copies split at 99)."""
    out = []
    for p in cards:
        left = p.copies
        while left > 0:
            entry: dict[str, Any] = {
                "name": p.card.name,
                "quantity": min(left, MAX_QUANTITY),
                "face_id": files[face_name(p)],
                "has_proofed_face": int(proofed),
            }
            back = back_name(t.comp, p)
            if back != deck_back:
                entry |= {"back_from": "Card", "back_id": files[back], "has_proofed_back": int(proofed)}
            out.append(entry)
            left -= MAX_QUANTITY
    return out


def _deck(
    client: Client, sid: str, t: Target, cards: list[Any], where: tuple[Path, str, str], proofed: bool
) -> None:
    """One deck: its pictures into the folder, the deck in the game, its cards 100 a call."""
    pictures, folder, game_id = where
    names = [face_name(p) for p in cards] + [
        back_name(t.comp, cards[i]) for i in distinct_backs(t.comp, cards)
    ]
    files: dict[str, str] = {}
    for n in dict.fromkeys(names):
        path = pictures / f"{n}.png"
        params = {"session_id": sid, "name": f"{t.comp.key}-{n}.png", "folder_id": folder}
        data = b"" if client.dry else path.read_bytes()
        files[n] = client.call("POST", "/file", params, (path.name, data))["id"]
    backs = [back_name(t.comp, p) for p in cards for _ in range(p.copies)]
    deck_back = max(dict.fromkeys(backs), key=backs.count)
    deck_params: dict[str, Any] = {
        "session_id": sid,
        "name": t.comp.name,
        "game_id": game_id,
        "identity": identity(t),
        "back_id": files[deck_back],
        "has_proofed_back": int(proofed),
        "quantity": 1,
    }
    deck = client.call("POST", "/deck", deck_params)["id"]
    entries = _entries(t, cards, files, deck_back, proofed)
    for start in range(0, len(entries), BULK):
        batch = json.dumps(entries[start : start + BULK], sort_keys=True)
        client.call("POST", f"/deck/{deck}/bulk-cards", {"session_id": sid, "cards": batch})


def upload(
    client: Client,
    targets: list[Target],
    scenes: Scenes,
    pictures: Callable[[Target], Path],
    login: Credentials,
    game_id: str | None,
    proofed: bool,
) -> str:
    """Every step of the upload in order; returns The Game Crafter's id of the game."""
    try:
        session = client.call("POST", "/session", vars(login))
        sid, user = session["id"], session["user_id"]
        root = client.call("GET", f"/user/{user}", {"session_id": sid})["root_folder_id"]
        name = targets[0].game.game.name
        if game_id is None:
            designers = client.call("GET", f"/user/{user}/designers", {"session_id": sid}).get("items") or []
            if not designers:
                raise OrderError(
                    "your Game Crafter account has no designer yet: make one on the site, then run this again"
                )
            params = {"session_id": sid, "name": name, "designer_id": designers[0]["id"]}
            game_id = str(client.call("POST", "/game", params)["id"])
        params = {"session_id": sid, "name": f"{name} (pnp)", "user_id": user, "parent_id": root}
        folder = client.call("POST", "/folder", params)["id"]
        for t in targets:
            _deck(
                client,
                sid,
                t,
                scenes[t.game.slug].printed(t.comp.key),
                (pictures(t), folder, game_id),
                proofed,
            )
        client.call("DELETE", f"/session/{sid}", {})
    except (KeyError, TypeError, IndexError) as exc:
        raise OrderError(
            f"The Game Crafter's answer lacked {exc} (has its API changed?); nothing more was sent"
        ) from None
    return game_id
