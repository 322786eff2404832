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


def refused(client, sent, messages: list[str], marked: tuple[str, ...]) -> str:
    """Post ``sent``: refused (422) with ``messages`` in the summary, each of ``marked`` marked
    invalid beside its field; gives the page."""
    response = client.post("/score/pharaon", data=sent)
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert summary(page) == messages
    for name in marked:
        assert re.search(r'name="%s"[^>]*aria-invalid="true"' % re.escape(name), page), name
    return page


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
    page = refused(client, sent, [
        "Board · Area 5: Each of the five areas appears once around the board.",
        "Board · God 2 · Half on the area before it (clockwise) · Points: This is required.",
        "Ana · Points printed on that tomb space: Enter the points printed on the tomb "
        "space reached (3 steps from the start).",
    ], ("board.areas.4", "board.gods.1.a.points", "players.0.tomb_points"))
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


# --------------------------------------------------------------------------------------------
# A solo game: the Traitor on the form (spec §6.3 last row, §7.7), won or lost against him
# --------------------------------------------------------------------------------------------


def result_row(page: str) -> tuple[str, list[str]]:
    row = re.search(r'<tr class="rank"><th scope="row">(.*?)</th>(.*?)</tr>', page, re.S)
    assert row, "no result row"
    return row.group(1), [c.strip() for c in re.findall(r"<td>(.*?)</td>", row.group(2), re.S)]


def ticked(page: str, name: str) -> bool:
    box = re.search(r'<input type="checkbox" name="%s"[^>]*>' % re.escape(name), page)
    assert box, f"no box {name}"
    return "checked" in box.group(0)


def test_a_solo_form_asks_for_the_traitor_and_goes_through_untouched(client):
    """One player: the form has the Traitor's part (his name already "Traitor", five gods to
    tick, his multiplier blank for none, the rest blank as 0) and offers him either token;
    left untouched, it scores and saves: Ana beats a Traitor with nothing, and the sheet says
    won against the goal, not a rank. Two players: no Traitor."""
    assert "traitor.name" not in [f[0] for f in rendered(client, players=2).fields]
    form = rendered(client, players=1)
    fields = {name: value for name, value, _kind in form.fields}
    assert fields["traitor.name"] == "Traitor" and fields["traitor.multiplier"] == ""
    assert [fields[f"traitor.gods.{g}"] for g in range(5)] == ["0"] * 5     # none ticked
    assert [name for name, _v, checked, _l in form.checkboxes
            if name.startswith("traitor.")] == [f"traitor.gods.{g}" for g in range(5)]
    for key in ("pharaoh", "first_player"):
        assert [text for _v, text in form.options[key]][-1] == "The Traitor"
    assert selected(client.get("/score/pharaon?_players=1").get_data(as_text=True),
                    "first_player") == "0"
    sent = form.values(action="save", **{"players.0.name": "Ana"}, **gods())
    saved = client.post("/score/pharaon", data=sent)
    assert saved.status_code == 303, summary(saved.get_data(as_text=True))
    page = client.get(saved.headers["Location"]).get_data(as_text=True)
    assert "Won: Ana reached the goal." in page
    assert "Goal: more points than the Traitor (a tie is his)." in page
    assert result_row(page) == ("Result", ["won", "lost"])
    assert token_points(page) == ["3", "0"]
    assert "Winner" not in page


