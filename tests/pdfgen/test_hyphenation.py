"""Printed words break only where they may (issue 20 §6): at spaces, after their own hyphens,
or at a valid hyphenation point of the sheet's language; otherwise the text gets smaller."""

from __future__ import annotations

import pyphen
import pytest

from pdfgen import text as text_module
from pdfgen.aids import play_aids
from pdfgen.fonts import SANS, register_fonts
from pdfgen.pads import score_pad
from pdfgen.registry import printing_games
from pdfgen.text import fit, hyphenate, text_width, wrap, wrap_words

URL = "http://scribe.example:8000/score/x"


@pytest.fixture(autouse=True, scope="module")
def _fonts():
    register_fonts()


@pytest.mark.parametrize("lang, word", [("cs", "Koupit"), ("cs", "Akce"), ("hu", "Akció"),
                                        ("cs", "Vyhodnocení"), ("hu", "kijátszása"),
                                        ("en", "Afterlife")])
def test_a_long_word_breaks_at_a_hyphenation_point_of_its_language(lang, word):
    width = text_width(word, SANS, 10) * 0.75
    pieces = hyphenate(word, SANS, 10, width, lang)
    assert pieces and len(pieces) >= 2
    points = {len(first) for first, _rest in pyphen.Pyphen(lang=text_module.HYPHENATION[lang])
              .iterate(word)}
    assert len(pieces[0]) - 1 in points and pieces[0].endswith("-")
    assert "".join(p.rstrip("-") for p in pieces) == word
    assert all(text_width(p, SANS, 10) <= width for p in pieces)


def test_hungarian_cuts_may_change_letters_as_the_dictionary_says():
    width = text_width("asszony", SANS, 10) * 0.8
    assert wrap("asszony", SANS, 10, width, "hu") == ["asz-", "szony"]


def test_a_word_without_a_place_to_break_makes_the_text_smaller_instead():
    width = text_width("Akce", SANS, 10) * 0.5          # "Ak-" does not fit either
    assert wrap_words("Akce", SANS, 10, width, "cs") is None
    fitted = fit("Akce", width, 40, size=10, min_size=3, lang="cs")
    assert fitted.size < 10
    assert fitted.lines in (("Akce",), ("Ak-", "ce"))


def _every_printout(lang: str):
    for content in printing_games():
        game = content.game
        yield f"{game}-pad", lambda: score_pad(game, qr_url=URL, lang=lang)
        yield f"{game}-aids", lambda: play_aids(game, qr_url=URL, copies=1, lang=lang)
        for extra in content.extras:
            yield f"{game}-{extra.key}", lambda extra=extra: extra.make(page="a4", lang=lang,
                                                                          qr_url=URL)


@pytest.mark.parametrize("lang", ["cs", "hu"])
def test_no_printout_cuts_a_word_at_a_wrong_place(lang, monkeypatch):
    """Every pad, aid sheet, reference card and card sheet, rendered in the language: no
    word of the text is ever cut anywhere but a valid point (the character-level cut is
    the last resort of a box too narrow for one short word)."""
    cuts = []
    original = text_module._break_word

    def recorded(word, font, size, width):
        cuts.append(word)
        return original(word, font, size, width)

    monkeypatch.setattr(text_module, "_break_word", recorded)
    made = 0
    for name, make in _every_printout(lang):
        cuts.clear()
        assert make()[:4] == b"%PDF", name
        assert cuts == [], f"{name}: words cut at no hyphenation point: {cuts}"
        made += 1
    assert made >= 10
