"""`pnp layouts`: every card layout with its slots (type and meaning) and a sample picture."""

from __future__ import annotations

from pathlib import Path

import click

from pnp.cli.common import fail_input, load_games, open_project, project_option
from pnp.data.format.catalog import CUSTOM_DOC, FREE_SLOTS, SLOT_TYPES, SYMBOLS
from pnp.data.format.errors import InputError
from pnp.data.reading.layouts import builtin, layout_file, layout_slots
from pnp.output.exports.samples import write_samples
from pnp.resolve.fonts import Fonts

# The sample pictures ship with the source, beside the documentation.
SAMPLES = Path(__file__).resolve().parent.parent.parent / "docs" / "layouts"


@click.command()
@project_option
@click.option(
    "--write-samples",
    "write_dir",
    default=None,
    type=click.Path(file_okay=False),
    help="Draw one sample card per layout from this project's games into this folder.",
)
@click.option(
    "--show",
    "show",
    default=None,
    metavar="NAME",
    help="Print a built-in layout's elements, to copy into a database as `layout: custom` and change.",
)
def layouts(project_dir: str, write_dir: str | None, show: str | None) -> None:
    """List every layout a design may use, its slots with their types and meanings, and a sample picture."""
    SLOTS = layout_slots()
    if show is not None:
        if show not in builtin():
            raise click.UsageError(
                f"no built-in layout {show!r} drawn from elements; those are: {', '.join(builtin())}"
            )
        click.echo(layout_file(show).read_text(encoding="utf-8"), nl=False)
        return

    if write_dir:
        project = open_project(project_dir)
        try:
            written = write_samples(
                load_games(project, ()), Path(write_dir), Fonts.load(project.root / "fonts")
            )
        except InputError as exc:
            fail_input(exc)
        for layout, path in written.items():
            click.echo(f"{layout:<10} {path}")
        return
    for name, slots in SLOTS.items():
        doc = builtin()[name].doc if name in builtin() else CUSTOM_DOC
        click.echo(f"{name}: {' '.join(doc.split())}")
        picture = SAMPLES / f"{name}.png"
        click.echo(f"  sample: {picture if picture.is_file() else '(none)'}")
        if name in FREE_SLOTS:
            click.echo(
                "  (slots)        any        names you choose; the design's `elements` read them as slots.NAME"
            )
            click.echo("  code_color     colour     the collation code and set mark (see docs/own-cards.md)")
            click.echo(
                "  code           mapping    where the collation code goes, or none (any design; docs/own-cards.md)"
            )
        for slot, spec in slots.items():
            click.echo(f"  {slot:<14} {spec.type:<10} {spec.meaning}")
        click.echo("")
    click.echo("slot types:")
    for kind, meaning in SLOT_TYPES.items():
        click.echo(f"  {kind:<10} {meaning}")
    click.echo(f"\nbuilt-in symbols: {', '.join(SYMBOLS)}")
