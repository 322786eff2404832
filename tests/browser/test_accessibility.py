"""Every page a player meets, in Czech, Hungarian and English, fits a 390 px phone (issue 10:
nothing sticks out sideways) and passes axe-core with no serious or critical violation (issue
22 §4); a live table tells a screen reader whose turn it is. One visit per page and language
checks both.

The pages are those of tests/browser/site.py (its ``build_site``: home, play, the open-table
form, seats, phone and host page of each live game, the score forms, a saved sheet, a group's
pages, the print menus, ``/api``…) and, added here, a finished table of each of the five live
games with its story and one replay step, the offline page, and each score form after a
refused post. axe-core is vendored (static/vendor/axe-core, MPL-2.0) and injected by this test
only: no page links it. One browser context per language, its page reused. With
``SCRIBE_SCREENSHOTS=<dir>`` every page is saved there as ``<lang>-<page>.png`` (the whole
page, 390 px wide).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from companion.rules import Capability, all_rulesets
from tests.browser.conftest import PHONE, WAIT_MS
from tests.live_games import finished_live_game
from tests.browser.site import LANGUAGES, MEASURE, PAGES as SITE_PAGES, WIDTH, build_site

pytestmark = [pytest.mark.browser]

AXE = Path(__file__).resolve().parents[2] / "static" / "vendor" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")
# SCRIBE_AXE_REPORT=<file>: every page's violations (any impact) appended there, a JSON line
# per page, for counting them by rule
REPORT = os.environ.get("SCRIBE_AXE_REPORT")
SCREENSHOTS = os.environ.get("SCRIBE_SCREENSHOTS")
LIVE_GAMES = [r.id for r in all_rulesets(Capability.LIVE)]
SCORE_GAMES = [r.id for r in all_rulesets(Capability.SCORE)]
PAGES = (SITE_PAGES + ["offline"]
         + [f"{kind}-{game}" for game in LIVE_GAMES for kind in ("finished", "story", "step")]
         + [f"refused-{game}" for game in SCORE_GAMES])


def _finished_games(app, _phone, paths) -> None:
    """A seeded random game of each live game played to the end (through the live-table
    service, as tests/test_story.py does): its table page, story and a replay step."""
    paths["offline"] = "/offline"
    for game in SCORE_GAMES:
        paths[f"refused-{game}"] = paths[f"score-{game}"]
    for game in LIVE_GAMES:
        table_id, log = finished_live_game(app, game, 3)
        paths[f"finished-{game}"] = f"/tables/{table_id}"
        paths[f"story-{game}"] = f"/tables/{table_id}/story"
        paths[f"step-{game}"] = f"/tables/{table_id}/story/{len(log) // 2}"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    yield from build_site(tmp_path_factory, more=_finished_games)


@pytest.fixture(scope="module")
def pages(site, browser):
    """One phone-sized context per language holding the phone's cookies (the page's
    Content-Security-Policy is bypassed so that the test may inject axe); a page per
    language, reused."""
    base, _paths, cookies = site
    opened = {}

    def page_for(language: str):
        if language not in opened:
            context = browser.new_context(viewport=PHONE, locale=LANGUAGES[language],
                                          is_mobile=True, has_touch=True, bypass_csp=True,
                                          service_workers="block")
            context.set_default_timeout(WAIT_MS)
            context.set_default_navigation_timeout(WAIT_MS)
            context.add_cookies([{"name": name, "value": value, "url": base}
                                 for name, value in cookies.items()])
            opened[language] = context.new_page()
        return opened[language]

    yield page_for
    for page in opened.values():
        page.context.close()


RUN_AXE = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 6).map(n => ({target: n.target.join(' '),
                                          summary: (n.failureSummary || '').slice(0, 300)})),
    count: v.nodes.length}));
}"""


def violations(page) -> list[dict]:
    """axe-core's violations on the page as it stands (axe injected first)."""
    page.add_script_tag(path=str(AXE))
    return page.evaluate(RUN_AXE)


