"""Valley of the Kings' printouts (spec valley-of-the-kings.md), registered with
:mod:`pdfgen.registry`:

* the score pad of spec §14: one column per player; the four starters (count × VP), six
  unique lines (title and the VP printed on the card), a row per scoring group with the
  squares table (1, 4, 9 …) printed beside it, the cards in the tomb (the tie-break) and the
  total. Its rows are the five colour groups, which are the scoring groups of every pool
  (§11); the two pools that score differently say how on the pad.
* a tomb checklist card per pool (§14 field 5, the itemised mode): the pool's titles per
  colour group with a tick box per copy, a write-in line for each title no source names, the
  uniques and the starters; two cards a page.
* the turn-summary card (§5, §4, §9, §10), double-faced, poker size.

Every number comes from ``companion.rules.valley.printed`` (each with its source there), every
pool from ``companion.rules.valley.pools``: the paper says what the engine computes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from companion.rules.base import Term
from companion.rules.valley import names as vnames
from companion.rules.valley import pools
from companion.rules.valley import printed as vk
from companion.rules.valley.state import FREE_SEALS_PER_TURN

from .cardface import Grid, Heading, Line, Para, grid_row
from .document import Card, PdfWriter, Surface
from .errors import LayoutError
from .fonts import SANS, SANS_BOLD
from .geometry import MM, card_grid
from .i18n import N_, Translator, translator
from .pads import check_url
from .registry import GamePrint, PadPage, PadSheet, Printout, ReferenceCard, register
from .text import draw_text

BAND = (0.55, 0.36, 0.12)                      # sand-brown title band of the cards
PAD_TITLE = N_("Valley of the Kings · score pad")
CHECKLIST_TITLE = N_("Tomb checklists, one card per pool")

# Frame colours of the sets (spec §2.3), purple uniques and grey starters, as printed swatches.
COLOUR_RGB = {"red": (0.69, 0.23, 0.18), "brown": (0.54, 0.35, 0.17),
              "yellow": (0.85, 0.65, 0.05), "green": (0.18, 0.49, 0.31),
              "light_blue": (0.24, 0.56, 0.77), "unique": (0.48, 0.25, 0.63),
              "starter": (0.56, 0.56, 0.56)}
SIZES = tuple(vk.SIZE_PAIRS)                   # 3 … 7: one colour each (§11)


def card_name(t: Translator, title_id: str) -> str:
    """A title or a set as every screen names it (rules/valley/names.py): the sheet's
    language first, the name printed on the group's copy in parentheses where it differs."""
    return vnames.name(title_id, t)


def colour_of_size(size: int) -> str:
    return vk.COLOUR_OF_SIZE[size].value


# --------------------------------------------------------------------------------------------
# The score pad (spec §14)
# --------------------------------------------------------------------------------------------

NAME_ROW = 13 * MM
FOOTER = 8 * MM
LABEL_SHARE = 0.38
MAX_ROW = 11 * MM
MIN_ROW = 7 * MM
SECTION = 0.62                    # a section band's height, in rows


@dataclass(frozen=True)
class PadLine:
    """One row of the Valley pad: ``kind`` is section, starter, unique, group, count or total."""

    kind: str
    label: str                    # already translated
    hint: str = ""
    key: str = ""                 # the starter or the colour of the row

    @property
    def weight(self) -> float:
        return SECTION if self.kind == "section" else 1.0


def pad_lines(t: Translator) -> list[PadLine]:
    """The rows of spec §14 in order, translated."""
    lines = [PadLine("section", t(N_("Starter cards in the tomb: count × VP")))]
    for starter in vk.STARTERS:
        vp = vk.STARTER_VP_DEFAULT[starter]
        hint = t(N_("%(vp)d VP each"), vp=vp) if starter in vk.STARTER_VP_VERIFIED else \
            t(N_("%(vp)d VP each (check the number printed on your cards)"), vp=vp)
        lines.append(PadLine("starter", card_name(t, starter), hint, starter))
    lines.append(PadLine("section", t(N_("Unique artifacts: title and the VP printed on it"))))
    for number in range(1, vk.UNIQUES_PER_BOX + 1):           # six lines (§14)
        lines.append(PadLine("unique", t(N_("Unique %(n)d"), n=number)))
    lines.append(PadLine("section", t(N_("Sets: different titles in the tomb, squared"))))
    for size in SIZES:
        colour = colour_of_size(size)
        lines.append(PadLine("group", t(vk.COLOUR_LABELS[colour]), "", colour))
    lines += [PadLine("count", t(N_("Cards in the tomb")), t(N_("a tie goes to the player "
                                                                 "with fewer"))),
              PadLine("total", t(N_("Total")))]
    return lines


