"""Ra live-play referee: setup, the move table, prompts, legal moves, chance, scoring.

Implements spec shared/rules/ra.md on the shared skeleton (:mod:`..referee`):

* §3 setup (player count, sun groups, first player), §6.1 two players, §6.2 option flags;
* §4.1 flow; §4.2 DRAW_TILE (move ``draw``); §4.3 PLAY_GODS (move ``use_gods``);
  §4.4 INVOKE_RA (move ``invoke_ra``); §4.5 auction (moves ``bid`` and ``pass``, settlement);
  §4.6 disasters (move ``discard`` when Unrest or Earthquake leave a real choice; each choice
  waits in a :class:`PendingQueue`); §4.7 the two epoch ends; §5 scoring through
  :func:`.scoring.score_game`;
* §8 edge cases E1–E10 (each named where the code implements it).

The module is pure (design.md §1): no I/O, no clock, no randomness. Physical randomness is
input: a ``draw`` move names the tile that came out of the bag, the engine checks that such a
tile is still in it, and :func:`chance` lists what the bag still holds.

The state is a plain JSON dict (no tuples, no sets), so ``json.loads(json.dumps(state))``
equals it and a table is fully described by ``setup`` arguments plus the move log. ``apply``
never mutates its input: a :class:`Draft` copies only the parts a move changes.

State layout (per-seat values are lists indexed by seat)::

    names            list[str]
    options          {two_player, god_may_take_disaster, fame_floor_zero, epoch3_single_net}
    ra_track_length  int            Ra tile that ends the epoch (§2.3)
    epoch            1..3
    phase            Phase value: "turn" | "auction" | "discard" | "over"
    current          seat whose turn it is (during an auction: the Ra player)
    bag              {kind: count} for every kind of tables.BOX (what is still face down)
    track            [kind | None] * 8       the auction track
    ra_count         Ra tiles on the Ra track
    removed          {kind: count}           tiles out of the game (box, face down)
    centre           the centre sun
    suns_up          [[sun, ...]]  face-up suns per seat, highest first
    suns_down        [[sun, ...]]  face-down suns per seat, highest first
    holdings         [{kind: count}]  per seat: god, gold, pharaoh, nile, flood, civ_*, mon_*
    fame             [int]            fame per seat after the epochs scored so far (§5.3)
    auction          None | {ra_player, reason, order, next, high, leader, bids}
    pending          [{seat, kind: "discard", category, count, resume}] disaster choices due
    epochs           [[{gods, pharaohs, niles, floods, gold, civilizations}] per seat] per
                     scored epoch: the holdings at that epoch's scoring, after disasters
    epoch_ends       ["a" | "b"] how each scored epoch ended (§4.7)
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Iterator, Mapping, Sequence

from ..base import Awaiting, Chance, N_, RuleViolation, Scoresheet, Term
from ..referee import (Args, Draft, MoveRule, PendingQueue, Referee, choice_arg, int_arg,
                       is_int, list_arg)
from . import tables as t
from .scoring import (EpochHoldings, ScoringOptions, apply_epoch, epoch_categories,
                      final_categories, score_game)


class MoveKind(StrEnum):
    """The ``type`` of a move (spec §4.2–§4.6)."""

    DRAW = "draw"              # §4.2 DRAW_TILE
    INVOKE_RA = "invoke_ra"    # §4.4 INVOKE_RA
    USE_GODS = "use_gods"      # §4.3 PLAY_GODS
    BID = "bid"                # §4.5 BID
    PASS = "pass"              # §4.5 PASS
    DISCARD = "discard"        # §4.6 choice for Unrest / Earthquake


class Phase(StrEnum):
    """Whose input the game waits for, and which moves fit (spec §4.1)."""

    TURN = "turn"              # the current player: draw, use Gods or invoke Ra
    AUCTION = "auction"        # the next bidder: bid or pass
    DISCARD = "discard"        # a disaster's receiver chooses what to discard
    OVER = "over"              # after the third epoch's scoring


class AuctionReason(StrEnum):
    """Why an auction started (spec §4.4, §4.5); it decides the must-bid rule and no-bid end."""

    DRAWN_RA = "drawn_ra"
    VOLUNTARY = "voluntary"
    FORCED = "forced"          # invoked with 8 tiles on the track


class DiscardCategory(StrEnum):
    """The categories where a disaster can leave a choice (spec §4.6)."""

    CIVILIZATIONS = "civilizations"    # Unrest
    MONUMENTS = "monuments"            # Earthquake


class EpochEnd(StrEnum):
    """The two ways an epoch ends (spec §4.7)."""

    NO_FACE_UP_SUN = "a"       # after an auction nobody holds a face-up sun
    RA_TRACK_FULL = "b"        # the last usable Ra space was filled by a drawn Ra tile


# Tile kinds (ids of tables.BOX).
RA = "ra"
GOD = "god"
GOLD = "gold"
PHARAOH = "pharaoh"
NILE = "nile"
FLOOD = "flood"
FUNERAL = "funeral"
DROUGHT = "drought"
UNREST = "unrest"
EARTHQUAKE = "earthquake"
CIV_TILES: tuple[str, ...] = tuple(f"civ_{kind}" for kind in t.CIVILIZATION_KINDS)
MON_TILES: tuple[str, ...] = tuple(f"mon_{kind}" for kind in t.MONUMENT_KINDS)
DISASTERS: frozenset[str] = frozenset(t.DISASTER_KINDS)
ALL_KINDS: tuple[str, ...] = tuple(t.BOX)
HOLDABLE: tuple[str, ...] = tuple(k for k in t.BOX if k != RA and k not in DISASTERS)
CATEGORY_TILES: Mapping[str, tuple[str, ...]] = {
    DiscardCategory.CIVILIZATIONS.value: CIV_TILES,
    DiscardCategory.MONUMENTS.value: MON_TILES,
}
# §5.3: these leave every player's holdings after each epoch's scoring; the rest are kept.
SCORED_AND_REMOVED: tuple[str, ...] = (GOD, GOLD, FLOOD) + CIV_TILES

RULE_OPTIONS: Mapping[str, bool] = {      # §6.2 flags the referee uses, with their defaults
    "two_player": False,
    "god_may_take_disaster": True,
    "fame_floor_zero": True,
    "epoch3_single_net": True,
}
# §6.2 display flags belong to the web layer; accepted (and ignored) here.
DISPLAY_OPTIONS = frozenset({"hide_fame_during_play", "show_bag_counts"})

# Cap on the God choices listed by legal_moves (see there); 8 slots give at most 255 anyway.
MAX_GOD_MOVES = 256

# Words used inside messages (translated by the web layer).
PHASE_LABELS: Mapping[str, Term] = {
    Phase.TURN.value: Term(N_("a turn (draw a tile, use Gods or call Ra)")),
    Phase.AUCTION.value: Term(N_("a bid or a pass")),
    Phase.DISCARD.value: Term(N_("the tiles a disaster costs")),
}
CATEGORY_LABELS: Mapping[str, Term] = {
    DiscardCategory.CIVILIZATIONS.value: Term(N_("Civilizations")),
    DiscardCategory.MONUMENTS.value: Term(N_("Monuments")),
}

# §4.6: the disaster choices due, first in first out; each resumes play after ``resume``.
DISCARDS = PendingQueue("pending")
_ALONE = tuple(Awaiting.one(seat) for seat in range(5))   # built once: asked every move
_NOBODY = Awaiting()


def tile_label(kind: str) -> Term:
    """The translatable name of a tile kind (Ra and disasters included)."""
    return t.TILE_LABELS.get(kind) or t.OTHER_TILE_LABELS.get(kind) or Term(kind)


# --------------------------------------------------------------------------------------------
# Setup (§3)
# --------------------------------------------------------------------------------------------


def normalise_options(options: Mapping[str, Any] | None) -> dict[str, bool]:
    """The four rule flags of §6.2 with defaults filled in; each given one must be a boolean."""
    clean = dict(RULE_OPTIONS)
    for key, value in (options or {}).items():
        if key in RULE_OPTIONS or key in DISPLAY_OPTIONS:
            if not isinstance(value, bool):
                raise RuleViolation("ra.bad_option",
                                    N_("The option “%(option)s” must be true or false."),
                                    f"options.{key}", option=key)
            if key in RULE_OPTIONS:
                clean[key] = value
    return clean


def _check_sun_groups(count: int, sun_groups: Any) -> list[list[int]]:
    """§3 step 5: exactly this player count's groups (§2.3), each dealt once."""
    table = t.SUN_GROUPS[count]
    wanted = sorted(tuple(sorted(group, reverse=True)) for group in table)
    problem = RuleViolation(
        "ra.bad_sun_groups",
        N_("With %(players)d players the sun groups are %(groups)s, one to each player."),
        "sun_groups", players=count,
        groups=", ".join("-".join(map(str, group)) for group in table))
    if not isinstance(sun_groups, (list, tuple)) or len(sun_groups) != count:
        raise problem
    dealt = []
    for group in sun_groups:
        if not isinstance(group, (list, tuple)) or not all(is_int(sun) for sun in group):
            raise problem
        dealt.append(sorted(group, reverse=True))
    if sorted(tuple(group) for group in dealt) != wanted:
        raise problem
    return dealt


