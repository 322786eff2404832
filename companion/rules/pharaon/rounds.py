"""The automatic steps between inputs (spec shared/rules/pharaon.md §3.2 steps 6-9, §4.1,
§4.7, §4.8, §7.5): what the game does by itself until it waits for someone.

The pending queue (``state["pending"]``) holds steps; an input step (a draw, a choice) waits
for a seat, an automatic one runs at once (:data:`AUTOMATIC`). After every move :func:`run`
works through the queue, turns pass clockwise and a round ends when everyone has passed, and
the Pharaoh token goes to the first actor to qualify (§4.7).
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from ..referee import Draft
from . import printed as t
from . import traitor as tr
from .state import (INPUT_STEPS, DrawTo, Phase, Stage, Status, Step, free_spot, is_traitor,
                    lay_on_wheel, player_status, pop_head, push_back, push_front, table_seat)
from .traitor_turns import (auto_traitor_after, auto_traitor_place, auto_traitor_top,
                            auto_traitor_turn)
from .values import missing_values


def offering_slots(state: Mapping[str, Any]) -> list[tuple[str, int]]:
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
    slots = offering_slots(d.state)
    if not slots:
        return
    if not any(d["bag"].values()):
        if any(d["offer_discard"].values()):
            _reshuffle_offerings(d)
        else:
            _lone_pair_token(d)
            return
    count = min(len(slots), sum(d["bag"].values()))
    push_front(d, {"kind": Phase.DRAW_OFFERINGS, "seat": step["seat"], "count": count,
                   "to": DrawTo.REFILL}, {"kind": Step.REFILL_OFFERINGS, "seat": step["seat"]})


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
    push_front(d, {"kind": Phase.DRAW_OFFERINGS, "seat": step["seat"], "count": 1,
                   "to": DrawTo.GAIN, "actor": step["actor"]})


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
    push_front(d, {"kind": Phase.DRAW_JARS, "seat": step["seat"], "count": take,
                   "to": step["to"], **({"actor": step["actor"]} if "actor" in step else {})},
               *follow)


def _auto_start_picks(d: Draft, step: Mapping[str, Any]) -> None:
    """§3.2 step 8: from the first player's right, counter-clockwise; the first player picks
    last. Solo: only you pick (the Traitor gets your rejected noble, §3.4)."""
    seats = d["seats"]
    first = d["first_player"]
    if is_traitor(d.state, first):
        first = 0
    order = [(first - k) % seats for k in range(1, seats + 1)]
    push_front(d, *({"kind": Step.START_DRAW, "seat": seat} for seat in order),
               {"kind": Step.FINISH_START})


def _auto_start_draw(d: Draft, step: Mapping[str, Any]) -> None:
    """The two nobles a seat draws for its starting pick; a beginner draws a random Scribe
    instead (solo: one for you and one for the Traitor), while Scribes are left in the deck."""
    seat = step["seat"]
    if d["beginners"][seat]:
        wanted = 2 if d["seats"] == 1 else 1
        left = sum(1 for card in d["noble_deck"] if card in t.SCRIBES)
        if left:
            push_front(d, {"kind": Phase.DRAW_NOBLES, "seat": seat, "count": min(wanted, left),
                           "to": DrawTo.START, "pick": seat, "scribes": True})
            return
    push_front(d, {"kind": Phase.DRAW_NOBLES, "seat": seat, "count": 2, "to": DrawTo.START,
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
    seat = table_seat(d.state)
    steps: list[dict[str, Any]] = [{"kind": Step.NEED_JARS, "seat": seat,
                                    "count": t.JARS_SHOWN[d["seats"]], "to": DrawTo.DISPLAY}]
    if d["traitor"] is not None:
        steps.append({"kind": Step.TRAITOR_STACK})
    steps.append({"kind": Step.START_ROUND})
    push_front(d, *steps)


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
            lay_on_wheel(d, None, kind, kind, spot, from_bank=True)


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
    d["phase"] = Stage.PLAY
    d["turn"] = d["first_player"]


def _next_actor(state: Mapping[str, Any]) -> int | None:
    count = len(state["players"])
    for k in range(1, count + 1):
        actor = (state["turn"] + k) % count
        if player_status(state["players"][actor]) != Status.DONE:
            return actor
    return None


def _auto_end_turn(d: Draft, step: Mapping[str, Any]) -> None:
    """Turns pass clockwise (§4.1); the round ends the moment everyone has passed."""
    if all(p["passed"] for p in d["players"]):
        push_front(d, {"kind": Step.ROUND_END})
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
        gods_missing, steps = missing_values(d.state)
        d["phase"] = (Stage.VALUES if gods_missing or steps else Stage.OVER)
        return
    _leftover_jars(d)                                            # step 2
    d["round"] = d["round"] + 1                                  # step 4: the wheel turns
    seat = table_seat(d.state)
    steps: list[dict[str, Any]] = [{"kind": Step.REFILL_OFFERINGS, "seat": seat}]   # step 3
    if d["round"] < t.ROUNDS:                                    # step 6 (not for round 5)
        steps.append({"kind": Step.NEED_JARS, "seat": seat, "count": t.JARS_SHOWN[d["seats"]],
                      "to": DrawTo.DISPLAY})
    if d["traitor"] is not None:                                 # step 7
        steps.append({"kind": Step.TRAITOR_STACK})
    steps.append({"kind": Step.START_ROUND})                        # step 5 and the turn
    push_front(d, *steps)


def _column_stand_ins(d: Draft) -> dict[str, int]:
    """Stand-ins still in play once the wheel is cleared: those on the Traitor's columns."""
    counts = {k: 0 for k in t.KINDS}
    for column in d["traitor_board"]["columns"]:
        for token in column:
            if token["stand_in"]:
                counts[token["token"]] += 1
    return counts


