"""The `pnp` command line, one module per command, on top of every other stage.

May import anything in `pnp`; nothing imports it but `pnp.__main__` and the tests.
Commands import their heavy stages inside the command function (lazy, for
start-up speed); `run` is the program.
"""

from __future__ import annotations

import logging
import os
import sys

import click

from pnp.cli.build import build
from pnp.cli.changes import changes
from pnp.cli.check import check
from pnp.cli.common import Group, version_option
from pnp.cli.export import export, preview
from pnp.cli.fetch import fetch
from pnp.cli.games import list_games
from pnp.cli.layouts import layouts
from pnp.cli.new import new
from pnp.cli.package import package
from pnp.cli.schema import schema
from pnp.cli.serve import serve
from pnp.cli.sheets import sheets
from pnp.cli.stack import stack


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]})
@version_option
def main() -> None:
    """fairy-pnp: print-and-play PDFs, checks and stacked decks for fairy card games.

    Set PNP_LOG=debug to see what pnp does quietly (cache misses and writes that failed).
    """
    level = os.environ.get("PNP_LOG", "").upper()
    if level:
        logging.basicConfig(level=getattr(logging, level, logging.DEBUG), format="pnp %(name)s: %(message)s")


for _command in (
    build,
    changes,
    check,
    fetch,
    list_games,
    layouts,
    new,
    package,
    schema,
    export,
    preview,
    stack,
    serve,
    sheets,
):
    main.add_command(_command)


def run() -> None:
    """The `pnp` program: `main`, then an exit that skips tearing the interpreter down where
    the CPython adapter may (exit handlers still run and both streams are flushed first).
    An unexpected exception leaves the ordinary way, with its traceback.
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
    from pnp.adapters.cpython import exit_now

    exit_now(code)


if __name__ == "__main__":
    run()
