"""BG Stats: export → import round trip, import reports and refusals, atomicity, the createPlay
link, CSV export, and the game catalogue."""

from __future__ import annotations

import csv
import io
import json
import random
import threading
from datetime import datetime, timedelta
from urllib.parse import parse_qs, urlparse

import pytest
from sqlmodel import Session, select

from companion.models import AuditEntry, GameTable, Group, Player, Result
from companion.rules import all_rulesets
from companion.services import bgstats, groups, ladder
from companion.services.history import load_plays

from tests.api.livetable import LiveTable
from tests.liveserver import RA_OPENING

from .builders import Api, at, engine, finished_table, rows

pytestmark = pytest.mark.db


def _history(app, group_id):
    """Every finished play of a group, comparable across groups: game, second, location,
    voided, and the seats (current name, total, rank) in order."""
    with Session(engine(app)) as session:
        tables = session.exec(select(GameTable).where(GameTable.group_id == group_id)).all()
        names = {p.id: p.name for p in groups.members(session, group_id)}
        out = []
        for table in tables:
            lines = bgstats._seat_rows(session, [table.id]).get(table.id, [])
            out.append((table.game, (table.finished_at or table.created_at)
                        .replace(microsecond=0, tzinfo=None).isoformat(),
                        table.location, table.voided_at is not None,
                        tuple((names[s.player_id], r.total, r.rank) for s, r in lines)))
        return sorted(out)


def _group_with_history(app, client):
    api = Api(client, "Source")
    plays = [("ra", [("Ana", 43, 1), ("Bea", 40, 2), ("<b>Cyril</b>", 12, 3)], "Home"),
             ("imhotep", [("Bea", 38, 1), ("Ana", 38, 1), ("Dora", 30, 3)], None),
             ("pharaon", [("Dora", 81, 1), ("Ana", 64, 2)], "Café, \"U Kocoura\""),
             ("pyramids", [("Cyril", 55, 2), ("Bea", 70, 1)], "Home"),
             ("valley", [("Ana", 25, 1), ("Dora", -3, 2)], None),
             ("ra", [("Ana", 10, 3), ("Bea", 20, 2), ("Dora", 30, 1)], None)]
    ids = []
    for hour, (game, seats, place) in enumerate(plays, 1):
        ids.append(finished_table(app, game, seats, when=at(hour).replace(microsecond=250),
                                  location=place))
        api.record(ids[-1])
    api.post(f"/plays/{ids[-1]}/void", {}, token="admin")
    return api, ids


def test_round_trip_reproduces_every_play(app, client):
    source, _ids = _group_with_history(app, client)
    exported = source.get("/export/bgstats")
    assert exported.status_code == 200
    assert "attachment" in exported.headers["Content-Disposition"]
    backup = exported.get_json()
    assert {g["name"]: g["bggId"] for g in backup["games"]} == {
        "Ra": 12, "Imhotep": 191862, "Pharaon": 0, "Valley of the Kings: Afterlife": 175223,
        "Silver & Gold – Pyramids": 0}
    first = backup["plays"][0]
    assert first["playDate"] == "2025-03-01 20:00:00"
    assert [s["score"] for s in first["playerScores"]] == ["43", "40", "12"]   # strings
    assert [s["seatOrder"] for s in first["playerScores"]] == [1, 2, 3]
    assert [s["winner"] for s in first["playerScores"]] == [True, False, False]
    assert [s["startPlayer"] for s in first["playerScores"]] == [True, False, False]
    assert [p["ignored"] for p in backup["plays"]] == [False] * 5 + [True]

    target = Api(client, "Empty")
    answer = target.client.post(target.url("/import/bgstats"), data=json.dumps(backup),
                                content_type="application/json",
                                headers={"Authorization": f"Bearer {target.admin}"})
    assert answer.status_code == 200, answer.get_json()
    report = answer.get_json()
    assert (report["imported"], report["voided"], report["skipped"]) == (6, 1, [])
    assert _history(app, target.id) == _history(app, source.id)
    with Session(engine(app)) as session:
        old = ladder.rebuild(load_plays(session, source.id))
        new = ladder.rebuild(load_plays(session, target.id))
    by_name = {"source": _by_name(app, source.id, old), "target": _by_name(app, target.id, new)}
    assert by_name["source"] == by_name["target"]
    # the same file again: every play is already there
    again = target.client.post(target.url("/import/bgstats"), data=json.dumps(backup),
                               content_type="application/json",
                               headers={"Authorization": f"Bearer {target.admin}"})
    assert again.get_json()["imported"] == 0
    assert {s["error"] for s in again.get_json()["skipped"]} == {"import.duplicate"}


