"""Languages: English, Czech and Hungarian from the first template (Flask-Babel).

The language follows the browser (Accept-Language) unless the person picked one with the
switcher, which is remembered in a cookie. Messages from the rules engines are English msgids
(marked with ``N_``) and are translated here.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, current_app, request
from flask_babel import Babel, format_datetime, get_locale, gettext

from .rules import get_ruleset
from .rules.base import RuleViolation

LANGUAGE_COOKIE = "lang"
LANGUAGE_NAMES = {"en": "English", "cs": "Čeština", "hu": "Magyar"}

babel = Babel()


def select_locale() -> str:
    """The switcher's choice if any, else the best match for the browser, else English."""
    languages = current_app.config["LANGUAGES"]
    chosen = request.cookies.get(LANGUAGE_COOKIE)
    if chosen in languages:
        return chosen
    return request.accept_languages.best_match(languages) or languages[0]


def render_violation(violation: RuleViolation) -> str:
    """A rule violation as a sentence in the current language."""
    return violation.render(gettext)


def violation_body(violation: RuleViolation) -> dict[str, Any]:
    """The API's error body for a violation, its message translated."""
    return violation.as_dict(gettext)


def init_app(app: Flask) -> None:
    babel.init_app(app, locale_selector=select_locale)

    @app.context_processor
    def _languages() -> dict[str, Any]:
        return {"language_names": LANGUAGE_NAMES, "current_language": str(get_locale())}

    @app.template_filter("game_name")
    def _game_name(game_id: str) -> str:
        try:
            return get_ruleset(game_id).catalogue.name(str(get_locale()))
        except KeyError:
            return game_id

    @app.template_filter("translate")
    def _translate(msgid: str) -> str:
        return gettext(msgid) if msgid else ""

    @app.template_filter("edition_value")
    def _edition_value(value: Any) -> str:
        """A printed value as people write it: lists joined with " · ", nested with " / "."""
        if isinstance(value, (list, tuple)):
            inner = [_edition_value(v) for v in value]
            nested = any(isinstance(v, (list, tuple)) for v in value)
            return (" / " if nested else " · ").join(inner)
        return gettext(value) if isinstance(value, str) else str(value)

    @app.template_filter("datetime_short")
    def _datetime_short(value) -> str:
        return format_datetime(value, "short") if value else ""
