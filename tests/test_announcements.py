"""A change is announced where it is committed (design.md §3, issue 19).

Every request that changes a live table's version (a move, a draw, an undo, closing) or its
seats and requests (a claim, a rejoin, a co-host, a new host, an undo request and its answer)
tells the watching phones once it is committed, whether it came through the JSON API or the
pages; a request that changes neither tells nobody. The announcements are heard by a recording
announcer (what :mod:`companion.asgi` registers for its streams), the versions are read from the
database, and every endpoint of the API's live tables and of the live pages that can write is
walked, so a new one fails here until its service announces. That no view can announce by
itself (none imports the broker) is checked in tests/test_layout.py.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from companion.services import broker, live_events

from .toygame import GAME, register_toy, unregister_toy

pytestmark = pytest.mark.db

WRITES = {"POST", "PUT", "PATCH", "DELETE"}


@pytest.fixture
def toy():
    yield register_toy()
    unregister_toy()


class Watched:
    """Requests to one app, each checked against what the watching phones heard."""

    def __init__(self, app):
        self.app = app
        self.heard: list[tuple[str, int, int | None]] = []
        broker.add_announcer(app, lambda table_id, version, seats:
                             self.heard.append((table_id, version, seats)))
        self.endpoints: set[str] = set()
        self.table_id: str | None = None

    def versions(self) -> tuple[int, int]:
        """(version, seats_version) of the table, as the database has them."""
        read = live_events.read_versions(self.app.extensions["scribe.engine"], [self.table_id])
        return read[self.table_id]

    def request(self, phone, method: str, path: str, **kwargs: Any):
        """Send the request from ``phone`` (a test client); the phones must have heard of
        every change it made, with the values committed, and of nothing else."""
        self.endpoints.add(self.app.url_map.bind("localhost").match(
            path.split("?")[0], method=method)[0])
        before = self.versions() if self.table_id else None
        already = len(self.heard)
        response = phone.open(path, method=method, **kwargs)
        assert response.status_code < 500, response.get_data(as_text=True)
        if before is None:              # the table is opened by this request: nobody watches
            return response
        after, heard = self.versions(), self.heard[already:]
        assert all(table_id == self.table_id for table_id, _v, _s in heard), heard
        if after[0] != before[0]:
            assert (self.table_id, after[0], None) in heard, (path, before, after, heard)
        if after[1] != before[1]:
            assert (self.table_id, after[0], after[1]) in heard, (path, before, after, heard)
        if after == before:
            assert heard == [], (path, heard)
        assert all(version == after[0] and seats in (None, after[1])
                   for _t, version, seats in heard), (path, after, heard)
        return response

    def assert_every_writing_endpoint_walked(self, owns) -> None:
        """Every endpoint ``owns`` (given a URL rule) that may write was requested."""
        writing = {rule.endpoint for rule in self.app.url_map.iter_rules()
                   if owns(rule) and WRITES & set(rule.methods or ())}
        assert writing and writing <= self.endpoints, sorted(writing - self.endpoints)


def bearer(token: str) -> dict[str, dict[str, str]]:
    return {"headers": {"Authorization": f"Bearer {token}"}}


def test_every_api_change_of_a_table_is_announced(toy, app):
    watched = Watched(app)
    phone = app.test_client()
    opened = watched.request(phone, "POST", "/api/v1/tables", json={
        "game": GAME, "players": ["Ana", "Bo"]}).get_json()
    watched.table_id = table = opened["id"]
    url, host = f"/api/v1/tables/{table}", opened["host_token"]
    seats = [watched.request(phone, "POST", f"{url}/seats/{n}/claim").get_json()["seat_token"]
             for n in (0, 1)]
    generation = watched.request(phone, "GET", url).get_json()["seats"][1]["generation"]
    seats[1] = watched.request(phone, "POST", f"{url}/seats/1/claim", json={
        "generation": generation}, **bearer(host)).get_json()["seat_token"]
    watched.request(phone, "POST", f"{url}/seats/0/cohost", json={"on": True}, **bearer(host))
    link = watched.request(phone, "POST", f"{url}/seats/1/rejoin-link", **bearer(host))
    seats[1] = watched.request(phone, "POST", f"{url}/rejoin", json={
        "token": link.get_json()["token"]}).get_json()["seat_token"]
    link = watched.request(phone, "POST", f"{url}/host-link", **bearer(host))
    host = watched.request(phone, "POST", f"{url}/take-host", json={
        "token": link.get_json()["token"]}).get_json()["host_token"]

    move = {"move": {"type": "draw", "card": 2}, "version": 0, "idempotency_key": "m1"}
    assert watched.request(phone, "POST", f"{url}/moves", json=move,
                           **bearer(seats[0])).status_code == 200
    assert watched.request(phone, "POST", f"{url}/moves", json=move,     # a retry: no change
                           **bearer(seats[0])).status_code == 200
    assert watched.request(phone, "POST", f"{url}/undo-request", json={"version": 1},
                           **bearer(seats[1])).status_code == 201
    watched.request(phone, "DELETE", f"{url}/undo-request", **bearer(seats[0]))
    assert watched.request(phone, "POST", f"{url}/undo", json={
        "version": 1, "idempotency_key": "u1"}, **bearer(host)).status_code == 200
    assert watched.request(phone, "POST", f"{url}/draw", json={
        "version": 2, "idempotency_key": "d1"}, **bearer(seats[1])).status_code == 200
    refused = watched.request(phone, "POST", f"{url}/moves", json={        # no change
        "move": {"type": "guess"}, "version": 3, "idempotency_key": "g0"}, **bearer(seats[0]))
    assert refused.status_code == 422
    for seat in (0, 1):
        assert watched.request(phone, "POST", f"{url}/moves", json={
            "move": {"type": "guess", "high": True}, "version": 3 + seat,
            "idempotency_key": f"g{seat + 1}"}, **bearer(seats[seat])).status_code == 200
    watched.assert_every_writing_endpoint_walked(
        lambda rule: rule.rule.startswith("/api/v1/tables"))


def _link(page: str, table: str, kind: str) -> str:
    """The one-time link of ``kind`` (rejoin, take-host) the host's page shows."""
    return re.search(rf"/tables/{table}/{kind}/[A-Za-z0-9_-]+", page).group(0)


