"""Pharaon's referee: the move families assembled into one table (rules/referee.py), and the
legal moves it accepts.

Every move kind is declared in the module of its family, its arguments, check and change side
by side; this module only puts them together with the game's phases, whose turn it is and what
runs after every move (:mod:`.rounds`).
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import N_, RuleViolation
from ..referee import MoveRule, Referee
from . import (actions, draws, exchanges, jar_gains, noble_effects, passing, setup,
               traitor_turns, values)
from .prompts import candidates, prompts, watching
from .rounds import after_move
from .state import GAME, WAITING_LABELS, awaiting, is_over, phase_of


def _not_awaited(state: Mapping[str, Any], seat: int, rule: MoveRule) -> RuleViolation:
    """The spec's own code for a move out of turn (PH_E_NOT_YOUR_TURN)."""
    waiting = sorted(awaiting(state).seats)
    names = state["names"]
    return RuleViolation("PH_E_NOT_YOUR_TURN",
                         N_("It is not your turn: %(player)s is to act."),
                         player=", ".join(names[s] for s in waiting))


def legal_moves(state: Mapping[str, Any], seat: int) -> list[dict[str, Any]]:
    """Concrete legal moves for the awaited ``seat``: the candidates the referee accepts."""
    found = []
    for move in candidates(state, seat):
        try:
            REFEREE.validate(state, seat, move)
        except RuleViolation:
            continue
        found.append(move)
    return found


REFEREE = Referee(
    GAME,
    (*draws.RULES, *setup.RULES, *actions.RULES, *passing.RULES, *exchanges.RULES,
     *jar_gains.RULES, *noble_effects.RULES, *traitor_turns.RULES, *values.RULES),
    phase_of=phase_of, awaited=awaiting, over=is_over, phase_labels=WAITING_LABELS,
    after=after_move, not_awaited=_not_awaited, prompts=prompts, legal_moves=legal_moves,
    watching=watching)
