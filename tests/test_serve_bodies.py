"""Request bodies through the real server (``python -m companion serve``, over sockets, on
127.0.0.1 only): read on the event loop before a request thread is given, with a size limit
(413, chunked too) and a read timeout (408), so that slow clients cannot hold the workers
(issue 10)."""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.request

import pytest

from tests.liveserver import Server

SILENCE = 3            # REQUEST_BODY_SECONDS of the server under test


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    running = Server("bodies", tmp_path_factory.mktemp("serve-bodies"),
                     env={"REQUEST_BODY_SECONDS": str(SILENCE)})
    try:
        running.wait_ready()
        yield running
    finally:
        running.stop()


def _connect(server: Server) -> socket.socket:
    return socket.create_connection(("127.0.0.1", server.port), timeout=30)


def _head(path: str, headers: dict[str, str], method: str = "POST") -> bytes:
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", *(f"{k}: {v}" for k, v in
                                                               headers.items())]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def _answer(sock: socket.socket) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and body of the response on ``sock`` (Content-Length or until close)."""
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    head, _sep, body = data.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    headers = {k.strip().lower(): v.strip()
               for k, _c, v in (line.partition(":") for line in header_lines)}
    length = int(headers.get("content-length", -1))
    while length < 0 or len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return int(status_line.split()[1]), headers, body


def _send_quietly(sock: socket.socket, data: bytes) -> None:
    """Send what the server may no longer read (it answered already and closes)."""
    try:
        sock.sendall(data)
    except OSError:
        pass


def _get_home(server: Server) -> tuple[int, float]:
    started = time.monotonic()
    try:
        with urllib.request.urlopen(f"{server.base}/", timeout=5) as response:
            response.read()
            status = response.status
    except OSError:
        status = 0                      # timed out: what a stalled server does
    return status, time.monotonic() - started


def test_clients_trickling_bodies_hold_no_worker(server):
    """20 phones send a body one byte every half second (more connections than the server has
    request threads, 2 x 8): the home page still answers within a second, every time."""
    body = json.dumps({"game": "ra", "options": {}, "players": ["Ana", "Bea", "Cyril"]}).encode()
    stop = threading.Event()
    opened = []

    def trickle():
        with _connect(server) as sock:
            sock.sendall(_head("/api/v1/tables", {"Content-Type": "application/json",
                                                  "Content-Length": str(len(body))}))
            opened.append(sock)
            for byte in body[:-1]:          # never the last byte: the body never ends
                if stop.wait(0.5):
                    return
                _send_quietly(sock, bytes([byte]))

    clients = [threading.Thread(target=trickle) for _ in range(20)]
    for client in clients:
        client.start()
    try:
        deadline = time.monotonic() + 5
        while len(opened) < 20 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(opened) == 20
        time.sleep(1.0)                     # every trickling body has begun arriving
        answers = []
        for _ in range(8):
            answers.append(_get_home(server))
            time.sleep(0.25)
        assert all(status == 200 for status, _took in answers), answers
        assert max(took for _status, took in answers) < 1.0, answers
    finally:
        stop.set()
        for client in clients:
            client.join(10)


def test_a_chunked_body_over_the_limit_is_refused_with_413(server):
    """A chunked body (no Content-Length to refuse it by) past MAX_CONTENT_LENGTH (1 MiB):
    413 with the API's JSON error, not 400."""
    chunk = b"x" * 65536
    with _connect(server) as sock:
        sock.sendall(_head("/api/v1/tables", {"Content-Type": "application/json",
                                              "Transfer-Encoding": "chunked"}))
        for _ in range(20):                 # 1.25 MiB
            _send_quietly(sock, b"%x\r\n%s\r\n" % (len(chunk), chunk))
        _send_quietly(sock, b"0\r\n\r\n")
        status, headers, body = _answer(sock)
    assert status == 413
    assert headers["content-type"].startswith("application/json")
    answer = json.loads(body)
    assert answer["error"] == "http_413" and answer["message"]


def test_a_page_gets_a_page_and_a_declared_length_is_refused_unread(server):
    """Content-Length over the limit: 413 before any of the body is sent; on a page, in HTML."""
    with _connect(server) as sock:
        sock.sendall(_head("/join", {"Content-Type": "application/x-www-form-urlencoded",
                                     "Content-Length": str(2 * 1024 * 1024)}))
        started = time.monotonic()
        status, headers, body = _answer(sock)
    assert status == 413 and time.monotonic() - started < 5
    assert headers["content-type"].startswith("text/html")
    assert b"too large" in body


def test_a_body_that_stops_arriving_gets_408(server):
    """Half a body, then silence: 408 once REQUEST_BODY_SECONDS have passed."""
    with _connect(server) as sock:
        sock.sendall(_head("/api/v1/tables", {"Content-Type": "application/json",
                                              "Content-Length": "100"}) + b'{"game": ')
        started = time.monotonic()
        status, _headers, body = _answer(sock)
    took = time.monotonic() - started
    assert status == 408 and json.loads(body)["error"] == "http_408"
    assert SILENCE - 0.5 < took < SILENCE + 5


def test_an_import_may_be_larger_than_other_bodies(server):
    """A BG Stats backup may be up to 5 MB: past the 1 MiB of other bodies, it is imported."""
    status, group = server.call("POST", "/api/v1/groups", {"name": "Big file"})
    assert status == 201, group
    backup = {"players": [{"id": 1, "name": "Ana"}, {"id": 2, "name": "Bea"}],
              "games": [{"id": 10, "name": "Ra", "bggId": 12}],
              "plays": [{"gameRefId": 10, "playDate": "2024-05-01 20:00:00",
                         "playerScores": [{"playerRefId": 1, "score": "30"},
                                          {"playerRefId": 2, "score": "20"}]}]}
    data = json.dumps(backup).encode() + b" " * (3 * 1024 * 1024)     # 3 MiB of it blank
    request = urllib.request.Request(
        f"{server.base}/api/v1/groups/{group['id']}/import/bgstats", data=data, method="POST",
        headers={"Content-Type": "application/json",
                 "Authorization": f"Bearer {group['admin_token']}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 200
        assert json.loads(response.read())["imported"] == 1
