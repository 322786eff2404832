"""Groups over the API: tokens and refusals, players, recording, voids, corrections, merges,
the audit trail, and the statistics pages on a recorded history."""

from __future__ import annotations

import copy
import hashlib

import pytest

from companion.models import AuditEntry, GameTable, Group, GroupMembership, Player, Result, Seat
from companion.rules.ra.final import score_final
from companion.services.group_audit import history_changed
from companion.services import ladder
from companion.services.scoring import save_scored_table
from tests.factories import ra_document

from .builders import TABLE_TOKEN, Api, T0, at, engine, finished_table, play, rows

pytestmark = pytest.mark.db
HELD = {"table_token": TABLE_TOKEN}      # a phone at the table (issue 10)


def _error(answer):
    return answer.status_code, answer.get_json()["error"]


def test_open_group_keeps_only_token_hashes(app, client):
    api = Api(client, "Tuesday")
    (group,) = rows(app, Group)
    assert group.invite_token_hash == hashlib.sha256(api.invite.encode()).hexdigest()
    assert group.admin_token_hash == hashlib.sha256(api.admin.encode()).hexdigest()
    assert api.invite not in repr(group.__dict__) and api.admin not in repr(group.__dict__)
    assert len(api.invite) >= 40 and api.invite != api.admin


def test_token_refusals(client):
    api, other = Api(client, "A"), Api(client, "B")
    assert api.get("").get_json()["group"]["role"] == "member"
    assert api.get("", token="admin").get_json()["group"]["role"] == "admin"
    assert _error(api.get("", token=None)) == (404, "group.not_found")
    assert _error(api.get("", token="forged-" + api.invite)) == (404, "group.not_found")
    assert _error(api.get("", token=other.invite)) == (404, "group.not_found")
    assert _error(api.patch("", {"name": "X"}, token="invite")) == (403, "group.admin_needed")
    assert _error(api.post("/invite", {}, token="invite")) == (403, "group.admin_needed")
    missing = client.get("/api/v1/groups/999", headers={"Authorization": f"Bearer {api.invite}"})
    assert _error(missing) == (404, "group.not_found")


def test_revoked_invite_is_refused_and_replaced(app, client):
    api = Api(client)
    answer = api.post("/invite", {"actor": "Ana"}, token="admin")
    assert answer.status_code == 200
    fresh = answer.get_json()["invite_token"]
    refused = api.get("", token=api.invite)
    assert _error(refused) == (404, "group.not_found")
    assert api.get("", token=fresh).status_code == 200
    assert api.get("", token="admin").status_code == 200
    (entry,) = rows(app, AuditEntry, action="revoke_invite")
    assert entry.actor == "Ana" and fresh not in str(entry.details)
    # the admin link can be replaced too; the old one stops working
    new_admin = api.post("/admin-token", {}, token="admin").get_json()["admin_token"]
    assert _error(api.get("", token=api.admin)) == (404, "group.not_found")
    assert api.get("", token=new_admin).get_json()["group"]["role"] == "admin"


def test_join_rename_and_names_with_html_stay_data(app, client):
    api = Api(client, "<i>Club</i>")
    assert api.get("").get_json()["group"]["name"] == "<i>Club</i>"
    created = api.post("/players", {"name": "  <b>Ana</b>  "})
    assert created.status_code == 201 and created.get_json()["name"] == "<b>Ana</b>"
    again = api.post("/players", {"name": "<B>ANA</B>"})          # same name, any case
    assert again.status_code == 200 and again.get_json()["player_id"] == \
        created.get_json()["player_id"]
    bea = api.join("Bea")
    assert _error(api.post("/players", {"name": ""})) == (422, "schema.empty")
    assert _error(api.post("/players", {"name": "x" * 41})) == (422, "schema.too_long")
    renamed = api.patch(f"/players/{bea}", {"name": "Beatrix", "actor": "Ana"})
    assert renamed.get_json() == {"player_id": bea, "name": "Beatrix"}
    assert _error(api.patch(f"/players/{bea}", {"name": "<b>ana</b>"})) == \
        (409, "player.name_taken")
    assert _error(api.patch(f"/players/{bea}", {"name": "B"}, token="invite")) == \
        (403, "group.admin_needed")
    (entry,) = rows(app, AuditEntry, action="rename_player")
    assert (entry.actor, entry.details["before"], entry.details["after"]) == \
        ("Ana", {"name": "Bea"}, {"name": "Beatrix"})
    listed = api.get("/players").get_json()["players"]
    assert [p["name"] for p in listed] == ["<b>Ana</b>", "Beatrix"]
    api.patch("", {"name": "Thursday", "actor": "Bea"})
    (entry,) = rows(app, AuditEntry, action="rename_group")
    assert entry.details == {"before": {"name": "<i>Club</i>"}, "after": {"name": "Thursday"}}


