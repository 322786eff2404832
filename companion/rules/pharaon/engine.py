"""Pharaon live-play referee: set-up, every move of spec §4, rounds, the Traitor, the end.

Implements spec shared/rules/pharaon.md on the shared referee skeleton (referee.py):

* §3 set-up: the board (areas clockwise, the wheel's colour facing each area in round 1, the
  turning direction), the first player, the gods (or later), the physical start as chance
  inputs (jars, offerings, nobles, artisans) and the starting picks in counter-clockwise order
  (move ``start_pick``); §3.3 two players and §3.4 solo, the Traitor's tiles;
* §4.1-§4.3 area actions (move ``action``) with declared payments (payment.py): entry on the
  first free usable spot of the facing segment (the "4+" spot only at 4-5 players), the
  one-token deduction, silver that stays the kind it was laid as, area offerings only in their
  area, Scribe pairs, nobles 7-10 (entry by its own colour), 11 (Judge) and 13-16 (full area);
  the five areas' effects; §4.4 pass (jar choice, pyramid row, the General), §4.5 pyramid steps
  (move ``step``), exchanges of nobles 17-18 (move ``exchange``, or with a pass), nobles 19-20
  when a jar is gained (move ``jar_gain``), acquisition effects 21-26 (move ``noble_effect``);
* §4.7 succession after every move; §4.8 round end (wheel cleared, 2-player/solo blocking,
  offerings topped up with the bag cycle of §2.3, the wheel turned, nobles upright, new jars,
  the Traitor's stack); five rounds; then any missing printed value (gods, tomb points) is
  entered (move ``enter_values``) and the game is over;
* §7 the Traitor, run by the engine (his turns are automatic; the human enters his jar and
  makes the choices the rules give the human: moves ``traitor_colours``, ``traitor_board``,
  ``traitor_reward``).

**The Traitor is an actor, not a seat.** Per-player lists in the state (``players``) are
indexed by *actor*: seats 0..n-1, and in solo the Traitor at index n (= 1). He holds pieces,
cards and tokens like a player (spec §7.1 "Traitor area"), takes turns in the clockwise order,
can hold the first-player and Pharaoh tokens and is ranked on the Scoresheet (after the seats),
but he is never awaited: every input his turn needs is asked of seat 0, and a move made for
seat 1 is refused. That keeps one code path for holdings, turn order, succession and scoring.

Physical randomness is input (design.md §2): each jar, noble, artisan and offering that comes
up is a move (``draw_jars``, ``draw_nobles``, ``draw_artisans``, ``draw_offerings``, and in solo
``draw_traitor_tiles``, ``draw_traitor_colours``) checked against what is left; :func:`chance`
describes the one awaited. Every refusal is a
RuleViolation with the spec's ``PH_E_…`` code or ``pharaon.<snake_case>``; a refused move
changes nothing (the referee's Draft copies on write). The state is plain JSON.

State layout (per-actor values are lists indexed by actor)::

    names, actors      seat names; actor names (the Traitor's last, in solo)
    seats, traitor     number of seats; the Traitor's actor index or None
    options, rules     the table's options; the printed values in force (edition.py)
    assumed            edition keys at an unconfirmed default that the refereeing relies on
    board              {areas (clockwise), gods (None until entered), direction,
                        entry_colours (round 1, per area)}
    round, phase       1-5; "start" | "play" | "values" | "over"
    turn, first_player, pharaoh      actors (pharaoh None until claimed)
    bank, stand_ins    resource tokens per kind in the bank; Traitor stand-ins in play (Q10)
    wheel              {segment colour: [spot × 4]}, a spot None or {token, actor, stand_in}
                       (actor None: a 2-player/solo blocking token)
    bag, offer_discard offering tokens per code; pairs [[token, token] | []], bonus [token]
    noble_deck (unordered), noble_bottom (Q15), noble_display [card | None] × 3,
    noble_discard, start_rejected
    artisan_deck (count), artisan_display [card | None] × 4, artisan_discard,
    artisans_seen (for the catalogue check); a card is {points, gains, jar}
    jar_supply (count), jar_display [[TL, TR, B]], jar_discard
    players            [{res, off, nobles, used (once-per-round nobles used), artisans,
                         nile [level × 5, tables.BASIC order], tomb (steps), passed, row,
                         space, done, start_noble}]
    traitor_board      solo: see traitor.py
    tomb_points        {steps: points} entered during play or at the end
    pass_count, pending, warnings    passers this round; the queue of steps (the head is
                       what the game waits for); PH_W_BANK_SHORT notes
    traitor_log        solo: what the Traitor did and why, a line per step of his turns
                       ({round, turn, event, ...}; :class:`TraitorEvent`), for the phone

Solo set-up (§3.4): the tiles' order and the columns' colours come from the set-up form, or,
with ``traitor_draw``, as two chance inputs (moves ``draw_traitor_tiles``,
``draw_traitor_colours``) that the table enters or the app draws before anything else.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping as _Mapping   # isinstance: faster than typing's alias
from enum import StrEnum
from typing import Any, Callable, Iterable, Mapping, Sequence

from ..base import (Assumption, Awaiting, Chance, Edition, N_, RuleViolation, Scoresheet, Term)
from ..referee import Draft, MoveRule, Referee, choice_arg, int_arg, is_int
from . import printed as t
from . import traitor as tr
from .edition import EDITION, SCORING_KEYS, arrow_tracks, check_artisan, parse_symbol
from .payment import (CostVerdict, PayContext, area_pattern, cost_problem, declarable_kinds,
                      entry_kinds, propose_payment, scribe_partners)
from .scoring import Board, God, Half, PlayerTally, score_game

GAME = "pharaon"


class MoveKind(StrEnum):
    """The ``type`` of a move."""

    DRAW_JARS = "draw_jars"              # chance: jars that came up (display, flip, Traitor)
    DRAW_NOBLES = "draw_nobles"          # chance: nobles revealed or drawn
    DRAW_ARTISANS = "draw_artisans"      # chance: artisans revealed or drawn
    DRAW_OFFERINGS = "draw_offerings"    # chance: offerings from the bag
    DRAW_TRAITOR_TILES = "draw_traitor_tiles"      # chance: the Traitor tiles' order (§3.4)
    DRAW_TRAITOR_COLOURS = "draw_traitor_colours"  # chance: his columns' colours (§3.4)
    START_PICK = "start_pick"            # §3.2 step 8: a jar and the starting noble
    ACTION = "action"                    # §4.3 move A
    PASS = "pass"                        # §4.4 move B
    STEP = "step"                        # §4.5 pyramid step (also the General's, §4.4 step 3)
    SKIP_STEP = "skip_step"              # the General's step is optional
    EXCHANGE = "exchange"                # §4.5 move C, nobles 17-18
    JAR_GAIN = "jar_gain"                # nobles 19-20 when a jar is gained
    NOBLE_EFFECT = "noble_effect"        # nobles 21-26 on acquisition
    TRAITOR_COLOURS = "traitor_colours"  # Q9: the human picks colours for silver on his jar
    TRAITOR_BOARD = "traitor_board"      # §7.2: the human picks which top token goes on the wheel
    TRAITOR_REWARD = "traitor_reward"    # §7.4, Q5: the human picks his pyramid reward
    ENTER_VALUES = "enter_values"        # gods and tomb points still missing at the end


class Phase(StrEnum):
    """What the game waits for (the head of the pending queue, or a turn)."""

    TURN = "turn"
    VALUES = "values"
    OVER = "over"
    DRAW_JARS = "draw_jars"
    DRAW_NOBLES = "draw_nobles"
    DRAW_ARTISANS = "draw_artisans"
    DRAW_OFFERINGS = "draw_offerings"
    DRAW_TRAITOR_TILES = "draw_traitor_tiles"
    DRAW_TRAITOR_COLOURS = "draw_traitor_colours"
    START_PICK = "start_pick"
    GENERAL = "general"
    JAR_GAIN = "jar_gain"
    NOBLE_EFFECT = "noble_effect"
    TRAITOR_COLOURS = "traitor_colours"
    TRAITOR_BOARD = "traitor_board"
    TRAITOR_REWARD = "traitor_reward"


INPUT_STEPS = frozenset(p.value for p in Phase) - {"turn", "values", "over"}
CHANCE_STEPS = frozenset({"draw_jars", "draw_nobles", "draw_artisans", "draw_offerings",
                          "draw_traitor_tiles", "draw_traitor_colours"})

OPTION_DEFAULTS: Mapping[str, Any] = {
    "traitor_dark_tiles": 0,                    # §7.6 difficulty: 0-5 dark tiles
    "nile_top_cumulative": False,               # Q1
    "traitor_artisan_take_2": "highest",        # Q3
    "traitor_artisan_discard": "highest",       # Q3
    "traitor_pass_timing": "empty_stack_turn",  # Q4
    "traitor_pyramid_reward": "reached",        # Q5
    "traitor_start_noble_counts": True,         # Q7
    "traitor_column_tokens_score": False,       # Q8
    "point_offerings_spendable": False,         # Q12
    "reject_overpayment": True,                 # Q13
    "starting_silver": 2,                       # Q15
    "rejected_nobles": "reshuffle",             # Q15
    "seer_on_offerings": True,                  # Q18
    "bank_short": "cut",                        # Q17: "cut" (warning) or "refuse"
}

MOVE_LABELS: Mapping[str, Term] = {
    "draw_jars": Term(N_("enter the jars that came up")),
    "draw_nobles": Term(N_("enter the nobles that came up")),
    "draw_artisans": Term(N_("enter the artisans that came up")),
    "draw_offerings": Term(N_("enter the offerings drawn")),
    "draw_traitor_tiles": Term(N_("enter the order of the Traitor tiles")),
    "draw_traitor_colours": Term(N_("enter the colours of the Traitor's columns")),
    "start_pick": Term(N_("take a starting jar and noble")),
    "action": Term(N_("take an area action")),
    "pass": Term(N_("pass")),
    "step": Term(N_("step on the pyramid")),
    "skip_step": Term(N_("skip the General's step")),
    "exchange": Term(N_("exchange a token")),
    "jar_gain": Term(N_("use the Teacher or the Diplomat")),
    "noble_effect": Term(N_("resolve a noble's effect")),
    "traitor_colours": Term(N_("pick the Traitor's colours")),
    "traitor_board": Term(N_("pick the Traitor's token for the wheel")),
    "traitor_reward": Term(N_("pick the Traitor's reward")),
    "enter_values": Term(N_("enter the printed values")),
}
WAITING_LABELS: Mapping[str, Term] = {
    "turn": Term(N_("a turn")),
    "values": Term(N_("the printed values still missing")),
    "draw_jars": Term(N_("the jars that came up")),
    "draw_nobles": Term(N_("the nobles that came up")),
    "draw_artisans": Term(N_("the artisans that came up")),
    "draw_offerings": Term(N_("the offerings drawn")),
    "draw_traitor_tiles": Term(N_("the order of the Traitor tiles")),
    "draw_traitor_colours": Term(N_("the colours of the Traitor's columns")),
    "start_pick": Term(N_("a starting pick")),
    "general": Term(N_("the General's pyramid step")),
    "jar_gain": Term(N_("the Teacher's or Diplomat's choice")),
    "noble_effect": Term(N_("a noble's effect")),
    "traitor_colours": Term(N_("the colours of the Traitor's silver")),
    "traitor_board": Term(N_("the Traitor's token for the wheel")),
    "traitor_reward": Term(N_("the Traitor's reward")),
}


# --------------------------------------------------------------------------------------------
# Small queries
# --------------------------------------------------------------------------------------------


def _actors(state: Mapping[str, Any]) -> int:
    return len(state["players"])


def _is_traitor(state: Mapping[str, Any], actor: int) -> bool:
    return state["traitor"] is not None and actor == state["traitor"]


def _player_count(state: Mapping[str, Any]) -> int:
    """The player count of the §3.1 table (1 = solo)."""
    return state["seats"]


def facing(state: Mapping[str, Any], round_number: int | None = None) -> list[str]:
    """The wheel colour facing each area (board order) in a round: the round-1 colours turned
    one area per round in the game's direction (spec §3.2 step 3, §4.8 step 4)."""
    board = state["board"]
    shift = (round_number or state["round"]) - 1
    colours = board["entry_colours"]
    sign = 1 if board["direction"] == "cw" else -1
    return [colours[(i - sign * shift) % 5] for i in range(5)]


def entry_colour(state: Mapping[str, Any], area: str) -> str:
    """The wheel colour facing ``area`` this round (one item of :func:`facing`)."""
    board = state["board"]
    sign = 1 if board["direction"] == "cw" else -1
    return board["entry_colours"][(board["areas"].index(area) - sign * (state["round"] - 1)) % 5]


def usable_spots(state: Mapping[str, Any]) -> list[int]:
    """Spot indices usable this game, left to right: the "4+" spot only at 4-5 players."""
    return list(_usable_spots(state["rules"]["four_plus_spot"], _player_count(state)))


_USABLE: dict[tuple[int, int], tuple[int, ...]] = {}


def _usable_spots(four_plus_spot: int, players: int) -> tuple[int, ...]:
    """:func:`usable_spots` as a tuple, remembered per (printed "4+" spot, player count)."""
    key = (four_plus_spot, players)
    spots = _USABLE.get(key)
    if spots is None:
        listed = list(range(t.SPOTS_PER_SEGMENT))
        if t.USABLE_SPOTS[players] < t.SPOTS_PER_SEGMENT:
            listed.remove(four_plus_spot - 1)
        spots = _USABLE[key] = tuple(listed)
    return spots


def free_spot(state: Mapping[str, Any], colour: str) -> int | None:
    """The first free usable spot from the left on the segment of ``colour``."""
    segment = state["wheel"][colour]
    for spot in _usable_spots(state["rules"]["four_plus_spot"], state["seats"]):
        if segment[spot] is None:
            return spot
    return None


def free_spots(state: Mapping[str, Any], colour: str) -> int:
    segment = state["wheel"][colour]
    return sum(1 for spot in _usable_spots(state["rules"]["four_plus_spot"], state["seats"])
               if segment[spot] is None)


def _owns(state: Mapping[str, Any], actor: int, card: int) -> bool:
    return card in state["players"][actor]["nobles"]


def _full_area_noble(state: Mapping[str, Any], actor: int, area: str) -> int | None:
    """An unused noble 13-16 letting ``actor`` use ``area`` although it is full."""
    player = state["players"][actor]
    for card, where in t.FULL_AREA_NOBLES.items():
        if where == area and card in player["nobles"] and card not in player["used"]:
            return card
    return None


def _pay_context(state: Mapping[str, Any], actor: int, area: str) -> PayContext:
    player = state["players"][actor]
    rules = state["rules"]
    pairs = [rules["scribes"][card - 1]["pair"] for card in player["nobles"]
             if card in t.SCRIBES]
    own = any(rules["entry_noble_areas"][str(card)] == area for card in player["nobles"]
              if card in t.ENTRY_NOBLES)
    return PayContext(area=area, entry_colour=entry_colour(state, area),
                      partners=scribe_partners(pairs), own_colour_entry=own,
                      point_offerings_spendable=state["options"]["point_offerings_spendable"])


def holdings(state: Mapping[str, Any], actor: int) -> dict[str, int]:
    """Every token ``actor`` holds: resources and offerings by code."""
    player = state["players"][actor]
    return {**{k: n for k, n in player["res"].items() if n},
            **{k: n for k, n in player["off"].items() if n}}


def tomb_length(state: Mapping[str, Any]) -> int:
    return len(state["rules"]["tomb_track"])


def tomb_space(state: Mapping[str, Any], step: int) -> Mapping[str, Any]:
    """The printed data of the tomb space reached after ``step`` steps (1-based)."""
    return state["rules"]["tomb_track"][step - 1]


def tomb_points_known(state: Mapping[str, Any], step: int) -> int | None:
    """The points of the tomb space after ``step`` steps, if known (0 on the start space)."""
    if step == 0:
        return 0
    printed = tomb_space(state, step)["points"]
    if printed is not None:
        return printed
    return state["tomb_points"].get(str(step))


def nile_mode(state: Mapping[str, Any]) -> str:
    """"catalogue" when the group entered the five Nile actions, else "confirm" (U3)."""
    return "catalogue" if state["rules"]["nile_actions"] else "confirm"


def pyramid_row(state: Mapping[str, Any], row: int) -> list[str | None]:
    return state["rules"]["pyramid_rows"][row]


def is_over(state: Mapping[str, Any]) -> bool:
    return state["phase"] == Phase.OVER


def _head(state: Mapping[str, Any]) -> Mapping[str, Any] | None:
    pending = state["pending"]
    return pending[0] if pending else None


def phase_of(state: Mapping[str, Any]) -> str:
    phase = state["phase"]
    if phase == "over" or phase == "values":        # Phase.OVER, Phase.VALUES
        return phase
    pending = state["pending"]
    return pending[0]["kind"] if pending else "turn"


def awaiting(state: Mapping[str, Any]) -> Awaiting:
    """Whose input is due: the head step's seat, the turn's seat, or every seat while the
    missing printed values are entered (a simultaneous step: the entries commute)."""
    phase = state["phase"]
    if phase == "over":                             # Phase.OVER
        return Awaiting()
    if phase == "values":                           # Phase.VALUES
        return Awaiting(frozenset(range(state["seats"])), step="values")
    pending = state["pending"]
    return _awaiting_one(pending[0]["seat"] if pending else state["turn"])


