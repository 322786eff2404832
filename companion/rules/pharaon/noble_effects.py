"""The acquisition effects of the Court Officials (nobles 21-26; spec shared/rules/pharaon.md
§4.6): move ``noble_effect`` (Nile levels, offerings, a free artisan; 25 resolves without a
choice).
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import N_, Term
from ..referee import Draft, MoveRule, is_int
from . import printed as t
from .actions import parse_kinds, parse_source
from .gains import raise_nile, take_artisan, take_offering, tomb_step_free
from .state import MoveKind, Phase, bad_move, gain, pending_head, pop_head, violation


def _parse_noble_effect(move: Mapping[str, Any]) -> dict[str, Any]:
    args: dict[str, Any] = {"tracks": parse_kinds(move.get("tracks", []), "tracks", t.BASIC,
                                                 0, 3)}
    sources = move.get("sources", [])
    if not isinstance(sources, list) or len(sources) > 2:
        raise bad_move("sources")
    args["sources"] = [parse_source(s, f"sources.{i}") for i, s in enumerate(sources)]
    artisan = move.get("artisan")
    if artisan is not None and artisan != "top" and not (is_int(artisan) and 0 <= artisan < 4):
        raise bad_move("artisan")
    args["artisan"] = artisan
    return args


def _check_noble_effect(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    card = pending_head(state)["card"]
    levels = t.COURT_NILE_LEVELS.get(card, 0)
    if len(args["tracks"]) != levels:
        raise violation("PH_E_NILE_TRACK", N_("Move the Nile discs %(levels)d levels in all."),
                         "tracks", levels=levels)
    # as many offerings as the card gives, or as are left to take (bonus spaces and bag)
    in_bag = sum(state["bag"].values()) + sum(state["offer_discard"].values())
    on_bonus = sum(1 for token in state["bonus"] if token is not None)
    offerings = min(t.COURT_OFFERINGS.get(card, 0), in_bag + on_bonus)
    if len(args["sources"]) != offerings:
        raise violation("pharaon.wrong_count", N_("Take %(count)d offerings."), "sources",
                         count=offerings)
    bonus_used = [s for s in args["sources"] if s != "bag"]
    for i, source in enumerate(args["sources"]):
        if source == "bag":
            if args["sources"][:i + 1].count("bag") > in_bag:
                raise violation("PH_E_NOTHING_TO_TAKE", N_("There is nothing there to take."),
                                 f"sources.{i}")
        elif (source >= len(state["bonus"]) or state["bonus"][source] is None
              or bonus_used.count(source) > 1):
            raise violation("PH_E_NOTHING_TO_TAKE", N_("There is nothing there to take."),
                             f"sources.{i}")
    if card in (23, 24):
        artisan = args["artisan"]
        display = state["artisan_display"]
        available = any(c is not None for c in display) or state["artisan_deck"] > 0
        if artisan is None and available:
            raise violation("PH_E_NOTHING_TO_TAKE", N_("Choose an artisan to take."),
                             "artisan")
        if artisan == "top" and state["artisan_deck"] == 0:
            raise violation("PH_E_NOTHING_TO_TAKE", N_("There is nothing there to take."),
                             "artisan")
        if is_int(artisan) and (artisan >= len(display) or display[artisan] is None):
            raise violation("PH_E_NOTHING_TO_TAKE", N_("There is nothing there to take."),
                             "artisan")


def _change_noble_effect(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    head = pop_head(d)
    card = head["card"]
    icon = d["rules"]["court_icons"].get(str(card))
    for track in args["tracks"]:
        raise_nile(d, seat, track)
    if card in t.COURT_ICON_COUNT:
        gain(d, seat, icon, t.COURT_ICON_COUNT[card])
    if card == 26:
        tomb_step_free(d, seat)
    if card in (23, 24) and args["artisan"] is not None:
        # a free artisan with its printed resources (and its jar, as in the ART action)
        take_artisan(d, seat, args["artisan"], seat)
    for source in args["sources"]:
        take_offering(d, seat, source, seat)


# Each move kind declared once: its phases, arguments, check and change.
RULES = (
    MoveRule(MoveKind.NOBLE_EFFECT, Term(N_("resolve a noble's effect")), frozenset({Phase.NOBLE_EFFECT}),
             parse=_parse_noble_effect, check=_check_noble_effect, change=_change_noble_effect),
)
