"""Text that stays in its box: shrink, then wrap, then shorten with “…”, never overflow.

Words break only at spaces, after their own hyphens, or at a valid hyphenation point of the
sheet's language (pyphen's dictionaries for cs, hu and en, with "-" added); a word that
cannot break there makes the text smaller instead. Only a box narrower than a short word at
the smallest size gets a word cut anywhere (then shortened with "…" by :func:`fit`).

Also the gate for text from people (player names): whitespace is tidied, emoji and other
symbols the embedded font cannot draw are left out, and scripts we cannot lay out (right to
left) or letters the font lacks are refused with a PrintError, so no PDF shows empty boxes
or letters in the wrong order.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

import pyphen
from reportlab.pdfbase.pdfmetrics import getAscentDescent, stringWidth
from reportlab.pdfgen.canvas import Canvas

from .errors import PrintError
from .fonts import SANS, missing_glyphs
from .i18n import N_

ELLIPSIS = "…"
LEADING = 1.2                       # DejaVu's ascent − descent is 1.164 em, so lines never touch
DROPPABLE = {"So", "Sk", "Cf", "Mn", "Me", "Cs", "Co"}   # symbols, joiners, variation selectors


def clean_text(text: str, field: str | None = None) -> str:
    """Tidy a person's text for print; PrintError when it cannot be printed well."""
    text = " ".join(str(text).split())
    text = "".join(c for c in text if unicodedata.category(c) != "Cc")
    if any(unicodedata.bidirectional(c) in ("R", "AL") for c in text):
        raise PrintError("print.right_to_left",
                         N_("“%(text)s” is written right to left; printed sheets can show "
                            "left-to-right scripts only."), field, text=text)
    missing = missing_glyphs(text)
    if missing:
        letters = [c for c in missing if unicodedata.category(c) not in DROPPABLE]
        if letters:
            raise PrintError("print.unprintable",
                             N_("“%(text)s” has letters the printed sheets cannot show: "
                                "%(chars)s."), field, text=text, chars=" ".join(letters))
        dropped = set(missing)
        text = " ".join("".join(c for c in text if c not in dropped).split())
    return text


@dataclass(frozen=True)
class Fitted:
    """Lines of text at one size that fit a box of ``width`` × ``height`` points."""

    lines: tuple[str, ...]
    size: float
    font: str
    width: float             # the widest line
    height: float            # lines × leading


def text_width(text: str, font: str, size: float) -> float:
    return stringWidth(text, font, size)


HYPHENATION = {"cs": "cs_CZ", "hu": "hu_HU", "en": "en_GB"}   # pyphen's dictionary per language
_EDGES = re.compile(r"^(\W*)(.*?)(\W*)$", re.S)       # punctuation around a word stays on it


@lru_cache(maxsize=None)
def _hyphenator(lang: str) -> pyphen.Pyphen | None:
    code = HYPHENATION.get(lang)
    return pyphen.Pyphen(lang=code) if code else None


def _cut(word: str, font: str, size: float, width: float,
         lang: str) -> tuple[str, str] | None:
    """The longest first piece of ``word`` (with "-") that fits ``width``, cut at a valid
    hyphenation point of ``lang``, and the rest (Hungarian cuts may change letters:
    "asszony" is "asz-" + "szony"); None when there is none."""
    hyphenator = _hyphenator(lang)
    if hyphenator is None:
        return None
    before, core, after = _EDGES.match(word).groups()
    for first, second in hyphenator.iterate(core):              # the longest first piece first
        if text_width(before + first + "-", font, size) <= width:
            return before + first + "-", second + after
    return None


def hyphenate(word: str, font: str, size: float, width: float, lang: str) -> list[str] | None:
    """``word`` in pieces that fit ``width``, cut only at valid hyphenation points of ``lang``
    (each piece but the last ends in "-"); None when no such cut makes it fit."""
    pieces: list[str] = []
    rest = word
    while text_width(rest, font, size) > width:
        cut = _cut(rest, font, size, width, lang)
        if cut is None:
            return None
        pieces.append(cut[0])
        rest = cut[1]
    return pieces + [rest]


def _break_word(word: str, font: str, size: float, width: float) -> list[str]:
    """A word too wide for a line, cut into pieces that fit (URLs, very long names)."""
    pieces, current = [], ""
    for char in word:
        if current and text_width(current + char, font, size) > width:
            pieces.append(current)
            current = char
        else:
            current += char
    return pieces + [current] if current else pieces


def _tokens(text: str) -> list[tuple[str, bool]]:
    """Words, split after hyphens too; each with whether a space comes before it."""
    tokens: list[tuple[str, bool]] = []
    for i, word in enumerate(text.split(" ")):
        parts = [p + "-" for p in word.split("-")]
        parts[-1] = parts[-1][:-1]
        parts = [p for p in parts if p] or [""]
        tokens += [(part, i > 0 and j == 0) for j, part in enumerate(parts)]
    return tokens