_AWAITING_ONE: dict[Any, Awaiting] = {}


def _awaiting_one(seat: int | None) -> Awaiting:
    """``Awaiting.one(seat)``, one shared (frozen) instance per seat: it is asked before
    every move."""
    found = _AWAITING_ONE.get(seat)
    if found is None:
        found = Awaiting.one(seat)
        if seat is None or is_int(seat):
            _AWAITING_ONE[seat] = found
    return found


def _status(player: Mapping[str, Any]) -> str:
    """active (not passed), stepping (passed, still on a row) or done."""
    if not player["passed"]:
        return "active"
    return "done" if player["done"] else "stepping"


# --------------------------------------------------------------------------------------------
# Draft helpers (state changes)
# --------------------------------------------------------------------------------------------


def _push_front(d: Draft, *steps: Mapping[str, Any]) -> None:
    d["pending"] = list(steps) + list(d["pending"])


def _push(d: Draft, *steps: Mapping[str, Any]) -> None:
    d["pending"] = list(d["pending"]) + list(steps)


def _pop(d: Draft) -> Mapping[str, Any]:
    pending = list(d["pending"])
    head = pending.pop(0)
    d["pending"] = pending
    return head


def _warn(d: Draft, code: str, **params: Any) -> None:
    d["warnings"] = list(d["warnings"]) + [{"code": code, "round": d["round"], **params}]


def _gain(d: Draft, actor: int, kind: str, count: int = 1) -> int:
    """Take ``count`` tokens of ``kind`` from the bank; a gain is cut to what the bank holds
    (spec §2.2, Q17: the action stays legal, warning PH_W_BANK_SHORT)."""
    if count <= 0:
        return 0
    bank = d["bank"]
    taken = min(count, bank[kind])
    if taken < count:
        _warn(d, "PH_W_BANK_SHORT", actor=actor, kind=kind, short=count - taken)
    if taken:
        d.own("bank")[kind] -= taken
        d.own("players", actor, "res")[kind] += taken
    return taken


def _spend(d: Draft, actor: int, token: str) -> None:
    """A token leaves the actor: resources go to the bank, offerings to the discard pile."""
    if token in t.KINDS:
        d.own("players", actor, "res")[token] -= 1
        d.own("bank")[token] += 1
    else:
        d.own("players", actor, "off")[token] -= 1
        d.own("offer_discard")[token] += 1


def _lay_on_wheel(d: Draft, actor: int | None, token: str, colour: str, spot: int,
                  from_bank: bool = False) -> None:
    """Put a token on a wheel spot: from the actor's supply, or (Traitor, blocking) from the
    bank, with a stand-in when the bank has none (Q10, Traitor only)."""
    stand_in = False
    if from_bank:
        if d["bank"][token] > 0:
            d.own("bank")[token] -= 1
        else:
            stand_in = True
            d.own("stand_ins")[token] += 1
    elif token in t.KINDS:
        d.own("players", actor, "res")[token] -= 1
    else:
        d.own("players", actor, "off")[token] -= 1
    d.own("wheel", colour)[spot] = {"token": token, "actor": actor, "stand_in": stand_in}


def _table_seat(state: Mapping[str, Any]) -> int:
    """Who enters the table's own draws: the first player, or seat 0 when that is the
    Traitor."""
    holder = state["first_player"]
    return 0 if _is_traitor(state, holder) else holder


def _seat_of(state: Mapping[str, Any], actor: int) -> int:
    """The seat that answers for ``actor``: itself, or seat 0 for the Traitor."""
    return 0 if _is_traitor(state, actor) else actor


# --------------------------------------------------------------------------------------------
# Pools of what is still unseen (chance inputs are checked against them)
# --------------------------------------------------------------------------------------------


def _jar_key(jar: Sequence[str]) -> tuple[str, ...]:
    return tuple(jar)


def _artisan_key(card: Mapping[str, Any]) -> tuple[Any, ...]:
    return (card["points"], tuple(sorted(card["gains"].items())), card["jar"])


def jar_pool(state: Mapping[str, Any]) -> Counter:
    """The jars that may come up: the catalogue less every jar face up or discarded."""
    pool = Counter(_jar_key(j) for j in state["rules"]["jar_tiles"])
    pool.subtract(Counter(_jar_key(j) for j in state["jar_display"]))
    pool.subtract(Counter(_jar_key(j) for j in state["jar_discard"]))
    return +pool


def artisan_pool(state: Mapping[str, Any]) -> Counter:
    pool = Counter(_artisan_key(c) for c in state["rules"]["artisan_cards"])
    pool.subtract(Counter(_artisan_key(c) for c in state["artisans_seen"]))
    return +pool


def _artisan_from_key(key: tuple[Any, ...]) -> dict[str, Any]:
    points, gains, jar = key
    return {"points": points, "gains": dict(gains), "jar": jar}


# --------------------------------------------------------------------------------------------
# Set-up (§3)
# --------------------------------------------------------------------------------------------


def _refuse_setup(code: str, message: str, field: str, **params: Any) -> RuleViolation:
    return RuleViolation(code, message, field, **params)


def _rules_from_edition(edition: Edition) -> tuple[dict[str, Any], list[str]]:
    """The printed values this table plays with, and those at an unconfirmed default."""
    values = dict(edition.values)
    rules = {key: values.get(key) for key in
             ("scribes", "entry_noble_areas", "court_icons", "bank_size", "wheel_colours",
              "four_plus_spot", "nile_actions", "tomb_track", "pyramid_rows", "jar_tiles",
              "artisan_cards", "traitor_tiles", "god_halves")}
    rules["jars_checked"] = "jar_tiles" not in edition.defaults
    rules["artisans_checked"] = "artisan_cards" not in edition.defaults
    assumed = [key for key in edition.defaults if values.get(key) is not None]
    return rules, assumed


def _gods_from(setup: Mapping[str, Any], rules: Mapping[str, Any], areas: Sequence[str]
               ) -> list[dict[str, Any]] | None:
    """The gods of this board: entered at set-up, or built from the group's god halves
    (god g: the clockwise half of areas[g] and the counter-clockwise half of areas[g+1])."""
    entered = [g for g in setup.get("gods") or () if not _blank_god(g)]
    if entered:
        return [{"name": g.get("name") or f"{n + 1}", "a": dict(g["a"]), "b": dict(g["b"])}
                for n, g in enumerate(setup["gods"])]
    halves = rules.get("god_halves")
    if not halves:
        return None
    return [{"name": f"{areas[g]}–{areas[(g + 1) % 5]}",
             "a": dict(halves[areas[g]]["cw"]), "b": dict(halves[areas[(g + 1) % 5]]["ccw"])}
            for g in range(5)]


def _blank_god(god: Mapping[str, Any]) -> bool:
    """A god of the open-table form left blank: both halves at 0 threshold and 0 points (no
    printed god is worth nothing); its name alone does not enter it."""
    return all(god.get(half, {}).get(key, 0) == 0 for half in ("a", "b")
               for key in ("threshold", "points"))


def _new_player() -> dict[str, Any]:
    return {"res": {k: 0 for k in t.KINDS}, "off": {k: 0 for k in t.OFFERING_KINDS},
            "nobles": [], "used": [], "artisans": [], "nile": [0] * 5, "tomb": 0,
            "passed": False, "row": None, "space": 0, "done": False, "start_noble": None}


def _check_setup(seats: int, setup: Mapping[str, Any], rules: Mapping[str, Any],
                 options: Mapping[str, Any]) -> None:
    areas = setup.get("areas")
    if (not isinstance(areas, list) or len(areas) != 5 or sorted(areas) != sorted(t.AREAS)):
        raise _refuse_setup("pharaon.bad_areas", N_("List the five areas clockwise, each "
                                                     "once."), "areas")
    colours = setup.get("entry_colours")
    if (not isinstance(colours, list) or len(colours) != 5
            or sorted(colours) != sorted(t.BASIC)):
        raise _refuse_setup("pharaon.bad_entry_colours",
                            N_("Give the wheel colour facing each area: the five colours, "
                               "each once."), "entry_colours")
    wheel = rules.get("wheel_colours")
    if wheel:
        # the facing colours read clockwise must be the wheel's order turned (U2)
        rotations = [wheel[i:] + wheel[:i] for i in range(5)]
        if list(colours) not in rotations:
            raise _refuse_setup("pharaon.wheel_order",
                                N_("These colours do not follow your copy's wheel order."),
                                "entry_colours")
    if setup.get("direction", "cw") not in ("cw", "ccw"):
        raise _refuse_setup("pharaon.bad_direction", N_("The wheel turns cw or ccw."),
                            "direction")
    first = setup.get("first_player", 0)
    if not is_int(first) or not 0 <= first < seats:
        raise _refuse_setup("pharaon.bad_first_player",
                            N_("The first player must be one of the %(count)d seats."),
                            "first_player", count=seats)
    if seats == 1 and not isinstance(setup.get("traitor_draw", False), bool):
        raise _refuse_setup("pharaon.bad_traitor_draw",
                            N_("Say whether the app draws the Traitor's tiles."), "traitor_draw")
    if seats == 1 and not setup.get("traitor_draw"):
        _check_traitor_layout(setup.get("traitor_order"), setup.get("traitor_colours"),
                              "traitor_order", "traitor_colours")
    if seats == 1:
        sides = _traitor_sides(setup)
        if sides is not None:
            if not isinstance(sides, list) or len(sides) != 5 or any(
                    s not in t.SIDES for s in sides):
                raise _refuse_setup("pharaon.bad_traitor_sides",
                                    N_("Each Traitor tile lies light or dark side up."),
                                    "traitor_sides")
            if sides.count("dark") != options["traitor_dark_tiles"]:
                raise _refuse_setup("pharaon.traitor_difficulty",
                                    N_("The difficulty asks for %(dark)d dark tiles."),
                                    "traitor_sides", dark=options["traitor_dark_tiles"])
    gods = setup.get("gods") or []
    blank = [_blank_god(g) for g in gods]
    if any(blank) and not all(blank):
        raise _refuse_setup("pharaon.gods_incomplete",
                            N_("Enter all five gods, or none: they can be entered after "
                               "round 5."), f"gods.{blank.index(True)}")
    beginners = setup.get("beginner_scribes")
    if beginners is not None and (not isinstance(beginners, list) or len(beginners) != seats):
        raise _refuse_setup("pharaon.bad_beginners",
                            N_("Say for each seat whether it starts with a Scribe."),
                            "beginner_scribes")


def _traitor_sides(setup: Mapping[str, Any]) -> Any:
    """The sides entered at set-up, or None when none was (the form's blank choice for every
    tile): then the difficulty's dark tiles are the rightmost."""
    sides = setup.get("traitor_sides")
    if isinstance(sides, list) and all(side == "" for side in sides):
        return None
    return sides


def _check_traitor_layout(order: Any, colours: Any, order_field: str | None,
                          colours_field: str | None) -> None:
    """§3.4: the five tiles in an order (1 to 5, each once) and one colour per column (the
    five basic colours, each once); ``None`` skips a part (it is drawn later)."""
    if order_field is not None:
        if (not isinstance(order, list) or len(order) != 5
                or sorted(order, key=str) != [1, 2, 3, 4, 5] or not all(map(is_int, order))):
            raise _refuse_setup("pharaon.bad_traitor_order",
                                N_("Lay the five Traitor tiles in an order: 1 to 5, each "
                                   "once."), order_field)
    if colours_field is not None:
        if (not isinstance(colours, list) or len(colours) != 5
                or sorted(colours, key=str) != sorted(t.BASIC)):
            raise _refuse_setup("pharaon.bad_traitor_colours",
                                N_("Each Traitor column takes one of the five colours."),
                                colours_field)


def setup(options: Mapping[str, Any], names: Sequence[str], setup_doc: Mapping[str, Any],
          edition: Edition) -> dict[str, Any]:
    """A fresh game (spec §3): the physical start follows as chance inputs and picks."""
    opts = {**OPTION_DEFAULTS, **{k: v for k, v in (options or {}).items()
                                  if k in OPTION_DEFAULTS}}
    seats = len(names)
    if seats not in t.PLAYER_COUNTS:
        raise RuleViolation("pharaon.bad_player_count",
                            N_("Pharaon is played by 1 to 5 players, not %(count)d."),
                            "players", count=seats)
    setup_doc = dict(setup_doc or {})
    rules, assumed = _rules_from_edition(edition)
    _check_setup(seats, setup_doc, rules, opts)
    areas = list(setup_doc["areas"])
    solo = seats == 1
    traitor_index = 1 if solo else None
    actor_names = [str(n) for n in names]
    if solo:
        actor_names.append(str(setup_doc.get("traitor_name") or t.TRAITOR_NAME))
    bank = {k: rules["bank_size"] for k in t.KINDS}
    first = setup_doc.get("first_player", 0)
    if solo and setup_doc.get("traitor_starts"):
        first = traitor_index           # the app gives the token to the starter [unverified]
    pairs = t.OFFERING_PAIRS[seats]
    state: dict[str, Any] = {
        "game": GAME,
        "names": [str(n) for n in names],
        "actors": actor_names,
        "seats": seats,
        "traitor": traitor_index,
        "options": opts,
        "rules": rules,
        # the defaults this table's refereeing relies on: not the jar and artisan
        # placeholders (what the table enters is not checked against them), not the Traitor's
        # tiles without a Traitor
        "assumed": sorted(k for k in assumed if k not in ("god_halves", "jar_tiles",
                                                          "artisan_cards")
                          and (solo or k != "traitor_tiles")),
        "board": {"areas": areas, "gods": _gods_from(setup_doc, rules, areas),
                  "direction": setup_doc.get("direction", "cw"),
                  "entry_colours": list(setup_doc["entry_colours"])},
        "beginners": list(setup_doc.get("beginner_scribes") or [False] * seats),
        "round": 1,
        "phase": "start",
        "turn": first,
        "first_player": first,
        "pharaoh": None,
        "bank": bank,
        "stand_ins": {k: 0 for k in t.KINDS},
        "wheel": {c: [None] * t.SPOTS_PER_SEGMENT for c in t.BASIC},
        "bag": dict(t.OFFERING_BOX),
        "offer_discard": {k: 0 for k in t.OFFERING_KINDS},
        "pairs": [[] for _ in range(pairs)],
        "bonus": [None] * pairs,
        "noble_deck": list(t.NOBLE_NUMBERS),
        "noble_bottom": [],
        "noble_display": [None] * t.NOBLE_DISPLAY,
        "noble_discard": [],
        "start_rejected": [],
        "artisan_deck": t.ARTISAN_CARDS,
        "artisan_display": [None] * t.ARTISAN_DISPLAY,
        "artisan_discard": [],
        "artisans_seen": [],
        "jar_supply": t.JAR_TILES,
        "jar_display": [],
        "jar_discard": [],
        "players": [_new_player() for _ in actor_names],
        "traitor_board": None,
        "tomb_points": {},
        "pass_count": 0,
        "pending": [],
        "warnings": [],
        "traitor_log": [],
    }
    drawn: list[dict[str, Any]] = []
    if solo:
        sides = _traitor_sides(setup_doc)
        if sides is None:      # the difficulty's dark tiles are the rightmost (later rounds)
            dark = opts["traitor_dark_tiles"]
            sides = ["light"] * (5 - dark) + ["dark"] * dark
        state["traitor_board"] = {"tiles": None, "sides": list(sides), "colours": None,
                                  "stack": 0, "columns": [], "turns": 0}
        if setup_doc.get("traitor_draw"):
            # the tiles' order and the columns' colours are physical draws (§3.4 "in random
            # order"): chance inputs, entered or drawn by the app, before anything else
            drawn = [{"kind": "draw_traitor_tiles", "seat": 0, "count": t.TRAITOR_TILES},
                     {"kind": "draw_traitor_colours", "seat": 0, "count": t.TRAITOR_TILES}]
        else:
            _lay_traitor_tiles(state["traitor_board"], setup_doc["traitor_order"])
            _colour_traitor_columns(state["traitor_board"], state["bank"],
                                    setup_doc["traitor_colours"])
    table = first if not solo or first == 0 else 0
    shown = t.JARS_SHOWN[seats]
    state["pending"] = drawn + [
        {"kind": "need_jars", "seat": table, "count": shown, "to": "display"},
        {"kind": "refill_offerings", "seat": table},
        {"kind": "draw_nobles", "seat": table, "count": t.NOBLE_DISPLAY, "to": "display",
         "slots": list(range(t.NOBLE_DISPLAY))},
        {"kind": "draw_artisans", "seat": table, "count": t.ARTISAN_DISPLAY, "to": "display",
         "slots": list(range(t.ARTISAN_DISPLAY))},
        {"kind": "start_picks"},
    ]
    d = Draft(state)
    _run(d)
    return d.state


def _lay_traitor_tiles(board: dict[str, Any], order: Sequence[int]) -> None:
    """§3.4: the five tiles side by side, ``order`` naming the tile (1-5) at each position."""
    board["tiles"] = [n - 1 for n in order]


def _colour_traitor_columns(board: dict[str, Any], bank: dict[str, int],
                            colours: Sequence[str]) -> None:
    """§3.4: one token of each basic kind from the bank on the lowest marked space of each
    column (left to right), fixing the columns' colours for the game."""
    board["colours"] = list(colours)
    board["columns"] = [[{"token": c, "stand_in": False}] for c in colours]
    for colour in colours:
        bank[colour] -= 1


