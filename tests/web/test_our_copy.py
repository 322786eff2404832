"""Our copy (issue 11 §6): a group enters its copy's printed values once, on a form or as a
JSON file; the tables it opens use them, and the score sheet names the defaults it relied on."""

from __future__ import annotations

import io
import json
import re

import pytest

from companion.models import AuditEntry

pytestmark = pytest.mark.db


def _group(client):
    """Open a group from this browser (it keeps the admin cookie)."""
    response = client.post("/groups/new", data={"name": "Klub"})
    assert response.status_code == 200
    return client.get("/groups").get_data(as_text=True).split('/groups/')[1].split('"')[0]


def test_enter_values_on_the_form_and_open_a_table_with_them(client, count_rows):
    group = _group(client)
    page = client.get(f"/groups/{group}/copy")
    assert page.status_code == 200 and "/copy/imhotep" in page.get_data(as_text=True)
    form = client.get(f"/groups/{group}/copy/imhotep").get_data(as_text=True)
    assert 'name="edition.obelisks_b.0"' in form and "Default: 12 · 11 · 10" in form
    obelisks = {f"edition.obelisks_b.{i}": str(v) for i, v in enumerate((9, 8, 7, 6, 5, 4, 3, 2))}
    saved = client.post(f"/groups/{group}/copy/imhotep",
                        data={"action": "save", "actor": "Ana", **obelisks})
    assert saved.status_code == 303
    assert count_rows(AuditEntry) >= 1
    again = client.get(f"/groups/{group}/copy/imhotep").get_data(as_text=True)
    assert 'value="9"' in again and "entered by your group" in again

    # the open-table form offers the group's copy and uses it
    new = client.get("/tables/new/imhotep").get_data(as_text=True)
    assert f'<option value="{group}" selected>' in new
    opened = client.post("/tables/new/imhotep", data={
        "_players": "2", "action": "open", "players.0": "Ana", "players.1": "Bo",
        "copy": group, "options.b_obelisks": ["0", "1"]})
    assert opened.status_code == 303
    table = opened.headers["Location"].split("/")[2]
    state = client.get(f"/api/v1/tables/{table}").get_json()["state"]
    assert state["b_values"]["obelisks_b"] == [9, 8, 7, 6, 5, 4, 3, 2]


def test_a_wrong_value_is_refused_beside_its_field_and_nothing_is_saved(client):
    group = _group(client)
    refused = client.post(f"/groups/{group}/copy/imhotep",
                          data={"action": "save", "edition.temple_b_width_2p": "9"})
    assert refused.status_code == 422
    html = refused.get_data(as_text=True)
    assert 'id="err-edition.temple_b_width_2p"' in html
    assert client.get(f"/api/v1/groups/{group}/editions").status_code == 401   # no token


def test_export_and_import_as_a_file(client, make_app):
    group = _group(client)
    client.post(f"/groups/{group}/copy/imhotep",
                data={"action": "save", "edition.burial_chamber_b.0": "8",
                      "edition.burial_chamber_b.1": "4", "edition.burial_chamber_b.2": "2",
                      "edition.burial_chamber_b.3": "0"})
    exported = client.get(f"/groups/{group}/copy/imhotep.json")
    document = json.loads(exported.get_data(as_text=True))
    assert document == {"format": "scribe-edition", "game": "imhotep",
                        "values": {"burial_chamber_b": [8, 4, 2, 0]}}
    other = client.application.test_client()
    other_group = _group(other)
    taken = other.post(f"/groups/{other_group}/copy/imhotep",
                       data={"action": "import",
                             "file": (io.BytesIO(exported.data), "copy.json")},
                       content_type="multipart/form-data")
    assert taken.status_code == 303
    assert "entered by your group" in other.get(f"/groups/{other_group}/copy/imhotep").get_data(
        as_text=True)
    bad = other.post(f"/groups/{other_group}/copy/imhotep",
                     data={"action": "import", "file": (io.BytesIO(b"{}x"), "copy.json")},
                     content_type="multipart/form-data")
    assert bad.status_code == 422


def test_the_api_reads_and_replaces_a_copy(client):
    opened = client.post("/api/v1/groups", json={"name": "API"}).get_json()
    auth = {"Authorization": f"Bearer {opened['invite_token']}"}
    url = f"/api/v1/groups/{opened['id']}/editions/imhotep"
    first = client.get(url, headers=auth).get_json()
    assert first["values"] == {} and "obelisks_b" in first["defaults"]
    put = client.put(url, headers=auth, json={"values": {"temple_b_width_2p": 5}})
    assert put.status_code == 200
    now = client.get(url, headers=auth).get_json()
    assert now["in_force"]["temple_b_width_2p"] == 5 and "temple_b_width_2p" not in now["defaults"]
    wrong = client.put(url, headers=auth, json={"values": {"temple_b_width_2p": 0}})
    assert wrong.status_code == 422
    assert wrong.get_json()["field"] == "edition.temple_b_width_2p"
    assert client.put(f"/api/v1/groups/{opened['id']}/editions/chess", headers=auth,
                      json={"values": {}}).status_code == 404


def test_the_table_says_which_printed_values_are_still_defaults(client):
    def page_of(edition, options=None, players=("Ana", "Bo")):
        opened = client.post("/api/v1/tables", json={
            "game": "imhotep", "players": list(players), "options": options or {},
            "edition": edition}).get_json()
        return client.get(f"/tables/{opened['id']}").get_data(as_text=True)

    obelisks_b = {"b_obelisks": True}
    bare = page_of({}, obelisks_b)
    assert "Printed values at their defaults" in bare and "Obelisks, side B: tower values" in bare
    entered = page_of({"obelisks_b": [9, 8, 7, 6, 5, 4, 3, 2]}, obelisks_b)
    assert "Obelisks, side B: tower values" not in entered


def test_an_all_a_two_player_table_lists_no_b_side_value(client):
    """Defect 8h: only the values the table relies on are listed (its sides, its count)."""
    def footer(options, players):
        opened = client.post("/api/v1/tables", json={
            "game": "imhotep", "players": players, "options": options}).get_json()
        page = client.get(f"/tables/{opened['id']}").get_data(as_text=True)
        found = re.search(r"Printed values at their defaults[^<]*", page)
        return found.group(0) if found else ""

    assert footer({}, ["Ana", "Bo"]) == ""              # all A sides, 2 players: nothing
    two = footer({"b_burial_chamber": True, "b_temple": True}, ["Ana", "Bo"])
    assert "Temple, side B: spaces used by 2 players" in two
    assert "Burial chamber, side B" not in two            # its 4th value needs 4 players
    assert "Round cards 6 and 7 for 3 players" not in two
    three = footer({}, ["Ana", "Bo", "Cy"])
    assert "Round cards 6 and 7 for 3 players" in three and "side B" not in three
    four = footer({"b_burial_chamber": True}, ["Ana", "Bo", "Cy", "Dan"])
    assert "Burial chamber, side B: points per row" in four
