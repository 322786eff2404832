"""Silver & Gold – Pyramids printouts (spec silver-gold-pyramids.md §2, §6, §9, §11; issue 13),
registered with :mod:`pdfgen.registry`.

* Our print-and-play edition: the 48 pyramid cards and the 8 expedition cards as card sheets
  (poker size, with backs): duplex, 9 per A4 or Letter page with cut lines; the same as a gutter
  fold; and for a print shop with 3 mm bleed and crop marks (a bleed of 3 mm needs 6 mm between
  cards, so 8 fit on A4 and 6 on Letter). The scoring card with our skull penalties, 4 per page.
* The score pad of §11, with the race rows (who claimed each of the 9 boxes), and a reference
  card for the play aids.

Every value comes from ``companion.rules.pyramids``: the layouts, the expedition deck and the
penalties from :mod:`companion.rules.pyramids.ours`, the printed numbers from its ``printed``.
Nothing is copied from the published cards: the symbols are drawn here, the same shapes as the
phone page's (templates/games/pyramids/_art.html), each told apart by its outline so that the
cards read in black and white. Chambers are 11 mm squares, room for a pen's cross.
"""

from __future__ import annotations

from typing import Callable, Sequence

from companion.rules.pyramids import ours
from companion.rules.pyramids import printed as pt

from .cardface import Gap, Heading, Line, Para
from .document import Card, Draw, PdfWriter, Surface
from .fonts import SANS_BOLD
from .geometry import MM, card_grid
from .i18n import N_, Translator, translator
from .pads import check_url
from .registry import GamePrint, PadRow, PadSpec, Printout, ReferenceCard, register
from .text import draw_text

BAND = (0.36, 0.25, 0.10)
INK = (0.10, 0.08, 0.05)
PARCHMENT = (0.98, 0.95, 0.87)
WALL = (0.24, 0.14, 0.06)
MORTAR = (0.50, 0.36, 0.20)
GOLD = (0.89, 0.70, 0.11)
GOLD_DARK = (0.36, 0.25, 0.0)
COLOURS: dict[str, tuple[float, float, float]] = {
    "purple": (0.44, 0.26, 0.76), "orange": (0.85, 0.28, 0.06), "green": (0.17, 0.54, 0.24)}
NIGHT = (0.11, 0.20, 0.31)             # the expedition cards

CELL = 11 * MM                         # a chamber: room for a pen's cross
QR_CARD = 11 * MM                      # the QR code on a card face
SAFE = 3.5 * MM
FRAME = 2.5 * MM                       # the colour frame inside the trim

TITLE = "Silver & Gold – Pyramids"     # the box title; not translated (spec §1)


# --------------------------------------------------------------------------------------------
# The symbols (our art): drawn in a square of ``size`` points at (x, y), from shapes given in a
# 100 × 100 box with y pointing down, as in the phone page's SVG.
# --------------------------------------------------------------------------------------------


class _Pen:
    """Paths in the symbols' 100-unit box, mapped onto the page."""

    def __init__(self, canvas, x: float, y: float, size: float):
        self.c, self.x, self.y, self.k = canvas, x, y, size / 100

    def xy(self, u: float, v: float) -> tuple[float, float]:
        return self.x + u * self.k, self.y + (100 - v) * self.k

    def path(self, points: Sequence, close: bool = True):
        """A path through points; a point of 4 or 6 numbers is a curve (quadratic: control,
        end; cubic: two controls, end) from the previous point."""
        p = self.c.beginPath()
        last = None
        for point in points:
            if len(point) == 2:
                if last is None:
                    p.moveTo(*self.xy(*point))
                else:
                    p.lineTo(*self.xy(*point))
                last = point
            elif len(point) == 4:                       # quadratic, as a cubic
                qx, qy, ex, ey = point
                c1 = (last[0] + 2 / 3 * (qx - last[0]), last[1] + 2 / 3 * (qy - last[1]))
                c2 = (ex + 2 / 3 * (qx - ex), ey + 2 / 3 * (qy - ey))
                p.curveTo(*self.xy(*c1), *self.xy(*c2), *self.xy(ex, ey))
                last = (ex, ey)
            else:
                a, b, cc, d, ex, ey = point
                p.curveTo(*self.xy(a, b), *self.xy(cc, d), *self.xy(ex, ey))
                last = (ex, ey)
        if close:
            p.close()
        return p

    def draw(self, points, fill, stroke=INK, width: float = 5, close: bool = True) -> None:
        c = self.c
        if fill is not None:
            c.setFillColorRGB(*fill)
        if stroke is not None:
            c.setStrokeColorRGB(*stroke)
            c.setLineWidth(width * self.k)
            c.setLineJoin(1)
        c.drawPath(self.path(points, close), stroke=stroke is not None, fill=fill is not None)

    def circle(self, u: float, v: float, r: float, fill, stroke=None, width: float = 4) -> None:
        c = self.c
        c.setFillColorRGB(*fill)
        if stroke is not None:
            c.setStrokeColorRGB(*stroke)
            c.setLineWidth(width * self.k)
        c.circle(*self.xy(u, v), r * self.k, stroke=stroke is not None, fill=1)

    def rect(self, u: float, v: float, w: float, h: float, fill, stroke=None,
             width: float = 4) -> None:
        self.draw([(u, v), (u + w, v), (u + w, v + h), (u, v + h)], fill, stroke, width)

    def line(self, points, colour=INK, width: float = 3) -> None:
        self.draw(points, None, colour, width, close=False)


