"""Imhotep's live state: its layout, phases and kinds, who is awaited, and what it holds
(spec imhotep.md §2, §4.1).

Every other module of the referee reads the state through the names defined here. The state
is a plain JSON dict, so ``json.loads(json.dumps(state))`` equals it and a table is fully
described by its set-up plus the move log; a move never mutates it (the referee's
:class:`~companion.rules.referee.Draft` copies only what a move changes).

State layout (per-seat values are lists indexed by seat; stones are recorded by seat)::

    names, colours     list[str]
    options            {sides: {site: "A"|"B"}, wrath_of_pharaoh, allow_pass_when_stuck,
                        market_pick_mandatory, hammer_partial_allowed,
                        chisel_requires_two_stones, obelisks_b_score_at_end,
                        red_card_counts_for_wrath}
    b_values           the edition data in force (printed.EDITION_DEFAULTS + the group's copy)
    unverified         entries of b_values this table relies on that nobody has confirmed
    warnings           [{round, code, ships}]: 3-player round cards outside the verified list
    round              1..6
    phase              a Phase value: "round_card" | "market" | "turn" | "choice" | "over"
    start_player       this round's start player
    current            whose turn it is (phase "turn")
    passes             consecutive passes (E3)
    last_sailor        who sailed the latest ship; next_start: the next round's start player
    round_cards        the round cards used so far, e.g. [[4, 3, 2, 2]]
    ships              [{capacity, minimum, slots: [seat | None], site: site | None}]
    quarry, sled, score   [int]   (score = the scoring track)
    cards              [{kind: count}] kept cards (statue, decorations, blue) per seat
    deck               {kind: count} cards not seen since the last shuffle: the draw pile, the
                       face-down Market B pair and discards nobody saw (E5)
    discard            {kind: count} the face-up discard pile; discard_unknown: unseen discards
    display            open market cards still on the board; pair: face-down cards still there
    pyramids           A: [seat] in placement order (15th on: beside the board)
                       B: {"pyramids": [[seat] per pyramid], "beside": [seat]}
    temple, burial_chamber   [seat] in placement order
    obelisks           A: [height per seat]; B: {"waiting": [int], "towers": [[seat, value]]}
    delivered          [{monument: "ship" | "card"}] how each seat first reached a monument
    queue              the current action's steps, each for one seat (a Task: deliveries,
                       bonuses, …); the first one awaiting input is what the game awaits
    then               what follows once the queue is empty (a Then value, or None)

Pure (design.md §1): no I/O, no clock, no randomness.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Mapping

from ..base import Awaiting, N_, RuleViolation, Term
from ..referee import BadArgument, PendingQueue
from . import printed


class MoveKind(StrEnum):
    """The ``type`` of a move (spec §4)."""

    ROUND_CARD = "round_card"            # §4.1 the round card that came up
    REVEAL_MARKET = "reveal_market"      # §4.1 the market cards revealed
    TAKE_STONES = "take_stones"          # §4.2 GET_STONES
    PLACE_STONE = "place_stone"          # §4.3 PLACE_STONE
    SAIL_SHIP = "sail_ship"              # §4.4 SAIL_SHIP
    PLAY_CARD = "play_card"              # §4.5 PLAY_BLUE_CARD
    PASS = "pass"                        # §4.5 PASS (option, E3)
    PICK_CARD = "pick_card"              # §4.6 Market: take an open card
    PICK_PAIR = "pick_pair"              # §6.1 Market B: take the face-down pair, keep one
    SKIP_CARD = "skip_card"              # §6.5 market_pick_mandatory off
    UNLOAD_ORDER = "unload_order"        # §4.5 Lever
    CHOOSE_PYRAMID = "choose_pyramid"    # §6.1 Pyramids B
    USE_BONUS = "use_bonus"              # §6.1 Pyramids B bonus space
    SKIP_BONUS = "skip_bonus"
    TEMPLE_CHOICE = "temple_choice"      # §6.1 Temple B CHOICE space
    DRAW_CARD = "draw_card"              # §6.1 Temple B CARD space: the card drawn


class Phase(StrEnum):
    """Whose input the game waits for (spec §4.1)."""

    ROUND_CARD = "round_card"            # the start player turns up the round card
    MARKET = "market"                    # the start player reveals the market cards
    TURN = "turn"                        # the current player's action
    CHOICE = "choice"                    # a stone's owner (or the Lever's player) chooses
    OVER = "over"


class Task(StrEnum):
    """Steps of an action, each for one seat (state["queue"]); RED needs no input, the others
    may. In phase "choice" the head's kind (a market delivery: ``market_pick``, a pyramid B
    delivery: ``pyramid``) is the step the move table checks moves against."""

    DELIVER = "deliver"        # one stone arrives at a site (Market, Pyramids B: a choice)
    BONUS = "bonus"            # Pyramids B bonus space (optional)
    ORDER = "order"            # the Lever's unloading order
    TEMPLE_CHOICE = "temple_choice"   # Temple B CHOICE: 1 point or 2 stones
    DRAW = "draw"              # Temple B CARD: the card drawn
    RED = "red"                # a red card resolves (automatic)


class Delivery(StrEnum):
    """The choice a delivered stone's owner makes, named after the site (the move table's
    step while a DELIVER task waits)."""

    MARKET_PICK = "market_pick"          # §4.6 which market card
    PYRAMID = "pyramid"                  # §6.1 which pyramid (Pyramids B)


class Then(StrEnum):
    """What follows once the queue is empty (state["then"])."""

    END_ACTION = "end_action"  # the action is over: next player or round end
    ROUND_END = "round_end"    # the Temple scores (its choices join the queue)
    NEXT_ROUND = "next_round"  # clean-up and the next round or the end


class Site(StrEnum):
    """The five sites a ship can sail to (spec §2.4; printed.SITES in the board's order)."""

    MARKET = "market"
    PYRAMIDS = "pyramids"
    TEMPLE = "temple"
    BURIAL_CHAMBER = "burial_chamber"
    OBELISKS = "obelisks"


class BlueCard(StrEnum):
    """The market cards played as an action (spec §2.6, §4.5)."""

    LEVER = "lever"
    HAMMER = "hammer"
    SAIL = "sail"
    CHISEL = "chisel"


class PyramidBonus(StrEnum):
    """The bonus spaces of Pyramids B (spec §6.1, printed.PYRAMID_B_BONUSES)."""

    CARD = "card"              # the top card of the draw pile
    STONES = "stones"          # 3 stones from the quarry to the sled
    SHIP = "ship"              # a stone from the sled onto a ship


class Via(StrEnum):
    """How a stone reached a monument (the Wrath of the Pharaoh, §6.4, E11)."""

    SHIP = "ship"
    CARD = "card"              # a red card's stone


assert tuple(Site) == printed.SITES and set(BlueCard) == set(printed.BLUE_CARDS)
assert tuple(PyramidBonus) == printed.PYRAMID_B_BONUSES

# Words used inside messages (translated by the web layer).
_CHOOSING = Term(N_("a choice for a delivered stone"))
WAITING_LABELS: Mapping[str, Term] = {
    Phase.ROUND_CARD.value: Term(N_("the round card")),
    Phase.MARKET.value: Term(N_("the market cards")),
    Phase.TURN.value: Term(N_("a turn: take stones, place a stone, sail a ship or play a "
                              "blue card")),
    Delivery.MARKET_PICK.value: _CHOOSING, Delivery.PYRAMID.value: _CHOOSING,
    Task.BONUS.value: _CHOOSING, Task.ORDER.value: _CHOOSING,
    Task.TEMPLE_CHOICE.value: _CHOOSING, Task.DRAW.value: _CHOOSING,
}

QUEUE = PendingQueue("queue")
_ALONE = tuple(Awaiting.one(seat) for seat in range(4))   # built once: asked every move
_NOBODY = Awaiting()


def tile_label(kind: str) -> Term:
    """The translatable name of a card kind, a colour or a site."""
    return (printed.CARD_LABELS.get(kind) or printed.COLOUR_LABELS.get(kind)
            or printed.SITE_LABELS.get(kind) or Term(kind))


# What a move may name (the choices of its arguments), in the players' words.
CARD_CHOICES: tuple[tuple[str, Term], ...] = tuple((kind, printed.CARD_LABELS[kind])
                                                   for kind in printed.DECK)
SITE_CHOICES: tuple[tuple[str, Term], ...] = tuple((site, printed.SITE_LABELS[site])
                                                   for site in printed.SITES)


def bad_argument(kind: MoveKind, path: str,
                 problem: str = N_("This is required.")) -> BadArgument:
    """Argument ``path`` of a ``kind`` move is missing or wrong in a way its declaration cannot
    say (it depends on the card or on the state): raised in the move's check, the referee
    refuses it as ``imhotep.bad_move`` in the player's words."""
    return BadArgument(path, problem)


# ---- whose input ------------------------------------------------------------------------------


def is_over(state: Mapping[str, Any]) -> bool:
    """True once round 6 has ended (its Temple scoring included)."""
    return state["phase"] == Phase.OVER


def awaiting(state: Mapping[str, Any]) -> Awaiting:
    """Whose input is due: the round's start player enters the round card and the market
    cards (§4.1), the current player acts, a queued choice belongs to its seat; nobody once
    the game is over. Imhotep is sequential: one seat at a time."""
    phase = state["phase"]
    if phase == Phase.TURN:
        return _ALONE[state["current"]]
    if phase == Phase.CHOICE:
        return _ALONE[QUEUE.head(state)["seat"]]
    if phase == Phase.OVER:
        return _NOBODY
    return _ALONE[state["start_player"]]


def to_act(state: Mapping[str, Any]) -> int | None:
    """The seat whose input is awaited, or None when the game is over."""
    return next(iter(awaiting(state).seats), None)


def step(state: Mapping[str, Any]) -> str:
    """The phase, with a choice named after what it is about (the move table's phases)."""
    phase = state["phase"]
    if phase != Phase.CHOICE:
        return phase
    task = QUEUE.head(state)
    if task["kind"] == Task.DELIVER:
        return Delivery.MARKET_PICK if task["site"] == Site.MARKET else Delivery.PYRAMID
    return task["kind"]


# ---- the cards --------------------------------------------------------------------------------


def pile_count(state: Mapping[str, Any]) -> int:
    """Cards in the face-down draw pile."""
    return sum(state["deck"].values()) - state["pair"] - state["discard_unknown"]


def can_draw(state: Mapping[str, Any]) -> bool:
    """A card can be drawn: from the pile, or from the discards shuffled into a new one (E4)."""
    return (pile_count(state) > 0 or state["discard_unknown"] > 0
            or any(state["discard"].values()))


def drawable(state: Mapping[str, Any]) -> dict[str, int]:
    """The card kinds the next card drawn may be, with their copies (E4: the discards are
    shuffled in first when the pile is empty; cards nobody saw make this a superset, E5)."""
    if pile_count(state) > 0:
        return {k: n for k, n in state["deck"].items() if n}
    merged = {k: state["deck"][k] + state["discard"][k] for k in printed.CARD_KINDS}
    return {k: n for k, n in merged.items() if n}


def not_in_deck(card: str, field: str) -> RuleViolation:
    """No copy of ``card`` can come from the draw pile now."""
    return RuleViolation("imhotep.card_not_in_deck",
                         N_("No %(card)s card can be drawn: none is left in the draw pile."),
                         field, card=printed.CARD_LABELS[card])


# ---- stones, ships and sites ------------------------------------------------------------------


def takeable(state: Mapping[str, Any], seat: int, most: int) -> int:
    """Stones ``seat`` can move quarry → sled now: at most ``most``, the sled room, the stock."""
    return min(most, printed.SLED_CAPACITY - state["sled"][seat], state["quarry"][seat])


def free_slots(state: Mapping[str, Any]) -> list[tuple[int, int]]:
    """(ship, space) of every empty space on an unsailed ship."""
    return [(i, j) for i, ship in enumerate(state["ships"]) if ship["site"] is None
            for j, owner in enumerate(ship["slots"]) if owner is None]


def load(ship: Mapping[str, Any]) -> int:
    """The stones a ship carries."""
    return sum(1 for owner in ship["slots"] if owner is not None)


def sailable(state: Mapping[str, Any]) -> list[int]:
    """Unsailed ships carrying at least their minimum (§4.4 condition 1)."""
    return [i for i, ship in enumerate(state["ships"])
            if ship["site"] is None and load(ship) >= ship["minimum"]]


def free_sites(state: Mapping[str, Any]) -> list[str]:
    """Sites no ship has docked at this round (§4.4 condition 2)."""
    taken = {ship["site"] for ship in state["ships"]}
    return [site for site in printed.SITES if site not in taken]


def pyramids_with_room(state: Mapping[str, Any]) -> list[int]:
    """Pyramids B with a free space (§6.1)."""
    spaces = state["b_values"]["pyramids_b"]
    return [i for i, pile in enumerate(state["pyramids"]["pyramids"])
            if len(pile) < len(spaces[i])]
