"""Pharaon's story (issue 22; companion/rules/story.py): rounds are its chapters; its moments
are the gods each player claimed, told when the game ends (the gods are scored at the end,
spec pharaon.md §9: a god's space is claimed by the columns around it). Pure."""

from __future__ import annotations

from typing import Any, Mapping

from ..base import N_, Joined, Moment
from .state import god_name, is_over
from .tallies import score

GODS = N_("%(player)s claimed gods: %(gods)s (%(points)d points)")


def chapter(state: Mapping[str, Any]) -> int:
    """The round."""
    return state["round"]


def moments(before: Mapping[str, Any], after: Mapping[str, Any], seat: int,
            move: Mapping[str, Any]) -> list[Moment]:
    """At the move that ends the game: each player's gods, from the final Scoresheet."""
    if is_over(before) or not is_over(after):
        return []
    told = []
    for player in score(after).players:
        for category in player.categories:
            if category.key == "gods" and category.detail.get("gods"):
                told.append(Moment(GODS, {"player": player.name,
                                          "gods": Joined(god_name(god) for god
                                                         in category.detail["gods"]),
                                          "points": category.points}, kind="pharaon.gods"))
    return told