def _by_name(app, group_id, built):
    with Session(engine(app)) as session:
        names = {p.id: p.name for p in groups.members(session, group_id)}
    return {names[p]: (round(r.mu, 9), round(r.sigma, 9)) for p, r in built.overall.items()}


def _backup(plays, players=None, games=None, locations=None):
    return {"players": players if players is not None else [
                {"id": 1, "name": "Ana"}, {"id": 2, "name": "Bea"}, {"id": 3, "name": "Cyril"}],
            "games": games if games is not None else [
                {"id": 10, "name": "Ra", "bggId": 12},
                {"id": 11, "name": "Catan", "bggId": 13},
                {"id": 12, "name": "Pharaon", "bggId": 0},
                {"id": 13, "name": "Golf-like", "bggId": 0},
                {"id": 14, "name": "silver and gold – pyramids", "highestWins": False}],
            "locations": locations if locations is not None else [{"id": 5, "name": "Home"}],
            "plays": plays}


def _scores(*entries):
    return [{"playerRefId": ref, "score": score, **extra} for ref, score, extra in entries]


def test_import_reports_every_skipped_play(app, client):
    api = Api(client)
    ana = api.join("ana")                 # matched by name, any case
    good = {"gameRefId": 10, "playDate": "2024-05-01 20:00:00", "locationRefId": 5,
            "playerScores": _scores((1, "40", {}), (2, "35", {}), (3, 35, {}))}
    backup = _backup([
        good,
        {**good, "playDate": "2024-05-02 20:00:00",
         "playerScores": _scores((1, "3+6", {}), (2, "35", {}))},
        {**good, "playDate": "2024-05-03 20:00:00",
         "playerScores": _scores((1, "10", {}), (9, "35", {}))},
        {**good, "gameRefId": 99},
        {**good, "gameRefId": 11},
        {**good, "gameRefId": 11, "playDate": "2024-05-04 20:00:00"},
        {**good, "playDate": "yesterday"},
        {**good, "playDate": "2024-05-05 20:00:00", "playerScores": []},
        "not a play",
        {**good, "playDate": "2024-05-06 20:00:00",
         "playerScores": _scores((1, "4.5", {}), (2, "3", {}))},
        {**good, "playDate": "2024-05-07 20:00:00",
         "playerScores": _scores((1, "4", {}), (1, "3", {}))},
        {**good, "gameRefId": 12, "playDate": "2024-05-08 20:00:00", "ignored": True,
         "locationRefId": 77,
         "playerScores": _scores((3, "70", {"rank": 2, "seatOrder": 2}),
                                 (2, "60", {"rank": 1, "seatOrder": 1}))},
        {**good, "gameRefId": 14, "playDate": "2024-05-09T20:00:00",
         "playerScores": _scores((1, "12", {}), (2, "30", {}), (3, "12", {}))},
        {**good, "playDate": "2024-05-10 20:00:00",
         "playerScores": _scores((1, "", {}), (2, "3", {}))},
    ])
    report = bgstats.ImportReport()
    with Session(engine(app), expire_on_commit=False) as session:
        group = session.get(Group, api.id)
        report = bgstats.import_bgstats(session, group, json.dumps(backup), actor="Bea")
    skipped = {(kind, index): v.code for kind, index, v in report.skipped}
    assert skipped == {("plays", 1): "import.bad_score", ("plays", 2): "import.missing_player",
                       ("plays", 3): "import.missing_game", ("plays", 4): "import.other_game",
                       ("plays", 5): "import.other_game", ("plays", 6): "import.bad_date",
                       ("plays", 7): "import.no_players", ("plays", 8): "import.bad_play",
                       ("plays", 9): "import.bad_score", ("plays", 10): "import.player_twice",
                       ("plays", 13): "import.missing_score"}
    by_index = {index: v for _kind, index, v in report.skipped}
    assert by_index[1].field == "plays.1.playerScores.0.score"
    assert by_index[1].render() == "The score “3+6” is not a whole number."
    assert report.other_games == {"Catan": 2}
    assert [(i, v.code) for _k, i, v in report.warnings] == [(11, "import.missing_location")]
    assert (report.imported, report.voided) == (3, 1)
    assert report.players_created == ["Bea", "Cyril"]
    tables = sorted(rows(app, GameTable, group_id=api.id), key=lambda t: t.created_at)
    assert [t.game for t in tables] == ["ra", "pharaon", "pyramids"]
    ra, pharaon, pyramids = (_seats(app, t.id) for t in tables)
    assert ra == [(ana, "ana", 40, 1), (ra[1][0], "Bea", 35, 2), (ra[2][0], "Cyril", 35, 2)]
    assert tables[0].location == "Home"
    assert [(name, total, rank) for _p, name, total, rank in pharaon] == \
        [("Bea", 60, 1), ("Cyril", 70, 2)]                     # seat order, ranks as given
    assert tables[1].voided_at is not None and tables[1].location is None
    assert [(name, rank) for _p, name, _t, rank in pyramids] == \
        [("ana", 1), ("Bea", 3), ("Cyril", 1)]               # lowest wins in that game
    assert tables[0].final_document["results_only"] is True
    (entry,) = rows(app, AuditEntry, action="import")
    assert entry.actor == "Bea" and entry.details["imported"] == 3
    assert entry.details["skipped"] == 11


