"""Valley of the Kings through the pages a phone uses (no JavaScript): the open-table form
rendered from the set-up schema, seats joined, every move posted through the page's own forms
(parsed from the HTML, filled by option label as a player would), refusals shown with the
rule, the Scoresheet at the end."""

from __future__ import annotations

import random
import re
from html import unescape

import pytest

from companion import db
from companion.rules.valley import VALLEY
from companion.rules.valley import printed as t
from companion.rules.valley.pyramid import SLOTS
from companion.services import live_tables as live
from tests.factories import seat_token
from tests.rules.test_valley_names import czech_outside_parentheses
from tests.web.valley_forms import forms, move_form

pytestmark = pytest.mark.db

DEALT = {"B1": "Nut (Bohyně Nút)", "B2": "Mirror Case (Pouzdro na zrcadlo)",
         "B3": "Brain Hook (Hák na mozek)", "M1": "Axe (Sekera)", "M2": "Dagger (Dýka)",
         "T": "Sling (Prak)"}


class Phone:
    """One phone at the table: its own cookies (seat), its page, its form posts."""

    def __init__(self, client, table_id: str, seat: int | None = None,
                 language: str = "en"):
        self.client, self.table_id, self.language = client, table_id, language
        if seat is not None:
            assert client.post(f"/tables/{table_id}/seats/{seat}/claim").status_code == 303

    def page(self) -> str:
        response = self.client.get(f"/tables/{self.table_id}",
                                   headers={"Accept-Language": self.language})
        assert response.status_code == 200
        return response.get_data(as_text=True)

    def form(self, move_type: str, card: str | None = None, classes: str | None = None):
        return move_form(self.page(), move_type, card, classes)

    def send(self, data, expect: int = 303):
        response = self.client.post(f"/tables/{self.table_id}/moves", data=data,
                                    headers={"Accept-Language": self.language})
        assert response.status_code == expect, error_of(response.get_data(as_text=True))
        return response.get_data(as_text=True)


def error_of(html: str) -> str:
    found = re.search(r'id="move-error">(.*?)</p>', html, re.S)
    return found.group(1).strip() if found else ""


def open_by_form(client, names=("Ana", "Bo"), start: str = "Player 1", dealt=None,
                 boneyard: str = "Spear (Kopí)", **choose: str) -> str:
    """Open a table through the open-table form as the host would fill it; its id."""
    page = client.get(f"/tables/new/valley?_players={len(names)}").get_data(as_text=True)
    form = next(f for f in forms(page) if "setup.pyramid.B1" in f.selects)
    chosen = {"setup.start_player": start, "setup.boneyard": boneyard,
              **{f"setup.pyramid.{slot}": card for slot, card in (dealt or DEALT).items()},
              **choose}
    names_typed = {f"players__{seat}": name for seat, name in enumerate(names)}
    response = client.post(f"/tables/new/valley?_players={len(names)}",
                           data=form.data(chosen, button="Open the table", **names_typed))
    assert response.status_code == 303, error_of(response.get_data(as_text=True)) or \
        re.findall(r'class="field-error"[^>]*>([^<]*)', response.get_data(as_text=True))
    return response.headers["Location"].split("/")[2]


def state_of(client, table_id: str) -> dict:
    return client.get(f"/api/v1/tables/{table_id}").get_json()["state"]


@pytest.fixture
def table(client):
    """A two-player Afterlife table opened through the form; phones for Ana and Bo."""
    table_id = open_by_form(client)
    app = client.application
    return table_id, Phone(app.test_client(), table_id, 0), Phone(app.test_client(), table_id, 1)


# --------------------------------------------------------------------------------------------
# Opening and what the page shows
# --------------------------------------------------------------------------------------------


