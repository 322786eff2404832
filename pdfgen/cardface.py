"""A small flow layout for the text on a card: a coloured title band, then headings, lines
with a value on the right, paragraphs, little tables and card entries, all shrunk together
until they fit inside the card's safe area. If even the smallest size does not fit, the card
is refused (LayoutError), never clipped.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from reportlab.lib.colors import Color
from reportlab.pdfgen.canvas import Canvas

from .document import Draw, Surface
from .errors import LayoutError
from .fonts import SANS, SANS_BOLD
from .geometry import MM
from .i18n import N_, Translator
from .text import LEADING, draw_text, text_width, wrap_words

SAFE = 3.5 * MM                 # text keeps this far from the trim (cutting tolerance)
BAND = 9.5 * MM                 # the title band, measured from the trim's top edge
SCALES = [round(1.5 - 0.04 * i, 2) for i in range(24)]   # 150 % (roomy cards) down to 58 %


@dataclass(frozen=True)
class Heading:
    text: str


@dataclass(frozen=True)
class Line:
    label: str
    value: str


@dataclass(frozen=True)
class Para:
    text: str
    grey: bool = False


@dataclass(frozen=True)
class Grid:
    """A little table: the first cell of each row is its header."""

    rows: tuple[tuple[str, ...], ...]


def grid_row(label: str, values: Sequence[object]) -> tuple[str, ...]:
    """One row of a :class:`Grid`: its header, then the values as text."""
    return (label, *(str(v) for v in values))


@dataclass(frozen=True)
class Entry:
    """A card described on a card: a coloured dot, its name, a badge (count, timing), text."""

    name: str
    badge: str
    text: str
    colour: tuple[float, float, float]


@dataclass(frozen=True)
class Gap:
    points: float = 3.0


Block = Heading | Line | Para | Grid | Entry | Gap
Content = Callable[[Translator], tuple[str, Sequence[Block]]]


class _Flow:
    """Measure (and optionally draw) blocks at one scale; y runs down from ``top``."""

    def __init__(self, canvas: Canvas | None, x: float, top: float, width: float, k: float,
                 lang: str | None = None):
        self.c, self.x, self.y, self.width, self.k = canvas, x, top, width, k
        self.lang = lang

    def wrap(self, text: str, font: str, size: float, width: float) -> list[str] | None:
        """Lines of ``text``; None when a word would break at no valid hyphenation point
        (the flow then tries a smaller scale)."""
        return wrap_words(text, font, size, width, self.lang)

    def _lines(self, lines: list[str], font: str, size: float, x: float | None = None,
               right: bool = False, grey: float = 0.1) -> None:
        if self.c is None:
            return
        self.c.setFont(font, size)
        self.c.setFillGray(grey)
        baseline = self.y - size * 0.93
        for line in lines:
            if right:
                self.c.drawRightString(self.x + self.width, baseline, line)
            else:
                self.c.drawString(self.x if x is None else x, baseline, line)
            baseline -= size * LEADING

    def block(self, block: Block) -> bool:
        """Lay out one block; False when something cannot fit the width at this scale."""
        k, w = self.k, self.width
        if isinstance(block, Gap):
            self.y -= block.points * k
        elif isinstance(block, Heading):
            size = 7.6 * k
            self.y -= 2.2 * k
            lines = self.wrap(block.text, SANS_BOLD, size, w)
            if lines is None:
                return False
            self._lines(lines, SANS_BOLD, size)
            self.y -= len(lines) * size * LEADING + 0.6 * k
        elif isinstance(block, Para):
            size = 6.4 * k
            lines = self.wrap(block.text, SANS, size, w)
            if lines is None:
                return False
            self._lines(lines, SANS, size, grey=0.35 if block.grey else 0.1)
            self.y -= len(lines) * size * LEADING + 1.2 * k
        elif isinstance(block, Line):
            size = 6.8 * k
            natural = text_width(block.value, SANS_BOLD, size)
            value_w = min(natural, max(w * 0.5, w - text_width(block.label, SANS, size)
                                       - 4 * k))
            values = self.wrap(block.value, SANS_BOLD, size, value_w + 0.01)
            # the label keeps the room left of the value: its own width (no hyphen in "Akció")
            labels = self.wrap(block.label, SANS, size, w - value_w - 4 * k + 0.01)
            if values is None or labels is None:
                return False
            if any(text_width(v, SANS_BOLD, size) > value_w + 0.01 for v in values):
                return False
            self._lines(labels, SANS, size)
            self._lines(values, SANS_BOLD, size, right=True)
            self.y -= max(len(labels), len(values)) * size * LEADING + 1.4 * k
        elif isinstance(block, Grid):
            return self._grid(block)
        elif isinstance(block, Entry):
            size = 6.8 * k
            dot = 2.6 * k
            indent = dot * 1.6
            badge_size = size * 0.9
            name_w = text_width(block.name, SANS_BOLD, size)
            badge_w = text_width(block.badge, SANS, badge_size)
            if name_w > w - indent or badge_w > w - indent:
                return False
            beside = name_w + badge_w + 3 * k <= w - indent
            if self.c is not None:
                self.c.setFillColorRGB(*block.colour)
                self.c.circle(self.x + dot / 2, self.y - size * 0.62, dot / 2, stroke=0, fill=1)
                self._lines([block.name], SANS_BOLD, size, x=self.x + indent)
            self.y -= 0 if beside else size * LEADING
            if self.c is not None:
                self.c.setFont(SANS, badge_size)
                self.c.setFillGray(0.35)
                if beside:
                    self.c.drawRightString(self.x + w, self.y - size * 0.93, block.badge)
                else:
                    self.c.drawString(self.x + indent, self.y - badge_size * 0.93, block.badge)
            self.y -= size * LEADING if beside else badge_size * LEADING
            text_size = 6.1 * k
            lines = self.wrap(block.text, SANS, text_size, w - indent)
            if lines is None:
                return False
            self._lines(lines, SANS, text_size, x=self.x + indent)
            self.y -= len(lines) * text_size * LEADING + 1.8 * k
        return True

    def _grid(self, grid: Grid) -> bool:
        """Cells wrap at spaces onto more lines (a word never breaks): a long header or value
        makes its row taller instead of shrinking the whole card."""
        k, w = self.k, self.width
        size = 6.3 * k
        pad = 1.2 * k
        natural = max(text_width(row[0], SANS_BOLD, size) for row in grid.rows) + 2 * pad
        head_w = min(natural, w * 0.42)
        columns = max(len(row) for row in grid.rows) - 1
        cell_w = (w - head_w) / columns
        if cell_w <= 0:
            return False

        def cell_lines(text: str, font: str, width: float) -> list[str] | None:
            if any(text_width(word, font, size) > width for word in text.split()):
                return None                                   # only a smaller size fits it
            return self.wrap(text, font, size, width)

        laid = []
        for row in grid.rows:
            cells = [cell_lines(row[0], SANS_BOLD, head_w - 2 * pad)]
            cells += [cell_lines(cell, SANS, cell_w - 2.5 * k) for cell in row[1:]]
            if any(lines is None for lines in cells):
                return False
            laid.append((cells, max(len(lines) for lines in cells) * size * LEADING + 2 * pad))
        if self.c is not None:
            c = self.c
            c.setLineWidth(0.4)
            c.setStrokeGray(0.55)
            top = self.y
            for cells, row_h in laid:
                c.setFillGray(0.92)
                c.rect(self.x, top - row_h, head_w, row_h, stroke=0, fill=1)
                c.setFillGray(0.1)
                for i, lines in enumerate(cells):
                    c.setFont(SANS_BOLD if i == 0 else SANS, size)
                    for n, line in enumerate(lines):
                        baseline = top - pad - size * 0.93 - n * size * LEADING
                        if i == 0:
                            c.drawString(self.x + pad, baseline, line)
                        else:
                            cx = self.x + head_w + (i - 1) * cell_w
                            c.drawCentredString(cx + cell_w / 2, baseline, line)
                c.rect(self.x, top - row_h, w, row_h, stroke=1, fill=0)
                top -= row_h
            for i in range(columns):
                cx = self.x + head_w + i * cell_w
                c.line(cx, self.y, cx, top)
        self.y -= sum(row_h for _cells, row_h in laid) + 1.8 * k
        return True


def layout_scale(blocks: Sequence[Block], width: float, height: float,
                 lang: str | None = None) -> float | None:
    """The largest scale at which all ``blocks`` fit ``width`` × ``height``, words breaking
    only where ``lang`` hyphenates them (None: none)."""
    for k in SCALES:
        flow = _Flow(None, 0, height, width, k, lang)
        if all(flow.block(b) for b in blocks) and flow.y >= -1e-6:
            return k
    return None


QR_SHARE = 0.2                  # a card's QR code: this share of its shorter side…
QR_MAX = 14 * MM                # …at most this (0.38 mm modules for a 40-character link)


def card_face(content: Content, band: Color | tuple[float, float, float],
              footer: str | None = None, qr_url: str | None = None) -> Draw:
    """A Draw for a text card: title band in ``band`` colour, then the blocks, then a footer
    and (with ``qr_url``) a small QR code in the bottom-right corner.

    ``content(t)`` gives the translated title and blocks for the sheet's language.
    """
    def draw(s: Surface) -> None:
        c, w, h, b = s.canvas, s.width, s.height, s.bleed
        title, blocks = content(s.t)
        if isinstance(band, Color):
            c.setFillColor(band)
        else:
            c.setFillColorRGB(*band)
        c.rect(-b, h - BAND, w + 2 * b, BAND + b, stroke=0, fill=1)   # into the bleed
        c.setFillGray(1)
        draw_text(c, title, SAFE, h - BAND + 1.2 * MM, w - 2 * SAFE, BAND - 2.4 * MM,
                  font=SANS_BOLD, size=10.5, min_size=6, max_lines=2, lang=s.t.lang)
        bottom = SAFE
        footer_w = w - 2 * SAFE
        if qr_url:
            # The code's own quiet zone (4 white modules) keeps its dark modules inside the
            # safe area, so the square itself may come closer to the trim than text does.
            size = min(QR_MAX, QR_SHARE * min(w, h))
            s.qr(qr_url, w - SAFE * 0.55 - size, SAFE * 0.55, size)
            footer_w -= size
            bottom = SAFE * 0.55 + size
        if footer:
            c.setFillGray(0.5)
            draw_text(c, s.t(footer), SAFE, SAFE * 0.55, footer_w, 2.6 * MM, size=5,
                      min_size=4, max_lines=1, align="right")
            bottom = max(bottom, SAFE * 0.55 + 2.8 * MM)
        top = h - BAND - 1.5 * MM
        k = layout_scale(blocks, w - 2 * SAFE, top - bottom, s.t.lang)
        if k is None:
            raise LayoutError("print.card_overflow",
                              N_("The text of the card “%(title)s” does not fit on the card."),
                              title=title)
        flow = _Flow(c, SAFE, top, w - 2 * SAFE, k, s.t.lang)
        for block in blocks:
            flow.block(block)
        c.setFillGray(0)

    return draw