AUTOMATIC: Mapping[str, Callable[[Draft, Mapping[str, Any]], None]] = {
    Step.REFILL_OFFERINGS: _auto_refill_offerings,
    Step.NEED_OFFERING: _auto_need_offering,
    Step.NEED_JARS: _auto_need_jars,
    Step.START_PICKS: _auto_start_picks,
    Step.START_DRAW: _auto_start_draw,
    Step.FINISH_START: _auto_finish_start,
    Step.TRAITOR_STACK: _auto_traitor_stack,
    Step.START_ROUND: _auto_start_round,
    Step.END_TURN: _auto_end_turn,
    Step.ROUND_END: _auto_round_end,
    Step.TRAITOR_TURN: auto_traitor_turn,
    Step.TRAITOR_AFTER: auto_traitor_after,
    Step.TRAITOR_TOP: auto_traitor_top,
    Step.TRAITOR_PLACE: auto_traitor_place,
}


def run(d: Draft) -> None:
    """Run the automatic steps until the game waits for someone's input."""
    state = d.state                      # the draft's own dict: it sees every write
    while True:
        phase = state["phase"]
        if phase == "values" or phase == "over":          # Stage.VALUES, Stage.OVER
            return
        pending = state["pending"]
        if pending:
            head = pending[0]
            if head["kind"] in INPUT_STEPS:
                return
            pop_head(d)
            AUTOMATIC[head["kind"]](d, head)
            continue
        if phase == "play" and is_traitor(state, state["turn"]):    # Stage.PLAY
            push_back(d, {"kind": Step.TRAITOR_TURN})
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
        if (is_traitor(state, actor) and not state["options"]["traitor_start_noble_counts"]
                and player["start_noble"] is not None):
            nobles -= 1
        if nobles >= 2:
            d["pharaoh"] = actor
            return


def after_move(d: Draft) -> None:
    """After every move: the automatic steps, then the succession (§4.7)."""
    run(d)
    _succession(d)
