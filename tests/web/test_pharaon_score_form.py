"""Pharaon's score form gets through the first time (issue 20, item 4): the form posted exactly
as rendered succeeds once the players' names and the gods' printed numbers are entered; every
message names its field, the field is marked and keeps its value."""

from __future__ import annotations

import html as markup
import json
import re

import pytest

from companion.rules.pharaon import printed as t
from tests.web.pageforms import forms

pytestmark = pytest.mark.db

NAMES = ("Ana", "Bo", "Cy")


def rendered(client, players=3):
    """The score form as the page renders it."""
    page = client.get(f"/score/pharaon?_players={players}").get_data(as_text=True)
    return next(f for f in forms(page) if f.action.endswith("/score/pharaon"))


def gods() -> dict[str, str]:
    """The twenty printed numbers of the gods (nothing else typed)."""
    return {f"board.gods.{g}.{half}.{key}": "2" for g in range(5) for half in ("a", "b")
            for key in ("threshold", "points")}


def names() -> dict[str, str]:
    return {f"players.{p}.name": name for p, name in enumerate(NAMES)}


def summary(page: str) -> list[str]:
    block = re.search(r'id="error-summary".*?</ul>', page, re.S)
    assert block, "no error summary"
    return [markup.unescape(re.sub(r"<[^>]+>", "", item)).strip()
            for item in re.findall(r"<li>(.*?)</li>", block.group(0), re.S)]


def token_points(page: str) -> list[str]:
    """The Scoresheet's "Pharaoh and first-player tokens" row, player by player."""
    row = re.search(r'<th scope="row">Pharaoh and first-player tokens</th>(.*?)</tr>', page,
                    re.S)
    assert row, "no tokens row"
    return re.findall(r'<span class="pts">(\d+)</span>', row.group(1))


def selected(page: str, name: str) -> str:
    select = re.search(r'<select name="%s".*?</select>' % re.escape(name), page, re.S)
    assert select, f"no select {name}"
    return markup.unescape(re.search(r'<option value="([^"]*)"[^>]*selected',
                                     select.group(0)).group(1))


def test_the_form_as_rendered_goes_through_with_names_and_gods(client):
    form = rendered(client)
    sent = form.values(action="score", **names(), **gods())
    # untouched: the areas in the rulebook's order, blank Nile levels and tomb, the holders
    assert [json.loads(sent[f"board.areas.{i}"]) for i in range(5)] == list(t.AREAS)
    assert sent["players.0.nile.0"] == "" and sent["players.0.tomb_points"] == ""
    response = client.post("/score/pharaon", data=sent)
    page = response.get_data(as_text=True)
    assert response.status_code == 200, summary(page)
    assert "Final scores" in page
    # the first-player token went to the first player, as the select showed (3 points)
    assert token_points(page) == ["3", "0", "0"]


def test_the_holders_are_a_choice_of_the_players_entered(client):
    form = rendered(client)
    for key in ("pharaoh", "first_player"):
        seats = [value for value, _text in form.options[key] if value != '""']
        assert seats == ["0", "1", "2"]                # three players, no "Player 4"
    assert [text for _value, text in form.options["pharaoh"]][0] == "Nobody"
    response = client.post("/score/pharaon", data=form.values(
        action="score", pharaoh="1", first_player="2", **names(), **gods()))
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert token_points(page) == ["0", "7", "3"]
    assert selected(page, "pharaoh") == "1" and selected(page, "first_player") == "2"


def test_every_message_names_its_field_marks_it_and_keeps_the_values(client):
    form = rendered(client)
    sent = form.values(action="score", pharaoh="2", **names(), **gods())
    sent.setlist("players.0.tomb_steps", ["3"])          # its points not typed
    sent.setlist("board.gods.1.a.points", [""])           # a printed number left out
    sent.setlist("board.areas.4", ['"OFF"'])              # Offerings twice
    sent.setlist("board.gods.0.name", ["Amun"])
    response = client.post("/score/pharaon", data=sent)
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert summary(page) == [
        "Board · Area 5: Each of the five areas appears once around the board.",
        "Board · God 2 · Half on the area before it (clockwise) · Points: This is required.",
        "Ana · Points printed on that tomb space: Enter the points printed on the tomb "
        "space reached (3 steps from the start).",
    ]
    for name in ("board.areas.4", "board.gods.1.a.points", "players.0.tomb_points"):
        assert re.search(r'name="%s"[^>]*aria-invalid="true"' % re.escape(name), page), name
    # every value and choice as entered
    assert selected(page, "board.areas.4") == '"OFF"'
    assert selected(page, "board.areas.3") == '"NIL"'
    assert selected(page, "pharaoh") == "2"
    holders = re.search(r'<select name="pharaoh".*?</select>', page, re.S).group(0)
    assert [markup.unescape(t) for t in re.findall(r"<option[^>]*>([^<]*)</option>", holders)] \
        == ["Nobody", "Ana", "Bo", "Cy"]                 # the players' names as typed
    assert re.search(r'name="board.gods.0.name" value="Amun"', page)
    assert re.search(r'name="players.0.tomb_steps" value="3"', page)


def test_a_list_s_own_message_names_the_list(client):
    form = rendered(client)
    sent = form.values(action="score", **names(), **gods())
    sent.setlist("players.1.nile.2", ["9"])
    page = client.post("/score/pharaon", data=sent).get_data(as_text=True)
    assert summary(page) == ["Bo · Nile levels (black, yellow, green, red, blue) · Level 3: "
                             "At most 3."]


def test_required_numbers_have_no_zero_placeholder(client):
    page = client.get("/score/pharaon?_players=3").get_data(as_text=True)
    tomb = re.search(r'<input[^>]*name="players.0.tomb_points"[^>]*>', page).group(0)
    nile = re.search(r'<input[^>]*name="players.0.nile.0"[^>]*>', page).group(0)
    assert "placeholder" not in tomb and 'placeholder="0"' in nile