def test_opening_enters_the_pool_the_order_and_the_dealt_cards(client):
    page = client.get("/tables/new/valley?_players=3").get_data(as_text=True)
    form = next(f for f in forms(page) if "setup.pyramid.B1" in f.selects)
    labels = form.selects["setup.pyramid.M2"].labels
    assert labels[0] == "A card"            # a choice stands alone: capitalised
    assert "Axe (Sekera)" in labels and "Shabti (Vešebt)" not in labels
    assert "Six players (or a longer game)" in form.selects["options.pool"].labels
    table_id = open_by_form(client, names=("Ana", "Bo", "Cyril"), start="Player 2",
                            dealt={**DEALT, "T": "A card"}, boneyard="A card",
                            **{"options.pool": "Afterlife"})
    state = state_of(client, table_id)
    assert state["names"] == ["Ana", "Bo", "Cyril"] and state["current"] == 1
    assert state["pyramid"] == ["nut", "mirror_case", "brain_hook", "axe", "dagger", "?"]
    assert state["boneyard_top"] == "?" and state["supply"] == 49
    assert state["pool"]["id"] == "afterlife"


def test_five_players_with_a_four_player_pool_are_refused_beside_the_pool(client):
    page = client.get("/tables/new/valley?_players=5").get_data(as_text=True)
    form = next(f for f in forms(page) if "setup.pyramid.B1" in f.selects)
    names = {f"players__{seat}": name for seat, name in enumerate("ABCDE")}
    response = client.post("/tables/new/valley?_players=5", data=form.data(
        {"options.pool": "Afterlife"}, button="Open the table", **names))
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    error = re.search(r'<select[^>]*name="options.pool".*?<p class="field-error"[^>]*>([^<]*)',
                      page, re.S)
    assert error and "need both boxes: choose “Five players”" in error.group(1)


def test_a_six_player_pool_is_chosen_on_the_form(client):
    table_id = open_by_form(client, names=("A", "B", "C", "D", "E", "F"),
                            **{"options.pool": "Six players"})
    state = state_of(client, table_id)
    assert state["pool"]["id"] == "six_players" and state["supply"] == 77      # V18


def test_the_page_draws_the_pyramid_boneyard_supply_and_tombs(table):
    table_id, ana, bo = table
    page = ana.page()
    pyramid = re.search(r'<div class="pyramid".*?</section>', page, re.S).group(0)
    cells = re.findall(r'class="pcard slot-(\w+) ([^"]*)">\s*<span class="slot">\1</span>\s*'
                       r'<span class="name">(.*?)</span>', pyramid)
    assert [(slot, re.sub(r"<[^>]+>", "", name)) for slot, _cls, name in cells] == [
        ("T", "Sling (Prak)"), ("M1", "Axe (Sekera)"), ("M2", "Dagger (Dýka)"),
        ("B1", "Nut (Bohyně Nút)"), ("B2", "Mirror Case (Pouzdro na zrcadlo)"),
        ("B3", "Brain Hook (Hák na mozek)")]
    assert "colour-green" in cells[0][1] and "base" in cells[3][1]
    assert re.search(r'<span class="cost"[^>]*>4</span>', pyramid)          # Nut's cost
    assert '<small class="printed" lang="cs">(Prak)</small>' in pyramid     # a line of its own
    assert "Spear <small" in pyramid and "1 card" in pyramid
    assert re.search(r'class="big-count">49<', pyramid)
    assert 'id="tomb-0"' in page and 'id="tomb-1"' in page and "Your turn" in page
    assert "Your move" not in bo.page()


@pytest.mark.parametrize("language, shown, hidden", [
    ("cs", "Sekera", "(Axe)"), ("en", "Axe (Sekera)", "Sekera (Axe)"),
    ("hu", "Fejsze (Sekera)", "Axe")])
def test_card_titles_in_the_readers_language_then_as_the_cards_print_them(
        table, language, shown, hidden):
    table_id, ana, _bo = table
    ana.language = language
    page = ana.page()
    assert shown in page and hidden not in page


