"""Shared by the engines' play-out tests: how fast the recorded games replay (printed, not
asserted: speed is measured by the benchmarks)."""

from __future__ import annotations

import time
from typing import Any, Callable, Sequence


def print_replay_speed(game: str, logs: Sequence[tuple[Any, list]],
                       replay: Callable[[Any, list], Any]) -> None:
    """Replay every (seed, log) and print the time per game and per move."""
    started = time.perf_counter()
    moves = 0
    for seed, log in logs:
        replay(seed, log)
        moves += len(log)
    elapsed = time.perf_counter() - started
    print(f"\n{game} engine: {len(logs)} random games, {moves / len(logs):.0f} moves/game, "
          f"{elapsed / len(logs) * 1000:.2f} ms per game to validate+apply "
          f"({elapsed / moves * 1e6:.1f} µs per move)")
