"""Time the story of a long finished game (issue 22: "the page of a 300-move game renders in
under 300 ms") against the live table page of the same table, in the same run.

Usage: ``PYTHONPATH=. python benchmarks/bench_story.py [--smoke]``

A seeded five-player Ra game (the longest of a few seeds, about 300 moves) is played to the
end through the live-table service on a throwaway SQLite database; then, through the Flask
test client (the app's whole request path, no network):

* **baseline**: ``GET /tables/<id>``, the finished table's own page;
* **story, first**: ``GET /tables/<id>/story`` when the story is not built yet (one pass over
  the game: replay, moments, a score per chapter);
* **story**: the same page once built (what every later reader pays);
* **step**: ``GET /tables/<id>/story/<n>`` for steps spread over the game (the state from the
  nearest snapshot, then the game's own page).

Figures are medians in ms; the ratios are against the baseline. ``--smoke`` plays a short
game and times each page once (the suite runs it so the benchmark never rots).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.games import ra_game  # noqa: E402
from companion import create_app, db  # noqa: E402
from companion.config import TestConfig  # noqa: E402
from companion.services import live_tables as live  # noqa: E402
from companion.services import story as stories  # noqa: E402


def _median_ms(call, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        call()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main(smoke: bool = False) -> dict[str, float]:
    seeds = [0] if smoke else range(6)
    game = max((ra_game(seed, 2 if smoke else 5) for seed in seeds), key=lambda g: len(g[-1]))
    _name, options, names, setup, log = game
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/bench.db"
        db.upgrade(url)
        app = create_app(TestConfig(Path(folder), url))
        with app.app_context():
            session = db.session()
            table = live.open_table(session, "ra", options, names, setup).table
            for number, (seat, move) in enumerate(log):
                live.submit_move(session, table, seat, move, table.version, f"m{number}")
            table_id, moves = table.id, len(log)
        client = app.test_client()
        repeat = 1 if smoke else 15

        def get(path: str) -> None:
            response = client.get(path)
            assert response.status_code == 200, (path, response.status_code)

        baseline = _median_ms(lambda: get(f"/tables/{table_id}"), repeat)
        firsts = []
        for _ in range(1 if smoke else 5):
            stories.forget()
            firsts.append(_median_ms(lambda: get(f"/tables/{table_id}/story"), 1))
        first = statistics.median(firsts)
        warm = _median_ms(lambda: get(f"/tables/{table_id}/story"), repeat)
        spread = [0, moves // 3, moves // 2, moves - 1, moves]
        steps = [_median_ms(lambda s=s: get(f"/tables/{table_id}/story/{s}"), repeat)
                 for s in spread]
        app.extensions["scribe.engine"].dispose()
    step = statistics.median(steps)
    figures = {"moves": moves, "baseline": baseline, "first": first, "warm": warm,
               "step": step, "worst_step": max(steps)}
    print(f"Ra, {len(names)} players, {moves} moves (median ms over {repeat} requests)")
    print(f"  table page (baseline)      {baseline:7.1f} ms")
    print(f"  story page, first reader   {first:7.1f} ms  ({first / baseline:.2f}× baseline)")
    print(f"  story page, built          {warm:7.1f} ms  ({warm / baseline:.2f}× baseline)")
    print(f"  replay step (median/worst) {step:7.1f} / {max(steps):.1f} ms "
          f"({step / baseline:.2f}× baseline)")
    return figures


if __name__ == "__main__":
    main(smoke="--smoke" in sys.argv)
