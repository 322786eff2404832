"""Placement on a pyramid card: shapes in their 8 orientations, legal patterns and single cells.

Implements spec §5.1 (pattern legality), §5.2 (single-cell legality) and the cell checks of
§5.5 (``SGP_NOT_SHAPE``, ``SGP_OUT_OF_GRID``, ``SGP_WALL``, ``SGP_ALREADY_MARKED``,
``SGP_NO_ENTRANCE``, ``SGP_NOT_CONNECTED``), and the path checks the edition data needs
(every card completable, its shortest path).

A card's grid is handled as one string of 25 cell codes, row by row ("flat"); a cell is its
index ``row * 5 + column``. Pure: no I/O, no randomness.
"""

from __future__ import annotations

from collections import deque
from enum import StrEnum
from functools import lru_cache
from typing import Collection, Iterable, Sequence

from .printed import CELLS, GRID, SHAPES, Cell


class Problem(StrEnum):
    """Why cells cannot be marked (the codes of spec §5.5)."""

    NOT_SHAPE = "SGP_NOT_SHAPE"
    OUT_OF_GRID = "SGP_OUT_OF_GRID"
    WALL = "SGP_WALL"
    ALREADY_MARKED = "SGP_ALREADY_MARKED"
    NO_ENTRANCE = "SGP_NO_ENTRANCE"
    NOT_CONNECTED = "SGP_NOT_CONNECTED"


def index(row: int, col: int) -> int:
    return row * GRID + col


def position(cell: int) -> tuple[int, int]:
    return divmod(cell, GRID)


def inside(row: int, col: int) -> bool:
    return 0 <= row < GRID and 0 <= col < GRID


# Orthogonal neighbours only (spec §5: "diagonal contact never counts"), in a fixed order (up,
# left, right, down) so that paths found by search are reproducible.
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(index(r + dr, c + dc) for dr, dc in ((-1, 0), (0, -1), (0, 1), (1, 0))
          if inside(r + dr, c + dc))
    for r in range(GRID) for c in range(GRID))


# --------------------------------------------------------------------------------------------
# Shapes (§2.2, §5.1: "turned by 90° either way or by 180°, and mirrored")
# --------------------------------------------------------------------------------------------


def normalise(cells: Iterable[tuple[int, int]]) -> frozenset[tuple[int, int]]:
    """The cells moved so that their top row and left column are 0."""
    cells = list(cells)
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return frozenset((r - top, c - left) for r, c in cells)


def orientations(cells: Iterable[tuple[int, int]]) -> frozenset[frozenset[tuple[int, int]]]:
    """Every rotation and mirror image of a shape, normalised (at most 8)."""
    forms = set()
    current = list(cells)
    for _ in range(4):
        current = [(c, -r) for r, c in current]                     # turn by 90°
        forms.add(normalise(current))
        forms.add(normalise((r, -c) for r, c in current))           # and its mirror image
    return frozenset(forms)


SHAPE_FORMS: dict[str, frozenset[frozenset[tuple[int, int]]]] = {
    code: orientations(cells) for code, cells in SHAPES.items()}
SHAPE_SIZES: dict[str, int] = {code: len(cells) for code, cells in SHAPES.items()}


def _placements(code: str) -> tuple[tuple[int, ...], ...]:
    """Every way to put the shape inside the 5×5 grid, as sorted cell indices."""
    found = set()
    for form in SHAPE_FORMS[code]:
        height = 1 + max(r for r, _ in form)
        width = 1 + max(c for _, c in form)
        for top in range(GRID - height + 1):
            for left in range(GRID - width + 1):
                found.add(tuple(sorted(index(top + r, left + c) for r, c in form)))
    return tuple(sorted(found))


PLACEMENTS: dict[str, tuple[tuple[int, ...], ...]] = {code: _placements(code) for code in SHAPES}


def is_shape(code: str, cells: Sequence[tuple[int, int]]) -> bool:
    """Whether ``cells`` are exactly the shape in one of its orientations (a repeated cell
    leaves fewer distinct cells than the shape has, so it never matches)."""
    return len(cells) == SHAPE_SIZES[code] and normalise(cells) in SHAPE_FORMS[code]


# --------------------------------------------------------------------------------------------
# Legality on one card (§5.1, §5.2)
# --------------------------------------------------------------------------------------------


