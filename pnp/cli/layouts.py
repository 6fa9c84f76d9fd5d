"""`pnp layouts`: every card layout with its slots (type and meaning) and a sample picture."""
from __future__ import annotations

from pathlib import Path

import click

from pnp.cli.common import fail_input, load_games, open_project, project_option

# The sample pictures ship with the source, beside the documentation.
SAMPLES = Path(__file__).resolve().parent.parent.parent / "docs" / "layouts"


@click.command()
@project_option
@click.option("--write-samples", "write_dir", default=None, type=click.Path(file_okay=False),
              help="Draw one sample card per layout from this project's games into this folder.")
def layouts(project_dir: str, write_dir: str | None) -> None:
    """List every layout a design may use, its slots with their types and meanings, and a sample picture."""
    # lazy: only this command needs the catalog's documentation and the drawing stage (start-up speed)
    from pnp.data.format.catalog import FREE_SLOTS, SLOT_TYPES, SLOTS, SYMBOLS
    from pnp.data.format.errors import InputError
    from pnp.draw.layouts import LAYOUTS

    if write_dir:
        from pnp.draw.fonts import Fonts
        from pnp.output.exports.samples import write_samples
        project = open_project(project_dir)
        try:
            written = write_samples(load_games(project, ()), Path(write_dir), Fonts.load(project.root / "fonts"))
        except InputError as exc:
            fail_input(exc)
        for layout, path in written.items():
            click.echo(f"{layout:<10} {path}")
        return
    for name, slots in SLOTS.items():
        click.echo(f"{name}: {' '.join(LAYOUTS[name].doc.split())}")
        picture = SAMPLES / f"{name}.png"
        click.echo(f"  sample: {picture if picture.is_file() else '(none)'}")
        if name in FREE_SLOTS:
            click.echo("  (slots)        any        names you choose; the design's `elements` read them as slots.NAME")
            click.echo("  code_color     colour     the collation code and set mark (see docs/own-cards.md)")
        for slot, spec in slots.items():
            click.echo(f"  {slot:<14} {spec.type:<10} {spec.meaning}")
        click.echo("")
    click.echo("slot types:")
    for kind, meaning in SLOT_TYPES.items():
        click.echo(f"  {kind:<10} {meaning}")
    click.echo(f"\nbuilt-in symbols: {', '.join(SYMBOLS)}")
