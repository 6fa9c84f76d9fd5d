"""The preview's HTTP server: the standard library's ThreadingHTTPServer on 127.0.0.1 only.

Why the standard library: the preview serves one page, a few JSON answers, PNGs and a
server-sent event stream to one person's browser on the same machine; http.server does
that with no dependency to install, audit or keep up to date, and a thread per request
lets an open event stream wait while pictures are served.

Routes: `/` the page, `/static/*` its script and style, `/api/state` the snapshot,
`/events` server-sent events, `/picture/KEY.png?size=thumb|full` a card,
`/output/PATH` built PDFs, `/files/PATH` project files, `POST /api/build`.
Files are served only from inside the output and project folders; anything else is refused.
"""
from __future__ import annotations

import json
import queue
import threading
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from pnp.data.reading.project import Project
from pnp.serve.builds import Builder, parse_settings
from pnp.serve.live import Hub, Live
from pnp.serve.page import asset, page
from pnp.serve.pictures import PictureCache
from pnp.serve.state import Tracker

HOST = "127.0.0.1"   # never another interface: the preview reads and writes the project folder
KEEPALIVE_S = 15.0
TYPES = {".pdf": "application/pdf", ".png": "image/png", ".json": "application/json", ".svg": "image/svg+xml",
         ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".yaml": "text/plain; charset=utf-8",
         ".j2": "text/plain; charset=utf-8", ".csv": "text/plain; charset=utf-8", ".txt": "text/plain; charset=utf-8"}


@dataclass
class App:
    """Everything a request may need: the project, its live snapshot, pictures and builds."""

    project: Project
    out: Path
    live: Live
    builder: Builder

    @classmethod
    def open(cls, project: Project, out: Path) -> App:
        hub = Hub()
        cache = PictureCache()
        live = Live(Tracker(project), cache, hub)
        return cls(project, out, live, Builder(project, out, lambda status: hub.send("build", status), cache.drawing))

    def state(self) -> dict[str, Any]:
        data = self.live.snapshot.as_json()
        try:
            output_name = str(self.out.relative_to(self.project.root))
        except ValueError:
            output_name = str(self.out)
        data.update(project=str(self.project.root), project_name=self.project.root.name, output=str(self.out),
                    output_name=output_name, build=self.builder.snapshot())
        return data


def confined(base: Path, rel: str) -> Path | None:
    """`base/rel` when it stays inside `base` (after `..` and symbolic links), else None."""
    root = base.resolve()
    path = (root / unquote(rel)).resolve()
    return path if path.is_relative_to(root) else None


class Handler(BaseHTTPRequestHandler):
    """One request; the App is set on a subclass made by `make_server`."""

    app: App
    server_version = "pnp-serve"
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: Any) -> None:  # quiet: the terminal shows the address only
        pass

    def do_GET(self) -> None:
        url = urlsplit(self.path)
        route = url.path
        if ".." in route.split("/") or "\\" in unquote(route):
            return self._send(HTTPStatus.FORBIDDEN, b"refused: path leaves the project\n")
        if route == "/":
            return self._send(HTTPStatus.OK, page().encode(), "text/html; charset=utf-8")
        if route.startswith("/static/"):
            body = asset(route.removeprefix("/static/"))
            if body is None:
                return self._send(HTTPStatus.NOT_FOUND, b"not found\n")
            kind = "text/css" if route.endswith(".css") else "text/javascript"
            return self._send(HTTPStatus.OK, body, f"{kind}; charset=utf-8")
        if route == "/api/state":
            return self._json(self.app.state())
        if route == "/events":
            return self._events()
        if route.startswith("/picture/") and route.endswith(".png"):
            size = parse_qs(url.query).get("size", ["thumb"])[0]
            return self._picture(route.removeprefix("/picture/").removesuffix(".png"), size)
        if route.startswith("/output/"):
            return self._file(self.app.out, route.removeprefix("/output/"))
        if route.startswith("/files/"):
            return self._file(self.app.project.root, route.removeprefix("/files/"))
        self._send(HTTPStatus.NOT_FOUND, b"not found\n")

    def do_POST(self) -> None:
        if urlsplit(self.path).path != "/api/build":
            return self._send(HTTPStatus.NOT_FOUND, b"not found\n")
        try:
            length = int(self.headers.get("Content-Length", "0"))
            form = json.loads(self.rfile.read(min(length, 65536)) or b"{}")
            settings = parse_settings(form if isinstance(form, dict) else {},
                                      list(self.app.project.game_files()))
        except ValueError as exc:
            return self._json({"ok": False, "error": str(exc)}, HTTPStatus.BAD_REQUEST)
        if not self.app.builder.start(settings):
            return self._json({"ok": False, "error": "a build is already running"}, HTTPStatus.CONFLICT)
        self._json({"ok": True, "command": settings.command()}, HTTPStatus.ACCEPTED)

    def _picture(self, key: str, size: str) -> None:
        source = self.app.live.snapshot.pictures.get(key)
        if source is None or size not in ("thumb", "full"):
            return self._send(HTTPStatus.NOT_FOUND, b"no such picture (the card has changed since)\n")
        try:
            png = self.app.live.cache.get(key, size, source)
        except Exception as exc:  # noqa: BLE001 - the problems panel says why; the server keeps going
            return self._send(HTTPStatus.UNPROCESSABLE_ENTITY, f"cannot draw this card: {exc}\n".encode())
        # a key names the picture's content, so the browser may keep it as long as it likes
        self._send(HTTPStatus.OK, png, "image/png", {"Cache-Control": "max-age=31536000, immutable"})

    def _file(self, base: Path, rel: str) -> None:
        path = confined(base, rel)
        if path is None:
            return self._send(HTTPStatus.FORBIDDEN, b"refused: path leaves the project\n")
        if not path.is_file():
            return self._send(HTTPStatus.NOT_FOUND, b"not found\n")
        kind = TYPES.get(path.suffix.lower(), "application/octet-stream")
        self._send(HTTPStatus.OK, path.read_bytes(), kind, {"Cache-Control": "no-store"})

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
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            return
        finally:
            self.app.live.hub.unsubscribe(q)

    def _json(self, data: Any, status: HTTPStatus = HTTPStatus.OK) -> None:
        self._send(status, json.dumps(data, default=str).encode(), "application/json", {"Cache-Control": "no-store"})

    def _send(self, status: HTTPStatus, body: bytes, kind: str = "text/plain; charset=utf-8",
              headers: dict[str, str] | None = None) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("X-Content-Type-Options", "nosniff")
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass


class Server(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True


def make_server(project: Project, out: Path, port: int = 8000) -> tuple[Server, App]:
    """A server bound to 127.0.0.1:port (0: any free port), with the project's first snapshot taken."""
    app = App.open(project, out)
    handler = type("BoundHandler", (Handler,), {"app": app})
    return Server((HOST, port), handler), app


def serve(server: Server, app: App) -> threading.Thread:
    """Start watching and serving in background threads; `stop` ends both."""
    app.live.start()
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True,
                              name="pnp-serve-http")
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
