"""`pnp serve`: the live preview in the browser (see `pnp.serve`)."""

from __future__ import annotations

import io
import signal
import socket
import sys
import threading

import click

from pnp.cli.common import open_project, project_option
from pnp.serve.server import make_server, stop
from pnp.serve.server import serve as start


@click.command()
@project_option
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="Port to listen on (0: any free port).",
)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on; anything but this machine needs --allow-remote.",
)
@click.option(
    "--allow-remote",
    is_flag=True,
    help="Let other machines connect (to --host); every request then needs the printed address's token.",
)
@click.option(
    "--out",
    "out_dir",
    default="output",
    show_default=True,
    help="Output folder for the Build button (relative to the project).",
)
@click.option(
    "--playtest",
    is_flag=True,
    help="Also serve a feedback page for the players' phones (needs --allow-remote); "
    "prints its address and join code.",
)
def serve(project_dir: str, port: int, host: str, allow_remote: bool, out_dir: str, playtest: bool) -> None:
    """Preview every game in the browser, and edit its cards there; the page follows your saves.

    Serves on 127.0.0.1 only (unless --host with --allow-remote), until Ctrl+C. With --playtest,
    players' phones say what they think of each card (kept in playtest/ROUND.jsonl).
    """

    project = open_project(project_dir)
    try:
        server, app = make_server(
            project, project.output(out_dir), port, host, allow_remote, playtest, eager=False
        )
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    except OSError as exc:
        raise click.ClickException(
            f"cannot listen on {host}:{port}: {exc.strerror or exc} (try --port 0 for any free port)"
        ) from None
    bound = server.server_address[1]
    shown = f"[{host}]" if ":" in host else host
    address = f"http://{shown}:{bound}/" + (f"?token={app.guard.token}" if app.guard.remote else "")
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _interrupted) if main else None  # `kill` stops it as Ctrl+C does
    try:
        start(server, app)  # answers at once; the project is read in the background, game by game
        click.echo(f"Serving {project.root} at {address} (reading the games); Ctrl+C stops")
        app.live.read.wait()
        games = len(app.live.snapshot.games)
        problems = len(app.live.snapshot.all_problems())
        click.echo(f"Read {games} game{'s' * (games != 1)}: {problems} problem{'s' * (problems != 1)}")
        if app.playtest is not None:
            _join(host, bound, app.playtest.join, app.playtest.shown_join)
        threading.Event().wait()
    except KeyboardInterrupt:
        click.echo("Stopped.")
    finally:
        stop(server, app)
        if main:
            signal.signal(signal.SIGTERM, previous)


def _join(host: str, port: int, join: str, shown: str) -> None:
    """The feedback page's address for the phones, its join code, and the address with the code as a
    QR code to scan (text blocks, any terminal)."""
    import segno  # lazy: only --playtest prints a code

    name = _network_address() if host in ("0.0.0.0", "::") else host
    name = f"[{name}]" if ":" in name else name
    address = f"http://{name}:{port}/play"
    lines = io.StringIO()
    segno.make(f"{address}?join={join}", error="m").terminal(out=lines, compact=True, border=2)
    picture = lines.getvalue().rstrip("\n")
    try:  # a console that cannot show block characters (cp1252) gets the address and code only
        picture.encode(sys.stdout.encoding or "utf-8")
    except (UnicodeEncodeError, LookupError):
        picture = ""
    scan = " (or scan the code below)" if picture else ""
    click.echo(f"Playtest feedback: {address}  join code {shown}{scan}")
    if picture:
        click.echo(picture)


def _network_address() -> str:
    """This machine's address on its network (a datagram socket sends nothing to learn it)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: never reached
            return str(s.getsockname()[0])
    except OSError:
        return "127.0.0.1"


def _interrupted(signum: int, frame: object) -> None:
    raise KeyboardInterrupt