def wrap(text: str, font: str, size: float, width: float, lang: str | None = None) -> list[str]:
    """Greedy wrap at spaces and after hyphens; a word wider than a line is hyphenated in
    ``lang`` where it can be, else cut anywhere (see :func:`wrap_words` to refuse that)."""
    return _wrap(text, font, size, width, lang, strict=False) or [""]


def wrap_words(text: str, font: str, size: float, width: float,
               lang: str | None) -> list[str] | None:
    """As :func:`wrap`, but None when a word fits neither whole nor hyphenated in ``lang``:
    the caller then tries a smaller size (a word is never cut at a wrong place)."""
    return _wrap(text, font, size, width, lang, strict=True)


def _wrap(text: str, font: str, size: float, width: float, lang: str | None,
          strict: bool) -> list[str] | None:
    lines: list[str] = []
    current = ""
    for token, spaced in _tokens(text):
        candidate = current + (" " if spaced and current else "") + token
        if text_width(candidate, font, size) <= width:
            current = candidate
            continue
        if current:
            lines.append(current)
        if text_width(token, font, size) <= width:
            current = token
            continue
        pieces = hyphenate(token, font, size, width, lang) if lang else None
        if pieces is None:
            if strict:
                return None
            pieces = _break_word(token, font, size, width) or [""]
        *full, current = pieces
        lines.extend(full)
    if current or not lines:
        lines.append(current)
    return lines


def _shorten(line: str, font: str, size: float, width: float) -> str:
    while line and text_width(line + ELLIPSIS, font, size) > width:
        line = line[:-1]
    return line.rstrip(" -") + ELLIPSIS


def fit(text: str, width: float, height: float, *, font: str = SANS, size: float = 11,
        min_size: float = 5.5, max_lines: int = 2, one_line_until: float = 0.8,
        lang: str | None = None) -> Fitted:
    """The largest size (≤ ``size``) at which ``text`` fits; wrapped or shortened if need be.

    One line is preferred down to ``one_line_until`` × ``size``, then up to ``max_lines`` lines from
    ``size`` down to ``min_size``, words breaking only where ``lang`` hyphenates them; what
    still does not fit is cut with an ellipsis.
    """
    size = min(size, height / LEADING)          # a box lower than one line: smaller text
    min_size = min(min_size, size)

    def made(lines: list[str], at: float) -> Fitted:
        return Fitted(tuple(lines), at, font, max((text_width(x, font, at) for x in lines),
                                                  default=0.0), len(lines) * at * LEADING)

    steps = []
    at = size
    while at >= min_size - 1e-9:
        steps.append(at)
        at = round(at - 0.25, 2)
    for at in steps:
        if at < one_line_until * size:
            break
        if text_width(text, font, at) <= width:
            return made([text], at)
    for at in steps:
        lines = wrap_words(text, font, at, width, lang)
        if lines is not None and len(lines) <= max_lines \
                and len(lines) * at * LEADING <= height + 1e-6 \
                and all(text_width(x, font, at) <= width for x in lines):
            return made(lines, at)
    at = min_size
    rows = max(1, min(max_lines, int(height / (at * LEADING) + 1e-6)))
    lines = wrap(text, font, at, width, lang)
    if len(lines) > rows:
        lines = lines[:rows - 1] + [_shorten(lines[rows - 1], font, at, width)]
    lines = [_shorten(x, font, at, width) if text_width(x, font, at) > width else x
             for x in lines]
    widest = max(text_width(x, font, at) for x in lines)
    if widest > width:          # a box narrower than one letter: smaller still, never outside
        at = at * width / widest * 0.999
    return made(lines, at)


Align = Literal["left", "center", "right"]


def draw_fitted(canvas: Canvas, fitted: Fitted, x: float, y: float, width: float,
                height: float, *, align: Align = "left", valign: str = "middle") -> None:
    """Draw fitted lines inside the box (x, y, width, height), in points."""
    ascent, descent = getAscentDescent(fitted.font, fitted.size)
    line = fitted.size * LEADING
    block = len(fitted.lines) * line
    if valign == "top":
        top = y + height
    elif valign == "bottom":
        top = y + block
    else:
        top = y + (height + block) / 2
    baseline = top - (line - (ascent - descent)) / 2 - ascent
    canvas.setFont(fitted.font, fitted.size)
    for text in fitted.lines:
        if align == "center":
            canvas.drawCentredString(x + width / 2, baseline, text)
        elif align == "right":
            canvas.drawRightString(x + width, baseline, text)
        else:
            canvas.drawString(x, baseline, text)
        baseline -= line


def draw_text(canvas: Canvas, text: str, x: float, y: float, width: float, height: float, *,
              font: str = SANS, size: float = 11, min_size: float = 5.5, max_lines: int = 2,
              align: Align = "left", valign: str = "middle",
              one_line_until: float = 0.8, lang: str | None = None) -> Fitted:
    """Fit ``text`` into the box and draw it; returns what was drawn."""
    fitted = fit(text, width, height, font=font, size=size, min_size=min_size,
                 max_lines=max_lines, one_line_until=one_line_until, lang=lang)
    draw_fitted(canvas, fitted, x, y, width, height, align=align, valign=valign)
    return fitted
