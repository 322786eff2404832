"""Builders for the Silver & Gold – Pyramids tests: games, moves, arranged positions."""

from __future__ import annotations

import copy
from collections import deque
from functools import partial
from typing import Any, Collection, Iterable, Mapping

from companion.rules.base import resolve_edition
from companion.rules.pyramids import PYRAMIDS
from companion.rules.pyramids import printed as t
from companion.rules.pyramids.edition import EDITION_VALUES
from companion.rules.pyramids.placement import NEIGHBOURS
from companion.rules.pyramids.state import Phase, card_grid
from tests.rules.refusals import assert_refused

NAMES = ["Lukáš", "Tomáš", "Sofie", "Ana"]

# spec §12.3: the placement fixture (a fictional card)
FIXTURE = ("#.E.#",
           ".R.X.",
           ".#S.G",
           "P..#T",
           "#.B.#")


# A record card's marks down to the row above its tomb: the entrance in the top row, then a
# mark in each row, so that the tomb may be the next mark (it is at least the 5th: seed, the
# entrance "v horním řádku", the tomb "ve spodním řádku", a "souvislou trasu" between them)
PATH = ("E", ".", ".", ".")


def edition(**values: Any):
    """The edition in force with these group entries (the rest at their defaults)."""
    return resolve_edition(EDITION_VALUES, values)


def hands(players: int, kept: Iterable[Iterable[int]] | None = None,
          offer: Iterable[int] | None = None) -> dict[str, Any]:
    """A set-up document: seat s keeps ``kept[s]`` (default 2s+1, 2s+2); the offer is the
    next four numbers unless given."""
    kept = [list(k) for k in kept] if kept is not None else [
        [2 * s + 1, 2 * s + 2] for s in range(players)]
    used = {n for k in kept for n in k}
    offer = list(offer) if offer is not None else [
        n for n in range(1, t.CARD_COUNT + 1) if n not in used][:t.OFFER_SIZE]
    return {"hands": [{"kept": k} for k in kept], "offer": offer}


def new_game(players: int = 2, cards: str = "ours", kept=None, offer=None,
             **entries: Any) -> dict[str, Any]:
    """A fresh game; ``entries`` are the group's edition values (published cards)."""
    return PYRAMIDS.setup({"cards": cards}, NAMES[:players], hands(players, kept, offer),
                   edition(**entries))


def fixture_game(players: int = 2, **entries: Any) -> dict[str, Any]:
    """The published cards with the §12.3 fixture entered as cards 1-8 (purple 1-4, orange
    5-8); seat s keeps 2s+1 and 2s+2."""
    layouts = [{"number": n, "colour": "purple" if n <= 4 else "orange", "grid": list(FIXTURE)}
               for n in range(1, 9)]
    return new_game(players, "published", card_layouts=layouts, **entries)


def connected(cells: Collection[int]) -> bool:
    """Whether the cells form one orthogonally connected group (an empty set does): the tests'
    check of the cards and of the marks the referee accepted."""
    if not cells:
        return True
    first = next(iter(cells))
    seen = {first}
    queue = deque([first])
    while queue:
        here = queue.popleft()
        for n in NEIGHBOURS[here]:
            if n in cells and n not in seen:
                seen.add(n)
                queue.append(n)
    return len(seen) == len(cells)


def cell(card: int, row: int, col: int) -> dict[str, int]:
    return {"card": card, "row": row, "col": col}


def code(card: int, symbol: str) -> dict[str, Any]:
    return {"card": card, "code": symbol}


def mark(*cells: Mapping[str, Any], extra: Iterable[Mapping[str, Any]] = (),
         **args: Any) -> dict[str, Any]:
    move: dict[str, Any] = {"type": "mark", "cells": list(cells)}
    if extra:
        move["extra"] = list(extra)
    move.update(args)
    return move


def at(card: int, *positions: tuple[int, int]) -> list[dict[str, int]]:
    return [cell(card, r, c) for r, c in positions]


def play(state: dict[str, Any], *moves: tuple[int, Mapping[str, Any]]) -> dict[str, Any]:
    for seat, move in moves:
        state = PYRAMIDS.apply(state, seat, move)
    return state


def reveal(state: dict[str, Any], shape: str, seat: int = 0) -> dict[str, Any]:
    return PYRAMIDS.apply(state, seat, {"type": "reveal", "shape": shape})


def others_mark(state: dict[str, Any]) -> dict[str, Any]:
    """Every seat still to mark makes its first legal move (the tests' bystanders)."""
    while state["phase"] == Phase.MARK:
        seat = min(PYRAMIDS.awaiting(state).seats)
        state = PYRAMIDS.apply(state, seat, PYRAMIDS.legal_moves(state, seat)[0])
    return state


def turn(state: dict[str, Any], shape: str, moves: Mapping[int, Mapping[str, Any]]
         ) -> dict[str, Any]:
    """Reveal ``shape``, apply ``moves`` (seat → move) and let the other seats mark."""
    state = reveal(state, shape)
    for seat, move in moves.items():
        state = PYRAMIDS.apply(state, seat, move)
    return others_mark(state)


def arrange(state: Mapping[str, Any], seat: int | None = None, **changes: Any
            ) -> dict[str, Any]:
    """A copy of ``state`` with top-level values, or (with ``seat``) a player's, replaced."""
    state = copy.deepcopy(dict(state))
    target = state if seat is None else state["players"][seat]
    for key, value in changes.items():
        target[key] = copy.deepcopy(value)
    return state


# "This move is refused with code X" for this game: the one shared helper, bound to the ruleset.
refused = partial(assert_refused, PYRAMIDS)


def hold(state: Mapping[str, Any], seat: int, open_cards: Iterable[tuple[int, list]] = (),
         completed: Iterable[tuple[int, str]] = (), **fields: Any) -> dict[str, Any]:
    """A copy of ``state`` where ``seat`` holds these open cards (number, marks: codes for a
    record card, (row, col) pairs for a card refereed cell by cell) and completed cards
    (number, colour); cards come from the deck and the seat's old cards go back to it, so
    every card stays in exactly one place."""
    state = copy.deepcopy(dict(state))
    player = state["players"][seat]
    old = {c["number"] for c in player["open"]} | {c["number"] for c in player["completed"]}
    new_open = []
    for number, marks in open_cards:
        if card_grid(state, number) is None:
            new_open.append({"number": number, "codes": list(marks)})
        else:
            new_open.append({"number": number,
                             "cells": [r * t.GRID + c for r, c in marks]})
    new_completed = [{"number": n, "colour": colour} for n, colour in completed]
    used = {c["number"] for c in new_open} | {c["number"] for c in new_completed}
    for other, somebody in enumerate(state["players"]):
        if other != seat:
            theirs = {c["number"] for c in somebody["open"] + somebody["completed"]}
            assert not used & theirs, "another seat holds that card"
    assert not used & set(state["offer"]), "that card is in the offer"
    state["deck"] = sorted((set(state["deck"]) | old) - used)
    player["open"], player["completed"] = new_open, new_completed
    for key, value in fields.items():
        player[key] = copy.deepcopy(value)
    return state


def cards_in_play(state: Mapping[str, Any]) -> list[int]:
    """Every card number somewhere: held open, completed, in the offer or in the deck."""
    numbers = list(state["offer"]) + list(state["deck"])
    for player, kept in zip(state["players"], state["marked"]):
        numbers += [c["number"] for c in player["open"] + player["completed"]]
        if state["phase"] == "keep":        # dealt by the app: in hand until all have kept
            numbers += [n for n in player["dealt"] if n not in
                        {c["number"] for c in player["open"]}]
    return sorted(numbers)
