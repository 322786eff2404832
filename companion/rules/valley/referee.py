"""Valley of the Kings: the referee table (spec §13).

Every move kind comes from its family's module, where its arguments, check and change are
declared side by side: :mod:`.buy`, :mod:`.action` (with :mod:`.effects`), :mod:`.seal`,
:mod:`.end_turn`, :mod:`.chance` (refill and Brain Hook's reveal) and :mod:`.decline`. The
shared referee (``rules/referee.py``) runs the opening checks every game shares, then the
move's own; the ruleset derives its live members from :data:`REFEREE`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import N_, State, Term
from ..referee import Draft, Referee
from . import action, buy, chance, decline, end_turn, seal
from .arguments import BadArgument
from .prompts import legal_moves, prompts
from .state import GAME, Phase, awaited, is_over

WAITING_LABELS: Mapping[str, Term] = {
    Phase.PLAY: Term(N_("the active player's cards")),
    Phase.REVEAL: Term(N_("the card Brain Hook turns up")),
    Phase.BRAIN_HOOK: Term(N_("Brain Hook: buy the revealed card or sacrifice it")),
    Phase.REFILL: Term(N_("the cards that refill the pyramid")),
}


class WritingReferee(Referee):
    """The shared referee, for a game that checks its rules while it writes a move.

    Each card a Valley move names may reveal a copy, a printed value or a set that the next
    step of the same move is checked against, so most rules are checked as the move is
    written on a copy-on-write draft: validating a move is writing it on a draft that is then
    dropped. An argument a move family finds missing or wrong (:class:`BadArgument`) is
    refused as the referee refuses a malformed move, naming it by its labels."""

    def validate(self, state: Mapping[str, Any], seat: int, move: Any) -> None:
        """Raise RuleViolation if ``seat`` may not make ``move``; change nothing."""
        self.apply(state, seat, move)

    def apply(self, state: Mapping[str, Any], seat: int, move: Any) -> State:
        """Check ``move`` while writing it and return the new state (``state`` untouched)."""
        try:
            return super().apply(state, seat, move)
        except BadArgument as bad:
            raise self.bad_argument(move["type"], bad.path, bad.problem) from None


def _count_move(d: Draft) -> None:
    """Every move has its index in the log (the correction window, §7)."""
    d.state["moves"] = d["moves"] + 1


REFEREE = WritingReferee(
    GAME,
    (buy.RULE, action.RULE, seal.RULE, end_turn.RULE, chance.REFILL_RULE, chance.REVEAL_RULE,
     decline.RULE),
    phase_of=lambda state: state["phase"],
    awaited=awaited,
    over=is_over,
    phase_labels=WAITING_LABELS,
    after=_count_move,
    prompts=prompts,
    legal_moves=legal_moves,
)
