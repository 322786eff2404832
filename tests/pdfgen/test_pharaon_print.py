"""Pharaon's printouts (issue 14, deliverable 5): the score pad in the scorepad's order with a
row for the gods claimed, the payment aid card, the sheet of the 26 nobles and the Traitor's
turn aid; A4 and Letter, a QR code on every page, Czech and Hungarian letters kept, every
number the engine's own."""

from __future__ import annotations

import re

import pytest

from companion.rules.pharaon import printed as ph
from pdfgen import pharaon as pp
from pdfgen import pharaon_data as data
from pdfgen.aids import play_aids
from pdfgen.i18n import translator
from pdfgen.pads import score_pad
from tests.pdfgen.pdfcheck import (SIZES, needs_decoder, needs_pdftoppm, page_sizes,
                                   qr_texts_per_page, text)

URL = "http://192.168.1.20:8000/tables/AbCdEfGhIjKlMnOpQrStUv"
NAMES = ["Kateřina", "Řehoř", "Győző", "Ödön", "Űrsula"]


def words(pdf: bytes, page: int | None = None) -> str:
    return " ".join(text(pdf, page).split())


@pytest.mark.parametrize("page", ["a4", "letter"])
@pytest.mark.parametrize("lang", ["en", "cs", "hu"])
def test_the_score_pad_has_the_categories_in_scorepad_order(page, lang):
    pdf = score_pad("pharaon", NAMES, page=page, lang=lang, qr_url=URL)
    assert page_sizes(pdf) == [SIZES[page]]
    found = words(pdf)
    for name in NAMES:                          # ř ő ű survive the font and the extraction
        assert name in found
    t = translator(lang)
    order = [t(pp.N_("Gods claimed"))] + [t(ph.CATEGORY_LABELS[key]) for key in
                                          ("gods", "nobles", "nile", "leftovers", "artisans",
                                           "tomb", "tokens")]
    positions = [found.index(label) for label in order]
    assert positions == sorted(positions), order
    assert "+3" in found and "+7" in found      # Nile levels 2 and 3 (printed.NILE_POINTS)
    assert f"+{ph.PHARAOH_TOKEN_POINTS}" in found and f"+{ph.FIRST_PLAYER_TOKEN_POINTS}" in found


def test_the_pad_rows_follow_the_engines_categories():
    rows = [row.label for row in pp.pad_rows() if row.kind == "entry"]
    categories = [ph.CATEGORY_LABELS[key] for key in ("gods", "nobles", "nile", "leftovers",
                                                       "artisans", "tomb", "tokens")]
    assert [label for label in rows if label in categories] == categories
    assert rows.index("Gods claimed") < rows.index(ph.CATEGORY_LABELS["gods"])


@pytest.mark.parametrize("page", ["a4", "letter"])
@pytest.mark.parametrize("lang", ["en", "cs", "hu"])
def test_the_aids_noble_sheet_traitor_aid_then_payment_cards(page, lang):
    pdf = play_aids("pharaon", page=page, lang=lang, qr_url=URL, copies=2)
    sizes = page_sizes(pdf)
    assert sizes == [SIZES[page]] * len(sizes) and len(sizes) == 3   # 2 sheets + 4 faces
    t = translator(lang)
    nobles = words(pdf, 0)
    packed = "".join(nobles.split())           # a line may break after a hyphen ("kezdőjátékos-")
    for line in data.noble_lines():
        assert line.printed in nobles, line.printed          # the Czech card names, ě ř ů…
        assert "".join(t(line.points, **line.points_params).split()) in packed
    for number in range(1, 27):
        assert re.search(rf"(^|\s){number}\s", nobles), number
    traitor = words(pdf, 1)
    for symbol, effect in pp.SYMBOLS:
        assert t(symbol) in traitor, symbol
    assert t(pp.TRAITOR_TITLE) in traitor
    cards = words(pdf, 2)
    assert cards.count(t(pp.N_("Pharaon · paying for an action"))) == 2
    assert cards.count(t(pp.N_("Pharaon · costs and offerings"))) == 2
    for area, _cost in data.ACTION_COSTS:
        assert t(ph.AREA_LABELS[area]) in cards


def test_the_noble_texts_are_the_engines_numbers():
    lines = {line.number: line for line in data.noble_lines()}
    t = translator("en")
    assert len(lines) == 26
    assert t(lines[1].points, **lines[1].points_params) == \
        "4 + 4 per satisfied god beside its area (at most 12)"
    assert t(lines[6].points, **lines[6].points_params) == \
        "7, +4 with the Pharaoh token, +4 with the first-player token"
    assert t(lines[8].points, **lines[8].points_params) == "12"
    assert t(lines[12].points, **lines[12].points_params) == \
        "3 + 3 per noble you own, itself included"
    assert t(lines[16].points, **lines[16].points_params) == \
        "5 + 3 per Nile track at level 3"
    assert t(lines[13].effect, **lines[13].effect_params) == \
        "Use Artisans although it is full (the entry goes to the bank)."
    assert t(lines[21].effect, **lines[21].effect_params) == \
        "Raise your Nile discs 3 levels in all; gain 2 × the resource on the card."
    assert [lines[n].type for n in (1, 13, 26)] == ["permanent", "once a round", "when taken"]


@needs_pdftoppm
@needs_decoder
@pytest.mark.parametrize("page", ["a4", "letter"])
def test_every_page_carries_the_tables_qr_code(page):
    for pdf in (score_pad("pharaon", NAMES[:3], page=page, qr_url=URL),
                play_aids("pharaon", page=page, qr_url=URL, copies=1)):
        for number, codes in enumerate(qr_texts_per_page(pdf), 1):
            assert codes and set(codes) == {URL}, (number, codes)


def test_printouts_are_deterministic():
    assert play_aids("pharaon", lang="cs", qr_url=URL) == play_aids("pharaon", lang="cs",
                                                                    qr_url=URL)
    assert score_pad("pharaon", NAMES, lang="hu", qr_url=URL) == score_pad(
        "pharaon", NAMES, lang="hu", qr_url=URL)


def test_a_blank_pad_has_a_column_for_every_player_count():
    pdf = score_pad("pharaon", qr_url=URL)
    assert page_sizes(pdf) == [SIZES["a4"]]
    assert len(re.findall(r"\bname\b", words(pdf))) == max(ph.PLAYER_COUNTS)


@pytest.mark.parametrize("lang", ["cs", "hu", "en"])
def test_every_text_is_wrapped_in_the_printouts_language(lang, monkeypatch):
    """Issue 20 §6: the pad, the aid sheets (nobles, Traitor) and the cards wrap every
    translated text with the sheet's language, so a word breaks only at a hyphenation point
    of that language (or the text gets smaller); only players' names, the QR link and the
    Czech card names go without (or with Czech)."""
    from pdfgen import text as text_module
    seen: list[tuple[str, str | None]] = []
    original = text_module._wrap

    def recorded(text_, font, size, width, lang_, strict):
        seen.append((text_, lang_))
        return original(text_, font, size, width, lang_, strict)

    monkeypatch.setattr(text_module, "_wrap", recorded)
    score_pad("pharaon", NAMES, lang=lang, qr_url=URL)
    play_aids("pharaon", lang=lang, qr_url=URL)
    czech_names = {n.printed for n in data.noble_lines()}
    wrong = {text_ for text_, used in seen if used != lang and text_ not in NAMES
             and text_ != URL and not (used == "cs" and text_ in czech_names)}
    assert seen and not wrong
