"""No token reaches a log line (issue 21 §5): the redactor over every route of the URL map, and
the logs it filters (the ``flask run`` server's, Flask's own). The access log of the real
server is read in tests/test_serve_security.py."""

from __future__ import annotations

import logging
import re

import pytest
from werkzeug.routing import IntegerConverter, Rule

from companion.logs import HIDDEN, LOGGERS, PUBLIC_ARGUMENTS, Redactor, secret_arguments

_VARIABLE = re.compile(r"<(?:[^>:]+:)?([a-zA-Z_]\w*)>")


def _path_of(rule, secret: str) -> tuple[str, str, list[str]]:
    """A path of ``rule`` (each secret part a token of its own), the path the logs should
    show, and the tokens."""
    tokens: list[str] = []

    def fill(match: re.Match, shown: bool) -> str:
        name = match.group(1)
        if isinstance(rule._converters[name], IntegerConverter):
            return "7"
        if name in PUBLIC_ARGUMENTS:
            return "style.css" if name == "filename" else "ra"
        if shown:
            return HIDDEN
        tokens.append(f"{secret}{name}{len(tokens)}")
        return tokens[-1]

    path = _VARIABLE.sub(lambda m: fill(m, False), rule.rule)
    return path, _VARIABLE.sub(lambda m: fill(m, True), rule.rule), tokens


def _tokened_rules(app):
    return [rule for rule in app.url_map.iter_rules() if secret_arguments(rule)]


def test_the_tokened_routes_are_found_in_the_url_map(app):
    """The routes that carry a capability are among those the redactor finds by itself."""
    endpoints = {rule.endpoint for rule in _tokened_rules(app)}
    assert {"groups.link", "live.rejoin", "live.take_host", "live.join_by_code",
            "main.table", "api.submit_move", "api.events", "printing.table_pad"} <= endpoints
    assert "score.score_form" not in endpoints and "groups.home" not in endpoints


def test_every_token_of_every_tokened_route_is_hidden_keeping_the_route_shape(app):
    redactor = Redactor(app.url_map)
    rules = _tokened_rules(app)
    assert len(rules) > 30
    for rule in rules:
        path, shown, tokens = _path_of(rule, "Zq9Xk2SeCrEt")
        assert tokens, rule.rule
        assert redactor.path(path) == shown, rule.rule
        query = redactor.path(path + "?token=Zq9Xk2QuErY&page=a4")
        assert query == shown + f"?token={HIDDEN}&page=a4", rule.rule
        doubled = redactor.path(path.replace("/", "//") + "/")
        assert not any(token in doubled for token in tokens), (rule.rule, doubled)


def test_routes_without_tokens_are_logged_as_they_are(app):
    redactor = Redactor(app.url_map)
    for path in ("/score/ra", "/groups/12/players/3", "/api/v1/groups/4/ladder/ra",
                 "/static/style.css?v=1a2b", "/print/ra/pad.pdf?page=letter", "/"):
        assert redactor.path(path) == path


def test_a_path_no_route_matches_keeps_only_the_url_maps_words(app):
    redactor = Redactor(app.url_map)
    assert redactor.path("/tables/Zq9Xk2/rejoin/Zq9Xk2/extra") == \
        f"/tables/{HIDDEN}/rejoin/{HIDDEN}/{HIDDEN}"
    assert redactor.path("/g/Zq9Xk2/") == f"/g/{HIDDEN}/"


def test_a_new_route_is_covered_by_itself(make_app):
    app = make_app()
    app.url_map.add(Rule("/claim/<ticket>/seat/<int:position>", endpoint="new.claim"))
    assert Redactor(app.url_map).path("/claim/Zq9Xk2SeCrEt/seat/3") == f"/claim/{HIDDEN}/seat/3"


def _record(name: str, msg: str, args: tuple) -> logging.LogRecord:
    return logging.LogRecord(name, logging.INFO, __file__, 1, msg, args, None)


def _filtered(record: logging.LogRecord) -> str:
    logger = logging.getLogger(record.name)
    assert logger.filter(record)
    return record.getMessage()


@pytest.mark.parametrize("name", LOGGERS)
def test_the_logs_that_name_requests_are_filtered(app, name):
    assert name in ("uvicorn.access", "uvicorn.error", "gunicorn.error", "werkzeug")
    if name == "uvicorn.access":
        line = _filtered(_record(name, '%s - "%s %s HTTP/%s" %d',
                                 ("127.0.0.1:5", "GET", "/g/Zq9Xk2SeCrEt?x=1", "1.1", 200)))
        assert line == f'127.0.0.1:5 - "GET /g/{HIDDEN}?x={HIDDEN} HTTP/1.1" 200'
        return
    # the `flask run` server: '"%s" %s %s' with the request line (perhaps in colours)
    line = _filtered(_record(name, '127.0.0.1 - - [date] "%s" %s %s',
                             ("\x1b[33mPOST /tables/Zq9Xk2SeCrEt/take-host/Zq9Xk2SeCrEt "
                              "HTTP/1.1\x1b[0m", "404", "-")))
    assert "Zq9Xk2SeCrEt" not in line and f"/tables/{HIDDEN}/take-host/{HIDDEN} " in line


def test_flasks_own_log_of_a_request_hides_its_token(app):
    line = _filtered(_record(app.logger.name, "Exception on /g/Zq9Xk2SeCrEt [GET]", ()))
    assert line == f"Exception on /g/{HIDDEN} [GET]"
