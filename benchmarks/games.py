"""Seeded random games for the benchmarks, through the Ruleset protocol only: (game, options,
names, setup, move log).

A table opens with random variants and the default physical start, its lists dealt in a
random order; an awaited seat makes a random legal move, and what the table would draw (a Ra
tile, a round card, market cards) is drawn from ``chance(state)`` by weight, as from a real bag
or pile. Any registered live game works: a new game's engine benchmark is
``main(<game id>)`` (see bench_ra_engine.py).
"""

from __future__ import annotations

import copy
import random
import sys
import time
from typing import Any, Callable, Sequence

from companion.rules import get_ruleset
from companion.rules.base import (BoolField, ListField, Ruleset, RuleViolation,
                                  normalise_options, resolve_edition)

Move = dict[str, Any]
Log = list[tuple[int, Move]]
Game = tuple[str, dict[str, Any], list[str], dict[str, Any], Log]
Chooser = Callable[[random.Random, Sequence[Move]], Move]


def kind_then_move(rng: random.Random, moves: Sequence[Move]) -> Move:
    """A kind of move first, then one of its moves (kinds with many variants do not crowd
    out the others)."""
    kind = rng.choice(sorted({move["type"] for move in moves}))
    return rng.choice([move for move in moves if move["type"] == kind])


def any_move(rng: random.Random, moves: Sequence[Move]) -> Move:
    """Any legal move, each as likely (in Ra mostly draws, as at a real table)."""
    return rng.choice(moves)


def _open(ruleset: Ruleset, players: int, rng: random.Random) -> tuple[dict, list, dict, Any]:
    """Random variants the game accepts for this player count, and a dealt start."""
    names = [f"P{seat}" for seat in range(players)]
    edition = resolve_edition(ruleset.edition, None)
    for _ in range(20):
        options = normalise_options(ruleset, {
            option.key: rng.random() < 0.5 for option in ruleset.options
            if isinstance(option, BoolField)})
        setup = copy.deepcopy(ruleset.default_setup(players))
        for item in ruleset.setup_schema(players).fields:
            if isinstance(item, ListField) and isinstance(setup.get(item.key), list):
                rng.shuffle(setup[item.key])
        try:
            return options, names, setup, ruleset.setup(options, names, setup, edition)
        except RuleViolation:
            continue          # a variant that does not fit this player count: draw again
    raise RuntimeError(f"no table of {ruleset.id} opens for {players} players")


def random_game(game: str, seed: int, players: int | None = None,
                choose: Chooser = kind_then_move) -> Game:
    """One random game of ``game`` played to the end."""
    ruleset = get_ruleset(game)
    rng = random.Random(seed)
    counts = ruleset.catalogue.live_player_counts
    options, names, setup, state = _open(ruleset, players or counts[seed % len(counts)], rng)
    log: Log = []
    while not ruleset.is_over(state):
        seat = rng.choice(sorted(ruleset.awaiting(state).seats))
        move = choose(rng, ruleset.legal_moves(state, seat))
        outcome = ruleset.chance(state)
        if outcome is not None and seat in outcome.seats and all(
                move.get(key) == value for key, value in outcome.move.items()):
            move = outcome.draw(rng)
        state = ruleset.apply(state, seat, move)
        log.append((seat, move))
    return game, options, names, setup, log


def ra_game(seed: int, players: int | None = None) -> Game:
    """A random game of Ra for 2-5 players (2 with the two_player option)."""
    return random_game("ra", seed, players or 2 + seed % 4, choose=any_move)


def imhotep_game(seed: int, players: int | None = None) -> Game:
    """A random game of Imhotep for 2-4 players with A, B and mixed sides."""
    return random_game("imhotep", seed, players)


def _states(games: Sequence[Game]) -> list[list[dict[str, Any]]]:
    """Every state of every game, from setup on."""
    out = []
    for game, options, names, setup, log in games:
        ruleset = get_ruleset(game)
        state = ruleset.setup(options, names, setup, resolve_edition(ruleset.edition, None))
        states = [state]
        for seat, move in log:
            state = ruleset.apply(state, seat, move)
            states.append(state)
        out.append(states)
    return out


def replay_time(games: Sequence[Game]) -> tuple[float, float]:
    """(ms per game, µs per move) to validate + apply every move from setup, best of 3;
    what the web layer does when it rebuilds a table's state (design.md §3)."""
    moves = sum(len(game[-1]) for game in games)
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        _states(games)
        best = min(best, time.perf_counter() - started)
    return best / len(games) * 1000, best / moves * 1e6


def deepcopy_time(games: Sequence[Game]) -> float:
    """The bare baseline: ms per game to deep-copy each of its states once (what a naive
    engine copying the whole state per move would spend), best of 3."""
    states = _states(games)
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        for game_states in states:
            for state in game_states:
                copy.deepcopy(state)
        best = min(best, time.perf_counter() - started)
    return best / len(games) * 1000


def count_argument(default: int, smoke: int) -> int:
    """The count a benchmark was given (``bench_x.py [count]``), or ``smoke`` with ``--smoke``
    (a few seconds: tests/test_benchmarks.py proves each benchmark still runs)."""
    if "--smoke" in sys.argv[1:]:
        return smoke
    numbers = [a for a in sys.argv[1:] if not a.startswith("--")]
    return int(numbers[0]) if numbers else default


def main(game: str, make: Callable[[int], Game] | None = None) -> None:
    """The engine benchmark of ``game``: ``python benchmarks/bench_<game>_engine.py [games]
    [--smoke]`` (default 500; smoke 3). The games are generated first; only their replay is
    timed, against the bare baseline in the same run."""
    count = count_argument(500, 3)
    games = [(make or (lambda seed: random_game(game, seed)))(seed) for seed in range(count)]
    per_game, per_move = replay_time(games)
    baseline = deepcopy_time(games)
    name = get_ruleset(game).catalogue.name()
    print(f"{name}: {count} games, {sum(len(g[-1]) for g in games) / count:.0f} moves per game")
    print(f"validate+apply: {per_game:.2f} ms per game, {per_move:.2f} µs per move "
          f"(best of 3; target < 10 ms per game)")
    print(f"baseline, deep-copy every state once: {baseline:.2f} ms per game; "
          f"ratio {per_game / baseline:.2f}")
