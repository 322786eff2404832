"""The blue cards (spec imhotep.md §4.5 PLAY_BLUE_CARD, E7, E8): the ``play_card`` move.

One move kind for the four cards; the arguments each card needs (Lever: ship and site; Hammer:
ship and space when it places a stone; Sail: ship, space and site; Chisel: one or two places)
are declared optional and required in :func:`_check_card` by the card played.

Pure (design.md §1).
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import (COUNTED, ChoiceField, Counted, IntField, ListField, N_, N_plural,
                    ObjectField, RuleViolation, Term)
from ..referee import Args, Draft, MoveRule
from . import printed
from .flow import action
from .ships import check_sail, check_slot, place, sail, take
from .state import (CARD_CHOICES, SITE_CHOICES, BlueCard, MoveKind, Phase, bad_argument,
                    free_slots, load, sailable, takeable)

TURN_PHASE = frozenset({Phase.TURN.value})


def sail_card_ships(state: Mapping[str, Any], seat: int) -> list[int]:
    """Ships a Sail card can load and then sail (§4.5: the minimum counts the new stone)."""
    if state["sled"][seat] == 0:
        return []
    return [i for i, ship in enumerate(state["ships"])
            if ship["site"] is None and None in ship["slots"]
            and load(ship) + 1 >= ship["minimum"]]


def chisel_needs(state: Mapping[str, Any], seat: int) -> int:
    """How many stones a Chisel places now (§4.5, E8); 0 when it cannot be played."""
    sled, free = state["sled"][seat], len(free_slots(state))
    if state["options"]["chisel_requires_two_stones"]:
        return 2 if sled >= 2 and free >= 2 else 0
    return min(2, sled, free)


def hammer_parts(state: Mapping[str, Any], seat: int) -> tuple[int, bool]:
    """(stones the Hammer takes, whether it can then place one) (§4.5, E7)."""
    taken = takeable(state, seat, printed.STONES_PER_TAKE)
    return taken, state["sled"][seat] + taken > 0 and bool(free_slots(state))


def _hammer_playable(state: Mapping[str, Any], seat: int) -> bool:
    taken, placed = hammer_parts(state, seat)
    if state["options"]["hammer_partial_allowed"]:
        return taken > 0 or placed
    return taken > 0 and placed


def playable_cards(state: Mapping[str, Any], seat: int) -> list[str]:
    """The blue cards ``seat`` holds and could play now (§4.5)."""
    held = state["cards"][seat]
    usable = {BlueCard.LEVER: lambda: bool(sailable(state)),
              BlueCard.HAMMER: lambda: _hammer_playable(state, seat),
              BlueCard.SAIL: lambda: bool(sail_card_ships(state, seat)),
              BlueCard.CHISEL: lambda: chisel_needs(state, seat) > 0}
    return [card for card in printed.BLUE_CARDS if held[card] and usable[card]()]


# Each card's arguments, in the order a missing one is reported.
_NEEDS: Mapping[str, tuple[str, ...]] = {
    BlueCard.LEVER: ("ship", "site"),
    BlueCard.SAIL: ("ship", "site", "slot"),
    BlueCard.CHISEL: ("places",),
}


def _check_card(state: Mapping[str, Any], seat: int, args: Args) -> None:
    """§4.5 PLAY_BLUE_CARD: the card's own arguments, a blue card held, then its effect."""
    card = args["card"]
    for key in _NEEDS.get(card, ()):
        if args[key] is None:
            raise bad_argument(MoveKind.PLAY_CARD, key)
    if card == BlueCard.HAMMER and (args["ship"] is None) != (args["slot"] is None):
        # the Hammer's placement names both the ship and the space, or neither
        raise bad_argument(MoveKind.PLAY_CARD, "ship" if args["ship"] is None else "slot")
    if card not in printed.BLUE_CARDS:
        raise RuleViolation("imhotep.card_not_blue",
                            N_("Only blue cards are played as an action; %(card)s is not one."),
                            "move.card", card=printed.CARD_LABELS[card])
    if not state["cards"][seat][card]:
        raise RuleViolation("imhotep.card_not_held", N_("You hold no %(card)s card."),
                            "move.card", card=printed.CARD_LABELS[card])
    # IM_CARD_GAINED_THIS_TURN cannot arise: a turn is one action, so a card gained during
    # it (by a delivery, E19) is always held until a later turn.
    if card == BlueCard.LEVER:
        check_sail(state, args["ship"], args["site"])
    elif card == BlueCard.SAIL:
        check_slot(state, args["ship"], args["slot"], seat)
        check_sail(state, args["ship"], args["site"], extra=1)
    elif card == BlueCard.HAMMER:
        taken, placed = hammer_parts(state, seat)
        partial = state["options"]["hammer_partial_allowed"]
        if (taken == 0 and not placed) or (not partial and not (taken and placed)):
            raise RuleViolation("imhotep.card_no_effect",
                                N_("The Hammer would have no effect now."))
        if args["ship"] is not None:
            check_slot(state, args["ship"], args["slot"], seat if taken == 0 else None)
        elif placed:
            raise RuleViolation("imhotep.must_place",
                                N_("The Hammer must place a stone on a ship: choose the ship "
                                   "and the space."), "move.ship")
    else:
        _check_chisel(state, seat, args["places"])


