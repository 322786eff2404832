"""Secrets stay secret in links and cookies (issue 21 §5): no redirect reflects the Host
header; HSTS and ``Secure`` cookies when the public address is https."""

from __future__ import annotations

import pytest
from flask import redirect, url_for

HOSTILE = "evil.example"


@pytest.mark.parametrize("path, target", [
    ("/score//ra", "/score/ra"),                       # merge_slashes
    ("/groups//12", "/groups/12"),
    ("/api/v1//games", "/api/v1/games"),
    ("/score", "/score/"),                             # strict_slashes
    ("/score//ra?lang=cs", "/score/ra?lang=cs"),
])
def test_the_url_maps_redirects_never_name_the_host_header(client, path, target):
    for base in (f"http://{HOSTILE}", f"https://{HOSTILE}:8443"):
        answer = client.get(path, base_url=base)
        assert answer.status_code == 308
        assert answer.headers["Location"] == target
        assert HOSTILE not in answer.get_data(as_text=True)


def test_a_redirect_built_on_the_request_is_made_relative(make_app):
    app = make_app()

    @app.get("/__external")
    def external():
        return redirect(url_for("main.index", _external=True) + "/evil.example")

    answer = app.test_client().get("/__external", headers={"Host": HOSTILE})
    assert answer.headers["Location"] == "/evil.example"      # a path here, not a host


def test_redirects_elsewhere_are_left_alone(client):
    answer = client.post("/language", data={"language": "cs", "next": "/games"},
                         headers={"Host": HOSTILE})
    assert answer.status_code == 303 and answer.headers["Location"] == "/games"


def _cookies_of_a_visit(app) -> tuple[list[str], list]:
    """Every Set-Cookie of a visit that writes each cookie the site has (the session with the
    CSRF token, the language, the wallet of groups and tables), and every answer."""
    import re

    phone = app.test_client()
    answers = [phone.get("/groups/new")]                         # the session (CSRF token)
    token = re.search(r'name="csrf_token" [^>]*value="([^"]+)"',
                      answers[0].get_data(as_text=True)).group(1)
    answers.append(phone.post("/language", data={"language": "cs", "next": "/",
                                                 "csrf_token": token}))
    answers.append(phone.post("/groups/new", data={"name": "Club", "csrf_token": token}))
    answers.append(phone.post("/tables/new/ra", data={
        "_players": "3", "action": "open", "players.0": "Ana", "players.1": "Bo",
        "players.2": "Cy", "csrf_token": token}))
    cookies = [cookie for answer in answers for cookie in answer.headers.getlist("Set-Cookie")]
    names = {cookie.split("=", 1)[0] for cookie in cookies}
    assert {"session", "lang", "scribe_groups", "scribe_tables"} <= names, names
    return cookies, answers


def test_an_https_public_address_makes_every_cookie_secure_and_sends_hsts(make_app,
                                                                          monkeypatch):
    monkeypatch.setenv("PUBLIC_URL", "https://games.example.org")
    cookies, answers = _cookies_of_a_visit(make_app(csrf=True))
    for cookie in cookies:
        assert "; Secure" in cookie, cookie
    for answer in answers:
        assert answer.headers["Strict-Transport-Security"] == "max-age=31536000"


def test_an_http_public_address_sends_neither(make_app, monkeypatch):
    monkeypatch.setenv("PUBLIC_URL", "http://192.168.1.20:8000")
    cookies, answers = _cookies_of_a_visit(make_app(csrf=True))
    assert not any("secure" in cookie.lower() for cookie in cookies)
    assert not any("Strict-Transport-Security" in answer.headers for answer in answers)
