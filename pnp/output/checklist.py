"""The checklist PDF: every collation code with its name and copies, with boxes to tick."""
from __future__ import annotations

from pathlib import Path

from pnp.data.format.model import Game
from pnp.draw.context import color
from pnp.draw.faces import printed_cards
from pnp.draw.fonts import Fonts
from pnp.draw.pdf import canvas
from pnp.geometry.sizes import Size, pt

ROW = 5.2  # mm per row


def checklist_rows(game: Game, counts: dict[str, int]) -> list[tuple[str, list[tuple[str, str, int, str]]]]:
    """(component name, [(code, name, copies, set label)]) for every card component."""
    out = []
    for comp in game.components:
        if not comp.is_cards:
            continue
        rows = [(p.code, p.card.name, p.copies, p.mark.name or p.mark.label if p.mark else "")
                for p in printed_cards(game, comp, counts)]
        out.append((comp.name, rows))
    return out


def write_checklist(path: Path, game: Game, counts: dict[str, int], paper: Size, fonts: Fonts) -> int:
    """Write the checklist; returns its page count."""
    page = paper.portrait
    c = canvas(path, f"{game.game.name} checklist", (pt(page.w), pt(page.h)), fonts.name("body"))
    margin = 15.0
    y = page.h - margin
    pages = 1
    ink = color(game.style.ink)
    accent = color(game.style.accent)

    def text(x: float, y: float, s: str, role: str = "body", size: float = 9, right: bool = False) -> None:
        fonts.check(s, role)
        c.setFont(fonts.name(role), size)
        c.setFillColor(ink)
        (c.drawRightString if right else c.drawString)(pt(x), pt(y), s)

    def new_page() -> float:
        nonlocal pages
        c.showPage()
        pages += 1
        return page.h - margin

    variant = f" — variant {game.variant['name']}" if isinstance(game.variant, dict) and game.variant.get("name") else ""
    text(margin, y - 6, f"{game.game.name}{variant}: checklist", "display", 16)
    text(margin, y - 12, "Tick a box for every printed copy. Codes are printed small at the foot of each card face.",
         "italic", 8.5)
    y -= 22
    grand = 0
    for comp_name, rows in checklist_rows(game, counts):
        if y < margin + 3 * ROW:
            y = new_page()
        c.setFillColor(accent)
        c.rect(pt(margin), pt(y - ROW + 1), pt(page.w - 2 * margin), pt(ROW), stroke=0, fill=1)
        c.setFillColor(color("#ffffff"))
        c.setFont(fonts.name("bold"), 9.5)
        fonts.check(comp_name, "bold")
        c.drawString(pt(margin + 2), pt(y - ROW + 2.6), comp_name)
        total = sum(r[2] for r in rows)
        grand += total
        c.drawRightString(pt(page.w - margin - 2), pt(y - ROW + 2.6), f"{total} cards")
        y -= ROW + 1.5
        for code, name, copies, set_label in rows:
            if y < margin + ROW:
                y = new_page()
            text(margin + 1, y - 3.6, code, "bold", 8.5)
            label = f"{name}  ({set_label})" if set_label else name
            text(margin + 26, y - 3.6, label[:60], "body", 8.5)
            text(margin + 118, y - 3.6, f"× {copies}", "body", 8.5, right=True)
            c.setStrokeColor(ink)
            c.setLineWidth(0.4)
            for i in range(copies):
                bx = margin + 122 + (i % 16) * 4.2
                by = y - 4.2 - (i // 16) * 4.2
                c.rect(pt(bx), pt(by), pt(3.2), pt(3.2), stroke=1, fill=0)
            y -= ROW * max(1, -(-copies // 16))
        y -= 3
    if y < margin + ROW:
        y = new_page()
    text(margin, y - 4, f"In all: {grand} cards", "bold", 10)
    c.showPage()
    c.save()
    return pages