@pytest.mark.parametrize("language", list(LANGUAGES))
@pytest.mark.parametrize("key", PAGES)
def test_page_fits_a_phone_and_has_no_serious_accessibility_violation(site, pages, language,
                                                                       key):
    base, paths, _cookies = site
    page = pages(language)
    response = page.goto(base + paths[key])
    assert response is not None and response.status == 200, (key, paths[key])
    page.wait_for_load_state("load")
    if key.startswith("refused-"):
        # the form sent as it comes (no player named, nothing counted): refused, re-rendered
        # with the messages next to the fields
        with page.expect_navigation():
            page.click("form.score-form button[name=action][value=score]")
        page.wait_for_load_state("load")
        assert page.locator(".field-error, .form-errors").count() > 0, paths[key]
    measured = page.evaluate(MEASURE)
    if SCREENSHOTS:
        Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SCREENSHOTS}/{language}-{key}.png", full_page=True)
    assert measured["lang"] == language                      # the page is in this language
    assert measured["clientWidth"] == WIDTH
    assert measured["scrollWidth"] <= WIDTH, (paths[key], measured)
    assert measured["sticking"] == [], (paths[key], measured)
    # a chart is named by its own title or the page's heading, never "Pygal"
    assert page.evaluate("[...document.querySelectorAll('svg > title')]"
                         ".every(t => t.textContent !== 'Pygal')"), paths[key]
    found = violations(page)
    if REPORT:
        with open(REPORT, "a", encoding="utf-8") as report:
            report.write(json.dumps({"page": key, "language": language, "violations": found},
                                    ensure_ascii=False) + "\n")
    blocking = [v for v in found if v["impact"] in BLOCKING]
    assert blocking == [], f"{paths[key]} ({language}):\n" + json.dumps(
        blocking, indent=1, ensure_ascii=False)


# ---- a live table by screen reader and by keyboard ----------------------------------------

LIVE_REGION = """() => {
  const line = document.querySelector('#live .status-line');
  const region = line && line.closest('[aria-live], [role=status], [role=alert], [role=log]');
  if (!region) return null;
  const implied = {status: 'polite', log: 'polite', alert: 'assertive'}[region.getAttribute('role')];
  return {live: region.getAttribute('aria-live') || implied, text: region.textContent};
}"""


def _watching(app, page, minimum: int = 1) -> None:
    """Wait until ``minimum`` pages listen to the table's live updates."""
    import time

    hub = app.extensions["scribe.asgi"].hub
    deadline = time.monotonic() + WAIT_MS / 1000
    while hub.watched < minimum:
        assert time.monotonic() < deadline, hub.watched
        time.sleep(0.05)


def test_a_live_table_announces_whose_turn_it_is(app, live_server, phone):
    """The status line is a polite live region that another phone's move changes in place
    (the same element, morphed, so a screen reader announces the new text): it then names
    the player the table now awaits."""
    from tests.api.livetable import LiveTable

    table = LiveTable(app.test_client())                 # Ana, Bea, Cyril; Ana starts
    watcher = phone()
    watcher.goto(f"{live_server}/tables/{table.id}")
    region = watcher.evaluate(LIVE_REGION)
    assert region is not None and region["live"] in ("polite", "assertive"), region
    assert "Waiting for Ana" in region["text"], region
    _watching(app, watcher)
    watcher.evaluate("document.querySelector('#live .status-line').keptByTest = true")

    table.ok(0, {"type": "draw", "tile": "pharaoh"})     # Ana's move, from another phone
    watcher.wait_for_function(
        "() => document.querySelector('#live .status-line').textContent.includes('Bea')")
    region = watcher.evaluate(LIVE_REGION)
    assert region is not None and "Waiting for Bea" in region["text"], region
    assert "Ana" not in region["text"]
    # the region itself was kept (a replaced region is not announced)
    assert watcher.evaluate("document.querySelector('#live .status-line').keptByTest") is True


# Every control a finger can use, as tab stops are counted: links, buttons, fields, summaries
# that are shown and enabled (a group of radio buttons is one stop: arrows move inside it).
CONTROLS = """() => {
  const all = document.querySelectorAll(
    'a[href], button, input:not([type=hidden]), select, textarea, summary');
  const shown = new Set();
  const forms = Array.from(document.forms);
  all.forEach((el, i) => {
    el.dataset.control = el.type === 'radio' && el.name
      ? 'radio ' + forms.indexOf(el.form) + ' ' + el.name : String(i);
    const box = el.getBoundingClientRect();
    if (el.disabled || (box.width === 0 && box.height === 0)
        || getComputedStyle(el).visibility === 'hidden') return;
    // inside a closed <details> only its summary shows (and only if that one is shown)
    const inside = el.tagName === 'SUMMARY' ? el.parentElement.parentElement : el;
    if (inside && inside.closest('details:not([open])')) return;
    shown.add(el.dataset.control);
  });
  return [...shown];
}"""

