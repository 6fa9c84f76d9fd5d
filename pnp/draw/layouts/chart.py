"""A relationship chart from structured data: nodes in layered columns, arrows along links.

`nodes` is a list of records (e.g. `cards`); the slots `node_id`, `node_label`,
`node_group`, `node_links` and `node_number` name the record fields to use.
Nodes with links are laid out left to right by depth (a node sits one column
right of the deepest node linking to it), ordered to keep arrows short; nodes
without any link are listed in a strip under the chart. `groups` maps a group
value to {color, emblem, title}; a legend of the groups closes the card.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from reportlab.lib.colors import Color

from pnp.draw.context import CardContext, color, darken, lighten, on
from pnp.geometry.sizes import pt
from pnp.data.format.catalog import LEGACY_SLOTS as SLOTS
from pnp.draw.images import Picture
from pnp.draw.layouts import Layout
from pnp.data.templating.engine import numeral


@dataclass(frozen=True)
class Node:
    id: str
    label: str
    group: str
    number: str
    links: tuple[str, ...]


def nodes_from(s: Mapping[str, Any]) -> list[Node]:
    """Records to nodes, using the field names the slots give."""
    fid, flabel = s.get("node_id") or "id", s.get("node_label") or "label"
    fgroup, flinks, fnum = s.get("node_group") or "group", s.get("node_links") or "links", s.get("node_number")
    out = []
    for rec in s.get("nodes") or []:
        get = rec.get if hasattr(rec, "get") else (lambda k, d=None: getattr(rec, k, d))
        label = get(flabel) or get("name") or get(fid)
        out.append(Node(str(get(fid)), str(label), str(get(fgroup) or ""),
                        numeral(get(fnum)) if fnum else "", tuple(str(k) for k in (get(flinks) or []))))
    return out


def layers(nodes: list[Node]) -> tuple[list[list[Node]], list[Node], list[tuple[str, str]]]:
    """Linked nodes by column (barycentre-ordered), unlinked nodes, and the edges."""
    ids = {n.id for n in nodes}
    edges = [(n.id, t) for n in nodes for t in n.links if t in ids and t != n.id]
    touched = {a for a, _ in edges} | {b for _, b in edges}
    linked = [n for n in nodes if n.id in touched]
    alone = [n for n in nodes if n.id not in touched]
    depth = {n.id: 0 for n in linked}
    for _ in range(len(linked)):  # longest path; the bound stops cycles
        changed = False
        for a, b in edges:
            if depth[b] < depth[a] + 1 and depth[a] + 1 < len(linked):
                depth[b] = depth[a] + 1
                changed = True
        if not changed:
            break
    cols: list[list[Node]] = [[] for _ in range(max(depth.values(), default=-1) + 1)]
    for n in linked:
        cols[depth[n.id]].append(n)
    cols = [col for col in cols if col]
    # Barycentre sweeps: order each column by the mean position of its neighbours,
    # keeping the ordering with the fewest crossing arrows.
    best, best_x = [list(col) for col in cols], _crossings(cols, edges)
    for sweep in range(12):
        order = {n.id: i for col in cols for i, n in enumerate(col)}
        down = sweep % 2 == 0
        for ci in (range(1, len(cols)) if down else range(len(cols) - 2, -1, -1)):
            ref_ids = {n.id for n in cols[ci - 1 if down else ci + 1]}

            def key(n: Node, ref_ids: set[str] = ref_ids) -> float:
                near = [order[a] for a, b in edges if b == n.id and a in ref_ids]
                near += [order[b] for a, b in edges if a == n.id and b in ref_ids]
                return sum(near) / len(near) if near else order[n.id]

            cols[ci] = sorted(cols[ci], key=key)
            order = {n.id: i for col in cols for i, n in enumerate(col)}
        crossing = _crossings(cols, edges)
        if crossing < best_x:
            best, best_x = [list(col) for col in cols], crossing
    cols = best
    return cols, alone, edges


def _crossings(cols: list[list[Node]], edges: list[tuple[str, str]]) -> int:
    """Pairs of arrows that cross between neighbouring columns."""
    where = {n.id: (ci, i) for ci, col in enumerate(cols) for i, n in enumerate(col)}
    spans = [(where[a], where[b]) for a, b in edges if where[b][0] == where[a][0] + 1]
    count = 0
    for i, ((c1, a1), (_, b1)) in enumerate(spans):
        for (c2, a2), (_, b2) in spans[i + 1:]:
            if c1 == c2 and (a1 - a2) * (b1 - b2) < 0:
                count += 1
    return count


def draw(ctx: CardContext, s: Mapping[str, Any]) -> Color:
    c, w, h = ctx.c, ctx.w, ctx.h
    theme = color(s.get("color"), ctx.style.accent)
    paper = color(ctx.style.paper)
    ink = color(ctx.style.ink)
    groups: Mapping[str, Any] = s.get("groups") or {}

    def gcolor(g: str) -> Color:
        return color((groups.get(g) or {}).get("color"), "#777777")

    ctx.fill_bleed(theme)
    panel = pt(3.2)
    ctx.round_rect(panel, panel, w - 2 * panel, h - 2 * panel, pt(2.4), fill=paper, stroke=lighten(theme, 0.5), width=0.8)

    # Title band (kept clear of the set mark in the top-right corner).
    top = h - ctx.safe
    band_h = pt(9.5)
    c.setFillColor(theme)
    c.rect(panel, top - band_h, w - 2 * panel, band_h + (h - panel - top), stroke=0, fill=1)
    if isinstance(s.get("art"), Picture):  # a picture at the left end of the title band
        ctx.picture(s["art"], panel + pt(1.5), top - band_h + pt(1), band_h - pt(2), band_h - pt(2))
    ctx.text(w / 2, top - band_h / 2 - pt(1.3), str(s.get("title", "")), "display", 11, on(theme), align="center",
             max_width=w - 2 * ctx.safe - pt(10))
    y = top - band_h - pt(1.6)
    if s.get("subtitle"):
        ctx.text(w / 2, y - pt(2.6), str(s["subtitle"]), "serif-italic", 7.2, darken(theme, 0.2), align="center",
                 max_width=w - 2 * ctx.safe)
        y -= pt(4.4)

    cols, alone, edges = layers(nodes_from(s))
    legend_h = pt(6.5) if groups else 0
    text = str(s.get("text", "")).strip()
    inner_x = panel + pt(1.8)
    inner_w = w - 2 * inner_x
    text_lines = len(ctx.wrap(text, "serif-italic", 7.2, inner_w)) if text else 0
    text_h = text_lines * 7.2 * 1.2 + pt(1) if text else 0
    alone_h = pt(9) if alone else 0
    bottom = ctx.safe + ctx.footer_h + pt(0.8)
    chart_top, chart_bottom = y - pt(1), bottom + legend_h + text_h + alone_h + pt(1)

    if cols:
        _chart(ctx, cols, edges, inner_x, chart_bottom, inner_w, chart_top - chart_bottom, gcolor, groups, ink)

    yb = chart_bottom - pt(1)
    if alone:
        _alone(ctx, alone, inner_x, yb, inner_w, gcolor, groups, ink)
        yb -= alone_h
    if text:
        ctx.paragraph(inner_x, yb, inner_w, text_h, text, "serif-italic", 7.2, min_size=6.8, fill=ink, align="center")
        yb -= text_h
    if groups:
        _legend(ctx, groups, w / 2, bottom + pt(2.4), gcolor, ink)
    return darken(theme, 0.4)


LABEL = 7.2   # node label size (condensed bold)
NUMBER = 7.0  # node number size (serif)


def _node_box(ctx: CardContext, n: Node, x: float, y: float, bw: float, bh: float, fill: Color,
              groups: Mapping[str, Any], ink: Color) -> None:
    """A node: rounded box tinted by group; number and group emblem on top, label below."""
    ctx.round_rect(x, y - bh / 2, bw, bh, pt(1.6), fill=lighten(fill, 0.84), stroke=fill, width=0.8)
    pad = pt(1.1)
    emblem = (groups.get(n.group) or {}).get("emblem")
    r = pt(1.35)
    if n.number or emblem:
        line1 = y + bh / 2 - pt(2.45)
        if emblem:
            ctx.c.setFillColor(fill)
            ctx.c.circle(x + bw - pad - r, line1 + pt(0.75), r, stroke=0, fill=1)
            ctx.symbol(str(emblem), x + bw - pad - r, line1 + pt(0.75), r * 1.45, fill=on(fill))
        if n.number:
            ctx.text(x + pad, line1, n.number, "serif", NUMBER, darken(fill, 0.4), max_width=bw - 2 * pad - 2 * r)
        ctx.text(x + pad, y - bh / 2 + pt(1.15), n.label, "condensed", LABEL, ink, max_width=bw - 2 * pad,
                 min_size=7.0)
    else:
        ctx.text(x + pad, y - pt(0.9), n.label, "condensed", LABEL, ink, max_width=bw - 2 * pad, min_size=7.0)


def _box_width(ctx: CardContext, n: Node) -> float:
    top = (ctx.fonts.width(n.number, "serif", NUMBER) if n.number else 0) + pt(4)
    return max(ctx.fonts.width(n.label, "condensed", LABEL), top) + pt(2.4)


def _chart(ctx: CardContext, cols: list[list[Node]], edges: list[tuple[str, str]], x: float, y: float,
           width: float, height: float, gcolor, groups: Mapping[str, Any], ink: Color) -> None:
    c = ctx.c
    n_cols = len(cols)
    widths = [max(_box_width(ctx, n) for n in col) for col in cols]
    min_gap = pt(4.5)
    if sum(widths) + min_gap * (n_cols - 1) > width:  # too wide: squeeze every column alike
        k = (width - min_gap * (n_cols - 1)) / sum(widths)
        widths = [wd * k for wd in widths]
    gap = min(pt(12), (width - sum(widths)) / (n_cols - 1)) if n_cols > 1 else 0
    xs, cur = [], x + (width - sum(widths) - gap * (n_cols - 1)) / 2
    for wd in widths:
        xs.append(cur)
        cur += wd + gap
    pitch = height / max(len(col) for col in cols)
    bh = min(pt(7.4), pitch * 0.86)
    pos: dict[str, tuple[float, float]] = {}
    for ci, col in enumerate(cols):
        if ci == 0:
            start = y + height / 2 + (len(col) - 1) * pitch / 2
            ys = [start - i * pitch for i in range(len(col))]
        else:  # sit near the nodes linking in, then push apart to one pitch
            want = []
            for n in col:
                src = [pos[a][1] for a, b in edges if b == n.id and a in pos]
                want.append(sum(src) / len(src) if src else y + height / 2)
            ranked = sorted(range(len(col)), key=lambda i: -want[i])
            col = [col[i] for i in ranked]
            ys = _spread([want[i] for i in ranked], pitch, y + pitch / 2, y + height - pitch / 2)
        for n, ny in zip(col, ys):
            pos[n.id] = (xs[ci], ny)
    col_of = {n.id: ci for ci, col in enumerate(cols) for n in col}
    by_id = {n.id: n for col in cols for n in col}
    # Arrows first, boxes on top.
    for a, b in edges:
        (ax, ay), (bx, by) = pos[a], pos[b]
        x0, x1 = ax + widths[col_of[a]], bx
        if x1 <= x0:  # same or earlier column: come in from the right side
            x1 = bx + widths[col_of[b]]
        col_ink = darken(gcolor(by_id[b].group), 0.15)
        c.setStrokeColor(col_ink)
        c.setLineWidth(0.9)
        p = c.beginPath()
        mid = (x0 + x1) / 2
        p.moveTo(x0, ay)
        p.curveTo(mid, ay, mid, by, x1 - pt(1.4), by)
        c.drawPath(p, stroke=1, fill=0)
        c.setFillColor(col_ink)
        head = c.beginPath()
        head.moveTo(x1, by)
        head.lineTo(x1 - pt(1.8), by + pt(0.95))
        head.lineTo(x1 - pt(1.8), by - pt(0.95))
        head.close()
        c.drawPath(head, stroke=0, fill=1)
    for ci, col in enumerate(cols):
        for n in col:
            nx, ny = pos[n.id]
            _node_box(ctx, n, nx, ny, widths[ci], bh, gcolor(n.group), groups, ink)


def _spread(want: list[float], pitch: float, lo: float, hi: float) -> list[float]:
    """Positions (top to bottom, descending y) near `want`, at least `pitch` apart, inside [lo, hi]."""
    ys = list(want)
    for i in range(1, len(ys)):
        ys[i] = min(ys[i], ys[i - 1] - pitch)
    if ys and ys[-1] < lo:
        ys[-1] = lo
        for i in range(len(ys) - 2, -1, -1):
            ys[i] = max(ys[i], ys[i + 1] + pitch)
    if ys and ys[0] > hi:
        ys[0] = hi
        for i in range(1, len(ys)):
            ys[i] = min(ys[i], ys[i - 1] - pitch)
    return ys


def _alone(ctx: CardContext, alone: list[Node], x: float, top: float, width: float, gcolor,
           groups: Mapping[str, Any], ink: Color) -> None:
    """Nodes with no link, in a row of boxes under a dashed rule."""
    c = ctx.c
    c.setStrokeColor(lighten(ink, 0.6))
    c.setLineWidth(0.4)
    c.setDash(1.5, 1.5)
    c.line(x, top, x + width, top)
    c.setDash()
    n = len(alone)
    bw = min(max(_box_width(ctx, a) for a in alone), (width - pt(3) * (n - 1)) / n)
    start = x + (width - (n * bw + (n - 1) * pt(3))) / 2
    for i, node in enumerate(alone):
        _node_box(ctx, node, start + i * (bw + pt(3)), top - pt(4.6), bw, pt(7.0), gcolor(node.group), groups, ink)


def _legend(ctx: CardContext, groups: Mapping[str, Any], cx: float, y: float, gcolor, ink: Color) -> None:
    """One chip per group: emblem disc and title, centred on a line."""
    size = 6.8
    items = [(str(k), str((v or {}).get("title", k)), (v or {}).get("emblem")) for k, v in groups.items()]
    widths = [pt(4.2) + ctx.fonts.width(t, "body", size) for _, t, _ in items]
    gap = pt(2.4)
    total = sum(widths) + gap * (len(items) - 1)
    if total > ctx.w - 2 * ctx.safe:
        size = size * (ctx.w - 2 * ctx.safe) / total
        widths = [pt(4.2) + ctx.fonts.width(t, "body", size) for _, t, _ in items]
        total = sum(widths) + gap * (len(items) - 1)
    x = cx - total / 2
    for (key, title, emblem), wd in zip(items, widths):
        fill = gcolor(key)
        ctx.c.setFillColor(fill)
        ctx.c.circle(x + pt(1.6), y + pt(0.9), pt(1.6), stroke=0, fill=1)
        if emblem:
            ctx.symbol(str(emblem), x + pt(1.6), y + pt(0.9), pt(2.3), fill=on(fill))
        ctx.text(x + pt(3.8), y, title, "body", size, ink)
        x += wd + gap


LAYOUT = Layout(
    "chart", SLOTS["chart"], draw,
                "Relationship chart: linked nodes in columns with arrows, unlinked nodes below, group legend.")
