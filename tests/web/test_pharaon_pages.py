"""Pharaon through the pages a phone uses (issue 14): the table opened through the open-table
form rendered from the set-up schema, seats joined, whole games played from opening to the
Scoresheet with the page's own forms only (no JSON boxes) — a 3-player game and a solo game
against the Traitor —, refusals shown beside the form that caused them, the Traitor's turns
shown step by step, and the Scoresheet with the gods chosen and the Traitor flagged."""

from __future__ import annotations

import json
import random
import re

import pytest

from companion.models import Move
from companion.rules.pharaon import PHARAON
from companion.rules.pharaon.prompts import pay_rows
from tests.web.pharaon_phone import PagePlayer, forms_of, j

pytestmark = pytest.mark.db


@pytest.fixture(autouse=True)
def seeded_app_draws(monkeypatch):
    """The app's draws come from a seeded generator here, so each game is the same game."""
    from companion.services import live_tables as service
    monkeypatch.setattr(service, "_DRAWS", random.Random(2019))

NAMES = ["Ana", "Bořek", "Győző", "Dana", "Emil"]


def open_through_form(client, players: int, **chosen) -> str:
    """Open a table with the open-table form as a host would fill it; returns its id."""
    html = client.get(f"/tables/new/pharaon?_players={players}").get_data(as_text=True)
    form = next(f for f in forms_of(html) if "setup.areas.0" in f.names())
    names = {f"players.{i}": NAMES[i] for i in range(players)}
    response = client.post(f"/tables/new/pharaon?_players={players}",
                           data=form.data(**names, **chosen, action="open"))
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    return response.headers["Location"].split("/")[2]


def join(client, table_id: str, players: int) -> list:
    phones = []
    for seat in range(players):
        phone = client.application.test_client()
        assert phone.post(f"/tables/{table_id}/seats/{seat}/claim").status_code == 303
        phones.append(phone)
    return phones