def _largest_group(size: int) -> int:
    """The most different titles a colour's row can hold: both boxes' sets merged (§11)."""
    return sum(vk.SETS[s].size for s in vk.SIZE_PAIRS[size])


def draw_valley_pad(s: Surface, page: PadPage) -> None:
    """The pad below the shared header: names, then the rows of :func:`pad_lines`."""
    c, t = s.canvas, s.t
    width, height = s.width, s.height
    names = page.names
    lines = pad_lines(t)
    label_w = width * LABEL_SHARE
    column_w = (width - label_w) / len(names)
    units = sum(line.weight for line in lines)
    unit = min(MAX_ROW, (height - NAME_ROW - FOOTER) / units)
    if unit < MIN_ROW:
        raise LayoutError("print.pad_too_long",
                          N_("The pad has too many rows for this page: %(rows)d rows leave "
                             "%(height)s mm each, and writing needs %(min)s mm."), "page",
                          rows=len(lines), height=f"{unit / MM:.1f}", min=f"{MIN_ROW / MM:g}")
    y = height - NAME_ROW
    _draw_names(s, names, page.swatches, label_w, column_w, y)
    for line in lines:
        h = unit * line.weight
        y -= h
        if line.kind == "section":
            c.setFillGray(0.86)
            c.rect(0, y, width, h, stroke=0, fill=1)
            c.setFillGray(0)
            draw_text(c, line.label, 3, y, width - 6, h, font=SANS_BOLD, size=8.5,
                      max_lines=1)
            continue
        _draw_label(s, line, 0, y, label_w, h)
        bold = line.kind == "total"
        c.setLineWidth(1.1 if bold else 0.5)
        c.setStrokeGray(0 if bold else 0.25)
        for i in range(len(names)):
            x = label_w + i * column_w
            c.rect(x, y, column_w, h, stroke=1, fill=0)
            _draw_cell(s, line, x, y, column_w, h)
        c.setStrokeGray(0.7)
        c.setLineWidth(0.3)
        c.line(0, y, label_w, y)
    c.setFillGray(0.35)
    notes = [t(N_("Half sets scored set by set: write both squares in the colour's row "
                  "(e.g. 9 + 4).")),
             t(N_("Solo: count only the titles held once; a title held twice counts for "
                  "neither."))]
    for n, note in enumerate(notes):
        draw_text(c, note, 0, y - (n + 1) * FOOTER / 2, width, FOOTER / 2, size=6.5,
                  min_size=4.5, max_lines=1)
    c.setFillGray(0)
    y -= FOOTER
    if y > 18 * MM:                       # rows are capped in height: the rest is for notes
        c.setStrokeGray(0.6)
        c.setLineWidth(0.5)
        c.rect(0, 0, width, y - 2 * MM, stroke=1, fill=0)
        draw_text(c, t(N_("Notes")), 2 * MM, y - 8 * MM, width / 2, 5 * MM, size=7.5,
                  max_lines=1)


def _draw_names(s: Surface, names: Sequence[str], swatches, label_w: float, column_w: float,
                y: float) -> None:
    c, t = s.canvas, s.t
    c.setLineWidth(0.8)
    c.setStrokeGray(0)
    draw_text(c, t(N_("Player")), 2, y, label_w - 4, NAME_ROW, font=SANS_BOLD, size=10)
    for i, name in enumerate(names):
        x = label_w + i * column_w
        c.rect(x, y, column_w, NAME_ROW, stroke=1, fill=0)
        if swatches[i] is not None:
            c.setFillColor(swatches[i])
            c.circle(x + 6, y + NAME_ROW / 2, 3.2, stroke=1, fill=1)
        c.setFillGray(0)
        if name:
            draw_text(c, name, x + 3, y + 1.5, column_w - 6, NAME_ROW - 3, font=SANS_BOLD,
                      size=11, min_size=5.5, max_lines=3, align="center")
        else:
            c.setFillGray(0.6)
            c.setFont(SANS, 5.5)
            c.drawString(x + 2, y + NAME_ROW - 7, t(N_("name")))
            c.setFillGray(0)