# --------------------------------------------------------------------------------------------
# Move parsing
# --------------------------------------------------------------------------------------------


def _bad(argument: str) -> RuleViolation:
    return REFEREE.bad_move(argument)


def _parse_decl(value: Any, argument: str, index: int | None = None) -> dict[str, str]:
    """A declaration ``{token, as}``; a bad one names ``argument`` (``argument.index``)."""
    if (not isinstance(value, _Mapping) or value.get("token") not in t.TOKENS
            or value.get("as") not in t.BASIC):
        raise _bad(argument if index is None else f"{argument}.{index}")
    return {"token": value["token"], "as": value["as"]}


def _kind_list(value: Any, argument: str, allowed: tuple[str, ...], least: int,
               most: int) -> list[str]:
    if (not isinstance(value, list) or not least <= len(value) <= most
            or not all(isinstance(v, str) and v in allowed for v in value)):
        raise _bad(argument)
    return list(value)


def _source(value: Any, argument: str) -> str | int:
    """An offering source: "bag" or a bonus space index."""
    if value == "bag" or (is_int(value) and 0 <= value < 10):
        return value
    raise _bad(argument)


def _parse_action(move: Mapping[str, Any]) -> dict[str, Any]:
    area = choice_arg(REFEREE, move, "area", t.AREAS)
    args: dict[str, Any] = {"area": area, "entry": _parse_decl(move.get("entry"), "entry")}
    pay = move.get("pay", [])
    if not isinstance(pay, list) or len(pay) > 8:
        raise _bad("pay")
    args["pay"] = [_parse_decl(p, "pay", i) for i, p in enumerate(pay)]
    if area == "OFF":
        args["pair"] = int_arg(REFEREE, move, "pair", 0, 9)
        bonus = move.get("bonus")
        args["bonus"] = None if bonus is None else _source(bonus, "bonus")
    elif area in ("NOB", "ART"):
        card = move.get("card")
        if card != "top" and not (is_int(card) and 0 <= card < 4):
            raise _bad("card")
        args["card"] = card
    elif area == "NIL":
        nile = move.get("nile")
        if not isinstance(nile, _Mapping):
            raise _bad("nile")
        parsed: dict[str, Any] = {"tracks": _kind_list(nile.get("tracks", []), "nile.tracks",
                                                        t.BASIC, 0, 4)}
        if "action" in nile:
            parsed["action"] = int_arg(REFEREE, nile, "action", 0, t.NILE_ACTIONS - 1)
        else:
            low, high = t.NILE_CONFIRM_LIMITS["cost"]
            parsed["cost"] = _kind_list(nile.get("cost"), "nile.cost", t.BASIC, low, high)
            gains = nile.get("gains", {})
            if (not isinstance(gains, _Mapping) or not all(
                    k in t.KINDS and is_int(n) and n >= 0 for k, n in gains.items())
                    or sum(gains.values()) > t.NILE_CONFIRM_LIMITS["gains"]):
                raise _bad("nile.gains")
            parsed["gains"] = {k: n for k, n in gains.items() if n}
            jar = nile.get("jar", False)
            if not isinstance(jar, bool):
                raise _bad("nile.jar")
            parsed["jar"] = jar
        args["nile"] = parsed
    else:
        tomb = move.get("tomb") or {}
        if not isinstance(tomb, _Mapping):
            raise _bad("tomb")
        low, high = t.TOMB_COST_UNITS
        args["tomb_cost"] = (_kind_list(tomb["cost"], "tomb.cost", t.BASIC, low, high)
                             if tomb.get("cost") is not None else None)
        points = tomb.get("points")
        if points is not None and not (is_int(points) and 0 <= points <= 200):
            raise _bad("tomb.points")
        args["tomb_points"] = points
    return args


def _parse_exchange(value: Any, argument: str) -> dict[str, Any]:
    if not isinstance(value, _Mapping):
        raise _bad(argument)
    card = value.get("card")
    if card not in (t.SEER, t.TREASURER):
        raise _bad(f"{argument}.card")
    give = value.get("give")
    if give not in t.BASIC and give not in t.RESOURCE_OFFERINGS:
        raise _bad(f"{argument}.give")
    get = value.get("get", t.SILVER if card == t.TREASURER else None)
    if get not in (t.BASIC if card == t.SEER else (t.SILVER,)):
        raise _bad(f"{argument}.get")
    return {"card": card, "give": give, "get": get}


def _parse_pass(move: Mapping[str, Any]) -> dict[str, Any]:
    jar = move.get("jar")
    if jar is not None and jar != "supply" and not (is_int(jar) and 0 <= jar < 10):
        raise _bad("jar")
    exchange = move.get("exchange")
    return {"jar": jar,
            "exchange": None if exchange is None else _parse_exchange(exchange, "exchange")}


def _parse_step(move: Mapping[str, Any]) -> dict[str, Any]:
    if move.get("reward") is None:
        return {"reward": None}          # a step with nothing left to take (see _check_step)
    reward = choice_arg(REFEREE, move, "reward", t.REWARDS)
    args: dict[str, Any] = {"reward": reward}
    if reward == t.Reward.BASIC:
        args["kind"] = choice_arg(REFEREE, move, "kind", t.BASIC)
    if reward == t.Reward.OFFERING:
        args["source"] = _source(move.get("source", "bag"), "source")
    return args


def _outcomes(move: Mapping[str, Any], key: str, single: Callable[[Any], bool]) -> list[Any]:
    """A chance move's outcomes: one outcome, or a list of them."""
    value = move.get(key)
    if single(value):
        return [value]
    if isinstance(value, list) and value and all(single(v) for v in value):
        return list(value)
    raise _bad(key)


def _is_jar(value: Any) -> bool:
    return (isinstance(value, list) and len(value) == 3
            and all(isinstance(k, str) and k in t.KINDS for k in value))


def _is_artisan(value: Any) -> bool:
    return isinstance(value, _Mapping)


def _parse_draw_jars(move: Mapping[str, Any]) -> dict[str, Any]:
    return {"jars": _outcomes(move, "jars", _is_jar)}


def _parse_draw_nobles(move: Mapping[str, Any]) -> dict[str, Any]:
    return {"cards": _outcomes(move, "cards", lambda v: is_int(v) and v in t.NOBLES)}


def _parse_draw_artisans(move: Mapping[str, Any]) -> dict[str, Any]:
    cards = _outcomes(move, "cards", _is_artisan)
    clean = []
    for i, card in enumerate(cards):
        try:
            clean.append(check_artisan(card, f"move.cards.{i}"))
        except RuleViolation:
            raise _bad(f"cards.{i}") from None
    return {"cards": clean}


def _parse_draw_offerings(move: Mapping[str, Any]) -> dict[str, Any]:
    return {"tokens": _outcomes(move, "tokens",
                                lambda v: isinstance(v, str) and v in t.OFFERING_KINDS)}


def _parse_draw_traitor_tiles(move: Mapping[str, Any]) -> dict[str, Any]:
    return {"order": _outcomes(move, "order",
                               lambda v: is_int(v) and 1 <= v <= t.TRAITOR_TILES)}


def _parse_draw_traitor_colours(move: Mapping[str, Any]) -> dict[str, Any]:
    return {"colours": _outcomes(move, "colours", lambda v: isinstance(v, str) and v in t.BASIC)}


def _parse_start_pick(move: Mapping[str, Any]) -> dict[str, Any]:
    jar = move.get("jar")
    if not (is_int(jar) and 0 <= jar < 10):
        raise _bad("jar")
    return {"jar": jar, "noble": int_arg(REFEREE, move, "noble", 1, t.NOBLE_CARDS)}


def _parse_jar_gain(move: Mapping[str, Any]) -> dict[str, Any]:
    teacher = move.get("teacher")
    if teacher is not None and teacher not in t.BASIC:
        raise _bad("teacher")
    diplomat = move.get("diplomat")
    if diplomat is not None:
        diplomat = _kind_list(diplomat, "diplomat", t.BASIC, 3, 3)
    exchange = move.get("exchange")
    return {"teacher": teacher, "diplomat": diplomat,
            "exchange": None if exchange is None else _parse_exchange(exchange, "exchange")}


def _parse_noble_effect(move: Mapping[str, Any]) -> dict[str, Any]:
    args: dict[str, Any] = {"tracks": _kind_list(move.get("tracks", []), "tracks", t.BASIC,
                                                 0, 3)}
    sources = move.get("sources", [])
    if not isinstance(sources, list) or len(sources) > 2:
        raise _bad("sources")
    args["sources"] = [_source(s, f"sources.{i}") for i, s in enumerate(sources)]
    artisan = move.get("artisan")
    if artisan is not None and artisan != "top" and not (is_int(artisan) and 0 <= artisan < 4):
        raise _bad("artisan")
    args["artisan"] = artisan
    return args


def _parse_traitor_colours(move: Mapping[str, Any]) -> dict[str, Any]:
    return {"colours": _kind_list(move.get("colours"), "colours", t.BASIC, 1, 3)}


def _parse_traitor_board(move: Mapping[str, Any]) -> dict[str, Any]:
    """The top token for the wheel: 0 top-left, 1 top-right (the choice arises only when
    both are eligible, §7.2)."""
    return {"token": int_arg(REFEREE, move, "token", 0, 1)}


def _parse_traitor_reward(move: Mapping[str, Any]) -> dict[str, Any]:
    reward = move.get("reward")
    if reward is not None and reward not in t.REWARDS:
        raise _bad("reward")
    kind = move.get("kind")
    if kind is not None and kind not in t.BASIC:
        raise _bad("kind")
    return {"reward": reward, "kind": kind}


def _parse_enter_values(move: Mapping[str, Any]) -> dict[str, Any]:
    args: dict[str, Any] = {"gods": None, "tomb_points": []}
    gods = move.get("gods")
    if gods is not None:
        if not isinstance(gods, list) or len(gods) != 5:
            raise _bad("gods")
        clean = []
        for g, god in enumerate(gods):
            if not isinstance(god, _Mapping) or not isinstance(god.get("name"), str):
                raise _bad(f"gods.{g}")
            halves = {}
            for half in ("a", "b"):
                entry = god.get(half)
                if (not isinstance(entry, _Mapping) or not is_int(entry.get("threshold"))
                        or not is_int(entry.get("points")) or entry["threshold"] < 0
                        or entry["points"] < 0):
                    raise _bad(f"gods.{g}.{half}")
                halves[half] = {"threshold": entry["threshold"], "points": entry["points"]}
            clean.append({"name": " ".join(god["name"].split())[:30] or f"{g + 1}", **halves})
        args["gods"] = clean
    entries = move.get("tomb_points", [])
    if not isinstance(entries, list):
        raise _bad("tomb_points")
    for i, entry in enumerate(entries):
        if (not isinstance(entry, _Mapping) or not is_int(entry.get("steps"))
                or not is_int(entry.get("points")) or entry["steps"] < 1
                or not 0 <= entry["points"] <= 200):
            raise _bad(f"tomb_points.{i}")
        args["tomb_points"].append({"steps": entry["steps"], "points": entry["points"]})
    if args["gods"] is None and not args["tomb_points"]:
        raise _bad("gods")
    return args


# --------------------------------------------------------------------------------------------
# Checks (each raises RuleViolation; none changes anything)
# --------------------------------------------------------------------------------------------


def _violation(code: str, message: str, argument: str | None = None, **params: Any
               ) -> RuleViolation:
    return RuleViolation(code, message, f"move.{argument}" if argument else None, **params)


def _check_own_tokens(state: Mapping[str, Any], actor: int, tokens: Iterable[str],
                      argument: str) -> None:
    """PH_E_TOKEN_NOT_OWNED: every token spent must be in the actor's supply."""
    player = state["players"][actor]
    res, off = player["res"], player["off"]
    counts: dict[str, int] = {}             # Counter(tokens) without the Counter
    for token in tokens:
        counts[token] = counts.get(token, 0) + 1
    for token, count in counts.items():
        # holdings(state, actor).get(token, 0): an offering's count over a resource's
        if (off.get(token) or res.get(token) or 0) < count:
            raise _violation("PH_E_TOKEN_NOT_OWNED",
                             N_("You do not have that many %(token)s tokens."), argument,
                             token=_token_label(token))


def _token_label(token: str) -> Term:
    return t.KIND_LABELS.get(token) or t.OFFERING_LABELS.get(token) or Term(token)


def _action_pattern(state: Mapping[str, Any], actor: int, args: Mapping[str, Any]
                    ) -> Any:
    area = args["area"]
    if area == "OFF":
        return area_pattern("OFF", bonus=args["bonus"] is not None)
    if area == "NOB":
        return area_pattern("NOB", judge=_owns(state, actor, t.JUDGE))
    if area == "ART":
        return area_pattern("ART")
    if area == "NIL":
        nile = args["nile"]
        if "action" in nile:
            return area_pattern("NIL", fixed=state["rules"]["nile_actions"][nile["action"]]["cost"])
        return area_pattern("NIL", fixed=nile["cost"])
    player = state["players"][actor]
    printed = tomb_space(state, player["tomb"] + 1)["cost"]
    return area_pattern("TMB", fixed=printed if printed is not None else args["tomb_cost"])