def test_joining_as_a_player_of_another_group(client):
    first, second = Api(client, "A"), Api(client, "B")
    ana = first.join("Ana")
    refused = second.post("/players", {"player_id": ana, "proof_token": second.invite})
    assert _error(refused) == (403, "group.bad_proof")
    joined = second.post("/players", {"player_id": ana, "proof_token": first.invite})
    assert joined.status_code == 201 and joined.get_json()["player_id"] == ana
    assert [p["player_id"] for p in second.get("/players").get_json()["players"]] == [ana]


def test_record_links_seats_by_name_or_explicitly(app, client):
    api = Api(client)
    ana, bea = api.join("Ana"), api.join("Bea")
    table = finished_table(app, "ra", [("ana", 30, 1), ("Cyril", 20, 2), ("B.", 10, 3)])
    players_before = len(rows(app, Player))
    answer = api.post("/plays", {**HELD, "table": table, "links": {"2": bea},
                                 "location": "Café <1>",
                                 "actor": "Cyril"})
    assert answer.status_code == 201, answer.get_json()
    body = answer.get_json()
    assert body["location"] == "Café <1>"
    seats = sorted(rows(app, Seat, table_id=table), key=lambda s: s.position)
    cyril = seats[1].player_id
    assert [s.player_id for s in seats] == [ana, cyril, bea]
    assert [s.name for s in seats] == ["ana", "Cyril", "B."]        # as written at the table
    assert [p["name"] for p in body["players"]] == ["Ana", "Cyril", "Bea"]
    assert len(rows(app, Player)) == players_before - 2            # the two stand-ins are gone
    members = {m.player_id for m in rows(app, GroupMembership, group_id=api.id)}
    assert members == {ana, bea, cyril}
    (entry,) = rows(app, AuditEntry, action="record")
    assert entry.actor == "Cyril" and entry.table_id == table
    # recording again re-links and may change the location
    again = api.post("/plays", {"table_token": TABLE_TOKEN, "table": table, "location": None})
    assert again.status_code == 200 and again.get_json()["location"] is None


def test_record_refusals(app, client):
    api, other = Api(client, "A"), Api(client, "B")
    ana = api.join("Ana")
    outsider = other.join("Zed")
    playing = finished_table(app, "ra", [("A", 0, 1), ("B", 0, 1)], status="playing")
    assert _error(api.post("/plays", {**HELD, "table": playing})) == (409, "play.not_finished")
    assert _error(api.post("/plays", {**HELD, "table": "nope"})) == (404, "play.no_table")
    table = finished_table(app, "ra", [("X", 3, 1), ("Y", 2, 2)])
    assert _error(api.post("/plays", {**HELD, "table": table, "links": {"0": ana, "1": ana}})) == \
        (422, "play.same_player_twice")
    assert _error(api.post("/plays", {**HELD, "table": table, "links": {"0": outsider}})) == \
        (404, "player.not_found")
    assert _error(api.post("/plays", {**HELD, "table": table, "links": {"7": ana}})) == \
        (422, "play.no_such_seat")
    assert rows(app, GameTable, id=table)[0].group_id is None          # nothing changed
    other.record(table)
    assert _error(api.post("/plays", {**HELD, "table": table})) == (409, "play.other_group")
    assert _error(api.post("/plays", {"table_token": TABLE_TOKEN, "table": table},
                           token=None)) == (404, "group.not_found")


def _three_plays(app, api):
    """Ana, Bea, Cyril: p1 Ana wins, p2 Bea wins, p3 Cyril wins (an hour apart)."""
    ids = []
    for hour, order in enumerate([("Ana", "Bea", "Cyril"), ("Bea", "Cyril", "Ana"),
                                  ("Cyril", "Ana", "Bea")], 1):
        ids.append(finished_table(app, "ra", [(n, 30 - 10 * i, i + 1)
                                              for i, n in enumerate(order)], when=at(hour)))
        api.record(ids[-1])
    players = {p["name"]: p["player_id"] for p in api.get("/players").get_json()["players"]}
    return ids, players


