"""Live tables through the pages a phone uses (no JavaScript needed)."""

from __future__ import annotations

import json
import random
import re
from html import unescape

import pytest

from companion import db
from companion.models import GameTable, Move
from companion.rules import get_ruleset
from companion.services import live_tables as live

pytestmark = pytest.mark.db


def open_table(client, names=("Ana", "Bo", "Cy"), **extra):
    form = {"_players": str(len(names)), "action": "open", **extra}
    for seat, name in enumerate(names):
        form[f"players.{seat}"] = name
    return client.post("/tables/new/ra", data=form)


def form_fields(html: str, form_type: str) -> dict[str, str]:
    """The hidden fields of the page's first move form whose move is of ``form_type``."""
    for block in re.findall(r"<form[^>]*/moves\"[^>]*>.*?</form>", html, re.S):
        fields = {name: unescape(value) for name, value
                  in re.findall(r'name="([^"]+)" value="([^"]*)"', block)}
        if json.loads(fields.get("move", "{}")).get("type") == form_type:
            return fields
    raise AssertionError(f"no {form_type} form on the page")


def with_tile(fields: dict[str, str], tile: str) -> dict[str, str]:
    """A draw form as if the button of ``tile`` was pressed."""
    return fields | {"move": json.dumps({"type": "draw", "tile": tile})}


def test_open_join_play_and_watch(client, make_app):
    response = open_table(client)
    assert response.status_code == 303
    host_page = client.get(response.headers["Location"]).get_data(as_text=True)
    code = re.search(r'<p class="code"[^>]*>(\w{6})</p>', host_page).group(1)
    assert "<svg" in host_page
    table_id = response.headers["Location"].split("/")[2]

    ana = client.application.test_client()
    response = ana.get(f"/j/{code.lower()}")
    assert response.status_code == 302
    seats_page = ana.get(response.headers["Location"]).get_data(as_text=True)
    assert seats_page.count('type="submit"') >= 3
    assert ana.post(f"/tables/{table_id}/seats/0/claim").status_code == 303
    page = ana.get(f"/tables/{table_id}").get_data(as_text=True)
    assert "Your turn" in page and page.count('class="fame"') == 1   # only her own

    fields = form_fields(page, "draw")
    response = ana.post(f"/tables/{table_id}/moves", data=with_tile(fields, "pharaoh"))
    assert response.status_code == 303
    page = ana.get(f"/tables/{table_id}").get_data(as_text=True)
    assert 'class="tile kind-pharaoh"' in page and "Waiting for Bo" in page

    # the same form sent again (a double tap) is answered from the log, not played twice
    again = ana.post(f"/tables/{table_id}/moves", data=with_tile(fields, "pharaoh"))
    assert again.status_code == 303
    watcher = client.application.test_client()
    page = watcher.get(f"/tables/{table_id}").get_data(as_text=True)
    assert "you are watching" in page and "Your move" not in page
    assert watcher.post(f"/tables/{table_id}/moves", data=fields).status_code == 403


def test_stale_form_and_illegal_move_explain_themselves(client, count_rows):
    response = open_table(client)
    table_id = response.headers["Location"].split("/")[2]
    ana = client.application.test_client()
    ana.post(f"/tables/{table_id}/seats/0/claim")
    page = ana.get(f"/tables/{table_id}").get_data(as_text=True)
    fields = form_fields(page, "draw")
    ana.post(f"/tables/{table_id}/moves", data=with_tile(fields, "gold"))
    stale = ana.post(f"/tables/{table_id}/moves",
                     data=with_tile(fields, "gold") | {"idempotency_key": "another"})
    assert stale.status_code == 409
    assert "Someone else moved first" in stale.get_data(as_text=True)
    bo = client.application.test_client()
    bo.post(f"/tables/{table_id}/seats/1/claim")
    page = bo.get(f"/tables/{table_id}").get_data(as_text=True)
    fields = form_fields(page, "draw")
    refused = bo.post(f"/tables/{table_id}/moves", data=with_tile(fields, "dragon"))
    assert refused.status_code == 422
    assert count_rows(Move) == 1


def test_open_table_form_errors_keep_what_was_typed(client, count_rows):
    response = open_table(client, names=("Ana", "ana", "Cy"))
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "Two players cannot have the same name." in html
    assert 'value="ana"' in html
    response = open_table(client, names=("Ana", "Bo"))
    assert response.status_code == 422          # two players need the 2008 rules option
    response = open_table(client, names=("Ana", "Bo"), **{"options.two_player": ["0", "1"]})
    assert response.status_code == 303
    assert count_rows(GameTable) == 1


def test_options_checkboxes_are_read(client):
    response = open_table(client, **{"options.hide_fame_during_play": ["0"],
                                     "options.show_bag_counts": ["0", "1"]})
    table_id = response.headers["Location"].split("/")[2]
    api = client.get(f"/api/v1/tables/{table_id}").get_json()
    assert api["state"]["fame"] == [10, 10, 10] and api["state"]["bag"]["ra"] == 30


