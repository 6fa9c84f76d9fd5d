"""`pnp schema`: the JSON Schema of the card database format, for editors."""

from __future__ import annotations

import json
from pathlib import Path

import click

from pnp.cli.common import project_option
from pnp.data.format.model import Game
from pnp.data.format.schema import json_schema
from pnp.data.reading.layouts import slot_schema


@click.command()
@project_option
@click.option("--out", "out_file", default=None, help="Write to this file instead of standard output.")
def schema(project_dir: str, out_file: str | None) -> None:
    """Print the JSON Schema of the card database format (for editors).

    The format is the same for every project; --project is accepted for symmetry.
    """

    data = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "fairy-pnp card database",
        **json_schema(Game),
    }
    design = data["$defs"]["Design"]
    design["allOf"] = slot_schema()  # per layout: its slots, so an editor completes and checks slot names
    cards = data["$defs"]["Component"]["properties"]["cards"]
    sheet = {
        "type": "object",
        "required": ["from"],
        "additionalProperties": False,
        "description": "cards from a spreadsheet beside the database: one row per card, columns are fields",
        "properties": {
            "from": {"type": "string", "pattern": "(?i)\\.(csv|xlsx)$"},
            "sheet": {"type": "string", "description": "XLSX: the sheet (default: the first)"},
        },
    }
    data["$defs"]["Component"]["properties"]["cards"] = {
        "anyOf": [cards, sheet],
        "description": cards.get("description", ""),
    }
    text = json.dumps(data, indent=2)
    if out_file:
        path = Path(out_file)
        if path.is_dir():
            raise click.BadParameter(f"{path} is a folder; give a file name", param_hint="--out")
        path.write_text(text + "\n", encoding="utf-8")
        click.echo(f"Wrote the JSON Schema ({len(text) + 1} bytes) to {path}")
    else:
        click.echo(text)
