"""Languages: English, Czech and Hungarian from the first template (Flask-Babel).

The language follows the browser (Accept-Language) unless the person picked one with the
switcher, which is remembered in a cookie. Messages from the rules engines are English msgids
(marked with ``N_``) and are translated here.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote
from zoneinfo import ZoneInfo

import pytz
from flask import Flask, current_app, g, request
from flask_babel import (Babel, ngettext, format_datetime, format_decimal, format_percent, get_locale,
                         gettext)

from .collation import sort_names
from .rules import get_ruleset
from .rules.base import InvalidDocument, RuleViolation, Term, render_param

LANGUAGE_COOKIE = "lang"
LANGUAGE_NAMES = {"en": "English", "cs": "Čeština", "hu": "Magyar"}
TIME_ZONE_COOKIE = "tz"      # set by static/tz.js from the browser's own time zone

babel = Babel()


def select_locale() -> str:
    """The switcher's choice if any, else the best match for the browser, else English."""
    languages = current_app.config["LANGUAGES"]
    chosen = request.cookies.get(LANGUAGE_COOKIE)
    if chosen in languages:
        return chosen
    return request.accept_languages.best_match(languages) or languages[0]


def valid_time_zone(name: Any) -> str | None:
    """``name`` if it is an IANA time zone both zoneinfo and pytz know, else None."""
    if not isinstance(name, str) or not 0 < len(name) <= 64 or not name.isascii():
        return None
    try:
        ZoneInfo(name)
        pytz.timezone(name)
    except Exception:               # unknown, malformed, or a path: never trusted
        return None
    return name


def select_time_zone() -> str | None:
    """The page's time zone: the group's if the view set one (``g.time_zone``), else the
    browser's (the ``tz`` cookie), else UTC (Flask-Babel's default)."""
    cookie = request.cookies.get(TIME_ZONE_COOKIE)
    return valid_time_zone(g.get("time_zone")) or valid_time_zone(
        unquote(cookie) if cookie else None)


def capfirst(text: Any) -> str:
    """``text`` with its first letter in upper case, the rest untouched (a label shown on its
    own: a colour's name is a msgid in lower case because sentences use it too)."""
    text = "" if text is None else str(text)
    return text[:1].upper() + text[1:]


def render_violation(violation: RuleViolation) -> str:
    """A rule violation as a sentence in the current language."""
    return violation.render(gettext, ngettext)


def violation_body(violation: RuleViolation) -> dict[str, Any]:
    """The API's error body for a violation, its message translated."""
    return violation.as_dict(gettext, ngettext)


MAX_LISTED_ERRORS = 50


def invalid_body(invalid: InvalidDocument) -> dict[str, Any]:
    """The error body for a wrong document: its first violation, and ``errors`` listing the
    first :data:`MAX_LISTED_ERRORS` of them; ``errors_not_listed`` counts the rest (a
    huge wrong document gets a short answer)."""
    body = violation_body(invalid.first)
    listed = invalid.violations[:MAX_LISTED_ERRORS]
    body["errors"] = [violation_body(v) for v in listed]
    rest = len(invalid.violations) - len(listed)
    if rest:
        body["errors_not_listed"] = rest
        body["errors"].append({"error": "more_errors", "field": None,
                               "message": ngettext("… and %(num)d more error.",
                                                   "… and %(num)d more errors.", rest)})
    return body


def init_app(app: Flask) -> None:
    babel.init_app(app, locale_selector=select_locale, timezone_selector=select_time_zone)

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
    def _translate(msgid: str, **params: Any) -> str:
        """A msgid, or a Term (a card's name with the name printed on the group's copy, or a
        word with its own parameters), in the reader's language; ``params`` fill the msgid's
        placeholders, each a Term, a Listing… rendered as a refusal renders them."""
        if not msgid:
            return ""
        if isinstance(msgid, Term):
            return msgid.render(gettext)
        text = gettext(msgid)
        return text % {k: render_param(v, gettext) for k, v in params.items()} if params \
            else text

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
        """A moment in the reader's time zone, written as their language writes it."""
        return format_datetime(value, "short") if value else ""

    @app.template_global("labelled_keys")
    def _labelled_keys(ruleset: Any, keys: Any = None) -> str:
        """A game's edition keys for the API page, each with its label: "key (Label)"."""
        labels = {value.key: value.label for value in (ruleset.edition or ())}
        keys = keys or tuple(labels)
        return ", ".join(f"{key} ({gettext(labels[key])})" if key in labels else key
                         for key in keys)

    @app.template_filter("collate")
    def _collate(names: Any) -> list:
        """Names in the reader's alphabetical order (Czech Č after C, Hungarian Ö after O)."""
        return sort_names(names)

    @app.template_filter("capfirst")
    def _capfirst(text: Any) -> str:
        """A label as it stands alone: first letter upper case ("black" → "Black")."""
        return capfirst(text)

    @app.template_filter("decimal")
    def _decimal(value: Any, digits: int = 1) -> str:
        """A number with ``digits`` decimals in the page's language ("49,0" in Czech)."""
        if value is None:
            return "–"
        return format_decimal(value, format="#,##0." + "0" * digits if digits else "#,##0")

    @app.template_filter("percent")
    def _percent(value: Any) -> str:
        """A share (0.5) as a percentage in the page's language ("50 %" in Czech)."""
        return "–" if value is None else format_percent(value)
