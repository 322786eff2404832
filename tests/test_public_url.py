"""Join links and QR codes lead where phones can go (issue 9): ``PUBLIC_URL`` when configured,
else the LAN address; never 127.0.0.1 and never the request's Host header."""

from __future__ import annotations

import re

import pytest

from companion import create_app
from companion import config as configuration
from companion.config import clean_public_url, lan_address, lan_url
from tests.api.livetable import LiveTable
from tests.databases import fresh_database_url
from tests.pdfgen.pdfcheck import qr_texts

pytestmark = pytest.mark.db
HOSTILE = {"Host": "evil.example", "X-Forwarded-Host": "evil.example"}


@pytest.fixture
def public_app(make_app):
    app = make_app()
    app.config["PUBLIC_URL"] = "https://scribe.example/club"
    return app


def _host_page(app, client) -> tuple[str, str]:
    opened = client.post("/tables/new/ra", data={
        "_players": "3", "action": "open", "players.0": "Ana", "players.1": "Bea",
        "players.2": "Cyril"}, headers=HOSTILE)
    assert opened.status_code == 303, opened.get_data(as_text=True)
    host_url = opened.headers["Location"]
    page = client.get(host_url, headers=HOSTILE).get_data(as_text=True)
    table_id = host_url.split("/")[-2]
    return page, table_id


def test_the_join_link_of_the_api_is_on_public_url(public_app):
    client = public_app.test_client()
    response = client.post("/api/v1/tables", headers=HOSTILE, json={
        "game": "ra", "players": ["Ana", "Bea", "Cyril"]})
    body = response.get_json()
    assert body["join_url"] == f"https://scribe.example/club/j/{body['code']}"


def test_the_host_screen_and_its_qr_code_use_public_url(public_app):
    client = public_app.test_client()
    page, table_id = _host_page(public_app, client)
    code = re.search(r'class="code"[^>]*>\s*([2-9A-Z]{6})', page).group(1)
    assert f'href="https://scribe.example/club/j/{code}"' in page
    assert "open https://scribe.example/club/join and type the code" in page
    assert f'href="https://scribe.example/club/tables/{table_id}"' in page   # spectators
    assert "evil" not in page
    qr = client.get(f"/tables/{table_id}/qr.svg", headers=HOSTILE)
    assert qr.status_code == 200 and b"evil" not in qr.data


def test_printed_cards_link_to_public_url(public_app):
    client = public_app.test_client()
    _page, table_id = _host_page(public_app, client)
    cards = client.get(f"/print/tables/{table_id}/cards.pdf", headers=HOSTILE)
    assert cards.status_code == 200
    links = qr_texts(cards.data, 1)
    assert links and all(link.startswith("https://scribe.example/club/") for link in links)
    pad = client.get("/print/ra/pad.pdf?sheets=1", headers=HOSTILE)
    assert qr_texts(pad.data, 1) == ["https://scribe.example/club/score/ra"]


def test_without_public_url_links_use_the_lan_address(make_app, monkeypatch):
    monkeypatch.setattr("companion.config.lan_address", lambda: "192.168.7.20")
    monkeypatch.delenv("PUBLIC_URL", raising=False)
    app = make_app()
    assert app.config["PUBLIC_URL"] == "http://192.168.7.20:8000"
    body = LiveTable(app.test_client()).opened
    assert body["join_url"] == f"http://192.168.7.20:8000/j/{body['code']}"


def test_public_url_comes_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("PUBLIC_URL", "https://games.example.org/")
    config = configuration.TestConfig(tmp_path, fresh_database_url(tmp_path))
    app = create_app(config)
    try:
        assert app.config["PUBLIC_URL"] == "https://games.example.org"
    finally:
        app.extensions["scribe.engine"].dispose()
    monkeypatch.setenv("PUBLIC_URL", "games.example.org")
    with pytest.raises(ValueError, match="PUBLIC_URL"):
        configuration.Config(tmp_path)


@pytest.mark.parametrize("text, clean", [
    (None, None), ("", None), ("  ", None), ("http://10.0.0.5:8000/", "http://10.0.0.5:8000"),
    ("https://x.example/scribe", "https://x.example/scribe")])
def test_clean_public_url(text, clean):
    assert clean_public_url(text) == clean


@pytest.mark.parametrize("text", ["ftp://x.example", "x.example", "http://", "javascript:x"])
def test_a_public_url_that_is_no_web_address_is_refused(text):
    with pytest.raises(ValueError):
        clean_public_url(text)


def test_the_lan_address_is_never_loopback():
    address = lan_address()
    assert address is None or not address.startswith("127.")
    assert not lan_url(8123).startswith("http://127.")
    assert lan_url(8123).endswith(":8123")


def test_group_links_are_on_public_url_never_on_the_host_header(public_app):
    """Issue 20 §7: a group's invite and admin links, shown once when it is opened and again
    when one is replaced, use the same base as the table links."""
    client = public_app.test_client()
    page = client.post("/groups/new", data={"name": "Club"}, headers=HOSTILE)
    text = page.get_data(as_text=True)
    links = re.findall(r"https?://[^\s\"'<]+/g/[\w-]+", text)
    assert len(set(links)) == 2, text
    assert all(link.startswith("https://scribe.example/club/g/") for link in links)
    assert "evil.example" not in text and "localhost" not in text
