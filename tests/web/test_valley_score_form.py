"""Valley of the Kings' score-only form (/score/valley) as a phone fills it (spec §14): the
itemised checklist mode (tick titles per group, tomb count left to the app) and the quick mode
(counts per group), each down to the Scoresheet and saved."""

from __future__ import annotations

import re
from html import unescape

import pytest

from companion.models import GameTable, Result
from companion.rules.valley.final import score_final
from companion.rules.valley.pools import POOL_LABELS as POOL_NAMES
from tests.web.valley_forms import forms

pytestmark = pytest.mark.db


def _score_form(client, players: int = 2):
    html = client.get(f"/score/valley?_players={players}").get_data(as_text=True)
    [form] = [f for f in forms(html) if f.action == "/score/valley"]
    return form


def _fill(form, typed: dict[str, object], button: str,
          choose: dict[str, str] | None = None) -> dict[str, object]:
    """What the phone sends: the form's own fields, the typed values, the chosen options (by
    label), the pressed button."""
    data = form.data(choose, **{k.replace(".", "__"): v for k, v in typed.items()})
    data["action"] = button
    return data


def _totals(html: str) -> list[str]:
    row = re.findall(r'<tr class="total">.*?</tr>', html, re.S)
    assert row, "no Scoresheet on the page"
    return re.findall(r"<td[^>]*>\s*(-?\d+)\s*</td>", row[0])


def _errors(html: str) -> list[str]:
    return re.findall(r'field-error[^>]*>([^<]*)<', html)


COMMON = {"players.0.name": "Ana", "players.1.name": "Bo",
          "players.0.starters.shabti": 3, "players.0.starters.urn": 1,
          "players.0.starters.offering_table": 1,
          "uniques.0.title": "Sphinx", "uniques.0.vp": 4,          # on the table's first line
          "players.1.starters.shabti": 2, "players.1.starters.box_of_food": 1}

# Quick mode: the number of different titles per group and the tomb count.
QUICK = COMMON | {"players.0.tomb_cards": 13, "players.0.distinct.mummification": 1,
                  "players.0.distinct.chambers": 2, "players.0.distinct.weapons": 4,
                  "players.1.tomb_cards": 7, "players.1.distinct.weapons": 3,
                  "players.1.distinct.jewelry": 1}

# Checklist mode: titles ticked with their copies; no tomb count, no distinct counts.
CHECKLIST = COMMON | {"players.0.checklist.mummification.titles.brain_hook": 1,
                      "players.0.checklist.chambers.titles.serdab": 2,
                      "players.0.checklist.chambers.titles.burial_chamber": 1,
                      "players.0.checklist.weapons.titles.axe": 1,
                      "players.0.checklist.weapons.titles.dagger": 1,
                      "players.0.checklist.weapons.titles.sling": 2,
                      "players.0.checklist.weapons.titles.bow": 1,
                      "players.1.checklist.weapons.titles.axe": 1,
                      "players.1.checklist.weapons.titles.spear": 1,
                      "players.1.checklist.weapons.titles.khopesh": 1,
                      "players.1.checklist.jewelry.titles.ring": 2}
TICK = {"players.0.mode": "Tick", "players.1.mode": "Tick"}


def _document(typed: dict[str, object]) -> dict:
    """The same tomb as the contract's document, for the engine to score."""
    players = []
    for p in (0, 1):
        mine = {k.split(".", 2)[2]: v for k, v in typed.items() if k.startswith(f"players.{p}.")}
        player: dict = {"name": mine.pop("name"), "starters": {}, "uniques": []}
        if p == 0:
            player["uniques"].append({"title": typed["uniques.0.title"],
                                      "vp": typed["uniques.0.vp"]})
        for key, value in mine.items():
            *path, last = key.split(".")
            node = player
            for part in path:
                node = node.setdefault(part, {})
            node[last] = value
        players.append(player)
    return {"game": "valley", "options": {"pool": "afterlife"}, "players": players}


@pytest.mark.parametrize("typed, choose", [(QUICK, None), (CHECKLIST, TICK)],
                         ids=["quick-counts", "checklist"])
