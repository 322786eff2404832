"""The polish a player notices, in a real browser at 390 px (issue 10): the Imhotep market's
drop-downs show their whole labels, typed names head the score form's sections, and dates are
written in the browser's own time zone."""

from __future__ import annotations

import json
import re
import urllib.request
from datetime import datetime, timezone

import pytest

from tests.browser.conftest import PHONE, WAIT_MS, new_page
from tests.groups.builders import Api, finished_table

pytestmark = [pytest.mark.browser]

# The widest label's text, measured in the select's own font, must fit inside the select
# (minus its padding and arrow); the page must not scroll sideways.
FITS = """select => {
  const style = getComputedStyle(select);
  const probe = document.createElement("span");
  probe.style.font = style.font;
  probe.style.whiteSpace = "nowrap";
  probe.style.position = "absolute";
  document.body.appendChild(probe);
  let widest = 0;
  for (const option of select.options) {
    probe.textContent = option.textContent;
    widest = Math.max(widest, probe.getBoundingClientRect().width);
  }
  probe.remove();
  return {widest, room: select.clientWidth - parseFloat(style.paddingLeft)
                        - parseFloat(style.paddingRight) - 16};
}"""
NO_SIDEWAYS = "document.documentElement.scrollWidth <= window.innerWidth"


def _state(base: str, table_id: str) -> dict:
    with urllib.request.urlopen(f"{base}/api/v1/tables/{table_id}") as response:
        return json.loads(response.read())


@pytest.mark.parametrize("locale", ["cs-CZ", "hu-HU"])
def test_imhotep_market_choices_show_their_whole_label(live_server, browser, phone, locale):
    host = new_page(browser, viewport={"width": 1000, "height": 900})
    host.goto(f"{live_server}/tables/new/imhotep")
    host.click("button[value=remove_player]")
    host.click("button[value=remove_player]")
    host.fill("input[name='players.0']", "Ana")
    host.fill("input[name='players.1']", "Bo")
    host.click("button[value=open]")
    host.wait_for_url(re.compile(r".*/tables/[\w-]+/host(\?.*)?$"))
    table_id = host.url.split("/")[-2]
    code = host.locator(".join-card .code").inner_text().strip()
    phones = [phone(locale), phone(locale)]
    for seat, page in enumerate(phones):
        page.goto(f"{live_server}/j/{code}")
        page.locator(f"#seat-{seat + 1} button").click()
        page.wait_for_selector("#live")
    state = _state(live_server, table_id)
    page = phones[state["to_act"]]
    page.reload()
    page.locator(".my-moves .button-grid button").first.click()      # the round card
    page.wait_for_load_state()
    state = _state(live_server, table_id)
    assert state["state"]["phase"] == "market"
    page = phones[state["to_act"]]
    page.reload()
    selects = page.locator(".my-moves select[name='m.cards[]']")
    assert selects.count() >= 2
    for select in selects.all():
        fit = select.evaluate(FITS)
        assert fit["widest"] <= fit["room"], fit
    assert page.evaluate(NO_SIDEWAYS)


def test_typed_names_head_the_new_tables_choices(live_server, phone):
    page = phone("cs-CZ")
    page.goto(f"{live_server}/tables/new/imhotep")
    for seat, name in enumerate(["Zora", "Ödön", "Čeněk", "Bea"]):
        page.fill(f"input[name='players.{seat}']", name)
    options = page.locator("select[name='setup.start_player'] option").all_inner_texts()
    assert options == ["Zora", "Ödön", "Čeněk", "Bea"]
    legends = page.locator("label:has(select[name^='setup.colors']) > span").all_inner_texts()
    assert legends == ["Zora", "Ödön", "Čeněk", "Bea"]


def test_typed_names_head_the_score_forms_sections(live_server, phone):
    page = phone("hu-HU")
    page.goto(f"{live_server}/score/ra")
    names = ["Zora", "Ödön", "Čeněk", "Bea"]
    for seat, name in enumerate(names):
        page.fill(f"input[name='players.{seat}.name']", name)
    for stage in (1, 2, 3):
        legends = page.locator(f"#stage-{stage} legend[data-name-of]").all_inner_texts()
        assert legends == names, legends
    assert page.locator("#end h3").all_inner_texts() == names
    assert page.evaluate(NO_SIDEWAYS)


def test_dates_in_the_browsers_time_zone(app, client, live_server, browser):
    api = Api(client, "Čas")
    api.record(finished_table(app, "ra", [("Ana", 49, 1), ("Bea", 40, 2)],
                              when=datetime(2025, 1, 15, 17, 30, tzinfo=timezone.utc)))
    context = browser.new_context(viewport=PHONE, locale="cs-CZ", timezone_id="Asia/Tokyo")
    context.set_default_timeout(WAIT_MS)
    try:
        page = context.new_page()
        page.goto(f"{live_server}/g/{api.invite}")
        page.goto(f"{live_server}/groups/{api.id}")       # the cookie is set by now
        when = page.locator(".when").first.inner_text()
        assert re.search(r"\b16\. ?0?1\. ?(20)?25,? 2:30", when), when   # 02:30 next day
    finally:
        context.close()


@pytest.mark.parametrize("locale", ["en-GB", "cs-CZ", "hu-HU"])
def test_the_top_menu_is_one_line_at_390_px(live_server, phone, locale):
    """Issue 20 §8: the menu's links share one line in every language on a phone."""
    page = phone(locale=locale)
    page.goto(f"{live_server}/")
    tops = page.eval_on_selector_all(
        "header.top nav a", "links => links.map(a => Math.round(a.getBoundingClientRect().top))")
    assert len(tops) == 4 and len(set(tops)) == 1, tops
    assert page.evaluate(NO_SIDEWAYS)
