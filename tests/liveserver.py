"""Helpers for the tests that start a real server (``python -m companion serve``) and read its
Server-Sent Events over a socket. Not a test module; imported by tests/test_serve*.py and
tests/test_live_redis.py. Every request goes to 127.0.0.1 only.
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
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Coroutine, Iterator

ROOT = Path(__file__).resolve().parents[1]
SUN_GROUPS = [[13, 8, 5, 2], [12, 9, 6, 3], [11, 10, 7, 4]]
# The first moves of a 3-seat Ra table dealt SUN_GROUPS: (seat, move).
RA_OPENING = [(0, {"type": "draw", "tile": "pharaoh"}), (1, {"type": "draw", "tile": "ra"}),
              (2, {"type": "bid", "sun": 11}), (0, {"type": "pass"}),
              (1, {"type": "bid", "sun": 12}), (2, {"type": "draw", "tile": "pharaoh"}),
              (0, {"type": "draw", "tile": "nile"}), (1, {"type": "draw", "tile": "gold"}),
              (2, {"type": "draw", "tile": "flood"}), (0, {"type": "draw", "tile": "gold"})]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``python -m companion serve ARGS --port P`` in its own process group, its output in a
    file; ``env`` is added to this process's environment (DATABASE_URL, REDIS_URL unset
    unless given)."""

    def __init__(self, name: str, tmp_path: Path, args=(), env=None):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = tmp_path / f"server-{name}.log"
        environment = {k: v for k, v in os.environ.items()
                       if k not in ("DATABASE_URL", "REDIS_URL", "PUBLIC_URL")}
        environment.update(SCRIBE_INSTANCE=str(tmp_path / f"instance-{name}"),
                           SECRET_KEY="test-secret-not-for-production")
        environment.update(env or {})            # may name a SCRIBE_INSTANCE to share
        self.log = open(self.log_path, "wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion", "serve", *args, "--port", str(self.port)],
            cwd=ROOT, env=environment, stdout=self.log, stderr=subprocess.STDOUT,
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

    def open_ra_table(self) -> tuple[dict, list[str]]:
        """A 3-seat Ra table with every seat claimed: (the API's answer, the seat tokens)."""
        status, opened = self.call("POST", "/api/v1/tables", {
            "game": "ra", "options": {}, "players": ["Ana", "Bea", "Cyril"],
            "setup": {"sun_groups": SUN_GROUPS}})
        assert status == 201, opened
        tokens = []
        for seat in range(3):
            status, claimed = self.call("POST", f"/api/v1/tables/{opened['id']}/seats/{seat}"
                                                "/claim")
            assert status == 200, claimed
            tokens.append(claimed["seat_token"])
        return opened, tokens

    def stop(self) -> None:
        """SIGTERM (gunicorn's graceful stop, which ends open streams within seconds), then
        SIGKILL to this server's own process group if anything is left."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
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

    def __init__(self, port: int, table_id: str, last_event_id: int | None = None,
                 query: str = ""):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        headers = {"Accept": "text/event-stream"}
        if last_event_id is not None:
            headers["Last-Event-ID"] = str(last_event_id)
        self.connection.request("GET", f"/api/v1/tables/{table_id}/events{query}",
                                headers=headers)
        self.response = self.connection.getresponse()
        assert self.response.status == 200
        assert self.response.getheader("Content-Type", "").startswith("text/event-stream")
        self.local_port = self.connection.sock.getsockname()[1]
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

    def next_version(self, within: float = 2.0) -> int:
        try:
            return self.versions.get(timeout=within)[0]
        except queue.Empty:
            raise AssertionError(f"no version announced within {within} s") from None

    def wait_for(self, version: int, since: float, within: float = 2.0) -> float:
        """Seconds from ``since`` until ``version`` was announced; the versions before it must
        come in order (AssertionError after ``within`` seconds)."""
        deadline = since + within
        while True:
            try:
                announced, at = self.versions.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"version {version} not announced within "
                                     f"{within} s") from None
            if announced == version:
                assert at - since <= within, at - since
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


def server_sockets_to(port: int, client_port: int) -> list[str]:
    """States (hex, /proc/net/tcp) of the server's sockets on ``port`` that talk to
    ``client_port``: empty once the server has released that connection."""
    states = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            local, remote, state = fields[1], fields[2], fields[3]
            if (int(local.rsplit(":", 1)[1], 16) == port
                    and int(remote.rsplit(":", 1)[1], 16) == client_port):
                states.append(state)
    return states


@contextmanager
def servers_a_and_b(tmp_path: Path, env: dict) -> Iterator[tuple["Server", "Server", list]]:
    """Two ``serve --workers 1 --local`` processes with ``env`` (one database): A migrates
    first, B then finds the schema current. Gives (A, B, a list for the test's streams); the
    streams are closed and the servers stopped afterwards, and a failed assertion carries both
    servers' output."""
    servers: list[Server] = []
    streams: list[EventStream] = []
    try:
        for name in ("a", "b"):
            server = Server(name, tmp_path, ("--workers", "1", "--local"), env)
            servers.append(server)
            server.wait_ready()
        yield servers[0], servers[1], streams
    except AssertionError as failure:
        logs = "\n".join(f"--- server {i} ---\n{s.output()}" for i, s in enumerate(servers))
        raise AssertionError(f"{failure}\n{logs}") from None
    finally:
        for stream in streams:
            stream.close()
        for server in servers:
            server.stop()


def run_on_own_loop(scenario: Callable[[], Coroutine[Any, Any, Any]]) -> None:
    """``asyncio.run(scenario())`` in a thread of its own (Playwright's sync API, used by the
    browser tests in the same session, keeps an event loop running on the main thread); what
    it raises is raised here."""
    import asyncio

    failures: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(scenario())
        except BaseException as failure:     # noqa: BLE001 - re-raised on the test's thread
            failures.append(failure)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(60)
    if failures:
        raise failures[0]
