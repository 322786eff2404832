"""Score pads: the machinery that lays out any game's pad, for a named table or blank, as many
sheets as wanted.

What a pad holds comes from the game's own module through :mod:`.registry`: a list of
:class:`~.registry.PadRow` (drawn here as a grid of boxes, one column per player) or a
free-form :class:`~.registry.PadSheet` (its own drawing below the shared header). The header
(title, date and place, the QR code) is the same for every pad and every full-page aid sheet.
Every sheet of a pad is the same, so the sheet is drawn once and placed on each page.
"""

from __future__ import annotations

from typing import Sequence
from urllib.parse import urlsplit

from reportlab.lib import colors

from .document import PdfWriter, Surface
from .errors import LayoutError, PrintError
from .fonts import SANS, SANS_BOLD
from .geometry import MM, sheet_geometry
from .i18n import N_, translator
from .registry import GamePrint, PadPage, PadRow, PadSheet, PadSpec, game_print, ruleset_of
from .text import clean_text, draw_text, fit

__all__ = ["PadRow", "PadSpec", "PadSheet", "check_url", "colour_of", "draw_header",
           "draw_pad", "score_pad", "signed"]

MAX_SHEETS = 500


def signed(points: int) -> str:
    """+5, −2, 0: how points are printed (a real minus sign)."""
    return f"+{points}" if points > 0 else (f"−{-points}" if points < 0 else "0")


# Stone and player colours a table may name; anything else goes through ReportLab's names.
STONE_COLOURS = {"black": colors.Color(0.12, 0.12, 0.12), "white": colors.white,
                 "brown": colors.Color(0.55, 0.35, 0.18), "gray": colors.Color(0.6, 0.6, 0.6),
                 "grey": colors.Color(0.6, 0.6, 0.6)}


def colour_of(name: str | None) -> colors.Color | None:
    """A colour for a seat's colour name, or None when it names none we can draw."""
    if not name:
        return None
    key = str(name).strip().lower()
    if key in STONE_COLOURS:
        return STONE_COLOURS[key]
    try:
        return colors.toColor(key)
    except (ValueError, AttributeError, TypeError):
        return None


def check_url(url: str, field: str = "qr_url") -> str:
    """An http(s) URL of reasonable length for a QR code; PrintError otherwise."""
    parts = urlsplit(str(url or ""))
    if parts.scheme not in ("http", "https") or not parts.netloc or len(url) > 500:
        raise PrintError("print.bad_url", N_("“%(url)s” is not a web address (http:// or "
                                             "https://) a QR code can hold."), field,
                         url=str(url)[:80])
    return str(url)


def player_counts(game: str) -> tuple[int, ...]:
    """How many players ``game``'s pad may have columns for (its catalogue's counts)."""
    return tuple(ruleset_of(game).catalogue.player_counts)


def check_players(game: str, players: object, field: str = "players") -> int:
    """``players`` as a column count of ``game``'s pad, checked before anything is built."""
    counts = player_counts(game)
    if isinstance(players, bool) or not isinstance(players, int) or players not in counts:
        raise PrintError("print.bad_player_count", N_("A %(game)s pad is for %(low)d to "
                                                      "%(high)d players."), field,
                         game=ruleset_of(game).catalogue.name("en"), low=min(counts),
                         high=max(counts))
    return players


def score_pad(game: str, names: Sequence[str] | None = None, *, page: str = "a4",
              lang: str = "en", qr_url: str, sheets: int = 1, players: int | None = None,
              colours: Sequence[str | None] | None = None, qr_caption: str | None = None,
              subtitle: str | None = None) -> bytes:
    """A score pad of ``sheets`` identical pages as PDF bytes.

    ``names`` fills the name boxes (in seat order); without names the pad is blank with
    ``players`` columns (default: the most the game allows). ``qr_url`` is printed as a QR
    code: the live table, or the game's score-only form. Every size is checked before
    anything is built.
    """
    content = game_print(game)
    geometry = sheet_geometry(page)
    if isinstance(sheets, bool) or not isinstance(sheets, int) or not 1 <= sheets <= MAX_SHEETS:
        raise PrintError("print.bad_sheets", N_("A pad has 1 to %(max)d sheets."), "sheets",
                         max=MAX_SHEETS)
    if names:
        if len(names) not in player_counts(game):
            check_players(game, len(names), "names")
        names = [clean_text(n, f"names.{i}") for i, n in enumerate(names)]
        count = len(names)
    else:
        count = check_players(game, max(player_counts(game)) if players is None else players)
        names = [""] * count
    if isinstance(content.pad, PadSpec):
        row_unit(content.pad, geometry.content.height * MM)   # rows too many: refuse now
    swatches = [colour_of(c) for c in (list(colours or []) + [None] * count)[:count]]
    url = check_url(qr_url)
    subtitle = clean_text(subtitle, "subtitle") if subtitle else ""
    title = translator(lang)(content.pad.title)
    writer = PdfWriter(geometry.page, lang=lang, title=title, subject=url)
    caption = qr_caption or (N_("Scan to open this table") if any(names)
                             else N_("Scan to enter the scores"))

    def draw(surface: Surface) -> None:
        draw_pad(surface, content, names, swatches, url, caption, subtitle)

    for _sheet in range(sheets):
        writer.sheet(geometry, draw, reuse="pad")
    return writer.finish()


