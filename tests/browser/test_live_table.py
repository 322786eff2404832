"""Two phones at one live Ra table: a move entered on one shows up on the other by itself."""

from __future__ import annotations

import os
import re
import time

import pytest
from tests.browser.conftest import WAIT_MS, new_page

pytestmark = [pytest.mark.browser, pytest.mark.db]

SCREENSHOTS = os.environ.get("SCRIBE_SCREENSHOTS")


def test_two_phones_join_and_follow_each_other(live_server, browser, phone):
    host = new_page(browser, viewport={"width": 1000, "height": 900})
    host.goto(f"{live_server}/play")
    host.click("a[href='/tables/new/ra']")
    host.click("button[value=remove_player]")          # four seats by default; play with three
    for seat, name in enumerate(["Ana", "Řehoř", "Ödön"]):
        host.fill(f"input[name='players.{seat}']", name)
    host.click("button[value=open]")
    host.wait_for_url(re.compile(r".*/tables/[\w-]+/host(\?.*)?$"))
    code = host.locator(".join-card .code").inner_text().strip()
    assert re.fullmatch(r"[2-9A-HJ-NP-Z]{6}", code)
    assert host.locator(".join-card svg").count() == 1
    if SCREENSHOTS:
        host.screenshot(path=f"{SCREENSHOTS}/live-host.png", full_page=True)

    first, second = phone(), phone("cs-CZ")
    assert host.locator("#seat-1 .badge").first.inner_text() == "waiting"
    first.goto(f"{live_server}/j/{code}")
    first.locator("li", has_text="Ana").get_by_role("button").click()
    # the host's screen follows the phones as they join, without a reload
    host.locator("#seat-1 .badge", has_text="joined").wait_for()
    second.goto(f"{live_server}/join")
    second.fill("input[name=code]", code.lower())
    second.click("form[action='/join'] button.primary")
    second.locator("li", has_text="Řehoř").get_by_role("button").click()
    assert "Your turn" in first.locator(".status-line").inner_text()
    assert "Řehoř" not in second.locator(".status-line").inner_text()   # waits for Ana
    # fame tablets lie face down: a phone sees its own fame only
    assert first.locator(".player-card .fame").all_inner_texts() == ["Fame 10"]

    first.locator(".tile-grid button", has_text="Pharaoh").click()   # Ana drew a Pharaoh
    first.wait_for_selector(".auction-track li.kind-pharaoh")
    # the other phone updates by itself (Server-Sent Events), no reload
    second.wait_for_selector(".auction-track li.kind-pharaoh")
    second.wait_for_selector(".status-line .your-turn")
    if SCREENSHOTS:
        second.screenshot(path=f"{SCREENSHOTS}/live-phone-cs.png", full_page=True)

    # Ana undoes her draw; Řehoř's phone follows
    first.get_by_role("button", name="Undo the last move").click()
    second.wait_for_selector(".auction-track li.kind-pharaoh", state="detached")
    assert "Your turn" in first.locator(".status-line").inner_text()


def test_a_phone_whose_stream_drops_says_so_and_catches_up_without_a_reload(
        app, live_server, phone):
    """The server ends every stream (as a restart or a lost Wi-Fi would); while the phones
    are away Ana moves; the watching phone shows "reconnecting…", comes back by itself, and
    its page catches up, without reloading."""
    from tests.api.livetable import LiveTable

    table = LiveTable(app.test_client())                # Ana's moves come through the API
    watcher = phone()
    watcher.goto(f"{live_server}/tables/{table.id}")
    hub = app.extensions["scribe.asgi"].hub
    deadline = time.monotonic() + WAIT_MS / 1000
    while hub.watched < 1:                              # the page is listening
        assert time.monotonic() < deadline, hub.watched
        time.sleep(0.05)
    watcher.evaluate("window.stillTheSamePage = true")

    hub._loop.call_soon_threadsafe(hub.close_all)       # every stream drops
    watcher.wait_for_selector(".live-indicator", state="visible")
    table.ok(0, {"type": "draw", "tile": "pharaoh"})     # Ana's move, made while away

    watcher.wait_for_selector(".auction-track li.kind-pharaoh")
    watcher.wait_for_selector(".live-indicator", state="hidden")
    assert watcher.evaluate("window.stillTheSamePage") is True    # no reload happened


def test_the_host_page_keeps_its_one_time_links_as_phones_join_and_move(live_server, browser,
                                                                       phone):
    """live.js refreshes the host's screen as phones join and move; the host link shown once
    at opening and a rejoin code the host asked for stay on it, and it says whom the table
    awaits."""
    host = new_page(browser, viewport={"width": 1000, "height": 900})
    host.goto(f"{live_server}/tables/new/ra")
    host.click("button[value=remove_player]")
    for seat, name in enumerate(["Ana", "Bo", "Cy"]):
        host.fill(f"input[name='players.{seat}']", name)
    host.click("button[value=open]")
    host.wait_for_url(re.compile(r".*/tables/[\w-]+/host\?opened=1$"))
    host.evaluate("window.stillTheSamePage = true")
    recovery = host.locator("#host-recovery a").get_attribute("href")
    assert "/take-host/" in recovery
    assert host.locator("#awaiting").inner_text().strip() == "Waiting for Ana"
    code = host.locator(".join-card .code").inner_text().strip()

    ana = phone()
    ana.goto(f"{live_server}/j/{code}")
    ana.locator("#seat-1 button").click()
    host.locator("#seat-1 .badge", has_text="joined").wait_for()
    ana.locator(".tile-grid button", has_text="Pharaoh").click()
    host.locator("#awaiting", has_text="Waiting for Bo").wait_for()
    assert host.evaluate("window.stillTheSamePage") is True     # refreshed in place
    assert host.locator("#host-recovery").is_visible()
    assert host.locator("#host-recovery a").get_attribute("href") == recovery

    host.locator("#seat-3 button[value=rejoin]").click()       # a form post: a new page
    host.wait_for_selector("#rejoin-code svg")
    rejoin = host.locator("#rejoin-code a").get_attribute("href")
    assert "/rejoin/" in rejoin and "Cy" in host.locator("#rejoin-code h2").inner_text()
    host.evaluate("window.stillTheSamePage = true")
    bo = phone()
    bo.goto(f"{live_server}/j/{code}")
    bo.locator("#seat-2 button").click()
    host.locator("#seat-2 .badge", has_text="joined").wait_for()
    bo.locator(".tile-grid button", has_text="Gold").click()
    host.locator("#awaiting", has_text="Waiting for Cy").wait_for()
    assert host.evaluate("window.stillTheSamePage") is True
    assert host.locator("#rejoin-code svg").is_visible()
    assert host.locator("#rejoin-code a").get_attribute("href") == rejoin
