"""Score pads: Ra (three epochs, every category, running fame) and Imhotep (score track,
final scoring, cards, tie-break), for a named table or blank, as many sheets as wanted.

Each pad is a list of :class:`PadRow` (what the rows are, from the rules data) and one drawing
function that lays any such list out on a page (how it looks). The rows' reminders take their
numbers from ``companion.rules.ra.tables`` and :mod:`pdfgen.imhotep_data`, so the pad says
what the engine computes. Every sheet of a pad is the same, so the sheet is drawn once and
placed on each page.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Mapping, Sequence
from urllib.parse import urlsplit

from reportlab.lib import colors

from companion.rules.ra import tables as ra

from . import imhotep_data as im
from .document import PdfWriter, Surface
from .errors import PrintError
from .fonts import SANS, SANS_BOLD
from .geometry import MM, sheet_geometry
from .i18n import N_, translator
from .text import clean_text, draw_text, fit

GAMES = ("ra", "imhotep")
MAX_SHEETS = 500
RowKind = Literal["section", "entry", "result", "fixed"]


@dataclass(frozen=True)
class PadRow:
    """One row of a pad: a heading band, a box per player to write in, or a printed value."""

    kind: RowKind
    label: str                                  # msgid
    hint: str | None = None                     # msgid of the reminder under the label
    params: Mapping[str, Any] = field(default_factory=dict)   # for label and hint
    value: str = ""                             # printed in every player's box ("fixed")

    @property
    def weight(self) -> float:
        return 0.62 if self.kind == "section" else 1.0


@dataclass(frozen=True)
class PadSpec:
    game: str
    title: str                                  # msgid
    player_counts: tuple[int, ...]
    rows: tuple[PadRow, ...]
    footer: str                                 # msgid


def signed(points: int) -> str:
    """+5, −2, 0: how points are printed (a real minus sign)."""
    return f"+{points}" if points > 0 else (f"−{-points}" if points < 0 else "0")


def _ra_rows() -> tuple[PadRow, ...]:
    labels = ra.CATEGORY_LABELS
    civ = ra.CIVILIZATION_POINTS
    kinds = ra.MONUMENT_KIND_POINTS
    sets = ra.MONUMENT_SET_POINTS
    rows = [PadRow("fixed", labels["starting_fame"], N_("two 5-point tablets"),
                   value=str(ra.STARTING_FAME))]
    for epoch in range(1, ra.EPOCHS + 1):
        rows += [
            PadRow("section", N_("Epoch %(stage)d"), params={"stage": epoch}),
            PadRow("entry", labels["gods"], N_("%(points)s per God"),
                   {"points": signed(ra.POINTS_PER_GOD)}),
            PadRow("entry", labels["pharaohs"], N_("most %(most)s · fewest %(fewest)s · "
                                                   "all equal 0"),
                   {"most": signed(ra.PHARAOHS_MOST), "fewest": signed(ra.PHARAOHS_FEWEST)}),
            PadRow("entry", labels["river"], N_("%(points)s per Nile and Flood, only with a "
                                                "Flood"),
                   {"points": signed(ra.POINTS_PER_RIVER_TILE)}),
            PadRow("entry", labels["civilizations"], N_("kinds: none %(none)s · 3/4/5 kinds "
                                                        "%(three)s/%(four)s/%(five)s"),
                   {"none": signed(civ[0]), "three": signed(civ[3]), "four": signed(civ[4]),
                    "five": signed(civ[5])}),
            PadRow("entry", labels["gold"], N_("%(points)s per Gold"),
                   {"points": signed(ra.POINTS_PER_GOLD)}),
        ]
        if epoch == ra.EPOCHS:
            rows += [
                PadRow("entry", labels["monument_kinds"],
                       N_("1–6 kinds: 1–6 · 7 kinds: %(seven)s · 8 kinds: %(eight)s"),
                       {"seven": signed(kinds[7]), "eight": signed(kinds[8])}),
                PadRow("entry", labels["monument_sets"],
                       N_("per kind: 3/4/5 tiles %(three)s/%(four)s/%(five)s"),
                       {"three": signed(sets[3]), "four": signed(sets[4]),
                        "five": signed(sets[5])}),
                PadRow("entry", labels["suns"], N_("highest %(most)s · lowest %(fewest)s · "
                                                   "all equal 0"),
                       {"most": signed(ra.SUNS_MOST), "fewest": signed(ra.SUNS_FEWEST)}),
            ]
        rows += [
            PadRow("entry", N_("Result of epoch %(stage)d"), N_("sum of the lines above"),
                   {"stage": epoch}),
            PadRow("result", N_("Fame after epoch %(stage)d"),
                   N_("fame before + result, never below 0"), {"stage": epoch}),
        ]
    rows += [PadRow("entry", N_("Highest sun (tie-break)"), N_("the highest sun wins a tie")),
             PadRow("result", N_("Rank"))]
    return tuple(rows)


def _imhotep_rows() -> tuple[PadRow, ...]:
    labels = im.CATEGORY_LABELS
    obelisks = " · ".join("/".join(map(str, pts)) for pts in im.OBELISK_RANK_POINTS.values())
    rows = [PadRow("section", N_("Score track"))]
    for number in range(1, im.ROUNDS):
        rows.append(PadRow("entry", N_("After round %(n)d"),
                           N_("where your marker stands (in case it is knocked)")
                           if number == 1 else None, {"n": number}))
    rows += [
        PadRow("result", labels["track"], N_("add %(lap)d for every lap past %(lap)d"),
               {"lap": im.TRACK_LAP}),
        PadRow("section", N_("Final scoring")),
        PadRow("entry", labels["burial_chamber"],
               N_("A: a group of 1–5 stones %(series)s per extra stone · B: each row "
                  "%(rows)s"),
               {"series": im.series(im.GROUP_POINTS, im.GROUP_BEYOND),
                "rows": "/".join(map(str, im.BURIAL_B_RANK_POINTS))}),
        PadRow("entry", labels["obelisks"], N_("A: by height, for 2/3/4 players %(table)s · "
                                               "B: 1 per stone not in a tower"),
               {"table": obelisks}),
        PadRow("section", N_("Cards")),
        PadRow("entry", labels["pyramid_decoration"], N_("1 per %(n)d stones at the site"),
               {"n": im.DECORATION_STONES}),
        PadRow("entry", labels["temple_decoration"], N_("1 per %(n)d stones at the site"),
               {"n": im.DECORATION_STONES}),
        PadRow("entry", labels["burial_decoration"], N_("1 per %(n)d stones at the site"),
               {"n": im.DECORATION_STONES}),
        PadRow("entry", labels["obelisk_decoration"], N_("1 per %(n)d stones at the site"),
               {"n": im.DECORATION_STONES}),
        PadRow("entry", labels["statues"], N_("1–5 statues: %(series)s per card more"),
               {"series": im.series(im.STATUE_POINTS, im.STATUE_BEYOND)}),
        PadRow("entry", labels["blue_cards"], N_("%(points)s each"),
               {"points": signed(im.BLUE_CARD_POINTS)}),
        PadRow("entry", labels["wrath"], N_("if played: %(points)s when missing from a "
                                            "monument"),
               {"points": signed(im.WRATH_POINTS)}),
        PadRow("result", N_("Total")),
        PadRow("entry", N_("Stones on the sled (tie-break)"), N_("more stones wins a tie")),
        PadRow("result", N_("Rank")),
    ]
    return tuple(rows)


PADS: dict[str, PadSpec] = {
    "ra": PadSpec("ra", N_("Ra · score pad"), (2, 3, 4, 5), _ra_rows(),
                  N_("Write each epoch's points when it is scored. Fame never goes below 0.")),
    "imhotep": PadSpec("imhotep", N_("Imhotep · score pad"), im.PLAYER_COUNTS, _imhotep_rows(),
                       N_("The Pyramid and the Temple score on the track during play; the "
                          "rest is added at the end.")),
}

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


def pad_spec(game: str) -> PadSpec:
    try:
        return PADS[str(game)]
    except KeyError:
        raise PrintError("print.unknown_game", N_("There is no score pad for “%(game)s”: "
                                                  "choose one of %(choices)s."), "game",
                         game=str(game), choices=", ".join(PADS)) from None


def score_pad(game: str, names: Sequence[str] | None = None, *, page: str = "a4",
              lang: str = "en", qr_url: str, sheets: int = 1, players: int | None = None,
              colours: Sequence[str | None] | None = None, qr_caption: str | None = None,
              subtitle: str | None = None) -> bytes:
    """A score pad of ``sheets`` identical pages as PDF bytes.

    ``names`` fills the name boxes (in seat order); without names the pad is blank with
    ``players`` columns (default: the most the game allows). ``qr_url`` is printed as a QR
    code: the live table, or the game's score-only form.
    """
    spec = pad_spec(game)
    geometry = sheet_geometry(page)
    if isinstance(sheets, bool) or not isinstance(sheets, int) or not 1 <= sheets <= MAX_SHEETS:
        raise PrintError("print.bad_sheets", N_("A pad has 1 to %(max)d sheets."), "sheets",
                         max=MAX_SHEETS)
    if names:
        names = [clean_text(n, f"names.{i}") for i, n in enumerate(names)]
        count = len(names)
    else:
        count = players or max(spec.player_counts)
        names = [""] * count
    if count not in spec.player_counts:
        raise PrintError("print.bad_player_count", N_("A %(game)s pad is for %(low)d to "
                                                      "%(high)d players."), "names",
                         game=spec.game.capitalize(), low=min(spec.player_counts),
                         high=max(spec.player_counts))
    swatches = [colour_of(c) for c in (list(colours or []) + [None] * count)[:count]]
    url = check_url(qr_url)
    subtitle = clean_text(subtitle, "subtitle") if subtitle else ""
    writer = PdfWriter(geometry.page, lang=lang, title=writer_title(spec, lang),
                       subject=url)
    caption = qr_caption or (N_("Scan to open this table") if any(names)
                             else N_("Scan to enter the scores"))

    def draw(surface: Surface) -> None:
        draw_pad(surface, spec, names, swatches, url, caption, subtitle)

    for _sheet in range(sheets):
        writer.sheet(geometry, draw, reuse="pad")
    return writer.finish()


def writer_title(spec: PadSpec, lang: str) -> str:
    return translator(lang)(spec.title)


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


def draw_pad(s: Surface, spec: PadSpec, names: Sequence[str],
             swatches: Sequence[colors.Color | None], url: str, caption: str,
             subtitle: str) -> None:
    """One pad sheet in the printable frame."""
    c, t = s.canvas, s.t
    width, height = s.width, s.height
    _header(s, spec, url, caption, subtitle)

    label_w = width * LABEL_SHARE
    column_w = (width - label_w) / len(names)
    body_top = height - HEADER
    units = sum(row.weight for row in spec.rows)
    unit = min(MAX_ROW, (body_top - NAME_ROW - FOOTER) / units)
    assert unit >= MIN_ROW, "pad rows too small to write in"

    # Names
    y = body_top - NAME_ROW
    c.setLineWidth(0.8)
    c.setStrokeGray(0)
    draw_text(c, t(N_("Player")), 2, y, label_w - 4, NAME_ROW, font=SANS_BOLD, size=10)
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
            draw_text(c, label, 3, y, width - 6, h, font=SANS_BOLD, size=9, max_lines=1)
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
                      size=8.5, min_size=5.5, max_lines=1)
            c.setFillGray(0.35)
            draw_text(c, hint, 3, y + 0.8, text_w, h - 2.4 - label_h, size=6, min_size=4.5,
                      max_lines=2, valign="top", one_line_until=0.92)
            c.setFillGray(0)
        else:
            draw_text(c, label, 3, y, text_w, h, font=font, size=9, min_size=5.5, max_lines=2)
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
    draw_text(c, t(spec.footer), 0, y, width, FOOTER - 1, size=6.5, min_size=4.5, max_lines=1)
    if y > NOTES_MIN:                     # rows are capped in height: the rest is for notes
        c.setStrokeGray(0.6)
        c.setLineWidth(0.5)
        c.rect(0, 0, width, y - 2 * MM, stroke=1, fill=0)
        draw_text(c, t(N_("Notes")), 2 * MM, y - 8 * MM, width / 2, 5 * MM, size=7.5,
                  max_lines=1)
    c.setFillGray(0)


def _header(s: Surface, spec: PadSpec, url: str, caption: str, subtitle: str) -> None:
    c, t = s.canvas, s.t
    width, height = s.width, s.height
    qr = 25 * MM
    qr_x = width - qr
    s.qr(url, qr_x, height - qr, qr)
    c.setFillGray(0)
    draw_text(c, t(caption), qr_x - 42 * MM, height - 13 * MM, 40 * MM, 11 * MM, size=7.5,
              max_lines=2, align="right", valign="top")
    c.setFillGray(0.35)
    draw_text(c, url, qr_x - 42 * MM, height - 21 * MM, 40 * MM, 8 * MM, size=6, min_size=4.2,
              max_lines=2, align="right", valign="top")
    c.setFillGray(0)
    text_w = qr_x - 46 * MM
    draw_text(c, t(spec.title), 0, height - 10 * MM, text_w, 10 * MM, font=SANS_BOLD,
              size=17, max_lines=1)
    if subtitle:
        draw_text(c, subtitle, 0, height - 15 * MM, text_w, 5 * MM, size=9, max_lines=1)
    c.setLineWidth(0.5)
    c.setStrokeGray(0.2)
    line_y = height - 25 * MM
    for label, x0, x1 in ((N_("Date"), 0, text_w * 0.45), (N_("Place"), text_w * 0.5, text_w)):
        fitted = fit(t(label), (x1 - x0) * 0.4, 10, size=8)
        draw_text(c, t(label), x0, line_y + 1, (x1 - x0) * 0.4, 10, size=8)
        c.line(x0 + fitted.width + 3, line_y + 1, x1, line_y + 1)
