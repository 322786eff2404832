"""ReportLab generators for score pads, play aids and card sheets, and the WeasyPrint report.

It may import ``companion.rules`` data and the QR helper, never the web layer (design.md §1).

Layout: :mod:`.geometry` says where (pages, margins, cards n-up, bleed, crop marks, mirrored
backs, gutter folds; in millimetres, validated); :mod:`.document` writes deterministic PDFs
with embedded fonts and hands each card or sheet to a drawing callback; :mod:`.pads`,
:mod:`.aids`, :mod:`.cards` and :mod:`.report` are the machinery that lays printouts out.
What a game prints (pad rows or a free-form pad, reference cards, aid sheets, printouts of
its own) lives in its own module ``pdfgen/<game id>.py``, registered with
:mod:`.registry`; shared modules name no game. Bad input raises
:class:`.errors.PrintError` with a stable code and a translatable message.
"""

from .errors import LayoutError, PrintError

__all__ = ["LayoutError", "PrintError"]