# --------------------------------------------------------------------------------------------
# Drawing
# --------------------------------------------------------------------------------------------

HEADER = 30 * MM
NAME_ROW = 13 * MM
FOOTER = 5 * MM
LABEL_SHARE = 0.36          # of the width, for the row labels and their reminders
MAX_ROW = 11 * MM
MIN_ROW = 6.5 * MM          # still room to write a number by hand
NOTES_MIN = 18 * MM


def row_unit(spec: PadSpec, frame_height: float) -> float:
    """The height of a full row on a frame ``frame_height`` points high; LayoutError when the
    rows would be too low to write a number in by hand."""
    units = sum(row.weight for row in spec.rows)
    room = frame_height - HEADER - NAME_ROW - FOOTER
    unit = min(MAX_ROW, room / units) if units else MAX_ROW
    if unit < MIN_ROW:
        raise LayoutError("print.pad_too_long",
                          N_("The pad has too many rows for this page: %(rows)d rows leave "
                             "%(height)s mm each, and writing needs %(min)s mm."), "page",
                          rows=len(spec.rows), height=f"{unit / MM:.1f}",
                          min=f"{MIN_ROW / MM:g}")
    return unit


def draw_pad(s: Surface, content: GamePrint, names: Sequence[str],
             swatches: Sequence[colors.Color | None], url: str, caption: str,
             subtitle: str) -> None:
    """One pad sheet in the printable frame: the shared header, then the game's rows (or its
    own drawing, for a free-form pad) below it."""
    pad = content.pad
    draw_header(s, pad.title, url, caption, subtitle=subtitle)
    body = Surface(s.canvas, s.width, s.height - HEADER, 0.0, s.t, s.doc)
    if isinstance(pad, PadSheet):
        s.canvas.saveState()
        pad.draw(body, PadPage(tuple(names), tuple(swatches)))
        s.canvas.restoreState()
        return
    _draw_rows(body, pad, names, swatches)


