"""The rate-limit counters every server process shares without Redis (issue 21 §6); through
two worker processes in tests/test_serve_security.py."""

from __future__ import annotations

import multiprocessing

from limits import parse
from limits.storage import storage_from_string
from limits.strategies import FixedWindowRateLimiter

from companion.web import limit_store


def _hit(uri: str, times: int) -> None:
    storage = storage_from_string(uri)
    for _ in range(times):
        storage.incr("LIMITS:join", 60)


def test_counts_from_several_processes_add_up(tmp_path):
    uri = limit_store.storage_uri(tmp_path)
    context = multiprocessing.get_context("spawn")
    processes = [context.Process(target=_hit, args=(uri, 25)) for _ in range(3)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(60)
    assert storage_from_string(uri).get("LIMITS:join") == 75


def test_a_window_that_is_over_starts_again(tmp_path, monkeypatch):
    storage = storage_from_string(limit_store.storage_uri(tmp_path))
    clock = [1000.0]
    monkeypatch.setattr(limit_store.time, "time", lambda: clock[0])
    limiter = FixedWindowRateLimiter(storage)
    ten = parse("10 per minute")
    assert all(limiter.hit(ten, "1.2.3.4") for _ in range(10))
    assert not limiter.hit(ten, "1.2.3.4")
    assert limiter.hit(ten, "5.6.7.8")                      # another device, its own budget
    assert limiter.get_window_stats(ten, "1.2.3.4").reset_time == 1060.0
    clock[0] = 1060.0
    assert limiter.hit(ten, "1.2.3.4")
    storage.clear(ten.key_for("1.2.3.4"))
    assert storage.get(ten.key_for("1.2.3.4")) == 0
    assert storage.reset() == 1 and storage.check()


def test_the_app_keeps_its_counters_in_the_instance_folder(app):
    assert app.config["RATELIMIT_STORAGE_URI"] in (
        app.config.get("REDIS_URL"), limit_store.storage_uri(app.instance_path))
