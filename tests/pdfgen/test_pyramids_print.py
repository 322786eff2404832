"""Silver & Gold – Pyramids printouts (pdfgen/pyramids.py; issue 13): our print-and-play cards
as card sheets (duplex 9 to a page, gutter fold, print shop with bleed and crop marks), the
scoring card with our skull penalties, the score pad of spec §11 with its race rows and a
table's QR code, the reference card; in en, cs and hu on A4 and Letter.

The cards are checked as a player would use them: rendered, every wall of every card on the
first sheet is dark and every plain chamber white at the place the layout data puts them, and a
chamber is big enough to cross with a pen.
"""

from __future__ import annotations

import math

import pytest

from companion.rules.pyramids import ours
from companion.rules.pyramids import printed as pt
from pdfgen import pyramids as pp
from pdfgen.aids import play_aids
from pdfgen.geometry import MM, card_grid
from pdfgen.i18n import translator
from pdfgen.pads import score_pad
from pdfgen.registry import game_print
from tests.pdfgen.pdfcheck import (SIZES, box, needs_decoder, needs_pdftoppm, page_sizes,
                                   qr_texts, qr_texts_per_page, reader, render, text)

URL = "http://127.0.0.1:8000/score/pyramids"
TABLE_URL = "http://127.0.0.1:8000/tables/AbC123"
CARDS = len(ours.CARDS) + len(ours.EXPEDITION_DECK)
PRINTOUTS = {p.key: p for p in game_print("pyramids").extras}


def make(key: str, page: str = "a4", lang: str = "en") -> bytes:
    return PRINTOUTS[key].make(page=page, lang=lang, qr_url=URL)


# --------------------------------------------------------------------------------------------
# Sizes and pages
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("key, page, per_sheet, sides", [
    ("cards", "a4", 9, 2), ("cards", "letter", 9, 2),
    ("cards-fold", "a4", 4, 1), ("cards-fold", "letter", 4, 1),
    ("cards-print-shop", "a4", 8, 2), ("cards-print-shop", "letter", 6, 2),
])
def test_card_sheets_hold_every_card_with_its_back(key, page, per_sheet, sides):
    pdf = make(key, page)
    sheets = math.ceil(CARDS / per_sheet)
    assert page_sizes(pdf) == [SIZES[page]] * (sheets * sides)
    words = text(pdf)
    for card in ours.CARDS:
        assert f"card {card.number} of 48" in words
    for shape in set(ours.EXPEDITION_DECK):
        assert words.count(str(pt.SHAPE_LABELS[shape])) == ours.EXPEDITION_DECK.count(shape)
    # every pyramid card has the same back, and so has every expedition card
    assert words.count("Pyramid card") == len(ours.CARDS)
    assert words.count("Expedition card") == 2 * len(ours.EXPEDITION_DECK)   # front and back


def test_nine_poker_cards_to_a_page_without_bleed_and_eight_with_3_mm():
    """Poker cards with 3 mm of bleed each need 6 mm between them: 3 across take 207 mm, more
    than an A4 page leaves inside its printable margin, so the print shop sheet holds 8."""
    assert card_grid("a4", "poker", sides="duplex").per_page == 9
    assert card_grid("letter", "poker", sides="duplex").per_page == 9
    assert card_grid("a4", "poker", bleed=3, sides="duplex").per_page == 8
    assert 3 * 63 + 2 * 6 + 2 * 3 > 210 - 2 * 6.35


@pytest.mark.parametrize("page", ["a4", "letter"])
def test_print_shop_sheets_bleed_3_mm_with_crop_marks(page):
    pdf = make("cards-print-shop", page)
    grid = card_grid(page, "poker", bleed=3, sides="duplex")
    first = reader(pdf).pages[0]
    trim, bleed = box(first, "trimbox"), box(first, "bleedbox")
    assert trim == tuple(round(v, 2) for v in grid.trim_box.pdf_box)
    assert bleed[0] == pytest.approx(trim[0] - 3 * MM, abs=0.02)
    assert grid.crop_marks and len(grid.marks) > 0


def test_the_same_input_gives_the_same_bytes():
    for key in PRINTOUTS:
        assert make(key) == make(key)


# --------------------------------------------------------------------------------------------
# Playable with a pen
# --------------------------------------------------------------------------------------------


def test_chambers_are_big_enough_to_cross_with_a_pen():
    assert pp.CELL >= 10 * MM
    assert pp.BOX >= 7 * MM
    grid_mm = pt.GRID * pp.CELL / MM
    assert grid_mm <= 63 - 2 * 3                      # inside the card, off the cutting edge


