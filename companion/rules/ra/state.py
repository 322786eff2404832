"""Ra's live state: its layout, phases, tile kinds and who is awaited (spec ra.md §2, §4.1).

Every other module of the referee reads the state through the names defined here. The state
is a plain JSON dict (no tuples, no sets), so ``json.loads(json.dumps(state))`` equals it and a
table is fully described by its set-up plus the move log; a move never mutates it (the
referee's :class:`~companion.rules.referee.Draft` copies only what a move changes).

State layout (per-seat values are lists indexed by seat)::

    names            list[str]
    options          {two_player, god_may_take_disaster, fame_floor_zero, epoch3_single_net}
    ra_track_length  int            Ra tile that ends the epoch (§2.3)
    epoch            1..3
    phase            a Phase value: "turn" | "auction" | "discard" | "over"
    current          seat whose turn it is (during an auction: the Ra player)
    bag              {kind: count} for every kind of printed.BOX (what is still face down)
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

Pure (design.md §1): no I/O, no clock, no randomness.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Mapping

from ..base import Awaiting, N_, Term
from ..referee import PendingQueue
from . import printed


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


class Tile(StrEnum):
    """Every kind of tile in the bag (spec §2.2; the counts are ``printed.BOX``)."""

    RA = "ra"
    GOD = "god"
    GOLD = "gold"
    PHARAOH = "pharaoh"
    NILE = "nile"
    FLOOD = "flood"
    CIV_ART = "civ_art"
    CIV_AGRICULTURE = "civ_agriculture"
    CIV_RELIGION = "civ_religion"
    CIV_ASTRONOMY = "civ_astronomy"
    CIV_WRITING = "civ_writing"
    MON_FORTRESS = "mon_fortress"
    MON_OBELISK = "mon_obelisk"
    MON_PALACE = "mon_palace"
    MON_PYRAMID = "mon_pyramid"
    MON_SPHINX = "mon_sphinx"
    MON_STATUE = "mon_statue"
    MON_STEP_PYRAMID = "mon_step_pyramid"
    MON_TEMPLE = "mon_temple"
    FUNERAL = "funeral"
    DROUGHT = "drought"
    UNREST = "unrest"
    EARTHQUAKE = "earthquake"


assert tuple(Tile) == tuple(printed.BOX), "Tile lists the kinds of printed.BOX in its order"

CIV_TILES: tuple[str, ...] = tuple(f"civ_{kind}" for kind in printed.CIVILIZATION_KINDS)
MON_TILES: tuple[str, ...] = tuple(f"mon_{kind}" for kind in printed.MONUMENT_KINDS)
DISASTERS: frozenset[str] = frozenset(printed.DISASTER_KINDS)
ALL_KINDS: tuple[str, ...] = tuple(printed.BOX)
HOLDABLE: tuple[str, ...] = tuple(k for k in printed.BOX if k != Tile.RA and k not in DISASTERS)
CATEGORY_TILES: Mapping[str, tuple[str, ...]] = {
    DiscardCategory.CIVILIZATIONS.value: CIV_TILES,
    DiscardCategory.MONUMENTS.value: MON_TILES,
}

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
    return printed.TILE_LABELS.get(kind) or printed.OTHER_TILE_LABELS.get(kind) or Term(kind)


# Every tile kind as a move may name it (a ChoiceField's choices), in the players' words.
TILE_CHOICES: tuple[tuple[str, Term], ...] = tuple((kind, tile_label(kind))
                                                   for kind in printed.BOX)


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


def phase_of(state: Mapping[str, Any]) -> str:
    """The phase the move table checks moves against."""
    return state["phase"]


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