@pytest.mark.parametrize("language", ["en", "hu"])
def test_no_czech_card_or_set_name_outside_the_parentheses_of_the_printed_name(table, language):
    """Issue 20 item 3: an English or Hungarian phone reads its own names, the Czech only
    as the printed name beside them (the board, the buttons, the hints, the tombs)."""
    table_id, ana, bo = table
    for phone in (ana, bo):
        phone.language = language
        words = visible_text(phone.page())
        assert not czech_outside_parentheses(words, language), words
        assert "Sekera)" in words


def test_a_czech_phone_reads_only_czech_card_names(table):
    """The Czech reader of the Czech copy: one name per card, no English beside it."""
    table_id, ana, bo = table
    ana.language = "cs"
    words = visible_text(ana.page())
    english = {x.name_en for x in t.TITLES.values() if x.name_en and x.name_cs
               and x.name_en != x.name_cs} | {s.name_en for s in t.SETS.values()}
    shown = [w for w in english if re.search(rf"(?<!\w){re.escape(w)}(?!\w)", words)]
    assert not shown and "Sekera" in words and "Sekera (" not in words, shown


def visible_text(html: str) -> str:
    """What the page shows: its text and the labels of its options, not its markup."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", "\n", html)))


# --------------------------------------------------------------------------------------------
# A turn through the forms
# --------------------------------------------------------------------------------------------


def test_buy_with_its_payment_and_the_crumble_choice_seal_end_and_refill(client, table):
    table_id, ana, bo = table
    ana.send(ana.form("seal").data({"m.card": "Shabti"}))
    assert state_of(client, table_id)["players"][0]["tomb"] == ["shabti"]
    assert "seal" not in [f.move.get("type") for f in forms(ana.page())]   # once a turn

    buy = ana.form("buy")
    payment = {"m.pay.0.card": "Urn (Nádoba)", "m.pay.1.card": "Box of Food"}
    typed = {"m__pay__0__capital": 1, "m__pay__1__capital": 1, "m__cost": 2}
    # a choice the person can take back: "does not apply" is one of the answers, and the
    # one the form starts on (a refused form comes back ticked as sent: issue 20)
    assert buy.radios["m.drop"][0] == ("", "Does not apply")
    assert set(buy.radios["m.drop"][1:]) == {('"M1"', "M1 · Axe (Sekera)"),
                                         ('"M2"', "M2 · Dagger (Dýka)")}
    version = client.get(f"/api/v1/tables/{table_id}").get_json()["version"]
    refused = ana.send(buy.data(payment, button="Buy B2", **typed), expect=422)
    assert "Two cards could drop into B2: say which one (M1 / M2)." in error_of(refused)
    assert client.get(f"/api/v1/tables/{table_id}").get_json()["version"] == version
    ana.send(buy.data({**payment, "m.drop": "M2"}, button="Buy B2", **typed))
    state = state_of(client, table_id)
    assert state["pyramid"] == ["nut", "dagger", "brain_hook", "axe", "sling", None]   # V4
    assert state["players"][0]["known"]["mirror_case"] == 1 and state["changed"]
    assert state["printed"]["capital"]["urn"] == 1            # typed once, remembered

    end = ana.form("end_turn")
    assert "m.sacrifice.slot" not in end.selects              # the pyramid changed
    ana.send(end.data(button="End the turn"))
    refill = ana.form("refill")
    assert list(refill.selects) == ["m.cards[]"]              # one empty slot: T
    ana.send(refill.data({"m.cards[]": "Senet"}))
    state = state_of(client, table_id)
    assert state["pyramid"][5] == "senet" and state["current"] == 1 and state["supply"] == 48
    page = bo.page()
    assert "Your turn" in page and "Urn (Nádoba) · capital 1" in page


def test_the_rebuild_sacrifice_is_asked_when_and_only_when_the_pyramid_did_not_change(
        client, table):
    table_id, ana, _bo = table
    end = ana.form("end_turn")
    assert end.selects["m.sacrifice.slot"].required
    refused = ana.send(end.data(button="Sacrifice and end the turn"), expect=422)
    assert "sacrifice one of its cards" in error_of(refused)
    ana.send(end.data({"m.sacrifice.slot": "B2", "m.sacrifice.drop": "M1"},
                      button="Sacrifice and end the turn"))
    state = state_of(client, table_id)
    assert state["boneyard_top"] == "mirror_case" and state["boneyard_count"] == 2
    assert state["pyramid"] == ["nut", "axe", "brain_hook", "sling", "dagger", None]
    ana.send(ana.form("refill").data())                       # "a card"
    assert state_of(client, table_id)["pyramid"][5] == "?"


# --------------------------------------------------------------------------------------------
# Actions and their public consequences
# --------------------------------------------------------------------------------------------


def api_move(phone: Phone, move: dict) -> None:
    """``move`` by ``phone``'s seat through the API (what the test does not check on a form)."""
    url = f"/api/v1/tables/{phone.table_id}"
    version = phone.client.get(url).get_json()["version"]
    answer = phone.client.post(f"{url}/moves", json={
        "move": move, "version": version, "idempotency_key": f"api{version}"},
        headers={"Authorization": f"Bearer {seat_token(phone.client, phone.table_id)}"})
    assert answer.status_code == 200, answer.get_data(as_text=True)


