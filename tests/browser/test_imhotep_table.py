"""A round of Imhotep on two phones, with a market pick made on the other player's phone."""

from __future__ import annotations

import json
import re
import urllib.request

import pytest
from tests.browser.conftest import new_page

pytestmark = [pytest.mark.browser]


def table_state(base: str, table_id: str) -> dict:
    with urllib.request.urlopen(f"{base}/api/v1/tables/{table_id}") as response:
        return json.loads(response.read())


def test_a_round_on_two_phones(live_server, browser, phone):
    host = new_page(browser, viewport={"width": 1000, "height": 900})
    host.goto(f"{live_server}/tables/new/imhotep")
    host.click("button[value=remove_player]")
    host.click("button[value=remove_player]")            # two players
    host.fill("input[name='players.0']", "Ana")
    host.fill("input[name='players.1']", "Bo")
    host.select_option("select[name='setup.colors.1']", '"brown"')
    host.click("button[value=open]")
    host.wait_for_url(re.compile(r".*/tables/[\w-]+/host(\?.*)?$"))
    table_id = host.url.split("/")[-2]
    code = host.locator(".join-card .code").inner_text().strip()

    phones = [phone(), phone("hu-HU")]
    for seat, page in enumerate(phones):
        page.goto(f"{live_server}/j/{code}")
        page.locator(f"#seat-{seat + 1} button").click()
        page.wait_for_selector("#live")

    picks_by_other_phone = 0
    for _step in range(200):
        state = table_state(live_server, table_id)
        if state["state"]["round"] == 2:
            break
        seat = state["to_act"]
        page = phones[seat]
        page.wait_for_function(
            "v => Number(document.getElementById('live').dataset.version) === v",
            arg=state["version"])     # the phone followed the table by itself
        moves = page.locator(".my-moves")
        phase = state["state"]["phase"]
        if phase == "round_card":
            moves.locator(".button-grid button").first.click()
        elif phase == "market":
            for select in moves.locator("select[name='m.cards[]']").all():
                select.select_option(label="Statue" if seat == 0 else "Szobor")
            moves.locator("form button.primary").click()
        elif phase == "choice":
            sailor = state["state"]["last_sailor"]
            picks_by_other_phone += seat != sailor
            moves.locator(".button-grid button").first.click()
        else:
            sail = moves.locator("button[name='m.site'][value='\"market\"']")
            if sail.count():
                sail.first.click()
            elif moves.locator("button[name='m.site']").count():
                moves.locator("button[name='m.site']").first.click()
            elif moves.locator(".slot-button").count():
                moves.locator(".slot-button").first.click()
            else:
                moves.locator("form button").first.click()
        page.wait_for_load_state()
        assert page.locator("#move-error").count() == 0, page.locator("#move-error").inner_text()
    else:
        raise AssertionError("the round did not end")
    assert picks_by_other_phone >= 1
    final = table_state(live_server, table_id)["state"]
    assert final["round"] == 2 and sum(final["cards"][0].values()) + \
        sum(final["cards"][1].values()) >= 1
