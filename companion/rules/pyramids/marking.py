"""Silver & Gold – Pyramids: step 2 of a turn, every seat marking at once (spec §5, §6).

Implements §5.1 (the revealed pattern, under all 8 orientations), §5.2 (a single cell), §5.3
(red-cross chains), §5.4 (the order of effects), every code of §5.5, the §6 symbol effects with
their caps, §7 completion, and §14 #4-#6, #18, each named where it is implemented.

**One move per seat and turn.** ``mark`` carries the whole step 2 of a seat: the pattern (or
the single cell) in ``cells`` and the red-cross extra marks in ``extra``, in the order they are
made (§5.4). Every cell names its card, so a pattern spread over both cards is recognised
(``SGP_SPLIT``)::

    {"type": "mark",
     "cells": [{"card": 17, "row": 0, "col": 2}, {"card": 17, "row": 1, "col": 2}],
     "extra": [{"card": 9, "row": 0, "col": 1}],
     "potion_first": false,          # optional: the order of a skull and a potion (§14 #4)
     "torch": 2,                     # optional cross-check: the torch box ticked (SGP_TORCH_ROUND)
     "race": ["green"],              # optional cross-check: colours claimed (SGP_RACE)
     "completed": [{"number": 17, "colour": "green"}]}   # cards whose tomb this move marks

**Record mode** (the published cards, spec §10): a card whose layout nobody entered is marked
by reporting the code of each cell instead of its position, ``{"card": 17, "code": "R"}``
(``.`` for a plain chamber, ``E`` entrance, ``B`` tomb). The referee checks what needs no
layout: the pattern's size, the entrance first (and once), the tomb once, no wall, the symbol
effects with their caps, the torch round, the race, the offer and the deck; a completed card's
colour is taken from the group's card records or must be reported in ``completed``. Where
legality needs the layout (connection, whether an extra mark or any mark was possible) the
report is trusted. A card whose layout the group entered (edition ``card_layouts``, verified)
is refereed cell by cell like ours, even in a game that mixes both.

**The whole step as the cells marked** (what a phone sends after tapping cells on the
pictures of its cards): ``{"type": "mark", "marks": [cell, ...]}`` lists every cell the seat
marks this turn, pattern and red-cross extra marks together, in any order (cells refereed cell
by cell only). The referee reads them as the pattern on one card (or one single cell) plus the
extra marks in an order that makes each legal (:func:`read_marks`); the cards end the same
whichever reading is taken. When no reading is legal, the refusal is the one of the most
plausible reading (the pattern, when the cells contain it), with ``field`` naming
``move.marks.<i>``.

``{"type": "pass"}``: no legal mark (``SGP_NO_MOVE`` if one exists). When the last seat has
marked, the turn closes (:mod:`.turns`).

Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

import re
from itertools import combinations
from typing import Any, Callable, Mapping, NamedTuple, Sequence

from ..base import (BoolField, ChoiceField, Counted, IntField, ListField, N_, N_plural,
                    ObjectField, RuleViolation)
from ..referee import BadArgument, Draft, MoveRule
from . import printed as t
from .placement import (SHAPE_SIZES, Problem, cells_problem, has_legal_single, index, inside,
                        is_shape, single_is_legal)
from .scoring import drink_potion, thresholds_crossed, tick_gem, tick_skull
from .state import (CARD_NUMBER, MOVE_LABELS, MoveKind, Phase, card_colour, card_grid,
                    colour_count, marks_on, pass_allowed)
from .turns import close_turn

# --------------------------------------------------------------------------------------------
# The arguments of a mark, declared once
# --------------------------------------------------------------------------------------------

# A row or column is any whole number within reach of the card: one off the grid is refereed
# (SGP_OUT_OF_GRID, spec §5.5), not refused as malformed.
OFF_THE_CARD = 99
MAX_MARKS = 2 * t.CELLS          # every cell of two cards: more is never one turn's marking

ROW = IntField("row", N_("Row"), min=-OFF_THE_CARD, max=OFF_THE_CARD, default=None)
COLUMN = IntField("col", N_("Column"), min=-OFF_THE_CARD, max=OFF_THE_CARD, default=None)
CODE = ChoiceField("code", N_("Symbol"),
                   tuple((code.value, str(t.CELL_LABELS[code.value])) for code in t.Cell),
                   optional=True)
# A chamber by its place (row and column, from 0 at the top left) or, on a card played in
# record mode, by its symbol; which of the two is checked by _mark_arguments.
CHAMBER = ObjectField("cell", N_("Chamber"), (
    CARD_NUMBER,
    IntField("row", ROW.label, min=ROW.min, max=ROW.max, default=None, optional=True),
    IntField("col", COLUMN.label, min=COLUMN.min, max=COLUMN.max, default=None, optional=True),
    CODE))
TAPPED = ObjectField("cell", N_("Chamber"), (CARD_NUMBER, ROW, COLUMN))   # a phone's tap
COMPLETED = ObjectField("card", N_("Completed card"), (
    IntField("number", N_("Card number"), min=1, max=t.CARD_COUNT, default=None),
    ChoiceField("colour", N_("Colour"), tuple((c, str(t.COLOUR_LABELS[c])) for c in t.COLOURS),
                optional=True)))

MARK_ARGS = (
    ListField("cells", N_("Chambers marked"), CHAMBER, min_items=1, max_items=t.CELLS,
              optional=True, item_label=N_("Chamber %(n)d")),
    ListField("extra", N_("Extra marks for red crosses"), CHAMBER, max_items=t.CELLS,
              optional=True, item_label=N_("Extra mark %(n)d")),
    ListField("marks", N_("Chambers tapped"), TAPPED, max_items=MAX_MARKS, optional=True,
              item_label=N_("Chamber %(n)d")),
    BoolField("potion_first", N_("The potion counts before the skull"), default=None,
              optional=True),
    IntField("torch", N_("Torch box ticked"), min=1, max=t.TORCH_BOXES, default=None,
             optional=True),
    ListField("race", N_("Pyramid points claimed"), ChoiceField(
        "colour", N_("Colour"), tuple((c, str(t.COLOUR_LABELS[c])) for c in t.COLOURS)),
              max_items=len(t.COLOURS), optional=True, item_label=N_("Colour %(n)d")),
    ListField("completed", N_("Cards completed"), COMPLETED, max_items=t.CELLS, optional=True,
              item_label=N_("Card %(n)d")),
)


class CellRef(NamedTuple):
    """One marked cell: its card and either its position or (record mode) its code."""

    card: int
    row: int | None
    col: int | None
    code: str | None

    @classmethod
    def of(cls, cell: Mapping[str, Any]) -> "CellRef":
        """The cell a move names (``{"card", "row", "col"}`` or ``{"card", "code"}``)."""
        if cell.get("code") is not None:
            return cls(cell["card"], None, None, cell["code"])
        return cls(cell["card"], cell["row"], cell["col"], None)


def _bad_argument(path: str, problem: str = N_("This is required.")) -> BadArgument:
    """A mark's argument that is wrong in a way its declaration cannot say (raised in the
    mark's check: the referee names it in the player's words)."""
    return BadArgument(path, problem)


def _mark_arguments(args: Mapping[str, Any]) -> tuple[list[CellRef] | None, list[CellRef],
                                                       list[CellRef]]:
    """The cells of a mark as (the cells tapped, or None; the pattern; its extra marks),
    refusing what the declaration cannot say: one way of saying the step, not two; a chamber
    by its place or by its symbol; a colour claimed once."""
    for i, colour in enumerate(args["race"] or ()):
        if args["race"].index(colour) != i:
            raise _bad_argument(f"race.{i}", N_("This colour is named twice."))
    if args["marks"] is not None:
        if args["cells"] is not None or args["extra"] is not None:
            raise _bad_argument("marks", N_("Send the chambers tapped, or the pattern and its "
                                            "extra marks, not both."))
        if not args["marks"]:
            raise RuleViolation("pyramids.nothing_marked",
                                N_("Tap the chambers you mark, then send them."), "move.marks")
        return [CellRef.of(cell) for cell in args["marks"]], [], []
    if args["cells"] is None:
        raise _bad_argument("cells")
    for key in ("cells", "extra"):
        for i, cell in enumerate(args[key] or ()):
            if cell["code"] is not None and cell["row"] is not None:
                raise _bad_argument(f"{key}.{i}.code",
                                    N_("A chamber is named by its row and column or by its "
                                       "symbol, not both."))
            for part in ("row", "col"):
                if cell["code"] is None and cell[part] is None:
                    raise _bad_argument(f"{key}.{i}.{part}")
    return (None, [CellRef.of(cell) for cell in args["cells"]],
            [CellRef.of(cell) for cell in args["extra"] or ()])


PROBLEM_MESSAGES: Mapping[str, str] = {
    Problem.NOT_SHAPE: N_("These chambers are not the revealed pattern, turned or mirrored."),
    Problem.OUT_OF_GRID: N_("This chamber lies outside the card."),
    Problem.WALL: N_("Walls are never marked."),
    Problem.ALREADY_MARKED: N_("This chamber is already marked."),
    Problem.NO_ENTRANCE: N_("The first marking of a card must include its entrance."),
    Problem.NOT_CONNECTED: N_("A marking must touch an earlier mark on that card (not just "
                              "diagonally)."),
}


def tomb_marks_needed(marks: Sequence[str]) -> int | None:
    """Record mode: how many chambers one report on a card holding ``marks`` must mark, its
    tomb included, for the tomb to be among them (the path from the entrance in the top row
    to the tomb in the bottom row has a mark in every row, so the tomb is at least the 5th
    mark); None once the tomb is marked."""
    if t.Cell.TOMB in marks:
        return None
    return max(1, t.TOMB_PATH_MARKS - len(marks))


def _problem(code: str, field: str, **params: Any) -> RuleViolation:
    return RuleViolation(code, PROBLEM_MESSAGES[code], field, **params)


# --------------------------------------------------------------------------------------------
# Step 2: one seat's marks (§5, §6)
# --------------------------------------------------------------------------------------------


class _Marking:
    """One seat's step 2 worked out on copies of its cards and scoring card (§5.4)."""

    def __init__(self, state: Mapping[str, Any], seat: int, skulls_first: bool):
        self.state = state
        self.seat = seat
        player = state["players"][seat]
        self.player = player
        self.cards = {card["number"]: card for card in player["open"]}
        self.marks: dict[int, list] = {}          # copies of the cards marked in this move
        self.red, self.green, self.skulls = player["red"], player["green"], player["skulls"]
        self.torches = player["torches"]
        self.torch_marked = False
        self.skulls_first = skulls_first
        self.completed: list[int] = []            # tombs marked, in order

    def marks_of(self, number: int) -> list:
        if number not in self.marks:
            self.marks[number] = list(marks_on(self.cards[number]))
        return self.marks[number]

    def own_card(self, number: int, field: str) -> None:
        if number not in self.cards:
            raise RuleViolation("pyramids.not_your_card",
                                N_("Card %(number)d is not one of your open pyramid cards."),
                                field, number=number)

    def mark(self, refs: Sequence[CellRef], field: str, shape: str | None,
             one: bool = False) -> list[str]:
        """Mark cells on one card (a pattern when ``shape`` is given, else one cell); return
        the codes marked. Raises the §5.5 code of the first problem, naming the cell as
        ``field.<i>``, or ``field`` itself when it names the one cell (``one``: an extra
        mark)."""
        number = refs[0].card
        at = (lambda i: field) if one else (lambda i: f"{field}.{i}")
        grid = card_grid(self.state, number)
        marks = self.marks_of(number)
        if grid is not None:
            for i, ref in enumerate(refs):
                if ref.code is not None:
                    raise RuleViolation(
                        "pyramids.position_needed",
                        N_("The chambers of card %(number)d are known: mark them by row and "
                           "column."), at(i), number=number)
            rows_cols = [(ref.row, ref.col) for ref in refs]
            if shape is not None and not is_shape(shape, rows_cols):
                raise _problem(Problem.NOT_SHAPE, field, shape=t.SHAPE_LABELS[shape])
            problem = cells_problem(grid, marks, rows_cols)
            if problem is not None:
                code, i = problem
                raise _problem(code, field if code in (Problem.NO_ENTRANCE,
                                                       Problem.NOT_CONNECTED) else at(i))
            cells = [index(r, c) for r, c in rows_cols]
            marks.extend(cells)
            codes = [grid[cell] for cell in cells]
        else:
            codes = []
            for i, ref in enumerate(refs):
                if ref.code is None:
                    raise RuleViolation(
                        "pyramids.code_needed",
                        N_("Nobody has entered the chambers of card %(number)d: report the "
                           "symbol of each chamber you mark."), at(i), number=number)
                codes.append(ref.code)
            self._check_report(marks, codes, field, at)
            marks.extend(codes)
        if t.Cell.TOMB in codes and number not in self.completed:
            self.completed.append(number)             # §14 #18: any mark on the tomb
        return codes

    def _check_report(self, marks: Sequence[str], codes: Sequence[str], field: str,
                      at: Callable[[int], str]) -> None:
        """Record mode: what a report can break without the layout (§5.1, §5.2)."""
        for i, code in enumerate(codes):
            if code == t.Cell.WALL:
                raise _problem(Problem.WALL, at(i))
            if code in (t.Cell.ENTRANCE, t.Cell.TOMB) and (
                    code in marks or codes.index(code) != i):
                raise _problem(Problem.ALREADY_MARKED, at(i))
        if not marks and t.Cell.ENTRANCE not in codes:
            raise _problem(Problem.NO_ENTRANCE, field)
        needed = tomb_marks_needed(marks)
        if t.Cell.TOMB in codes and needed is not None and len(codes) < needed:
            # the marks of one report are made at once; the path from the entrance in the top
            # row to the tomb in the bottom row has a mark in every row (seed, "Jako první
            # musíte zakřížkovat vstupní políčko v horním řádku ... souvislou trasu ... ke
            # zlaté hrobce ve spodním řádku"; spec §2.1, §5.2)
            raise RuleViolation(
                Problem.NOT_CONNECTED,
                N_("The tomb lies in the bottom row: the path from the entrance reaches it "
                   "with at least %(count)d marks on the card, and this card would have "
                   "%(marked)d."),
                at(codes.index(t.Cell.TOMB)), count=t.TOMB_PATH_MARKS,
                marked=len(marks) + len(codes))
        if len(marks) + len(codes) > t.CELLS:
            raise _problem(Problem.ALREADY_MARKED, field)

    def resolve(self, codes: Sequence[str]) -> int:
        """§6 effects of newly marked cells; returns how many red crosses they hold. Skulls
        and potions of one batch resolve skulls first unless the player chose otherwise
        (§5.4, §14 #4; S6)."""
        skulls = potions = crosses = 0
        for code in codes:
            if code == t.Cell.RED_GEM:
                self.red = tick_gem(self.red)
            elif code == t.Cell.GREEN_GEM:
                self.green = tick_gem(self.green)
            elif code == t.Cell.TORCH:
                self.torch_marked = True
                box = self.state["round"] - 1          # §6: only the current round's box
                if not self.torches[box]:
                    self.torches = list(self.torches)
                    self.torches[box] = True
            elif code == t.Cell.SKULL:
                skulls += 1
            elif code == t.Cell.POTION:
                potions += 1
            elif code == t.Cell.RED_CROSS:
                crosses += 1
        order = ("S", "P") if self.skulls_first else ("P", "S")
        for kind in order:
            for _ in range(skulls if kind == "S" else potions):
                self.skulls = tick_skull(self.skulls) if kind == "S" else drink_potion(
                    self.skulls)
        return crosses

    def extra_possible(self) -> bool:
        """§5.3, §14 #5: whether a red-cross extra mark has a legal cell on a card refereed
        cell by cell (record cards cannot tell, so a missing extra there is trusted)."""
        return any(has_legal_single(card_grid(self.state, n),
                                    self.marks.get(n, self.cards[n]["cells"]))
                   for n, card in self.cards.items() if "cells" in card)