@needs_pdftoppm
def test_walls_print_dark_and_chambers_white_where_the_layout_says():
    """The first sheet rendered in grey: at the centre of every cell of the 9 cards on it, a
    wall is near black and a plain chamber white, as the card data has them."""
    dpi = 100
    pdf = make("cards")
    image = render(pdf, 1, dpi).convert("L")
    grid = card_grid("a4", "poker", sides="duplex")
    height_pt = SIZES["a4"][1]
    walls = floors = 0
    for slot, card in zip(grid.fronts, ours.CARDS):
        card_h = grid.card.height * MM
        left = slot.trim.x * MM + (grid.card.width * MM - pt.GRID * pp.CELL) / 2
        bottom = slot.trim.y * MM + card_h - pp.FRAME - 12.5 * MM - pt.GRID * pp.CELL
        for r, row in enumerate(card.grid):
            for c, code in enumerate(row):
                x = left + (c + 0.5) * pp.CELL
                y = bottom + (pt.GRID - r - 0.5) * pp.CELL
                shade = image.getpixel((round(x * dpi / 72), round((height_pt - y) * dpi / 72)))
                if code == "#":
                    assert shade < 90, (card.number, r, c, shade)
                    walls += 1
                elif code == ".":
                    assert shade > 235, (card.number, r, c, shade)
                    floors += 1
    assert walls > 30 and floors > 60


def test_the_scoring_card_prints_our_skull_penalties_and_every_box():
    pdf = make("scoring")
    words = text(pdf)
    assert words.count("Scoring card") == 4
    for penalty in ours.SKULL_PENALTIES:
        assert words.count(f"−{penalty}") >= 4
    for value in pt.RACE_BOXES:
        assert words.count(str(value)) >= 4 * len(pt.COLOURS)
    assert ours.SKULL_PENALTIES == (1, 2, 3, 4, 6, 8, 10, 12, 15, 20)
    assert sum(sum(rows) for rows in ours.SCORING_CARD_ROWS.values()) == 10 + 10 + 10 + 4 + 9


# --------------------------------------------------------------------------------------------
# The score pad with the table's QR code, the reference card, languages
# --------------------------------------------------------------------------------------------


def test_the_pad_has_the_rows_of_spec_11_and_the_race_boxes():
    pdf = score_pad("pyramids", ["Ana", "Bo", "Cy"], qr_url=TABLE_URL)
    words = text(pdf)
    for label in ("Completed pyramids", "Torches", "Pyramid points", "Red gems", "Green gems",
                  "Gem pairs", "Single gems", "Worst skull", "Total",
                  "Lowest completed card number", "Rank"):
        assert label in words, label
    for colour in pt.COLOURS:
        for value in pt.RACE_BOXES:
            assert f"Race box {value}, {colour}" in words
    assert "for the 6th completed card of the colour" in words


@needs_pdftoppm
@needs_decoder
def test_the_table_pad_carries_the_tables_qr_code():
    pdf = score_pad("pyramids", ["Ana", "Bo"], qr_url=TABLE_URL, sheets=2)
    assert qr_texts_per_page(pdf, dpi=150) == [[TABLE_URL], [TABLE_URL]]


@needs_pdftoppm
@needs_decoder
@pytest.mark.parametrize("key", sorted(PRINTOUTS))
def test_our_printouts_carry_the_qr_code_on_letter_too(key):
    """On Letter, in Hungarian: the first sheet (fronts and backs) and the last page (every
    page on A4 is decoded by tests/pdfgen/test_registry.py)."""
    pdf = make(key, "letter", "hu")
    pages = len(reader(pdf).pages)
    for page in sorted({1, min(2, pages), pages}):
        codes = qr_texts(pdf, page, 300)
        assert codes and set(codes) == {URL}, (page, codes)


@pytest.mark.parametrize("lang, names, words", [
    ("cs", ["Řehoř Ůlehla", "Věra"], ["Řehoř Ůlehla", "Věra", "Hráč", "Celkem"]),
    ("hu", ["Ödön Őri", "Űrsula"], ["Ödön Őri", "Űrsula", "Játékos", "Összesen"]),
])
def test_czech_and_hungarian_letters_survive(lang, names, words):
    pdf = score_pad("pyramids", names, qr_url=TABLE_URL, lang=lang, page="letter")
    found = text(pdf)
    for word in words:
        assert word in found, word
    t = translator(lang)
    assert t("Total") in found
    cards = text(make("scoring", "letter", lang))
    assert t("Total") in cards and t("Name") in cards


@pytest.mark.parametrize("page", ["a4", "letter"])
@pytest.mark.parametrize("lang", ["en", "cs", "hu"])
def test_every_printout_in_every_language_and_paper(page, lang):
    for key in PRINTOUTS:
        pdf = make(key, page, lang)
        assert set(page_sizes(pdf)) == {SIZES[page]}
    aids = play_aids("pyramids", page=page, lang=lang, copies=4, qr_url=URL)
    assert len(page_sizes(aids)) == 1                    # 8 faces: one sheet
    pad = score_pad("pyramids", None, page=page, lang=lang, players=4, qr_url=URL)
    assert len(page_sizes(pad)) == 1


def test_the_reference_card():
    words = " ".join(text(play_aids("pyramids", copies=1, qr_url=URL)).split())
    assert "Pyramids · a turn" in words and "Pyramids · points" in words
    assert "−1 −2 −3 −4 −6 −8 −10 −12 −15 −20" in words
    assert "mark one more chamber" in words and "erase the 2 worst skulls" in words
