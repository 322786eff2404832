"""Time the Ra live-play referee: validate + apply every move of whole random games.

Usage: ``python benchmarks/bench_ra_engine.py [games]`` (default 500). The games come from
benchmarks/games.py; only their replay from setup is timed.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games import ra_game, replay_time  # noqa: E402


def main(count: int) -> None:
    games = [ra_game(seed) for seed in range(count)]
    per_game, per_move = replay_time(games)
    print(f"Ra: {count} games, {sum(len(g[-1]) for g in games) / count:.0f} moves per game")
    print(f"validate+apply: {per_game:.2f} ms per game, {per_move:.2f} µs per move "
          f"(best of 3; target < 10 ms per game)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 500)
