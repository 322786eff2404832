"""Silver & Gold – Pyramids live referee: every seat marks at once, on its own phone.

Implements spec shared/rules/silver-gold-pyramids.md:

* §3 set-up: as input (the 4 cards dealt to each seat, the 2 kept, the offer of 4), or dealt
  by the app for a group that plays with phones only (``dealer: "app"``): the deal is a chance
  input (``deal``), then every seat keeps 2 of its 4 at once (``keep``, a simultaneous step),
  then the offer is turned up (``offer``, a chance input);
* §4 structure: 4 rounds × 7 turns; a turn is step 1 ``reveal`` (the expedition card, physical
  randomness entered by any seat or drawn by the app through :func:`chance`), step 2 ``mark``
  by every seat at once, step 3 replacements (``take``, then ``refill`` of the offer), step 4
  the race;
* §5 marking: the shape under all 8 orientations, walls, entrance first, connection, red-cross
  chains, every code of §5.5; §6 symbol effects; §7 completion and replacements; §8 the race;
  §9 through :func:`.scoring.score_game`; §14 edge cases, each named where it is implemented.

**Simultaneous marking.** During step 2, :func:`awaiting` returns every seat still to mark
with the step id ``r<round>t<turn>:mark``. A mark changes only the marking seat's cards and
scoring card, and its legality depends only on them and on what is fixed for the whole step
(the revealed shape, the round, the race boxes taken before the step), so the marks of one step
commute (base.Awaiting). Everything shared is resolved when the last seat has marked, in the
spec's order: the race (§8, lowest card number first), then the replacements (§7, seats in
ascending order of the lowest number they completed, each refilling the offer before the next,
§14 #8). A seat with no legal mark is not awaited (§14 #6, #11): one without cards, or one
whose cards refereed cell by cell take no single cell (a legal pattern always contains a legal
single cell; on a completable card some chamber next to the marks stays free until the tomb
is marked, so in practice this is the seat without cards). A record card may always take a
mark, so its seat is awaited and may ``pass`` (trusted).

**One move per seat and turn.** ``mark`` carries the whole step 2 of a seat: the pattern (or
the single cell) in ``cells`` and the red-cross extra marks in ``extra``, in the order they are
made (§5.4). Every cell names its card, so a pattern spread over both cards is recognised
(``SGP_SPLIT``)::

    {"type": "mark",
     "cells": [{"card": 17, "row": 0, "col": 2}, {"card": 17, "row": 1, "col": 2}],
     "extra": [{"card": 9, "row": 0, "col": 1}],
     "potion_first": false,          # optional: the order of a skull and a potion (§14 #4)
     "torch": 2,                     # optional cross-check: the torch box ticked (SGP_TORCH_ROUND)
     "race": ["green"],              # optional cross-check: colours claimed (SGP_RACE)
     "completed": [{"number": 17, "colour": "green"}]}   # cards whose tomb this move marks

**Record mode** (the published cards, spec §10): a card whose layout nobody entered is marked
by reporting the code of each cell instead of its position, ``{"card": 17, "code": "R"}``
(``.`` for a plain chamber, ``E`` entrance, ``B`` tomb). The engine checks what needs no layout:
the pattern's size, the entrance first (and once), the tomb once, no wall, the symbol effects
with their caps, the torch round, the race, the offer and the deck; a completed card's colour
is taken from the group's card records or must be reported in ``completed``. Where legality
needs the layout (connection, whether an extra mark or any mark was possible) the report is
trusted. A card whose layout the group entered (edition ``card_layouts``, verified) is refereed
cell by cell like ours, even in a game that mixes both.

**The whole step as the cells marked** (what a phone sends after tapping cells on the
pictures of its cards): ``{"type": "mark", "marks": [cell, ...]}`` lists every cell the seat
marks this turn, pattern and red-cross extra marks together, in any order (cells refereed cell
by cell only). The referee reads them as the pattern on one card (or one single cell) plus the
extra marks in an order that makes each legal (:func:`read_marks`); the cards end the same
whichever reading is taken. When no reading is legal, the refusal is the one of the most
plausible reading (the pattern, when the cells contain it), with ``field`` naming
``move.marks.<i>``.

Other moves: ``{"type": "pass"}`` (no legal mark: ``SGP_NO_MOVE`` if one exists), ``{"type":
"reveal", "shape": "L3"}``, ``{"type": "take", "source": "offer" | "deck", "card": 23}`` (a
blind draw names the card that came up) and ``{"type": "refill", "cards": [30, 31]}``;
while the app deals (§3): ``{"type": "deal", "cards": [4 per seat, seat by seat]}``,
``{"type": "keep", "cards": [17, 23]}`` and ``{"type": "offer", "cards": [4 numbers]}``.

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

Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

import re
from collections import Counter
from enum import StrEnum
from itertools import combinations
from typing import Any, Iterable, Mapping, NamedTuple, Sequence

from ..base import (Assumption, Awaiting, Chance, ChoiceField, Edition, ListField, N_,
                    ObjectField, RuleViolation, Scoresheet, Term, check_document)
from ..referee import Draft, MoveRule, Referee, is_int
from . import ours
from . import tables as t
from .edition import LABELS, known_cards
from .placement import (SHAPE_SIZES, Problem, cells_problem, has_legal_single, index, inside,
                        is_shape, legal_placements, legal_singles, position, single_is_legal,
                        tomb)
from .scoring import (PlayerTally, drink_potion, race_claims, score_game, thresholds_crossed,
                      tick_gem, tick_skull, worst_penalty)

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
    DEAL = "deal"
    KEEP = "keep"
    OFFER = "offer"
    REVEAL = "reveal"
    MARK = "mark"
    REPLACE = "replace"
    REFILL = "refill"
    OVER = "over"


class CardsMode(StrEnum):
    """Which pyramid cards the table plays with."""

    OURS = "ours"              # our print-and-play edition, refereed cell by cell
    PUBLISHED = "published"    # the published cards: record mode, entered layouts refereed


class Dealer(StrEnum):
    """Who deals the pyramid cards at the start (§3)."""

    TABLE = "table"            # the table dealt; the set-up says what
    APP = "app"                # the app deals; each phone keeps 2 of its 4


class Source(StrEnum):
    OFFER = "offer"
    DECK = "deck"


OPTION_DEFAULTS: Mapping[str, Any] = {"cards": CardsMode.OURS.value,
                                      "skulls_before_potion": True}

OURS_COLOURS: tuple[str | None, ...] = (None,) + tuple(card.colour for card in ours.CARDS)
OURS_GRIDS: tuple[str | None, ...] = (None,) + tuple(card.flat for card in ours.CARDS)
assert all(card.number == n for n, card in enumerate(ours.CARDS, 1))

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

PROBLEM_MESSAGES: Mapping[str, str] = {
    Problem.NOT_SHAPE: N_("These chambers are not the revealed pattern, turned or mirrored."),
    Problem.OUT_OF_GRID: N_("This chamber lies outside the card."),
    Problem.WALL: N_("Walls are never marked."),
    Problem.ALREADY_MARKED: N_("This chamber is already marked."),
    Problem.NO_ENTRANCE: N_("The first marking of a card must include its entrance."),
    Problem.NOT_CONNECTED: N_("A marking must touch an earlier mark on that card (not just "
                              "diagonally)."),
}


def _problem(code: str, field: str, **params: Any) -> RuleViolation:
    return RuleViolation(code, PROBLEM_MESSAGES[code], field, **params)


# --------------------------------------------------------------------------------------------
# Cards: what is known about a number
# --------------------------------------------------------------------------------------------


def card_grid(state: Mapping[str, Any], number: int) -> str | None:
    """The card's flat grid when it is refereed cell by cell, else None (record mode)."""
    grids = state["grids"]
    return OURS_GRIDS[number] if grids is None else grids[number]


def card_colour(state: Mapping[str, Any], number: int) -> str | None:
    colours = state["colours"]
    return OURS_COLOURS[number] if colours is None else colours[number]


def _marks(card: Mapping[str, Any]) -> list:
    return card["cells"] if "cells" in card else card["codes"]


