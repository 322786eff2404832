"""The asyncio side of live updates (companion/asgi.py), in-process: the stream hub and the SSE
path of the ASGI app, driven with plain ASGI messages (no server, no sockets)."""

from __future__ import annotations

import asyncio
import json
import re
import threading

import pytest

from companion.asgi import ScribeASGI, StreamHub
from companion.db import make_engine
from companion.services import live_events
from tests.api.livetable import LiveTable, bearer
from tests.liveserver import RA_OPENING, run_on_own_loop

pytestmark = pytest.mark.db


_run = run_on_own_loop


def _scope(path: str, headers=(), query: bytes = b"") -> dict:
    return {"type": "http", "method": "GET", "path": path, "query_string": query,
            "headers": list(headers), "root_path": "", "scheme": "http", "http_version": "1.1",
            "server": ("127.0.0.1", 8000), "client": ("127.0.0.1", 50000), "asgi": {
                "version": "3.0"}}


class Phone:
    """One ASGI request: what the server sent, and a switch that makes the phone go away."""

    def __init__(self):
        self.sent: list[dict] = []
        self.gone = asyncio.Event()
        self.wrote = asyncio.Event()

    async def receive(self) -> dict:
        await self.gone.wait()
        return {"type": "http.disconnect"}

    async def send(self, message: dict) -> None:
        self.sent.append(message)
        self.wrote.set()

    def text(self) -> str:
        return "".join(m.get("body", b"").decode() for m in self.sent
                       if m["type"] == "http.response.body")

    def versions(self) -> list[int]:
        return [json.loads(d)["version"] for d in
                re.findall(r"event: version\nid: \d+\ndata: (.*)\n", self.text())]

    async def until(self, condition, seconds: float = 2.0) -> None:
        deadline = asyncio.get_running_loop().time() + seconds
        while not condition():
            remaining = deadline - asyncio.get_running_loop().time()
            assert remaining > 0, self.text()
            self.wrote.clear()
            try:
                await asyncio.wait_for(self.wrote.wait(), remaining)
            except asyncio.TimeoutError:
                pass


def _asgi(app, poll_seconds: float) -> ScribeASGI:
    app.config["LIVE_POLL_SECONDS"] = poll_seconds
    return ScribeASGI(app, threads=2)


def test_a_move_in_this_process_is_announced_at_once(app, client):
    """No poll for an hour: the announcement of the accepted move alone reaches the stream."""
    table = LiveTable(client)
    server = _asgi(app, 3600)

    async def scenario():
        phone = Phone()
        stream = asyncio.ensure_future(server(_scope(f"{table.url}/events"), phone.receive,
                                              phone.send))
        await phone.until(lambda: phone.versions() == [0])
        assert server.hub.watched == 1
        # The move goes through Flask in another thread, as a2wsgi's pool would run it.
        await asyncio.to_thread(table.ok, 0, {"type": "draw", "tile": "pharaoh"})
        await phone.until(lambda: phone.versions() == [0, 1], seconds=1.0)
        phone.gone.set()
        await asyncio.wait_for(stream, 2)
        assert phone.sent[0]["status"] == 200
        assert (b"content-type", b"text/event-stream; charset=utf-8") in phone.sent[0][
            "headers"]
        assert phone.text().startswith("retry: 2000\n\n")

    _run(scenario)


def test_a_closed_stream_is_released_at_once(app, client):
    table = LiveTable(client)
    server = _asgi(app, 3600)

    async def scenario():
        phones = [Phone() for _ in range(3)]
        streams = [asyncio.ensure_future(server(_scope(f"{table.url}/events"), p.receive,
                                                p.send)) for p in phones]
        for phone in phones:
            await phone.until(lambda phone=phone: phone.versions() == [0])
        assert server.hub.watched == 3
        phones[0].gone.set()
        await asyncio.wait_for(streams[0], 1)
        assert server.hub.watched == 2
        for phone in phones[1:]:
            phone.gone.set()
        await asyncio.wait_for(asyncio.gather(*streams[1:]), 1)
        assert server.hub.watched == 0 and server.hub._tables == {}

    _run(scenario)


