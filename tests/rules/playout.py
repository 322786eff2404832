"""Seeded random play-outs of any registered game, through the Ruleset protocol only.

design.md §4 (3): a game is opened with random variants (``options``), a random physical
start drawn from its set-up schema (or its ``default_setup``) and its edition defaults, then
played to the end: an awaited seat makes a random legal move (a kind first, then one of its
moves), and a move that enters a physical outcome is drawn from ``chance(state)`` by weight,
as the table would draw it. Every step checks what the protocol promises:

* every state is plain JSON data (``json.loads(json.dumps(state)) == state``);
* ``apply`` never changes its input;
* every awaited seat has a legal move, and nobody is awaited once the game is over;
* the game ends within ``max_moves``.

A per-game test adds its own invariants (tiles, stones, cards conserved) with ``on_move``.
"""

from __future__ import annotations

import json
import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from companion.rules.base import (BoolField, ChoiceField, Edition, ListField, Ruleset,
                                  RuleViolation, normalise_options, resolve_edition)

Move = dict[str, Any]
Log = list[tuple[int, Move]]
Chooser = Callable[[random.Random, Mapping[str, Any], int, Sequence[Move]], Move]
OnMove = Callable[[Mapping[str, Any], int, Move, Mapping[str, Any]], None]

MAX_MOVES = 5000          # no registered game needs more; a game that does is stuck
SET_UP_ATTEMPTS = 20      # random variants tried before a table opens


@dataclass
class Playout:
    """One finished random game: how it was opened, its move log and its final state."""

    ruleset: Ruleset
    options: dict[str, Any]
    names: list[str]
    setup: dict[str, Any]
    edition: Edition
    log: Log = field(default_factory=list)
    state: dict[str, Any] = field(default_factory=dict)


def random_options(ruleset: Ruleset, rng: random.Random) -> dict[str, Any]:
    """Every declared option: a random value for a flag or a choice, the default otherwise."""
    chosen: dict[str, Any] = {}
    for option in ruleset.options:
        if isinstance(option, BoolField):
            chosen[option.key] = rng.random() < 0.5
        elif isinstance(option, ChoiceField) and option.values:
            chosen[option.key] = rng.choice(option.values)
    return normalise_options(ruleset, chosen)


def random_setup(ruleset: Ruleset, players: int, rng: random.Random) -> dict[str, Any]:
    """The default set-up with its lists dealt in a random order and a random seat for every
    seat choice (who starts, who holds which sun group…)."""
    start = json.loads(json.dumps(ruleset.default_setup(players)))
    for item in ruleset.setup_schema(players).fields:
        if isinstance(item, ListField) and isinstance(start.get(item.key), list):
            rng.shuffle(start[item.key])
        elif isinstance(item, ChoiceField) and item.seat_choice:
            start[item.key] = rng.randrange(players)
    return start


def open_table(ruleset: Ruleset, players: int, rng: random.Random,
               options: Mapping[str, Any] | None = None,
               edition: Edition | None = None) -> Playout:
    """A table the game accepts: random variants (unless ``options`` are given) and a random
    physical start, falling back to the default one; some variants fit only some player
    counts (Ra's two-player rules), so a refused draw is drawn again."""
    edition = edition or resolve_edition(ruleset.edition, None)
    names = [f"P{seat + 1}" for seat in range(players)]
    refusals: list[RuleViolation] = []
    for _ in range(SET_UP_ATTEMPTS):
        chosen = (normalise_options(ruleset, options) if options is not None
                  else random_options(ruleset, rng))
        for start in (random_setup(ruleset, players, rng), ruleset.default_setup(players)):
            try:
                state = ruleset.setup(chosen, names, start, edition)
            except RuleViolation as refusal:
                refusals.append(refusal)
                continue
            return Playout(ruleset, chosen, names, start, edition, [], state)
    raise AssertionError(f"{ruleset.id}: no table opens for {players} players: {refusals[-3:]}")


def kind_then_move(rng: random.Random, state: Mapping[str, Any], seat: int,
                   moves: Sequence[Move]) -> Move:
    """A random legal move: first a kind (so a kind with many variants does not crowd out
    the others), then one of its moves."""
    kind = rng.choice(sorted({move["type"] for move in moves}))
    return rng.choice([move for move in moves if move["type"] == kind])


def _enters(move: Mapping[str, Any], base: Mapping[str, Any]) -> bool:
    """Whether ``move`` is the kind of move a chance outcome is entered with."""
    return all(move.get(key) == value for key, value in base.items())


