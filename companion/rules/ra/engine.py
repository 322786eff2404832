"""Ra live-play referee: setup, move validation and application, prompts, legal moves, scoring.

Implements spec shared/rules/ra.md:

* §3 setup (player count, sun groups, first player), §6.1 two players, §6.2 option flags;
* §4.1 flow; §4.2 DRAW_TILE (move ``draw``); §4.3 PLAY_GODS (move ``use_gods``);
  §4.4 INVOKE_RA (move ``invoke_ra``); §4.5 auction (moves ``bid`` and ``pass``, settlement);
  §4.6 disasters (move ``discard`` when Unrest or Earthquake leave a real choice);
  §4.7 the two epoch ends; §5 scoring through :func:`.scoring.score_game`;
* §8 edge cases E1–E10 (each named where the code implements it).

The module is pure (design.md §1): no I/O, no clock, no randomness. Physical randomness is
input: a ``draw`` move names the tile that came out of the bag, and the engine checks that such
a tile is still in it.

The state is a plain JSON dict (no tuples, no sets), so ``json.loads(json.dumps(state))``
equals it and a table is fully described by ``setup`` arguments plus the move log. ``apply``
never mutates its input: it copies the top-level dict and only the parts a move changes
(everything it shares with the old state is treated as immutable), which keeps a whole game
of validation and application in a few milliseconds.

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
    pending          None | {seat, demands: [[category, count], ...], resume}
    epochs           [[{gods, pharaohs, niles, floods, gold, civilizations}] per seat] per
                     scored epoch: the holdings at that epoch's scoring, after disasters
    epoch_ends       ["a" | "b"] how each scored epoch ended (§4.7)
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Iterator, Mapping, Sequence

from ..base import N_, RuleViolation, Scoresheet, Term
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

TURN_MOVES = frozenset({MoveKind.DRAW, MoveKind.INVOKE_RA, MoveKind.USE_GODS})
PHASE_MOVES: Mapping[str, frozenset[MoveKind]] = {
    Phase.TURN.value: TURN_MOVES,
    Phase.AUCTION.value: frozenset({MoveKind.BID, MoveKind.PASS}),
    Phase.DISCARD.value: frozenset({MoveKind.DISCARD}),
    Phase.OVER.value: frozenset(),
}
_MOVE_KINDS: Mapping[str, MoveKind] = {kind.value: kind for kind in MoveKind}

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
MOVE_LABELS: Mapping[str, Term] = {
    MoveKind.DRAW.value: Term(N_("draw a tile")),
    MoveKind.INVOKE_RA.value: Term(N_("call Ra")),
    MoveKind.USE_GODS.value: Term(N_("use Gods")),
    MoveKind.BID.value: Term(N_("bid")),
    MoveKind.PASS.value: Term(N_("pass")),
    MoveKind.DISCARD.value: Term(N_("discard tiles")),
}
PHASE_LABELS: Mapping[str, Term] = {
    Phase.TURN.value: Term(N_("a turn (draw a tile, use Gods or call Ra)")),
    Phase.AUCTION.value: Term(N_("a bid or a pass")),
    Phase.DISCARD.value: Term(N_("the tiles a disaster costs")),
    Phase.OVER.value: Term(N_("nothing: the game is over")),
}
CATEGORY_LABELS: Mapping[str, Term] = {
    DiscardCategory.CIVILIZATIONS.value: Term(N_("Civilizations")),
    DiscardCategory.MONUMENTS.value: Term(N_("Monuments")),
}


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
                                    option=key)
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
        players=count, groups=", ".join("-".join(map(str, group)) for group in table))
    if not isinstance(sun_groups, (list, tuple)) or len(sun_groups) != count:
        raise problem
    dealt = []
    for group in sun_groups:
        if not isinstance(group, (list, tuple)) or not all(
                isinstance(sun, int) and not isinstance(sun, bool) for sun in group):
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
        "pending": None,
        "epochs": [],
        "epoch_ends": [],
    }


# --------------------------------------------------------------------------------------------
# Queries
# --------------------------------------------------------------------------------------------


def to_act(state: Mapping[str, Any]) -> int | None:
    """The seat whose input is awaited, or None when the game is over."""
    phase = state["phase"]
    if phase == Phase.TURN:
        return state["current"]
    if phase == Phase.AUCTION:
        auction = state["auction"]
        return auction["order"][auction["next"]]
    if phase == Phase.DISCARD:
        return state["pending"]["seat"]
    return None


def is_over(state: Mapping[str, Any]) -> bool:
    """True once the third epoch has been scored."""
    return state["phase"] == Phase.OVER


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


def _demand(state: Mapping[str, Any]) -> tuple[str, int]:
    category, count = state["pending"]["demands"][0]
    return category, count


def prompts(state: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """What ``seat`` may do now: the legal move kinds and the choices to offer."""
    if seat != to_act(state):
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
    category, count = _demand(state)
    holding = state["holdings"][seat]
    return {"moves": [MoveKind.DISCARD.value],
            "discard": {"category": category, "count": count,
                        "held": {kind: holding[kind] for kind in CATEGORY_TILES[category]
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

    ``draw``: one move per kind still in the bag. ``use_gods``: one move per distinct
    multiset of tile kinds takeable with the Gods held; which of several equal tiles is taken
    changes nothing in the rules (positions only decide where later draws land), so the
    leftmost positions of each kind stand for all of them, capped at MAX_GOD_MOVES.
    ``discard``: every distinct multiset of the required size.
    """
    if seat != to_act(state):
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
    category, count = _demand(state)
    holding = state["holdings"][seat]
    available = [(kind, holding[kind]) for kind in CATEGORY_TILES[category] if holding[kind]]
    return [{"type": "discard", "tiles": [kind for kind, n in choice for _ in range(n)]}
            for choice in _multisets(available, count, count)]


