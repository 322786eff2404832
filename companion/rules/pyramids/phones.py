"""Silver & Gold – Pyramids: what a phone is offered and shown.

:func:`prompts` (what an awaited seat may do now, with what its page draws: the revealed shape,
its cards with the chambers a single mark may take, every marking the referee accepts
(:func:`legal_markings`), the offer), :func:`watching` (what a seat
that waits is shown: who is still marking or keeping), :func:`legal_moves` (concrete legal
moves, for random play-outs and tests), :func:`chance` (the physical outcome awaited, which the
app may draw) and :func:`view` (what one phone may see: the deck lies face down). The referee
(:mod:`.referee`) asks prompts and legal moves only for an awaited seat.

Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Iterable, Mapping, Sequence

from ..base import Chance
from . import printed as t
from .marking import known_of_colour, tomb_marks_needed
from .placement import (PLACEMENTS, SHAPE_SIZES, cells_problem, legal_placements, legal_singles,
                        position, tomb)
from .state import (MoveKind, Phase, Source, awaiting, card_colour, card_grid, expedition_left,
                    marks_on, new_card, open_card, pass_allowed)


# --------------------------------------------------------------------------------------------
# Legal moves: concrete moves a seat may send (random play-outs, tests)
# --------------------------------------------------------------------------------------------


def _cell(ref_card: int, cell: int) -> dict[str, int]:
    row, col = position(cell)
    return {"card": ref_card, "row": row, "col": col}


def _greedy_extras(state: Mapping[str, Any], player: Mapping[str, Any], first: int,
                   marks: dict[int, list], due: int) -> list[dict[str, Any]] | None:
    """Red-cross extra marks chosen the simplest way (the first legal cell, the card just
    marked first), so that a listed move is complete; None when a record card would need a
    report it cannot make up."""
    extras = []
    order = [first] + [card["number"] for card in player["open"] if card["number"] != first]
    while due:
        for number in order:
            grid = card_grid(state, number)
            if grid is None:
                codes = marks.setdefault(number, list(marks_on(open_card(player, number))))
                if len(codes) >= t.CELLS or not codes:
                    continue
                codes.append(t.Cell.FLOOR.value)
                extras.append({"card": number, "code": t.Cell.FLOOR.value})
                due -= 1
                break
            cells = marks.setdefault(number, list(marks_on(open_card(player, number))))
            free = legal_singles(grid, cells)
            if free:
                cells.append(free[0])
                extras.append(_cell(number, free[0]))
                due += (grid[free[0]] == t.Cell.RED_CROSS) - 1
                break
        else:
            return extras                      # §14 #5: nothing free, the obligation lapses
    return extras


def _completion(state: Mapping[str, Any], numbers: Iterable[int]
                ) -> list[dict[str, Any]]:
    """``completed`` entries for cards a listed move completes (a colour with room when the
    card's colour is unknown)."""
    out = []
    chosen: dict[int, str] = {}
    for number in numbers:
        colour = card_colour(state, number)
        if colour is None:                       # the colour with the most room left
            colour = min(t.COLOURS, key=lambda c: known_of_colour(state, c, chosen))
        chosen[number] = colour
        out.append({"number": number, "colour": colour})
    return out


def _layout_moves(state: Mapping[str, Any], seat: int, card: Mapping[str, Any]
                  ) -> list[dict[str, Any]]:
    player = state["players"][seat]
    number = card["number"]
    grid = card_grid(state, number)
    shape = state["shape"]
    options = [list(cells) for cells in legal_placements(grid, card["cells"], shape)]
    options += [[cell] for cell in legal_singles(grid, card["cells"])]
    moves = []
    for cells in options:
        marks = {number: list(card["cells"]) + cells}
        due = sum(1 for cell in cells if grid[cell] == t.Cell.RED_CROSS)
        extras = _greedy_extras(state, player, number, marks, due) if due else []
        if extras is None:
            continue
        move: dict[str, Any] = {"type": MoveKind.MARK.value,
                                "cells": [_cell(number, cell) for cell in cells]}
        if extras:
            move["extra"] = extras
        done = [n for n, m in marks.items() if _completes(state, player, n, m)]
        if done:
            move["completed"] = _completion(state, done)
        moves.append(move)
    return moves


def _completes(state: Mapping[str, Any], player: Mapping[str, Any], number: int,
               marks: Sequence) -> bool:
    grid = card_grid(state, number)
    before = marks_on(open_card(player, number))
    if grid is None:
        return t.Cell.TOMB in marks and t.Cell.TOMB not in before
    return tomb(grid) in marks and tomb(grid) not in before


def _record_moves(state: Mapping[str, Any], seat: int, card: Mapping[str, Any]
                  ) -> list[dict[str, Any]]:
    """Representative reports for a record card: the layout is unknown, so a plain pattern
    (with the entrance on a fresh card), a single chamber, and the tomb once the card has
    enough marks for a path from the top row to the bottom row (it is at least the 5th)."""
    number, codes = card["number"], card["codes"]
    size = SHAPE_SIZES[state["shape"]]
    fresh = not codes
    reports = []
    if len(codes) + size <= t.CELLS:
        reports.append([t.Cell.ENTRANCE.value] * fresh + [t.Cell.FLOOR.value] * (size - fresh))
    if len(codes) < t.CELLS:
        reports.append([t.Cell.ENTRANCE.value if fresh else t.Cell.FLOOR.value])
    if (t.Cell.TOMB not in codes and len(codes) + 1 >= t.TOMB_PATH_MARKS
            and len(codes) < t.CELLS):                 # the tomb: at least the 5th mark
        reports.append([t.Cell.TOMB.value])
    moves = []
    for report in reports:
        move: dict[str, Any] = {"type": MoveKind.MARK.value,
                                "cells": [{"card": number, "code": code} for code in report]}
        if t.Cell.TOMB in report:
            move["completed"] = _completion(state, [number])
        moves.append(move)
    return moves


def legal_moves(state: Mapping[str, Any], seat: int) -> list[dict[str, Any]]:
    """Concrete legal moves for ``seat``: every pattern placement and single cell on a card
    refereed cell by cell (each with the simplest red-cross extras), representative reports
    for record cards, every card of the offer and of the deck for a replacement, one refill
    (asked only for an awaited seat)."""
    phase = state["phase"]
    if phase == Phase.DEAL:
        return [{"type": MoveKind.DEAL.value,
                 "cards": state["deck"][:t.DEALT * len(state["names"])]}]
    if phase == Phase.KEEP:
        return [{"type": MoveKind.KEEP.value, "cards": list(pair)}
                for pair in combinations(state["players"][seat]["dealt"], t.KEPT)]
    if phase == Phase.OFFER:
        return [{"type": MoveKind.OFFER.value, "cards": state["deck"][:t.OFFER_SIZE]}]
    if phase == Phase.REVEAL:
        return [{"type": MoveKind.REVEAL.value, "shape": code}
                for code in sorted(expedition_left(state))]
    if phase == Phase.MARK:
        moves = []
        for card in state["players"][seat]["open"]:
            moves += (_layout_moves(state, seat, card) if "cells" in card
                      else _record_moves(state, seat, card))
        if pass_allowed(state, seat):
            moves.append({"type": MoveKind.PASS.value})
        return moves
    if phase == Phase.REPLACE:
        return ([{"type": MoveKind.TAKE.value, "source": Source.OFFER.value, "card": n}
                 for n in state["offer"]]
                + [{"type": MoveKind.TAKE.value, "source": Source.DECK.value, "card": n}
                   for n in state["deck"]])
    count = state["pending"][0]["count"]
    return [{"type": MoveKind.REFILL.value, "cards": state["deck"][:count]}]


# --------------------------------------------------------------------------------------------
# Every marking of a step, as the referee reads a phone's taps
# --------------------------------------------------------------------------------------------

# More markings than this are not listed (the page then reads the taps without a verdict): a
# seat's markings are a few dozen, 170 at most in a thousand random games of ours.
MARKINGS_LIMIT = 2000


def legal_markings(state: Mapping[str, Any], seat: int, limit: int = MARKINGS_LIMIT
                   ) -> list[dict[str, Any]] | None:
    """Every set of chambers the seat may mark this step on its cards refereed cell by cell,
    each once: ``{"cells": the pattern or single chamber, "extra": the red-cross extra marks in
    an order that makes each legal}``, patterns first. The referee accepts a phone's taps
    (``{"type": "mark", "marks": [...]}``, :func:`.marking.read_marks`) exactly when they are
    the cells of one of these, so a phone's page can say whether its taps will be accepted
    without a second copy of the rules. None when there are more than ``limit``.

    Built from the same placement rules as the referee: a legal placement of the shape
    (§5.1) or a legal single chamber (§5.2) on one card, then extra marks while red crosses
    ask for them and some chamber of a card refereed cell by cell can take one (§5.3, §14
    #5), each a legal single chamber when it is made."""
    player = state["players"][seat]
    grids = {card["number"]: card_grid(state, card["number"]) for card in player["open"]
             if "cells" in card}
    start = {card["number"]: frozenset(card["cells"]) for card in player["open"]
             if "cells" in card}
    found: dict[frozenset, tuple[list, list]] = {}
    seen: set[tuple[frozenset, int]] = set()

    def extend(marks: Mapping[int, frozenset], main: list, extras: list, due: int) -> None:
        key = frozenset(main + extras)
        if (key, due) in seen or len(found) > limit:
            return
        seen.add((key, due))
        free = [(number, cell) for number, grid in grids.items()
                for cell in legal_singles(grid, marks[number])] if due > 0 else []
        if not free:                                       # done, or the obligation lapses
            found.setdefault(key, (main, extras))
            return
        for number, cell in free:
            extend({**marks, number: marks[number] | {cell}}, main, extras + [(number, cell)],
                   due - 1 + (grids[number][cell] == t.Cell.RED_CROSS))

    mains = [(number, list(cells)) for number, grid in grids.items()
             for cells in legal_placements(grid, start[number], state["shape"])]
    mains += [(number, [cell]) for number, grid in grids.items()
              for cell in legal_singles(grid, start[number])]
    for number, cells in mains:
        grid = grids[number]
        extend({**start, number: start[number] | set(cells)}, [(number, c) for c in cells], [],
               sum(1 for cell in cells if grid[cell] == t.Cell.RED_CROSS))
    if len(found) > limit:
        return None
    return [{"cells": [_cell(number, cell) for number, cell in main],
             "extra": [_cell(number, cell) for number, cell in extras]}
            for main, extras in found.values()]


# --------------------------------------------------------------------------------------------
# Prompts: what a phone offers, and what a waiting phone shows
# --------------------------------------------------------------------------------------------


def _card_view(state: Mapping[str, Any], card: Mapping[str, Any]) -> dict[str, Any]:
    number = card["number"]
    grid = card_grid(state, number)
    shown: dict[str, Any] = {"number": number, "colour": card_colour(state, number),
                             "record": grid is None}
    if grid is None:
        shown["codes"] = list(card["codes"])
        # how many chambers a report on this card must mark, the tomb included, for the tomb
        # to be among them (it is at least the 5th mark of the card)
        shown["tomb_needs"] = tomb_marks_needed(card["codes"])
    else:
        shown["grid"] = [grid[r * t.GRID:(r + 1) * t.GRID] for r in range(t.GRID)]
        shown["marked"] = [list(position(cell)) for cell in card["cells"]]
        shown["singles"] = [list(position(cell)) for cell in legal_singles(grid, card["cells"])]
        shown["pattern_fits"] = bool(state["shape"]) and bool(
            legal_placements(grid, card["cells"], state["shape"]))
        shown["blocked"] = _blocked(grid, card["cells"], state["shape"])
    return shown


def _blocked(grid: str, marked: Sequence[int], shape: str | None) -> list[dict[str, Any]]:
    """The places of the shape on free chambers of a card that the referee still refuses
    (the entrance first, then a touch with an earlier mark: §5.1), with the §5.5 code it
    refuses them with."""
    if not shape:
        return []
    blocked = []
    for cells in PLACEMENTS[shape]:
        if any(grid[cell] == t.Cell.WALL or cell in marked for cell in cells):
            continue
        problem = cells_problem(grid, marked, [position(cell) for cell in cells])
        if problem is not None:
            blocked.append({"cells": [list(position(cell)) for cell in cells],
                            "problem": problem[0].value})
    return blocked


def watching(state: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """What a phone that waits is shown: while every seat marks (or keeps its cards), who is
    still doing it."""
    if state["phase"] in (Phase.MARK, Phase.KEEP):
        return {"still_marking": sorted(awaiting(state).seats)}
    return {}


def prompts(state: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """What an awaited phone may do now, and what it shows: the revealed shape, its cards with
    the chambers a single mark may take, who is still marking, the offer; ``draw`` says the app
    may draw what the table awaits for this seat (:func:`chance`)."""
    waiting = awaiting(state)
    phase = state["phase"]
    luck = chance(state)
    draw = {"draw": True} if luck is not None and seat in luck.seats else {}
    if phase == Phase.DEAL:
        return {"moves": [MoveKind.DEAL.value], "count": t.DEALT * len(state["names"]),
                **draw}
    if phase == Phase.KEEP:
        return {"moves": [MoveKind.KEEP.value], "step": waiting.step,
                "dealt": [_card_view(state, new_card(state, n))
                          for n in state["players"][seat]["dealt"]],
                "still_marking": sorted(waiting.seats)}
    if phase == Phase.OFFER:
        return {"moves": [MoveKind.OFFER.value], "count": t.OFFER_SIZE, **draw}
    if phase == Phase.REVEAL:
        return {"moves": [MoveKind.REVEAL.value],
                "shapes": [[code, n] for code, n in sorted(expedition_left(state).items())],
                **draw}
    if phase == Phase.MARK:
        player = state["players"][seat]
        moves = [MoveKind.MARK.value] + ([MoveKind.PASS.value] if pass_allowed(state, seat)
                                         else [])
        return {"moves": moves, "step": waiting.step, "shape": state["shape"],
                "size": SHAPE_SIZES[state["shape"]],
                "cards": [_card_view(state, card) for card in player["open"]],
                "markings": legal_markings(state, seat),
                "still_marking": sorted(waiting.seats)}
    if phase == Phase.REPLACE:
        return {"moves": [MoveKind.TAKE.value], "offer": list(state["offer"]),
                "deck": len(state["deck"]), "left": state["pending"][0]["left"], **draw}
    return {"moves": [MoveKind.REFILL.value], "count": state["pending"][0]["count"],
            "deck": len(state["deck"]), **draw}


# --------------------------------------------------------------------------------------------
# The physical outcome awaited, and what one phone may see
# --------------------------------------------------------------------------------------------


def chance(state: Mapping[str, Any]) -> Chance | None:
    """The physical outcome awaited: the expedition card (any seat reveals it), a blind draw
    from the pyramid deck, the cards that refill the offer, or (dealt by the app) the deal and
    the first offer."""
    phase = state["phase"]
    everyone = frozenset(range(len(state["names"])))
    if phase in (Phase.DEAL, Phase.OFFER):
        count = t.DEALT * len(state["names"]) if phase == Phase.DEAL else t.OFFER_SIZE
        kind = MoveKind.DEAL if phase == Phase.DEAL else MoveKind.OFFER
        return Chance({"type": kind.value}, "cards", tuple((n, 1) for n in state["deck"]),
                      everyone, draws=count)
    if phase == Phase.REVEAL:
        return Chance({"type": MoveKind.REVEAL.value}, "shape",
                      tuple(sorted(expedition_left(state).items())), everyone)
    if phase in (Phase.REPLACE, Phase.REFILL) and state["deck"]:
        head = state["pending"][0]
        outcomes = tuple((n, 1) for n in state["deck"])
        if phase == Phase.REPLACE:
            return Chance({"type": MoveKind.TAKE.value, "source": Source.DECK.value}, "card",
                          outcomes, frozenset({head["seat"]}))
        return Chance({"type": MoveKind.REFILL.value}, "cards", outcomes,
                      frozenset({head["seat"]}), draws=head["count"])
    return None


def view(state: Mapping[str, Any], seat: int | None) -> dict[str, Any]:
    """The deck lies face down (its size is public, not its cards) and only a seat itself saw
    the cards it was dealt. ``faces`` gives what lies face up (the open, completed and offered
    cards, and this seat's cards dealt): each card's colour and, when it is refereed cell by
    cell, its grid (5 rows), so that a phone can draw it."""
    shown = dict(state)
    shown["deck"] = None
    shown["deck_size"] = len(state["deck"])
    shown["players"] = [player if s == seat else {**player, "dealt": None}
                        for s, player in enumerate(state["players"])]
    numbers = set(state["offer"])
    for s, player in enumerate(state["players"]):
        numbers |= {card["number"] for card in player["open"] + player["completed"]}
        if s == seat:
            numbers |= set(player["dealt"])
    shown["faces"] = {str(n): face(state, n) for n in sorted(numbers)}
    return shown


def face(state: Mapping[str, Any], number: int) -> dict[str, Any]:
    """What a pyramid card shows: its colour (None when unknown) and its 5 rows of cell codes
    (None for a card played in record mode)."""
    grid = card_grid(state, number)
    return {"colour": card_colour(state, number),
            "grid": [grid[r * t.GRID:(r + 1) * t.GRID] for r in range(t.GRID)] if grid else None}
