"""A player's turn (spec ra.md §4.2–§4.4, E2, E6): the ``draw``, ``use_gods`` and ``invoke_ra``
moves, and the chance of the draw.

Physical randomness is input (design.md §2): a ``draw`` names the tile that came out of the
bag; the referee checks the bag still holds one, and :func:`chance` lists what it holds.

Pure (design.md §1).
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import (Chance, ChoiceField, Counted, IntField, ListField, N_, N_plural,
                    RuleViolation, Term)
from ..referee import Args, Draft, MoveRule
from . import printed
from .auction import start_auction
from .disasters import receive
from .epochs import end_epoch
from .state import (DISASTERS, TILE_CHOICES, AuctionReason, EpochEnd, MoveKind, Phase, Tile,
                    next_active, tile_label)

TURN_PHASE = frozenset({Phase.TURN.value})


def _check_turn(state: Mapping[str, Any], seat: int, args: Args) -> None:
    """Every turn move: the player holds a face-up sun."""
    if not state["suns_up"][seat]:
        # Defensive: the engine never hands a turn to a player without face-up suns.
        raise RuleViolation("ra.no_face_up_sun",
                            N_("You have no face-up sun, so you sit out until the next epoch."))


def takeable(state: Mapping[str, Any]) -> list[int]:
    """Auction positions a God may take (§4.3): not empty, not a God, and not a disaster when
    option ``god_may_take_disaster`` is off."""
    allow_disaster = state["options"]["god_may_take_disaster"]
    return [i for i, kind in enumerate(state["track"])
            if kind is not None and kind != Tile.GOD and (allow_disaster or kind not in DISASTERS)]


def chance(state: Mapping[str, Any]) -> Chance | None:
    """§4.2: the tile the current player draws while the track has room, from what the bag
    still holds (a draw of a kind that is used up is refused: ``ra.tile_exhausted``)."""
    if state["phase"] != Phase.TURN or None not in state["track"]:
        return None
    return Chance({"type": MoveKind.DRAW.value}, "tile",
                  tuple((kind, n) for kind, n in state["bag"].items() if n),
                  frozenset({state["current"]}))


# ---- draw: the tile that came out of the bag ----------------------------------------------------


def _check_draw(state: Mapping[str, Any], seat: int, args: Args) -> None:
    """§4.2: the track has room and the bag still holds such a tile."""
    _check_turn(state, seat, args)
    if None not in state["track"]:
        raise RuleViolation("ra.auction_track_full",
                            N_("The auction track is full: call Ra or use a God."))
    tile = args["tile"]
    if not state["bag"][tile]:
        raise RuleViolation("ra.tile_exhausted", N_("No %(tile)s tile is left to draw."),
                            "move.tile", tile=tile_label(tile))


def _draw(d: Draft, seat: int, args: Args) -> None:
    """§4.2 DRAW_TILE: Ra to the Ra track (an auction, or the epoch's end when it is full),
    any other tile to the auction track."""
    tile = args["tile"]
    d.own("bag")[tile] -= 1
    if tile == Tile.RA:
        d["ra_count"] += 1
        if d["ra_count"] == d["ra_track_length"]:
            end_epoch(d, EpochEnd.RA_TRACK_FULL)            # §4.7 case b: no auction
        else:
            start_auction(d, seat, AuctionReason.DRAWN_RA)
        return
    track = d.own("track")
    track[track.index(None)] = tile       # §4.2: leftmost empty slot (gaps left by Gods first)
    d["current"] = next_active(d.state, seat)


DRAW = MoveRule(
    MoveKind.DRAW, Term(N_("draw a tile")), TURN_PHASE,
    args=(ChoiceField("tile", N_("Tile"), TILE_CHOICES),),
    check=_check_draw, change=_draw,
    hint=N_("On your turn: the tile that came out of the bag (Ra included)."))


# ---- invoke_ra: call Ra and start an auction ---------------------------------------------------


def _invoke_ra(d: Draft, seat: int, args: Args) -> None:
    """§4.4: FORCED when the track is full at that moment (E2: even if the player has Gods)."""
    full = None not in d["track"]
    start_auction(d, seat, AuctionReason.FORCED if full else AuctionReason.VOLUNTARY)


INVOKE_RA = MoveRule(
    MoveKind.INVOKE_RA, Term(N_("call Ra")), TURN_PHASE, check=_check_turn, change=_invoke_ra,
    hint=N_("On your turn: call Ra and start an auction (forced when the auction track is "
            "full)."))


# ---- use_gods: a God per auction-track tile taken ----------------------------------------------


def _check_gods(state: Mapping[str, Any], seat: int, args: Args) -> None:
    """§4.3: a God per tile, each slot once, not empty, not a God, a disaster only if allowed."""
    _check_turn(state, seat, args)
    take, track = args["take"], state["track"]
    gods = state["holdings"][seat][Tile.GOD]
    if len(take) > gods:
        raise RuleViolation("ra.not_enough_gods", N_("%(taking)s; you hold %(held)d."),
                            "move.take", wanted=len(take), held=gods, taking=Counted(
                                N_plural("Taking %(num)d tile needs %(num)d God",
                                         "Taking %(num)d tiles needs %(num)d Gods"),
                                len(take)))
    for index, slot in enumerate(take):
        field = f"move.take.{index}"
        if slot in take[:index]:
            raise RuleViolation("ra.duplicate_slot", N_("Auction space %(slot)d is chosen twice."),
                                field, slot=slot + 1)
        tile = track[slot]
        if tile is None:
            raise RuleViolation("ra.empty_slot", N_("Auction space %(slot)d is empty."), field,
                                slot=slot + 1)
        if tile == Tile.GOD:
            raise RuleViolation("ra.cannot_take_god",
                                N_("A God cannot take a God (auction space %(slot)d)."), field,
                                slot=slot + 1)
        if tile in DISASTERS and not state["options"]["god_may_take_disaster"]:
            raise RuleViolation("ra.disaster_by_god_forbidden",
                                N_("With these rules a God cannot take a disaster "
                                   "(%(tile)s on auction space %(slot)d)."), field,
                                tile=tile_label(tile), slot=slot + 1)


def _use_gods(d: Draft, seat: int, args: Args) -> None:
    """§4.3 PLAY_GODS: the Gods leave the game, the targets go to the player."""
    take = args["take"]
    track = d.own("track")
    lot = [track[i] for i in take]
    for i in take:
        track[i] = None                             # emptied slots stay empty until a draw
    d.add(("holdings", seat, Tile.GOD), -len(take))
    d.add(("removed", Tile.GOD), len(take))
    receive(d, seat, lot, resume=seat)


USE_GODS = MoveRule(
    MoveKind.USE_GODS, Term(N_("use Gods")), TURN_PHASE,
    args=(ListField("take", N_("Tiles to take"),
                    IntField("position", N_("Auction-track position"), default=None,
                             max=printed.AUCTION_TRACK_LENGTH - 1),
                    min_items=1, required=True, item_label=N_("Tile %(n)d")),),
    check=_check_gods, change=_use_gods,
    hint=N_("On your turn: one God per auction-track position taken (0 to 7); not Gods."))
