"""Pharaon's live state: its layout, the moves and phases, and what every move family shares.

Spec shared/rules/pharaon.md. The live game is refereed by the shared skeleton
(rules/referee.py) with the table of :mod:`.referee`, assembled from one module per family of
moves: :mod:`.setup` (§3, the starting picks), :mod:`.actions` (§4.1-§4.3 area actions with
declared payments), :mod:`.passing` (§4.4 pass, §4.5 pyramid steps, the General),
:mod:`.exchanges` (nobles 17-18), :mod:`.jar_gains` (nobles 19-20), :mod:`.noble_effects`
(nobles 21-26), :mod:`.draws` (the physical draws, entered as chance inputs), :mod:`.values`
(printed values entered at the end), :mod:`.traitor_turns` (§7, the Traitor's turns and the
choices the human makes for him); :mod:`.rounds` runs the automatic steps between inputs (§3.2,
§4.1 turn order, §4.7 succession, §4.8 round end), :mod:`.prompts` says what a phone may do,
:mod:`.tallies` scores a live game.

**The Traitor is an actor, not a seat.** Per-player lists in the state (``players``) are
indexed by *actor*: seats 0..n-1, and in solo the Traitor at index n (= 1). He holds pieces,
cards and tokens like a player (spec §7.1 "Traitor area"), takes turns in the clockwise order,
can hold the first-player and Pharaoh tokens and is ranked on the Scoresheet (after the seats),
but he is never awaited: every input his turn needs is asked of seat 0, and a move made for
seat 1 is refused. That keeps one code path for holdings, turn order, succession and scoring.

Physical randomness is input (design.md §2): each jar, noble, artisan and offering that comes
up is a move checked against what is left. Every refusal is a RuleViolation with the spec's
``PH_E_…`` code or ``pharaon.<snake_case>``; a refused move changes nothing (the referee's
Draft copies on write). The state is plain JSON.

State layout (per-actor values are lists indexed by actor)::

    names, actors      seat names; actor names (the Traitor's last, in solo)
    seats, traitor     number of seats; the Traitor's actor index or None
    options, rules     the table's options; the printed values in force (edition.py)
    assumed            edition keys at an unconfirmed default that the refereeing relies on
    board              {areas (clockwise), gods (None until entered), direction,
                        entry_colours (round 1, per area)}
    round, phase       1-5; the stage (Stage: start, play, values, over)
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
                         nile [level × 5, printed.BASIC order], tomb (steps), passed, row,
                         space, done, start_noble}]
    traitor_board      solo: see traitor.py
    tomb_points        {steps: points} entered during play or at the end
    pass_count, pending, warnings    passers this round; the queue of steps (the head is
                       what the game waits for); PH_W_BANK_SHORT notes
    traitor_log        solo: what the Traitor did and why, a line per step of his turns
                       ({round, turn, event, ...}; traitor_turns.TraitorEvent), for the phone
"""

from __future__ import annotations

from collections import Counter
from enum import StrEnum
from typing import Any, Mapping, Sequence

from ..base import Awaiting, ChoiceField, N_, RuleViolation, Term
from ..referee import BadArgument, Draft, is_int
from . import printed as t


GAME = "pharaon"

# --------------------------------------------------------------------------------------------
# The moves, what the game waits for, and the other kinds the state names
# --------------------------------------------------------------------------------------------


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


class Step(StrEnum):
    """An automatic step of the pending queue (rounds.AUTOMATIC runs it at once); the steps
    that wait for a seat's input are the input phases (:class:`Phase`)."""

    REFILL_OFFERINGS = "refill_offerings"  # §2.3, §4.8 step 3: pairs and bonus spaces
    NEED_OFFERING = "need_offering"        # one offering from the bag for an actor
    NEED_JARS = "need_jars"                # jars flipped or laid out (the supply reshuffled)
    START_PICKS = "start_picks"            # §3.2 step 8: the starting picks, in order
    START_DRAW = "start_draw"              # the nobles a seat draws for its pick
    FINISH_START = "finish_start"          # §3.2 step 9
    TRAITOR_STACK = "traitor_stack"        # §7.5: his jars for the round
    START_ROUND = "start_round"            # everyone upright, the first player's turn
    END_TURN = "end_turn"                  # §4.1: the next actor, or the round's end
    ROUND_END = "round_end"                # §4.8
    TRAITOR_TURN = "traitor_turn"          # §7.2
    TRAITOR_AFTER = "traitor_after"        # Q4: his pass after his last jar
    TRAITOR_TOP = "traitor_top"            # §7.2: his top tokens
    TRAITOR_PLACE = "traitor_place"        # §7.2 placeOnColumn


class DrawTo(StrEnum):
    """Where what a draw brings goes (a draw step's ``to``)."""

    DISPLAY = "display"        # face up: the jars at the pyramid, a noble or artisan slot
    GAIN = "gain"              # to an actor: a jar gained, an offering drawn for him
    TAKE = "take"              # the top card of a deck, taken by an actor
    START = "start"            # the nobles drawn for a starting pick
    TRAITOR = "traitor"        # the Traitor's top jar (§7.2)
    REFILL = "refill"          # offerings for the pairs and bonus spaces


