"""Who may talk to the preview server, and how much: hosts, origins, the run's token, connections.

The page is served to one person's browser, but every other site that browser opens can send
requests to 127.0.0.1 too. So:
- a request's `Host` must name the address the server listens on (a page on another name that
  resolves to 127.0.0.1, "DNS rebinding", is answered 421 and learns nothing);
- a request that changes anything must come from the page itself: a same-origin `Origin`, JSON,
  and the per-run token the page was given (a form or a script on another site cannot send it);
- with `--allow-remote` (another machine may connect) every request needs the token, which the
  printed address carries once and a cookie keeps;
- connections are counted: a flood of idle or half-sent ones makes room for new ones, oldest first.
"""

from __future__ import annotations

import hmac
import ipaddress
import secrets
import socket
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from http import HTTPStatus
from http.cookies import CookieError, SimpleCookie
from pathlib import Path
from urllib.parse import parse_qs, unquote

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
TOKEN_HEADER = "X-PNP-Token"
TOKEN_COOKIE = "pnp-token"
MAX_BODY = 1_000_000  # bytes: an edited card with long text fits many times over
MAX_CONNECTIONS = 64  # open at once; at the cap, the longest-idle one is closed for a new one
MAX_STREAMS = 16  # open event streams (pages); at the cap, the oldest one is ended
IDLE_S = 10.0  # a connection that sends nothing for this long is closed


def is_loopback(host: str) -> bool:
    """Whether `host` (an address or name to listen on) is this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class Refusal:
    """Why a request is not answered: its status and a message that says what to do."""

    status: HTTPStatus
    message: str


@dataclass(frozen=True)
class Guard:
    """The checks every request passes. `token` is made once per run of `pnp serve`."""

    host: str
    port: int
    remote: bool = False
    token: str = field(default_factory=lambda: secrets.token_urlsafe(32), repr=False)

    def hosts(self) -> set[str]:
        """The `Host` values a request may carry (with and without the port)."""
        names = set(LOOPBACK_NAMES)
        if not is_loopback(self.host) and self.host not in ("0.0.0.0", "::"):
            names.add(f"[{self.host}]" if ":" in self.host else self.host)
        out = {f"{n}:{self.port}" for n in names}
        if self.port == 80:
            out |= names
        return out

    def check_host(self, host: str | None) -> Refusal | None:
        if self.remote:  # any name may reach a server open to the network: the token guards it
            return None
        if host is None or host.lower() not in self.hosts():
            return Refusal(
                HTTPStatus.MISDIRECTED_REQUEST,
                f"this server answers only http://127.0.0.1:{self.port}/ (Host {host!r} refused)",
            )
        return None

    def has_token(self, headers: dict[str, str], query: str) -> bool:
        """Whether the request carries this run's token (header, cookie or `?token=`)."""
        found = offered(headers, query, TOKEN_HEADER, "token", TOKEN_COOKIE)
        return any(hmac.compare_digest(o.encode(), self.token.encode()) for o in found if o)

    def check_read(self, headers: dict[str, str], query: str) -> Refusal | None:
        """A request that only reads: the right Host; with --allow-remote, the token too."""
        refused = self.check_host(headers.get("host"))
        if refused is None and self.remote and not self.has_token(headers, query):
            refused = Refusal(
                HTTPStatus.FORBIDDEN, "open the address pnp serve printed (it carries the token)"
            )
        return refused

    def check_change(self, headers: dict[str, str], query: str) -> Refusal | None:
        """A request that changes something: the right Host, the page's own origin, JSON and the token."""
        refused = self.check_host(headers.get("host"))
        if refused:
            return refused
        refused = from_page(headers, "a change must come from the preview page itself")
        if refused:
            return refused
        if not hmac.compare_digest(headers.get(TOKEN_HEADER.lower(), "").encode(), self.token.encode()):
            return Refusal(
                HTTPStatus.FORBIDDEN, "refused: this page is from an earlier run of pnp serve; reload it"
            )
        return None


def offered(headers: dict[str, str], query: str, header: str, param: str, cookie_name: str) -> list[str]:
    """What a request offers as a secret: in its `header`, its query's `param` and its cookie."""
    found = [headers.get(header.lower(), "")] + parse_qs(query).get(param, [])
    try:
        cookie = SimpleCookie(headers.get("cookie", ""))
        if cookie_name in cookie:
            found.append(cookie[cookie_name].value)
    except CookieError:
        pass
    return found


