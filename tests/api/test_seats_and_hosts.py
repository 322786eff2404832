"""Seats and hosts that survive real life, undo and retries that cannot surprise (issue 9 §4,
§5): one-time rejoin links, co-hosts, handing the host role over, undo requests, undo with a
version and an idempotency key, seat reassignment as a compare and swap."""

from __future__ import annotations

import threading

import pytest

from companion.models import Move

from .livetable import LiveTable, bearer, new_key

pytestmark = pytest.mark.db


def _undone(app, table) -> int:
    from sqlmodel import Session, select
    with Session(app.extensions["scribe.engine"]) as session:
        moves = session.exec(select(Move).where(Move.table_id == table.id)).all()
        return sum(1 for move in moves if move.undone_version is not None)


def _seat(table, position):
    return {s["seat"]: s for s in table.get(table.host).get_json()["seats"]}[position]


def test_a_double_tapped_undo_undoes_once_and_a_stale_one_is_refused(app, client):
    table = LiveTable(client)
    table.ok(0, {"type": "draw", "tile": "pharaoh"})
    table.ok(1, {"type": "draw", "tile": "gold"})
    before = table.version
    key = new_key("undo")
    first = client.post(f"{table.url}/undo", headers=bearer(table.tokens[1]),
                        json={"version": before, "idempotency_key": key})
    again = client.post(f"{table.url}/undo", headers=bearer(table.tokens[1]),
                        json={"version": before, "idempotency_key": key})
    assert first.status_code == again.status_code == 200
    assert first.get_json()["version"] == again.get_json()["version"] == before + 1
    assert _undone(app, table) == 1
    # the host saw an older table: its undo must not take back the newer move
    stale = client.post(f"{table.url}/undo", headers=bearer(table.host),
                        json={"version": before, "idempotency_key": new_key("undo")})
    assert stale.status_code == 409 and stale.get_json()["error"] == "stale_version"
    assert _undone(app, table) == 1
    missing = client.post(f"{table.url}/undo", headers=bearer(table.host),
                          json={"version": before + 1})
    assert missing.status_code == 422 and missing.get_json()["field"] == "idempotency_key"


def test_a_stale_undo_is_answered_with_the_fresh_state(client):
    """The 409 carries the table as it is now (state, version), so the phone can show it."""
    table = LiveTable(client)
    table.ok(0, {"type": "draw", "tile": "pharaoh"})
    seen = table.version                              # the host's page is at this version
    seen_state = table.get(table.host).get_json()["state"]
    table.ok(1, {"type": "draw", "tile": "gold"})     # ... then Bea moves
    fresh = table.get(table.host).get_json()
    stale = client.post(f"{table.url}/undo", headers=bearer(table.host),
                        json={"version": seen, "idempotency_key": new_key("undo")})
    assert stale.status_code == 409, stale.get_json()
    body = stale.get_json()
    assert body["error"] == "stale_version" and body["field"] == "version"
    assert body["version"] == fresh["version"] == seen + 1
    assert body["state"] == fresh["state"] != seen_state   # the table now, Bea's gold in it
    assert "gold" in body["state"]["track"]


