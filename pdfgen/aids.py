"""Play aids: the machinery that prints any game's full-page aid sheets and double-faced
reference cards, poker size (or mini, or any size) on A4 or Letter.

What is printed comes from the game's own module through :mod:`.registry`. Aid sheets get the
shared header (title, the sheet's introduction, the QR code); every card face gets a small QR
code in its corner, so a card cut from the sheet still leads to the game's score form.
Reference cards are double-faced (front: what scores during the game; back: the end); printed
``single`` each face is its own card, ``duplex`` puts the backs on the reverse of the sheet,
mirrored, and ``gutter`` puts them beside the fronts to fold and glue.
"""

from __future__ import annotations

from .cardface import card_face
from .document import Card, PdfWriter, Surface
from .errors import PrintError
from .geometry import card_grid, sheet_geometry
from .i18n import N_, translator
from .pads import HEADER, check_url, draw_header
from .registry import AidSheet, game_print, ruleset_of

MAX_COPIES = 50
FOOTER = N_("Scribe · reference card")
CAPTION = N_("Scan to enter the scores")


def reference_cards(game: str, qr_url: str) -> list[Card]:
    """The game's double-faced reference cards (one set), each face with ``qr_url``'s code."""
    content = game_print(game)
    return [Card(card_face(card.front, content.band, FOOTER, qr_url),
                 card_face(card.back, content.band, FOOTER, qr_url) if card.back else None)
            for card in content.cards]


def draw_aid_sheet(s: Surface, sheet: AidSheet, url: str) -> None:
    """One full-page aid: the shared header with the QR code, then the sheet's own drawing."""
    draw_header(s, sheet.title, url, CAPTION, intro=sheet.intro(s.t), date_place=False)
    sheet.draw(Surface(s.canvas, s.width, s.height - HEADER, 0.0, s.t, s.doc))


def play_aids(game: str, *, page: str = "a4", lang: str = "en", qr_url: str,
              copies: int | None = None, sides: str = "single", bleed: float = 0.0,
              card: str = "poker", aid_sheets: bool = True) -> bytes:
    """The play aids of ``game`` as PDF bytes: its full-page aid sheets (unless
    ``aid_sheets`` is False), then ``copies`` sets of reference cards (default: one per
    player of a full table). Every page carries ``qr_url`` as a QR code."""
    content = game_print(game)
    catalogue = ruleset_of(game).catalogue
    copies = max(catalogue.player_counts) if copies is None else copies
    if isinstance(copies, bool) or not isinstance(copies, int) or not 1 <= copies <= MAX_COPIES:
        raise PrintError("print.bad_copies", N_("Print 1 to %(max)d copies."), "copies",
                         max=MAX_COPIES)
    grid = card_grid(page, card, bleed=bleed, sides=sides)
    url = check_url(qr_url)
    sheets = content.sheets if aid_sheets else ()
    if not sheets and not content.cards:
        raise PrintError("print.no_aids", N_("There are no play aids for %(game)s."), "game",
                         game=catalogue.name(lang))
    t = translator(lang)
    writer = PdfWriter(grid.page, lang=lang, subject=url,
                       title=f"{catalogue.name(lang)} · {t(N_('Play aids'))}")
    geometry = sheet_geometry(page)
    for sheet in sheets:
        writer.sheet(geometry, lambda s, sheet=sheet: draw_aid_sheet(s, sheet, url))
    cards = reference_cards(game, url) * copies
    if sides == "single":            # each face its own card: fronts and backs side by side
        cards = [Card(face) for c in cards for face in (c.front, c.back) if face]
    writer.cards(grid, cards)
    return writer.finish()
