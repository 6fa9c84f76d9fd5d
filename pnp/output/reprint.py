"""A reprint: only the cards new or changed since an earlier print, on the usual sheets, and a page
saying which printed cards to take out; plus `changes.md`, the same changes for a person to read."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from pnp.data.format.model import Component, Game
from pnp.draw.context import color
from pnp.draw.faces import FormCache
from pnp.draw.pdf import canvas
from pnp.geometry.sizes import pt
from pnp.output.checklist import MARGIN, ROW, TickSheet
from pnp.output.prints import CardChange, Changes, ident
from pnp.output.sheets import draw_deck
from pnp.output.steps import BuildOptions
from pnp.resolve.cards import Printed, printed_cards
from pnp.resolve.fonts import Fonts


def reprint_cards(
    game: Game, changes: Changes, counts: dict[str, int]
) -> list[tuple[Component, list[Printed]]]:
    """Per card component, the printed cards to print again (new and changed), copies included."""
    wanted = {c.ident for c in changes.items if c.kind != "removed"}
    out = []
    for comp in game.components:
        if comp.is_cards:
            cards = [p for p in printed_cards(game, comp, counts) if ident(p) in wanted]
            if cards:
                out.append((comp, cards))
    return out


def write_reprint(path: Path, game: Game, changes: Changes, options: BuildOptions, fonts: Fonts) -> int:
    """reprint.pdf: the new and changed cards (fronts and backs as a build prints them), then the list
    of printed cards to take out (named as they were printed) and put in, in the game's language;
    returns the page count."""
    say = game.say
    since = say("since_print", tag=changes.tag) if changes.tag else say("since_build")
    page = options.sheets.paper.portrait
    c = canvas(
        path,
        say("reprint_document", game=game.game.name, since=since),
        (pt(page.w), pt(page.h)),
        fonts.name("body"),
    )
    forms = FormCache(c, game, fonts, options.sheets.bleed, max_dpi=options.max_dpi)
    pages = sum(
        draw_deck(c, game, comp, cards, options.sheets, fonts, forms)
        for comp, cards in reprint_cards(game, changes, options.counts)
    )
    c.setPageSize((pt(page.w), pt(page.h)))
    sheet = TickSheet(c, fonts, page, color(game.style.ink), say)
    version = f" ({say('version', version=game.game.version)})" if game.game.version else ""
    sheet.text(MARGIN, sheet.y - 6, say("reprint", game=game.game.name) + version, "display", 16)
    sheet.text(MARGIN, sheet.y - 12, say("reprint_intro", since=since), "italic", 8.5)
    sheet.y -= 22
    out = changes.of("removed") + changes.of("changed")
    put = changes.of("changed") + changes.of("added")
    sheet.fit_codes(ch.ident for ch in out + put)
    accent = color(game.style.accent)
    _list(sheet, say("take_out"), out, lambda ch: ch.copies[0], lambda ch: ch.old_name, accent, say)
    _list(sheet, say("put_in"), put, lambda ch: ch.copies[1], lambda ch: ch.name, accent, say)
    c.showPage()
    c.save()
    return pages + sheet.pages


def _list(
    sheet: TickSheet,
    title: str,
    items: list[CardChange],
    copies: Callable[[CardChange], int],
    name: Callable[[CardChange], str],
    accent: Any,
    say: Callable[..., str],
) -> None:
    sheet.band(title, sum(copies(ch) for ch in items), accent)
    for ch in items:
        sheet.row(ch.ident, f"{name(ch)}  ({_what(ch, say)})", copies(ch))
    if not items:
        sheet.text(MARGIN + 1, sheet.y - 3.6, say("none"), "italic", 8.5)
        sheet.y -= ROW
    sheet.y -= 3


def _what(ch: CardChange, say: Callable[..., str]) -> str:
    if ch.kind != "changed":
        return say(ch.kind)
    parts = list(ch.fields) + ([say("face")] if ch.face and not ch.fields else [])
    parts += [say("back")] if ch.back else []
    if ch.copies[0] != ch.copies[1]:
        parts.append(say("copies"))
    return say("changed", what=", ".join(dict.fromkeys(parts)))


def changes_markdown(changes: Changes, name: str) -> str:
    """The changes as a person reads them: added, removed, and changed with old -> new per field."""
    lines = [f"# {name}: changes since {changes.since}", ""]
    if not changes.items:
        return "\n".join(lines + ["No card changed.", ""])
    for kind, title in (("added", "Added"), ("removed", "Removed"), ("changed", "Changed")):
        items = changes.of(kind)
        if not items:
            continue
        lines += [f"## {title} ({len(items)})", ""]
        for ch in items:
            lines.append(f"- **{ch.ident}** {ch.name} ({ch.component}, copies {_copies(ch)})")
            for field_name, (old, new) in ch.fields.items():
                lines.append(f"  - {field_name}: {_show(old)} -> {_show(new)}")
            lines += [
                f"  - {side}: draws differently"
                for side, moved in (("face", ch.face), ("back", ch.back))
                if moved and not (side == "face" and ch.fields)
            ]
        lines.append("")
    return "\n".join(lines)


def _copies(ch: CardChange) -> str:
    before, now = ch.copies
    return str(now or before) if before == now or not (before and now) else f"{before} -> {now}"


def _show(value: Any) -> str:
    text = "(none)" if value is None else str(value)
    text = " ".join(text.split())
    return repr(text[:120] + ("..." if len(text) > 120 else ""))
