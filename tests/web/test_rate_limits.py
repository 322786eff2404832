"""Rate limits (issue 10): join-code guesses, opening tables and groups, imports — 429 with a
clear message, a page for people and the API's JSON error for programs."""

from __future__ import annotations

import io
import json
import re

import pytest

from tests.groups.builders import Api

pytestmark = pytest.mark.db

RATE_LIMITED = "Too many attempts from this device. Wait a minute, then try again."


def open_live(client):
    form = {"_players": "3", "action": "open", "players.0": "Ana", "players.1": "Bo",
            "players.2": "Cy"}
    return client.post("/tables/new/ra", data=form)


def _said_in(language: str) -> str:
    """RATE_LIMITED as the page says it in ``language``."""
    from babel.support import Translations

    from companion.config import Config

    return Translations.load(Config.BABEL_TRANSLATION_DIRECTORIES, [language]).gettext(
        RATE_LIMITED)


def assert_page_429(answer, language="en"):
    assert answer.status_code == 429
    html = answer.get_data(as_text=True)
    expected = _said_in(language)
    assert expected != RATE_LIMITED or language == "en"          # translated
    assert f'<html lang="{language}">' in html and expected in html
    assert int(answer.headers["Retry-After"]) > 0


def assert_json_429(answer):
    assert answer.status_code == 429
    assert answer.get_json() == {"error": "rate_limited", "message": RATE_LIMITED,
                                 "field": None}


def test_wrong_join_codes_are_limited_right_ones_are_not_counted(app, client):
    app.config["RATE_LIMIT_JOIN"] = "3 per minute"
    opened = open_live(client)
    code = re.search(r'<p class="code"[^>]*>(\w{6})</p>',
                     client.get(opened.headers["Location"]).get_data(as_text=True)).group(1)
    guesser = app.test_client()
    for _ in range(5):                                     # right codes: never counted
        assert guesser.get(f"/j/{code}").status_code == 302
    assert guesser.post("/join", data={"code": "ZZZZZZ"}).status_code == 404
    assert guesser.get("/j/YYYYYY").status_code == 404
    assert guesser.post("/join", data={"code": "XXXXXX"}).status_code == 404
    # typed and followed codes share one budget; spent, every code waits
    assert_page_429(guesser.get("/j/WWWWWW", headers={"Accept-Language": "cs"}), "cs")
    assert_page_429(guesser.post("/join", data={"code": code}))
    assert guesser.get("/join").status_code == 200        # the form itself is never refused
    # another address has a budget of its own
    other = app.test_client().get(f"/j/{code}", environ_base={"REMOTE_ADDR": "10.0.0.7"})
    assert other.status_code == 302


def test_opening_tables_is_limited_on_the_page_and_the_api(app, client):
    app.config["RATE_LIMIT_OPEN_TABLE"] = "2 per minute"
    assert client.get("/tables/new/ra").status_code == 200
    resized = client.post("/tables/new/ra", data={"_players": "3", "action": "add_player"})
    assert resized.status_code == 200                       # not an opened table: not counted
    assert open_live(client).status_code == 303
    body = {"game": "ra", "players": ["Ana", "Bo", "Cy"]}
    assert client.post("/api/v1/tables", json=body).status_code == 201
    assert_json_429(client.post("/api/v1/tables", json=body))
    assert_page_429(open_live(client))


def test_opening_groups_is_limited_on_the_page_and_the_api(app, client):
    app.config["RATE_LIMIT_OPEN_GROUP"] = "2 per minute"
    refused = client.post("/groups/new", data={"name": ""})
    assert refused.status_code == 422                       # nothing opened: not counted
    assert client.post("/groups/new", data={"name": "One"}).status_code == 200
    assert client.post("/api/v1/groups", json={"name": "Two"}).status_code == 201
    assert_json_429(client.post("/api/v1/groups", json={"name": "Three"}))
    assert_page_429(client.post("/groups/new", data={"name": "Four"},
                                headers={"Accept-Language": "hu"}), "hu")


def test_imports_are_limited_whether_they_succeed_or_not(app, client):
    app.config["RATE_LIMIT_IMPORT"] = "2 per minute"
    api = Api(client)
    admin = {"Authorization": f"Bearer {api.admin}"}
    backup = json.dumps(api.get("/export/bgstats", token="admin").get_json()).encode()
    url = f"/api/v1/groups/{api.id}/import/bgstats"
    assert client.post(url, data=backup, headers=admin,
                       content_type="application/json").status_code == 200
    assert client.post(url, data=b"not json", headers=admin,
                       content_type="application/json").status_code == 422
    assert_json_429(client.post(url, data=backup, headers=admin,
                                content_type="application/json"))
    # the page's import shares the budget; the admin page's other actions do not count
    phone = app.test_client()
    phone.get(f"/g/{api.admin}")
    assert phone.get(f"/groups/{api.id}/admin").status_code == 200
    assert phone.post(f"/groups/{api.id}/admin", data={"action": "rename_group",
                                                       "name": "Renamed"}).status_code == 303
    assert_page_429(phone.post(f"/groups/{api.id}/admin", data={
        "action": "import", "file": (io.BytesIO(backup), "backup.json")},
        content_type="multipart/form-data"))


