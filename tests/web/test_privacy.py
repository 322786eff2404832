"""Private by default (issue 10): My tables, join data for the table's phones only, who may add
a table to a group, groups that answer missing and forbidden alike, bounded cookies."""

from __future__ import annotations

import re

import pytest

from companion.models import GameTable
from companion.services import groups as group_service
from companion.web import wallet
from tests.api.livetable import LiveTable
from tests.api.test_live_api import play_to_end
from tests.factories import ra_document, ra_form

pytestmark = pytest.mark.db


def open_live(client, names=("Ana", "Bo", "Cy")):
    """Open a live table from this phone's page; returns (table id, join code)."""
    form = {"_players": str(len(names)), "action": "open"}
    form.update({f"players.{seat}": name for seat, name in enumerate(names)})
    response = client.post("/tables/new/ra", data=form)
    assert response.status_code == 303
    table_id = response.headers["Location"].split("/")[2]
    host_page = client.get(response.headers["Location"]).get_data(as_text=True)
    code = re.search(r'<p class="code"[^>]*>(\w{6})</p>', host_page).group(1)
    return table_id, code


def save_score(client, players=3, **extra):
    """Save a Ra game from this phone's score form; returns the table id."""
    form = ra_form(ra_document(players)) | {"action": "save", **extra}
    response = client.post("/score/ra", data=form)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"].split("/")[2]


def listed(client, path="/games") -> set[str]:
    return set(re.findall(r'href="/tables/([A-Za-z0-9_-]{10,})"',
                          client.get(path).get_data(as_text=True)))


def cookie(client, name: str) -> str | None:
    found = client.get_cookie(name)
    return found.value if found else None


# ---- My tables ---------------------------------------------------------------------------------


def test_a_phone_lists_only_the_tables_it_opened_sits_at_or_saved(app, client):
    hosted, code = open_live(client)
    saved = save_score(client)
    friend = app.test_client()
    friend.get(f"/j/{code}")
    assert friend.post(f"/tables/{hosted}/seats/1/claim").status_code == 303
    friends_own = save_score(friend)
    stranger = app.test_client()

    assert listed(client) == {hosted, saved} and listed(client, "/") == {hosted, saved}
    assert listed(friend) == {hosted, friends_own}
    assert listed(stranger) == set() and listed(stranger, "/") == set()
    assert "No tables on this phone yet" in stranger.get("/games").get_data(as_text=True)
    # the id stays a capability: a stranger given the link sees the table
    assert stranger.get(f"/tables/{saved}").status_code == 200


def test_a_seat_given_to_another_phone_drops_out_of_my_tables(app, client):
    table_id, code = open_live(client)
    ana, other = app.test_client(), app.test_client()
    ana.post(f"/tables/{table_id}/seats/0/claim")
    assert table_id in listed(ana)
    # the host gives Ana's seat to another phone: Ana's token opens nothing any more
    generation = re.search(r'name="generation" value="(\d+)"', client.post(
        f"/tables/{table_id}/seats/0/claim").get_data(as_text=True)).group(1)
    client.post(f"/tables/{table_id}/seats/0/claim",
                data={"confirm": "1", "generation": generation})
    assert table_id not in listed(ana)
    assert table_id not in (cookie(ana, wallet.TABLES_COOKIE) or "")      # and is forgotten
    assert other.get(f"/tables/{table_id}").status_code == 200


# ---- join data ----------------------------------------------------------------------------------


def test_join_code_qr_and_player_cards_only_for_the_host_and_seated_players(app, client):
    table_id, code = open_live(client)
    seated, spectator = app.test_client(), app.test_client()
    seated.post(f"/tables/{table_id}/seats/0/claim")

    watching = spectator.get(f"/tables/{table_id}")
    assert watching.status_code == 200 and code not in watching.get_data(as_text=True)
    assert spectator.get(f"/tables/{table_id}/qr.svg").status_code == 404
    assert spectator.get(f"/tables/{table_id}/host").status_code == 403
    for printout in ("cards", "pad", "report"):
        assert spectator.get(f"/print/tables/{table_id}/{printout}.pdf").status_code == 404
    assert "cards.pdf" not in watching.get_data(as_text=True)

    for phone in (client, seated):
        page = phone.get(f"/tables/{table_id}").get_data(as_text=True)
        assert code in page and "cards.pdf" in page
        qr = phone.get(f"/tables/{table_id}/qr.svg")
        assert qr.status_code == 200 and qr.mimetype == "image/svg+xml"
        assert phone.get(f"/print/tables/{table_id}/cards.pdf").status_code == 200