# --------------------------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------------------------


def _bad_move(argument: str) -> RuleViolation:
    return RuleViolation("ra.bad_move",
                         N_("This move is not well formed: “%(argument)s” is missing or wrong."),
                         argument=argument)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _parse(move: Any) -> tuple[MoveKind, Any]:
    """The move's kind and its argument, checked for shape only (ra.unknown_move,
    ra.bad_move)."""
    if not isinstance(move, Mapping):
        raise _bad_move("type")
    name = move.get("type")
    if not isinstance(name, str):
        raise _bad_move("type")
    kind = _MOVE_KINDS.get(name)
    if kind is None:
        raise RuleViolation("ra.unknown_move", N_("“%(type)s” is not a move in Ra."),
                            type=name[:40])
    if kind is MoveKind.DRAW:
        tile = move.get("tile")
        if not isinstance(tile, str) or tile not in t.BOX:
            raise _bad_move("tile")
        return kind, tile
    if kind is MoveKind.BID:
        sun = move.get("sun")
        if not _is_int(sun):
            raise _bad_move("sun")
        return kind, sun
    if kind is MoveKind.USE_GODS:
        take = move.get("take")
        if (not isinstance(take, list) or not take
                or not all(_is_int(i) and 0 <= i < t.AUCTION_TRACK_LENGTH for i in take)):
            raise _bad_move("take")
        return kind, take
    if kind is MoveKind.DISCARD:
        tiles = move.get("tiles")
        if not isinstance(tiles, list) or not all(
                isinstance(tile, str) and tile in t.BOX for tile in tiles):
            raise _bad_move("tiles")
        return kind, tiles
    return kind, None


def _check(state: Mapping[str, Any], seat: int, move: Any) -> tuple[MoveKind, Any]:
    """Validate ``move`` by ``seat``; return its kind and argument or raise RuleViolation."""
    phase = state["phase"]
    if phase == Phase.OVER:     # first: after the end every move gets this answer
        raise RuleViolation("ra.game_over", N_("The game is over; no more moves can be made."))
    kind, arg = _parse(move)
    actor = to_act(state)
    if seat != actor:
        if phase == Phase.AUCTION and kind in (MoveKind.BID, MoveKind.PASS):
            raise RuleViolation("ra.not_bidders_turn",
                                N_("It is not your turn to bid: %(player)s bids now."),
                                player=state["names"][actor])
        raise RuleViolation("ra.not_your_turn", N_("It is not your turn: %(player)s is to act."),
                            player=state["names"][actor])
    if kind not in PHASE_MOVES[phase]:
        raise RuleViolation("ra.wrong_phase",
                            N_("You cannot %(move)s now: the game is waiting for %(waiting)s."),
                            move=MOVE_LABELS[kind], waiting=PHASE_LABELS[phase])
    if phase == Phase.TURN:
        _check_turn(state, seat, kind, arg)
    elif phase == Phase.AUCTION:
        _check_auction(state, seat, kind, arg)
    else:
        _check_discard(state, seat, arg)
    return kind, arg