def _seats(app, table_id):
    with Session(engine(app)) as session:
        lines = bgstats._seat_rows(session, [table_id])[table_id]
        names = {p.id: p.name for p in session.exec(select(Player)).all()}
        return [(s.player_id, names[s.player_id], r.total, r.rank) for s, r in lines]


@pytest.mark.parametrize("body, status, code", [
    (b"{not json", 422, "import.not_json"),
    (b"\xff\xfe\x00", 422, "import.not_json"),
    (b"[1, 2]", 422, "import.not_object"),
    (json.dumps({"players": [], "games": [], "plays": {}}).encode(), 422, "import.missing_list"),
    (json.dumps({"players": [], "plays": []}).encode(), 422, "import.missing_list"),
    (json.dumps({"players": [], "games": [], "plays": [{}] * 20001}).encode(), 422,
     "import.too_many_plays"),
    (b" " * (bgstats.MAX_IMPORT_BYTES + 1), 413, "import.too_large"),
])
def test_broken_files_import_nothing(app, client, body, status, code):
    api = Api(client)
    answer = client.post(api.url("/import/bgstats"), data=body,
                         content_type="application/json",
                         headers={"Authorization": f"Bearer {api.admin}"})
    assert answer.status_code == status
    assert (answer.get_json()["error"], answer.get_json()["imported"]) == (code, 0)
    assert rows(app, GameTable) == [] and rows(app, AuditEntry, action="import") == []


