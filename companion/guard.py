"""What every request passes before a view sees it, and every answer on its way out (issue 10).

* JSON bodies are parsed once, here, before any API view runs (:func:`parse_json_body`; the
  view reuses that parse through ``request.get_json()``): NaN and Infinity, nesting deeper
  than ``MAX_DEPTH``, strings that are not valid Unicode (a lone surrogate such as
  ``"\\ud800"``) or hold control characters, and whole numbers beyond ``MAX_INT`` are
  refused with a 422 naming the field (``{"error", "message", "field"}``) — so no view,
  service or database ever meets them (pages take no JSON; one that read it would get it
  through :func:`safe_loads` all the same).
* Ids in paths are bounded (``<int:…>`` matches 0 … 2³¹−1 only), so a 20-digit id is a 404,
  not an overflow in the database.
* JSON answers are written by orjson (:class:`JSONProvider`), JSON bodies read by
  :func:`safe_loads`.
* Every answer carries the security headers a browser needs (CSP, nosniff, frame-ancestors,
  Referrer-Policy); when the public address is https (or the request came over it), every
  cookie is ``Secure`` (the session's too, :class:`companion.app.PagesSession`) and answers
  carry ``Strict-Transport-Security``.
* No redirect reflects the request's Host header: one to this site is relative.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import orjson
from flask import Flask, current_app, jsonify, render_template, request
from flask.json.provider import DefaultJSONProvider
from flask_babel import gettext
from sqlalchemy import BigInteger, Integer, SmallInteger
from werkzeug.routing import IntegerConverter
from werkzeug.utils import redirect

from .rules.base import N_, RuleViolation

MAX_DEPTH = 32                  # no document we accept nests anywhere near this deep
MAX_INT = 2 ** 53               # beyond this a number is not a count, an id or a score


def int_range(column: Any) -> tuple[int, int]:
    """The whole numbers a column (or a column type) holds on every database Scribe runs on:
    PostgreSQL's ``smallint``, ``integer`` and ``bigint`` are 16, 32 and 64 bits (SQLite holds
    64 bits in any). Every integer a request hands to the database is bounded by this, so that
    the bounds are declared once, by the columns (ids, versions, seats, generations)."""
    kind = getattr(column, "type", column)
    for sql_type, bits in ((SmallInteger, 16), (BigInteger, 64), (Integer, 32)):
        if isinstance(kind, sql_type):
            return -2 ** (bits - 1), 2 ** (bits - 1) - 1
    raise TypeError(f"{column!r} is not an integer column")


DB_INT_MAX = int_range(Integer())[1]   # the largest id a path may name (PostgreSQL's integer)
# C0 and C1 control characters other than tab, line feed and carriage return (NUL included:
# PostgreSQL cannot store it in text).
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
# What text_problem refuses, in one search: a lone surrogate (the only code points of a str
# that are not valid Unicode text) or a control character.
_UNSTORABLE = re.compile("[\ud800-\udfff]|" + CONTROL.pattern, re.UNICODE)


class UnsafeJSON(ValueError):
    """A JSON body we refuse, with the violation to answer."""

    def __init__(self, violation: RuleViolation, status: int = 422):
        super().__init__(violation.code)
        self.violation = violation
        self.status = status


def text_problem(text: str) -> RuleViolation | None:
    """Why ``text`` cannot be stored, if it cannot: not valid Unicode, or a control
    character."""
    if _UNSTORABLE.search(text) is None:              # nearly always: one search, no copy
        return None
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return RuleViolation("text.invalid_unicode", N_("This text is not valid Unicode."))
    if CONTROL.search(text):
        return RuleViolation("text.control_character",
                             N_("This text holds a control character."))
    return None


def _entry(path: str | None, key: Any) -> str:
    """The dotted path of ``key`` under ``path`` (an empty key is shown as ``""``, a key
    that is not storable text without its control characters)."""
    name = _field_name(str(key)) if str(key) else '""'
    return f"{path}.{name}" if path else name


def _dotted(path: tuple | None) -> str | None:
    """The dotted name of a path kept as (parent, key) links (built only for an answer)."""
    keys = []
    while path is not None:
        path, key = path
        keys.append(key)
    name = None
    for key in reversed(keys):
        name = _entry(name, key)
    return name


def check_value(value: Any) -> None:
    """Walk a parsed JSON value (without recursion) and raise UnsafeJSON at the first thing
    we refuse, naming its dotted path (``field``); ``field`` is None only when the document
    itself (not one of its entries) is refused. The path of each entry is kept as a link to
    its parent and spelled out only for the refusal."""
    stack: list[tuple[Any, tuple | None, int]] = [(value, None, 0)]
    while stack:
        item, path, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise UnsafeJSON(RuleViolation("json.too_deep", N_(
                "The document nests deeper than %(depth)d levels."), _dotted(path),
                depth=MAX_DEPTH))
        if isinstance(item, str):
            problem = text_problem(item)
            if problem is not None:
                problem.field = _dotted(path)
                raise UnsafeJSON(problem)
        elif isinstance(item, bool) or item is None:
            continue
        elif isinstance(item, float):
            if not math.isfinite(item):          # NaN, Infinity, and 1e400 (parsed as inf)
                raise UnsafeJSON(RuleViolation("json.not_a_number", N_(
                    "Numbers must be finite (no NaN or Infinity)."), _dotted(path)))
        elif isinstance(item, int):
            if abs(item) > MAX_INT:
                raise UnsafeJSON(RuleViolation("json.number_too_large",
                                               N_("This number is too large."), _dotted(path)))
        elif isinstance(item, dict):
            for key, sub in item.items():
                problem = text_problem(key)
                if problem is not None:        # the key itself: named without its culprit
                    problem.field = _dotted((path, key))
                    raise UnsafeJSON(problem)
                stack.append((sub, (path, key), depth + 1))
        elif isinstance(item, list):
            for index, sub in enumerate(item):
                stack.append((sub, (path, index), depth + 1))


def _field_name(name: str) -> str:
    """A parameter's name as it can be shown in an answer (no control characters)."""
    return CONTROL.sub("?", name.encode("utf-8", "replace").decode("utf-8"))


