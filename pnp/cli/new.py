"""`pnp new DIR`: a small working project to start a game of one's own from."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import click
import reportlab

from pnp.cli.starter import FILES, FONT_FILES


@click.command()
@click.argument("directory", type=click.Path(file_okay=False))
def new(directory: str) -> None:
    """Write a small working project into DIRECTORY (which must not exist or be empty).

    A 20-card deck from a CSV file, a custom layout with a picture, a back, a
    rule booklet template and fonts; `pnp check` and `pnp build` accept it as is.
    """

    dest = Path(directory)
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise click.UsageError(
            f"{dest} already exists and is not empty; pnp new writes only into a new folder"
        )
    dest.parent.mkdir(parents=True, exist_ok=True)
    # Everything is written into a temporary folder beside DIR and moved in with one rename,
    # so an interrupted run leaves no half project behind.
    stage = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", dir=dest.parent))
    try:
        for rel, text in FILES.items():
            path = stage / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        fonts = Path(reportlab.__file__).parent / "fonts"
        for name in FONT_FILES:
            shutil.copyfile(fonts / name, stage / "fonts" / name)
        os.chmod(stage, 0o755)
        if dest.exists():
            dest.rmdir()  # empty, checked above
        os.replace(stage, dest)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    click.echo(f"Wrote a new project to {dest}:")
    for rel in sorted([*FILES, *(f"fonts/{n}" for n in FONT_FILES)]):
        click.echo(f"  {rel}")
    click.echo(f"Next: pnp check --project {dest}   then   pnp build --project {dest}")