def test_an_interrupted_import_keeps_whole_batches_and_the_same_file_imports_the_rest(
        app, client, monkeypatch):
    """Plays are written in batches (issue 10): a batch that fails leaves the ones before it,
    the answer says how many are in, and sending the file again imports only the rest."""
    api = Api(client)
    plays = [{"gameRefId": 10, "playDate": f"2024-06-{day:02d} 20:00:00",
              "playerScores": _scores((1, str(day), {}), (2, "5", {}))} for day in range(1, 9)]
    plays[0]["uuid"] = "first-play"
    monkeypatch.setattr(bgstats, "IMPORT_BATCH", 3)
    monkeypatch.setattr(bgstats, "IMPORT_BATCH_MIN", 3)
    monkeypatch.setattr(bgstats, "IMPORT_BATCH_MAX", 3)
    monkeypatch.setattr(bgstats, "IMPORT_PAUSE", 0)
    write_batch, calls = bgstats._write_batch, []

    def failing_second_batch(*args, **kwargs):
        calls.append(1)
        began = write_batch(*args, **kwargs)     # its rows are added, then no commit comes
        if len(calls) == 2:
            raise RuntimeError("disk full")
        return began

    monkeypatch.setattr(bgstats, "_write_batch", failing_second_batch)
    post = lambda: client.post(api.url("/import/bgstats"), data=json.dumps(_backup(plays)),  # noqa: E731
                               content_type="application/json",
                               headers={"Authorization": f"Bearer {api.admin}"})
    answer = post()
    assert answer.status_code == 503
    body = answer.get_json()
    assert (body["error"], body["field"], body["imported"]) == ("import.interrupted", "file", 3)
    assert body["players_created"] == ["Ana", "Bea"]
    assert "3" in body["message"]
    assert len(rows(app, GameTable)) == 3 and len(rows(app, Result)) == 6
    (entry,) = rows(app, AuditEntry, action="import")
    assert (entry.details["imported"], entry.details["complete"]) == (3, False)

    monkeypatch.setattr(bgstats, "_write_batch", write_batch)
    again = post()
    assert again.status_code == 200
    assert again.get_json()["imported"] == 5 and again.get_json()["players_created"] == []
    assert [s["error"] for s in again.get_json()["skipped"]] == ["import.duplicate"] * 3
    tables = rows(app, GameTable, group_id=api.id)
    assert len(tables) == 8 and len(rows(app, Result)) == 16
    assert sorted(t.finished_at.day for t in tables) == list(range(1, 9))
    assert sorted(p.name for p in rows(app, Player)) == ["Ana", "Bea"]
    assert [(e.details["imported"], e.details["complete"])
            for e in rows(app, AuditEntry, action="import")] == [(3, False), (5, True)]


def test_a_malformed_file_is_refused_before_any_batch_is_written(app, client, monkeypatch):
    """Validate first, write after: a file refused whole writes nothing, however long."""
    api = Api(client)
    monkeypatch.setattr(bgstats, "IMPORT_BATCH", 2)
    good = [{"gameRefId": 10, "playDate": f"2024-06-{day:02d} 20:00:00",
             "playerScores": _scores((1, "4", {}), (2, "5", {}))} for day in range(1, 9)]
    broken = {**_backup(good), "locations": "Home"}        # refused after the plays were read
    answer = client.post(api.url("/import/bgstats"), data=json.dumps(broken),
                         content_type="application/json",
                         headers={"Authorization": f"Bearer {api.admin}"})
    assert answer.status_code == 422 and answer.get_json()["error"] == "import.missing_list"
    assert rows(app, GameTable) == [] and rows(app, Player) == []


def synthetic_backup(plays: int, seed: int = 7) -> dict:
    """A BG Stats backup of ``plays`` Ra plays of 3 out of 30 players, one a minute."""
    rng = random.Random(seed)
    players = [{"id": n, "uuid": f"player-{n}", "name": f"Player {n}"} for n in range(1, 31)]
    start = datetime(2019, 1, 1, 18, 0)
    return _backup([{
        "uuid": f"play-{n}", "gameRefId": 10,
        "playDate": (start + timedelta(minutes=n)).strftime("%Y-%m-%d %H:%M:%S"),
        "playerScores": [{"playerRefId": ref, "score": str(rng.randint(0, 80))}
                         for ref in rng.sample(range(1, 31), 3)]} for n in range(plays)],
        players=players)