def _check_turn(state: Mapping[str, Any], seat: int, kind: MoveKind, arg: Any) -> None:
    """§4.2–§4.4 preconditions."""
    if not state["suns_up"][seat]:
        # Defensive: the engine never hands a turn to a player without face-up suns.
        raise RuleViolation("ra.no_face_up_sun",
                            N_("You have no face-up sun, so you sit out until the next epoch."))
    track = state["track"]
    if kind is MoveKind.DRAW:
        if None not in track:
            raise RuleViolation("ra.auction_track_full",
                                N_("The auction track is full: call Ra or use a God."))
        if not state["bag"][arg]:
            raise RuleViolation("ra.tile_exhausted",
                                N_("No %(tile)s tile is left to draw."), tile=tile_label(arg))
    elif kind is MoveKind.USE_GODS:
        gods = state["holdings"][seat][GOD]
        if len(arg) > gods:
            raise RuleViolation("ra.not_enough_gods",
                                N_("Taking %(wanted)d tiles needs %(wanted)d Gods; you hold "
                                   "%(held)d."), wanted=len(arg), held=gods)
        seen: set[int] = set()
        for slot in arg:
            if slot in seen:
                raise RuleViolation("ra.duplicate_slot",
                                    N_("Auction space %(slot)d is chosen twice."), slot=slot + 1)
            seen.add(slot)
            tile = track[slot]
            if tile is None:
                raise RuleViolation("ra.empty_slot", N_("Auction space %(slot)d is empty."),
                                    slot=slot + 1)
            if tile == GOD:
                raise RuleViolation("ra.cannot_take_god",
                                    N_("A God cannot take a God (auction space %(slot)d)."),
                                    slot=slot + 1)
            if tile in DISASTERS and not state["options"]["god_may_take_disaster"]:
                raise RuleViolation("ra.disaster_by_god_forbidden",
                                    N_("With these rules a God cannot take a disaster "
                                       "(%(tile)s on auction space %(slot)d)."),
                                    tile=tile_label(tile), slot=slot + 1)


def _check_auction(state: Mapping[str, Any], seat: int, kind: MoveKind, arg: Any) -> None:
    """§4.5 BID and PASS preconditions."""
    if kind is MoveKind.BID:
        if arg not in state["suns_up"][seat]:
            raise RuleViolation("ra.sun_not_held",
                                N_("Sun %(sun)d is not one of your face-up suns."), sun=arg)
        high = state["auction"]["high"]
        if high is not None and arg < high:
            raise RuleViolation("ra.bid_too_low",
                                N_("Sun %(sun)d does not beat the highest bid, sun %(high)d."),
                                sun=arg, high=high)
    elif _must_bid(state, seat):
        raise RuleViolation("ra.must_bid",
                            N_("You called Ra and nobody has bid, so you must bid a sun."))


def _check_discard(state: Mapping[str, Any], seat: int, tiles: list[str]) -> None:
    """§4.6 discard preconditions: right category, exact count, tiles actually held."""
    category, count = _demand(state)
    allowed = CATEGORY_TILES[category]
    for tile in tiles:
        if tile not in allowed:
            raise RuleViolation("ra.discard_wrong_category",
                                N_("%(tile)s is not one of your %(category)s: this disaster "
                                   "hits %(category)s."),
                                tile=tile_label(tile), category=CATEGORY_LABELS[category])
    if len(tiles) != count:
        raise RuleViolation("ra.discard_count",
                            N_("Discard exactly %(count)d %(category)s tiles, not %(given)d."),
                            count=count, given=len(tiles), category=CATEGORY_LABELS[category])
    holding = state["holdings"][seat]
    for tile in dict.fromkeys(tiles):       # first offending kind in the player's order
        wanted = tiles.count(tile)
        if wanted > holding[tile]:
            raise RuleViolation("ra.discard_not_held",
                                N_("You hold %(held)d %(tile)s tiles, not %(wanted)d."),
                                tile=tile_label(tile), held=holding[tile], wanted=wanted)


def validate(state: Mapping[str, Any], seat: int, move: Any) -> None:
    """Raise RuleViolation if ``seat`` may not make ``move`` now; return None otherwise."""
    _check(state, seat, move)


# --------------------------------------------------------------------------------------------
# Application. Every helper receives ``s``, a fresh shallow copy of the state, and replaces
# (never mutates) any nested value it changes.
# --------------------------------------------------------------------------------------------


