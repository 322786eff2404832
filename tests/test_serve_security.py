"""Secrets and limits through the real server (``python -m companion serve``, over sockets on
127.0.0.1 only; issue 21 §5, §6): tokens never reach the access log."""

from __future__ import annotations

import http.client
import time
import urllib.error
import urllib.request

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
