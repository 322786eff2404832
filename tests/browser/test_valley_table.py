"""A two-phone Afterlife game of Valley of the Kings, from opening the table to the Scoresheet
(issue 12, "done when"): each phone follows the other by itself, no refusal is ever shown, and
no page overflows a 390 px phone. The opening turns and the last quarter of the supply are
entered through the phones' pages; the turns between are played through the service while
the phones follow (issue 19: the suite's minutes)."""

from __future__ import annotations

import json
import os
import re
import urllib.request

import pytest
from tests.browser.conftest import fast_forward, new_page, no_overflow

pytestmark = [pytest.mark.browser]

SCREENSHOTS = os.environ.get("SCRIBE_SCREENSHOTS")
DEALT = {"B1": "Nut (Bohyně Nút)", "B2": "Dagger (Dýka)", "B3": "Sling (Prak)",
         "M1": "Axe (Sekera)", "M2": "Brooch (Brož)", "T": "Bow (Luk)"}


def table_view(base: str, table_id: str) -> dict:
    with urllib.request.urlopen(f"{base}/api/v1/tables/{table_id}") as response:
        return json.loads(response.read())


class Table:
    """The two phones and what the table says (the API is read, never written)."""

    def __init__(self, base: str, table_id: str, phones: list):
        self.base, self.id, self.phones = base, table_id, phones
        self.moves = 0

    def view(self) -> dict:
        return table_view(self.base, self.id)

    def settle(self) -> dict:
        """Wait until both phones show the table's version (the other one by Server-Sent
        Events, without a reload) and no refusal is shown."""
        view = self.view()
        for page in self.phones:
            page.wait_for_function(
                "v => Number(document.getElementById('live').dataset.version) === v",
                arg=view["version"])
            assert page.locator("#move-error").count() == 0, \
                page.locator("#move-error").inner_text()
        return view

    def submit(self, page, button) -> dict:
        with page.expect_navigation():
            button.click()
        self.moves += 1
        return self.settle()


def open_details(page) -> None:
    """Open every section of the live area as a person does, by tapping its summary: a live
    refresh keeps a section the person opened open (one opened by a script it may close)."""
    closed = page.locator("#live details:not([open]) > summary:visible")
    for _ in range(60):
        if closed.count() == 0:
            return
        closed.first.click()
    raise AssertionError("sections that do not open")



def pay_with(form, row: int, capital_known: bool) -> None:
    """Pay row ``row`` with the first card of the player's own."""
    select = form.locator(f"select[name='m.pay.{row}.card']")
    first = select.locator("optgroup").first.locator("option").first
    select.select_option(value=first.get_attribute("value"))
    if "capital" not in first.inner_text() or not capital_known:
        form.locator(f"input[name='m.pay.{row}.capital']").fill("1")


LATE_SUPPLY = 12     # cards left in the supply when the phones take the game up again


