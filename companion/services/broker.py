"""Fan-out of table versions to the phones watching them (design.md §3).

A message is only a hint ("table X is now at version N"); phones then read the state, so a lost
or repeated hint costs nothing but a reload, and every stream also watches the database, which
decides (:mod:`companion.asgi` polls the versions of the tables its phones watch).

``publish`` is called by the service that committed a change, right after the commit
(:mod:`.live_tables`; views never call it). It tells, at once:
  * the announcers registered with :func:`add_announcer` (the asyncio streams of this process,
    served by :mod:`companion.asgi`);
  * the app's broker: in-process queues (the Flask route's streams, ``flask run`` and tests),
    or with ``REDIS_URL`` Redis pub/sub, so every server process hears it without waiting for
    its database poll (the scaled deployment).
"""

from __future__ import annotations

import logging
import queue
import threading
from collections import defaultdict
from contextlib import contextmanager
from typing import Callable, Iterator, Protocol

from flask import Flask, current_app, has_app_context

CHANNEL = "scribe:table:{}"
SUBSCRIBE_TIMEOUT = 5.0         # seconds to wait for Redis to confirm a subscription
logger = logging.getLogger(__name__)


class Subscription(Protocol):
    def get(self, timeout: float) -> int | None:
        """The next version announced, or None after ``timeout`` seconds of quiet."""
        ...


class LocalBroker:
    """Queues in this process."""

    def __init__(self) -> None:
        self._listeners: dict[str, set[queue.Queue[int]]] = defaultdict(set)
        self._lock = threading.Lock()

    def publish(self, table_id: str, version: int, seats: int | None = None) -> None:
        with self._lock:
            listeners = list(self._listeners.get(table_id, ()))
        for listener in listeners:
            listener.put(version)

    @contextmanager
    def subscribe(self, table_id: str) -> Iterator[Subscription]:
        inbox: queue.Queue[int] = queue.Queue()
        with self._lock:
            self._listeners[table_id].add(inbox)
        try:
            yield _QueueSubscription(inbox)
        finally:
            with self._lock:
                self._listeners[table_id].discard(inbox)
                if not self._listeners[table_id]:
                    del self._listeners[table_id]


class _QueueSubscription:
    def __init__(self, inbox: "queue.Queue[int]"):
        self.inbox = inbox

    def get(self, timeout: float) -> int | None:
        try:
            return self.inbox.get(timeout=timeout)
        except queue.Empty:
            return None


class RedisBroker:
    """Redis pub/sub: every process subscribed to a table's channel hears every version."""

    def __init__(self, url: str) -> None:
        import redis

        self.redis = redis.Redis.from_url(url)
        self.errors = redis.RedisError

    def publish(self, table_id: str, version: int, seats: int | None = None) -> None:
        # Called after the move is committed: a Redis outage must not turn an accepted move
        # into a 500 (the phone's retry would then be answered from the log, unannounced).
        try:
            self.redis.publish(CHANNEL.format(table_id),
                               str(version) if seats is None else f"{version}:{seats}")
        except self.errors:
            logger.warning("could not announce version %s of table %s", version, table_id,
                           exc_info=True)

    @contextmanager
    def subscribe(self, table_id: str) -> Iterator[Subscription]:
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        pubsub.subscribe(CHANNEL.format(table_id))
        # Read Redis's confirmation now: from here on every publish reaches us (the stream
        # subscribes, then reads the version), and the first get() waits as it should
        # instead of returning None at once for the confirmation.
        try:
            pubsub.get_message(timeout=SUBSCRIBE_TIMEOUT)
            yield _RedisSubscription(pubsub)
        finally:
            pubsub.close()


class _RedisSubscription:
    def __init__(self, pubsub) -> None:
        self.pubsub = pubsub

    def get(self, timeout: float) -> int | None:
        message = self.pubsub.get_message(timeout=timeout)
        if message is None or message.get("type") != "message":
            return None
        return parse_announcement(message["data"])[0]


Announcer = Callable[[str, int, "int | None"], None]


def init_app(app: Flask) -> None:
    url = app.config.get("REDIS_URL")
    app.extensions["scribe.broker"] = RedisBroker(url) if url else LocalBroker()
    app.extensions["scribe.announcers"] = []


def add_announcer(app: Flask, announce: Announcer) -> None:
    """Call ``announce(table_id, version, seats)`` on every publish of this app (from the thread
    that committed the change: the callee hands it to its own thread or loop)."""
    app.extensions["scribe.announcers"].append(announce)


def broker() -> LocalBroker | RedisBroker:
    return current_app.extensions["scribe.broker"]


def publish(table_id: str, version: int, seats: int | None = None) -> None:
    """Tell every listener of ``table_id`` that it is now at ``version`` (and, when given,
    that its seats and requests have changed ``seats`` times).

    Called by the live-table service right after it commits a change. Outside an app (a
    script or a test driving the service with a session of its own) nobody listens: nothing
    is sent."""
    if not has_app_context():
        return
    for announce in current_app.extensions.get("scribe.announcers", ()):
        announce(table_id, version, seats)
    broker().publish(table_id, version, seats)


def parse_announcement(data: bytes | str) -> tuple[int, int | None]:
    """A Redis announcement, ``"version"`` or ``"version:seats"``."""
    text = data.decode() if isinstance(data, bytes) else str(data)
    version, _, seats = text.partition(":")
    return int(version), int(seats) if seats else None
