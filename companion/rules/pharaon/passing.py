"""Passing and the pyramid (spec shared/rules/pharaon.md §4.4, §4.5): moves ``pass``,
``step`` and ``skip_step``.

A pass takes a face-up jar (none in round 5) and a row of the pyramid (none for the last to
pass); the General (noble 6) steps at once, or not (the first passer's step also brings the
first-player token); a player who passed steps one space a turn
and takes one reward of that space or an earlier one of the row.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Mapping

from ..base import ChoiceField, N_, Term
from ..referee import Draft, MoveRule
from . import printed as t
from .exchanges import check_exchange, exchange_argument, make_exchange
from .gains import gain_jar, jar_choice_due, take_offering
from .state import (REWARD_CHOICES, SOURCE_CHOICES, MoveKind, Phase, Step, bad_argument,
                    bank_short_of, basic_kind, check_bank_pays, gain, holdings, offering_drawable,
                    owns, phase_of, pop_head, push_back, pyramid_row, refuses_short, seat_of,
                    violation)


def _check_pass(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    player = state["players"][seat]
    if player["passed"]:
        raise violation("PH_E_PASSED", N_("You have passed this round."))
    jar = args["jar"]
    display = state["jar_display"]
    gets_jar = bool(display) and state["round"] < t.ROUNDS
    if jar == "supply" or (jar is not None and (not gets_jar or jar >= len(display))):
        raise violation("PH_E_JAR_SOURCE",
                        N_("Take one of the face-up jars at the pyramid."), "jar")
    if gets_jar and jar is None:
        raise violation("PH_E_JAR_SOURCE",
                        N_("Take one of the face-up jars at the pyramid."), "jar")
    if gets_jar and refuses_short(state) and bank_short_of(state, Counter(display[jar])) \
            and any(bank_short_of(state, Counter(other)) is None for other in display):
        # Q17 "refuse": a jar the bank cannot pay, while another one it can (with none
        # payable the jar is taken and cut, so that passing stays possible)
        check_bank_pays(state, Counter(display[jar]), (), "jar")
    if args["exchange"] is not None:
        if gets_jar and jar_choice_due(state, seat):
            raise violation("pharaon.exchange_after_choice",
                            N_("Exchange while choosing the Teacher's or Diplomat's bonus."),
                            "exchange")
        after = holdings(state, seat)
        if gets_jar:
            for kind in display[jar]:
                if state["bank"][kind] > 0:
                    after[kind] = after.get(kind, 0) + 1
        check_exchange(state, seat, args["exchange"], after, MoveKind.PASS, "exchange")


def pass_round(d: Draft, actor: int) -> bool:
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
    last = pass_round(d, seat)
    if args["jar"] is not None:
        jar = d["jar_display"][args["jar"]]
        display = list(d["jar_display"])
        display.pop(args["jar"])
        d["jar_display"] = display
        d["jar_discard"] = list(d["jar_discard"]) + [jar]
        gain_jar(d, seat, jar)
        if args["exchange"] is not None:
            make_exchange(d, seat, args["exchange"])
    elif args["exchange"] is not None:
        make_exchange(d, seat, args["exchange"])
    if not last and owns(d.state, seat, t.GENERAL) and not d["players"][seat]["done"]:
        push_back(d, {"kind": Phase.GENERAL, "seat": seat})
    push_back(d, {"kind": Step.END_TURN})


def rewards_in_reach(state: Mapping[str, Any], actor: int) -> list[str]:
    """The rewards a pyramid step may take: on the space reached or any earlier space of the
    row (spec §4.5); a blank space (U7) offers any reward."""
    player = state["players"][actor]
    row = pyramid_row(state, player["row"])
    reached = row[:player["space"] + 2]
    if any(reward is None for reward in reached):
        return list(t.REWARDS)
    return [r for r in t.REWARDS if r in reached]


def _check_step(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    if args["reward"] == t.Reward.BASIC and args["kind"] is None:
        raise bad_argument(MoveKind.STEP, "kind")
    player = state["players"][seat]
    if not player["passed"] or player["row"] is None or player["done"]:
        raise violation("pharaon.no_step", N_("Only a player who passed steps on the "
                                              "pyramid."))
    reach = rewards_in_reach(state, seat)
    if args["reward"] is None:
        # only when every reward in reach is an offering and none is left anywhere
        if reach != [t.Reward.OFFERING.value] or offering_drawable(state) or any(
                token is not None for token in state["bonus"]):
            raise violation("pharaon.reward_needed", N_("Take one reward of the row."),
                            "reward")
        return
    if args["reward"] not in reach:
        raise violation("PH_E_REWARD_NOT_IN_ROW",
                        N_("That reward is not on the space reached or before it."), "reward")
    if args["reward"] == t.Reward.BASIC and refuses_short(state) and any(
            state["bank"][kind] > 0 for kind in t.BASIC):
        # Q17 "refuse": a basic token of a kind the bank still has
        check_bank_pays(state, {args["kind"]: 1}, (), "kind")
    if args["reward"] == t.Reward.OFFERING:
        source = args["source"]
        if source == "bag":
            if not offering_drawable(state):
                raise violation("PH_E_NOTHING_TO_TAKE", N_("There is nothing there to take."),
                                "source")
        elif source >= len(state["bonus"]) or state["bonus"][source] is None:
            raise violation("PH_E_NOTHING_TO_TAKE", N_("There is nothing there to take."),
                            "source")


def _pyramid_step(d: Draft, actor: int, reward: str, kind: str | None, source: Any) -> None:
    """§4.5: one space right, then one reward of that space or an earlier one of the row."""
    me = d.own("players", actor)
    me["space"] += 1
    if me["space"] >= len(pyramid_row(d.state, me["row"])) - 1:
        me["done"] = True          # the next step would leave the row: the round is over
    seat = seat_of(d.state, actor)
    if reward is None:
        return                     # nothing left to take (_check_step)
    if reward == t.Reward.FIRST_PLAYER:
        d["first_player"] = actor
    elif reward == t.Reward.BASIC:
        gain(d, actor, kind)
    elif reward == t.Reward.SILVER:
        gain(d, actor, t.SILVER)
    else:
        take_offering(d, actor, source, seat)


def _change_step(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    general = phase_of(d.state) == Phase.GENERAL
    if general:
        pop_head(d)
    _pyramid_step(d, seat, args["reward"], args["kind"], args["source"])
    if general and d["players"][seat]["row"] == 0:
        # SEED, the General (6): "a jste-li prvním pasujícím, automaticky dostanete i žeton
        # začínajícího hráče": the first passer's immediate step brings the first-player
        # token whatever reward it takes (ruling, issue 20)
        d["first_player"] = seat
    if not general:
        push_back(d, {"kind": Step.END_TURN})


def _change_skip_step(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    pop_head(d)


# The moves ``pass``, ``step`` and ``skip_step``, each declared once: its arguments, its check
# and its change.
RULES = (
    MoveRule(MoveKind.PASS, Term(N_("pass")), frozenset({Phase.TURN}),
             args=(
                 # a face-up jar by its place (from 0); "supply" is refused (PH_E_JAR_SOURCE)
                 ChoiceField("jar", N_("Jar"), (("supply", N_("the face-down supply")),)
                             + tuple(range(10)), optional=True),
                 exchange_argument(),
             ),
             check=_check_pass, change=_change_pass),
    MoveRule(MoveKind.STEP, Term(N_("step on the pyramid")),
             frozenset({Phase.TURN, Phase.GENERAL}),
             args=(
                 # none only when nothing is left to take (see _check_step)
                 ChoiceField("reward", N_("Reward"), REWARD_CHOICES, optional=True),
                 basic_kind("kind", N_("Resource"), optional=True),      # a basic reward
                 ChoiceField("source", N_("Offering from"), SOURCE_CHOICES, default="bag"),
             ),
             check=_check_step, change=_change_step),
    MoveRule(MoveKind.SKIP_STEP, Term(N_("skip the General's step")), frozenset({Phase.GENERAL}),
             change=_change_skip_step),
)
