"""The preview's HTTP server: the standard library's ThreadingHTTPServer, on 127.0.0.1 by default.

Why the standard library: the preview serves one page, a few JSON answers, PNGs and a
server-sent event stream to one person's browser on the same machine; http.server does
that with no dependency to install, audit or keep up to date, and a thread per request
lets an open event stream wait while pictures are served.

Routes: `/` the page, `/static/*` its script and style, `/api/state` the snapshot,
`/api/access?game=SLUG` a game's access check, `/api/compare?variant=NAME` a stacked variant
simulated against its base (the stack view), `/events` server-sent events, `/picture/KEY.png?size=thumb|full` a card,
`/output/PATH` built files, `/files/PATH` the project's inputs, `/api/card` a card's form;
`/api/layout?tile=ID` a card's element outlines; `POST /api/build`, `/api/edit`, `/api/undo`,
`/api/layout` (moved boxes). Every request passes `guard` first (one Host, the
server's; for a change also one same-origin Origin, JSON and the run's token, and a plain
Content-Length), then its body is checked field by field (400 naming the field); files are
served only from the output folder and the project's input folders, never a hidden file, never
a listing. A client that drops its connection is a debug line, never a traceback.
"""

from __future__ import annotations

import json
import logging
import queue
import socket
import sys
import threading
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from pnp.data.reading.feedback import FOLDER
from pnp.data.reading.project import Project
from pnp.output.options import PRINT_OPTIONS
from pnp.serve.access import access_findings
from pnp.serve.builds import Builder, parse_settings
from pnp.serve.compare import Comparisons
from pnp.serve.editor import Editor, Refused
from pnp.serve.guard import (
    IDLE_S,
    TOKEN_COOKIE,
    Connections,
    Guard,
    Refusal,
    body_length,
    check_single,
    is_loopback,
    served_file,
)
from pnp.serve.layouts import LayoutEditor
from pnp.serve.live import Hub, Live
from pnp.serve.page import asset, page
from pnp.serve.pictures import DrawFailed, PictureCache
from pnp.serve.playtest import Playtest, annotate, is_route
from pnp.serve.state import WATCHED, Tracker

log = logging.getLogger(__name__)

# A client that goes away mid-request (a closed tab, a reset, a timeout) is no error of the server's:
# logged at debug level, never a traceback in the terminal.
DISCONNECTS = (ConnectionError, TimeoutError)  # reset, aborted, broken pipe; socket.timeout

HOST = "127.0.0.1"  # the default: this machine only (another address needs --allow-remote)
KEEPALIVE_S = 15.0
TEXT = "text/plain; charset=utf-8"
INPUTS = {
    ".yaml": TEXT,
    ".yml": TEXT,
    ".csv": TEXT,
    ".j2": TEXT,
    ".md": TEXT,
    ".txt": TEXT,
    ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".svg": "image/svg+xml",
    ".ttf": "font/ttf",
    ".otf": "font/otf",
}
OUTPUTS = {
    ".pdf": "application/pdf",
    ".png": "image/png",
    ".json": "application/json",
    ".zip": "application/zip",
    ".jpg": "image/jpeg",
    ".txt": TEXT,
}


@dataclass
class App:
    """Everything a request may need: the project, its live snapshot, pictures and builds."""

    project: Project
    out: Path
    live: Live
    builder: Builder
    editor: Editor
    guard: Guard
    playtest: Playtest | None = None  # `--playtest`: the feedback page for phones
    comparisons: Comparisons | None = None  # the stack view's simulations, made on first use
    layouts: LayoutEditor = field(init=False)  # the layout editor: the card editor's checks and undo

    def __post_init__(self) -> None:
        self.layouts = LayoutEditor(self.editor, self.live)

    @classmethod
    def open(
        cls, project: Project, out: Path, guard: Guard, playtest: bool = False, eager: bool = True
    ) -> App:
        """The app for `project`; `eager`: read the project now (else `serve` reads it in the background)."""
        hub = Hub()
        cache = PictureCache()
        live = Live(Tracker(project, cache.drawing), cache, hub, eager)
        builder = Builder(project, out, lambda status: hub.send("build", status), cache.drawing)
        editor = Editor(live.tracker, cache.drawing)
        return cls(
            project,
            out,
            live,
            builder,
            editor,
            guard,
            Playtest(project.root) if playtest else None,
            Comparisons(project),
        )

    def state(self) -> dict[str, Any]:
        data = self.live.snapshot.as_json()
        self.live.cache.mark_fallbacks(
            data
        )  # a picture that cannot be drawn: the tile's last good one, and why
        if self.playtest is not None or (self.project.root / FOLDER).is_dir():  # what players said, per card
            annotate(data, self.project.root, self.live.tracker.loaded.values())
        try:
            output_name = str(self.out.relative_to(self.project.root))
        except ValueError:
            output_name = str(self.out)
        data.update(
            project=str(self.project.root),
            project_name=self.project.root.name,
            output=str(self.out),
            output_name=output_name,
            build=self.builder.snapshot(),
            variants=self.comparisons.variants() if self.comparisons else [],
            print_options=[o.describe() for o in PRINT_OPTIONS],
        )
        return data


