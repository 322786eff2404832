"""The embedded fonts: DejaVu Sans (Debian's fonts-dejavu-core), which carries ř ů ě ő ű.

Every PDF embeds a subset of these files, so a sheet looks the same on any printer and the
text can be extracted. We never fall back to a font the next machine may lack: without the
files we refuse with a message that says what to install (``.ci/run`` installs it).
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from .errors import PrintError
from .i18n import N_

SANS = "ScribeSans"
SANS_BOLD = "ScribeSans-Bold"
FILES = {SANS: "DejaVuSans.ttf", SANS_BOLD: "DejaVuSans-Bold.ttf"}
SEARCH = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu",
          "/usr/share/fonts/TTF", "/usr/local/share/fonts", "/Library/Fonts")


def font_dirs() -> list[Path]:
    """Where to look: ``SCRIBE_FONT_DIR`` first, then the usual system folders."""
    extra = os.environ.get("SCRIBE_FONT_DIR")
    return [Path(d) for d in ([extra] if extra else []) + list(SEARCH)]


@lru_cache(maxsize=None)
def font_file(name: str) -> Path:
    """The file of one of our fonts (SANS or SANS_BOLD)."""
    for folder in font_dirs():
        candidate = folder / FILES[name]
        if candidate.is_file():
            return candidate
    raise PrintError("print.font_missing",
                     N_("The font %(file)s is missing: install the package fonts-dejavu-core "
                        "or set SCRIBE_FONT_DIR to a folder that holds it."), file=FILES[name])


@lru_cache(maxsize=None)
def register_fonts() -> None:
    """Register both fonts with ReportLab (once per process)."""
    for name in FILES:
        pdfmetrics.registerFont(TTFont(name, str(font_file(name))))
    pdfmetrics.registerFontFamily(SANS, normal=SANS, bold=SANS_BOLD, italic=SANS,
                                  boldItalic=SANS_BOLD)


def missing_glyphs(text: str, font: str = SANS) -> list[str]:
    """The characters of ``text`` the font cannot draw (emoji, most CJK…), in order, once each."""
    register_fonts()
    face = pdfmetrics.getFont(font).face
    missing: list[str] = []
    for char in text:
        if char.isspace():
            continue
        if ord(char) not in face.charToGlyph and char not in missing:
            missing.append(char)
    return missing