def _draw_label(s: Surface, line: PadLine, x: float, y: float, width: float, h: float
                ) -> None:
    """A row's label: its name (with the colour's swatch), and under it the hint or, for a
    group, the squares table: different titles above, their VP below."""
    c = s.canvas
    bold = line.kind == "total"
    if bold:
        c.setFillGray(0.95)
        c.rect(x, y, width, h, stroke=0, fill=1)
        c.setFillGray(0)
    text_x = x + 3
    if line.kind in ("group", "starter"):
        c.setFillColorRGB(*COLOUR_RGB["starter" if line.kind == "starter" else line.key])
        c.rect(x + 1.5, y + 1.5, 2.2 * MM, h - 3, stroke=0, fill=1)
        c.setFillGray(0)
        text_x = x + 1.5 + 2.2 * MM + 2
    text_w = x + width - text_x - 2
    font = SANS_BOLD if bold or line.kind == "group" else SANS
    if line.kind == "group":
        label_h = h * 0.42
        draw_text(c, line.label, text_x, y + h - label_h, text_w, label_h, font=font,
                  size=7.5, min_size=5, max_lines=1)
        size = next(n for n in SIZES if colour_of_size(n) == line.key)
        _draw_squares(s, text_x, y + 1, text_w, h - label_h - 1.5, _largest_group(size),
                      standard=size)
    elif line.hint:
        label_h = 8.5 * 1.2
        draw_text(c, line.label, text_x, y + h - 1.2 - label_h, text_w, label_h, font=font,
                  size=8.5, min_size=5.5, max_lines=1)
        c.setFillGray(0.35)
        draw_text(c, line.hint, text_x, y + 0.8, text_w, h - 2.4 - label_h, size=6,
                  min_size=4.5, max_lines=2, valign="top", one_line_until=0.92)
        c.setFillGray(0)
    else:
        draw_text(c, line.label, text_x, y, text_w, h, font=font, size=9, min_size=5.5,
                  max_lines=2)


def _draw_squares(s: Surface, x: float, y: float, width: float, height: float, most: int,
                  standard: int) -> None:
    """The squares table beside a group's row (spec §14): 1 … ``most`` different titles and
    their VP, n²; the set of one box ends at ``standard`` (a thicker line after it)."""
    c = s.canvas
    cell = width / most
    half = height / 2
    c.setLineWidth(0.3)
    c.setStrokeGray(0.55)
    for n in range(1, most + 1):
        cx = x + (n - 1) * cell
        c.setFillGray(0.93)
        c.rect(cx, y + half, cell, half, stroke=1, fill=1)
        c.setFillGray(1)
        c.rect(cx, y, cell, half, stroke=1, fill=1)
        c.setFillGray(0.4)
        c.setFont(SANS, min(5.2, half * 0.75))
        c.drawCentredString(cx + cell / 2, y + half + half * 0.25, str(n))
        c.setFillGray(0)
        text = str(vk.group_points(n))
        size = min(6.4, half * 0.8)
        while size > 3.5 and c.stringWidth(text, SANS_BOLD, size) > cell - 1:
            size -= 0.2
        c.setFont(SANS_BOLD, size)
        c.drawCentredString(cx + cell / 2, y + half * 0.25, text)
    c.setLineWidth(1.1)
    c.setStrokeGray(0.2)
    edge = x + standard * cell
    c.line(edge, y, edge, y + height)
    c.setStrokeGray(0)


def _draw_cell(s: Surface, line: PadLine, x: float, y: float, width: float, h: float) -> None:
    """What a player's box prints to guide the hand: starters "× VP =", a unique's VP box,
    a group's "→" between the count and its square."""
    c = s.canvas
    c.setFillGray(0.45)
    if line.kind == "starter":
        text = f"×{vk.STARTER_VP_DEFAULT[line.key]} ="
        c.setFont(SANS, 6.5)
        c.drawCentredString(x + width * 0.42, y + h / 2 - 2.2, text)
    elif line.kind == "group":
        c.setFont(SANS, 7)
        c.drawCentredString(x + width * 0.42, y + h / 2 - 2.5, "→")
    elif line.kind == "unique":
        box = min(6 * MM, width * 0.32)
        c.setStrokeGray(0.5)
        c.setLineWidth(0.4)
        c.rect(x + width - box - 1, y + 1, box, h - 2, stroke=1, fill=0)
        c.setFont(SANS, 4.5)
        c.drawString(x + width - box, y + h - 5, s.t(N_("VP")))
    c.setFillGray(0)