def random_move(ruleset: Ruleset, state: Mapping[str, Any], rng: random.Random,
                choose: Chooser = kind_then_move,
                legal: Mapping[int, Sequence[Move]] | None = None) -> tuple[int, Move]:
    """A random awaited seat and a random legal move of it (``legal``: the seats' legal moves
    where the caller has them already); a move that enters a physical outcome is drawn from
    ``chance(state)`` by weight, as the table would draw it."""
    seat = rng.choice(sorted(ruleset.awaiting(state).seats))
    moves = legal[seat] if legal is not None else ruleset.legal_moves(state, seat)
    move = choose(rng, state, seat, moves)
    outcome = ruleset.chance(state)
    if outcome is not None and seat in outcome.seats and _enters(move, outcome.move):
        move = outcome.draw(rng)      # what came up, drawn as the table would draw it
    return seat, move


def play_along(ruleset: Ruleset, read: Callable[[], tuple[int, Mapping[str, Any]]],
               send: Callable[[int, Move, int], None],
               until: Callable[[Mapping[str, Any]], bool], seed: int,
               max_moves: int = MAX_MOVES) -> Mapping[str, Any]:
    """Play a live table onward with random legal moves until ``until(state)`` or the end;
    returns that state. ``read()`` gives the table's (version, state), ``send(seat, move,
    version)`` makes the move the way a phone's request would. A browser test plays the
    opening and the end of a game on its phones and the middle with this (issue 19)."""
    rng = random.Random(seed)
    for _ in range(max_moves):
        version, state = read()
        if ruleset.is_over(state) or until(state):
            return state
        seat, move = random_move(ruleset, state, rng)
        send(seat, move, version)
    raise AssertionError(f"{ruleset.id}: not there after {max_moves} moves")


def play(ruleset: Ruleset, seed: int, players: int | None = None, *,
         options: Mapping[str, Any] | None = None, edition: Edition | None = None,
         choose: Chooser = kind_then_move, on_move: OnMove | None = None,
         max_moves: int = MAX_MOVES) -> Playout:
    """Open a table and play it to the end with ``random.Random(seed)``; see the module
    docstring for what every step checks. ``on_move(before, seat, move, after)`` runs after
    every move."""
    rng = random.Random(seed)
    players = players or rng.choice(ruleset.catalogue.live_player_counts)
    game = open_table(ruleset, players, rng, options, edition)
    state = game.state
    text = json.dumps(state, sort_keys=True)        # the state as JSON, kept for the next move
    assert json.loads(text) == state, "the state is not plain JSON"
    while not ruleset.is_over(state):
        assert len(game.log) < max_moves, f"{ruleset.id}: no end after {max_moves} moves"
        awaited = sorted(ruleset.awaiting(state).seats)
        assert awaited, "nobody is awaited, but the game is not over"
        legal = {seat: ruleset.legal_moves(state, seat) for seat in awaited}
        for seat, moves in legal.items():
            assert moves, f"seat {seat} is awaited and has no legal move"
        seat, move = random_move(ruleset, state, rng, choose, legal)
        after = ruleset.apply(state, seat, move)
        assert json.dumps(state, sort_keys=True) == text, "apply changed its input"
        text = json.dumps(after, sort_keys=True)
        assert json.loads(text) == after, "the state is not plain JSON"
        if on_move is not None:
            on_move(state, seat, move, after)
        game.log.append((seat, move))
        state = after
    assert not ruleset.awaiting(state).seats, "a seat is awaited after the end"
    game.state = state
    return game


def replay(game: Playout) -> dict[str, Any]:
    """The state rebuilt from the table's opening and its move log (design.md §3)."""
    state = game.ruleset.setup(game.options, game.names, game.setup, game.edition)
    for seat, move in game.log:
        state = game.ruleset.apply(state, seat, move)
    return state


def print_replay_speed(label: str, logs: Sequence[tuple[Any, list]],
                       replay_one: Callable[[Any, list], Any]) -> None:
    """Replay every (key, log) with ``replay_one`` and print the time per game and per move
    (printed, not asserted: speed is measured by the benchmarks)."""
    started = time.perf_counter()
    for key, log in logs:
        replay_one(key, log)
    elapsed = time.perf_counter() - started
    moves = sum(len(log) for _key, log in logs) or 1
    print(f"\n{label} engine: {len(logs)} random games, {moves / len(logs):.0f} moves/game, "
          f"{elapsed / len(logs) * 1000:.2f} ms per game to validate+apply "
          f"({elapsed / moves * 1e6:.1f} µs per move)")


def print_playout_speed(games: Sequence[Playout]) -> None:
    """:func:`print_replay_speed` for generic play-outs."""
    print_replay_speed(games[0].ruleset.id, [(game, game.log) for game in games],
                       lambda game, _log: replay(game))
