"""Saddle-stitch page order and board tiling: pure arithmetic, checked by its properties."""

from __future__ import annotations

import pytest

from pnp.geometry.imposition import padded_pages, saddle_order, tile_plan


def reading_order(n: int) -> list[int | None]:
    """Pages in the order a reader meets them once the sheets are stacked, folded and stapled."""
    sheets = saddle_order(n)
    first = [p for s in sheets for p in (s.front_right, s.back_left)]
    second = [p for s in reversed(sheets) for p in (s.back_right, s.front_left)]
    return first + second


@pytest.mark.parametrize("n", [1, 4, 5, 8, 13, 16])
def test_folded_booklet_reads_in_order(n: int) -> None:
    total = padded_pages(n)
    assert total % 4 == 0 and total - 4 < max(n, 1) <= total
    assert len(saddle_order(n)) == total // 4
    assert reading_order(n) == list(range(1, n + 1)) + [None] * (total - n)


def test_known_orders() -> None:
    assert [s.as_tuple() for s in saddle_order(1)] == [(None, 1, None, None)]
    assert [s.as_tuple() for s in saddle_order(4)] == [(4, 1, 2, 3)]
    assert [s.as_tuple() for s in saddle_order(5)] == [(None, 1, 2, None), (None, 3, 4, 5)]
    assert [s.as_tuple() for s in saddle_order(8)] == [(8, 1, 2, 7), (6, 3, 4, 5)]
    # Blank pages all fall at the back of the booklet.
    assert [s.as_tuple() for s in saddle_order(13)][0] == (None, 1, 2, None)


def test_facing_pages_add_up() -> None:
    """On every side of every sheet the two page numbers sum to total + 1 (the classic check)."""
    for n in (8, 12, 16, 20):
        for s in saddle_order(n):
            assert s.front_left + s.front_right == n + 1
            assert s.back_left + s.back_right == n + 1


def test_negative_pages_refused() -> None:
    with pytest.raises(ValueError):
        saddle_order(-1)


def test_board_that_fits_prints_whole() -> None:
    plan = tile_plan(400, 272, 297, 420, margin=6, overlap=10, reserve=10)
    assert plan.whole and plan.landscape
    assert plan.tiles[0].w == 400 and plan.tiles[0].h == 272


@pytest.mark.parametrize(
    "board,paper",
    [
        ((630, 348), (210, 297)),
        ((530, 284), (215.9, 279.4)),
        ((1000, 300), (210, 297)),
        ((400, 272), (210, 297)),
    ],
)
def test_tiles_cover_the_board_with_equal_overlaps(
    board: tuple[float, float], paper: tuple[float, float]
) -> None:
    overlap = 10.0
    plan = tile_plan(*board, *paper, margin=6, overlap=overlap, reserve=10)
    assert len(plan.tiles) == plan.cols * plan.rows > 1
    for t in plan.tiles:
        assert t.w <= plan.area_w + 1e-6 and t.h <= plan.area_h + 1e-6
        assert t.x >= -1e-9 and t.y >= -1e-9
        assert t.x + t.w <= board[0] + 1e-6 and t.y + t.h <= board[1] + 1e-6
    by_pos = {(t.col, t.row): t for t in plan.tiles}
    for (c, r), t in by_pos.items():
        if (c + 1, r) in by_pos:  # the right neighbour starts `overlap` before this tile ends
            assert by_pos[(c + 1, r)].x == pytest.approx(t.x + t.w - overlap)
        if (
            c,
            r + 1,
        ) in by_pos:  # the row below (rows count from the top) ends `overlap` above this one's start
            assert by_pos[(c, r + 1)].y + by_pos[(c, r + 1)].h == pytest.approx(t.y + overlap)
    assert min(t.x for t in plan.tiles) == 0 and max(t.x + t.w for t in plan.tiles) == pytest.approx(board[0])
    assert min(t.y for t in plan.tiles) == 0 and max(t.y + t.h for t in plan.tiles) == pytest.approx(board[1])
    labels = [t.label for t in plan.tiles]
    assert labels[0] == "A1" and len(set(labels)) == len(labels)


def test_fewest_sheets_orientation() -> None:
    # 400 x 272 on A4: three portrait tiles beat four landscape ones.
    plan = tile_plan(400, 272, 210, 297, margin=6, overlap=10, reserve=10)
    assert (plan.cols, plan.rows, plan.landscape) == (3, 1, False)