# --------------------------------------------------------------------------------------------
# Tomb checklist cards (spec §14 field 5): one per pool
# --------------------------------------------------------------------------------------------

CHECKLIST_CARD = "190x130"                     # two to an A4 or Letter page
MIN_LINE = 3.4 * MM                            # still room to tick a box


@dataclass(frozen=True)
class Item:
    """One line of a checklist: a heading, a title to tick, a write-in line, a unique line,
    a starter line or a group's result line."""

    kind: str                     # heading | title | write_in | unique | starter | result
    text: str = ""
    colour: str = ""
    boxes: int = 0                # tick boxes (copies)


def pool_sections(pool_id: pools.PoolId) -> list[tuple[str, tuple[str, ...], bool, int]]:
    """(colour, sets, chosen, copies) for each scoring group of a pool, colour by colour:
    a group's sets (two when merged, §11); where the table picks the set of a size, both
    boxes' sets with ``chosen`` True (the player ticks the one in play)."""
    chosen = pools.CHOSEN_SIZES.get(pool_id, ())
    pool = pools.build_pool(pool_id)
    sections = []
    for size in SIZES:
        colour = colour_of_size(size)
        if size in chosen:
            sections.append((colour, vk.SIZE_PAIRS[size], True, pool.copies))
            continue
        for group in pool.groups:
            if vk.SETS[group.sets[0]].colour.value == colour:
                sections.append((colour, group.sets, False, pool.copies))
    return sections


def checklist_items(t: Translator, pool_id: pools.PoolId) -> list[Item]:
    """Every line of one pool's checklist card: per group its titles (a write-in line for a
    title no source names) and a line for its different titles and their VP; the Afterlife
    names whose set no source states; a line per unique in play; the four starters."""
    pool = pools.build_pool(pool_id)
    items: list[Item] = []
    for colour, sets, chosen, copies in pool_sections(pool_id):
        names = " / ".join(card_name(t, s) for s in sets)
        if chosen:
            heading = t(N_("%(sets)s: the set in play"), sets=names)
        elif len(sets) > 1:
            heading = t(N_("%(sets)s, one group"), sets=names)
        else:
            heading = names
        items.append(Item("heading", heading, colour))
        for title in (title for set_id in sets for title in vk.set_titles(set_id)):
            if vk.TITLES[title].placeholder:
                items.append(Item("write_in", card_name(t, str(vk.TITLES[title].set_id)),
                                  colour, copies))
            else:
                items.append(Item("title", card_name(t, title), colour, copies))
        items.append(Item("result", t(N_("different titles of both → VP")) if len(sets) > 1
                          and not chosen else t(N_("different titles → VP")), colour))
    if any(vk.SETS[s].box is vk.Box.AFTERLIFE for s in pool.sets):
        items.append(Item("heading", t(N_("Set not known yet: count in its colour")), ""))
        items += [Item("title", card_name(t, title), "", pool.copies) for title in vk.UNPLACED]
    items.append(Item("heading", t(N_("Unique artifacts: title and VP")), "unique"))
    items += [Item("unique", "", "unique") for _ in range(pool.uniques)]
    items.append(Item("heading", t(N_("Starter cards: how many")), "starter"))
    items += [Item("starter", card_name(t, starter), "starter") for starter in vk.STARTERS]
    return items