def parameter_problem() -> RuleViolation | None:
    """The first path segment, query value or form field (name or value) of the request that
    is not storable text, with ``field`` naming the parameter: NUL and the other control
    characters cannot be stored by PostgreSQL, so they are refused before any view runs."""
    for name, value in (request.view_args or {}).items():
        if isinstance(value, str):
            problem = text_problem(value)
            if problem is not None:
                problem.field = name
                return problem
    sources = [request.args] if request.environ.get("QUERY_STRING") else []
    if request.method not in ("GET", "HEAD", "OPTIONS") and request.mimetype in (
            "application/x-www-form-urlencoded", "multipart/form-data"):
        limit = request.max_content_length
        if request.content_length is not None and (not limit
                                                   or request.content_length <= limit):
            sources.append(request.form)     # a larger body is the view's own (imports)
    for source in sources:
        for name, values in source.lists():
            for text in (name, *values):
                problem = text_problem(text)
                if problem is not None:
                    problem.field = _field_name(name)
                    return problem
    return None


# Characters text_problem refuses as a JSON text may hold them raw: NUL (raw C0 characters
# are not valid JSON, but a UTF-16 or UTF-32 text holds NUL bytes), DEL, and in UTF-8 a C1
# character (C2 80-9F) or a surrogate (ED A0-BF); in a text already decoded, the same.
_RAW_SUSPECTS = ((b"\xc2", range(0x80, 0xA0)), (b"\xed", range(0xA0, 0xC0)))
_SUSPECT_CHARACTER = re.compile(r"[\x00\x7f-\x9f\ud800-\udfff]")


def _refused_escape(code: int) -> bool:
    """Whether the character ``\\u`` + ``code`` is one text_problem refuses."""
    return (code < 0x20 and code not in (0x09, 0x0A, 0x0D)) or 0x7F <= code <= 0x9F \
        or 0xD800 <= code <= 0xDFFF


def _storable_texts(data: str | bytes) -> bool:
    """Whether every string (keys included) of the JSON text ``data`` is storable, told from
    the text alone: no refused character raw, none escaped (False: perhaps one is, and
    :func:`check_value` finds it)."""
    if isinstance(data, str):
        if _SUSPECT_CHARACTER.search(data) is not None:
            return False
        backslash: str | bytes = "\\"
    else:
        if b"\x00" in data or b"\x7f" in data:
            return False
        for lead, refused in _RAW_SUSPECTS:
            at = data.find(lead)
            while at >= 0:
                if data[at + 1:at + 2] and data[at + 1] in refused:
                    return False
                at = data.find(lead, at + 1)
        backslash = b"\\"
    at = data.find(backslash)                    # an escape: a backslash and what it escapes
    while at >= 0:
        kind = data[at + 1:at + 2]
        if kind in ("b", "f", b"b", b"f"):       # backspace and form feed: control characters
            return False
        if kind in ("u", b"u"):
            try:
                if _refused_escape(int(data[at + 2:at + 6], 16)):
                    return False
            except ValueError:
                return False
        at = data.find(backslash, at + 2)        # past the escaped character (a backslash too)
    return True


