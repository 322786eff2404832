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


# ---- issue 10 §2, input safety (guard) ------------------------------------------------------


@pytest.mark.parametrize("url, field", [
    ("/api/v1/tables/a%00b", "table_id"),
    ("/api/v1/groups/1/plays/a%01b", "table_id"),
    ("/api/v1/groups/1/plays?game=r%00a", "game"),
])
def test_control_characters_in_api_parameters_name_the_parameter(client, url, field):
    answer = client.get(url)
    assert answer.status_code == 422
    body = answer.get_json()
    assert body["error"] == "text.control_character" and body["field"] == field
    assert body["message"]


def test_control_characters_in_pages_are_404_or_422(client):
    assert client.get("/tables/a%00b").status_code == 404
    assert client.get("/j/AB%00CD").status_code == 404
    answer = client.post("/join", data={"code": "AB\x00CD"})
    assert answer.status_code == 422 and "code" in answer.get_data(as_text=True)


def test_non_finite_numbers_are_refused_with_the_field(client):
    for raw, field in (('{"game": "ra", "x": 1e400}', "x"),
                       ('{"game": "ra", "players": [{"suns": [-1e999]}]}', "players.0.suns.0"),
                       ('{"game": "ra", "a": NaN}', "a")):
        answer = client.post("/api/v1/score", data=raw, content_type="application/json")
        assert answer.status_code == 422
        assert answer.get_json()["error"] == "json.not_a_number"
        assert answer.get_json()["field"] == field


def test_totals_past_a_32_bit_column_are_refused(client):
    from tests.factories import ra_document

    document = ra_document(3)
    document["players"][0]["epochs"][0]["gold"] = 2 ** 40       # 3 points a gold
    answer = client.post("/api/v1/score?save=1", json=document)
    assert answer.status_code == 422, answer.get_data(as_text=True)[:300]
    assert answer.get_json()["field"].startswith("players.0")


def test_a_bgstats_rank_past_32_bits_is_skipped_with_its_field(client):
    group = client.post("/api/v1/groups", json={"name": "G"}).get_json()
    backup = {"players": [{"id": 1, "name": "Ana"}, {"id": 2, "name": "Bea"}],
              "games": [{"id": 1, "name": "Ra"}],
              "plays": [{"gameRefId": 1, "playDate": "2024-01-01 20:00:00", "uuid": "u1",
                         "playerScores": [{"playerRefId": 1, "score": "10", "rank": 2 ** 40},
                                          {"playerRefId": 2, "score": "5", "rank": 2}]}]}
    answer = client.post(f"/api/v1/groups/{group['id']}/import/bgstats", json=backup,
                         headers={"Authorization": f"Bearer {group['admin_token']}"})
    assert answer.status_code < 500, answer.get_data(as_text=True)[:300]
    report = answer.get_json()
    assert report["imported"] == 0
    assert any(s["field"].endswith(".rank") for s in report["skipped"]), report


def test_a_chunked_body_over_the_limit_is_413_json(client):
    import io
    big = b'{"name": "' + b"a" * (2 * 1024 * 1024) + b'"}'
    answer = client.post("/api/v1/groups", input_stream=io.BytesIO(big),
                         environ_overrides={"wsgi.input_terminated": True},
                         headers={"Content-Type": "application/json",
                                  "Transfer-Encoding": "chunked"})
    assert answer.status_code == 413
    assert answer.get_json()["error"] == "http_413" and answer.get_json()["message"]


def test_the_openapi_document_covers_every_api_route(app, client):
    document = client.get("/api/openapi.json").get_json()
    assert document["openapi"].startswith("3.1")
    import re
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/v1/"):
            path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)
            for method in rule.methods - {"HEAD", "OPTIONS"}:
                assert method.lower() in document["paths"][path], (path, method)
    assert "final_ra" in document["components"]["schemas"]
    assert "/api/openapi.json" in client.get("/api").get_data(as_text=True)


def test_an_empty_key_is_named_as_the_field(client):
    answer = client.post("/api/v1/score", json={"game": "ra", "players": [], "": 1})
    assert answer.status_code == 422
    assert answer.get_json()["field"] == '""'
