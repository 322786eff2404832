"""Score pads: page sizes, names and Czech/Hungarian letters in the text, many sheets, the QR
code, same bytes for the same input, and bad input refused with a reason."""

from __future__ import annotations

import pytest

from companion.rules.ra import printed as ra
from pdfgen.errors import PrintError
from pdfgen.pads import player_counts, score_pad
from pdfgen.registry import printing_games
from pdfgen.text import fit
from tests.pdfgen.pdfcheck import (SIZES, needs_decoder, needs_pdftoppm, page_sizes, qr_texts,
                                   reader, text)

NAMES = ["Ana", "Řehoř", "Ödön", "Věra Lůďa", "Gőző Fűz"]
URL = "http://127.0.0.1:8000/score/ra?_players=5"


@pytest.fixture(scope="module")
def ra_pad() -> bytes:
    return score_pad("ra", NAMES, page="a4", lang="en", qr_url=URL, sheets=3)


@pytest.mark.parametrize("game, count", [("ra", 5), ("imhotep", 4)])
@pytest.mark.parametrize("page", ["a4", "letter"])
def test_pad_pages_are_exactly_the_paper_size(game, count, page):
    pdf = score_pad(game, NAMES[:count], page=page, qr_url=URL, sheets=2)
    assert page_sizes(pdf) == [SIZES[page]] * 2


def test_names_and_czech_hungarian_letters_are_in_the_text(ra_pad):
    words = text(ra_pad, 0)
    for name in NAMES:
        assert name in words
    for letter in "řůěőű":
        assert letter in words
    assert text(ra_pad, 2) == words                      # every sheet is the same


def test_ra_pad_has_every_category_in_every_epoch(ra_pad):
    words = text(ra_pad, 0)
    for label in ("Gods", "Pharaohs", "Nile and floods", "Civilizations", "Gold"):
        assert words.count(label) >= ra.EPOCHS, label
    for label in ("Monuments: different kinds", "Monuments: three or more of a kind",
                  "Sun total", "Starting fame", "Highest sun (tie-break)"):
        assert label in words
    for epoch in (1, 2, 3):
        assert f"Fame after epoch {epoch}" in words
    assert "most +5 · fewest −2" in words and "highest +5 · lowest −5" in words


def test_imhotep_pad_rows_come_from_the_spec():
    words = text(score_pad("imhotep", ["Gőző", "Űrsula", "Ana"], qr_url=URL,
                           colours=["black", "white", "brown"]))
    for label in ("Score track after round 6", "Burial chamber", "Obelisks",
                  "Pyramid decoration", "Temple decoration", "Burial chamber decoration",
                  "Obelisk decoration", "Statues", "Unused blue cards",
                  "Stones on the sled (tie-break)", "Total", "Rank"):
        assert label in words, label
    assert "1/3/6/10/15 +2" in words and "15/10/5/1" in words


def test_pads_are_deterministic(ra_pad):
    again = score_pad("ra", NAMES, page="a4", lang="en", qr_url=URL, sheets=3)
    assert again == ra_pad
    assert b"D:2000" in ra_pad                   # ReportLab's invariant date, not the clock
    other = score_pad("ra", NAMES[:4], page="a4", lang="en", qr_url=URL, sheets=3)
    assert other != ra_pad


def test_a_pad_of_many_sheets_stores_the_sheet_once():
    one = score_pad("ra", NAMES, qr_url=URL, sheets=1)
    hundred = score_pad("ra", NAMES, qr_url=URL, sheets=100)
    assert len(reader(hundred).pages) == 100
    assert len(hundred) < len(one) * 3


def test_fonts_are_embedded_subsets():
    pdf = score_pad("ra", NAMES, qr_url=URL)
    fonts = reader(pdf).pages[0]["/Resources"]
    found = set()

    def walk(resources):
        for font in resources.get("/Font", {}).values():
            font = font.get_object()
            descriptor = font.get("/FontDescriptor")
            if descriptor is None and "/DescendantFonts" in font:
                descriptor = font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
            found.add((str(font["/BaseFont"]), "/FontFile2" in descriptor.get_object()))
        for xobject in resources.get("/XObject", {}).values():
            xobject = xobject.get_object()
            if "/Resources" in xobject:
                walk(xobject["/Resources"])

    walk(fonts)
    assert found and all(embedded for _name, embedded in found)
    assert any("DejaVuSans" in name or "ScribeSans" in name for name, _ in found)
    assert not any("Helvetica" in name for name, _ in found)        # no unembedded base font