def draw_symbol(canvas, code: str, x: float, y: float, size: float) -> None:
    """One chamber symbol (spec §2.1 code) in the square (x, y, size)."""
    pen = _Pen(canvas, x, y, size)
    canvas.saveState()
    if code == pt.Cell.ENTRANCE:          # an arrow into the chamber
        pen.draw([(50, 90), (18, 52), (38, 52), (38, 10), (62, 10), (62, 52), (82, 52)],
                 (0.11, 0.24, 0.35), (1, 1, 1), 4)
    elif code == pt.Cell.TOMB:            # a golden door
        pen.draw([(24, 92), (24, 42), (24, 10, 50, 10), (76, 10, 76, 42), (76, 92)], GOLD,
                 GOLD_DARK, 6)
        pen.draw([(38, 92), (38, 50), (38, 34, 50, 34), (62, 34, 62, 50), (62, 92)], GOLD_DARK,
                 None)
        pen.circle(50, 22, 5, GOLD_DARK)
    elif code == pt.Cell.RED_CROSS:       # a plus sign: the marks players make are diagonal
        pen.draw([(38, 10), (62, 10), (62, 38), (90, 38), (90, 62), (62, 62), (62, 90),
                  (38, 90), (38, 62), (10, 62), (10, 38), (38, 38)], (0.84, 0.16, 0.16),
                 (0.42, 0.05, 0.05), 5)
    elif code == pt.Cell.RED_GEM:         # a diamond
        pen.draw([(50, 8), (88, 46), (50, 92), (12, 46)], (0.88, 0.19, 0.19), (0.36, 0.04, 0.04),
                 6)
        pen.line([(12, 46), (88, 46)], (0.36, 0.04, 0.04))
        pen.line([(32, 46), (50, 92), (68, 46)], (0.36, 0.04, 0.04))
        pen.line([(32, 46), (50, 8), (68, 46)], (0.36, 0.04, 0.04))
    elif code == pt.Cell.GREEN_GEM:       # an octagon, cut square
        pen.draw([(32, 12), (68, 12), (88, 32), (88, 68), (68, 88), (32, 88), (12, 68), (12, 32)],
                 (0.18, 0.62, 0.27), (0.04, 0.24, 0.09), 6)
        pen.rect(32, 32, 36, 36, (0.55, 0.91, 0.60), (0.04, 0.24, 0.09), 3)
    elif code == pt.Cell.TORCH:           # a flame on a stick
        pen.rect(42, 50, 16, 44, (0.48, 0.29, 0.12), (0.23, 0.13, 0.04), 4)
        pen.draw([(50, 6), (74, 28, 72, 50, 50, 54), (28, 50, 26, 28, 50, 6)],
                 (0.96, 0.62, 0.0), (0.70, 0.23, 0.0), 5)
        pen.draw([(50, 26), (60, 36, 58, 46, 50, 48), (42, 46, 40, 36, 50, 26)],
                 (1.0, 0.88, 0.40), None)
    elif code == pt.Cell.SKULL:
        pen.draw([(50, 8), (76, 8, 88, 26, 86, 46), (85, 58, 78, 64, 72, 66), (72, 84),
                  (72, 92, 64, 92), (36, 92), (28, 92, 28, 84), (28, 66),
                  (22, 64, 15, 58, 14, 46), (12, 26, 24, 8, 50, 8)], (0.97, 0.97, 0.98),
                 (0.13, 0.15, 0.16), 6)
        pen.circle(36, 44, 10, (0.13, 0.15, 0.16))
        pen.circle(64, 44, 10, (0.13, 0.15, 0.16))
        pen.draw([(50, 56), (44, 66), (56, 66)], (0.13, 0.15, 0.16), None)
        for u in (42, 50, 58):
            pen.line([(u, 78), (u, 90)], (0.13, 0.15, 0.16), 4)
    elif code == pt.Cell.POTION:          # a round flask
        pen.rect(40, 6, 20, 10, (0.48, 0.29, 0.12), (0.17, 0.10, 0.03), 4)
        pen.draw([(42, 16), (58, 16), (58, 40), (74, 45, 84, 56, 84, 68),
                  (84, 84, 70, 94, 50, 94), (30, 94, 16, 84, 16, 68), (16, 56, 26, 45, 42, 40)],
                 (1, 1, 1), (0.12, 0.06, 0.28), 6)
        pen.draw([(19, 66), (34, 58, 66, 74, 81, 66), (82, 82, 68, 90, 50, 90),
                  (32, 90, 18, 82, 19, 66)], (0.44, 0.28, 0.91), None)
    canvas.restoreState()


