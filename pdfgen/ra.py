"""Ra's printouts (spec ra.md): the score pad's rows, the two-faced scoring reference card and
the tile tally sheet, registered with :mod:`pdfgen.registry`.

Every number comes from ``companion.rules.ra.printed`` (each with its source there), so the
paper says what the engine computes.
"""

from __future__ import annotations

import math

from companion.rules.ra import printed as ra

from .cardface import Grid, Heading, Line, Para, grid_row
from .document import Surface
from .errors import LayoutError
from .fonts import SANS_BOLD
from .geometry import MM
from .i18n import N_, Translator
from .pads import signed
from .registry import AidSheet, GamePrint, PadRow, PadSpec, ReferenceCard, register
from .text import draw_text

BAND = (0.72, 0.45, 0.05)
TALLY_TITLE = N_("Ra · tile tally")


# --------------------------------------------------------------------------------------------
# The score pad (spec §5)
# --------------------------------------------------------------------------------------------


def pad_rows() -> tuple[PadRow, ...]:
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


# --------------------------------------------------------------------------------------------
# The reference card (spec §5)
# --------------------------------------------------------------------------------------------


def epoch_card(t: Translator):
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
        Grid((grid_row(t(N_("kinds")), range(6)),
              grid_row(t(N_("points")), [signed(civ[n]) for n in range(6)]))),
        Para(t(N_("Then Gods, Gold, Floods and Civilizations leave; Pharaohs, Niles and "
                  "Monuments stay. Fame never goes below 0.")), grey=True),
    ]


def final_card(t: Translator):
    """Back: what scores after the third epoch only, and the tie-break (spec §5.2, §5.4)."""
    kinds = ra.MONUMENT_KIND_POINTS
    sets = ra.MONUMENT_SET_POINTS
    return t(N_("Ra · after the third epoch")), [
        Heading(t(ra.CATEGORY_LABELS["monument_kinds"])),
        Grid((grid_row(t(N_("kinds")), range(1, 9)),
              grid_row(t(N_("points")), [kinds[n] for n in range(1, 9)]))),
        Heading(t(ra.CATEGORY_LABELS["monument_sets"])),
        Grid((grid_row(t(N_("tiles of a kind")), range(3, 6)),
              grid_row(t(N_("points")), [sets[n] for n in range(3, 6)]))),
        Para(t(N_("Every monument counts for both."))),
        Line(t(ra.CATEGORY_LABELS["suns"]), t(N_("highest %(most)s · lowest %(fewest)s"),
                                               most=signed(ra.SUNS_MOST),
                                               fewest=signed(ra.SUNS_FEWEST))),
        Para(t(N_("Add up all your suns, face up and face down."))),
        Heading(t(N_("Tie"))),
        Para(t(N_("The player holding the highest sun wins."))),
    ]


# --------------------------------------------------------------------------------------------
# The tile tally (spec §2, §4.1)
# --------------------------------------------------------------------------------------------


def tally_intro(t: Translator) -> list[str]:
    """What the tally is for, and when an epoch ends (spec ra.md §4.1)."""
    ends = " · ".join(t(N_("%(players)d players: Ra tile %(tile)d"), players=n, tile=length)
                      for n, length in ra.RA_TRACK_LENGTH.items())
    return [t(N_("Tick a box whenever a tile of that kind is drawn: the empty boxes are "
                 "the tiles still in the bag.")),
            t(N_("An epoch ends at once with the Ra tile that fills the track: %(list)s"),
              list=ends)]


def tally_sheet(s: Surface) -> None:
    """Every Ra tile kind with its count and a box per tile to tick as it leaves the bag
    (drawn below the shared header, which holds the title and :func:`tally_intro`)."""
    c, t = s.canvas, s.t
    width, height = s.width, s.height

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
    top = height
    section_h = 6 * MM
    unit = min(10 * MM, (top - len(sections) * section_h) / units)
    if unit < box + 2 * MM:
        raise LayoutError("print.sheet_too_small",
                          N_("The sheet “%(title)s” does not fit on this page."), "page",
                          title=t(TALLY_TITLE))
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


CONTENT = register(GamePrint(
    game="ra",
    pad=PadSpec(N_("Ra · score pad"), pad_rows(),
                N_("Write each epoch's points when it is scored. Fame never goes below 0.")),
    cards=(ReferenceCard(epoch_card, final_card),),
    sheets=(AidSheet("tally", TALLY_TITLE, tally_sheet, tally_intro),),
    band=BAND))
