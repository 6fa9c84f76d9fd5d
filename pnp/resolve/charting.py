"""Relationship charts for layouts: nodes in layered columns with arrows along their links.

`chart` lays the linked nodes out left to right by depth (a node sits one
column right of the deepest node linking to it), ordered to keep arrows short,
and returns where each box and arrow goes; the layout's elements draw them
(see pnp/layouts/chart.yaml). Nodes without any link come back as `alone`,
for a strip under the chart. Lengths in and out are mm, y down from the card's top.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pnp.data.templating.engine import numeral
from pnp.geometry.sizes import MM, pt
from pnp.resolve.fonts import Fonts

LABEL = 7.2  # node label size (condensed bold)
NUMBER = 7.0  # node number size (serif)


@dataclass(frozen=True)
class Node:
    id: str
    label: str
    group: str
    number: str
    links: tuple[str, ...]


def nodes_from(
    records: Any,
    fid: str = "id",
    flabel: str = "label",
    fgroup: str = "group",
    flinks: str = "links",
    fnum: str | None = None,
) -> list[Node]:
    """Records to nodes, using the given field names."""
    out = []
    for rec in records or []:
        get = rec.get if hasattr(rec, "get") else (lambda k, d=None, rec=rec: getattr(rec, k, d))
        label = get(flabel) or get("name") or get(fid)
        out.append(
            Node(
                str(get(fid)),
                str(label),
                str(get(fgroup) or ""),
                numeral(get(fnum)) if fnum else "",
                tuple(str(k) for k in (get(flinks) or [])),
            )
        )
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
        for ci in range(1, len(cols)) if down else range(len(cols) - 2, -1, -1):
            ref_ids = {n.id for n in cols[ci - 1 if down else ci + 1]}

            def key(n: Node, ref_ids: set[str] = ref_ids, order: dict[str, int] = order) -> float:
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
        for (c2, a2), (_, b2) in spans[i + 1 :]:
            if c1 == c2 and (a1 - a2) * (b1 - b2) < 0:
                count += 1
    return count


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


def box_width(fonts: Fonts, n: Node) -> float:
    """A node box's width in points: its label, or its number and emblem, plus padding."""
    top = (fonts.width(n.number, "serif", NUMBER) if n.number else 0) + pt(4)
    return max(fonts.width(n.label, "condensed", LABEL), top) + pt(2.4)


def _box(n: Node, x: float, y: float, w: float, h: float) -> dict[str, Any]:
    """A node box for the layout, in mm (x, y: its top-left corner; y down)."""
    return {
        "id": n.id,
        "label": n.label,
        "group": n.group,
        "number": n.number,
        "x": x / MM,
        "y": -(y + h / 2) / MM,
        "w": w / MM,
        "h": h / MM,
    }


def chart(
    fonts: Fonts, nodes: list[Node], x: float, top: float, width: float, height: float
) -> dict[str, Any]:
    """Where the linked nodes' boxes and arrows go in the box (mm; y down): {boxes, arrows, alone}.

    Each arrow is a curve (`commands` for a path element) with a `head` triangle and the
    `group` of the node it points at; `alone` lists the nodes with no link.
    """
    cols, alone, edges = layers(nodes)
    out: dict[str, Any] = {"boxes": [], "arrows": [], "alone": alone}
    if not cols:
        return out
    # In points, y up from the chart's top edge turned negative (as a card's y would run).
    x, width, height = pt(x), pt(width), pt(height)
    y = -(pt(top) + height)
    n_cols = len(cols)
    widths = [max(box_width(fonts, n) for n in col) for col in cols]
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
    for a, b in edges:
        (ax, ay), (bx, by) = pos[a], pos[b]
        x0, x1 = ax + widths[col_of[a]], bx
        if x1 <= x0:  # same or earlier column: come in from the right side
            x1 = bx + widths[col_of[b]]
        mid = (x0 + x1) / 2
        out["arrows"].append(
            {
                "group": by_id[b].group,
                "commands": [
                    ["move", x0 / MM, -ay / MM],
                    ["curve", mid / MM, -ay / MM, mid / MM, -by / MM, (x1 - pt(1.4)) / MM, -by / MM],
                ],
                "head": [
                    ["move", x1 / MM, -by / MM],
                    ["line", (x1 - pt(1.8)) / MM, -(by + pt(0.95)) / MM],
                    ["line", (x1 - pt(1.8)) / MM, -(by - pt(0.95)) / MM],
                    ["close"],
                ],
            }
        )
    for ci, col in enumerate(cols):
        for n in col:
            nx, ny = pos[n.id]
            out["boxes"].append(_box(n, nx, ny, widths[ci], bh))
    return out