def draw_pyramid(canvas, x: float, y: float, width: float, height: float,
                 fill=GOLD, stroke=GOLD_DARK) -> None:
    """The pyramid over every card: a triangle in courses of stone."""
    c = canvas
    c.saveState()
    c.setFillColorRGB(*fill)
    c.setStrokeColorRGB(*stroke)
    c.setLineWidth(max(0.5, height / 40))
    p = c.beginPath()
    p.moveTo(x, y)
    p.lineTo(x + width, y)
    p.lineTo(x + width / 2, y + height)
    p.close()
    c.drawPath(p, stroke=1, fill=1)
    c.setLineWidth(max(0.3, height / 70))
    for k in (1, 2, 3):
        level = y + height * k / 4
        half = width / 2 * (1 - k / 4)
        c.line(x + width / 2 - half, level, x + width / 2 + half, level)
    c.line(x + width / 2, y + height, x + width * 0.62, y)
    c.restoreState()


# --------------------------------------------------------------------------------------------
# Card faces
# --------------------------------------------------------------------------------------------


def _background(s: Surface, colour) -> None:
    """The card's colour to the edge of the bleed, and the parchment panel inside its frame."""
    c, w, h, b = s.canvas, s.width, s.height, s.bleed
    c.setFillColorRGB(*colour)
    c.rect(-b, -b, w + 2 * b, h + 2 * b, stroke=0, fill=1)
    c.setFillColorRGB(*PARCHMENT)
    c.roundRect(FRAME, FRAME, w - 2 * FRAME, h - 2 * FRAME, 2 * MM, stroke=0, fill=1)


def _qr(s: Surface, url: str, x: float, y: float, size: float = QR_CARD) -> None:
    s.canvas.setFillColorRGB(1, 1, 1)
    s.canvas.rect(x, y, size, size, stroke=0, fill=1)
    s.qr(url, x, y, size)


def draw_grid(c, grid: Sequence[str], x: float, y: float, cell: float) -> None:
    """A 5×5 chamber grid with its top-left corner at (x, y + 5 cells): walls solid with
    mortar lines, every other chamber a white square with its symbol, small enough to leave
    room for a pen's cross over it."""
    size = pt.GRID
    c.saveState()
    for r in range(size):
        for col in range(size):
            code = grid[r][col]
            cx, cy = x + col * cell, y + (size - 1 - r) * cell
            if code == pt.Cell.WALL:
                c.setFillColorRGB(*WALL)
                c.rect(cx, cy, cell, cell, stroke=0, fill=1)
                c.setStrokeColorRGB(*MORTAR)
                c.setLineWidth(0.6)
                for k in (1, 2):
                    c.line(cx, cy + cell * k / 3, cx + cell, cy + cell * k / 3)
                for k, row in ((0.5, 0), (0.25, 1), (0.75, 1), (0.5, 2)):
                    c.line(cx + cell * k, cy + cell * row / 3, cx + cell * k,
                           cy + cell * (row + 1) / 3)
            else:
                c.setFillColorRGB(1, 1, 1)
                c.rect(cx, cy, cell, cell, stroke=0, fill=1)
                if code != pt.Cell.FLOOR:
                    inset = cell * 0.2
                    draw_symbol(c, code, cx + inset, cy + inset, cell - 2 * inset)
    c.setStrokeColorRGB(*INK)
    c.setLineWidth(0.7)
    for k in range(size + 1):
        c.line(x + k * cell, y, x + k * cell, y + size * cell)
        c.line(x, y + k * cell, x + size * cell, y + k * cell)
    c.setLineWidth(1.4)
    c.rect(x, y, size * cell, size * cell, stroke=1, fill=0)
    c.restoreState()