def draw(count: int) -> dict:
    """A Shabti played for an action that draws ``count`` cards (shuffling the discard pile
    into a new deck when the deck runs out)."""
    return {"type": "action", "card": "shabti", "effects": [{"kind": "draw", "count": count}]}


def play_opening(ana: Phone, bo: Phone) -> None:
    """Ana buys Nut (cost 4: four starters of capital 1), Bo buys Mirror Case; both refill.
    Each first draws the deck empty, so the end-of-turn draw shuffles the card bought (on the
    discard pile, SEED l.165) into the new deck: it may be in hand next turn."""
    api_move(ana, draw(5))
    buy = ana.form("buy")
    ana.send(buy.data({"m.pay.0.card": "Shabti", "m.pay.1.card": "Urn",
                       "m.pay.2.card": "Box of Food", "m.pay.3.card": "Offering Table"},
                      button="Buy B1", m__pay__0__capital=1, m__pay__1__capital=1,
                      m__pay__2__capital=1, m__pay__3__capital=1))
    ana.send(ana.form("end_turn").data(button="End the turn"))
    ana.send(ana.form("refill").data({"m.cards[]": "Ring (Prsten)"}))
    api_move(bo, draw(5))
    buy = bo.form("buy")
    bo.send(buy.data({"m.pay.0.card": "Shabti", "m.drop": "M2"}, button="Buy B2",
                     m__cost=1))
    bo.send(bo.form("end_turn").data(button="End the turn"))
    bo.send(bo.form("refill").data({"m.cards[]": "Sphinx"}))


