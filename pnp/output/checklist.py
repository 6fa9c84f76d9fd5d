"""The checklist PDF: every collation code with its name and copies, with boxes to tick."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pnp.data.format.model import Game
from pnp.draw.context import color
from pnp.draw.pdf import canvas
from pnp.geometry.sizes import Size, pt
from pnp.resolve.cards import printed_cards
from pnp.resolve.fonts import Fonts

ROW = 5.2  # mm per row
CODE_COLUMN = (25.0, 70.0)  # mm: the code column's width, at least and at most
CODE_GAP = 2.5  # mm between the longest code and the names


def checklist_rows(game: Game, counts: dict[str, int]) -> list[tuple[str, list[tuple[str, str, int, str]]]]:
    """(component name, [(code, name, copies, set label)]) for every card component."""
    out = []
    for comp in game.components:
        if not comp.is_cards:
            continue
        rows = [
            (p.code, p.card.name, p.copies, p.mark.name or p.mark.label if p.mark else "")
            for p in printed_cards(game, comp, counts)
        ]
        out.append((comp.name, rows))
    return out


def write_checklist(path: Path, game: Game, counts: dict[str, int], paper: Size, fonts: Fonts) -> int:
    """Write the checklist; returns its page count."""
    page = paper.portrait
    say = game.say
    c = canvas(
        path, say("checklist_document", game=game.game.name), (pt(page.w), pt(page.h)), fonts.name("body")
    )
    sheet = TickSheet(c, fonts, page, color(game.style.ink), say)
    named = isinstance(game.variant, dict) and game.variant.get("name")
    variant = f" — {say('variant', name=game.variant['name'])}" if named else ""
    version = f" ({say('version', version=game.game.version)})" if game.game.version else ""
    sheet.text(
        MARGIN, sheet.y - 6, say("checklist", game=f"{game.game.name}{variant}") + version, "display", 16
    )
    sheet.text(MARGIN, sheet.y - 12, say("checklist_intro"), "italic", 8.5)
    sheet.y -= 22
    grand = 0
    listed = checklist_rows(game, counts)
    sheet.fit_codes(code for _, rows in listed for code, *_ in rows)
    for comp_name, rows in listed:
        grand += sheet.band(comp_name, sum(r[2] for r in rows), color(game.style.accent))
        for code, name, copies, set_label in rows:
            sheet.row(code, f"{name}  ({set_label})" if set_label else name, copies)
        sheet.y -= 3
    sheet.room(ROW)
    sheet.text(MARGIN, sheet.y - 4, say("in_all", count=grand), "bold", 10)
    c.showPage()
    c.save()
    return sheet.pages


MARGIN = 15.0  # mm round the page
CODE_SIZE = 8.5  # points: a code in the list
COPIES_AT = MARGIN + 118  # mm: where the copies count ends


@dataclass
class TickSheet:
    """A list of cards with boxes to tick (the checklist, a reprint's take-out page): where the next
    line goes, and how many pages so far."""

    c: Any
    fonts: Fonts
    page: Size
    ink: Any
    say: Callable[..., str]  # pnp's words in the game's language (Game.say)
    pages: int = 1
    y: float = field(default=0.0)
    code_w: float = CODE_COLUMN[0]  # mm from a code's start to its name's (`fit_codes`)

    def __post_init__(self) -> None:
        self.y = self.page.h - MARGIN

    def text(
        self, x: float, y: float, s: str, role: str = "body", size: float = 9, right: bool = False
    ) -> None:
        self.fonts.check(s, role)
        self.c.setFont(self.fonts.name(role), size)
        self.c.setFillColor(self.ink)
        (self.c.drawRightString if right else self.c.drawString)(pt(x), pt(y), s)

    def fit_codes(self, codes: Iterable[str]) -> None:
        """Make the code column as wide as the longest of `codes` as printed (within CODE_COLUMN)."""
        widest = max((self.fonts.width(code, "bold", CODE_SIZE) for code in codes), default=0.0) / pt(1)
        self.code_w = min(CODE_COLUMN[1], max(CODE_COLUMN[0], widest + CODE_GAP))

    def room(self, height: float) -> None:
        """A new page unless `height` mm still fit above the bottom margin."""
        if self.y < MARGIN + height:
            self.c.showPage()
            self.pages += 1
            self.y = self.page.h - MARGIN

    def band(self, name: str, total: int, accent: Any) -> int:
        """A component's heading band with its card count; returns the count."""
        c, w = self.c, self.page.w
        self.room(3 * ROW)
        c.setFillColor(accent)
        c.rect(pt(MARGIN), pt(self.y - ROW + 1), pt(w - 2 * MARGIN), pt(ROW), stroke=0, fill=1)
        c.setFillColor(color("#ffffff"))
        c.setFont(self.fonts.name("bold"), 9.5)
        self.fonts.check(name, "bold")
        c.drawString(pt(MARGIN + 2), pt(self.y - ROW + 2.6), name)
        c.drawRightString(pt(w - MARGIN - 2), pt(self.y - ROW + 2.6), self.say("cards", count=total))
        self.y -= ROW + 1.5
        return total

    def row(self, code: str, label: str, copies: int) -> None:
        """One card: its code, name and a box to tick for every copy (16 to a line)."""
        self.room(ROW)
        y = self.y
        room = self.code_w - CODE_GAP
        code_size = self.fonts.fit(code, "bold", pt(room), CODE_SIZE, 4.0)
        self.text(MARGIN + 1, y - 3.6, code, "bold", code_size)
        label, left = label[:60], MARGIN + 1 + self.code_w
        room = COPIES_AT - 10 - left  # clear of the copies ("x 16") right-aligned at COPIES_AT
        self.text(left, y - 3.6, label, "body", self.fonts.fit(label, "body", pt(room), 8.5, 6.0))
        self.text(COPIES_AT, y - 3.6, f"× {copies}", "body", 8.5, right=True)
        self.c.setStrokeColor(self.ink)
        self.c.setLineWidth(0.4)
        for i in range(copies):
            bx = MARGIN + 122 + (i % 16) * 4.2
            by = y - 4.2 - (i // 16) * 4.2
            self.c.rect(pt(bx), pt(by), pt(3.2), pt(3.2), stroke=1, fill=0)
        self.y -= ROW * max(1, -(-copies // 16))
