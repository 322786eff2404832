"""Time the Pharaon live referee and the gods optimiser.

Usage: ``python benchmarks/bench_pharaon_engine.py [games] [--smoke]`` (default 100; smoke 1).

1. Whole random 4-player games (default copy: the Nile in confirm mode, gods entered at the
   end): generated first (legal moves at random, draws by weight from what is left), then only
   their replay from set-up is timed — validate + apply of every move, what the web layer does
   when it rebuilds a table (design.md §3). Baseline in the same run: deep-copying as many
   states as the games have moves. Target: < 20 ms per game.
2. The gods' exact claim (spec §5.2) with the noble points that depend on it, per player, on
   the final tallies of those games.
"""

from __future__ import annotations

import copy
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.rules.base import normalise_options, resolve_edition  # noqa: E402
from companion.rules.pharaon import PHARAON  # noqa: E402
from companion.rules.pharaon.scoring import best_gods, nobles_total  # noqa: E402
from companion.rules.pharaon.tallies import actor_tallies  # noqa: E402

PLAYERS = 4
NAMES = [f"P{i}" for i in range(PLAYERS)]


def random_game(seed: int) -> tuple[list, dict]:
    """A seeded random game: its move log and final state."""
    rng = random.Random(seed)
    state = PHARAON.setup(normalise_options(PHARAON, {}), NAMES, PHARAON.default_setup(PLAYERS),
                          resolve_edition(PHARAON.edition, {}))
    log = []
    while not PHARAON.is_over(state):
        seat = min(PHARAON.awaiting(state).seats)
        draw = PHARAON.chance(state)
        if draw is not None:
            move = draw.draw(rng)
        else:
            moves = PHARAON.legal_moves(state, seat)
            kinds = sorted({m["type"] for m in moves})
            kind = rng.choice(kinds)
            if kind == "pass" and len(kinds) > 1 and rng.random() < 0.7:
                kind = rng.choice([k for k in kinds if k != "pass"])
            move = rng.choice([m for m in moves if m["type"] == kind])
        state = PHARAON.apply(state, seat, move)
        log.append((seat, move))
    return log, state


def replay(logs: list[list]) -> float:
    """Seconds to replay every log from set-up (best of 3)."""
    options = normalise_options(PHARAON, {})
    edition = resolve_edition(PHARAON.edition, {})
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        for log in logs:
            state = PHARAON.setup(options, NAMES, PHARAON.default_setup(PLAYERS), edition)
            for seat, move in log:
                state = PHARAON.apply(state, seat, move)
        best = min(best, time.perf_counter() - started)
    return best


def baseline(states: list[dict], copies: int) -> float:
    """Seconds to deep-copy ``copies`` states (best of 3): the cost of doing nothing smart."""
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        for i in range(copies):
            copy.deepcopy(states[i % len(states)])
        best = min(best, time.perf_counter() - started)
    return best


def gods_time(finals: list[dict]) -> tuple[float, int]:
    """Seconds per player for the exact claim on the final tallies (best of 3)."""
    cases = []
    for state in finals:
        tallies, board = actor_tallies(state)
        cases += [(tally, board) for tally in tallies]
    rounds = 20
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        for _ in range(rounds):
            for tally, board in cases:
                best_gods(board, tally.god_counts(),
                          lambda mask: nobles_total(tally, board, mask)[0])
        best = min(best, time.perf_counter() - started)
    return best / (rounds * len(cases)), len(cases)


def main(count: int) -> None:
    games = [random_game(seed) for seed in range(count)]
    logs = [log for log, _ in games]
    finals = [state for _, state in games]
    moves = sum(len(log) for log in logs)
    seconds = replay(logs)
    copies = baseline(finals, moves)
    per_game = seconds / count * 1000
    print(f"Pharaon, {PLAYERS} players: {count} games, {moves / count:.0f} moves per game")
    print(f"validate+apply: {per_game:.2f} ms per game, {seconds / moves * 1e6:.1f} µs per move "
          f"(best of 3; target < 20 ms per game)")
    print(f"baseline, deep copy of as many states: {copies / count * 1000:.2f} ms per game; "
          f"ratio {seconds / copies:.2f}")
    per_player, players = gods_time(finals)
    print(f"gods optimiser (32 subsets with the noble points): {per_player * 1e6:.1f} µs per "
          f"player ({players} players)")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from games import count_argument  # noqa: E402

    main(count_argument(100, 1))