def test_nut_mirror_case_and_brain_hook_through_their_forms(client, table):
    table_id, ana, bo = table
    play_opening(ana, bo)
    state = state_of(client, table_id)
    assert state["pyramid"] == ["axe", "dagger", "brain_hook", "sling", "ring", "sphinx"]

    # Nut: Bo may gain the cheapest card (he takes Brain Hook), then Ana the most expensive.
    nut = ana.form("action", "nut")
    ana.send(nut.data({"m.opponent": "Bo", "m.opponent_gain.slot": "B3",
                       "m.gain.slot": "B1"}, m__opponent_gain__cost=1, m__gain__cost=5))
    state = state_of(client, table_id)
    assert state["players"][1]["known"]["brain_hook"] == 1
    assert state["players"][0]["known"]["axe"] == 1 and state["changed"]
    # B3 left: Ring dropped from M2, the Sphinx from T; B1 left: Sling dropped from M1
    assert state["pyramid"] == ["sling", "dagger", "ring", None, "sphinx", None]
    ana.send(ana.form("end_turn").data(button="End the turn"))
    refill = ana.form("refill")
    assert len(refill.selects["m.cards[]"].options) > 1
    ana.send(refill.data({"m.cards[]": "Bow"}))        # M1 is Bow, T (the second) a card
    state = state_of(client, table_id)
    assert state["pyramid"][3] == "bow" and state["pyramid"][5] == "?"

    # Mirror Case: Bo gains Sling; the pyramid crumbles; Mirror Case falls from the top.
    mirror = bo.form("action", "mirror_case")
    bo.send(mirror.data({"m.gain.slot": "B1"}))
    state = state_of(client, table_id)
    assert state["pyramid"] == ["bow", "dagger", "ring", "?", "sphinx", "mirror_case"]
    assert state["players"][1]["known"].get("mirror_case") is None

    # Brain Hook turns up a card: Bo buys it for 2 less. Nut put it on his discard pile: a
    # draw past his deck's six cards shuffles the pile (Brain Hook alone) into a new deck.
    assert "Hák na mozek (Brain Hook)" not in bo.form("seal").selects["m.card"].labels
    api_move(bo, draw(7))
    hook = bo.form("action", "brain_hook")
    bo.send(hook.data({"m.revealed": "Ibex Statuette"}))
    assert state_of(client, table_id)["phase"] == "brain_hook"
    assert "Brain Hook turned up: Ibex Statuette (Soška kozorožce)" in bo.page()
    buy = bo.form("buy")
    assert buy.move == {"type": "buy", "slot": "revealed"}
    bo.send(buy.data({"m.pay.0.card": "Shabti"}, m__cost=3))
    state = state_of(client, table_id)
    assert state["phase"] == "play" and state["players"][1]["known"]["ibex_statuette"] == 1
    assert state["supply"] == 49 - 1 - 1 - 2 - 1          # three refills, Brain Hook


def test_a_card_whose_action_is_unknown_logs_its_effects(client, table):
    table_id, ana, _bo = table
    generic = move_form(ana.page(), "action", classes="action-generic")
    ana.send(generic.data({"m.card": "Shabti", "m.effects.0.kind": "draw cards",
                           "m.effects.1.kind": "seal a pyramid card",
                           "m.effects.1.slot": "T"}, m__effects__0__count=1))
    state = state_of(client, table_id)
    assert state["players"][0]["hand"] == 5 - 1 + 1
    assert state["players"][0]["tomb"] == ["sling"] and state["pyramid"][5] is None
    assert state["played"] == [{"card": "shabti", "use": "action", "out": False}]


def test_a_sealed_card_of_an_unknown_set_asks_for_it(client, table):
    table_id, ana, bo = table
    play_opening(ana, bo)
    ana.send(ana.form("end_turn").data({"m.sacrifice.slot": "T"},
                                       button="Sacrifice and end the turn"))
    ana.send(ana.form("refill").data())
    bo.send(bo.form("end_turn").data({"m.sacrifice.slot": "T"},
                                     button="Sacrifice and end the turn"))
    bo.send(bo.form("refill").data())
    seal = ana.form("seal")
    assert "Nut (Bohyně Nút)" in seal.selects["m.card"].labels
    refused = ana.send(seal.data({"m.card": "Nut"}), expect=422)
    assert "Say which set" in error_of(refused)
    ana.send(seal.data({"m.card": "Nut", "m.set": "Tomb Art"}))
    state = state_of(client, table_id)
    assert state["players"][0]["tomb"] == ["nut"] and state["printed"]["card_set"]["nut"] == \
        "tomb_art"
    assert "Tomb Art (Umění) 1/7" in ana.page()


# --------------------------------------------------------------------------------------------
# The correction window and the end of the game
# --------------------------------------------------------------------------------------------