def pyramid_front(card, qr_url: str) -> Draw:
    """A pyramid card: its number in the left corner (spec §2), the pyramid, its colour named
    in words, the 5×5 chambers, a QR code."""
    def draw(s: Surface) -> None:
        c, t, w, h = s.canvas, s.t, s.width, s.height
        colour = COLOURS[card.colour]
        _background(s, colour)
        top = h - FRAME
        # the number, in the left corner
        box = 9.5 * MM
        c.setFillColorRGB(*colour)
        c.roundRect(SAFE, top - 1 * MM - box, box * 1.25, box, 1.5 * MM, stroke=0, fill=1)
        c.setFillColorRGB(1, 1, 1)
        draw_text(c, str(card.number), SAFE, top - 1 * MM - box, box * 1.25, box,
                  font=SANS_BOLD, size=17, max_lines=1, align="center")
        draw_pyramid(c, w / 2 - 9 * MM, top - 10.5 * MM, 18 * MM, 9.5 * MM)
        c.setFillColorRGB(*colour)
        draw_text(c, t(pt.COLOUR_LABELS[card.colour]), w / 2 + 9.5 * MM, top - 10.5 * MM,
                  w - SAFE - (w / 2 + 9.5 * MM), 9.5 * MM, font=SANS_BOLD, size=9,
                  min_size=5, max_lines=1, align="right")
        grid_w = pt.GRID * CELL
        gx = (w - grid_w) / 2
        gy = top - 12.5 * MM - grid_w
        draw_grid(c, card.grid, gx, gy, CELL)
        _qr(s, qr_url, w - SAFE * 0.8 - QR_CARD, SAFE * 0.8)
        c.setFillColorRGB(*INK)
        draw_text(c, TITLE, SAFE, SAFE * 0.8 + 5 * MM, w - 2 * SAFE - QR_CARD, 4 * MM,
                  font=SANS_BOLD, size=6.5, min_size=4.5, max_lines=1)
        c.setFillGray(0.35)
        draw_text(c, t(N_("Our print-and-play edition · card %(number)d of %(count)d"),
                       number=card.number, count=pt.CARD_COUNT),
                  SAFE, SAFE * 0.8, w - 2 * SAFE - QR_CARD, 5 * MM, size=5.5, min_size=4,
                  max_lines=2)
    return draw


def pyramid_back(qr_url: str) -> Draw:
    """The back every pyramid card shares: nothing tells its colour or number."""
    def draw(s: Surface) -> None:
        c, t, w, h, b = s.canvas, s.t, s.width, s.height, s.bleed
        c.setFillColorRGB(*BAND)
        c.rect(-b, -b, w + 2 * b, h + 2 * b, stroke=0, fill=1)
        c.setStrokeColorRGB(*GOLD)
        c.setLineWidth(1.2)
        c.roundRect(FRAME, FRAME, w - 2 * FRAME, h - 2 * FRAME, 2 * MM, stroke=1, fill=0)
        draw_pyramid(c, w * 0.14, h * 0.42, w * 0.72, h * 0.34)
        c.setFillColorRGB(*GOLD)
        draw_text(c, TITLE, SAFE, h * 0.80, w - 2 * SAFE, 9 * MM, font=SANS_BOLD, size=12,
                  max_lines=2, align="center")
        c.setFillColorRGB(1, 1, 1)
        draw_text(c, t(N_("Pyramid card")), SAFE, h * 0.31, w - 2 * SAFE, 6 * MM,
                  font=SANS_BOLD, size=10, max_lines=1, align="center")
        _qr(s, qr_url, (w - QR_CARD) / 2, SAFE * 1.2)
        c.setFillColorRGB(*GOLD)
        draw_text(c, t(N_("Our print-and-play edition")), SAFE, SAFE * 1.2 + QR_CARD + 1 * MM,
                  w - 2 * SAFE, 5 * MM, size=7, min_size=4.5, max_lines=1, align="center")
    return draw