class Handler(BaseHTTPRequestHandler):
    """One connection's requests; the App is set on a subclass made by `make_server`."""

    app: App
    server: Server
    server_version = "pnp-serve"
    protocol_version = "HTTP/1.1"
    timeout = IDLE_S  # a connection that sends nothing for this long is closed

    def log_message(self, format: str, *args: Any) -> None:  # quiet: the terminal shows the address only
        pass

    def handle(self) -> None:
        try:
            super().handle()
        except DISCONNECTS as exc:
            self.close_connection = True
            log.debug("a client went away mid-request (%s: %s)", type(exc).__name__, exc)

    def handle_one_request(self) -> None:
        self.server.connections.idle(self.connection)
        super().handle_one_request()

    def parse_request(self) -> bool:
        ok = super().parse_request()
        self.server.connections.busy(self.connection)
        return ok

    def _headers(self) -> dict[str, str]:
        return {k.lower(): v for k, v in self.headers.items()}

    def _refuse(self, refused: Refusal) -> None:
        """Answer with the refusal and close; a body sent anyway is read off briefly (at most 64 KB,
        0.2 s) so closing does not reset the connection before the answer is read."""
        self.close_connection = True
        self._send(refused.status, (refused.message + "\n").encode(), headers={"Connection": "close"})
        try:
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_WR)
            self.connection.settimeout(0.2)
            for _ in range(16):
                if not self.connection.recv(4096):
                    break
        except OSError:
            pass

    def _safely(self, work: Any) -> None:
        """Answer a request; a bug is one line in the terminal and a 500 answer, not a traceback."""
        try:
            work()
        except DISCONNECTS:
            raise
        except Exception as exc:  # noqa: BLE001 - the answer says so; the traceback is at debug level
            log.error(
                "pnp serve: %s %s failed (%s: %s); set PNP_LOG=debug for where",
                self.command,
                urlsplit(self.path).path[:200],
                type(exc).__name__,
                exc,
            )
            log.debug("the failed request", exc_info=True)
            self.close_connection = True
            self._send(HTTPStatus.INTERNAL_SERVER_ERROR, b"pnp serve failed to answer; see its terminal\n")

    def do_GET(self) -> None:
        self._safely(self._get)

    def do_POST(self) -> None:
        self._safely(self._post)

    def _get(self) -> None:
        url = urlsplit(self.path)
        route = url.path
        if self.app.playtest is not None and is_route(route):
            return self._play(url)
        refused = check_single(self.headers.keys()) or self.app.guard.check_read(self._headers(), url.query)
        if refused:
            return self._refuse(refused)
        if ".." in route.split("/") or "\\" in unquote(route):
            return self._send(HTTPStatus.FORBIDDEN, b"refused: path leaves the project\n")
        if route == "/":
            html = page().replace("{{TOKEN}}", self.app.guard.token).encode()
            cookie = {
                "Set-Cookie": f"{TOKEN_COOKIE}={self.app.guard.token}; HttpOnly; SameSite=Strict; Path=/"
            }
            return self._send(
                HTTPStatus.OK,
                html,
                "text/html; charset=utf-8",
                {"Cache-Control": "no-store", **(cookie if self.app.guard.remote else {})},
            )
        if route.startswith("/static/"):
            body = asset(route.removeprefix("/static/"))
            if body is None:
                return self._send(HTTPStatus.NOT_FOUND, b"not found\n")
            kind = "text/css" if route.endswith(".css") else "text/javascript"
            return self._send(HTTPStatus.OK, body, f"{kind}; charset=utf-8")
        if route == "/api/state":
            return self._json(self.app.state())
        if route == "/api/card":
            q = parse_qs(url.query)
            return self._answer(
                lambda: self.app.editor.open(
                    q.get("game", [""])[0], q.get("component", [""])[0], q.get("card", [""])[0] or None
                )
            )
        if route == "/api/layout":
            return self._answer(lambda: self.app.layouts.outline(parse_qs(url.query).get("tile", [""])[0]))
        if route == "/api/access":
            return self._json(
                *access_findings(self.app.live.tracker, parse_qs(url.query).get("game", [""])[0])
            )
        if route == "/api/compare" and self.app.comparisons is not None:
            return self._json(*self.app.comparisons.ask(parse_qs(url.query).get("variant", [""])[0]))
        if route == "/events":
            return self._events()
        if route.startswith("/picture/") and route.endswith(".png"):
            size = parse_qs(url.query).get("size", ["thumb"])[0]
            return self._picture(route.removeprefix("/picture/").removesuffix(".png"), size)
        if route.startswith("/output/"):
            return self._file(served_file(self.app.out, route.removeprefix("/output/"), OUTPUTS), OUTPUTS)
        if route.startswith("/files/"):
            sheets = frozenset(p.resolve() for g in self.app.live.tracker.loaded.values() for p in g.sheets)
            return self._file(
                served_file(self.app.project.root, route.removeprefix("/files/"), INPUTS, WATCHED, sheets),
                INPUTS,
            )
        self._send(HTTPStatus.NOT_FOUND, b"not found\n")

    def _post(self) -> None:
        url = urlsplit(self.path)
        headers = self._headers()
        if self.app.playtest is not None and is_route(url.path):
            return self._play(url)
        refused = check_single(self.headers.keys()) or self.app.guard.check_change(headers, url.query)
        length = body_length(headers) if refused is None else refused
        if isinstance(length, Refusal):
            return self._refuse(length)
        try:
            form = json.loads(self.rfile.read(length) or b"{}")
        except (ValueError, RecursionError):  # not JSON, not UTF-8, or nested past the parser's depth
            return self._json({"ok": False, "error": "the body is not JSON"}, HTTPStatus.BAD_REQUEST)
        if not isinstance(form, dict):
            return self._json(
                {"ok": False, "error": "the body must be a JSON object ({...})"}, HTTPStatus.BAD_REQUEST
            )
        if url.path == "/api/build":
            return self._build(form)
        if url.path == "/api/edit":
            return self._answer(lambda: self.app.editor.save(form))
        if url.path == "/api/layout":
            return self._answer(lambda: self.app.layouts.save(form))
        if url.path == "/api/undo":
            if form:
                return self._json(
                    {"ok": False, "error": f"undo takes no fields, found {', '.join(map(str, form))[:200]}"},
                    HTTPStatus.BAD_REQUEST,
                )
            return self._answer(self.app.editor.undo)
        self._send(HTTPStatus.NOT_FOUND, b"not found\n")

    def _play(self, url: Any) -> None:
        """A feedback route (--playtest), checked and answered by `pnp.serve.playtest`."""
        assert self.app.playtest is not None
        answer = self.app.playtest.answer(
            self.command,
            url,
            self._headers(),
            list(self.headers.keys()),
            self.rfile.read,
            self.app.guard,
            list(self.app.live.tracker.loaded.values()),
        )
        if isinstance(answer, Refusal):
            return self._refuse(answer)
        self._send(answer.status, answer.body, answer.kind, answer.headers)
        if answer.said is not None:  # the contact sheet shows it beside the card
            self.app.live.hub.send("feedback", answer.said)

    def _build(self, form: dict[str, Any]) -> None:
        try:
            games = [g.slug for g in self.app.live.snapshot.games]
            settings = parse_settings(form, games, self.app.builder.project.root)
        except ValueError as exc:
            return self._json({"ok": False, "error": str(exc)}, HTTPStatus.BAD_REQUEST)
        if not self.app.builder.start(settings):
            return self._json({"ok": False, "error": "a build is already running"}, HTTPStatus.CONFLICT)
        self._json({"ok": True, "command": settings.command()}, HTTPStatus.ACCEPTED)

    def _answer(self, work: Any) -> None:
        """The editor's answer as JSON; a refusal with its status and message."""
        try:
            return self._json(work())
        except Refused as exc:
            return self._json(exc.as_json(), HTTPStatus(exc.status))
        except OSError as exc:
            return self._json(
                {"ok": False, "error": f"cannot read or write the file: {exc.strerror or exc}"},
                HTTPStatus.CONFLICT,
            )

    def _picture(self, key: str, size: str) -> None:
        source = self.app.live.snapshot.pictures.get(key) or self.app.live.cache.source(key)
        if source is None or size not in ("thumb", "full"):
            return self._send(HTTPStatus.NOT_FOUND, b"no such picture (the card has changed since)\n")
        try:
            png = self.app.live.cache.get(key, size, source)
        except DrawFailed as exc:  # the page shows the tile's last good picture and this message
            return self._send(HTTPStatus.UNPROCESSABLE_ENTITY, f"cannot draw this card: {exc}\n".encode())
        # a key names the picture's content, so the browser may keep it as long as it likes
        self._send(HTTPStatus.OK, png, "image/png", {"Cache-Control": "max-age=31536000, immutable"})

    def _file(self, path: Path | None, kinds: dict[str, str]) -> None:
        if path is None:
            return self._send(HTTPStatus.FORBIDDEN, b"refused: not a file the preview serves\n")
        if not path.is_file():
            return self._send(HTTPStatus.NOT_FOUND, b"not found\n")
        self._send(
            HTTPStatus.OK, path.read_bytes(), kinds[path.suffix.lower()], {"Cache-Control": "no-store"}
        )

    def _events(self) -> None:
        q = self.app.live.hub.subscribe()
        try:
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            self.wfile.write(b"retry: 500\n\n")
            self.wfile.flush()
            while True:
                try:
                    message = q.get(timeout=KEEPALIVE_S)
                except queue.Empty:
                    message = ": still here\n\n"
                if message is None:
                    return
                self.wfile.write(message.encode())
                self.wfile.flush()
        except (OSError, ValueError):  # the page went away, or its connection was closed for room
            return
        finally:
            self.app.live.hub.unsubscribe(q)

    def _json(self, data: Any, status: HTTPStatus = HTTPStatus.OK) -> None:
        self._send(
            status, json.dumps(data, default=str).encode(), "application/json", {"Cache-Control": "no-store"}
        )

    def _send(
        self, status: HTTPStatus, body: bytes, kind: str = TEXT, headers: dict[str, str] | None = None
    ) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("X-Content-Type-Options", "nosniff")
            self.send_header("X-Frame-Options", "DENY")
            self.send_header("Referrer-Policy", "no-referrer")
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)
        except OSError:
            pass