def apply(state: Mapping[str, Any], seat: int, move: Any) -> dict[str, Any]:
    """Validate ``move`` and return the new state; ``state`` itself is never changed."""
    kind, arg = _check(state, seat, move)
    s = dict(state)
    if kind is MoveKind.DRAW:
        return _draw(s, seat, arg)
    if kind is MoveKind.INVOKE_RA:
        # §4.4: FORCED when the track is full at that moment (E2: even if the player has Gods).
        reason = AuctionReason.VOLUNTARY if None in s["track"] else AuctionReason.FORCED
        return _start_auction(s, seat, reason)
    if kind is MoveKind.USE_GODS:
        return _use_gods(s, seat, arg)
    if kind is MoveKind.BID:
        return _bid(s, seat, arg)
    if kind is MoveKind.PASS:
        auction = dict(s["auction"])
        return _next_bidder(s, auction)
    return _discard(s, seat, arg)


def _draw(s: dict[str, Any], seat: int, tile: str) -> dict[str, Any]:
    """§4.2 DRAW_TILE."""
    bag = dict(s["bag"])
    bag[tile] -= 1
    s["bag"] = bag
    if tile == RA:
        s["ra_count"] += 1
        if s["ra_count"] == s["ra_track_length"]:
            return _end_epoch(s, EpochEnd.RA_TRACK_FULL)     # §4.7 case b: no auction
        return _start_auction(s, seat, AuctionReason.DRAWN_RA)
    track = list(s["track"])
    track[track.index(None)] = tile       # §4.2: leftmost empty slot (gaps left by Gods first)
    s["track"] = track
    s["current"] = next_active(s, seat)
    return s


def _start_auction(s: dict[str, Any], ra_player: int, reason: AuctionReason) -> dict[str, Any]:
    """§4.5 bidding order: left of the Ra player clockwise, the Ra player last, seats without
    face-up suns left out."""
    up = s["suns_up"]
    count = len(up)
    order = [seat for seat in ((ra_player + step) % count for step in range(1, count + 1))
             if up[seat]]
    s["phase"] = Phase.AUCTION.value
    s["auction"] = {"ra_player": ra_player, "reason": reason.value, "order": order, "next": 0,
                    "high": None, "leader": None, "bids": [None] * count}
    return s


def _bid(s: dict[str, Any], seat: int, sun: int) -> dict[str, Any]:
    """§4.5 BID: the sun is set aside as this player's bid and leads."""
    up = list(s["suns_up"])
    up[seat] = [other for other in up[seat] if other != sun]
    s["suns_up"] = up
    auction = dict(s["auction"])
    bids = list(auction["bids"])
    bids[seat] = sun
    auction["bids"] = bids
    auction["high"] = sun
    auction["leader"] = seat
    return _next_bidder(s, auction)


def _next_bidder(s: dict[str, Any], auction: dict[str, Any]) -> dict[str, Any]:
    auction["next"] += 1
    if auction["next"] < len(auction["order"]):
        s["auction"] = auction
        return s
    return _settle(s, auction)


def _settle(s: dict[str, Any], auction: Mapping[str, Any]) -> dict[str, Any]:
    """§4.5 settlement, then disasters (§4.6), then the epoch-end check (§4.7 case a)."""
    s["auction"] = None
    ra_player = auction["ra_player"]
    winner = auction["leader"]
    if winner is None:
        if auction["reason"] == AuctionReason.FORCED:
            # §4.5: a forced auction nobody bids on removes all 8 tiles from the game.
            removed = dict(s["removed"])
            for tile in s["track"]:
                if tile is not None:
                    removed[tile] += 1
            s["removed"] = removed
            s["track"] = [None] * t.AUCTION_TRACK_LENGTH
        # DRAWN_RA with no bid: nothing moves (RA-T19). VOLUNTARY cannot end without a bid.
        return _finish_action(s, ra_player)
    up = list(s["suns_up"])
    for seat, sun in enumerate(auction["bids"]):
        if sun is not None and seat != winner:      # (4) losing bids go back face up
            up[seat] = sorted(up[seat] + [sun], reverse=True)
    s["suns_up"] = up
    down = list(s["suns_down"])
    down[winner] = sorted(down[winner] + [s["centre"]], reverse=True)  # (2) centre face down
    s["suns_down"] = down
    s["centre"] = auction["high"]                   # (3) the winning sun into the centre
    lot = [tile for tile in s["track"] if tile is not None]            # (1) every track tile
    s["track"] = [None] * t.AUCTION_TRACK_LENGTH
    return _receive(s, winner, lot, resume=ra_player)


