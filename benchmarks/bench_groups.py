"""Time a big group's pages and API (home, ladder, a player) against a bare Flask baseline.

Usage: ``python benchmarks/bench_groups.py [plays] [--players 80] [--repeat 7]
[--backend sqlite|pg|both] [--profile] [--smoke]`` (default 20 000 plays, SQLite).

The group is written straight into the database (multi-row INSERTs, seconds, not timed): the
same seeded history as ``bench_ladder.py`` (``players`` people, our five games, 2–5 seats a
play, scores 0–60 so some ties). Then, in this process through the Flask test client (the
same app factory, engine and templates as ``serve``), each of these is timed:

* web ``/groups/{id}`` (home), ``/groups/{id}/ladder``, ``/groups/{id}/players/{p}``;
* API ``/api/v1/groups/{id}``, ``…/ladder``, ``…/players/{p}``;

in three states: **cold** (the first request after the server started: nothing cached),
**warm** (the median of ``repeat`` requests) and **after a play** (the first request after
one more play was recorded through the group service, as a phone records it). The bare
baseline, in the same run and on the same database file, is a Flask app that reads the group
row by id and answers it as JSON: the floor any group request stands on. PostgreSQL uses the
database ``scribe_bench_groups`` (created if missing, emptied each run).

Targets (issue 21): every page and API call under 300 ms, warm and after a play.
``--smoke`` builds 100 plays and times each request three times (tests/test_benchmarks.py).
"""

from __future__ import annotations

import argparse
import os
import cProfile
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

from flask import Flask, jsonify
from sqlalchemy import create_engine, insert, select, text

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_ladder import PLAYERS, synthetic  # noqa: E402
from companion import create_app, db  # noqa: E402
from companion.config import TestConfig  # noqa: E402
from companion.models import (GameTable, Group, GroupMembership, Player, Result,  # noqa: E402
                              Seat, utcnow)
from companion.services import groups  # noqa: E402
from companion.services.tokens import hash_token  # noqa: E402
from postgres import empty_database  # noqa: E402

INVITE, ADMIN = "bench-invite-token", "bench-admin-token"
TARGET_MS = 300.0


def reset_pg() -> str:
    """An empty ``scribe_bench_groups`` database (created if missing)."""
    return empty_database("scribe_bench_groups")


def build(url: str, count: int, players: int) -> tuple[int, int]:
    """Write a group of ``count`` plays by ``players`` people; returns (group id, player id)."""
    plays = synthetic(count, players=players)
    engine = db.make_engine(url)
    with engine.begin() as connection:
        group_id = connection.execute(insert(Group).returning(Group.id), {
            "name": "Bench", "created_at": utcnow(), "invite_token_hash": hash_token(INVITE),
            "admin_token_hash": hash_token(ADMIN)}).scalar_one()
        ids = connection.execute(
            insert(Player).returning(Player.id, sort_by_parameter_order=True),
            [{"name": f"P{p}", "created_at": plays[0].played_at}
             for p in range(1, players + 1)]).scalars().all()
        connection.execute(insert(GroupMembership), [{"group_id": group_id, "player_id": p}
                                                     for p in ids])
        for start in range(0, len(plays), 2000):
            chunk = plays[start:start + 2000]
            connection.execute(insert(GameTable), [{
                "id": one.table_id, "game": one.game, "mode": "score", "status": "finished",
                "options": {}, "group_id": group_id, "created_at": one.played_at,
                "finished_at": one.played_at, "version": 0} for one in chunk])
            lines = [(one.table_id, line) for one in chunk for line in one.lines]
            seat_ids = connection.execute(
                insert(Seat).returning(Seat.id, sort_by_parameter_order=True),
                [{"table_id": table_id, "position": line.position,
                  "player_id": ids[line.player_id - 1], "name": line.name}
                 for table_id, line in lines]).scalars().all()
            connection.execute(insert(Result), [
                {"seat_id": seat_id, "total": line.total, "rank": line.rank, "breakdown": {}}
                for seat_id, (_table, line) in zip(seat_ids, lines)])
    engine.dispose()
    return group_id, ids[0]


def record_one_more(app, group_id: int, player_ids: list[int]) -> None:
    """A new finished play, recorded into the group through the service (as a phone does)."""
    engine = app.extensions["scribe.engine"]
    from sqlmodel import Session
    with Session(engine) as session:
        table = GameTable(game="ra", mode="score", status="finished", options={},
                          created_at=utcnow(), finished_at=utcnow(),
                          keeper_hash=hash_token("bench-keeper"))
        session.add(table)
        session.flush()
        for position, player_id in enumerate(player_ids):
            seat = Seat(table_id=table.id, position=position, player_id=player_id,
                        name=f"P{player_id}")
            session.add(seat)
            session.flush()
            session.add(Result(seat_id=seat.id, total=40 - position, rank=position + 1,
                               breakdown={}))
        session.commit()
        group = session.get(Group, group_id)
        groups.record_play(session, group, table.id, table_token="bench-keeper")


