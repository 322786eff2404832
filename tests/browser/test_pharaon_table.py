"""Pharaon on phones in a real browser (issue 14): a 3-player table opened, joined by code on
three phones and played from opening to the Scoresheet; a solo game against the Traitor on one
phone, his turns shown step by step, to the Scoresheet with his line flagged. Every page is
checked for horizontal overflow at 390 px. ``SCRIBE_SCREENSHOTS=dir`` keeps screenshots.

The players click what a person would: the app's draw, the starting pick as offered, an
area's form with the payment the engine proposed, a pyramid reward, pass. The first round
(the draws, the starting picks, the turns, the round's end) and the end (the printed values
entered, the Scoresheet) are played on the phones; the turns of rounds 2 to 5 are played
through the service while the phones follow by themselves (issue 19: seconds, not a minute;
tests/web/test_pharaon_pages.py plays whole games through the page forms).
"""

from __future__ import annotations

import json
import os
import random
import re
import urllib.request

import pytest

from companion.rules.pharaon import PHARAON
from tests.browser.conftest import fast_forward, new_page, no_overflow

pytestmark = [pytest.mark.browser]

SCREENSHOTS = os.environ.get("SCRIBE_SCREENSHOTS")
_SHOTS: set[str] = set()


@pytest.fixture(autouse=True)
def seeded_app_draws(monkeypatch):
    from companion.services import live_tables as service
    monkeypatch.setattr(service, "_DRAWS", random.Random(2019))


def table(base: str, table_id: str) -> dict:
    with urllib.request.urlopen(f"{base}/api/v1/tables/{table_id}") as response:
        return json.loads(response.read())


def open_table(browser, base: str, names: list[str], **checks) -> tuple[str, str]:
    host = new_page(browser, viewport={"width": 1000, "height": 900})
    host.goto(f"{base}/tables/new/pharaon?_players={len(names)}")
    for seat, name in enumerate(names):
        host.fill(f"input[name='players.{seat}']", name)
    for name in checks:
        host.check(f"input[type=checkbox][name='{name}']")
    host.click("button[value=open]")
    host.wait_for_url(re.compile(r".*/tables/[\w-]+/host"))
    table_id = host.url.split("/")[-2]
    code = host.locator(".join-card .code").inner_text().strip()
    host.close()
    return table_id, code


def join(base: str, code: str, phones: list) -> None:
    for seat, page in enumerate(phones):
        page.goto(f"{base}/j/{code}")
        page.locator(f"#seat-{seat + 1} button").click()
        page.wait_for_selector("#live")



def shot(page, name: str) -> None:
    if SCREENSHOTS:
        page.screenshot(path=f"{SCREENSHOTS}/pharaon-{name}.png", full_page=True)


def act(page, phase: str, rng: random.Random) -> None:
    """One input on the awaited phone, as a person would make it."""
    moves = page.locator(".my-moves")
    if phase.startswith("draw_"):
        moves.locator(".draw-form button").click()
    elif phase == "start_pick":
        moves.locator("#form-start button[type=submit]").click()
    elif phase == "turn":
        rewards = moves.locator("form[id^='form-step-'] button[type=submit]")
        if rewards.count():
            rewards.nth(rng.randrange(rewards.count())).click()
            return
        usable = [area for area in ("OFF", "NOB", "ART")
                  if moves.locator(f"#form-act-{area}").count()
                  and not moves.locator(f"#act-{area} > summary .cost-hint.warn").count()]
        if usable and rng.random() < 0.75:
            area = rng.choice(usable)
            moves.locator(f"#act-{area} > summary").click()
            if f"open-{area}" not in _SHOTS:        # the payment form as a player sees it
                _SHOTS.add(f"open-{area}")
                no_overflow(page)
                if SCREENSHOTS:
                    moves.locator(f"#act-{area}").screenshot(
                        path=f"{SCREENSHOTS}/pharaon-open-{area}.png")
            moves.locator(f"#form-act-{area} button[type=submit]").click()
        else:
            moves.locator("#form-pass button[type=submit]").click()
    elif phase == "general":
        moves.locator("form[id^='form-step-'] button[type=submit]").first.click()
    elif phase == "jar_gain":
        moves.locator("#form-jar-gain-keep button[type=submit]").click()
    elif phase == "noble_effect":
        moves.locator("#form-noble-effect button[type=submit]").click()
    elif phase.startswith("traitor_"):
        moves.locator("form[id^='form-traitor'] button[type=submit]").first.click()
    elif phase == "values":
        for field in moves.locator("input[type=number]").all():
            field.fill(str(rng.randint(1, 4)))
        moves.locator("#form-values button[type=submit]").click()
    else:
        raise AssertionError(phase)