def setup(options: Mapping[str, Any] | None, names: Sequence[str],
          sun_groups: Sequence[Sequence[int]]) -> dict[str, Any]:
    """A fresh game (§3): full bag, 10 fame each, the dealt suns face up, sun 1 in the centre."""
    opts = normalise_options(options)
    count = len(names)
    low = 2 if opts["two_player"] else 3   # §6.1: two players only with the 2008 rules
    if not low <= count <= 5:
        raise RuleViolation("ra.bad_player_count",
                            N_("Ra is played by %(low)d to %(high)d players, not %(count)d."),
                            low=low, high=5, count=count)
    suns_up = _check_sun_groups(count, sun_groups)
    first = max(range(count), key=lambda seat: suns_up[seat][0])   # §3 step 10
    return {
        "names": [str(name) for name in names],
        "options": opts,
        "ra_track_length": t.RA_TRACK_LENGTH[count],
        "epoch": 1,
        "phase": Phase.TURN.value,
        "current": first,
        "bag": dict(t.BOX),
        "track": [None] * t.AUCTION_TRACK_LENGTH,
        "ra_count": 0,
        "removed": {kind: 0 for kind in ALL_KINDS},
        "centre": t.STARTING_CENTRE_SUN,
        "suns_up": suns_up,
        "suns_down": [[] for _ in range(count)],
        "holdings": [{kind: 0 for kind in HOLDABLE} for _ in range(count)],
        "fame": [t.STARTING_FAME] * count,
        "auction": None,
        "pending": [],
        "epochs": [],
        "epoch_ends": [],
    }


