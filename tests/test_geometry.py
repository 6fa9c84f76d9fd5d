"""Sizes and imposition: grids chosen to fit the most cards, duplex mirroring, cut lines."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.geometry.grid import MARGIN, MARK_GAP, MARK_MIN, MIN_OUTER_BLEED, choose_grid
from pnp.geometry.sizes import CARD_SIZES, Size, card_size, paper_size


def test_named_and_custom_sizes() -> None:
    assert (card_size("poker").w, card_size("poker").h) == (63, 88)
    assert (card_size("tarot").w, card_size("tarot").h) == (70, 120)
    assert (card_size("mini").w, card_size("mini").h) == (44, 63)
    assert (card_size("41x63").w, card_size("41x63").h) == (41, 63)
    assert paper_size("letter").w == pytest.approx(215.9)
    with pytest.raises(ValueError, match="poker"):
        card_size("jumbo")


def test_poker_fits_nine_per_a4_and_eight_per_letter() -> None:
    """Everything stays 5 mm inside the paper with room for 3 mm crop marks: A4 keeps nine poker cards
    (the bleed round the block shrinks to 2 mm), Letter's 7.7 mm above and below a 3 x 3 block is too
    little, so it turns landscape for 4 x 2."""
    a4 = choose_grid(paper_size("a4"), card_size("poker"), 3.0)
    assert (a4.cols, a4.rows, a4.page.h > a4.page.w) == (3, 3, True)
    assert a4.outer_bleed == pytest.approx(2.0) and a4.margin_x == pytest.approx(MARGIN + MARK_GAP + MARK_MIN)
    letter = choose_grid(paper_size("letter"), card_size("poker"), 3.0)
    assert (letter.cols, letter.rows, letter.page.w > letter.page.h) == (
        4,
        2,
        True,
    ) and letter.outer_bleed == 3.0
    for grid in (a4, letter):
        assert min(grid.margin_x, grid.margin_y) >= MARGIN + MARK_GAP + MARK_MIN - 1e-9


def test_own_bleed_kept_when_it_costs_no_cards() -> None:
    grid = choose_grid(paper_size("a4"), card_size("tarot"), 3.0)
    assert grid.per_page == 4 and grid.gutter == 6.0


def test_landscape_chosen_when_it_fits_more() -> None:
    grid = choose_grid(paper_size("a4"), Size(100, 60), 3.0)
    assert grid.per_page == 6 and grid.page.w > grid.page.h  # portrait would hold 4


@given(
    w=st.floats(30, 140),
    h=st.floats(30, 140),
    bleed=st.sampled_from([0.0, 2.0, 3.0, 3.175]),
    paper=st.sampled_from(["a4", "letter", "a3"]),
)
@settings(max_examples=150, deadline=None)
def test_grid_always_inside_the_paper(w: float, h: float, bleed: float, paper: str) -> None:
    grid = choose_grid(paper_size(paper), Size(w, h), bleed)
    outer = grid.outer_bleed
    assert min(bleed, MIN_OUTER_BLEED) <= outer <= bleed
    for i in range(grid.per_page):
        s = grid.slot(i)
        assert s.x - outer >= MARGIN - 1e-6 and s.y - outer >= MARGIN - 1e-6
        assert s.x + w + outer <= grid.page.w - MARGIN + 1e-6
        assert s.y + h + outer <= grid.page.h - MARGIN + 1e-6
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
                assert (
                    a.x + w <= b.x + 1e-6
                    or b.x + w <= a.x + 1e-6
                    or a.y + h <= b.y + 1e-6
                    or b.y + h <= a.y + 1e-6
                )


def test_every_named_card_fits_a4_and_letter() -> None:
    for name in CARD_SIZES:
        for paper in ("a4", "letter"):
            assert choose_grid(paper_size(paper), card_size(name), 3.0).per_page >= 2
