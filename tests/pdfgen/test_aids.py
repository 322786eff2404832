"""Play aids and card sheets: the Ra tile tally, reference cards for Ra and Imhotep, the
market-card reference; bleed boxes, duplex and gutter layouts, and the card sheet geometry."""

from __future__ import annotations

import pytest

from companion.rules.ra import printed as ra
from pdfgen import imhotep_data as im
from pdfgen.aids import play_aids
from pdfgen.errors import LayoutError, PrintError
from pdfgen.geometry import card_grid
from tests.pdfgen.pdfcheck import SIZES, box, page_sizes, reader, text

URL = "http://127.0.0.1:8000/score/ra"


@pytest.mark.parametrize("page", ["a4", "letter"])
def test_ra_aids_tally_sheet_then_reference_cards(page):
    pdf = play_aids("ra", page=page, copies=5, qr_url=URL)
    sizes = page_sizes(pdf)
    assert sizes == [SIZES[page]] * len(sizes) and len(sizes) == 3    # tally + 10 cards (9-up)
    tally = text(pdf, 0)
    for label in ("Ra", "God", "Gold", "Pharaoh", "Nile", "Flood", "Art", "Writing", "Sphinx",
                  "Step pyramid", "Funeral", "Drought", "Unrest", "Earthquake"):
        assert label in tally, label
    for count in sorted(set(ra.BOX.values())):
        assert f"×{count}" in tally
    cards = text(pdf, 1) + text(pdf, 2)
    assert cards.count("Ra · after every epoch") == 5
    assert cards.count("Ra · after the third epoch") == 5
    assert "most +5 · fewest −2" in cards and "+15" in cards


def test_tally_has_a_box_for_every_tile():
    pdf = play_aids("ra", copies=1, qr_url=URL)
    page = reader(pdf).pages[0]
    content = page.get_contents().get_data().decode("latin-1")
    boxes = sum(1 for line in content.splitlines() if line.endswith(" re S")
                or line.endswith(" re"))
    assert boxes >= sum(ra.BOX.values()) == 180


def test_imhotep_reference_and_market_cards_list_every_card():
    pdf = play_aids("imhotep", copies=1, qr_url=URL)
    words = text(pdf)
    for card in im.MARKET_CARDS:
        assert card.name in words, card.name
        assert f"×{card.count}" in words
    for label in ("Imhotep · during the game", "Imhotep · final scoring",
                  "Imhotep · market cards", "Tie: more stones on the sled wins."):
        assert label in words
    assert sum(c.count for c in im.MARKET_CARDS) == 34


@pytest.mark.parametrize("page", ["a4", "letter"])
def test_bleed_sets_trim_and_bleed_boxes(page):
    pdf = play_aids("ra", page=page, copies=4, bleed=3, sides="duplex", aid_sheets=False,
                    qr_url=URL)
    grid = card_grid(page, "poker", bleed=3, sides="duplex")
    pages = reader(pdf).pages
    assert len(pages) == 2                                            # fronts, mirrored backs
    for p in pages:
        trim, bleed, media = box(p, "trimbox"), box(p, "bleedbox"), box(p, "mediabox")
        assert trim == tuple(round(v, 2) for v in grid.trim_box.pdf_box)
        assert bleed == tuple(round(v, 2) for v in grid.trim_box.expanded(grid.bleed).pdf_box)
        assert media[2:] == SIZES[page]
        assert bleed[0] == pytest.approx(trim[0] - 3 * 72 / 25.4, abs=0.02)
        assert media[0] < bleed[0] < trim[0] and trim[2] < bleed[2] < media[2]


def test_without_bleed_the_boxes_are_the_page():
    pdf = play_aids("imhotep", copies=1, qr_url=URL)
    for p in reader(pdf).pages:
        assert box(p, "trimbox") == box(p, "mediabox") == box(p, "bleedbox")


def test_duplex_puts_backs_on_the_reverse_and_gutter_beside():
    single = reader(play_aids("imhotep", copies=2, sides="single", qr_url=URL)).pages
    duplex = reader(play_aids("imhotep", copies=2, sides="duplex", qr_url=URL)).pages
    gutter = play_aids("imhotep", copies=2, sides="gutter", qr_url=URL)
    assert len(single) == 1 and len(duplex) == 2                        # 8 faces; 4 cards
    assert "final scoring" in duplex[1].extract_text()
    assert "final scoring" not in duplex[0].extract_text()
    words = text(gutter, 0)
    assert "during the game" in words and "final scoring" in words and "fold here" in words


def test_aids_are_deterministic():
    assert (play_aids("ra", bleed=3, sides="gutter", qr_url=URL)
            == play_aids("ra", bleed=3, sides="gutter", qr_url=URL))


def test_mini_reference_cards_fit_or_refuse_clearly():
    try:
        pdf = play_aids("ra", card="mini", copies=1, aid_sheets=False, qr_url=URL)
    except LayoutError as refused:
        assert refused.code == "print.card_overflow"
    else:
        assert "Ra · after every epoch" in text(pdf)


@pytest.mark.parametrize("kwargs, code", [
    (dict(game="go"), "print.unknown_game"),
    (dict(game="ra", copies=0), "print.bad_copies"),
    (dict(game="ra", card="tarot"), "print.unknown_card"),
    (dict(game="ra", card="400x300"), "print.card_too_big"),
    (dict(game="ra", bleed=12), "print.bad_bleed"),
    (dict(game="ra", sides="both"), "print.bad_sides"),
])
def test_bad_aids_input(kwargs, code):
    with pytest.raises(PrintError) as caught:
        play_aids(kwargs.pop("game"), qr_url=URL, **kwargs)
    assert caught.value.code == code
