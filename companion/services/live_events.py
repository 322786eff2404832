"""What every live-update stream shares (design.md §3): the SSE wire format and the version read.

Two servers speak this stream: the asyncio one that ``python -m companion serve`` runs
(:mod:`companion.asgi`, which holds no thread per phone) and the plain Flask route
(``flask run`` and the test client). Both start with the versions a phone missed, then one
``version`` event per version, with the version as the event id, so a phone that reconnects
names the last version it saw (``Last-Event-ID``, or ``?version=`` from its page) and is told
what happened since. The Flask route's stream is :func:`blocking_stream`.
"""

from __future__ import annotations

import json
import time
from typing import Any, Iterable, Iterator, Mapping

from sqlalchemy import bindparam, select
from sqlalchemy.engine import Connection, Engine

from ..models import GameTable, TableMode
from . import broker

KEEPALIVE_SECONDS = 15.0     # an ``alive`` event this often keeps proxies from timing out and
                             # tells the phone its stream still works (it reconnects otherwise)
RETRY_MS = 2000              # how soon a phone's EventSource reconnects after a drop
CATCH_UP_MAX = 50            # a phone further behind is told only the current version
EVENTS_PATH_PREFIX = "/api/v1/tables/"
EVENTS_PATH_SUFFIX = "/events"

_TABLE = GameTable.__table__
_LIVE_VERSIONS = (select(_TABLE.c.id, _TABLE.c.version, _TABLE.c.seats_version)
                  .where(_TABLE.c.id.in_(bindparam("ids", expanding=True)),
                         _TABLE.c.mode == TableMode.LIVE.value))


def sse(event: str, data: Mapping[str, Any], event_id: int | None = None) -> str:
    """One Server-Sent Event."""
    lines = [f"event: {event}"]
    if event_id is not None:
        lines.append(f"id: {event_id}")
    lines.append(f"data: {json.dumps(data)}")
    return "\n".join(lines) + "\n\n"


def version_event(version: int) -> str:
    return sse("version", {"version": version}, version)


def seats_event(seats: int, version: int) -> str:
    """The table's seats or requests changed (a phone joined, a co-host was named, a seat asks
    to undo): no id, so ``Last-Event-ID`` stays the last version event's."""
    return sse("seats", {"seats": seats, "version": version})


def alive_event(version: int) -> str:
    """The keep-alive: an event (not a comment) so that the page can see it, with the version
    the stream last told (a page that missed it catches up); no id, so ``Last-Event-ID``
    stays the last version event's."""
    return sse("alive", {"version": version})


def opening(had: int | None, current: int, seats: int | None = None) -> str:
    """What a stream sends first: the reconnect delay, then the versions after ``had`` up to
    ``current`` (only ``current`` for a new phone, one too far behind, or one that names a
    version the table never had), then how many times the seats have changed."""
    return f"retry: {RETRY_MS}\n\n" + "".join(
        version_event(v) for v in versions_between(had, current)) + (
        seats_event(seats, current) if seats is not None else "")


def versions_between(had: int | None, current: int) -> range:
    """The versions a phone that saw ``had`` has not been told of, ``current`` always included
    (so every stream opens with the table's version, whatever the phone thought it had)."""
    if had is None or not 0 <= had < current or current - had > CATCH_UP_MAX:
        return range(current, current + 1)
    return range(had + 1, current + 1)


def last_seen(last_event_id: str | None, query_version: str | None) -> int | None:
    """The version a reconnecting phone saw: EventSource's ``Last-Event-ID`` header (sent by
    the browser on its own reconnects), else ``?version=`` (the page's version)."""
    for text in (last_event_id, query_version):
        if text and text.strip().isdigit():
            return int(text.strip())
    return None


def table_id_of_events_path(path: str) -> str | None:
    """``/api/v1/tables/<id>/events`` -> ``<id>`` (None for any other path)."""
    if not (path.startswith(EVENTS_PATH_PREFIX) and path.endswith(EVENTS_PATH_SUFFIX)):
        return None
    table_id = path[len(EVENTS_PATH_PREFIX):-len(EVENTS_PATH_SUFFIX)]
    return table_id if table_id and "/" not in table_id else None


def read_versions(bind: Engine | Connection,
                  table_ids: Iterable[str]) -> dict[str, tuple[int, int]]:
    """(version, seats_version) of each live table among ``table_ids``, in one query (absent
    ids are left out)."""
    ids = list(table_ids)
    if not ids:
        return {}
    if isinstance(bind, Engine):
        with bind.connect() as connection:
            return read_versions(connection, ids)
    return {row[0]: (row[1], row[2]) for row in bind.execute(_LIVE_VERSIONS, {"ids": ids})}


def blocking_stream(engine: Engine, table_id: str, had: int | None,
                    max_seconds: float | None = None) -> Iterator[str]:
    """The events of one table for the Flask route, one thread per phone (``flask run`` and
    the test client): the opening, then the versions the broker announces, keep-alives
    between; ``max_seconds`` bounds the stream (tests). Call it in the app's context: the
    broker is taken from the app before the first event is sent."""
    hub = broker.broker()

    def stream() -> Iterator[str]:
        started = time.monotonic()
        with hub.subscribe(table_id) as subscription:
            # subscribe first, then read: a move in between is announced, never lost
            last = read_versions(engine, [table_id]).get(table_id, (0, 0))[0]
            yield opening(had, last)
            while max_seconds is None or time.monotonic() - started < max_seconds:
                announced = subscription.get(timeout=KEEPALIVE_SECONDS
                                             if max_seconds is None else 0.2)
                if announced is None:
                    yield alive_event(last)
                    continue
                if announced > last:
                    yield "".join(version_event(v) for v in versions_between(last, announced))
                    last = announced

    return stream()
