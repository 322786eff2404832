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


def render(data: bytes, page: int = 1, dpi: int = 150):
    """Page ``page`` (from 1) as a PIL image, rendered by pdftoppm."""
    from PIL import Image

    with tempfile.TemporaryDirectory() as folder:
        source = Path(folder) / "in.pdf"
        source.write_bytes(data)
        subprocess.run(["pdftoppm", "-r", str(dpi), "-f", str(page), "-l", str(page), "-png",
                        "-singlefile", str(source), str(Path(folder) / "out")], check=True,
                       timeout=60)
        return Image.open(Path(folder) / "out.png").copy()


def qr_texts(data: bytes, page: int = 1, dpi: int = 150) -> list[str]:
    """Every QR code found on a rendered page, decoded."""
    return sorted(code.text for code in zxingcpp.read_barcodes(render(data, page, dpi)))


def qr_texts_per_page(data: bytes, dpi: int = 300) -> list[list[str]]:
    """The QR codes decoded on every page, page by page (card corners need 300 dpi)."""
    return [qr_texts(data, page, dpi) for page in range(1, len(reader(data).pages) + 1)]