def _expected(players, plays):
    """The overall ladder rebuilt directly from hand-made plays."""
    built = ladder.rebuild(plays)
    return {p: round(r.ordinal, 2) for p, r in built.overall.items()}


def _ladder(api, game=""):
    body = api.get(f"/ladder{'/' + game if game else ''}").get_json()
    return {row["player_id"]: row["rating"] for row in body["standings"]}


def test_void_and_unvoid_rebuild_the_ladder(app, client):
    api = Api(client)
    ids, p = _three_plays(app, api)
    a, b, c = p["Ana"], p["Bea"], p["Cyril"]
    hand = [play(ids[0], "ra", at(1), [(a, 30, 1), (b, 20, 2), (c, 10, 3)]),
            play(ids[1], "ra", at(2), [(b, 30, 1), (c, 20, 2), (a, 10, 3)]),
            play(ids[2], "ra", at(3), [(c, 30, 1), (a, 20, 2), (b, 10, 3)])]
    assert _ladder(api) == _expected(p, hand)
    assert _error(api.post(f"/plays/{ids[1]}/void", {}, token="invite")) == \
        (403, "group.admin_needed")
    voided = api.post(f"/plays/{ids[1]}/void", {"actor": "Bea", "reason": "wrong box"},
                      token="admin")
    assert voided.status_code == 200 and voided.get_json()["voided"] is True
    assert _ladder(api) == _expected(p, [hand[0], hand[2]])
    assert _ladder(api, "ra") == _expected(p, [hand[0], hand[2]])
    listed = api.get("/plays").get_json()["plays"]
    assert [(x["table_id"], x["voided"]) for x in listed] == \
        [(ids[2], False), (ids[1], True), (ids[0], False)]
    assert [x["table_id"] for x in api.get("/plays?voided=0").get_json()["plays"]] == \
        [ids[2], ids[0]]
    bea = api.get(f"/players/{b}").get_json()["stats"]
    assert (bea["plays"], bea["wins"]) == (2, 0)                   # the void counts nowhere
    assert _error(api.post(f"/plays/{ids[1]}/void", {}, token="admin")) == \
        (409, "play.already_voided")
    api.post(f"/plays/{ids[1]}/unvoid", {"actor": "Ana"}, token="admin")
    assert _ladder(api) == _expected(p, hand)
    entries = {e.action: e for e in rows(app, AuditEntry, table_id=ids[1])}
    assert entries["void"].actor == "Bea" and entries["void"].details["reason"] == "wrong box"
    assert entries["void"].details["before"] == {"voided": False}
    assert entries["unvoid"].details["after"] == {"voided": False}
    assert entries["unvoid"].actor == "Ana"


def test_unfinished_tables_count_nowhere(app, client):
    api = Api(client)
    ids, p = _three_plays(app, api)
    from sqlmodel import Session
    with Session(engine(app)) as session:        # a live table taken back after it ended
        table = session.get(GameTable, ids[0])
        table.status = "playing"
        session.add(table)
        history_changed(session, [api.id])       # as every change to a group's history does
        session.commit()
    assert api.get(f"/players/{p['Ana']}").get_json()["stats"]["plays"] == 2
    assert api.get("").get_json()["play_count"] == 2
    assert ids[0] not in [x["table_id"] for x in api.get("/plays").get_json()["plays"]]


def _saved_ra(app, document, when=T0):
    from sqlmodel import Session
    with Session(engine(app), expire_on_commit=False) as session:
        table = save_scored_table(session, document, score_final(document),
                                  keeper_token=TABLE_TOKEN)
        table.created_at = table.finished_at = when
        session.add(table)
        session.commit()
        return table.id


