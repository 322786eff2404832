"""Silver & Gold – Pyramids live referee: the table of moves, assembled from their families.

Each move kind is declared once, its arguments, check and change side by side, in the module
of its family: the app's deal (:mod:`.deal`: ``deal``, ``keep``, ``offer``), step 1
(:mod:`.reveal`), step 2 (:mod:`.marking`: ``mark``, ``pass``), step 3 (:mod:`.replacement`:
``take``, ``refill``). The shared referee (rules/referee.py) runs the checks every game shares
first; what phones are offered comes from :mod:`.phones`. ``GameRules`` derives the seam's
live members from :data:`REFEREE` (spec shared/rules/silver-gold-pyramids.md §3-§9).

Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import N_, RuleViolation
from ..referee import MoveRule, Referee
from . import deal, marking, phones, replacement, reveal
from .state import GAME, PHASE_LABELS, Phase, awaiting, is_over, phase_of


def _not_awaited(state: Mapping[str, Any], seat: int, rule: MoveRule) -> RuleViolation | None:
    """A seat that has already kept its cards or marked this turn is told it waits for the
    others (answered like a move out of turn)."""
    done = 0 <= seat < len(state["marked"]) and state["marked"][seat]
    if not done or state["phase"] not in (Phase.KEEP, Phase.MARK):
        return None
    waiting = ", ".join(state["names"][s] for s in sorted(awaiting(state).seats))
    if state["phase"] == Phase.KEEP:
        return RuleViolation("pyramids.already_kept",
                             N_("You have kept your cards; waiting for %(player)s."),
                             player=waiting)
    return RuleViolation("pyramids.already_marked",
                         N_("You have marked this turn; waiting for %(player)s."),
                         player=waiting)


REFEREE = Referee(
    GAME, (*deal.RULES, reveal.RULE, *marking.RULES, *replacement.RULES),
    phase_of=phase_of, awaited=awaiting, over=is_over, phase_labels=PHASE_LABELS,
    not_awaited=_not_awaited, prompts=phones.prompts, legal_moves=phones.legal_moves,
    watching=phones.watching)
