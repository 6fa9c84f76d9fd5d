"""`pnp order tgc GAME`: upload a game's decks to The Game Crafter (its REST API)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import click
import yaml

from pnp.cli.exporting import make_job
from pnp.output.exports.png import export_png
from pnp.output.exports.profiles import PROFILES
from pnp.output.tgc import API, Client, Credentials, OrderError, identity, upload

ENV = ("TGC_API_KEY_ID", "TGC_USERNAME", "TGC_PASSWORD")
DPI = 300.0  # The Game Crafter prints from 300 dpi pictures


def credentials(path: str | None, project_root: Path) -> Credentials:
    """The account from TGC_API_KEY_ID, TGC_USERNAME and TGC_PASSWORD, or from a YAML file outside the project."""
    if path is None:
        values = [os.environ.get(k, "") for k in ENV]
        if not all(values):
            missing = ", ".join(k for k, v in zip(ENV, values) if not v)
            raise click.UsageError(f"set {missing} or give --credentials FILE (a file outside the project)")
        return Credentials(*values)
    file = Path(path).resolve()
    if file.is_relative_to(project_root.resolve()):
        raise click.BadParameter(
            "keep the API key out of the project (it would be shared with the game); move the file elsewhere",
            param_hint="--credentials",
        )
    try:
        data = yaml.safe_load(file.read_text(encoding="utf-8"))
        return Credentials(str(data["api_key_id"]), str(data["username"]), str(data["password"]))
    except (OSError, yaml.YAMLError, KeyError, TypeError) as exc:
        raise click.BadParameter(
            f"{file}: expected YAML with api_key_id, username and password ({type(exc).__name__})",
            param_hint="--credentials",
        ) from None


@click.group(name="order")
def order() -> None:
    """Send a game's decks to a print shop that takes them through an API."""


@order.command(name="tgc")
@click.argument("game")
@click.option("--project", "project_dir", default=".", show_default=True, help="Project folder.")
@click.option(
    "--credentials",
    "credentials_file",
    default=None,
    metavar="FILE",
    help="YAML file (outside the project) with api_key_id, username and password "
    "[default: the TGC_API_KEY_ID, TGC_USERNAME and TGC_PASSWORD environment variables].",
)
@click.option(
    "--game-id", default=None, help="Add the decks to this Game Crafter game instead of making a new one."
)
@click.option(
    "--proofed", is_flag=True, help="Mark faces and backs proofed (only when you have checked the pictures)."
)
@click.option("--dry-run", is_flag=True, help="Print every request instead of sending it.")
@click.option("--api", default=API, show_default=True, help="The API's address.")
def tgc(
    game: str,
    project_dir: str,
    credentials_file: str | None,
    game_id: str | None,
    proofed: bool,
    dry_run: bool,
    api: str,
) -> None:
    """Upload GAME's decks to The Game Crafter: session, folder, pictures, decks and cards.

    The pictures are made as `pnp export png --profile tgc` makes them (825 x 1125 px
    for poker cards). With --dry-run nothing is sent and no account is needed.
    """
    if not api.lower().startswith(("http://", "https://")):
        raise click.BadParameter("give an http:// or https:// address", param_hint="--api")
    job = make_job(project_dir, (game,), "output", 1, None, None)
    root = job.loaded[0].root
    login = (
        Credentials("<api key>", "<username>", "<password>")
        if dry_run
        else credentials(credentials_file, root)
    )
    client = Client(api, click.echo, dry=dry_run)
    scenes = job.setup.scenes()
    try:
        for t in job.targets:  # every deck a product The Game Crafter sells, before anything is sent
            identity(t)
        with tempfile.TemporaryDirectory(prefix="pnp-tgc-") as tmp:
            stage = Path(tmp)
            if not dry_run:
                export_png(job.targets, job.setup, stage, PROFILES["tgc"], DPI, job.jobs, sub="tgc")
            made = upload(
                client,
                job.targets,
                scenes,
                lambda t: stage / t.game.slug / "png" / "tgc" / t.comp.key,
                login,
                game_id,
                proofed,
            )
    except OrderError as exc:
        raise click.ClickException(str(exc)) from None
    cards = sum(p.copies for t in job.targets for p in scenes[t.game.slug].printed(t.comp.key))
    verb = "Would upload" if dry_run else "Uploaded"
    click.echo(
        f"{verb} {len(job.targets)} deck(s), {cards} cards, to The Game Crafter game {made} "
        f"in {len(client.sent)} requests."
    )
    if not dry_run:
        click.echo("Open the game on thegamecrafter.com to proof it and order.")
