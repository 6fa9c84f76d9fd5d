"""`pnp showcase`: a fanned hand and a row of cards on a table, as PNG pictures for sharing a game."""

from __future__ import annotations

import difflib
import functools
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from pnp.cli.common import load_fonts, load_games, open_project, project_option, set_counts
from pnp.cli.language import in_languages, lang_option

if TYPE_CHECKING:  # the command line starts without the model (start-up speed)
    from pnp.data.format.model import Game


@click.command()
@click.argument("game")
@project_option
@click.option(
    "--cards",
    "keys",
    default=None,
    metavar="KEY,KEY...",
    help="The cards to show, by key, in order [default: five, taken in turn from each deck].",
)
@click.option(
    "--out", "out_dir", default="output", show_default=True, help="Output folder (relative to the project)."
)
@lang_option
@click.option("--players", type=int, default=None, help="Sets for per-player components.")
@click.option("--decks", type=int, default=None, help="Copies of components printed per deck.")
def showcase(
    game: str,
    project_dir: str,
    keys: str | None,
    out_dir: str,
    lang: str | None,
    players: int | None,
    decks: int | None,
) -> None:
    """Write OUT/GAME/showcase/hand.png (the cards fanned out in a hand) and row.png (the cards in a
    row on a table, in perspective): pictures of the game to share online.
    """
    # lazy: drawing and Pillow only when the command runs
    from pnp.output.exports.output import write_export
    from pnp.output.showcase import MOST_CARDS, card_choices, default_cards

    project = open_project(project_dir)
    out = project.output(out_dir)
    games = in_languages(project, load_games(project, (game,)), lang, True)
    counts = set_counts(players, decks)
    fonts = load_fonts(project)
    for loaded in games:
        choices = card_choices(loaded, counts)
        if not choices:
            raise click.UsageError(f"{loaded.slug} has no cards to show")
        if keys is None:
            cards = default_cards(choices)
        else:
            wanted = [k.strip() for k in keys.split(",") if k.strip()]
            unknown = [k for k in wanted if k not in choices]
            if unknown:
                close = difflib.get_close_matches(unknown[0], list(choices), n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                known = ", ".join(list(choices)[:12]) + (", ..." if len(choices) > 12 else "")
                raise click.BadParameter(
                    f"{loaded.slug} has no card {unknown[0]!r}{hint}; its cards: {known}",
                    param_hint="--cards",
                )
            if not 1 <= len(wanted) <= MOST_CARDS:
                raise click.BadParameter(f"name 1 to {MOST_CARDS} cards", param_hint="--cards")
            cards = [choices[k] for k in wanted]

        written = write_export(
            out,
            [loaded],
            "showcase",
            functools.partial(_fill, game=loaded, fonts=fonts, cards=cards, counts=counts),
            after=functools.partial(_record, out=out, game=loaded, keys=[c.key for c in cards]),
        )
        for path in written:
            click.echo(f"Wrote {path}")


def _fill(stage: Path, game: Game, fonts: Any, cards: list[Any], counts: dict[str, int]) -> None:
    from pnp.output.showcase import write_showcase  # lazy, as above

    write_showcase(stage / game.slug / "showcase", game, fonts, cards, counts)


def _record(data: dict[str, Any], moved: list[Path], out: Path, game: Game, keys: list[str]) -> None:
    """The showcase in OUT/manifest.json, with the cards it shows."""
    from pnp.output.exports.output import record  # lazy, as above

    record(data, out, [game], "showcase", "", moved, {"cards": keys})