def from_page(headers: dict[str, str], rule: str) -> Refusal | None:
    """A change from a page of this server: a same-origin `Origin` (and Sec-Fetch-Site) and a JSON body;
    `rule` says which page, in the refusal."""
    origin, host = headers.get("origin"), headers.get("host", "")
    if origin is None or origin.lower() != f"http://{host.lower()}":
        return Refusal(HTTPStatus.FORBIDDEN, f"refused: {rule} (Origin {origin!r})")
    if headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
        return Refusal(HTTPStatus.FORBIDDEN, f"refused: {rule}")
    if headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        return Refusal(
            HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "refused: send JSON (Content-Type: application/json)"
        )
    return None


def body_length(headers: dict[str, str], limit: int = MAX_BODY) -> int | Refusal:
    """How many bytes of body to read, decided from the headers alone (before reading any): a
    Content-Length of plain ASCII digits within `limit`, else the refusal to answer with."""
    if "transfer-encoding" in headers:
        return Refusal(HTTPStatus.LENGTH_REQUIRED, "send the body with a Content-Length, not chunked")
    text = headers.get("content-length")
    if text is None:
        return Refusal(HTTPStatus.LENGTH_REQUIRED, "a request with a body needs a Content-Length")
    text = text.strip()
    if not (text.isascii() and text.isdigit()):  # "²" and "٣" are digits to str.isdigit, not to HTTP
        return Refusal(HTTPStatus.BAD_REQUEST, f"Content-Length {text[:40]!r} is not a whole number of bytes")
    digits = text.lstrip("0") or "0"
    if len(digits) > len(str(limit)) or int(digits) > limit:  # never int() of thousands of digits
        shown = digits if len(digits) <= 20 else f"{digits[:20]}..."
        return Refusal(
            HTTPStatus.REQUEST_ENTITY_TOO_LARGE, f"the body is {shown} bytes; the limit is {limit}"
        )
    return int(digits)


SINGLE_HEADERS = (
    "host",
    "origin",
    "content-length",
    "content-type",
    "transfer-encoding",
    "sec-fetch-site",
    TOKEN_HEADER.lower(),
)


def check_single(names: list[str]) -> Refusal | None:
    """A request that repeats a header the checks read (two `Host`s, two `Origin`s ...) is refused:
    which copy counts would differ between this server and anything in front of it."""
    seen: set[str] = set()
    for name in (n.lower() for n in names):
        if name in SINGLE_HEADERS and name in seen:
            return Refusal(HTTPStatus.BAD_REQUEST, f"refused: the request has more than one {name} header")
        seen.add(name)
    return None


class Connections:
    """The open connections, each idle (waiting for a request) or busy (answering one).

    `admit` makes room for a new connection by closing the longest-idle ones, so a flood of
    connections that send nothing cannot keep the page's own requests out.
    """

    def __init__(self, limit: int = MAX_CONNECTIONS):
        self.limit = limit
        self._idle: OrderedDict[socket.socket, None] = OrderedDict()
        self._busy: set[socket.socket] = set()
        self._lock = threading.Lock()

    def admit(self, sock: socket.socket) -> None:
        with self._lock:
            evict = []
            while len(self._idle) + len(self._busy) >= self.limit and self._idle:
                old, _ = self._idle.popitem(last=False)
                evict.append(old)
            self._idle[sock] = None
        for old in evict:
            _hang_up(old)

    def idle(self, sock: socket.socket) -> None:
        with self._lock:
            self._busy.discard(sock)
            self._idle[sock] = None

    def busy(self, sock: socket.socket) -> None:
        with self._lock:
            self._idle.pop(sock, None)
            self._busy.add(sock)

    def drop(self, sock: socket.socket) -> None:
        with self._lock:
            self._idle.pop(sock, None)
            self._busy.discard(sock)

    def __len__(self) -> int:
        return len(self._idle) + len(self._busy)


def _hang_up(sock: socket.socket) -> None:
    """Wake the thread reading from `sock` (its read returns nothing) so it ends the connection."""
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


def served_file(
    base: Path,
    rel: str,
    kinds: dict[str, str],
    folders: tuple[str, ...] = (),
    named: frozenset[Path] = frozenset(),
) -> Path | None:
    """`base/rel` when it is a file of one of `kinds` inside `base` (and inside one of `folders`, or
    one of the `named` files, when given), after `..` and symbolic links, with no hidden part (`.env`,
    `.pnp/`); else None."""
    root = base.resolve()
    parts = [p for p in unquote(rel).split("/") if p]
    if not parts or any(p.startswith(".") for p in parts) or Path(parts[-1]).suffix.lower() not in kinds:
        return None
    path = (root / "/".join(parts)).resolve()
    if not path.is_relative_to(root) or path.suffix.lower() not in kinds:
        return None
    if (
        folders
        and not (parts[0] in folders and path.relative_to(root).parts[0] in folders)
        and path not in named
    ):
        return None
    return path
