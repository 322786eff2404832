"""Time the Imhotep live-play referee: validate + apply every move of whole random games.

Usage: ``PYTHONPATH=. python benchmarks/bench_imhotep_engine.py [games]`` (default 500).

Games (2-4 players, A, B and mixed sides) are first played with seeded random choices among
``legal_moves`` (a move kind first, then one of its moves; market cards as from a shuffled
pile); then only the replay of each move log from ``setup`` is timed, which is what the web
layer does for every request (design.md §3).
"""

from __future__ import annotations

import random
import sys
import time

from companion.rules.imhotep import engine as e
from companion.rules.imhotep import tables as t


def _draw(rng: random.Random, counts: dict[str, int], n: int) -> list[str]:
    return rng.sample([kind for kind, count in counts.items() for _ in range(count)], n)


def _reveal(rng: random.Random, state: dict) -> dict:
    shown, _ = e._reveal_counts(state)
    deck, discard, pile = state["deck"], state["discard"], e.pile_count(state)
    if pile >= shown:
        cards = _draw(rng, deck, shown)
    elif state["discard_unknown"] == 0:
        cards = _draw(rng, deck, pile) + _draw(rng, discard, shown - pile)
    else:
        cards = _draw(rng, {k: deck[k] + discard[k] for k in deck}, shown)
    return {"type": "reveal_market", "cards": cards}


def random_log(seed: int) -> tuple[tuple, list[tuple[int, dict]]]:
    """Setup arguments and the move log of one random game."""
    rng = random.Random(seed)
    players = 2 + seed % 3
    options = {f"b_{site}": rng.random() < 0.5 for site in t.SITES}
    args = (options, [f"P{i}" for i in range(players)],
            {"colors": list(t.COLOURS[:players]), "start_player": rng.randrange(players)})
    state = e.setup(*args)
    log = []
    while not e.is_over(state):
        seat = e.to_act(state)
        if state["phase"] == "market":
            move = _reveal(rng, state)
        else:
            moves = e.legal_moves(state, seat)
            kind = rng.choice(sorted({m["type"] for m in moves}))
            move = rng.choice([m for m in moves if m["type"] == kind])
            if kind == "draw_card" or (kind == "use_bonus" and "card" in move):
                move = {**move, "card": _draw(rng, e._drawable(state), 1)[0]}
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
