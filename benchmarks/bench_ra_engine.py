"""Time the Ra live-play referee: validate + apply every move of whole random games.

Usage: ``PYTHONPATH=. python benchmarks/bench_ra_engine.py [games]`` (default 500).

Games are first played with seeded random choices among ``legal_moves`` (a drawn tile is
picked by bag weight, as from a real bag); then only the replay of each move log from
``setup`` is timed, which is what the web layer does for every request (design.md §3).
"""

from __future__ import annotations

import random
import sys
import time

from companion.rules.ra import engine as e
from companion.rules.ra import tables as t


def random_log(seed: int) -> tuple[tuple, list[tuple[int, dict]]]:
    """Setup arguments and the move log of one random game."""
    rng = random.Random(seed)
    players = 2 + seed % 4
    groups = [list(g) for g in t.SUN_GROUPS[players]]
    rng.shuffle(groups)
    args = ({"two_player": players == 2}, [f"P{i}" for i in range(players)], groups)
    state = e.setup(*args)
    log = []
    while not e.is_over(state):
        seat = e.to_act(state)
        move = rng.choice(e.legal_moves(state, seat))
        if move["type"] == "draw":
            bag = state["bag"]
            move = {"type": "draw",
                    "tile": rng.choices(list(bag), weights=list(bag.values()))[0]}
        state = e.apply(state, seat, move)
        log.append((seat, move))
    return args, log


def main(games: int) -> None:
    logs = [random_log(seed) for seed in range(games)]
    moves = sum(len(log) for _, log in logs)
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        for args, log in logs:
            state = e.setup(*args)
            for seat, move in log:
                state = e.apply(state, seat, move)
        best = min(best, time.perf_counter() - started)
    print(f"{games} games, {moves / games:.0f} moves per game on average")
    print(f"validate+apply: {best / games * 1000:.2f} ms per game, "
          f"{best / moves * 1e6:.2f} µs per move (best of 3)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 500)
