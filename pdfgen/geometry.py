"""Paper geometry in millimetres: page and card sizes, margins, bleed, n-up grids, crop marks,
mirrored backs and gutter folds (design.md §5).

This module only computes and validates positions; it draws nothing. A generator asks for a
:class:`SheetGeometry` (a full page such as a score pad) or a :class:`CardGrid` (cards laid out
n-up) and hands each slot to its own drawing callback, the way label-sheet libraries separate
the label template from what is printed on a label.

Coordinates are PDF-like: origin at the bottom-left of the page, x to the right, y up.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from .errors import LayoutError
from .i18n import N_

MM = 72 / 25.4                      # points per millimetre

# A quarter inch: what US inkjets leave unprinted at the edges; A4 home printers need 3–5 mm,
# so one margin is safe on both papers.
SAFE_MARGIN = 6.35
MAX_BLEED = 5.0
MARK_LENGTH = 3.0                   # crop marks: length, and the least gap to the trim line
MARK_MIN_OFFSET = 1.5
DEFAULT_GUTTER = 8.0                # gutter fold: trim to trim across the fold


@dataclass(frozen=True)
class Size:
    """A width × height in millimetres."""

    width: float
    height: float

    def turned(self) -> "Size":
        return Size(self.height, self.width)

    @property
    def points(self) -> tuple[float, float]:
        return (self.width * MM, self.height * MM)


PAGE_SIZES: dict[str, Size] = {"a4": Size(210.0, 297.0), "letter": Size(215.9, 279.4)}
CARD_SIZES: dict[str, Size] = {"poker": Size(63.0, 88.0), "mini": Size(44.0, 63.0)}


def page_size(name: str) -> Size:
    """A4 or Letter by name (case-insensitive); LayoutError for anything else."""
    try:
        return PAGE_SIZES[str(name).lower()]
    except KeyError:
        raise LayoutError("print.unknown_page", N_("Unknown page size “%(name)s”: choose one "
                                                   "of %(choices)s."), "page", name=str(name),
                          choices=", ".join(PAGE_SIZES)) from None


def card_size(name: str) -> Size:
    """Poker (63 × 88 mm), mini (44 × 63 mm), or any ``WIDTHxHEIGHT`` in mm (``70x120``);
    LayoutError for anything else."""
    key = str(name).lower().replace("×", "x").replace(" ", "")
    if key in CARD_SIZES:
        return CARD_SIZES[key]
    width, _, height = key.removesuffix("mm").partition("x")
    try:
        size = Size(float(width), float(height))
    except ValueError:
        size = None
    if size is None or not (5 <= size.width <= 1000 and 5 <= size.height <= 1000):
        raise LayoutError("print.unknown_card", N_("Unknown card size “%(name)s”: choose one "
                                                   "of %(choices)s, or give width×height in "
                                                   "mm (5 to 1000)."), "card",
                          name=str(name), choices=", ".join(CARD_SIZES))
    return size


@dataclass(frozen=True)
class Box:
    """A rectangle on the page, in millimetres."""

    x: float
    y: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.x + self.width

    @property
    def top(self) -> float:
        return self.y + self.height

    def expanded(self, by: float) -> "Box":
        return Box(self.x - by, self.y - by, self.width + 2 * by, self.height + 2 * by)

    def contains(self, other: "Box", tolerance: float = 1e-6) -> bool:
        return (other.x >= self.x - tolerance and other.y >= self.y - tolerance
                and other.right <= self.right + tolerance and other.top <= self.top + tolerance)

    def overlaps(self, other: "Box", tolerance: float = 1e-6) -> bool:
        return (self.x < other.right - tolerance and other.x < self.right - tolerance
                and self.y < other.top - tolerance and other.y < self.top - tolerance)

    @property
    def points(self) -> tuple[float, float, float, float]:
        """(x, y, width, height) in points."""
        return (self.x * MM, self.y * MM, self.width * MM, self.height * MM)

    @property
    def pdf_box(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) in points, as PDF page boxes are written."""
        return (self.x * MM, self.y * MM, self.right * MM, self.top * MM)


