"""The Traitor's tiles as data: columns, placement with wrap-around, and what the columns say.

Spec shared/rules/pharaon.md §7.1 (data model), §7.2 ``placeOnColumn``, §7.3 symbols that only
read the columns (gods, multipliers, the fullest and emptiest column), §7.7 (his gods and his
multiplier at the end). His turns are run in traitor_turns.py; this module holds what depends
only on the tiles and the tokens on them.

State part ``traitor_board`` (plain JSON)::

    {"tiles": [tile index per position, left to right], "sides": ["light" | "dark", ...],
     "colours": [basic colour of each position's column], "stack": jars left face down,
     "columns": [[{"token": kind laid, "stand_in": bool}, ...] per position],
     "turns": his turns so far (numbers the lines of the state's ``traitor_log``)}

``tiles`` and ``colours`` are None (and ``columns`` empty) until a drawn set-up is entered.

A column's first entry is the setup token on its lowest marked space (spec §3.4); play starts on
the next space.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from . import printed as t
from .edition import parse_symbol


def column_spaces(board: Mapping[str, Any], tiles: Sequence[Mapping[str, Any]],
                  position: int) -> list[str | None]:
    """The symbols of the column at ``position`` (setup space first)."""
    tile = tiles[board["tiles"][position]]
    return tile[board["sides"][position]]["column"]


def jars_for_round(board: Mapping[str, Any], tiles: Sequence[Mapping[str, Any]],
                   round_number: int) -> int:
    """§7.5: the Traitor's stack for round r holds the jars of the tile at position r."""
    position = round_number - 1
    tile = tiles[board["tiles"][position]]
    return tile[board["sides"][position]]["jars"]


def placement_column(board: Mapping[str, Any], tiles: Sequence[Mapping[str, Any]],
                     colour: str) -> int | None:
    """§7.2 placeOnColumn: the column of ``colour``, or when it is full the next one to the
    right, wrapping from the rightmost to the leftmost and skipping full ones [derived];
    None when every column is full (Q6: the token is not placed)."""
    start = board["colours"].index(colour)
    for step in range(t.TRAITOR_TILES):
        position = (start + step) % t.TRAITOR_TILES
        if len(board["columns"][position]) < len(column_spaces(board, tiles, position)):
            return position
    return None


def occupied_symbols(board: Mapping[str, Any], tiles: Sequence[Mapping[str, Any]]
                     ) -> list[tuple[str, Any]]:
    """(symbol, argument) of every occupied space above the setup space."""
    found = []
    for position, tokens in enumerate(board["columns"]):
        spaces = column_spaces(board, tiles, position)
        for space in range(1, len(tokens)):
            symbol = spaces[space]
            if symbol:
                parsed = parse_symbol(symbol)
                if parsed is not None:
                    found.append(parsed)
    return found


def god_index(areas: Sequence[str], reference: tuple[str, str]) -> int:
    """The board's god a tile's god symbol names: the god on the clockwise (``cw``) or
    counter-clockwise side of the area (god g sits between areas[g] and areas[g+1])."""
    area, side = reference
    position = list(areas).index(area)
    return position if side == "cw" else (position - 1) % 5


def traitor_gods(board: Mapping[str, Any], tiles: Sequence[Mapping[str, Any]],
                 areas: Sequence[str]) -> list[int]:
    """§7.7: the gods whose symbol space is occupied (each once)."""
    return sorted({god_index(areas, argument) for symbol, argument
                   in occupied_symbols(board, tiles) if symbol == t.Symbol.GOD})


def traitor_multiplier(board: Mapping[str, Any], tiles: Sequence[Mapping[str, Any]]
                       ) -> int | None:
    """§7.7: the highest noble multiplier reached, or None."""
    reached = [argument for symbol, argument in occupied_symbols(board, tiles)
               if symbol == t.Symbol.NOBLE_MULTIPLIER]
    return max(reached) if reached else None


def nile_column(board: Mapping[str, Any], fullest: bool) -> str:
    """§7.3 Nile symbols: the colour of the most (or least) filled column, counted after the
    placement [unverified]; a tie goes to the leftmost."""
    counts = [len(tokens) for tokens in board["columns"]]
    target = max(counts) if fullest else min(counts)
    return board["colours"][counts.index(target)]