# ---- adding a table to a group ------------------------------------------------------------------


def _group(client, name="Club"):
    page = client.post("/groups/new", data={"name": name}).get_data(as_text=True)
    group_id = int(re.search(r'/groups/(\d+)"', page).group(1))
    invite = re.findall(r'<p class="link-box"><a href="https?://[^/"]+(/g/[^"]+)"', page)[0]
    return group_id, invite


def test_only_the_saving_phone_adds_a_score_only_game_to_a_group(app, client):
    group_id, invite = _group(client)
    member = app.test_client()
    member.get(invite)
    saved = save_score(client)
    page = member.get(f"/tables/{saved}").get_data(as_text=True)
    assert "Add to group" not in page                      # a member of a group, not at it
    member.post(f"/groups/{group_id}/plays", data={"table": saved})
    assert _group_of(app, saved) is None
    assert "Add to group" in client.get(f"/tables/{saved}").get_data(as_text=True)
    assert client.post(f"/groups/{group_id}/plays", data={"table": saved}).status_code == 303
    assert _group_of(app, saved) == group_id


def test_only_the_host_or_a_seat_adds_a_live_table_to_a_group(app, client):
    table = LiveTable(client)
    play_to_end(table, seed=3)
    opened = client.post("/api/v1/groups", json={"name": "Club"}).get_json()
    members = {"Authorization": f"Bearer {opened['invite_token']}"}
    url = f"/api/v1/groups/{opened['id']}/plays"
    for token in (None, "forged-token-0123456789abcdef", opened["admin_token"]):
        refused = client.post(url, json={"table": table.id, "table_token": token},
                              headers=members)
        assert (refused.status_code, refused.get_json()["error"]) == (404, "play.no_table")
        assert refused.get_json()["field"] == "table"
    assert _group_of(app, table.id) is None
    # a seat's phone does it from the page: its token is in the phone's cookie
    phone = app.test_client()
    phone.set_cookie(wallet.TABLES_COOKIE, f"s:{table.id}:{table.tokens[1]}")
    phone.set_cookie(wallet.GROUPS_COOKIE, f"{opened['id']}:{opened['invite_token']}")
    assert "Add to group" in phone.get(f"/tables/{table.id}").get_data(as_text=True)
    assert phone.post(f"/groups/{opened['id']}/plays",
                      data={"table": table.id}).status_code == 303
    assert _group_of(app, table.id) == opened["id"]


def test_the_host_token_adds_a_live_table_through_the_api(app, client):
    table = LiveTable(client)
    play_to_end(table, seed=5)
    opened = client.post("/api/v1/groups", json={"name": "Club"}).get_json()
    recorded = client.post(f"/api/v1/groups/{opened['id']}/plays",
                           json={"table": table.id, "table_token": table.host},
                           headers={"Authorization": f"Bearer {opened['invite_token']}"})
    assert recorded.status_code == 201, recorded.get_json()


def _group_of(app, table_id):
    from sqlmodel import Session
    with Session(app.extensions["scribe.engine"]) as session:
        return session.get(GameTable, table_id).group_id


# ---- groups: missing and forbidden alike --------------------------------------------------------


def test_a_missing_group_and_a_forbidden_one_get_the_same_answer(app, client):
    group_id, invite = _group(client)
    stranger = app.test_client()
    missing, forbidden = group_id + 1, group_id
    for path in ("", "/ladder", "/admin", "/copy"):
        pages = [stranger.get(f"/groups/{gid}{path}") for gid in (missing, forbidden)]
        assert [p.status_code for p in pages] == [404, 404]
        # the same but for the id, and the CSRF token, which carries the second it was made
        html = [re.sub(r'name="csrf_token" value="[^"]*"', "csrf",
                       p.get_data(as_text=True).replace(f"/groups/{gid}", "/groups/<id>"))
                for p, gid in zip(pages, (missing, forbidden))]
        assert html[0] == html[1]
    for headers, status, code in (({}, 401, "group.token_needed"),    # no token at all
                                  ({"Authorization": "Bearer forged-0123456789abcdefghij"},
                                   404, "group.not_found")):
        answers = [stranger.get(f"/api/v1/groups/{gid}", headers=headers)
                   for gid in (missing, forbidden)]
        assert [a.status_code for a in answers] == [status, status]
        assert answers[0].get_json() == answers[1].get_json()
        assert answers[0].get_json()["error"] == code


