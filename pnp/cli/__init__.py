"""The `pnp` command line, one module per command, on top of every other stage.

May import anything in `pnp`; nothing imports it but `pnp.__main__` and the tests.
Each command's module is imported only when that command runs (`COMMANDS`, the
registry), so a module imports what its command needs at its top; `run` is the program.
"""

from __future__ import annotations

import ast
import importlib.util
import io
import logging
import os
import sys
from pathlib import Path

import click

from pnp.cli.common import Group, version_option

# The command registry: name -> (module, function). A command's module is imported only when that
# command runs or shows its help, so every command starts with only what it uses (bench/run.py's
# start-up rows). `pnp --help` reads each command's docstring from its source instead.
COMMANDS: dict[str, tuple[str, str]] = {
    "build": ("pnp.cli.build", "build"),
    "changes": ("pnp.cli.changes", "changes"),
    "check": ("pnp.cli.check", "check"),
    "export": ("pnp.cli.export", "export"),
    "feedback": ("pnp.cli.feedback", "feedback"),
    "fetch": ("pnp.cli.fetch", "fetch"),
    "layouts": ("pnp.cli.layouts", "layouts"),
    "list": ("pnp.cli.games", "list_games"),
    "new": ("pnp.cli.new", "new"),
    "order": ("pnp.cli.order", "order"),
    "package": ("pnp.cli.package", "package"),
    "preview": ("pnp.cli.export", "preview"),
    "schema": ("pnp.cli.schema", "schema"),
    "serve": ("pnp.cli.serve", "serve"),
    "showcase": ("pnp.cli.showcase", "showcase"),
    "sheets": ("pnp.cli.sheets", "sheets"),
    "simulate": ("pnp.cli.simulate", "simulate"),
    "stack": ("pnp.cli.stack", "stack"),
}


def _docstring(module: str, function: str) -> str:
    """A command function's docstring, read from its module's source without importing it."""
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        return ""
    tree = ast.parse(Path(spec.origin).read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == function:
            return ast.get_docstring(node) or ""
    return ""


class Commands(Group):
    """The group whose commands come from `COMMANDS`, each imported when it is first asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module, name = COMMANDS[cmd_name]
        command: click.Command = getattr(importlib.import_module(module), name)
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list as click writes it, from the docstrings: `pnp --help` imports no command."""
        limit = formatter.width - 6 - max(len(name) for name in COMMANDS)
        rows = []
        for name, (module, attribute) in sorted(COMMANDS.items()):
            text = _docstring(module, attribute)
            rows.append((name, click.Command(name, help=text).get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=Commands, context_settings={"help_option_names": ["-h", "--help"]})
@version_option
def main() -> None:
    """fairy-pnp: print-and-play PDFs, checks and stacked decks for fairy card games.

    Set PNP_LOG=debug to see what pnp does quietly (cache misses and writes that failed).
    """
    level = os.environ.get("PNP_LOG", "").upper()
    if level:
        logging.basicConfig(level=getattr(logging, level, logging.DEBUG), format="pnp %(name)s: %(message)s")


def run() -> None:
    """The `pnp` program: `main`, then an exit that skips tearing the interpreter down where
    the CPython adapter may (exit handlers still run and both streams are flushed first).
    An unexpected exception leaves the ordinary way, with its traceback.
    """
    for stream in (sys.stdout, sys.stderr):  # a console that cannot show a character (cp1252) shows its code
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
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
    # lazy: 7 ms of imports (the adapters, platform) that a run needs only at its end
    from pnp.adapters.cpython import exit_now

    exit_now(code)


if __name__ == "__main__":
    run()