FOCUSED = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const style = getComputedStyle(el);
  return {control: el.dataset.control || null, tag: el.tagName, id: el.id,
          text: (el.textContent || el.value || '').trim().slice(0, 40),
          outline: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2,
          tabindex: el.tabIndex};
}"""


def _tab_stops(page, limit: int = 200) -> list[dict]:
    """Tab from the top of the page until the focus leaves it or comes round again."""
    page.evaluate("document.activeElement && document.activeElement.blur()")
    stops: list[dict] = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED)
        if focused is None or (stops and focused == stops[0]):
            break
        stops.append(focused)
    return stops


def test_a_live_table_works_by_keyboard(app, live_server, phone):
    """From the seat list to a move, by keyboard only: the first Tab offers the skip link,
    which leads into the page's content; every control is a tab stop with a visible focus
    ring and no positive tabindex; Enter claims the seat and Enter on a tile makes the
    move."""
    from tests.api.livetable import LiveTable

    table = LiveTable(app.test_client(), claim=False)
    page = phone()
    page.goto(f"{live_server}/tables/{table.id}/join")
    page.keyboard.press("Tab")
    first = page.evaluate(FOCUSED)
    assert first is not None and first["text"] == "Skip to the main content", first
    assert page.evaluate("document.activeElement.getBoundingClientRect().top") >= 0
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"
    for _ in range(20):                                   # on to Ana's "This is me"
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED)
        if focused and page.evaluate(
                "document.activeElement.closest('li') && "
                "document.activeElement.closest('li').textContent.includes('Ana')"):
            break
    assert focused["tag"] == "BUTTON" and focused["outline"], focused
    with page.expect_navigation():
        page.keyboard.press("Enter")
    page.wait_for_selector(".status-line .your-turn")

    controls = page.evaluate(CONTROLS)
    stops = _tab_stops(page)
    assert all(stop["outline"] for stop in stops), [s for s in stops if not s["outline"]]
    assert all(stop["tabindex"] <= 0 for stop in stops), stops
    missed = set(controls) - {stop["control"] for stop in stops}
    assert not missed, page.evaluate(
        "ids => ids.map(i => document.querySelector(`[data-control='${i}']`).outerHTML"
        ".slice(0, 120))", sorted(missed))

    _watching(app, page)
    for _ in range(len(stops) + 2):                       # Tab to the Pharaoh tile, Enter
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.closest('.tile-grid') && "
                         "document.activeElement.textContent.includes('Pharaoh')"):
            break
    page.keyboard.press("Enter")
    page.wait_for_selector(".auction-track li.kind-pharaoh")
    assert "Waiting for Bea" in page.locator(".status-line").inner_text()


@pytest.mark.parametrize("key", [f"{kind}-{game}" for game in LIVE_GAMES
                                 for kind in ("phone", "host")])
def test_every_control_of_a_live_page_is_a_tab_stop_with_a_visible_ring(site, pages, key):
    """The seat's page and the host's page of each live game, by keyboard: every shown
    control is reached by Tab, shows where the focus is, and no tabindex reorders them."""
    base, paths, _cookies = site
    page = pages("en")
    page.goto(base + paths[key])
    page.wait_for_load_state("load")
    controls = page.evaluate(CONTROLS)
    stops = _tab_stops(page, limit=len(controls) + 10)
    assert stops and stops[0]["text"] == "Skip to the main content", stops[:1]
    assert [s for s in stops if not s["outline"] or s["tabindex"] > 0] == []
    missed = set(controls) - {stop["control"] for stop in stops}
    assert not missed, page.evaluate(
        "ids => ids.map(i => document.querySelector(`[data-control='${i}']`).outerHTML"
        ".slice(0, 160))", sorted(missed))[:4]