def _check_chisel(state: Mapping[str, Any], seat: int, places: list[Mapping[str, int]]) -> None:
    """§4.5 Chisel, E8: two stones (one if option chisel_requires_two_stones is off and only
    one fits), on different free spaces."""
    if state["options"]["chisel_requires_two_stones"] and state["sled"][seat] < 2:
        raise RuleViolation("imhotep.sled_needs_two",
                            N_("The Chisel places two stones; your sled holds %(sled)d."),
                            sled=state["sled"][seat])
    if not state["sled"][seat]:
        raise RuleViolation("imhotep.sled_empty", N_("Your sled has no stones to place."))
    need = chisel_needs(state, seat)
    if need == 0:
        free = len(free_slots(state))
        raise RuleViolation("imhotep.no_room", COUNTED, free=free, counted=Counted(N_plural(
            "The ships have room for only %(num)d stone.",
            "The ships have room for only %(num)d stones."), free))
    if len(places) != need:
        raise RuleViolation("imhotep.chisel_count", N_("The Chisel places %(count)d stones here."),
                            "move.places", count=need)
    if len(places) == 2 and places[0] == places[1]:
        raise RuleViolation("imhotep.same_slot", N_("The two stones need two different spaces."),
                            "move.places")
    for where in places:
        check_slot(state, where["ship"], where["slot"])


def _play_card(d: Draft, seat: int, args: Args) -> None:
    """§4.5: the card's effect; after use it goes to the discards."""
    card = args["card"]
    d.add(("cards", seat, card), -1)
    d.add(("discard", card), 1)
    if card == BlueCard.LEVER:
        sail(d, seat, args["ship"], args["site"], lever=True)
    elif card == BlueCard.HAMMER:
        take(d, seat, printed.STONES_PER_TAKE)
        if args["ship"] is not None:
            place(d, seat, args["ship"], args["slot"])
    elif card == BlueCard.SAIL:
        place(d, seat, args["ship"], args["slot"])
        sail(d, seat, args["ship"], args["site"], lever=False)
    else:
        for where in args["places"]:
            place(d, seat, where["ship"], where["slot"])


_PLACE = ObjectField("place", N_("Space"), (
    IntField("ship", N_("Ship"), default=None),
    IntField("slot", N_("Space"), default=None),
))

PLAY_CARD = MoveRule(
    MoveKind.PLAY_CARD.value, Term(N_("play a blue card")), TURN_PHASE,
    args=(ChoiceField("card", N_("Card"), CARD_CHOICES),
          IntField("ship", N_("Ship"), default=None, optional=True),
          IntField("slot", N_("Space"), default=None, optional=True),
          ChoiceField("site", N_("Site"), SITE_CHOICES, optional=True),
          ListField("places", N_("Spaces"), _PLACE, min_items=1, max_items=2, optional=True,
                    item_label=N_("Stone %(n)d"))),
    check=_check_card, change=action(_play_card),
    hint=N_("On your turn, instead of another action: a blue card you hold. Lever: ship and "
            "site; Hammer: ship and space; Sail: ship, space and site; Chisel: the places of "
            "its stones."))
