"""Valley of the Kings: every title and set named in the reader's language, the printed name in
parentheses (issue 20 item 3; companion/rules/valley/names.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.support import Translations

from companion.rules.base import RuleViolation
from companion.rules.valley import names
from companion.rules.valley import printed as t

TRANSLATIONS = Path(__file__).resolve().parents[2] / "companion" / "translations"
LANGUAGES = ("cs", "en", "hu")


def gettext_of(lang: str):
    if lang == "en":
        return lambda s: s
    return Translations.load(str(TRANSLATIONS), [lang]).gettext


def named_keys() -> list[str]:
    return [x.id for x in t.TITLES.values() if x.placeholder is None] + list(t.SETS)


def czech_words(lang: str) -> dict[str, str]:
    """Every printed Czech name that is not also the ``lang`` reader's own word for it."""
    gettext = gettext_of(lang)
    words = {}
    for key in named_keys():
        printed = names.printed_name(key)
        if printed and printed.casefold() != gettext(str(names.term(key))).casefold():
            words[printed] = key
    return words


def outside_parentheses(text: str) -> str:
    return re.sub(r"\([^()]*\)", " ", text)


def czech_outside_parentheses(text: str, lang: str) -> list[str]:
    """The Czech card or set names ``text`` shows outside the parentheses of a printed name
    (what an English or Hungarian reader must not read)."""
    bare = outside_parentheses(text)
    return [word for word in czech_words(lang)
            if re.search(rf"(?<!\w){re.escape(word)}(?!\w)", bare)]


@pytest.mark.parametrize("lang, expected", [("cs", "Sfinga"), ("en", "Sphinx (Sfinga)"),
                                            ("hu", "Szfinx (Sfinga)")])
def test_the_readers_name_first_then_the_printed_one(lang, expected):
    assert names.name("sphinx", gettext_of(lang)) == expected


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_title_and_set_has_a_name_in_every_language(lang):
    gettext = gettext_of(lang)
    catalog = None if lang == "en" else Translations.load(str(TRANSLATIONS), [lang])
    for key in named_keys():
        msgid = str(names.term(key))
        assert msgid and msgid != key, key                 # an English name, not the id
        if catalog is not None:
            assert msgid in catalog._catalog, (lang, key)  # translated, not the msgid again
        shown = names.name(key, gettext)
        assert shown and key not in shown, (lang, key, shown)
        if lang != "cs":
            assert not czech_outside_parentheses(shown, lang), (lang, key, shown)


def test_the_czech_catalogue_says_what_the_seed_prints():
    """A Czech reader of the Czech copy reads one name: the catalogue's Czech is the seed's."""
    gettext = gettext_of("cs")
    for key in named_keys():
        printed = names.printed_name(key)
        if printed:
            assert gettext(str(names.term(key))).casefold() == printed.casefold(), key
            assert "(" not in names.name(key, gettext), key


@pytest.mark.parametrize("lang, expected", [
    ("cs", "Umění č. 5 (neznámý název)"), ("en", "Tomb Art #5 (unknown title)"),
    ("hu", "Sírművészet 5. (ismeretlen kártyanév)")])
def test_a_stand_in_is_worded_in_the_readers_language(lang, expected):
    assert names.name("tomb_art_5", gettext_of(lang)) == expected


@pytest.mark.parametrize("key, lang, expected", [
    ("unique", "hu", "Egyedi műtárgyak"), (None, "cs", "Sada zatím neznámá"),
    ("?", "hu", "egy kártya"), ("no_such_card", "hu", "no_such_card")])
def test_groups_and_unknowns(key, lang, expected):
    assert names.name(key, gettext_of(lang)) == expected


def test_an_english_copy_puts_the_english_name_in_parentheses():
    assert names.name("sphinx", gettext_of("cs"), copy="en") == "Sfinga (Sphinx)"
    assert names.name("sphinx", gettext_of("en"), copy="en") == "Sphinx"


def test_a_refusal_names_the_card_when_it_is_read():
    violation = RuleViolation("x", "“%(title)s” belongs to %(set)s", title=names.term("dagger"),
                              set=names.term("weapons"))
    assert violation.render(gettext_of("hu")) == "“Tőr (Dýka)” belongs to Fegyverek (Zbraně)"
    assert violation.render() == "“Dagger (Dýka)” belongs to Weapons (Zbraně)"


def test_a_hungarian_refusal_names_the_card_and_the_sets_in_hungarian():
    """Issue 20: "„Tomb Art #7 (unknown title)” ide tartozik: tomb_art, nem ide: chambers"."""
    from tests.rules.valley_helpers import give, new_game, refused
    state = give(new_game(2), 0, "tomb_art_7")
    violation = refused(state, {"type": "seal", "card": "tomb_art_7", "set": "chambers"},
                        "valley.printed_value_mismatch")
    hu = violation.render(gettext_of("hu"))
    assert "Sírművészet 7. (ismeretlen kártyanév)" in hu
    assert "Sírművészet (Umění)" in hu and "Kamrák (Komnaty)" in hu
    for raw in ("tomb_art", "chambers", "Tomb Art", "Chambers", "unknown title"):
        assert raw not in hu, hu
    assert violation.render(gettext_of("cs")).count("Umění") == 2      # the Czech copy's words
    violation = refused(give(new_game(2), 0, "?"), {"type": "seal", "card": "book_of_gates"},
                        "valley.not_in_pool")
    assert "Kapuk könyve" in violation.render(gettext_of("hu"))