def test_a_big_import_never_keeps_a_move_on_another_table_waiting(app, client, monkeypatch):
    """The import holds the database one short batch at a time (issue 10), never across
    batches: at every gap between two batches the import stops until a move (or an undo) on a
    live table has been answered, and each is answered with 200. An import that kept its
    transaction open from one batch to the next would keep that move waiting and the test
    would stop at the guard below. Shown by the order of events, not by a time budget that a
    busy machine can miss."""
    api = Api(client)
    monkeypatch.setattr(bgstats, "IMPORT_BATCH", 100)
    monkeypatch.setattr(bgstats, "IMPORT_BATCH_MIN", 100)
    monkeypatch.setattr(bgstats, "IMPORT_BATCH_MAX", 100)
    monkeypatch.setattr(bgstats, "IMPORT_PAUSE", 0)
    backup = json.dumps(synthetic_backup(600))
    table = LiveTable(app.test_client())
    events: list[str] = []
    at_gap, moved = threading.Event(), threading.Event()
    write_batch = bgstats._write_batch

    def batch_after_a_move(*args, **kwargs):
        if "batch" in events:                 # the batch before is committed: a gap
            events.append("gap")
            at_gap.set()
            assert moved.wait(GUARD), "no move came"
            moved.clear()
        events.append("batch")
        return write_batch(*args, **kwargs)

    monkeypatch.setattr(bgstats, "_write_batch", batch_after_a_move)
    answers: list = []
    importer = threading.Thread(target=lambda: answers.append(app.test_client().post(
        api.url("/import/bgstats"), data=backup, content_type="application/json",
        headers={"Authorization": f"Bearer {api.admin}"})))
    importer.start()
    statuses = []
    requests = [lambda: table.move(*RA_OPENING[0]), lambda: table.undo(table.host)]
    try:
        while importer.is_alive() or at_gap.is_set():
            if not at_gap.wait(0.05):
                continue
            at_gap.clear()
            mover = threading.Thread(target=lambda: statuses.append(
                requests[len(statuses) % 2]().status_code))
            mover.start()
            mover.join(GUARD)              # a guard against a hang, not a time budget
            assert not mover.is_alive(), "a move waited for the whole import"
            events.append("move")
            moved.set()
    finally:
        moved.set()
        importer.join(GUARD)
    assert answers[0].status_code == 200, answers[0].get_data(as_text=True)
    assert answers[0].get_json()["imported"] == 600
    assert len(rows(app, GameTable, group_id=api.id)) == 600
    assert events == ["batch"] + ["gap", "move", "batch"] * 5
    assert statuses == [200] * 5


GUARD = 60          # seconds: only ever reached when something hangs


def test_sqlite_waits_for_a_writer_rather_than_failing(app):
    """A writer that finds the database busy waits (busy_timeout) instead of answering
    "database is locked" at once."""
    if not app.config["DATABASE_URL"].startswith("sqlite"):
        pytest.skip("SQLite only")
    with engine(app).connect() as connection:
        assert connection.exec_driver_sql("PRAGMA busy_timeout").scalar() >= 5000


def test_import_needs_the_admin_and_accepts_a_form_upload(app, client):
    api = Api(client)
    backup = json.dumps(_backup([{"gameRefId": 10, "playDate": "2024-05-01 20:00:00",
                                  "playerScores": _scores((1, "4", {}), (2, "3", {}))}]))
    refused = client.post(api.url("/import/bgstats"), data=backup,
                          content_type="application/json",
                          headers={"Authorization": f"Bearer {api.invite}"})
    assert refused.status_code == 403
    answer = client.post(api.url("/import/bgstats"),
                         data={"file": (io.BytesIO(backup.encode()), "backup.json"),
                               "actor": "Ana"},
                         content_type="multipart/form-data",
                         headers={"Authorization": f"Bearer {api.admin}"})
    assert answer.status_code == 200 and answer.get_json()["imported"] == 1
    assert rows(app, AuditEntry, action="import")[0].actor == "Ana"


def test_create_play_link(app, client):
    api = Api(client)
    table = finished_table(app, "imhotep", [("Ana", 30, 2), ("Bea", 41, 1)], when=at(1),
                           location="Home")
    api.record(table)
    with Session(engine(app)) as session:
        url = bgstats.create_play_url(session, table)
        playing = finished_table(app, "ra", [("A", 0, 1), ("B", 0, 1)], status="playing")
        assert bgstats.create_play_url(session, playing) is None
        assert bgstats.create_play_url(session, "unknown") is None
    parsed = urlparse(url)
    assert f"{parsed.scheme}://{parsed.netloc}{parsed.path}" == \
        "https://app.bgstatsapp.com/createPlay.html"
    data = json.loads(parse_qs(parsed.query)["data"][0])
    assert data["game"] == {"name": "Imhotep", "bggId": 191862, "highestWins": True,
                            "noPoints": False, "sourceGameId": "imhotep"}
    assert data["playDate"] == "2025-03-01 20:00:00" and data["location"] == "Home"
    assert [(p["name"], p["score"], p["rank"], p["winner"], p["startPlayer"])
            for p in data["players"]] == [("Ana", 30, 2, False, True),
                                          ("Bea", 41, 1, True, False)]


