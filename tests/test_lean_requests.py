"""One path per request, and a lean one (design.md §3): an API request runs only the hooks it
needs, the limiter meets only the limited views, the API opens no session cookie, and the
JSON guard's quick check of a body agrees with its full walk."""

from __future__ import annotations

import json
import random

import pytest
from flask.sessions import SecureCookieSessionInterface

from companion import guard
from companion.web import limits
from tests.factories import ra_document

HOOK_TABLES = ("before_request_funcs", "after_request_funcs")


@pytest.fixture
def hooks_run(app):
    """The names of the before- and after-request hooks each request ran, in a list."""
    ran: list[str] = []

    def recording(hook):
        name = getattr(hook, "__name__", None) or getattr(hook.func, "__name__")  # a partial

        def record(*args, **kwargs):
            ran.append(name)
            return hook(*args, **kwargs)
        return record

    for table in HOOK_TABLES:
        for funcs in getattr(app, table).values():
            funcs[:] = [recording(hook) for hook in funcs]
    return ran


@pytest.mark.db
def test_an_api_request_runs_none_of_the_pages_hooks(client, hooks_run):
    answer = client.post("/api/v1/score", json=ra_document(players=3),
                         headers={"Accept-Encoding": "gzip"})
    assert answer.status_code == 200
    assert sorted(hooks_run) == ["_check_parameters", "_headers", "check_integers", "parse_json_body"]
    assert "Vary" not in answer.headers            # compression is not even considered
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    hooks_run.clear()
    page = client.get("/", headers={"Accept-Encoding": "gzip"})
    assert page.status_code == 200 and page.headers["Content-Encoding"] == "gzip"
    assert {"csrf_protect", "after_request", "_write_back"} <= set(hooks_run)


@pytest.mark.db
def test_the_limiter_meets_only_the_limited_views(app, client, monkeypatch):
    checks: list[str] = []
    check = limits.Limit.check

    def counting(limit):
        checks.append(limit.scope)
        return check(limit)

    monkeypatch.setattr(limits.Limit, "check", counting)
    assert client.get("/api/v1/games").status_code == 200
    assert client.get("/").status_code == 200
    assert client.get("/score/ra").status_code == 200
    assert checks == []
    opened = client.post("/api/v1/tables", json={"game": "ra", "players": ["A", "B", "C"]})
    assert opened.status_code == 201 and len(checks) == 1
    assert "X-RateLimit-Limit" in opened.headers      # the limiter's answer hook ran too
    # anyone may score (issue 21 §1): limited per device
    assert client.post("/api/v1/score", json=ra_document(players=3)).status_code == 200
    assert len(checks) == 2


@pytest.mark.db
def test_the_api_opens_no_session_cookie(client, monkeypatch):
    opened: list[str] = []
    open_session = SecureCookieSessionInterface.open_session

    def counting(self, app, request):
        opened.append(request.path)
        return open_session(self, app, request)

    monkeypatch.setattr(SecureCookieSessionInterface, "open_session", counting)
    client.set_cookie("session", "not-even-signed")
    assert client.post("/api/v1/score", json=ra_document(players=3)).status_code == 200
    assert opened == []
    assert client.get("/").status_code == 200
    assert opened == ["/"]


# Characters around every edge text_problem draws: control characters (tab, line feed and
# carriage return are allowed), DEL, C1, surrogates (alone or paired), the backslash and quote
# JSON escapes, and ordinary letters (ř and ő are written as \u escapes by json.dumps).
EDGES = ["a", "ř", "ő", "\x00", "\x08", "\t", "\n", "\x0c", "\r", "\x1f", " ", "\x7f", "\x80",
         "\x9f", "\xa0", "\ud800", "\udfff", "\ud83d\ude00", "\\", '"', "/", "\u2028", "\ud7ff",
         "\ue000"]


def _outcome(call):
    try:
        call()
    except guard.UnsafeJSON as refused:
        return refused.violation.code, refused.violation.field
    except ValueError:
        return "not json", None
    return None


def _texts(document) -> list[str | bytes]:
    """The JSON texts a client may send for ``document``: escaped or not, str or UTF-8."""
    texts: list[str | bytes] = []
    for ascii_only in (True, False):
        text = json.dumps(document, ensure_ascii=ascii_only)
        texts += [text, text.encode("utf-8", "surrogatepass")]
    return texts


def test_the_quick_check_of_a_body_agrees_with_the_full_walk():
    rng = random.Random(19)
    for _ in range(3000):
        text = "".join(rng.choice(EDGES) for _ in range(rng.randint(0, 4)))
        key = "".join(rng.choice(EDGES) for _ in range(rng.randint(0, 2)))
        number = rng.choice([0, 1, -7, 2 ** 53, 2 ** 53 + 1, -(2 ** 60), 0.5, 1e300])
        document = {"game": "ra", key: [text, {"n": number}], "players": [{"name": text}]}
        for data in _texts(document):
            full = _outcome(lambda: guard.check_value(json.loads(data)))
            assert _outcome(lambda: guard.safe_loads(data)) == full, data


@pytest.mark.parametrize("raw", ["1e400", "-1e999", "NaN", "[Infinity]", "9" * 30,
                                 "[" * 33 + "]" * 33, '{"a": ' * 33 + "1" + "}" * 33,
                                 "[" * 32 + "1" + "]" * 32, "[" * 32 + "]" * 32, '"\\u0000"',
                                 '["\\ud800"]', '{"\\u007f": 1}', '"\\\\u0000"', "2"])
def test_numbers_and_depth_are_judged_as_the_full_walk_judges_them(raw):
    full = _outcome(lambda: guard.check_value(json.loads(raw)))
    for data in (raw, raw.encode()):
        assert _outcome(lambda: guard.safe_loads(data)) == full