def test_an_afterlife_game_on_two_phones_from_opening_to_the_scoresheet(
        app, live_server, browser, phone, tmp_path):
    shots = SCREENSHOTS or str(tmp_path)
    form_on_a_phone = phone("hu-HU")
    form_on_a_phone.goto(f"{live_server}/tables/new/valley")
    no_overflow(form_on_a_phone)                          # the set-up form of the pyramid
    host = new_page(browser, viewport={"width": 1000, "height": 900})
    host.goto(f"{live_server}/tables/new/valley")
    host.click("button[value=remove_player]")
    host.click("button[value=remove_player]")                  # four seats by default
    host.fill("input[name='players.0']", "Ana")
    host.fill("input[name='players.1']", "Bořivoj")
    for slot, card in DEALT.items():
        host.select_option(f"select[name='setup.pyramid.{slot}']", label=card)
    host.select_option("select[name='setup.boneyard']", label="Spear (Kopí)")
    host.select_option("select[name='options.pool']", label="Afterlife")
    host.click("button[value=open]")
    host.wait_for_url(re.compile(r".*/tables/[\w-]+/host"))
    table_id = host.url.split("/")[-2]
    code = host.locator(".join-card .code").inner_text().strip()

    ana, bo = phone(), phone("cs-CZ")
    for seat, page in enumerate((ana, bo)):
        page.goto(f"{live_server}/j/{code}")
        page.locator(f"#seat-{seat + 1} button").click()
        page.wait_for_selector("#live")
    table = Table(live_server, table_id, [ana, bo])
    table.settle()
    assert "Your turn" in ana.locator(".status-line").inner_text()
    assert ana.locator(".pcard.slot-B1 .name").inner_text() == "Nut\n(Bohyně Nút)"
    assert bo.locator(".pcard.slot-B1 .name").inner_text() == "Bohyně Nút"      # Czech page
    assert bo.locator(".supply .big-count").inner_text() == "49"
    for page in (ana, bo):
        no_overflow(page)
    ana.screenshot(path=f"{shots}/valley-start-en.png", full_page=True)

    # ---- Ana: the free seal, then Nut bought with four starters (cost 4 printed) ----
    open_details(ana)
    seal = ana.locator("form.seal")
    seal.locator("select[name='m.card']").select_option(label="Shabti (Vešebt)")
    table.submit(ana, seal.locator("button[type=submit]"))
    open_details(ana)
    buy = ana.locator("form.buy")
    for row, card in enumerate(("Shabti (Vešebt)", "Urn (Nádoba)", "Box of Food (Truhla s "
                                "jídlem)", "Offering Table (Obětní stůl)")):
        buy.locator(f"select[name='m.pay.{row}.card']").select_option(label=card)
        buy.locator(f"input[name='m.pay.{row}.capital']").fill("1")
    view = table.submit(ana, buy.locator("button", has_text="Buy B1"))
    assert view["state"]["pyramid"][:4] == ["axe", "dagger", "sling", "bow"]   # Axe fell, Bow
    assert bo.locator(".pcard.slot-B1 .name").inner_text() == "Sekera"          # followed
    open_details(ana)
    table.submit(ana, ana.locator("details.end-turn button[type=submit]"))
    refill = ana.locator("form.refill")
    refill.locator("select[name='m.cards[]']").select_option(label="Ring (Prsten)")
    view = table.submit(ana, refill.locator("button[type=submit]"))
    assert view["state"]["pyramid"][5] == "ring" and view["to_act"] == 1

    # ---- Bořivoj (Czech phone): a starter's action he logs by its effect, the rebuild ----
    assert "Jsi na tahu" in bo.locator(".status-line").inner_text() or \
        bo.locator(".status-line .your-turn").count() == 1
    open_details(bo)
    generic = bo.locator("form.action-generic")
    generic.locator("select[name='m.card']").select_option(index=0)
    generic.locator("select[name='m.effects.0.kind']").select_option(value='"draw"')
    generic.locator("input[name='m.effects.0.count']").fill("1")
    table.submit(bo, generic.locator("button[type=submit]"))
    open_details(bo)
    no_overflow(bo)                                       # every form unfolded
    end = bo.locator("details.end-turn form")
    end.locator("select[name='m.sacrifice.slot']").select_option(value='"T"')
    bo.screenshot(path=f"{shots}/valley-rebuild-cs.png", full_page=True)
    table.submit(bo, end.locator("button[type=submit]"))
    view = table.submit(bo, bo.locator("form.refill button[type=submit]"))     # "a card"
    assert view["state"]["boneyard_top"] == "ring" and view["state"]["supply"] == 47

    # ---- Ana: Nut; Bořivoj declines the cheapest card, Ana gains one ----
    # Nut lies on her discard pile since she bought it (SEED l.165) and her deck is empty:
    # a starter's action that draws a card shuffles the pile into a new deck first
    open_details(ana)
    assert ana.locator("form.action-nut").count() == 0
    generic = ana.locator("form.action-generic")
    generic.locator("select[name='m.card']").select_option(index=0)
    generic.locator("select[name='m.effects.0.kind']").select_option(value='"draw"')
    generic.locator("input[name='m.effects.0.count']").fill("1")
    table.submit(ana, generic.locator("button[type=submit]"))
    open_details(ana)
    nut = ana.locator("form.action-nut")
    nut.locator("select[name='m.opponent_gain.slot']").select_option(index=0)   # declines
    nut.locator("select[name='m.gain.slot']").select_option(value='"T"')
    view = table.submit(ana, nut.locator("button[type=submit]"))
    assert view["state"]["players"][0]["known"].get("?") is None
    assert view["state"]["pyramid"][5] is None and view["state"]["changed"]

    # ---- the middle of the game through the service (the phones follow by themselves),
    # to a turn's start with a quarter of the supply left ----
    fast_forward(app, table_id, lambda state: state["supply"] <= LATE_SUPPLY
                 and state["phase"] == "play" and not state["played"]
                 and not state["free_seals"] and not state["changed"], seed=7)
    table.settle()

    # ---- then the game plays on: seals, every base card bought, the pyramid refilled ----
    for _turn in range(60):
        view = table.view()
        if view["status"] == "finished":
            break
        seat = view["to_act"]
        page = table.phones[seat]
        state = view["state"]
        open_details(page)
        if page.locator("form.seal").count():
            # the free seal: the last of the player's own titles (a set card once they have
            # one, their starters before that)
            seal = page.locator("form.seal select[name='m.card']")
            own = [o.get_attribute("value") for o in seal.locator(
                "optgroup").first.locator("option").all()]
            own = [value for value in own if value != '"nut"']   # its set is never said here
            if own:
                seal.select_option(value=own[-1])
                for vp in page.locator("form.seal input[name$='.vp']").all():
                    vp.fill("3")          # a unique artifact's printed VP, the first time
                view = table.submit(page, page.locator("form.seal button[type=submit]"))
                state = view["state"]
        while state["players"][seat]["hand"] and table.phones[seat].locator(
                "form.buy .buy-buttons button").count():
            open_details(page)
            buy = page.locator("form.buy")
            button = buy.locator(".buy-buttons button").first
            if re.search(r"\((\d+)\)$", button.inner_text()):     # a cost printed: keep to 1
                if not button.inner_text().endswith("(1)"):
                    break
            else:
                buy.locator("input[name='m.cost']").fill("1")
            pay_with(buy, 0, capital_known=True)
            if json.loads(button.get_attribute("value")) == "B2" and buy.locator(
                    "input[name='m.drop']").count():
                buy.locator("input[name='m.drop']:not([value=''])").first.check()
            state = table.submit(page, button)["state"]
        open_details(page)
        end = page.locator("details.end-turn form")
        if end.locator("select[name='m.sacrifice.slot']").count():
            end.locator("select[name='m.sacrifice.slot']").select_option(index=1)
            if end.locator("input[name='m.sacrifice.drop']").count():
                end.locator("input[name='m.sacrifice.drop']:not([value=''])").first.check()
        view = table.submit(page, end.locator("button[type=submit]"))
        if view["status"] == "playing" and view["state"]["phase"] == "refill":
            # the cards turned up: set cards named by their titles, the rest "a card"
            refill = page.locator("form.refill")
            for n, select in enumerate(refill.locator("select[name='m.cards[]']").all()):
                titles = [o.get_attribute("value") for group in select.locator(
                    "optgroup").all() if group.get_attribute("label") not in (
                    "Unique artifacts", "Set not known yet") for o in group.locator(
                    "option").all()]
                if n < len(titles):                       # a different title for each slot
                    select.select_option(value=titles[n])
            table.submit(page, refill.locator("button[type=submit]"))
    else:
        raise AssertionError("the game did not end")

    # ---- the end (§9): supply and pyramid empty after a full round; the Scoresheet ----
    view = table.settle()
    assert view["status"] == "finished" and view["state"]["supply"] == 0
    assert view["state"]["pyramid"] == [None] * 6 and view["state"]["current"] == 1
    for page in (ana, bo):
        page.wait_for_selector(".sheet .winner-banner")
        no_overflow(page)
    assert "Final scores" in ana.locator(".sheet h2").inner_text()
    totals = [int(n) for n in ana.locator(".sheet tfoot tr.total td").all_inner_texts()]
    assert totals == [p["total"] for p in view["scores"]["players"]] and sum(totals) > 0
    groups = [c for p in view["scores"]["players"] for c in p["breakdown"]["categories"]
              if c["category"] in ("mummification", "jewelry", "chambers", "weapons",
                                   "tomb_art")]
    assert any(c["points"] for c in groups)                  # set cards in the tombs scored
    assert ana.locator("section.my-moves").count() == 0
    ana.screenshot(path=f"{shots}/valley-end-en.png", full_page=True)
    bo.screenshot(path=f"{shots}/valley-end-cs.png", full_page=True)
    assert table.moves > 15


