"""Imhotep's referee: the move table assembled from the move families (spec imhotep.md §4, §6.1).

Each family module declares its moves once, arguments, check and change side by side:
:mod:`.round_start` (``round_card``, ``reveal_market``), :mod:`.actions` (``take_stones``,
``place_stone``, ``sail_ship``, ``pass``), :mod:`.cards` (``play_card``), :mod:`.market`
(``pick_card``, ``pick_pair``, ``skip_card``) and :mod:`.choices` (``unload_order``,
``choose_pyramid``, ``use_bonus``, ``skip_bonus``, ``temple_choice``, ``draw_card``). After
every move :func:`.flow.run` carries out what needs no input; :mod:`.prompts` says what an
awaited phone may do. The ruleset (the package) derives its live members from :data:`REFEREE`.

Pure (design.md §1).
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import N_, RuleViolation
from ..referee import MoveRule, Referee
from .actions import PASS, PLACE_STONE, SAIL_SHIP, TAKE_STONES
from .cards import PLAY_CARD
from .choices import (CHOOSE_PYRAMID, DRAW_CARD, SKIP_BONUS, TEMPLE_CHOICE, UNLOAD_ORDER,
                      USE_BONUS)
from .flow import run
from .market import PICK_CARD, PICK_PAIR, SKIP_CARD
from .prompts import legal_moves, prompts
from .round_start import REVEAL_MARKET, ROUND_CARD
from .state import WAITING_LABELS, Phase, awaiting, is_over, step, to_act


def _not_your_choice(state: Mapping[str, Any], seat: int, rule: MoveRule) -> RuleViolation | None:
    """A choice belongs to one seat; anyone else is told whose it is."""
    if state["phase"] != Phase.CHOICE:
        return None
    return RuleViolation("imhotep.not_your_choice", N_("%(player)s chooses now, not you."),
                         player=state["names"][to_act(state)])


REFEREE = Referee(
    "imhotep",
    (ROUND_CARD, REVEAL_MARKET,
     TAKE_STONES, PLACE_STONE, SAIL_SHIP, PLAY_CARD, PASS,
     PICK_CARD, PICK_PAIR, SKIP_CARD,
     UNLOAD_ORDER, CHOOSE_PYRAMID, USE_BONUS, SKIP_BONUS, TEMPLE_CHOICE, DRAW_CARD),
    phase_of=step, awaited=awaiting, over=is_over, phase_labels=WAITING_LABELS, after=run,
    not_awaited=_not_your_choice, prompts=prompts, legal_moves=legal_moves)