def _new_card(state: Mapping[str, Any], number: int) -> dict[str, Any]:
    return {"number": number, "cells" if card_grid(state, number) else "codes": []}


# --------------------------------------------------------------------------------------------
# Set-up (§3)
# --------------------------------------------------------------------------------------------


def setup_schema(players: int) -> ObjectField:
    """§3 as the open-table form: who deals; when the table dealt, per seat the 4 cards dealt
    and the 2 kept, and the offer."""
    number = ChoiceField("card", N_("Card number"), tuple(range(1, t.CARD_COUNT + 1)))
    hand = ObjectField("hand", N_("Seat"), (
        ListField("dealt", N_("Cards dealt"), number, min_items=0, max_items=t.DEALT,
                  item_label=N_("Card %(n)d")),
        ListField("kept", N_("Cards kept"), number, min_items=t.KEPT, max_items=t.KEPT,
                  required=True, item_label=N_("Card %(n)d")),
    ))
    return ObjectField("setup", N_("Set-up"), (
        ChoiceField("dealer", N_("Who deals the pyramid cards"), (
            (Dealer.TABLE.value, N_("We dealt them: the cards are entered below")),
            (Dealer.APP.value, N_("The app deals: every phone keeps 2 of its 4")),
        ), default=Dealer.TABLE.value),
        # required when the table dealt (checked in _check_deal)
        ListField("hands", N_("Cards of each seat"), hand, min_items=players,
                  max_items=players, item_label=N_("Seat %(n)d")),
        ListField("offer", N_("The offer"), number, min_items=t.OFFER_SIZE,
                  max_items=t.OFFER_SIZE, item_label=N_("Card %(n)d")),
    ))


def default_setup(players: int) -> dict[str, Any]:
    """A fixed deal: seat s is dealt s+1, s+1+P, s+1+2P, s+1+3P and keeps the first two; the
    offer is the next four numbers. The table enters what it really dealt."""
    hands = [{"dealt": [s + 1 + k * players for k in range(t.DEALT)],
              "kept": [s + 1, s + 1 + players]} for s in range(players)]
    first = t.DEALT * players + 1
    return {"dealer": Dealer.TABLE.value, "hands": hands,
            "offer": list(range(first, first + t.OFFER_SIZE))}


def _check_deal(players: int, table: Any
                ) -> tuple[list[list[int]], list[list[int]], list[int]] | None:
    """§3: every number at most once among the cards dealt (or kept, when the deal is not
    given) and the offer; the kept cards among those dealt. A card dealt and returned may show
    up in the offer: the returned cards are shuffled back before the offer is revealed.
    None when the app deals (what else the set-up holds is then not used)."""
    clean, violations = check_document(setup_schema(players), table)
    if clean["dealer"] == Dealer.APP and not any(v.field == "dealer" for v in violations):
        return None
    if violations:
        raise violations[0]
    for key in ("hands", "offer"):
        if key not in clean:
            raise RuleViolation("pyramids.deal_needed",
                                N_("Enter the cards each player kept and the offer, or let "
                                   "the app deal."), key)
    hands, offer = clean["hands"], clean["offer"]
    seen: set[int] = set()

    def claim(number: int, field: str) -> None:
        if number in seen:
            raise RuleViolation("pyramids.duplicate_card",
                                N_("Card %(number)d is entered twice."), field, number=number)
        seen.add(number)

    returned: set[int] = set()
    for s, hand in enumerate(hands):
        dealt, kept = hand.get("dealt") or [], hand["kept"]
        if dealt and len(dealt) != t.DEALT:
            raise RuleViolation("pyramids.dealt_count", N_("Each player is dealt 4 cards."),
                                f"hands.{s}.dealt")
        for i, number in enumerate(dealt):
            claim(number, f"hands.{s}.dealt.{i}")
        for i, number in enumerate(kept):
            if kept.index(number) != i:
                raise RuleViolation("pyramids.duplicate_card",
                                    N_("Card %(number)d is entered twice."),
                                    f"hands.{s}.kept.{i}", number=number)
            if not dealt:
                claim(number, f"hands.{s}.kept.{i}")
            elif number not in dealt:
                raise RuleViolation("pyramids.kept_not_dealt",
                                    N_("A player keeps 2 of the 4 cards dealt to them."),
                                    f"hands.{s}.kept.{i}")
        returned |= set(dealt) - set(kept)
    for i, number in enumerate(offer):
        if number in returned:
            returned.discard(number)             # back in the deck, then turned up
        else:
            claim(number, f"offer.{i}")
    return ([list(hand.get("dealt") or hand["kept"]) for hand in hands],
            [list(hand["kept"]) for hand in hands], list(offer))


def setup(options: Mapping[str, Any] | None, names: Sequence[str], table: Any,
          edition: Edition | None = None) -> dict[str, Any]:
    """A fresh game (§3). ``edition`` matters for the published cards only: our edition's
    scoring card, deck and layouts are fixed (ours.py)."""
    opts = {**OPTION_DEFAULTS, **(options or {})}
    if opts["cards"] not in (CardsMode.OURS, CardsMode.PUBLISHED):
        raise RuleViolation("pyramids.bad_option", N_("Choose one of the values offered."),
                            "options.cards")
    count = len(names)
    if count not in t.PLAYER_COUNTS:
        raise RuleViolation("pyramids.bad_player_count",
                            N_("Silver & Gold – Pyramids is played by 2 to 4 players, not "
                               "%(count)d."), "players", count=count)
    deal = _check_deal(count, table)
    # §3 dealt by the app: nobody holds a card yet, the whole pack is the deck
    dealt, kept, offer = deal or ([[] for _ in range(count)], [[] for _ in range(count)], [])
    if opts["cards"] == CardsMode.OURS:
        penalties, assumed = list(ours.SKULL_PENALTIES), False
        expedition: list[str] | None = list(ours.EXPEDITION_DECK)
        colours: list[str | None] | None = None
        grids: list[str | None] | None = None
    else:
        values = edition.values if edition else {}
        defaults = edition.defaults if edition else ("skull_penalties", "expedition_deck")
        penalties = list(values.get("skull_penalties") or ours.SKULL_PENALTIES)
        assumed = "skull_penalties" in defaults
        expedition = (None if "expedition_deck" in defaults or not values.get("expedition_deck")
                      else list(values["expedition_deck"]))   # §10: palette until confirmed
        colours, grids = known_cards(values.get("card_layouts"))
    in_play = {n for hand in kept for n in hand} | set(offer)
    state: dict[str, Any] = {
        "names": [str(name) for name in names],
        "options": {"cards": opts["cards"],
                    "skulls_before_potion": bool(opts["skulls_before_potion"])},
        "penalties": penalties, "penalties_assumed": assumed, "expedition": expedition,
        "colours": colours, "grids": grids,
        "round": 1, "turn": 1, "phase": (Phase.REVEAL if deal else Phase.DEAL).value,
        "shape": None, "revealed": [],
        "offer": offer,
        "deck": [n for n in range(1, t.CARD_COUNT + 1) if n not in in_play],
        "race": {colour: [] for colour in t.COLOURS},
        "marked": [False] * count,
        "pending": [],
        "players": [],
    }
    state["players"] = [{
        "open": [_new_card(state, n) for n in kept[s]], "completed": [], "just": [],
        "red": 0, "green": 0, "torches": [False] * t.TORCH_BOXES, "skulls": 0,
        "race": {colour: [] for colour in t.COLOURS}, "dealt": dealt[s],
    } for s in range(count)]
    return state


# --------------------------------------------------------------------------------------------
# Queries
# --------------------------------------------------------------------------------------------


def is_over(state: Mapping[str, Any]) -> bool:
    return state["phase"] == Phase.OVER


def step_id(state: Mapping[str, Any]) -> str:
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


def _has_record_card(state: Mapping[str, Any], player: Mapping[str, Any]) -> bool:
    return any("codes" in card for card in player["open"])


def _layout_mark_possible(state: Mapping[str, Any], player: Mapping[str, Any]) -> bool:
    return any(has_legal_single(card_grid(state, card["number"]), card["cells"])
               for card in player["open"] if "cells" in card)