def expedition_front(shape: str, qr_url: str) -> Draw:
    """An expedition card: the pattern every player marks, its cells as chambers."""
    def draw(s: Surface) -> None:
        c, t, w, h = s.canvas, s.t, s.width, s.height
        _background(s, NIGHT)
        top = h - FRAME
        c.setFillColorRGB(*NIGHT)
        draw_text(c, t(N_("Expedition card")), SAFE, top - 9 * MM, w - 2 * SAFE, 8 * MM,
                  font=SANS_BOLD, size=11, max_lines=1, align="center")
        cells = pt.SHAPES[shape]
        rows = 1 + max(r for r, _ in cells)
        cols = 1 + max(col for _, col in cells)
        low, high = 31 * MM, top - 12 * MM          # the pattern's area, between the texts
        cell = min(12 * MM, (w - 2 * SAFE) / cols, (high - low) / rows)
        ox = (w - cols * cell) / 2
        oy = (low + high) / 2 + rows * cell / 2     # the pattern's top edge
        for r, col in cells:
            x0, y0 = ox + col * cell, oy - (r + 1) * cell
            c.setStrokeColorRGB(*INK)
            c.setLineWidth(1.2)
            c.setFillColorRGB(0.74, 0.85, 0.93)
            c.rect(x0, y0, cell, cell, stroke=1, fill=1)
            c.setStrokeColorRGB(*NIGHT)
            c.setLineWidth(2)
            inset = cell * 0.25
            c.line(x0 + inset, y0 + inset, x0 + cell - inset, y0 + cell - inset)
            c.line(x0 + inset, y0 + cell - inset, x0 + cell - inset, y0 + inset)
        c.setFillColorRGB(*INK)
        draw_text(c, t(pt.SHAPE_LABELS[shape]), SAFE, 23 * MM, w - 2 * SAFE, 7 * MM,
                  font=SANS_BOLD, size=11, max_lines=1, align="center")
        c.setFillGray(0.3)
        draw_text(c, t(N_("Turn it or mirror it; or mark one chamber instead.")), SAFE,
                  15.5 * MM, w - 2 * SAFE, 7 * MM, size=7, min_size=5, max_lines=2,
                  align="center")
        _qr(s, qr_url, w - SAFE * 0.8 - QR_CARD, SAFE * 0.8)
        c.setFillColorRGB(*INK)
        draw_text(c, TITLE, SAFE, SAFE * 0.8, w - 2 * SAFE - QR_CARD, 5 * MM,
                  font=SANS_BOLD, size=6.5, min_size=4.5, max_lines=1)
    return draw


def expedition_back(qr_url: str) -> Draw:
    """The back every expedition card shares: a path of chambers."""
    def draw(s: Surface) -> None:
        c, t, w, h, b = s.canvas, s.t, s.width, s.height, s.bleed
        c.setFillColorRGB(*NIGHT)
        c.rect(-b, -b, w + 2 * b, h + 2 * b, stroke=0, fill=1)
        c.setStrokeColorRGB(0.74, 0.85, 0.93)
        c.setLineWidth(1.2)
        c.roundRect(FRAME, FRAME, w - 2 * FRAME, h - 2 * FRAME, 2 * MM, stroke=1, fill=0)
        step = 7 * MM
        path = [(0, 0), (1, 0), (1, 1), (2, 1), (2, 2), (3, 2), (3, 3), (4, 3)]
        ox, oy = w / 2 - 2.5 * step, h * 0.40
        for col, row in path:
            c.setFillColorRGB(0.74, 0.85, 0.93)
            c.rect(ox + col * step, oy + row * step, step * 0.9, step * 0.9, stroke=0, fill=1)
        c.setFillColorRGB(*GOLD)
        draw_text(c, TITLE, SAFE, h * 0.80, w - 2 * SAFE, 9 * MM, font=SANS_BOLD, size=12,
                  max_lines=2, align="center")
        c.setFillColorRGB(1, 1, 1)
        draw_text(c, t(N_("Expedition card")), SAFE, h * 0.31, w - 2 * SAFE, 6 * MM,
                  font=SANS_BOLD, size=10, max_lines=1, align="center")
        _qr(s, qr_url, (w - QR_CARD) / 2, SAFE * 1.2)
    return draw


# --------------------------------------------------------------------------------------------
# The scoring card (spec §2.3) with our skull penalties
# --------------------------------------------------------------------------------------------

BOX = 7.6 * MM                          # a box to tick


