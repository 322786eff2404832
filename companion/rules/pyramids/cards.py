"""Pyramid card records and the checks every layout must pass (spec §2.1, §10).

A card is ``PyramidCard {number 1..48, colour, grid: 5 rows of 5 cell codes, verified}``
(spec §2.1). Our print-and-play cards (:mod:`.ours`) and the layouts a group enters from its
published copy (the ``card_layouts`` edition value) pass the same :func:`layout_problems`:
5 rows of 5 known codes, exactly one entrance and it lies in the top row, exactly one tomb and it
lies in the bottom row (the spec says to validate only the rows), and the tomb can be reached
from the entrance (spec §10 lets a group enter a card only if it can be completed).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from ..base import N_, RuleViolation
from .placement import shortest_path
from .printed import CELL_CODES, GRID, Cell


@dataclass(frozen=True)
class PyramidCard:
    """One pyramid card: number, colour, its 5 rows of cell codes and one shortest path from
    the entrance to the tomb (cells as (row, column), both ends included)."""

    number: int
    colour: str
    grid: tuple[str, ...]
    shortest: tuple[tuple[int, int], ...] = ()
    verified: bool = True

    @property
    def flat(self) -> str:
        return "".join(self.grid)


def flatten(grid: Sequence[str]) -> str:
    return "".join(grid)


def _row(cells: list[int], home: int) -> int:
    """The row to point at: the first one holding such a cell out of place, else ``home``."""
    return next((cell // GRID for cell in cells if cell // GRID != home), home)


def layout_problems(grid: Any, path: str) -> list[RuleViolation]:
    """Everything wrong with a grid (a list of 5 strings of 5 cell codes), each naming the
    row (``<path>.<row>``) or the grid (``<path>``)."""
    if not isinstance(grid, (list, tuple)) or len(grid) != GRID:
        return [RuleViolation("pyramids.grid_shape",
                              N_("A pyramid card has 5 rows of 5 chambers."), path)]
    found = []
    for r, row in enumerate(grid):
        if not isinstance(row, str) or len(row) != GRID:
            found.append(RuleViolation("pyramids.grid_shape",
                                       N_("A pyramid card has 5 rows of 5 chambers."),
                                       f"{path}.{r}"))
        elif any(code not in CELL_CODES for code in row):
            bad = next(code for code in row if code not in CELL_CODES)
            found.append(RuleViolation(
                "pyramids.unknown_cell",
                N_("“%(symbol)s” is not a chamber: use . # E B X R G T S P."), f"{path}.{r}",
                symbol=bad))
    if found:
        return found
    flat = flatten(grid)
    entrances = [i for i, code in enumerate(flat) if code == Cell.ENTRANCE]
    tombs = [i for i, code in enumerate(flat) if code == Cell.TOMB]
    if len(entrances) != 1 or entrances[0] >= GRID:
        found.append(RuleViolation(
            "pyramids.entrance_row", N_("A pyramid card has exactly one entrance, in the top "
                                        "row."), f"{path}.{_row(entrances, 0)}"))
    if len(tombs) != 1 or tombs[0] < GRID * (GRID - 1):
        found.append(RuleViolation(
            "pyramids.tomb_row", N_("A pyramid card has exactly one tomb, in the bottom row."),
            f"{path}.{_row(tombs, GRID - 1)}"))
    if not found and shortest_path(flat) is None:
        found.append(RuleViolation(
            "pyramids.not_completable",
            N_("Walls cut the entrance off from the tomb, so this card cannot be completed."),
            path))
    return found