def _numbers_and_depth_fine(value: Any, depth: int = 0) -> bool:
    """Whether the containers of ``value`` nest at most MAX_DEPTH deep and its numbers are
    finite and within MAX_INT (False: perhaps not; check_value then finds which)."""
    if depth >= MAX_DEPTH:
        return False
    for item in (value.values() if type(value) is dict else value):
        kind = type(item)
        if kind is int:
            if not -MAX_INT <= item <= MAX_INT:
                return False
        elif kind is dict or kind is list:
            if not _numbers_and_depth_fine(item, depth + 1):
                return False
        elif kind is float and not math.isfinite(item):
            return False
    return True


def safe_loads(data: str | bytes) -> Any:
    """``json.loads`` that refuses what :func:`check_value` refuses, and NaN/Infinity."""
    try:
        value = json.loads(data)      # NaN, Infinity, 1e400: floats check_value refuses
    except RecursionError:
        raise UnsafeJSON(RuleViolation("json.too_deep", N_(
            "The document nests deeper than %(depth)d levels."), None, depth=MAX_DEPTH)) \
            from None
    # Nearly every body is plain: a look at its text rules out every unstorable string, and
    # one walk of its containers checks the rest (a few times faster than check_value, which
    # keeps the path of each value to name what it refuses, and so runs only when needed).
    if type(value) not in (dict, list) or not (_storable_texts(data)
                                               and _numbers_and_depth_fine(value)):
        check_value(value)
    return value


class JSONProvider(DefaultJSONProvider):
    """Flask's JSON responses, encoded by orjson (about 7x faster than :mod:`json` on a
    score sheet or a table's state, the bulk of a move's answer): the same values, keys
    sorted, compact. Flask's own conversions (dates, UUIDs, dataclasses, ``__html__``) still
    apply; anything orjson refuses (non-string keys, integers past 64 bits) is encoded by
    :mod:`json` as before. Non-ASCII text is sent as UTF-8 instead of ``\\u`` escapes."""

    _OPTIONS = (orjson.OPT_SORT_KEYS | orjson.OPT_PASSTHROUGH_DATETIME
                | orjson.OPT_PASSTHROUGH_DATACLASS)

    def response(self, *args: Any, **kwargs: Any):
        if self.compact is False or (self.compact is None and self._app.debug):
            return super().response(*args, **kwargs)          # indented, for people
        body = self.encode(self._prepare_response_obj(args, kwargs))
        if body is None:
            return super().response(*args, **kwargs)
        return self._app.response_class(body, mimetype=self.mimetype)

    def encode(self, obj: Any) -> bytes | None:
        """The bytes of a JSON answer, or None for what orjson refuses (then :mod:`json`)."""
        try:
            return orjson.dumps(obj, default=self.default, option=self._OPTIONS) + b"\n"
        except (orjson.JSONEncodeError, TypeError):
            return None

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        """Reading goes through :func:`safe_loads`."""
        return safe_loads(s)


def body_limit_of(limit: int):
    """Decorate a view that accepts bodies up to ``limit`` bytes (the app's own limit is
    ``MAX_CONTENT_LENGTH``); the guard reads and refuses bodies by it."""
    def decorate(view):
        view.body_limit = limit
        return view
    return decorate


def body_limit() -> int | None:
    """The body size the request's view accepts."""
    view = current_app.view_functions.get(request.endpoint) if request.endpoint else None
    return getattr(view, "body_limit", None) or current_app.config.get("MAX_CONTENT_LENGTH")


