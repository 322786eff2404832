"""Stones from the quarry to the sled, onto the ships, and ships sailing (spec imhotep.md
§4.2–§4.4): the checks and changes the turn actions, the blue cards and the Pyramid B bonus
share.

Pure (design.md §1).
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import N_, Counted, N_plural, RuleViolation
from ..referee import Draft
from . import printed
from .delivery import unload
from .state import QUEUE, Task, free_sites, load, takeable


def check_ship(state: Mapping[str, Any], ship: int) -> Mapping[str, Any]:
    """The unsailed ship ``ship`` of this round (§4.3, §4.4)."""
    ships = state["ships"]
    if not 0 <= ship < len(ships):
        raise RuleViolation("imhotep.unknown_ship",
                            N_("There is no ship %(ship)d this round."), "move.ship",
                            ship=ship + 1)
    if ships[ship]["site"] is not None:
        raise RuleViolation("imhotep.ship_sailed",
                            N_("Ship %(ship)d has already sailed this round."), "move.ship",
                            ship=ship + 1)
    return ships[ship]


def check_slot(state: Mapping[str, Any], ship: int, slot: int, seat: int | None = None) -> None:
    """§4.3 preconditions of a placement (from ``seat``'s sled, when given)."""
    if seat is not None and not state["sled"][seat]:
        raise RuleViolation("imhotep.sled_empty", N_("Your sled has no stones to place."))
    boat = check_ship(state, ship)
    if not 0 <= slot < boat["capacity"]:
        raise RuleViolation("imhotep.slot_out_of_range",
                            N_("Ship %(ship)d has spaces 1 to %(capacity)d."), "move.slot",
                            ship=ship + 1, capacity=boat["capacity"])
    if boat["slots"][slot] is not None:
        raise RuleViolation("imhotep.slot_occupied",
                            N_("Space %(slot)d of ship %(ship)d is taken."), "move.slot",
                            ship=ship + 1, slot=slot + 1)


def check_sail(state: Mapping[str, Any], ship: int, site: str, extra: int = 0) -> None:
    """§4.4 conditions; ``extra`` stones are placed first (the Sail card)."""
    boat = check_ship(state, ship)
    if load(boat) + extra < boat["minimum"]:
        raise RuleViolation("imhotep.under_minimum",
                            N_("Ship %(ship)d %(needs)s; it carries %(load)d."), "move.ship",
                            ship=ship + 1, minimum=boat["minimum"], load=load(boat) + extra,
                            needs=Counted(N_plural("needs at least %(num)d stone to sail",
                                                   "needs at least %(num)d stones to sail"),
                                          boat["minimum"]))
    if site not in free_sites(state):
        raise RuleViolation("imhotep.site_taken",
                            N_("A ship has already docked at the %(site)s this round."),
                            "move.site", site=printed.SITE_LABELS[site])


def take(d: Draft, seat: int, most: int) -> None:
    """§4.2: up to ``most`` stones from the quarry to the sled, as many as fit."""
    n = takeable(d.state, seat, most)
    if n:
        d.add(("quarry", seat), -n)
        d.add(("sled", seat), n)


def place(d: Draft, seat: int, ship: int, slot: int) -> None:
    """§4.3: a stone from the sled onto a ship's space."""
    d.add(("sled", seat), -1)
    d.own("ships", ship, "slots")[slot] = seat


def sail(d: Draft, seat: int, ship: int, site: str, lever: bool) -> None:
    """§4.4: the ship docks; its stones unload bow to stern (Lever: in the card player's
    order, asked for when the owners differ)."""
    boat = d.own("ships", ship)
    boat["site"] = site
    d["last_sailor"] = seat
    owners = [owner for owner in boat["slots"] if owner is not None]
    if lever and len(set(owners)) > 1:
        QUEUE.push_front(d, seat, Task.ORDER.value, ship=ship, site=site)
        return
    boat["slots"] = [None] * boat["capacity"]
    unload(d, site, owners)
