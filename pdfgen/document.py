"""A deterministic PDF being written: the canvas, the fonts, the language, the page boxes.

Drawing callbacks get a :class:`Surface`: a canvas whose origin is the bottom-left of what
they draw (a card's trim, or a sheet's printable frame), its size in points and the
translator. Geometry (where) comes from :mod:`pdfgen.geometry`; what is drawn is the
callback's business (design.md §5).

Same input, same bytes: ReportLab's invariant mode fixes the creation date and the file ID,
the fonts are fixed files, and nothing reads the clock.
"""

from __future__ import annotations

from dataclasses import dataclass
from io import BytesIO
from typing import Callable, Iterable, Sequence

from reportlab.pdfgen.canvas import Canvas

from .fonts import SANS, register_fonts
from .geometry import MM, Box, CardGrid, CardSlot, SheetGeometry, Size
from .i18n import N_, Translator, translator
from .qr import draw_qr

CUT_GREY = 0.55                      # cut lines and crop marks: visible, not loud


@dataclass
class Surface:
    """Where a callback draws: ``canvas`` with (0, 0) at the bottom-left of the area."""

    canvas: Canvas
    width: float                     # points
    height: float
    bleed: float                     # points the background may extend beyond the area
    t: Translator
    doc: "PdfWriter"

    def qr(self, url: str, x: float, y: float, size: float) -> None:
        """The QR code for ``url`` (drawn once per document, reused after)."""
        self.doc.qr(url, x, y, size)


Draw = Callable[[Surface], None]


@dataclass(frozen=True)
class Card:
    """One card: what is drawn on its front and (optionally) on its back."""

    front: Draw
    back: Draw | None = None


class PdfWriter:
    """One PDF document: pages of a single size, fonts embedded, text in ``lang``."""

    def __init__(self, page: Size, *, lang: str = "en", title: str = "", subject: str = ""):
        self.t = translator(lang)
        register_fonts()
        self.page = page
        self._buffer = BytesIO()
        self.canvas = Canvas(self._buffer, pagesize=page.points, invariant=1,
                             pageCompression=1, lang=lang, initialFontName=SANS)
        self.canvas.setTitle(title)
        self.canvas.setSubject(subject)
        self.canvas.setAuthor("Scribe")
        self.canvas.setCreator("Scribe")
        self.canvas.setProducer("Scribe (ReportLab)")
        self._qr_forms: dict[str, str] = {}
        self._forms: set[str] = set()
        self.pages = 0

    # ---- building blocks ------------------------------------------------------------------

    def qr(self, url: str, x: float, y: float, size: float) -> None:
        draw_qr(self.canvas, url, x, y, size, self._qr_forms)

    def _surface(self, width: float, height: float, bleed: float = 0.0) -> Surface:
        return Surface(self.canvas, width, height, bleed, self.t, self)

    def _boxes(self, trim: Box | None, bleed: Box | None) -> None:
        """TrimBox and BleedBox of the next page (None: the page itself)."""
        full = (0, 0, *self.page.points)
        self.canvas.setTrimBox(trim.pdf_box if trim else full)
        self.canvas.setBleedBox(bleed.pdf_box if bleed else full)

    def end_page(self) -> None:
        self.canvas.showPage()
        self.pages += 1

    # ---- full sheets ----------------------------------------------------------------------

    def sheet(self, geometry: SheetGeometry, draw: Draw, *, reuse: str | None = None) -> None:
        """One page with ``draw`` in the printable frame.

        With ``reuse`` the drawing is made once as a form of that name and placed on every
        page that names it (a pad of identical sheets stores one sheet).
        """
        frame = geometry.content
        c = self.canvas
        self._boxes(None, None)
        c.saveState()
        c.translate(frame.x * MM, frame.y * MM)
        if reuse is None:
            draw(self._surface(frame.width * MM, frame.height * MM))
        else:
            if reuse not in self._forms:
                c.beginForm(reuse, 0, 0, frame.width * MM, frame.height * MM)
                draw(self._surface(frame.width * MM, frame.height * MM))
                c.endForm()
                self._forms.add(reuse)
            c.doForm(reuse)
        c.restoreState()
        self.end_page()

    # ---- card sheets ----------------------------------------------------------------------

    def cards(self, grid: CardGrid, cards: Sequence[Card]) -> None:
        """All ``cards`` laid out on as many pages as the grid needs (fronts, then backs)."""
        per_page = grid.per_page
        for start in range(0, len(cards), per_page):
            chunk = cards[start:start + per_page]
            self._card_page(grid, [(s, c.front) for s, c in zip(grid.fronts, chunk)]
                            + ([(s, c.back) for s, c in zip(grid.backs, chunk) if c.back]
                               if grid.sides == "gutter" else []))
            if grid.sides == "duplex":
                self._card_page(grid, [(s, c.back) for s, c in zip(grid.backs, chunk)
                                       if c.back], back=True)

    def _card_page(self, grid: CardGrid, faces: Iterable[tuple[CardSlot, Draw]],
                   back: bool = False) -> None:
        c = self.canvas
        if grid.bleed > 0:
            trim = grid.back_trim_box() if back else grid.trim_box
            self._boxes(trim, trim.expanded(grid.bleed))
        else:
            self._boxes(None, None)
        used = []
        for slot, draw in faces:
            self._card(grid, slot, draw)
            used.append(slot)
        c.saveState()
        c.setStrokeGray(CUT_GREY)
        if grid.bleed == 0:                   # cut lines on the trim: no bleed to hide them
            c.setLineWidth(0.3)
            for slot in used:
                c.rect(*slot.trim.points, stroke=1, fill=0)
        c.setLineWidth(0.25)
        full = len(used) == len(grid.fronts) * (2 if grid.sides == "gutter" else 1)
        for x0, y0, x1, y1 in (grid.marks if full else grid.marks_for(used)):
            c.line(x0 * MM, y0 * MM, x1 * MM, y1 * MM)
        if grid.fold and not back:
            c.setDash(4, 3)
            x0, y0, x1, y1 = grid.fold
            c.line(x0 * MM, y0 * MM, x1 * MM, y1 * MM)
            c.setFont(SANS, 6)
            c.setFillGray(CUT_GREY)
            c.saveState()
            c.translate(x0 * MM - 2, (y0 + y1) / 2 * MM)
            c.rotate(90)
            c.drawCentredString(0, 0, self.t(N_("fold here")))
            c.restoreState()
        c.restoreState()
        self.end_page()

    def _card(self, grid: CardGrid, slot: CardSlot, draw: Draw) -> None:
        """One card face in its slot, turned, and clipped to its bleed so nothing spills."""
        c = self.canvas
        w, h = grid.card.width * MM, grid.card.height * MM
        trim = slot.trim
        c.saveState()
        clip = c.beginPath()
        clip.rect(*slot.bleed.points)
        c.clipPath(clip, stroke=0, fill=0)
        offset = {0: (trim.x, trim.y), 90: (trim.right, trim.y),
                  180: (trim.right, trim.top), 270: (trim.x, trim.top)}[slot.rotation]
        c.translate(offset[0] * MM, offset[1] * MM)
        c.rotate(slot.rotation)
        draw(self._surface(w, h, grid.bleed * MM))
        c.restoreState()

    # ---- the end --------------------------------------------------------------------------

    def finish(self) -> bytes:
        """The PDF's bytes (the writer cannot be used afterwards)."""
        self.canvas.save()
        return self._buffer.getvalue()
