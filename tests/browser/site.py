"""The site every page sweep visits (tests/browser/test_accessibility.py): the app served on a
local port with data for every page a player or host sees, in Czech, Hungarian and English,
and the 390 px measure (issue 10): a page never scrolls sideways, and no element sticks out
past the right edge unless it sits inside a box that scrolls by itself (a wide table in
``.scroll-x``).

The data is built once, through the app's own pages and API, by one phone (a Flask test
client); its cookies (the tables it opened, sits at or saved, and its group) are then given
to one browser context per language. Games come from the registry: a new game is measured
without touching this file. Not a test module.
"""

from __future__ import annotations

import re

from companion import create_app
from companion import config as configuration
from companion.rules import Capability, all_rulesets
from companion.web import wallet
from tests.browser.conftest import PHONE, serving
from tests.databases import fresh_database_url, redis_url, reset_rate_limits
from tests.factories import ra_document, ra_form
from tests.web.pageforms import forms

WIDTH = PHONE["width"]
LANGUAGES = {"cs": "cs-CZ", "hu": "hu-HU", "en": "en-GB"}
# long real names, the kind that made pages too wide
NAMES = ["Zsófia Szentgyörgyi", "Řehoř Přemyslovský", "Ödön Kovácsné-Hajdú",
         "Magdaléna Nepomucká", "Čeněk Vyšehradský", "Bea", "Cyril"]


def _players(counts) -> int:
    """Five players where the game allows five, else as many as it allows."""
    return 5 if 5 in counts else max(counts)


def _pages() -> list[str]:
    """Every page to measure, as a key the ``site`` fixture turns into a URL."""
    pages = ["home", "my-tables", "join", "score-choose", "play", "api", "sheet",
             "groups-mine", "groups-new", "group-home", "group-ladder", "group-game",
             "group-player", "group-h2h", "group-admin", "group-copies"]
    pages += [f"score-{r.id}" for r in all_rulesets(Capability.SCORE)]
    for ruleset in all_rulesets(Capability.LIVE):
        pages += [f"new-{ruleset.id}", f"seats-{ruleset.id}", f"phone-{ruleset.id}",
                  f"host-{ruleset.id}"]
    pages += [f"copy-{r.id}" for r in all_rulesets() if r.edition]
    pages += [f"print-{r.id}" for r in all_rulesets(Capability.PRINT)]
    return pages


PAGES = _pages()


def build_site(tmp_path_factory, more=None):
    """The app served on a local port, with data for every page; yields (base URL, {page
    key: path}, the phone's cookies). ``more(app, phone, paths)``, if given, adds pages of
    its own (tests/browser/test_accessibility.py) before the cookies are taken."""
    reset_rate_limits(redis_url())
    instance = tmp_path_factory.mktemp("phone-width")
    config = configuration.TestConfig(instance, fresh_database_url(instance))
    config.WTF_CSRF_ENABLED = False
    config.REDIS_URL = redis_url()
    app = create_app(config)
    phone = app.test_client()
    paths = {"home": "/", "my-tables": "/games", "join": "/join", "score-choose": "/score/",
             "play": "/play", "api": "/api", "groups-mine": "/groups",
             "groups-new": "/groups/new"}

    for ruleset in all_rulesets(Capability.SCORE):
        paths[f"score-{ruleset.id}"] = \
            f"/score/{ruleset.id}?_players={_players(ruleset.catalogue.player_counts)}"
    for ruleset in all_rulesets(Capability.PRINT):
        paths[f"print-{ruleset.id}"] = f"/print/{ruleset.id}"

    # live tables: this phone opens each (five players if the form's defaults allow five,
    # else the game's usual number) and sits in the first seat
    for ruleset in all_rulesets(Capability.LIVE):
        for players in (_players(ruleset.catalogue.live_player_counts),
                        ruleset.catalogue.default_players):
            paths[f"new-{ruleset.id}"] = f"/tables/new/{ruleset.id}?_players={players}"
            form = next(f for f in forms(phone.get(paths[f"new-{ruleset.id}"]).get_data(
                as_text=True)) if any(name == "players.0" for name, *_ in f.fields))
            opened = phone.post(f"/tables/new/{ruleset.id}", data=form.values(
                action="open", **{f"players.{i}": NAMES[i] for i in range(players)}))
            if opened.status_code == 303:
                break
        assert opened.status_code == 303, opened.get_data(as_text=True)[:2000]
        table_id = opened.headers["Location"].split("/")[2]
        claimed = phone.post(f"/tables/{table_id}/seats/0/claim")
        assert claimed.status_code == 303, claimed.get_data(as_text=True)[:2000]
        paths[f"seats-{ruleset.id}"] = f"/tables/{table_id}/join"
        paths[f"phone-{ruleset.id}"] = f"/tables/{table_id}"
        paths[f"host-{ruleset.id}"] = f"/tables/{table_id}/host"

    # a group with two saved five-player games
    page = phone.post("/groups/new", data={"name": "Keddi társasjátékosok"})
    assert page.status_code == 200
    group = int(re.search(r'/groups/(\d+)"', page.get_data(as_text=True)).group(1))
    document = ra_document(players=5)
    for player, name in zip(document["players"], NAMES):
        player["name"] = name
    for _ in range(2):
        saved = phone.post(f"/score/{document['game']}", data=ra_form(document) | {
            "action": "save"})
        assert saved.status_code == 303, saved.get_data(as_text=True)[:2000]
        table_id = saved.headers["Location"].split("/")[2]
        added = phone.post(f"/groups/{group}/plays", data={"table": table_id})
        assert added.status_code == 303
    paths["sheet"] = f"/tables/{table_id}"
    home = phone.get(f"/groups/{group}").get_data(as_text=True)
    players = re.findall(rf'/groups/{group}/players/(\d+)"', home)
    assert len(players) >= 2, home
    paths.update({
        "group-home": f"/groups/{group}", "group-ladder": f"/groups/{group}/ladder",
        "group-game": f"/groups/{group}/games/{document['game']}",
        "group-player": f"/groups/{group}/players/{players[0]}",
        "group-h2h": f"/groups/{group}/head-to-head?a={players[0]}&b={players[1]}",
        "group-admin": f"/groups/{group}/admin", "group-copies": f"/groups/{group}/copy"})
    for ruleset in all_rulesets():
        paths[f"copy-{ruleset.id}"] = f"/groups/{group}/copy/{ruleset.id}"

    if more is not None:
        more(app, phone, paths)
    cookies = {name: phone.get_cookie(name).value
               for name in (wallet.TABLES_COOKIE, wallet.GROUPS_COOKIE)}
    with serving(app) as base:
        yield base, paths, cookies
    app.extensions["scribe.engine"].dispose()


# What sticks out: elements whose right edge passes the viewport's, leaving out those inside
# a box that scrolls or clips by itself (overflow-x other than visible, below <body>).
MEASURE = """() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  for (const el of document.body.querySelectorAll('*')) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.right <= width + 0.5) continue;
    let inner = false;
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      if (getComputedStyle(p).overflowX !== 'visible') { inner = true; break; }
    }
    if (inner) continue;
    const name = el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
      (el.className && typeof el.className === 'string'
        ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
    out.push(name + ' right=' + Math.round(box.right) + ' "' +
             (el.textContent || '').trim().slice(0, 40) + '"');
  }
  return {scrollWidth: document.documentElement.scrollWidth, clientWidth: width,
          lang: document.documentElement.lang, sticking: out.slice(0, 8)};
}"""
