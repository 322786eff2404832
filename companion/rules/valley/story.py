"""Valley of the Kings' story (issue 22; companion/rules/story.py): turns are its chapters;
its moments are the entombings, every card put into a tomb (spec §5.3 the free seal, §6 the
actions that seal), named as the board names them (:func:`.names.term`). Pure."""

from __future__ import annotations

from typing import Any, Mapping

from ..base import N_, Moment
from .names import term

ENTOMBED = N_("%(player)s entombed %(card)s")


def chapter(state: Mapping[str, Any]) -> int:
    """The turn."""
    return state["turn"]


def moments(before: Mapping[str, Any], after: Mapping[str, Any], seat: int,
            move: Mapping[str, Any]) -> list[Moment]:
    """The cards that entered a tomb with this move, tomb by tomb."""
    told = []
    for owner, (was, now) in enumerate(zip(before["players"], after["players"])):
        for card in now["tomb"][len(was["tomb"]):]:
            told.append(Moment(ENTOMBED, {"player": before["names"][owner],
                                          "card": term(card)}, kind="valley.tomb"))
    return told
