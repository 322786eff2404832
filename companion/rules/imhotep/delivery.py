"""Stones arriving at the sites and cards changing hands (spec imhotep.md §4.6 A sides, §6.1 B
sides, §2.6 red cards, E1, E2, E4, E5, E11-E14, IM-T23).

A sailed ship's stones are delivered one by one in unloading order, each as a DELIVER task in
the queue; a delivery that needs its owner's choice (the Market card, a Pyramid B) waits there
for a move of :mod:`.market` or :mod:`.choices`. The functions here change a Draft; the
moves call them.

Pure (design.md §1).
"""

from __future__ import annotations

from typing import Any, Mapping

from ..referee import Draft
from . import printed
from .scoring import pyramid_a_points
from .state import QUEUE, Site, Task, Via, pile_count, pyramids_with_room


def unload(d: Draft, site: str, owners: list[int]) -> None:
    """Queue one delivery per stone, the first owner's stone first (§4.4)."""
    for owner in reversed(owners):
        QUEUE.push_front(d, owner, Task.DELIVER.value, site=site, via=Via.SHIP.value)


def reshuffle(d: Draft) -> None:
    """E4: the discards (seen or not) become the new draw pile."""
    deck = d.own("deck")
    for card, n in d["discard"].items():
        deck[card] += n
    d["discard"] = {kind: 0 for kind in printed.CARD_KINDS}
    d["discard_unknown"] = 0


def gain(d: Draft, seat: int, card: str) -> None:
    """A card taken or drawn (§4.6): red resolves at once, the others are kept face up."""
    if card in printed.RED_CARDS:
        QUEUE.push_front(d, seat, Task.RED.value, card=card)
    else:
        d.add(("cards", seat, card), 1)


def draw_from_pile(d: Draft, seat: int, card: str) -> None:
    """The top card of the pile, named by the table (E4: shuffle first if it is empty), goes
    to ``seat``."""
    if pile_count(d.state) == 0:
        reshuffle(d)
    d.add(("deck", card), -1)
    gain(d, seat, card)


def resolve_red(d: Draft, seat: int, card: str) -> None:
    """§2.6 red cards, E2/IM-T23: one own stone from the quarry to the card's site, placed by
    that site's rules (B sides included); none in the quarry, no effect. Then discarded."""
    d.add(("discard", card), 1)
    if d["quarry"][seat]:
        d.add(("quarry", seat), -1)
        QUEUE.push_front(d, seat, Task.DELIVER.value, site=printed.RED_CARD_SITE[card],
                         via=Via.CARD.value)


def mark(d: Draft, seat: int, site: str, via: str) -> None:
    """Remember that ``seat`` reached a monument, and whether by ship (§6.4, E11)."""
    if site == Site.MARKET:
        return
    known = d["delivered"][seat].get(site)
    if known is None or (known == Via.CARD and via == Via.SHIP):
        d.own("delivered", seat)[site] = via


def place_pyramid_b(d: Draft, seat: int, pyramid: int, via: str) -> None:
    """§6.1 Pyramids B: the next space of the chosen pyramid; a bonus space pays 1 point and
    offers its bonus."""
    pyramids = d.own("pyramids", "pyramids")
    pile = pyramids[pyramid] = pyramids[pyramid] + [seat]
    space = d["b_values"]["pyramids_b"][pyramid][len(pile) - 1]
    mark(d, seat, Site.PYRAMIDS.value, via)
    if isinstance(space, str):
        d.add(("score", seat), printed.PYRAMID_B_BONUS_SPACE_POINTS)
        QUEUE.push_front(d, seat, Task.BONUS.value, bonus=space)
    else:
        d.add(("score", seat), space)


def deliver(d: Draft, task: Mapping[str, Any]) -> bool:
    """One stone arrives (§4.6, §6.1). True when its owner must choose first."""
    site, seat, via = task["site"], task["seat"], task["via"]
    sides = d["options"]["sides"]
    if site == Site.MARKET:
        if d["display"] or d["pair"]:
            return True
        QUEUE.pop(d)
        d.add(("quarry", seat), 1)         # E4: no card left; the stone still goes back
        return False
    if site == Site.PYRAMIDS and sides["pyramids"] == "B":
        room = pyramids_with_room(d.state)
        if len(room) > 1:
            return True
        QUEUE.pop(d)
        if room:
            place_pyramid_b(d, seat, room[0], via)
        else:                              # E14: all full, beside the board
            d.own("pyramids", "beside").append(seat)
            d.add(("score", seat), printed.PYRAMID_OVERFLOW_POINTS)
            mark(d, seat, site, via)
        return False
    QUEUE.pop(d)
    mark(d, seat, site, via)
    if site == Site.PYRAMIDS:
        stones = d.own("pyramids")
        stones.append(seat)
        d.add(("score", seat), pyramid_a_points(len(stones)))
    elif site in (Site.TEMPLE, Site.BURIAL_CHAMBER):
        d.own(site).append(seat)
    elif sides["obelisks"] == "A":
        d.add(("obelisks", seat), 1)
    else:
        waiting = d.own("obelisks", "waiting")
        waiting[seat] += 1
        free = _free_towers(d.state)
        if waiting[seat] >= printed.OBELISK_B_TOWER_STONES and free:
            # the free tower space with the highest value; none free: the stones keep waiting
            waiting[seat] -= printed.OBELISK_B_TOWER_STONES
            d.own("obelisks", "towers").append([seat, free[0]])
            if not d["options"]["obelisks_b_score_at_end"]:
                d.add(("score", seat), free[0])
    return False


def _free_towers(state: Mapping[str, Any]) -> list[int]:
    """Obelisks B tower values still free, highest first (§6.1; none left: stones wait)."""
    free = sorted(state["b_values"]["obelisks_b"], reverse=True)
    for _, value in state["obelisks"]["towers"]:
        free.remove(value)
    return free
