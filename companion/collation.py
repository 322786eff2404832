"""Names in the reader's alphabetical order (the Unicode Collation Algorithm, tailored).

:mod:`pyuca` (pure Python) gives the Unicode default order, where accents only break ties:
"Čeněk" sorts among the C names and "Ödön" among the O names. Czech and Hungarian treat some
letters as letters of their own (CLDR's tailorings): in Czech č, ř, š, ž follow c, r, s, z and
"ch" follows h; in Hungarian ö/ő follow o/ó, ü/ű follow u/ú and the digraphs cs, dz, dzs, gy,
ly, ny, sz, ty, zs follow their first letter. That tailoring is applied here by spelling each
such letter as its base letter followed by a character that sorts after every letter (U+FFFF),
so "Čeněk" comes after every other C name and before D.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Callable, Iterable, TypeVar

from pyuca import Collator

T = TypeVar("T")
_AFTER = "\uffff"          # sorts after every letter (an implicit weight beyond all scripts)

# letter (lower case) -> how it is spelled for the collator; longest first in each pattern
_TAILORINGS: dict[str, dict[str, str]] = {
    "cs": {"ch": "h" + _AFTER, "č": "c" + _AFTER, "ř": "r" + _AFTER, "š": "s" + _AFTER,
           "ž": "z" + _AFTER},
    "hu": {"dzs": "d" + _AFTER * 2, "cs": "c" + _AFTER, "dz": "d" + _AFTER,
           "gy": "g" + _AFTER, "ly": "l" + _AFTER, "ny": "n" + _AFTER, "sz": "s" + _AFTER,
           "ty": "t" + _AFTER, "zs": "z" + _AFTER,
           "ö": "o" + _AFTER, "ő": "o" + _AFTER + "\u030b",
           "ü": "u" + _AFTER, "ű": "u" + _AFTER + "\u030b"},
}
_PATTERNS = {lang: re.compile("|".join(sorted(map(re.escape, table), key=len, reverse=True)))
             for lang, table in _TAILORINGS.items()}


@lru_cache(maxsize=1)
def _collator() -> Collator:
    return Collator()


def _language(locale: object | None) -> str:
    if locale is None:
        try:
            from flask_babel import get_locale
            locale = get_locale()
        except Exception:           # outside a request: the default order
            return ""
    return str(locale or "").split("_")[0].split("-")[0].lower()


@lru_cache(maxsize=4096)
def _key(text: str, language: str) -> tuple:
    folded = " ".join(text.split()).lower()
    pattern = _PATTERNS.get(language)
    if pattern is not None:
        table = _TAILORINGS[language]
        folded = pattern.sub(lambda m: table[m.group(0)], folded)
    collator = _collator()
    return (collator.sort_key(folded), collator.sort_key(text), text)


def sort_key(text: str, locale: object | None = None) -> tuple:
    """A key that orders ``text`` as the reader's language does (``locale``: a Babel locale or
    a code; default: the page's language, or the Unicode default outside a request)."""
    return _key(text or "", _language(locale))


def sort_names(items: Iterable[T], name: Callable[[T], str] = str,
               locale: object | None = None) -> list[T]:
    """``items`` ordered by ``name(item)`` in the reader's alphabetical order."""
    language = _language(locale)
    return sorted(items, key=lambda item: _key(name(item) or "", language))
