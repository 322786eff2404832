"""Play aids: the Ra tile tally sheet, scoring reference cards for Ra and Imhotep, and the
Imhotep market-card reference, in poker size on A4 or Letter.

Reference cards are double-faced (front: what scores during the game; back: the end); printed
``single`` each face is its own card, ``duplex`` puts the backs on the reverse of the sheet,
mirrored, and ``gutter`` puts them beside the fronts to fold and glue. Every number comes from
``companion.rules.ra.tables`` or :mod:`pdfgen.imhotep_data`.
"""

from __future__ import annotations

import math
from typing import Sequence

from companion.rules.ra import tables as ra

from . import imhotep_data as im
from .cardface import Entry, Grid, Heading, Line, Para, card_face
from .document import Card, PdfWriter, Surface
from .errors import PrintError
from .fonts import SANS_BOLD
from .geometry import MM, card_grid, sheet_geometry
from .i18n import N_, Translator, translator
from .pads import pad_spec, signed
from .text import draw_text

RA_BAND = (0.72, 0.45, 0.05)
IMHOTEP_BAND = (0.20, 0.36, 0.55)
MAX_COPIES = 50


# --------------------------------------------------------------------------------------------
# Ra
# --------------------------------------------------------------------------------------------


def _row(label: str, values: Sequence[object]) -> tuple[str, ...]:
    return (label, *(str(v) for v in values))


def ra_epoch_card(t: Translator):
    """Front: what scores after every epoch (spec ra.md §5.1)."""
    civ = ra.CIVILIZATION_POINTS
    return t(N_("Ra · after every epoch")), [
        Line(t(ra.CATEGORY_LABELS["gods"]), t(N_("%(points)s each"),
                                               points=signed(ra.POINTS_PER_GOD))),
        Line(t(ra.CATEGORY_LABELS["gold"]), t(N_("%(points)s each"),
                                               points=signed(ra.POINTS_PER_GOLD))),
        Line(t(ra.CATEGORY_LABELS["pharaohs"]),
             t(N_("most %(most)s · fewest %(fewest)s"), most=signed(ra.PHARAOHS_MOST),
               fewest=signed(ra.PHARAOHS_FEWEST))),
        Para(t(N_("All players equal: nobody scores."))),
        Line(t(ra.CATEGORY_LABELS["river"]), t(N_("%(points)s per tile"),
                                                points=signed(ra.POINTS_PER_RIVER_TILE))),
        Para(t(N_("Only with at least one Flood; otherwise 0."))),
        Heading(t(N_("Civilizations: different kinds"))),
        Grid((_row(t(N_("kinds")), range(6)),
              _row(t(N_("points")), [signed(civ[n]) for n in range(6)]))),
        Para(t(N_("Then Gods, Gold, Floods and Civilizations leave; Pharaohs, Niles and "
                  "Monuments stay. Fame never goes below 0.")), grey=True),
    ]


def ra_final_card(t: Translator):
    """Back: what scores after the third epoch only, and the tie-break (spec §5.2, §5.4)."""
    kinds = ra.MONUMENT_KIND_POINTS
    sets = ra.MONUMENT_SET_POINTS
    return t(N_("Ra · after the third epoch")), [
        Heading(t(ra.CATEGORY_LABELS["monument_kinds"])),
        Grid((_row(t(N_("kinds")), range(1, 9)),
              _row(t(N_("points")), [kinds[n] for n in range(1, 9)]))),
        Heading(t(ra.CATEGORY_LABELS["monument_sets"])),
        Grid((_row(t(N_("tiles of a kind")), range(3, 6)),
              _row(t(N_("points")), [sets[n] for n in range(3, 6)]))),
        Para(t(N_("Every monument counts for both."))),
        Line(t(ra.CATEGORY_LABELS["suns"]), t(N_("highest %(most)s · lowest %(fewest)s"),
                                               most=signed(ra.SUNS_MOST),
                                               fewest=signed(ra.SUNS_FEWEST))),
        Para(t(N_("Add up all your suns, face up and face down."))),
        Heading(t(N_("Tie"))),
        Para(t(N_("The player holding the highest sun wins."))),
    ]