def _boxes(s: Surface, x: float, y: float, count: int, labels: Sequence[str] = (),
           symbol: str | None = None, colour=INK, box: float = BOX) -> None:
    """A row of ``count`` boxes from (x, y) (bottom-left), each with its label or a light
    symbol to tick over."""
    c = s.canvas
    gap = 1.2 * MM
    for i in range(count):
        bx = x + i * (box + gap)
        c.setFillColorRGB(1, 1, 1)
        c.setStrokeColorRGB(*colour)
        c.setLineWidth(1)
        c.roundRect(bx, y, box, box, 1 * MM, stroke=1, fill=1)
        if symbol:
            c.saveState()
            c.setFillAlpha(0.35)
            c.setStrokeAlpha(0.35)
            draw_symbol(c, symbol, bx + box * 0.18, y + box * 0.18, box * 0.64)
            c.restoreState()
        if i < len(labels):
            if colour == INK:
                c.setFillGray(0.4)              # light enough for a tick to show over it
            else:
                c.setFillColorRGB(*colour)
            draw_text(c, labels[i], bx, y, box, box, font=SANS_BOLD, size=8, min_size=5,
                      max_lines=1, align="center")


def scoring_card(qr_url: str) -> Draw:
    """One player's scoring card: gems, torches by round, skulls with their penalties, the
    race boxes, and the end tally (spec §2.3, §9)."""
    rows = ours.SCORING_CARD_ROWS

    def draw(s: Surface) -> None:
        c, t, w, h = s.canvas, s.t, s.width, s.height
        c.setFillColorRGB(*PARCHMENT)
        c.rect(0, 0, w, h, stroke=0, fill=1)
        c.setFillColorRGB(*BAND)
        c.rect(0, h - 11 * MM, w, 11 * MM, stroke=0, fill=1)
        c.setFillColorRGB(1, 1, 1)
        draw_text(c, t(N_("Scoring card")), 4 * MM, h - 11 * MM, w * 0.45, 11 * MM,
                  font=SANS_BOLD, size=12, max_lines=1)
        c.setStrokeColorRGB(1, 1, 1)
        c.setLineWidth(0.6)
        draw_text(c, t(N_("Name")), w * 0.5, h - 11 * MM, 12 * MM, 11 * MM, size=7,
                  max_lines=1)
        c.line(w * 0.5 + 12 * MM, h - 8 * MM, w - 4 * MM, h - 8 * MM)
        label_w = 23 * MM
        x0 = 4 * MM + label_w
        y = h - 14 * MM
        gap = 1.2 * MM

        def section(label: str, hint: str, lines: int) -> float:
            nonlocal y
            height = lines * (BOX + gap) + 1 * MM
            y -= height
            c.setFillColorRGB(*INK)
            draw_text(c, label, 4 * MM, y + height - 5 * MM, label_w - 1 * MM, 5 * MM,
                      font=SANS_BOLD, size=8, min_size=5, max_lines=1)
            c.setFillGray(0.35)
            draw_text(c, hint, 4 * MM, y, label_w - 1 * MM, height - 5 * MM, size=5.6,
                      min_size=4, max_lines=3, valign="top")
            return y + height - BOX - 0.5 * MM

        top = section(t(N_("Red gems")), t(N_("next box, top row first")),
                      len(rows["red_gems"]))
        for k, count in enumerate(rows["red_gems"]):
            _boxes(s, x0, top - k * (BOX + gap), count, symbol=pt.Cell.RED_GEM)
        top = section(t(N_("Green gems")), t(N_("next box, top row first")),
                      len(rows["green_gems"]))
        for k, count in enumerate(rows["green_gems"]):
            _boxes(s, x0, top - k * (BOX + gap), count, symbol=pt.Cell.GREEN_GEM)
        top = section(t(N_("Torches")), t(N_("only this round's box")), 1)
        _boxes(s, x0, top, pt.TORCH_BOXES, [str(n) for n in range(1, pt.TORCH_BOXES + 1)])
        top = section(t(N_("Skulls")), t(N_("next box; a potion erases the 2 worst")),
                      len(rows["skulls"]))
        start = 0
        for k, count in enumerate(rows["skulls"]):
            labels = [f"−{p}" for p in ours.SKULL_PENALTIES[start:start + count]]
            _boxes(s, x0, top - k * (BOX + gap), count, labels)
            start += count
        top = section(t(N_("Pyramid points")), t(N_("2nd, 4th, 6th card of a colour")),
                      len(pt.COLOURS))
        for k, colour in enumerate(pt.COLOURS):
            yy = top - k * (BOX + gap)
            c.setFillColorRGB(*COLOURS[colour])
            draw_text(c, t(pt.COLOUR_LABELS[colour]), x0, yy, 16 * MM, BOX, font=SANS_BOLD,
                      size=7, min_size=4.5, max_lines=1)
            _boxes(s, x0 + 17 * MM, yy, len(pt.RACE_BOXES), [str(v) for v in pt.RACE_BOXES],
                   colour=COLOURS[colour])
        # the end tally
        y -= 2 * MM
        tally = [(N_("Completed × %(n)d"), {"n": pt.POINTS_PER_COMPLETED}),
                 (N_("Torches × %(n)d"), {"n": pt.POINTS_PER_TORCH}),
                 (N_("Pyramid points"), {}),
                 (N_("Gem pairs × %(n)d"), {"n": pt.POINTS_PER_GEM_PAIR}),
                 (N_("Single gems × %(n)d"), {"n": pt.POINTS_PER_SINGLE_GEM}),
                 (N_("Worst skull −"), {}), (N_("Total"), {})]
        qr_room = QR_CARD + 2 * MM
        columns = 4
        cell_w = (w - 8 * MM - qr_room) / columns
        cell_h = min(9 * MM, (y - 3 * MM) / 2)
        for i, (label, params) in enumerate(tally):
            col, row = i % columns, i // columns
            bx, by = 4 * MM + col * cell_w, y - (row + 1) * cell_h
            c.setStrokeColorRGB(*INK)
            c.setLineWidth(1.3 if label == N_("Total") else 0.6)
            c.setFillColorRGB(1, 1, 1)
            c.rect(bx, by, cell_w - 1 * MM, cell_h - 0.6 * MM, stroke=1, fill=1)
            c.setFillGray(0.3)
            draw_text(c, t(label, **params), bx + 0.8 * MM, by + cell_h * 0.55,
                      cell_w - 2.6 * MM, cell_h * 0.4, size=5.6, min_size=4, max_lines=1)
        _qr(s, qr_url, w - 2 * MM - QR_CARD, 2 * MM)
    return draw


