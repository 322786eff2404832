"""Valley of the Kings' printouts (pdfgen/valley.py): the score pad of spec §14, the tomb
checklist card of every pool, the turn-summary card: paper sizes, the rows and numbers the
spec asks for, Czech and Hungarian letters, a readable QR code on every page."""

from __future__ import annotations

import re

import pytest

from companion.rules.base import Term
from companion.rules.valley import pools
from companion.rules.valley import printed as vk
from pdfgen.aids import play_aids
from pdfgen.pads import score_pad
from pdfgen.registry import game_print
from pdfgen.valley import checklist_items, pad_lines, tomb_checklists
from pdfgen.i18n import translator
from tests.rules.test_valley_names import czech_outside_parentheses
from tests.pdfgen.pdfcheck import (SIZES, needs_decoder, needs_pdftoppm, page_sizes,
                                   qr_texts_per_page, text)

NAMES = ["Ana", "Bořivoj Lůžko", "Gőző Fűz", "Zdeňka", "Ödön", "Eva"]
TABLE = "http://127.0.0.1:8000/tables/TBL123"
SCORE = "http://127.0.0.1:8000/score/valley"
PAGES = ("a4", "letter")
LANGS = ("en", "cs", "hu")


@pytest.fixture(scope="module")
def pads() -> dict[tuple[str, str], bytes]:
    return {(page, lang): score_pad("valley", NAMES[:4], page=page, lang=lang, qr_url=TABLE,
                                    sheets=2)
            for page in PAGES for lang in LANGS}


@pytest.fixture(scope="module")
def checklists() -> dict[tuple[str, str], bytes]:
    return {(page, lang): tomb_checklists(page=page, lang=lang, qr_url=SCORE)
            for page in PAGES for lang in LANGS}


def test_the_valley_registers_its_pad_card_and_checklist():
    content = game_print("valley")
    assert content.pad.title == "Valley of the Kings · score pad"
    assert len(content.cards) == 1 and content.cards[0].back is not None
    assert [extra.key for extra in content.extras] == ["checklist"]


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("lang", LANGS)
def test_pad_pages_are_the_paper_size_with_names_and_letters(pads, page, lang):
    pdf = pads[(page, lang)]
    assert page_sizes(pdf) == [SIZES[page]] * 2
    words = text(pdf, 0)
    for name in NAMES[:4]:
        assert name in words
    for letter in "řůěőűž":
        assert letter in words
    assert text(pdf, 1) == words                          # every sheet is the same


def test_pad_rows_are_the_ones_of_spec_14(pads):
    words = text(pads[("a4", "en")], 0)
    lines = pad_lines(translator("en"))
    assert [line.kind for line in lines] == (
        ["section"] + ["starter"] * 4 + ["section"] + ["unique"] * 6 + ["section"]
        + ["group"] * 5 + ["count", "total"])
    for label in ("Shabti (Vešebt)", "Urn (Nádoba)", "Box of Food (Truhla s jídlem)",
                  "Offering Table (Obětní stůl)", "Unique 6", "Cards in the tomb", "Total",
                  "Red: Sarcophagi and Mummification",
                  "Light blue: Statuettes and Tomb Art"):
        assert label in words, label
    assert words.count("×1 =") == 4 * 4                    # count × VP, in every column
    assert "check the number printed on your cards" in words     # Urn, Box, Table: unverified


@pytest.mark.parametrize("lang, names", [
    ("hu", ("Usébti (Vešebt)", "Urna (Nádoba)", "Ételesláda (Truhla s jídlem)",
            "Áldozati asztal (Obětní stůl)")),
    ("cs", ("Vešebt", "Nádoba", "Truhla s jídlem", "Obětní stůl"))])
def test_the_pad_names_the_starters_in_its_language_with_the_printed_name(pads, lang, names):
    """Issue 20: the Hungarian pad said "Vešebt (Shabti)"."""
    words = text(pads[("a4", lang)], 0)
    for name in names:
        assert name in words, name
    assert "Shabti" not in words and "(Vešebt)" not in words if lang == "cs" else \
        not czech_outside_parentheses(words.replace("\n", " "), lang)


def test_the_squares_table_is_printed_beside_every_group(pads):
    """Each colour's row lists n and n² up to its largest merged group (§11): red 6, brown 8,
    yellow 10, green 12, light blue 14."""
    words = text(pads[("a4", "en")], 0)
    for colour, most in zip(("Red:", "Brown:", "Yellow:", "Green:", "Light blue:"),
                            (6, 8, 10, 12, 14)):
        row = words[words.index(colour):].split("→")[0]
        numbers = [int(n) for n in re.findall(r"\b\d+\b", row)]
        assert numbers == [x for n in range(1, most + 1) for x in (n, n * n)], colour
    assert "196" in words                                 # 14 Statuettes + Tomb Art (V12)


def test_a_blank_pad_has_six_columns_and_a_table_pad_its_names():
    blank = text(score_pad("valley", page="letter", qr_url=SCORE))
    assert blank.count("×1 =") == 4 * 6
    two = text(score_pad("valley", ["Ana", "Bo"], qr_url=TABLE))
    assert two.count("×1 =") == 4 * 2 and "Bo" in two