class Stage(StrEnum):
    """The game's stage, kept in ``state["phase"]`` (what it waits for is :func:`phase_of`)."""

    START = "start"            # the physical start and the starting picks
    PLAY = "play"              # five rounds of turns
    VALUES = "values"          # the printed values still missing are entered
    OVER = "over"


class NileMode(StrEnum):
    """How a Nile action is given (spec §9.1 U3)."""

    CATALOGUE = "catalogue"    # one of the five actions the group entered for its copy
    CONFIRM = "confirm"        # declared by the player: cost, gains and moves


class Status(StrEnum):
    """Where an actor is in a round."""

    ACTIVE = "active"          # has not passed
    STEPPING = "stepping"      # passed, still stepping on a pyramid row
    DONE = "done"              # passed and off the pyramid (or the last to pass)


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
    "starting_silver": t.STARTING_SILVER,       # Q15
    "rejected_nobles": "reshuffle",             # Q15
    "seer_on_offerings": True,                  # Q18
    "bank_short": "cut",                        # Q17: "cut" (warning) or "refuse"
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
# What the state says (queries every family asks)
# --------------------------------------------------------------------------------------------


def is_traitor(state: Mapping[str, Any], actor: int) -> bool:
    """Whether ``actor`` is the Traitor (solo)."""
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
    """How many usable spots of the segment of ``colour`` are free."""
    segment = state["wheel"][colour]
    return sum(1 for spot in _usable_spots(state["rules"]["four_plus_spot"], state["seats"])
               if segment[spot] is None)


def owns(state: Mapping[str, Any], actor: int, card: int) -> bool:
    """Whether ``actor`` owns noble ``card``."""
    return card in state["players"][actor]["nobles"]


def full_area_noble(state: Mapping[str, Any], actor: int, area: str) -> int | None:
    """An unused noble 13-16 letting ``actor`` use ``area`` although it is full."""
    player = state["players"][actor]
    for card, where in t.FULL_AREA_NOBLES.items():
        if where == area and card in player["nobles"] and card not in player["used"]:
            return card
    return None


def holdings(state: Mapping[str, Any], actor: int) -> dict[str, int]:
    """Every token ``actor`` holds: resources and offerings by code."""
    player = state["players"][actor]
    return {**{k: n for k, n in player["res"].items() if n},
            **{k: n for k, n in player["off"].items() if n}}


def tomb_length(state: Mapping[str, Any]) -> int:
    """How many spaces the tomb track of this copy has."""
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


def nile_mode(state: Mapping[str, Any]) -> NileMode:
    """From the catalogue when the group entered the five Nile actions, else confirmed (U3)."""
    return NileMode.CATALOGUE if state["rules"]["nile_actions"] else NileMode.CONFIRM


def pyramid_row(state: Mapping[str, Any], row: int) -> list[str | None]:
    """The rewards of pyramid row ``row`` (bottom first), as printed in this copy."""
    return state["rules"]["pyramid_rows"][row]


def is_over(state: Mapping[str, Any]) -> bool:
    """Whether the game is over (every printed value entered after round 5)."""
    return state["phase"] == "over"                 # Stage.OVER


def pending_head(state: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The step the game waits for or runs next, if any."""
    pending = state["pending"]
    return pending[0] if pending else None


GOD_LABEL = N_("God %(n)d")


def god_name(name: str) -> Term | str:
    """A god as the reader names it: one left unnamed is stored as its number (values.py),
    "God 2" in the reader's language; a name the players gave stays as they wrote it (the
    same object, so a page can tell the two apart)."""
    return Term(GOD_LABEL, n=int(name)) if name.isdigit() else name


def phase_of(state: Mapping[str, Any]) -> str:
    """What the game waits for: the head step's kind, a turn, the values, the end."""
    phase = state["phase"]
    if phase == "over" or phase == "values":        # Stage.OVER, Stage.VALUES
        return phase
    pending = state["pending"]
    return pending[0]["kind"] if pending else "turn"


def awaiting(state: Mapping[str, Any]) -> Awaiting:
    """Whose input is due: the head step's seat, the turn's seat, or every seat while the
    missing printed values are entered (a simultaneous step: the entries commute)."""
    phase = state["phase"]
    if phase == "over":                             # Stage.OVER
        return Awaiting()
    if phase == "values":                           # Stage.VALUES
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


def player_status(player: Mapping[str, Any]) -> Status:
    """Active (not passed), stepping (passed, still on a row) or done."""
    if not player["passed"]:
        return Status.ACTIVE
    return Status.DONE if player["done"] else Status.STEPPING


def violation(code: str, message: str, argument: str | None = None, **params: Any
              ) -> RuleViolation:
    """A refusal ``code`` naming the move's ``argument`` (a dotted path), if any."""
    return RuleViolation(code, message, f"move.{argument}" if argument else None, **params)


def token_label(token: str) -> Term:
    """How a token is named to people (a kind or an offering)."""
    return t.KIND_LABELS.get(token) or t.OFFERING_LABELS.get(token) or Term(token)


