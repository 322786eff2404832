"""Eight phones race 1 000 move submissions at one live table (design.md §3).

Each client thread loops: read the table, pick a legal move for the seat to act (the engine on
the state the API shows), submit it with that seat's token and the version it saw. Afterwards
the log must be exactly the accepted answers: no lost or doubled move, no gap, every version
once, the replay equal to the final state, and never a 500.
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter

import pytest

from companion.models import Move
from companion.rules.ra import RA
from tests.api.livetable import (LiveTable, bearer, replayed_from_db, stored_moves,
                                 stored_table)

pytestmark = pytest.mark.db

CLIENTS = 8
SUBMISSIONS = 1000
OPTIONS = {"show_bag_counts": True}          # the API's state then has the bag legal_moves needs


def test_eight_clients_race_a_thousand_submissions(app, count_rows):
    table = LiveTable(app.test_client(), options=OPTIONS)
    lock = threading.Lock()
    budget = iter(range(SUBMISSIONS))
    results: list[tuple[int, dict, dict, bool]] = []     # (status, body, request, game over)
    crashes: list[BaseException] = []

    def phone(number: int) -> None:
        client = app.test_client()
        rng = random.Random(number)
        try:
            while True:
                with lock:
                    if next(budget, None) is None:
                        return
                read = client.get(table.url)
                if read.status_code != 200:
                    raise AssertionError(f"GET answered {read.status_code}: {read.get_json()}")
                seen = read.get_json()
                seat, version = seen["to_act"], seen["version"]
                over = seen["status"] != "playing"
                if seat is None:                      # the game is over: try anyway
                    seat, move = rng.randrange(3), {"type": "pass"}
                else:
                    move = rng.choice(RA.legal_moves(seen["state"], seat))
                body = {"move": move, "version": version,
                        "idempotency_key": f"phone{number}-{rng.getrandbits(64):x}"}
                response = client.post(f"{table.url}/moves", json=body,
                                       headers=bearer(table.tokens[seat]))
                with lock:
                    results.append((response.status_code, response.get_json(), body, over))
        except BaseException as crash:                # pragma: no cover - reported below
            crashes.append(crash)

    started = time.monotonic()
    threads = [threading.Thread(target=phone, args=(n,)) for n in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    elapsed = time.monotonic() - started
    assert not crashes, crashes
    assert len(results) == SUBMISSIONS

    statuses = Counter(status for status, *_ in results)
    assert statuses[500] == 0, [b for s, b, *_ in results if s == 500][:3]
    accepted = [(body, request) for status, body, request, _ in results if status == 200]
    for status, body, request, over in results:
        if status == 200:
            continue
        assert status == 409, (status, body, request)
        if body["error"] == "stale_version":
            assert body["version"] > request["version"]
        else:
            # Only once the game has ended: a refusal that changes nothing.
            assert body["error"] == "table.not_playing", body
    assert len(accepted) > 50, statuses             # the race did not starve every phone

    # The log is exactly the accepted answers, in order, without gaps.
    moves = stored_moves(app, table.id)
    n = len(accepted)
    assert count_rows(Move) == n
    assert [m.seq for m in moves] == list(range(1, n + 1))
    assert [m.version for m in moves] == list(range(1, n + 1))
    assert sorted(body["version"] for body, _ in accepted) == list(range(1, n + 1))
    by_key = {m.idempotency_key: m for m in moves}
    for body, request in accepted:
        move = by_key[request["idempotency_key"]]
        assert move.version == body["version"]
        assert move.version == request["version"] + 1      # made on the state it saw
        assert move.move == request["move"]
    assert all(m.undone_by is None for m in moves)
    final_table = stored_table(app, table.id)
    assert final_table.version == n

    # Replaying the log (empty cache, and the engine alone) gives the final state; every
    # accepted answer showed the state at its own version.
    replayed = replayed_from_db(app, table.id)
    engine_state = table.setup_state()
    state_at = {}
    for move in moves:
        engine_state = RA.apply(engine_state, move.seat, move.move)
        state_at[move.version] = engine_state
    assert replayed == engine_state
    for body, request in accepted:       # as the mover's phone sees it (own fame only)
        seat = by_key[request["idempotency_key"]].seat
        assert body["state"] == table.shown(state_at[body["version"]], seat)
    final = table.get().get_json()
    assert final["version"] == n
    assert final["state"] == table.shown(replayed)
    assert final["status"] == ("finished" if RA.is_over(replayed) else "playing")
    if any(status == 409 and body["error"] == "table.not_playing"
           for status, body, *_ in results):
        assert final["status"] == "finished"
    assert elapsed < 90, f"{elapsed:.1f} s"