def play_mark(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> dict[str, Any]:
    """The seat's player record after its step 2, or the RuleViolation it breaks (§5, §6)."""
    skulls_first = (state["options"]["skulls_before_potion"] if args["potion_first"] is None
                    else not args["potion_first"])
    work = _Marking(state, seat, skulls_first)
    refs: list[CellRef] = args["cells"]
    if len({ref.card for ref in refs}) > 1:
        raise RuleViolation("SGP_SPLIT", N_("A pattern is marked on one card, not spread over "
                                            "both."), "move.cells")
    work.own_card(refs[0].card, "move.cells.0.card")
    shape = state["shape"]
    if len(refs) not in (1, SHAPE_SIZES[shape]):       # §5.1: partial patterns are illegal
        raise _problem(Problem.NOT_SHAPE, "move.cells", shape=t.SHAPE_LABELS[shape])
    codes = work.mark(refs, "move.cells", shape if len(refs) > 1 else None)
    due = work.resolve(codes)
    for j, ref in enumerate(args["extra"]):           # §5.3 chains, one by one
        field = f"move.extra.{j}"
        if due == 0:
            raise RuleViolation("pyramids.extra_not_due",
                                N_("No red cross asks for another mark."), field)
        work.own_card(ref.card, f"{field}.card")
        due += work.resolve(work.mark([ref], field, None, one=True)) - 1
    if due and work.extra_possible():
        raise RuleViolation("SGP_CROSS_PENDING", N_("%(asks)s, and a chamber is free for it."),
                            "move.extra", count=due, asks=Counted(N_plural(
                                "A red cross asks for %(num)d more mark",
                                "Red crosses ask for %(num)d more marks"), due))
    colours = _completion_colours(state, work.completed, args["completed"])
    if args["torch"] is not None:
        if not work.torch_marked:
            raise RuleViolation("pyramids.no_torch", N_("None of these chambers is a torch."),
                                "move.torch")
        if args["torch"] != state["round"]:
            raise RuleViolation("SGP_TORCH_ROUND",
                                N_("In round %(round)d only torch box %(round)d can be "
                                   "ticked."), "move.torch", round=state["round"])
    player = work.player
    for i, colour in enumerate(args["race"] or ()):
        before = colour_count(state, seat, colour)
        after = before + sum(1 for c in colours.values() if c == colour)
        if not thresholds_crossed(before, after):
            raise RuleViolation("SGP_RACE", N_("Pyramid points need a 2nd, 4th or 6th "
                                               "completed %(colour)s card."),
                                f"move.race.{i}", reason="threshold",
                                colour=t.COLOUR_LABELS[colour])
        if len(state["race"][colour]) >= len(t.RACE_BOXES):
            raise RuleViolation("SGP_RACE", N_("Every %(colour)s box is already claimed."),
                                f"move.race.{i}", reason="taken",
                                colour=t.COLOUR_LABELS[colour])
    open_cards = []
    for card in player["open"]:
        number = card["number"]
        if number in colours:
            continue                                   # §7: set aside (after step 2, #7)
        if number in work.marks:
            card = {"number": number, ("cells" if "cells" in card else "codes"):
                    work.marks[number]}
        open_cards.append(card)
    return {**player, "open": open_cards,
            "completed": player["completed"] + [{"number": n, "colour": colours[n]}
                                                for n in work.completed],
            "just": list(work.completed),
            "red": work.red, "green": work.green, "torches": work.torches,
            "skulls": work.skulls}


# --------------------------------------------------------------------------------------------
# The whole step as the cells marked (a phone's taps): which is the pattern, in which order the
# red-cross extra marks come
# --------------------------------------------------------------------------------------------

ORDER_SEARCH_LIMIT = 4096        # orders of extra marks tried before the simplest is taken


def _extra_order(state: Mapping[str, Any], seat: int, refs: Sequence[CellRef],
                 main: Sequence[int], rest: Sequence[int]) -> list[int]:
    """An order of the cells ``rest`` (indices into ``refs``) in which each is a legal extra
    mark when it is made (§5.3: a red cross is due, the cell is a legal single, §5.2), found by
    a depth-first search that tries red crosses first; when there is none, the crosses-first
    greedy order, so that the referee names the first cell that cannot be marked."""
    player = state["players"][seat]
    grids = {card["number"]: card_grid(state, card["number"]) for card in player["open"]
             if "cells" in card}
    start = {card["number"]: frozenset(card["cells"]) for card in player["open"]
             if "cells" in card}

    def cell_of(i: int) -> tuple[int, int] | None:
        ref = refs[i]
        if ref.card not in grids or not inside(ref.row, ref.col):
            return None
        return ref.card, index(ref.row, ref.col)

    marks = dict(start)
    due = 0
    for i in main:
        here = cell_of(i)
        if here is not None:
            number, cell = here
            marks[number] = marks[number] | {cell}
            due += grids[number][cell] == t.Cell.RED_CROSS

    def candidates(marked: Mapping[int, frozenset[int]], left: Sequence[int]) -> list[int]:
        legal = []
        for i in left:
            here = cell_of(i)
            if here is not None and single_is_legal(grids[here[0]], marked[here[0]], here[1]):
                legal.append(i)
        crosses = [i for i in legal if grids[cell_of(i)[0]][cell_of(i)[1]] == t.Cell.RED_CROSS]
        return crosses + [i for i in legal if i not in crosses]

    def place(marked: Mapping[int, frozenset[int]], i: int) -> tuple[dict, int]:
        number, cell = cell_of(i)
        return ({**marked, number: marked[number] | {cell}},
                (grids[number][cell] == t.Cell.RED_CROSS) - 1)

    tried = 0
    failed: set[frozenset[int]] = set()

    def search(marked: dict, left: tuple[int, ...], owed: int) -> list[int] | None:
        nonlocal tried
        if not left:
            return []
        key = frozenset(left)
        if owed <= 0 or key in failed or tried > ORDER_SEARCH_LIMIT:
            return None
        tried += 1
        for i in candidates(marked, left):
            after, change = place(marked, i)
            found = search(after, tuple(j for j in left if j != i), owed + change)
            if found is not None:
                return [i] + found
        failed.add(key)
        return None

    found = search(marks, tuple(rest), due)
    if found is not None:
        return found
    greedy, left = [], list(rest)
    while left and due > 0:
        legal = candidates(marks, left)
        if not legal:
            break
        marks, change = place(marks, legal[0])
        due += change
        greedy.append(legal[0])
        left.remove(legal[0])
    return greedy + left


def _readings(state: Mapping[str, Any], refs: Sequence[CellRef]
              ) -> tuple[list[list[int]], list[list[int]]]:
    """The ways to read the cells as one marking (indices into ``refs``): every set of them on
    one card that is the revealed pattern (§5.1, any of its 8 orientations), and every single
    cell (§5.2)."""
    shape = state["shape"]
    size = SHAPE_SIZES[shape]
    per_card: dict[int, list[int]] = {}
    for i in _by_place(refs):
        per_card.setdefault(refs[i].card, []).append(i)
    patterns = [list(chosen) for numbers in per_card.values() if len(numbers) >= size
                for chosen in combinations(numbers, size)
                if is_shape(shape, [(refs[i].row, refs[i].col) for i in chosen])]
    return patterns, [[i] for i in _by_place(refs)]


def _by_place(refs: Sequence[CellRef]) -> list[int]:
    """Indices of ``refs`` by card, row and column: the order the taps came in changes
    nothing, not even the order in which a card keeps its marks."""
    return sorted(range(len(refs)), key=lambda i: (refs[i].card, refs[i].row, refs[i].col))


_MOVE_PART = re.compile(r"^move\.(cells|extra)(?:\.(\d+))?")


def _as_marks(violation: RuleViolation, main: Sequence[int], order: Sequence[int]
              ) -> RuleViolation:
    """A refusal of one reading, naming the cell as the phone sent it (``move.marks.<i>``)."""
    found = _MOVE_PART.match(violation.field or "")
    if not found:
        return violation
    part, position = found.groups()
    field = "move.marks"
    if position is not None:
        chosen = main if part == "cells" else order
        field += f".{chosen[int(position)]}" if int(position) < len(chosen) else ""
        field += (violation.field or "")[found.end():]
    return RuleViolation(violation.code, violation.message, field, **violation.params)


def read_marks(state: Mapping[str, Any], seat: int, refs: Sequence[CellRef]
               ) -> tuple[list[CellRef], list[CellRef]]:
    """The cells a seat marked this turn, read as (the marking, its extra marks in order).

    Every cell belongs to the marking or is an extra mark, so every legal reading marks the
    same cells and ticks the same symbols (the pattern first, §5.4; only a skull and a potion
    in different parts could resolve in another order, and the rules accept either, §14 #4).
    Readings are tried in this order: the revealed pattern, then a single cell. When none is
    legal, the refusal is the first pattern reading's, or the single cell's when only one cell
    was sent, or SGP_NOT_SHAPE."""
    patterns, singles = _readings(state, refs)
    first_refusal: RuleViolation | None = None
    for main in patterns + singles:
        rest = [i for i in _by_place(refs) if i not in main]
        order = _extra_order(state, seat, refs, main, rest)
        try:
            play_mark(state, seat, {"cells": [refs[i] for i in main],
                                    "extra": [refs[i] for i in order], "potion_first": None,
                                    "torch": None, "race": None, "completed": None})
        except RuleViolation as refusal:
            if first_refusal is None and (patterns or len(refs) == 1):
                first_refusal = _as_marks(refusal, main, order)
            continue
        return [refs[i] for i in main], [refs[i] for i in order]
    raise first_refusal or RuleViolation(
        "SGP_NOT_SHAPE", N_("These chambers are neither the revealed pattern nor one chamber, "
                            "with the extra marks its red crosses ask for."), "move.marks",
        shape=t.SHAPE_LABELS[state["shape"]])


# --------------------------------------------------------------------------------------------
# The colour of a card completed (§7; record mode §10: known, or reported)
# --------------------------------------------------------------------------------------------


def _completion_colours(state: Mapping[str, Any], completed: Sequence[int],
                        reported: Sequence[Mapping[str, Any]] | None) -> dict[int, str]:
    """The colour of each card this move completes: known (ours, the group's records) or
    reported. ``completed``, when given, must list exactly the cards whose tomb is marked."""
    if reported is not None and sorted(item["number"] for item in reported) != sorted(
            completed):
        raise RuleViolation("pyramids.completed_mismatch",
                            N_("The cards completed are the ones whose tomb this move marks: "
                               "%(cards)s."), "move.completed",
                            cards=", ".join(map(str, completed)) or "–")
    said = {item["number"]: (i, item.get("colour")) for i, item in enumerate(reported or ())}
    colours: dict[int, str] = {}
    for number in completed:
        known = card_colour(state, number)
        i, colour = said.get(number, (None, None))
        if known is not None and colour is not None and colour != known:
            raise RuleViolation("pyramids.wrong_colour", N_("Card %(number)d is %(colour)s."),
                                f"move.completed.{i}.colour", number=number,
                                colour=t.COLOUR_LABELS[known])
        colour = known or colour
        if colour is None:
            raise RuleViolation("pyramids.colour_needed",
                                N_("Say the colour of card %(number)d, which this move "
                                   "completes."), "move.completed", number=number)
        if known is None and _colour_full(state, colour, colours):
            raise RuleViolation("pyramids.too_many_of_colour",
                                N_("There are only 16 %(colour)s pyramid cards."),
                                f"move.completed.{i}.colour", colour=t.COLOUR_LABELS[colour])
        colours[number] = colour
    return colours


def known_of_colour(state: Mapping[str, Any], colour: str, earlier: Mapping[int, str]) -> int:
    """How many cards of ``colour`` are known: from the group's records, every completed card
    (this step's included) and ``earlier`` (this move's)."""
    numbers = {n for n, c in enumerate(state["colours"] or ()) if c == colour}
    for player in state["players"]:
        numbers |= {card["number"] for card in player["completed"] if card["colour"] == colour}
    numbers |= {n for n, c in earlier.items() if c == colour}
    return len(numbers)


def _colour_full(state: Mapping[str, Any], colour: str, earlier: Mapping[int, str]) -> bool:
    """Whether 16 cards of ``colour`` are already known: from the group's records, every
    completed card (this step's included) and this move.

    The one place where a mark looks beyond its own seat (COLOUR_REPORTS_CONTRADICT): two
    reports that together give a colour a 17th card cannot both be true, so the later one is
    refused. In every situation the cards allow, the marks of a step still commute."""
    return known_of_colour(state, colour, earlier) >= t.CARDS_PER_COLOUR


# --------------------------------------------------------------------------------------------
# The moves
# --------------------------------------------------------------------------------------------


def play_move(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> dict[str, Any]:
    """:func:`play_mark` for either way of saying the step (cells and extras, or all marks),
    from the move's clean arguments."""
    tapped, cells, extra = _mark_arguments(args)
    if tapped is not None:
        cells, extra = read_marks(state, seat, tapped)
    return play_mark(state, seat, {**args, "cells": cells, "extra": extra})


def _check_mark(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    play_move(state, seat, args)


def _mark(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    d.own("players")[seat] = play_move(d.state, seat, args)
    d.own("marked")[seat] = True
    if all(d["marked"]):
        close_turn(d)


def _check_pass(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    if not pass_allowed(state, seat):
        raise RuleViolation("SGP_NO_MOVE",
                            N_("A pattern or a single chamber can still be marked, so you must "
                               "mark."), "move.type")


def _pass(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    d.own("marked")[seat] = True
    if all(d["marked"]):
        close_turn(d)


RULES: tuple[MoveRule, ...] = (
    MoveRule(MoveKind.MARK, MOVE_LABELS[MoveKind.MARK], frozenset({Phase.MARK}),
             args=MARK_ARGS, check=_check_mark, change=_mark),
    MoveRule(MoveKind.PASS, MOVE_LABELS[MoveKind.PASS], frozenset({Phase.MARK}),
             check=_check_pass, change=_pass),
)
