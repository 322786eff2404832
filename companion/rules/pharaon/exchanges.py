"""Exchanges with the Seer and the Treasurer (nobles 17-18; spec shared/rules/pharaon.md §4.5
move C): a basic token (or, with the option, a resource offering) for a basic token of another
kind or for a silver, once a round; alone (move ``exchange``) or with a pass or a jar gain.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import ChoiceField, N_, ObjectField, Term
from ..referee import Draft, MoveRule
from . import printed as t
from .state import (BASIC_CHOICES, KIND_CHOICES, MoveKind, Phase, bad_argument, gain, holdings,
                    spend, token_label, violation)


def sub_path(argument: str, key: str) -> str:
    """The path of ``key`` inside an argument (the move itself when ``argument`` is empty)."""
    return f"{argument}.{key}" if argument else key


def exchange_get(exchange: Mapping[str, Any]) -> str:
    """The kind an exchange gets: the one asked of the Seer, silver from the Treasurer."""
    return exchange["get"] or t.SILVER


def check_exchange(state: Mapping[str, Any], seat: int, exchange: Mapping[str, Any],
                   held: Mapping[str, int], kind: str, argument: str) -> None:
    """An exchange made alone (``argument`` "") or within a ``kind`` move (``argument``
    "exchange"), ``held`` being what the seat holds by then."""
    card, give, get = exchange["card"], exchange["give"], exchange["get"]
    if card == t.SEER and get is None:
        raise bad_argument(kind, sub_path(argument, "get"))
    if card == t.SEER and get == t.SILVER:
        raise bad_argument(kind, sub_path(argument, "get"),
                           N_("The Seer gives a basic token, not silver."))
    if card == t.TREASURER and get not in (None, t.SILVER):
        raise bad_argument(kind, sub_path(argument, "get"), N_("The Treasurer gives silver."))
    get = exchange_get(exchange)
    player = state["players"][seat]
    if card not in player["nobles"]:
        raise violation("pharaon.noble_not_owned", N_("You do not own noble %(card)d."),
                        sub_path(argument, "card"), card=card)
    if card in player["used"]:
        raise violation("PH_E_ABILITY_USED",
                        N_("This noble's ability is used already this round."),
                        sub_path(argument, "card"))
    if give in t.RESOURCE_OFFERINGS and not state["options"]["seer_on_offerings"]:
        raise violation("pharaon.bad_declaration", N_("This token cannot be exchanged."),
                        sub_path(argument, "give"))
    if held.get(give, 0) < 1:
        raise violation("PH_E_TOKEN_NOT_OWNED",
                        N_("You do not have that many %(token)s tokens."),
                        sub_path(argument, "give"), token=token_label(give))
    if card == t.SEER and get == (give if give in t.BASIC else give[2:]):
        raise violation("pharaon.same_kind", N_("Exchange for another kind."),
                        sub_path(argument, "get"))
    if state["bank"][get] < 1:
        raise violation("PH_E_BANK_EMPTY", N_("The bank has no %(kind)s left."),
                        sub_path(argument, "get"), kind=t.KIND_LABELS[get])


def _check_exchange_move(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    check_exchange(state, seat, args, holdings(state, seat), MoveKind.EXCHANGE, "")


def make_exchange(d: Draft, seat: int, exchange: Mapping[str, Any]) -> None:
    """Nobles 17/18 (move C): give a basic token (or a resource offering) for a basic token
    of another kind, or for a silver; once per round."""
    spend(d, seat, exchange["give"])
    d.own("players", seat, "used").append(exchange["card"])
    gain(d, seat, exchange_get(exchange))


def _change_exchange(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    make_exchange(d, seat, args)


def exchange_cards(state: Mapping[str, Any], seat: int) -> list[int]:
    """The Seer and Treasurer ``seat`` may still use this round."""
    player = state["players"][seat]
    return [card for card in (t.SEER, t.TREASURER)
            if card in player["nobles"] and card not in player["used"]]


# The exchange's arguments, alone or within a pass or a jar gain.
EXCHANGE_FIELDS = (
    ChoiceField("card", N_("Noble"), ((t.SEER, N_("Seer")), (t.TREASURER, N_("Treasurer")))),
    ChoiceField("give", N_("Give"), BASIC_CHOICES + t.RESOURCE_OFFERINGS),
    ChoiceField("get", N_("Get"), KIND_CHOICES, optional=True),    # the Treasurer: silver
)


def exchange_argument() -> ObjectField:
    """The optional ``exchange`` of a pass or a jar gain."""
    return ObjectField("exchange", N_("Exchange"), EXCHANGE_FIELDS, optional=True)


# The move ``exchange``, declared once: its arguments, its check and its change.
RULES = (
    MoveRule(MoveKind.EXCHANGE, Term(N_("exchange a token")), frozenset({Phase.TURN}),
             args=EXCHANGE_FIELDS, check=_check_exchange_move, change=_change_exchange),
)