@needs_pdftoppm
@needs_decoder
def test_every_page_carries_a_readable_qr_code(pads, checklists):
    """The table's code on the pad, the score form's on the cards (A4 in English is also
    checked for every game by test_registry); Letter and Czech or Hungarian here."""
    assert qr_texts_per_page(pads[("letter", "cs")]) == [[TABLE], [TABLE]]
    cards = play_aids("valley", page="letter", lang="hu", qr_url=SCORE, copies=1)
    assert all(codes == [SCORE, SCORE] for codes in qr_texts_per_page(cards))
    for lang in ("cs", "hu"):
        per_page = qr_texts_per_page(checklists[("letter", lang)])
        assert len(per_page) == len(pools.PoolId) and all(codes == [SCORE, SCORE]
                                                           for codes in per_page)


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("lang", LANGS)
def test_a_checklist_page_per_pool_two_cards_each(checklists, page, lang):
    pdf = checklists[(page, lang)]
    t = translator(lang)
    assert page_sizes(pdf) == [SIZES[page]] * len(pools.PoolId)
    for number, pool in enumerate(pools.PoolId):
        words = text(pdf, number)
        heading = t("Tomb checklist · %(pool)s", pool=Term(pools.POOL_LABELS[pool]))
        assert words.count(heading) == 2, (pool, heading)
        if lang != "en":
            assert "Tomb checklist" not in words          # the heading is translated


@pytest.mark.parametrize("pool", list(pools.PoolId))
def test_a_checklist_lists_every_title_of_its_pool_with_a_box_per_copy(pool):
    items = checklist_items(translator("en"), pool)
    built = pools.build_pool(pool)
    chosen = pools.CHOSEN_SIZES.get(pool, ())
    sets = set(built.sets) | {s for size in chosen for s in vk.SIZE_PAIRS[size]}
    expected = sum(vk.SETS[s].size for s in sets)
    ticks = [i for i in items if i.kind in ("title", "write_in") and i.colour]
    assert len(ticks) == expected
    assert {i.boxes for i in ticks} == {built.copies}     # 1 in half sets, else 2
    assert sum(1 for i in items if i.kind == "unique") == built.uniques
    assert sum(1 for i in items if i.kind == "starter") == 4
    results = sum(1 for i in items if i.kind == "result")
    assert results == len(built.groups) + sum(1 for size in chosen
                                               if len(vk.SIZE_PAIRS[size]) > 1) - len(chosen)
    write_ins = sum(1 for i in ticks if i.kind == "write_in")
    assert write_ins == sum(1 for s in sets for title in vk.set_titles(s)
                            if vk.TITLES[title].placeholder)


def test_a_czech_checklist_names_the_cards_in_czech(checklists):
    words = text(checklists[("a4", "cs")], 0)
    for name in ("Hák na mozek", "Pohřební komora", "Kef-peseš", "Bohyně Nút", "Vešebt"):
        assert name in words
    assert "(Brain Hook)" not in words and "Lněná obinadla" in words   # a translation
    assert "Linen Bandages" not in words


def test_a_hungarian_checklist_names_its_groups_in_hungarian_and_the_cards_as_printed(
        checklists):
    """Hungarian headings, group and card names; the Czech name the cards carry in
    parentheses beside them (issue 20 item 3), never on its own."""
    t = translator("hu")
    words = text(checklists[("a4", "hu")], 0)
    for name in ("Agyhorog (Hák na mozek)", "Hopes (Kef-peseš)", "Usébti (Vešebt)",
                 "Nut (Bohyně Nút)", "Sírművészet (Umění)"):
        assert name in words, name
    assert "Vászonpólyák" in words and "Linen Bandages" not in words   # no Czech name known
    assert not czech_outside_parentheses(words.replace("\n", " "), "hu")
    for group in ("mummification", "jewelry", "chambers", "weapons", "tomb_art"):
        label = t(vk.SET_LABELS[group])
        assert label != vk.SET_LABELS[group] and label in words, group
    for line in ("Set not known yet: count in its colour", "Unique artifacts: title and VP",
                 "Starter cards: how many"):
        assert t(line) != line and t(line) in words, line
    assert "ő" in words and "Sírellenőrző lista" in words


def test_the_turn_card_says_the_turn_and_the_end_in_numbers():
    pdf = play_aids("valley", page="a4", lang="en", qr_url=SCORE, copies=1)
    words = re.sub(r"\s+", " ", text(pdf))
    for phrase in ("1. Play your cards", "2. Discard", "3. Rebuild", "4. Draw 5",
                   "sacrifice 1 of its cards", "Fewer cards in the tomb wins",
                   "1 4 9 16 25 36 49"):
        assert phrase in words, phrase


@pytest.mark.parametrize("lang, names", [
    ("hu", ("Usébti (Vešebt)", "Ételesláda (Truhla s jídlem)", "Kamrák (Komnaty)")),
    ("cs", ("Vešebt", "Truhla s jídlem", "Komnaty")),
    ("en", ("Shabti (Vešebt)", "Box of Food (Truhla s jídlem)", "Chambers (Komnaty)"))])
def test_the_game_report_names_the_categories_as_the_scoresheet_does(app, lang, names):
    """The report of a finished live game: each category in the reader's language, then the
    name printed on the group's copy, as on the phone's Scoresheet (the Hungarian report said
    "Usébti" where the phone said "Usébti (Vešebt)")."""
    from companion import db
    from companion.services import printing
    from tests.live_games import finished_live_game

    table_id, _log = finished_live_game(app, "valley", 3)
    with app.app_context():
        pdf = printing.report_for_table(db.session(), table_id, "http://scribe.example/",
                                        lang=lang)
    words = " ".join(text(pdf, 0).split())
    for name in names:
        assert name in words, name
    if lang == "cs":
        assert "(Vešebt)" not in words