LONG_NAMES = {"B1": "ibex_statuette", "B2": "hounds_and_jackals", "B3": "tomb_art_5",
              "M1": "offering_chapel", "M2": "judgement", "T": "mirror_case"}


def test_hungarian_names_fit_the_pyramid_on_a_390_px_phone(live_server, browser, phone,
                                                           tmp_path):
    """Issue 20: Valley card names filled the pyramid boxes at 390 px in Hungarian. The
    reader's name, then the printed (Czech) one on a line of its own in smaller type; no
    word runs out of its box and no box grows past five lines."""
    shots = SCREENSHOTS or str(tmp_path)
    host = new_page(browser, viewport={"width": 1000, "height": 900})
    host.goto(f"{live_server}/tables/new/valley")
    host.click("button[value=remove_player]")
    host.click("button[value=remove_player]")
    host.fill("input[name='players.0']", "Ana")
    host.fill("input[name='players.1']", "Bence")
    for slot, card in LONG_NAMES.items():
        host.select_option(f"select[name='setup.pyramid.{slot}']", value=json.dumps(card))
    host.select_option("select[name='setup.boneyard']", value='"spear"')
    host.click("button[value=open]")
    host.wait_for_url(re.compile(r".*/tables/[\w-]+/host"))
    code = host.locator(".join-card .code").inner_text().strip()
    hu = phone("hu-HU")
    hu.goto(f"{live_server}/j/{code}")
    hu.locator("#seat-1 button").click()
    hu.wait_for_selector("#live")
    no_overflow(hu)
    names = hu.locator(".pyramid .pcard .name")
    assert hu.locator(".pcard.slot-B1 .name").inner_text().split("\n") == [
        "Kőszálikecske-szobrocska", "(Soška kozorožce)"]
    assert hu.locator(".pyramid .printed").first.get_attribute("lang") == "cs"
    for n in range(names.count()):
        fits = names.nth(n).evaluate(
            "e => ({wide: e.scrollWidth <= e.clientWidth + 1, lines: Math.round("
            "e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight))})")
        assert fits["wide"] and fits["lines"] <= 5, (names.nth(n).inner_text(), fits)
    hu.locator(".valley-board").screenshot(path=f"{shots}/valley-pyramid-hu-390.png")