def ra_tally_sheet(s: Surface) -> None:
    """Every Ra tile kind with its count and a box per tile to tick as it leaves the bag."""
    c, t = s.canvas, s.t
    width, height = s.width, s.height
    draw_text(c, t(N_("Ra · tile tally")), 0, height - 10 * MM, width, 10 * MM,
              font=SANS_BOLD, size=17, max_lines=1)
    draw_text(c, t(N_("Tick a box whenever a tile of that kind is drawn: the empty boxes are "
                      "the tiles still in the bag.")), 0, height - 20 * MM, width, 9 * MM,
              size=8.5, max_lines=2)
    ends = " · ".join(t(N_("%(players)d players: Ra tile %(tile)d"), players=n, tile=length)
                      for n, length in ra.RA_TRACK_LENGTH.items())
    c.setFillGray(0.35)
    draw_text(c, t(N_("An epoch ends at once with the Ra tile that fills the track: %(list)s"),
                   list=ends), 0,
              height - 26 * MM, width, 5 * MM, size=7.5, max_lines=1)
    c.setFillGray(0)

    sections: list[tuple[str, list[tuple[str, str]]]] = [
        (N_("Ra"), [("ra", ra.OTHER_TILE_LABELS["ra"])]),
        (N_("Scored every epoch"), [(k, ra.TILE_LABELS[k]) for k in ("god", "gold", "pharaoh",
                                                                      "nile", "flood")]),
        (ra.CATEGORY_LABELS["civilizations"],
         [(f"civ_{k}", ra.TILE_LABELS[f"civ_{k}"]) for k in ra.CIVILIZATION_KINDS]),
        (N_("Monuments"), [(f"mon_{k}", ra.TILE_LABELS[f"mon_{k}"])
                           for k in ra.MONUMENT_KINDS]),
        (N_("Disasters"), [(k, ra.OTHER_TILE_LABELS[k]) for k in ra.DISASTER_KINDS]),
    ]
    label_w = 42 * MM
    count_w = 10 * MM
    box = 4.8 * MM
    step = box * 1.12
    group_gap = 2.2 * MM
    x0 = label_w + count_w
    groups = int((width - x0 + group_gap) // (5 * step + group_gap))
    per_line = groups * 5

    def lines_of(kind: str) -> int:
        return math.ceil(ra.BOX[kind] / per_line)

    units = sum(lines_of(kind) for _, kinds in sections for kind, _name in kinds)
    top = height - 30 * MM
    section_h = 6 * MM
    unit = min(10 * MM, (top - len(sections) * section_h) / units)
    assert unit >= box + 2 * MM, "tally rows too small"
    y = top
    for title, kinds in sections:
        y -= section_h
        c.setFillGray(0.86)
        c.rect(0, y, width, section_h, stroke=0, fill=1)
        c.setFillGray(0)
        draw_text(c, t(title), 2 * MM, y, width - 4 * MM, section_h, font=SANS_BOLD,
                  size=9, max_lines=1)
        for kind, name in kinds:
            count = ra.BOX[kind]
            lines = lines_of(kind)
            row_h = unit * lines
            y -= row_h
            draw_text(c, t(name), 2 * MM, y, label_w - 3 * MM, row_h, size=9.5, max_lines=2)
            c.setFont(SANS_BOLD, 9)
            c.drawRightString(x0 - 3 * MM, y + row_h / 2 - 3, f"×{count}")
            in_line = math.ceil(math.ceil(count / lines) / 5) * 5    # boxes per line, in fives
            c.setLineWidth(0.7)
            c.setStrokeGray(0.15)
            for i in range(count):
                line, at = divmod(i, in_line)
                bx = x0 + at * step + (at // 5) * group_gap
                by = y + row_h - (line + 1) * unit + (unit - box) / 2
                c.rect(bx, by, box, box, stroke=1, fill=0)
            c.setStrokeGray(0.8)
            c.setLineWidth(0.3)
            c.line(0, y, width, y)


# --------------------------------------------------------------------------------------------
# Imhotep
# --------------------------------------------------------------------------------------------


def imhotep_sites_card(t: Translator):
    """Front: when each site scores (spec imhotep.md §5.1, §5.2, §2.5)."""
    return t(N_("Imhotep · during the game")), [
        Line(t(N_("Market")), t(N_("1 card per stone"))),
        Para(t(N_("Red cards act at once; the others are kept."))),
        Line(t(N_("Pyramid")), t(N_("at once"))),
        Para(t(N_("A: the number on the space, %(beyond)d beside the pyramid after the "
                  "14th."), beyond=im.PYRAMID_BEYOND)),
        Line(t(N_("Temple")), t(N_("end of every round"))),
        Para(t(N_("A: 1 point per visible stone (the top stone of each space)."))),
        Line(t(im.CATEGORY_LABELS["burial_chamber"]), t(N_("game end"))),
        Line(t(im.CATEGORY_LABELS["obelisks"]), t(N_("game end"))),
        Para(t(N_("B: each tower scores at once; stones not in a tower 1 each at the end."))),
        Para(t(N_("A round ends when the 4th ship is unloaded. Six rounds.")), grey=True),
    ]


def imhotep_final_card(t: Translator):
    """Back: final scoring in its order, with the tables, and the tie-break (§5.3, §5.4)."""
    obelisk_rows = tuple(_row(t(N_("%(n)d players"), n=n), list(points)
                              + [""] * (4 - len(points)))
                         for n, points in im.OBELISK_RANK_POINTS.items())
    return t(N_("Imhotep · final scoring")), [
        Heading(t(N_("Burial chamber A: each group"))),
        Grid((_row(t(N_("stones")), [1, 2, 3, 4, 5, "6+"]),
              _row(t(N_("points")), list(im.GROUP_POINTS)
                   + [f"+{im.GROUP_BEYOND}"]))),
        Heading(t(N_("Obelisks A: by height"))),
        Grid((_row(t(N_("rank")), ["1", "2", "3", "4"]), *obelisk_rows)),
        Para(t(N_("Tied players share the points, rounded down."))),
        Heading(t(im.CATEGORY_LABELS["statues"])),
        Grid((_row(t(N_("cards")), [1, 2, 3, 4, 5, "6+"]),
              _row(t(N_("points")), list(im.STATUE_POINTS) + [f"+{im.STATUE_BEYOND}"]))),
        Line(t(N_("Decorations")), t(N_("1 per %(n)d stones"), n=im.DECORATION_STONES)),
        Line(t(im.CATEGORY_LABELS["blue_cards"]), t(N_("%(points)s each"),
                                                    points=signed(im.BLUE_CARD_POINTS))),
        Para(t(N_("Tie: more stones on the sled wins."))),
    ]


def _market_entries(t: Translator, colours: Sequence[str]):
    blocks = []
    for colour in colours:
        blocks.append(Heading(t(im.COLOUR_NAMES[colour])))
        for card in (m for m in im.MARKET_CARDS if m.colour == colour):
            blocks.append(Entry(t(card.name), f"×{card.count} · {t(card.when)}", t(card.effect),
                                im.COLOUR_RGB[colour]))
    return blocks


def imhotep_market_front(t: Translator):
    """Market cards, red and green (spec §2.6)."""
    return t(N_("Imhotep · market cards")), _market_entries(t, ("red", "green"))


def imhotep_market_back(t: Translator):
    """Market cards, purple and blue (spec §2.6)."""
    return t(N_("Imhotep · market cards")), _market_entries(t, ("purple", "blue")) + [
        Para(t(N_("Blue cards are played as your action on a later turn, one per turn; "
                  "each unused one scores %(points)s at the end."),
               points=signed(im.BLUE_CARD_POINTS)), grey=True)]


# --------------------------------------------------------------------------------------------
# The aids document
# --------------------------------------------------------------------------------------------

FOOTER = N_("Scribe · reference card")


def reference_cards(game: str) -> list[Card]:
    """The game's double-faced reference cards (one set)."""
    if game == "ra":
        return [Card(card_face(ra_epoch_card, RA_BAND, FOOTER),
                     card_face(ra_final_card, RA_BAND, FOOTER))]
    return [Card(card_face(imhotep_sites_card, IMHOTEP_BAND, FOOTER),
                 card_face(imhotep_final_card, IMHOTEP_BAND, FOOTER)),
            Card(card_face(imhotep_market_front, IMHOTEP_BAND, FOOTER),
                 card_face(imhotep_market_back, IMHOTEP_BAND, FOOTER))]


def play_aids(game: str, *, page: str = "a4", lang: str = "en", copies: int | None = None,
              sides: str = "single", bleed: float = 0.0, card: str = "poker",
              tally: bool = True) -> bytes:
    """The play aids of ``game`` as PDF bytes: (Ra) the tile tally sheet, then
    ``copies`` sets of reference cards (default: one per player of a full table)."""
    spec = pad_spec(game)
    copies = max(spec.player_counts) if copies is None else copies
    if isinstance(copies, bool) or not isinstance(copies, int) or not 1 <= copies <= MAX_COPIES:
        raise PrintError("print.bad_copies", N_("Print 1 to %(max)d copies."), "copies",
                         max=MAX_COPIES)
    grid = card_grid(page, card, bleed=bleed, sides=sides)
    writer = PdfWriter(grid.page, lang=lang, subject=game,
                       title=_title(lang, N_("Play aids"), game))
    if game == "ra" and tally:
        writer.sheet(sheet_geometry(page), ra_tally_sheet)
    cards = reference_cards(game) * copies
    if sides == "single":            # each face its own card: fronts and backs side by side
        cards = [Card(face) for c in cards for face in (c.front, c.back) if face]
    writer.cards(grid, cards)
    return writer.finish()


def _title(lang: str, what: str, game: str) -> str:
    return f"{game.capitalize()} · {translator(lang)(what)}"