def bounding(boxes: "list[Box] | tuple[Box, ...]") -> Box:
    x0 = min(b.x for b in boxes)
    y0 = min(b.y for b in boxes)
    return Box(x0, y0, max(b.right for b in boxes) - x0, max(b.top for b in boxes) - y0)


def _check_margin(page: Size, margin: float) -> None:
    if not isinstance(margin, (int, float)) or math.isnan(margin) or margin < 0 \
            or margin >= min(page.width, page.height) / 4:
        raise LayoutError("print.bad_margin", N_("The margin must be between 0 and %(max)d mm."),
                          "margin", max=int(min(page.width, page.height) / 4))


@dataclass(frozen=True)
class SheetGeometry:
    """A full page (a score pad, a tally sheet): the paper and the area we may print on."""

    page: Size
    margin: float = SAFE_MARGIN

    @property
    def content(self) -> Box:
        return Box(self.margin, self.margin, self.page.width - 2 * self.margin,
                   self.page.height - 2 * self.margin)


def sheet_geometry(page: str = "a4", margin: float = SAFE_MARGIN) -> SheetGeometry:
    """The printable frame of an A4 or Letter page (validated)."""
    size = page_size(page)
    _check_margin(size, margin)
    return SheetGeometry(size, margin)


Sides = Literal["single", "duplex", "gutter"]
Flip = Literal["long", "short"]


@dataclass(frozen=True)
class CardSlot:
    """Where one card goes: its trim and bleed boxes on the page and how it is turned.

    ``rotation`` (0, 90, 180 or 270, counter-clockwise) turns the card's own drawing, made in
    card coordinates (0, 0)–(card width, card height), onto the page.
    """

    index: int
    trim: Box
    bleed: Box
    rotation: int


@dataclass(frozen=True)
class CardGrid:
    """Cards laid out n-up: the slots of a page, for fronts and (if any) for backs.

    single: every page holds fronts only. duplex: fronts on odd pages, backs on even pages at
    the mirrored place, for the printer's ``flip`` edge. gutter: fronts on the left half and
    their backs mirrored on the right half of the same page; fold along ``fold`` and glue.
    """

    page: Size
    card: Size
    bleed: float
    margin: float
    gap: float
    columns: int
    rows: int
    rotated: bool
    sides: Sides
    flip: Flip
    crop_marks: bool
    fronts: tuple[CardSlot, ...]
    backs: tuple[CardSlot, ...]          # backs[i] is the back of fronts[i] (empty for single)
    marks: tuple[tuple[float, float, float, float], ...]   # crop mark segments x0, y0, x1, y1
    fold: tuple[float, float, float, float] | None          # the fold line (gutter only)
    mark_offset: float = MARK_MIN_OFFSET

    def marks_for(self, slots: "list[CardSlot] | tuple[CardSlot, ...]"
                  ) -> tuple[tuple[float, float, float, float], ...]:
        """Crop marks for a page holding only ``slots`` (the last, partly filled page)."""
        if not self.crop_marks or not slots:
            return ()
        return marks_around(list(slots), self.mark_offset)

    @property
    def per_page(self) -> int:
        return len(self.fronts)

    @property
    def trim_box(self) -> Box:
        """Everything to keep after cutting, on a front page (and a gutter page)."""
        return bounding([s.trim for s in self.fronts + (self.backs if self.sides == "gutter"
                                                        else ())])

    def back_trim_box(self) -> Box:
        return bounding([s.trim for s in self.backs]) if self.backs else self.trim_box


def _fit(length: float, card: float, gap: float, bleed: float) -> int:
    """How many cards of ``card`` with ``gap`` between trims fit in ``length`` with bleed."""
    return max(0, math.floor((length - 2 * bleed + gap + 1e-9) / (card + gap)))


