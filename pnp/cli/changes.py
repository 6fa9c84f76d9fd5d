"""`pnp changes` and `pnp build --only-changed`: what changed since a print, and a reprint of only that."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from pnp.cli.common import load_fonts, load_games, open_project, project_option, rules_first
from pnp.cli.language import in_languages, lang_option

if TYPE_CHECKING:  # the command line starts without the model (start-up speed)
    from pnp.data.format.model import Game
    from pnp.data.reading.project import Project


@click.command()
@click.argument("game")
@project_option
@click.option(
    "--out", "out_dir", default="output", show_default=True, help="Output folder (relative to the project)."
)
@click.option(
    "--since",
    default=None,
    metavar="NAME",
    help="A print kept with pnp build --tag NAME (default: the last build).",
)
@lang_option
@click.option("--json", "as_json", is_flag=True, help="Print the changes as JSON (for tools).")
def changes(
    game: str, project_dir: str, out_dir: str, since: str | None, lang: str | None, as_json: bool
) -> None:
    """List GAME's cards added, removed and changed since a tagged print (or the last build).

    Changed cards name the fields that changed (old -> new), or say that the face or
    back draws differently (a picture, a layout, a font). The list is also written
    as OUT/GAME/changes.md beside the PDFs.
    """
    project = open_project(project_dir)
    out = project.output(out_dir)
    reports = []
    for loaded in in_languages(project, load_games(project, (game,)), lang, True):
        found = compare(project, out, loaded, since, {})
        said = feedback_of(project, out, loaded, found)
        _publish(out, loaded, found, None, feedback_markdown(said) if said else "")
        reports.append({**found.as_dict(), "feedback": said})
        if not as_json:
            click.echo(summary(loaded, found))
            if said:
                click.echo(feedback_lines(loaded, said))
            click.echo(f"Wrote {out / loaded.slug / 'changes.md'}")
    if as_json:  # one language: its changes; --lang all: a list, one per language
        click.echo(json.dumps(reports[0] if len(reports) == 1 else reports, indent=2, ensure_ascii=False))


def compare(project: Project, out: Path, game: Game, since: str | None, counts: dict[str, int]) -> Any:
    """The changes of `game` since the print `since` (or the last build into `out`)."""
    # lazy, here and below: `pnp build` imports this module, and its up-to-date path needs none of
    # these (bench/run.py, start-up rows)
    from pnp.output.manifest import read_manifest
    from pnp.output.prints import diff, earlier_print, print_record

    old, label = earlier_print(project.root, read_manifest(out), game, since)
    now = print_record(game, counts or dict(old.get("counts") or {}))
    return diff(old, now, game.slug, label, since)


def feedback_of(project: Project, out: Path, game: Game, found: Any) -> dict[str, Any] | None:
    """What players said about each card in the game's latest playtest round (`pnp feedback`), and
    whether the card changed since: since that round's tagged print when there is one, else since
    what `found` compared with. None: no feedback yet."""
    from pnp.data.format.feedback import summary as said_of
    from pnp.data.reading.feedback import FOLDER, game_rounds
    from pnp.output.prints import tags

    rounds = game_rounds(project.root, game.tag)
    if not rounds:
        return None
    name, entries = list(rounds.items())[-1]
    against = compare(project, out, game, name, {}) if name in tags(project.root, game.slug) else found
    kinds = {ch.ident.split("@")[0]: ch.kind for ch in against.items}
    names = {game.code(c): c.name for comp in game.components if comp.is_cards for c in comp.cards}
    cards = {
        code: {"name": names.get(code, ""), **s.as_json(), "since": kinds.get(code, "unchanged")}
        for code, s in said_of(entries).items()
    }
    return {"round": name, "file": f"{FOLDER}/{name}.jsonl", "since": against.since, "cards": cards}


def feedback_lines(game: Game, said: dict[str, Any]) -> str:
    """The feedback as `pnp changes` prints it: per card what was said, and whether it changed since."""
    lines = [f"Feedback in round {said['round']} ({said['file']}); changed since {said['since']}?"]
    for code, card in said["cards"].items():
        line = _said_line(code, card)
        lines.append(f"  {code:14} {card['name'] or '(removed)'}: {line}  [{card['since']}]")
        lines += [f"      “{text}”" for text in card["texts"]]
    return "\n".join(lines)


def feedback_markdown(said: dict[str, Any]) -> str:
    """The feedback section of changes.md."""
    lines = [f"## Feedback in round {said['round']} (changed since {said['since']}?)", ""]
    for code, card in said["cards"].items():
        line = _said_line(code, card)
        lines.append(f"- **{code}** {card['name'] or '(removed)'}: {line} ({card['since']})")
        lines += [f"  - “{text}”" for text in card["texts"]]
    return "\n".join(lines + [""])


def _said_line(code: str, card: dict[str, Any]) -> str:
    """One card's feedback in one line (entries, rating, ticks)."""
    from pnp.data.format.feedback import CardFeedback

    return CardFeedback(code, card["entries"], card["ticks"], tuple(card["ratings"]), ()).line()


