"""Benchmark: POST /api/v1/tables/{id}/moves against a bare Flask endpoint that inserts a row.

Run on demand (not a test):

    python benchmarks/bench_moves.py [--games 20] [--profile] [--smoke]

Both apps run in this process through the Flask test client, each on its own SQLite file in
WAL mode (the same engine settings, companion.db.make_engine), and get the same requests: the
moves of seeded random Ra games (3 to 5 players, legal moves picked at random, drawn tiles
by bag weight), game after game, each on a new table. The bare endpoint parses the JSON body
and inserts one row in one transaction; Scribe looks up the seat token, replays nothing (the
state cache is warm), validates and applies the move, bumps the version with a conditional
UPDATE, appends the move, writes the Results at the end, and answers the phone's view.
Requests are interleaved game by game so that both see the same machine state.

Printed: requests/s, p50 and p99 latency for both, the ratio (target >= 0.6), and the mean
time to validate + apply a whole random game in the engine alone (target < 10 ms). The
over-the-wire figures are benchmarks/bench_live_load.py's.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from flask import Flask, request
from sqlalchemy import Column, Integer, MetaData, String, Table, Text, insert

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion import create_app, db  # noqa: E402
from companion.config import TestConfig  # noqa: E402
from games import imhotep_game, ra_game, replay_time  # noqa: E402

Log = list[tuple[int, dict[str, Any]]]


def ra_table_game(seed: int):
    """Ra for 3-5 players (the seed edition's counts)."""
    return ra_game(seed, players=3 + seed % 3)


def bare_app(database: Path) -> Flask:
    """Flask and one INSERT per request: the floor any move endpoint stands on."""
    engine = db.make_engine(f"sqlite:///{database}")
    rows = Table("move", MetaData(), Column("id", Integer, primary_key=True),
                 Column("table_id", String(32)), Column("idempotency_key", String(80)),
                 Column("move", Text), Column("version", Integer))
    rows.metadata.create_all(engine)
    app = Flask("bare")

    @app.post("/api/v1/tables/<table_id>/moves")
    def move(table_id: str):
        body = request.get_json()
        with engine.begin() as connection:
            connection.execute(insert(rows).values(
                table_id=table_id, idempotency_key=body["idempotency_key"],
                move=json.dumps(body["move"]), version=body["version"] + 1))
        return {"version": body["version"] + 1}

    return app


def open_table(client, game, options, names, setup) -> tuple[str, list[str]]:
    response = client.post("/api/v1/tables", json={"game": game, "options": options,
                                                   "players": names, "setup": setup})
    assert response.status_code == 201, response.get_data(as_text=True)
    table = response.get_json()["id"]
    tokens = [client.post(f"/api/v1/tables/{table}/seats/{seat}/claim").get_json()["seat_token"]
              for seat in range(len(names))]
    return table, tokens


def play(client, table: str, tokens: list[str], log: Log, timings: list[float],
         game: int) -> None:
    """POST every move of ``log``; the latency of each request goes to ``timings``."""
    url = f"/api/v1/tables/{table}/moves"
    for version, (seat, move) in enumerate(log):
        body = json.dumps({"move": move, "version": version,
                           "idempotency_key": f"g{game}m{version}"})
        headers = {"Authorization": f"Bearer {tokens[seat]}"}
        started = time.perf_counter()
        response = client.post(url, data=body, content_type="application/json",
                               headers=headers)
        timings.append(time.perf_counter() - started)
        assert response.status_code == 200, response.get_data(as_text=True)


def figures(timings: list[float]) -> tuple[float, float, float]:
    """(requests/s, p50 ms, p99 ms)."""
    ordered = sorted(timings)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return len(timings) / sum(timings), statistics.median(ordered) * 1000, p99 * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20, help="random games (tables) to play")
    parser.add_argument("--profile", action="store_true",
                        help="also profile the Scribe requests with cProfile (top costs)")
    parser.add_argument("--smoke", action="store_true",
                        help="one Ra game: proves the benchmark still runs")
    args = parser.parse_args()
    if args.smoke:
        args.games = 1
    kinds = (("Ra", ra_table_game), ("Imhotep", imhotep_game))
    for label, make in kinds[:1] if args.smoke else kinds:
        measure(label, [make(seed) for seed in range(args.games + 1)], args.profile)


def measure(label: str, games, profile: bool) -> None:
    """Play ``games`` through Scribe and the same requests through the bare app; print."""
    profiler = cProfile.Profile() if profile else None
    with tempfile.TemporaryDirectory() as tmp:
        config = TestConfig(Path(tmp) / "scribe")
        config.RATE_LIMIT_OPEN_TABLE = "10000 per minute"   # one client opens every table
        db.upgrade(config.DATABASE_URL)
        scribe = create_app(config).test_client()
        bare = bare_app(Path(tmp) / "bare.db").test_client()
        scribe_times: list[float] = []
        bare_times: list[float] = []
        for number, (game, options, names, setup, log) in enumerate(games):
            warm_up = number == 0
            table, tokens = open_table(scribe, game, options, names, setup)
            play(bare, f"bare{number}", tokens, log, [] if warm_up else bare_times, number)
            if profiler and not warm_up:
                profiler.enable()
            play(scribe, table, tokens, log, [] if warm_up else scribe_times, number)
            if profiler and not warm_up:
                profiler.disable()
    measured = games[1:]
    moves = sum(len(log) for *_, log in measured)
    bare_rps, bare_p50, bare_p99 = figures(bare_times)
    rps, p50, p99 = figures(scribe_times)
    print(f"{label}: {len(measured)} random games, {moves} moves, SQLite files (WAL), "
          f"Flask test client in-process")
    print(f"  bare Flask POST + 1 INSERT:       {bare_rps:7.0f} req/s   p50 {bare_p50:6.2f} ms"
          f"   p99 {bare_p99:6.2f} ms")
    print(f"  POST /api/v1/tables/{{id}}/moves: {rps:7.0f} req/s   p50 {p50:6.2f} ms   "
          f"p99 {p99:6.2f} ms")
    print(f"  ratio moves/bare: {rps / bare_rps:.2f} (target >= 0.6)")
    print(f"  engine alone, validate + apply a whole game: {replay_time(measured)[0]:.2f} ms "
          f"(best of 3; target < 10 ms)")
    if profiler:
        print("\nTop costs of the move requests (cProfile, by own time):")
        stats = pstats.Stats(profiler).strip_dirs().sort_stats("tottime")
        stats.print_stats(20)
        print("By cumulative time:")
        stats.sort_stats("cumulative").print_stats(35)


if __name__ == "__main__":
    main()