def test_each_mode_of_the_form_reaches_the_scoresheet(client, count_rows, typed, choose):
    expected = score_final(_document(typed))
    response = client.post("/score/valley", data=_fill(_score_form(client), typed, "score",
                                                        choose))
    html = response.get_data(as_text=True)
    assert response.status_code == 200, re.findall(r'field-error[^>]*>([^<]*)<', html)
    assert _totals(html) == [str(line.total) for line in expected.players]
    # Ana: 5 starters + Sphinx 4 + 1² + 2² + 4²; Bo: 3 starters + 3² + 1² (spec §10).
    assert [line.total for line in expected.players] == [5 + 4 + 1 + 4 + 16, 3 + 9 + 1]
    assert "Weapons" in html and "Mummification" in html           # the group lines
    assert count_rows(GameTable) == 0

    saved = client.post("/score/valley", data=_fill(_score_form(client), typed, "save",
                                                     choose))
    assert saved.status_code == 303
    page = client.get(saved.headers["Location"]).get_data(as_text=True)
    assert "Winner: Ana" in page
    assert count_rows(GameTable) == 1 and count_rows(Result) == 2


def test_the_checklist_derives_the_tomb_count_and_ticks_over_the_pool_are_refused(client):
    typed = CHECKLIST | {"players.1.checklist.weapons.titles.axe": 2}   # 3 axes in a 2-copy pool
    response = client.post("/score/valley", data=_fill(_score_form(client), typed, "score",
                                                        TICK))
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert re.search(r'name="players\.1\.checklist\.weapons\.titles\.axe"[^>]*>\s*'
                     r'<p class="field-error"[^>]*>The pool holds 2 of', html), \
        re.findall(r'field-error[^>]*>([^<]*)<', html)


def test_quick_mode_refuses_a_tomb_smaller_than_its_items_beside_the_field(client):
    typed = QUICK | {"players.1.tomb_cards": 5}
    response = client.post("/score/valley", data=_fill(_score_form(client), typed, "score"))
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert re.search(r'name="players\.1\.tomb_cards"[^>]*>\s*<p class="field-error"[^>]*>'
                     r'The tomb holds at least the 7 cards listed', html), \
        re.findall(r'field-error[^>]*>([^<]*)<', html)


def test_a_unique_after_blank_lines_is_named_on_its_own_line(client):
    # Bo's Sphinx (already Ana's) on the table's third unique line, the second one blank.
    typed = QUICK | {"uniques.2.title": "Sphinx", "uniques.2.vp": 4, "players.1.tomb_cards": 8}
    response = client.post("/score/valley", data=_fill(_score_form(client), typed, "score",
                                                        {"uniques.2.player": "Player 2"}))
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert re.search(r'name="uniques\.2\.title"[^>]*>\s*<p class="field-error"'
                     r'[^>]*>Each unique artifact exists once', html), _errors(html)
    assert 'value="Sphinx"' in html                       # what was typed stays


def test_a_solo_game_is_shown_won_or_lost_not_ranked(client):
    """A solo game that misses the perfect tomb (§12.2) is lost: the Scoresheet says so and
    names the goal; it shows no "rank 2" of one player. Saved, the game's page says the same."""
    form = _score_form(client, players=1)
    typed = {"players.0.name": "Ana", "players.0.starters.shabti": 3}
    response = client.post("/score/valley?_players=1", data=_fill(form, typed, "score"))
    html = response.get_data(as_text=True)
    assert response.status_code == 200, re.findall(r'field-error[^>]*>([^<]*)<', html)
    for page in (html, client.get(client.post(
            "/score/valley?_players=1", data=_fill(form, typed, "save")).headers["Location"]
            ).get_data(as_text=True)):
        assert "Lost: Ana did not reach the goal." in page
        assert "Goal: perfect tomb: every title once, every unique and every starter " \
               "(164 points)." in page
        rank = re.search(r'<tr class="rank"><th scope="row">(.*?)</th>(.*?)</tr>', page, re.S)
        assert rank.group(1) == "Result" and "lost" in rank.group(2)
        assert "2." not in rank.group(2) and "Winner" not in page


