"""The server ``python -m companion serve`` runs: live-update streams on asyncio, the rest Flask.

An open Server-Sent Events stream costs a coroutine and a queue here, not a request thread
(design.md §3: a club evening is hundreds of phones), and a closed one is released as soon as
uvicorn reports the disconnect. Every other request goes to the Flask app through
``a2wsgi.WSGIMiddleware`` (a thread pool): one path per request (design.md §3).

How a stream learns of a new version, in each server process (gunicorn worker):
  * a change committed by this process is announced at once (``broker.add_announcer``);
  * changes committed by other processes are found by one query every ``LIVE_POLL_SECONDS``
    (0.1 s) that reads the versions of every table this process's phones watch: the
    database decides, so this works with SQLite and any number of workers, no Redis needed;
  * with ``REDIS_URL`` the other processes' announcements also arrive through Redis pub/sub,
    at once, and the poll slows to once a second as the safety net.

Every other request's body is read here, on the event loop, before a thread is given to it: a
phone that sends its body slowly (or never finishes) costs a coroutine, not one of the few
request threads. The body may be at most ``MAX_CONTENT_LENGTH`` bytes (a BG Stats import a
little more), chunked or not, else 413; a body that stops arriving for
``REQUEST_BODY_SECONDS`` (10 s), or takes longer than ``REQUEST_BODY_TOTAL_SECONDS`` (60 s) in
all, is answered 408. Both answers come from the Flask app (JSON under /api/, a page
elsewhere, in the reader's language), which is told by :data:`REFUSED` in the scope. The
body read is handed to Flask as its ``wsgi.input`` (:class:`_ReadBody`), so the request thread
never waits on the loop for it.

A stream starts with the versions the phone missed (``Last-Event-ID`` or ``?version=``), then
sends every version in order (:mod:`companion.services.live_events`, shared with the Flask
route that ``flask run`` and the test client use).
"""

from __future__ import annotations

import asyncio
import io
import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable
from urllib.parse import parse_qs

from a2wsgi import WSGIMiddleware
from flask import Flask, abort, request
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException
from uvicorn_worker import UvicornWorker

from .services import bgstats, broker, live_events
from .services.broker import CHANNEL

logger = logging.getLogger(__name__)

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]

POLL_CHUNK = 500                  # table ids per version query
REDIS_RETRY_SECONDS = 1.0
_CLOSE = -1                       # put in an inbox: end that stream (the phone reconnects)
STREAM_HEADERS = [(b"content-type", b"text/event-stream; charset=utf-8"),
                  (b"cache-control", b"no-cache"), (b"x-accel-buffering", b"no")]


# Request bodies (read on the loop before Flask sees them).
REFUSED = "scribe.body_refused"   # in the scope given to Flask: 408 or 413, answered there
BODY = "scribe.body"              # in the scope given to a2wsgi: the body read on the loop
BODY_SECONDS = 10.0               # the longest silence while a body arrives
BODY_TOTAL_SECONDS = 60.0         # the longest a whole body may take
# Views that take a larger body than MAX_CONTENT_LENGTH (by endpoint).
LARGER_BODIES = {"api.import_bgstats": bgstats.MAX_IMPORT_REQUEST}
_NO_BODY_METHODS = ("GET", "HEAD", "OPTIONS", "DELETE")


# An inbox receives (VERSION, n) or (SEATS, n) — the table's newest version, or how many times
# its seats and requests have changed — or _CLOSE.
VERSION, SEATS = "version", "seats"


@dataclass(eq=False)
class _Watch:
    """One table watched by this process: its latest known version and seats count, and its
    streams' inboxes."""

    version: int = -1
    seats: int = -1
    inboxes: set["asyncio.Queue[Any]"] = field(default_factory=set)
    found: "asyncio.Future[bool] | None" = None     # resolved once the first read is done