def too_large():
    """413 as the JSON error (the body was larger than the app accepts)."""
    return jsonify({"error": "http_413", "field": None, "message": gettext(
        "The request body is larger than %(max)d KiB.", max=(body_limit() or 0) // 1024)}), 413


def parse_json_body():
    """Parse a JSON body before the view runs, so that a refused one is answered before any
    view runs; the view then reads the parsed value with ``request.get_json()``. The API's
    blueprint runs this before each of its requests (no page reads JSON)."""
    if not request.is_json or request.method in ("GET", "HEAD", "OPTIONS"):
        return None
    limit = body_limit()
    if limit != current_app.config.get("MAX_CONTENT_LENGTH"):
        request.max_content_length = limit       # a view with a limit of its own
    if request.content_length is None:
        # chunked: read it here, bounded, so that too much is a 413 (Werkzeug would
        # silently cut it at the limit, and the view would see broken JSON)
        if "wsgi.input_terminated" not in request.environ:
            return None                          # nothing a view could read either
        raw = request.environ["wsgi.input"].read(limit + 1 if limit else -1)
        if limit and len(raw) > limit:
            return too_large()
        request._cached_data = raw
    elif limit and request.content_length > limit:
        return too_large()
    else:
        raw = request.get_data(cache=True)
    if not raw:
        return None
    try:
        value = safe_loads(raw)
    except UnsafeJSON as refused:
        body = refused.violation.as_dict(gettext)
        return jsonify(body), refused.status
    except ValueError:
        return None          # not JSON at all: each view answers that in its own words
    request._cached_json = (value, value)    # what get_json() returns from now on
    return None


def stored_int(text: str) -> int:
    """A whole number in ``text`` that an integer column can hold (0 … 2³¹−1), for
    ``request.args.get(name, type=stored_int)``: anything else is a ``ValueError``, so the
    value is missing (the form's own refusal), never an overflow in the database."""
    value = int(text)
    if not 0 <= value <= DB_INT_MAX:
        raise ValueError(f"{value} is out of range")
    return value


def at_most(largest: int) -> str:
    """A regular expression (no groups) of the whole numbers 0 … ``largest``, leading zeros
    allowed."""
    top = str(largest)
    shorter = [rf"\d{{1,{len(top) - 1}}}"] if len(top) > 1 else []
    same = [top[:i] + (f"[0-{int(digit) - 1}]" if digit != "1" else "0")
            + (rf"\d{{{len(top) - i - 1}}}" if i < len(top) - 1 else "")
            for i, digit in enumerate(top) if digit != "0"]
    return "0*(?:" + "|".join([*shorter, *same, top]) + ")"


class BoundedInt(IntegerConverter):
    """``<int:…>`` in routes: 0 … 2³¹−1. A larger number names nothing: 404 (the pattern
    itself refuses it, so no other method's route answers 405 for it)."""

    regex = at_most(DB_INT_MAX)

    def __init__(self, map: Any, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max", DB_INT_MAX)
        super().__init__(map, *args, **kwargs)


SECURITY_HEADERS = {
    "Content-Security-Policy": ("default-src 'self'; img-src 'self' data:; "
                                # pygal charts carry their style inside the inline SVG
                                "style-src 'self' 'unsafe-inline'; script-src 'self'; "
                                "frame-ancestors 'none'; base-uri 'self'; form-action 'self'; "
                                "object-src 'none'"),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}
_SECURITY_HEADER_ITEMS = list(SECURITY_HEADERS.items())
_SECURITY_HEADER_NAMES = frozenset(name.lower() for name in SECURITY_HEADERS)


HSTS = ("Strict-Transport-Security", "max-age=31536000")


def secure_site() -> bool:
    """Whether this request's cookies must be ``Secure``: the public address is https (a
    proxy in front may speak plain HTTP to us), or this request came over https."""
    return current_app.config["PUBLIC_URL"].startswith("https://") or request.is_secure


def init_app(app: Flask) -> None:
    app.json = JSONProvider(app)
    app.url_map.converters["int"] = BoundedInt

    @app.before_request
    def _check_parameters():
        """NUL or another control character in a path segment, a query value or a form field:
        the API answers the JSON error naming the parameter; a page answers 404 when the
        address itself holds it (it names nothing), else 422, in words."""
        problem = parameter_problem()
        if problem is None:
            return None
        if request.path.startswith("/api/"):
            return jsonify(problem.as_dict(gettext)), 422
        if problem.field in (request.view_args or {}):
            return render_template("error.html", code=404, message=gettext(
                "There is nothing at this address.")), 404
        message = gettext("“%(field)s” holds a character that cannot be kept (a control "
                          "character, or text that is not valid Unicode); remove it and "
                          "send again.", field=problem.field)
        return render_template("error.html", code=422, message=message), 422

    @app.after_request
    def _headers(response):
        headers = response.headers
        if _SECURITY_HEADER_NAMES.isdisjoint(name.lower() for name in headers.keys()):
            headers.extend(_SECURITY_HEADER_ITEMS)           # nearly always: one step
        else:
            for name, value in _SECURITY_HEADER_ITEMS:
                headers.setdefault(name, value)
        location = headers.get("Location")
        if location is not None and location.startswith(request.host_url):
            # a redirect of the URL map (a doubled slash, a missing trailing one) names the
            # request's Host header, which anyone can forge: the same address, relative
            relative = "/" + location[len(request.host_url):].lstrip("/")
            headers["Location"] = relative
            if 300 <= response.status_code < 400:
                # werkzeug's redirect page links the address too
                response.set_data(redirect(relative, response.status_code).get_data())
        if current_app.config["PUBLIC_URL"].startswith("https://"):
            headers.setdefault(*HSTS)        # browsers keep to https from the first visit
        if secure_site():
            cookies = response.headers.getlist("Set-Cookie")
            if cookies:
                response.headers.remove("Set-Cookie")
                for cookie in cookies:
                    if "; secure" not in cookie.lower():
                        cookie += "; Secure"
                    response.headers.add("Set-Cookie", cookie)
        return response
