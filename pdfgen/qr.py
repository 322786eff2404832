"""QR codes drawn as vector rectangles from :func:`companion.qr.qr_matrix`.

The dark modules of each row are merged into runs once per URL (cached, like the matrix), and
each document draws a URL's code once, as a form XObject, then places it wherever it is needed:
a 100-sheet pad stores its QR code one time.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from reportlab.pdfgen.canvas import Canvas

from companion.qr import qr_matrix


@dataclass(frozen=True)
class QrShape:
    """A QR code as horizontal runs of dark modules: (column, row from the top, length)."""

    modules: int                     # width = height in modules, quiet zone included
    runs: tuple[tuple[int, int, int], ...]


@lru_cache(maxsize=1024)
def qr_shape(url: str) -> QrShape:
    """The runs of ``url``'s QR code (cached per URL)."""
    matrix = qr_matrix(url)
    runs: list[tuple[int, int, int]] = []
    for y, row in enumerate(matrix):
        x = 0
        while x < len(row):
            if row[x]:
                start = x
                while x < len(row) and row[x]:
                    x += 1
                runs.append((start, y, x - start))
            else:
                x += 1
    return QrShape(len(matrix), tuple(runs))


def draw_qr(canvas: Canvas, url: str, x: float, y: float, size: float,
            forms: dict[str, str] | None = None) -> None:
    """Draw ``url``'s QR code as a square of ``size`` points at (x, y), quiet zone included.

    With ``forms`` (URL → form name, one dict per document) the code is drawn once per
    document and reused.
    """
    shape = qr_shape(url)
    n = shape.modules
    name = forms.get(url) if forms is not None else None
    if forms is not None and name is None:
        name = forms[url] = f"qr{len(forms)}"
        canvas.beginForm(name, 0, 0, n, n)
        _draw_runs(canvas, shape)
        canvas.endForm()
    canvas.saveState()
    canvas.translate(x, y)
    canvas.scale(size / n, size / n)
    if name is not None:
        canvas.doForm(name)
    else:
        _draw_runs(canvas, shape)
    canvas.restoreState()


def _draw_runs(canvas: Canvas, shape: QrShape) -> None:
    """The dark modules as one filled path, in module units (origin bottom-left)."""
    canvas.setFillColorRGB(0, 0, 0)
    path = canvas.beginPath()
    n = shape.modules
    for column, row, length in shape.runs:
        path.rect(column, n - row - 1, length, 1)
    canvas.drawPath(path, stroke=0, fill=1)
