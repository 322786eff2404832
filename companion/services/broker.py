"""Fan-out of table versions to the phones watching them (design.md §3).

In-process by default: one server process, queues in memory. With ``REDIS_URL`` the versions
go through Redis pub/sub, so every server process (gunicorn worker, or another machine) tells
its own listeners. A message is only a hint ("table X is now at version N"); phones then read
the state, so a lost or repeated hint costs nothing but a reload.
"""

from __future__ import annotations

import queue
import threading
from collections import defaultdict
from contextlib import contextmanager
from typing import Iterator, Protocol

from flask import Flask, current_app

CHANNEL = "scribe:table:{}"


class Subscription(Protocol):
    def get(self, timeout: float) -> int | None:
        """The next version announced, or None after ``timeout`` seconds of quiet."""
        ...


class LocalBroker:
    """Queues in this process."""

    def __init__(self) -> None:
        self._listeners: dict[str, set[queue.Queue[int]]] = defaultdict(set)
        self._lock = threading.Lock()

    def publish(self, table_id: str, version: int) -> None:
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

    def publish(self, table_id: str, version: int) -> None:
        self.redis.publish(CHANNEL.format(table_id), str(version))

    @contextmanager
    def subscribe(self, table_id: str) -> Iterator[Subscription]:
        pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        pubsub.subscribe(CHANNEL.format(table_id))
        try:
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
        return int(message["data"])


def init_app(app: Flask) -> None:
    url = app.config.get("REDIS_URL")
    app.extensions["scribe.broker"] = RedisBroker(url) if url else LocalBroker()


def broker() -> LocalBroker | RedisBroker:
    return current_app.extensions["scribe.broker"]


def publish(table_id: str, version: int) -> None:
    """Tell every listener of ``table_id`` that it is now at ``version``."""
    broker().publish(table_id, version)
