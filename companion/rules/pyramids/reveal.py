"""Silver & Gold – Pyramids: step 1 of a turn, the expedition card turned up (spec §4).

The card is physical randomness entered as a move by any seat (or drawn by the app through
:func:`.phones.chance`): ``{"type": "reveal", "shape": "L3"}``. This round's deck must still
hold such a card (§4: 7 of the 8 are revealed each round; an unconfirmed published deck offers
the whole palette, §10). Then every seat that has a legal mark marks (:mod:`.marking`).

Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import ChoiceField, N_, RuleViolation
from ..referee import Draft, MoveRule
from . import printed as t
from .state import MOVE_LABELS, MoveKind, Phase, expedition_left, must_mark
from .turns import close_turn

SHAPE = ChoiceField("shape", N_("Expedition card"),
                    tuple((code, str(t.SHAPE_LABELS[code])) for code in t.SHAPES))


def _check_reveal(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    if args["shape"] not in expedition_left(state):
        raise RuleViolation("pyramids.shape_not_in_deck",
                            N_("No %(shape)s expedition card is left in this round's deck."),
                            "move.shape", shape=t.SHAPE_LABELS[args["shape"]])


def _reveal(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    """The shape is out; the seats with a legal mark are awaited (§14 #6, #11: if none has
    one, the turn closes at once)."""
    d["shape"] = args["shape"]
    d["revealed"] = d["revealed"] + [args["shape"]]
    d["phase"] = Phase.MARK.value
    for s, player in enumerate(d["players"]):
        if player["just"]:
            d.own("players", s)["just"] = []
    d["marked"] = [not must_mark(d.state, s) for s in range(len(d["names"]))]
    if all(d["marked"]):
        close_turn(d)


RULE = MoveRule(MoveKind.REVEAL, MOVE_LABELS[MoveKind.REVEAL], frozenset({Phase.REVEAL}),
                args=(SHAPE,), check=_check_reveal, change=_reveal)
