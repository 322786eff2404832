"""Group pages: open, join by link, record plays, see history, ladder, titles; admin actions."""

from __future__ import annotations

import io
import json
import re

import pytest

from companion.models import AuditEntry, GameTable
from tests.factories import ra_document, ra_form

pytestmark = pytest.mark.db


def open_group(client, name="Tuesday <b>club</b>"):
    page = client.post("/groups/new", data={"name": name}).get_data(as_text=True)
    links = re.findall(r'<p class="link-box"><a href="https?://[^/"]+(/g/[^"]+)"', page)
    group_id = int(re.search(r'/groups/(\d+)"', page).group(1))
    assert len(links) == 2                       # invite first, then admin
    return group_id, links[0], links[1]


def saved_table(client, players=3):
    """A game saved from this phone's score form (the phone keeps its keeper token)."""
    form = ra_form(ra_document(players)) | {"action": "save"}
    return client.post("/score/ra", data=form).headers["Location"].split("/")[2]


def test_open_join_record_and_look_around(client, app):
    group_id, invite, admin = open_group(client)
    home = client.get(f"/groups/{group_id}").get_data(as_text=True)
    assert "Tuesday &lt;b&gt;club&lt;/b&gt;" in home and "<b>club</b>" not in home

    friend = app.test_client()
    assert friend.get(f"/groups/{group_id}").status_code == 404          # no link yet
    assert friend.get(invite).status_code == 303
    for _ in range(2):
        table_id = saved_table(friend)
        assert "Add to group" in friend.get(f"/tables/{table_id}").get_data(as_text=True)
        response = friend.post(f"/groups/{group_id}/plays", data={"table": table_id})
        assert response.status_code == 303
    home = friend.get(f"/groups/{group_id}").get_data(as_text=True)
    assert "2 plays" in home and "Ödön" in home and "Champion of Ra" in home
    player_id = re.search(r'/groups/%d/players/(\d+)">Ödön' % group_id, home).group(1)
    player = friend.get(f"/groups/{group_id}/players/{player_id}").get_data(as_text=True)
    # the chart brings no script of its own (the page's scripts are every page's: the
    # time-zone cookie's and the offline one's)
    assert "<svg" in player and "cdn" not in player.lower()
    assert [re.sub(r"\?v=\w+", "", tag) for tag in re.findall(r"<script[^>]*>", player)] == [
        '<script src="/static/tz.js" defer>', '<script src="/static/offline.js" defer>']
    game = friend.get(f"/groups/{group_id}/games/ra").get_data(as_text=True)
    assert "Highest score" in game and "<svg" in game
    ids = re.findall(r'<option value="(\d+)"', friend.get(
        f"/groups/{group_id}/head-to-head").get_data(as_text=True))
    h2h = friend.get(f"/groups/{group_id}/head-to-head?a={ids[0]}&b={ids[1]}")
    assert h2h.status_code == 200 and "2 plays together" in h2h.get_data(as_text=True)
    assert friend.get(f"/groups/{group_id}/admin").status_code == 403   # invite is no admin


def test_admin_voids_renews_and_imports(client, app, count_rows):
    group_id, invite, _admin = open_group(client, "Club")
    table_id = saved_table(client)
    client.post(f"/groups/{group_id}/plays", data={"table": table_id})
    response = client.post(f"/groups/{group_id}/admin",
                           data={"action": "void", "table": table_id, "actor": "Bea"})
    assert response.status_code == 303
    assert "0 plays" in client.get(f"/groups/{group_id}").get_data(as_text=True)
    assert count_rows(AuditEntry) >= 2

    renewed = client.post(f"/groups/{group_id}/admin", data={"action": "invite"})
    new_invite = re.search(r'href="https?://[^/"]+(/g/[^"]+)"', renewed.get_data(as_text=True))
    assert new_invite and new_invite.group(1) != invite
    assert app.test_client().get(invite).status_code == 403             # revoked

    exported = client.get(f"/groups/{group_id}/export.json").data
    other_id, _i, _a = open_group(client, "Copy")
    before = count_rows(GameTable)
    response = client.post(f"/groups/{other_id}/admin", data={
        "action": "import", "file": (io.BytesIO(exported), "backup.json")},
        content_type="multipart/form-data")
    assert response.status_code == 200
    page = response.get_data(as_text=True)        # sent as the import goes: its progress
    assert '<progress value="1" max="1">' in page and "1 play imported." in page
    assert count_rows(GameTable) == before + 1
    again = client.post(f"/groups/{other_id}/admin", data={       # the same file once more
        "action": "import", "file": (io.BytesIO(exported), "backup.json")},
        content_type="multipart/form-data").get_data(as_text=True)
    assert "Play 1: The group already has this play." in again      # counted from 1 (issue 20)
    assert "plays 0" not in again
    bad = client.post(f"/groups/{other_id}/admin", data={
        "action": "import", "file": (io.BytesIO(b"not json"), "x.json")},
        content_type="multipart/form-data")
    assert bad.status_code in (200, 303) and count_rows(GameTable) == before + 1
    csv = client.get(f"/groups/{group_id}/export.csv")
    assert csv.mimetype == "text/csv"
    rows = csv.get_data(as_text=True).splitlines()
    assert rows[0].split(",")[:3] == ["play", "played_at", "game"]
    assert len(rows) > 1 and all(row.split(",")[2] == "ra" for row in rows[1:])
    assert json.loads(exported)["plays"]


def test_forged_links_are_refused(client):
    response = client.get("/g/forged-token")
    assert response.status_code == 403 and "not valid" in response.get_data(as_text=True)


def test_a_play_of_a_game_scribe_does_not_know_still_has_its_page(app, client):
    """An imported play of a game with no package (BG Stats can bring any) is shown with its
    results, not a 500 (issue 11 §8)."""
    from tests.groups.builders import finished_table

    table = finished_table(app, "senet", [("Ana", 7, 1), ("Bea", 5, 2)],
                           final_document={"game": "senet", "results_only": True,
                                           "players": []})
    page = client.get(f"/tables/{table}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Ana" in html and "senet" in html
