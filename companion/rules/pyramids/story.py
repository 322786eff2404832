"""Silver & Gold Pyramids' story (issue 22; companion/rules/story.py): rounds are its
chapters; its moments are the pyramid points boxes of the race, each as it is claimed (spec
§6, the race: 10, 6 and 3 points per colour, first come first served). Pure."""

from __future__ import annotations

from typing import Any, Mapping

from ..base import N_, Moment
from . import printed as t

RACE = N_("%(player)s claimed the %(points)d-point box of %(colour)s")


def chapter(state: Mapping[str, Any]) -> int:
    """The round."""
    return state["round"]


def moments(before: Mapping[str, Any], after: Mapping[str, Any], seat: int,
            move: Mapping[str, Any]) -> list[Moment]:
    """The race boxes claimed by this move, in the order they were claimed."""
    told = []
    for colour in t.COLOURS:
        was, now = before["race"][colour], after["race"][colour]
        for index in range(len(was), len(now)):
            told.append(Moment(RACE, {"player": before["names"][now[index]],
                                      "points": t.RACE_BOXES[index],
                                      "colour": t.COLOUR_LABELS[colour]},
                               kind="pyramids.race"))
    return told