def test_unknown_codes_and_tables(client):
    assert client.get("/j/ZZZZZZ").status_code == 404
    assert client.post("/join", data={"code": "nope"}).status_code == 404
    assert client.get("/tables/nothing/join").status_code == 404
    assert client.get("/tables/new/chess").status_code == 404


def test_host_closes_the_table_and_phones_are_told(client):
    response = open_table(client)                    # this client holds the host cookie
    table_id = response.headers["Location"].split("/")[2]
    before = client.get(f"/api/v1/tables/{table_id}").get_json()["version"]
    assert client.post(f"/tables/{table_id}/close").status_code == 303
    after = client.get(f"/api/v1/tables/{table_id}").get_json()
    assert after["version"] == before + 1 and after["status"] == "abandoned"
    assert "The host closed this table." in client.get(f"/tables/{table_id}").get_data(
        as_text=True)
    stranger = client.application.test_client()
    assert stranger.post(f"/tables/{table_id}/close").status_code == 403


def test_imhotep_board_values_of_your_copy(client):
    form = {"_players": "2", "action": "open", "players.0": "Ana", "players.1": "Bo"}
    bad = client.post("/tables/new/imhotep", data=form | {"edition": "{not json"})
    assert bad.status_code == 422 and "not valid JSON" in bad.get_data(as_text=True)
    wrong = client.post("/tables/new/imhotep", data=form | {"edition": '{"obelisks_b": "x"}'})
    assert wrong.status_code == 422
    good = client.post("/tables/new/imhotep",
                       data=form | {"edition": '{"obelisks_b": [12, 11, 10, 9, 8, 7, 6, 4]}'})
    assert good.status_code == 303
    table_id = good.headers["Location"].split("/")[2]
    state = client.get(f"/api/v1/tables/{table_id}").get_json()["state"]
    assert state["b_values"]["obelisks_b"][-1] == 4


def test_the_bonus_form_says_which_bonus(client):
    """Pyramids B: a bonus space asks whether to use *its* bonus, naming it (issue 11 §8)."""
    imhotep = get_ruleset("imhotep")
    spaces = [["card", "card", "card", "card", 4]] * 3
    opened = client.post("/api/v1/tables", json={
        "game": "imhotep", "players": ["Ana", "Bo"], "options": {"b_pyramids": True},
        "edition": {"pyramids_b": spaces}}).get_json()
    tokens = [client.post(f"/api/v1/tables/{opened['id']}/seats/{n}/claim").get_json()[
        "seat_token"] for n in (0, 1)]
    rng = random.Random(3)
    for step in range(600):
        view = client.get(f"/api/v1/tables/{opened['id']}").get_json()
        seat = view["to_act"]
        mine = client.get(f"/api/v1/tables/{opened['id']}",
                          headers={"Authorization": f"Bearer {tokens[seat]}"}).get_json()
        if "use_bonus" in mine["prompts"]["moves"]:
            break
        with client.application.app_context():
            table = live.get_table(db.session(), opened["id"])
            state = live.state_at(db.session(), table)
        moves = imhotep.legal_moves(state, seat)
        sailing = [m for m in moves if m.get("site") == "pyramids"]
        move = rng.choice(sailing or moves)
        answer = client.post(f"/api/v1/tables/{opened['id']}/moves",
                             headers={"Authorization": f"Bearer {tokens[seat]}"},
                             json={"move": move, "version": view["version"],
                                   "idempotency_key": f"b{step}"})
        assert answer.status_code == 200, answer.get_data(as_text=True)
    else:
        raise AssertionError("no bonus space was reached")
    client.set_cookie(f"seat_{opened['id']}", tokens[seat])
    page = client.get(f"/tables/{opened['id']}").get_data(as_text=True)
    assert "A bonus space: take the top market card. Use it?" in page


def test_dotted_form_names_build_nested_move_arguments():
    """Several inputs make one argument (a card and its typed value, rows of a list); blank
    inputs and blank rows are left out, so a form may offer more rows than are used."""
    from werkzeug.datastructures import MultiDict

    from companion.web.live import _move_from_form

    form = MultiDict([("move", '{"type": "buy"}'), ("m.slot", '"B1"'), ("m.cost", ""),
                      ("m.pay.0.card", '"spear"'), ("m.pay.0.capital", ""),
                      ("m.pay.1.card", ""), ("m.pay.1.capital", ""),
                      ("m.pay.10.card", '"urn"'), ("m.pay.10.capital", "2"),
                      ("m.pick.slot", '"B2"'), ("m.pick.drop", ""),
                      ("m.pick.tags[]", "1"), ("m.pick.tags[]", ""), ("m.pick.tags[]", "3")])
    assert _move_from_form(form) == {
        "type": "buy", "slot": "B1",
        "pay": [{"card": "spear"}, {"card": "urn", "capital": 2}],
        "pick": {"slot": "B2", "tags": [1, 3]}}


