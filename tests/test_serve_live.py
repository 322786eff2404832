"""The README's serve command at a real table (issue 9): default workers, no Redis.

Every phone's stream hears every version of its table, whichever worker took the move; open
streams hold no request thread (the server still answers with many open); a stream the phone
closes is released at once; a phone that drops and comes back is told what it missed.
"""

from __future__ import annotations

import json
import time
import urllib.request

import pytest

from tests.liveserver import RA_OPENING, EventStream, Server, server_sockets_to

ESTABLISHED, CLOSE_WAIT = "01", "08"         # /proc/net/tcp states


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    running = Server("live", tmp_path_factory.mktemp("serve-live"))   # `serve`, as the README
    try:
        running.wait_ready()
        yield running
    finally:
        running.stop()


def _play(server: Server, table: dict, tokens: list[str], number: int, version: int) -> int:
    seat, move = RA_OPENING[number]
    status, answer = server.call("POST", f"/api/v1/tables/{table['id']}/moves",
                                 {"move": move, "version": version,
                                  "idempotency_key": f"{table['id']}-{number}"}, tokens[seat])
    assert status == 200, answer
    assert answer["version"] == version + 1
    return answer["version"]


def test_every_stream_hears_every_version_of_its_table(server):
    """Two tables, three phones each; moves alternate between the tables, each through a new
    connection (so both workers take some); every stream sees every version of its own table,
    in order, within a second."""
    tables = [server.open_ra_table() for _ in range(2)]
    streams = {table["id"]: [EventStream(server.port, table["id"]) for _ in range(3)]
               for table, _tokens in tables}
    try:
        started = time.monotonic()
        for phones in streams.values():
            for stream in phones:
                stream.wait_for(0, started)
        versions = {table["id"]: 0 for table, _tokens in tables}
        for number in range(len(RA_OPENING)):
            for table, tokens in tables:
                sent = time.monotonic()
                versions[table["id"]] = _play(server, table, tokens, number,
                                              versions[table["id"]])
                for stream in streams[table["id"]]:
                    assert stream.next_version(within=1.0) == versions[table["id"]]
                    assert time.monotonic() - sent < 1.0
        for phones in streams.values():           # nothing more, nothing from the other table
            for stream in phones:
                assert stream.versions.empty()
    except AssertionError as failure:
        raise AssertionError(f"{failure}\n{server.output()}") from None
    finally:
        for phones in streams.values():
            for stream in phones:
                stream.close()


def test_open_streams_hold_no_request_thread(server):
    """Far more open streams than the old 2 x 8 request threads: pages and moves are still
    answered at once."""
    table, tokens = server.open_ra_table()
    streams = [EventStream(server.port, table["id"]) for _ in range(60)]
    try:
        started = time.monotonic()
        with urllib.request.urlopen(f"{server.base}/", timeout=5) as page:
            assert page.status == 200
        assert _play(server, table, tokens, 0, 0) == 1
        assert time.monotonic() - started < 3.0
        for stream in streams:
            stream.wait_for(1, started, within=3.0)
    finally:
        for stream in streams:
            stream.close()


def test_a_closed_stream_is_released_within_seconds(server):
    table, _tokens = server.open_ra_table()
    stream = EventStream(server.port, table["id"])
    assert stream.next_version() == 0
    assert set(server_sockets_to(server.port, stream.local_port)) == {ESTABLISHED}
    stream.close()
    deadline = time.monotonic() + 5
    while {ESTABLISHED, CLOSE_WAIT} & set(server_sockets_to(server.port, stream.local_port)):
        assert time.monotonic() < deadline, "the server still holds the closed stream"
        time.sleep(0.1)


@pytest.mark.parametrize("how", ["last-event-id", "page-version"])
def test_a_phone_that_drops_catches_up_from_the_version_it_had(server, how):
    table, tokens = server.open_ra_table()
    stream = EventStream(server.port, table["id"])
    assert stream.next_version() == 0
    version = _play(server, table, tokens, 0, 0)
    assert stream.next_version() == 1
    stream.close()                                   # the phone drops at version 1 ...
    for number in (1, 2):                            # ... and misses two moves
        version = _play(server, table, tokens, number, version)
    if how == "last-event-id":                       # the browser's own reconnect
        back = EventStream(server.port, table["id"], last_event_id=1)
    else:                                            # live.js's reconnect from the page
        back = EventStream(server.port, table["id"], query="?version=1")
    try:
        assert [back.next_version(), back.next_version()] == [2, 3]
        version = _play(server, table, tokens, 3, version)
        assert back.next_version() == version == 4
    finally:
        back.close()


def test_a_new_phone_hears_only_the_current_version(server):
    table, tokens = server.open_ra_table()
    version = 0
    for number in range(3):
        version = _play(server, table, tokens, number, version)
    for last_event_id in (None, 99):                 # no history; a version it never had
        stream = EventStream(server.port, table["id"], last_event_id=last_event_id)
        try:
            assert stream.next_version() == 3
            time.sleep(0.3)
            assert stream.versions.empty()
        finally:
            stream.close()


def test_an_unknown_table_has_no_stream(server):
    status, body = server.call("GET", "/api/v1/tables/no-such-table/events")
    assert status == 404 and body["error"] == "table.not_found"


def test_the_join_link_is_on_the_lan_address_not_loopback_nor_the_host_header(server):
    request = urllib.request.Request(
        f"{server.base}/api/v1/tables", method="POST",
        data=json.dumps({"game": "ra", "players": ["Ana", "Bea", "Cyril"]}).encode(),
        headers={"Content-Type": "application/json", "Host": "evil.example"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 201
        opened = json.loads(response.read())
    assert "evil" not in opened["join_url"]
    assert not opened["join_url"].startswith(("http://127.", "http://localhost"))
    assert opened["join_url"].endswith(f":{server.port}/j/{opened['code']}")
    banner = server.log_path.read_text().splitlines()[0]
    assert opened["join_url"].removesuffix(f"/j/{opened['code']}") in banner