class StreamHub:
    """The tables this process's streams watch, and what tells them of new versions."""

    def __init__(self, read_versions: Callable[[list[str]], dict[str, tuple[int, int]]],
                 poll_seconds: float, redis_url: str | None = None):
        self._read_versions = read_versions
        self.poll_seconds = poll_seconds
        self.redis_url = redis_url
        self._tables: dict[str, _Watch] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._tasks: list[asyncio.Task] = []
        # Database reads of the streams get their own threads: a burst of phones opening
        # streams never waits behind the moves in the WSGI pool, nor the moves behind them.
        self._reader = ThreadPoolExecutor(max_workers=2, thread_name_prefix="scribe-versions")

    @property
    def watched(self) -> int:
        """How many streams are open in this process (tests and the benchmark read it)."""
        return sum(len(w.inboxes) for w in self._tables.values())

    # ---- running ---------------------------------------------------------------------------

    def start(self) -> None:
        """Start the poll (and the Redis listener) on the running loop; idempotent."""
        if self._tasks:
            return
        self._loop = asyncio.get_running_loop()
        self._tasks.append(self._loop.create_task(self._poll_forever()))
        if self.redis_url:
            self._tasks.append(self._loop.create_task(self._redis_forever()))

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            try:
                await task
            except (asyncio.CancelledError, Exception):   # noqa: BLE001 - shutting down
                pass
        self._tasks.clear()

    # ---- announcements ---------------------------------------------------------------------

    def announce(self, table_id: str, version: int, seats: int | None = None) -> None:
        """``table_id`` is at ``version`` (and its seats changed ``seats`` times), on the
        loop's thread: tell its streams what is newer."""
        watch = self._tables.get(table_id)
        if watch is None:
            return
        news = []
        if version > watch.version:
            watch.version = version
            news.append((VERSION, version))
        if seats is not None and seats > watch.seats:
            watch.seats = seats
            news.append((SEATS, seats))
        for inbox in watch.inboxes:
            for item in news:
                inbox.put_nowait(item)

    def close_all(self) -> None:
        """End every open stream (on the loop's thread); the phones reconnect by themselves
        and are told what they missed. How a test drops every phone at once."""
        for watch in self._tables.values():
            for inbox in watch.inboxes:
                inbox.put_nowait(_CLOSE)

    def announce_threadsafe(self, table_id: str, version: int,
                            seats: int | None = None) -> None:
        """:meth:`announce` from any thread (the Flask request that committed the move)."""
        loop = self._loop
        if loop is None or loop.is_closed() or table_id not in self._tables:
            return      # nobody here watches it: no need to wake the loop (a read of a dict)
        try:
            loop.call_soon_threadsafe(self.announce, table_id, version, seats)
        except RuntimeError:            # the loop closed meanwhile: nobody is listening
            pass

    # ---- streams ---------------------------------------------------------------------------

    async def subscribe(self, table_id: str
                        ) -> "tuple[int, int, asyncio.Queue[Any]] | None":
        """Register an inbox for ``table_id``: (its current version, its seats count, the
        inbox), or None when there is no such live table. The inbox is registered before the version is read, so
        a change in between is announced, never lost."""
        self.start()
        inbox: asyncio.Queue[Any] = asyncio.Queue()
        watch = self._tables.get(table_id)
        if watch is None:
            watch = self._tables[table_id] = _Watch()
            watch.found = asyncio.get_running_loop().create_future()
            watch.inboxes.add(inbox)
            try:
                versions = await asyncio.get_running_loop().run_in_executor(
                    self._reader, self._read_versions, [table_id])
            except BaseException as failure:
                self._forget(table_id, watch)
                watch.found.set_exception(failure)
                watch.found.exception()         # retrieved: waiting streams re-raise it
                raise
            if table_id in versions:
                version, seats = versions[table_id]
                watch.version = max(watch.version, version)
                watch.seats = max(watch.seats, seats)
            watch.found.set_result(table_id in versions)
        else:
            watch.inboxes.add(inbox)
        assert watch.found is not None
        if not await asyncio.shield(watch.found):
            self._forget(table_id, watch)
            return None
        return watch.version, watch.seats, inbox

    def unsubscribe(self, table_id: str, inbox: "asyncio.Queue[Any]") -> None:
        watch = self._tables.get(table_id)
        if watch is not None:
            watch.inboxes.discard(inbox)
            if not watch.inboxes and watch.found is not None and watch.found.done():
                del self._tables[table_id]

    def _forget(self, table_id: str, watch: _Watch) -> None:
        if self._tables.get(table_id) is watch:
            del self._tables[table_id]

    # ---- the sources of versions -----------------------------------------------------------

    async def poll_once(self) -> None:
        """Read the versions of every watched table (one query per POLL_CHUNK tables) and
        announce the new ones."""
        ids = [table_id for table_id, watch in self._tables.items()
               if watch.found is not None and watch.found.done()]
        loop = asyncio.get_running_loop()
        for start in range(0, len(ids), POLL_CHUNK):
            versions = await loop.run_in_executor(self._reader, self._read_versions,
                                                  ids[start:start + POLL_CHUNK])
            for table_id, (version, seats) in versions.items():
                self.announce(table_id, version, seats)

    async def _poll_forever(self) -> None:
        while True:
            await asyncio.sleep(self.poll_seconds)
            try:
                await self.poll_once()
            except Exception:           # noqa: BLE001 - the database is back next time
                logger.warning("could not read the watched tables' versions", exc_info=True)

    async def _redis_forever(self) -> None:
        """Hear every process's announcements through Redis (one pattern subscription)."""
        import redis.asyncio as aioredis

        prefix = CHANNEL.format("")
        while True:
            client = aioredis.Redis.from_url(self.redis_url)
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.psubscribe(CHANNEL.format("*"))
                while True:
                    message = await pubsub.get_message(timeout=5.0)
                    if message is None or message.get("type") != "pmessage":
                        continue
                    channel = message["channel"].decode()
                    if channel.startswith(prefix):
                        version, seats = broker.parse_announcement(message["data"])
                        self.announce(channel[len(prefix):], version, seats)
            except asyncio.CancelledError:
                raise
            except Exception:           # noqa: BLE001 - Redis is a hint; the poll goes on
                logger.warning("Redis announcements lost; retrying", exc_info=True)
                await asyncio.sleep(REDIS_RETRY_SECONDS)
            finally:
                try:
                    await pubsub.aclose()
                    await client.aclose()
                except Exception:       # noqa: BLE001 - already broken
                    pass


