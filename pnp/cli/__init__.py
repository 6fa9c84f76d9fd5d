"""The `pnp` command line, one module per command, on top of every other stage.

May import anything in `pnp`; nothing imports it but `pnp.__main__` and the tests.
Commands import their heavy stages inside the command function (lazy, for
start-up speed); `run` is the program.
"""
from __future__ import annotations

import atexit
import os
import sys

import click

from pnp.cli.build import build
from pnp.cli.check import check
from pnp.cli.common import Group
from pnp.cli.export import export, preview
from pnp.cli.games import list_games
from pnp.cli.layouts import layouts
from pnp.cli.new import new
from pnp.cli.schema import schema
from pnp.cli.serve import serve
from pnp.cli.stack import stack


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="fairy-pnp")
def main() -> None:
    """fairy-pnp: print-and-play PDFs, checks and stacked decks for fairy card games."""


for _command in (build, check, list_games, layouts, new, schema, export, preview, stack, serve):
    main.add_command(_command)


def run() -> None:
    """The `pnp` program: `main`, then an exit that skips tearing the interpreter down.

    Freeing a finished build's objects one by one (parsed fonts, games, ReportLab's
    tables) takes 40-80 ms, longer than a whole up-to-date build; the operating system
    takes a process's memory back at once. Exit handlers still run and both streams
    are flushed first, so nothing a command wrote is lost. An unexpected exception
    leaves the ordinary way, with its traceback.
    """
    try:
        main()
        code: object = 0
    except SystemExit as exc:
        code = exc.code
    if code is None:
        code = 0
    elif not isinstance(code, int):  # sys.exit("message"): printed, exit 1
        print(code, file=sys.stderr)
        code = 1
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # the reader went away (`pnp list | head`) or the stream is closed
            pass
    os._exit(code)


if __name__ == "__main__":
    run()