def must_mark(state: Mapping[str, Any], seat: int) -> bool:
    """§14 #6, #11: a seat marks unless it has no legal mark (no card, or no legal cell on a
    card refereed cell by cell); a record card might always take a mark."""
    player = state["players"][seat]
    return _has_record_card(state, player) or _layout_mark_possible(state, player)


def pass_allowed(state: Mapping[str, Any], seat: int) -> bool:
    """§5.5 SGP_NO_MOVE: a seat may mark nothing only when no card refereed cell by cell takes
    a mark (record cards: the report is trusted)."""
    return not _layout_mark_possible(state, state["players"][seat])


def colour_count(state: Mapping[str, Any], seat: int, colour: str) -> int:
    """Completed cards of a colour for a seat (its scoring progress, §8)."""
    return sum(1 for card in state["players"][seat]["completed"] if card["colour"] == colour)


# --------------------------------------------------------------------------------------------
# Parsing
# --------------------------------------------------------------------------------------------


class CellRef(NamedTuple):
    """One marked cell: its card and either its position or (record mode) its code."""

    card: int
    row: int | None
    col: int | None
    code: str | None


def _referee_bad(argument: str) -> RuleViolation:
    return REFEREE.bad_move(argument)


def _parse_ref(value: Any, where: str) -> CellRef:
    if not isinstance(value, Mapping):
        raise _referee_bad(where)
    card = value.get("card")
    if not is_int(card) or not 1 <= card <= t.CARD_COUNT:
        raise _referee_bad(f"{where}.card")
    if "code" in value:
        code = value["code"]
        if not isinstance(code, str) or code not in t.CELL_CODES or "row" in value:
            raise _referee_bad(f"{where}.code")
        return CellRef(card, None, None, code)
    row, col = value.get("row"), value.get("col")
    if not is_int(row):
        raise _referee_bad(f"{where}.row")
    if not is_int(col):
        raise _referee_bad(f"{where}.col")
    return CellRef(card, row, col, None)


def _parse_refs(move: Mapping[str, Any], key: str, low: int, high: int = t.CELLS
                ) -> list[CellRef]:
    """The cells under ``key``; ``extra`` may be left out or null when nothing is due."""
    value = move.get(key)
    if value is None and low == 0:
        value = []
    if not isinstance(value, list) or not low <= len(value) <= high:
        raise _referee_bad(key)
    return [_parse_ref(item, f"{key}.{i}") for i, item in enumerate(value)]


MAX_MARKS = 2 * t.CELLS          # every cell of two cards: more is never one turn's marking


def _parse_marks(move: Mapping[str, Any]) -> list[CellRef]:
    """``marks``: the whole step 2 as cells by position (a phone's taps)."""
    if "cells" in move or "extra" in move:
        raise _referee_bad("marks")             # one way of saying it, not two
    if move["marks"] == []:
        raise RuleViolation("pyramids.nothing_marked",
                            N_("Tap the chambers you mark, then send them."), "move.marks")
    refs = _parse_refs(move, "marks", 1, MAX_MARKS)
    for i, ref in enumerate(refs):
        if ref.code is not None:
            raise _referee_bad(f"marks.{i}.code")
    return refs


def _parse_mark(move: Mapping[str, Any]) -> dict[str, Any]:
    if "marks" in move:
        args: dict[str, Any] = {"marks": _parse_marks(move)}
    else:
        args = {"cells": _parse_refs(move, "cells", 1), "extra": _parse_refs(move, "extra", 0)}
    potion_first = move.get("potion_first")
    if potion_first is not None and not isinstance(potion_first, bool):
        raise _referee_bad("potion_first")
    args["potion_first"] = potion_first
    torch = move.get("torch")
    if torch is not None and not is_int(torch):
        raise _referee_bad("torch")
    args["torch"] = torch
    race = move.get("race")
    if race is not None and (not isinstance(race, list) or len(set(map(str, race))) != len(race)
                             or not all(c in t.COLOURS for c in race)):
        raise _referee_bad("race")
    args["race"] = race
    completed = move.get("completed")
    if completed is not None:
        if not isinstance(completed, list) or len(completed) > t.CELLS:
            raise _referee_bad("completed")
        for i, item in enumerate(completed):
            if not isinstance(item, Mapping) or not is_int(item.get("number")):
                raise _referee_bad(f"completed.{i}.number")
            if item.get("colour") is not None and item.get("colour") not in t.COLOURS:
                raise _referee_bad(f"completed.{i}.colour")
    args["completed"] = completed
    return args


def _parse_reveal(move: Mapping[str, Any]) -> dict[str, Any]:
    shape = move.get("shape")
    if not isinstance(shape, str) or shape not in t.SHAPES:
        raise _referee_bad("shape")
    return {"shape": shape}


def _parse_take(move: Mapping[str, Any]) -> dict[str, Any]:
    source = move.get("source")
    if source not in (Source.OFFER, Source.DECK):
        raise _referee_bad("source")
    card = move.get("card")
    if not is_int(card) or not 1 <= card <= t.CARD_COUNT:
        raise _referee_bad("card")
    return {"source": source, "card": card}


def _parse_numbers(move: Mapping[str, Any]) -> dict[str, Any]:
    """``cards``: a list of card numbers (the deal, the cards kept, the offer)."""
    cards = move.get("cards")
    if not isinstance(cards, list) or len(cards) > t.CARD_COUNT or not all(
            is_int(c) and 1 <= c <= t.CARD_COUNT for c in cards):
        raise _referee_bad("cards")
    return {"cards": list(cards)}


def _parse_refill(move: Mapping[str, Any]) -> dict[str, Any]:
    """``cards``: the numbers turned up; one card may be given alone (as a Chance with one
    draw enters it)."""
    cards = move.get("cards")
    if is_int(cards):
        cards = [cards]
    if not isinstance(cards, list) or not all(is_int(c) and 1 <= c <= t.CARD_COUNT
                                              for c in cards):
        raise _referee_bad("cards")
    return {"cards": list(cards)}


# --------------------------------------------------------------------------------------------
# Step 2: one seat's marks (§5, §6)
# --------------------------------------------------------------------------------------------


