"""`pnp stack`: write a stacked-deck variant database, build it, and report what it changes."""

from __future__ import annotations

import json
import re

import click

from pnp.buildplan.plan import plan_build, total_weight
from pnp.buildplan.run import build as run_build
from pnp.cli.common import (
    display,
    jobs_option,
    load_fonts,
    open_project,
    progress,
    project_option,
    rules_first,
)
from pnp.data.format.errors import InputError, Problem
from pnp.data.reading.loader import load_game
from pnp.data.reading.variants import build_variant
from pnp.data.stacking.stack import VariantSpec, write_variant
from pnp.data.stacking.words import DEFAULT_COLOR, FORMS
from pnp.geometry.sizes import paper_size
from pnp.output.sheets import SheetOptions
from pnp.output.stats_report import format_text
from pnp.output.steps import BuildOptions
from pnp.output.workers import jobs_for

SELECTOR_HELP = "Selector forms: " + "; ".join(FORMS) + "."


@click.command(epilog=SELECTOR_HELP)
@click.argument("base")
@click.argument("name")
@project_option
@jobs_option
@click.option(
    "--decks", type=click.IntRange(1, 8), default=1, show_default=True, help="Base decks shuffled together."
)
@click.option(
    "--remove",
    "removes",
    multiple=True,
    metavar="SELECTOR",
    help="Take every copy of these cards out (repeatable), e.g. '4-6' or '2-10 of clubs,diamonds'.",
)
@click.option(
    "--add",
    "adds",
    multiple=True,
    metavar="SELECTOR",
    help="Add these cards from one more base deck (repeatable; name twice for two more).",
)
@click.option(
    "--jokers", type=click.IntRange(0, 32), default=None, help="Jokers in the stack (default: as stacked)."
)
@click.option("--component", default="", help="Deck to stack (default: the base game's first deck).")
@click.option(
    "--mark", default="", help="One or two characters printed on every card (default: first letter)."
)
@click.option("--color", "mark_color", default=DEFAULT_COLOR, show_default=True, help="Mark colour, #RRGGBB.")
@click.option(
    "--trials",
    type=click.IntRange(100, 200_000),
    default=None,
    help="Simulated attacks per match-up for the combat figures (default 20000, at most 200000: about 15 s).",
)
@click.option("--seed", type=int, default=None, help="Seed of the combat simulation (default 1).")
@click.option(
    "--out", "out_dir", default="output", show_default=True, help="Output folder (relative to the project)."
)
@click.option("--paper", default="a4", show_default=True, help="a4, letter, a3, tabloid or WxH in mm.")
@click.option("--json", "as_json", is_flag=True, help="Print the statistics report as JSON.")
@click.option(
    "--force",
    is_flag=True,
    help="Stack even a deck that breaks an essential rule (the game cannot be played with it).",
)
def stack(
    base: str,
    name: str,
    project_dir: str,
    jobs: int | None,
    decks: int,
    removes: tuple[str, ...],
    adds: tuple[str, ...],
    jokers: int | None,
    component: str,
    mark: str,
    mark_color: str,
    trials: int | None,
    seed: int | None,
    out_dir: str,
    paper: str,
    as_json: bool,
    force: bool,
) -> None:
    """Stack BASE's deck into variant NAME: write card_data/variants/NAME.yaml and build it.

    The changes apply in order: --decks copies of the base deck, then --remove,
    then --add, then --jokers. The variant's cards carry a mark on face and
    back (a deck printed once per player keeps each player's own set marks instead); OUT/NAME/
    receives the deck, a checklist and stats.pdf. A deck that leaves some way to play the base
    game no player count (an essential rule broken for all of them) is refused with exit 1 and
    nothing written, unless --force; one that only loses some player counts is stacked with a
    warning naming them.
    """

    project = open_project(project_dir)
    try:
        sheet_paper = paper_size(paper)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--paper") from None
    if name in project.game_files():
        raise InputError([Problem(name, None, "NAME", f"{name!r} is already a game here; pick another name")])
    base_path = project.resolve_game(base)
    base_game = load_game(base_path, display(project, base_path), project.root)
    base_ref = base_path.stem if base_path.parent == project.card_data else display(project, base_path)
    try:
        spec = VariantSpec(
            name=name,
            base=base_ref,
            component=component,
            decks=decks,
            remove=removes,
            add=adds,
            jokers=jokers,
            mark=mark,
            color=mark_color,
            trials=trials,
            seed=seed,
        )
    except ValueError as exc:
        raise InputError([Problem("pnp stack", None, "", str(exc))]) from None
    target = project.card_data / "variants" / f"{name}.yaml"
    shown = display(project, target)
    try:  # refuse bad selectors before writing anything
        game = build_variant(spec, base_game, target, shown)
    except InputError as exc:
        raise InputError([_as_option(p) for p in exc.problems]) from None
    rules_first([game], force, ("stacked", "stacks"))  # an unplayable deck: exit 1, nothing written
    build_options = BuildOptions(SheetOptions(sheet_paper))
    steps = plan_build([game], build_options)
    fonts = load_fonts(project)
    out = project.output(out_dir)
    with progress(total_weight(steps), "Stacking") as advance:
        outputs = run_build(steps, [game], out, fonts, advance, jobs_for(jobs), build_options)
    write_variant(
        target, spec, project.root
    )  # only once its cards are built: a failed stack leaves nothing behind
    report = json.loads((out / game.slug / "stats.json").read_text(encoding="utf-8"))
    if as_json:
        click.echo(json.dumps(report, indent=2))
        return
    click.echo(f"Wrote {shown} and {len(outputs)} PDFs to {out / game.slug}")
    click.echo(format_text(report))


def _as_option(p: Problem) -> Problem:
    """Name the command-line option behind a variant key: variant.add[1] -> --add (2nd)."""
    match = re.match(r"^variant\.(\w+)(?:\[(\d+)\])?$", p.field)
    if not match:
        return p
    option = f"--{match.group(1)}" + (f" (#{int(match.group(2)) + 1})" if match.group(2) else "")
    return Problem("pnp stack", None, option, p.message)
