"""The Teacher and the Diplomat when a jar is gained (nobles 19-20; spec
shared/rules/pharaon.md §4.6): move ``jar_gain``, with an exchange if wished.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import ListField, N_, Term
from ..referee import Draft, MoveRule
from . import printed as t
from .exchanges import check_exchange, exchange_argument, make_exchange
from .state import MoveKind, Phase, basic_kind, gain, holdings, pending_head, pop_head, violation


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
        check_exchange(state, seat, args["exchange"], after, MoveKind.JAR_GAIN, "exchange")


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


# The move ``jar_gain``, declared once: its arguments, its check and its change. Neither
# noble used: the jar's three resources, as they are.
RULES = (
    MoveRule(MoveKind.JAR_GAIN, Term(N_("use the Teacher or the Diplomat")),
             frozenset({Phase.JAR_GAIN}),
             args=(
                 basic_kind("teacher", N_("The Teacher's extra basic token"), optional=True),
                 ListField("diplomat", N_("The Diplomat's three basic tokens"),
                           basic_kind("kind", N_("Resource")), min_items=3, max_items=3,
                           optional=True, item_label=N_("Token %(n)d")),
                 exchange_argument(),
             ),
             check=_check_jar_gain, change=_change_jar_gain),
)
