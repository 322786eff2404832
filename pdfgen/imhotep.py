"""Imhotep's printouts (spec imhotep.md): the score pad's rows and the reference cards (when
each site scores, final scoring, the market cards), registered with :mod:`pdfgen.registry`.

The numbers and card texts come from :mod:`pdfgen.imhotep_data`, which takes every number
from ``companion.rules.imhotep.printed``.
"""

from __future__ import annotations

from typing import Sequence

from . import imhotep_data as im
from .cardface import Entry, Grid, Heading, Line, Para, grid_row
from .i18n import N_, Translator
from .pads import signed
from .registry import GamePrint, PadRow, PadSpec, ReferenceCard, register

BAND = (0.20, 0.36, 0.55)


# --------------------------------------------------------------------------------------------
# The score pad (spec §5)
# --------------------------------------------------------------------------------------------


def pad_rows() -> tuple[PadRow, ...]:
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


# --------------------------------------------------------------------------------------------
# Reference cards
# --------------------------------------------------------------------------------------------


def sites_card(t: Translator):
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


def final_card(t: Translator):
    """Back: final scoring in its order, with the tables, and the tie-break (§5.3, §5.4)."""
    obelisk_rows = tuple(grid_row(t(N_("%(n)d players"), n=n),
                                  list(points) + [""] * (4 - len(points)))
                         for n, points in im.OBELISK_RANK_POINTS.items())
    return t(N_("Imhotep · final scoring")), [
        Heading(t(N_("Burial chamber A: each group"))),
        Grid((grid_row(t(N_("stones")), [1, 2, 3, 4, 5, "6+"]),
              grid_row(t(N_("points")), list(im.GROUP_POINTS) + [f"+{im.GROUP_BEYOND}"]))),
        Heading(t(N_("Obelisks A: by height"))),
        Grid((grid_row(t(N_("rank")), ["1", "2", "3", "4"]), *obelisk_rows)),
        Para(t(N_("Tied players share the points, rounded down."))),
        Heading(t(im.CATEGORY_LABELS["statues"])),
        Grid((grid_row(t(N_("cards")), [1, 2, 3, 4, 5, "6+"]),
              grid_row(t(N_("points")),
                       list(im.STATUE_POINTS) + [f"+{im.STATUE_BEYOND}"]))),
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


def market_front(t: Translator):
    """Market cards, red and green (spec §2.6)."""
    return t(N_("Imhotep · market cards")), _market_entries(t, ("red", "green"))


def market_back(t: Translator):
    """Market cards, purple and blue (spec §2.6)."""
    return t(N_("Imhotep · market cards")), _market_entries(t, ("purple", "blue")) + [
        Para(t(N_("Blue cards are played as your action on a later turn, one per turn; "
                  "each unused one scores %(points)s at the end."),
               points=signed(im.BLUE_CARD_POINTS)), grey=True)]


CONTENT = register(GamePrint(
    game="imhotep",
    pad=PadSpec(N_("Imhotep · score pad"), pad_rows(),
                N_("The Pyramid and the Temple score on the track during play; the rest is "
                   "added at the end.")),
    cards=(ReferenceCard(sites_card, final_card), ReferenceCard(market_front, market_back)),
    band=BAND))
