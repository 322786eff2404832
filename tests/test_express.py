"""The express lane (companion/express.py): accepted moves and scores answered without Flask by
the server that ``serve`` runs, everything else left to Flask. Driven in-process with plain
ASGI messages through ScribeASGI, against the same requests answered with the lane off."""

from __future__ import annotations

import asyncio
import json

import pytest
from flask import request
from sqlmodel import Session, func, select

from companion.asgi import ScribeASGI
from companion.express import ExpressLane, LANES, bearer_token, is_json_type
from companion.models import Move
from tests.api.livetable import LiveTable
from tests.factories import ra_document
from tests.liveserver import RA_OPENING, run_on_own_loop

pytestmark = pytest.mark.db

VOLATILE = {b"date", b"server", b"content-length"}


class Answer:
    def __init__(self, messages: list[dict]):
        start = messages[0]
        self.status: int = start["status"]
        self.headers = {k.lower(): v for k, v in start["headers"] if k.lower() not in VOLATILE}
        self.body = b"".join(m.get("body", b"") for m in messages[1:])

    def json(self):
        return json.loads(self.body)


def post(server: ScribeASGI, path: str, body: bytes, headers: dict[str, str],
         query: bytes = b"") -> Answer:
    """One POST through the ASGI app, on a loop of its own."""
    messages: list[dict] = []

    async def scenario():
        done = asyncio.Event()
        handed = False

        async def receive():
            nonlocal handed
            if not handed:
                handed = True
                return {"type": "http.request", "body": body, "more_body": False}
            await done.wait()
            return {"type": "http.disconnect"}

        async def send(message):
            messages.append(message)
            if message["type"] == "http.response.body" and not message.get("more_body"):
                done.set()

        scope = {"type": "http", "method": "POST", "path": path, "query_string": query,
                 "headers": [(k.lower().encode(), v.encode()) for k, v in
                             {**headers, "Content-Length": str(len(body))}.items()],
                 "root_path": "", "scheme": "http", "http_version": "1.1",
                 "server": ("127.0.0.1", 8000), "client": ("127.0.0.1", 50000),
                 "asgi": {"version": "3.0"}}
        await asyncio.wait_for(server(scope, receive, send), 30)

    run_on_own_loop(scenario)
    return Answer(messages)


def move_request(table: LiveTable, seat: int, move, version: int, key: str,
                 **headers: str) -> tuple[bytes, dict[str, str]]:
    body = json.dumps({"move": move, "version": version, "idempotency_key": key}).encode()
    return body, {"Content-Type": "application/json",
                  "Authorization": f"Bearer {table.tokens[seat]}", **headers}


@pytest.fixture
def flask_seen(app):
    """The paths the Flask app answered (its hooks run only for requests it takes)."""
    seen: list[str] = []
    app.before_request(lambda: seen.append(request.path) and None)
    return seen


def servers(app) -> tuple[ScribeASGI, ScribeASGI]:
    app.config["LIVE_POLL_SECONDS"] = 3600
    return ScribeASGI(app, threads=2), ScribeASGI(app, threads=2, express=False)


def test_accepted_moves_take_the_lane_and_are_answered_as_flask_answers_them(
        app, client, flask_seen):
    express, plain = servers(app)
    fast, slow = LiveTable(client), LiveTable(client)
    flask_seen.clear()
    for version, (seat, move) in enumerate(RA_OPENING):
        a = post(express, f"{fast.url}/moves", *move_request(fast, seat, move, version, f"m{version}"))
        assert flask_seen == [], "an accepted move went through Flask"
        b = post(plain, f"{slow.url}/moves", *move_request(slow, seat, move, version, f"m{version}"))
        assert flask_seen == [f"{slow.url}/moves"]
        flask_seen.clear()
        assert (a.status, a.headers) == (b.status, b.headers), b.body
        assert a.body == b.body
        assert a.json()["version"] == version + 1
    assert a.headers[b"content-type"] == b"application/json"
    assert a.headers[b"x-frame-options"] == b"DENY"


def test_a_retried_move_is_answered_once_from_the_log(app, client, flask_seen):
    express, _plain = servers(app)
    table = LiveTable(client)
    flask_seen.clear()
    seat, move = RA_OPENING[0]
    first = post(express, f"{table.url}/moves", *move_request(table, seat, move, 0, "once"))
    again = post(express, f"{table.url}/moves", *move_request(table, seat, move, 0, "once"))
    assert first.status == again.status == 200
    assert first.json()["version"] == again.json()["version"] == 1
    with Session(app.extensions["scribe.engine"]) as session:
        assert session.exec(select(func.count()).select_from(Move)
                            .where(Move.table_id == table.id)).one() == 1


@pytest.mark.parametrize("language", ["cs", "hu", "en"])
def test_a_refused_move_is_answered_by_flask_in_the_readers_words(
        app, client, flask_seen, language):
    express, plain = servers(app)
    table = LiveTable(client)
    flask_seen.clear()
    seat, move = RA_OPENING[0]
    bad = post(express, f"{table.url}/moves",
               *move_request(table, 1, move, 0, "wrong-seat", **{"Accept-Language": language}))
    assert flask_seen == [f"{table.url}/moves"]
    same = post(plain, f"{table.url}/moves",
                *move_request(table, 1, move, 0, "wrong-seat", **{"Accept-Language": language}))
    assert bad.status == same.status == 403
    assert bad.body == same.body
    assert bad.json()["error"] == "ra.not_your_turn"
    english = post(plain, f"{table.url}/moves", *move_request(table, 1, move, 0, "wrong-seat"))
    assert (bad.json()["message"] == english.json()["message"]) is (language == "en")