def _five_player_form(client, variant: str = ""):
    html = client.get(f"/score/valley?_players=5{variant}").get_data(as_text=True)
    [form] = [f for f in forms(html) if f.action == "/score/valley"]
    return html, form


def test_the_form_asks_each_group_of_its_pool_once_and_each_unique_once(client):
    """Issue 20 item 4: the form shows the chosen pool's groups only, a count per group and
    the titles to tick (one select per player says which is read), and one line per unique
    for the table; a 5-player form had ~1 070 inputs, now under 300 (the ticks hidden)."""
    html, form = _five_player_form(client, "&variant=afterlife")
    names = list(form.inputs) + list(form.selects)
    assert len(names) < 300
    assert not [n for n in names if ".distinct.sarcophagi" in n or ".distinct.red" in n]
    assert [n for n in names if n.startswith("players.0.distinct.")] == [
        f"players.0.distinct.{g}" for g in ("mummification", "jewelry", "chambers", "weapons",
                                            "tomb_art")]
    assert form.selects["players.0.mode"].labels == ["Count", "Tick"]
    assert [n for n in names if n.startswith("uniques.") and n.endswith(".title")] == [
        f"uniques.{n}.title" for n in range(6)]
    assert form.selects["uniques.0.player"].labels == [f"Player {n}" for n in range(1, 6)]
    # another pool at the top: its own groups
    original = client.get("/score/valley?_players=2&variant=original").get_data(as_text=True)
    assert 'name="players.0.distinct.sarcophagi"' in original
    assert 'name="players.0.distinct.mummification"' not in original


def test_an_untouched_five_player_form_goes_through(client):
    """Five players need both boxes (spec §11.4): the form for five starts on that pool, and
    a pool left at its default follows the player count."""
    _html, form = _five_player_form(client)
    assert form.selects["variant"].default() == '"five_players"' or \
        form.selects["variant"].default() == "five_players"
    added = client.post("/score/valley", data={**_score_form(client, 4).data(),
                                                "action": "add_player"})
    assert '<option value="five_players" selected>' in added.get_data(as_text=True)
    typed = {f"players.{n}.name": name for n, name in enumerate(("A", "B", "C", "D", "E"))}
    response = client.post("/score/valley?_players=5", data=_fill(form, typed, "score"))
    html = response.get_data(as_text=True)
    assert response.status_code == 200, _errors(html)
    assert _totals(html) == ["0"] * 5


def test_the_mode_decides_what_is_read_and_a_refusal_keeps_the_choice(client):
    # Ana counts 4 weapons but chose to tick: the count is not read, her ticks are
    typed = COMMON | {"players.0.distinct.weapons": 4,
                      "players.0.checklist.weapons.titles.axe": 1}
    response = client.post("/score/valley", data=_fill(_score_form(client), typed, "score",
                                                        {"players.0.mode": "Tick"}))
    html = response.get_data(as_text=True)
    assert response.status_code == 200, _errors(html)
    assert _totals(html)[0] == str(5 + 4 + 1)
    # a refusal: the field marked beside its message, the choices and values kept
    typed = COMMON | {"players.0.checklist.weapons.titles.axe": 3}
    response = client.post("/score/valley", data=_fill(_score_form(client), typed, "score",
                                                        {"players.0.mode": "Tick"}))
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert re.search(r'name="players\.0\.checklist\.weapons\.titles\.axe" value="3"[^>]*'
                     r'aria-invalid="true"[^>]*>\s*<p class="field-error"', html), _errors(html)
    assert re.search(r'<option value="&#34;tick&#34;" selected>Tick', html)


def _page_values(html: str) -> dict[str, str]:
    """What the form shows filled in: each input's value, each select's selected option."""
    [form] = [f for f in re.findall(r'<form[^>]*action="/score/valley".*?</form>', html, re.S)]
    values = {name: unescape(value) for name, value in re.findall(
        r'<input type="(?:number|text|hidden)"[^>]* name="([^"]+)" value="([^"]*)"', form)}
    for name, body in re.findall(r'<select name="([^"]+)"[^>]*>(.*?)</select>', form, re.S):
        chosen = re.search(r'<option value="([^"]*)"[^>]* selected', body)
        if chosen:
            values[name] = unescape(chosen.group(1))
    return values


