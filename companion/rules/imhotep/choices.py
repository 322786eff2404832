"""The other choices a queued step waits for (spec imhotep.md §4.5 Lever, §6.1 Pyramids B and
Temple B, E4, E16): ``unload_order``, ``choose_pyramid``, ``use_bonus``, ``skip_bonus``,
``temple_choice`` and ``draw_card``. The Market's choices are :mod:`.market`.

Each belongs to the seat of the step at the head of the queue; the step leaves the queue when
the move is made (:func:`.flow.choice`).

Pure (design.md §1).
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import ChoiceField, IntField, ListField, N_, RuleViolation, Term
from ..referee import Args, Draft, MoveRule
from . import printed
from .delivery import draw_from_pile, place_pyramid_b, unload
from .flow import choice
from .ships import check_slot, place, take
from .state import (CARD_CHOICES, QUEUE, Delivery, MoveKind, PyramidBonus, Task, bad_argument,
                    drawable, not_in_deck, pyramids_with_room)


def _check_drawn(state: Mapping[str, Any], seat: int, args: Args) -> None:
    """The card the table names can be the top of the draw pile (E4, E5)."""
    if args["card"] not in drawable(state):
        raise not_in_deck(args["card"], "move.card")


# ---- unload_order: the Lever's order -----------------------------------------------------------


def _check_order(state: Mapping[str, Any], seat: int, args: Args) -> None:
    ship = state["ships"][QUEUE.head(state)["ship"]]
    occupied = [j for j, owner in enumerate(ship["slots"]) if owner is not None]
    if sorted(args["order"]) != occupied:
        raise RuleViolation("imhotep.bad_order",
                            N_("Give every occupied space of the ship once: %(slots)s."),
                            "move.order", slots=", ".join(str(j + 1) for j in occupied))


@choice
def _unload_order(d: Draft, seat: int, args: Args, task: Mapping[str, Any]) -> None:
    """§4.5 Lever: the stones unload in the card player's order."""
    boat = d.own("ships", task["ship"])
    owners = [boat["slots"][j] for j in args["order"]]
    boat["slots"] = [None] * boat["capacity"]
    unload(d, task["site"], owners)


UNLOAD_ORDER = MoveRule(
    MoveKind.UNLOAD_ORDER.value, Term(N_("choose the unloading order")),
    frozenset({Task.ORDER.value}),
    args=(ListField("order", N_("Unloading order"),
                    IntField("slot", N_("Space"), default=None), required=True,
                    item_label=N_("Stone %(n)d")),),
    check=_check_order, change=_unload_order,
    hint=N_("After a Lever: the ship's occupied spaces in the order their stones unload."))


# ---- choose_pyramid: Pyramids B ----------------------------------------------------------------


def _check_pyramid(state: Mapping[str, Any], seat: int, args: Args) -> None:
    spaces = state["b_values"]["pyramids_b"]
    pyramid = args["pyramid"]
    if not 0 <= pyramid < len(spaces):
        raise RuleViolation("imhotep.unknown_pyramid", N_("There are pyramids 1 to %(count)d."),
                            "move.pyramid", count=len(spaces))
    if pyramid not in pyramids_with_room(state):
        raise RuleViolation("imhotep.pyramid_full",
                            N_("Pyramid %(pyramid)d is full; choose one with room."),
                            "move.pyramid", pyramid=pyramid + 1)


CHOOSE_PYRAMID = MoveRule(
    MoveKind.CHOOSE_PYRAMID.value, Term(N_("choose a pyramid")),
    frozenset({Delivery.PYRAMID.value}),
    args=(IntField("pyramid", N_("Pyramid"), default=None),),
    check=_check_pyramid,
    change=choice(lambda d, seat, args, task: place_pyramid_b(d, seat, args["pyramid"],
                                                              task["via"])),
    hint=N_("Pyramids B, when your stone reaches the Pyramids: the pyramid it goes on "
            "(numbered from 0)."))


# ---- use_bonus / skip_bonus: a Pyramids B bonus space ------------------------------------------


def _check_bonus(state: Mapping[str, Any], seat: int, args: Args) -> None:
    """The bonus's own arguments: the card drawn, or the ship and space of the stone."""
    bonus = QUEUE.head(state)["bonus"]
    if bonus == PyramidBonus.CARD:
        if args["card"] is None:
            raise bad_argument(MoveKind.USE_BONUS, "card")
        _check_drawn(state, seat, args)
    elif bonus == PyramidBonus.SHIP:
        for key in ("ship", "slot"):
            if args[key] is None:
                raise bad_argument(MoveKind.USE_BONUS, key)
        check_slot(state, args["ship"], args["slot"])


@choice
def _use_bonus(d: Draft, seat: int, args: Args, task: Mapping[str, Any]) -> None:
    """§6.1 Pyramids B bonus: the top market card, 3 stones to the sled, or a stone on a ship."""
    if task["bonus"] == PyramidBonus.CARD:
        draw_from_pile(d, seat, args["card"])
    elif task["bonus"] == PyramidBonus.STONES:
        take(d, seat, printed.PYRAMID_B_BONUS_STONES)
    else:
        place(d, seat, args["ship"], args["slot"])


_BONUS = frozenset({Task.BONUS.value})

USE_BONUS = MoveRule(
    MoveKind.USE_BONUS.value, Term(N_("use the bonus")), _BONUS,
    args=(ChoiceField("card", N_("Card drawn"), CARD_CHOICES, optional=True),
          IntField("ship", N_("Ship"), default=None, optional=True),
          IntField("slot", N_("Space"), default=None, optional=True)),
    check=_check_bonus, change=_use_bonus,
    hint=N_("Pyramids B bonus space: the card drawn (top market card), or the ship and space "
            "(a stone on a ship); nothing more for 3 stones."))

SKIP_BONUS = MoveRule(
    MoveKind.SKIP_BONUS.value, Term(N_("skip the bonus")), _BONUS,
    change=choice(lambda d, seat, args, task: None),
    hint=N_("Pyramids B bonus space: leave the bonus unused."))


# ---- temple_choice: Temple B CHOICE space ------------------------------------------------------


@choice
def _temple_choice(d: Draft, seat: int, args: Args, task: Mapping[str, Any]) -> None:
    """§6.1 Temple B CHOICE: 1 point, or 2 stones from the quarry to the sled."""
    if args["take"] == "point":
        d.add(("score", seat), printed.TEMPLE_B_CHOICE_POINTS)
    else:
        take(d, seat, printed.TEMPLE_B_CHOICE_STONES)


TEMPLE_CHOICE = MoveRule(
    MoveKind.TEMPLE_CHOICE.value, Term(N_("choose a point or stones")),
    frozenset({Task.TEMPLE_CHOICE.value}),
    args=(ChoiceField("take", N_("Choice"), (("point", N_("Take 1 point")),
                                             ("stones", N_("Take stones from the quarry")))),),
    change=_temple_choice,
    hint=N_("Temple B, at the end of a round: 1 point or 2 stones for a stone on a CHOICE "
            "space."))


# ---- draw_card: Temple B CARD space ------------------------------------------------------------


DRAW_CARD = MoveRule(
    MoveKind.DRAW_CARD.value, Term(N_("draw a market card")), frozenset({Task.DRAW.value}),
    args=(ChoiceField("card", N_("Card drawn"), CARD_CHOICES),),
    check=_check_drawn,
    change=choice(lambda d, seat, args, task: draw_from_pile(d, seat, args["card"])),
    hint=N_("Temple B, at the end of a round: the card drawn for a stone on a CARD space."))