def text_of(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_the_open_table_form_is_the_set_up_schema(client):
    html = client.get("/tables/new/pharaon?_players=1").get_data(as_text=True)
    form = next(f for f in forms_of(html) if "setup.areas.0" in f.names())
    names = form.names()
    for i in range(5):
        assert {f"setup.areas.{i}", f"setup.entry_colours.{i}", f"setup.traitor_order.{i}",
                f"setup.traitor_sides.{i}", f"setup.traitor_colours.{i}",
                f"setup.gods.{i}.name"} <= names
    assert {"setup.traitor_draw", "setup.traitor_starts", "setup.direction",
            "options.traitor_dark_tiles"} <= names
    three = forms_of(client.get("/tables/new/pharaon?_players=3").get_data(as_text=True))
    assert not any("setup.traitor_order.0" in f.names() for f in three)


def test_a_three_player_game_from_opening_to_the_scoresheet(client):
    table_id = open_through_form(client, 3, **{
        "setup.direction": j("ccw"), "setup.first_player": "1",
        "setup.entry_colours.0": j("RED"), "setup.entry_colours.3": j("BLK")})
    phones = join(client, table_id, 3)
    player = PagePlayer(client, table_id, phones, random.Random(14))
    view = player.table()
    assert view["state"]["board"]["direction"] == "ccw" and view["state"]["first_player"] == 1
    assert view["state"]["board"]["entry_colours"][:4] == ["RED", "YEL", "GRN", "BLK"]
    final = player.play()
    sheet = final["scores"]
    assert sheet["complete"] and [p["name"] for p in sheet["players"]] == NAMES[:3]
    # every kind of input was made through a form of the page
    used = set(player.used)
    for label in ("start_pick", "pass", "act-OFF", "act-NOB", "act-ART", "built:NIL",
                  "built:TMB", "values", "app_draw:draw_jars", "enter:draw_jars",
                  "enter:draw_nobles", "enter:draw_artisans", "enter:draw_offerings",
                  "exchange", "noble_effect"):
        assert label in used or any(u.startswith(label) for u in used), (label, used)
    assert any(u.startswith("step-") for u in used)
    assert not [r for r in player.refusals if not r[0].startswith(("built:", "act-"))], \
        player.refusals
    page = player.page(phones[0])
    text = text_of(page)
    assert "Final scores" in text and "Gods claimed" in text
    for line in sheet["players"]:
        assert line["name"] in text
        gods = line["breakdown"]["categories"][0]
        assert gods["category"] == "gods"
        if gods["detail"].get("gods"):
            assert ", ".join(f"God {god}" if god.isdigit() else god      # unnamed: its number
                             for god in gods["detail"]["gods"]) in text
    assert "played by the app" not in text            # no automated line without a Traitor


def test_a_solo_game_against_the_traitor_from_opening_to_the_scoresheet(client):
    table_id = open_through_form(client, 1, **{
        "setup.traitor_draw": "1", "setup.traitor_starts": "1",
        "options.traitor_dark_tiles": "2",
        "options.traitor_pyramid_reward": j("human_picks")})
    phones = join(client, table_id, 1)
    player = PagePlayer(client, table_id, phones, random.Random(7), app_draws=0.6)
    state = player.table()["state"]
    assert PHARAON.ui.phase_of(state) == "draw_traitor_tiles"
    assert state["traitor_board"]["sides"] == ["light", "light", "light", "dark", "dark"]
    # the Traitor's tiles and colours: the order typed in, the colours drawn by the app
    page = player.page(phones[0])
    tiles = next(f for f in forms_of(page) if f.id == "form-draw")
    order = [3, 1, 5, 2, 4]
    assert player.submit(phones[0], tiles, "tiles",
                         **{f"m.order.{i}": str(n) for i, n in enumerate(order)})
    draw = next(f for f in forms_of(player.page(phones[0])) if "draw-form" in f.cls)
    assert player.submit(phones[0], draw, "colours")
    board = player.table()["state"]["traitor_board"]
    assert board["tiles"] == [n - 1 for n in order] and sorted(board["colours"]) == sorted(
        PHARAON.ui.printed.BASIC)

    # play on until the Traitor has had a turn; his turn is on the page, step by step
    seen_log = False
    for _ in range(400):
        view = player.table()
        log = view["state"]["traitor_log"]
        if log and log[-1]["event"] in ("column", "wheel", "pass", "step"):
            text = text_of(player.page(phones[0]))
            assert "Traitor's last turn" in text and "He flips his top jar" in text
            assert re.search(r"He puts \w+ on column \d", text)
            seen_log = True
            break
        state = view["state"]
        phase = PHARAON.ui.phase_of(state)
        forms = forms_of(player.page(phones[0]))
        if not player.act(phones[0], 0, state, phase, forms):
            player.fallback(phones[0], 0, phase, forms)
    assert seen_log
    final = player.play()
    sheet = final["scores"]
    assert sheet["complete"] and len(sheet["players"]) == 2
    human, traitor = sheet["players"]
    assert human["name"] == NAMES[0] and not human.get("automated")
    assert traitor["automated"] and traitor["name"] == "Traitor"
    assert traitor["breakdown"]["categories"][1]["reason"] == "traitor_rule"
    assert {"traitor_board", "traitor_colours", "tiles", "colours"} <= set(player.used)
    page = player.page(phones[0])
    text = text_of(page)
    assert "Final scores" in text and "the Traitor, played by the app" in text
    # on the Scoresheet his column says he is the app's, not a seat
    assert re.search(r'<th scope="col"[^>]*>Traitor<small class="automated">played by the '
                     r'app</small></th>', page)
    assert not re.search(r'<th scope="col"[^>]*>%s<small' % NAMES[0], page)
    assert not [r for r in player.refusals if not r[0].startswith(("built:", "act-"))], \
        player.refusals


def _turn_page(client, players: int = 3):
    """A table at its first turn (the start entered through the page), and its phones."""
    table_id = open_through_form(client, players)
    phones = join(client, table_id, players)
    player = PagePlayer(client, table_id, phones, random.Random(3), app_draws=1.0)
    for _ in range(60):
        view = player.table()
        if PHARAON.ui.phase_of(view["state"]) == "turn":
            return player, view
        seat = view["to_act"]
        forms = forms_of(player.page(phones[seat]))
        assert player.act(phones[seat], seat, view["state"], PHARAON.ui.phase_of(view["state"]),
                          forms)
    raise AssertionError("no turn")


def test_the_payment_is_proposed_and_a_wrong_one_is_refused_beside_its_form(client,
                                                                            count_rows):
    player, view = _turn_page(client)
    seat = view["to_act"]
    phone = player.phones[seat]
    html = player.page(phone)
    state = view["state"]
    # an action whose cost leaves units to pay after the entry's deduction
    candidates = [("form-act-ART", "ART", {}), ("form-act-NOB", "NOB", {}),
                  ("form-act-OFF-bonus", "OFF", {"bonus": True})]
    form_id, area, kwargs = next(
        c for c in candidates if (PHARAON.ui.propose(state, seat, c[1], **c[2]) or {}).get("pay"))
    form = next(f for f in forms_of(html) if f.id == form_id)
    proposal = PHARAON.ui.propose(state, seat, area, **kwargs)
    selected = [json.loads(v) for v, _t, s in form.control("m.entry").options if s]
    assert selected == [proposal["entry"]]
    rows = [c.name for c in form.controls if c.name.startswith("m.pay.")]
    assert len(rows) == pay_rows(state, seat, area, **kwargs)
    for i, name in enumerate(rows):
        chosen = [json.loads(v) for v, _t, s in form.control(name).options if s]
        assert chosen == ([proposal["pay"][i]] if i < len(proposal["pay"]) else [])
    text = text_of(html)
    assert "The wheel this round" in text and "Pyramid of Time" in text
    moves = count_rows(Move)
    # a payment one unit short: refused, the rule beside its form, nothing recorded
    response = phone.post(form.action, data=form.data(**{rows[0]: ""}))
    assert response.status_code == 422
    refused = response.get_data(as_text=True)
    beside = re.search(r'id="%s".*?class="form-errors beside"[^>]*>([^<]+)<' % form_id,
                       refused, re.S)
    assert beside and "The action cost is not met" in beside.group(1)
    assert re.search(r'<details class="area-action" id="act-%s" open' % area, refused)
    assert count_rows(Move) == moves and player.table()["version"] == view["version"]
    # the proposal as filled in is accepted
    assert player.submit(phone, form, form_id)
    assert count_rows(Move) == moves + 1


def test_the_builder_proposes_a_payment_for_a_declared_nile_cost(client):
    player, view = _turn_page(client)
    seat = view["to_act"]
    phone = player.phones[seat]
    html = player.page(phone)
    assert 'id="form-act-NIL"' not in html                 # no cost declared yet
    entry = next(r["colour"] for r in view["state"]["table"]["areas"] if r["area"] == "NIL")
    cost = [entry, next(k for k in PHARAON.ui.printed.BASIC if k != entry)]
    page = player.page(phone, f"?area=NIL&nile_cost={j(cost[0])}&nile_cost={j(cost[1])}")
    form = next(f for f in forms_of(page) if f.id == "form-act-NIL")
    assert [c.value for c in form.controls if c.name.startswith("m.nile.cost.")] == [
        j(k) for k in cost]
    proposal = PHARAON.ui.propose(view["state"], seat, "NIL", cost=cost)
    if proposal is not None:
        selected = [json.loads(v) for v, _t, s in form.control("m.entry").options if s]
        assert selected == [proposal["entry"]]
    assert re.search(r'<details class="area-action" id="act-NIL" open', page)


def test_a_watcher_sees_the_board_but_no_forms(client):
    player, view = _turn_page(client)
    watcher = client.application.test_client()
    html = watcher.get(f"/tables/{player.table_id}").get_data(as_text=True)
    assert "you are watching" in html and "Your move" not in html
    assert not [f for f in forms_of(html) if f.id.startswith("form-")]
    assert "The wheel this round" in html


def to_the_values_step(client) -> tuple[list, PagePlayer, dict]:
    """A two-player game played on the pages to the step after round 5 where the gods and
    tomb points are entered: (phones, player, the table's view)."""
    table_id = open_through_form(client, 2)
    phones = join(client, table_id, 2)
    player = PagePlayer(client, table_id, phones, random.Random(5), app_draws=1.0,
                        pass_rate=0.5)
    for _ in range(3000):
        view = player.table()
        state = view["state"]
        if PHARAON.ui.phase_of(state) == "values":
            return phones, player, view
        seat = view["to_act"]
        forms = forms_of(player.page(phones[seat]))
        if not player.act(phones[seat], seat, state, PHARAON.ui.phase_of(state), forms):
            player.fallback(phones[seat], seat, PHARAON.ui.phase_of(state), forms)
    raise AssertionError("no values step")


def test_the_values_step_after_round_five(client):
    """Gods and tomb points not entered: after round 5 any seat enters them on the page."""
    phones, player, view = to_the_values_step(client)
    assert view["awaiting"] == [0, 1]
    html = player.page(phones[1])
    form = next(f for f in forms_of(html) if f.id == "form-values")
    assert {f"m.gods.{g}.a.threshold" for g in range(5)} <= form.names()
    # a god half left blank is refused beside the form
    response = phones[1].post(form.action, data=form.data())
    assert response.status_code == 422
    assert 'class="form-errors beside"' in response.get_data(as_text=True)
    assert player.values(phones[1], form)
    final = player.table()
    assert final["status"] == "finished" and final["scores"]["complete"]


def test_the_tables_printouts(client):
    """The table's pad carries its names and its QR code; the aids print for the game."""
    from tests.pdfgen.pdfcheck import HAVE_DECODER, page_sizes, qr_texts, text
    table_id = open_through_form(client, 3)
    pad = client.get(f"/print/tables/{table_id}/pad.pdf?sheets=1")
    assert pad.status_code == 200 and pad.mimetype == "application/pdf"
    words = " ".join(text(pad.data).split())
    assert all(name in words for name in NAMES[:3]) and "Gods claimed" in words
    if HAVE_DECODER:
        assert qr_texts(pad.data)[0].endswith(f"/tables/{table_id}")
    aids = client.get("/print/pharaon/aids.pdf?page=letter")
    assert aids.status_code == 200 and page_sizes(aids.data)[0] == (612.0, 792.0)
    assert "the 26 nobles" in text(aids.data, 0) and "Traitor" in text(aids.data, 1)
    menu = client.get("/print/pharaon").get_data(as_text=True)
    assert "aids.pdf" in menu


def test_the_api_docs_list_every_pharaon_move(client):
    from companion.rules.pharaon.state import MoveKind
    html = client.get("/api").get_data(as_text=True)
    section = html[html.index('id="pharaon"'):]
    assert "Pharaon: the final-state document" in section
    for kind in MoveKind:
        assert f"<code>{kind.value}</code>" in section, kind


def advance(player: PagePlayer, seat: int, until, rng: random.Random, limit: int = 2000):
    """Reach a state quickly: the referee's legal moves (passing last), posted as the page's
    forms post them (the move's JSON, its version), until ``until(state)``."""
    phone = player.phones[seat]
    for _ in range(limit):
        view = player.table()
        state = view["state"]
        if until(state):
            return state
        chance = PHARAON.chance(state)
        if PHARAON.ui.phase_of(state) == "start_pick":     # the drawn nobles: on its page only
            seat_phone = player.phones[view["to_act"]]
            assert player.act(seat_phone, view["to_act"], state, "start_pick",
                              forms_of(player.page(seat_phone)))
            continue
        if chance is not None:
            move = chance.draw(rng)
        else:
            moves = PHARAON.legal_moves(state, view["to_act"])
            move = rng.choice([m for m in moves if m["type"] != "pass"] or moves)
        response = player.phones[view["to_act"]].post(
            f"/tables/{player.table_id}/moves",
            data={"move": json.dumps(move), "version": view["version"],
                  "idempotency_key": f"advance-{view['version']}"})
        assert response.status_code == 303, (move, re.findall(
            r'id="move-error">([^<]*)<', response.get_data(as_text=True)))
    raise AssertionError("not reached")


def test_the_traitors_reward_is_the_humans_pick_on_the_page(client):
    table_id = open_through_form(client, 1, **{
        "setup.traitor_starts": "1", "options.traitor_pyramid_reward": j("human_picks")})
    phones = join(client, table_id, 1)
    player = PagePlayer(client, table_id, phones, random.Random(1))
    state = advance(player, 0, lambda s: PHARAON.ui.phase_of(s) == "traitor_reward",
                    random.Random(4))
    choices = state["pending"][0]["choices"]
    forms = [f for f in forms_of(player.page(phones[0])) if f.id.startswith(
        "form-traitor-reward-")]
    assert sorted(f.id[len("form-traitor-reward-"):] for f in forms) == sorted(choices)
    form = forms[0]
    chosen = {"m.kind": j("GRN")} if "m.kind" in form.names() else {}
    assert player.submit(phones[0], form, "traitor_reward", **chosen)
    log = [e for e in player.table()["state"]["traitor_log"] if e["event"] == "step"]
    assert log[-1]["chosen"] and log[-1]["reward"] == form.id[len("form-traitor-reward-"):]
    text = text_of(player.page(phones[0]))
    assert "Pyramid step to space" in text and "You chose it." in text


def test_the_general_diplomat_and_teacher_through_the_page(client):
    """Starting nobles entered as drawn: seat 0 keeps the General, seat 1 the Diplomat, seat 2
    the Teacher; then each passes and makes the noble's choice on the page."""
    table_id = open_through_form(client, 3)
    phones = join(client, table_id, 3)
    player = PagePlayer(client, table_id, phones, random.Random(2), app_draws=1.0)
    drawn = {2: (19, 8), 1: (20, 9), 0: (6, 7)}           # the picks go 2, 1, 0 (§3.2 step 8)
    keep = {0: 6, 1: 20, 2: 19}
    for _ in range(40):
        view = player.table()
        state, seat = view["state"], view["to_act"]
        phase = PHARAON.ui.phase_of(state)
        if phase == "turn":
            break
        forms = forms_of(player.page(phones[seat]))
        head = state["pending"][0]
        if phase == "draw_nobles" and head["to"] == "start":
            form = next(f for f in forms if f.id == "form-draw")
            assert player.submit(phones[seat], form, "start-draw", **{
                "m.cards.0": str(drawn[seat][0]), "m.cards.1": str(drawn[seat][1])})
        elif phase == "start_pick":
            form = next(f for f in forms if f.id == "form-start")
            assert player.submit(phones[seat], form, "start_pick",
                                 **{"m.noble": str(keep[seat])})
        else:
            assert player.act(phones[seat], seat, state, phase, forms)
    assert [p["nobles"] for p in player.table()["state"]["players"]] == [[6], [20], [19]]
    # seat 0 passes (others still play): the General may step at once, or not
    pass_form = next(f for f in forms_of(player.page(phones[0])) if f.id == "form-pass")
    assert player.submit(phones[0], pass_form, "pass")
    forms = forms_of(player.page(phones[0]))
    assert any(f.id.startswith("form-step-") for f in forms)
    assert player.submit(phones[0], next(f for f in forms if f.id == "form-skip"), "skip")
    assert player.table()["state"]["players"][0]["space"] == 0
    # seat 1 passes with a jar: the Diplomat's 3 tokens instead
    before = dict(player.table()["state"]["players"][1]["res"])
    pass_form = next(f for f in forms_of(player.page(phones[1])) if f.id == "form-pass")
    assert player.submit(phones[1], pass_form, "pass")
    form = next(f for f in forms_of(player.page(phones[1])) if f.id == "form-jar-gain-diplomat")
    assert player.submit(phones[1], form, "diplomat", **{
        "m.diplomat.0": j("BLU"), "m.diplomat.1": j("BLU"), "m.diplomat.2": j("RED")})
    after = player.table()["state"]["players"][1]["res"]
    assert after["BLU"] == before["BLU"] + 2 and after["RED"] == before["RED"] + 1
    # seat 2 passes last with the last jar: the Teacher's extra token
    before = dict(player.table()["state"]["players"][2]["res"])
    jar = player.table()["state"]["jar_display"][0]
    pass_form = next(f for f in forms_of(player.page(phones[2])) if f.id == "form-pass")
    assert player.submit(phones[2], pass_form, "pass")
    form = next(f for f in forms_of(player.page(phones[2])) if f.id == "form-jar-gain-teacher")
    assert player.submit(phones[2], form, "teacher", **{"m.teacher": j("YEL")})
    state = player.table()["state"]
    gained = {k: state["players"][2]["res"][k] - before[k] for k in before}
    expected = {k: jar.count(k) + (k == "YEL") for k in before}
    assert gained == expected


def test_a_summary_warns_only_when_the_tokens_cannot_pay(client):
    player, view = _turn_page(client)
    seat = view["to_act"]
    html = player.page(player.phones[seat])
    state = view["state"]
    for area in ("OFF", "NOB", "ART", "NIL", "TMB"):
        summary = re.search(r'<details class="area-action[^"]*" id="act-%s".*?</summary>' % area,
                            html, re.S).group(0)
        warned = "cannot pay for this now" in summary
        # the default copy prints no Nile actions and no tomb costs: they are declared
        expected = area in ("OFF", "NOB", "ART") and PHARAON.ui.propose(state, seat, area) is None
        assert warned == expected, area


def test_a_gain_the_bank_cannot_pay_is_shown_on_every_phone(client):
    """§2.2, Q17: a gain cut by an empty bank leaves PH_W_BANK_SHORT in the state; the page
    says who received how many tokens of which kind less (here a copy whose bank holds 3
    of each kind: the starting jars already empty it)."""
    table_id = open_through_form(client, 3, edition=json.dumps({"bank_size": 3}))
    phones = join(client, table_id, 3)
    player = PagePlayer(client, table_id, phones, random.Random(3), app_draws=1.0)
    for _ in range(60):
        view = player.table()
        if PHARAON.ui.phase_of(view["state"]) == "turn":
            break
        seat = view["to_act"]
        assert player.act(phones[seat], seat, view["state"], PHARAON.ui.phase_of(view["state"]),
                          forms_of(player.page(phones[seat])))
    warnings = [w for w in view["state"]["warnings"] if w["code"] == "PH_W_BANK_SHORT"]
    assert warnings
    labels = PHARAON.ui.printed.KIND_LABELS
    watcher = client.application.test_client()
    for phone in (phones[0], watcher):
        html = player.page(phone) if phone is not watcher else watcher.get(
            f"/tables/{table_id}").get_data(as_text=True)
        section = re.search(r'<section class="referee-notes" id="bank-short".*?</section>',
                            html, re.S)
        assert section, "no bank-short notes on the page"
        text = text_of(section.group(0))
        for w in warnings:
            line = (f"{NAMES[w['actor']]} received {w['short']} {labels[w['kind']]} "
                    f"token{'s' if w['short'] > 1 else ''} less than due")
            assert line in text, (line, text)
        assert text.count("less than due") == len(warnings)


def test_no_bank_notes_while_the_bank_pays(client):
    player, view = _turn_page(client)
    assert view["state"]["warnings"] == []
    html = player.page(player.phones[view["to_act"]])
    assert 'id="bank-short"' not in html and "The bank ran short" not in html


@pytest.mark.parametrize("language, scribe", [("cs", "Písař"), ("hu", "Írnok")])
def test_the_scribe_noble_is_named_in_the_readers_language(client, language, scribe):
    """Playtest (issue 20): "Scribe" was one msgid for the app's name and Pharaon's scribe
    nobles, so the Hungarian aids listed nobles 1-5 as "Scribe" (English) above "Písař"."""
    from tests.pdfgen.pdfcheck import text
    aids = client.get("/print/pharaon/aids.pdf", headers={"Accept-Language": language})
    lines = text(aids.data, 0).split("\n")
    assert scribe in lines and "Scribe" not in lines
    home = client.get("/", headers={"Accept-Language": language}).get_data(as_text=True)
    assert "<h1>Scribe</h1>" in home                      # the app's own name stays


def test_gods_left_unnamed_are_named_in_each_readers_language(client):
    """Issue 20's done-when (a four-phone game in cs and hu): a Czech phone entered the
    values with the gods' names untouched, and the Hungarian phones read "Bůh 2" on the board
    and in the gods claimed. An unnamed god is its number, named "God 2" by each reader."""
    phones, player, _view = to_the_values_step(client)
    phones[1].set_cookie("lang", "cs")
    form = next(f for f in forms_of(player.page(phones[1])) if f.id == "form-values")
    for g in range(5):
        assert form.data()[f"m.gods.{g}.name"] == ""            # untouched: no words in it
    assert player.values(phones[1], form)
    assert player.table()["status"] == "finished"
    words = {}
    for language in ("cs", "hu", "en"):
        phones[0].set_cookie("lang", language)
        words[language] = text_of(player.page(phones[0]))
    assert "Bůh 2" in words["cs"] and "2. isten" in words["hu"] and "God 2" in words["en"]
    assert "Bůh" not in words["hu"] and "Bůh" not in words["en"]
    claimed = [c for p in player.table()["scores"]["players"]
               for c in p["breakdown"]["categories"] if c["category"] == "gods"]
    assert all(name.isdigit() for c in claimed for name in c["detail"].get("gods", []))


def test_a_traitor_left_unnamed_is_named_in_the_readers_language(app, client):
    """A solo table opened without a name for the Traitor (through the API, or with the box
    emptied) keeps the word "Traitor" in its state; the page names him in the reader's
    language ("Desky: Traitor" was on the Czech page). The host's form starts the box with
    the host's own word."""
    from companion import db
    from companion.services import live_tables as live
    with app.app_context():
        table = live.open_table(db.session(), "pharaon", {}, ["Ana"],
                                PHARAON.default_setup(1)).table
    for language, word in (("cs", "Zrádce"), ("hu", "Áruló"), ("en", "Traitor")):
        client.set_cookie("lang", language)
        text = text_of(client.get(f"/tables/{table.id}").get_data(as_text=True))
        assert word in text, language
        assert language == "en" or "Traitor" not in text, language
    client.set_cookie("lang", "hu")
    form = next(f for f in forms_of(client.get("/tables/new/pharaon?_players=1")
                                    .get_data(as_text=True)) if "setup.areas.0" in f.names())
    assert form.data()["setup.traitor_name"] == "Áruló"


def test_a_traitors_typed_name_is_escaped_where_it_goes_through_the_catalogue(app, client):
    """The Traitor's name is looked up in the catalogue (so that an unnamed one reads in the
    reader's language); a name the host typed is still text, escaped like every other."""
    from companion import db
    from companion.services import live_tables as live
    setup = {**PHARAON.default_setup(1), "traitor_name": "<b>Seth</b>"}
    with app.app_context():
        table = live.open_table(db.session(), "pharaon", {}, ["Ana"], setup).table
    html = client.get(f"/tables/{table.id}").get_data(as_text=True)
    assert "<b>Seth</b>" not in html and "&lt;b&gt;Seth&lt;/b&gt;" in html