class ScribeASGI:
    """The ASGI app: event streams here, every other request to Flask."""

    def __init__(self, flask_app: Flask, threads: int = 8):
        self.flask_app = flask_app
        engine = flask_app.extensions["scribe.engine"]
        redis_url = flask_app.config.get("REDIS_URL")
        poll = flask_app.config.get("LIVE_POLL_SECONDS") or (1.0 if redis_url else 0.1)
        self.hub = StreamHub(lambda ids: live_events.read_versions(engine, ids), float(poll),
                             redis_url)
        self.keepalive_seconds = live_events.KEEPALIVE_SECONDS
        broker.add_announcer(flask_app, self.hub.announce_threadsafe)
        self.wsgi = WSGIMiddleware(_ReadBody(flask_app), workers=threads)
        config = flask_app.config
        self.max_body = int(config.get("MAX_CONTENT_LENGTH") or 1024 * 1024)
        self.body_seconds = float(config.get("REQUEST_BODY_SECONDS") or BODY_SECONDS)
        self.body_total_seconds = float(config.get("REQUEST_BODY_TOTAL_SECONDS")
                                        or BODY_TOTAL_SECONDS)
        self._urls = flask_app.url_map.bind("localhost")
        _answer_refused_bodies(flask_app)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self._lifespan(receive, send)
            return
        if scope["type"] == "http" and scope["method"] == "GET":
            table_id = live_events.table_id_of_events_path(scope["path"])
            if table_id is not None:
                await self._stream(scope, receive, send, table_id)
                return
        if scope["type"] == "http":
            scope = await self._read_body(scope, receive)
            if scope is None:                   # the client went away before its body came
                return
        await self.wsgi(scope, receive, send)

    # ---- request bodies ------------------------------------------------------------------

    def body_limit(self, scope: Scope) -> int:
        """How many bytes the body of this request may have (its endpoint is looked up only
        for a body larger than every endpoint but a few accept)."""
        if scope["method"] in _NO_BODY_METHODS:
            return self.max_body
        try:
            endpoint, _values = self._urls.match(scope["path"], method=scope["method"])
        except HTTPException:
            return self.max_body
        return max(self.max_body, LARGER_BODIES.get(endpoint, 0))

    async def _read_body(self, scope: Scope, receive: Receive) -> "Scope | None":
        """Read the whole body here, on the loop: the scope with the body under :data:`BODY`,
        or marked :data:`REFUSED` (and the body empty) when the body is too large or too
        slow; None when the client disconnected."""
        limit = self.max_body
        declared = _header(scope, b"content-length")
        if declared is not None and declared.strip().isdigit() and int(declared) > limit:
            limit = self.body_limit(scope)
            if int(declared) > limit:           # said so before sending: nothing is read
                return {**scope, REFUSED: 413, BODY: b""}
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.body_total_seconds
        chunks: list[bytes] = []
        size = 0
        while True:
            wait = min(self.body_seconds, deadline - loop.time())
            try:
                if wait <= 0:
                    raise TimeoutError
                async with asyncio.timeout(wait):
                    message = await receive()
            except TimeoutError:
                return {**scope, REFUSED: 408, BODY: b""}
            if message["type"] == "http.disconnect":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit and limit == self.max_body:
                limit = self.body_limit(scope)      # one of the few that take more?
            if size > limit:
                return {**scope, REFUSED: 413, BODY: b""}
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return {**scope, BODY: chunks[0] if len(chunks) == 1 else b"".join(chunks)}

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                self.hub.start()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await self.hub.stop()
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def _stream(self, scope: Scope, receive: Receive, send: Send, table_id: str) -> None:
        """One phone's stream of ``table_id``'s versions, until the phone goes away."""
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        had = live_events.last_seen(_header(scope, b"last-event-id"),
                                    (query.get("version") or [None])[0])
        subscription = await self.hub.subscribe(table_id)
        if subscription is None:                # no such table: Flask answers (404, in JSON)
            await self.wsgi(scope, receive, send)
            return
        current, seats, inbox = subscription
        try:
            await send({"type": "http.response.start", "status": 200,
                        "headers": STREAM_HEADERS})
            await send({"type": "http.response.body", "more_body": True,
                        "body": live_events.opening(had, current, seats).encode()})
            pump = asyncio.ensure_future(self._pump(send, inbox, current, seats))
            gone = asyncio.ensure_future(_disconnected(receive))
            try:
                await asyncio.wait({pump, gone}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for task in (pump, gone):
                    task.cancel()
                await asyncio.gather(pump, gone, return_exceptions=True)
            if pump.done() and not pump.cancelled() and pump.exception() is None:
                await send({"type": "http.response.body", "body": b"", "more_body": False})
        except OSError:                          # the connection broke while we wrote
            pass
        finally:
            self.hub.unsubscribe(table_id, inbox)

    async def _pump(self, send: Send, inbox: "asyncio.Queue[Any]", last: int,
                    seats: int) -> None:
        while True:
            try:
                items = [await asyncio.wait_for(inbox.get(), self.keepalive_seconds)]
            except asyncio.TimeoutError:
                await send({"type": "http.response.body", "more_body": True,
                            "body": live_events.alive_event(last).encode()})
                continue
            while not inbox.empty():            # several changes at once: one write
                items.append(inbox.get_nowait())
            if _CLOSE in items:
                return
            version = max([n for kind, n in items if kind == VERSION], default=last)
            told_seats = max([n for kind, n in items if kind == SEATS], default=seats)
            events = ""
            if version > last:
                events += "".join(live_events.version_event(v)
                                  for v in live_events.versions_between(last, version))
                last = version
            if told_seats > seats:
                events += live_events.seats_event(told_seats, last)
                seats = told_seats
            if events:
                await send({"type": "http.response.body", "body": events.encode(),
                            "more_body": True})


def _answer_refused_bodies(flask_app: Flask) -> None:
    """Before anything else the app does for a request, answer the body this layer refused
    (408 or 413, through the app's error handlers)."""
    def refuse_body():
        status = request.environ.get("asgi.scope", {}).get(REFUSED)
        if status == 413:
            abort(413, description=_("What was sent is too large."))
        if status == 408:
            abort(408, description=_("What was sent arrived too slowly. Check the connection "
                                     "and send it again."))

    hooks = flask_app.before_request_funcs.setdefault(None, [])
    if not any(getattr(hook, "scribe_refuse_body", False) for hook in hooks):
        refuse_body.scribe_refuse_body = True       # type: ignore[attr-defined]
        hooks.insert(0, refuse_body)


class _ReadBody:
    """The Flask app, given the body read on the loop (:data:`BODY`) as its ``wsgi.input``:
    the request thread reads it from memory instead of asking the loop for it."""

    def __init__(self, app: Flask):
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        body = environ["asgi.scope"].get(BODY)
        if body is not None:
            environ["wsgi.input"] = io.BytesIO(body)
        return self.app(environ, start_response)


def _header(scope: Scope, name: bytes) -> str | None:
    """The first value of the header ``name`` (lower case) of an ASGI request."""
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin-1")
    return None


async def _disconnected(receive: Receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


def create_asgi(flask_app: Flask | None = None, threads: int = 8) -> ScribeASGI:
    """The ASGI app around ``flask_app`` (default: the app from the environment)."""
    if flask_app is None:
        from . import create_app
        flask_app = create_app()
    return ScribeASGI(flask_app, threads=threads)


class ScribeWorker(UvicornWorker):
    """gunicorn's worker for :class:`ScribeASGI`: uvicorn with uvloop and httptools where
    installed; streams still open at shutdown are ended after a few seconds."""

    CONFIG_KWARGS = {"loop": "auto", "http": "auto", "lifespan": "on",
                     "timeout_graceful_shutdown": 3}
