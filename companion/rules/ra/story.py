"""Ra's story (issue 22; companion/rules/story.py): epochs are its chapters; its moments are the
biggest auction of the game (the most tiles won at once, spec ra.md §4.5) and every disaster a
player took (§4.6). Pure."""

from __future__ import annotations

from typing import Any, Mapping

from ..base import N_, Moment
from .state import DISASTERS, tile_label

AUCTION = N_("%(player)s won the biggest auction with the %(sun)d sun (tiles: %(tiles)d)")
DISASTER = N_("%(player)s took a disaster: %(tile)s")


def chapter(state: Mapping[str, Any]) -> int:
    """The epoch (1-3)."""
    return state["epoch"]


def moments(before: Mapping[str, Any], after: Mapping[str, Any], seat: int,
            move: Mapping[str, Any]) -> list[Moment]:
    """An auction settled by this move (§4.5): the lot it gave and the disasters in it. The
    winner is the seat whose face-down suns grew (the centre sun goes to the winner)."""
    if not before.get("auction") or after.get("auction"):
        return []
    winner = next((s for s, (was, now) in enumerate(zip(before["suns_down"], after["suns_down"]))
                   if len(now) > len(was)), None)
    lot = [tile for tile in before["track"] if tile is not None]
    if winner is None or not lot:
        return []
    name = before["names"][winner]
    told = [Moment(AUCTION, {"player": name, "tiles": len(lot), "sun": after["centre"]},
                   kind="ra.auction", size=len(lot), best=True)]
    told += [Moment(DISASTER, {"player": name, "tile": tile_label(tile)}, kind="ra.disaster")
             for tile in lot if tile in DISASTERS]
    return told