# --------------------------------------------------------------------------------------------
# The printouts
# --------------------------------------------------------------------------------------------

PRINT_SHOP_BLEED = 3.0


def edition_cards(qr_url: str) -> list[Card]:
    """Our 48 pyramid cards, then our 8 expedition cards, each with its back."""
    back = pyramid_back(qr_url)
    cards = [Card(pyramid_front(card, qr_url), back) for card in ours.CARDS]
    expedition = expedition_back(qr_url)
    cards += [Card(expedition_front(shape, qr_url), expedition)
              for shape in ours.EXPEDITION_DECK]
    return cards


def _card_sheets(sides: str, bleed: float, title: str) -> Callable[..., bytes]:
    def make(*, page: str = "a4", lang: str = "en", qr_url: str) -> bytes:
        url = check_url(qr_url)
        grid = card_grid(page, "poker", bleed=bleed, sides=sides)
        t = translator(lang)
        writer = PdfWriter(grid.page, lang=lang, subject=url,
                           title=f"{TITLE} · {t(title)}")
        writer.cards(grid, edition_cards(url))
        return writer.finish()
    return make


SCORING_CARD_SIZE = "95x130"            # 4 to an A4 or Letter page


def scoring_cards(*, page: str = "a4", lang: str = "en", qr_url: str) -> bytes:
    """A page of our scoring cards (4), one per player and game: they are written on."""
    url = check_url(qr_url)
    grid = card_grid(page, SCORING_CARD_SIZE)
    t = translator(lang)
    writer = PdfWriter(grid.page, lang=lang, subject=url,
                       title=f"{TITLE} · {t(N_('Scoring cards'))}")
    writer.cards(grid, [Card(scoring_card(url))] * grid.per_page)
    return writer.finish()


# --------------------------------------------------------------------------------------------
# The score pad (spec §11) and the reference card
# --------------------------------------------------------------------------------------------


