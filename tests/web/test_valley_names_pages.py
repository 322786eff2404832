"""Valley of the Kings' cards and sets on the score pages, named in the reader's language with
the printed (Czech) name in parentheses (issue 20 item 3; companion/rules/valley/names.py):
the score form's labels and the Scoresheet's categories."""

from __future__ import annotations

import re
from html import unescape

import pytest
from flask import render_template

from companion.rules.valley import VALLEY
from companion.rules.valley.final import score_final
from companion.services.scoring import sheet_rows
from tests.rules.test_valley_names import czech_outside_parentheses

DOCUMENT = {"game": "valley", "options": {"pool": "afterlife"}, "players": [
    {"name": "Ana", "tomb_cards": 9, "starters": {"shabti": 3},
     "uniques": [{"title": "Sphinx", "vp": 4}], "distinct": {"weapons": 4, "tomb_art": 1}},
    {"name": "Bo", "tomb_cards": 4, "starters": {"urn": 1}, "distinct": {"chambers": 3}}]}


def visible_text(html: str) -> str:
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", "\n", html)))


@pytest.mark.parametrize("lang, names, foreign", [
    ("hu", ("Usébti (Vešebt)", "Fegyverek (Zbraně)", "Sírművészet (Umění)"), ("Weapons",)),
    ("en", ("Shabti (Vešebt)", "Weapons (Zbraně)", "Tomb Art (Umění)"), ("Fegyverek",)),
    ("cs", ("Vešebt", "Zbraně", "Umění"), ("(Zbraně)", "Weapons"))])
def test_the_scoresheet_names_its_categories_in_the_readers_language(app, lang, names, foreign):
    sheet = score_final(DOCUMENT).as_dict()
    with app.test_request_context("/", headers={"Accept-Language": lang}):
        html = render_template("_sheet.html", sheet=sheet, labels=VALLEY.labels,
                               rows=sheet_rows(VALLEY.labels, sheet["players"]))
    words = visible_text(html)
    for name in names:
        assert name in words, (name, words)
    for word in foreign:
        assert word not in words, (word, words)
    if lang != "cs":
        assert not czech_outside_parentheses(words, lang), words


@pytest.mark.db
@pytest.mark.parametrize("lang, name", [("hu", "Usébti (Vešebt)"), ("en", "Shabti (Vešebt)"),
                                        ("cs", "Vešebt")])
def test_the_score_form_labels_name_the_cards_and_sets_in_the_readers_language(
        client, lang, name):
    words = visible_text(client.get("/score/valley",
                                    headers={"Accept-Language": lang}).get_data(as_text=True))
    assert name in words
    if lang != "cs":
        assert not czech_outside_parentheses(words, lang), words
    else:
        assert "(Vešebt)" not in words and "Shabti" not in words


ENGLISH_NAMES = re.compile(r"Afterlife|Valley of the Kings")
# hu: no Hungarian edition exists (seed 002 names none): a Hungarian rendering, the English
# name after it in parentheses; cs: the published titles (seed 003).
HU_NAMED = re.compile(r"(?:Királyok völgye(?:: Túlvilág)?|Túlvilág) \((?:Valley of the Kings"
                      r"(?:: Afterlife)?|Afterlife)\)")


@pytest.mark.db
@pytest.mark.parametrize("lang", ["hu", "cs"])
def test_the_game_and_its_boxes_are_named_in_the_readers_language(client, lang):
    """Issue 20 defect b: "Afterlife" and "Valley of the Kings" stayed English on Hungarian
    pages (the game's name, the pools, the unique boxes)."""
    pages = ["/score/", "/play", "/score/valley", "/score/valley?_players=2&variant=original",
             "/tables/new/valley", "/print/valley"]
    for path in pages:
        words = visible_text(client.get(path, headers={"Accept-Language": lang})
                             .get_data(as_text=True))
        if lang == "hu":
            assert HU_NAMED.search(words), (path, words)
            words = HU_NAMED.sub("", words)
        else:
            assert "Ve stínu pyramid" in words, (path, words)
        assert not ENGLISH_NAMES.search(words), (path, ENGLISH_NAMES.findall(words), words)