def test_undo_from_the_page_inside_the_window_and_refused_after_it(client, table):
    table_id, ana, bo = table
    ana.send(ana.form("seal").data({"m.card": "Shabti"}))
    ana.send(ana.form("end_turn").data({"m.sacrifice.slot": "T"},
                                       button="Sacrifice and end the turn"))
    ana.send(ana.form("refill").data())

    def undo(phone: Phone, expect: int):
        page = phone.page()
        form = next(f for f in forms(page) if f.action.endswith("/undo"))
        response = phone.client.post(form.action, data=form.data())
        assert response.status_code == expect
        return response.get_data(as_text=True)

    undo(ana, 303)                                      # the refill, back inside the window
    ana.send(ana.form("refill").data({"m.cards[]": "Senet"}))
    bo.send(bo.form("buy").data({"m.pay.0.card": "Shabti", "m.drop": "M1"},
                                button="Buy B2", m__cost=1, m__pay__0__capital=1))
    undo(bo, 303)                                       # his own card play
    host = Phone(client, table_id)                      # the phone that opened the table
    refused = undo(host, 409)                           # Ana's refill: the window closed
    assert "The rules no longer let this move be taken back." in refused
    assert state_of(client, table_id)["pyramid"][5] == "senet"


def test_the_last_turn_through_the_page_shows_the_scoresheet(client, table):
    table_id, ana, bo = table
    phones = {0: ana, 1: bo}
    tokens = {}
    rng = random.Random(12)
    with client.application.app_context():
        game = live.get_table(db.session(), table_id)
        state = live.state_at(db.session(), game)
    for step in range(3000):
        (seat,) = VALLEY.awaiting(state).seats
        chance = VALLEY.chance(state)
        move = chance.draw(rng) if chance else rng.choice(VALLEY.legal_moves(state, seat))
        after = VALLEY.apply(state, seat, move)
        if VALLEY.is_over(after):
            break
        if seat not in tokens:
            tokens[seat] = seat_token(phones[seat].client, table_id)
        response = client.post(f"/api/v1/tables/{table_id}/moves",
                                headers={"Authorization": f"Bearer {tokens[seat]}"},
                                json={"move": move, "version": step,
                                      "idempotency_key": f"k{step}"})
        assert response.status_code == 200, response.get_data(as_text=True)
        state = after
    else:
        raise AssertionError("the game did not end")
    assert move["type"] == "end_turn" and state["supply"] == 0
    phone = phones[seat]
    end = phone.form("end_turn")
    if move.get("sacrifice"):
        phone.send(end.data({"m.sacrifice.slot": move["sacrifice"]["slot"]},
                            button="Sacrifice and end the turn"))
    else:
        phone.send(end.data(button="End the turn"))
    for other in phones.values():
        page = other.page()
        assert "Final scores" in page and "The game is over." in page
        assert re.search(r"(Winner|Shared win): ", page) and "Your move" not in page
    sheet = VALLEY.score(after).as_dict()
    totals = re.findall(r'<tr class="total"><th scope="row">Total</th>(.*?)</tr>',
                        ana.page(), re.S)[0]
    assert [int(n) for n in re.findall(r">(\d+)<", totals)] == [
        p["total"] for p in sheet["players"]]


# --------------------------------------------------------------------------------------------
# Every clarified action of §8 through its own form
# --------------------------------------------------------------------------------------------

REST = ["sling", "dagger", "serdab", "nut", "brooch"]      # B2 B3 M1 M2 T behind the card


# The card bought lies on Ana's discard pile (SEED l.165, rules.valley.state.DISCARD_PILE_RULE):
# to have it in hand the same turn, she first plays a starter that draws her deck empty and
# discards two, and after buying, one whose draw shuffles the pile into a new deck (she draws
# the cards bought). Neither touches the pyramid; two starters lie on the table.
EMPTY_THE_DECK = {"type": "action", "card": "offering_table", "effects": [
    {"kind": "draw", "count": 5}, {"kind": "discard", "card": "box_of_food"},
    {"kind": "discard", "card": "urn"}]}


def shuffle_and_draw(count: int) -> dict:
    return {"type": "action", "card": "box_of_food",
            "effects": [{"kind": "draw", "count": count}]}


