"""A person scores a five-player, three-epoch game of Ra on a phone, in each language."""

from __future__ import annotations

import os
import re

import pytest

from companion.rules.ra.final import score_final
from tests.factories import ra_document, ra_form

pytestmark = [pytest.mark.browser]

SCREENSHOTS = os.environ.get("SCRIBE_SCREENSHOTS")   # a folder, to look at the pages


@pytest.mark.parametrize("locale, save_label, winner_word", [
    ("en-GB", "Save the game", "Winner"),
    ("cs-CZ", "Uložit hru", "Vítěz"),
    ("hu-HU", "Játék mentése", "Győztes"),
])
def test_score_five_player_game_on_a_phone(live_server, phone, locale, save_label, winner_word):
    page = phone(locale)
    page.goto(f"{live_server}/")
    page.click("a[href='/score/ra']")
    add_player = page.locator("button[value=add_player]")
    add_player.click()                        # the form opens with four players; add a fifth
    page.wait_for_selector("input[name='players.4.name']")   # the form comes back re-drawn
    assert page.locator("input[name='players.4.name']").count() == 1

    document = ra_document(players=5)
    for name, value in ra_form(document).items():
        if not name.startswith("_") and value != "0":
            page.fill(f"input[name='{name}']", value)
    # typing a name updates the headings that show it
    assert page.locator("[data-name-of='players.2.name']").first.inner_text() == "Ödön"
    if SCREENSHOTS:
        page.screenshot(path=f"{SCREENSHOTS}/form-{locale}.png", full_page=True)

    page.get_by_role("button", name=save_label).click()
    page.wait_for_url(re.compile(r".*/tables/[\w-]+$"))
    expected = score_final(document)
    banner = page.locator(".winner-banner").inner_text()
    assert winner_word in banner
    for name in expected.winners:
        assert name in banner
    totals = page.locator("tfoot tr.total td").all_inner_texts()
    assert totals == [str(p.total) for p in expected.players]
    if SCREENSHOTS:
        page.screenshot(path=f"{SCREENSHOTS}/table-{locale}.png", full_page=True)

    page.goto(f"{live_server}/games")
    listed = page.locator("ul.games li").first.inner_text()
    for line in expected.players:
        assert f"{line.name} {line.total}" in listed


def test_mistake_is_marked_beside_the_field_and_nothing_is_lost(live_server, phone):
    page = phone()
    page.goto(f"{live_server}/score/ra?_players=3")
    document = ra_document(players=3)
    for name, value in ra_form(document).items():
        if not name.startswith("_") and value != "0":
            page.fill(f"input[name='{name}']", value)
    page.fill("input[name='players.1.suns.0']", "13")        # Ana already holds 13
    page.get_by_role("button", name="Save the game").click()
    error = page.locator("#err-players\\.1\\.suns\\.0")
    assert error.inner_text() == "Sun 13 is already held by another player."
    assert page.input_value("input[name='players.2.epochs.2.niles']") == \
        str(document["players"][2]["epochs"][2]["niles"])
    assert "/score/ra" in page.url
