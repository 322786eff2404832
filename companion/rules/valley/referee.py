"""Valley of the Kings: the referee table (spec §13).

Every move kind comes from its family's module, where its arguments, check and change are
declared side by side: :mod:`.buy`, :mod:`.action` (with :mod:`.effects`), :mod:`.seal`,
:mod:`.end_turn`, :mod:`.chance` (refill and Brain Hook's reveal) and :mod:`.decline`. The
shared referee (``rules/referee.py``) runs the opening checks every game shares, then the
move's own. Most Valley rules are checked while a move is written on a copy-on-write draft
(each card a move names may reveal a copy, a printed value or a set the next step is checked
against); the referee's ``validate`` writes the move on a draft and drops it, so it refuses
exactly what ``apply`` refuses. The ruleset derives its live members from :data:`REFEREE`.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..base import N_, Term
from ..referee import Draft, Referee
from . import action, buy, chance, decline, end_turn, seal
from .prompts import legal_moves, prompts
from .state import GAME, Phase, awaited, is_over

WAITING_LABELS: Mapping[str, Term] = {
    Phase.PLAY: Term(N_("the active player's cards")),
    Phase.REVEAL: Term(N_("the card Brain Hook turns up")),
    Phase.BRAIN_HOOK: Term(N_("Brain Hook: buy the revealed card or sacrifice it")),
    Phase.REFILL: Term(N_("the cards that refill the pyramid")),
}


def _count_move(d: Draft) -> None:
    """Every move has its index in the log (the correction window, §7)."""
    d.state["moves"] = d["moves"] + 1


REFEREE = Referee(
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