def test_a_stale_move_gets_the_fresh_table_from_flask(app, client, flask_seen):
    express, _plain = servers(app)
    table = LiveTable(client)
    flask_seen.clear()
    (s0, m0), (s1, m1) = RA_OPENING[:2]
    assert post(express, f"{table.url}/moves", *move_request(table, s0, m0, 0, "a")).status == 200
    stale = post(express, f"{table.url}/moves",
                 *move_request(table, s1, {"type": "pass"}, 0, "b"))
    assert stale.status == 409
    assert stale.json()["error"] == "stale_version" and stale.json()["version"] == 1
    assert "state" in stale.json()
    assert flask_seen == [f"{table.url}/moves"]


@pytest.mark.parametrize("headers, query, why", [
    ({"Content-Type": "text/plain"}, b"", "not JSON"),
    ({"Content-Type": "application/json"}, b"x=1", "a query string"),
])
def test_requests_outside_the_lane_go_to_flask(app, client, flask_seen, headers, query, why):
    express, plain = servers(app)
    table = LiveTable(client)
    flask_seen.clear()
    seat, move = RA_OPENING[0]
    body, standard = move_request(table, seat, move, 0, "k")
    post(express, f"{table.url}/moves", body, {**standard, **headers}, query)
    assert flask_seen == [f"{table.url}/moves"], why


def test_a_lane_that_fails_leaves_the_request_to_flask_untouched(app, client, flask_seen):
    express, _plain = servers(app)

    def broken(token, document, **values):
        raise RuntimeError("the lane broke")

    express.express = ExpressLane(app, express.wsgi.executor, {"api.submit_move": broken})
    table = LiveTable(client)
    flask_seen.clear()
    seat, move = RA_OPENING[0]
    answer = post(express, f"{table.url}/moves", *move_request(table, seat, move, 0, "k"))
    assert answer.status == 200 and answer.json()["version"] == 1
    assert flask_seen == [f"{table.url}/moves"]


def test_a_score_takes_the_lane_and_matches_flask(app, flask_seen):
    express, plain = servers(app)
    body = json.dumps(ra_document()).encode()
    headers = {"Content-Type": "application/json", "Accept-Language": "hu"}
    fast = post(express, "/api/v1/score", body, headers)
    assert flask_seen == []
    slow = post(plain, "/api/v1/score", body, headers)
    assert (fast.status, fast.headers, fast.body) == (slow.status, slow.headers, slow.body)
    assert fast.status == 200 and fast.json()["players"]


def test_a_refused_score_and_a_saved_one_are_flasks(app, flask_seen):
    express, _plain = servers(app)
    document = ra_document()
    document["players"][0]["epochs"] = "many"
    refused = post(express, "/api/v1/score", json.dumps(document).encode(),
                   {"Content-Type": "application/json", "Accept-Language": "cs"})
    assert refused.status == 422 and refused.json()["errors"]
    saved = post(express, "/api/v1/score", json.dumps(ra_document()).encode(),
                 {"Content-Type": "application/json"}, b"save=1")
    assert saved.status == 200 and saved.json()["table_token"]
    assert flask_seen == ["/api/v1/score", "/api/v1/score"]


def test_a_body_refused_by_the_reader_never_takes_the_lane(app, client, flask_seen):
    app.config["MAX_CONTENT_LENGTH"] = 1024
    express, _plain = servers(app)
    body = json.dumps(ra_document() | {"padding": "x" * 4096}).encode()
    answer = post(express, "/api/v1/score", body, {"Content-Type": "application/json"})
    assert answer.status == 413                 # answered by Flask's first hook
    assert answer.json()["error"] == "http_413"


def test_only_registered_endpoints_without_a_rate_limit_have_lanes(app):
    assert set(LANES) == {"api.submit_move", "api.score"}
    lane = ExpressLane(app, None, {"api.open_table": lambda *a: {}, "api.score": LANES[
        "api.score"]})
    assert set(lane.lanes) == {"api.score"}      # opening a table is counted by Flask


@pytest.mark.parametrize("header, token", [
    ("Bearer abc", "abc"), ("bearer  abc ", "abc"), ("Basic abc", None), (None, None),
    ("Bearer", None)])
def test_bearer_tokens(header, token):
    assert bearer_token(header) == token


@pytest.mark.parametrize("content_type, is_json", [
    ("application/json", True), ("application/json; charset=utf-8", True),
    ("application/problem+json", True), ("text/plain", False), (None, False),
    ("application/jsonx", False)])
def test_json_types_as_werkzeug_reads_them(content_type, is_json):
    from werkzeug.wrappers import Request

    assert is_json_type(content_type) is is_json
    environ = {"CONTENT_TYPE": content_type} if content_type else {}
    assert Request(environ).is_json is is_json
