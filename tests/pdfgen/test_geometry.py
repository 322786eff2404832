"""pdfgen.geometry: sizes, validation, n-up grids, bleed, crop marks, mirrored backs, folds."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdfgen.errors import LayoutError, PrintError
from pdfgen.geometry import (MM, SAFE_MARGIN, Box, card_grid, card_size, page_size,
                             sheet_geometry)


def test_paper_and_card_sizes_in_millimetres_and_points():
    assert [round(v, 2) for v in page_size("a4").points] == [595.28, 841.89]
    assert [round(v, 2) for v in page_size("Letter").points] == [612.0, 792.0]
    assert (card_size("poker").width, card_size("poker").height) == (63, 88)
    assert (card_size("mini").width, card_size("mini").height) == (44, 63)


@pytest.mark.parametrize("call, code", [
    (lambda: page_size("a5"), "print.unknown_page"),
    (lambda: card_size("tarot"), "print.unknown_card"),
    (lambda: card_grid("a4", "poker", margin=60), "print.bad_margin"),
    (lambda: card_grid("a4", "poker", margin=-1), "print.bad_margin"),
    (lambda: card_grid("a4", "poker", bleed=9), "print.bad_bleed"),
    (lambda: card_grid("a4", "poker", bleed=3, gap=2), "print.bad_gap"),
    (lambda: card_grid("a4", "poker", sides="triple"), "print.bad_sides"),
    (lambda: card_grid("a4", "poker", flip="diagonal"), "print.bad_flip"),
    (lambda: card_grid("a4", "poker", sides="gutter", bleed=3, gutter=2), "print.bad_gutter"),
    (lambda: card_size("0x88"), "print.unknown_card"),
    (lambda: card_size("sixty x eighty"), "print.unknown_card"),
    (lambda: card_grid("letter", "300x100"), "print.card_too_big"),
    (lambda: card_grid("a4", "poker", sides="gutter", margin=50), "print.card_too_big"),
    (lambda: sheet_geometry("legal"), "print.unknown_page"),
])
def test_bad_geometry_is_refused_with_a_code_and_a_sentence(call, code):
    with pytest.raises(LayoutError) as caught:
        call()
    assert caught.value.code == code
    assert isinstance(caught.value, PrintError) and isinstance(caught.value, ValueError)
    assert len(str(caught.value)) > 20 and "%(" not in str(caught.value)


def test_a_card_bigger_than_the_page_says_so():
    assert card_size("70x120").width == 70 and card_size("70 × 120 mm").height == 120
    assert card_grid("a4", "70x120").per_page == 4
    with pytest.raises(LayoutError, match="does not fit") as caught:
        card_grid("a4", "200x290")
    assert caught.value.params["width"] == "200"


@pytest.mark.parametrize("page", ["a4", "letter"])
def test_nine_poker_cards_per_page_upright_and_centred(page):
    grid = card_grid(page, "poker")
    assert (grid.columns, grid.rows, grid.rotated, grid.per_page) == (3, 3, False, 9)
    paper = page_size(page)
    block = grid.trim_box
    assert block.width == pytest.approx(3 * 63) and block.height == pytest.approx(3 * 88)
    assert block.x == pytest.approx(paper.width - block.right)        # centred
    assert block.y == pytest.approx(paper.height - block.top)
    assert block.x >= SAFE_MARGIN and block.y >= SAFE_MARGIN
    assert grid.marks == () and grid.backs == ()
    first = grid.fronts[0]
    assert first.trim.top == pytest.approx(block.top) and first.trim.x == pytest.approx(block.x)


def test_mini_cards_turn_when_more_fit():
    grid = card_grid("a4", "mini")
    assert grid.rotated and grid.per_page == 18
    assert card_grid("a4", "mini", rotate=False).per_page == 16


@pytest.mark.parametrize("page", ["a4", "letter"])
def test_bleed_keeps_cards_apart_and_marks_outside(page):
    grid = card_grid(page, "poker", bleed=3)
    assert grid.gap == 6 and grid.crop_marks and grid.marks
    for slot in grid.fronts:
        assert slot.bleed == slot.trim.expanded(3)
        for other in grid.fronts:
            assert other is slot or not slot.bleed.overlaps(other.trim)
    printable = Box(SAFE_MARGIN, SAFE_MARGIN, grid.page.width - 2 * SAFE_MARGIN,
                    grid.page.height - 2 * SAFE_MARGIN)
    for x0, y0, x1, y1 in grid.marks:
        mark = Box(min(x0, x1), min(y0, y1), abs(x1 - x0), abs(y1 - y0))
        assert printable.contains(mark)
        assert not grid.trim_box.expanded(grid.bleed).overlaps(mark)   # outside the bleed
        assert x0 == x1 or y0 == y1                       # straight lines
    # one mark pair per cut line: two per column and per row (cards are not butted)
    assert len(grid.marks) == 2 * (2 * grid.columns) + 2 * (2 * grid.rows)
    assert grid.bleed == 3


def test_duplex_backs_mirror_the_fronts_for_either_flip_edge():
    grid = card_grid("a4", "poker", sides="duplex")
    paper = grid.page
    for front, back in zip(grid.fronts, grid.backs):
        assert back.trim.x == pytest.approx(paper.width - front.trim.right)
        assert back.trim.y == pytest.approx(front.trim.y)
        assert back.rotation == 0
    assert grid.backs[0].trim.x == pytest.approx(grid.fronts[2].trim.x)   # first row reversed
    short = card_grid("a4", "poker", sides="duplex", flip="short")
    for front, back in zip(short.fronts, short.backs):
        assert back.trim.y == pytest.approx(paper.height - front.trim.top)
        assert back.rotation == 180


def test_backs_of_turned_cards_are_turned_the_other_way():
    grid = card_grid("a4", "poker", bleed=3, sides="duplex")
    assert grid.rotated
    assert {s.rotation for s in grid.fronts} == {90} and {s.rotation for s in grid.backs} == {270}
    short = card_grid("a4", "poker", bleed=3, sides="duplex", flip="short")
    assert {s.rotation for s in short.backs} == {90}


def test_gutter_fold_puts_each_back_opposite_its_front():
    grid = card_grid("a4", "poker", sides="gutter", bleed=3)
    fold_x = grid.fold[0]
    assert fold_x == pytest.approx(grid.page.width / 2)
    for front, back in zip(grid.fronts, grid.backs):
        assert front.trim.right <= fold_x and back.trim.x >= fold_x
        assert fold_x - front.trim.right == pytest.approx(back.trim.x - fold_x)
        assert front.trim.y == back.trim.y
        assert front.bleed.right <= fold_x + 1e-9
    assert grid.trim_box.x < fold_x < grid.trim_box.right


def test_sheet_geometry_frame():
    frame = sheet_geometry("letter").content
    assert frame.x == SAFE_MARGIN and frame.right == pytest.approx(215.9 - SAFE_MARGIN)
    assert frame.points[2] == pytest.approx((215.9 - 2 * SAFE_MARGIN) * MM)


@settings(max_examples=150, deadline=None)
@given(page=st.sampled_from(["a4", "letter"]), card=st.sampled_from(["poker", "mini"]),
       bleed=st.sampled_from([0, 1, 2, 3, 5]), extra_gap=st.sampled_from([0, 0.5, 4]),
       margin=st.floats(0, 45), sides=st.sampled_from(["single", "duplex", "gutter"]),
       flip=st.sampled_from(["long", "short"]), marks=st.sampled_from([None, True, False]))
def test_every_layout_is_valid_or_refused(page, card, bleed, extra_gap, margin, sides, flip,
                                          marks):
    """Whatever the options, a grid keeps every card and mark on the printable page and
    apart from the others (card_grid asserts it), or refuses with a LayoutError."""
    try:
        grid = card_grid(page, card, bleed=bleed, gap=2 * bleed + extra_gap, margin=margin,
                         sides=sides, flip=flip, crop_marks=marks)
    except LayoutError as refused:
        assert refused.code in ("print.card_too_big", "print.bad_margin")
        return
    size = card_size(card)
    for slot in grid.fronts + grid.backs:
        w, h = (size.height, size.width) if slot.rotation in (90, 270) else (size.width,
                                                                            size.height)
        assert (slot.trim.width, slot.trim.height) == pytest.approx((w, h))
    assert len(grid.backs) == (0 if sides == "single" else len(grid.fronts))
