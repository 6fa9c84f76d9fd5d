"""The `pnp export` group (png, tts, pod) and `pnp preview`."""

from __future__ import annotations

import click

from pnp.buildplan.options import print_colour
from pnp.cli.common import FiniteRange, colour_options
from pnp.cli.exporting import common, make_job, where, write
from pnp.cli.tables import COMMANDS as TABLE_COMMANDS
from pnp.output.access import VISIONS
from pnp.output.exports.mpc import export_mpc, mpc_count
from pnp.output.exports.output import export_folder
from pnp.output.exports.png import export_png, png_count
from pnp.output.exports.pod import export_pod
from pnp.output.exports.preview import export_preview
from pnp.output.exports.profiles import PROFILES
from pnp.output.exports.tts import export_tts, tts_total


@click.group(name="export")
def export() -> None:
    """Pictures and files for print shops and virtual tables (one folder per game)."""


for _command in TABLE_COMMANDS:
    export.add_command(_command)


@export.command(name="png")
@common
@click.option("--dpi", type=FiniteRange(30, 1200), default=300, show_default=True, help="Resolution.")
@click.option(
    "--profile",
    type=click.Choice(["plain", "tgc", "mpc"]),
    default="plain",
    show_default=True,
    help="plain: trimmed card; tgc: The Game Crafter (825x1125 px poker at 300 dpi); "
    "mpc: MakePlayingCards (822x1122 px).",
)
def png(
    games: tuple[str, ...],
    project_dir: str,
    out_dir: str,
    jobs: int | None,
    players: int | None,
    decks: int | None,
    dpi: float,
    profile: str,
) -> None:
    """One RGB PNG per distinct card face and per distinct back: OUT/<game>/png/<component>/."""
    job = make_job(project_dir, games, out_dir, jobs, players, decks)
    total = png_count(job.targets, job.setup.scenes())
    sub = export_folder(profile, dpi)
    written = write(
        job,
        "png",
        "PNG",
        total,
        lambda stage, advance: export_png(
            job.targets, job.setup, stage, PROFILES[profile], dpi, job.jobs, advance, sub=sub
        ),
        sub,
        {"profile": profile, "dpi": dpi},
    )
    click.echo(f"Wrote {len(written)} PNGs ({profile}, {dpi:g} dpi) to {where(job, 'png', sub)}")


@export.command(name="tts")
@common
@click.option(
    "--dpi",
    type=FiniteRange(30, 1200),
    default=300,
    show_default=True,
    help="Resolution of each card; sheets stay within 4096 px and 10 x 7 cards.",
)
@click.option(
    "--base-url",
    default=None,
    metavar="URL",
    help="Where the pictures will be hosted (http or https); the JSON then names them by URL.",
)
def tts(
    games: tuple[str, ...],
    project_dir: str,
    out_dir: str,
    jobs: int | None,
    players: int | None,
    decks: int | None,
    dpi: float,
    base_url: str | None,
) -> None:
    """Tabletop Simulator deck sheets, backs and a saved-object JSON per deck: OUT/<game>/tts/<local|hosted>-<dpi>/.

    Tokens become a bag of tiles (face above, back below, in their shape) and
    boards a board piece, each with its own JSON. Copy the JSON into TTS's Saved Objects folder. Without --base-url it names
    the pictures by their local paths, so keep the output folder where it is;
    with it, upload the folder's PNGs to that URL first.
    """

    if base_url is not None and not base_url.lower().startswith(("http://", "https://")):
        raise click.BadParameter("give an http:// or https:// address", param_hint="--base-url")
    job = make_job(project_dir, games, out_dir, jobs, players, decks)
    total = tts_total(job.targets, job.setup.scenes(), dpi)
    sub = export_folder("hosted" if base_url else "local", dpi)
    written = write(
        job,
        "tts",
        "TTS",
        total,
        lambda stage, advance: export_tts(
            job.targets, job.setup, stage, job.out, job.jobs, advance, dpi, sub, base_url
        ),
        sub,
        {"profile": "hosted" if base_url else "local", "dpi": dpi, "base_url": base_url},
    )
    saved = sum(1 for p in written if p.suffix == ".json")
    click.echo(
        f"Wrote {saved} Tabletop Simulator saved object(s): decks, token bags and boards ({len(written)} files) "
        f"to {where(job, 'tts', sub)}"
    )


@export.command(name="pod")
@common
@click.option(
    "--profile",
    type=click.Choice(["drivethru", "mpc"]),
    default="drivethru",
    show_default=True,
    help="drivethru: DriveThruCards, a CMYK PDF/X-1a per deck, pages back 1, front 1, back 2, ...; "
    "mpc: MakePlayingCards, 822x1122 px PNGs laid out for its uploader.",
)
@click.option(
    "--dpi",
    type=FiniteRange(30, 1200),
    default=300,
    show_default=True,
    help="Resolution of the mpc pictures (the PDF is vector).",
)
@colour_options
def pod(
    games: tuple[str, ...],
    project_dir: str,
    out_dir: str,
    jobs: int | None,
    players: int | None,
    decks: int | None,
    profile: str,
    dpi: float,
    ink_limit: float,
    press_profile: str | None,
) -> None:
    """Print-on-demand files per deck: OUT/<game>/pod/drivethru/ or OUT/<game>/pod/mpc-<dpi>/."""
    job = make_job(project_dir, games, out_dir, jobs, players, decks)
    if profile == "mpc":
        sub = export_folder(profile, dpi)
        written = write(
            job,
            "pod",
            "MPC",
            mpc_count(job.targets, job.setup.scenes()),
            lambda stage, advance: export_mpc(job.targets, job.setup, stage, dpi, job.jobs, advance, sub),
            sub,
            {"profile": profile, "dpi": dpi},
        )
        click.echo(f"Wrote {len(written)} MakePlayingCards files ({dpi:g} dpi) to {where(job, 'pod', sub)}")
        return

    sub = export_folder(profile, None)
    colour = print_colour(ink_limit, press_profile)
    written = write(
        job,
        "pod",
        "POD",
        len(job.targets),
        lambda stage, advance: export_pod(
            job.targets, job.setup, stage, PROFILES[profile], job.jobs, advance, sub, colour
        ),
        sub,
        {
            "profile": profile,
            "dpi": None,
            "colour": "CMYK PDF/X-1a:2003",
            "ink_limit_percent": ink_limit,
            "press_profile": colour.name,
        },
    )
    click.echo(
        f"Wrote {len(written)} print-on-demand PDF(s) ({profile}, CMYK PDF/X-1a) to {where(job, 'pod', sub)}"
    )


@click.command(name="preview")
@common
@click.option(
    "--vision",
    type=click.Choice(VISIONS),
    default=None,
    help="The sheets as a reader with this colour vision sees them (Machado 2009): OUT/<game>/preview-VISION/.",
)
def preview(
    games: tuple[str, ...],
    project_dir: str,
    out_dir: str,
    jobs: int | None,
    players: int | None,
    decks: int | None,
    vision: str | None,
) -> None:
    """One contact-sheet PNG per deck (every distinct card, with counts): OUT/<game>/preview/."""
    job = make_job(project_dir, games, out_dir, jobs, players, decks)
    kind = f"preview-{vision}" if vision else "preview"
    written = write(
        job,
        kind,
        "Preview",
        len(job.targets),
        lambda stage, advance: export_preview(job.targets, job.setup, stage, job.jobs, advance, vision or ""),
        details={"vision": vision} if vision else None,
    )
    click.echo(f"Wrote {len(written)} preview(s) to {where(job, kind)}")