class _Marking:
    """One seat's step 2 worked out on copies of its cards and scoring card (§5.4)."""

    def __init__(self, state: Mapping[str, Any], seat: int, skulls_first: bool):
        self.state = state
        self.seat = seat
        player = state["players"][seat]
        self.player = player
        self.cards = {card["number"]: card for card in player["open"]}
        self.marks: dict[int, list] = {}          # copies of the cards marked in this move
        self.red, self.green, self.skulls = player["red"], player["green"], player["skulls"]
        self.torches = player["torches"]
        self.torch_marked = False
        self.skulls_first = skulls_first
        self.completed: list[int] = []            # tombs marked, in order

    def marks_of(self, number: int) -> list:
        if number not in self.marks:
            self.marks[number] = list(_marks(self.cards[number]))
        return self.marks[number]

    def own_card(self, number: int, field: str) -> None:
        if number not in self.cards:
            raise RuleViolation("pyramids.not_your_card",
                                N_("Card %(number)d is not one of your open pyramid cards."),
                                field, number=number)

    def mark(self, refs: Sequence[CellRef], field: str, shape: str | None) -> list[str]:
        """Mark cells on one card (a pattern when ``shape`` is given, else one cell); return
        the codes marked. Raises the §5.5 code of the first problem."""
        number = refs[0].card
        grid = card_grid(self.state, number)
        marks = self.marks_of(number)
        if grid is not None:
            for i, ref in enumerate(refs):
                if ref.code is not None:
                    raise RuleViolation(
                        "pyramids.position_needed",
                        N_("The chambers of card %(number)d are known: mark them by row and "
                           "column."), f"{field}.{i}", number=number)
            rows_cols = [(ref.row, ref.col) for ref in refs]
            if shape is not None and not is_shape(shape, rows_cols):
                raise _problem(Problem.NOT_SHAPE, field, shape=t.SHAPE_LABELS[shape])
            problem = cells_problem(grid, marks, rows_cols)
            if problem is not None:
                code, i = problem
                where = field if code in (Problem.NO_ENTRANCE, Problem.NOT_CONNECTED) else (
                    f"{field}.{i}")
                raise _problem(code, where)
            cells = [index(r, c) for r, c in rows_cols]
            marks.extend(cells)
            codes = [grid[cell] for cell in cells]
        else:
            codes = []
            for i, ref in enumerate(refs):
                if ref.code is None:
                    raise RuleViolation(
                        "pyramids.code_needed",
                        N_("Nobody has entered the chambers of card %(number)d: report the "
                           "symbol of each chamber you mark."), f"{field}.{i}", number=number)
                codes.append(ref.code)
            self._check_report(marks, codes, field)
            marks.extend(codes)
        if t.Cell.TOMB in codes and number not in self.completed:
            self.completed.append(number)             # §14 #18: any mark on the tomb
        return codes

    def _check_report(self, marks: Sequence[str], codes: Sequence[str], field: str) -> None:
        """Record mode: what a report can break without the layout (§5.1, §5.2)."""
        for i, code in enumerate(codes):
            if code == t.Cell.WALL:
                raise _problem(Problem.WALL, f"{field}.{i}")
            if code in (t.Cell.ENTRANCE, t.Cell.TOMB) and (
                    code in marks or codes.index(code) != i):
                raise _problem(Problem.ALREADY_MARKED, f"{field}.{i}")
        if not marks and t.Cell.ENTRANCE not in codes:
            raise _problem(Problem.NO_ENTRANCE, field)
        if len(marks) + len(codes) > t.CELLS:
            raise _problem(Problem.ALREADY_MARKED, field)

    def resolve(self, codes: Sequence[str]) -> int:
        """§6 effects of newly marked cells; returns how many red crosses they hold. Skulls
        and potions of one batch resolve skulls first unless the player chose otherwise
        (§5.4, §14 #4; S6)."""
        skulls = potions = crosses = 0
        for code in codes:
            if code == t.Cell.RED_GEM:
                self.red = tick_gem(self.red)
            elif code == t.Cell.GREEN_GEM:
                self.green = tick_gem(self.green)
            elif code == t.Cell.TORCH:
                self.torch_marked = True
                box = self.state["round"] - 1          # §6: only the current round's box
                if not self.torches[box]:
                    self.torches = list(self.torches)
                    self.torches[box] = True
            elif code == t.Cell.SKULL:
                skulls += 1
            elif code == t.Cell.POTION:
                potions += 1
            elif code == t.Cell.RED_CROSS:
                crosses += 1
        order = ("S", "P") if self.skulls_first else ("P", "S")
        for kind in order:
            for _ in range(skulls if kind == "S" else potions):
                self.skulls = tick_skull(self.skulls) if kind == "S" else drink_potion(
                    self.skulls)
        return crosses

    def extra_possible(self) -> bool:
        """§5.3, §14 #5: whether a red-cross extra mark has a legal cell on a card refereed
        cell by cell (record cards cannot tell, so a missing extra there is trusted)."""
        return any(has_legal_single(card_grid(self.state, n),
                                    self.marks.get(n, self.cards[n]["cells"]))
                   for n, card in self.cards.items() if "cells" in card)