STRIP_GAP = pt(3)  # between boxes of the strip
STRIP_ROW = 9.0  # mm from one strip row to the next (a 7 mm box and its margin)


def _strip_grid(fonts: Fonts, alone: list[Node], width: float) -> tuple[float, int]:
    """Box width (points) and boxes per row for the strip: every label at its full size, in as
    many rows as that takes (one row when they all fit; a label wider than the strip gets it whole)."""
    widest = max(box_width(fonts, a) for a in alone)
    per_row = max(1, min(len(alone), int((width + STRIP_GAP) // (widest + STRIP_GAP))))
    return min(widest, width), per_row


def strip_rows(fonts: Fonts, alone: list[Node], width: float) -> int:
    """How many rows the strip of `alone` nodes takes across `width` mm (0 for none)."""
    if not alone:
        return 0
    _, per_row = _strip_grid(fonts, alone, pt(width))
    return -(-len(alone) // per_row)


def strip(fonts: Fonts, alone: list[Node], x: float, top: float, width: float) -> list[dict[str, Any]]:
    """Boxes (mm) for nodes without links, 7 mm tall, in centred rows 3 mm apart under `top`.

    The boxes keep the width of the widest label; when they do not all fit side by side they wrap
    into further rows (`strip_rows` says how many, so the layout can make room), so a chart with
    many unlinked nodes (a stacked deck that dropped their partners) never squeezes a label."""
    if not alone:
        return []
    x, width = pt(x), pt(width)
    bw, per_row = _strip_grid(fonts, alone, width)
    out = []
    for first in range(0, len(alone), per_row):
        row = alone[first : first + per_row]
        start = x + (width - (len(row) * bw + (len(row) - 1) * STRIP_GAP)) / 2
        out += [
            {
                "id": node.id,
                "label": node.label,
                "group": node.group,
                "number": node.number,
                "x": (start + i * (bw + STRIP_GAP)) / MM,
                "y": top + 1.1 + STRIP_ROW * (first // per_row),
                "w": bw / MM,
                "h": 7.0,
            }
            for i, node in enumerate(row)
        ]
    return out


def chips(fonts: Fonts, groups: Mapping[str, Any], room: float, size: float = 6.8) -> dict[str, Any]:
    """A legend line: one chip per group (disc and title), shrunk to fit `room` mm; x from its centre."""
    items = [(str(k), str((v or {}).get("title", k)), (v or {}).get("emblem")) for k, v in groups.items()]
    widths = [pt(4.2) + fonts.width(t, "body", size) for _, t, _ in items]
    gap = pt(2.4)
    total = sum(widths) + gap * (len(items) - 1)
    if total > pt(room):
        size = size * pt(room) / total
        widths = [pt(4.2) + fonts.width(t, "body", size) for _, t, _ in items]
        total = sum(widths) + gap * (len(items) - 1)
    out, x = [], -total / 2
    for (key, title, emblem), wd in zip(items, widths):
        out.append({"group": key, "title": title, "emblem": emblem, "x": x / MM})
        x += wd + gap
    return {"size": size, "chips": out}
