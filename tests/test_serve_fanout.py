"""Two `serve` processes on one SQLite database and no Redis (issue 9 §2): a move posted to
server A is announced on every stream that server B serves, within 500 ms.

Deterministic where tests/test_serve_live.py is not: with the default two workers a move and a
stream meet in different processes only by chance; here every stream is on B and every move
goes to A, so each announcement can only come from B's watch of the shared database.
"""

from __future__ import annotations

import time

import pytest

from tests.liveserver import RA_OPENING, EventStream, servers_a_and_b

ANNOUNCE_WITHIN = 0.5
STREAMS_ON_B = 3

pytestmark = pytest.mark.db


def test_moves_on_server_a_reach_every_stream_on_server_b(tmp_path):
    env = {"SCRIBE_INSTANCE": str(tmp_path / "instance-shared")}      # one scribe.db, no Redis
    with servers_a_and_b(tmp_path, env) as (a, b, streams):
        opened, tokens = a.open_ra_table()
        table = opened["id"]
        status, seen = b.call("GET", f"/api/v1/tables/{table}")
        assert status == 200 and seen["version"] == 0          # one database

        on_b = [EventStream(b.port, table) for _ in range(STREAMS_ON_B)]
        streams.extend(on_b)
        started = time.monotonic()
        for stream in on_b:
            stream.wait_for(0, started)

        delays = []
        version = 0
        for number, (seat, move) in enumerate(RA_OPENING):
            sent = time.monotonic()
            status, answer = a.call("POST", f"/api/v1/tables/{table}/moves",
                                    {"move": move, "version": version,
                                     "idempotency_key": f"fanout-{number}"}, tokens[seat])
            assert status == 200, answer
            version = answer["version"]
            assert version == number + 1
            delays += [stream.wait_for(version, sent, ANNOUNCE_WITHIN) for stream in on_b]

        # an undo by the host through A is a version too
        sent = time.monotonic()
        status, answer = a.call("POST", f"/api/v1/tables/{table}/undo",
                                {"version": version, "idempotency_key": "fanout-undo"},
                                token=opened["host_token"])
        assert status == 200, answer
        assert answer["version"] == version + 1
        delays += [stream.wait_for(answer["version"], sent, ANNOUNCE_WITHIN) for stream in on_b]

        time.sleep(0.3)
        for stream in on_b:                      # every version once, nothing more
            assert stream.versions.empty()
        assert len(delays) == STREAMS_ON_B * (len(RA_OPENING) + 1)
        assert max(delays) < ANNOUNCE_WITHIN, max(delays)
        print(f"\nB heard A's versions after {sorted(delays)[len(delays) // 2] * 1000:.0f} ms "
              f"(median), {max(delays) * 1000:.0f} ms (max)")
