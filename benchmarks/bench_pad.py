"""Time score-pad generation against a raw ReportLab canvas page, in the same run.

Usage: ``PYTHONPATH=. python benchmarks/bench_pad.py [pages] [--smoke]`` (default 100; smoke: 2, one round).

The baseline draws the same Ra pad page straight onto a ReportLab canvas: the same embedded
font, the same grid of boxes, the same labels and reminders at fixed sizes and the QR code as
one rectangle per dark module, with no layout, text fitting or validation. Three figures:

* one-page pads, one document each: the cost of our layout per page (target ≥ 0.5× raw);
* a pad of ``pages`` sheets: ours draws the sheet once and places it on every page;
* the time for a 100-page pad, the size a club prints before a season.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from io import BytesIO

from reportlab.pdfgen.canvas import Canvas

from companion.qr import qr_matrix
from pdfgen.fonts import SANS, SANS_BOLD, register_fonts
from pdfgen.geometry import MM, page_size
from pdfgen.i18n import translator
from pdfgen.pads import score_pad
from pdfgen.registry import game_print

NAMES = ["Ana", "Řehoř", "Ödön", "Věra Lůďa", "Gőző Fűz"]
URL = "http://127.0.0.1:8000/score/ra?_players=5"


def raw_pad(pages: int) -> bytes:
    """The baseline: every page drawn directly, the way a hand-written generator would."""
    register_fonts()
    t = translator("en")
    spec = game_print("ra").pad
    width, height = page_size("a4").points
    buffer = BytesIO()
    canvas = Canvas(buffer, pagesize=(width, height), invariant=1, pageCompression=1,
                    initialFontName=SANS)
    margin = 6.35 * MM
    matrix = qr_matrix(URL)
    for _page in range(pages):
        canvas.setFont(SANS_BOLD, 17)
        canvas.drawString(margin, height - margin - 20, t(spec.title))
        module = 25 * MM / len(matrix)
        for y, row in enumerate(matrix):
            for x, dark in enumerate(row):
                if dark:
                    canvas.rect(width - margin - 25 * MM + x * module,
                                height - margin - (y + 1) * module, module, module,
                                stroke=0, fill=1)
        label_w = (width - 2 * margin) * 0.36
        column_w = (width - 2 * margin - label_w) / len(NAMES)
        y = height - margin - 43 * MM
        for i, name in enumerate(NAMES):
            canvas.rect(margin + label_w + i * column_w, y, column_w, 13 * MM)
            canvas.setFont(SANS_BOLD, 11)
            canvas.drawCentredString(margin + label_w + (i + 0.5) * column_w, y + 15, name)
        for row in spec.rows:
            h = 7.6 * MM * row.weight
            y -= h
            canvas.setFont(SANS, 8.5)
            label = t(row.label, **row.params) if row.params else t(row.label)
            canvas.drawString(margin + 3, y + h - 10, label)
            if row.hint:
                canvas.setFont(SANS, 6)
                canvas.drawString(margin + 3, y + 3, t(row.hint, **row.params))
            if row.kind != "section":
                for i in range(len(NAMES)):
                    canvas.rect(margin + label_w + i * column_w, y, column_w, h)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def ours(pages: int) -> bytes:
    return score_pad("ra", NAMES, page="a4", lang="en", qr_url=URL, sheets=pages)


def best_of(runs: int, work) -> float:
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return best


def main(pages: int, smoke: bool = False) -> None:
    """``smoke``: one round of each on tiny pads (tests/test_benchmarks.py)."""
    ours(1), raw_pad(1)                                       # warm up fonts and caches
    documents, rounds, big = (1, 1, 2) if smoke else (30, 3, 100)
    single_ours = best_of(rounds, lambda: [ours(1) for _ in range(documents)]) / documents
    single_raw = best_of(rounds, lambda: [raw_pad(1) for _ in range(documents)]) / documents
    many_ours = best_of(rounds, lambda: ours(pages))
    many_raw = best_of(rounds, lambda: raw_pad(pages))
    hundred = best_of(rounds, lambda: ours(big))
    print(f"one-page pad: ours {1 / single_ours:7.1f} pages/s, raw canvas "
          f"{1 / single_raw:7.1f} pages/s, ratio {single_raw / single_ours:.2f}× "
          f"(target ≥ 0.5×)")
    print(f"{pages}-page pad: ours {pages / many_ours:7.1f} pages/s, raw canvas "
          f"{pages / many_raw:7.1f} pages/s, ratio {many_raw / many_ours:.2f}×")
    print(f"{big}-page pad: {hundred * 1000:.0f} ms, {len(ours(big)) / 1024:.0f} KiB "
          f"(raw canvas: {len(raw_pad(big)) / 1024:.0f} KiB)")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from games import count_argument  # noqa: E402

    main(count_argument(100, 2), smoke="--smoke" in sys.argv)