def test_csv_export(app, client):
    api = Api(client)
    table = finished_table(app, "ra", [("=HYPERLINK(1)", 30, 1), ("Bea, \"B\"", 20, 2)],
                           when=at(1), location="-Garden")
    api.record(table)
    answer = api.get("/export/csv")
    assert answer.status_code == 200 and answer.mimetype == "text/csv"
    lines = list(csv.reader(io.StringIO(answer.get_data(as_text=True))))
    assert lines[0] == ["play", "played_at", "game", "location", "voided", "seat", "player",
                        "seat_name", "score", "rank", "winner"]
    assert lines[1] == [table, "2025-03-01T20:00:00+00:00", "ra", "'-Garden", "no", "1",
                        "'=HYPERLINK(1)", "'=HYPERLINK(1)", "30", "1", "yes"]
    assert lines[2][6:] == ["Bea, \"B\"", "Bea, \"B\"", "20", "2", "no"]


def test_game_catalogue():
    assert {g.id: g.bgg_id for g in bgstats.GAMES.values()} == {
        "ra": 12, "imhotep": 191862, "pharaon": None, "valley": 175223,
        "pyramids": None}
    for game in bgstats.GAMES.values():
        assert (str(game.bgg_id) in game.source) if game.bgg_id else \
            game.source.startswith("unverified")
    assert list(bgstats.GAMES) == [r.id for r in all_rulesets()]     # from the catalogue
    assert bgstats.match_game("RA", 0) == "ra"
    assert bgstats.match_game("Something", 12) == "ra"
    assert bgstats.match_game("Ra", 99999) is None            # same name, another game
    assert bgstats.match_game("Pharaon", 252526) == "pharaon"  # its id is not verified
    assert bgstats.match_game("Silver & Gold – Pyramids", 0) == "pyramids"
    assert bgstats.match_game("Valley of the Kings: Afterlife", None) == "valley"
    assert bgstats.match_game("Catan", 13) is None


@pytest.mark.parametrize("raw, value", [("42", 42), (" -3 ", -3), ("+5", 5), ("7.0", 7),
                                        (12, 12), (8.0, 8), ("3+6", None), ("4.5", None),
                                        ("", None), (True, None), ("1e3", None), (None, None)])
def test_parse_score(raw, value):
    assert bgstats.parse_score(raw) == value


def test_plays_of_the_same_second_keep_their_order_through_a_round_trip(app, client):
    """BG Stats dates have whole seconds: plays saved within one second come back in the
    file's order, so the imported ladder equals the exported one (issue 11 §8)."""
    api = Api(client, "Fast")
    results = [[("Ana", 10, 1), ("Bea", 5, 2)], [("Bea", 10, 1), ("Ana", 5, 2)],
               [("Bea", 10, 1), ("Ana", 5, 2)], [("Ana", 10, 1), ("Bea", 5, 2)],
               [("Bea", 10, 1), ("Cyril", 5, 2)], [("Cyril", 10, 1), ("Ana", 5, 2)],
               [("Ana", 10, 1), ("Cyril", 5, 2)], [("Bea", 10, 1), ("Ana", 5, 2)]]
    second = at(1)
    for index, seats in enumerate(results):
        seats = [(name, total + index, rank) for name, total, rank in seats]   # not duplicates
        table = finished_table(app, "ra", seats, when=second.replace(microsecond=index * 1000))
        api.record(table)
    backup = api.get("/export/bgstats").get_json()
    assert len({play["playDate"] for play in backup["plays"]}) == 1      # one second
    target = Api(client, "Copy")
    answer = target.client.post(target.url("/import/bgstats"), data=json.dumps(backup),
                                content_type="application/json",
                                headers={"Authorization": f"Bearer {target.admin}"})
    assert answer.get_json()["imported"] == len(results)
    with Session(engine(app)) as session:
        old = ladder.rebuild(load_plays(session, api.id))
        new = ladder.rebuild(load_plays(session, target.id))
    assert _by_name(app, target.id, new) == _by_name(app, api.id, old)