# --------------------------------------------------------------------------------------------
# Queries
# --------------------------------------------------------------------------------------------


def awaiting(state: Mapping[str, Any]) -> Awaiting:
    """Whose input is due (§4.1): the current player, the next bidder, or the receiver of a
    disaster choice; nobody once the game is over. Ra is sequential: one seat at a time."""
    phase = state["phase"]
    if phase == Phase.TURN:
        return _ALONE[state["current"]]
    if phase == Phase.AUCTION:
        auction = state["auction"]
        return _ALONE[auction["order"][auction["next"]]]
    if phase == Phase.DISCARD:
        return _ALONE[DISCARDS.head(state)["seat"]]
    return _NOBODY


def to_act(state: Mapping[str, Any]) -> int | None:
    """The seat whose input is awaited, or None when the game is over."""
    return next(iter(awaiting(state).seats), None)


def is_over(state: Mapping[str, Any]) -> bool:
    """True once the third epoch has been scored."""
    return state["phase"] == Phase.OVER


def chance(state: Mapping[str, Any]) -> Chance | None:
    """§4.2: the tile the current player draws while the track has room, from what the bag
    still holds (a draw of a kind that is used up is refused: ``ra.tile_exhausted``)."""
    if state["phase"] != Phase.TURN or None not in state["track"]:
        return None
    return Chance({"type": MoveKind.DRAW.value}, "tile",
                  tuple((kind, n) for kind, n in state["bag"].items() if n),
                  frozenset({state["current"]}))


def next_active(state: Mapping[str, Any], seat: int) -> int | None:
    """The first seat clockwise after ``seat`` holding a face-up sun; ``seat`` itself if it is
    the only one (§8 E6); None when nobody holds one."""
    up = state["suns_up"]
    count = len(up)
    for step in range(1, count + 1):
        other = (seat + step) % count
        if up[other]:
            return other
    return None


