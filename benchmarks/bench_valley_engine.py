"""Time the Valley of the Kings referee of public events: validate + apply every move of whole
random games, against a bare baseline in the same run.

Usage: ``python benchmarks/bench_valley_engine.py [games] [--smoke]`` (default 300; smoke 3).
The games are
generated first by the test simulator (tests/rules/valley_sim.py: hidden hands, every
clarified action, 1-6 players, every pool); only their replay from setup is timed, as the
web layer rebuilds a table's state (design.md §3). The baseline deep-copies the same number of
states, what a naive engine would do per move.
"""

from __future__ import annotations

import copy
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.rules import get_ruleset  # noqa: E402
from tests.rules.valley_sim import Sim, random_options  # noqa: E402


def generate(count: int) -> list[Sim]:
    games = []
    for seed in range(count):
        players = 1 + seed % 6
        games.append(Sim(seed, players, random_options(random.Random(seed), players),
                         place_in_edition=seed % 3 != 0, check_every_move=False).run())
    return games


def replay(games: list[Sim]) -> tuple[float, list[dict]]:
    """Seconds to set up and validate+apply every game (best of 3), and the final states."""
    ruleset = get_ruleset("valley")
    best, finals = float("inf"), []
    for _ in range(3):
        finals = []
        started = time.perf_counter()
        for sim in games:
            state = ruleset.setup(sim.options, sim.names, sim.setup_doc, sim.edition)
            for seat, move in sim.log:
                state = ruleset.apply(state, seat, move)
            finals.append(state)
        best = min(best, time.perf_counter() - started)
    return best, finals


def baseline(games: list[Sim], finals: list[dict]) -> float:
    """Seconds to deep-copy one state per move (best of 3)."""
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        for sim, state in zip(games, finals):
            for _ in sim.log:
                copy.deepcopy(state)
        best = min(best, time.perf_counter() - started)
    return best


def main(count: int) -> None:
    games = generate(count)
    moves = sum(len(sim.log) for sim in games)
    elapsed, finals = replay(games)
    assert all(final == sim.state for final, sim in zip(finals, games))
    bare = baseline(games, finals)
    print(f"Valley of the Kings: {count} games, {moves / count:.0f} moves per game")
    print(f"validate+apply: {elapsed / count * 1000:.2f} ms per game, "
          f"{elapsed / moves * 1e6:.2f} µs per move (best of 3; target < 10 ms per game)")
    print(f"baseline (deep copy of one state per move): {bare / count * 1000:.2f} ms per game; "
          f"engine / baseline = {elapsed / bare:.2f}")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from games import count_argument  # noqa: E402

    main(count_argument(300, 3))
