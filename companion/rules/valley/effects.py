"""Valley of the Kings: a card whose action Scribe does not know, played as ``generic`` with its
public effects step by step (spec §8, §13).

The original box's cards, the titles nobody named yet and the starters have actions the
catalogue does not describe; the table logs what they did instead (``effects``: gain a pyramid
card, seal or sacrifice one, seal, sacrifice or discard a hand card, take the top boneyard or
supply card, draw), and each step is checked against the general rules (the pyramid and its
crumble, copy limits, no sacrifice of a card played this turn).
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from ..base import N_, ChoiceField, IntField, ListField, ObjectField
from ..referee import Draft
from . import arguments as a
from .edition import MAX_PRINTED
from .knowledge import locate_dealt
from .state import ACTION_IMPOSSIBLE, CARD_ALREADY_USED, SACRIFICE_PLAYED, Use, fail
from .zones import (draw, entomb, from_hand, onto_discard, own_player, play, receive, release,
                    take_from_pyramid, to_boneyard)


class Effect(StrEnum):
    """Public consequences of a card whose action the catalogue does not know (generic)."""

    GAIN = "gain"                       # a pyramid card onto your discard pile
    SEAL_PYRAMID = "seal_pyramid"       # a pyramid card into your tomb
    SEAL_HAND = "seal_hand"             # an action seal from hand
    SACRIFICE_HAND = "sacrifice_hand"   # a hand card onto the boneyard
    SACRIFICE_PYRAMID = "sacrifice_pyramid"
    TAKE_BONEYARD = "take_boneyard"     # the top boneyard card onto your discard pile
    TAKE_SUPPLY = "take_supply"         # the top supply card (named) onto your discard pile
    DRAW = "draw"                       # cards drawn from your deck
    DISCARD = "discard"                 # a hand card onto your discard pile


EFFECT_LABELS: Mapping[str, str] = {
    Effect.GAIN: N_("gain a pyramid card"),
    Effect.SEAL_PYRAMID: N_("seal a pyramid card"),
    Effect.SEAL_HAND: N_("seal a card from hand"),
    Effect.SACRIFICE_HAND: N_("sacrifice a card from hand"),
    Effect.SACRIFICE_PYRAMID: N_("sacrifice a pyramid card"),
    Effect.TAKE_BONEYARD: N_("take the top boneyard card"),
    Effect.TAKE_SUPPLY: N_("take the top supply card"),
    Effect.DRAW: N_("draw cards"),
    Effect.DISCARD: N_("discard a card from hand"),
}
FROM_PYRAMID = frozenset({Effect.GAIN, Effect.SEAL_PYRAMID, Effect.SACRIFICE_PYRAMID})
FROM_HAND = frozenset({Effect.SEAL_HAND, Effect.SACRIFICE_HAND, Effect.DISCARD})

# One step: a pyramid card (``slot`` …) for the pyramid effects, a hand or supply ``card``
# (with what a seal must type) for the others, ``count`` for a draw.
EFFECT = ObjectField("effect", N_("Effect"), (
    ChoiceField("kind", N_("What happened"), tuple(EFFECT_LABELS.items())),
    *a.pick_fields(slot_optional=True),
    IntField("count", N_("Cards drawn"), min=1, max=MAX_PRINTED, optional=True),
    a.played(),
))
EFFECTS = ListField("effects", N_("What the card did"), EFFECT, default=(),
                    item_label=N_("Effect %(n)d"))


def generic(d: Draft, seat: int, card: str, args: Mapping[str, Any]) -> None:
    """Play ``card`` for its action and write each of its logged effects in turn."""
    play(d, seat, card, Use.ACTION, "move.card")
    for index, effect in enumerate(args["effects"]):
        argument = f"effects.{index}"
        field = f"move.{argument}"
        kind = effect["kind"]
        if kind in FROM_PYRAMID:
            if effect["slot"] is None:
                raise a.BadArgument(f"{argument}.slot")
            target = take_from_pyramid(d, effect, field)
            if kind == Effect.GAIN:
                receive(d, seat, target)
            elif kind == Effect.SEAL_PYRAMID:
                entomb(d, seat, target, effect, f"{field}.card")
            else:
                to_boneyard(d, target)
        elif kind in FROM_HAND:
            if effect["played"] is not None:
                raise fail(SACRIFICE_PLAYED if kind == Effect.SACRIFICE_HAND else
                           CARD_ALREADY_USED, N_("A card played this turn cannot be used so."),
                           field)
            title = _named(effect, argument)
            from_hand(d, seat, title, f"{field}.card")
            if kind == Effect.DISCARD:
                onto_discard(d, seat, title)
                continue
            release(d, seat, title, f"{field}.card")
            if kind == Effect.SEAL_HAND:
                entomb(d, seat, title, effect, f"{field}.card")
            else:
                to_boneyard(d, title)
        elif kind == Effect.TAKE_BONEYARD:
            if not d["boneyard"]:
                raise fail(ACTION_IMPOSSIBLE, N_("The boneyard is empty."), field)
            receive(d, seat, d.own("boneyard").pop())
        elif kind == Effect.TAKE_SUPPLY:
            if d["supply"] == 0:
                raise fail(ACTION_IMPOSSIBLE, N_("The supply is empty."), field)
            title = _named(effect, argument)
            locate_dealt(d, title, f"{field}.card")
            d.state["supply"] = d["supply"] - 1
            receive(d, seat, title)
        else:
            draw(own_player(d, seat), effect["count"] or 1)


def _named(effect: Mapping[str, Any], argument: str) -> str:
    """The card an effect on a hand or supply card names (a title or "a card")."""
    if effect["card"] is None:
        raise a.BadArgument(f"{argument}.card")
    return effect["card"]