def owning(client, card: str, rest=None, before=(), bought=()):
    """A table where Ana has bought ``card`` (cost 0) from B1 (and made the API moves
    ``bought``), brought them to her hand, then made the API moves ``before``; her phone."""
    opened = client.post("/api/v1/tables", json={
        "game": "valley", "players": ["Ana", "Bo"],
        "setup": {"start_player": 0, "pyramid": dict(zip(SLOTS, [card] + (rest or REST))),
                  "boneyard": "spear"}}).get_json()
    table_id = opened["id"]
    ana = Phone(client.application.test_client(), table_id, 0)
    Phone(client.application.test_client(), table_id, 1)
    token = seat_token(ana.client, table_id)
    for version, move in enumerate([EMPTY_THE_DECK,
                                    {"type": "buy", "slot": "B1", "cost": 0, "pay": []},
                                    *bought, shuffle_and_draw(1 + len(bought)), *before]):
        answer = client.post(f"/api/v1/tables/{table_id}/moves",
                             headers={"Authorization": f"Bearer {token}"},
                             json={"move": move, "version": version,
                                   "idempotency_key": f"o{version}"})
        assert answer.status_code == 200, answer.get_data(as_text=True)
    return table_id, ana


PAY_SHABTI = {"type": "buy", "slot": "B1", "cost": 1, "pay": [{"card": "shabti", "capital": 1}]}

ACTIONS = [
    ("ring", (), {}, {}, lambda s: s["ring"]),
    ("serdab", (), {}, {"m__count": 2}, lambda s: s["players"][0]["aside"] == 2),
    # Sling bought too lies on her discard pile: Antechamber takes it
    ("antechamber", ({"type": "buy", "slot": "B2", "cost": 0, "pay": [], "drop": "M1"},), {},
     {}, lambda s: s["players"][0]["discard"] == 0),
    ("hounds_and_jackals", (PAY_SHABTI,), {"m.return.played": "Shabti (Vešebt)"}, {},
     lambda s: s["played"][2]["out"] and s["players"][0]["hand"] == 7 - 1 + 1 - 1),
    ("victory", (PAY_SHABTI,), {"m.seal.played": "Shabti (Vešebt)"}, {},
     lambda s: s["players"][0]["tomb"] == ["shabti"]),
    ("necklace", (), {"m.seals.0.card": "Shabti", "m.seals.1.card": "Urn"}, {},
     lambda s: s["players"][0]["tomb"] == ["shabti", "urn"]),
    # Dagger bought too lies on top of her discard pile; Bo's pile is empty
    ("offering_chapel", ({"type": "buy", "slot": "B3", "cost": 0, "pay": []},),
     {"m.seals.0.card": "Dagger (Dýka)"}, {}, lambda s: s["players"][0]["tomb"] == ["dagger"]),
    # Axe bought (and drawn) and sealed first: Brooch seals Sling, then sacrifices Axe
    ("brooch", ({"type": "seal", "card": "axe"},),
     {"m.seal.slot": "B2", "m.sacrifice.card": "Axe (Sekera)"}, {},
     lambda s: s["players"][0]["tomb"] == ["sling"] and s["boneyard_top"] == "axe"),
    ("bow", (), {"m.seal.slot": "B2", "m.seal.drop": "M2"}, {},
     lambda s: s["players"][0]["tomb"] == ["sling"] and s["pyramid"][1] == "nut"),
    ("khopesh", (), {"m.gain.slot": "M1"}, {},
     lambda s: s["players"][0]["known"]["brooch"] == 1 and s["pyramid"][3] is None),
    ("dagger", (), {}, {}, lambda s: s["boneyard_count"] == 1),      # fewer than 2 cards
    ("judgement", (), {"m.set_aside.0.card": "Shabti"}, {},
     lambda s: s["boneyard_top"] == "shabti" and s["players"][0]["known"]["spear"] == 1),
    ("senet", (), {"m.opponent": "Bo"}, {},
     lambda s: s["players"][1]["known"]["senet"] == 1 and s["players"][0]["hand"] == 7),
]


@pytest.mark.parametrize("card, before, choose, typed, check", ACTIONS,
                         ids=[a[0] for a in ACTIONS])