def test_correct_rescores_through_the_ruleset(app, client):
    api = Api(client)
    document = ra_document(players=3)
    table = _saved_ra(app, document)
    api.record(table)
    before = {r.seat_id: (r.total, r.rank) for r in rows(app, Result)}
    fixed = copy.deepcopy(document)
    fixed["players"][2]["epochs"][0]["gold"] = 3            # they forgot Cyril's gold
    fixed["players"][2]["name"] = "Cyril"
    sheet = score_final(fixed)
    assert _error(api.post(f"/plays/{table}/correct", {"document": fixed})) == \
        (403, "group.admin_needed")
    broken = copy.deepcopy(fixed)
    broken["players"][0]["epochs"][0]["gold"] = -1
    refused = api.post(f"/plays/{table}/correct", {"document": broken}, token="admin")
    assert refused.status_code == 422 and refused.get_json()["error"] == "schema.negative"
    assert refused.get_json()["errors"]
    assert {r.seat_id: (r.total, r.rank) for r in rows(app, Result)} == before
    answer = api.post(f"/plays/{table}/correct", {"document": fixed, "actor": "Ana"},
                      token="admin")
    assert answer.status_code == 200, answer.get_json()
    body = answer.get_json()
    assert [(x["total"], x["rank"]) for x in body["players"]] == \
        [(line.total, line.rank) for line in sheet.players]
    assert [x["seat_name"] for x in body["players"]] == [line.name for line in sheet.players]
    assert body["final_document"]["players"][2]["epochs"][0]["gold"] == 3
    (entry,) = rows(app, AuditEntry, action="correct")
    assert entry.actor == "Ana" and entry.table_id == table
    assert entry.details["before"]["final_document"] == dict(document)
    assert [r["total"] for r in entry.details["before"]["results"]] == \
        [score_final(document).players[i].total for i in range(3)]
    assert [r["total"] for r in entry.details["after"]["results"]] == \
        [line.total for line in sheet.players]
    # the ladder follows the corrected ranks
    seats = sorted(rows(app, Seat, table_id=table), key=lambda s: s.position)
    hand = [play(table, "ra", T0, [(s.player_id, line.total, line.rank)
                                   for s, line in zip(seats, sheet.players)])]
    assert _ladder(api) == _expected({}, hand)


def test_correct_a_results_only_play_and_refuse_live_ones(app, client):
    api = Api(client)
    table = finished_table(app, "senet", [("Ana", 60, 1), ("Bea", 50, 2)],
                           final_document={"game": "senet", "results_only": True,
                                           "players": []})    # a game Scribe does not know
    api.record(table)
    assert _error(api.post(f"/plays/{table}/correct", {"document": {"game": "senet"}},
                           token="admin")) == (422, "play.no_ruleset")
    fixed = {"results_only": True, "players": [{"score": 48}, {"score": 52}]}
    body = api.post(f"/plays/{table}/correct", {"document": fixed}, token="admin").get_json()
    assert [(x["total"], x["rank"]) for x in body["players"]] == [(48, 2), (52, 1)]
    assert body["final_document"]["results_only"] is True
    bad = {"results_only": True, "players": [{"score": "48"}, {"score": 52}]}
    assert _error(api.post(f"/plays/{table}/correct", {"document": bad}, token="admin")) == \
        (422, "schema.not_integer")
    short = {"results_only": True, "players": [{"score": 1}]}
    assert _error(api.post(f"/plays/{table}/correct", {"document": short}, token="admin")) == \
        (422, "play.seat_count")
    live = finished_table(app, "ra", [("Ana", 1, 1), ("Bea", 0, 2)], mode="live")
    api.record(live)
    assert _error(api.post(f"/plays/{live}/correct", {"document": fixed}, token="admin")) == \
        (409, "play.live_not_correctable")


def test_merge_moves_seats_and_memberships(app, client):
    api, other = Api(client, "A"), Api(client, "B")
    ana = api.join("Ana")
    t1 = finished_table(app, "ra", [("Anna", 10, 1), ("Bea", 5, 2)], when=at(1))
    api.record(t1)
    anna = [s for s in rows(app, Seat, table_id=t1) if s.position == 0][0].player_id
    # Anna plays in the other group too (she joins it with the first group's link)
    assert other.post("/players", {"player_id": anna, "proof_token": api.invite}
                      ).status_code == 201
    t2 = finished_table(app, "ra", [("anna", 7, 2), ("Zed", 9, 1)], when=at(2))
    other.record(t2)
    assert [s for s in rows(app, Seat, table_id=t2) if s.position == 0][0].player_id == anna
    assert _error(api.post("/players/merge", {"keep": ana, "merge": ana}, token="admin")) == \
        (422, "player.merge_self")
    assert _error(api.post("/players/merge", {"keep": ana, "merge": anna})) == \
        (403, "group.admin_needed")
    merged = api.post("/players/merge", {"keep": ana, "merge": anna, "actor": "Bea"},
                      token="admin")
    assert merged.status_code == 200, merged.get_json()
    assert rows(app, Player, id=anna) == []
    assert [s.player_id for s in rows(app, Seat) if s.name.casefold() == "anna"] == [ana, ana]
    assert {m.group_id for m in rows(app, GroupMembership, player_id=ana)} == {api.id, other.id}
    (entry,) = rows(app, AuditEntry, action="merge")
    assert entry.details["kept"] == {"id": ana, "name": "Ana"}
    assert entry.details["merged"] == {"id": anna, "name": "Anna"}
    assert entry.details["seats_moved"] == 2 and entry.actor == "Bea"
    assert entry.details["groups_joined"] == [other.id]
    stats = api.get(f"/players/{ana}").get_json()["stats"]
    assert (stats["plays"], stats["wins"]) == (1, 1)          # t1, now Ana's
    assert other.get(f"/players/{ana}").get_json()["stats"]["plays"] == 1     # t2


