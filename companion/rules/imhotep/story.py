"""Imhotep's story (issue 22; companion/rules/story.py): rounds are its chapters; its moment is
the largest delivery of the game, the ship that carried most stones to a site (spec
imhotep.md §4.4). Pure."""

from __future__ import annotations

from typing import Any, Mapping

from ..base import N_, Moment
from . import printed

DELIVERY = N_("Largest delivery: %(player)s sailed a ship to the %(site)s (stones: %(stones)d)")


def chapter(state: Mapping[str, Any]) -> int:
    """The round (1-6)."""
    return state["round"]


def moments(before: Mapping[str, Any], after: Mapping[str, Any], seat: int,
            move: Mapping[str, Any]) -> list[Moment]:
    """A ship that docked with this move (by the sail action or a card): its stones."""
    told = []
    for was, now in zip(before["ships"], after["ships"]):
        if was.get("site") is None and now.get("site") is not None:
            stones = sum(1 for owner in was["slots"] if owner is not None)
            told.append(Moment(DELIVERY, {"player": before["names"][seat], "stones": stones,
                                          "site": printed.SITE_LABELS[now["site"]]},
                               kind="imhotep.delivery", size=stones, best=True))
    return told