def play_mark(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> dict[str, Any]:
    """The seat's player record after its step 2, or the RuleViolation it breaks (§5, §6)."""
    skulls_first = (state["options"]["skulls_before_potion"] if args["potion_first"] is None
                    else not args["potion_first"])
    work = _Marking(state, seat, skulls_first)
    refs: list[CellRef] = args["cells"]
    if len({ref.card for ref in refs}) > 1:
        raise RuleViolation("SGP_SPLIT", N_("A pattern is marked on one card, not spread over "
                                            "both."), "move.cells")
    work.own_card(refs[0].card, "move.cells.0.card")
    shape = state["shape"]
    if len(refs) not in (1, SHAPE_SIZES[shape]):       # §5.1: partial patterns are illegal
        raise _problem(Problem.NOT_SHAPE, "move.cells", shape=t.SHAPE_LABELS[shape])
    codes = work.mark(refs, "move.cells", shape if len(refs) > 1 else None)
    due = work.resolve(codes)
    for j, ref in enumerate(args["extra"]):           # §5.3 chains, one by one
        field = f"move.extra.{j}"
        if due == 0:
            raise RuleViolation("pyramids.extra_not_due",
                                N_("No red cross asks for another mark."), field)
        work.own_card(ref.card, f"{field}.card")
        due += work.resolve(work.mark([ref], field, None)) - 1
    if due and work.extra_possible():
        raise RuleViolation("SGP_CROSS_PENDING",
                            N_("A red cross asks for %(count)d more mark(s), and a chamber is "
                               "free for it."), "move.extra", count=due)
    colours = _completion_colours(state, work.completed, args["completed"])
    if args["torch"] is not None:
        if not work.torch_marked:
            raise RuleViolation("pyramids.no_torch", N_("None of these chambers is a torch."),
                                "move.torch")
        if args["torch"] != state["round"]:
            raise RuleViolation("SGP_TORCH_ROUND",
                                N_("In round %(round)d only torch box %(round)d can be "
                                   "ticked."), "move.torch", round=state["round"])
    player = work.player
    for i, colour in enumerate(args["race"] or ()):
        before = colour_count(state, seat, colour)
        after = before + sum(1 for c in colours.values() if c == colour)
        if not thresholds_crossed(before, after):
            raise RuleViolation("SGP_RACE", N_("Pyramid points need a 2nd, 4th or 6th "
                                               "completed %(colour)s card."),
                                f"move.race.{i}", reason="threshold",
                                colour=t.COLOUR_LABELS[colour])
        if len(state["race"][colour]) >= len(t.RACE_BOXES):
            raise RuleViolation("SGP_RACE", N_("Every %(colour)s box is already claimed."),
                                f"move.race.{i}", reason="taken",
                                colour=t.COLOUR_LABELS[colour])
    open_cards = []
    for card in player["open"]:
        number = card["number"]
        if number in colours:
            continue                                   # §7: set aside (after step 2, #7)
        if number in work.marks:
            card = {"number": number, ("cells" if "cells" in card else "codes"):
                    work.marks[number]}
        open_cards.append(card)
    return {**player, "open": open_cards,
            "completed": player["completed"] + [{"number": n, "colour": colours[n]}
                                                for n in work.completed],
            "just": list(work.completed),
            "red": work.red, "green": work.green, "torches": work.torches,
            "skulls": work.skulls}


# --------------------------------------------------------------------------------------------
# The whole step as the cells marked (a phone's taps): which is the pattern, in which order the
# red-cross extra marks come
# --------------------------------------------------------------------------------------------

ORDER_SEARCH_LIMIT = 4096        # orders of extra marks tried before the simplest is taken


def _extra_order(state: Mapping[str, Any], seat: int, refs: Sequence[CellRef],
                 main: Sequence[int], rest: Sequence[int]) -> list[int]:
    """An order of the cells ``rest`` (indices into ``refs``) in which each is a legal extra
    mark when it is made (§5.3: a red cross is due, the cell is a legal single, §5.2), found by
    a depth-first search that tries red crosses first; when there is none, the crosses-first
    greedy order, so that the referee names the first cell that cannot be marked."""
    player = state["players"][seat]
    grids = {card["number"]: card_grid(state, card["number"]) for card in player["open"]
             if "cells" in card}
    start = {card["number"]: frozenset(card["cells"]) for card in player["open"]
             if "cells" in card}

    def cell_of(i: int) -> tuple[int, int] | None:
        ref = refs[i]
        if ref.card not in grids or not inside(ref.row, ref.col):
            return None
        return ref.card, index(ref.row, ref.col)

    marks = dict(start)
    due = 0
    for i in main:
        here = cell_of(i)
        if here is not None:
            number, cell = here
            marks[number] = marks[number] | {cell}
            due += grids[number][cell] == t.Cell.RED_CROSS

    def candidates(marked: Mapping[int, frozenset[int]], left: Sequence[int]) -> list[int]:
        legal = []
        for i in left:
            here = cell_of(i)
            if here is not None and single_is_legal(grids[here[0]], marked[here[0]], here[1]):
                legal.append(i)
        crosses = [i for i in legal if grids[cell_of(i)[0]][cell_of(i)[1]] == t.Cell.RED_CROSS]
        return crosses + [i for i in legal if i not in crosses]

    def place(marked: Mapping[int, frozenset[int]], i: int) -> tuple[dict, int]:
        number, cell = cell_of(i)
        return ({**marked, number: marked[number] | {cell}},
                (grids[number][cell] == t.Cell.RED_CROSS) - 1)

    tried = 0
    failed: set[frozenset[int]] = set()

    def search(marked: dict, left: tuple[int, ...], owed: int) -> list[int] | None:
        nonlocal tried
        if not left:
            return []
        key = frozenset(left)
        if owed <= 0 or key in failed or tried > ORDER_SEARCH_LIMIT:
            return None
        tried += 1
        for i in candidates(marked, left):
            after, change = place(marked, i)
            found = search(after, tuple(j for j in left if j != i), owed + change)
            if found is not None:
                return [i] + found
        failed.add(key)
        return None

    found = search(marks, tuple(rest), due)
    if found is not None:
        return found
    greedy, left = [], list(rest)
    while left and due > 0:
        legal = candidates(marks, left)
        if not legal:
            break
        marks, change = place(marks, legal[0])
        due += change
        greedy.append(legal[0])
        left.remove(legal[0])
    return greedy + left


def _readings(state: Mapping[str, Any], refs: Sequence[CellRef]
              ) -> tuple[list[list[int]], list[list[int]]]:
    """The ways to read the cells as one marking (indices into ``refs``): every set of them on
    one card that is the revealed pattern (§5.1, any of its 8 orientations), and every single
    cell (§5.2)."""
    shape = state["shape"]
    size = SHAPE_SIZES[shape]
    per_card: dict[int, list[int]] = {}
    for i in _by_place(refs):
        per_card.setdefault(refs[i].card, []).append(i)
    patterns = [list(chosen) for numbers in per_card.values() if len(numbers) >= size
                for chosen in combinations(numbers, size)
                if is_shape(shape, [(refs[i].row, refs[i].col) for i in chosen])]
    return patterns, [[i] for i in _by_place(refs)]


def _by_place(refs: Sequence[CellRef]) -> list[int]:
    """Indices of ``refs`` by card, row and column: the order the taps came in changes
    nothing, not even the order in which a card keeps its marks."""
    return sorted(range(len(refs)), key=lambda i: (refs[i].card, refs[i].row, refs[i].col))


_MOVE_PART = re.compile(r"^move\.(cells|extra)(?:\.(\d+))?")


def _as_marks(violation: RuleViolation, main: Sequence[int], order: Sequence[int]
              ) -> RuleViolation:
    """A refusal of one reading, naming the cell as the phone sent it (``move.marks.<i>``)."""
    found = _MOVE_PART.match(violation.field or "")
    if not found:
        return violation
    part, position = found.groups()
    field = "move.marks"
    if position is not None:
        chosen = main if part == "cells" else order
        field += f".{chosen[int(position)]}" if int(position) < len(chosen) else ""
        field += (violation.field or "")[found.end():]
    return RuleViolation(violation.code, violation.message, field, **violation.params)


def read_marks(state: Mapping[str, Any], seat: int, refs: Sequence[CellRef]
               ) -> tuple[list[CellRef], list[CellRef]]:
    """The cells a seat marked this turn, read as (the marking, its extra marks in order).

    Every cell belongs to the marking or is an extra mark, so every legal reading marks the
    same cells and ticks the same symbols (the pattern first, §5.4; only a skull and a potion
    in different parts could resolve in another order, and the rules accept either, §14 #4).
    Readings are tried in this order: the revealed pattern, then a single cell. When none is
    legal, the refusal is the first pattern reading's, or the single cell's when only one cell
    was sent, or SGP_NOT_SHAPE."""
    patterns, singles = _readings(state, refs)
    first_refusal: RuleViolation | None = None
    for main in patterns + singles:
        rest = [i for i in _by_place(refs) if i not in main]
        order = _extra_order(state, seat, refs, main, rest)
        try:
            play_mark(state, seat, {"cells": [refs[i] for i in main],
                                    "extra": [refs[i] for i in order], "potion_first": None,
                                    "torch": None, "race": None, "completed": None})
        except RuleViolation as refusal:
            if first_refusal is None and (patterns or len(refs) == 1):
                first_refusal = _as_marks(refusal, main, order)
            continue
        return [refs[i] for i in main], [refs[i] for i in order]
    raise first_refusal or RuleViolation(
        "SGP_NOT_SHAPE", N_("These chambers are neither the revealed pattern nor one chamber, "
                            "with the extra marks its red crosses ask for."), "move.marks",
        shape=t.SHAPE_LABELS[state["shape"]])


def play_move(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> dict[str, Any]:
    """:func:`play_mark` for either way of saying the step (cells and extras, or all marks)."""
    if "marks" not in args:
        return play_mark(state, seat, args)
    cells, extra = read_marks(state, seat, args["marks"])
    return play_mark(state, seat, {**args, "cells": cells, "extra": extra})


def _completion_colours(state: Mapping[str, Any], completed: Sequence[int],
                        reported: Sequence[Mapping[str, Any]] | None) -> dict[int, str]:
    """The colour of each card this move completes: known (ours, the group's records) or
    reported. ``completed``, when given, must list exactly the cards whose tomb is marked."""
    if reported is not None and sorted(item["number"] for item in reported) != sorted(
            completed):
        raise RuleViolation("pyramids.completed_mismatch",
                            N_("The cards completed are the ones whose tomb this move marks: "
                               "%(cards)s."), "move.completed",
                            cards=", ".join(map(str, completed)) or "–")
    said = {item["number"]: (i, item.get("colour")) for i, item in enumerate(reported or ())}
    colours: dict[int, str] = {}
    for number in completed:
        known = card_colour(state, number)
        i, colour = said.get(number, (None, None))
        if known is not None and colour is not None and colour != known:
            raise RuleViolation("pyramids.wrong_colour", N_("Card %(number)d is %(colour)s."),
                                f"move.completed.{i}.colour", number=number,
                                colour=t.COLOUR_LABELS[known])
        colour = known or colour
        if colour is None:
            raise RuleViolation("pyramids.colour_needed",
                                N_("Say the colour of card %(number)d, which this move "
                                   "completes."), "move.completed", number=number)
        if known is None and _colour_full(state, colour, colours):
            raise RuleViolation("pyramids.too_many_of_colour",
                                N_("There are only 16 %(colour)s pyramid cards."),
                                f"move.completed.{i}.colour", colour=t.COLOUR_LABELS[colour])
        colours[number] = colour
    return colours


def _colour_known(state: Mapping[str, Any], colour: str, earlier: Mapping[int, str]) -> int:
    """How many cards of ``colour`` are known: from the group's records, every completed card
    (this step's included) and ``earlier`` (this move's)."""
    numbers = {n for n, c in enumerate(state["colours"] or ()) if c == colour}
    for player in state["players"]:
        numbers |= {card["number"] for card in player["completed"] if card["colour"] == colour}
    numbers |= {n for n, c in earlier.items() if c == colour}
    return len(numbers)


def _colour_full(state: Mapping[str, Any], colour: str, earlier: Mapping[int, str]) -> bool:
    """Whether 16 cards of ``colour`` are already known: from the group's records, every
    completed card (this step's included) and this move.

    The one place where a mark looks beyond its own seat (COLOUR_REPORTS_CONTRADICT): two
    reports that together give a colour a 17th card cannot both be true, so the later one is
    refused. In every situation the cards allow, the marks of a step still commute."""
    return _colour_known(state, colour, earlier) >= t.CARDS_PER_COLOUR


# --------------------------------------------------------------------------------------------
# Checks and changes of the moves
# --------------------------------------------------------------------------------------------


def _check_drawn(state: Mapping[str, Any], cards: Sequence[int], count: int) -> None:
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


def _check_deal_move(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    """§3 by the app: 4 different cards for every seat, seat by seat."""
    count = t.DEALT * len(state["names"])
    if len(args["cards"]) != count:
        raise RuleViolation("pyramids.deal_count",
                            N_("Deal %(count)d cards: 4 for every player."), "move.cards",
                            count=count)
    _check_drawn(state, args["cards"], count)


def _deal(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    cards = args["cards"]
    for s in range(len(d["names"])):
        d.own("players", s)["dealt"] = cards[t.DEALT * s:t.DEALT * (s + 1)]
    d["deck"] = [n for n in d["deck"] if n not in cards]
    d["marked"] = [False] * len(d["names"])
    d["phase"] = Phase.KEEP.value


def _check_keep(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    """§3: a player keeps 2 different cards of the 4 dealt to them."""
    cards = args["cards"]
    if len(cards) != t.KEPT:
        raise RuleViolation("pyramids.keep_count", N_("Keep exactly 2 of your 4 cards."),
                            "move.cards")
    for i, card in enumerate(cards):
        if card not in state["players"][seat]["dealt"] or cards.index(card) != i:
            raise RuleViolation("pyramids.kept_not_dealt",
                                N_("A player keeps 2 of the 4 cards dealt to them."),
                                f"move.cards.{i}")


def _keep(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    """The seat's 2 cards lie open; once every seat has kept, the returned cards go back to the
    deck (§3: shuffled with it) and the offer is turned up."""
    d.own("players", seat)["open"] = [_new_card(d.state, n) for n in args["cards"]]
    d.own("marked")[seat] = True
    if all(d["marked"]):
        kept = {card["number"] for player in d["players"] for card in player["open"]}
        d["deck"] = [n for n in range(1, t.CARD_COUNT + 1) if n not in kept]
        d["phase"] = Phase.OFFER.value


def _check_offer(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    _check_drawn(state, args["cards"], t.OFFER_SIZE)


def _offer(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    d["offer"] = list(args["cards"])
    d["deck"] = [n for n in d["deck"] if n not in args["cards"]]
    d["marked"] = [False] * len(d["names"])
    d["phase"] = Phase.REVEAL.value


def _check_reveal(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    if args["shape"] not in expedition_left(state):
        raise RuleViolation("pyramids.shape_not_in_deck",
                            N_("No %(shape)s expedition card is left in this round's deck."),
                            "move.shape", shape=t.SHAPE_LABELS[args["shape"]])


def _reveal(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    d["shape"] = args["shape"]
    d["revealed"] = d["revealed"] + [args["shape"]]
    d["phase"] = Phase.MARK.value
    for s, player in enumerate(d["players"]):
        if player["just"]:
            d.own("players", s)["just"] = []
    d["marked"] = [not must_mark(d.state, s) for s in range(len(d["names"]))]
    if all(d["marked"]):
        _close_turn(d)


def _check_mark(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    play_move(state, seat, args)


def _mark(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    d.own("players")[seat] = play_move(d.state, seat, args)
    d.own("marked")[seat] = True
    if all(d["marked"]):
        _close_turn(d)


def _check_pass(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    if not pass_allowed(state, seat):
        raise RuleViolation("SGP_NO_MOVE",
                            N_("A pattern or a single chamber can still be marked, so you must "
                               "mark."), "move.type")


def _pass(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    d.own("marked")[seat] = True
    if all(d["marked"]):
        _close_turn(d)


def _check_take(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    card = args["card"]
    if args["source"] == Source.OFFER and card not in state["offer"]:
        raise RuleViolation("pyramids.not_in_offer",
                            N_("Card %(number)d is not in the offer."), "move.card",
                            number=card)
    if args["source"] == Source.DECK and card not in state["deck"]:
        raise RuleViolation("pyramids.not_in_deck",
                            N_("Card %(number)d cannot come from the deck."), "move.card",
                            number=card)


def _take(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    """§7: one replacement; after the seat's last one, the offer is refilled (C1, C2)."""
    card, source = args["card"], args["source"]
    d[source] = [n for n in d[source] if n != card]
    player = d.own("players", seat)
    player["open"] = player["open"] + [_new_card(d.state, card)]
    pending = list(d["pending"])
    head = pending.pop(0)
    if head["left"] > 1:
        pending.insert(0, {**head, "left": head["left"] - 1})
    else:
        refill = min(t.OFFER_SIZE - len(d["offer"]), len(d["deck"]))
        if refill > 0:                                # C3: an empty deck refills nothing
            pending.insert(0, {"seat": seat, "kind": "refill", "count": refill})
    d["pending"] = pending
    _advance(d)


def _check_refill(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    _check_drawn(state, args["cards"], state["pending"][0]["count"])


def _refill(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    d["offer"] = d["offer"] + list(args["cards"])
    d["deck"] = [n for n in d["deck"] if n not in args["cards"]]
    d["pending"] = d["pending"][1:]
    _advance(d)


# --------------------------------------------------------------------------------------------
# Closing a turn: race (§8), replacements (§7), next turn (§4)
# --------------------------------------------------------------------------------------------


def _close_turn(d: Draft) -> None:
    """Every seat has marked: step 4 then step 3 of the spec (their order changes nothing,
    since the race depends only on the completions), then the next turn."""
    players = d["players"]
    for colour in t.COLOURS:
        claimants = []
        for seat, player in enumerate(players):
            this_turn = [card["number"] for card in player["completed"]
                         if card["colour"] == colour and card["number"] in player["just"]]
            if not this_turn:
                continue
            after = sum(1 for card in player["completed"] if card["colour"] == colour)
            crossed = thresholds_crossed(after - len(this_turn), after)     # R4, R5
            # §14 #9: a player who completed two cards of the colour claims with the lower
            claimants += [(min(this_turn), seat)] * crossed
        for seat, value in race_claims(claimants, len(d["race"][colour])):     # R1-R3
            d.own("race", colour).append(seat)
            d.own("players", seat, "race", colour).append(value)
    last_turn = d["round"] == t.ROUNDS and d["turn"] == t.TURNS_PER_ROUND
    order = sorted((min(player["just"]), seat) for seat, player in enumerate(d["players"])
                   if player["just"])
    # NO_REPLACEMENTS_AFTER_THE_LAST_TURN [house]: new cards could never be marked.
    d["pending"] = [] if last_turn else [
        {"seat": seat, "kind": "replace", "left": len(d["players"][seat]["just"])}
        for _, seat in order]                                          # §14 #8
    _advance(d)


def _advance(d: Draft) -> None:
    """The next pending replacement or refill that can happen (§14 #11: with offer and deck
    both empty a player goes without), or the next turn."""
    pending = d["pending"]
    while pending:
        head = pending[0]
        if head["kind"] == "replace" and (d["offer"] or d["deck"]):
            d["phase"] = Phase.REPLACE.value
            d["pending"] = pending
            return
        if head["kind"] == "refill":
            d["phase"] = Phase.REFILL.value
            d["pending"] = pending
            return
        pending = pending[1:]
    d["pending"] = []
    _next_turn(d)


def _next_turn(d: Draft) -> None:
    """§4: 7 turns a round (the 8th expedition card stays unused), 4 rounds, then the end."""
    turn, round_ = d["turn"] + 1, d["round"]
    if turn > t.TURNS_PER_ROUND:
        turn, round_ = 1, round_ + 1
        d["revealed"] = []                       # the 8 cards are shuffled for the new round
    d["shape"] = None
    d["marked"] = [False] * len(d["names"])
    if round_ > t.ROUNDS:
        d["phase"] = Phase.OVER.value
        return
    d["turn"], d["round"] = turn, round_
    d["phase"] = Phase.REVEAL.value


def _not_awaited(state: Mapping[str, Any], seat: int, rule: MoveRule) -> RuleViolation | None:
    if state["phase"] == Phase.KEEP and 0 <= seat < len(state["marked"]) and state["marked"][
            seat]:
        waiting = sorted(awaiting(state).seats)
        return RuleViolation("pyramids.already_kept",
                             N_("You have kept your cards; waiting for %(player)s."),
                             player=", ".join(state["names"][s] for s in waiting))
    if state["phase"] == Phase.MARK and 0 <= seat < len(state["marked"]) and state["marked"][
            seat]:
        waiting = sorted(awaiting(state).seats)
        return RuleViolation("pyramids.already_marked",
                             N_("You have marked this turn; waiting for %(player)s."),
                             player=", ".join(state["names"][s] for s in waiting))
    return None


REFEREE = Referee(
    GAME,
    (MoveRule(MoveKind.DEAL.value, MOVE_LABELS[MoveKind.DEAL], frozenset({Phase.DEAL}),
              _parse_numbers, _check_deal_move, _deal),
     MoveRule(MoveKind.KEEP.value, MOVE_LABELS[MoveKind.KEEP], frozenset({Phase.KEEP}),
              _parse_numbers, _check_keep, _keep),
     MoveRule(MoveKind.OFFER.value, MOVE_LABELS[MoveKind.OFFER], frozenset({Phase.OFFER}),
              _parse_numbers, _check_offer, _offer),
     MoveRule(MoveKind.REVEAL.value, MOVE_LABELS[MoveKind.REVEAL], frozenset({Phase.REVEAL}),
              _parse_reveal, _check_reveal, _reveal),
     MoveRule(MoveKind.MARK.value, MOVE_LABELS[MoveKind.MARK], frozenset({Phase.MARK}),
              _parse_mark, _check_mark, _mark),
     MoveRule(MoveKind.PASS.value, MOVE_LABELS[MoveKind.PASS], frozenset({Phase.MARK}),
              None, _check_pass, _pass),
     MoveRule(MoveKind.TAKE.value, MOVE_LABELS[MoveKind.TAKE], frozenset({Phase.REPLACE}),
              _parse_take, _check_take, _take),
     MoveRule(MoveKind.REFILL.value, MOVE_LABELS[MoveKind.REFILL], frozenset({Phase.REFILL}),
              _parse_refill, _check_refill, _refill)),
    phase_of=lambda state: state["phase"], awaited=awaiting, over=is_over,
    phase_labels=PHASE_LABELS, not_awaited=_not_awaited)


def apply(state: Mapping[str, Any], seat: int, move: Any) -> dict[str, Any]:
    """Referee ``move`` by ``seat``; the new state (``state`` is never changed)."""
    return REFEREE.apply(state, seat, move)


def validate(state: Mapping[str, Any], seat: int, move: Any) -> None:
    """Raise RuleViolation if ``seat`` may not make ``move`` now."""
    REFEREE.validate(state, seat, move)


# --------------------------------------------------------------------------------------------
# What phones are offered
# --------------------------------------------------------------------------------------------


def _cell(ref_card: int, cell: int) -> dict[str, int]:
    row, col = position(cell)
    return {"card": ref_card, "row": row, "col": col}


def _greedy_extras(state: Mapping[str, Any], player: Mapping[str, Any], first: int,
                   marks: dict[int, list], due: int) -> list[dict[str, Any]] | None:
    """Red-cross extra marks chosen the simplest way (the first legal cell, the card just
    marked first), so that a listed move is complete; None when a record card would need a
    report it cannot make up."""
    extras = []
    order = [first] + [card["number"] for card in player["open"] if card["number"] != first]
    while due:
        for number in order:
            grid = card_grid(state, number)
            if grid is None:
                codes = marks.setdefault(number, list(_marks(_card(player, number))))
                if len(codes) >= t.CELLS or not codes:
                    continue
                codes.append(t.Cell.FLOOR.value)
                extras.append({"card": number, "code": t.Cell.FLOOR.value})
                due -= 1
                break
            cells = marks.setdefault(number, list(_marks(_card(player, number))))
            free = legal_singles(grid, cells)
            if free:
                cells.append(free[0])
                extras.append(_cell(number, free[0]))
                due += (grid[free[0]] == t.Cell.RED_CROSS) - 1
                break
        else:
            return extras                      # §14 #5: nothing free, the obligation lapses
    return extras


def _card(player: Mapping[str, Any], number: int) -> Mapping[str, Any]:
    return next(card for card in player["open"] if card["number"] == number)


def _completion(state: Mapping[str, Any], numbers: Iterable[int]
                ) -> list[dict[str, Any]]:
    """``completed`` entries for cards a listed move completes (a colour with room when the
    card's colour is unknown)."""
    out = []
    chosen: dict[int, str] = {}
    for number in numbers:
        colour = card_colour(state, number)
        if colour is None:                       # the colour with the most room left
            colour = min(t.COLOURS, key=lambda c: _colour_known(state, c, chosen))
        chosen[number] = colour
        out.append({"number": number, "colour": colour})
    return out


def _layout_moves(state: Mapping[str, Any], seat: int, card: Mapping[str, Any]
                  ) -> list[dict[str, Any]]:
    player = state["players"][seat]
    number = card["number"]
    grid = card_grid(state, number)
    shape = state["shape"]
    options = [list(cells) for cells in legal_placements(grid, card["cells"], shape)]
    options += [[cell] for cell in legal_singles(grid, card["cells"])]
    moves = []
    for cells in options:
        marks = {number: list(card["cells"]) + cells}
        due = sum(1 for cell in cells if grid[cell] == t.Cell.RED_CROSS)
        extras = _greedy_extras(state, player, number, marks, due) if due else []
        if extras is None:
            continue
        move: dict[str, Any] = {"type": MoveKind.MARK.value,
                                "cells": [_cell(number, cell) for cell in cells]}
        if extras:
            move["extra"] = extras
        done = [n for n, m in marks.items() if _completes(state, player, n, m)]
        if done:
            move["completed"] = _completion(state, done)
        moves.append(move)
    return moves


def _completes(state: Mapping[str, Any], player: Mapping[str, Any], number: int,
               marks: Sequence) -> bool:
    grid = card_grid(state, number)
    before = _marks(_card(player, number))
    if grid is None:
        return t.Cell.TOMB in marks and t.Cell.TOMB not in before
    return tomb(grid) in marks and tomb(grid) not in before


def _record_moves(state: Mapping[str, Any], seat: int, card: Mapping[str, Any]
                  ) -> list[dict[str, Any]]:
    """Representative reports for a record card: the layout is unknown, so a plain pattern
    (with the entrance on a fresh card), a single chamber, and the tomb once the card has a
    few marks."""
    number, codes = card["number"], card["codes"]
    size = SHAPE_SIZES[state["shape"]]
    fresh = not codes
    reports = []
    if len(codes) + size <= t.CELLS:
        reports.append([t.Cell.ENTRANCE.value] * fresh + [t.Cell.FLOOR.value] * (size - fresh))
    if len(codes) < t.CELLS:
        reports.append([t.Cell.ENTRANCE.value if fresh else t.Cell.FLOOR.value])
    if not fresh and t.Cell.TOMB not in codes and len(codes) >= 3 and len(codes) < t.CELLS:
        reports.append([t.Cell.TOMB.value])
    moves = []
    for report in reports:
        move: dict[str, Any] = {"type": MoveKind.MARK.value,
                                "cells": [{"card": number, "code": code} for code in report]}
        if t.Cell.TOMB in report:
            move["completed"] = _completion(state, [number])
        moves.append(move)
    return moves


def legal_moves(state: Mapping[str, Any], seat: int) -> list[dict[str, Any]]:
    """Concrete legal moves for ``seat``: every pattern placement and single cell on a card
    refereed cell by cell (each with the simplest red-cross extras), representative reports
    for record cards, every card of the offer and of the deck for a replacement, one refill."""
    if is_over(state) or seat not in awaiting(state).seats:
        return []
    phase = state["phase"]
    if phase == Phase.DEAL:
        return [{"type": MoveKind.DEAL.value,
                 "cards": state["deck"][:t.DEALT * len(state["names"])]}]
    if phase == Phase.KEEP:
        return [{"type": MoveKind.KEEP.value, "cards": list(pair)}
                for pair in combinations(state["players"][seat]["dealt"], t.KEPT)]
    if phase == Phase.OFFER:
        return [{"type": MoveKind.OFFER.value, "cards": state["deck"][:t.OFFER_SIZE]}]
    if phase == Phase.REVEAL:
        return [{"type": MoveKind.REVEAL.value, "shape": code}
                for code in sorted(expedition_left(state))]
    if phase == Phase.MARK:
        moves = []
        for card in state["players"][seat]["open"]:
            moves += (_layout_moves(state, seat, card) if "cells" in card
                      else _record_moves(state, seat, card))
        if pass_allowed(state, seat):
            moves.append({"type": MoveKind.PASS.value})
        return moves
    if phase == Phase.REPLACE:
        return ([{"type": MoveKind.TAKE.value, "source": Source.OFFER.value, "card": n}
                 for n in state["offer"]]
                + [{"type": MoveKind.TAKE.value, "source": Source.DECK.value, "card": n}
                   for n in state["deck"]])
    count = state["pending"][0]["count"]
    return [{"type": MoveKind.REFILL.value, "cards": state["deck"][:count]}]


def _card_view(state: Mapping[str, Any], card: Mapping[str, Any]) -> dict[str, Any]:
    number = card["number"]
    grid = card_grid(state, number)
    shown: dict[str, Any] = {"number": number, "colour": card_colour(state, number),
                             "record": grid is None}
    if grid is None:
        shown["codes"] = list(card["codes"])
    else:
        shown["grid"] = [grid[r * t.GRID:(r + 1) * t.GRID] for r in range(t.GRID)]
        shown["marked"] = [list(position(cell)) for cell in card["cells"]]
        shown["singles"] = [list(position(cell)) for cell in legal_singles(grid, card["cells"])]
        shown["pattern_fits"] = bool(state["shape"]) and bool(
            legal_placements(grid, card["cells"], state["shape"]))
    return shown


def prompts(state: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """What this phone may do now, and what it shows: the revealed shape, its cards with the
    chambers a single mark may take, who is still marking, the offer; ``draw`` says the app may
    draw what the table awaits for this seat (:func:`chance`)."""
    waiting = awaiting(state)
    phase = state["phase"]
    if seat not in waiting.seats:
        if phase in (Phase.MARK, Phase.KEEP):
            return {"moves": [], "still_marking": sorted(waiting.seats)}
        return {"moves": []}
    luck = chance(state)
    draw = {"draw": True} if luck is not None and seat in luck.seats else {}
    if phase == Phase.DEAL:
        return {"moves": [MoveKind.DEAL.value], "count": t.DEALT * len(state["names"]),
                **draw}
    if phase == Phase.KEEP:
        return {"moves": [MoveKind.KEEP.value], "step": waiting.step,
                "dealt": [_card_view(state, _new_card(state, n))
                          for n in state["players"][seat]["dealt"]],
                "still_marking": sorted(waiting.seats)}
    if phase == Phase.OFFER:
        return {"moves": [MoveKind.OFFER.value], "count": t.OFFER_SIZE, **draw}
    if phase == Phase.REVEAL:
        return {"moves": [MoveKind.REVEAL.value],
                "shapes": [[code, n] for code, n in sorted(expedition_left(state).items())],
                **draw}
    if phase == Phase.MARK:
        player = state["players"][seat]
        moves = [MoveKind.MARK.value] + ([MoveKind.PASS.value] if pass_allowed(state, seat)
                                         else [])
        return {"moves": moves, "step": waiting.step, "shape": state["shape"],
                "size": SHAPE_SIZES[state["shape"]],
                "cards": [_card_view(state, card) for card in player["open"]],
                "still_marking": sorted(waiting.seats)}
    if phase == Phase.REPLACE:
        return {"moves": [MoveKind.TAKE.value], "offer": list(state["offer"]),
                "deck": len(state["deck"]), "left": state["pending"][0]["left"], **draw}
    return {"moves": [MoveKind.REFILL.value], "count": state["pending"][0]["count"],
            "deck": len(state["deck"]), **draw}


def chance(state: Mapping[str, Any]) -> Chance | None:
    """The physical outcome awaited: the expedition card (any seat reveals it), a blind draw
    from the pyramid deck, the cards that refill the offer, or (dealt by the app) the deal and
    the first offer."""
    phase = state["phase"]
    everyone = frozenset(range(len(state["names"])))
    if phase in (Phase.DEAL, Phase.OFFER):
        count = t.DEALT * len(state["names"]) if phase == Phase.DEAL else t.OFFER_SIZE
        kind = MoveKind.DEAL if phase == Phase.DEAL else MoveKind.OFFER
        return Chance({"type": kind.value}, "cards", tuple((n, 1) for n in state["deck"]),
                      everyone, draws=count)
    if phase == Phase.REVEAL:
        return Chance({"type": MoveKind.REVEAL.value}, "shape",
                      tuple(sorted(expedition_left(state).items())), everyone)
    if phase in (Phase.REPLACE, Phase.REFILL) and state["deck"]:
        head = state["pending"][0]
        outcomes = tuple((n, 1) for n in state["deck"])
        if phase == Phase.REPLACE:
            return Chance({"type": MoveKind.TAKE.value, "source": Source.DECK.value}, "card",
                          outcomes, frozenset({head["seat"]}))
        return Chance({"type": MoveKind.REFILL.value}, "cards", outcomes,
                      frozenset({head["seat"]}), draws=head["count"])
    return None


def view(state: Mapping[str, Any], seat: int | None) -> dict[str, Any]:
    """The deck lies face down (its size is public, not its cards) and only a seat itself saw
    the cards it was dealt. ``faces`` gives what lies face up (the open, completed and offered
    cards, and this seat's cards dealt): each card's colour and, when it is refereed cell by
    cell, its grid (5 rows), so that a phone can draw it."""
    shown = dict(state)
    shown["deck"] = None
    shown["deck_size"] = len(state["deck"])
    shown["players"] = [player if s == seat else {**player, "dealt": None}
                        for s, player in enumerate(state["players"])]
    numbers = set(state["offer"])
    for s, player in enumerate(state["players"]):
        numbers |= {card["number"] for card in player["open"] + player["completed"]}
        if s == seat:
            numbers |= set(player["dealt"])
    shown["faces"] = {str(n): face(state, n) for n in sorted(numbers)}
    return shown


def face(state: Mapping[str, Any], number: int) -> dict[str, Any]:
    """What a pyramid card shows: its colour (None when unknown) and its 5 rows of cell codes
    (None for a card played in record mode)."""
    grid = card_grid(state, number)
    return {"colour": card_colour(state, number),
            "grid": [grid[r * t.GRID:(r + 1) * t.GRID] for r in range(t.GRID)] if grid else None}


# --------------------------------------------------------------------------------------------
# Scoring (§9): the same score_game score-only mode uses
# --------------------------------------------------------------------------------------------


def _tallies(state: Mapping[str, Any]) -> list[PlayerTally]:
    penalties = state["penalties"]
    return [PlayerTally(
        name=name,
        completed=tuple((card["number"], card["colour"]) for card in player["completed"]),
        torches=tuple(player["torches"]),
        race={colour: tuple(values) for colour, values in player["race"].items()},
        red_gems=player["red"], green_gems=player["green"],
        worst_skull_penalty=worst_penalty(player["skulls"], penalties))
        for name, player in zip(state["names"], state["players"])]


def _assumed(state: Mapping[str, Any]) -> list[Assumption]:
    """The skull penalties are an assumption when the published cards are played with the
    default table and some player has a skull ticked."""
    if state["penalties_assumed"] and any(p["skulls"] for p in state["players"]):
        return [Assumption("skull_penalties", LABELS["skull_penalties"],
                           list(state["penalties"]))]
    return []


def score(state: Mapping[str, Any]) -> Scoresheet:
    """The Scoresheet of the game so far (complete once it is over)."""
    return score_game(_tallies(state), complete=is_over(state), assumed=_assumed(state))


def final_document(state: Mapping[str, Any]) -> dict[str, Any]:
    """The score-only document (final.py) describing this game; the skull penalties are
    named unless they are the unconfirmed default."""
    players = []
    for name, player in zip(state["names"], state["players"]):
        players.append({
            "name": name,
            "completed": [dict(card) for card in player["completed"]],
            "torches": list(player["torches"]),
            "race": {colour: list(values) for colour, values in player["race"].items()},
            "red_gems": player["red"], "green_gems": player["green"],
            "worst_skull_penalty": worst_penalty(player["skulls"], state["penalties"]),
            "skulls": player["skulls"],
        })
    document: dict[str, Any] = {"game": GAME, "players": players}
    if not state["penalties_assumed"]:
        document["edition"] = {"skull_penalties": list(state["penalties"])}
    return document
