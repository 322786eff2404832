"""A group is opened in the browser, two plays are recorded, and the ladder changes."""

from __future__ import annotations

import re

import pytest

from tests.factories import ra_document, ra_form

pytestmark = [pytest.mark.browser]


def score_and_save(page, base: str, document: dict) -> None:
    page.goto(f"{base}/score/ra?_players={len(document['players'])}")
    for name, value in ra_form(document).items():
        if not name.startswith("_") and value != "0":
            page.fill(f"input[name='{name}']", value)
    page.click("button[value=save]")
    page.wait_for_url(re.compile(r".*/tables/[\w-]+$"))


def test_group_ladder_changes_after_two_plays(live_server, phone):
    page = phone()
    page.goto(f"{live_server}/groups/new")
    page.fill("input[name=name]", "Úterní hráči")
    page.click("button.primary")
    page.click("text=Go to the group")
    assert page.locator("h1").inner_text() == "Úterní hráči"
    assert page.locator("table.ladder").count() == 0          # nobody rated yet

    first = ra_document(players=3)
    score_and_save(page, live_server, first)
    page.click("form[action*='/plays'] button")
    page.wait_for_url(re.compile(r".*/groups/\d+$"))
    ladder_after_one = page.locator("table.ladder").first.inner_text()
    assert "Ödön" in ladder_after_one

    second = ra_document(players=3)
    for player in second["players"]:           # Ana wins this time: most pharaohs each epoch
        for epoch in player["epochs"]:
            epoch["pharaohs"] = 0
    for epoch in second["players"][0]["epochs"]:
        epoch["pharaohs"] = 5
        epoch["gold"] = 1
    score_and_save(page, live_server, second)
    page.click("form[action*='/plays'] button")
    page.wait_for_url(re.compile(r".*/groups/\d+$"))
    ladder_after_two = page.locator("table.ladder").first.inner_text()
    assert ladder_after_two != ladder_after_one
    assert "2 plays" in page.locator("main").inner_text()
