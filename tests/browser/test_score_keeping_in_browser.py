"""The score form in a phone's browser (issue 10): the error summary leads straight to the
field, a double tap saves one game, and the saving phone corrects and deletes it."""

from __future__ import annotations

import os
import re

import pytest
from playwright.sync_api import expect
from sqlmodel import Session, select

from companion.models import GameTable
from tests.factories import ra_document, ra_form

pytestmark = [pytest.mark.browser]

SCREENSHOTS = os.environ.get("SCRIBE_SCREENSHOTS")   # a folder, to look at the pages


def fill(page, document) -> None:
    for name, value in ra_form(document).items():
        if not name.startswith("_") and value != "0":
            page.fill(f"input[name='{name}']", value)


def tables(app) -> list[GameTable]:
    with Session(app.extensions["scribe.engine"]) as session:
        return list(session.exec(select(GameTable)).all())


def test_the_error_summary_leads_straight_to_the_field(live_server, phone):
    page = phone()
    page.goto(f"{live_server}/score/ra?_players=4")
    fill(page, ra_document(players=4))
    page.fill("input[name='players.3.epochs.2.niles']", "-1")        # far down the page
    page.get_by_role("button", name="Save the game").click()
    summary = page.locator("#error-summary")
    summary.wait_for()
    # the page starts at the summary, which has the focus (a screen reader reads it first)
    assert page.evaluate("document.activeElement.id") == "error-summary"
    assert page.evaluate("window.scrollY") < 400
    link = summary.locator("a[href='#in-players.3.epochs.2.niles']")
    assert "Epoch 3" in link.inner_text() and "This must not be negative." in link.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390     # no sideways
    if SCREENSHOTS:
        page.screenshot(path=f"{SCREENSHOTS}/error-summary.png")
    link.click()
    assert page.evaluate("document.activeElement.name") == "players.3.epochs.2.niles"
    box = page.locator("input[name='players.3.epochs.2.niles']").bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= 844            # in view on the phone
    assert page.evaluate("window.scrollY") > 1500                       # far below the top


def test_a_double_tap_on_save_saves_one_game(live_server, phone, app):
    page = phone()
    page.goto(f"{live_server}/score/ra?_players=3")
    fill(page, ra_document(players=3))
    page.get_by_role("button", name="Save the game").dblclick()
    # The second tap aborts the first tap's navigation (net::ERR_ABORTED), so wait on where
    # the phone lands, not on one navigation.
    expect(page).to_have_url(re.compile(r".*/tables/[\w-]+$"), timeout=30_000)
    page.wait_for_load_state("networkidle")
    saved = tables(app)
    assert len(saved) == 1 and page.url.endswith(f"/tables/{saved[0].id}")
    assert page.get_by_role("link", name="Correct this game").count() == 1


def test_the_saving_phone_corrects_then_deletes_its_game(live_server, phone, app):
    page = phone()
    page.goto(f"{live_server}/score/ra?_players=3")
    fill(page, ra_document(players=3))
    page.get_by_role("button", name="Save the game").click()
    page.wait_for_url(re.compile(r".*/tables/[\w-]+$"))
    table_url = page.url
    if SCREENSHOTS:
        page.screenshot(path=f"{SCREENSHOTS}/saved-game.png", full_page=True)
        page.goto(f"{live_server}/")
        page.screenshot(path=f"{SCREENSHOTS}/my-tables.png", full_page=True)
        page.goto(table_url)
    page.get_by_role("link", name="Correct this game").click()
    assert page.input_value("input[name='players.1.name']") == "Řehoř"
    page.fill("input[name='players.1.name']", "Řehoř Novák")
    page.get_by_role("button", name="Save the correction").click()
    page.wait_for_url(table_url)
    assert "Řehoř Novák" in page.locator("main").inner_text()
    assert "Correction saved." in page.locator(".flash").inner_text()

    page.get_by_role("button", name="Delete this game").click()
    page.get_by_role("button", name="Delete the game").click()
    page.wait_for_url(re.compile(r".*/games$"))
    assert "Game deleted." in page.locator(".flash").inner_text()
    assert tables(app) == []
    # another phone never had the buttons
    stranger = phone()
    stranger.goto(f"{live_server}/games")
    assert stranger.locator("ul.games li").count() == 0