@lru_cache(maxsize=512)
def entrance(flat: str) -> int:
    return flat.index(Cell.ENTRANCE)


@lru_cache(maxsize=512)
def tomb(flat: str) -> int:
    return flat.index(Cell.TOMB)


def touches(cells: Iterable[int], marked: Collection[int]) -> bool:
    """Whether some cell has a marked orthogonal neighbour."""
    return any(n in marked for cell in cells for n in NEIGHBOURS[cell])


def cells_problem(flat: str, marked: Collection[int], rows_cols: Sequence[tuple[int, int]]
                  ) -> tuple[Problem, int] | None:
    """The first problem with marking these cells (already known to be the right shape or a
    single cell) on a card, with the position in ``rows_cols`` it concerns; None when legal.

    Order of the checks, each over all the cells: inside the grid, not a wall, not marked (so
    P12, leaving the grid over a wall, is reported as leaving the grid); then the card-level
    rule: the entrance on an empty card, else a touch with an earlier mark."""
    for i, (r, c) in enumerate(rows_cols):
        if not inside(r, c):
            return Problem.OUT_OF_GRID, i
    cells = [index(r, c) for r, c in rows_cols]
    for i, cell in enumerate(cells):
        if flat[cell] == Cell.WALL:
            return Problem.WALL, i
    for i, cell in enumerate(cells):
        if cell in marked:
            return Problem.ALREADY_MARKED, i
    if not marked:
        if entrance(flat) not in cells:
            return Problem.NO_ENTRANCE, 0
    elif not touches(cells, marked):
        return Problem.NOT_CONNECTED, 0
    return None


def single_is_legal(flat: str, marked: Collection[int], cell: int) -> bool:
    """§5.2 legal_single for a cell inside the grid."""
    if flat[cell] == Cell.WALL or cell in marked:
        return False
    if not marked:
        return cell == entrance(flat)
    return any(n in marked for n in NEIGHBOURS[cell])


def legal_singles(flat: str, marked: Collection[int]) -> list[int]:
    """Every cell a single mark (or a red-cross extra mark) may take on this card (§5.2)."""
    if not marked:
        return [entrance(flat)]
    return sorted({n for cell in marked for n in NEIGHBOURS[cell]
                   if n not in marked and flat[n] != Cell.WALL})


def has_legal_single(flat: str, marked: Collection[int]) -> bool:
    if not marked:
        return True                      # the entrance of an empty card is always free
    return any(n not in marked and flat[n] != Cell.WALL for cell in marked
               for n in NEIGHBOURS[cell])


def legal_placements(flat: str, marked: Collection[int], code: str) -> list[tuple[int, ...]]:
    """Every legal placement of the shape on this card (§5.1), as sorted cell indices."""
    found = []
    start = entrance(flat) if not marked else None
    for cells in PLACEMENTS[code]:
        if any(flat[c] == Cell.WALL or c in marked for c in cells):
            continue
        if start is not None:
            if start in cells:
                found.append(cells)
        elif touches(cells, marked):
            found.append(cells)
    return found


def opening_fits(flat: str, code: str) -> bool:
    """Whether the shape can be the first marking of a fresh card (it covers the entrance)."""
    return bool(legal_placements(flat, (), code))


# --------------------------------------------------------------------------------------------
# Paths (edition data: every card completable, spec §2.1)
# --------------------------------------------------------------------------------------------


def reachable(flat: str, start: int) -> set[int]:
    """The cells connected to ``start`` through cells that are not walls."""
    seen = {start}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for n in NEIGHBOURS[cell]:
            if n not in seen and flat[n] != Cell.WALL:
                seen.add(n)
                queue.append(n)
    return seen


def shortest_path(flat: str) -> list[int] | None:
    """One shortest chain of cells from the entrance to the tomb (both included), found by
    breadth-first search in the fixed neighbour order; None if the tomb cannot be reached."""
    start, goal = entrance(flat), tomb(flat)
    previous = {start: start}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        if cell == goal:
            path = [cell]
            while cell != start:
                cell = previous[cell]
                path.append(cell)
            return path[::-1]
        for n in NEIGHBOURS[cell]:
            if n not in previous and flat[n] != Cell.WALL:
                previous[n] = cell
                queue.append(n)
    return None


assert CELLS == len(NEIGHBOURS)