def test_each_clarified_action_has_a_form_that_plays_it(client, card, before, choose, typed,
                                                        check):
    brooch = card == "brooch"
    rest = ["sling", "dagger", "axe", "victory", "nut"] if brooch else None
    bought = ({"type": "buy", "slot": "B1", "cost": 0, "pay": []},) if brooch else ()
    table_id, ana = owning(client, card, rest, before, bought)
    form = ana.form("action", card)
    assert form.move == {"type": "action", "card": card}
    ana.send(form.data(choose, **typed))
    state = state_of(client, table_id)
    assert state["played"][-1]["use"] == "action" and check(state), state


# --------------------------------------------------------------------------------------------
# Print from the table
# --------------------------------------------------------------------------------------------


def test_the_tables_print_menu_gives_the_pad_with_its_names_and_the_checklists(client, table):
    table_id, ana, _bo = table
    page = ana.page()
    pad_link = re.search(r'href="(/print/tables/[^"]+/pad\.pdf)"', page).group(1)
    pad = client.get(pad_link, headers={"Accept-Language": "cs"})
    assert pad.status_code == 200 and pad.mimetype == "application/pdf"
    from tests.pdfgen.pdfcheck import text
    words = text(pad.data)
    assert "Ana" in words and "Bo" in words and "Vešebt" in words and "196" in words
    menu = client.get("/print/valley").get_data(as_text=True)
    assert "/print/valley/extras/checklist.pdf" in menu
    checklists = client.get("/print/valley/extras/checklist.pdf?page=letter")
    assert checklists.status_code == 200 and checklists.data.startswith(b"%PDF")


def test_senet_with_the_opponents_axe_reaction_through_its_form(client):
    """Bo answers Senet by discarding Axe instead (§8): Axe goes onto Ana's discard pile and
    every opponent of Bo (Ana) discards her most expensive hand card."""
    opened = client.post("/api/v1/tables", json={
        "game": "valley", "players": ["Ana", "Bo"],
        "setup": {"start_player": 0, "pyramid": dict(zip(SLOTS, [
            "senet", "sling", "dagger", "axe", "nut", "brooch"])), "boneyard": "spear"}}
    ).get_json()
    table_id = opened["id"]
    ana = Phone(client.application.test_client(), table_id, 0)
    bo = Phone(client.application.test_client(), table_id, 1)
    tokens = [seat_token(p.client, table_id) for p in (ana, bo)]
    buy = {"type": "buy", "slot": "B1", "cost": 0, "pay": []}
    # each draws the deck empty first, so the end-of-turn draw shuffles the card bought
    # (on the discard pile, SEED l.165) into the new deck
    for version, (seat, move) in enumerate([(0, EMPTY_THE_DECK), (0, buy),
                                            (0, {"type": "end_turn"}),
                                            (0, {"type": "refill", "cards": ["?"]}),
                                            (1, EMPTY_THE_DECK), (1, buy),
                                            (1, {"type": "end_turn"}),
                                            (1, {"type": "refill", "cards": ["?"]})]):
        answer = client.post(f"/api/v1/tables/{table_id}/moves",
                             headers={"Authorization": f"Bearer {tokens[seat]}"},
                             json={"move": move, "version": version,
                                   "idempotency_key": f"s{version}"})
        assert answer.status_code == 200, answer.get_data(as_text=True)
    before = state_of(client, table_id)
    assert before["players"][1]["known"]["axe"] == 1
    form = ana.form("action", "senet")
    assert "Axe (Sekera)" in form.selects["m.response.card"].labels
    ana.send(form.data({"m.opponent": "Bo", "m.response.card": "Axe",
                        "m.response.reaction": "Axe: every opponent",
                        "m.response.discards[]": "Shabti"}))
    state = state_of(client, table_id)
    assert state["players"][0]["known"]["axe"] == 1 and "axe" not in state["players"][1][
        "known"]
    assert state["players"][1]["known"]["senet"] == 1
    # her last draw shuffled the discard pile into a new deck; Axe and her Vešebt went onto
    # the new pile
    assert before["players"][0]["discard"] == 0 and state["players"][0]["discard"] == 2
