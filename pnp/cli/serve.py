"""`pnp serve`: the live preview in the browser (see `pnp.serve`)."""
from __future__ import annotations

import click

from pnp.cli.common import open_project, project_option


@click.command()
@project_option
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port on 127.0.0.1 (0: any free port).")
@click.option("--out", "out_dir", default="output", show_default=True,
              help="Output folder for the Build button (relative to the project).")
def serve(project_dir: str, port: int, out_dir: str) -> None:
    """Preview every game in the browser; the page follows your edits as you save.

    Serves on 127.0.0.1 only, until Ctrl+C.
    """
    # lazy: only this command needs the server and the watcher (start-up speed)
    import threading

    from pnp.serve.server import make_server, stop
    from pnp.serve.server import serve as start

    project = open_project(project_dir)
    try:
        server, app = make_server(project, project.output(out_dir), port)
    except OSError as exc:
        raise click.ClickException(f"cannot listen on 127.0.0.1:{port}: {exc.strerror or exc} "
                                   f"(try --port 0 for any free port)") from None
    host, bound = str(server.server_address[0]), server.server_address[1]
    problems = len(app.live.snapshot.all_problems())
    try:
        start(server, app)
        games = len(app.live.snapshot.games)
        click.echo(f"Serving {project.root} at http://{host}:{bound}/ ({games} game{'s' * (games != 1)}, "
                   f"{problems} problem{'s' * (problems != 1)}); Ctrl+C stops")
        threading.Event().wait()
    except KeyboardInterrupt:
        click.echo("Stopped.")
    finally:
        stop(server, app)
