"""The card text flow: a little table grows taller rather than shrinking the whole card."""

import pytest

from pdfgen import pharaon
from pdfgen.cardface import BAND, SAFE, Grid, QR_MAX, grid_row, layout_scale
from pdfgen.fonts import register_fonts
from pdfgen.geometry import CARD_SIZES, MM
from pdfgen.i18n import translator

POKER = CARD_SIZES["poker"]
WIDTH = POKER.width * MM - 2 * SAFE
register_fonts()
HEIGHT = POKER.height * MM - BAND - 1.5 * MM - SAFE * 0.55 - QR_MAX   # under the band, over the QR


def test_a_long_header_and_long_values_wrap_inside_their_cells():
    grid = Grid((grid_row("Artisans: three of a single kind",
                          ["paid in the entry's colour", "paid in another colour"]),
                 grid_row("tokens spent", [3, 4])))
    scale = layout_scale([grid], WIDTH, 40 * MM)
    assert scale is not None and scale >= 1.0, scale


def test_a_word_wider_than_its_cell_still_shrinks_the_card():
    grid = Grid((grid_row("x", ["Verylongwordthatcannotwrapanywhereatall" * 2, "y"]),))
    wide = layout_scale([grid], WIDTH, 40 * MM)
    assert wide is None or wide < 1.0


@pytest.mark.parametrize("lang", ["en", "cs", "hu"])
def test_pharaons_payment_card_is_printed_at_a_readable_size(lang):
    _title, blocks = pharaon.paying_card(translator(lang))
    scale = layout_scale(blocks, WIDTH, HEIGHT)
    assert scale is not None and scale >= 0.85, (lang, scale)    # 5.4 pt text at least


class _Drawn:
    """A canvas that keeps the strings drawn (left: labels, right: values)."""

    def __init__(self):
        self.left: list[str] = []
        self.right: list[str] = []

    def setFont(self, *args):
        pass

    def setFillGray(self, *args):
        pass

    def drawString(self, x, y, text):
        self.left.append(text)

    def drawRightString(self, x, y, text):
        self.right.append(text)


@pytest.mark.parametrize("scale", [0.85, 0.9, 0.95, 1.0, 1.05])
def test_a_short_label_beside_a_long_value_is_not_hyphenated(scale):
    """Playtest (issue 20): Valley's Hungarian turn card printed "Ak-ció" and "Vásár-lás": the
    value left its label exactly the label's width, and rounding broke the word."""
    from pdfgen.cardface import Line, _Flow
    t = translator("hu")
    canvas = _Drawn()
    flow = _Flow(canvas, 0, 500, WIDTH, scale, "hu")
    assert flow.block(Line(t("Action"), t("do all of it; “may” parts are optional")))
    assert flow.block(Line(t("Buy"), t("a base card: capital ≥ cost, no change")))
    assert canvas.left == ["Akció", "Vásárlás"], canvas.left
