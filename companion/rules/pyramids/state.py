"""Silver & Gold – Pyramids live game: the state, its phases and what can be asked of it.

Spec shared/rules/silver-gold-pyramids.md §3 (set-up), §4 (structure: 4 rounds × 7 turns; a turn
is step 1 the reveal, step 2 every seat marking at once, step 3 replacements, step 4 the race),
§10 (record mode), §14 #6, #11 (a seat without a legal mark). The moves are in their own
modules (:mod:`.deal`, :mod:`.reveal`, :mod:`.marking`, :mod:`.replacement`), the table that
assembles them in :mod:`.referee`, what phones see in :mod:`.phones`.

State (plain JSON; per-seat values are lists indexed by seat)::

    names, options {cards: "ours"|"published", skulls_before_potion}
    penalties [10], penalties_assumed bool       skull penalties in force (§2.3)
    expedition [8 shapes] | None                 None: published deck unconfirmed (palette)
    colours, grids: None | [49]                  published: known colour / flat grid per number
    round 1..4, turn 1..7, phase, shape, revealed [shapes this round]
    phase deal | keep | offer | reveal | mark | replace | refill | over
    offer [numbers], deck [numbers, sorted]      the deck's order is unknown, its contents not
    race {colour: [seat, ...]}                   boxes claimed in order (10, 6, 3)
    marked [bool]                                step 2: this seat has marked or is skipped
                                                 (keep: this seat has kept its 2 cards)
    pending [{seat, kind: "replace", left} | {seat, kind: "refill", count}]
    players [{open: [{number, cells: [index]} | {number, codes: [code]}],
              completed: [{number, colour}], just: [numbers completed this turn],
              red, green, torches [4], skulls (ticked boxes, §6 counter), race {colour: [v]},
              dealt [numbers]}]

**Simultaneous steps.** During step 2 :func:`awaiting` returns every seat still to mark with
the step id ``r<round>t<turn>:mark`` (and while the app deals, every seat still to keep its 2
cards with ``setup:keep``): a mark changes only the marking seat's cards and scoring card, and
its legality depends only on them and on what is fixed for the whole step, so the marks of one
step commute (base.Awaiting). A seat with no legal mark is not awaited (§14 #6, #11).

Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

from collections import Counter
from enum import StrEnum
from typing import Any, Mapping, Sequence

from ..base import Awaiting, IntField, ListField, N_, RuleViolation, Term
from . import ours
from . import printed as t
from .placement import has_legal_single

GAME = "pyramids"


class MoveKind(StrEnum):
    """The ``type`` of a move."""

    DEAL = "deal"              # §3 dealt by the app: 4 cards to every seat
    KEEP = "keep"              # §3: every seat keeps 2 of its 4, all at once
    OFFER = "offer"            # §3: the offer of 4 turned up (dealt by the app)
    REVEAL = "reveal"          # §4 step 1
    MARK = "mark"              # §4 step 2, §5
    PASS = "pass"              # §14 #6: no legal mark
    TAKE = "take"              # §7 replacement
    REFILL = "refill"          # §7 refill of the offer


class Phase(StrEnum):
    """What the table is waiting for."""

    DEAL = "deal"
    KEEP = "keep"
    OFFER = "offer"
    REVEAL = "reveal"
    MARK = "mark"
    REPLACE = "replace"
    REFILL = "refill"
    OVER = "over"


class Pending(StrEnum):
    """The ``kind`` of a step waiting in ``pending`` (§7, in the §14 #8 order)."""

    REPLACE = "replace"        # a seat takes new cards for those it completed
    REFILL = "refill"          # then refills the offer from the deck


class CardsMode(StrEnum):
    """Which pyramid cards the table plays with."""

    OURS = "ours"              # our print-and-play edition, refereed cell by cell
    PUBLISHED = "published"    # the published cards: record mode, entered layouts refereed


class Dealer(StrEnum):
    """Who deals the pyramid cards at the start (§3)."""

    TABLE = "table"            # the table dealt; the set-up says what
    APP = "app"                # the app deals; each phone keeps 2 of its 4


class Source(StrEnum):
    """Where a replacement card comes from (§7)."""

    OFFER = "offer"
    DECK = "deck"


OPTION_DEFAULTS: Mapping[str, Any] = {"cards": CardsMode.OURS.value,
                                      "skulls_before_potion": True}

MOVE_LABELS: Mapping[str, Term] = {
    MoveKind.DEAL: Term(N_("deal the pyramid cards")),
    MoveKind.KEEP: Term(N_("keep 2 pyramid cards")),
    MoveKind.OFFER: Term(N_("turn up the offer")),
    MoveKind.REVEAL: Term(N_("reveal the expedition card")),
    MoveKind.MARK: Term(N_("mark chambers")),
    MoveKind.PASS: Term(N_("pass")),
    MoveKind.TAKE: Term(N_("take a pyramid card")),
    MoveKind.REFILL: Term(N_("refill the offer")),
}
PHASE_LABELS: Mapping[str, Term] = {
    Phase.DEAL: Term(N_("the pyramid cards to be dealt")),
    Phase.KEEP: Term(N_("everyone to keep 2 of the 4 cards dealt")),
    Phase.OFFER: Term(N_("the offer to be turned up")),
    Phase.REVEAL: Term(N_("the next expedition card")),
    Phase.MARK: Term(N_("everyone's marks")),
    Phase.REPLACE: Term(N_("a new pyramid card for a player who completed one")),
    Phase.REFILL: Term(N_("the offer to be refilled")),
    Phase.OVER: Term(N_("nothing: the game is over")),
}

# The argument most moves share: pyramid card numbers (the deal, the cards kept, the offer, a
# replacement, a refill).
CARD_NUMBER = IntField("card", N_("Card number"), min=1, max=t.CARD_COUNT, default=None)


def card_numbers(*, scalar: bool = False) -> ListField:
    """The declaration of ``cards``: card numbers, required; ``scalar``: one number alone
    counts as a list of one (as a chance with one draw enters it)."""
    return ListField("cards", N_("Cards"), CARD_NUMBER, max_items=t.CARD_COUNT, required=True,
                     item_label=N_("Card %(n)d"), scalar=scalar)


# --------------------------------------------------------------------------------------------
# Cards: what is known about a number
# --------------------------------------------------------------------------------------------

OURS_COLOURS: tuple[str | None, ...] = (None,) + tuple(card.colour for card in ours.CARDS)
OURS_GRIDS: tuple[str | None, ...] = (None,) + tuple(card.flat for card in ours.CARDS)
assert all(card.number == n for n, card in enumerate(ours.CARDS, 1))


def card_grid(state: Mapping[str, Any], number: int) -> str | None:
    """The card's flat grid when it is refereed cell by cell, else None (record mode)."""
    grids = state["grids"]
    return OURS_GRIDS[number] if grids is None else grids[number]


def card_colour(state: Mapping[str, Any], number: int) -> str | None:
    """The card's colour, when it is known (ours, or the group's records)."""
    colours = state["colours"]
    return OURS_COLOURS[number] if colours is None else colours[number]


def marks_on(card: Mapping[str, Any]) -> list:
    """What an open card holds: cell indices (refereed cell by cell) or reported codes."""
    return card["cells"] if "cells" in card else card["codes"]


def new_card(state: Mapping[str, Any], number: int) -> dict[str, Any]:
    """A card as it is laid open, nothing marked yet."""
    return {"number": number, "cells" if card_grid(state, number) else "codes": []}


def open_card(player: Mapping[str, Any], number: int) -> Mapping[str, Any]:
    """The player's open card with this number."""
    return next(card for card in player["open"] if card["number"] == number)


# --------------------------------------------------------------------------------------------
# Queries
# --------------------------------------------------------------------------------------------


def is_over(state: Mapping[str, Any]) -> bool:
    """Whether the fourth round is over."""
    return state["phase"] == Phase.OVER


def phase_of(state: Mapping[str, Any]) -> str:
    """The phase the table is in."""
    return state["phase"]


def step_id(state: Mapping[str, Any]) -> str:
    """The simultaneous step under way (keeping the cards dealt, or a turn's marking)."""
    if state["phase"] == Phase.KEEP:
        return "setup:keep"
    return f"r{state['round']}t{state['turn']}:mark"


def awaiting(state: Mapping[str, Any]) -> Awaiting:
    """Reveal (and the app's deal and offer): any seat; marking (and keeping 2 of the 4 cards
    dealt): every seat still to do it (a simultaneous step); replacements and refills: the
    seat whose turn it is in the §14 #8 order; nobody once the game is over."""
    phase = state["phase"]
    if phase in (Phase.MARK, Phase.KEEP):
        return Awaiting(frozenset(s for s, done in enumerate(state["marked"]) if not done),
                        step_id(state))
    if phase in (Phase.REVEAL, Phase.DEAL, Phase.OFFER):
        return Awaiting(frozenset(range(len(state["names"]))))
    if phase in (Phase.REPLACE, Phase.REFILL):
        return Awaiting.one(state["pending"][0]["seat"])
    return Awaiting()


def expedition_left(state: Mapping[str, Any]) -> dict[str, int]:
    """§4: the expedition cards this round's deck can still show, with counts; with an
    unconfirmed published deck every shape of the palette, once each (§10)."""
    if state["expedition"] is None:
        return {code: 1 for code in t.SHAPES}
    left = Counter(state["expedition"])
    left.subtract(state["revealed"])
    return {code: n for code, n in left.items() if n > 0}


def _has_record_card(player: Mapping[str, Any]) -> bool:
    return any("codes" in card for card in player["open"])


def _layout_mark_possible(state: Mapping[str, Any], player: Mapping[str, Any]) -> bool:
    return any(has_legal_single(card_grid(state, card["number"]), card["cells"])
               for card in player["open"] if "cells" in card)


def must_mark(state: Mapping[str, Any], seat: int) -> bool:
    """§14 #6, #11: a seat marks unless it has no legal mark (no card, or no legal cell on a
    card refereed cell by cell); a record card might always take a mark."""
    player = state["players"][seat]
    return _has_record_card(player) or _layout_mark_possible(state, player)


def pass_allowed(state: Mapping[str, Any], seat: int) -> bool:
    """§5.5 SGP_NO_MOVE: a seat may mark nothing only when no card refereed cell by cell takes
    a mark (record cards: the report is trusted)."""
    return not _layout_mark_possible(state, state["players"][seat])


def colour_count(state: Mapping[str, Any], seat: int, colour: str) -> int:
    """Completed cards of a colour for a seat (its scoring progress, §8)."""
    return sum(1 for card in state["players"][seat]["completed"] if card["colour"] == colour)


def check_drawn(state: Mapping[str, Any], cards: Sequence[int], count: int) -> None:
    """Cards turned up from the deck: ``count`` of them, each still in the deck, once."""
    if len(cards) != count:
        raise RuleViolation("pyramids.refill_count",
                            N_("The offer takes %(count)d card(s) from the deck."),
                            "move.cards", count=count)
    for i, card in enumerate(cards):
        if card not in state["deck"] or list(cards).index(card) != i:
            raise RuleViolation("pyramids.not_in_deck",
                                N_("Card %(number)d cannot come from the deck."),
                                f"move.cards.{i}", number=card)
