"""Pharaon's print texts, built from ``companion.rules.pharaon.printed`` so the paper says what
the engine computes: each of the 26 nobles (spec pharaon.md §4.6) with its end points and its
effect in words, the action costs (§4.3) and the offering classes (§2.3).

Strings are msgids (the printing translator turns them into cs/hu); numbers are parameters
taken from the printed numbers, never typed twice. The Czech card names are the seed's (the
default edition prints them), shown beside the translated working names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from companion.rules.base import Term
from companion.rules.pharaon import printed as ph

from .i18n import N_

TYPE_LABELS: Mapping[str, str] = {
    ph.NobleType.PERMANENT: N_("permanent"),
    ph.NobleType.ROUND: N_("once a round"),
    ph.NobleType.ACQUIRED: N_("when taken"),
}

_POINTS: Mapping[str, str] = {
    ph.Formula.SCRIBE: N_("%(base)d + %(step)d per satisfied god beside its area (at most "
                          "%(max)d)"),
    ph.Formula.GENERAL: N_("%(base)d, +%(step)d with the Pharaoh token, +%(step)d with the "
                           "first-player token"),
    ph.Formula.FIXED: N_("%(base)d"),
    ph.Formula.VIZIER: N_("%(base)d + %(step)d per noble you own, itself included"),
    ph.Formula.PHYSICIAN: N_("%(base)d + %(step)d per different artisan value"),
    ph.Formula.SUPPLIER: N_("%(base)d + %(step)d per tomb step"),
    ph.Formula.HIGH_PRIEST: N_("%(base)d + %(step)d per offering left"),
    ph.Formula.STEWARD: N_("%(base)d + %(step)d per Nile track at level %(top)d"),
    ph.Formula.SEER: N_("%(base)d + %(step)d per satisfied god"),
    ph.Formula.TREASURER: N_("%(base)d + %(step)d per silver left"),
    ph.Formula.TEACHER: N_("%(base)d + %(step)d per basic token or resource offering left"),
    ph.Formula.DIPLOMAT: N_("the points of your best other noble"),
}

_EFFECTS: Mapping[str, str] = {
    ph.Ability.SCRIBE_PAIR: N_("The two colours on the card are interchangeable for you; a "
                               "token counts as one of them per use."),
    ph.Ability.GENERAL_STEP: N_("When you pass (not as the last), step on the pyramid at "
                                "once."),
    ph.Ability.ENTRY_OWN_COLOUR: N_("In the area on the card, the entry may be any basic "
                                    "token; it counts as its own colour."),
    ph.Ability.JUDGE: N_("Pay the Nobles action with any 5 tokens (they need not differ)."),
    ph.Ability.NONE: N_("No effect."),
    ph.Ability.FULL_AREA: N_("Use %(area)s although it is full (the entry goes to the "
                             "bank)."),
    ph.Ability.EXCHANGE_BASIC: N_("Exchange 1 basic token for one of another kind."),
    ph.Ability.EXCHANGE_SILVER: N_("Exchange 1 basic token for 1 silver."),
    ph.Ability.JAR_BONUS: N_("When you gain a jar, also take 1 basic token of your choice."),
    ph.Ability.JAR_SWAP: N_("When you gain a jar, you may take any 3 basic tokens instead."),
    ph.Ability.NILE_3_ICON_2: N_("Raise your Nile discs %(levels)d levels in all; gain "
                                 "%(n)d × the resource on the card."),
    ph.Ability.NILE_2_OFFER_2: N_("Raise your Nile discs %(levels)d levels in all; take %(n)d "
                                  "offerings."),
    ph.Ability.ARTISAN_ICON: N_("Take an artisan for free; gain %(n)d × the resource on the "
                                "card."),
    ph.Ability.ARTISAN_OFFER: N_("Take an artisan for free, and %(n)d offering."),
    ph.Ability.TOMB_ICON: N_("Advance one tomb space for free; gain %(n)d × the resource on "
                             "the card."),
    ph.Ability.TOMB_OFFER: N_("Advance one tomb space for free, and %(n)d offering."),
}


@dataclass(frozen=True)
class NobleLine:
    """One noble as the reference sheet prints it."""

    number: int
    name: str                                       # msgid (working name)
    printed: str                                    # the Czech card's name (seed)
    type: str                                       # msgid of its type
    points: str                                     # msgid
    effect: str                                     # msgid
    points_params: Mapping[str, Any] = field(default_factory=dict)
    effect_params: Mapping[str, Any] = field(default_factory=dict)


def noble_lines() -> tuple[NobleLine, ...]:
    """The 26 nobles in card order, each with its points and effect in words."""
    lines = []
    for number in ph.NOBLE_NUMBERS:
        noble = ph.NOBLES[number]
        points = {"base": noble.base, "step": ph.FORMULA_STEP.get(noble.formula, 0),
                  "max": ph.SCRIBE_MAX_POINTS, "top": ph.NILE_TOP}
        effect: dict[str, Any] = {}
        if noble.ability == ph.Ability.FULL_AREA:
            effect["area"] = ph.AREA_LABELS[ph.FULL_AREA_NOBLES[number]]
        if number in ph.COURT_NILE_LEVELS:
            effect["levels"] = ph.COURT_NILE_LEVELS[number]
        if number in ph.COURT_ICON_COUNT:
            effect["n"] = ph.COURT_ICON_COUNT[number]
        elif number in ph.COURT_OFFERINGS:
            effect["n"] = ph.COURT_OFFERINGS[number]
        lines.append(NobleLine(number, noble.name, noble.name_cs, TYPE_LABELS[noble.type],
                               _POINTS[noble.formula], _EFFECTS[noble.ability], points,
                               effect))
    return tuple(lines)


# Action costs (spec §4.3), in the areas' printed order.
ACTION_COSTS: tuple[tuple[str, str], ...] = (
    ("OFF", N_("1 of any kind")),
    ("NOB", N_("5 different (Judge: any 5)")),
    ("ART", N_("3 of one kind")),
    ("NIL", N_("as printed")),
    ("TMB", N_("next space, as printed")),
)


def area_label(area: str) -> Term:
    return ph.AREA_LABELS[area]