def test_an_operator_sets_a_limit_in_the_environment(make_app, monkeypatch):
    monkeypatch.setenv("RATE_LIMIT_OPEN_TABLE", "1 per minute")
    client = make_app().test_client()
    body = {"game": "ra", "players": ["Ana", "Bo", "Cy"]}
    assert client.post("/api/v1/tables", json=body).status_code == 201
    assert_json_429(client.post("/api/v1/tables", json=body))


def test_a_limit_that_is_not_one_stops_the_start(monkeypatch, tmp_path):
    from companion.config import Config

    monkeypatch.setenv("RATE_LIMIT_JOIN", "ten a minute")
    with pytest.raises(ValueError, match="RATE_LIMIT_JOIN"):
        Config(tmp_path)


# ---- issue 21 §1: what anyone may ask for without an account ---------------------------------


def test_scoring_is_limited_per_device_with_the_apis_error_and_retry_after(app, client):
    from tests.factories import ra_document

    app.config["RATE_LIMIT_SCORE"] = "3 per minute"
    for _ in range(3):
        assert client.post("/api/v1/score", json=ra_document(players=3)).status_code == 200
    refused = client.post("/api/v1/score", json=ra_document(players=3))
    assert_json_429(refused)
    assert int(refused.headers["Retry-After"]) > 0
    # a refused document counts too (the work was asked for); another device is not held
    other = app.test_client().post("/api/v1/score", json=ra_document(players=3),
                                   environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert other.status_code == 200


def test_printing_is_limited_per_device(app, client):
    app.config["RATE_LIMIT_PRINT"] = "2 per minute"
    assert client.get("/print/ra/pad.pdf?sheets=1").status_code == 200
    assert client.get("/print/ra/pad.pdf?sheets=0").status_code == 422     # counted too
    assert client.get("/print/ra").status_code == 200                       # the menu is not
    assert_page_429(client.get("/print/ra/aids.pdf"))
    as_json = client.get("/print/ra/pad.pdf", headers={"Accept": "application/json"})
    assert_json_429(as_json)
    assert int(as_json.headers["Retry-After"]) > 0
    assert client.get("/print/tables/x/report.pdf").status_code == 429      # one budget


def test_the_default_limits_are_far_above_a_tables_evening(app, client):
    """A table's evening in a burst (everyone in the club behind one address): a game scored
    by each of twelve tables, several sheets and aids printed; nothing refused."""
    from limits import parse_many

    from companion.web.limits import DEFAULT_LIMITS
    from tests.factories import ra_document

    for key in ("RATE_LIMIT_SCORE", "RATE_LIMIT_PRINT"):
        app.config[key] = DEFAULT_LIMITS[key]
    for _ in range(12):
        assert client.post("/api/v1/score", json=ra_document(players=4)).status_code == 200
    for path in ("/print/ra/pad.pdf?sheets=1", "/print/ra/aids.pdf", "/print/ra/pad.pdf"
                 "?sheets=1&page=letter") * 3:
        assert client.get(path).status_code == 200
    per_minute = {key: min(limit.amount * 60 / limit.get_expiry()
                           for limit in parse_many(DEFAULT_LIMITS[key]))
                  for key in ("RATE_LIMIT_SCORE", "RATE_LIMIT_PRINT")}
    assert per_minute["RATE_LIMIT_SCORE"] >= 10 and per_minute["RATE_LIMIT_PRINT"] >= 3


def test_the_openapi_document_lists_the_429_of_the_limited_operations(client):
    paths = client.get("/api/openapi.json").get_json()["paths"]
    for path, method in (("/api/v1/score", "post"), ("/api/v1/tables", "post"),
                         ("/api/v1/groups", "post"),
                         ("/api/v1/groups/{group_id}/import/bgstats", "post")):
        answer = paths[path][method]["responses"]["429"]
        assert answer["content"]["application/json"]["schema"] == {
            "$ref": "#/components/schemas/Error"}
        assert "Retry-After" in answer["headers"]
    assert "429" not in paths["/api/v1/games"]["get"]["responses"]


def test_a_lost_counter_store_falls_back_to_the_process_memory(tmp_path):
    """Counters that cannot be reached never fail a request: the process counts in its own
    memory meanwhile, so the limit still holds there."""
    from companion import create_app
    from companion.config import TestConfig
    from tests.databases import fresh_database_url
    from tests.factories import ra_document

    config = TestConfig(tmp_path, fresh_database_url(tmp_path))
    config.RATELIMIT_STORAGE_URI = "redis://127.0.0.1:9/0"       # nothing listens there
    config.RATE_LIMIT_SCORE = "2 per minute"
    app = create_app(config)
    client = app.test_client()
    try:
        for _ in range(2):
            answer = client.post("/api/v1/score", json=ra_document(players=3))
            assert answer.status_code == 200 and answer.headers["X-RateLimit-Limit"] == "2"
        refused = client.post("/api/v1/score", json=ra_document(players=3))
        assert_json_429(refused)
        assert int(refused.headers["Retry-After"]) > 0
    finally:
        app.extensions["scribe.engine"].dispose()
