"""Valley of the Kings: the end of a turn (spec §5 steps 2-4) and of the game (§9), declared
once.

``{"type": "end_turn", "sacrifice": {"slot": "T"}}``: the rebuild sacrifices exactly one
pyramid card (any slot) when, and only when, the pyramid did not change this turn and is not
empty (``VK_REBUILD``). Then the pyramid is refilled from the supply (a chance move,
:mod:`.chance`) or, with nothing to refill, the turn ends at once: the player discards what
was played and held, draws five and takes back Serdab's cards; after the last player of a
round, with the supply and the pyramid empty, the game is over.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import N_, ObjectField, Term
from ..referee import Draft, MoveRule
from . import arguments as a
from . import printed as t
from . import pyramid as pyr
from .state import (REBUILD, MoveKind, Phase, fail, last_seat, pyramid_cards, rebuild_needed,
                    refill_count)
from .zones import draw, onto_discard, own_player, pyramid_card, to_boneyard

ARGS = (ObjectField("sacrifice", N_("Pyramid card sacrificed"), a.pick_fields(),
                    optional=True),)


def check(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    """Require a sacrifice iff the pyramid did not change this turn and is not empty (§5
    step 3)."""
    needed = rebuild_needed(state)
    if needed and args["sacrifice"] is None:
        raise fail(REBUILD, N_("The pyramid did not change this turn: sacrifice one of its "
                               "cards."), "move.sacrifice")
    if not needed and args["sacrifice"] is not None:
        raise fail(REBUILD, N_("The pyramid changed this turn (or is empty): nothing is "
                               "sacrificed."), "move.sacrifice")


def change(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    """Sacrifice the rebuild's card, then wait for the refill or end the turn."""
    pick = args["sacrifice"]
    if pick is not None:
        card = pyramid_card(d, pick, "move.sacrifice")
        d.state["pyramid"] = pyr.remove(d["pyramid"], pick["slot"], pick["drop"],
                                        "move.sacrifice.drop")
        to_boneyard(d, card)
    if refill_count(d.state):
        d.state["phase"] = Phase.REFILL.value
    else:
        finish_turn(d)


def finish_turn(d: Draft) -> None:
    """Discard what was played and held (step 2), draw five (step 4) and add Serdab's cards;
    then end the game (§9) or pass the turn to the left."""
    seat = d["current"]
    player = own_player(d, seat)
    for entry in d["played"]:
        if not entry["out"]:
            onto_discard(d, seat, entry["card"])      # known to lie there (DISCARD_PILE_RULE)
    player["discard"] += player["hand"]
    player["hand"] = 0
    draw(player, t.HAND_SIZE)
    player["hand"] += player["aside"]
    player["aside"] = 0
    if d["supply"] == 0 and pyramid_cards(d.state) == 0 and seat == last_seat(d.state):
        d.state["phase"] = Phase.OVER.value      # §9: all three conditions, after a full round
        return
    d.state["current"] = (seat + 1) % len(d["names"])
    d.state["turn"] = d["turn"] + 1
    d.state["phase"] = Phase.PLAY.value
    d.state["played"] = []
    d.state["changed"] = False
    d.state["free_seals"] = 0
    d.state["ring"] = False                            # no carry-over (SEED Ring clarification)
    d.state["card_played"] = False
    d.state["turn_started_at"] = d["moves"] + 1        # this move's index is d["moves"]


RULE = MoveRule(MoveKind.END_TURN, Term(N_("end the turn")), frozenset({Phase.PLAY}),
                args=ARGS, check=check, change=change,
                hint=N_("End the turn: sacrifice one pyramid card when the pyramid did not "
                        "change this turn, then refill it and draw."))
