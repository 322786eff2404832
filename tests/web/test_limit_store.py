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


def _places(uri: str, key: str, times: int, out) -> None:
    storage = storage_from_string(uri)
    out.put([storage.incr(key, 60) for _ in range(times)])


def test_leased_hits_never_let_more_than_the_limit_through(tmp_path):
    """A busy limit is counted by leases of several hits; the processes together still pass
    at most the limit, and no place in the count is given twice."""
    uri = limit_store.storage_uri(tmp_path)
    limit = parse("200 per minute")
    key = limit.key_for("score", "1.2.3.4")
    size = limit_store.lease_size(key)
    assert size == 4
    context = multiprocessing.get_context("spawn")
    out = context.Queue()
    processes = [context.Process(target=_places, args=(uri, key, 100, out)) for _ in range(3)]
    for process in processes:
        process.start()
    places = [place for _ in processes for place in out.get(timeout=60)]
    for process in processes:
        process.join(60)
    assert len(places) == 300 and len(set(places)) == 300
    passed = sum(place <= limit.amount for place in places)
    assert limit.amount - 3 * (size - 1) <= passed <= limit.amount
    # the shared count holds every hit handed out, and the unspent leases
    assert storage_from_string(uri).get(key) >= max(places)


def test_small_limits_are_counted_hit_by_hit():
    assert limit_store.lease_size(parse("60 per minute").key_for("join_code", "1.2.3.4")) == 1
    assert limit_store.lease_size(parse("99 per hour").key_for("score", "1.2.3.4")) == 1
    assert limit_store.lease_size(parse("600 per hour").key_for("score", "1.2.3.4")) == 12
    assert limit_store.lease_size(parse("10000000 per minute").key_for("s", "a")) == 100
    assert limit_store.lease_size("LIMITS:join") == 1


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


def test_a_window_is_read_in_one_go_as_get_and_get_expiry_read_it(tmp_path, monkeypatch):
    """The limit headers read a window once (hits and end together), as the limiter's two
    reads would."""
    storage = storage_from_string(limit_store.storage_uri(tmp_path))
    clock = [1000.0]
    monkeypatch.setattr(limit_store.time, "time", lambda: clock[0])
    key = parse("10 per minute").key_for("1.2.3.4", "score")
    assert storage.window(key) == (0, 1000.0) == (storage.get(key), storage.get_expiry(key))
    for _ in range(3):
        storage.incr(key, 60)
    clock[0] = 1030.0
    assert storage.window(key) == (3, 1060.0) == (storage.get(key), storage.get_expiry(key))
    clock[0] = 1060.0                                       # over: nothing counted
    assert storage.window(key) == (0, 1060.0) == (storage.get(key), storage.get_expiry(key))
