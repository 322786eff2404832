"""Valley of the Kings: Brain Hook's card not bought (spec §8), declared once.

``{"type": "decline"}``: the card Brain Hook turned up is sacrificed onto the boneyard (SEED
l.259), and the turn goes on. Buying it instead is a ``buy`` of slot ``"revealed"``
(:mod:`.buy`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import N_, Term
from ..referee import Draft, MoveRule
from .state import MoveKind, Phase
from .zones import to_boneyard


def change(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    """Sacrifice the revealed card onto the boneyard."""
    to_boneyard(d, d["revealed"])
    d.state["revealed"] = None
    d.state["phase"] = Phase.PLAY.value


RULE = MoveRule(MoveKind.DECLINE, Term(N_("sacrifice the revealed card")),
                frozenset({Phase.BRAIN_HOOK}), change=change,
                hint=N_("Do not buy the card Brain Hook turned up: it is sacrificed."))
