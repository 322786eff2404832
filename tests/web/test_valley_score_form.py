"""Valley of the Kings' score-only form (/score/valley) as a phone fills it (spec §14): the
itemised checklist mode (tick titles per group, tomb count left to the app) and the quick mode
(counts per group), each down to the Scoresheet and saved."""

from __future__ import annotations

import re

import pytest

from companion.models import GameTable, Result
from companion.rules.valley.final import score_final
from tests.web.valley_forms import forms

pytestmark = pytest.mark.db


def _score_form(client, players: int = 2):
    html = client.get(f"/score/valley?_players={players}").get_data(as_text=True)
    [form] = [f for f in forms(html) if f.action == "/score/valley"]
    return form


def _fill(form, typed: dict[str, object], button: str) -> dict[str, object]:
    """What the phone sends: the form's own fields, the typed values, the pressed button."""
    data = form.data(**{k.replace(".", "__"): v for k, v in typed.items()})
    data["action"] = button
    return data


def _totals(html: str) -> list[str]:
    row = re.findall(r'<tr class="total">.*?</tr>', html, re.S)
    assert row, "no Scoresheet on the page"
    return re.findall(r"<td[^>]*>\s*(-?\d+)\s*</td>", row[0])


COMMON = {"players.0.name": "Ana", "players.1.name": "Bo",
          "players.0.starters.shabti": 3, "players.0.starters.urn": 1,
          "players.0.starters.offering_table": 1,
          "players.0.uniques.0.title": "Sphinx", "players.0.uniques.0.vp": 4,
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


def _document(typed: dict[str, object]) -> dict:
    """The same tomb as the contract's document, for the engine to score."""
    players = []
    for p in (0, 1):
        mine = {k.split(".", 2)[2]: v for k, v in typed.items() if k.startswith(f"players.{p}.")}
        player: dict = {"name": mine.pop("name"), "starters": {}, "uniques": []}
        if "uniques.0.title" in mine:
            player["uniques"].append({"title": mine.pop("uniques.0.title"),
                                      "vp": mine.pop("uniques.0.vp")})
        for key, value in mine.items():
            *path, last = key.split(".")
            node = player
            for part in path:
                node = node.setdefault(part, {})
            node[last] = value
        players.append(player)
    return {"game": "valley", "options": {"pool": "afterlife"}, "players": players}


@pytest.mark.parametrize("typed", [QUICK, CHECKLIST], ids=["quick-counts", "checklist"])
def test_each_mode_of_the_form_reaches_the_scoresheet(client, count_rows, typed):
    expected = score_final(_document(typed))
    response = client.post("/score/valley", data=_fill(_score_form(client), typed, "score"))
    html = response.get_data(as_text=True)
    assert response.status_code == 200, re.findall(r'field-error[^>]*>([^<]*)<', html)
    assert _totals(html) == [str(line.total) for line in expected.players]
    # Ana: 5 starters + Sphinx 4 + 1² + 2² + 4²; Bo: 3 starters + 3² + 1² (spec §10).
    assert [line.total for line in expected.players] == [5 + 4 + 1 + 4 + 16, 3 + 9 + 1]
    assert "Weapons" in html and "Mummification" in html           # the group lines
    assert count_rows(GameTable) == 0

    saved = client.post("/score/valley", data=_fill(_score_form(client), typed, "save"))
    assert saved.status_code == 303
    page = client.get(saved.headers["Location"]).get_data(as_text=True)
    assert "Winner: Ana" in page
    assert count_rows(GameTable) == 1 and count_rows(Result) == 2


def test_the_checklist_derives_the_tomb_count_and_ticks_over_the_pool_are_refused(client):
    typed = CHECKLIST | {"players.1.checklist.weapons.titles.axe": 2}   # 3 axes in a 2-copy pool
    response = client.post("/score/valley", data=_fill(_score_form(client), typed, "score"))
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
    # Bo writes the Sphinx (already Ana's) on his third unique line, the first two blank.
    typed = QUICK | {"players.1.uniques.2.title": "Sphinx", "players.1.uniques.2.vp": 4,
                     "players.1.tomb_cards": 8}
    response = client.post("/score/valley", data=_fill(_score_form(client), typed, "score"))
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert re.search(r'name="players\.1\.uniques\.2\.title"[^>]*>\s*<p class="field-error"'
                     r'[^>]*>Each unique artifact exists once', html), \
        re.findall(r'field-error[^>]*>([^<]*)<', html)


def test_a_solo_game_is_shown_won_or_lost_not_ranked(client):
    """A solo game that misses the perfect tomb (§12.2) is lost: the Scoresheet says so and
    names the goal; it shows no "rank 2" of one player. Saved, the game's page says the same."""
    form = _score_form(client, players=1)
    typed = {"players.0.name": "Ana", "players.0.starters.shabti": 3,
             "players.0.tomb_cards": 3}
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
