"""Time the ladder rebuild against raw openskill ``rate()`` calls on the same plays.

Usage: ``PYTHONPATH=. python benchmarks/bench_ladder.py [plays] [--with-db] [--smoke]``
(default 100 000 plays; ``--smoke``: 300, with the database).

Synthetic history (seeded): 80 players, our five games, 2–5 players a play, scores 0–60 (so
some ties). Both sides make the same openskill calls — one ``rate()`` for the overall ladder
and one for the play's game, per play — in the same process, one after the other:

* **raw**: a bare loop over the plays calling ``PlackettLuce().rate`` and keeping the ratings
  in dicts (the least any ladder must do);
* **ladder**: ``companion.services.ladder.rebuild`` (the same calls plus play counts, the
  per-player timeline for the charts, and the provisional marks).

The ratio raw time / ladder time is the share of the raw rate the ladder keeps (target ≥ 0.5).
``--with-db`` also writes the plays to a throwaway SQLite database and times
``history.load_plays`` (what a page pays before rebuilding, when the cache misses).
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

from openskill.models import PlackettLuce

from companion.rules import all_rulesets
from companion.services import ladder
from companion.services.history import Line, Play

PLAYERS = 80
GAME_IDS = [ruleset.id for ruleset in all_rulesets()]     # the games a group may play


def synthetic(count: int, seed: int = 2026, players: int = PLAYERS) -> list[Play]:
    """``count`` plays by ``players`` people, oldest first, with competition ranks from random
    scores."""
    rng = random.Random(seed)
    start = datetime(2020, 1, 1, tzinfo=timezone.utc)
    plays = []
    for index in range(count):
        seated = rng.sample(range(1, players + 1), rng.randint(2, 5))
        totals = [rng.randint(0, 60) for _ in seated]
        ranks = [1 + sum(other > mine for other in totals) for mine in totals]
        lines = tuple(Line(p, f"P{p}", i, t, r)
                      for i, (p, t, r) in enumerate(zip(seated, totals, ranks)))
        plays.append(Play(f"t{index:07d}", rng.choice(GAME_IDS),
                          start + timedelta(minutes=index), None, lines))
    return plays


def raw_rate(plays: list[Play]) -> tuple[float, dict]:
    """The bare openskill loop: overall + per-game rate() per play."""
    model = PlackettLuce()
    rate, fresh = model.rate, model.rating
    overall: dict = {}
    games: dict = {}
    started = time.perf_counter()
    for one in plays:
        ids = [line.player_id for line in one.lines]
        ranks = [line.rank for line in one.lines]
        table = games.setdefault(one.game, {})
        new_overall = rate([[overall[p] if p in overall else fresh()] for p in ids],
                           ranks=ranks)
        new_game = rate([[table[p] if p in table else fresh()] for p in ids], ranks=ranks)
        for p, (o,), (g,) in zip(ids, new_overall, new_game):
            overall[p] = o
            table[p] = g
    return time.perf_counter() - started, overall


def with_db(plays: list[Play]) -> float:
    """Write the plays to SQLite (not timed) and time loading them back."""
    from sqlalchemy import insert
    from sqlmodel import Session

    from companion import db
    from companion.models import GameTable, Group, GroupMembership, Player, Result, Seat

    folder = Path(tempfile.mkdtemp())
    url = f"sqlite:///{folder / 'bench.db'}"
    db.upgrade(url)
    engine = db.make_engine(url)
    with Session(engine) as session:
        group = Group(name="bench")
        session.add(group)
        session.flush()
        session.execute(insert(Player), [{"id": p, "name": f"P{p}",
                                          "created_at": plays[0].played_at}
                                         for p in range(1, PLAYERS + 1)])
        session.execute(insert(GroupMembership), [{"group_id": group.id, "player_id": p}
                                                  for p in range(1, PLAYERS + 1)])
        session.execute(insert(GameTable), [{
            "id": one.table_id, "game": one.game, "mode": "score", "status": "finished",
            "options": {}, "group_id": group.id, "created_at": one.played_at,
            "finished_at": one.played_at, "version": 0} for one in plays])
        seats, results, seat_id = [], [], 0
        for one in plays:
            for line in one.lines:
                seat_id += 1
                seats.append({"id": seat_id, "table_id": one.table_id,
                              "position": line.position, "player_id": line.player_id,
                              "name": line.name})
                results.append({"seat_id": seat_id, "total": line.total, "rank": line.rank,
                                "breakdown": {}})
        session.execute(insert(Seat), seats)
        session.execute(insert(Result), results)
        session.commit()
        group_id = group.id
    from companion.services.history import load_plays
    with Session(engine) as session:
        started = time.perf_counter()
        loaded = load_plays(session, group_id)
        elapsed = time.perf_counter() - started
    assert len(loaded) == len(plays)
    engine.dispose()
    return elapsed


def main(count: int, db_too: bool) -> None:
    plays = synthetic(count)
    seats = sum(len(one.lines) for one in plays)
    print(f"{count} plays, {seats} seats, {PLAYERS} players, {len(GAME_IDS)} games; "
          f"2 rate() calls per play (overall + game)")
    raw_seconds, raw_overall = raw_rate(plays)
    started = time.perf_counter()
    built = ladder.rebuild(plays)
    ladder_seconds = time.perf_counter() - started
    same = all(built.overall[p].mu == r.mu and built.overall[p].sigma == r.sigma
               for p, r in raw_overall.items())
    print(f"raw openskill rate(): {raw_seconds:7.2f} s  {count / raw_seconds:9.0f} plays/s")
    print(f"ladder.rebuild():     {ladder_seconds:7.2f} s  {count / ladder_seconds:9.0f} plays/s")
    print(f"ladder / raw rate: {raw_seconds / ladder_seconds:.2f}x (target >= 0.5x); "
          f"same ratings: {same}")
    if db_too:
        print(f"load_plays from SQLite: {with_db(plays):.2f} s")


if __name__ == "__main__":
    arguments = [a for a in sys.argv[1:] if not a.startswith("--")]
    smoke = "--smoke" in sys.argv                     # a few seconds: tests/test_benchmarks.py
    main(300 if smoke else int(arguments[0]) if arguments else 100_000,
         smoke or "--with-db" in sys.argv)
