"""The auction (spec ra.md §4.5, E1, E5, E6): the ``bid`` and ``pass`` moves and the settlement.

An auction starts when Ra is drawn or called (:mod:`.turn`); every seat with a face-up sun bids
once, left of the Ra player first, the Ra player last. The winner takes the whole track (its
disasters are resolved by :mod:`.disasters`), the centre sun face down and leaves the winning
sun in the centre.

Pure (design.md §1).
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import IntField, N_, RuleViolation, Term
from ..referee import Args, Draft, MoveRule
from . import printed
from .disasters import receive
from .epochs import finish_action
from .state import AuctionReason, MoveKind, Phase, to_act

AUCTION_PHASE = frozenset({Phase.AUCTION.value})


def start_auction(d: Draft, ra_player: int, reason: AuctionReason) -> None:
    """§4.5 bidding order: left of the Ra player clockwise, the Ra player last, seats without
    face-up suns left out."""
    up = d["suns_up"]
    count = len(up)
    order = [seat for seat in ((ra_player + step) % count for step in range(1, count + 1))
             if up[seat]]
    d["phase"] = Phase.AUCTION.value
    d["auction"] = {"ra_player": ra_player, "reason": reason.value, "order": order, "next": 0,
                    "high": None, "leader": None, "bids": [None] * count}


def must_bid(state: Mapping[str, Any], seat: int) -> bool:
    """§4.5 must-bid rule: only the Ra player of a VOLUNTARY invocation, and only if nobody has
    bid yet (E6: this includes a lone active player)."""
    auction = state["auction"]
    return (auction["reason"] == AuctionReason.VOLUNTARY and seat == auction["ra_player"]
            and auction["high"] is None)


def biddable(state: Mapping[str, Any], seat: int) -> list[int]:
    """Face-up suns of ``seat`` above the high bid (§8 E1: none means only PASS)."""
    high = state["auction"]["high"]
    return [sun for sun in state["suns_up"][seat] if high is None or sun > high]


def not_bidders_turn(state: Mapping[str, Any], seat: int,
                     rule: MoveRule) -> RuleViolation | None:
    """A bid or pass out of turn during an auction is worded as such (spec RA_NOT_BIDDERS_TURN)."""
    if state["phase"] == Phase.AUCTION and rule.kind in (MoveKind.BID, MoveKind.PASS):
        return RuleViolation("ra.not_bidders_turn",
                             N_("It is not your turn to bid: %(player)s bids now."),
                             player=state["names"][to_act(state)])
    return None


# ---- bid: a face-up sun above the highest bid -------------------------------------------------


def _check_bid(state: Mapping[str, Any], seat: int, args: Args) -> None:
    """§4.5 BID: a face-up sun of the bidder above the highest bid."""
    sun = args["sun"]
    if sun not in state["suns_up"][seat]:
        raise RuleViolation("ra.sun_not_held", N_("Sun %(sun)d is not one of your face-up suns."),
                            "move.sun", sun=sun)
    high = state["auction"]["high"]
    if high is not None and sun < high:
        raise RuleViolation("ra.bid_too_low",
                            N_("Sun %(sun)d does not beat the highest bid, sun %(high)d."),
                            "move.sun", sun=sun, high=high)


def _bid(d: Draft, seat: int, args: Args) -> None:
    """§4.5 BID: the sun is set aside as this player's bid and leads."""
    sun = args["sun"]
    up = d.own("suns_up")
    up[seat] = [other for other in up[seat] if other != sun]
    d.own("auction", "bids")[seat] = sun
    auction = d.own("auction")
    auction["high"] = sun
    auction["leader"] = seat
    _next_bidder(d)


BID = MoveRule(
    MoveKind.BID, Term(N_("bid")), AUCTION_PHASE,
    args=(IntField("sun", N_("Sun"), default=None, min=1),),
    check=_check_bid, change=_bid,
    hint=N_("In an auction: a face-up sun higher than the current bid."))


# ---- pass --------------------------------------------------------------------------------------


def _check_pass(state: Mapping[str, Any], seat: int, args: Args) -> None:
    """§4.5 PASS: not for the Ra player who must bid."""
    if must_bid(state, seat):
        raise RuleViolation("ra.must_bid",
                            N_("You called Ra and nobody has bid, so you must bid a sun."))


def _pass(d: Draft, seat: int, args: Args) -> None:
    """§4.5 PASS: the turn to bid moves on."""
    _next_bidder(d)


PASS = MoveRule(
    MoveKind.PASS, Term(N_("pass")), AUCTION_PHASE, check=_check_pass, change=_pass,
    hint=N_("In an auction (not the Ra player of a voluntary call when everyone else passed)."))


# ---- the end of the auction -------------------------------------------------------------------


def _next_bidder(d: Draft) -> None:
    """§4.5: the next seat in the bidding order, or the settlement after the last."""
    auction = d.own("auction")
    auction["next"] += 1
    if auction["next"] == len(auction["order"]):
        _settle(d)


def _settle(d: Draft) -> None:
    """§4.5 settlement, then disasters (§4.6), then the epoch-end check (§4.7 case a)."""
    auction = d["auction"]
    d["auction"] = None
    ra_player, winner = auction["ra_player"], auction["leader"]
    if winner is None:
        if auction["reason"] == AuctionReason.FORCED:
            # §4.5: a forced auction nobody bids on removes all 8 tiles from the game.
            removed = d.own("removed")
            for tile in d["track"]:
                if tile is not None:
                    removed[tile] += 1
            d["track"] = [None] * printed.AUCTION_TRACK_LENGTH
        # DRAWN_RA with no bid: nothing moves (RA-T19). VOLUNTARY cannot end without a bid.
        finish_action(d, ra_player)
        return
    up = d.own("suns_up")
    for seat, sun in enumerate(auction["bids"]):
        if sun is not None and seat != winner:      # (4) losing bids go back face up
            up[seat] = sorted(up[seat] + [sun], reverse=True)
    down = d.own("suns_down")
    down[winner] = sorted(down[winner] + [d["centre"]], reverse=True)   # (2) centre face down
    d["centre"] = auction["high"]                   # (3) the winning sun into the centre
    lot = [tile for tile in d["track"] if tile is not None]             # (1) every track tile
    d["track"] = [None] * printed.AUCTION_TRACK_LENGTH
    receive(d, winner, lot, resume=ra_player)