def play_to_the_end(app, base: str, table_id: str, phones: list, rng: random.Random,
                    seen: dict) -> dict:
    """Round 1 and the end on the phones, the turns between without them."""
    for _step in range(800):
        view = table(base, table_id)
        if view["status"] == "finished":
            return view
        if view["state"]["round"] > 1 and view["state"]["phase"] == "play":
            fast_forward(app, table_id, lambda state: state["phase"] != "play", seed=_step)
            continue
        seat = view["to_act"]
        page = phones[seat]
        page.wait_for_function(
            "v => Number(document.getElementById('live').dataset.version) >= v",
            arg=view["version"])        # the phone followed the table by itself
        phase = PHARAON.ui.phase_of(view["state"])
        if phase not in seen:
            seen[phase] = True
            no_overflow(page)
            shot(page, f"{len(phones)}p-{phase}")
        act(page, phase, rng)
        page.wait_for_load_state()
        error = page.locator("#move-error")       # a form taken as the page offers it
        assert error.count() == 0, (phase, error.inner_text())
    raise AssertionError("the game did not end")


def test_three_players_on_phones_from_opening_to_the_scoresheet(app, live_server, browser,
                                                                 phone):
    table_id, code = open_table(browser, live_server, ["Ana", "Řehoř", "Ödön"])
    phones = [phone(), phone("cs-CZ"), phone("hu-HU")]
    join(live_server, code, phones)
    seen: dict = {}
    final = play_to_the_end(app, live_server, table_id, phones, random.Random(3), seen)
    assert {"draw_jars", "start_pick", "turn"} <= set(seen)
    sheet = final["scores"]
    assert sheet["complete"] and [p["name"] for p in sheet["players"]] == ["Ana", "Řehoř",
                                                                            "Ödön"]
    for page in phones:
        page.wait_for_selector(".sheet")       # every phone shows the result
        page.wait_for_selector(".gods-claimed")
        no_overflow(page)
    shot(phones[0], "3p-scoresheet")
    shot(phones[2], "3p-scoresheet-hu")


def test_a_solo_game_against_the_traitor_on_a_phone(app, live_server, browser, phone):
    table_id, code = open_table(browser, live_server, ["Kateřina"],
                                **{"setup.traitor_draw": True, "setup.traitor_starts": True})
    phones = [phone("cs-CZ")]
    join(live_server, code, phones)
    page = phones[0]
    seen: dict = {}
    rng = random.Random(5)
    for _step in range(200):                    # until the Traitor has made a turn
        view = table(live_server, table_id)
        if view["state"]["traitor_log"] and PHARAON.ui.phase_of(view["state"]) == "turn":
            break
        phase = PHARAON.ui.phase_of(view["state"])
        page.wait_for_function(
            "v => Number(document.getElementById('live').dataset.version) >= v",
            arg=view["version"])
        act(page, phase, rng)
        page.wait_for_load_state()
    log = page.locator(".traitor-log li")
    assert log.count() >= 3
    assert re.search(r"\d", log.first.inner_text())
    no_overflow(page)
    shot(page, "solo-traitor-turn")
    final = play_to_the_end(app, live_server, table_id, phones, rng, seen)
    human, traitor = final["scores"]["players"]
    assert traitor["automated"] and not human.get("automated")
    page.wait_for_selector(".sheet small.automated")
    assert page.locator(".gods-claimed li").count() == 2
    no_overflow(page)
    shot(page, "solo-scoresheet")
