"""The acquisition effects of the Court Officials (nobles 21-26; spec shared/rules/pharaon.md
§4.6): move ``noble_effect`` (Nile levels, offerings, a free artisan; 25 resolves without a
choice).
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import ChoiceField, ListField, N_, Term
from ..referee import Draft, MoveRule, is_int
from . import printed as t
from .gains import raise_nile, take_artisan, take_offering, tomb_step_free
from .state import (SOURCE_CHOICES, MoveKind, Phase, basic_kind, gain, pending_head, pop_head,
                    violation)


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


# The move ``noble_effect``, declared once: its arguments, its check and its change.
RULES = (
    MoveRule(MoveKind.NOBLE_EFFECT, Term(N_("resolve a noble's effect")),
             frozenset({Phase.NOBLE_EFFECT}),
             args=(
                 ListField("tracks", N_("Nile levels"), basic_kind("track", N_("Track")),
                           max_items=max(t.COURT_NILE_LEVELS.values()), default=(),
                           item_label=N_("Level %(n)d")),
                 ListField("sources", N_("Offerings"),
                           ChoiceField("source", N_("From"), SOURCE_CHOICES),
                           max_items=max(t.COURT_OFFERINGS.values()), default=(),
                           item_label=N_("Offering %(n)d")),
                 # nobles 23-24: a displayed artisan (from the left, from 0) or the deck's top
                 ChoiceField("artisan", N_("Artisan"),
                             (("top", N_("the top of the deck")), 0, 1, 2, 3), optional=True),
             ),
             check=_check_noble_effect, change=_change_noble_effect),
)