def _draw_rows(s: Surface, spec: PadSpec, names: Sequence[str],
               swatches: Sequence[colors.Color | None]) -> None:
    """The names and the rows of a row-based pad, below the header."""
    c, t = s.canvas, s.t
    width = s.width
    label_w = width * LABEL_SHARE
    column_w = (width - label_w) / len(names)
    body_top = s.height
    unit = row_unit(spec, s.height + HEADER)

    # Names
    y = body_top - NAME_ROW
    c.setLineWidth(0.8)
    c.setStrokeGray(0)
    draw_text(c, t(N_("Player")), 2, y, label_w - 4, NAME_ROW, font=SANS_BOLD, size=10,
              lang=t.lang)
    for i, name in enumerate(names):
        x = label_w + i * column_w
        c.rect(x, y, column_w, NAME_ROW, stroke=1, fill=0)
        inner_x, inner_w = x + 3, column_w - 6
        if swatches[i] is not None:
            c.setFillColor(swatches[i])
            c.circle(x + 6, y + NAME_ROW / 2, 3.2, stroke=1, fill=1)
            inner_x, inner_w = x + 12, column_w - 15
        c.setFillGray(0)
        if name:
            draw_text(c, name, inner_x, y + 1.5, inner_w, NAME_ROW - 3, font=SANS_BOLD,
                      size=11, min_size=5.5, max_lines=3, align="center")
        else:
            c.setFillGray(0.6)
            c.setFont(SANS, 5.5)
            c.drawString(x + 2, y + NAME_ROW - 7, t(N_("name")))
            c.setFillGray(0)

    # Rows
    for row in spec.rows:
        h = unit * row.weight
        y -= h
        label = t(row.label, **row.params) if row.params else t(row.label)
        if row.kind == "section":
            c.setFillGray(0.86)
            c.rect(0, y, width, h, stroke=0, fill=1)
            c.setFillGray(0)
            draw_text(c, label, 3, y, width - 6, h, font=SANS_BOLD, size=9, max_lines=1,
                      lang=t.lang)
            continue
        bold = row.kind == "result"
        if bold:
            c.setFillGray(0.95)
            c.rect(0, y, label_w, h, stroke=0, fill=1)
            c.setFillGray(0)
        hint = t(row.hint, **row.params) if row.hint else ""
        text_w = label_w - 5
        font = SANS_BOLD if bold else SANS
        if hint:
            label_h = 8.5 * 1.2
            draw_text(c, label, 3, y + h - 1.2 - label_h, text_w, label_h, font=font,
                      size=8.5, min_size=5.5, max_lines=1, lang=t.lang)
            c.setFillGray(0.35)
            draw_text(c, hint, 3, y + 0.8, text_w, h - 2.4 - label_h, size=6, min_size=4.5,
                      max_lines=2, valign="top", one_line_until=0.92, lang=t.lang)
            c.setFillGray(0)
        else:
            draw_text(c, label, 3, y, text_w, h, font=font, size=9, min_size=5.5, max_lines=2,
                      lang=t.lang)
        c.setLineWidth(1.1 if bold else 0.5)
        c.setStrokeGray(0 if bold else 0.25)
        for i in range(len(names)):
            x = label_w + i * column_w
            c.rect(x, y, column_w, h, stroke=1, fill=0)
            if row.value:
                c.setFillGray(0.3)
                c.setFont(SANS, 10)
                c.drawCentredString(x + column_w / 2, y + h / 2 - 3.5, row.value)
                c.setFillGray(0)
        c.setStrokeGray(0.7)
        c.setLineWidth(0.3)
        c.line(0, y, label_w, y)
    c.setStrokeGray(0)
    c.setFillGray(0.35)
    y -= FOOTER
    draw_text(c, t(spec.footer), 0, y, width, FOOTER - 1, size=6.5, min_size=4.5, max_lines=1,
              lang=t.lang)
    if y > NOTES_MIN:                     # rows are capped in height: the rest is for notes
        c.setStrokeGray(0.6)
        c.setLineWidth(0.5)
        c.rect(0, 0, width, y - 2 * MM, stroke=1, fill=0)
        draw_text(c, t(N_("Notes")), 2 * MM, y - 8 * MM, width / 2, 5 * MM, size=7.5,
                  max_lines=1, lang=t.lang)
    c.setFillGray(0)


def draw_header(s: Surface, title: str, url: str, caption: str, *, subtitle: str = "",
                intro: Sequence[str] = (), date_place: bool = True) -> None:
    """The top ``HEADER`` of a pad or an aid sheet: the title (msgid), the QR code with its
    caption and link at the right, then either the date and place lines (pads) or the
    ``intro`` paragraphs (aid sheets, already translated)."""
    c, t = s.canvas, s.t
    width, height = s.width, s.height
    qr = 25 * MM
    qr_x = width - qr
    s.qr(url, qr_x, height - qr, qr)
    c.setFillGray(0)
    draw_text(c, t(caption), qr_x - 42 * MM, height - 13 * MM, 40 * MM, 11 * MM, size=7.5,
              max_lines=2, align="right", valign="top", lang=t.lang)
    c.setFillGray(0.35)
    draw_text(c, url, qr_x - 42 * MM, height - 21 * MM, 40 * MM, 8 * MM, size=6, min_size=4.2,
              max_lines=2, align="right", valign="top")
    c.setFillGray(0)
    text_w = qr_x - 46 * MM
    draw_text(c, t(title), 0, height - 10 * MM, text_w, 10 * MM, font=SANS_BOLD,
              size=17, max_lines=1, lang=t.lang)
    if subtitle:
        draw_text(c, subtitle, 0, height - 15 * MM, text_w, 5 * MM, size=9, max_lines=1)
    if intro:
        # the first paragraph says what the sheet is for; the rest are reminders, in grey
        top, room = height - 11 * MM, 18 * MM
        share = room / len(intro)
        for n, paragraph in enumerate(intro):
            c.setFillGray(0 if n == 0 else 0.35)
            draw_text(c, paragraph, 0, top - (n + 1) * share, text_w, share,
                      size=8.5 if n == 0 else 7.5, min_size=5, max_lines=2, valign="top",
                      lang=t.lang)
        c.setFillGray(0)
    if not date_place:
        return
    c.setLineWidth(0.5)
    c.setStrokeGray(0.2)
    line_y = height - 25 * MM
    for label, x0, x1 in ((N_("Date"), 0, text_w * 0.45), (N_("Place"), text_w * 0.5, text_w)):
        fitted = fit(t(label), (x1 - x0) * 0.4, 10, size=8)
        draw_text(c, t(label), x0, line_y + 1, (x1 - x0) * 0.4, 10, size=8)
        c.line(x0 + fitted.width + 3, line_y + 1, x1, line_y + 1)