def _use_gods(s: dict[str, Any], seat: int, take: list[int]) -> dict[str, Any]:
    """§4.3 PLAY_GODS: the Gods leave the game, the targets go to the player."""
    track = list(s["track"])
    lot = [track[i] for i in take]
    for i in take:
        track[i] = None                             # emptied slots stay empty until a draw
    s["track"] = track
    holdings = list(s["holdings"])
    holding = dict(holdings[seat])
    holding[GOD] -= len(take)
    holdings[seat] = holding
    s["holdings"] = holdings
    removed = dict(s["removed"])
    removed[GOD] += len(take)
    s["removed"] = removed
    return _receive(s, seat, lot, resume=seat)


def _receive(s: dict[str, Any], seat: int, lot: list[str], resume: int) -> dict[str, Any]:
    """§4.6: first every non-disaster tile joins the holdings, then each disaster costs
    min(2 × d, held) tiles of its category. Funeral and Drought resolve here; Unrest and
    Earthquake ask the player only when a real choice exists."""
    holdings = list(s["holdings"])
    holding = dict(holdings[seat])
    holdings[seat] = holding
    s["holdings"] = holdings
    hits: dict[str, int] = {}
    for tile in lot:
        if tile in DISASTERS:
            hits[tile] = hits.get(tile, 0) + 1
        else:
            holding[tile] += 1
    if not hits:
        return _finish_action(s, resume)
    removed = dict(s["removed"])
    s["removed"] = removed
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
    demands: list[list[Any]] = []
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
        else:
            demands.append([category.value, need])  # a real choice: ask the player
    if demands:
        s["phase"] = Phase.DISCARD.value
        s["pending"] = {"seat": seat, "demands": demands, "resume": resume}
        return s
    return _finish_action(s, resume)


def _discard(s: dict[str, Any], seat: int, tiles: list[str]) -> dict[str, Any]:
    """§4.6: the chosen Civilizations or Monuments leave the game."""
    holdings = list(s["holdings"])
    holding = dict(holdings[seat])
    holdings[seat] = holding
    s["holdings"] = holdings
    removed = dict(s["removed"])
    s["removed"] = removed
    for tile in tiles:
        holding[tile] -= 1
        removed[tile] += 1
    pending = s["pending"]
    rest = pending["demands"][1:]
    if rest:
        s["pending"] = {"seat": pending["seat"], "demands": rest, "resume": pending["resume"]}
        return s
    s["pending"] = None
    return _finish_action(s, pending["resume"])


def _finish_action(s: dict[str, Any], after: int) -> dict[str, Any]:
    """End of an action: epoch end case a if nobody holds a face-up sun (§4.7; E4), otherwise
    the next turn goes to next_active(after): after an auction ``after`` is the Ra player
    whoever won (§8 E5), after Gods the player who used them."""
    following = next_active(s, after)
    if following is None:
        return _end_epoch(s, EpochEnd.NO_FACE_UP_SUN)
    s["phase"] = Phase.TURN.value
    s["current"] = following
    return s


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


def _end_epoch(s: dict[str, Any], case: EpochEnd) -> dict[str, Any]:
    """§4.7 clean-up, §5 scoring, then the next epoch or the end of the game."""
    removed = dict(s["removed"])
    removed[RA] += s["ra_count"]                    # both cases: the Ra tiles leave
    s["ra_count"] = 0
    for tile in s["track"]:                         # case b; in case a only defensively
        if tile is not None:
            removed[tile] += 1
    s["track"] = [None] * t.AUCTION_TRACK_LENGTH
    s["auction"] = None
    s["pending"] = None
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
    s["fame"] = [apply_epoch(s["fame"][seat], normal[seat], extra[seat], epoch, options)[0]
                 for seat in range(count)]
    s["epochs"] = s["epochs"] + [snapshot]
    s["epoch_ends"] = s["epoch_ends"] + [case.value]
    holdings = []
    for holding in s["holdings"]:                   # §5.3: scored-and-removed categories
        kept = dict(holding)
        for kind in SCORED_AND_REMOVED:
            removed[kind] += kept[kind]
            kept[kind] = 0
        holdings.append(kept)
    s["holdings"] = holdings
    s["removed"] = removed
    if epoch == t.EPOCHS:
        s["phase"] = Phase.OVER.value
        return s
    # §4.7: every sun face up, first player = holder of the highest sun.
    s["suns_up"] = [_all_suns(s, seat) for seat in range(count)]
    s["suns_down"] = [[] for _ in range(count)]
    s["epoch"] = epoch + 1
    s["phase"] = Phase.TURN.value
    s["current"] = max(range(count), key=lambda seat: s["suns_up"][seat][0])
    return s


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
