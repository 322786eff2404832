"""Printed sheets speak the table's language without Flask: Babel catalogs loaded directly.

Strings are English msgids marked with :func:`N_` (``scripts/i18n.sh`` extracts ``pdfgen/**.py``
through ``babel.cfg``) and translated when drawn, with the same catalogs as the web pages.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from babel.support import NullTranslations, Translations

import companion
from companion.rules.base import N_, Term, render_param

from .errors import PrintError

__all__ = ["LANGUAGES", "N_", "Translator", "translator"]

LANGUAGES = ("en", "cs", "hu")          # the same three as companion.config.LANGUAGES
TRANSLATIONS = Path(companion.__file__).resolve().parent / "translations"


class Translator:
    """``gettext`` for one language, with ``%(name)s`` parameters and translated Terms."""

    def __init__(self, lang: str, catalog: NullTranslations):
        self.lang = lang
        self._catalog = catalog

    def __call__(self, message: str, **params: Any) -> str:
        if isinstance(message, Term) and not params:
            return message.render(self._catalog.gettext)
        text = self._catalog.gettext(message) if message else message
        if params:
            params = {k: render_param(v, self._catalog.gettext) for k, v in params.items()}
            return text % params
        return text


@lru_cache(maxsize=None)
def translator(lang: str) -> Translator:
    """The translator for ``lang`` (en, cs or hu); PrintError for any other code."""
    if lang not in LANGUAGES:
        raise PrintError("print.unknown_language",
                         N_("Unknown language “%(lang)s”: choose one of %(choices)s."),
                         "lang", lang=str(lang), choices=", ".join(LANGUAGES))
    if lang == "en":
        return Translator(lang, NullTranslations())
    return Translator(lang, Translations.load(str(TRANSLATIONS), [lang]))
