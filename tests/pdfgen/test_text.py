"""pdfgen.text: names are printable or refused; fitted text never leaves its box."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pdfgen.errors import PrintError
from pdfgen.fonts import SANS, SANS_BOLD, missing_glyphs
from pdfgen.text import ELLIPSIS, LEADING, clean_text, fit, text_width


def test_czech_and_hungarian_letters_are_in_the_embedded_font():
    assert missing_glyphs("Řehoř Ödön ů ě ő ű Ű Ő Ž č ď ť ň á é í ó ú ý") == []
    assert missing_glyphs("ŘŮĚŐŰ", SANS_BOLD) == []


def test_clean_text_tidies_whitespace_and_drops_emoji():
    assert clean_text("  Ana \t  Bea\n") == "Ana Bea"
    assert clean_text("Bea 🎲") == "Bea"                  # no glyph: left out
    assert clean_text("🚀 Ödön 🙂") == "Ödön"
    assert clean_text("Cyril 😀") == "Cyril 😀"            # DejaVu draws this one itself


@pytest.mark.parametrize("name, code", [
    ("שרה", "print.right_to_left"),
    ("Ana مريم", "print.right_to_left"),
    ("王小明", "print.unprintable"),
])
def test_names_we_cannot_lay_out_are_refused_clearly(name, code):
    with pytest.raises(PrintError) as caught:
        clean_text(name, "names.1")
    assert caught.value.code == code and caught.value.field == "names.1"
    assert name[:2] in str(caught.value)


def test_a_long_name_shrinks_then_wraps_then_is_shortened():
    assert fit("Ana", 80, 30, size=11).size == 11
    shrunk = fit("Bartholomew Hohenzollern", 100, 30, size=11)
    assert len(shrunk.lines) in (1, 2) and shrunk.width <= 100
    huge = fit("Bartholomew-Maximilian von Hohenzollern-Sigmaringen " * 3, 60, 30, size=11,
               min_size=5, max_lines=3)
    assert huge.lines[-1].endswith(ELLIPSIS) and len(huge.lines) <= 3
    assert huge.width <= 60 and huge.height <= 30


@settings(max_examples=200, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(list("aábcčdeěéfghiíjklmnňoóöőpqrřsštuúůüűvwxyýzž"
                                                  "ABCŘŮĚŐŰ -'.") + ["W", "Ш", "ß"]),
                    min_size=1, max_size=120),
       width=st.floats(8, 300), height=st.floats(4, 80), size=st.floats(4, 24),
       lines=st.integers(1, 4), bold=st.booleans())
def test_fitted_text_never_overflows_its_box(text, width, height, size, lines, bold):
    font = SANS_BOLD if bold else SANS
    fitted = fit(text, width, height, font=font, size=size, max_lines=lines)
    assert len(fitted.lines) <= max(1, lines)
    assert fitted.height <= height + 1e-6 and fitted.size <= size
    for line in fitted.lines:
        assert text_width(line, font, fitted.size) <= width + 1e-6
    assert len(fitted.lines) * fitted.size * LEADING <= height + 1e-6
