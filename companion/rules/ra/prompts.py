"""What an awaited phone may do in Ra (spec ra.md §4): its prompts and its concrete legal moves.

The referee asks these only for the awaited seat; every other phone gets no moves.

Pure (design.md §1).
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping, Sequence

from .auction import biddable, must_bid
from .state import ALL_KINDS, CATEGORY_TILES, DISCARDS, AuctionReason, MoveKind, Phase, Tile
from .turn import takeable

# Cap on the God choices listed by legal_moves (see there); 8 slots give at most 255 anyway.
MAX_GOD_MOVES = 256


def prompts(state: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """What the awaited ``seat`` may do now: the legal move kinds and the choices to offer."""
    phase = state["phase"]
    if phase == Phase.TURN:
        full = None not in state["track"]
        gods = state["holdings"][seat][Tile.GOD]
        take = takeable(state) if gods else []
        tiles = [] if full else [kind for kind in ALL_KINDS if state["bag"][kind]]
        moves = ([MoveKind.DRAW.value] if tiles else []) + [MoveKind.INVOKE_RA.value] + (
            [MoveKind.USE_GODS.value] if take else [])
        return {"moves": moves, "tiles": tiles, "take": take, "gods": gods,
                "track_full": full,
                "invoke_reason": (AuctionReason.FORCED if full else AuctionReason.VOLUNTARY).value}
    if phase == Phase.AUCTION:
        auction = state["auction"]
        suns = biddable(state, seat)
        must = must_bid(state, seat)
        moves = ([MoveKind.BID.value] if suns else []) + ([] if must else [MoveKind.PASS.value])
        return {"moves": moves, "suns": suns, "high_bid": auction["high"],
                "reason": auction["reason"], "ra_player": auction["ra_player"],
                "must_bid": must, "centre": state["centre"]}
    demand = DISCARDS.head(state)
    holding = state["holdings"][seat]
    return {"moves": [MoveKind.DISCARD.value],
            "discard": {"category": demand["category"], "count": demand["count"],
                        "held": {kind: holding[kind] for kind in CATEGORY_TILES[demand["category"]]
                                 if holding[kind]}}}


def _multisets(available: Sequence[tuple[str, int]], low: int,
               high: int) -> Iterator[list[tuple[str, int]]]:
    """Every choice of ``low``..``high`` items from kinds with the given availability, as
    (kind, count) lists with count > 0; each distinct multiset once."""
    def walk(index: int, chosen: list[tuple[str, int]], size: int):
        if index == len(available):
            if size >= low:
                yield list(chosen)
            return
        kind, have = available[index]
        for take in range(0, min(have, high - size) + 1):
            if take:
                chosen.append((kind, take))
            yield from walk(index + 1, chosen, size + take)
            if take:
                chosen.pop()
    yield from walk(0, [], 0)


def legal_moves(state: Mapping[str, Any], seat: int) -> list[dict[str, Any]]:
    """Every concrete legal move for the awaited ``seat``.

    ``draw``: one move per kind still in the bag (:func:`.turn.chance` weighs them).
    ``use_gods``: one move per distinct multiset of tile kinds takeable with the Gods held;
    which of several equal tiles is taken changes nothing in the rules (positions only decide
    where later draws land), so the leftmost positions of each kind stand for all of them,
    capped at MAX_GOD_MOVES. ``discard``: every distinct multiset of the required size.
    """
    phase = state["phase"]
    if phase == Phase.TURN:
        moves: list[dict[str, Any]] = []
        if None in state["track"]:
            bag = state["bag"]
            moves = [{"type": "draw", "tile": kind} for kind in ALL_KINDS if bag[kind]]
        moves.append({"type": "invoke_ra"})
        gods = state["holdings"][seat][Tile.GOD]
        if gods:
            positions: dict[str, list[int]] = {}
            track = state["track"]
            for i in takeable(state):
                positions.setdefault(track[i], []).append(i)
            available = [(kind, len(where)) for kind, where in positions.items()]
            for number, choice in enumerate(_multisets(available, 1, gods)):
                if number >= MAX_GOD_MOVES:
                    break
                take = sorted(i for kind, n in choice for i in positions[kind][:n])
                moves.append({"type": "use_gods", "take": take})
        return moves
    if phase == Phase.AUCTION:
        moves = [{"type": "bid", "sun": sun} for sun in biddable(state, seat)]
        if not must_bid(state, seat):
            moves.append({"type": "pass"})
        return moves
    demand = DISCARDS.head(state)
    holding = state["holdings"][seat]
    available = [(kind, holding[kind]) for kind in CATEGORY_TILES[demand["category"]]
                 if holding[kind]]
    return [{"type": "discard", "tiles": [kind for kind, n in choice for _ in range(n)]}
            for choice in _multisets(available, demand["count"], demand["count"])]