class Server(ThreadingHTTPServer):
    """A thread per connection, counted: at the cap the longest-idle connection makes room."""

    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128

    def __init__(self, address: tuple[str, int], handler: type[BaseHTTPRequestHandler]):
        self.connections = Connections()
        if ":" in address[0]:
            self.address_family = socket.AF_INET6
        super().__init__(address, handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """What a request's thread raised past its handler: a client that went away at debug level,
        anything else as one line (its traceback at debug level)."""
        exc = sys.exc_info()[1]
        if isinstance(exc, DISCONNECTS):
            log.debug("a client went away (%s: %s)", type(exc).__name__, exc)
            return
        log.error(
            "pnp serve: a connection failed (%s: %s); set PNP_LOG=debug for where", type(exc).__name__, exc
        )
        log.debug("the failed connection", exc_info=True)

    def process_request(self, request: Any, client_address: Any) -> None:
        self.connections.admit(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        self.connections.drop(request)
        super().shutdown_request(request)


def make_server(
    project: Project,
    out: Path,
    port: int = 8000,
    host: str = HOST,
    allow_remote: bool = False,
    playtest: bool = False,
    eager: bool = True,
) -> tuple[Server, App]:
    """A server bound to host:port (0: any free port), with the project's first snapshot taken (unless
    not `eager`: then `serve` reads the project in the background, answering at once).

    A host other than this machine's loopback needs `allow_remote` (ValueError otherwise), and so
    does `playtest` (the feedback page is for the players' phones).
    """
    remote = not is_loopback(host)
    if remote and not allow_remote:
        raise ValueError(
            f"--host {host} lets other machines read and change this project; pnp serve listens "
            "on 127.0.0.1 unless you add --allow-remote (then every request needs the token)"
        )
    if playtest and not allow_remote:
        raise ValueError(
            "--playtest serves a page to the players' phones: add --allow-remote and --host 0.0.0.0 "
            "(or this machine's address on the network)"
        )
    server = Server((host, port), Handler)
    app = App.open(project, out, Guard(host, server.server_address[1], remote), playtest, eager)
    server.RequestHandlerClass = type("BoundHandler", (Handler,), {"app": app})
    return server, app


def serve(server: Server, app: App) -> threading.Thread:
    """Start watching and serving in background threads; `stop` ends both."""
    app.live.start(forget=server.socket.close)  # workers drawing thumbnails do not keep the port open
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True, name="pnp-serve-http"
    )
    thread.start()
    return thread


def stop(server: Server, app: App) -> None:
    """Stop watching and serving; a build still running is waited for (its output stays whole)."""
    app.live.stop()
    server.shutdown()
    server.server_close()
    app.builder.join()
    # keep the drawing lock: no request thread may start drawing while Python shuts down (PDFium would crash)
    app.live.cache.drawing.acquire(timeout=10)
