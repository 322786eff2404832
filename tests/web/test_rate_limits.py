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