def _back_rotation(rotation: int, axis: str) -> int:
    """The turn of a back so that it is upright when the card is turned over side to side.

    Turning the sheet over about a vertical ``axis`` keeps an upright card's top at the top;
    a card lying on its side (90/270) then needs half a turn more, and the other way round
    for a horizontal axis.
    """
    lying = rotation in (90, 270)
    if (axis == "vertical") == lying:
        return (rotation + 180) % 360
    return rotation


def card_grid(page: str = "a4", card: str = "poker", *, bleed: float = 0.0,
              margin: float = SAFE_MARGIN, gap: float | None = None,
              crop_marks: bool | None = None, sides: Sides = "single", flip: Flip = "long",
              rotate: bool | None = None, gutter: float | None = None) -> CardGrid:
    """Lay out cards n-up on a page (validated, in mm).

    ``bleed`` (0–5 mm) is printed around every card, so cards then need a ``gap`` of at least
    twice the bleed between them (default exactly that; 0 without bleed, so one cut serves two
    cards). ``crop_marks`` (default: on with bleed) go in the margin outside the block, one at
    each cut line. ``rotate`` None picks the orientation that fits more cards (upright on a
    tie). Raises LayoutError when the card cannot fit or the options contradict each other.
    """
    paper = page_size(page)
    size = card_size(card)
    _check_margin(paper, margin)
    if sides not in ("single", "duplex", "gutter"):
        raise LayoutError("print.bad_sides", N_("Sides must be single, duplex or gutter."),
                          "sides")
    if flip not in ("long", "short"):
        raise LayoutError("print.bad_flip", N_("The flip edge must be long or short."), "flip")
    if not isinstance(bleed, (int, float)) or math.isnan(bleed) or not 0 <= bleed <= MAX_BLEED:
        raise LayoutError("print.bad_bleed", N_("The bleed must be between 0 and %(max)d mm."),
                          "bleed", max=int(MAX_BLEED))
    gap = 2 * bleed if gap is None else gap
    if not isinstance(gap, (int, float)) or math.isnan(gap) or gap < 2 * bleed - 1e-9 \
            or gap > 50:
        raise LayoutError("print.bad_gap", N_("The gap between cards must be at least twice "
                                              "the bleed (%(min)s mm) and at most 50 mm."),
                          "gap", min=f"{2 * bleed:g}")
    crop_marks = bleed > 0 if crop_marks is None else bool(crop_marks)
    gutter = max(2 * bleed, DEFAULT_GUTTER) if gutter is None else gutter
    if sides == "gutter" and (gutter < 2 * bleed - 1e-9 or gutter > 50):
        raise LayoutError("print.bad_gutter", N_("The gutter must be at least twice the bleed "
                                                 "(%(min)s mm) and at most 50 mm."), "gutter",
                          min=f"{2 * bleed:g}")

    mark_offset = max(bleed, MARK_MIN_OFFSET)
    reserve = (mark_offset - bleed + MARK_LENGTH) if crop_marks else 0.0
    area = Box(margin + reserve, margin + reserve, paper.width - 2 * (margin + reserve),
               paper.height - 2 * (margin + reserve))
    half_width = (area.width - gutter + 2 * bleed) / 2 if sides == "gutter" else area.width

    def count(footprint: Size) -> tuple[int, int]:
        return (_fit(half_width, footprint.width, gap, bleed),
                _fit(area.height, footprint.height, gap, bleed))

    options = [(False, count(size)), (True, count(size.turned()))]
    if rotate is not None:
        options = [o for o in options if o[0] == bool(rotate)]
    rotated, (columns, rows) = max(options, key=lambda o: (o[1][0] * o[1][1], not o[0]))
    if columns * rows == 0:
        raise LayoutError("print.card_too_big",
                          N_("A %(card)s card (%(width)s × %(height)s mm) does not fit on a "
                             "%(page)s page with these margins, bleed and marks."), "card",
                          card=str(card), width=f"{size.width:g}", height=f"{size.height:g}",
                          page=str(page))
    foot = size.turned() if rotated else size
    rotation = 90 if rotated else 0
    block_w = columns * foot.width + (columns - 1) * gap
    block_h = rows * foot.height + (rows - 1) * gap
    centre_x = paper.width / 2
    if sides == "gutter":
        left = centre_x - gutter / 2 - block_w          # fronts end half a gutter left of it
    else:
        left = centre_x - block_w / 2
    bottom = paper.height / 2 - block_h / 2

    fronts: list[CardSlot] = []
    for r in range(rows):                               # reading order: top row first
        for c in range(columns):
            trim = Box(left + c * (foot.width + gap), bottom + (rows - 1 - r)
                       * (foot.height + gap), foot.width, foot.height)
            fronts.append(CardSlot(len(fronts), trim, trim.expanded(bleed), rotation))

    backs: list[CardSlot] = []
    for slot in fronts if sides != "single" else []:
        t = slot.trim
        if sides == "gutter" or flip == "long":
            mirrored = Box(2 * centre_x - t.right, t.y, t.width, t.height)
            turn = _back_rotation(slot.rotation, "vertical")
        else:
            mirrored = Box(t.x, paper.height - t.top, t.width, t.height)
            turn = _back_rotation(slot.rotation, "horizontal")
        backs.append(CardSlot(slot.index, mirrored, mirrored.expanded(bleed), turn))

    every = fronts + (backs if sides == "gutter" else [])
    marks = marks_around(every, mark_offset) if crop_marks else ()
    fold = ((centre_x, margin, centre_x, paper.height - margin) if sides == "gutter" else None)
    grid = CardGrid(paper, size, float(bleed), float(margin), float(gap), columns, rows,
                    rotated, sides, flip, crop_marks, tuple(fronts), tuple(backs), marks, fold,
                    mark_offset)
    _validate(grid, mark_offset)
    return grid


