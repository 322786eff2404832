"""The group pages' cache (services/group_cache.py): every change to a group's history shows at
once, and a play added after the last one goes on from the cached ladders."""

from __future__ import annotations

import pytest
from sqlmodel import Session

from companion.models import Group
from companion.services import group_cache, stats

from .builders import TABLE_TOKEN, Api, at, engine, finished_table

pytestmark = pytest.mark.db

PAGES = ("", "/ladder", "/ladder/ra", "/players", "/games/ra")


def _pages(api, players=()) -> dict:
    answers = {path: api.get(path).get_json() for path in PAGES}
    for player_id in players:
        answers[player_id] = api.get(f"/players/{player_id}").get_json()
    return answers


def _fresh(app, api, players=()) -> dict:
    """The same pages computed from scratch (nothing cached)."""
    group_cache.forget(engine(app))
    return _pages(api, players)


def _summary(app, group_id):
    with Session(engine(app)) as session:
        return group_cache.summary(session, session.get(Group, group_id))


def test_every_change_shows_at_once(app, client):
    api = Api(client)
    ids = [finished_table(app, "ra", [("Ana", 30, 1), ("Bea", 20, 2), ("Cyril", 10, 3)],
                          when=at(hour)) for hour in (1, 2, 3)]
    for table in ids:
        api.record(table)
    players = {p["name"]: p["player_id"] for p in api.get("/players").get_json()["players"]}
    ana, bea, cyril = players["Ana"], players["Bea"], players["Cyril"]
    who = (ana, bea, cyril)

    def check():
        shown = _pages(api, who)           # what the cache answers right after the change
        assert shown == _fresh(app, api, who)
        return shown

    first = check()
    changes = [
        lambda: api.post(f"/plays/{ids[1]}/void", {}, token="admin"),
        lambda: api.post(f"/plays/{ids[1]}/unvoid", {}, token="admin"),
        lambda: api.post(f"/plays/{ids[0]}/correct", {"document": {
            "results_only": True, "players": [{"score": 1}, {"score": 50}, {"score": 9}]}},
            token="admin"),
        lambda: api.patch(f"/players/{bea}", {"name": "Beatrix"}),
        lambda: api.post("/players", {"name": "Dora"}),
        lambda: api.post("/plays", {"table": ids[2], "links": {"0": cyril, "2": ana}}),
        lambda: api.record(finished_table(app, "ra", [("Ana", 5, 2), ("Dora", 9, 1)],
                                          when=at(0))),             # older than all others
        lambda: api.record(finished_table(app, "imhotep", [("Bea", 5, 2), ("Eve", 9, 1)],
                                          when=at(9))),             # newer than all others
        lambda: api.post("/players/merge", {"keep": ana, "merge": players.get("Eve") or
                                            _id(api, "Eve")}, token="admin"),
    ]
    seen = [first]
    for change in changes:
        answer = change()
        assert getattr(answer, "status_code", 200) in (200, 201), answer.get_json()
        seen.append(check())
    assert all(seen[i] != seen[i + 1] for i in range(len(seen) - 1))


def _id(api, name):
    return {p["name"]: p["player_id"] for p in api.get("/players").get_json()["players"]}[name]


def test_a_newer_play_continues_the_cached_ladders_and_an_older_one_rebuilds_them(app, client):
    api = Api(client)
    for hour in (1, 2):
        api.record(finished_table(app, "ra", [("Ana", 30, 1), ("Bea", 20, 2)], when=at(hour)))
    first = _summary(app, api.id)
    assert _summary(app, api.id) is first                    # nothing changed: reused
    api.record(finished_table(app, "ra", [("Bea", 30, 1), ("Ana", 20, 2)], when=at(3)))
    newer = _summary(app, api.id)
    assert newer is not first and newer.builder is first.builder
    assert newer.plays[:2] == first.plays and len(newer.plays) == 3
    assert newer.tally is first.tally
    assert stats._titles(newer) == stats.titles(newer.plays, newer.ladders, newer.name_of)
    assert first.nemeses == stats.nemeses(first.plays, first.name_of)      # taken back then
    assert first.ladders.rated_plays == 2 and newer.ladders.rated_plays == 3
    api.record(finished_table(app, "ra", [("Bea", 30, 1), ("Ana", 20, 2)], when=at(0)))
    older = _summary(app, api.id)
    assert older.builder is not newer.builder and older.ladders.rated_plays == 4
    assert older.version == newer.version + 1 == first.version + 2


def test_a_play_recorded_with_a_table_token_is_counted_at_once(app, client):
    """The version is read from the group row the request already has; the recording raises
    it in the same transaction, so the very next read sees the play."""
    api = Api(client)
    assert api.get("").get_json()["play_count"] == 0
    table = finished_table(app, "ra", [("Ana", 30, 1), ("Bea", 20, 2)], when=at(1))
    api.post("/plays", {"table": table, "table_token": TABLE_TOKEN})
    assert api.get("").get_json()["play_count"] == 1
