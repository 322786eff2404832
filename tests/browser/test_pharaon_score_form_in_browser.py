"""Pharaon's score form on a 390 px phone (issue 20, item 4): every choice reads whole (no
"Offering" for "Offerings"), the holders follow the names as typed, and the form as it comes
goes through once the names and the gods' numbers are typed."""

from __future__ import annotations

import os

import pytest

pytestmark = [pytest.mark.browser]

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


@pytest.mark.parametrize("locale", ["en-GB", "cs-CZ", "hu-HU"])
def test_a_solo_game_untouched_then_corrected_is_won_then_lost(live_server, phone, locale):
    """One player: the Traitor's part reads whole on a phone; left at its defaults (only the
    player's name and the gods' numbers typed) the game saves and its page says won against
    the Traitor; corrected with his gods ticked, his nobles and the first-player token, lost."""
    page = phone(locale)
    page.goto(f"{live_server}/score/pharaon?_players=1")
    assert page.locator('fieldset#f-traitor input[type="checkbox"]').count() == 5
    assert page.evaluate(CLIPPED) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.input_value('input[name="traitor.name"]') != ""     # "Traitor", translated
    page.fill('input[name="players.0.name"]', "Řehoř")
    for g in range(5):
        for half in ("a", "b"):
            page.fill(f'input[name="board.gods.{g}.{half}.threshold"]', "2")
            page.fill(f'input[name="board.gods.{g}.{half}.points"]', "3")
    page.click('button[name="action"][value="save"]')
    page.wait_for_url("**/tables/*")
    assert page.locator("#error-summary").count() == 0
    assert page.locator(".winner-banner.goal-won").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    if SCREENSHOTS:
        page.screenshot(path=os.path.join(SCREENSHOTS, f"pharaon-solo-won-{locale}.png"),
                        full_page=True)
    page.click('a[href$="/edit"]')
    page.wait_for_selector('input[name="traitor.name"]')
    for g in (1, 3):
        page.check(f'input[type="checkbox"][name="traitor.gods.{g}"]')
    for i, card in enumerate((4, 17, 20)):
        page.fill(f'input[name="traitor.nobles.{i}"]', str(card))
    page.fill('input[name="traitor.multiplier"]', "8")
    page.select_option('select[name="first_player"]', '"traitor"')
    page.click('button[name="action"][value="save"]')
    page.wait_for_url("**/tables/*")
    assert page.locator(".winner-banner.goal-lost").count() == 1
    # 2 gods × (3 + 3) + 3 nobles × 8 + the first-player token 3
    assert page.locator("tr.total td").all_inner_texts() == ["0", "39"]