def refuses_short(state: Mapping[str, Any]) -> bool:
    """Q17 read the other way (option ``bank_short`` = "refuse"): a gain the player chooses
    must be paid in full by the bank; the default cuts it with a warning (gain)."""
    return state["options"].get("bank_short", "cut") == "refuse"


def bank_short_of(state: Mapping[str, Any], gains: Mapping[str, int],
                  spent: Sequence[str] = ()) -> str | None:
    """The first kind of ``gains`` the bank cannot pay in full, once the tokens ``spent`` by
    the same move are back in it; None when it pays everything."""
    back = Counter(token for token in spent if token in t.KINDS)
    for kind, count in gains.items():
        if count > 0 and state["bank"][kind] + back[kind] < count:
            return kind
    return None


def check_bank_pays(state: Mapping[str, Any], gains: Mapping[str, int], spent: Sequence[str],
                    field: str) -> None:
    """Refuse (PH_E_BANK_EMPTY) the gains the bank cannot pay, the tokens spent back in it."""
    kind = bank_short_of(state, gains, spent)
    if kind is not None:
        raise violation("PH_E_BANK_EMPTY", N_("The bank has no %(kind)s left."), field,
                        kind=t.KIND_LABELS[kind])


def deck_left(state: Mapping[str, Any], area: str) -> bool:
    """Whether the deck of ``area`` (NOB, ART) still has a card to draw."""
    if area == "NOB":
        return bool(state["noble_deck"] or state["noble_bottom"])
    return state["artisan_deck"] > 0


def offering_drawable(state: Mapping[str, Any]) -> bool:
    """Whether an offering can still be drawn (the bag, or its discard pile)."""
    return any(state["bag"].values()) or any(state["offer_discard"].values())


def jar_drawable(state: Mapping[str, Any]) -> bool:
    """Whether a jar can still be drawn (the supply, or its discards)."""
    return state["jar_supply"] > 0 or bool(state["jar_discard"])


# --------------------------------------------------------------------------------------------
# Changes on a draft every family makes (the pending queue, the bank, the wheel)
# --------------------------------------------------------------------------------------------


def push_front(d: Draft, *steps: Mapping[str, Any]) -> None:
    """Put ``steps`` at the head of the queue, in order."""
    d["pending"] = list(steps) + list(d["pending"])


def push_back(d: Draft, *steps: Mapping[str, Any]) -> None:
    """Put ``steps`` at the end of the queue, in order."""
    d["pending"] = list(d["pending"]) + list(steps)


def pop_head(d: Draft) -> Mapping[str, Any]:
    """Take the head step off the queue and return it."""
    pending = list(d["pending"])
    head = pending.pop(0)
    d["pending"] = pending
    return head


def _warn(d: Draft, code: str, **params: Any) -> None:
    """Note a warning (PH_W_…) for the phone, in this round."""
    d["warnings"] = list(d["warnings"]) + [{"code": code, "round": d["round"], **params}]


def gain(d: Draft, actor: int, kind: str, count: int = 1) -> int:
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


def spend(d: Draft, actor: int, token: str) -> None:
    """A token leaves the actor: resources go to the bank, offerings to the discard pile."""
    if token in t.KINDS:
        d.own("players", actor, "res")[token] -= 1
        d.own("bank")[token] += 1
    else:
        d.own("players", actor, "off")[token] -= 1
        d.own("offer_discard")[token] += 1


def lay_on_wheel(d: Draft, actor: int | None, token: str, colour: str, spot: int,
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


def table_seat(state: Mapping[str, Any]) -> int:
    """Who enters the table's own draws: the first player, or seat 0 when that is the
    Traitor."""
    holder = state["first_player"]
    return 0 if is_traitor(state, holder) else holder


def seat_of(state: Mapping[str, Any], actor: int) -> int:
    """The seat that answers for ``actor``: itself, or seat 0 for the Traitor."""
    return 0 if is_traitor(state, actor) else actor


# --------------------------------------------------------------------------------------------
# Arguments several moves declare, and the refusal of one a declaration cannot judge
# --------------------------------------------------------------------------------------------

BASIC_CHOICES = tuple((kind, str(t.KIND_LABELS[kind])) for kind in t.BASIC)
KIND_CHOICES = tuple((kind, str(t.KIND_LABELS[kind])) for kind in t.KINDS)
REWARD_CHOICES = tuple((reward, str(t.REWARD_LABELS[reward])) for reward in t.REWARDS)
# Where an offering comes from: the bag, or a bonus space by its index (top to bottom, from 0).
SOURCE_CHOICES = (("bag", N_("the bag")),) + tuple(range(10))


def basic_kind(key: str, label: str, **options: Any) -> ChoiceField:
    """An argument naming one of the five basic kinds."""
    return ChoiceField(key, label, BASIC_CHOICES, **options)


def bad_argument(kind: str, path: str, problem: str = N_("This is required.")) -> BadArgument:
    """Argument ``path`` of a ``kind`` move is missing or wrong in a way its declaration
    cannot say (needed in one area only): raised in the move's check, the referee refuses it
    as ``pharaon.bad_move`` naming the argument in the player's words."""
    return BadArgument(path, problem)
