"""A phone that loses the network keeps the moves tapped meanwhile and sends each once when it
returns (issue 22: static/offline.js, static/sw.js); Scribe installs as an app."""

from __future__ import annotations

import os

import pytest
from tests.api.livetable import LiveTable

from companion import db
from companion.services import live_tables as live

pytestmark = [pytest.mark.browser]

# The scenario: the Wi-Fi gone for half a minute. The phone's clock is Playwright's, so
# the half minute passes for the page (its reconnect timers fire, its backoff grows) in no time.
OFFLINE_MS = int(float(os.environ.get("SCRIBE_OFFLINE_SECONDS", "30")) * 1000)


def _log(app, table_id: str) -> list:
    with app.app_context():
        session = db.session()
        return live.move_log(session, live.get_table(session, table_id))


def _sit(page, base: str, table_id: str, name: str) -> None:
    page.clock.install()                       # the page's timers run on a clock we can wind
    page.goto(f"{base}/tables/{table_id}/join")
    page.locator("li", has_text=name).get_by_role("button").click()
    page.wait_for_selector(".status-line")
    # the service worker controls the page from its next load on
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null")


def test_a_move_tapped_offline_is_sent_once_when_the_network_returns(app, live_server, phone):
    table = LiveTable(app.test_client(), claim=False)        # Ana, Bea, Cyril; Ana starts
    ana = phone()
    _sit(ana, live_server, table.id, "Ana")
    ana.wait_for_selector(".status-line .your-turn")

    ana.context.set_offline(True)
    ana.wait_for_function("!navigator.onLine")
    ana.clock.fast_forward(OFFLINE_MS)                        # half a minute without Wi-Fi
    ana.locator(".tile-grid button", has_text="Pharaoh").click()
    ana.wait_for_selector(".pending-moves .pending-move")
    assert "Pharaoh" in ana.locator(".pending-moves").inner_text()
    # the phone reloads while still offline: its table comes from the service worker's copy,
    # the waiting move is still there
    ana.reload()
    ana.wait_for_selector(".status-line .your-turn")
    ana.wait_for_selector(".pending-moves .pending-move")
    assert _log(app, table.id) == []                          # nothing reached the server

    ana.context.set_offline(False)
    ana.wait_for_selector(".pending-moves .sent-ok")          # sent, accepted, told
    ana.wait_for_selector(".auction-track li.kind-pharaoh")   # the fresh table
    assert ana.locator(".pending-moves .pending-move").count() == 0
    log = _log(app, table.id)
    assert [(m.seat, m.move) for m in log] == [(0, {"type": "draw", "tile": "pharaoh"})]
    # a later reload sends nothing again
    ana.reload()
    ana.wait_for_selector(".auction-track li.kind-pharaoh")
    assert len(_log(app, table.id)) == 1


def test_a_move_made_stale_offline_is_refused_with_the_fresh_table(app, live_server, phone):
    table = LiveTable(app.test_client(), claim=False)
    table.tokens[0] = table.claim(0).get_json()["seat_token"]     # Ana plays through the API
    bea = phone("cs-CZ")
    _sit(bea, live_server, table.id, "Bea")
    table.ok(0, {"type": "draw", "tile": "gold"})                 # Bea's turn now
    bea.wait_for_selector(".status-line .your-turn")

    bea.context.set_offline(True)
    bea.wait_for_function("!navigator.onLine")
    bea.locator(".tile-grid button", has_text="Faraon").click()   # tapped offline
    bea.wait_for_selector(".pending-moves .pending-move")
    assert table.undo(table.host).status_code == 200              # meanwhile: Ana's turn again

    bea.context.set_offline(False)
    bea.wait_for_selector(".pending-moves .sent-refused")
    assert "Odesláno, ale odmítnuto" in bea.locator(".pending-moves").inner_text()
    assert [m.seat for m in _log(app, table.id)] == [0]           # only Ana's (undone) draw


def test_scribe_installs_as_an_app(live_server, phone):
    page = phone("hu-HU")
    page.goto(live_server)
    manifest = page.evaluate("fetch(document.querySelector('link[rel=manifest]').href)"
                             ".then(r => r.json())")
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    assert {icon["sizes"] for icon in manifest["icons"]} == {"192x192", "512x512"}
    for icon in manifest["icons"]:
        assert page.evaluate(f"fetch('{icon['src']}').then(r => r.status)") == 200
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.context.set_offline(True)
    page.goto(f"{live_server}/groups")          # never opened: the offline page, in Hungarian
    assert page.locator("h1").inner_text() == "Nincs hálózat"
    page.context.set_offline(False)
