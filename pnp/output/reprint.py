"""A reprint: only the cards new or changed since an earlier print, on the usual sheets, and a page
saying which printed cards to take out; plus `changes.md`, the same changes for a person to read."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pnp.data.format.model import Component, Game
from pnp.draw.context import color
from pnp.draw.faces import FormCache, Printed, printed_cards
from pnp.draw.fonts import Fonts
from pnp.draw.pdf import canvas
from pnp.geometry.sizes import pt
from pnp.output.checklist import MARGIN, ROW, TickSheet
from pnp.output.prints import CardChange, Changes, ident
from pnp.output.sheets import draw_deck
from pnp.output.steps import BuildOptions


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
    of printed cards to take out and put in; returns the page count."""
    page = options.sheets.paper.portrait
    c = canvas(
        path, f"{game.game.name}: reprint since {changes.since}", (pt(page.w), pt(page.h)), fonts.name("body")
    )
    forms = FormCache(c, game, fonts, options.sheets.bleed, max_dpi=options.max_dpi)
    pages = sum(
        draw_deck(c, game, comp, cards, options.sheets, fonts, forms)
        for comp, cards in reprint_cards(game, changes, options.counts)
    )
    c.setPageSize((pt(page.w), pt(page.h)))
    sheet = TickSheet(c, fonts, page, color(game.style.ink), game.say)
    version = f" (version {game.game.version})" if game.game.version else ""
    sheet.text(MARGIN, sheet.y - 6, f"{game.game.name}: reprint{version}", "display", 16)
    sheet.text(
        MARGIN,
        sheet.y - 12,
        f"Cards changed since {changes.since}. Tick each copy as you swap it.",
        "italic",
        8.5,
    )
    sheet.y -= 22
    out = changes.of("removed") + changes.of("changed")
    put = changes.of("changed") + changes.of("added")
    sheet.fit_codes(ch.ident for ch in out + put)
    _list(sheet, "Take out of the printed deck", out, lambda ch: ch.copies[0], color(game.style.accent))
    _list(sheet, "Put in from this reprint", put, lambda ch: ch.copies[1], color(game.style.accent))
    c.showPage()
    c.save()
    return pages + sheet.pages


def _list(sheet: TickSheet, title: str, items: list[CardChange], copies: Any, accent: Any) -> None:
    sheet.band(title, sum(copies(ch) for ch in items), accent)
    for ch in items:
        sheet.row(ch.ident, f"{ch.name}  ({_what(ch)})", copies(ch))
    if not items:
        sheet.text(MARGIN + 1, sheet.y - 3.6, "none", "italic", 8.5)
        sheet.y -= ROW
    sheet.y -= 3


def _what(ch: CardChange) -> str:
    if ch.kind != "changed":
        return ch.kind
    parts = list(ch.fields) + (["face"] if ch.face and not ch.fields else []) + (["back"] if ch.back else [])
    if ch.copies[0] != ch.copies[1]:
        parts.append("copies")
    return "changed: " + ", ".join(dict.fromkeys(parts))


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