def bare_app(url: str) -> Flask:
    """Flask, one SELECT of the group row by id, a JSON answer: the floor of a group request."""
    engine = db.make_engine(url)
    app = Flask("bare")
    query = select(Group.id, Group.name)

    @app.get("/bare/groups/<int:group_id>")
    def read(group_id: int):
        with engine.connect() as connection:
            row = connection.execute(query.where(Group.id == group_id)).first()
        return jsonify({"id": row.id, "name": row.name})

    return app


def timed(client, url: str, headers: dict, profiler: cProfile.Profile | None = None
          ) -> tuple[float, float]:
    """One GET: (wall ms, this process's CPU ms); it must answer 200. On a busy machine the
    CPU time is the steadier figure (SQLite runs in this process, so it counts its work)."""
    if profiler:
        profiler.enable()
    cpu, started = time.process_time(), time.perf_counter()
    answer = client.get(url, headers=headers)
    elapsed = (time.perf_counter() - started) * 1000, (time.process_time() - cpu) * 1000
    if profiler:
        profiler.disable()
    assert answer.status_code == 200, (url, answer.status_code, answer.get_data(as_text=True))
    return elapsed


def median(samples: list[tuple[float, float]]) -> tuple[float, float]:
    return (statistics.median(s[0] for s in samples), statistics.median(s[1] for s in samples))


def measure(backend: str, count: int, players: int, repeat: int, profile: bool) -> list[tuple]:
    """Build the group on ``backend`` and time every request; returns the figure rows."""
    with tempfile.TemporaryDirectory() as tmp:
        url = reset_pg() if backend == "pg" else f"sqlite:///{Path(tmp) / 'bench.db'}"
        db.upgrade(url)
        started = time.perf_counter()
        group_id, player_id = build(url, count, players)
        built = time.perf_counter() - started
        app = create_app(TestConfig(Path(tmp) / "instance", url))
        web, api, bare = app.test_client(), app.test_client(), bare_app(url).test_client()
        assert web.get(f"/g/{ADMIN}").status_code == 303          # the phone holds the link
        bearer = {"Authorization": f"Bearer {INVITE}"}
        requests = [("web home", web, f"/groups/{group_id}", {}),
                    ("web ladder", web, f"/groups/{group_id}/ladder", {}),
                    ("web player", web, f"/groups/{group_id}/players/{player_id}", {}),
                    ("API group", api, f"/api/v1/groups/{group_id}", bearer),
                    ("API ladder", api, f"/api/v1/groups/{group_id}/ladder", bearer),
                    ("API player", api, f"/api/v1/groups/{group_id}/players/{player_id}",
                     bearer)]
        profiler = cProfile.Profile() if profile else None
        rows = []
        bare_url = f"/bare/groups/{group_id}"
        timed(bare, bare_url, {})
        bare_ms = median([timed(bare, bare_url, {}) for _ in range(repeat)])
        with app.app_context():
            for label, client, path, headers in requests:
                cold = timed(client, path, headers, profiler)
                warm = median([timed(client, path, headers) for _ in range(repeat)])
                rows.append([label, cold, warm])
            for row, (label, client, path, headers) in zip(rows, requests):
                record_one_more(app, group_id, [player_id, player_id + 1, player_id + 2])
                row.append(timed(client, path, headers, profiler))
        print(f"{backend}: {count} plays ({players} players) built in {built:.1f} s; load "
              f"{os.getloadavg()[0]:.1f}; bare GET (1 SELECT, JSON): {bare_ms[0]:.2f} ms "
              f"(CPU {bare_ms[1]:.2f} ms), medians of {repeat}")
        print(f"  ms, wall (CPU)  {'cold':>15} {'warm':>15} {'after a play':>15} "
              f"{'bare/warm':>10}")
        for label, cold, warm, after in rows:
            flag = "" if max(warm[0], after[0]) < TARGET_MS else "  over 300 ms wall"
            print(f"  {label:<14} " + " ".join(f"{w:7.1f} ({c:6.1f})" for w, c in
                                               (cold, warm, after))
                  + f" {bare_ms[0] / warm[0]:10.3f}{flag}")
        if profiler:
            print("\nTop costs of the cold and after-a-play requests (cProfile, cumulative):")
            pstats.Stats(profiler).strip_dirs().sort_stats("cumulative").print_stats(40)
        app.extensions["scribe.engine"].dispose()
        return rows


def main(argv: list[str] | None = None) -> list[tuple]:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("plays", type=int, nargs="?", default=20_000)
    parser.add_argument("--players", type=int, default=PLAYERS)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--backend", choices=("sqlite", "pg", "both"), default="sqlite")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--smoke", action="store_true",
                        help="100 plays, three requests each: proves the benchmark runs")
    args = parser.parse_args(argv)
    if args.smoke:
        args.plays, args.repeat, args.players = 100, 1, 12
    backends = ("sqlite", "pg") if args.backend == "both" else (args.backend,)
    rows = []
    for backend in backends:
        rows += measure(backend, args.plays, args.players, args.repeat, args.profile)
    return rows


if __name__ == "__main__":
    main()
