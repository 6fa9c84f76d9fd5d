"""`pnp serve`: the live preview in the browser (see `pnp.serve`)."""

from __future__ import annotations

import signal
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
def serve(project_dir: str, port: int, host: str, allow_remote: bool, out_dir: str) -> None:
    """Preview every game in the browser, and edit its cards there; the page follows your saves.

    Serves on 127.0.0.1 only (unless --host with --allow-remote), until Ctrl+C.
    """

    project = open_project(project_dir)
    try:
        server, app = make_server(project, project.output(out_dir), port, host, allow_remote, eager=False)
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
        threading.Event().wait()
    except KeyboardInterrupt:
        click.echo("Stopped.")
    finally:
        stop(server, app)
        if main:
            signal.signal(signal.SIGTERM, previous)


def _interrupted(signum: int, frame: object) -> None:
    raise KeyboardInterrupt