# Saved before the form asked the pool at its top (or through the API): the contract's
# document, the pool in its options, each player's uniques in their own list, titles by name.
OLD_ORIGINAL = {"game": "valley", "options": {"pool": "original"},
                "edition": {"starter_vp": {"Urn": 2}, "unique_vp": {"boat": 4}},
                "players": [
                    {"name": "Ana", "tomb_cards": 9, "starters": {"shabti": 3, "urn": 1,
                                                                  "box_of_food": 0,
                                                                  "offering_table": 1},
                     "uniques": [{"title": "Boat", "vp": None}],
                     "distinct": {"sarcophagi": 2, "amulets": 1}},
                    {"name": "Bo", "starters": {"shabti": 2, "urn": 0, "box_of_food": 1,
                                                "offering_table": 0},
                     "uniques": [],
                     "checklist": {"books": {"titles": {}, "others": [1, 2]}}}]}
OLD_MIX = {"game": "valley", "options": {"pool": "mix", "set_3": "sarcophagi",
                                         "uniques": "original"},
           "players": [{"name": "Ana", "tomb_cards": 6,
                        "starters": {"shabti": 3, "urn": 0, "box_of_food": 0,
                                     "offering_table": 0},
                        "uniques": [], "distinct": {"sarcophagi": 3}},
                       {"name": "Bo", "tomb_cards": 2,
                        "starters": {"shabti": 1, "urn": 0, "box_of_food": 0,
                                     "offering_table": 0},
                        "uniques": [{"title": "Censer", "vp": 3}], "distinct": {}}]}


@pytest.mark.parametrize("old, pool", [(OLD_ORIGINAL, "original"), (OLD_MIX, "mix")],
                         ids=["original", "mix"])
def test_an_old_saved_game_is_corrected_on_its_own_pool_with_all_its_values(app, client, old,
                                                                               pool):
    """Issue 20 defect a: "Correct this game" on a game saved as the contract's document
    reopened the form on Afterlife's groups (its counts, ticks and uniques lost)."""
    from sqlmodel import Session
    saved = client.post("/score/valley", data=_fill(_score_form(client), QUICK, "save"))
    table_id = saved.headers["Location"].split("/")[2]
    with Session(app.extensions["scribe.engine"]) as session:
        table = session.get(GameTable, table_id)
        table.final_document = old
        session.add(table)
        session.commit()
    assert POOL_NAMES[pool] in client.get(f"/tables/{table_id}").get_data(as_text=True)
    html = client.get(f"/score/tables/{table_id}/edit").get_data(as_text=True)
    shown = _page_values(html)
    assert shown["variant"] == pool
    if pool == "original":
        assert shown["players.0.distinct.sarcophagi"] == "2"
        assert shown["players.0.distinct.amulets"] == "1"
        assert shown["players.0.tomb_cards"] == "9"
        assert shown["players.0.mode"] == '"count"' and shown["players.1.mode"] == '"tick"'
        assert shown["players.1.checklist.books.others.1"] == "2"
        assert (shown["uniques.0.title"], shown["uniques.0.vp"]) == ("Boat", "4")
        assert shown["uniques.0.player"] == "0"
        assert shown["edition.starter_vp.urn"] == "2"
    else:
        assert shown["options.set_3"] == '"sarcophagi"' or shown["options.set_3"] == \
            "sarcophagi"
        assert shown["options.uniques"] in ('"original"', "original")
        assert shown["players.0.distinct.sarcophagi"] == "3"
        assert (shown["uniques.0.title"], shown["uniques.0.player"]) == ("Censer", "1")
    # sent back untouched, the correction scores what was saved
    [form] = [f for f in forms(html) if f.action == "/score/valley"]
    sent = form.data() | {k: v for k, v in shown.items() if k in form.inputs}
    answer = client.post("/score/valley", data=sent | {"action": "score"})
    page = answer.get_data(as_text=True)
    assert answer.status_code == 200, _errors(page)
    assert _totals(page) == [str(line.total) for line in score_final(old).players]