def test_merge_refuses_two_people_who_sat_together(app, client):
    api = Api(client)
    table = finished_table(app, "ra", [("Ana", 3, 2), ("Anna", 4, 1)])
    api.record(table)
    ids = {p["name"]: p["player_id"] for p in api.get("/players").get_json()["players"]}
    answer = api.post("/players/merge", {"keep": ids["Ana"], "merge": ids["Anna"]},
                      token="admin")
    assert _error(answer) == (409, "player.sat_together")
    assert len(rows(app, Player)) == 2 and rows(app, AuditEntry, action="merge") == []


def test_pages_on_a_recorded_history(app, client):
    api = Api(client)
    ids, p = _three_plays(app, api)
    home = api.get("").get_json()
    assert home["play_count"] == 3
    assert [x["table_id"] for x in home["recent_plays"]] == ids[::-1]
    assert home["recent_plays"][0]["played_at"].startswith("2025-03-01T22:00:00")
    assert len(home["leaders"]["overall"]) == 3 and "ra" in home["leaders"]["games"]
    assert home["titles"]["pharaoh"] == []                      # nobody settled yet
    assert home["titles"]["champions"]["ra"]["holders"][0]["name"] == "Ana"   # first to win
    player = api.get(f"/players/{p['Ana']}").get_json()
    assert player["stats"]["games"]["ra"] == {
        "plays": 3, "wins": 1, "win_rate": 0.3333, "average_score": 20.0, "best_score": 30,
        "best_play": {"table_id": ids[0], "played_at": player["stats"]["games"]["ra"]
                      ["best_play"]["played_at"]}}
    assert [x["table_id"] for x in player["rating_history"]] == ids
    assert player["ratings"]["overall"]["provisional"] is True
    assert player["titles"]["champion_of"] == ["ra"]
    game = api.get("/games/ra").get_json()
    assert game["records"]["highest_score"]["value"] == 30
    assert game["records"]["average_winning_score"] == 30.0
    h2h = api.get(f"/head-to-head?a={p['Ana']}&b={p['Bea']}").get_json()
    assert (h2h["plays"], h2h["a_wins"], h2h["b_wins"]) == (3, 2, 1)
    assert _error(api.get(f"/head-to-head?a={p['Ana']}&b={p['Ana']}")) == (422, "player.same")
    audit = api.get("/audit", token="admin").get_json()["entries"]
    assert [e["action"] for e in audit][:3] == ["record"] * 3
    assert _error(api.get("/audit")) == (403, "group.admin_needed")
    detail = api.get(f"/plays/{ids[0]}").get_json()
    assert detail["bgstats_url"].startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    assert _error(api.get("/plays/unknown")) == (404, "play.not_found")


def test_pages_find_the_group_by_link(app, client):
    from sqlmodel import Session

    from companion.services import groups
    api = Api(client)
    with Session(engine(app)) as session:
        assert groups.group_for_token(session, api.invite).role == "member"
        assert groups.group_for_token(session, api.admin).is_admin
        assert groups.group_for_token(session, api.invite[:-2]) is None
        assert groups.group_for_token(session, None) is None
    table = finished_table(app, "ra", [("Ana", 1, 1), ("Bea", 0, 2)])
    assert _error(api.post("/plays", {**HELD, "table": table, "location": "x" * 121})) == \
        (422, "schema.too_long")
