"""Two server processes, one database, one Redis: a move made through server A is announced
on an SSE stream served by server B at once, through Redis (design.md §3, the scaled
deployment; each server's database poll is slowed to a minute so that only Redis can be what
tells B).

Skipped unless TEST_REDIS_URL names a Redis; uses TEST_DATABASE_URL when set, else a SQLite
file both servers share.
"""

from __future__ import annotations

import os
import time

import pytest

from tests.databases import fresh_database_url, redis_url
from tests.liveserver import EventStream, servers_a_and_b

TEST_REDIS_URL = os.environ.get("TEST_REDIS_URL")
ANNOUNCE_WITHIN = 2.0

pytestmark = [pytest.mark.redis, pytest.mark.db,
              pytest.mark.skipif(not TEST_REDIS_URL, reason="TEST_REDIS_URL is not set")]


@pytest.mark.parametrize("round_", range(3))
def test_a_redis_subscription_keeps_the_subscription_contract(round_):
    """RedisBroker.subscribe: a version published right after subscribing is the first thing
    get() returns, and a quiet get() waits its timeout (it does not return None at once for
    Redis's subscribe confirmation)."""
    from companion.services.broker import RedisBroker

    listener, publisher = RedisBroker(redis_url()), RedisBroker(redis_url())
    channel = f"contract-{os.getpid()}-{round_}-{time.monotonic_ns()}"
    with listener.subscribe(channel) as subscription:
        publisher.publish(channel, 41)
        assert subscription.get(timeout=2) == 41
        started = time.monotonic()
        assert subscription.get(timeout=0.3) is None
        assert time.monotonic() - started >= 0.25
        publisher.publish(channel, 42)
        assert subscription.get(timeout=2) == 42


def test_a_move_on_server_a_is_announced_by_server_b(tmp_path):
    database_url = fresh_database_url(tmp_path)
    env = {"DATABASE_URL": database_url, "REDIS_URL": redis_url(), "LIVE_POLL_SECONDS": "60"}
    with servers_a_and_b(tmp_path, env) as (a, b, streams):
        opened, tokens = a.open_ra_table()
        table = opened["id"]
        # The table is visible through B: one database.
        status, seen = b.call("GET", f"/api/v1/tables/{table}")
        assert status == 200 and seen["version"] == 0

        on_b = EventStream(b.port, table)
        streams.append(on_b)
        on_a = EventStream(a.port, table)
        streams.append(on_a)
        started = time.monotonic()
        on_b.wait_for(0, started)        # the current version first: B is subscribed now
        on_a.wait_for(0, started)

        moves = [(0, {"type": "draw", "tile": "pharaoh"}), (1, {"type": "draw", "tile": "ra"}),
                 (2, {"type": "bid", "sun": 11}), (0, {"type": "pass"}),
                 (1, {"type": "bid", "sun": 12})]
        delays = []
        version = 0
        for number, (seat, move) in enumerate(moves):
            sent = time.monotonic()
            status, answer = a.call("POST", f"/api/v1/tables/{table}/moves",
                                    {"move": move, "version": version,
                                     "idempotency_key": f"redis-{number}"}, tokens[seat])
            assert status == 200, answer
            version = answer["version"]
            assert version == number + 1
            delays.append(on_b.wait_for(version, sent, ANNOUNCE_WITHIN))
            on_a.wait_for(version, sent)

        # An undo by the host through A is a new version too; B announces it.
        sent = time.monotonic()
        status, answer = a.call("POST", f"/api/v1/tables/{table}/undo",
                                {"version": len(moves), "idempotency_key": "undo-1"},
                                token=opened["host_token"])
        assert status == 200, answer
        assert answer["version"] == len(moves) + 1
        delays.append(on_b.wait_for(answer["version"], sent))

        # And a move made through B reaches A's stream.
        sent = time.monotonic()
        status, answer = b.call("POST", f"/api/v1/tables/{table}/moves",
                                {"move": {"type": "pass"}, "version": answer["version"],
                                 "idempotency_key": "redis-b"}, tokens[1])
        assert status == 200, answer
        on_a.wait_for(answer["version"], sent)
        on_b.wait_for(answer["version"], sent)
        assert max(delays) < ANNOUNCE_WITHIN
        status, seen = b.call("GET", f"/api/v1/tables/{table}")
        assert seen["version"] == answer["version"]
