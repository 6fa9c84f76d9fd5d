"""The `pnp` command line, one module per command, on top of every other stage.

May import anything in `pnp`; nothing imports it but `pnp.__main__`. Commands
import their heavy stages inside the command function (lazy, for start-up speed).
"""
from __future__ import annotations

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


if __name__ == "__main__":
    main()
