"""Player cards: one poker card per seat with the player's name and colour, the table's QR
code (scan to join) and the seat's own link, for a live table.

Input is plain data (:class:`SeatCard`), so this module never needs the database or the web
layer; :mod:`companion.services.printing` builds it from a table's seats.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from .document import Card, Draw, PdfWriter, Surface
from .errors import PrintError
from .fonts import SANS_BOLD
from .geometry import MM, card_grid
from .i18n import N_
from .pads import check_url, colour_of
from .text import clean_text, draw_text

BAND = (0.16, 0.16, 0.2)
MAX_SEATS = 12


@dataclass(frozen=True)
class SeatCard:
    """What one player card shows."""

    position: int                  # 0-based seat number
    name: str
    colour: str | None
    join_url: str                  # the seat's own link (printed)


def player_cards(game_name: str, seats: Sequence[SeatCard], *, table_url: str,
                 code: str | None = None, page: str = "a4", lang: str = "en",
                 card: str = "poker", bleed: float = 0.0) -> bytes:
    """One card per seat, as PDF bytes: the QR code opens ``table_url``."""
    if not seats:
        raise PrintError("print.no_seats", N_("The table has no seats to print cards for."),
                         "seats")
    if len(seats) > MAX_SEATS:
        raise PrintError("print.too_many_seats", N_("At most %(max)d player cards at once."),
                         "seats", max=MAX_SEATS)
    table_url = check_url(table_url, "table_url")
    game_name = clean_text(game_name, "game")
    code = clean_text(code, "code") if code else None
    clean = [SeatCard(s.position, clean_text(s.name, f"seats.{i}.name"), s.colour,
                      check_url(s.join_url, f"seats.{i}.join_url"))
             for i, s in enumerate(seats)]
    grid = card_grid(page, card, bleed=bleed)
    writer = PdfWriter(grid.page, lang=lang, title=game_name, subject=table_url)
    writer.cards(grid, [Card(_face(game_name, seat, table_url, code)) for seat in clean])
    return writer.finish()


def _face(game_name: str, seat: SeatCard, table_url: str, code: str | None) -> Draw:
    def draw(s: Surface) -> None:
        c, t, w, h, b = s.canvas, s.t, s.width, s.height, s.bleed
        safe = 3.5 * MM
        band = 9 * MM
        c.setFillColorRGB(*BAND)
        c.rect(-b, h - band, w + 2 * b, band + b, stroke=0, fill=1)
        c.setFillGray(1)
        draw_text(c, game_name, safe, h - band, w * 0.6 - safe, band, font=SANS_BOLD,
                  size=11, max_lines=1)
        draw_text(c, t(N_("Seat %(n)d"), n=seat.position + 1), w * 0.6, h - band,
                  w * 0.4 - safe, band, size=9, max_lines=1, align="right", lang=t.lang)

        name_top = h - band - 2 * MM
        name_h = 16 * MM
        swatch = colour_of(seat.colour)
        name_x = safe
        if swatch is not None:
            c.setFillColor(swatch)
            c.setStrokeGray(0.2)
            c.circle(safe + 3 * MM, name_top - name_h / 2, 3 * MM, stroke=1, fill=1)
            name_x = safe + 8 * MM
        c.setFillGray(0.05)
        draw_text(c, seat.name, name_x, name_top - name_h, w - name_x - safe, name_h,
                  font=SANS_BOLD, size=18, min_size=7, max_lines=2, align="center")

        # From the bottom up: the seat's link, the table code, the caption, then the QR code
        # takes what is left.
        link_h, code_h, caption_h = 7 * MM, (5 * MM if code else 0), 6 * MM
        c.setFillGray(0.35)
        label = t(N_("Your seat:"))
        draw_text(c, f"{label} {seat.join_url}", safe, safe, w - 2 * safe, link_h, size=6,
                  min_size=4.5, max_lines=3, align="center", valign="top")
        y = safe + link_h
        c.setFillGray(0.1)
        if code:
            draw_text(c, t(N_("Table code: %(code)s"), code=code), safe, y, w - 2 * safe,
                      code_h, font=SANS_BOLD, size=9, max_lines=1, align="center", lang=t.lang)
            y += code_h
        draw_text(c, t(N_("Scan to join the table, then tap your name.")), safe, y,
                  w - 2 * safe, caption_h, size=7.5, max_lines=2, align="center", lang=t.lang)
        y += caption_h + 0.5 * MM
        qr = min(w - 2 * safe, name_top - name_h - 1 * MM - y)
        s.qr(table_url, (w - qr) / 2, y, qr)
        c.setFillGray(0)

    return draw