def marks_around(slots: list[CardSlot], offset: float) -> tuple[tuple[float, ...], ...]:
    """Marks outside the whole block, one pair per cut line, never over any card's bleed."""
    block = bounding([s.trim for s in slots])
    xs = sorted({round(v, 4) for s in slots for v in (s.trim.x, s.trim.right)})
    ys = sorted({round(v, 4) for s in slots for v in (s.trim.y, s.trim.top)})
    marks: list[tuple[float, float, float, float]] = []
    for x in xs:
        marks.append((x, block.top + offset, x, block.top + offset + MARK_LENGTH))
        marks.append((x, block.y - offset - MARK_LENGTH, x, block.y - offset))
    for y in ys:
        marks.append((block.x - offset - MARK_LENGTH, y, block.x - offset, y))
        marks.append((block.right + offset, y, block.right + offset + MARK_LENGTH, y))
    return tuple(marks)


def _validate(grid: CardGrid, mark_offset: float) -> None:
    """What must hold for every layout; a failure here is a bug, not bad input."""
    printable = Box(grid.margin, grid.margin, grid.page.width - 2 * grid.margin,
                    grid.page.height - 2 * grid.margin)
    slots = list(grid.fronts) + list(grid.backs)
    for slot in slots:
        assert printable.contains(slot.bleed), f"card {slot.index} leaves the printable area"
    for group in (grid.fronts, grid.backs):
        for a in group:
            for b in group:
                assert a is b or not a.bleed.overlaps(b.trim), "bleed over another card"
    if grid.sides == "gutter":
        for a in grid.fronts:
            assert a.bleed.right <= grid.fold[0] + 1e-6, "front bleed crosses the fold"
    for x0, y0, x1, y1 in grid.marks:
        mark = Box(min(x0, x1), min(y0, y1), abs(x1 - x0), abs(y1 - y0))
        assert printable.contains(mark), "crop mark outside the printable area"
        for slot in slots:
            assert not slot.bleed.overlaps(mark), "crop mark inside a card"
