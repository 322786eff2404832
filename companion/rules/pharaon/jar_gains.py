"""The Teacher and the Diplomat when a jar is gained (nobles 19-20; spec
shared/rules/pharaon.md §4.6): move ``jar_gain``, with an exchange if wished.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import N_, Term
from ..referee import Draft, MoveRule
from . import printed as t
from .actions import parse_kinds
from .exchanges import check_exchange, make_exchange, parse_exchange
from .state import MoveKind, Phase, bad_move, gain, holdings, pending_head, pop_head, violation


def _parse_jar_gain(move: Mapping[str, Any]) -> dict[str, Any]:
    teacher = move.get("teacher")
    if teacher is not None and teacher not in t.BASIC:
        raise bad_move("teacher")
    diplomat = move.get("diplomat")
    if diplomat is not None:
        diplomat = parse_kinds(diplomat, "diplomat", t.BASIC, 3, 3)
    exchange = move.get("exchange")
    return {"teacher": teacher, "diplomat": diplomat,
            "exchange": None if exchange is None else parse_exchange(exchange, "exchange")}


def _check_jar_gain(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    player = state["players"][seat]
    for card, key in ((t.TEACHER, "teacher"), (t.DIPLOMAT, "diplomat")):
        if args[key] is not None and (card not in player["nobles"] or card in player["used"]):
            raise violation("PH_E_ABILITY_USED",
                             N_("This noble's ability is used already this round."), key)
    if args["exchange"] is not None:
        head = pending_head(state)
        after = holdings(state, seat)
        gained = args["diplomat"] if args["diplomat"] is not None else head["jar"]
        for kind in list(gained) + ([args["teacher"]] if args["teacher"] else []):
            after[kind] = after.get(kind, 0) + 1
        check_exchange(state, seat, args["exchange"], after, "exchange")


def _change_jar_gain(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    head = pop_head(d)
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
        gain(d, seat, kind)
    if args["exchange"] is not None:
        make_exchange(d, seat, args["exchange"])


# Each move kind declared once: its phases, arguments, check and change.
RULES = (
    MoveRule(MoveKind.JAR_GAIN, Term(N_("use the Teacher or the Diplomat")), frozenset({Phase.JAR_GAIN}),
             parse=_parse_jar_gain, check=_check_jar_gain, change=_change_jar_gain),
)
