"""Time the Silver & Gold – Pyramids live referee: one simultaneous turn of 4 players, and
whole games.

Usage: ``python benchmarks/bench_pyramids_engine.py [games] [--smoke]`` (default 300; smoke
3). Random games on our
print-and-play cards (2-4 players) are generated first; only their replay is timed:

* one turn of 4 players: validating the 4 marks of a step against the step's first state (what
  the server does when 4 phones send their marks; target < 2 ms), the same 4 marks sent as the
  phone page sends them (every cell tapped, shuffled: the referee finds the pattern and orders
  the extra marks), and validate + apply of the 4 marks including the turn's close (race,
  replacements queued);
* a whole game: validate + apply of every move from set-up (what rebuilding a table does).

Each figure is printed next to a bare baseline measured in the same run: deep-copying the
same number of states, and the ratio.
"""

from __future__ import annotations

import copy
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.rules.base import normalise_options, resolve_edition  # noqa: E402
from companion.rules.pyramids import PYRAMIDS  # noqa: E402

engine = PYRAMIDS      # the game through its protocol (the engine module became rooms)

Log = list[tuple[int, dict[str, Any]]]
NAMES = ["P1", "P2", "P3", "P4"]


def deal(rng: random.Random, players: int) -> dict[str, Any]:
    numbers = rng.sample(range(1, 49), 4 * players + 4)
    return {"hands": [{"dealt": numbers[4 * s:4 * s + 4],
                       "kept": rng.sample(numbers[4 * s:4 * s + 4], 2)}
                      for s in range(players)], "offer": numbers[4 * players:]}


def random_game(seed: int, players: int) -> tuple[dict[str, Any], Log, list]:
    """A game of random legal moves (the table's draws by weight from what is left); the log,
    and every marking step as (state at its start, [(seat, move)])."""
    rng = random.Random(seed)
    table = deal(rng, players)
    state = PYRAMIDS.setup(normalise_options(PYRAMIDS, {}), NAMES[:players], table,
                           resolve_edition(PYRAMIDS.edition, {}))
    log: Log = []
    steps = []
    while not engine.is_over(state):
        waiting = engine.awaiting(state)
        if state["phase"] == "mark":
            start = state
            moves = [(seat, rng.choice(engine.legal_moves(start, seat)))
                     for seat in sorted(waiting.seats)]
            for seat, move in moves:
                state = engine.apply(state, seat, move)
                log.append((seat, move))
            steps.append((start, moves))
            continue
        seat = min(waiting.seats)
        chance = engine.chance(state)
        if state["phase"] == "replace" and rng.random() < 0.6:
            move = rng.choice([m for m in engine.legal_moves(state, seat)
                               if m["source"] == "offer"] or [chance.draw(rng)])
        else:
            move = chance.draw(rng)
        state = engine.apply(state, seat, move)
        log.append((seat, move))
    return table, log, steps


def best_of(runs: int, work) -> float:
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - started)
    return best


def main(count: int) -> None:
    games = [(seed, 2 + seed % 3, *random_game(seed, 2 + seed % 3)) for seed in range(count)]
    moves = sum(len(log) for *_, log, _ in games)
    four = [step for _, players, _, _, steps in games if players == 4 for step in steps
            if len(step[1]) == 4]

    def validate_turns() -> None:
        for start, marks in four:
            for seat, move in marks:
                PYRAMIDS.validate(start, seat, move)

    shuffler = random.Random(1)
    tapped = []
    for start, marks in four:
        taps = []
        for seat, move in marks:
            if move["type"] == "mark":
                cells = list(move["cells"]) + list(move.get("extra", ()))
                shuffler.shuffle(cells)
                move = {"type": "mark", "marks": cells}
            taps.append((seat, move))
        tapped.append((start, taps))

    def validate_taps() -> None:
        for start, marks in tapped:
            for seat, move in marks:
                PYRAMIDS.validate(start, seat, move)

    def apply_turns() -> None:
        for start, marks in four:
            state = start
            for seat, move in marks:
                state = PYRAMIDS.apply(state, seat, move)

    def copy_turns() -> None:
        for start, marks in four:
            for _ in marks:
                copy.deepcopy(start)

    validate = best_of(3, validate_turns) / len(four) * 1000
    taps = best_of(3, validate_taps) / len(four) * 1000
    applied = best_of(3, apply_turns) / len(four) * 1000
    copied = best_of(3, copy_turns) / len(four) * 1000
    print(f"Pyramids: {len(four)} marking steps of 4 players")
    print(f"  validate 4 marks: {validate:.3f} ms per turn (target < 2 ms)")
    print(f"  validate 4 marks sent as the cells tapped, shuffled: {taps:.3f} ms per turn")
    print(f"  validate + apply 4 marks and close the turn: {applied:.3f} ms per turn")
    print(f"  baseline, deep-copy the state 4 times: {copied:.3f} ms per turn "
          f"(validate / baseline {validate / copied:.2f}, apply / baseline "
          f"{applied / copied:.2f})")

    edition = resolve_edition(PYRAMIDS.edition, {})
    options = normalise_options(PYRAMIDS, {})

    def replay() -> None:
        for _, players, table, log, _ in games:
            state = PYRAMIDS.setup(options, NAMES[:players], table, edition)
            for seat, move in log:
                state = PYRAMIDS.apply(state, seat, move)

    states = []
    for _, players, table, log, _ in games:
        state = PYRAMIDS.setup(options, NAMES[:players], table, edition)
        for seat, move in log:
            states.append(state)
            state = PYRAMIDS.apply(state, seat, move)

    def copy_states() -> None:
        for state in states:
            copy.deepcopy(state)

    whole = best_of(3, replay)
    baseline = best_of(3, copy_states)
    print(f"Pyramids: {count} games (2-4 players), {moves / count:.0f} moves per game")
    print(f"  validate + apply: {whole / count * 1000:.2f} ms per game, "
          f"{whole / moves * 1e6:.1f} µs per move (best of 3)")
    print(f"  baseline, deep-copy one state per move: {baseline / count * 1000:.2f} ms per "
          f"game (ratio {whole / baseline:.2f})")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from games import count_argument  # noqa: E402

    main(count_argument(300, 3))
