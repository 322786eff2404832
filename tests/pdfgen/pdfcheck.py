"""Helpers for the pdfgen tests: open PDFs with pypdf, render pages, decode QR codes.

Not a test module (pytest collects test_*.py only). Rendering needs ``pdftoppm`` (poppler-utils)
and decoding needs ``zxing-cpp``; tests that need them are marked so that they skip with the
reason when the tool is missing (.ci/run installs both).
"""

from __future__ import annotations

import io
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from pypdf import PdfReader

A4 = (595.28, 841.89)
LETTER = (612.0, 792.0)
SIZES = {"a4": A4, "letter": LETTER}

try:
    import zxingcpp
except ImportError:         # pragma: no cover - CI installs it with the [test] extra
    zxingcpp = None
HAVE_DECODER = zxingcpp is not None

needs_pdftoppm = pytest.mark.skipif(shutil.which("pdftoppm") is None,
                                    reason="pdftoppm (poppler-utils) is not installed")
needs_decoder = pytest.mark.skipif(not HAVE_DECODER,
                                   reason="the QR decoder zxing-cpp is not installed "
                                          "(pip install -e '.[test]')")


def reader(data: bytes) -> PdfReader:
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    return PdfReader(io.BytesIO(data), strict=True)


def page_sizes(data: bytes) -> list[tuple[float, float]]:
    return [(round(float(p.mediabox.width), 2), round(float(p.mediabox.height), 2))
            for p in reader(data).pages]


def text(data: bytes, page: int | None = None) -> str:
    pages = reader(data).pages
    chosen = pages if page is None else [pages[page]]
    return "\n".join(p.extract_text() for p in chosen)


def box(page, name: str) -> tuple[float, ...]:
    return tuple(round(float(v), 2) for v in getattr(page, name))


def _pages(data: bytes, first: int, last: int, dpi: int, gray: bool):
    """Pages ``first``..``last`` (from 1) as PIL images, one at a time, rendered by one
    pdftoppm call (grey pages come as uncompressed PGM, several times faster than PNG at
    300 dpi)."""
    from PIL import Image

    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "in.pdf"
        source.write_bytes(data)
        subprocess.run(["pdftoppm", "-r", str(dpi), "-f", str(first), "-l", str(last),
                        "-gray" if gray else "-png", str(source), str(Path(folder) / "out")],
                       check=True, timeout=60 * (last - first + 1))
        for path in sorted(Path(folder).glob("out*"), key=lambda p: int(p.stem.split("-")[-1])):
            with Image.open(path) as image:
                image.load()
                yield image


def render(data: bytes, page: int = 1, dpi: int = 150, gray: bool = False):
    """Page ``page`` (from 1) as a PIL image, rendered by pdftoppm."""
    return next(iter(list(_pages(data, page, page, dpi, gray))))


def qr_texts(data: bytes, page: int = 1, dpi: int = 150) -> list[str]:
    """Every QR code found on a rendered page, decoded."""
    return _decoded(render(data, page, dpi, gray=True))


def _decoded(image) -> list[str]:
    return sorted(code.text for code in zxingcpp.read_barcodes(image))


def qr_texts_per_page(data: bytes, dpi: int = 200) -> list[list[str]]:
    """The QR codes decoded on every page, page by page (200 dpi: every card corner
    decodes there, in grey; 150 dpi is the lowest that still does)."""
    return [_decoded(image) for image in _pages(data, 1, len(reader(data).pages), dpi, True)]