def test_a_play_of_10000_seats_is_refused_before_any_member_is_made(app, client):
    """Issue 21 §1: a play with more seats than its game ever has is skipped at once, naming
    the limit; no member is created for it, and the report lists a bounded number of entries."""
    api = Api(client)
    people = [{"id": n, "name": f"P{n}"} for n in range(1, 10_001)]
    huge = {"gameRefId": 10, "playDate": "2024-05-01 20:00:00",
            "playerScores": _scores(*((n, "1", {}) for n in range(1, 10_001)))}
    small = {"gameRefId": 10, "playDate": "2024-05-02 20:00:00",
             "playerScores": _scores((1, "4", {}), (2, "3", {}))}
    answer = api.post("/import/bgstats", json=_backup([huge, small], players=people),
                      token="admin")
    assert answer.status_code == 200, answer.get_json()
    body = answer.get_json()
    skipped = [s for s in body["skipped"] if s["error"] == "import.too_many_players"]
    assert skipped and skipped[0]["index"] == 0 and skipped[0]["field"] == "plays.0.playerScores"
    assert "5" in skipped[0]["message"]
    assert len(body["players_created"]) <= 2
    assert rows(app, Player) and len(rows(app, Player)) <= 3


def test_an_import_report_lists_a_bounded_number_of_skipped_plays(app, client):
    api = Api(client)
    bad = [{"gameRefId": 10, "playDate": "not a date", "playerScores": _scores((1, "4", {}))}
           for _ in range(1_000)]
    body = api.post("/import/bgstats", json=_backup(bad), token="admin").get_json()
    assert len(body["skipped"]) == bgstats.MAX_LISTED_ENTRIES
    assert body["skipped_not_listed"] == 1_000 - bgstats.MAX_LISTED_ENTRIES


def test_a_play_already_imported_is_known_by_its_uuid_even_when_edited_since(app, client):
    """BG Stats keeps a play's uuid when it is edited there: sending it again (another score,
    another time) is a duplicate, found by the uuid read out of the kept document."""
    api = Api(client)
    play = {"uuid": "play-kept", "gameRefId": 10, "playDate": "2024-05-01 20:00:00",
            "playerScores": _scores((1, "4", {}), (2, "3", {}))}
    assert api.post("/import/bgstats", json=_backup([play]), token="admin") \
        .get_json()["imported"] == 1
    edited = {**play, "playDate": "2024-05-01 21:30:00",
              "playerScores": _scores((1, "9", {}), (2, "3", {}))}
    body = api.post("/import/bgstats", json=_backup([edited]), token="admin").get_json()
    assert body["imported"] == 0
    assert [s["error"] for s in body["skipped"]] == ["import.duplicate"]


def test_an_import_cut_by_a_storage_fault_renews_the_connections(app, client, monkeypatch):
    """Issue 21 §2: a batch the database could not write answers ``import.interrupted`` and,
    as every other request that meets a storage fault, renews the pooled connections (a SQLite
    connection opened during the fault stays read-only), so the next import works."""
    from sqlalchemy.exc import OperationalError

    from companion import db

    api = Api(client)
    plays = [{"gameRefId": 10, "playDate": "2024-06-01 20:00:00",
              "playerScores": _scores((1, "7", {}), (2, "5", {}))}]
    healed = []
    monkeypatch.setattr(db, "heal", lambda engine: healed.append(engine))

    def read_only(*args, **kwargs):
        raise OperationalError("INSERT", {}, Exception("attempt to write a readonly database"))

    write_batch = bgstats._write_batch
    monkeypatch.setattr(bgstats, "_write_batch", read_only)
    post = lambda: client.post(api.url("/import/bgstats"), data=json.dumps(_backup(plays)),  # noqa: E731
                               content_type="application/json",
                               headers={"Authorization": f"Bearer {api.admin}"})
    answer = post()
    assert answer.status_code == 503 and answer.get_json()["error"] == "import.interrupted"
    assert healed == [app.extensions["scribe.engine"]]
    monkeypatch.setattr(bgstats, "_write_batch", write_batch)
    assert post().get_json()["imported"] == 1
