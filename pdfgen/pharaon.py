"""Pharaon's printouts (spec pharaon.md), registered with :mod:`pdfgen.registry`: the score pad
(the seven categories in scorepad order, §6.1, with a row for the gods each player claimed),
the payment aid card (entry, deduction, silver, offerings: §4.2, §2.3), the noble reference
sheet (the 26 nobles of §4.6) and the Traitor's turn aid (§7).

Every number comes from ``companion.rules.pharaon.printed`` (through :mod:`.pharaon_data`), so
the paper says what the engine computes; the pad, the sheets and the cards carry the QR code
the printing service gives (the table's, or the game's score form).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from companion.rules.pharaon import printed as ph

from . import pharaon_data as data
from .cardface import Grid, Heading, Line, Para, grid_row
from .document import Surface
from .errors import LayoutError
from .fonts import SANS, SANS_BOLD
from .geometry import MM
from .i18n import N_, Translator
from .pads import signed
from .registry import AidSheet, GamePrint, PadRow, PadSpec, ReferenceCard, register
from .text import LEADING, draw_text, text_width, wrap_words

BAND = (0.58, 0.42, 0.12)
NOBLES_TITLE = N_("Pharaon · the 26 nobles")
TRAITOR_TITLE = N_("Pharaon · the Traitor's turn")


# --------------------------------------------------------------------------------------------
# The score pad (spec §6.1, §6.2, §7.7)
# --------------------------------------------------------------------------------------------


def pad_rows() -> tuple[PadRow, ...]:
    labels = ph.CATEGORY_LABELS
    nile = ph.NILE_POINTS
    return (
        PadRow("section", N_("Final scoring, in the scorepad's order")),
        PadRow("entry", N_("Gods claimed"),
               N_("write their names: a god pays only with both halves met; two gods of one "
                  "area need as many elements as both thresholds together")),
        PadRow("entry", labels["gods"], N_("both halves of every god claimed")),
        PadRow("entry", labels["nobles"], N_("each card's formula (see the noble sheet)")),
        PadRow("entry", labels["nile"], N_("per track: level 2 → %(two)s, level 3 → %(three)s"),
               {"two": signed(nile[2]), "three": signed(nile[3])}),
        PadRow("entry", labels["leftovers"],
               N_("1 per token and offering; a +1 offering %(one)s more, a +2 %(two)s more"),
               {"one": signed(ph.OFFERING_EXTRA_POINTS["P1"]),
                "two": signed(ph.OFFERING_EXTRA_POINTS["P2"])}),
        PadRow("entry", labels["artisans"], N_("the points printed on them")),
        PadRow("entry", labels["tomb"], N_("the points of the last space reached only")),
        PadRow("entry", labels["tokens"], N_("Pharaoh token %(pharaoh)s · first-player token "
                                             "%(first)s"),
               {"pharaoh": signed(ph.PHARAOH_TOKEN_POINTS),
                "first": signed(ph.FIRST_PLAYER_TOKEN_POINTS)}),
        PadRow("result", N_("Total")),
        PadRow("entry", N_("Resources and offerings left (tie-break)"),
               N_("a tie: the Pharaoh token's holder wins, else the most left, else shared")),
        PadRow("result", N_("Rank")),
    )


# --------------------------------------------------------------------------------------------
# The payment aid card (spec §4.2, §4.3, §2.3, §8 examples 1-5)
# --------------------------------------------------------------------------------------------


def paying_card(t: Translator):
    """Front: entry, deduction, silver (spec §4.2 and the seed's examples 1-3)."""
    return t(N_("Pharaon · paying for an action")), [
        Heading(t(N_("1. The entry"))),
        Para(t(N_("Lay one token of the colour facing the area on the first free spot from "
                  "the left. The 4+ spot only with 4 or 5 players. No free spot: the area is "
                  "closed this round (nobles 13–16 excepted)."))),
        Heading(t(N_("2. The action cost, less one"))),
        Para(t(N_("The entry counts as one unit of the action cost when the cost asks for its "
                  "kind. Only that one token is deducted."))),
        Grid((grid_row(t(N_("Artisans: 3 of one kind")),
                       [t(N_("paid in the entry's colour")), t(N_("paid in another colour"))]),
              grid_row(t(N_("tokens spent")), [1 + 2, 1 + 3]))),
        Heading(t(N_("3. Silver and Scribes"))),
        Para(t(N_("Silver stands for any basic kind; laid as the entry it stays that kind. A "
                  "Scribe makes its two colours interchangeable for you, one kind per token."))),
        Para(t(N_("Nobles 7–10: in their area the entry may be any basic token, counted as "
                  "its own colour.")), grey=True),
    ]


def costs_card(t: Translator):
    """Back: the action costs and what each class of offering may pay (§4.3, §2.3)."""
    blocks: list = [Heading(t(N_("Action costs")))]
    blocks += [Line(t(data.area_label(area)), t(cost)) for area, cost in data.ACTION_COSTS]
    blocks += [
        Para(t(N_("Offerings: one more of the same kind buys a bonus offering too.")),
             grey=True),
        Heading(t(N_("Offerings"))),
        Line(t(N_("resource offering")), t(N_("its kind, anywhere"))),
        Line(t(N_("area offering")), t(N_("any kind, in its area"))),
        Line(t(N_("+1 / +2 offering")), t(N_("kept: %(one)d / %(two)d points"),
                                            one=1 + ph.OFFERING_EXTRA_POINTS["P1"],
                                            two=1 + ph.OFFERING_EXTRA_POINTS["P2"])),
        Para(t(N_("Spent offerings go to the discard pile; the bag takes them back only when "
                  "it is empty. Tokens paid go back to the bank.")), grey=True),
    ]
    return t(N_("Pharaon · costs and offerings")), blocks


# --------------------------------------------------------------------------------------------
# A small two-level flow for the full-page sheets: headings, paragraphs, two-cell rows
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Text:
    kind: str           # "heading", "para", "row" (a name and its text), "step" (n. text)
    text: str
    second: str = ""    # "row", "step": the right-hand cell

    @property
    def split(self) -> float:
        """The share of the width the left cell takes."""
        return 0.07 if self.kind == "step" else 0.36


def _flow(s: Surface, blocks: Sequence[Text], columns: int, title: str) -> None:
    """Lay ``blocks`` out in ``columns`` columns, shrinking the text until all of it fits;
    LayoutError when even the smallest size does not."""
    c = s.canvas
    gap = 6 * MM
    width = (s.width - gap * (columns - 1)) / columns
    for size in [x / 4 for x in range(40, 23, -1)]:          # 10 pt down to 6 pt
        placed = _place(blocks, width, s.height, columns, size, s.t.lang)
        if placed is not None:
            break
    else:
        raise LayoutError("print.sheet_too_small",
                          N_("The sheet “%(title)s” does not fit on this page."), "page",
                          title=title)
    for column, y, block, lines, right in placed:
        x = column * (width + gap)
        if block.kind == "heading":
            c.setFillGray(0.86)
            c.rect(x, y - len(lines) * size * 1.15 * LEADING - 1, width,
                   len(lines) * size * 1.15 * LEADING + 2, stroke=0, fill=1)
            c.setFillGray(0)
            c.setFont(SANS_BOLD, size * 1.15)
            for i, line in enumerate(lines):
                c.drawString(x + 2, y - (i + 0.85) * size * 1.15 * LEADING, line)
        elif block.kind in ("row", "step"):
            c.setFont(SANS_BOLD, size)
            for i, line in enumerate(lines):
                c.drawString(x, y - (i + 0.85) * size * LEADING, line)
            c.setFont(SANS, size)
            for i, line in enumerate(right):
                c.drawString(x + width * block.split, y - (i + 0.85) * size * LEADING, line)
            c.setStrokeGray(0.8)
            c.setLineWidth(0.3)
            rows = max(len(lines), len(right))
            c.line(x, y - rows * size * LEADING - 1.2, x + width, y - rows * size * LEADING - 1.2)
        else:
            c.setFont(SANS, size)
            for i, line in enumerate(lines):
                c.drawString(x, y - (i + 0.85) * size * LEADING, line)


def _place(blocks: Sequence[Text], width: float, height: float, columns: int, size: float,
           lang: str):
    """Where every block goes at ``size``: (column, top y, block, lines, right lines), or None
    when the blocks need more than ``columns`` columns, or a word fits neither whole nor
    hyphenated in ``lang`` (then a smaller size is tried). A heading never ends a column."""
    placed = []
    column, y = 0, height
    for index, block in enumerate(blocks):
        right: list[str] | None = []
        if block.kind == "heading":
            lines = wrap_words(block.text, SANS_BOLD, size * 1.15, width - 4, lang)
        elif block.kind in ("row", "step"):
            lines = wrap_words(block.text, SANS_BOLD, size, width * (block.split - 0.02), lang)
            right = wrap_words(block.second, SANS, size, width * (1 - block.split), lang)
        else:
            lines = wrap_words(block.text, SANS, size, width, lang)
        if lines is None or right is None:
            return None
        if block.kind == "heading":
            need = len(lines) * size * 1.15 * LEADING + size * 0.9
            follow = blocks[index + 1] if index + 1 < len(blocks) else None
            keep = need + (size * LEADING * 2 if follow else 0)
        elif block.kind in ("row", "step"):
            need = max(len(lines), len(right)) * size * LEADING + size * 0.55
            keep = need
        else:
            need = len(lines) * size * LEADING + size * 0.5
            keep = need
        if any(text_width(x, SANS, size) > width for x in right + lines):
            return None
        if y - keep < 0:
            column, y = column + 1, height
            if column >= columns:
                return None
        placed.append((column, y, block, lines, right))
        y -= need
    return placed


# --------------------------------------------------------------------------------------------
# The noble reference sheet (spec §4.6)
# --------------------------------------------------------------------------------------------


def nobles_intro(t: Translator) -> list[str]:
    return [t(N_("Every noble with its end points and its effect. The name in grey is the one "
                 "printed on the Czech cards.")),
            t(N_("Once a round: turn the card sideways when used, upright at the round's "
                 "end. When taken: its effect happens once, at once."))]


def nobles_sheet(s: Surface) -> None:
    """The 26 nobles as a table: number, name (and the Czech card's), type, points, effect,
    grouped by type (below the shared header with the title and :func:`nobles_intro`)."""
    c, t = s.canvas, s.t
    width, height = s.width, s.height
    lines = data.noble_lines()
    head_h, band_h = 6 * MM, 5 * MM
    groups = [(kind, [n for n in lines if n.type == label])
              for kind, label in data.TYPE_LABELS.items()]
    row_h = (height - head_h - band_h * len(groups)) / len(lines)
    if row_h < 6.5 * MM:
        raise LayoutError("print.sheet_too_small",
                          N_("The sheet “%(title)s” does not fit on this page."), "page",
                          title=t(NOBLES_TITLE))
    shares = (0.05, 0.21, 0.30, 0.44)               # #, name, points, effect
    xs = [0.0]
    for share in shares:
        xs.append(xs[-1] + share * width)
    y = height - head_h
    c.setFillGray(0.25)
    c.rect(0, y, width, head_h, stroke=0, fill=1)
    c.setFillGray(1)
    for x0, x1, label in zip(xs, xs[1:], ("#", t(N_("Noble")), t(N_("Points at the end")),
                                          t(N_("Effect")))):
        draw_text(c, label, x0 + 1.5, y, x1 - x0 - 3, head_h, font=SANS_BOLD, size=8,
                  max_lines=1, lang=t.lang)
    c.setFillGray(0)
    for kind, members in groups:
        y -= band_h
        c.setFillGray(0.86)
        c.rect(0, y, width, band_h, stroke=0, fill=1)
        c.setFillGray(0)
        draw_text(c, t(data.TYPE_LABELS[kind]), 2, y, width - 4, band_h, font=SANS_BOLD,
                  size=8, max_lines=1, lang=t.lang)
        for noble in members:
            y -= row_h
            cells = (str(noble.number), None,
                     t(noble.points, **noble.points_params),
                     t(noble.effect, **noble.effect_params))
            for i, (x0, x1) in enumerate(zip(xs, xs[1:])):
                if i == 1:
                    draw_text(c, t(noble.name), x0 + 1.5, y + row_h * 0.45, x1 - x0 - 3,
                              row_h * 0.55, font=SANS_BOLD, size=8, min_size=5.5,
                              max_lines=1, lang=t.lang)
                    c.setFillGray(0.4)
                    draw_text(c, noble.printed, x0 + 1.5, y + 0.5, x1 - x0 - 3,
                              row_h * 0.45, size=7, min_size=5, max_lines=1, lang="cs")
                    c.setFillGray(0)
                    continue
                draw_text(c, cells[i], x0 + 1.5, y, x1 - x0 - 3, row_h,
                          font=SANS_BOLD if i == 0 else SANS, size=7.5, min_size=5,
                          max_lines=3, one_line_until=0.95, lang=t.lang)
            c.setStrokeGray(0.75)
            c.setLineWidth(0.3)
            c.line(0, y, width, y)


# --------------------------------------------------------------------------------------------
# The Traitor's turn aid (spec §7.2-§7.7)
# --------------------------------------------------------------------------------------------

SYMBOLS: tuple[tuple[str, str], ...] = (
    (N_("Tomb"), N_("His cube moves one tomb space (nothing at the end of the track).")),
    (N_("God"), N_("He will score that god's two halves, without conditions.")),
    (N_("Take noble n"), N_("He takes the n-th displayed noble (left to right); its effect "
                            "is ignored. Refill the display.")),
    (N_("Discard noble n"), N_("Discard the n-th displayed noble. Refill the display.")),
    (N_("Noble multiplier × k"), N_("At the end his nobles score their number × the highest "
                                    "k reached.")),
    (N_("Take an artisan"), N_("He takes the displayed artisan with the most points (a tie: "
                               "the leftmost); its resources are ignored. Refill.")),
    (N_("Discard an artisan"), N_("Discard the displayed artisan with the most points (a "
                                  "tie: the leftmost). Refill.")),
    (N_("Offering pair n"), N_("He takes the n-th pair, counted top to bottom.")),
    (N_("Bonus offering n"), N_("He takes the n-th bonus token, counted top to bottom.")),
    (N_("Nile: fullest / emptiest"), N_("His disc on the track of the colour of the most "
                                        "(least) filled column rises 1 (a tie: the "
                                        "leftmost).")),
)


def traitor_intro(t: Translator) -> list[str]:
    return [t(N_("Solo: the Traitor plays his turns by these steps; you only decide where the "
                 "rules say so. On a phone, Scribe plays them for you and shows each step.")),
            t(N_("Difficulty: turn 0 to 5 tiles dark side up before play; more dark tiles, "
                 "harder."))]


def traitor_blocks(t: Translator) -> list[Text]:
    steps = [
        N_("Passed already? He steps on the pyramid and takes the reward of the space he "
           "reached."),
        N_("No jar left in his stack? He passes (no jar for him); his cylinder goes to the "
           "pyramid like yours."),
        N_("Otherwise flip his top jar: top left, top right, bottom (take them from the "
           "bank; silver: you pick the colour)."),
        N_("The bottom token goes on his columns (see below)."),
        N_("A top token whose colour's segment has a free spot goes there, on the first free "
           "spot; if both could, you choose. It closes spots to you for the round."),
        N_("The other top token goes on his columns (both, if neither could go on the "
           "wheel). Discard the jar."),
    ]
    blocks = [Text("heading", t(N_("His turn")))]
    blocks += [Text("step", f"{n}.", t(step)) for n, step in enumerate(steps, 1)]
    blocks += [
        Text("heading", t(N_("A token on his columns"))),
        Text("para", t(N_("On the lowest free space of the column of its colour; that space's "
                          "symbol acts at once. A full column: the next one to the right, "
                          "from the rightmost to the leftmost. All full: it stays in the "
                          "bank."))),
        Text("heading", t(N_("Symbols")))]
    blocks += [Text("row", t(symbol), t(effect)) for symbol, effect in SYMBOLS]
    blocks += [
        Text("heading", t(N_("Each round"))),
        Text("para", t(N_("His stack: as many face-down jars as the tile at the round's "
                          "position shows (round 1: the leftmost). When you pass in rounds "
                          "1–4 you take 1 of the 2 jars; the other blocks wheel spots next "
                          "round."))),
        Text("heading", t(N_("His score"))),
        Text("para", t(N_("As yours, except: gods — both halves of every god whose space he "
                          "occupied, no conditions; nobles — their number × his highest "
                          "multiplier (%(k)d if none). Ties go to him."),
                       k=ph.TRAITOR_DEFAULT_MULTIPLIER)),
    ]
    return blocks


def traitor_sheet(s: Surface) -> None:
    """His turn step by step, where a token goes, every column symbol, the round and his
    score, in two columns below the shared header."""
    _flow(s, traitor_blocks(s.t), 2, s.t(TRAITOR_TITLE))


CONTENT = register(GamePrint(
    game="pharaon",
    pad=PadSpec(N_("Pharaon · score pad"), pad_rows(),
                N_("Solo: score the Traitor in a column of his own: every god whose space "
                   "he occupied pays both halves; his nobles score their number × his "
                   "highest multiplier; ties go to him.")),
    cards=(ReferenceCard(paying_card, costs_card),),
    sheets=(AidSheet("nobles", NOBLES_TITLE, nobles_sheet, nobles_intro),
            AidSheet("traitor", TRAITOR_TITLE, traitor_sheet, traitor_intro)),
    band=BAND))