def test_the_traitor_s_holdings_score_by_his_rules_and_a_tie_is_his(client):
    """Two gods ticked (both halves each, 2 + 2 points a half), three nobles at ×8, the
    first-player token: 8 + 24 + 3 = 35; Ana with 35 too loses the tie. Saved, the game's page
    says lost; re-opened to correct it, the form shows the Traitor as entered."""
    form = rendered(client, players=1)
    traitor = {"traitor.name": "Judas", "traitor.multiplier": "8",
               "traitor.gods.1": ["0", "1"], "traitor.gods.3": ["0", "1"],
               "traitor.nobles.0": "4", "traitor.nobles.1": "17", "traitor.nobles.2": "20"}
    ana = {"players.0.name": "Ana", "players.0.artisans.0": "35"}
    sent = form.values(action="score", first_player='"traitor"', **ana, **traitor, **gods())
    response = client.post("/score/pharaon", data=sent)
    page = response.get_data(as_text=True)
    assert response.status_code == 200, summary(page)
    assert token_points(page) == ["0", "3"]
    totals = re.search(r'<tr class="total">(.*?)</tr>', page, re.S).group(1)
    assert re.findall(r"<td[^>]*>(\d+)</td>", totals) == ["35", "35"]
    assert "Lost: Ana did not reach the goal." in page
    assert result_row(page) == ("Result", ["lost", "won"])
    assert "ties go to the Traitor" in page
    sent.setlist("action", ["save"])
    saved = client.post("/score/pharaon", data=sent)
    assert saved.status_code == 303
    table = saved.headers["Location"]
    assert "Lost: Ana did not reach the goal." in client.get(table).get_data(as_text=True)
    edit = client.get(f"/score{table}/edit").get_data(as_text=True)
    assert re.search(r'name="traitor.name" value="Judas"', edit)
    assert re.search(r'name="traitor.multiplier" value="8"', edit)
    assert [ticked(edit, f"traitor.gods.{g}") for g in range(5)] == [
        False, True, False, True, False]
    assert selected(edit, "first_player") == '"traitor"'


def test_every_traitor_message_names_its_field_and_keeps_the_values(client):
    """The Traitor's part is called by his name as it stands in its box ("Traitor")."""
    form = rendered(client, players=1)
    sent = form.values(action="score", **{"players.0.name": "Ana", "players.0.nobles.0": "12",
                                          "traitor.nobles.0": "12", "traitor.tomb_steps": "3",
                                          "traitor.multiplier": "x",
                                          "traitor.gods.4": ["0", "1"]}, **gods())
    page = refused(client, sent, [
        "Traitor · Highest noble multiplier reached (blank: none, 6 per noble): This must be "
        "a whole number.",
        "Traitor · Noble 1: Noble 12 is listed twice; there is one card of each.",
        "Traitor · Points printed on that tomb space: Enter the points printed on the tomb "
        "space reached (3 steps from the start).",
    ], ("traitor.multiplier", "traitor.tomb_points", "traitor.nobles.0"))
    assert re.search(r'name="traitor.multiplier" value="x"', page)
    assert re.search(r'name="traitor.name" value="Traitor"', page)
    assert re.search(r'name="traitor.tomb_steps" value="3"', page)
    assert ticked(page, "traitor.gods.4") and not ticked(page, "traitor.gods.0")


def test_a_saved_solo_game_keeps_the_traitor_on_its_sheet_and_out_of_the_group(app, client):
    """The Traitor is the app's rival, not a person: the saved game's sheet shows his line
    (played by the app); added to a group, the play links Ana alone, and the group's history,
    ladder and BG Stats export know one player (models.Seat.automated)."""
    from companion import db
    from companion.models import Group
    from companion.services import bgstats, groups, history

    form = rendered(client, players=1)
    saved = client.post("/score/pharaon", data=form.values(
        action="save", **{"players.0.name": "Ana"}, **gods()))
    assert saved.status_code == 303, summary(saved.get_data(as_text=True))
    table_id = saved.headers["Location"].split("/")[2]
    page = client.get(saved.headers["Location"]).get_data(as_text=True)
    assert result_row(page) == ("Result", ["won", "lost"])
    assert page.count('class="automated"') == 1            # his column, and only his
    opened = client.post("/groups/new", data={"name": "Klub"})
    group_id = int(re.search(r'/groups/(\d+)"', opened.get_data(as_text=True)).group(1))
    added = client.post(f"/groups/{group_id}/plays", data={"table": table_id})
    assert added.status_code == 303, added.get_data(as_text=True)[:500]
    with app.app_context():
        session = db.session()
        group = session.get(Group, group_id)
        assert [p.name for p in groups.members(session, group_id)] == ["Ana"]
        (play,) = history.load_plays(session, group_id)
        assert [line.name for line in play.lines] == ["Ana"]
        exported = bgstats.export_bgstats(session, group)
        assert [p["name"] for p in exported["players"]] == ["Ana"]
