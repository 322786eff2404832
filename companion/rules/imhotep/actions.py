"""A player's turn (spec imhotep.md §4.2 GET_STONES, §4.3 PLACE_STONE, §4.4 SAIL_SHIP, §4.5
PASS, E3): the ``take_stones``, ``place_stone``, ``sail_ship`` and ``pass`` moves. The fourth
action, a blue card, is :mod:`.cards`.

Pure (design.md §1).
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import ChoiceField, IntField, N_, RuleViolation, Term
from ..referee import Args, Draft, MoveRule
from . import printed
from .cards import playable_cards
from .flow import action
from .ships import check_sail, check_slot, place, sail, take
from .state import SITE_CHOICES, MoveKind, Phase, Then, free_slots, load, sailable, takeable

TURN_PHASE = frozenset({Phase.TURN.value})
SHIP = IntField("ship", N_("Ship"), default=None)
SPACE = IntField("slot", N_("Space"), default=None)


def turn_moves(state: Mapping[str, Any], seat: int) -> list[str]:
    """The kinds of action ``seat`` may take on its turn (PASS only when none is, §4.5)."""
    moves = []
    if takeable(state, seat, printed.STONES_PER_TAKE):
        moves.append(MoveKind.TAKE_STONES.value)
    if state["sled"][seat] and free_slots(state):
        moves.append(MoveKind.PLACE_STONE.value)
    if sailable(state):
        moves.append(MoveKind.SAIL_SHIP.value)
    if playable_cards(state, seat):
        moves.append(MoveKind.PLAY_CARD.value)
    if not moves and state["options"]["allow_pass_when_stuck"]:
        moves.append(MoveKind.PASS.value)
    return moves


# ---- take_stones -------------------------------------------------------------------------------


def _check_take(state: Mapping[str, Any], seat: int, args: Args) -> None:
    """§4.2: room on the sled and stones in the quarry."""
    if state["sled"][seat] >= printed.SLED_CAPACITY:
        raise RuleViolation("imhotep.sled_full", N_("Your sled already holds %(capacity)d stones."),
                            capacity=printed.SLED_CAPACITY)
    if not state["quarry"][seat]:
        raise RuleViolation("imhotep.quarry_empty",
                            N_("None of your stones is left in the quarry."))


TAKE_STONES = MoveRule(
    MoveKind.TAKE_STONES.value, Term(N_("take stones")), TURN_PHASE,
    check=_check_take,
    change=action(lambda d, seat, args: take(d, seat, printed.STONES_PER_TAKE)),
    hint=N_("On your turn: up to 3 stones from the quarry to your sled (at most 5 on it)."))


# ---- place_stone -------------------------------------------------------------------------------


PLACE_STONE = MoveRule(
    MoveKind.PLACE_STONE.value, Term(N_("place a stone")), TURN_PHASE,
    args=(SHIP, SPACE),
    check=lambda state, seat, args: check_slot(state, args["ship"], args["slot"], seat),
    change=action(lambda d, seat, args: place(d, seat, args["ship"], args["slot"])),
    hint=N_("On your turn: a stone from your sled onto an empty space of a ship that has not "
            "sailed."))


# ---- sail_ship ---------------------------------------------------------------------------------


SAIL_SHIP = MoveRule(
    MoveKind.SAIL_SHIP.value, Term(N_("sail a ship")), TURN_PHASE,
    args=(SHIP, ChoiceField("site", N_("Site"), SITE_CHOICES)),
    check=lambda state, seat, args: check_sail(state, args["ship"], args["site"]),
    change=action(lambda d, seat, args: sail(d, seat, args["ship"], args["site"], False)),
    hint=N_("On your turn: a ship carrying at least its minimum to a site no ship has docked "
            "at this round."))


# ---- pass --------------------------------------------------------------------------------------


def _check_pass(state: Mapping[str, Any], seat: int, args: Args) -> None:
    """§4.5, E3: a pass only when no action is possible (option allow_pass_when_stuck)."""
    if turn_moves(state, seat) != [MoveKind.PASS.value]:
        raise RuleViolation("imhotep.pass_not_allowed",
                            N_("You can pass only when no action is possible."))


def _pass(d: Draft, seat: int, args: Args) -> None:
    """E3 (house ruling): when everyone has passed in turn the round ends; stones on unsailed
    ships go back to their owners' quarries; the next start player is left of the last
    player to pass (who is also the last one who acted)."""
    d["passes"] += 1
    if d["passes"] < len(d["names"]):
        d["then"] = Then.END_ACTION.value
        return
    ships = d.own("ships")
    for i, ship in enumerate(ships):
        if ship["site"] is None and load(ship):
            for owner in ship["slots"]:
                if owner is not None:
                    d.add(("quarry", owner), 1)
            ships[i] = {**ship, "slots": [None] * ship["capacity"]}
    d["next_start"] = (seat + 1) % len(d["names"])
    d["then"] = Then.ROUND_END.value


PASS = MoveRule(
    MoveKind.PASS.value, Term(N_("pass")), TURN_PHASE, check=_check_pass, change=_pass,
    hint=N_("On your turn, only when no action is possible (option allow_pass_when_stuck)."))
