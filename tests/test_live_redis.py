"""Two server processes, one database, one Redis: a move made through server A is announced
on an SSE stream served by server B (design.md §3, the scaled deployment).

Skipped unless TEST_REDIS_URL names a Redis; uses TEST_DATABASE_URL when set, else a SQLite
file both servers share.
"""

from __future__ import annotations

import http.client
import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.test_serve import free_port

ROOT = Path(__file__).resolve().parents[1]
TEST_REDIS_URL = os.environ.get("TEST_REDIS_URL")
TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL")
SUN_GROUPS = [[13, 8, 5, 2], [12, 9, 6, 3], [11, 10, 7, 4]]
ANNOUNCE_WITHIN = 2.0

pytestmark = [pytest.mark.redis, pytest.mark.db,
              pytest.mark.skipif(not TEST_REDIS_URL, reason="TEST_REDIS_URL is not set")]


class Server:
    """``python -m companion serve --workers 1`` on a free port, its output in a file."""

    def __init__(self, name: str, tmp_path: Path, database_url: str):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = tmp_path / f"server-{name}.log"
        env = dict(os.environ, DATABASE_URL=database_url, REDIS_URL=TEST_REDIS_URL,
                   SCRIBE_INSTANCE=str(tmp_path / f"instance-{name}"),
                   SECRET_KEY="test-secret-not-for-production")
        self.log = open(self.log_path, "wb")
        # Its own process group, so that stopping it also stops its gunicorn worker.
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion", "serve", "--workers", "1", "--port",
             str(self.port)], cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT,
            start_new_session=True)

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")[-4000:]

    def wait_ready(self, seconds: float = 30) -> None:
        deadline = time.monotonic() + seconds
        while True:
            try:
                with urllib.request.urlopen(f"{self.base}/api/v1/games", timeout=2):
                    return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"server did not start:\n{self.output()}")
                time.sleep(0.2)

    def call(self, method: str, path: str, body=None, token: str | None = None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(f"{self.base}{path}", data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        if token:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    def stop(self) -> None:
        """SIGINT (gunicorn's quick shutdown); a worker still finishing an SSE stream's
        keep-alive wait gets SIGKILL with the rest of this server's process group."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=3)
            except subprocess.TimeoutExpired:
                pass
        try:
            os.killpg(self.process.pid, signal.SIGKILL)  # the group this test started
        except ProcessLookupError:
            pass
        try:
            self.process.wait(timeout=10)
        finally:
            self.log.close()


class EventStream:
    """An SSE stream read line by line in a thread; each ``version`` event goes to a queue
    with the time it arrived."""

    def __init__(self, server: Server, table_id: str):
        self.connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        self.connection.request("GET", f"/api/v1/tables/{table_id}/events",
                                headers={"Accept": "text/event-stream"})
        self.response = self.connection.getresponse()
        assert self.response.status == 200
        assert self.response.getheader("Content-Type", "").startswith("text/event-stream")
        self.versions: "queue.Queue[tuple[int, float]]" = queue.Queue()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        event = None
        try:
            while True:
                line = self.response.readline()
                if not line:
                    return
                line = line.decode().rstrip("\r\n")
                if line.startswith("event: "):
                    event = line[7:]
                elif line.startswith("data: ") and event == "version":
                    self.versions.put((json.loads(line[6:])["version"], time.monotonic()))
                elif not line:
                    event = None
        except (OSError, ValueError, AttributeError, http.client.HTTPException):
            return                                   # closed by the test

    def wait_for(self, version: int, since: float) -> float:
        """Seconds from ``since`` until ``version`` was announced (AssertionError after 2 s)."""
        deadline = since + ANNOUNCE_WITHIN
        while True:
            try:
                announced, at = self.versions.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"version {version} not announced within "
                                     f"{ANNOUNCE_WITHIN} s") from None
            if announced == version:
                assert at - since <= ANNOUNCE_WITHIN, at - since
                return at - since
            assert announced < version, (announced, version)   # nothing from the future

    def close(self) -> None:
        if self.connection.sock is not None:
            try:
                self.connection.sock.shutdown(socket.SHUT_RDWR)   # wakes the reader
            except OSError:
                pass
        self.thread.join(5)
        self.connection.close()


@pytest.mark.parametrize("round_", range(3))
def test_a_redis_subscription_keeps_the_subscription_contract(round_):
    """RedisBroker.subscribe: a version published right after subscribing is the first thing
    get() returns, and a quiet get() waits its timeout (it does not return None at once for
    Redis's subscribe confirmation)."""
    from companion.services.broker import RedisBroker

    listener, publisher = RedisBroker(TEST_REDIS_URL), RedisBroker(TEST_REDIS_URL)
    channel = f"contract-{os.getpid()}-{round_}-{time.monotonic_ns()}"
    with listener.subscribe(channel) as subscription:
        publisher.publish(channel, 41)
        assert subscription.get(timeout=2) == 41
        started = time.monotonic()
        assert subscription.get(timeout=0.3) is None
        assert time.monotonic() - started >= 0.25
        publisher.publish(channel, 42)
        assert subscription.get(timeout=2) == 42


def _reset(url: str) -> None:
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    with engine.begin() as connection:
        connection.execute(text("DROP SCHEMA public CASCADE"))
        connection.execute(text("CREATE SCHEMA public"))
    engine.dispose()


def test_a_move_on_server_a_is_announced_by_server_b(tmp_path):
    if TEST_DATABASE_URL:
        _reset(TEST_DATABASE_URL)
    database_url = TEST_DATABASE_URL or f"sqlite:///{tmp_path / 'shared.db'}"
    servers: list[Server] = []
    streams: list[EventStream] = []
    try:
        a = Server("a", tmp_path, database_url)
        servers.append(a)
        a.wait_ready()                   # A migrates first; B then finds the schema current
        b = Server("b", tmp_path, database_url)
        servers.append(b)
        b.wait_ready()

        status, opened = a.call("POST", "/api/v1/tables", {
            "game": "ra", "options": {}, "players": ["Ana", "Bea", "Cyril"],
            "setup": {"sun_groups": SUN_GROUPS}})
        assert status == 201, opened
        table = opened["id"]
        tokens = []
        for seat in range(3):
            status, claimed = a.call("POST", f"/api/v1/tables/{table}/seats/{seat}/claim")
            assert status == 200, claimed
            tokens.append(claimed["seat_token"])
        # The table is visible through B: one database.
        status, seen = b.call("GET", f"/api/v1/tables/{table}")
        assert status == 200 and seen["version"] == 0

        on_b = EventStream(b, table)
        streams.append(on_b)
        on_a = EventStream(a, table)
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
            delays.append(on_b.wait_for(version, sent))
            on_a.wait_for(version, sent)

        # An undo by the host through A is a new version too; B announces it.
        sent = time.monotonic()
        status, answer = a.call("POST", f"/api/v1/tables/{table}/undo", token=opened["host_token"])
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
    except AssertionError as failure:
        logs = "\n".join(f"--- server {i} ---\n{s.output()}" for i, s in enumerate(servers))
        raise AssertionError(f"{failure}\n{logs}") from None
    finally:
        for stream in streams:
            stream.close()
        for server in servers:
            server.stop()
