"""Silver & Gold – Pyramids on three phones in a real browser (issue 13's "done when").

The host opens the table on the open-table form and lets the app deal; three phones (English,
Czech, Hungarian) join by the code, each keeps 2 of its 4 cards, and then, turn after turn, all
three tap their chambers on the pictures of their cards on the same version of the page and
send them one after another: the phones that have not sent yet are refreshed by the live
updates in between and keep their taps. Nobody ever sees an error. Replacements, refills and
expedition cards are drawn or taken on the phone whose turn it is, to the Scoresheet on every
phone. The first round (every phase, the refill into round 2) and the last three turns are
played on the phones; the turns between are played through the service (the phones follow
them by themselves); the page test with the Flask client plays every turn of a game through
the page forms (tests/web/test_pyramids_pages.py).
Every phone page is checked for horizontal overflow at 390 px; ``PYRAMIDS_SCREENSHOTS=dir``
keeps screenshots of the phone pages to look at.
"""

from __future__ import annotations

import json
import os
import random
import re
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from companion import db
from companion.rules.pyramids import PYRAMIDS
from companion.services import live_tables as live
from tests.browser.conftest import fast_forward, new_page, no_overflow

pytestmark = [pytest.mark.browser]

TURNS = 28                  # 4 rounds of 7
LAST_ON_PHONES = 3          # the turns at the end played on the phones again
SHOTS = os.environ.get("PYRAMIDS_SCREENSHOTS")


def table_state(app, table_id: str) -> tuple[int, dict]:
    with app.app_context():
        table = live.get_table(db.session(), table_id)
        return table.version, live.state_at(db.session(), table)


def at_version(page, version: int) -> None:
    """The phone has followed the table to ``version`` by itself (live updates)."""
    page.wait_for_function(
        "v => Number(document.getElementById('live').dataset.version) >= v",
        arg=version)


def no_error(page) -> None:
    page.wait_for_load_state()
    assert page.locator("#move-error").count() == 0, page.locator("#move-error").inner_text()