def _takeable(state: Mapping[str, Any]) -> list[int]:
    """Auction positions a God may take (§4.3): not empty, not a God, and not a disaster when
    option ``god_may_take_disaster`` is off."""
    allow_disaster = state["options"]["god_may_take_disaster"]
    return [i for i, kind in enumerate(state["track"])
            if kind is not None and kind != GOD and (allow_disaster or kind not in DISASTERS)]


def _must_bid(state: Mapping[str, Any], seat: int) -> bool:
    """§4.5 must-bid rule: only the Ra player of a VOLUNTARY invocation, and only if nobody has
    bid yet (E6: this includes a lone active player)."""
    auction = state["auction"]
    return (auction["reason"] == AuctionReason.VOLUNTARY and seat == auction["ra_player"]
            and auction["high"] is None)


def _biddable(state: Mapping[str, Any], seat: int) -> list[int]:
    """Face-up suns of ``seat`` above the high bid (§8 E1: none means only PASS)."""
    high = state["auction"]["high"]
    return [sun for sun in state["suns_up"][seat] if high is None or sun > high]


def prompts(state: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """What ``seat`` may do now: the legal move kinds and the choices to offer."""
    if seat not in awaiting(state).seats:
        return {"moves": []}
    phase = state["phase"]
    if phase == Phase.TURN:
        full = None not in state["track"]
        gods = state["holdings"][seat][GOD]
        take = _takeable(state) if gods else []
        tiles = [] if full else [kind for kind in ALL_KINDS if state["bag"][kind]]
        moves = ([MoveKind.DRAW.value] if tiles else []) + [MoveKind.INVOKE_RA.value] + (
            [MoveKind.USE_GODS.value] if take else [])
        return {"moves": moves, "tiles": tiles, "take": take, "gods": gods,
                "track_full": full,
                "invoke_reason": (AuctionReason.FORCED if full else AuctionReason.VOLUNTARY).value}
    if phase == Phase.AUCTION:
        auction = state["auction"]
        suns = _biddable(state, seat)
        must = _must_bid(state, seat)
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
    """Every concrete legal move for ``seat`` (empty when it is not this seat's input).

    ``draw``: one move per kind still in the bag (:func:`chance` weighs them). ``use_gods``:
    one move per distinct multiset of tile kinds takeable with the Gods held; which of several
    equal tiles is taken changes nothing in the rules (positions only decide where later draws
    land), so the leftmost positions of each kind stand for all of them, capped at
    MAX_GOD_MOVES. ``discard``: every distinct multiset of the required size.
    """
    if seat not in awaiting(state).seats:
        return []
    phase = state["phase"]
    if phase == Phase.TURN:
        moves: list[dict[str, Any]] = []
        if None in state["track"]:
            bag = state["bag"]
            moves = [{"type": "draw", "tile": kind} for kind in ALL_KINDS if bag[kind]]
        moves.append({"type": "invoke_ra"})
        gods = state["holdings"][seat][GOD]
        if gods:
            positions: dict[str, list[int]] = {}
            track = state["track"]
            for i in _takeable(state):
                positions.setdefault(track[i], []).append(i)
            available = [(kind, len(where)) for kind, where in positions.items()]
            for number, choice in enumerate(_multisets(available, 1, gods)):
                if number >= MAX_GOD_MOVES:
                    break
                take = sorted(i for kind, n in choice for i in positions[kind][:n])
                moves.append({"type": "use_gods", "take": take})
        return moves
    if phase == Phase.AUCTION:
        moves = [{"type": "bid", "sun": sun} for sun in _biddable(state, seat)]
        if not _must_bid(state, seat):
            moves.append({"type": "pass"})
        return moves
    demand = DISCARDS.head(state)
    holding = state["holdings"][seat]
    available = [(kind, holding[kind]) for kind in CATEGORY_TILES[demand["category"]]
                 if holding[kind]]
    return [{"type": "discard", "tiles": [kind for kind, n in choice for _ in range(n)]}
            for choice in _multisets(available, demand["count"], demand["count"])]


# --------------------------------------------------------------------------------------------
# The move table: parse (shape), check (§4.2–§4.6 preconditions), change
# --------------------------------------------------------------------------------------------


def _check_turn(state: Mapping[str, Any], seat: int, args: Args) -> None:
    """Every turn move: the player holds a face-up sun."""
    if not state["suns_up"][seat]:
        # Defensive: the engine never hands a turn to a player without face-up suns.
        raise RuleViolation("ra.no_face_up_sun",
                            N_("You have no face-up sun, so you sit out until the next epoch."))


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


def _check_gods(state: Mapping[str, Any], seat: int, args: Args) -> None:
    """§4.3: a God per tile, each slot once, not empty, not a God, a disaster only if allowed."""
    _check_turn(state, seat, args)
    take, track = args["take"], state["track"]
    gods = state["holdings"][seat][GOD]
    if len(take) > gods:
        raise RuleViolation("ra.not_enough_gods",
                            N_("Taking %(wanted)d tiles needs %(wanted)d Gods; you hold "
                               "%(held)d."), "move.take", wanted=len(take), held=gods)
    for index, slot in enumerate(take):
        field = f"move.take.{index}"
        if slot in take[:index]:
            raise RuleViolation("ra.duplicate_slot", N_("Auction space %(slot)d is chosen twice."),
                                field, slot=slot + 1)
        tile = track[slot]
        if tile is None:
            raise RuleViolation("ra.empty_slot", N_("Auction space %(slot)d is empty."), field,
                                slot=slot + 1)
        if tile == GOD:
            raise RuleViolation("ra.cannot_take_god",
                                N_("A God cannot take a God (auction space %(slot)d)."), field,
                                slot=slot + 1)
        if tile in DISASTERS and not state["options"]["god_may_take_disaster"]:
            raise RuleViolation("ra.disaster_by_god_forbidden",
                                N_("With these rules a God cannot take a disaster "
                                   "(%(tile)s on auction space %(slot)d)."), field,
                                tile=tile_label(tile), slot=slot + 1)


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


def _check_pass(state: Mapping[str, Any], seat: int, args: Args) -> None:
    """§4.5 PASS: not for the Ra player who must bid."""
    if _must_bid(state, seat):
        raise RuleViolation("ra.must_bid",
                            N_("You called Ra and nobody has bid, so you must bid a sun."))


def _check_discard(state: Mapping[str, Any], seat: int, args: Args) -> None:
    """§4.6 discard preconditions: right category, exact count, tiles actually held."""
    tiles = args["tiles"]
    demand = DISCARDS.head(state)
    category, count = demand["category"], demand["count"]
    for index, tile in enumerate(tiles):
        if tile not in CATEGORY_TILES[category]:
            raise RuleViolation("ra.discard_wrong_category",
                                N_("%(tile)s is not one of your %(category)s: this disaster "
                                   "hits %(category)s."), f"move.tiles.{index}",
                                tile=tile_label(tile), category=CATEGORY_LABELS[category])
    if len(tiles) != count:
        raise RuleViolation("ra.discard_count",
                            N_("Discard exactly %(count)d %(category)s tiles, not %(given)d."),
                            "move.tiles", count=count, given=len(tiles),
                            category=CATEGORY_LABELS[category])
    holding = state["holdings"][seat]
    for tile in dict.fromkeys(tiles):       # first offending kind in the player's order
        wanted = tiles.count(tile)
        if wanted > holding[tile]:
            raise RuleViolation("ra.discard_not_held",
                                N_("You hold %(held)d %(tile)s tiles, not %(wanted)d."),
                                "move.tiles", tile=tile_label(tile), held=holding[tile],
                                wanted=wanted)


def _draw(d: Draft, seat: int, args: Args) -> None:
    """§4.2 DRAW_TILE."""
    tile = args["tile"]
    d.own("bag")[tile] -= 1
    if tile == RA:
        d["ra_count"] += 1
        if d["ra_count"] == d["ra_track_length"]:
            _end_epoch(d, EpochEnd.RA_TRACK_FULL)           # §4.7 case b: no auction
        else:
            _start_auction(d, seat, AuctionReason.DRAWN_RA)
        return
    track = d.own("track")
    track[track.index(None)] = tile       # §4.2: leftmost empty slot (gaps left by Gods first)
    d["current"] = next_active(d.state, seat)


def _invoke_ra(d: Draft, seat: int, args: Args) -> None:
    """§4.4: FORCED when the track is full at that moment (E2: even if the player has Gods)."""
    full = None not in d["track"]
    _start_auction(d, seat, AuctionReason.FORCED if full else AuctionReason.VOLUNTARY)


def _start_auction(d: Draft, ra_player: int, reason: AuctionReason) -> None:
    """§4.5 bidding order: left of the Ra player clockwise, the Ra player last, seats without
    face-up suns left out."""
    up = d["suns_up"]
    count = len(up)
    order = [seat for seat in ((ra_player + step) % count for step in range(1, count + 1))
             if up[seat]]
    d["phase"] = Phase.AUCTION.value
    d["auction"] = {"ra_player": ra_player, "reason": reason.value, "order": order, "next": 0,
                    "high": None, "leader": None, "bids": [None] * count}


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


def _next_bidder(d: Draft, seat: int | None = None, args: Args | None = None) -> None:
    """§4.5: the next seat in the bidding order, or the settlement after the last (PASS)."""
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
            d["track"] = [None] * t.AUCTION_TRACK_LENGTH
        # DRAWN_RA with no bid: nothing moves (RA-T19). VOLUNTARY cannot end without a bid.
        _finish_action(d, ra_player)
        return
    up = d.own("suns_up")
    for seat, sun in enumerate(auction["bids"]):
        if sun is not None and seat != winner:      # (4) losing bids go back face up
            up[seat] = sorted(up[seat] + [sun], reverse=True)
    down = d.own("suns_down")
    down[winner] = sorted(down[winner] + [d["centre"]], reverse=True)   # (2) centre face down
    d["centre"] = auction["high"]                   # (3) the winning sun into the centre
    lot = [tile for tile in d["track"] if tile is not None]             # (1) every track tile
    d["track"] = [None] * t.AUCTION_TRACK_LENGTH
    _receive(d, winner, lot, resume=ra_player)


def _use_gods(d: Draft, seat: int, args: Args) -> None:
    """§4.3 PLAY_GODS: the Gods leave the game, the targets go to the player."""
    take = args["take"]
    track = d.own("track")
    lot = [track[i] for i in take]
    for i in take:
        track[i] = None                             # emptied slots stay empty until a draw
    d.add(("holdings", seat, GOD), -len(take))
    d.add(("removed", GOD), len(take))
    _receive(d, seat, lot, resume=seat)


def _receive(d: Draft, seat: int, lot: list[str], resume: int) -> None:
    """§4.6: first every non-disaster tile joins the holdings, then each disaster costs
    min(2 × d, held) tiles of its category. Funeral and Drought resolve here; Unrest and
    Earthquake ask the player only when a real choice exists."""
    holding = d.own("holdings", seat)
    hits: dict[str, int] = {}
    for tile in lot:
        if tile in DISASTERS:
            hits[tile] = hits.get(tile, 0) + 1
        else:
            holding[tile] += 1
    if not hits:
        _finish_action(d, resume)
        return
    removed = d.own("removed")
    for tile, number in hits.items():
        removed[tile] += number                     # disaster tiles leave the game

    def lose(kind: str, most: int) -> int:
        gone = min(most, holding[kind])
        holding[kind] -= gone
        removed[kind] += gone
        return gone

    loss = t.TILES_LOST_PER_DISASTER
    if FUNERAL in hits:                             # Funeral: Pharaohs, nobody chooses
        lose(PHARAOH, loss * hits[FUNERAL])
    if DROUGHT in hits:                             # Drought: Floods first, then Niles
        need = loss * hits[DROUGHT]
        need -= lose(FLOOD, need)
        lose(NILE, need)
    for category, disaster in ((DiscardCategory.CIVILIZATIONS, UNREST),
                               (DiscardCategory.MONUMENTS, EARTHQUAKE)):
        if disaster not in hits:
            continue
        kinds = [kind for kind in CATEGORY_TILES[category] if holding[kind]]
        held = sum(holding[kind] for kind in kinds)
        need = min(loss * hits[disaster], held)
        if need == 0:
            continue                                # §8 E7: nothing held, nothing lost
        if need == held:
            for kind in kinds:                      # no choice: everything goes
                lose(kind, held)
        elif len(kinds) == 1:
            lose(kinds[0], need)                    # no choice: a single kind
        else:                                       # a real choice: ask the player
            DISCARDS.push(d, seat, MoveKind.DISCARD.value, category=category.value,
                          count=need, resume=resume)
    if DISCARDS.head(d.state):
        d["phase"] = Phase.DISCARD.value
    else:
        _finish_action(d, resume)


def _discard(d: Draft, seat: int, args: Args) -> None:
    """§4.6: the chosen Civilizations or Monuments leave the game."""
    holding = d.own("holdings", seat)
    removed = d.own("removed")
    for tile in args["tiles"]:
        holding[tile] -= 1
        removed[tile] += 1
    done = DISCARDS.pop(d)
    if not DISCARDS.head(d.state):
        _finish_action(d, done["resume"])


def _finish_action(d: Draft, after: int) -> None:
    """End of an action: epoch end case a if nobody holds a face-up sun (§4.7; E4), otherwise
    the next turn goes to next_active(after): after an auction ``after`` is the Ra player
    whoever won (§8 E5), after Gods the player who used them."""
    following = next_active(d.state, after)
    if following is None:
        _end_epoch(d, EpochEnd.NO_FACE_UP_SUN)
        return
    d["phase"] = Phase.TURN.value
    d["current"] = following


def _snapshot(holding: Mapping[str, int]) -> dict[str, Any]:
    """The holdings scored for one player at an epoch end, in EpochHoldings' field names."""
    return {"gods": holding[GOD], "pharaohs": holding[PHARAOH], "niles": holding[NILE],
            "floods": holding[FLOOD], "gold": holding[GOLD],
            "civilizations": {kind: holding[f"civ_{kind}"] for kind in t.CIVILIZATION_KINDS}}


def _monuments(holding: Mapping[str, int]) -> dict[str, int]:
    return {kind: holding[f"mon_{kind}"] for kind in t.MONUMENT_KINDS}


def _all_suns(s: Mapping[str, Any], seat: int) -> list[int]:
    """§5.2, §8 E10: a player's suns face up and face down (the centre belongs to nobody)."""
    return sorted(s["suns_up"][seat] + s["suns_down"][seat], reverse=True)


def scoring_options(state: Mapping[str, Any]) -> ScoringOptions:
    options = state["options"]
    return ScoringOptions(fame_floor_zero=options["fame_floor_zero"],
                          epoch3_single_net=options["epoch3_single_net"])


def _end_epoch(d: Draft, case: EpochEnd) -> None:
    """§4.7 clean-up, §5 scoring, then the next epoch or the end of the game."""
    s = d.state
    removed = d.own("removed")
    removed[RA] += s["ra_count"]                    # both cases: the Ra tiles leave
    d["ra_count"] = 0
    for tile in s["track"]:                         # case b; in case a only defensively
        if tile is not None:
            removed[tile] += 1
    d["track"] = [None] * t.AUCTION_TRACK_LENGTH
    d["auction"] = None
    d["pending"] = []
    epoch = s["epoch"]
    count = len(s["names"])
    snapshot = [_snapshot(holding) for holding in s["holdings"]]
    normal = epoch_categories([EpochHoldings(**held) for held in snapshot], epoch)
    if epoch == t.EPOCHS:
        extra = final_categories([_monuments(holding) for holding in s["holdings"]],
                                 [_all_suns(s, seat) for seat in range(count)], epoch)
    else:
        extra = [[] for _ in range(count)]
    options = scoring_options(s)
    d["fame"] = [apply_epoch(s["fame"][seat], normal[seat], extra[seat], epoch, options)[0]
                 for seat in range(count)]
    d["epochs"] = s["epochs"] + [snapshot]
    d["epoch_ends"] = s["epoch_ends"] + [case.value]
    holdings = []
    for holding in s["holdings"]:                   # §5.3: scored-and-removed categories
        kept = dict(holding)
        for kind in SCORED_AND_REMOVED:
            removed[kind] += kept[kind]
            kept[kind] = 0
        holdings.append(kept)
    d["holdings"] = holdings
    if epoch == t.EPOCHS:
        d["phase"] = Phase.OVER.value
        return
    # §4.7: every sun face up, first player = holder of the highest sun.
    d["suns_up"] = [_all_suns(s, seat) for seat in range(count)]
    d["suns_down"] = [[] for _ in range(count)]
    d["epoch"] = epoch + 1
    d["phase"] = Phase.TURN.value
    d["current"] = max(range(count), key=lambda seat: s["suns_up"][seat][0])


def _not_bidders_turn(state: Mapping[str, Any], seat: int,
                      rule: MoveRule) -> RuleViolation | None:
    """A bid or pass out of turn during an auction is worded as such (spec RA_NOT_BIDDERS_TURN)."""
    if state["phase"] == Phase.AUCTION and rule.kind in (MoveKind.BID, MoveKind.PASS):
        return RuleViolation("ra.not_bidders_turn",
                             N_("It is not your turn to bid: %(player)s bids now."),
                             player=state["names"][to_act(state)])
    return None


_TURN = frozenset({Phase.TURN.value})
_AUCTION = frozenset({Phase.AUCTION.value})
REFEREE = Referee("ra", (
    MoveRule(MoveKind.DRAW, Term(N_("draw a tile")), _TURN,
             lambda move: {"tile": choice_arg(REFEREE, move, "tile", t.BOX)}, _check_draw,
             _draw),
    MoveRule(MoveKind.INVOKE_RA, Term(N_("call Ra")), _TURN, None, _check_turn, _invoke_ra),
    MoveRule(MoveKind.USE_GODS, Term(N_("use Gods")), _TURN,
             lambda move: {"take": list_arg(REFEREE, move, "take", lambda i: is_int(i) and 0 <= i
                                            < t.AUCTION_TRACK_LENGTH, 1)},
             _check_gods, _use_gods),
    MoveRule(MoveKind.BID, Term(N_("bid")), _AUCTION,
             lambda move: {"sun": int_arg(REFEREE, move, "sun")}, _check_bid, _bid),
    MoveRule(MoveKind.PASS, Term(N_("pass")), _AUCTION, None, _check_pass, _next_bidder),
    MoveRule(MoveKind.DISCARD, Term(N_("discard tiles")), frozenset({Phase.DISCARD.value}),
             lambda move: {"tiles": list_arg(REFEREE, move, "tiles",
                                             lambda tile: isinstance(tile, str) and tile in t.BOX)},
             _check_discard, _discard),
), phase_of=lambda state: state["phase"], awaited=awaiting, over=is_over,
    phase_labels=PHASE_LABELS, not_awaited=_not_bidders_turn)


# validate(state, seat, move) raises RuleViolation if ``seat`` may not make ``move`` now;
# apply(state, seat, move) also returns the new state (``state`` itself is never changed).
validate = REFEREE.validate
apply = REFEREE.apply


# --------------------------------------------------------------------------------------------
# Scoring (§5): the same score_game that score-only mode uses.
# --------------------------------------------------------------------------------------------


def final_document(state: Mapping[str, Any]) -> dict[str, Any]:
    """The score-only document (ra/final.py) describing this game so far."""
    complete = len(state["epochs"]) == t.EPOCHS
    players = []
    for seat, name in enumerate(state["names"]):
        player: dict[str, Any] = {"name": name,
                                  "epochs": [epoch[seat] for epoch in state["epochs"]]}
        if complete:
            player["monuments"] = _monuments(state["holdings"][seat])
            player["suns"] = _all_suns(state, seat)
        players.append(player)
    options = state["options"]
    return {"game": "ra",
            "options": {"fame_floor_zero": options["fame_floor_zero"],
                        "epoch3_single_net": options["epoch3_single_net"]},
            "players": players}


def score(state: Mapping[str, Any]) -> Scoresheet:
    """The Scoresheet of the epochs scored so far (complete once the game is over)."""
    count = len(state["names"])
    complete = len(state["epochs"]) == t.EPOCHS
    epochs = [[EpochHoldings(**held) for held in epoch] for epoch in state["epochs"]]
    return score_game(
        state["names"], epochs,
        monuments=[_monuments(h) for h in state["holdings"]] if complete else None,
        suns=[_all_suns(state, seat) for seat in range(count)] if complete else None,
        options=scoring_options(state))