def summary(game: Game, found: Any) -> str:
    if not found.items:
        return f"{game.game.name}: no card changed since {found.since}."
    counts = ", ".join(f"{len(found.of(k))} {k}" for k in ("added", "removed", "changed"))
    lines = [f"{game.game.name}, since {found.since}: {counts}"]
    for ch in found.items:
        what = ", ".join(ch.fields) or " and ".join(s for s, m in (("face", ch.face), ("back", ch.back)) if m)
        lines.append(
            f"  {ch.kind:8} {ch.ident:14} {ch.name}"
            + (f"  ({what})" if ch.kind == "changed" and what else "")
        )
    return "\n".join(lines)


def reprint(
    project: Project,
    out: Path,
    files: list[Path],
    options: Any,
    since: str | None,
    force: bool,
    tag: str | None,
    lang: str | None = None,
    named: bool = True,
) -> None:
    """`pnp build --only-changed`: per game (in the languages `lang` asks for, as `--lang`), reprint.pdf
    with the new and changed cards and the list of cards to swap, and changes.md; nothing changed gives no
    reprint (an old one is removed)."""
    games = in_languages(project, load_games(project, tuple(str(p) for p in files)), lang, named)
    rules_first(games, force)
    found = {g.slug: compare(project, out, g, since, options.counts) for g in games}
    fonts = load_fonts(project) if any(f.items for f in found.values()) else None
    for game in games:
        _publish(out, game, found[game.slug], (options, fonts))
        click.echo(summary(game, found[game.slug]))
        if found[game.slug].items:
            click.echo(
                f"Wrote {out / game.slug / 'reprint.pdf'}: print it, then swap the cards its last page lists"
            )
        else:
            click.echo(f"Nothing to reprint for {game.slug}.")
    keep_tag(project, files, tag, options.counts, games)


def _publish(out: Path, game: Game, found: Any, drawing: tuple[Any, Any] | None, more: str = "") -> None:
    """Write changes.md (`more` after the changes; with `drawing`, reprint.pdf too) into the game's folder
    as one new generation."""
    from pnp.output.publish import publish, staging  # lazy, as above
    from pnp.output.reprint import changes_markdown, reprint_cards, write_reprint

    folder = f"{game.slug}/"
    with staging(out) as stage:
        (stage / game.slug).mkdir(parents=True, exist_ok=True)
        (stage / folder / "changes.md").write_text(
            changes_markdown(found, game.game.name) + more, encoding="utf-8"
        )
        entry = None
        if drawing is not None and found.items:
            options, fonts = drawing
            pages = write_reprint(stage / folder / "reprint.pdf", game, found, options, fonts)
            cards = sum(
                p.copies for _, printed in reprint_cards(game, found, options.counts) for p in printed
            )
            entry = {"path": f"{folder}reprint.pdf", "since": found.since, "pages": pages, "cards": cards}

        def record(data: dict[str, Any], made: Path) -> None:
            if drawing is None:
                return
            held = data.get("reprints")
            reprints = {k: v for k, v in held.items() if k != game.slug} if isinstance(held, dict) else {}
            data["reprints"] = dict(sorted({**reprints, **({game.slug: entry} if entry else {})}.items()))

        drop = (lambda rel: rel == f"{folder}reprint.pdf") if drawing is not None else (lambda rel: False)
        publish(stage, out, record, drop)


def check_tag(tag: str | None) -> None:
    """A print's name must be a plain word: it becomes a file name."""
    if tag is not None:
        from pnp.data.format.names import is_device
        from pnp.output.prints import TAG  # lazy, as above

        if not TAG.fullmatch(tag) or is_device(tag):
            raise click.BadParameter(
                f"{tag!r}: use 1-40 letters, digits, dots, hyphens or underscores", param_hint="--tag"
            )


def keep_tag(
    project: Any, files: list[Path], tag: str | None, counts: dict[str, int], loaded: list[Any] | None = None
) -> None:
    """With --tag, keep each game's card records as prints/GAME/TAG.json in the project."""
    if tag is None:
        return
    from pnp.output.prints import print_record, save_tag  # lazy, as above

    games = loaded if loaded is not None else load_games(project, tuple(str(p) for p in files))
    for game in games:
        path = save_tag(project.root, game.slug, tag, print_record(game, counts))
        click.echo(f"Tagged this print of {game.slug} as {tag!r} ({path.relative_to(project.root)})")
