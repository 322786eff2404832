"""Logs without secrets (issue 21 §5): no token of a path or a query reaches a log line.

Scribe's links carry capabilities: a group's admin and invite links (``/g/<token>``), one-time
rejoin and take-host links, a table's unguessable id and its join code. Every log line that
names a request (gunicorn's access log through uvicorn, the ``flask run`` server's, Flask's
own) has them replaced by ``…``, keeping the route's shape::

    GET /tables/Xy3…Q/rejoin/9f…T  ->  GET /tables/…/rejoin/…

Which parts are secret is read from the app's URL map, so a new route is covered by itself:
every variable part of a route is secret except whole numbers (ids, positions) and the few
names in :data:`PUBLIC_ARGUMENTS`. A path that no route matches keeps only the words the URL
map spells out and numbers. In a query, every value is hidden but those of
:data:`PUBLIC_QUERY`.
"""

from __future__ import annotations

import logging
import re
from typing import Any, Iterable

from flask import Flask
from werkzeug.routing import IntegerConverter, Map, Rule

HIDDEN = "…"
# Variable parts of routes that never carry a secret (a game's name, a printout's key, a static
# file); whole numbers (ids, seat positions) never do either.
PUBLIC_ARGUMENTS = frozenset({"game", "key", "filename"})
# Query parameters whose values are shown (every one the app reads; none is a secret).
PUBLIC_QUERY = frozenset({"page", "version", "voided", "game", "a", "b", "offset", "limit",
                          "opened", "save", "v", "players", "sheets", "copies", "sides",
                          "bleed", "card", "lang"})

_VARIABLE = re.compile(r"<(?:(?P<converter>[a-zA-Z_][a-zA-Z0-9_]*)(?:\((?P<args>.*?)\))?:)?"
                       r"(?P<name>[a-zA-Z_][a-zA-Z0-9_]*)>")
# A request line inside a log message: the method, then the path (up to a space or a quote;
# werkzeug may wrap it in ANSI colours).
_REQUEST_LINE = re.compile(r"((?:GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS|TRACE|CONNECT) |"
                           r"Exception on )(/[^\s\"\x1b]*)")
_DIGITS = re.compile(r"[0-9]+")
_REMEMBERED = 4096                # hidden paths a Redactor keeps


def secret_arguments(rule: Rule) -> list[str]:
    """The variable parts of ``rule`` that may carry a secret."""
    return [name for name, converter in rule._converters.items()
            if name not in PUBLIC_ARGUMENTS and not isinstance(converter, IntegerConverter)]


class Redactor:
    """Hides the secret parts of the paths of one URL map (compiled on first use)."""

    def __init__(self, url_map: Map):
        self._map = url_map
        self._pattern: re.Pattern | None = None
        self._words: frozenset[str] = frozenset()
        # The paths met lately, hidden: a table's phones ask for the same few paths all
        # evening, and each access log line would otherwise match the whole URL map again.
        self._hidden: dict[str, str] = {}

    def _compile(self) -> None:
        """One pattern for every route: the routes with secrets first, each secret part a
        named group (``s<route>_<name>``), then the others."""
        secret, public, words = [], [], set()
        for index, rule in enumerate(self._map.iter_rules()):
            names = set(secret_arguments(rule))
            pattern, at = [], 0
            for variable in _VARIABLE.finditer(rule.rule):
                literal = rule.rule[at:variable.start()]
                pattern.append(re.escape(literal).replace("/", "/+"))
                words.update(w for w in literal.split("/") if w)
                name = variable.group("name")
                regex = rule._converters[name].regex
                pattern.append(f"(?P<s{index}_{name}>{regex})" if name in names
                               else f"(?:{regex})")
                at = variable.end()
            literal = rule.rule[at:]
            words.update(w for w in literal.split("/") if w)
            pattern.append(re.escape(literal).replace("/", "/+") + "/*")
            (secret if names else public).append(f"(?:{''.join(pattern)})")
        self._pattern = re.compile("|".join(secret + public))
        self._words = frozenset(words)

    def path(self, path: str) -> str:
        """``path`` with its secret parts hidden (its query, if any, too)."""
        hidden = self._hidden.get(path)
        if hidden is None:
            if len(self._hidden) >= _REMEMBERED:
                self._hidden.clear()
            hidden = self._hidden[path] = self._path(path)
        return hidden

    def _path(self, path: str) -> str:
        if self._pattern is None:
            self._compile()
        assert self._pattern is not None
        path, mark, query = path.partition("?")
        match = self._pattern.fullmatch(path)
        if match is None:                 # no route: only the URL map's words and numbers
            path = "/".join(part if not part or part in self._words or _DIGITS.fullmatch(part)
                            else HIDDEN for part in path.split("/"))
        else:
            spans = [match.span(name) for name, value in match.groupdict().items()
                     if value is not None]
            for start, end in sorted(spans, reverse=True):
                path = path[:start] + HIDDEN + path[end:]
        return path + mark + (_query(query) if query else "")

    def text(self, text: str) -> str:
        """``text`` with the path of every request line in it hidden."""
        if "/" not in text:
            return text
        return _REQUEST_LINE.sub(lambda m: m.group(1) + self.path(m.group(2)), text)


def _query(query: str) -> str:
    parts = []
    for pair in query.split("&"):
        name, equals, _value = pair.partition("=")
        parts.append(pair if not equals or name in PUBLIC_QUERY else f"{name}={HIDDEN}")
    return "&".join(parts)


class HideTokens(logging.Filter):
    """A logging filter: the request a record names, its secrets hidden."""

    def __init__(self) -> None:
        super().__init__()
        self.redactor: Redactor | None = None

    def filter(self, record: logging.LogRecord) -> bool:
        redactor = self.redactor
        if redactor is None:
            return True
        args = record.args
        if record.name == "uvicorn.access" and isinstance(args, tuple) and len(args) >= 3 \
                and isinstance(args[2], str):
            # '%s - "%s %s HTTP/%s" %d': (client, method, path and query, version, status)
            record.args = (*args[:2], redactor.path(args[2]), *args[3:])
            return True
        if isinstance(args, tuple) and args:
            record.args = tuple(redactor.text(a) if isinstance(a, str) else a for a in args)
        if isinstance(record.msg, str):
            record.msg = redactor.text(record.msg)
        return True


_FILTER = HideTokens()
LOGGERS = ("uvicorn.access", "uvicorn.error", "gunicorn.error", "werkzeug")


def install(app: Flask, loggers: Iterable[str] = LOGGERS) -> None:
    """Hide the tokens of ``app``'s routes in the logs that name requests (and its own)."""
    _FILTER.redactor = Redactor(app.url_map)
    for name in (*loggers, app.logger.name):
        logging.getLogger(name).addFilter(_FILTER)      # once: a filter is added only once


def redacted(app: Any, path: str) -> str:
    """``path`` as the logs show it (tests and tools)."""
    return Redactor(app.url_map).path(path)
