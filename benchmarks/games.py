"""Seeded random games for the benchmarks, in the seam's terms: (game, options, names, setup,
move log). Legal moves are chosen at random; what the table would draw (a Ra tile, market
cards) is drawn by weight from what is left, as from a real bag or pile."""

from __future__ import annotations

import random
import time
from typing import Any, Sequence

from companion.rules import get_ruleset
from companion.rules.imhotep import engine as imhotep
from companion.rules.imhotep import tables as imhotep_tables
from companion.rules.ra import engine as ra
from companion.rules.ra import tables as ra_tables

Log = list[tuple[int, dict[str, Any]]]
Game = tuple[str, dict[str, Any], list[str], dict[str, Any], Log]


def ra_game(seed: int, players: int | None = None) -> Game:
    """A random game of Ra for 2-5 players (2 with the two_player option)."""
    rng = random.Random(seed)
    players = players or 2 + seed % 4
    groups = [list(g) for g in ra_tables.SUN_GROUPS[players]]
    rng.shuffle(groups)
    options = {"two_player": players == 2}
    names = [f"P{i}" for i in range(players)]
    state = ra.setup(options, names, groups)
    log: Log = []
    while not ra.is_over(state):
        seat = ra.to_act(state)
        move = rng.choice(ra.legal_moves(state, seat))
        if move["type"] == "draw":
            bag = state["bag"]
            move = {"type": "draw", "tile": rng.choices(list(bag), weights=list(bag.values()))[0]}
        state = ra.apply(state, seat, move)
        log.append((seat, move))
    return "ra", options, names, {"sun_groups": groups}, log


def _draw(rng: random.Random, counts: dict[str, int], n: int) -> list[str]:
    return rng.sample([kind for kind, count in counts.items() for _ in range(count)], n)


def _reveal(rng: random.Random, state: dict) -> dict:
    """The market cards that come up: from the pile, then from the reshuffled discards."""
    shown, _ = imhotep._reveal_counts(state)
    deck, discard, pile = state["deck"], state["discard"], imhotep.pile_count(state)
    if pile >= shown:
        cards = _draw(rng, deck, shown)
    elif state["discard_unknown"] == 0:
        cards = _draw(rng, deck, pile) + _draw(rng, discard, shown - pile)
    else:
        cards = _draw(rng, {k: deck[k] + discard[k] for k in deck}, shown)
    return {"type": "reveal_market", "cards": cards}


def imhotep_game(seed: int) -> Game:
    """A random game of Imhotep for 2-4 players with A, B and mixed sides."""
    rng = random.Random(seed)
    players = 2 + seed % 3
    options = {f"b_{site}": rng.random() < 0.5 for site in imhotep_tables.SITES}
    names = [f"P{i}" for i in range(players)]
    setup = {"colors": list(imhotep_tables.COLOURS[:players]),
             "start_player": rng.randrange(players)}
    state = imhotep.setup(options, names, setup)
    log: Log = []
    while not imhotep.is_over(state):
        seat = imhotep.to_act(state)
        if state["phase"] == "market":
            move = _reveal(rng, state)
        else:
            moves = imhotep.legal_moves(state, seat)
            kind = rng.choice(sorted({m["type"] for m in moves}))
            move = rng.choice([m for m in moves if m["type"] == kind])
            if kind == "draw_card" or (kind == "use_bonus" and "card" in move):
                move = {**move, "card": _draw(rng, imhotep._drawable(state), 1)[0]}
        state = imhotep.apply(state, seat, move)
        log.append((seat, move))
    return "imhotep", options, names, setup, log


def replay_time(games: Sequence[Game]) -> tuple[float, float]:
    """(ms per game, µs per move) to validate + apply every move from setup, best of 3;
    what the web layer does when it rebuilds a table's state (design.md §3)."""
    moves = sum(len(game[-1]) for game in games)
    best = float("inf")
    for _ in range(3):
        started = time.perf_counter()
        for game, options, names, setup, log in games:
            ruleset = get_ruleset(game)
            state = ruleset.setup(options, names, setup)
            for seat, move in log:
                state = ruleset.apply(state, seat, move)
        best = min(best, time.perf_counter() - started)
    return best / len(games) * 1000, best / moves * 1e6