def test_the_poll_finds_a_move_made_by_another_process(app, client, tmp_path):
    """Another process's move is announced by no one here: one poll of the versions finds it,
    and a phone far behind is told every version in order."""
    table = LiveTable(client)
    other_process = make_engine(app.config["DATABASE_URL"])
    hub = StreamHub(lambda ids: live_events.read_versions(other_process, ids), 3600)

    async def scenario():
        subscription = await hub.subscribe(table.id)
        assert subscription is not None
        version, seats, inbox = subscription
        assert version == 0 and seats >= 3       # three seats claimed
        for seat, move in RA_OPENING[:2]:
            await asyncio.to_thread(table.ok, seat, move)
        assert inbox.empty()                     # nobody told this hub
        await hub.poll_once()
        assert inbox.get_nowait() == ("version", 2)
        # a seat's request to undo changes no version, but the phones are told of it
        await asyncio.to_thread(client.post, f"{table.url}/undo-request",
                                headers=bearer(table.tokens[2]), json={"version": 2})
        await hub.poll_once()
        assert inbox.get_nowait() == ("seats", seats + 1)
        assert list(live_events.versions_between(0, 2)) == [1, 2]
        hub.unsubscribe(table.id, inbox)
        await hub.stop()

    try:
        _run(scenario)
    finally:
        other_process.dispose()


def test_phones_opening_one_table_together_share_one_read(app, client):
    table = LiveTable(client)
    reads = []
    engine = app.extensions["scribe.engine"]

    def read(ids):
        reads.append(list(ids))
        return live_events.read_versions(engine, ids)

    hub = StreamHub(read, 3600)

    async def scenario():
        subscriptions = await asyncio.gather(*(hub.subscribe(table.id) for _ in range(20)))
        assert [s[0] for s in subscriptions] == [0] * 20
        assert reads == [[table.id]]
        assert hub.watched == 20
        assert await hub.subscribe("no-such-table") is None
        assert "no-such-table" not in hub._tables
        await hub.stop()

    _run(scenario)


def test_an_unknown_table_is_answered_by_flask(app):
    server = _asgi(app, 3600)

    async def scenario():
        phone = Phone()
        phone.gone.set()                        # the body is empty: a2wsgi may read it
        await asyncio.wait_for(server(_scope("/api/v1/tables/nope/events"), phone.receive,
                                      phone.send), 5)
        assert phone.sent[0]["status"] == 404
        assert json.loads(phone.text())["error"] == "table.not_found"

    _run(scenario)


@pytest.mark.parametrize("path, table_id", [
    ("/api/v1/tables/abc/events", "abc"), ("/api/v1/tables/a-b_C9/events", "a-b_C9"),
    ("/api/v1/tables//events", None), ("/api/v1/tables/a/b/events", None),
    ("/api/v1/tables/abc", None), ("/tables/abc/events", None)])
def test_only_the_event_paths_are_streamed_here(path, table_id):
    assert live_events.table_id_of_events_path(path) == table_id


@pytest.mark.parametrize("had, current, told", [
    (None, 3, [3]), (1, 3, [2, 3]), (3, 3, [3]), (7, 3, [3]), (0, 60, [60]), (10, 60,
                                                                             list(range(11, 61)))])
def test_a_reconnecting_phone_is_told_what_it_missed(had, current, told):
    assert list(live_events.versions_between(had, current)) == told
    assert live_events.opening(had, current).count("event: version") == len(told)


def test_the_flask_route_catches_up_from_last_event_id(app, client):
    app.config["SSE_MAX_SECONDS"] = 0.3
    table = LiveTable(client)
    for seat, move in RA_OPENING[:2]:
        table.ok(seat, move)
    text = client.get(f"{table.url}/events", headers={"Last-Event-ID": "0"}).get_data(
        as_text=True)
    assert re.findall(r"event: version\nid: (\d+)\n", text) == ["1", "2"]
    text = client.get(f"{table.url}/events?version=1").get_data(as_text=True)
    assert re.findall(r"event: version\nid: (\d+)\n", text) == ["2"]


def test_announcers_hear_every_publish_from_any_thread(app):
    from companion.services import broker

    heard = []
    broker.add_announcer(app, lambda table_id, version, seats: heard.append(
        (table_id, version, seats)))

    def publish():
        with app.app_context():
            broker.publish("t1", 4)
            broker.publish("t1", 4, 7)

    thread = threading.Thread(target=publish)
    thread.start()
    thread.join(5)
    assert heard == [("t1", 4, None), ("t1", 4, 7)]
    assert broker.parse_announcement(b"4:7") == (4, 7) and broker.parse_announcement("4") == (
        4, None)
