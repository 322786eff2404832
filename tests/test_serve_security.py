"""Secrets and limits through the real server (``python -m companion serve``, over sockets on
127.0.0.1 only; issue 21 §5, §6): tokens never reach the access log."""

from __future__ import annotations

import http.client
import os
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.liveserver import Server


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The README's serve command, as it starts by default: two worker processes."""
    running = Server("security", tmp_path_factory.mktemp("serve-security"),
                     ("--workers", "2", "--local"))
    try:
        running.wait_ready()
        yield running
    finally:
        running.stop()


def _log(server: Server) -> str:
    time.sleep(0.2)                          # the last lines written
    return server.log_path.read_text(errors="replace")


class _Stay(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None                                  # a redirect is the answer itself


_OPENER = urllib.request.build_opener(_Stay)


def _get(server: Server, path: str, headers: dict | None = None) -> int:
    """The status of GET ``path`` (a redirect not followed)."""
    request = urllib.request.Request(f"{server.base}{path}", headers=headers or {})
    try:
        with _OPENER.open(request, timeout=10) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


def test_tokens_never_reach_the_access_log(server):
    status, group = server.call("POST", "/api/v1/groups", {"name": "Club"})
    assert status == 201
    table, seats = server.open_ra_table()
    status, link = server.call("POST", f"/api/v1/tables/{table['id']}/seats/1/rejoin-link",
                               token=table["host_token"])
    assert status == 200, link
    rejoin = link["rejoin_url"].split("/rejoin/")[1]
    secrets = [group["admin_token"], group["invite_token"], table["id"], table["code"],
               rejoin, *seats, table["host_token"]]
    assert _get(server, f"/g/{group['admin_token']}") == 303
    assert _get(server, f"/g/{group['invite_token']}") == 303
    assert _get(server, f"/tables/{table['id']}/rejoin/{rejoin}") == 200
    assert _get(server, f"/j/{table['code']}") == 302
    assert _get(server, f"/tables/{table['id']}/join?seat_token={seats[0]}") == 200
    assert _get(server, f"//tables//{table['id']}//take-host/{table['host_token']}") \
        in (308, 404)
    status, _state = server.call("GET", f"/api/v1/tables/{table['id']}", token=seats[0])
    assert status == 200
    log = _log(server)
    assert '"GET /g/… HTTP/1.1" ' in log, log[-2000:]
    assert '"GET /tables/…/rejoin/… HTTP/1.1" 200' in log
    assert '"GET /tables/…/join?seat_token=… HTTP/1.1" 200' in log
    assert '"POST /api/v1/tables/…/seats/1/claim HTTP/1.1" 200' in log
    for secret in secrets:
        assert secret not in log, (secret, log[-2000:])


def test_a_redirect_never_names_the_host_header(server):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        for path, target in (("/score//ra", "/score/ra"), ("/score", "/score/"),
                             ("//groups//12", "/groups/12")):
            connection.request("GET", path, headers={"Host": "evil.example"})
            answer = connection.getresponse()
            body = answer.read()
            assert answer.status == 308 and answer.getheader("Location") == target
            assert b"evil.example" not in body
    finally:
        connection.close()


def _inode_of(server_port: int, client_port: int) -> str | None:
    """The inode of the server's socket of a connection, from /proc/net/tcp."""
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if (int(fields[1].rsplit(":", 1)[1], 16) == server_port
                and int(fields[2].rsplit(":", 1)[1], 16) == client_port and fields[9] != "0"):
            return fields[9]
    return None


def _workers(master: int) -> list[int]:
    children = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == master:
                children.append(int(entry.name))
    return children


def _worker_of(server: Server, connection: http.client.HTTPConnection) -> int | None:
    """Which worker process accepted ``connection`` (None: not accepted yet)."""
    inode = _inode_of(server.port, connection.sock.getsockname()[1])
    for pid in _workers(server.process.pid):
        try:
            fds = list(Path(f"/proc/{pid}/fd").iterdir())
        except OSError:
            continue
        for fd in fds:
            try:
                if os.readlink(fd) == f"socket:[{inode}]":
                    return pid
            except OSError:
                continue
    return None


def _one_connection_per_worker(server: Server) -> list[http.client.HTTPConnection]:
    """A kept-alive connection to each of the two workers (connections are opened until both
    have accepted one; the others are closed)."""
    chosen: dict[int, http.client.HTTPConnection] = {}
    spare = []
    deadline = time.monotonic() + 20
    while len(chosen) < 2 and time.monotonic() < deadline:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        connection.connect()
        for _ in range(50):
            worker = _worker_of(server, connection)
            if worker is not None:
                break
            time.sleep(0.02)
        if worker is not None and worker not in chosen:
            chosen[worker] = connection
        else:
            spare.append(connection)
    for connection in spare:
        connection.close()
    assert len(chosen) == 2, "the two workers did not both accept a connection"
    return list(chosen.values())


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="needs Linux's /proc")
def test_join_code_guesses_are_limited_across_the_workers(server):
    """The README's 10 wrong codes a minute per device, with the default two workers: five
    guesses on each, and the 11th is refused (each worker counting its own would let 20)."""
    connections = _one_connection_per_worker(server)
    try:
        answers = []
        for guess in range(11):
            connection = connections[guess % 2]
            connection.request("GET", f"/j/ZZZZ{guess:02d}")
            answer = connection.getresponse()
            answer.read()
            answers.append((answer.status, answer.getheader("Retry-After")))
        assert [status for status, _ in answers[:10]] == [404] * 10
        status, retry_after = answers[10]
        assert status == 429 and int(retry_after) > 0
    finally:
        for connection in connections:
            connection.close()
