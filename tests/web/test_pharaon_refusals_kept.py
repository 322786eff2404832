"""A refused Pharaon move keeps what the player entered (issue 20, items 1-2): the boxes and
choices of the form that was sent come back as sent, the refused argument is marked
(aria-invalid, the message right after it) and no message names an internal path."""

from __future__ import annotations

import random
import re

import pytest
from werkzeug.datastructures import MultiDict

from companion.rules.pharaon import PHARAON
from tests.web.pharaon_phone import PagePlayer, forms_of, j
from tests.web.test_pharaon_pages import join, open_through_form

pytestmark = pytest.mark.db


class _AtValues(Exception):
    pass


class _UntilValues(PagePlayer):
    """Plays the table from its pages until the end-of-game values are asked."""

    def values(self, phone, form):
        raise _AtValues


def _control(page: str, name: str) -> str:
    match = re.search(r'<(?:input|select)\b[^>]*name="%s"[^>]*>' % re.escape(name), page)
    assert match, f"no control {name}"
    return match.group(0)


def _selected(page: str, name: str) -> str:
    block = re.search(r'<select\b[^>]*name="%s"[^>]*>.*?</select>' % re.escape(name), page, re.S)
    chosen = re.findall(r"<option value='([^']*)'[^>]*\sselected", block.group(0)) + \
        re.findall(r'<option value="([^"]*)"[^>]*\sselected', block.group(0))
    return chosen[0] if chosen else ""


def test_the_god_values_come_back_as_typed_and_the_empty_threshold_is_marked(client):
    table_id = open_through_form(client, 2)
    phones = join(client, table_id, 2)
    player = _UntilValues(client, table_id, phones, random.Random(3), app_draws=1.0)
    with pytest.raises(_AtValues):
        player.play()
    phone = phones[0]
    form = next(f for f in forms_of(player.page(phone)) if f.id == "form-values")
    typed = {name: "3" for name in form.names() if name.startswith("m.gods.")
             and name.endswith((".threshold", ".points"))}
    typed.update({"m.gods.0.name": "Amun", "m.gods.0.a.threshold": "", "m.gods.4.b.points": "7"})
    typed.update({name: "12" for name in form.names() if name.startswith("m.tomb_points.")
                  and name.endswith(".points")})
    response = phone.post(form.action, data=form.data(**typed))
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    message = ("Gods › God 1 › Half on the area before it (clockwise) › Threshold: "
               "This is required.")
    assert 'aria-invalid="true"' in _control(page, "m.gods.0.a.threshold")
    assert re.search(r'name="m.gods.0.a.threshold"[^>]*>\s*<span class="field-error" '
                     r'id="refusal">%s</span>' % re.escape(message), page)
    assert "gods.0" not in re.sub(r'name="[^"]*"|id="[^"]*"|for="[^"]*"', "", page)
    assert 'value="Amun"' in _control(page, "m.gods.0.name")
    assert 'value="7"' in _control(page, "m.gods.4.b.points")
    assert 'value="3"' in _control(page, "m.gods.2.a.threshold")
    assert 'aria-invalid' not in _control(page, "m.gods.2.a.threshold")
    # a Czech phone reads the same in Czech
    czech = phone.post(form.action, data=form.data(**typed),
                       headers={"Accept-Language": "cs"}).get_data(as_text=True)
    assert "gods.0" not in re.sub(r'name="[^"]*"|id="[^"]*"|for="[^"]*"', "", czech)
    assert 'value="Amun"' in _control(czech, "m.gods.0.name")


def test_a_refused_noble_draw_keeps_both_choices(client):
    table_id = open_through_form(client, 3)
    phones = join(client, table_id, 3)
    view = client.get(f"/api/v1/tables/{table_id}").get_json()
    for _ in range(20):                        # the app draws until the start picks' draws
        state, seat = view["state"], view["to_act"]
        head = state["pending"][0] if state["pending"] else {}
        if PHARAON.ui.phase_of(state) == "draw_nobles" and head.get("to") == "start":
            break
        drawn = phones[seat].post(f"/tables/{table_id}/draw", data={
            "version": view["version"], "idempotency_key": f"draw-{_}"})
        assert drawn.status_code == 303
        view = client.get(f"/api/v1/tables/{table_id}").get_json()
    phone = phones[seat]
    page = phone.get(f"/tables/{table_id}").get_data(as_text=True)
    form = next(f for f in forms_of(page) if f.id == "form-draw")
    card, other = state["noble_deck"][:2]
    # the same noble twice: the second is no longer in the deck
    response = phone.post(form.action, data=form.data(**{"m.cards.0": j(card),
                                                         "m.cards.1": j(card)}))
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert f"Noble {card} is not in the deck." in page
    assert _selected(page, "m.cards.0") == j(card) and _selected(page, "m.cards.1") == j(card)
    # the refusal names the draw's cards: its first choice is marked, the message beside it
    assert 'aria-invalid="true"' in _control(page, "m.cards.0")
    # other values of the same select stay choosable, and the form goes through when fixed
    form = next(f for f in forms_of(page) if f.id == "form-draw")
    assert phone.post(form.action, data=form.data(**{"m.cards.1": j(other)})).status_code == 303