def _checklist_face(pool_id: pools.PoolId, url: str):
    """The Draw of one pool's checklist card."""

    def draw(s: Surface) -> None:
        c, t, w, h = s.canvas, s.t, s.width, s.height
        band = 9 * MM
        c.setFillColorRGB(*BAND)
        c.rect(0, h - band, w, band, stroke=0, fill=1)
        c.setFillGray(1)
        title = t(N_("Tomb checklist · %(pool)s"), pool=Term(pools.POOL_LABELS[pool_id]))
        draw_text(c, title, 3 * MM, h - band, w * 0.62, band, font=SANS_BOLD, size=10.5,
                  min_size=6, max_lines=1)
        label = t(N_("Player"))
        draw_text(c, label, w * 0.66, h - band, 16 * MM, band, size=8, max_lines=1,
                  align="right")
        c.setStrokeGray(1)
        c.setLineWidth(0.6)
        c.line(w * 0.66 + 17 * MM, h - band + 2.5 * MM, w - 3 * MM, h - band + 2.5 * MM)
        c.setFillGray(0)
        c.setStrokeGray(0)
        qr = 14 * MM
        s.qr(url, w - qr - 1.5 * MM, 1.5 * MM, qr)
        c.setFillGray(0.35)
        draw_text(c, t(N_("Tick a box for each copy in your tomb; write the titles the list "
                          "cannot name. Each colour scores its different titles squared: "
                          "1, 4, 9, 16, 25, 36, 49 …")), 3 * MM, 1.5 * MM,
                  w - qr - 8 * MM, 7 * MM, size=6.5, min_size=4.5, max_lines=2)
        c.setFillGray(0)
        _draw_checklist(s, checklist_items(t, pool_id), 3 * MM, 10 * MM, w - 6 * MM,
                        h - band - 12 * MM, t)

    return draw