def shot(page, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"), full_page=True)


def tap(page, move: dict) -> None:
    """Tap the chambers of a legal move (pattern and extra marks) on the card pictures."""
    for cell in move["cells"] + move.get("extra", []):
        value = json.dumps({"card": cell["card"], "col": cell["col"], "row": cell["row"]})
        page.locator(f"form.pg-marking input[value='{value}']").click()


@pytest.mark.db         # three phones writing at once: PostgreSQL and Redis too (.ci/run)
def test_three_phones_mark_at_once(app, live_server, browser, phone):
    rng = random.Random(11)
    host = new_page(browser, viewport={"width": 1000, "height": 900})
    host.goto(f"{live_server}/tables/new/pyramids")
    host.click("button[value=remove_player]")                      # three players
    for seat, name in enumerate(("Ana", "Bence", "Čeněk")):
        host.fill(f"input[name='players.{seat}']", name)
    host.select_option("select[name='setup.dealer']", '"app"')
    host.click("button[value=open]")
    host.wait_for_url(re.compile(r".*/tables/[\w-]+/host"))
    table_id = host.url.split("/")[-2]
    code = host.locator(".join-card .code").inner_text().strip()

    phones = [phone(), phone("cs-CZ"), phone("hu-HU")]
    for seat, page in enumerate(phones):
        page.goto(f"{live_server}/j/{code}")
        page.locator(f"#seat-{seat + 1} button").click()
        page.wait_for_selector("#live")
        no_overflow(page)

    # the app deals; every phone keeps 2 of its 4 at once
    shot(phones[0], "deal")
    phones[0].locator(".pg-draw button").click()
    no_error(phones[0])
    version, state = table_state(app, table_id)
    for page in phones:
        at_version(page, version)
        page.wait_for_selector("form.pg-keep")
    shot(phones[1], "keep")
    for page in phones:
        boxes = page.locator("form.pg-keep input[type=checkbox]")
        boxes.nth(rng.randrange(2)).check()
        boxes.nth(2 + rng.randrange(2)).check()
    for page in phones:
        page.locator("form.pg-keep button[type=submit]").click()
        no_error(page)
    version, state = table_state(app, table_id)
    assert state["phase"] == "offer"
    at_version(phones[2], version)
    phones[2].locator(".pg-draw button").click()
    no_error(phones[2])

    marked_together = 0
    shown: set[str] = set()
    forwarded = False
    for _step in range(TURNS * 12):
        version, state = table_state(app, table_id)
        if PYRAMIDS.is_over(state):
            break
        if state["round"] == 2 and not forwarded:          # the middle, without the phones
            forwarded = True
            fast_forward(app, table_id, lambda s: (s["round"] - 1) * 7 + s["turn"]
                         > TURNS - LAST_ON_PHONES, seed=11)
            continue
        phase = state["phase"]
        waiting = sorted(PYRAMIDS.awaiting(state).seats)
        if phase == "mark":
            for page in phones:
                at_version(page, version)
            moves = {}
            for seat in waiting:                       # everyone taps on the same version
                page = phones[seat]
                move = rng.choice(PYRAMIDS.legal_moves(state, seat))
                moves[seat] = move
                if move["type"] == "mark":
                    tap(page, move)
                    reading = page.locator(".pg-reading")
                    assert reading.inner_text().strip(), "the taps are read as they come"
            if state["turn"] == 2 and state["round"] == 1:
                for seat in waiting:
                    shot(phones[seat], f"mark-{seat}")
            for seat in waiting:                       # then they send, one after another
                page = phones[seat]
                if moves[seat]["type"] == "pass":
                    page.locator("form:has(input[name=move][value*='\"pass\"']) button").click()
                else:
                    checked = page.locator("form.pg-marking input:checked").count()
                    wanted = len(moves[seat]["cells"]) + len(moves[seat].get("extra", []))
                    assert checked == wanted, "the taps survived the other phones' marks"
                    page.locator("form.pg-marking button.pg-send").click()
                no_error(page)
                no_overflow(page)
            marked_together += len(waiting) == 3
            continue
        seat = waiting[0] if phase != "reveal" else rng.choice(waiting)
        page = phones[seat]
        at_version(page, version)
        if phase not in shown:
            shown.add(phase)
            shot(page, phase)
        if phase == "reveal" and rng.random() < 0.4:
            page.locator(".pg-shape-button").nth(rng.randrange(
                page.locator(".pg-shape-button").count())).click()
        elif phase == "replace" and rng.random() < 0.5:
            page.locator(".pg-take button").first.click()
        else:
            page.locator(".pg-draw button").last.click()
        no_error(page)
        no_overflow(page)
    else:
        raise AssertionError("the turns did not end")

    version, state = table_state(app, table_id)
    assert forwarded and marked_together >= 7 + LAST_ON_PHONES - 1
    assert PYRAMIDS.is_over(state)
    for page in phones:
        at_version(page, version)
        assert page.locator(".sheet").count() == 1
    shot(phones[0], "final")
    marks = sum(len(card.get("cells", ())) for player in state["players"]
                for card in player["open"]) + sum(len(p["completed"]) for p in state["players"])
    assert marks > 0


def test_the_grid_editor_paints_a_card_with_a_tap(app, live_server, phone):
    """Our copy: the palette paints the chambers (the choices stay the form), then saved."""
    page = phone()
    page.goto(f"{live_server}/groups/new")
    page.fill("input[name=name]", "Klub")
    page.click("button[type=submit]")
    page.goto(f"{live_server}/groups")
    group = re.search(r"/groups/(\d+)", page.content()).group(1)
    page.goto(f"{live_server}/groups/{group}/copy/pyramids")
    page.locator("a[href$='/copy/pyramids/card_layouts/0']").click()
    page.fill("input[name='entry.number']", "17")
    page.select_option("select[name='entry.colour']", '"green"')
    grid = ("#.E.#", ".R.X.", ".#S.G", "P..#T", "#.B.#")
    for code in sorted({c for row in grid for c in row} - {"."}):
        page.locator(f".pg-palette button[data-code='{code}']").click()
        for r, row in enumerate(grid):
            for c, here in enumerate(row):
                if here == code:
                    page.locator(".pg-edit").nth(r * 5 + c).click()
    assert page.locator(".pg-edit select").first.is_hidden()        # painting, not choosing
    assert page.locator(".pg-edit.pg-wall").count() == 6
    no_overflow(page)
    shot(page, "editor")
    page.locator("button[value=save]").click()
    page.wait_for_url(re.compile(r".*/copy/pyramids$"))
    assert "Number: 17" in page.content()
    with pytest.raises(urllib.error.HTTPError):       # the file needs the group's cookie
        urllib.request.urlopen(f"{live_server}/groups/{group}/copy/pyramids.json")
    exported = page.evaluate(
        "url => fetch(url).then(r => r.json())", f"/groups/{group}/copy/pyramids.json")
    assert exported["values"]["card_layouts"][0]["grid"] == list(grid)


def test_the_reading_under_the_cards_agrees_with_the_referee(app, live_server, browser, phone):
    """Issue 20: the I3 tapped on a fresh card away from its entrance used to read "The
    pattern fits." (the script matched the shape only) and the referee then refused it. Now
    the page says the referee's own rule before sending, the referee refuses with the same
    words and the taps stay; a marking the referee accepts reads "The pattern fits." and is
    accepted."""
    host = new_page(browser, viewport={"width": 1000, "height": 900})
    host.goto(f"{live_server}/tables/new/pyramids")
    host.click("button[value=remove_player]")
    host.click("button[value=remove_player]")                      # two players
    for seat, name in enumerate(("Ana", "Bence")):
        host.fill(f"input[name='players.{seat}']", name)
    host.click("button[value=open]")
    host.wait_for_url(re.compile(r".*/tables/[\w-]+/host"))
    table_id = host.url.split("/")[-2]
    code = host.locator(".join-card .code").inner_text().strip()
    page = phone()
    page.goto(f"{live_server}/j/{code}")
    page.locator("#seat-1 button").click()
    page.wait_for_selector("#live")
    page.wait_for_load_state()          # measured with the page's styles (a busy run: [0, 0])
    # the count of a shape's cards left stands apart from its name ("3 around a corner ×2")
    gaps = page.evaluate("""() => [...document.querySelectorAll('.pg-shape-button')]
        .filter(b => b.querySelector('.small')).map(b =>
            b.querySelector('.small').getBoundingClientRect().left
            - b.querySelector('.pg-shape-name').getBoundingClientRect().right)""")
    assert gaps and min(gaps) >= 4, gaps
    page.locator("form:has(input[name=move][value*='\"I3\"']) button").click()
    no_error(page)
    _version, state = table_state(app, table_id)
    assert state["phase"] == "mark" and state["shape"] == "I3"
    prompts = PYRAMIDS.prompts(state, 0)
    card = prompts["cards"][0]
    away = next(place for place in card["blocked"] if place["problem"] == "SGP_NO_ENTRANCE")
    cells = [{"card": card["number"], "row": r, "col": c} for r, c in away["cells"]]
    tap(page, {"cells": cells})
    reading = page.locator(".pg-reading")
    rule = "The first marking of a card must include its entrance."
    assert reading.inner_text().strip() == rule
    assert "no" in reading.get_attribute("class").split()
    page.locator("form.pg-marking button.pg-send").click()
    page.wait_for_load_state()
    assert page.locator("#move-error").inner_text().strip() == rule      # the referee agrees
    assert page.locator("form.pg-marking input:checked").count() == 3    # the taps stay
    tap(page, {"cells": cells})                                          # untapped again
    assert reading.inner_text().strip() == "Nothing tapped yet."
    legal = next(m for m in prompts["markings"] if len(m["cells"]) == 3 and not m["extra"])
    tap(page, legal)
    assert reading.inner_text().strip() == "The pattern fits."
    assert "ok" in reading.get_attribute("class").split()
    page.locator("form.pg-marking button.pg-send").click()
    no_error(page)
    _version, state = table_state(app, table_id)
    assert state["marked"][0]
    no_overflow(page)


def test_a_long_colour_name_stays_inside_its_small_card(app, live_server, browser, phone):
    """Playtest (Hungarian): "Narancssárga" ran over the right edge of the small cards of
    the offer. Every card's caption stays inside its frame, in every language."""
    host = new_page(browser, viewport={"width": 1000, "height": 900})
    host.goto(f"{live_server}/tables/new/pyramids")
    host.click("button[value=remove_player]")
    host.click("button[value=remove_player]")
    for seat, name in enumerate(("Ödön", "Zsófia")):
        host.fill(f"input[name='players.{seat}']", name)
    host.click("button[value=open]")
    host.wait_for_url(re.compile(r".*/tables/[\w-]+/host"))
    code = host.locator(".join-card .code").inner_text().strip()
    for locale in ("hu-HU", "cs-CZ", "en-GB"):
        page = phone(locale)
        page.goto(f"{live_server}/j/{code}")
        if locale == "hu-HU":                        # a seat: its own cards, the others'
            page.locator("#seat-1 button").click()
        page.goto(f"{live_server}/tables/{host.url.split('/')[-2]}")
        page.wait_for_selector(".pg-offer .pg-small")
        outside = page.evaluate("""() => [...document.querySelectorAll('figure.pg-card')]
            .flatMap(card => [...card.querySelectorAll('figcaption *')].filter(part => {
                const frame = card.getBoundingClientRect(), box = part.getBoundingClientRect();
                return box.width && (box.right > frame.right - 2 || box.left < frame.left);
            }).map(part => card.dataset.card + ': ' + part.textContent))""")
        assert outside == [], (locale, outside)
        assert page.locator(".pg-offer .pg-orange").count() >= 1
        no_overflow(page)