def test_one_choice_may_set_several_move_arguments():
    """``m.__merge`` adds every key of its JSON object (a ship space is a ship and a slot;
    shared code knows no key); a value that is not an object adds nothing."""
    from werkzeug.datastructures import MultiDict

    from companion.web.live import _move_from_form

    form = MultiDict([("move", '{"type": "place"}'),
                      ("m.__merge", '{"ship": 2, "slot": 1, "anything": [3]}')])
    assert _move_from_form(form) == {"type": "place", "ship": 2, "slot": 1, "anything": [3]}
    assert _move_from_form(MultiDict([("move", '{"type": "place"}'), ("m.__merge", "7")])) \
        == {"type": "place"}


def test_an_imhotep_ship_space_button_places_the_stone(client):
    """The page's ship-space buttons send one ``m.__merge`` choice: ship and slot."""
    imhotep = get_ruleset("imhotep")
    opened = client.post("/api/v1/tables", json={"game": "imhotep",
                                                  "players": ["Ana", "Bo"]}).get_json()
    tokens = [client.post(f"/api/v1/tables/{opened['id']}/seats/{n}/claim").get_json()[
        "seat_token"] for n in (0, 1)]
    for step in range(5):
        view = client.get(f"/api/v1/tables/{opened['id']}").get_json()
        seat = view["to_act"]
        with client.application.app_context():
            state = live.state_at(db.session(), live.get_table(db.session(), opened["id"]))
        moves = imhotep.legal_moves(state, seat)
        if any(m["type"] == "place_stone" for m in moves):
            break
        move = next(m for m in moves if m["type"] != "place_stone")
        client.post(f"/api/v1/tables/{opened['id']}/moves",
                    headers={"Authorization": f"Bearer {tokens[seat]}"},
                    json={"move": move, "version": view["version"], "idempotency_key": f"p{step}"})
    client.set_cookie(f"seat_{opened['id']}", tokens[seat])
    page = client.get(f"/tables/{opened['id']}").get_data(as_text=True)
    fields = form_fields(page, "place_stone")
    choices = re.findall(r'name="m.__merge" value=\'([^\']+)\' class="secondary slot-button"', page)
    chosen = json.loads(unescape(choices[-1]))
    assert set(chosen) == {"ship", "slot"}
    answer = client.post(f"/tables/{opened['id']}/moves", data=fields | {
        "m.__merge": unescape(choices[-1])})
    assert answer.status_code in (200, 303), answer.get_data(as_text=True)[-400:]
    after = client.get(f"/api/v1/tables/{opened['id']}").get_json()
    assert after["version"] == view["version"] + 1
    assert after["state"]["ships"][chosen["ship"]]["slots"][chosen["slot"]] is not None


def test_the_app_draws_for_a_seat_that_asks(client):
    """POST /tables/<id>/draw: the awaited seat lets the app draw (one draw per key, a
    watcher and another seat are refused, nothing changes for them)."""
    response = open_table(client)
    table_id = response.headers["Location"].split("/")[2]
    ana, bo = client.application.test_client(), client.application.test_client()
    ana.post(f"/tables/{table_id}/seats/0/claim")
    bo.post(f"/tables/{table_id}/seats/1/claim")
    fields = form_fields(ana.get(f"/tables/{table_id}").get_data(as_text=True), "draw")
    form = {key: fields[key] for key in ("csrf_token", "version", "idempotency_key")
            if key in fields}
    watcher = client.application.test_client()
    assert watcher.post(f"/tables/{table_id}/draw", data=form).status_code == 403
    refused = bo.post(f"/tables/{table_id}/draw", data=form)
    assert refused.status_code == 403 and "Someone else draws now." in refused.get_data(
        as_text=True)
    assert client.get(f"/api/v1/tables/{table_id}").get_json()["version"] == int(
        form["version"])
    assert ana.post(f"/tables/{table_id}/draw", data=form).status_code == 303
    assert ana.post(f"/tables/{table_id}/draw", data=form).status_code == 303   # a retry
    after = client.get(f"/api/v1/tables/{table_id}").get_json()
    assert after["version"] == int(form["version"]) + 1
    drawn = [kind for kind in after["state"]["track"] if kind]
    assert len(drawn) + after["state"]["ra_count"] == 1


def test_the_host_page_says_whom_the_table_awaits(client):
    response = open_table(client)                    # this client is the host
    host_url = response.headers["Location"].split("?")[0]
    table_id = host_url.split("/")[2]

    def awaiting() -> str:
        page = client.get(host_url).get_data(as_text=True)
        line = re.search(r'<p class="status-line" id="awaiting"[^>]*>(.*?)</p>', page, re.S)
        assert line, "no status line on the host page"
        return " ".join(line.group(1).split())

    assert awaiting() == "Waiting for Ana"           # inside #live: live.js keeps it current
    ana = client.application.test_client()
    assert ana.post(f"/tables/{table_id}/seats/0/claim").status_code == 303
    fields = form_fields(ana.get(f"/tables/{table_id}").get_data(as_text=True), "draw")
    assert ana.post(f"/tables/{table_id}/moves",
                    data=with_tile(fields, "pharaoh")).status_code == 303
    assert awaiting() == "Waiting for Bo"
    assert client.post(f"/tables/{table_id}/close").status_code == 303
    assert awaiting() == "<strong>The host closed this table.</strong>"
