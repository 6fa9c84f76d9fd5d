"""Sizes and imposition: grids chosen to fit the most cards, duplex mirroring, cut lines."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.geometry.sizes import (
    CARD_SIZES,
    MIN_MARGIN,
    Size,
    card_size,
    choose_grid,
    paper_size,
)


def test_named_and_custom_sizes() -> None:
    assert (card_size("poker").w, card_size("poker").h) == (63, 88)
    assert (card_size("tarot").w, card_size("tarot").h) == (70, 120)
    assert (card_size("mini").w, card_size("mini").h) == (44, 63)
    assert (card_size("41x63").w, card_size("41x63").h) == (41, 63)
    assert paper_size("letter").w == pytest.approx(215.9)
    with pytest.raises(ValueError, match="poker"):
        card_size("jumbo")


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_poker_fits_nine_per_sheet(paper: str) -> None:
    grid = choose_grid(paper_size(paper), card_size("poker"), 3.0)
    assert (grid.cols, grid.rows) == (3, 3)
    assert grid.page.h > grid.page.w  # portrait
    assert grid.margin_x >= MIN_MARGIN - 1e-9 and grid.margin_y >= MIN_MARGIN - 1e-9


def test_own_bleed_kept_when_it_costs_no_cards() -> None:
    grid = choose_grid(paper_size("a4"), card_size("tarot"), 3.0)
    assert grid.per_page == 4 and grid.gutter == 6.0


def test_landscape_chosen_when_it_fits_more() -> None:
    grid = choose_grid(paper_size("a4"), Size(100, 60), 3.0)
    assert grid.per_page == 6 and grid.page.w > grid.page.h  # portrait would hold 4


@given(w=st.floats(30, 140), h=st.floats(30, 140), bleed=st.sampled_from([0.0, 2.0, 3.0, 3.175]),
       paper=st.sampled_from(["a4", "letter", "a3"]))
@settings(max_examples=150, deadline=None)
def test_grid_always_inside_the_paper(w: float, h: float, bleed: float, paper: str) -> None:
    grid = choose_grid(paper_size(paper), Size(w, h), bleed)
    for i in range(grid.per_page):
        s = grid.slot(i)
        assert s.x - bleed >= MIN_MARGIN - 1e-6 and s.y - bleed >= MIN_MARGIN - 1e-6
        assert s.x + w + bleed <= grid.page.w - MIN_MARGIN + 1e-6
        assert s.y + h + bleed <= grid.page.h - MIN_MARGIN + 1e-6
        for flip in ("long", "short"):
            b = grid.back_slot(i, flip)
            # the back sits exactly behind its face once the sheet is turned over
            if flip == "long" and grid.page.h >= grid.page.w or flip == "short" and grid.page.w > grid.page.h:
                assert b.x == pytest.approx(grid.page.w - s.x - w) and b.y == pytest.approx(s.y)
            else:
                assert b.y == pytest.approx(grid.page.h - s.y - h) and b.x == pytest.approx(s.x)
    # no two trims overlap
    slots = [grid.slot(i) for i in range(grid.per_page)]
    for a in slots:
        for b in slots:
            if a != b:
                assert a.x + w <= b.x + 1e-6 or b.x + w <= a.x + 1e-6 or a.y + h <= b.y + 1e-6 or b.y + h <= a.y + 1e-6


def test_every_named_card_fits_a4_and_letter() -> None:
    for name in CARD_SIZES:
        for paper in ("a4", "letter"):
            assert choose_grid(paper_size(paper), card_size(name), 3.0).per_page >= 2