def pad_rows() -> tuple[PadRow, ...]:
    """Spec §11: the race boxes (each ticked in the column of the player who claimed it), then
    the end tally, then the tie-break."""
    labels = pt.CATEGORY_LABELS
    rows = [PadRow("section", N_("Pyramid points: tick the box in the claimer's column"))]
    reasons = {2: N_("for the 2nd completed card of the colour"),
               4: N_("for the 4th completed card of the colour"),
               6: N_("for the 6th completed card of the colour")}
    for colour in pt.COLOURS:
        for value, threshold in zip(pt.RACE_BOXES, pt.RACE_THRESHOLDS):
            rows.append(PadRow("entry", N_("Race box %(points)d, %(colour)s"),
                               reasons[threshold],
                               {"colour": pt.COLOUR_LABELS[colour], "points": value}))
    rows += [
        PadRow("section", N_("At the end")),
        PadRow("entry", labels["completed"], N_("%(n)d per completed card"),
               {"n": pt.POINTS_PER_COMPLETED}),
        PadRow("entry", labels["torches"], N_("%(n)d per torch box"),
               {"n": pt.POINTS_PER_TORCH}),
        PadRow("entry", labels["race"], N_("the boxes ticked above")),
        PadRow("entry", N_("Red gems"), N_("0 to 10")),
        PadRow("entry", N_("Green gems"), N_("0 to 10")),
        PadRow("entry", labels["gem_pairs"], N_("%(n)d per red and green pair"),
               {"n": pt.POINTS_PER_GEM_PAIR}),
        PadRow("entry", labels["single_gems"], N_("%(n)d per gem left over"),
               {"n": pt.POINTS_PER_SINGLE_GEM}),
        PadRow("entry", labels["skull"], N_("minus the worst ticked box's penalty")),
        PadRow("result", N_("Total")),
        PadRow("entry", N_("Lowest completed card number"),
               N_("the lowest number wins a tie")),
        PadRow("result", N_("Rank")),
    ]
    return tuple(rows)


def during_card(t: Translator):
    """Front: a turn, and what each chamber does (spec §4-§7)."""
    return t(N_("Pyramids · a turn")), [
        Para(t(N_("1. Turn up an expedition card. 2. Everyone marks its pattern on one of "
                  "their two cards — turned or mirrored — or one chamber instead."))),
        Para(t(N_("The first marking of a card includes its entrance; every later one touches "
                  "an earlier mark (not diagonally). Walls are never marked."))),
        Line(t(pt.CELL_LABELS["X"]), t(N_("mark one more chamber"))),
        Line(t(N_("gem")), t(N_("tick a gem box of its colour"))),
        Line(t(pt.CELL_LABELS["T"]), t(N_("this round's torch box"))),
        Line(t(pt.CELL_LABELS["S"]), t(N_("tick the next skull box"))),
        Line(t(pt.CELL_LABELS["P"]), t(N_("erase the 2 worst skulls"))),
        Line(t(pt.CELL_LABELS["B"]), t(N_("card completed"))),
        Para(t(N_("A completed card is set aside: take a new one from the offer or the deck, "
                  "then refill the offer to 4.")), grey=True),
    ]


def end_card(t: Translator):
    """Back: the race and the end (spec §8, §9)."""
    return t(N_("Pyramids · points")), [
        Heading(t(pt.CATEGORY_LABELS["race"])),
        Para(t(N_("Your 2nd, 4th and 6th completed card of a colour claims that colour's "
                  "highest open box: 10, then 6, then 3. The lowest card number claims "
                  "first."))),
        Gap(),
        Line(t(N_("Completed card")), str(pt.POINTS_PER_COMPLETED)),
        Line(t(N_("Torch box")), str(pt.POINTS_PER_TORCH)),
        Line(t(N_("Red and green gem pair")), str(pt.POINTS_PER_GEM_PAIR)),
        Line(t(N_("Gem left over")), str(pt.POINTS_PER_SINGLE_GEM)),
        Line(t(N_("Worst ticked skull")), t(N_("its penalty"))),
        Para(t(N_("Our skull boxes: %(list)s."),
               list=" ".join(f"−{p}" for p in ours.SKULL_PENALTIES)), grey=True),
        Para(t(N_("4 rounds of 7 turns. Tie: the lowest completed card number wins."))),
    ]


CONTENT = register(GamePrint(
    game="pyramids",
    pad=PadSpec(N_("Silver & Gold – Pyramids · score pad"), pad_rows(),
                N_("Tick the race boxes as they are claimed; add up the rest at the end.")),
    cards=(ReferenceCard(during_card, end_card),),
    extras=(
        Printout("cards", N_("Our print-and-play cards (48 pyramid and 8 expedition cards, "
                             "printed on both sides)"),
                 _card_sheets("duplex", 0.0, N_("Our print-and-play cards"))),
        Printout("cards-fold", N_("Our print-and-play cards to fold (backs beside the fronts)"),
                 _card_sheets("gutter", 0.0, N_("Our print-and-play cards"))),
        Printout("cards-print-shop", N_("Our print-and-play cards for a print shop (3 mm bleed, "
                                        "crop marks)"),
                 _card_sheets("duplex", PRINT_SHOP_BLEED, N_("Our print-and-play cards"))),
        Printout("scoring", N_("Our scoring cards (4 to a page)"), scoring_cards),
    ),
    band=BAND))
