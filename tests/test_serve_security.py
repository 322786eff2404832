"""Secrets and limits through the real server (``python -m companion serve``, over sockets on
127.0.0.1 only; issue 21 §5, §6): tokens never reach the access log."""

from __future__ import annotations

import urllib.error
import urllib.request

from tests.liveserver import Server


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


def test_tokens_never_reach_the_access_log(tmp_path):
    server = Server("logs", tmp_path, ("--workers", "1", "--local"))
    try:
        server.wait_ready()
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
    finally:
        server.stop()
    log = server.log_path.read_text(errors="replace")
    assert '"GET /g/… HTTP/1.1" ' in log, log[-2000:]
    assert '"GET /tables/…/rejoin/… HTTP/1.1" 200' in log
    assert '"GET /tables/…/join?seat_token=… HTTP/1.1" 200' in log
    assert '"POST /api/v1/tables/…/seats/1/claim HTTP/1.1" 200' in log
    for secret in secrets:
        assert secret not in log, (secret, log[-2000:])