def test_missing_and_forbidden_groups_take_the_same_work(app, client, monkeypatch):
    """The same steps run whatever is refused: one hash, two constant-time comparisons."""
    group_id, _invite = _group(client)
    calls: list[str] = []
    real_hash, real_compare = group_service.hash_token, group_service.secrets.compare_digest
    monkeypatch.setattr(group_service, "hash_token",
                        lambda token: calls.append("hash") or real_hash(token))
    monkeypatch.setattr(group_service.secrets, "compare_digest",
                        lambda a, b: calls.append("compare") or real_compare(a, b))
    shapes = []
    with app.app_context():
        from companion import db
        for gid, token in ((group_id + 1, None), (group_id, None), (group_id + 1, "x" * 43),
                           (group_id, "x" * 43)):
            calls.clear()
            with pytest.raises(group_service.GroupProblem) as refused:
                group_service.authorize(db.session(), gid, token)
            shapes.append((refused.value.status, refused.value.code, tuple(calls)))
    assert len(set(shapes)) == 1 and shapes[0][2] == ("hash", "compare", "compare")


# ---- bounded cookies ----------------------------------------------------------------------------


def test_tokens_of_many_tables_stay_in_one_bounded_cookie_newest_kept(app, client):
    app.config["RATE_LIMIT_OPEN_TABLE"] = "1000 per minute"
    opened = [open_live(client)[0] for _ in range(wallet.MAX_TABLES + 6)]
    for table_id in opened[-3:]:
        client.post(f"/tables/{table_id}/seats/0/claim")
    value = cookie(client, wallet.TABLES_COOKIE)
    assert len(value) <= wallet.MAX_COOKIE_BYTES < 4096
    assert not [c for c in client._cookies if c[2].startswith(("seat_", "host_"))]
    mine = listed(client)
    assert opened[-1] in mine and opened[-3] in mine and opened[0] not in mine
    assert len(mine) <= wallet.MAX_TABLES
    # the newest are kept, the oldest dropped first
    assert set(opened[-len(mine):]) == mine
    # the phone is still the host of the newest tables
    assert client.get(f"/tables/{opened[-1]}/host").status_code == 200


def test_old_per_table_and_group_cookies_are_moved_into_the_bounded_ones(app, client):
    table = LiveTable(client)
    opened = client.post("/api/v1/groups", json={"name": "Old club"}).get_json()
    phone = app.test_client()
    phone.set_cookie(f"seat_{table.id}", table.tokens[2])
    phone.set_cookie(f"host_{table.id}", table.host)
    phone.set_cookie(f"grp_{opened['id']}", opened["invite_token"])
    phone.set_cookie("seat_nonsense", "not a token!")
    answer = phone.get("/")
    removed = [h for h in answer.headers.getlist("Set-Cookie") if "Expires=Thu, 01 Jan 1970" in h]
    assert {h.split("=")[0] for h in removed} == {
        f"seat_{table.id}", f"host_{table.id}", f"grp_{opened['id']}", "seat_nonsense"}
    assert f"s:{table.id}:{table.tokens[2]}" in cookie(phone, wallet.TABLES_COOKIE)
    assert f"{opened['id']}:{opened['invite_token']}" in cookie(phone, wallet.GROUPS_COOKIE)
    assert table.id in listed(phone) and "Old club" in phone.get("/").get_data(as_text=True)
    assert phone.get(f"/tables/{table.id}/host").status_code == 200
    assert phone.get(f"/groups/{opened['id']}").status_code == 200


def test_a_tampered_cookie_is_ignored_not_an_error(client):
    client.set_cookie(wallet.TABLES_COOKIE, 'x:"<script>".s:short:tok.' + "h:" * 1000)
    client.set_cookie(wallet.GROUPS_COOKIE, "abc:def.99999999999999:" + "t" * 20)
    assert client.get("/").status_code == 200 and client.get("/groups").status_code == 200