def test_blank_pad_prints_empty_columns():
    pdf = score_pad("imhotep", None, qr_url="http://127.0.0.1:8000/score/imhotep", page="letter")
    words = text(pdf)
    assert words.count("name") == 4 and "Scan to enter the scores" in words
    assert score_pad("ra", None, players=3, qr_url=URL) != score_pad("ra", None, qr_url=URL)


def test_translated_pad_uses_the_table_language():
    czech = text(score_pad("ra", NAMES[:3], lang="cs", qr_url=URL))
    hungarian = text(score_pad("ra", NAMES[:3], lang="hu", qr_url=URL))
    assert "Faraoni" in czech and "Bohové" in czech          # from the existing catalog
    assert "Fáraók" in hungarian


@needs_pdftoppm
@needs_decoder
@pytest.mark.parametrize("page", ["a4", "letter"])
def test_the_qr_code_on_the_rendered_page_opens_the_url(page):
    pdf = score_pad("imhotep", NAMES[:2], page=page, qr_url="http://127.0.0.1:8000/tables/Abc_1")
    assert qr_texts(pdf, 1) == ["http://127.0.0.1:8000/tables/Abc_1"]


@needs_pdftoppm
@needs_decoder
def test_the_qr_code_on_a_later_sheet_decodes_too(ra_pad):
    assert qr_texts(ra_pad, 3) == [URL]


def test_long_names_stay_inside_their_box():
    long = "Bartholomew-Maximilian von Hohenzollern-Sigmaringen der Dritte"
    pdf = score_pad("ra", [long] + NAMES[1:], qr_url=URL)
    words = text(pdf)
    assert "Bartholomew-" in words and "…" in words
    fitted = fit(long, 90, 30, size=11, max_lines=3)
    assert fitted.width <= 90 and fitted.height <= 30


@pytest.mark.parametrize("kwargs, code", [
    (dict(game="chess", names=NAMES[:3]), "print.unknown_game"),
    (dict(game="ra", names=["Ana"]), "print.bad_player_count"),
    (dict(game="ra", names=NAMES + ["Zoe"]), "print.bad_player_count"),
    (dict(game="imhotep", names=NAMES), "print.bad_player_count"),
    (dict(game="ra", names=None, players=7), "print.bad_player_count"),
    (dict(game="ra", names=NAMES[:3], sheets=0), "print.bad_sheets"),
    (dict(game="ra", names=NAMES[:3], sheets=10_000), "print.bad_sheets"),
    (dict(game="ra", names=NAMES[:3], page="a5"), "print.unknown_page"),
    (dict(game="ra", names=NAMES[:3], lang="de"), "print.unknown_language"),
    (dict(game="ra", names=NAMES[:3], qr_url="javascript:alert(1)"), "print.bad_url"),
    (dict(game="ra", names=["Ana", "שרה"]), "print.right_to_left"),
    (dict(game="ra", names=["Ana", "王小明"]), "print.unprintable"),
])
def test_bad_input_is_refused_before_anything_is_drawn(kwargs, code):
    kwargs.setdefault("qr_url", URL)
    game = kwargs.pop("game")
    names = kwargs.pop("names")
    with pytest.raises(PrintError) as caught:
        score_pad(game, names, **kwargs)
    assert caught.value.code == code
    assert "%(" not in str(caught.value)


def test_emoji_in_a_name_are_left_out_cleanly():
    words = text(score_pad("ra", ["Bea 🎲", "Ana"], qr_url=URL))
    assert "Bea" in words and "🎲" not in words


def test_every_pad_fits_its_rows_on_both_papers():
    for content in printing_games():
        for page in ("a4", "letter"):
            for count in player_counts(content.game):
                score_pad(content.game, None, players=count, page=page, qr_url=URL)
