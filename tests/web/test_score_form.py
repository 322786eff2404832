"""Score-only mode through the form, as a person on a phone would use it."""

from __future__ import annotations

import re

import pytest

from companion.models import GameTable, Result, Seat
from companion.rules.ra.final import score_final
from tests.factories import ra_document, ra_form

pytestmark = pytest.mark.db


def field_error(html: str, name: str) -> list[str]:
    """Messages shown right after the input named ``name``."""
    match = re.search(r'name="%s"[^>]*>\s*((?:<p class="field-error"[^>]*>[^<]*</p>\s*)*)'
                      % re.escape(name), html)
    assert match, f"no input named {name}"
    return re.findall(r'<p class="field-error"[^>]*>([^<]*)</p>', match.group(1))


def input_value(html: str, name: str) -> str:
    match = re.search(r'name="%s" value="([^"]*)"' % re.escape(name), html)
    assert match, f"no input named {name}"
    return match.group(1)


def test_blank_form_has_one_section_per_player_and_epoch(client):
    html = client.get("/score/ra?_players=5").get_data(as_text=True)
    assert len(re.findall(r'name="players\.\d\.name"', html)) == 5
    assert html.count('<section class="step" id="stage-') == 3
    assert 'name="players.4.epochs.2.civilizations.writing"' in html
    assert 'name="players.4.suns.2"' in html and 'name="players.4.suns.3"' not in html


def test_five_players_three_epochs_saved_and_listed(client, count_rows):
    document = ra_document(players=5)
    expected = score_final(document).as_dict()
    form = ra_form(document) | {"action": "save", "_location": "Brno"}
    response = client.post("/score/ra", data=form)
    assert response.status_code == 303
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    for line in expected["players"]:
        assert line["name"] in page
    winners = ", ".join(expected["winners"])
    assert f"Winner: {winners}" in page or f"Shared win: {winners}" in page
    assert count_rows(GameTable) == 1 and count_rows(Seat) == 5 and count_rows(Result) == 5
    recent = client.get("/games").get_data(as_text=True)
    assert "Brno" not in recent  # the list shows players and scores, the page the place
    for line in expected["players"]:
        assert f'{line["name"]} {line["total"]}' in recent


def test_calculate_shows_breakdown_without_saving(client, count_rows):
    document = ra_document(players=3)
    response = client.post("/score/ra", data=ra_form(document) | {"action": "score"})
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "Final scores" in html and "Pharaohs" in html and "Sun total" in html
    totals = re.findall(r'<tr class="total">.*?</tr>', html, re.S)[0]
    for line in score_final(document).players:
        assert f">{line.total}</td>" in totals
    assert count_rows(GameTable) == 0


def test_errors_beside_fields_and_typed_values_kept(client, count_rows):
    form = ra_form(ra_document(players=4)) | {"action": "save"}
    form["players.1.epochs.0.gods"] = "-2"
    form["players.2.epochs.1.pharaohs"] = "abc"
    form["players.3.name"] = "ana"            # same as "Ana", whatever the case
    form["players.0.suns.0"] = "14"
    response = client.post("/score/ra", data=form)
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert field_error(html, "players.1.epochs.0.gods") == ["This must not be negative."]
    assert field_error(html, "players.2.epochs.1.pharaohs") == ["This must be a whole number."]
    assert field_error(html, "players.3.name") == ["Two players cannot have the same name."]
    assert field_error(html, "players.0.suns.0") == [
        "With 4 players the suns are numbered 1 to 13."]
    assert input_value(html, "players.2.epochs.1.pharaohs") == "abc"
    assert input_value(html, "players.3.name") == "ana"
    assert input_value(html, "players.0.epochs.2.niles") == form["players.0.epochs.2.niles"]
    assert count_rows(GameTable) == 0


def test_box_limit_named_on_the_field_that_passes_it(client):
    form = ra_form(ra_document(players=3)) | {"action": "score"}
    for p in range(3):
        form[f"players.{p}.monuments.sphinx"] = "2"
    html = client.post("/score/ra", data=form).get_data(as_text=True)
    assert field_error(html, "players.2.monuments.sphinx") == [
        "The box holds only 5 Sphinx tiles, but 6 are entered: Ana 2 · Řehoř 2 · Ödön 2."]


def test_adding_a_player_keeps_what_was_typed(client):
    form = ra_form(ra_document(players=3, epochs=1)) | {"action": "add_player"}
    html = client.post("/score/ra", data=form).get_data(as_text=True)
    assert len(re.findall(r'name="players\.\d\.name"', html)) == 4
    assert input_value(html, "players.1.name") == "Řehoř"
    assert 'name="_players" value="4"' in html


def test_epochs_one_at_a_time(client):
    form = ra_form(ra_document(players=3, epochs=1)) | {"action": "score"}
    html = client.post("/score/ra", data=form).get_data(as_text=True)
    assert "Scores so far" in html and "Leading:" in html
    form["action"] = "add_stage"
    html = client.post("/score/ra", data=form).get_data(as_text=True)
    assert 'name="players.0.epochs.1.gods"' in html and 'name="_stages" value="2"' in html


@pytest.mark.parametrize("language, title, label", [
    ("cs", "Spočítat", "Faraoni"),
    ("hu", "Számolás", "Fáraók"),
])
def test_form_follows_the_browser_language(client, language, title, label):
    html = client.get("/score/ra", headers={"Accept-Language": f"{language},en;q=0.5"}) \
        .get_data(as_text=True)
    assert f'<html lang="{language}">' in html
    assert label in html


def test_switcher_remembers_the_language_and_stays_on_site(client):
    response = client.post("/language", data={"language": "hu", "next": "/games"})
    assert response.status_code == 303 and response.headers["Location"] == "/games"
    assert '<html lang="hu">' in client.get("/").get_data(as_text=True)
    response = client.post("/language", data={"language": "cs", "next": "https://evil.example/"})
    assert response.headers["Location"] == "/"


def test_forms_need_a_csrf_token(make_app):
    app = make_app(csrf=True)
    client = app.test_client()
    form = ra_form(ra_document(players=3)) | {"action": "save"}
    response = client.post("/score/ra", data=form)
    assert response.status_code == 400
    html = client.get("/score/ra").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
    response = client.post("/score/ra", data=form | {"csrf_token": token})
    assert response.status_code == 303


def test_names_are_escaped(client):
    document = ra_document(players=3)
    document["players"][0]["name"] = "<script>alert(1)</script>"
    response = client.post("/score/ra", data=ra_form(document) | {"action": "save"})
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_unknown_pages_are_friendly(client):
    assert client.get("/score/chess").status_code == 404
    assert client.get("/tables/does-not-exist").status_code == 404
    assert "nothing at this address" in client.get("/nowhere").get_data(as_text=True)
