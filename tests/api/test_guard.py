"""No 500 from any input (issue 10 §2): hostile JSON and paths get a clear 4xx naming the field."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.db


def _post(client, url, raw: str):
    return client.post(url, data=raw, content_type="application/json")


@pytest.mark.parametrize("raw, code, field", [
    ('{"game": "ra", "players": [{"name": "\\ud800"}]}', "text.invalid_unicode", "players.0.name"),
    ('{"game": "ra", "players": [{"name": "A\\u0000B"}]}', "text.control_character",
     "players.0.name"),
    ('{"game": "ra", "players": [{"name": "Ana", "suns": [NaN]}]}', "json.not_a_number", None),
    ('{"game": "ra", "players": [{"name": "Ana", "suns": [Infinity]}]}', "json.not_a_number",
     None),
    ('{"game": "ra", "x": 1' + '0' * 30 + '}', "json.number_too_large", "x"),
    ('[' * 60000 + ']' * 60000, "json.too_deep", None),
    ('{"a": ' * 40 + '1' + '}' * 40, "json.too_deep", None),
])
def test_hostile_json_is_refused_before_any_view(client, raw, code, field):
    for url in ("/api/v1/score", "/api/v1/tables", "/api/v1/groups"):
        answer = _post(client, url, raw)
        assert answer.status_code == 422, (url, answer.get_data(as_text=True)[:200])
        body = answer.get_json()
        assert body["error"] == code and body["message"]
        if field:
            assert body["field"] == field


def test_ids_beyond_the_database_are_not_found(client):
    huge = "9" * 20
    assert client.get(f"/api/v1/groups/{huge}").status_code == 404
    assert client.post(f"/api/v1/tables/x/seats/{huge}/claim").status_code == 404
    assert client.get(f"/groups/{2 ** 31}").status_code == 404


def test_security_headers_and_a_safe_way_back(client):
    page = client.get("/")
    assert page.headers["X-Content-Type-Options"] == "nosniff"
    assert "frame-ancestors 'none'" in page.headers["Content-Security-Policy"]
    assert page.headers["Referrer-Policy"] == "same-origin"
    back = client.post("/language", data={"language": "cs", "next": "/x\r\nSet-Cookie: a=b"})
    assert back.status_code == 303 and back.headers["Location"] == "/"


def test_cookies_are_secure_behind_https(client):
    answer = client.post("/language", data={"language": "hu", "next": "/"},
                         base_url="https://scribe.example")
    assert all("Secure" in c for c in answer.headers.getlist("Set-Cookie"))