def _check_action(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    actor = seat
    player = state["players"][actor]
    area = args["area"]
    if player["passed"]:
        raise _violation("PH_E_PASSED", N_("You have passed this round."))
    colour = entry_colour(state, area)
    if free_spot(state, colour) is None and _full_area_noble(state, actor, area) is None:
        raise _violation("PH_E_AREA_FULL",
                         N_("Every entry spot of %(area)s is taken this round."), "area",
                         area=t.AREA_LABELS[area])
    # the structure of the chosen Nile action or tomb space, before its cost is checked
    if area == "TMB":
        if player["tomb"] >= tomb_length(state):
            raise _violation("PH_E_TOMB_END", N_("Your tomb is finished: no space is left."),
                             "area")
        printed = tomb_space(state, player["tomb"] + 1)["cost"]
        if printed is None and args["tomb_cost"] is None:
            raise _violation("pharaon.tomb_cost_needed",
                             N_("Your copy's tomb costs are not entered: give the cost printed "
                                "under the next space."), "tomb.cost")
        if printed is not None and args["tomb_cost"] is not None and sorted(
                args["tomb_cost"]) != sorted(printed):
            raise _violation("pharaon.tomb_cost_differs",
                             N_("The next tomb space costs something else in your copy."),
                             "tomb.cost")
        known = tomb_points_known(state, player["tomb"] + 1)
        if args["tomb_points"] is not None and known is not None and known != args["tomb_points"]:
            raise _violation("pharaon.tomb_points_differ",
                             N_("That tomb space is worth %(points)d points."), "tomb.points",
                             points=known)
    if area == "NIL":
        catalogue = nile_mode(state) == "catalogue"
        if catalogue != ("action" in args["nile"]):
            raise _violation("pharaon.nile_mode",
                             N_("Choose one of the five Nile actions of your copy.") if catalogue
                             else N_("Your copy's Nile actions are not entered: declare the "
                                     "cost, gains and moves of the action you take."), "nile")
    ctx = _pay_context(state, actor, area)
    entry = args["entry"]
    if entry["token"] in t.POINT_OFFERINGS and not ctx.point_offerings_spendable:
        raise _violation("PH_E_NOT_SPENDABLE", N_("Point offerings cannot be spent."),
                         "entry.token")
    if entry["as"] not in entry_kinds(entry["token"], ctx):
        raise _violation("PH_E_ENTRY_KIND",
                         N_("The entry of %(area)s this round is %(colour)s; this token cannot "
                            "be laid as that."), "entry", area=t.AREA_LABELS[area],
                         colour=t.KIND_LABELS[ctx.entry_colour])
    for i, decl in enumerate(args["pay"]):
        if decl["token"] in t.POINT_OFFERINGS and not ctx.point_offerings_spendable:
            raise _violation("PH_E_NOT_SPENDABLE", N_("Point offerings cannot be spent."),
                             f"pay.{i}.token")
        if decl["as"] not in declarable_kinds(decl["token"], ctx):
            raise _violation("pharaon.bad_declaration",
                             N_("This token cannot count as %(kind)s here."), f"pay.{i}",
                             kind=t.KIND_LABELS[decl["as"]])
    _check_own_tokens(state, actor, [entry["token"]] + [p["token"] for p in args["pay"]],
                      "pay")
    problem = cost_problem(_action_pattern(state, actor, args), entry["as"],
                           [p["as"] for p in args["pay"]])
    if problem is not None:
        verdict, kinds = problem
        if verdict == CostVerdict.UNMET:
            raise _violation("PH_E_COST_UNMET",
                             N_("The action cost is not met: %(count)d more needed."), "pay",
                             count=sum(kinds.values()))
        if state["options"]["reject_overpayment"]:
            raise _violation("PH_E_OVERPAID",
                             N_("You pay %(count)d more than the action costs."), "pay",
                             count=sum(kinds.values()))
    _check_area_target(state, actor, args)
    if area == "NIL" and _refuse_short(state):
        nile = args["nile"]
        gains = (state["rules"]["nile_actions"][nile["action"]]["gains"] if "action" in nile
                 else nile["gains"])
        spent = [entry["token"]] if free_spot(state, colour) is None else []
        _check_bank_pays(state, gains, spent + [p["token"] for p in args["pay"]], "nile")


def _refuse_short(state: Mapping[str, Any]) -> bool:
    """Q17 read the other way (option ``bank_short`` = "refuse"): a gain the player chooses
    must be paid in full by the bank; the default cuts it with a warning (_gain)."""
    return state["options"].get("bank_short", "cut") == "refuse"


def _bank_short_of(state: Mapping[str, Any], gains: Mapping[str, int],
                   spent: Sequence[str] = ()) -> str | None:
    """The first kind of ``gains`` the bank cannot pay in full, once the tokens ``spent`` by
    the same move are back in it; None when it pays everything."""
    back = Counter(token for token in spent if token in t.KINDS)
    for kind, count in gains.items():
        if count > 0 and state["bank"][kind] + back[kind] < count:
            return kind
    return None


def _check_bank_pays(state: Mapping[str, Any], gains: Mapping[str, int], spent: Sequence[str],
                     field: str) -> None:
    kind = _bank_short_of(state, gains, spent)
    if kind is not None:
        raise _violation("PH_E_BANK_EMPTY", N_("The bank has no %(kind)s left."), field,
                         kind=t.KIND_LABELS[kind])


def _check_area_target(state: Mapping[str, Any], actor: int, args: Mapping[str, Any]) -> None:
    """PH_E_NOTHING_TO_TAKE and PH_E_NILE_TRACK: what the action takes must exist."""
    area = args["area"]
    nothing = N_("There is nothing there to take.")
    if area == "OFF":
        pairs = state["pairs"]
        if args["pair"] >= len(pairs) or len(pairs[args["pair"]]) == 0:
            raise _violation("PH_E_NOTHING_TO_TAKE", nothing, "pair")
        bonus = args["bonus"]
        if bonus == "bag":
            if not _offering_drawable(state):
                raise _violation("PH_E_NOTHING_TO_TAKE", nothing, "bonus")
        elif bonus is not None and (bonus >= len(state["bonus"]) or state["bonus"][bonus] is None):
            raise _violation("PH_E_NOTHING_TO_TAKE", nothing, "bonus")
    elif area in ("NOB", "ART"):
        display = state["noble_display" if area == "NOB" else "artisan_display"]
        card = args["card"]
        if card == "top":
            if not _deck_left(state, area):
                raise _violation("PH_E_NOTHING_TO_TAKE", nothing, "card")
        elif card >= len(display) or display[card] is None:
            raise _violation("PH_E_NOTHING_TO_TAKE", nothing, "card")
    elif area == "NIL":
        nile = args["nile"]
        if "action" in nile:
            arrows = state["rules"]["nile_actions"][nile["action"]]["arrows"]
            if len(nile["tracks"]) != len(arrows) or any(
                    track not in arrow_tracks(arrow)
                    for track, arrow in zip(nile["tracks"], arrows)):
                raise _violation("PH_E_NILE_TRACK",
                                 N_("Each arrow moves one of the tracks it shows."), "nile.tracks")
        if (nile.get("jar") or ("action" in nile and state["rules"]["nile_actions"][
                nile["action"]]["jar"])) and not _jar_drawable(state):
            raise _violation("PH_E_NOTHING_TO_TAKE", nothing, "nile.jar")


def _deck_left(state: Mapping[str, Any], area: str) -> bool:
    if area == "NOB":
        return bool(state["noble_deck"] or state["noble_bottom"])
    return state["artisan_deck"] > 0


def _offering_drawable(state: Mapping[str, Any]) -> bool:
    return any(state["bag"].values()) or any(state["offer_discard"].values())


def _jar_drawable(state: Mapping[str, Any]) -> bool:
    return state["jar_supply"] > 0 or bool(state["jar_discard"])


def _check_pass(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    player = state["players"][seat]
    if player["passed"]:
        raise _violation("PH_E_PASSED", N_("You have passed this round."))
    jar = args["jar"]
    display = state["jar_display"]
    gets_jar = bool(display) and state["round"] < t.ROUNDS
    if jar == "supply" or (jar is not None and (not gets_jar or jar >= len(display))):
        raise _violation("PH_E_JAR_SOURCE",
                         N_("Take one of the face-up jars at the pyramid."), "jar")
    if gets_jar and jar is None:
        raise _violation("PH_E_JAR_SOURCE",
                         N_("Take one of the face-up jars at the pyramid."), "jar")
    if gets_jar and _refuse_short(state) and _bank_short_of(state, Counter(display[jar])) \
            and any(_bank_short_of(state, Counter(other)) is None for other in display):
        # Q17 "refuse": a jar the bank cannot pay, while another one it can (with none
        # payable the jar is taken and cut, so that passing stays possible)
        _check_bank_pays(state, Counter(display[jar]), (), "jar")
    if args["exchange"] is not None:
        if gets_jar and _jar_choice_due(state, seat):
            raise _violation("pharaon.exchange_after_choice",
                             N_("Exchange while choosing the Teacher's or Diplomat's bonus."),
                             "exchange")
        after = holdings(state, seat)
        if gets_jar:
            for kind in display[jar]:
                if state["bank"][kind] > 0:
                    after[kind] = after.get(kind, 0) + 1
        _check_exchange(state, seat, args["exchange"], after, "exchange")


def _sub(argument: str, key: str) -> str:
    """The path of ``key`` inside an argument (the move itself when ``argument`` is empty)."""
    return f"{argument}.{key}" if argument else key


def _check_exchange(state: Mapping[str, Any], seat: int, exchange: Mapping[str, Any],
                    held: Mapping[str, int], argument: str) -> None:
    card, give, get = exchange["card"], exchange["give"], exchange["get"]
    player = state["players"][seat]
    if card not in player["nobles"]:
        raise _violation("pharaon.noble_not_owned", N_("You do not own noble %(card)d."),
                         _sub(argument, "card"), card=card)
    if card in player["used"]:
        raise _violation("PH_E_ABILITY_USED",
                         N_("This noble's ability is used already this round."),
                         _sub(argument, "card"))
    if give in t.RESOURCE_OFFERINGS and not state["options"]["seer_on_offerings"]:
        raise _violation("pharaon.bad_declaration", N_("This token cannot be exchanged."),
                         _sub(argument, "give"))
    if held.get(give, 0) < 1:
        raise _violation("PH_E_TOKEN_NOT_OWNED",
                         N_("You do not have that many %(token)s tokens."), _sub(argument, "give"),
                         token=_token_label(give))
    if card == t.SEER and get == (give if give in t.BASIC else give[2:]):
        raise _violation("pharaon.same_kind", N_("Exchange for another kind."),
                         _sub(argument, "get"))
    if state["bank"][get] < 1:
        raise _violation("PH_E_BANK_EMPTY", N_("The bank has no %(kind)s left."),
                         _sub(argument, "get"), kind=t.KIND_LABELS[get])


def _check_exchange_move(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    _check_exchange(state, seat, args, holdings(state, seat), "")


def _rewards_in_reach(state: Mapping[str, Any], actor: int) -> list[str]:
    """The rewards a pyramid step may take: on the space reached or any earlier space of the
    row (spec §4.5); a blank space (U7) offers any reward."""
    player = state["players"][actor]
    row = pyramid_row(state, player["row"])
    reached = row[:player["space"] + 2]
    if any(reward is None for reward in reached):
        return list(t.REWARDS)
    return [r for r in t.REWARDS if r in reached]


def _check_step(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    player = state["players"][seat]
    if not player["passed"] or player["row"] is None or player["done"]:
        raise _violation("pharaon.no_step", N_("Only a player who passed steps on the "
                                                "pyramid."))
    reach = _rewards_in_reach(state, seat)
    if args["reward"] is None:
        # only when every reward in reach is an offering and none is left anywhere
        if reach != [t.Reward.OFFERING.value] or _offering_drawable(state) or any(
                token is not None for token in state["bonus"]):
            raise _violation("pharaon.reward_needed", N_("Take one reward of the row."),
                             "reward")
        return
    if args["reward"] not in reach:
        raise _violation("PH_E_REWARD_NOT_IN_ROW",
                         N_("That reward is not on the space reached or before it."), "reward")
    if args["reward"] == t.Reward.BASIC and _refuse_short(state) and any(
            state["bank"][kind] > 0 for kind in t.BASIC):
        # Q17 "refuse": a basic token of a kind the bank still has
        _check_bank_pays(state, {args["kind"]: 1}, (), "kind")
    if args["reward"] == t.Reward.OFFERING:
        source = args["source"]
        if source == "bag":
            if not _offering_drawable(state):
                raise _violation("PH_E_NOTHING_TO_TAKE", N_("There is nothing there to take."),
                                 "source")
        elif source >= len(state["bonus"]) or state["bonus"][source] is None:
            raise _violation("PH_E_NOTHING_TO_TAKE", N_("There is nothing there to take."),
                             "source")


def _check_draw_jars(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    head = _head(state)
    jars = args["jars"]
    if len(jars) != head["count"]:
        raise _violation("pharaon.wrong_count", N_("Enter %(count)d jars."), "jars",
                         count=head["count"])
    if state["rules"]["jars_checked"]:
        pool = jar_pool(state)
        pool.subtract(Counter(_jar_key(j) for j in jars))
        if any(n < 0 for n in pool.values()):
            raise _violation("pharaon.not_in_supply",
                             N_("No such jar is left face down."), "jars")


def _check_draw_nobles(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    head = _head(state)
    cards = args["cards"]
    if len(cards) != head["count"]:
        raise _violation("pharaon.wrong_count", N_("Enter %(count)d nobles."), "cards",
                         count=head["count"])
    _take_nobles(state, cards, head.get("scribes", False))


def _take_nobles(state: Mapping[str, Any], cards: Sequence[int], scribes: bool = False
                 ) -> tuple[list[int], list[int]]:
    """The deck and bottom cards after drawing ``cards`` in order, or a refusal: a card must
    be in the deck; cards put under the deck (Q15) come only once the rest is drawn."""
    deck, bottom = list(state["noble_deck"]), list(state["noble_bottom"])
    for card in cards:
        if scribes:
            if card not in t.SCRIBES or card not in deck:
                raise _violation("pharaon.not_in_supply", N_("No such Scribe is in the deck."),
                                 "cards", card=card)
            deck.remove(card)
        elif card in deck:
            deck.remove(card)
        elif not deck and bottom and bottom[0] == card:
            bottom.pop(0)
        else:
            raise _violation("pharaon.not_in_supply",
                             N_("Noble %(card)d is not in the deck."), "cards", card=card)
    return deck, bottom


def _check_draw_artisans(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    head = _head(state)
    cards = args["cards"]
    if len(cards) != head["count"]:
        raise _violation("pharaon.wrong_count", N_("Enter %(count)d artisans."), "cards",
                         count=head["count"])
    if state["rules"]["artisans_checked"]:
        pool = artisan_pool(state)
        pool.subtract(Counter(_artisan_key(c) for c in cards))
        if any(n < 0 for n in pool.values()):
            raise _violation("pharaon.not_in_supply",
                             N_("No such artisan is left in the deck."), "cards")


def _check_draw_offerings(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]
                          ) -> None:
    head = _head(state)
    tokens = args["tokens"]
    if len(tokens) != head["count"]:
        raise _violation("pharaon.wrong_count", N_("Enter %(count)d offerings."), "tokens",
                         count=head["count"])
    for token, count in Counter(tokens).items():
        if state["bag"][token] < count:
            raise _violation("pharaon.not_in_supply", N_("No such offering is in the bag."),
                             "tokens")


def _check_draw_traitor_tiles(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]
                              ) -> None:
    _check_traitor_layout(args["order"], None, "move.order", None)


def _check_draw_traitor_colours(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]
                                ) -> None:
    _check_traitor_layout(None, args["colours"], None, "move.colours")


def _check_start_pick(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    head = _head(state)
    if args["jar"] >= len(state["jar_display"]):
        raise _violation("PH_E_JAR_SOURCE", N_("Take one of the face-up jars at the pyramid."),
                         "jar")
    if args["noble"] not in head["nobles"]:
        raise _violation("pharaon.not_drawn", N_("Keep one of the nobles you drew."), "noble")


def _check_jar_gain(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    player = state["players"][seat]
    for card, key in ((t.TEACHER, "teacher"), (t.DIPLOMAT, "diplomat")):
        if args[key] is not None and (card not in player["nobles"] or card in player["used"]):
            raise _violation("PH_E_ABILITY_USED",
                             N_("This noble's ability is used already this round."), key)
    if args["exchange"] is not None:
        head = _head(state)
        after = holdings(state, seat)
        gained = args["diplomat"] if args["diplomat"] is not None else head["jar"]
        for kind in list(gained) + ([args["teacher"]] if args["teacher"] else []):
            after[kind] = after.get(kind, 0) + 1
        _check_exchange(state, seat, args["exchange"], after, "exchange")


def _check_noble_effect(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    card = _head(state)["card"]
    levels = t.COURT_NILE_LEVELS.get(card, 0)
    if len(args["tracks"]) != levels:
        raise _violation("PH_E_NILE_TRACK", N_("Move the Nile discs %(levels)d levels in all."),
                         "tracks", levels=levels)
    # as many offerings as the card gives, or as are left to take (bonus spaces and bag)
    in_bag = sum(state["bag"].values()) + sum(state["offer_discard"].values())
    on_bonus = sum(1 for token in state["bonus"] if token is not None)
    offerings = min(t.COURT_OFFERINGS.get(card, 0), in_bag + on_bonus)
    if len(args["sources"]) != offerings:
        raise _violation("pharaon.wrong_count", N_("Take %(count)d offerings."), "sources",
                         count=offerings)
    bonus_used = [s for s in args["sources"] if s != "bag"]
    for i, source in enumerate(args["sources"]):
        if source == "bag":
            if args["sources"][:i + 1].count("bag") > in_bag:
                raise _violation("PH_E_NOTHING_TO_TAKE", N_("There is nothing there to take."),
                                 f"sources.{i}")
        elif (source >= len(state["bonus"]) or state["bonus"][source] is None
              or bonus_used.count(source) > 1):
            raise _violation("PH_E_NOTHING_TO_TAKE", N_("There is nothing there to take."),
                             f"sources.{i}")
    if card in (23, 24):
        artisan = args["artisan"]
        display = state["artisan_display"]
        available = any(c is not None for c in display) or state["artisan_deck"] > 0
        if artisan is None and available:
            raise _violation("PH_E_NOTHING_TO_TAKE", N_("Choose an artisan to take."),
                             "artisan")
        if artisan == "top" and state["artisan_deck"] == 0:
            raise _violation("PH_E_NOTHING_TO_TAKE", N_("There is nothing there to take."),
                             "artisan")
        if is_int(artisan) and (artisan >= len(display) or display[artisan] is None):
            raise _violation("PH_E_NOTHING_TO_TAKE", N_("There is nothing there to take."),
                             "artisan")


def _check_traitor_colours(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]
                           ) -> None:
    head = _head(state)
    if len(args["colours"]) != len(head["silver"]):
        raise _violation("pharaon.wrong_count", N_("Pick %(count)d colours."), "colours",
                         count=len(head["silver"]))


def _check_traitor_reward(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    head = _head(state)
    choices = head["choices"]
    reward = args["reward"] if args["reward"] is not None else (
        choices[0] if len(choices) == 1 else None)
    if reward not in choices:
        raise _violation("PH_E_REWARD_NOT_IN_ROW",
                         N_("That reward is not on the space reached or before it."), "reward")
    if reward == t.Reward.BASIC and args["kind"] is None:
        raise _violation("pharaon.kind_needed", N_("Pick the resource for the Traitor."), "kind")


def _missing_values(state: Mapping[str, Any]) -> tuple[bool, list[int]]:
    """Whether the gods are missing, and the tomb steps whose points are missing."""
    steps = sorted({p["tomb"] for p in state["players"]
                    if p["tomb"] and tomb_points_known(state, p["tomb"]) is None})
    return state["board"]["gods"] is None, steps


def _check_enter_values(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    gods_missing, steps = _missing_values(state)
    if args["gods"] is not None and not gods_missing:
        raise _violation("pharaon.value_known", N_("The gods are entered already."), "gods")
    for i, entry in enumerate(args["tomb_points"]):
        if entry["steps"] not in steps:
            raise _violation("pharaon.value_known",
                             N_("No one needs the points of that tomb space."),
                             f"tomb_points.{i}")


# --------------------------------------------------------------------------------------------
# Changes
# --------------------------------------------------------------------------------------------


def _change_action(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    actor = seat
    area = args["area"]
    state = d.state
    colour = entry_colour(state, area)
    spot = free_spot(state, colour)
    entry = args["entry"]
    if spot is not None:
        _lay_on_wheel(d, actor, entry["token"], colour, spot)
    else:
        # §4.6 nobles 13-16: the area is full; Q11: the entry token goes to the bank
        card = _full_area_noble(state, actor, area)
        d.own("players", actor, "used").append(card)
        _spend(d, actor, entry["token"])
    for decl in args["pay"]:
        _spend(d, actor, decl["token"])
    seat_for = _seat_of(state, actor)
    if area == "OFF":
        pair = list(d["pairs"][args["pair"]])
        d.own("pairs")[args["pair"]] = []
        for token in pair:
            d.own("players", actor, "off")[token] += 1
        _take_offering(d, actor, args["bonus"], seat_for)
    elif area == "NOB":
        if args["card"] == "top":
            _push_front(d, {"kind": "draw_nobles", "seat": seat_for, "count": 1, "to": "take",
                            "actor": actor})
        else:
            card = d["noble_display"][args["card"]]
            d.own("noble_display")[args["card"]] = None
            _refill_noble(d, args["card"], seat_for)
            _acquire_noble(d, actor, card)
    elif area == "ART":
        _take_artisan(d, actor, args["card"], seat_for)
    elif area == "NIL":
        nile = args["nile"]
        if "action" in nile:
            action = d["rules"]["nile_actions"][nile["action"]]
            gains, jar = action["gains"], action["jar"]
        else:
            gains, jar = nile["gains"], nile["jar"]
        for kind, count in gains.items():
            _gain(d, actor, kind, count)
        for track in nile["tracks"]:
            _raise_nile(d, actor, track)
        if jar:
            _push_front(d, {"kind": "need_jars", "seat": seat_for, "count": 1, "to": "gain",
                            "actor": actor})
    else:
        step = d["players"][actor]["tomb"] + 1
        d.own("players", actor)["tomb"] = step
        if args["tomb_points"] is not None and tomb_points_known(d.state, step) is None:
            d.own("tomb_points")[str(step)] = args["tomb_points"]
    _push(d, {"kind": "end_turn"})


def _raise_nile(d: Draft, actor: int, track: str) -> None:
    """One level up on a Nile track; beyond level 3 the move is lost (spec §4.3 NIL)."""
    index = t.BASIC.index(track)
    if d["players"][actor]["nile"][index] < t.NILE_TOP:
        d.own("players", actor, "nile")[index] += 1


def _take_offering(d: Draft, actor: int, source: Any, seat: int) -> None:
    """An offering from a bonus space, or drawn from the bag (the discard pile refills an
    empty bag, spec §2.3)."""
    if source is None:
        return
    if source == "bag":
        _push_front(d, {"kind": "need_offering", "seat": seat, "actor": actor})
        return
    token = d["bonus"][source]
    d.own("bonus")[source] = None
    d.own("players", actor, "off")[token] += 1


def _refill_noble(d: Draft, slot: int, seat: int) -> None:
    if d["noble_deck"] or d["noble_bottom"]:
        _push_front(d, {"kind": "draw_nobles", "seat": seat, "count": 1, "to": "display",
                        "slots": [slot]})


def _refill_artisan(d: Draft, slot: int, seat: int) -> None:
    if d["artisan_deck"] > 0:
        _push_front(d, {"kind": "draw_artisans", "seat": seat, "count": 1, "to": "display",
                        "slots": [slot]})


def _take_artisan(d: Draft, actor: int, card: Any, seat: int) -> None:
    """ART action or nobles 23/24: a displayed artisan (its slot refilled) or the top card."""
    if card == "top":
        _push_front(d, {"kind": "draw_artisans", "seat": seat, "count": 1, "to": "take",
                        "actor": actor})
        return
    taken = d["artisan_display"][card]
    d.own("artisan_display")[card] = None
    _refill_artisan(d, card, seat)
    _gain_artisan(d, actor, taken, seat)


def _gain_artisan(d: Draft, actor: int, card: Mapping[str, Any], seat: int) -> None:
    d.own("players", actor, "artisans").append(dict(card))
    for kind, count in card["gains"].items():
        _gain(d, actor, kind, count)
    if card["jar"]:
        _push_front(d, {"kind": "need_jars", "seat": seat, "count": 1, "to": "gain",
                        "actor": actor})


def _acquire_noble(d: Draft, actor: int, card: int) -> None:
    """A noble joins ``actor``: its ability works at once; an acquisition effect (21-26)
    resolves now (spec §4.3 NOB). The Traitor ignores every effect (§7.3)."""
    d.own("players", actor, "nobles").append(card)
    if _is_traitor(d.state, actor) or t.NOBLES[card].type != t.NobleType.ACQUIRED:
        return
    icon = d["rules"]["court_icons"].get(str(card))
    if card == 25:
        _tomb_step_free(d, actor)
        _gain(d, actor, icon, t.COURT_ICON_COUNT[card])
        return
    _push_front(d, {"kind": "noble_effect", "seat": actor, "card": card})


def _tomb_step_free(d: Draft, actor: int) -> None:
    """Nobles 25/26 and the Traitor's tomb symbol: one space without paying (ignored on the
    last space [unverified])."""
    if d["players"][actor]["tomb"] < tomb_length(d.state):
        d.own("players", actor)["tomb"] += 1


def _gain_jar(d: Draft, actor: int, jar: Sequence[str]) -> None:
    """A jar is gained (artisan icon, Nile symbol, pass): its 3 resources; the owner of an
    unused Teacher or Diplomat is asked first (spec §4.6, 19-20). The jar is discarded."""
    player = d["players"][actor]
    if not _is_traitor(d.state, actor) and any(
            card in player["nobles"] and card not in player["used"]
            for card in (t.TEACHER, t.DIPLOMAT)):
        _push_front(d, {"kind": "jar_gain", "seat": actor, "jar": list(jar)})
        return
    for kind in jar:
        _gain(d, actor, kind)


def _jar_choice_due(state: Mapping[str, Any], actor: int) -> bool:
    player = state["players"][actor]
    return any(card in player["nobles"] and card not in player["used"]
               for card in (t.TEACHER, t.DIPLOMAT))


def _exchange(d: Draft, seat: int, exchange: Mapping[str, Any]) -> None:
    """Nobles 17/18 (move C): give a basic token (or a resource offering) for a basic token
    of another kind, or for a silver; once per round."""
    _spend(d, seat, exchange["give"])
    d.own("players", seat, "used").append(exchange["card"])
    _gain(d, seat, exchange["get"])


def _change_exchange(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    _exchange(d, seat, args)


def _pass(d: Draft, actor: int) -> bool:
    """Move B for any actor: the pyramid row (none for the last passer). Returns whether the
    actor was the last to pass."""
    players = d["players"]
    others_active = any(not p["passed"] for i, p in enumerate(players) if i != actor)
    me = d.own("players", actor)
    me["passed"] = True
    if others_active:
        me["row"] = d["pass_count"]
        me["space"] = 0
        me["done"] = len(pyramid_row(d.state, me["row"])) <= 1
    else:
        me["row"] = None
        me["done"] = True
    d["pass_count"] = d["pass_count"] + 1
    return not others_active


def _change_pass(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    last = _pass(d, seat)
    if args["jar"] is not None:
        jar = d["jar_display"][args["jar"]]
        display = list(d["jar_display"])
        display.pop(args["jar"])
        d["jar_display"] = display
        d["jar_discard"] = list(d["jar_discard"]) + [jar]
        _gain_jar(d, seat, jar)
        if args["exchange"] is not None:
            _exchange(d, seat, args["exchange"])
    elif args["exchange"] is not None:
        _exchange(d, seat, args["exchange"])
    if not last and _owns(d.state, seat, t.GENERAL) and not d["players"][seat]["done"]:
        _push(d, {"kind": "general", "seat": seat})
    _push(d, {"kind": "end_turn"})


def _pyramid_step(d: Draft, actor: int, reward: str, kind: str | None, source: Any) -> None:
    """§4.5: one space right, then one reward of that space or an earlier one of the row."""
    me = d.own("players", actor)
    me["space"] += 1
    if me["space"] >= len(pyramid_row(d.state, me["row"])) - 1:
        me["done"] = True          # the next step would leave the row: the round is over
    seat = _seat_of(d.state, actor)
    if reward is None:
        return                     # nothing left to take (_check_step)
    if reward == t.Reward.FIRST_PLAYER:
        d["first_player"] = actor
    elif reward == t.Reward.BASIC:
        _gain(d, actor, kind)
    elif reward == t.Reward.SILVER:
        _gain(d, actor, t.SILVER)
    else:
        _take_offering(d, actor, source, seat)


def _change_step(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    general = phase_of(d.state) == Phase.GENERAL
    if general:
        _pop(d)
    _pyramid_step(d, seat, args["reward"], args.get("kind"), args.get("source"))
    if not general:
        _push(d, {"kind": "end_turn"})


def _change_skip_step(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    _pop(d)


def _change_jar_gain(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    head = _pop(d)
    used = d.own("players", seat, "used")
    if args["diplomat"] is not None:
        used.append(t.DIPLOMAT)
        gained = args["diplomat"]
    else:
        gained = head["jar"]
    if args["teacher"] is not None:
        used.append(t.TEACHER)
        gained = list(gained) + [args["teacher"]]
    for kind in gained:
        _gain(d, seat, kind)
    if args["exchange"] is not None:
        _exchange(d, seat, args["exchange"])


def _change_noble_effect(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    head = _pop(d)
    card = head["card"]
    icon = d["rules"]["court_icons"].get(str(card))
    for track in args["tracks"]:
        _raise_nile(d, seat, track)
    if card in t.COURT_ICON_COUNT:
        _gain(d, seat, icon, t.COURT_ICON_COUNT[card])
    if card == 26:
        _tomb_step_free(d, seat)
    if card in (23, 24) and args["artisan"] is not None:
        # a free artisan with its printed resources (and its jar, as in the ART action)
        _take_artisan(d, seat, args["artisan"], seat)
    for source in args["sources"]:
        _take_offering(d, seat, source, seat)


def _change_start_pick(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    head = _pop(d)
    jar = d["jar_display"][args["jar"]]
    display = list(d["jar_display"])
    display.pop(args["jar"])
    d["jar_display"] = display
    d["jar_discard"] = list(d["jar_discard"]) + [jar]
    for kind in jar:                          # §3.2 step 8 a: gain, then discard
        _gain(d, seat, kind)
    _gain(d, seat, t.SILVER, d["options"]["starting_silver"])     # step 8 b (Q15)
    d.own("players", seat)["start_noble"] = args["noble"]       # step 8 c
    rejected = [n for n in head["nobles"] if n != args["noble"]]
    traitor = d["traitor"]
    if traitor is not None and rejected:
        # §3.4: the noble you rejected becomes the Traitor's starting noble
        d.own("players", traitor, "nobles").append(rejected[0])
        d.own("players", traitor)["start_noble"] = rejected[0]
        rejected = rejected[1:]
    d["start_rejected"] = list(d["start_rejected"]) + rejected
    # a starting Court Official's effect resolves like any acquisition [unverified]
    _acquire_noble(d, seat, args["noble"])


def _change_draw_jars(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    head = _pop(d)
    jars = [list(j) for j in args["jars"]]
    to = head["to"]
    if to == "display":
        d["jar_supply"] = d["jar_supply"] - len(jars)
        d["jar_display"] = list(d["jar_display"]) + jars
    elif to == "gain":
        d["jar_supply"] = d["jar_supply"] - 1
        d["jar_discard"] = list(d["jar_discard"]) + jars
        _gain_jar(d, head["actor"], jars[0])
    else:                                      # the Traitor's stack (§7.2)
        d.own("traitor_board")["stack"] -= 1
        d["jar_discard"] = list(d["jar_discard"]) + jars
        _traitor_jar(d, jars[0])


def _change_draw_nobles(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    head = _pop(d)
    cards = args["cards"]
    deck, bottom = _take_nobles(d.state, cards, head.get("scribes", False))
    d["noble_deck"], d["noble_bottom"] = deck, bottom
    to = head["to"]
    if to == "display":
        for slot, card in zip(head["slots"], cards):
            d.own("noble_display")[slot] = card
    elif to == "take":
        _acquire_noble(d, head["actor"], cards[0])
    else:                                      # the starting pick (§3.2 step 8 c)
        _push_front(d, {"kind": "start_pick", "seat": head["pick"], "nobles": list(cards)})


def _change_draw_artisans(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    head = _pop(d)
    cards = args["cards"]
    d["artisan_deck"] = d["artisan_deck"] - len(cards)
    d["artisans_seen"] = list(d["artisans_seen"]) + [dict(c) for c in cards]
    if head["to"] == "display":
        for slot, card in zip(head["slots"], cards):
            d.own("artisan_display")[slot] = dict(card)
    else:
        _gain_artisan(d, head["actor"], cards[0], seat)


def _change_draw_offerings(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    head = _pop(d)
    tokens = args["tokens"]
    bag = d.own("bag")
    for token in tokens:
        bag[token] -= 1
    if head["to"] == "refill":
        for (kind, index), token in zip(_offering_slots(d.state), tokens):
            if kind == "pair":
                d.own("pairs", index).append(token)
            else:
                d.own("bonus")[index] = token
    else:
        d.own("players", head["actor"], "off")[tokens[0]] += 1


def _change_draw_traitor_tiles(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    _pop(d)
    _lay_traitor_tiles(d.own("traitor_board"), args["order"])


def _change_draw_traitor_colours(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    _pop(d)
    _colour_traitor_columns(d.own("traitor_board"), d.own("bank"), args["colours"])


def _change_traitor_colours(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    head = _pop(d)
    colours = list(head["jar"])
    for position, colour in zip(head["silver"], args["colours"]):
        colours[position] = colour
    _log(d, "silver", jar=list(head["jar"]), colours=colours)
    _traitor_resolve(d, head["jar"], colours)


def _change_traitor_board(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    head = _pop(d)
    chosen = args["token"]
    jar, colours = head["jar"], head["colours"]
    _traitor_wheel(d, jar[chosen], colours[chosen], "chosen")
    _push_front(d, {"kind": "traitor_place", "token": jar[1 - chosen],
                    "colour": colours[1 - chosen]})


def _change_traitor_reward(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    head = _pop(d)
    choices = head["choices"]
    reward = args["reward"] if args["reward"] is not None else choices[0]
    traitor = d["traitor"]
    _log(d, TraitorEvent.STEP, reward=reward, kind=args["kind"] if reward == t.Reward.BASIC
         else None, chosen=True, **{k: head[k] for k in ("row", "space", "done") if k in head})
    if reward == t.Reward.FIRST_PLAYER:
        d["first_player"] = traitor
    elif reward == t.Reward.BASIC:
        _gain(d, traitor, args["kind"])
    elif reward == t.Reward.SILVER:
        _gain(d, traitor, t.SILVER)
    elif _offering_drawable(d.state):
        # §7.4: "an offering drawn from the bag for him"
        _push_front(d, {"kind": "need_offering", "seat": 0, "actor": traitor})


def _change_enter_values(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    if args["gods"] is not None:
        d.own("board")["gods"] = args["gods"]
    for entry in args["tomb_points"]:
        d.own("tomb_points")[str(entry["steps"])] = entry["points"]
    gods_missing, steps = _missing_values(d.state)
    if not gods_missing and not steps:
        d["phase"] = Phase.OVER.value


# --------------------------------------------------------------------------------------------
# Automatic steps
# --------------------------------------------------------------------------------------------


def _offering_slots(state: Mapping[str, Any]) -> list[tuple[str, int]]:
    """The empty offering places in filling order: pairs first (top to bottom), then the
    bonus spaces (spec §2.3 "fill the pairs first")."""
    slots: list[tuple[str, int]] = []
    for index, pair in enumerate(state["pairs"]):
        slots += [("pair", index)] * (2 - len(pair))
    slots += [("bonus", index) for index, token in enumerate(state["bonus"]) if token is None]
    return slots


def _auto_refill_offerings(d: Draft, step: Mapping[str, Any]) -> None:
    """§4.8 step 3 / §3.2 step 6: top the pairs and bonus spaces up from the bag; only an
    empty bag takes the discard pile back; if still too few, the pairs come first and a lone
    token goes to a bonus space."""
    slots = _offering_slots(d.state)
    if not slots:
        return
    if not any(d["bag"].values()):
        if any(d["offer_discard"].values()):
            _reshuffle_offerings(d)
        else:
            _lone_pair_token(d)
            return
    count = min(len(slots), sum(d["bag"].values()))
    _push_front(d, {"kind": "draw_offerings", "seat": step["seat"], "count": count,
                    "to": "refill"}, {"kind": "refill_offerings", "seat": step["seat"]})


def _reshuffle_offerings(d: Draft) -> None:
    bag = d.own("bag")
    for token, count in d["offer_discard"].items():
        bag[token] += count
    d["offer_discard"] = {k: 0 for k in t.OFFERING_KINDS}


def _lone_pair_token(d: Draft) -> None:
    for index, pair in enumerate(d["pairs"]):
        if len(pair) == 1 and None in d["bonus"]:
            d.own("bonus")[d["bonus"].index(None)] = pair[0]
            d.own("pairs")[index] = []


def _auto_need_offering(d: Draft, step: Mapping[str, Any]) -> None:
    """One offering drawn from the bag for an actor (the discard pile refills an empty bag)."""
    if not any(d["bag"].values()):
        if not any(d["offer_discard"].values()):
            return
        _reshuffle_offerings(d)
    _push_front(d, {"kind": "draw_offerings", "seat": step["seat"], "count": 1, "to": "gain",
                    "actor": step["actor"]})


def _reshuffle_jars(d: Draft) -> None:
    """§4.3 jar supply: an empty supply takes the shuffled discards."""
    d["jar_supply"] = d["jar_supply"] + len(d["jar_discard"])
    d["jar_discard"] = []


def _auto_need_jars(d: Draft, step: Mapping[str, Any]) -> None:
    """Jars flipped or laid out from the face-down supply, reshuffling when it runs out."""
    count = step["count"]
    if d["jar_supply"] == 0:
        _reshuffle_jars(d)
    available = d["jar_supply"]
    if available == 0 or count == 0:
        return
    take = min(count, available)
    follow = ([{**step, "count": count - take}] if count > take else [])
    _push_front(d, {"kind": "draw_jars", "seat": step["seat"], "count": take,
                    "to": step["to"], **({"actor": step["actor"]} if "actor" in step else {})},
                *follow)


def _auto_start_picks(d: Draft, step: Mapping[str, Any]) -> None:
    """§3.2 step 8: from the first player's right, counter-clockwise; the first player picks
    last. Solo: only you pick (the Traitor gets your rejected noble, §3.4)."""
    seats = d["seats"]
    first = d["first_player"]
    if _is_traitor(d.state, first):
        first = 0
    order = [(first - k) % seats for k in range(1, seats + 1)]
    _push_front(d, *({"kind": "start_draw", "seat": seat} for seat in order),
                {"kind": "finish_start"})


def _auto_start_draw(d: Draft, step: Mapping[str, Any]) -> None:
    """The two nobles a seat draws for its starting pick; a beginner draws a random Scribe
    instead (solo: one for you and one for the Traitor), while Scribes are left in the deck."""
    seat = step["seat"]
    if d["beginners"][seat]:
        wanted = 2 if d["seats"] == 1 else 1
        left = sum(1 for card in d["noble_deck"] if card in t.SCRIBES)
        if left:
            _push_front(d, {"kind": "draw_nobles", "seat": seat, "count": min(wanted, left),
                            "to": "start", "pick": seat, "scribes": True})
            return
    _push_front(d, {"kind": "draw_nobles", "seat": seat, "count": 2, "to": "start",
                    "pick": seat})


def _auto_finish_start(d: Draft, step: Mapping[str, Any]) -> None:
    """§3.2 step 9: rejected nobles back (Q15), refill the jars; 2 players and solo: the jar
    nobody took blocks wheel spots (§3.3, §3.4); solo: the Traitor's first stack."""
    rejected = list(d["start_rejected"])
    d["start_rejected"] = []
    how = d["options"]["rejected_nobles"]
    if how == "reshuffle":
        d["noble_deck"] = sorted(list(d["noble_deck"]) + rejected)
    elif how == "bottom":
        d["noble_bottom"] = list(d["noble_bottom"]) + rejected
    else:
        d["noble_discard"] = list(d["noble_discard"]) + rejected
    _leftover_jars(d)
    seat = _table_seat(d.state)
    steps: list[dict[str, Any]] = [{"kind": "need_jars", "seat": seat,
                                    "count": t.JARS_SHOWN[d["seats"]], "to": "display"}]
    if d["traitor"] is not None:
        steps.append({"kind": "traitor_stack"})
    steps.append({"kind": "start_round"})
    _push_front(d, *steps)


def _leftover_jars(d: Draft) -> None:
    """The jars nobody took: blocking in 2-player and solo games, then discarded."""
    leftover = list(d["jar_display"])
    if not leftover:
        return
    d["jar_display"] = []
    d["jar_discard"] = list(d["jar_discard"]) + leftover
    if t.LEFTOVER_JAR_BLOCKS[d["seats"]]:
        for jar in leftover:
            _block(d, jar)


def _block(d: Draft, jar: Sequence[str]) -> None:
    """§3.3: each resource of the leftover jar, from the bank, on the first free usable spot
    of the segment of its colour; surplus not placed; a kind the bank lacks is skipped (Q10);
    silver has no segment and is skipped [unverified]."""
    for kind in jar:
        if kind == t.SILVER or d["bank"][kind] == 0:
            continue
        spot = free_spot(d.state, kind)
        if spot is not None:
            _lay_on_wheel(d, None, kind, kind, spot, from_bank=True)


def _auto_traitor_stack(d: Draft, step: Mapping[str, Any]) -> None:
    """§7.5: as many face-down jars as the tile at the round's position shows."""
    wanted = tr.jars_for_round(d["traitor_board"], d["rules"]["traitor_tiles"], d["round"])
    for _ in range(wanted):
        if d["jar_supply"] == 0:
            _reshuffle_jars(d)
        if d["jar_supply"] == 0:
            break
        d["jar_supply"] = d["jar_supply"] - 1
        d.own("traitor_board")["stack"] += 1


def _auto_start_round(d: Draft, step: Mapping[str, Any]) -> None:
    for actor in range(len(d["players"])):
        me = d.own("players", actor)
        me.update({"passed": False, "row": None, "space": 0, "done": False, "used": []})
    d["pass_count"] = 0
    d["phase"] = "play"
    d["turn"] = d["first_player"]


def _next_actor(state: Mapping[str, Any]) -> int | None:
    count = len(state["players"])
    for k in range(1, count + 1):
        actor = (state["turn"] + k) % count
        if _status(state["players"][actor]) != "done":
            return actor
    return None


def _auto_end_turn(d: Draft, step: Mapping[str, Any]) -> None:
    """Turns pass clockwise (§4.1); the round ends the moment everyone has passed."""
    if all(p["passed"] for p in d["players"]):
        _push_front(d, {"kind": "round_end"})
        return
    d["turn"] = _next_actor(d.state)


def _auto_round_end(d: Draft, step: Mapping[str, Any]) -> None:
    """§4.8 in its order; after round 5 none of it runs and the game ends."""
    wheel = {}
    for colour, segment in d["wheel"].items():
        for spot in segment:
            if spot is None or spot["stand_in"]:
                continue
            token = spot["token"]
            if token in t.OFFERING_KINDS:
                d.own("offer_discard")[token] += 1
            else:
                d.own("bank")[token] += 1
        wheel[colour] = [None] * t.SPOTS_PER_SEGMENT
    d["wheel"] = wheel
    d["stand_ins"] = {k: 0 for k in t.KINDS} if d["traitor"] is None else _column_stand_ins(d)
    if d["round"] >= t.ROUNDS:
        gods_missing, steps = _missing_values(d.state)
        d["phase"] = (Phase.VALUES if gods_missing or steps else Phase.OVER).value
        return
    _leftover_jars(d)                                            # step 2
    d["round"] = d["round"] + 1                                  # step 4: the wheel turns
    seat = _table_seat(d.state)
    steps: list[dict[str, Any]] = [{"kind": "refill_offerings", "seat": seat}]   # step 3
    if d["round"] < t.ROUNDS:                                    # step 6 (not for round 5)
        steps.append({"kind": "need_jars", "seat": seat, "count": t.JARS_SHOWN[d["seats"]],
                      "to": "display"})
    if d["traitor"] is not None:                                 # step 7
        steps.append({"kind": "traitor_stack"})
    steps.append({"kind": "start_round"})                        # step 5 and the turn
    _push_front(d, *steps)


def _column_stand_ins(d: Draft) -> dict[str, int]:
    """Stand-ins still in play once the wheel is cleared: those on the Traitor's columns."""
    counts = {k: 0 for k in t.KINDS}
    for column in d["traitor_board"]["columns"]:
        for token in column:
            if token["stand_in"]:
                counts[token["token"]] += 1
    return counts


# ---- the Traitor (§7) ------------------------------------------------------------------------


class TraitorEvent(StrEnum):
    """What a line of the Traitor's log says he did (the phone shows it step by step)."""

    JAR = "jar"                    # §7.2 he flips his top jar: TL, TR, B
    SILVER = "silver"              # Q9 the colours the human picked for silver on it
    COLUMN = "column"              # placeOnColumn: token, column, space, symbol (wrapped?)
    COLUMNS_FULL = "columns_full"  # Q6 every column full: the token is not placed
    WHEEL = "wheel"                # a top token on the wheel (why: only / chosen)
    NO_WHEEL = "no_wheel"          # neither top token's segment has a free spot
    TOMB = "tomb"                  # §7.3 symbols and their effects
    GOD = "god"
    MULTIPLIER = "multiplier"
    TAKE_NOBLE = "take_noble"
    DISCARD_NOBLE = "discard_noble"
    TAKE_ARTISAN = "take_artisan"
    DISCARD_ARTISAN = "discard_artisan"
    PAIR = "pair"
    BONUS = "bonus"
    NILE = "nile"
    NOTHING = "nothing"            # a symbol that finds nothing (an empty slot, a full track)
    PASS = "pass"                  # §7.4 his stack is empty
    STEP = "step"                  # §7.4 a pyramid step and its reward


def _log(d: Draft, event: str, **data: Any) -> None:
    """One line of what the Traitor did and why, numbered by his turn (§7.2-§7.4)."""
    entry = {"round": d["round"], "turn": d["traitor_board"]["turns"], "event": str(event),
             **data}
    d["traitor_log"] = list(d["traitor_log"]) + [entry]


def _auto_traitor_turn(d: Draft, step: Mapping[str, Any]) -> None:
    """§7.2: a pyramid step once he has passed; a pass when his stack is empty (Q4);
    otherwise the human flips his top jar (a chance input)."""
    traitor = d["traitor"]
    me = d["players"][traitor]
    d.own("traitor_board")["turns"] += 1
    if me["passed"]:
        _traitor_step(d)
        _push(d, {"kind": "end_turn"})
        return
    if d["traitor_board"]["stack"] == 0:
        _traitor_pass(d, "empty_stack")
        _push(d, {"kind": "end_turn"})
        return
    _push_front(d, {"kind": "draw_jars", "seat": 0, "count": 1, "to": "traitor"},
                {"kind": "traitor_after"}, {"kind": "end_turn"})


def _auto_traitor_after(d: Draft, step: Mapping[str, Any]) -> None:
    """Q4 option "after_last_jar": he passes in the turn his last jar was played."""
    traitor = d["traitor"]
    if (d["options"]["traitor_pass_timing"] == "after_last_jar"
            and d["traitor_board"]["stack"] == 0 and not d["players"][traitor]["passed"]):
        _traitor_pass(d, "last_jar")


def _traitor_pass(d: Draft, why: str) -> None:
    """§7.4: he passes (no face-up jar for him); his cylinder goes to the pyramid."""
    traitor = d["traitor"]
    last = _pass(d, traitor)
    _log(d, TraitorEvent.PASS, why=why, row=d["players"][traitor]["row"], last=last)


def _traitor_step(d: Draft) -> None:
    """§7.4: his cylinder steps like a human's; the reward is the space reached (Q5), the
    human choosing the resource for him, or any reward with the option "human_picks"."""
    traitor = d["traitor"]
    me = d.own("players", traitor)
    me["space"] += 1
    row = pyramid_row(d.state, me["row"])
    if me["space"] >= len(row) - 1:
        me["done"] = True
    if d["options"]["traitor_pyramid_reward"] == "human_picks":
        reached = row[:me["space"] + 1]
        choices = list(t.REWARDS) if None in reached else [r for r in t.REWARDS if r in reached]
    else:
        reward = row[me["space"]]
        choices = list(t.REWARDS) if reward is None else [reward]
    space = {"row": me["row"], "space": me["space"], "done": me["done"]}
    if choices == [t.Reward.SILVER.value]:
        _gain(d, traitor, t.SILVER)
        _log(d, TraitorEvent.STEP, reward=choices[0], **space)
    elif choices == [t.Reward.FIRST_PLAYER.value]:
        d["first_player"] = traitor
        _log(d, TraitorEvent.STEP, reward=choices[0], **space)
    elif choices == [t.Reward.OFFERING.value]:
        _push_front(d, {"kind": "need_offering", "seat": 0, "actor": traitor})
        _log(d, TraitorEvent.STEP, reward=choices[0], **space)
    else:
        _push_front(d, {"kind": "traitor_reward", "seat": 0, "choices": choices, **space})


def _traitor_jar(d: Draft, jar: Sequence[str]) -> None:
    """The jar's bottom B, top-left TL, top-right TR; silver asks the human for a colour (Q9)."""
    _log(d, TraitorEvent.JAR, jar=list(jar), left=d["traitor_board"]["stack"])
    silver = [i for i, kind in enumerate(jar) if kind == t.SILVER]
    if silver:
        _push_front(d, {"kind": "traitor_colours", "seat": 0, "jar": list(jar),
                        "silver": silver})
        return
    _traitor_resolve(d, jar, list(jar))


def _traitor_resolve(d: Draft, jar: Sequence[str], colours: Sequence[str]) -> None:
    """placeOnColumn(B), then the top tokens (§7.2)."""
    _push_front(d, {"kind": "traitor_place", "token": jar[2], "colour": colours[2]},
                {"kind": "traitor_top", "jar": list(jar), "colours": list(colours)})


def _auto_traitor_top(d: Draft, step: Mapping[str, Any]) -> None:
    """§7.2: the top tokens whose segment has a free usable spot are eligible; none: both on
    columns, TL first; one: it goes on the wheel; two: the human picks."""
    jar, colours = step["jar"], step["colours"]
    eligible = [i for i in (0, 1) if free_spot(d.state, colours[i]) is not None]
    if not eligible:
        _log(d, TraitorEvent.NO_WHEEL, colours=list(colours[:2]))
        _push_front(d, {"kind": "traitor_place", "token": jar[0], "colour": colours[0]},
                    {"kind": "traitor_place", "token": jar[1], "colour": colours[1]})
    elif len(eligible) == 1:
        chosen = eligible[0]
        _traitor_wheel(d, jar[chosen], colours[chosen], "only")
        _push_front(d, {"kind": "traitor_place", "token": jar[1 - chosen],
                        "colour": colours[1 - chosen]})
    else:
        _push_front(d, {"kind": "traitor_board", "seat": 0, "jar": list(jar),
                        "colours": list(colours), "eligible": eligible})


def _traitor_wheel(d: Draft, token: str, colour: str, why: str) -> None:
    """His token on the first free usable spot of its colour's segment, for the round."""
    spot = free_spot(d.state, colour)
    _lay_on_wheel(d, d["traitor"], token, colour, spot, from_bank=True)
    area = d["board"]["areas"][facing(d.state).index(colour)]
    _log(d, TraitorEvent.WHEEL, token=token, colour=colour, area=area, spot=spot, why=why,
         closes=free_spot(d.state, colour) is None)


def _auto_traitor_place(d: Draft, step: Mapping[str, Any]) -> None:
    """placeOnColumn (§7.2): the lowest free space of the column of the colour (wrapping to
    the right past full columns), and the space's symbol resolves at once (§7.3)."""
    board = d["traitor_board"]
    tiles = d["rules"]["traitor_tiles"]
    position = tr.placement_column(board, tiles, step["colour"])
    if position is None:
        _log(d, TraitorEvent.COLUMNS_FULL, token=step["token"], colour=step["colour"])
        return                                   # Q6: every column full, the token stays
    token = step["token"]
    stand_in = d["bank"][token] == 0             # Q10: a stand-in when the bank is empty
    if stand_in:
        d.own("stand_ins")[token] += 1
    else:
        d.own("bank")[token] -= 1
    d.own("traitor_board", "columns", position).append({"token": token, "stand_in": stand_in})
    space = len(d["traitor_board"]["columns"][position]) - 1
    symbol = tr.column_spaces(board, tiles, position)[space]
    _log(d, TraitorEvent.COLUMN, token=token, colour=step["colour"], position=position,
         tile=board["tiles"][position] + 1, column=board["colours"][position],
         wrapped=board["colours"][position] != step["colour"], space=space, symbol=symbol)
    if symbol:
        _traitor_symbol(d, symbol)


def _traitor_symbol(d: Draft, symbol: str) -> None:
    """§7.3: each symbol's effect, at once. Taken or discarded cards are replaced at once.
    Every effect is logged, and so is a symbol that finds nothing to act on."""
    kind, argument = parse_symbol(symbol)
    traitor = d["traitor"]
    if kind == t.Symbol.TOMB:
        before = d["players"][traitor]["tomb"]
        _tomb_step_free(d, traitor)
        steps = d["players"][traitor]["tomb"]
        _log(d, TraitorEvent.TOMB if steps > before else TraitorEvent.NOTHING, symbol=symbol,
             steps=steps)
    elif kind == t.Symbol.GOD:
        # scored at the end (§7.7); the log names the board's god it stands for
        god = tr.god_index(d["board"]["areas"], argument)
        gods = d["board"]["gods"]
        _log(d, TraitorEvent.GOD, symbol=symbol, god=god,
             name=gods[god]["name"] if gods else None)
    elif kind == t.Symbol.NOBLE_MULTIPLIER:
        _log(d, TraitorEvent.MULTIPLIER, symbol=symbol, k=argument)
    elif kind in (t.Symbol.TAKE_NOBLE, t.Symbol.DISCARD_NOBLE):
        slot = argument - 1
        card = d["noble_display"][slot]
        if card is None:
            _log(d, TraitorEvent.NOTHING, symbol=symbol, slot=slot)
            return                               # an empty slot: nothing [unverified]
        d.own("noble_display")[slot] = None
        if kind == t.Symbol.TAKE_NOBLE:
            _acquire_noble(d, traitor, card)     # its effect is ignored
            _log(d, TraitorEvent.TAKE_NOBLE, symbol=symbol, slot=slot, card=card)
        else:
            d["noble_discard"] = list(d["noble_discard"]) + [card]
            _log(d, TraitorEvent.DISCARD_NOBLE, symbol=symbol, slot=slot, card=card)
        _refill_noble(d, slot, 0)
    elif kind in (t.Symbol.TAKE_ARTISAN, t.Symbol.TAKE_ARTISAN_2, t.Symbol.DISCARD_ARTISAN):
        rule = ("highest" if kind == t.Symbol.TAKE_ARTISAN else
                d["options"]["traitor_artisan_take_2"] if kind == t.Symbol.TAKE_ARTISAN_2 else
                d["options"]["traitor_artisan_discard"])
        slot = _artisan_by_points(d["artisan_display"], rule == "highest")
        if slot is None:
            _log(d, TraitorEvent.NOTHING, symbol=symbol)
            return
        card = d["artisan_display"][slot]
        d.own("artisan_display")[slot] = None
        if kind == t.Symbol.DISCARD_ARTISAN:
            d["artisan_discard"] = list(d["artisan_discard"]) + [card]
        else:
            d.own("players", traitor, "artisans").append(card)   # resources ignored
        _log(d, TraitorEvent.DISCARD_ARTISAN if kind == t.Symbol.DISCARD_ARTISAN
             else TraitorEvent.TAKE_ARTISAN, symbol=symbol, slot=slot, points=card["points"],
             rule=rule)
        _refill_artisan(d, slot, 0)
    elif kind == t.Symbol.OFFERING_PAIR:
        index = argument - 1
        if index < len(d["pairs"]) and d["pairs"][index]:
            tokens = list(d["pairs"][index])
            for token in tokens:
                d.own("players", traitor, "off")[token] += 1
            d.own("pairs")[index] = []
            _log(d, TraitorEvent.PAIR, symbol=symbol, n=argument, tokens=tokens)
        else:
            _log(d, TraitorEvent.NOTHING, symbol=symbol, n=argument)
    elif kind == t.Symbol.BONUS_OFFERING:
        index = argument - 1
        if index < len(d["bonus"]) and d["bonus"][index] is not None:
            token = d["bonus"][index]
            d.own("players", traitor, "off")[token] += 1
            d.own("bonus")[index] = None
            _log(d, TraitorEvent.BONUS, symbol=symbol, n=argument, token=token)
        else:
            _log(d, TraitorEvent.NOTHING, symbol=symbol, n=argument)
    elif kind in (t.Symbol.NILE_FULLEST, t.Symbol.NILE_EMPTIEST):
        colour = tr.nile_column(d["traitor_board"], kind == t.Symbol.NILE_FULLEST)
        before = d["players"][traitor]["nile"][t.BASIC.index(colour)]
        _raise_nile(d, traitor, colour)
        level = d["players"][traitor]["nile"][t.BASIC.index(colour)]
        _log(d, TraitorEvent.NILE if level > before else TraitorEvent.NOTHING, symbol=symbol,
             track=colour, level=level)


def _artisan_by_points(display: Sequence[Any], highest: bool) -> int | None:
    """The displayed artisan with the highest (or lowest) points; a tie goes to the
    leftmost (§7.3)."""
    best = None
    for slot, card in enumerate(display):
        if card is None:
            continue
        if best is None or (card["points"] > display[best]["points"] if highest
                            else card["points"] < display[best]["points"]):
            best = slot
    return best


AUTOMATIC: Mapping[str, Callable[[Draft, Mapping[str, Any]], None]] = {
    "refill_offerings": _auto_refill_offerings,
    "need_offering": _auto_need_offering,
    "need_jars": _auto_need_jars,
    "start_picks": _auto_start_picks,
    "start_draw": _auto_start_draw,
    "finish_start": _auto_finish_start,
    "traitor_stack": _auto_traitor_stack,
    "start_round": _auto_start_round,
    "end_turn": _auto_end_turn,
    "round_end": _auto_round_end,
    "traitor_turn": _auto_traitor_turn,
    "traitor_after": _auto_traitor_after,
    "traitor_top": _auto_traitor_top,
    "traitor_place": _auto_traitor_place,
}


def _run(d: Draft) -> None:
    """Run the automatic steps until the game waits for someone's input."""
    state = d.state                      # the draft's own dict: it sees every write
    while True:
        phase = state["phase"]
        if phase == "values" or phase == "over":          # Phase.VALUES, Phase.OVER
            return
        pending = state["pending"]
        if pending:
            head = pending[0]
            if head["kind"] in INPUT_STEPS:
                return
            _pop(d)
            AUTOMATIC[head["kind"]](d, head)
            continue
        if phase == "play" and _is_traitor(state, state["turn"]):
            _push(d, {"kind": "traitor_turn"})
            continue
        return


def _succession(d: Draft) -> None:
    """§4.7: the first actor with 2 nobles and 3 tomb steps takes the Pharaoh token, which
    never changes hands (Q14). The Traitor's starting noble counts (Q7)."""
    state = d.state
    if state["pharaoh"] is not None:
        return
    players = state["players"]
    count = len(players)
    turn = state["turn"]
    for k in range(count):
        actor = (turn + k) % count
        player = players[actor]
        if player["tomb"] < 3:
            continue
        nobles = len(player["nobles"])
        if (_is_traitor(state, actor) and not state["options"]["traitor_start_noble_counts"]
                and player["start_noble"] is not None):
            nobles -= 1
        if nobles >= 2:
            d["pharaoh"] = actor
            return


def _after(d: Draft) -> None:
    _run(d)
    _succession(d)


def _not_awaited(state: Mapping[str, Any], seat: int, rule: MoveRule) -> RuleViolation:
    waiting = sorted(awaiting(state).seats)
    names = state["names"]
    return RuleViolation("PH_E_NOT_YOUR_TURN",
                         N_("It is not your turn: %(player)s is to act."),
                         player=", ".join(names[s] for s in waiting))


REFEREE = Referee(
    GAME,
    [
        MoveRule(MoveKind.DRAW_JARS, MOVE_LABELS["draw_jars"], frozenset({"draw_jars"}),
                 _parse_draw_jars, _check_draw_jars, _change_draw_jars),
        MoveRule(MoveKind.DRAW_NOBLES, MOVE_LABELS["draw_nobles"], frozenset({"draw_nobles"}),
                 _parse_draw_nobles, _check_draw_nobles, _change_draw_nobles),
        MoveRule(MoveKind.DRAW_ARTISANS, MOVE_LABELS["draw_artisans"],
                 frozenset({"draw_artisans"}), _parse_draw_artisans, _check_draw_artisans,
                 _change_draw_artisans),
        MoveRule(MoveKind.DRAW_OFFERINGS, MOVE_LABELS["draw_offerings"],
                 frozenset({"draw_offerings"}), _parse_draw_offerings, _check_draw_offerings,
                 _change_draw_offerings),
        MoveRule(MoveKind.DRAW_TRAITOR_TILES, MOVE_LABELS["draw_traitor_tiles"],
                 frozenset({"draw_traitor_tiles"}), _parse_draw_traitor_tiles,
                 _check_draw_traitor_tiles, _change_draw_traitor_tiles),
        MoveRule(MoveKind.DRAW_TRAITOR_COLOURS, MOVE_LABELS["draw_traitor_colours"],
                 frozenset({"draw_traitor_colours"}), _parse_draw_traitor_colours,
                 _check_draw_traitor_colours, _change_draw_traitor_colours),
        MoveRule(MoveKind.START_PICK, MOVE_LABELS["start_pick"], frozenset({"start_pick"}),
                 _parse_start_pick, _check_start_pick, _change_start_pick),
        MoveRule(MoveKind.ACTION, MOVE_LABELS["action"], frozenset({"turn"}), _parse_action,
                 _check_action, _change_action),
        MoveRule(MoveKind.PASS, MOVE_LABELS["pass"], frozenset({"turn"}), _parse_pass,
                 _check_pass, _change_pass),
        MoveRule(MoveKind.STEP, MOVE_LABELS["step"], frozenset({"turn", "general"}),
                 _parse_step, _check_step, _change_step),
        MoveRule(MoveKind.SKIP_STEP, MOVE_LABELS["skip_step"], frozenset({"general"}),
                 None, None, _change_skip_step),
        MoveRule(MoveKind.EXCHANGE, MOVE_LABELS["exchange"], frozenset({"turn"}),
                 lambda move: _parse_exchange(move, "exchange"), _check_exchange_move,
                 _change_exchange),
        MoveRule(MoveKind.JAR_GAIN, MOVE_LABELS["jar_gain"], frozenset({"jar_gain"}),
                 _parse_jar_gain, _check_jar_gain, _change_jar_gain),
        MoveRule(MoveKind.NOBLE_EFFECT, MOVE_LABELS["noble_effect"],
                 frozenset({"noble_effect"}), _parse_noble_effect, _check_noble_effect,
                 _change_noble_effect),
        MoveRule(MoveKind.TRAITOR_COLOURS, MOVE_LABELS["traitor_colours"],
                 frozenset({"traitor_colours"}), _parse_traitor_colours,
                 _check_traitor_colours, _change_traitor_colours),
        MoveRule(MoveKind.TRAITOR_BOARD, MOVE_LABELS["traitor_board"],
                 frozenset({"traitor_board"}), _parse_traitor_board, None,
                 _change_traitor_board),
        MoveRule(MoveKind.TRAITOR_REWARD, MOVE_LABELS["traitor_reward"],
                 frozenset({"traitor_reward"}), _parse_traitor_reward, _check_traitor_reward,
                 _change_traitor_reward),
        MoveRule(MoveKind.ENTER_VALUES, MOVE_LABELS["enter_values"], frozenset({"values"}),
                 _parse_enter_values, _check_enter_values, _change_enter_values),
    ],
    phase_of=phase_of, awaited=awaiting, over=is_over, phase_labels=WAITING_LABELS,
    after=_after, not_awaited=_not_awaited)


def apply(state: Mapping[str, Any], seat: int, move: Any) -> dict[str, Any]:
    """Referee ``move`` by ``seat`` and return the new state (the old one is untouched)."""
    return REFEREE.apply(state, seat, move)


def validate(state: Mapping[str, Any], seat: int, move: Any) -> None:
    REFEREE.validate(state, seat, move)


# --------------------------------------------------------------------------------------------
# Chance: the physical outcome awaited (design.md §2)
# --------------------------------------------------------------------------------------------


def chance(state: Mapping[str, Any]) -> Chance | None:
    """The draw the head step waits for, with what is still possible and how many copies.

    Jars and artisans come from the group's catalogue (or the placeholder of edition.py when
    none was entered; then only the count is checked when the table enters what came up)."""
    head = _head(state)
    if head is None or head["kind"] not in CHANCE_STEPS or state["phase"] in ("values", "over"):
        return None
    seats = frozenset({head["seat"]})
    count = head["count"]
    kind = head["kind"]
    if kind == "draw_traitor_tiles":          # the five tiles shuffled: a permutation
        return Chance({"type": kind}, "order", tuple((n, 1) for n in range(1, count + 1)),
                      seats, draws=count)
    if kind == "draw_traitor_colours":        # one token of each kind in random order
        return Chance({"type": kind}, "colours", tuple((c, 1) for c in t.BASIC), seats,
                      draws=count)
    if kind == "draw_jars":
        pool = jar_pool(state)
        if sum(pool.values()) < count:
            pool = Counter(_jar_key(j) for j in state["rules"]["jar_tiles"])
        outcomes = tuple((list(k), n) for k, n in sorted(pool.items()))
        return Chance({"type": "draw_jars"}, "jars", outcomes, seats, draws=count)
    if kind == "draw_nobles":
        deck = list(state["noble_deck"])
        if head.get("scribes"):
            deck = [c for c in deck if c in t.SCRIBES]
        elif not deck:
            deck = list(state["noble_bottom"][:1])
        return Chance({"type": "draw_nobles"}, "cards", tuple((c, 1) for c in deck), seats,
                      draws=count)
    if kind == "draw_artisans":
        pool = artisan_pool(state)
        if sum(pool.values()) < count:
            pool = Counter(_artisan_key(c) for c in state["rules"]["artisan_cards"])
        outcomes = tuple((_artisan_from_key(k), n) for k, n in sorted(pool.items()))
        return Chance({"type": "draw_artisans"}, "cards", outcomes, seats, draws=count)
    bag = state["bag"]
    return Chance({"type": "draw_offerings"}, "tokens",
                  tuple((k, n) for k, n in bag.items() if n), seats, draws=count)


# --------------------------------------------------------------------------------------------
# Payment proposals, prompts and legal moves (what a phone shows)
# --------------------------------------------------------------------------------------------


def propose(state: Mapping[str, Any], actor: int, area: str, *, bonus: bool = False,
            nile_action: int | None = None, cost: Sequence[str] | None = None
            ) -> dict[str, Any] | None:
    """The cheapest legal declaration ``{"entry", "pay"}`` for ``actor``'s action in
    ``area`` (issue 14: the phone proposes it and lets the player change it); ``bonus`` for
    the Offerings bonus, ``nile_action`` for a Nile action of the group's copy, ``cost`` for
    a printed cost the player declares (Nile in confirm mode, tomb costs not entered)."""
    if area == "NIL":
        if nile_action is not None:
            cost = state["rules"]["nile_actions"][nile_action]["cost"]
        if cost is None:
            return None
        pattern = area_pattern("NIL", fixed=cost)
    elif area == "TMB":
        player = state["players"][actor]
        if player["tomb"] >= tomb_length(state):
            return None
        printed = tomb_space(state, player["tomb"] + 1)["cost"]
        cost = printed if printed is not None else cost
        if cost is None:
            return None
        pattern = area_pattern("TMB", fixed=cost)
    else:
        pattern = area_pattern(area, bonus=bonus, judge=_owns(state, actor, t.JUDGE))
    return propose_payment(holdings(state, actor), _pay_context(state, actor, area), pattern)


def payment_choices(state: Mapping[str, Any], actor: int, area: str) -> dict[str, Any]:
    """Every declaration ``actor`` could make while paying in ``area`` with what they hold:
    the entry's (``{"token", "as"}`` laid on the wheel, spec §4.2) and each token's for the
    action cost, so the phone can offer them beside the proposal (issue 14)."""
    ctx = _pay_context(state, actor, area)
    held = holdings(state, actor)
    entry = [{"token": token, "as": kind} for token in sorted(held, key=_token_order)
             for kind in entry_kinds(token, ctx)]
    pay = [{"token": token, "as": kind} for token in sorted(held, key=_token_order)
           for kind in declarable_kinds(token, ctx)]
    return {"entry": entry, "pay": pay, "entry_colour": ctx.entry_colour}


def _token_order(token: str) -> int:
    """Basic kinds first (board order), silver, then the offerings as the box lists them."""
    return t.TOKENS.index(token)


def pay_rows(state: Mapping[str, Any], actor: int, area: str, *, bonus: bool = False,
             cost: Sequence[str] | None = None) -> int:
    """How many action-cost units the phone offers to declare: the whole cost (the entry's
    deduction may leave one row unused): OFF 1 (2 with the bonus), NOB 5, ART 3, the
    printed cost of a Nile action or tomb space, or its most when it is declared."""
    if area == "OFF":
        return 2 if bonus else 1
    if area == "NOB":
        return 5
    if area == "ART":
        return 3
    if cost is not None:
        return len(cost)
    if area == "TMB":
        player = state["players"][actor]
        if player["tomb"] < tomb_length(state):
            printed = tomb_space(state, player["tomb"] + 1)["cost"]
            if printed is not None:
                return len(printed)
        return t.TOMB_COST_UNITS[1]
    return t.NILE_CONFIRM_LIMITS["cost"][1]


def area_view(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The wheel this round: per area (board order) the entry colour, each spot (None free,
    "closed" for the unused 4+ spot, else the occupant's actor index or "blocked"), and the
    free usable spots."""
    usable = set(usable_spots(state))
    colours = facing(state)
    view = []
    for area, colour in zip(state["board"]["areas"], colours):
        spots = []
        for index, spot in enumerate(state["wheel"][colour]):
            if index not in usable:
                spots.append("closed")
            elif spot is None:
                spots.append(None)
            else:
                spots.append("blocked" if spot["actor"] is None else spot["actor"])
        view.append({"area": area, "colour": colour, "spots": spots,
                     "free": free_spots(state, colour)})
    return view


def _area_options(state: Mapping[str, Any], actor: int) -> list[dict[str, Any]]:
    rows = []
    for row in area_view(state):
        area = row["area"]
        full_noble = (_full_area_noble(state, actor, area) if row["free"] == 0 else None)
        entry = {**row, "usable": row["free"] > 0 or full_noble is not None,
                 "full_area_noble": full_noble,
                 "choices": payment_choices(state, actor, area),
                 "rows": pay_rows(state, actor, area)}
        if area == "OFF":
            entry["proposal"] = propose(state, actor, "OFF")
            entry["proposal_bonus"] = propose(state, actor, "OFF", bonus=True)
            entry["rows_bonus"] = pay_rows(state, actor, "OFF", bonus=True)
            entry["pairs"] = state["pairs"]
            entry["bonus"] = state["bonus"]
        elif area == "NIL":
            if nile_mode(state) == "catalogue":
                entry["actions"] = [{"action": i, **action,
                                     "proposal": propose(state, actor, "NIL", nile_action=i)}
                                    for i, action in enumerate(state["rules"]["nile_actions"])]
            else:
                entry["confirm_mode"] = True
        elif area == "TMB":
            player = state["players"][actor]
            entry["finished"] = player["tomb"] >= tomb_length(state)
            if not entry["finished"]:
                entry["next_space"] = dict(tomb_space(state, player["tomb"] + 1))
                entry["proposal"] = propose(state, actor, "TMB")
        else:
            entry["proposal"] = propose(state, actor, area)
            entry["display"] = state["noble_display" if area == "NOB" else "artisan_display"]
            entry["deck"] = (len(state["noble_deck"]) + len(state["noble_bottom"])
                             if area == "NOB" else state["artisan_deck"])
        rows.append(entry)
    return rows


def _exchange_cards(state: Mapping[str, Any], seat: int) -> list[int]:
    player = state["players"][seat]
    return [card for card in (t.SEER, t.TREASURER)
            if card in player["nobles"] and card not in player["used"]]


def prompts(state: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """What this phone may do now, with the choices it must offer (design.md §2)."""
    phase = phase_of(state)
    out: dict[str, Any] = {"moves": [], "phase": phase, "round": state["round"],
                           "awaiting": sorted(awaiting(state).seats)}
    if seat not in awaiting(state).seats:
        return out
    if phase == Phase.VALUES:
        gods_missing, steps = _missing_values(state)
        out.update(moves=[MoveKind.ENTER_VALUES.value], gods_missing=gods_missing,
                   tomb_steps_missing=steps)
        return out
    if phase == Phase.TURN:
        player = state["players"][seat]
        exchange = ([MoveKind.EXCHANGE.value] if _exchange_cards(state, seat) else [])
        if _status(player) == "active":
            out["moves"] = [MoveKind.ACTION.value, MoveKind.PASS.value] + exchange
            out["areas"] = _area_options(state, seat)
            out["jars"] = state["jar_display"] if state["round"] < t.ROUNDS else []
        else:
            out["moves"] = [MoveKind.STEP.value] + exchange
            out["rewards"] = _rewards_in_reach(state, seat)
            out["bonus"] = state["bonus"]
        out["exchange_cards"] = _exchange_cards(state, seat)
        return out
    head = _head(state)
    out["step"] = dict(head)
    if phase in CHANCE_STEPS:
        draw = chance(state)
        out["moves"] = [phase]
        out["chance"] = {"move": dict(draw.move), "key": draw.key, "draws": draw.draws,
                         "outcomes": [list(o) for o in draw.outcomes]}
    elif phase == Phase.GENERAL:
        out["moves"] = [MoveKind.STEP.value, MoveKind.SKIP_STEP.value]
        out["rewards"] = _rewards_in_reach(state, seat)
        out["bonus"] = state["bonus"]
    else:
        out["moves"] = [phase]
        if phase == Phase.START_PICK:
            out["jars"] = state["jar_display"]
        elif phase == Phase.NOBLE_EFFECT:
            out["bonus"] = state["bonus"]
            out["artisan_display"] = state["artisan_display"]
    return out


def _legal(state: Mapping[str, Any], seat: int, moves: Iterable[dict[str, Any]]
           ) -> list[dict[str, Any]]:
    found = []
    for move in moves:
        try:
            REFEREE.validate(state, seat, move)
        except RuleViolation:
            continue
        found.append(move)
    return found


def _action_candidates(state: Mapping[str, Any], actor: int) -> Iterable[dict[str, Any]]:
    for row in area_view(state):
        area = row["area"]
        if row["free"] == 0 and _full_area_noble(state, actor, area) is None:
            continue
        if area == "OFF":
            base, bonus = propose(state, actor, "OFF"), propose(state, actor, "OFF", bonus=True)
            for pair, tokens in enumerate(state["pairs"]):
                if not tokens:
                    continue
                if base:
                    yield {"type": "action", "area": "OFF", "pair": pair, **base}
                if bonus:
                    yield {"type": "action", "area": "OFF", "pair": pair, "bonus": "bag", **bonus}
                    for slot, token in enumerate(state["bonus"]):
                        if token is not None:
                            yield {"type": "action", "area": "OFF", "pair": pair,
                                   "bonus": slot, **bonus}
        elif area in ("NOB", "ART"):
            proposal = propose(state, actor, area)
            if proposal is None:
                continue
            display = state["noble_display" if area == "NOB" else "artisan_display"]
            for slot, card in enumerate(display):
                if card is not None:
                    yield {"type": "action", "area": area, "card": slot, **proposal}
            yield {"type": "action", "area": area, "card": "top", **proposal}
        elif area == "NIL":
            if nile_mode(state) == "catalogue":
                for i, action in enumerate(state["rules"]["nile_actions"]):
                    proposal = propose(state, actor, "NIL", nile_action=i)
                    if proposal is None:
                        continue
                    for tracks in _track_choices(action["arrows"]):
                        yield {"type": "action", "area": "NIL", **proposal,
                               "nile": {"action": i, "tracks": tracks}}
            else:
                colour = row["colour"]
                for other in t.BASIC:
                    cost = [colour, other] if other != colour else [colour]
                    proposal = propose(state, actor, "NIL", cost=cost)
                    if proposal is None:
                        continue
                    yield {"type": "action", "area": "NIL", **proposal,
                           "nile": {"cost": cost, "gains": {other: 1}, "jar": other == "BLK",
                                    "tracks": [other] if other == colour else [colour, other]}}
        else:
            player = state["players"][actor]
            if player["tomb"] >= tomb_length(state):
                continue
            printed = tomb_space(state, player["tomb"] + 1)["cost"]
            costs = [None] if printed is not None else [
                [row["colour"], other] for other in t.BASIC]
            for cost in costs:
                proposal = propose(state, actor, "TMB", cost=cost)
                if proposal is not None:
                    yield {"type": "action", "area": "TMB", **proposal,
                           **({"tomb": {"cost": cost}} if cost is not None else {})}


def _track_choices(arrows: Sequence[str]) -> list[list[str]]:
    """Every assignment of the arrows to tracks they allow (a few hundred at most)."""
    choices: list[list[str]] = [[]]
    for arrow in arrows:
        choices = [c + [track] for c in choices for track in arrow_tracks(arrow)]
    return choices[:50]


def _step_candidates(state: Mapping[str, Any], seat: int, kind: str = "step"
                     ) -> list[dict[str, Any]]:
    moves: list[dict[str, Any]] = [{"type": kind}]       # legal only with nothing to take
    for reward in _rewards_in_reach(state, seat):
        if reward == t.Reward.BASIC:
            moves += [{"type": kind, "reward": reward, "kind": k} for k in t.BASIC]
        elif reward == t.Reward.OFFERING:
            moves.append({"type": kind, "reward": reward, "source": "bag"})
            moves += [{"type": kind, "reward": reward, "source": slot}
                      for slot, token in enumerate(state["bonus"]) if token is not None]
        else:
            moves.append({"type": kind, "reward": reward})
    return moves


def _exchange_candidates(state: Mapping[str, Any], seat: int) -> list[dict[str, Any]]:
    moves = []
    held = holdings(state, seat)
    for card in _exchange_cards(state, seat):
        for give in [k for k in t.BASIC if held.get(k)][:2]:
            gets = [k for k in t.BASIC if k != give] if card == t.SEER else [t.SILVER]
            moves += [{"type": "exchange", "card": card, "give": give, "get": g}
                      for g in gets[:2]]
    return moves


def _values_candidates(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    gods_missing, steps = _missing_values(state)
    move: dict[str, Any] = {"type": "enter_values"}
    if gods_missing:
        move["gods"] = [{"name": f"{g + 1}", "a": {"threshold": 2, "points": 4},
                         "b": {"threshold": 2, "points": 4}} for g in range(5)]
    if steps:
        move["tomb_points"] = [{"steps": s, "points": 5 * s} for s in steps]
    return [move]


def legal_moves(state: Mapping[str, Any], seat: int) -> list[dict[str, Any]]:
    """Concrete legal moves for ``seat`` (a representative subset where the full list is
    huge: each area with its proposed payment, each target); empty when not awaited."""
    if seat not in awaiting(state).seats:
        return []
    phase = phase_of(state)
    head = _head(state)
    if phase == Phase.VALUES:
        return _legal(state, seat, _values_candidates(state))
    if phase in CHANCE_STEPS:
        draw = chance(state)
        pool = [o for o, n in draw.outcomes for _ in range(n)]
        if draw.draws == 1:
            candidates = [draw.as_move(o) for o, _ in draw.outcomes[:12]]
        else:
            candidates = [draw.as_move(pool[i:i + draw.draws])
                          for i in range(0, max(1, len(pool) - draw.draws + 1), draw.draws)][:6]
        return _legal(state, seat, candidates)
    if phase == Phase.TURN:
        player = state["players"][seat]
        moves: list[dict[str, Any]] = []
        if _status(player) == "active":
            display = state["jar_display"] if state["round"] < t.ROUNDS else []
            moves += ([{"type": "pass", "jar": i} for i in range(len(display))]
                      or [{"type": "pass"}])
            moves += list(_action_candidates(state, seat))
        else:
            moves += _step_candidates(state, seat)
        moves += _exchange_candidates(state, seat)
        return _legal(state, seat, moves)
    if phase == Phase.GENERAL:
        return _legal(state, seat, [{"type": "skip_step"}] + _step_candidates(state, seat))
    if phase == Phase.START_PICK:
        return _legal(state, seat, [{"type": "start_pick", "jar": j, "noble": n}
                                    for j in range(len(state["jar_display"]))
                                    for n in head["nobles"]])
    if phase == Phase.JAR_GAIN:
        player = state["players"][seat]
        moves = [{"type": "jar_gain"}]
        if t.TEACHER in player["nobles"]:
            moves += [{"type": "jar_gain", "teacher": k} for k in t.BASIC]
        if t.DIPLOMAT in player["nobles"]:
            moves += [{"type": "jar_gain", "diplomat": [k, k, other]}
                      for k in t.BASIC for other in t.BASIC[:2]]
        return _legal(state, seat, moves)
    if phase == Phase.NOBLE_EFFECT:
        return _legal(state, seat, _noble_effect_candidates(state, head["card"]))
    if phase == Phase.TRAITOR_COLOURS:
        silver = len(head["silver"])
        return _legal(state, seat, [{"type": "traitor_colours", "colours": [c] * silver}
                                    for c in t.BASIC])
    if phase == Phase.TRAITOR_BOARD:
        return _legal(state, seat, [{"type": "traitor_board", "token": i}
                                    for i in head["eligible"]])
    moves = []
    for reward in head["choices"]:
        if reward == t.Reward.BASIC:
            moves += [{"type": "traitor_reward", "reward": reward, "kind": k} for k in t.BASIC]
        else:
            moves.append({"type": "traitor_reward", "reward": reward})
    return _legal(state, seat, moves)


def _noble_effect_candidates(state: Mapping[str, Any], card: int) -> list[dict[str, Any]]:
    levels = t.COURT_NILE_LEVELS.get(card, 0)
    in_bag = sum(state["bag"].values()) + sum(state["offer_discard"].values())
    bonus = [slot for slot, token in enumerate(state["bonus"]) if token is not None]
    offerings = min(t.COURT_OFFERINGS.get(card, 0), in_bag + len(bonus))
    track_options = [[k] * levels for k in t.BASIC] + [list(t.BASIC[:levels])]
    source_options = [["bag"] * offerings]
    if offerings and bonus:
        source_options.append(bonus[:offerings] + ["bag"] * (offerings - len(bonus[:offerings])))
    if offerings > in_bag:
        source_options = [bonus[:offerings - in_bag] + ["bag"] * in_bag]
    artisans: list[Any] = [None]
    if card in (23, 24):
        artisans = [slot for slot, c in enumerate(state["artisan_display"]) if c is not None]
        artisans += ["top"] if state["artisan_deck"] else []
        artisans = artisans or [None]
    return [{"type": "noble_effect", "tracks": tracks, "sources": sources, "artisan": artisan}
            for tracks in track_options for sources in source_options for artisan in artisans]


# --------------------------------------------------------------------------------------------
# What a phone may see
# --------------------------------------------------------------------------------------------


def view(state: Mapping[str, Any], seat: int | None) -> dict[str, Any]:
    """Everything lies open in Pharaon (spec §2.2) except the two nobles a player draws for
    the starting pick; the derived wheel of this round is added for the phone."""
    shown = dict(state)
    head = _head(state)
    if head is not None and head["kind"] == "start_pick" and head["seat"] != seat:
        shown["pending"] = [{**head, "nobles": [None] * len(head["nobles"])}] + list(
            state["pending"][1:])
    shown["table"] = {"facing": facing(state), "areas": area_view(state),
                      "usable_spots": len(usable_spots(state)),
                      "nile_mode": nile_mode(state)}
    return shown


# --------------------------------------------------------------------------------------------
# Scoring and the final-state document
# --------------------------------------------------------------------------------------------


def _offering_classes(player: Mapping[str, Any]) -> dict[str, int]:
    counts = {cls: 0 for cls in t.OFFERING_CLASSES}
    for token, count in player["off"].items():
        counts[t.offering_class(token)] += count
    return counts


def _traitor_nobles(state: Mapping[str, Any], player: Mapping[str, Any]) -> list[int]:
    """His nobles as they score (Q7: the starting noble counts unless the option says no)."""
    nobles = list(player["nobles"])
    if not state["options"]["traitor_start_noble_counts"] and player["start_noble"] in nobles:
        nobles.remove(player["start_noble"])
    return nobles


def _column_resources(state: Mapping[str, Any]) -> tuple[int, int]:
    """Basic and silver tokens on his columns (Q8; stand-ins excluded)."""
    basic = silver = 0
    for column in state["traitor_board"]["columns"]:
        for token in column:
            if token["stand_in"]:
                continue
            if token["token"] == t.SILVER:
                silver += 1
            else:
                basic += 1
    return basic, silver


def _tallies(state: Mapping[str, Any]) -> tuple[list[PlayerTally], Board]:
    board_doc = state["board"]
    gods = board_doc["gods"]
    board = Board(tuple(board_doc["areas"]), None if gods is None else tuple(
        God(g["name"], Half(g["a"]["threshold"], g["a"]["points"]),
            Half(g["b"]["threshold"], g["b"]["points"])) for g in gods))
    scribes = state["rules"]["scribes"]
    tallies = []
    for actor, player in enumerate(state["players"]):
        basic = sum(player["res"][k] for k in t.BASIC)
        silver = player["res"][t.SILVER]
        common = dict(
            name=state["actors"][actor], artisans=tuple(c["points"] for c in player["artisans"]),
            nile=tuple(player["nile"]), tomb_steps=player["tomb"],
            tomb_points=tomb_points_known(state, player["tomb"]),
            offerings=_offering_classes(player), pharaoh=state["pharaoh"] == actor,
            first_player=state["first_player"] == actor)
        if _is_traitor(state, actor):
            tiles = state["rules"]["traitor_tiles"]
            if state["options"]["traitor_column_tokens_score"]:
                extra_basic, extra_silver = _column_resources(state)
                basic, silver = basic + extra_basic, silver + extra_silver
            tallies.append(PlayerTally(
                nobles=tuple(_traitor_nobles(state, player)), basic=basic, silver=silver,
                traitor=True,
                traitor_gods=tuple(tr.traitor_gods(state["traitor_board"], tiles,
                                                   board_doc["areas"])),
                traitor_multiplier=tr.traitor_multiplier(state["traitor_board"], tiles),
                **common))
        else:
            tallies.append(PlayerTally(
                nobles=tuple(player["nobles"]), basic=basic, silver=silver,
                scribe_areas={card: scribes[card - 1]["area"] for card in player["nobles"]
                              if card in t.SCRIBES}, **common))
    return tallies, board


def _scoring_assumptions(state: Mapping[str, Any]) -> list[Assumption]:
    """The edition defaults the score relied on: the Scribes' areas, when a player owns a
    Scribe and the group has not entered them."""
    owns_scribe = any(card in t.SCRIBES for actor, p in enumerate(state["players"])
                      if not _is_traitor(state, actor) for card in p["nobles"])
    return [Assumption(value.key, value.label, state["rules"][value.key]) for value in EDITION
            if value.key in SCORING_KEYS and value.key in state["assumed"] and owns_scribe]


def score(state: Mapping[str, Any]) -> Scoresheet:
    """The Scoresheet so far (complete once the game is over); seats first, the Traitor
    last."""
    tallies, board = _tallies(state)
    return score_game(tallies, board, top_cumulative=state["options"]["nile_top_cumulative"],
                      complete=is_over(state), assumed=_scoring_assumptions(state))


def final_document(state: Mapping[str, Any]) -> dict[str, Any]:
    """The score-only document describing this game (final.py scores it to the same
    Scoresheet). Scribe areas are listed only when the group entered them; otherwise the
    document relies on the same default as the live game."""
    tallies, board = _tallies(state)
    scribes_entered = "scribes" not in state["assumed"]
    names = state["actors"]

    def holder(actor: int | None) -> str | None:
        return None if actor is None else names[actor]

    def holdings_of(tally: PlayerTally) -> dict[str, Any]:
        out = {"nobles": list(tally.nobles), "artisans": list(tally.artisans),
               "nile": list(tally.nile), "tomb_steps": tally.tomb_steps,
               "basic": tally.basic, "silver": tally.silver,
               "offerings": dict(tally.offerings)}
        if tally.tomb_points is not None:
            out["tomb_points"] = tally.tomb_points
        return out

    document: dict[str, Any] = {
        "game": GAME,
        "board": {"areas": list(board.areas),
                  "gods": [dict(g) for g in state["board"]["gods"]]
                  if state["board"]["gods"] is not None else []},
        "players": [],
        "pharaoh": holder(state["pharaoh"]),
        "first_player": holder(state["first_player"]),
        "options": {"nile_top_cumulative": state["options"]["nile_top_cumulative"]},
    }
    for tally in tallies:
        if tally.traitor:
            document["traitor"] = {"name": tally.name, "multiplier": tally.traitor_multiplier,
                                   "gods": list(tally.traitor_gods), **holdings_of(tally)}
        else:
            entry = {"name": tally.name, **holdings_of(tally)}
            if scribes_entered:
                entry["scribes"] = [{"card": card, "area": area}
                                    for card, area in sorted(tally.scribe_areas.items())]
            document["players"].append(entry)
    return document
