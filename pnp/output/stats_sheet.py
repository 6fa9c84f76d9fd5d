"""The statistics report of a stacked deck as a one-page PDF with charts, and its build step."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from reportlab.graphics import renderPDF
from reportlab.graphics.charts.barcharts import VerticalBarChart
from reportlab.graphics.shapes import Drawing, String
from reportlab.lib.colors import Color

from pnp.data.format.colours import lighten, on
from pnp.data.format.model import Game
from pnp.data.reading.loader import base_component
from pnp.draw.context import color
from pnp.draw.pdf import canvas
from pnp.engines import deckstats
from pnp.output.stats_report import (
    COMBAT_COLUMNS,
    NOT_PLAYED,
    STRATEGY,
    as_float,
    combat_cell,
    report,
    summary_rows,
)
from pnp.output.steps import Output, Step
from pnp.resolve.fonts import Fonts


class _Sheet:
    """Drawing helpers for the statistics page (positions in points from the lower-left)."""

    def __init__(self, c: Any, fonts: Fonts, ink: Color, accent: Color, mine: Color):
        self.c, self.fonts, self.ink, self.accent = c, fonts, ink, accent
        self.mine = mine
        self.theirs = Color(0.78, 0.78, 0.78)

    def text(
        self,
        x: float,
        y: float,
        s: str,
        role: str = "body",
        size: float = 8.5,
        fill: Color | None = None,
        align: str = "left",
        max_width: float | None = None,
    ) -> None:
        self.fonts.check(s, role)
        if max_width:
            size = self.fonts.fit(s, role, max_width, size, 7)
        self.c.setFont(self.fonts.name(role), size)
        self.c.setFillColor(fill or self.ink)
        {"left": self.c.drawString, "right": self.c.drawRightString, "center": self.c.drawCentredString}[
            align
        ](x, y, s)

    def wrapped(
        self, x: float, y: float, width: float, s: str, role: str = "body", size: float = 7.5
    ) -> float:
        words, line, out = s.split(), "", []
        for w in words:
            trial = f"{line} {w}".strip()
            if self.fonts.width(trial, role, size) > width and line:
                out.append(line)
                line = w
            else:
                line = trial
        out.append(line)
        for i, ln in enumerate(out):
            self.text(x, y - i * size * 1.3, ln, role, size)
        return y - len(out) * size * 1.3

    def heading(self, x: float, y: float, w: float, s: str) -> None:
        self.text(x, y, s, "display", 11.5, self.accent)
        self.c.setStrokeColor(lighten(self.accent, 0.5))
        self.c.setLineWidth(0.6)
        self.c.line(x, y - 4, x + w, y - 4)

    def legend(self, x: float, y: float, label: str) -> None:
        for i, (fill, name) in enumerate(
            ((self.mine, f"this variant ({label})"), (self.theirs, "standard deck"))
        ):
            xx = x + i * 130
            self.c.setFillColor(fill)
            self.c.setStrokeColor(self.ink)
            self.c.setLineWidth(0.4)
            self.c.rect(xx, y - 1, 9, 9, stroke=1, fill=1)
            self.text(xx + 13, y, name, "body", 8)

    def bars(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        title: str,
        categories: Sequence[str],
        mine: Sequence[float],
        theirs: Sequence[float],
        fmt: str = "%.0f",
    ) -> None:
        """Grouped bar chart: the variant (dark) beside the standard deck (light)."""
        d = Drawing(w, h, initialFontName=self.fonts.name("body"))  # no Helvetica in the PDF
        title_font = self.fonts.name("bold")
        self.fonts.check(title, "bold")
        d.add(String(0, h - 9, title, fontName=title_font, fontSize=8.5, fillColor=self.ink))
        chart = VerticalBarChart()
        chart.x, chart.y, chart.width, chart.height = 24, 26, w - 30, h - 48
        chart.data = [list(mine), list(theirs)]
        chart.groupSpacing = 6 if len(categories) < 6 else 3
        chart.barSpacing = 1
        chart.bars[0].fillColor, chart.bars[1].fillColor = self.mine, self.theirs
        chart.bars.strokeColor = self.ink
        chart.bars.strokeWidth = 0.3
        top = max([*mine, *theirs, 1.0])
        chart.valueAxis.valueMin = 0
        chart.valueAxis.valueMax = top * 1.18
        chart.valueAxis.visibleGrid = True
        chart.valueAxis.gridStrokeColor = Color(0.88, 0.88, 0.88)
        chart.valueAxis.gridStrokeWidth = 0.4
        chart.valueAxis.labels.fontName = self.fonts.name("body")
        chart.valueAxis.labels.fontSize = 7
        chart.valueAxis.labelTextFormat = "%d" if top >= 4 else "%.1f"
        chart.valueAxis.strokeColor = self.ink
        chart.categoryAxis.categoryNames = [str(cat) for cat in categories]
        chart.categoryAxis.labels.fontName = self.fonts.name("body")
        chart.categoryAxis.labels.fontSize = 7.5
        chart.categoryAxis.labels.dy = -2
        chart.categoryAxis.strokeColor = self.ink
        if len(categories) <= 6:  # narrower bars would crowd their labels
            chart.barLabelFormat = fmt
            chart.barLabels.fontName = self.fonts.name("condensed")
            chart.barLabels.fontSize = 7
            chart.barLabels.nudge = 5
        for cat in categories:
            self.fonts.check(str(cat), "body")
        d.add(chart)
        renderPDF.draw(d, self.c, x, y)

    def table(
        self,
        x: float,
        y: float,
        widths: Sequence[float],
        rows: Sequence[Sequence[str]],
        size: float = 8,
        step: float = 12.5,
    ) -> float:
        """Rows of cells, the first a header in bold; zebra stripes; returns the y below."""
        total = sum(widths)
        for i, row in enumerate(rows):
            top = y - i * step
            if i == 0:
                self.c.setFillColor(lighten(self.accent, 0.82))
                self.c.rect(x, top - 3.5, total, step, stroke=0, fill=1)
            elif i % 2 == 0:
                self.c.setFillColor(Color(0.95, 0.95, 0.95))
                self.c.rect(x, top - 3.5, total, step, stroke=0, fill=1)
            xx = x
            for j, cell in enumerate(row):
                role = "bold" if i == 0 or j == 0 and len(row) > 3 else "body"
                if j == 0:
                    self.text(xx + 3, top, cell, role, size, max_width=widths[j] - 5)
                else:
                    self.text(
                        xx + widths[j] - 4, top, cell, role, size, align="right", max_width=widths[j] - 5
                    )
                xx += widths[j]
        return y - len(rows) * step


def _shares(counts: dict[str, int], keys: Sequence[str]) -> list[float]:
    total = sum(counts.values()) or 1
    return [100.0 * counts.get(k, 0) / total for k in keys]


def write_pdf(path: Path, rep: dict[str, Any], fonts: Fonts, accent: str, ink: str = "#1d1a24") -> int:
    """One A4 page of charts and tables; returns 1."""
    W, H = 595.28, 841.89
    m = 36.0
    c = canvas(
        path,
        f"{rep['game']}: variant {rep['variant'].get('name', '')} statistics",
        (W, H),
        fonts.name("body"),
    )
    v = rep["variant"]
    band = color(v.get("color") or accent)
    s = _Sheet(c, fonts, color(ink), color(accent), band)
    # Title band in the variant's colour, with its mark.
    c.setFillColor(band)
    c.rect(0, H - 92, W, 92, stroke=0, fill=1)
    fg = on(band)
    s.text(
        m,
        H - 42,
        f"{rep['game']}: stacked deck \u201c{v.get('name', '')}\u201d",
        "display",
        20,
        fg,
        max_width=W - 2 * m - 50,
    )
    changes = _changes(v)
    s.text(m, H - 60, changes, "body", 9, fg, max_width=W - 2 * m - 50)
    s.text(
        m,
        H - 75,
        f"{rep['cards']} cards (standard deck {rep['standard_cards']}), every card marked "
        f"\u201c{v.get('mark', '')}\u201d on face and back",
        "italic",
        8.5,
        fg,
        max_width=W - 2 * m - 50,
    )
    c.setFillColor(fg)
    c.circle(W - m - 18, H - 52, 18, stroke=0, fill=1)
    s.text(W - m - 18, H - 59, str(v.get("mark", "")), "display", 18, band, align="center")

    y = H - 118
    s.heading(m, y, W - 2 * m, "What is in the deck")
    s.legend(W - m - 230, y, v.get("name", ""))
    comp_v, comp_s = rep["composition"]["variant"], rep["composition"]["standard"]
    charts = _composition_charts(rep)
    weights = [1.0 + 0.1 * len(cats) for _, cats, _, _ in charts]
    x = m
    for (title, cats, mine, theirs), wgt in zip(charts, weights):
        cw = (W - 2 * m) * wgt / sum(weights)
        s.bars(x, y - 170, cw - 8, 160, title, cats, mine, theirs)
        x += cw
    y -= 186
    if "odds" not in rep:
        s.heading(m, y, W - 2 * m, "Counts")
        rows = [["field", "value", "variant", "standard"]]
        for name, counts in comp_v.items():
            for k, n in counts.items():
                rows.append([name, k, str(n), str(comp_s.get(name, {}).get(k, 0))])
        y = s.table(m, y - 20, [120, 140, 90, 90], rows[:34])
        s.wrapped(
            m,
            y - 10,
            W - 2 * m,
            "Odds and combat figures are worked out for Fairy Decks "
            "(cards with rank, suit, colour and role) only.",
            "italic",
            8,
        )
    else:
        y = _odds_section(s, rep, m, y, W)
        y = _combat_section(s, rep, m, y, W)
    _checks_section(s, rep, m, y, W)
    c.showPage()
    c.save()
    return 1


def _changes(v: dict[str, Any]) -> str:
    decks = int(v.get("decks", 1))
    parts = [f"{decks} {v.get('base', '')} deck{'s' if decks != 1 else ''} shuffled together"]
    parts += [f"minus {r}" for r in v.get("remove", [])] + [f"plus {a}" for a in v.get("add", [])]
    if v.get("jokers") is not None:
        parts.append(f"{v['jokers']} joker{'s' if v['jokers'] != 1 else ''}")
    return " \u00b7 ".join(parts)


def _composition_charts(rep: dict[str, Any]) -> list[tuple[str, list[str], list[float], list[float]]]:
    comp_v, comp_s = rep["composition"]["variant"], rep["composition"]["standard"]
    if "odds" in rep:
        roles = list(deckstats.ROLES)
        d, b = rep["odds"]["deck"], rep["odds"]["base"]
        values = [str(k) for k in range(2, 11)]
        dist_v = [100 * as_float(d["numbered_value_distribution"].get(k, {"float": 0})) for k in values]
        dist_s = [100 * as_float(b["numbered_value_distribution"].get(k, {"float": 0})) for k in values]
        return [
            (
                "Cards by role (% of deck)",
                roles,
                _shares(rep["by_role"], roles),
                _shares(rep["standard_by_role"], roles),
            ),
            (
                "Cards by colour (% of deck)",
                ["red", "black", "none"],
                _shares(d["colours"], ["red", "black", "none"]),
                _shares(b["colours"], ["red", "black", "none"]),
            ),
            ("Numbered values (% of Numbered cards)", values, dist_v, dist_s),
        ]
    out = []
    for name, counts in list(comp_v.items())[:3]:
        keys = list(dict.fromkeys([*counts, *comp_s.get(name, {})]))
        out.append(
            (f"Cards by {name} (% of deck)", keys, _shares(counts, keys), _shares(comp_s.get(name, {}), keys))
        )
    return out


def _odds_section(s: _Sheet, rep: dict[str, Any], m: float, y: float, W: float) -> float:
    s.heading(m, y, W - 2 * m, "Odds (exact)")
    rows = [["chance of ...", "variant", "standard"]] + [list(r) for r in summary_rows(rep)[1:]]
    bottom = s.table(m, y - 20, [170, 60, 60], rows)
    d, b = rep["odds"]["deck"], rep["odds"]["base"]
    ks = [k for k in d["p_order_tie"] if k in b["p_order_tie"]]
    s.bars(
        m + 305,
        bottom - 4,
        W - 2 * m - 305,
        y - 14 - bottom,
        "Order ties by number of fairies (%)",
        ks,
        [100 * as_float(d["p_order_tie"][k]) for k in ks],
        [100 * as_float(b["p_order_tie"][k]) for k in ks],
    )
    return bottom - 18


def _combat_section(s: _Sheet, rep: dict[str, Any], m: float, y: float, W: float) -> float:
    combat = rep["combat"]
    s.heading(
        m,
        y,
        W - 2 * m,
        f"Combat: one attack, {combat['trials']:,} simulated per match-up (seed {combat['seed']})",
    )
    rows = [["match-up (cards drawn)"] + [label for _, label, _ in COMBAT_COLUMNS]]
    for mu in combat["matchups"]:
        rows.append(
            [f"Kill {mu['kill']} vs Live {mu['live']} ({mu['attacker_cards']} v {mu['defender_cards']})"]
            + [combat_cell(mu, k, f) for k, _, f in COMBAT_COLUMNS]
        )
    bottom = s.table(m, y - 20, [140, 90, 90, 90, 94], rows)
    unplayed = any(mu["variant"] is None for mu in combat["matchups"])
    s.text(
        m + 3,
        bottom + 1,
        "each cell: this variant / standard deck"
        + (f"; - = {NOT_PLAYED} with this variant" if unplayed else ""),
        "italic",
        7,
    )
    chart_top = bottom - 8
    labels = [f"K{mu['kill']} v L{mu['live']}" for mu in combat["matchups"]]
    s.bars(
        m,
        chart_top - 130,
        170,
        130,
        "Expected damage per attack",
        labels,
        [(mu["variant"] or {}).get("expected_damage", 0.0) for mu in combat["matchups"]],
        [mu["standard"]["expected_damage"] for mu in combat["matchups"]],
        "%.2f",
    )
    s.bars(
        m + 175,
        chart_top - 130,
        170,
        130,
        "Nasty Hit chance (%)",
        labels,
        [100 * (mu["variant"] or {}).get("p_nasty_hit", 0.0) for mu in combat["matchups"]],
        [100 * mu["standard"]["p_nasty_hit"] for mu in combat["matchups"]],
        "%.1f",
    )
    s.wrapped(m + 355, chart_top - 12, W - 2 * m - 355, STRATEGY, "body", 7.2)
    return chart_top - 148


def _checks_section(s: _Sheet, rep: dict[str, Any], m: float, y: float, W: float) -> None:
    s.heading(m, y, W - 2 * m, "Checks")
    notes = rep.get("notes", [])
    if not notes:
        s.text(
            m,
            y - 20,
            "No warnings: red and black stay even and Order ties stay close to the standard deck.",
            "body",
            8.5,
        )
        return
    yy = y - 20
    for note in notes[:6]:
        yy = s.wrapped(m, yy, W - 2 * m, f"\u25b8 {note['severity']}: {note['text']}", "body", 8) - 3


# --------------------------------------------------------------------------- build step


def stats_step(game: Game, options: Any) -> Any:
    """The build step that writes <variant>/stats.pdf and stats.json for a variant game."""
    rel = f"{game.slug}/stats.pdf"
    base = base_component(game)

    def run(stage: Path, fonts: Fonts, tick: Callable[[], None]) -> Output:
        rep = report(game, base)
        path = stage / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        (path.parent / "stats.json").write_text(json.dumps(rep, indent=2) + "\n", encoding="utf-8")
        pages = write_pdf(path, rep, fonts, game.style.accent, game.style.ink)
        tick()
        return Output(rel, game.tag, "stats", "reference", pages)

    return Step(f"{game.tag} {game.slug} statistics", 1, run)
