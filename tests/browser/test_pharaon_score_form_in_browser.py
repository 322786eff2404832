"""Pharaon's score form on a 390 px phone (issue 20, item 4): every choice reads whole (no
"Offering" for "Offerings"), the holders follow the names as typed, and the form as it comes
goes through once the names and the gods' numbers are typed."""

from __future__ import annotations

import os

import pytest

pytestmark = [pytest.mark.browser, pytest.mark.db]

SCREENSHOTS = os.environ.get("SCRIBE_SCREENSHOTS")

# how much wider a select's chosen text is than the room the select gives it (its arrow and
# padding taken off), for every select of the page
CLIPPED = """() => [...document.querySelectorAll('select')].filter(s => {
    const option = s.options[s.selectedIndex];
    if (!option || !s.offsetParent) return false;
    const style = getComputedStyle(s);
    const ctx = document.createElement('canvas').getContext('2d');
    ctx.font = style.font;
    const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
                 - 16;
    return ctx.measureText(option.text).width > room;
  }).map(s => s.name + ': ' + s.options[s.selectedIndex].text)"""


@pytest.mark.parametrize("locale", ["en-GB", "cs-CZ", "hu-HU"])
def test_the_form_reads_whole_and_goes_through_on_a_phone(live_server, phone, locale):
    page = phone(locale)
    page.goto(f"{live_server}/score/pharaon?_players=3")
    assert page.evaluate(CLIPPED) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for i, name in enumerate(("Ana", "Řehoř", "Ödön")):
        page.fill(f'input[name="players.{i}.name"]', name)
    options = page.eval_on_selector('select[name="pharaoh"]',
                                    "s => [...s.options].map(o => o.text)")
    assert options[1:] == ["Ana", "Řehoř", "Ödön"]
    for g in range(5):
        for half in ("a", "b"):
            page.fill(f'input[name="board.gods.{g}.{half}.threshold"]', "2")
            page.fill(f'input[name="board.gods.{g}.{half}.points"]', "3")
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, f"pharaon-score-{locale}.png"),
                        full_page=True)
    page.click('button[name="action"][value="score"]')
    page.wait_for_selector("#sheet-title")
    assert page.locator("#error-summary").count() == 0
