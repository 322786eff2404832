"""Valley of the Kings live state (spec §13): its layout, phases and move kinds, the codes of
§13, and the questions every move family asks of a state.

The engine referees what the table can see and enters (hands and decks are hidden): what each
player owns is tracked as far as the table can see it, as counts per zone and the titles known
to be among them. States are plain JSON; phases and uses are stored as the plain strings of
their enums (a StrEnum member compares equal to its string).

State layout::

    game, names, options, solo      table; solo None | "beginner" | "master"
    pool                            {id, sets, copies, groups: [{id, sets, size}], unique_boxes,
                                     uniques, starter_decks, choices}
    limits                          {title: copies in this pool}   (§13 copy limits)
    printed                         {cost|capital|unique_vp|card_set: {title: value}}
    starter_vp, confirmed_starters  the starters' VP in force; which ones the group confirmed
    start, current, turn            start player, active seat, turns begun (1-based)
    phase                           play | reveal | brain_hook | refill | over
    pyramid                         [B1, B2, B3, M1, M2, T]: title, "?" or None
    supply                          cards left in the supply (§7: the count is public)
    boneyard                        cards bottom to top (only the top is shown, §7)
    located                         {title: copies known outside the supply}
    titles_seen                     {set id | "unique": different titles located}
    players                         [{tomb: [title], cards, known: {title: n}, hand, deck,
                                      discard, aside, discard_known: {title | "?": n}}]
                                    (discard_known: cards known to lie in the discard pile,
                                    see :data:`DISCARD_PILE_RULE`)
    played                          this turn's played cards: [{card, use, out}] (out: returned
                                    to hand or sealed)
    changed, free_seals, ring       this turn: pyramid changed (§5 step 3), free seals used,
                                    Ring's doubling pending (§8)
    revealed                        Brain Hook's face-up card while the player decides
    moves, turn_started_at, correction_from, card_played   the correction window (§7)

Correction window (§7): moves of a turn may be undone until the next player's first card play
(a card used for its capital or its action; sealing is not playing, §6). ``correction_from``
is the first move index that may still be undone; the ruleset reports it as its
``undo_floor`` and the table service keeps the highest floor it has seen.

Pure (design.md §1): no I/O, no clock, no randomness.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from ..base import Awaiting, RuleViolation
from . import printed as t
from . import pyramid as pyr
from .pools import Solo

GAME = "valley"


class MoveKind(StrEnum):
    """The ``type`` of a move (spec §5, §13)."""

    BUY = "buy"
    ACTION = "action"
    SEAL = "seal"                # the free seal (§5.3)
    END_TURN = "end_turn"        # discard, rebuild, (refill,) draw (§5 steps 2-4)
    REFILL = "refill"            # the cards revealed into the pyramid (chance, §4)
    REVEAL = "reveal"            # Brain Hook's card (chance, §8)
    DECLINE = "decline"          # Brain Hook's card not bought: sacrificed (§8)


class Phase(StrEnum):
    """What the game waits for (the active player enters every input of their turn)."""

    PLAY = "play"                # turn step 1: buys, actions, the free seal in any order
    REVEAL = "reveal"            # Brain Hook turns up the top supply card
    BRAIN_HOOK = "brain_hook"    # the revealed card: buy it (discount 2) or sacrifice it
    REFILL = "refill"            # turn step 3: the refill cards
    OVER = "over"


class Use(StrEnum):
    """How a played card was used this turn (§5 step 1)."""

    CAPITAL = "capital"
    ACTION = "action"


# Spec §13 codes.
NOT_IN_BASE = "VK_NOT_IN_BASE"
UNDERPAID = "VK_UNDERPAID"
CAPITAL_REUSED = "VK_CAPITAL_REUSED"
CARD_ALREADY_USED = "VK_CARD_ALREADY_USED"
FREE_SEAL_LIMIT = "VK_FREE_SEAL_LIMIT"
ACTION_IMPOSSIBLE = "VK_ACTION_IMPOSSIBLE"
SEAL_LIMIT = "VK_SEAL_LIMIT"
SACRIFICE_PLAYED = "VK_SACRIFICE_PLAYED"
CRUMBLE = pyr.CRUMBLE
REBUILD = "VK_REBUILD"
SOLO_OPPONENT = "VK_SOLO_OPPONENT"
COPY_LIMIT = "VK_COPY_LIMIT"

UNKNOWN = t.UNKNOWN_CARD
REVEALED = "revealed"          # the ``slot`` of Brain Hook's card in a buy
STARTER = "starter"            # the ``card_set`` of a starter card
FREE_SEALS_PER_TURN = 1        # SEED §5.3


def fail(code: str, message: str, field: str | None = None, **params: Any) -> RuleViolation:
    """A refusal with its §13 (or the game's own) code, naming the move's argument."""
    return RuleViolation(code, message, field, **params)


# --------------------------------------------------------------------------------------------
# Whose turn, and the end (§9)
# --------------------------------------------------------------------------------------------


def is_over(state: Mapping[str, Any]) -> bool:
    """The game has ended (§9)."""
    return state["phase"] == Phase.OVER


def to_act(state: Mapping[str, Any]) -> int | None:
    """The active player: every input of a turn is entered for the player whose turn it is."""
    return None if state["phase"] == Phase.OVER else state["current"]


def awaited(state: Mapping[str, Any]) -> Awaiting:
    """The seat whose input is due: the active player, nobody once the game is over."""
    return Awaiting.one(to_act(state))


def last_seat(state: Mapping[str, Any]) -> int:
    """The last player of a round: right of the start player (§9)."""
    return (state["start"] - 1) % len(state["names"])


# --------------------------------------------------------------------------------------------
# Cards: their sets and printed numbers as this table knows them
# --------------------------------------------------------------------------------------------


def card_set(state: Mapping[str, Any], card: str) -> str | None:
    """A title's set id, "unique", "starter", or None while unknown."""
    if card == UNKNOWN:
        return None
    placed = state["printed"]["card_set"].get(card)
    if placed:
        return placed
    title = t.TITLES[card]
    if title.kind is t.Kind.SET:
        return title.set_id
    if title.kind is t.Kind.UNIQUE:
        return t.UNIQUE
    if title.kind is t.Kind.STARTER:
        return STARTER
    return None


def is_set_card(state: Mapping[str, Any], card: str) -> bool:
    """§6: a set card is neither a starter nor a unique."""
    return card_set(state, card) in t.SETS


def group_of(state: Mapping[str, Any], card: str) -> str | None:
    """The scoring group a set card belongs to in this pool."""
    set_id = card_set(state, card)
    for group in state["pool"]["groups"]:
        if set_id in group["sets"]:
            return group["id"]
    return None


def bow_key(state: Mapping[str, Any], card: str) -> str | None:
    """Bow's "set": the scoring group (§16 #8 default) or the printed set."""
    if state["options"]["bow_scope"] == "group":
        return group_of(state, card)
    return card_set(state, card)


def printed_value(state: Mapping[str, Any], key: str, card: str) -> int | None:
    """A printed number (cost, capital, vp) known to this table: from the edition, the
    catalogue or typed earlier."""
    if card == UNKNOWN:
        return None
    if key == "vp" and t.TITLES[card].kind is t.Kind.STARTER:
        return state["starter_vp"][card]
    return state["printed"]["unique_vp" if key == "vp" else key].get(card)


# --------------------------------------------------------------------------------------------
# Counts the moves depend on
# --------------------------------------------------------------------------------------------


def table_cards(state: Mapping[str, Any]) -> int:
    """Cards of the active player still on the table this turn (played, not returned)."""
    return sum(1 for entry in state["played"] if not entry["out"])


def on_table(state: Mapping[str, Any], seat: int, card: str) -> int:
    """Cards of this title ``seat`` has on the table this turn (only the active player has)."""
    if seat != state["current"]:
        return 0
    return sum(1 for entry in state["played"] if entry["card"] == card and not entry["out"])


def unknown_cards(player: Mapping[str, Any]) -> int:
    """Cards of a player whose title nobody entered (bought or gained as "a card")."""
    return player["cards"] - sum(player["known"].values())


# The discard pile rule. SEED l.165 ("Nákup karet", step 2): a bought card goes "na vršek své
# odkládací hromádky", onto the top of the buyer's discard pile (spec §5.1 step 2); a gained
# or taken card likewise (§6 "Gain", §8), and at the end of a turn the played cards (§5 step
# 2). A card on the discard pile is not in the hand: it cannot be played, paid with, sealed
# or sacrificed from the hand until the pile is shuffled into a new deck (a draw that finds
# the deck empty, §5 step 4) or an effect takes it back (Antechamber, §8). The table tracks
# such cards as ``discard_known`` ({title: n}; "?" for a card received as "a card").
DISCARD_PILE_RULE = "SEED l.165, spec §5.1 step 2"


def on_discard(player: Mapping[str, Any], card: str) -> int:
    """Copies of ``card`` (a title or "?") known to lie in ``player``'s discard pile."""
    return player["discard_known"].get(card, 0)


def in_hand_copies(state: Mapping[str, Any], seat: int, card: str) -> int:
    """Known copies of ``card`` that ``seat`` may hold in hand now: those of theirs neither on
    the table this turn nor known to lie in their discard pile (:data:`DISCARD_PILE_RULE`)."""
    player = state["players"][seat]
    return (player["known"].get(card, 0) - on_table(state, seat, card)
            - on_discard(player, card))


def unnamed_in_hand(player: Mapping[str, Any]) -> int:
    """Unnamed cards of a player that may be in hand (not known to lie in the discard)."""
    return unknown_cards(player) - on_discard(player, UNKNOWN)


def pyramid_cards(state: Mapping[str, Any]) -> int:
    """Cards in the pyramid."""
    return pyr.count(state["pyramid"])


def rebuild_needed(state: Mapping[str, Any]) -> bool:
    """§5 step 3: sacrifice exactly one card iff the pyramid did not change and is not empty."""
    return not state["changed"] and pyramid_cards(state) > 0


def refill_count(state: Mapping[str, Any]) -> int:
    """Cards the refill takes: every empty slot, while the supply lasts (§4, §16 #18)."""
    return min(len(pyr.refill_order(state["pyramid"])), state["supply"])


def free_seal_open(state: Mapping[str, Any]) -> bool:
    """The free seal (§5.3) is still to be had this turn (master embalmers have none)."""
    return state["solo"] != Solo.MASTER and state["free_seals"] < FREE_SEALS_PER_TURN
