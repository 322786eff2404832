"""Ra's referee: the move table assembled from the move families (spec ra.md §4).

Each family module declares its moves once, arguments, check and change side by side:
:mod:`.turn` (``draw``, ``invoke_ra``, ``use_gods``), :mod:`.auction` (``bid``, ``pass``) and
:mod:`.disasters` (``discard``); :mod:`.prompts` says what an awaited phone may do. The shared
:class:`~companion.rules.referee.Referee` runs them; the ruleset (the package) derives its live
members from :data:`REFEREE`.

Pure (design.md §1).
"""

from __future__ import annotations

from ..referee import Referee
from .auction import BID, PASS, not_bidders_turn
from .disasters import DISCARD
from .prompts import legal_moves, prompts
from .state import PHASE_LABELS, awaiting, is_over, phase_of
from .turn import DRAW, INVOKE_RA, USE_GODS

REFEREE = Referee(
    "ra", (DRAW, INVOKE_RA, USE_GODS, BID, PASS, DISCARD),
    phase_of=phase_of, awaited=awaiting, over=is_over, phase_labels=PHASE_LABELS,
    not_awaited=not_bidders_turn, prompts=prompts, legal_moves=legal_moves)