def _draw_checklist(s: Surface, items: list[Item], x0: float, y0: float, width: float,
                    height: float, t: Translator) -> None:
    """The items in three columns, top to bottom; a heading never ends a column."""
    columns = 3
    gap = 3 * MM
    column_w = (width - (columns - 1) * gap) / columns
    per_column = -(-len(items) // columns)
    line = min(5 * MM, height / (per_column + 1))
    if line < MIN_LINE:
        raise LayoutError("print.card_overflow",
                          N_("The text of the card “%(title)s” does not fit on the card."),
                          title="checklist")
    column, y = 0, y0 + height
    for item in items:
        last_in_column = y - 2 * line < y0
        if (y - line < y0 - 0.01) or (item.kind == "heading" and last_in_column):
            column += 1
            y = y0 + height
            if column >= columns:
                raise LayoutError("print.card_overflow",
                                  N_("The text of the card “%(title)s” does not fit on the "
                                     "card."), title="checklist")
        y -= line
        _draw_item(s, item, x0 + column * (column_w + gap), y, column_w, line, t)


def _draw_item(s: Surface, item: Item, x: float, y: float, width: float, line: float,
               t: Translator) -> None:
    c = s.canvas
    box = min(2.8 * MM, line * 0.7)
    mid = y + (line - box) / 2
    if item.kind == "heading":
        if item.colour:
            c.setFillColorRGB(*COLOUR_RGB[item.colour])
            c.rect(x, y + line * 0.2, 1.6 * MM, line * 0.6, stroke=0, fill=1)
        c.setFillGray(0)
        draw_text(c, item.text, x + 2.4 * MM, y, width - 2.4 * MM, line, font=SANS_BOLD,
                  size=7.5, min_size=4.5, max_lines=1)
        return
    c.setLineWidth(0.5)
    c.setStrokeGray(0.2)
    if item.kind in ("title", "write_in"):
        for n in range(item.boxes):
            c.rect(x + 1 * MM + n * (box + 0.8 * MM), mid, box, box, stroke=1, fill=0)
        text_x = x + 1 * MM + 2 * (box + 0.8 * MM) + 0.6 * MM
        if item.kind == "title":
            draw_text(c, item.text, text_x, y, x + width - text_x, line, size=7,
                      min_size=4.5, max_lines=1)
        else:
            c.setStrokeGray(0.55)
            c.setLineWidth(0.35)
            c.line(text_x, y + 0.8, x + width, y + 0.8)
            c.setFillGray(0.6)
            draw_text(c, item.text, text_x, y + 1, x + width - text_x, line * 0.6, size=5,
                      min_size=4, max_lines=1)
            c.setFillGray(0)
    elif item.kind == "unique":
        c.setStrokeGray(0.55)
        c.setLineWidth(0.35)
        vp_w = 7 * MM
        c.line(x + 1 * MM, y + 0.8, x + width - vp_w - 2 * MM, y + 0.8)
        c.rect(x + width - vp_w, mid, vp_w, box, stroke=1, fill=0)
        c.setFillGray(0.5)
        c.setFont(SANS, 4.5)
        c.drawString(x + width - vp_w - 4.5 * MM, mid + 0.5, t(N_("VP")))
        c.setFillGray(0)
    elif item.kind == "starter":
        draw_text(c, item.text, x + 1 * MM, y, width - 12 * MM, line, size=7, min_size=4.5,
                  max_lines=1)
        c.rect(x + width - 9 * MM, mid, 9 * MM, box, stroke=1, fill=0)
    elif item.kind == "result":
        c.setFillGray(0.35)
        draw_text(c, item.text, x + 1 * MM, y, width * 0.55, line, size=6, min_size=4.5,
                  max_lines=1)
        c.setFillGray(0)
        for n, edge in enumerate((0.58, 0.8)):
            c.rect(x + width * edge, mid, width * 0.17, box, stroke=1, fill=0)


def tomb_checklists(*, page: str = "a4", lang: str = "en", qr_url: str) -> bytes:
    """A page per pool (spec §11), each with two identical checklist cards (two players)."""
    url = check_url(qr_url)
    grid = card_grid(page, CHECKLIST_CARD)
    t = translator(lang)
    writer = PdfWriter(grid.page, lang=lang, subject=url, title=t(CHECKLIST_TITLE))
    cards = [Card(_checklist_face(pool_id, url)) for pool_id in pools.PoolId
             for _copy in range(grid.per_page)]
    writer.cards(grid, cards)
    return writer.finish()


# --------------------------------------------------------------------------------------------
# The turn summary (spec §5, §4, §9, §10)
# --------------------------------------------------------------------------------------------


def turn_card(t: Translator):
    """Front: the four steps of a turn and the pyramid (§4, §5)."""
    return t(N_("Valley of the Kings · your turn")), [
        Heading(t(N_("1. Play your cards, in any order"))),
        Para(t(N_("Each hand card once: its capital to buy, its action, or the free seal."))),
        Line(t(N_("Buy")), t(N_("a base card: capital ≥ cost, no change"))),
        Line(t(N_("Action")), t(N_("do all of it; “may” parts are optional"))),
        Line(t(N_("Free seal")), t(N_("%(n)d card from hand a turn"),
                                   n=FREE_SEALS_PER_TURN)),
        Heading(t(N_("2. Discard"))),
        Para(t(N_("Played and held cards onto your own discard pile."))),
        Heading(t(N_("3. Rebuild"))),
        Para(t(N_("If the pyramid did not change this turn, sacrifice %(n)d of its cards. "
                  "Then refill it from the supply, bottom row first."),
               n=vk.REBUILD_SACRIFICES)),
        Heading(t(N_("4. Draw %(n)d"), n=vk.HAND_SIZE)),
        Para(t(N_("An empty deck: shuffle your discard pile into a new one."))),
        Para(t(N_("The pyramid crumbles at once. Where two cards could drop into the middle "
                  "of the base, the player whose turn it is chooses.")), grey=True),
    ]


def scoring_card(t: Translator):
    """Back: what scores, the end and the tie (§9, §10, §12)."""
    return t(N_("Valley of the Kings · the end")), [
        Heading(t(N_("Only the tomb scores"))),
        Para(t(N_("Starter cards and unique artifacts: the VP printed on them."))),
        Heading(t(N_("Each set: different titles, squared"))),
        Grid((grid_row(t(N_("titles")), list(vk.SET_SCORE_TABLE)),
              grid_row(t(N_("VP")), list(vk.SET_SCORE_TABLE.values())))),
        Para(t(N_("A second copy of a title adds nothing. Solo: a title held twice counts "
                  "for neither."))),
        Heading(t(N_("End of the game"))),
        Para(t(N_("After the round in which the supply and the pyramid are both empty: "
                  "everyone has had the same number of turns."))),
        Heading(t(N_("Tie"))),
        Para(t(N_("Fewer cards in the tomb wins; still tied, the win is shared."))),
        Para(t(N_("A mistake is corrected only before the next player plays a card.")),
             grey=True),
    ]


CONTENT = register(GamePrint(
    game="valley",
    pad=PadSheet(PAD_TITLE, draw_valley_pad),
    cards=(ReferenceCard(turn_card, scoring_card),),
    extras=(Printout("checklist", CHECKLIST_TITLE, tomb_checklists),),
    band=BAND))