def test_identical_undos_sent_at_the_same_moment_undo_once(app, client):
    """A retried undo racing its first try (same version, same key): one move is undone, and
    both answers name the same new version."""
    table = LiveTable(client)
    table.ok(0, {"type": "draw", "tile": "pharaoh"})
    table.ok(1, {"type": "draw", "tile": "gold"})
    before, key, tries = table.version, new_key("undo"), 4
    barrier = threading.Barrier(tries)
    answers: list = [None] * tries

    def send(number: int) -> None:
        phone = app.test_client()
        barrier.wait()
        response = phone.post(f"{table.url}/undo", headers=bearer(table.tokens[1]),
                              json={"version": before, "idempotency_key": key})
        answers[number] = (response.status_code, response.get_json())

    threads = [threading.Thread(target=send, args=(n,)) for n in range(tries)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert [status for status, _body in answers] == [200] * tries, answers
    assert {body["version"] for _status, body in answers} == {before + 1}
    assert _undone(app, table) == 1
    assert table.get(table.host).get_json()["version"] == before + 1


def test_twelve_host_devices_reassigning_one_seat_get_one_success(app, client):
    table = LiveTable(client)
    generation = _seat(table, 1)["generation"]
    devices = 12
    barrier = threading.Barrier(devices)
    answers: list = [None] * devices

    def reassign(number: int) -> None:
        phone = app.test_client()
        barrier.wait()
        response = phone.post(f"{table.url}/seats/1/claim", headers=bearer(table.host),
                              json={"generation": generation})
        answers[number] = (response.status_code, response.get_json())

    threads = [threading.Thread(target=reassign, args=(n,)) for n in range(devices)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    granted = [body["seat_token"] for status, body in answers if status == 200]
    assert len(granted) == 1, answers
    assert {body["error"] for status, body in answers if status != 200} == {"table.seat_changed"}
    assert table.get(granted[0]).status_code == 200


def test_a_rejoin_link_moves_the_seat_once(client):
    table = LiveTable(client)
    link = client.post(f"{table.url}/seats/2/rejoin-link", headers=bearer(table.host))
    assert link.status_code == 200 and "/rejoin/" in link.get_json()["rejoin_url"]
    refused = client.post(f"{table.url}/seats/2/rejoin-link", headers=bearer(table.tokens[0]))
    assert refused.status_code == 403 and refused.get_json()["error"] == "table.host_needed"
    used = client.post(f"{table.url}/rejoin", json={"token": link.get_json()["token"]})
    assert used.status_code == 200 and used.get_json()["seat"] == 2
    assert table.get(table.tokens[2]).status_code == 403          # the old phone lost it
    assert table.get(used.get_json()["seat_token"]).status_code == 200
    again = client.post(f"{table.url}/rejoin", json={"token": link.get_json()["token"]})
    assert again.status_code == 403 and again.get_json()["error"] == "table.rejoin_used"


def test_a_co_host_acts_for_the_host(client):
    table = LiveTable(client)
    table.ok(0, {"type": "draw", "tile": "pharaoh"})
    assert client.post(f"{table.url}/seats/1/cohost", headers=bearer(table.tokens[0]),
                       json={"on": True}).status_code == 403
    made = client.post(f"{table.url}/seats/1/cohost", headers=bearer(table.host),
                       json={"on": True})
    assert made.status_code == 200 and _seat(table, 1)["cohost"] is True
    # Bea (co-host) undoes Ana's move, and can hand out rejoin links
    undone = table.undo(table.tokens[1])
    assert undone.status_code == 200
    assert client.post(f"{table.url}/seats/0/rejoin-link",
                       headers=bearer(table.tokens[1])).status_code == 200


def test_the_host_role_is_handed_over_with_a_one_time_link(client):
    table = LiveTable(client)
    link = client.post(f"{table.url}/host-link", headers=bearer(table.host)).get_json()
    taken = client.post(f"{table.url}/take-host", json={"token": link["token"]})
    assert taken.status_code == 200
    new_host = taken.get_json()["host_token"]
    assert table.get(table.host).status_code == 403               # the old host is out
    assert client.post(f"{table.url}/host-link", headers=bearer(new_host)).status_code == 200
    again = client.post(f"{table.url}/take-host", json={"token": link["token"]})
    assert again.status_code == 403 and again.get_json()["error"] == "table.host_link_used"


def test_any_seat_asks_to_undo_and_the_mover_decides(client):
    table = LiveTable(client)
    table.ok(0, {"type": "draw", "tile": "pharaoh"})
    asked = client.post(f"{table.url}/undo-request", headers=bearer(table.tokens[2]),
                        json={"version": table.version})
    assert asked.status_code == 201 and asked.get_json()["undo_request"]["seat"] == 2
    seen = table.get(table.tokens[0]).get_json()
    assert seen["undo_request"] == {"seat": 2, "version": table.version}
    assert seen["seats_version"] >= 1
    # only the mover or the host may refuse it
    assert client.delete(f"{table.url}/undo-request",
                         headers=bearer(table.tokens[1])).status_code == 403
    assert client.delete(f"{table.url}/undo-request",
                         headers=bearer(table.tokens[0])).status_code == 200
    assert table.get().get_json()["undo_request"] is None
    client.post(f"{table.url}/undo-request", headers=bearer(table.tokens[2]),
                json={"version": table.version})
    assert table.undo(table.tokens[0]).status_code == 200          # the mover agrees
    assert table.get().get_json()["undo_request"] is None


def test_a_phone_that_changes_seats_gives_its_old_seat_back(client):
    table = LiveTable(client, claim=False)
    first = table.claim(0).get_json()["seat_token"]
    moved = client.post(f"{table.url}/seats/1/claim", headers=bearer(first))
    assert moved.status_code == 200
    assert _seat(table, 0)["taken"] is False and _seat(table, 1)["taken"] is True
    assert table.claim(0).status_code == 200                       # free for anyone again


def test_pages_ask_before_taking_a_taken_seat_and_links_are_not_used_by_a_preview(client):
    opened = client.post("/tables/new/ra", data={
        "_players": "3", "action": "open", "players.0": "Ana", "players.1": "Bo",
        "players.2": "Cy"})                        # this browser is the host
    table_id = opened.headers["Location"].split("/")[2]
    phone = client.application.test_client()
    assert phone.post(f"/tables/{table_id}/seats/1/claim").status_code == 303
    ask = client.post(f"/tables/{table_id}/seats/1/claim")
    assert ask.status_code == 200 and "Take a seat that is taken?" in ask.get_data(as_text=True)
    host_page = client.post(f"/tables/{table_id}/host", data={"action": "rejoin", "seat": "2"})
    html = host_page.get_data(as_text=True)
    link = html.split('href="')[[i for i, part in enumerate(html.split('href="'))
                                 if "/rejoin/" in part.split('"')[0]][0]].split('"')[0]
    path = link.split("://", 1)[1].split("/", 1)[1]
    newcomer = client.application.test_client()
    assert newcomer.get(f"/{path}").status_code == 200             # the preview asks first
    assert newcomer.post(f"/{path}").status_code == 303            # then takes the seat
    assert newcomer.post(f"/{path}").status_code == 403            # once
    opened_host = client.get(f"/tables/{table_id}/host?opened=1").get_data(as_text=True)
    assert "Keep this host link" in opened_host
    assert "Keep this host link" not in client.get(
        f"/tables/{table_id}/host?opened=1").get_data(as_text=True)