def test_every_change_made_on_the_pages_is_announced(toy, app):
    watched = Watched(app)
    host, ana, bo, new_phone = (app.test_client() for _ in range(4))
    opened = watched.request(host, "POST", f"/tables/new/{GAME}", data={
        "_players": "2", "action": "open", "players.0": "Ana", "players.1": "Bo"})
    assert opened.status_code == 303, opened.get_data(as_text=True)
    watched.table_id = table = opened.headers["Location"].split("/")[2]
    page = f"/tables/{table}"
    code = re.search(r'<p class="code"[^>]*>(\w{6})</p>',
                     host.get(f"{page}/host").get_data(as_text=True)).group(1)
    assert watched.request(ana, "POST", "/join", data={"code": code}).status_code == 303
    watched.request(ana, "POST", f"{page}/seats/0/claim")
    watched.request(bo, "POST", f"{page}/seats/1/claim")
    watched.request(host, "POST", f"{page}/host", data={"action": "cohost", "seat": "0"})
    shown = watched.request(host, "POST", f"{page}/host", data={"action": "rejoin", "seat": "1"})
    watched.request(bo, "POST", _link(shown.get_data(as_text=True), table, "rejoin"))
    shown = watched.request(host, "POST", f"{page}/host", data={"action": "host_link"})
    watched.request(new_phone, "POST", _link(shown.get_data(as_text=True), table, "take-host"))

    def form(version: int, key: str, **fields: Any) -> dict[str, Any]:
        return {"version": str(version), "idempotency_key": key, **fields}

    draw = form(0, "m1", move=json.dumps({"type": "draw", "card": 2}))
    assert watched.request(ana, "POST", f"{page}/moves", data=draw).status_code == 303
    assert watched.request(ana, "POST", f"{page}/moves", data=draw).status_code == 303  # retry
    watched.request(bo, "POST", f"{page}/undo-request", data=form(1, "r1"))
    watched.request(ana, "POST", f"{page}/undo-request/refuse")
    assert watched.request(ana, "POST", f"{page}/undo", data=form(1, "u1")).status_code == 303
    assert watched.request(bo, "POST", f"{page}/draw", data=form(2, "d1")).status_code == 303
    assert watched.request(new_phone, "POST", f"{page}/close").status_code == 303
    watched.assert_every_writing_endpoint_walked(lambda rule: rule.endpoint.startswith("live."))
