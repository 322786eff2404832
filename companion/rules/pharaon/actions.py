"""The area actions (spec shared/rules/pharaon.md §4.1-§4.3, move ``action``).

The entry lies on the first free usable spot of the segment facing the area (the "4+" spot only
at 4-5 players), the action cost is paid with declared tokens (payment.py: the one-token
deduction, silver that stays the kind it was laid as, area offerings only in their area,
Scribe pairs, nobles 7-10 entering by their own colour, the Judge, nobles 13-16 in a full
area), then the area's effect: a pair of offerings (and the bonus), a noble, an artisan, a
Nile action (from the group's catalogue, or declared in confirm mode), the next tomb space.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from ..base import BoolField, ChoiceField, IntField, ListField, N_, ObjectField, Term
from ..referee import Draft, MoveRule
from . import printed as t
from .edition import arrow_tracks
from .payment import (CostVerdict, PayContext, area_pattern, cost_problem, declarable_kinds,
                      entry_kinds, scribe_partners)
from .gains import acquire_noble, raise_nile, refill_noble, take_artisan, take_offering
from .state import (KIND_CHOICES, SOURCE_CHOICES, DrawTo, MoveKind, NileMode, Phase, Step,
                    bad_argument, basic_kind, check_bank_pays, deck_left, entry_colour, free_spot,
                    full_area_noble, gain, jar_drawable, lay_on_wheel, nile_mode,
                    offering_drawable, owns, push_back, push_front, refuses_short, seat_of, spend,
                    token_label, tomb_length, tomb_points_known, tomb_space, violation)


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
            raise violation("PH_E_TOKEN_NOT_OWNED",
                            N_("You do not have that many %(token)s tokens."), argument,
                            token=token_label(token))


def pay_context(state: Mapping[str, Any], actor: int, area: str) -> PayContext:
    """What decides which kinds ``actor``'s tokens may count as in ``area``."""
    player = state["players"][actor]
    rules = state["rules"]
    pairs = [rules["scribes"][card - 1]["pair"] for card in player["nobles"]
             if card in t.SCRIBES]
    own = any(rules["entry_noble_areas"][str(card)] == area for card in player["nobles"]
              if card in t.ENTRY_NOBLES)
    return PayContext(area=area, entry_colour=entry_colour(state, area),
                      partners=scribe_partners(pairs), own_colour_entry=own,
                      point_offerings_spendable=state["options"]["point_offerings_spendable"])


def _action_pattern(state: Mapping[str, Any], actor: int, args: Mapping[str, Any]
                    ) -> Any:
    area = args["area"]
    if area == "OFF":
        return area_pattern("OFF", bonus=args["bonus"] is not None)
    if area == "NOB":
        return area_pattern("NOB", judge=owns(state, actor, t.JUDGE))
    if area == "ART":
        return area_pattern("ART")
    if area == "NIL":
        nile = args["nile"]
        if nile["action"] is not None:
            return area_pattern("NIL",
                                fixed=state["rules"]["nile_actions"][nile["action"]]["cost"])
        return area_pattern("NIL", fixed=nile["cost"])
    player = state["players"][actor]
    printed = tomb_space(state, player["tomb"] + 1)["cost"]
    return area_pattern("TMB", fixed=printed if printed is not None else args["tomb"]["cost"])


def _check_arguments(args: Mapping[str, Any]) -> None:
    """The arguments the chosen area needs: a pair (Offerings), a card (Nobles, Artisans), a
    Nile action, or the declared cost of one (confirm mode, at most 4 resources gained)."""
    area = args["area"]
    if area == "OFF" and args["pair"] is None:
        raise bad_argument(MoveKind.ACTION, "pair")
    if area in ("NOB", "ART") and args["card"] is None:
        raise bad_argument(MoveKind.ACTION, "card")
    if area == "NIL":
        nile = args["nile"]
        if nile is None:
            raise bad_argument(MoveKind.ACTION, "nile")
        if nile["action"] is None:
            if nile["cost"] is None:
                raise bad_argument(MoveKind.ACTION, "nile.cost")
            if sum(nile["gains"].values()) > t.NILE_CONFIRM_LIMITS["gains"]:
                raise bad_argument(MoveKind.ACTION, "nile.gains",
                                   N_("At most 4 resources in all."))


def _check_action(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    _check_arguments(args)
    actor = seat
    player = state["players"][actor]
    area = args["area"]
    if player["passed"]:
        raise violation("PH_E_PASSED", N_("You have passed this round."))
    colour = entry_colour(state, area)
    if free_spot(state, colour) is None and full_area_noble(state, actor, area) is None:
        raise violation("PH_E_AREA_FULL",
                        N_("Every entry spot of %(area)s is taken this round."), "area",
                        area=t.AREA_LABELS[area])
    # the structure of the chosen Nile action or tomb space, before its cost is checked
    if area == "TMB":
        if player["tomb"] >= tomb_length(state):
            raise violation("PH_E_TOMB_END", N_("Your tomb is finished: no space is left."),
                            "area")
        printed = tomb_space(state, player["tomb"] + 1)["cost"]
        tomb = args["tomb"]
        if printed is None and tomb["cost"] is None:
            raise violation("pharaon.tomb_cost_needed",
                            N_("Your copy's tomb costs are not entered: give the cost printed "
                                "under the next space."), "tomb.cost")
        if printed is not None and tomb["cost"] is not None and sorted(
                tomb["cost"]) != sorted(printed):
            raise violation("pharaon.tomb_cost_differs",
                            N_("The next tomb space costs something else in your copy."),
                            "tomb.cost")
        known = tomb_points_known(state, player["tomb"] + 1)
        if tomb["points"] is not None and known is not None and known != tomb["points"]:
            raise violation("pharaon.tomb_points_differ",
                            N_("That tomb space is worth %(points)d points."), "tomb.points",
                            points=known)
    if area == "NIL":
        catalogue = nile_mode(state) == NileMode.CATALOGUE
        if catalogue != (args["nile"]["action"] is not None):
            raise violation("pharaon.nile_mode",
                            N_("Choose one of the five Nile actions of your copy.") if catalogue
                            else N_("Your copy's Nile actions are not entered: declare the "
                                    "cost, gains and moves of the action you take."), "nile")
    ctx = pay_context(state, actor, area)
    entry = args["entry"]
    if entry["token"] in t.POINT_OFFERINGS and not ctx.point_offerings_spendable:
        raise violation("PH_E_NOT_SPENDABLE", N_("Point offerings cannot be spent."),
                        "entry.token")
    if entry["as"] not in entry_kinds(entry["token"], ctx):
        raise violation("PH_E_ENTRY_KIND",
                        N_("The entry of %(area)s this round is %(colour)s; this token cannot "
                            "be laid as that."), "entry", area=t.AREA_LABELS[area],
                        colour=t.KIND_LABELS[ctx.entry_colour])
    for i, decl in enumerate(args["pay"]):
        if decl["token"] in t.POINT_OFFERINGS and not ctx.point_offerings_spendable:
            raise violation("PH_E_NOT_SPENDABLE", N_("Point offerings cannot be spent."),
                            f"pay.{i}.token")
        if decl["as"] not in declarable_kinds(decl["token"], ctx):
            raise violation("pharaon.bad_declaration",
                            N_("This token cannot count as %(kind)s here."), f"pay.{i}",
                            kind=t.KIND_LABELS[decl["as"]])
    _check_own_tokens(state, actor, [entry["token"]] + [p["token"] for p in args["pay"]],
                      "pay")
    problem = cost_problem(_action_pattern(state, actor, args), entry["as"],
                           [p["as"] for p in args["pay"]])
    if problem is not None:
        verdict, kinds = problem
        if verdict == CostVerdict.UNMET:
            raise violation("PH_E_COST_UNMET",
                            N_("The action cost is not met: %(count)d more needed."), "pay",
                            count=sum(kinds.values()))
        if state["options"]["reject_overpayment"]:
            raise violation("PH_E_OVERPAID",
                            N_("You pay %(count)d more than the action costs."), "pay",
                            count=sum(kinds.values()))
    _check_area_target(state, actor, args)
    if area == "NIL" and refuses_short(state):
        nile = args["nile"]
        gains = (state["rules"]["nile_actions"][nile["action"]]["gains"]
                 if nile["action"] is not None else nile["gains"])
        spent = [entry["token"]] if free_spot(state, colour) is None else []
        check_bank_pays(state, gains, spent + [p["token"] for p in args["pay"]], "nile")


def _check_area_target(state: Mapping[str, Any], actor: int, args: Mapping[str, Any]) -> None:
    """PH_E_NOTHING_TO_TAKE and PH_E_NILE_TRACK: what the action takes must exist."""
    area = args["area"]
    nothing = N_("There is nothing there to take.")
    if area == "OFF":
        pairs = state["pairs"]
        if args["pair"] >= len(pairs) or len(pairs[args["pair"]]) == 0:
            raise violation("PH_E_NOTHING_TO_TAKE", nothing, "pair")
        bonus = args["bonus"]
        if bonus == "bag":
            if not offering_drawable(state):
                raise violation("PH_E_NOTHING_TO_TAKE", nothing, "bonus")
        elif bonus is not None and (bonus >= len(state["bonus"]) or state["bonus"][bonus] is None):
            raise violation("PH_E_NOTHING_TO_TAKE", nothing, "bonus")
    elif area in ("NOB", "ART"):
        display = state["noble_display" if area == "NOB" else "artisan_display"]
        card = args["card"]
        if card == "top":
            if not deck_left(state, area):
                raise violation("PH_E_NOTHING_TO_TAKE", nothing, "card")
        elif card >= len(display) or display[card] is None:
            raise violation("PH_E_NOTHING_TO_TAKE", nothing, "card")
    elif area == "NIL":
        nile = args["nile"]
        if nile["action"] is not None:
            arrows = state["rules"]["nile_actions"][nile["action"]]["arrows"]
            if len(nile["tracks"]) != len(arrows) or any(
                    track not in arrow_tracks(arrow)
                    for track, arrow in zip(nile["tracks"], arrows)):
                raise violation("PH_E_NILE_TRACK",
                                N_("Each arrow moves one of the tracks it shows."), "nile.tracks")
        if (nile["jar"] if nile["action"] is None
                else state["rules"]["nile_actions"][nile["action"]]["jar"]) \
                and not jar_drawable(state):
            raise violation("PH_E_NOTHING_TO_TAKE", nothing, "nile.jar")


def _change_action(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    actor = seat
    area = args["area"]
    state = d.state
    colour = entry_colour(state, area)
    spot = free_spot(state, colour)
    entry = args["entry"]
    if spot is not None:
        lay_on_wheel(d, actor, entry["token"], colour, spot)
    else:
        # §4.6 nobles 13-16: the area is full; Q11: the entry token goes to the bank
        card = full_area_noble(state, actor, area)
        d.own("players", actor, "used").append(card)
        spend(d, actor, entry["token"])
    for decl in args["pay"]:
        spend(d, actor, decl["token"])
    seat_for = seat_of(state, actor)
    if area == "OFF":
        pair = list(d["pairs"][args["pair"]])
        d.own("pairs")[args["pair"]] = []
        for token in pair:
            d.own("players", actor, "off")[token] += 1
        take_offering(d, actor, args["bonus"], seat_for)
    elif area == "NOB":
        if args["card"] == "top":
            push_front(d, {"kind": Phase.DRAW_NOBLES, "seat": seat_for, "count": 1,
                           "to": DrawTo.TAKE, "actor": actor})
        else:
            card = d["noble_display"][args["card"]]
            d.own("noble_display")[args["card"]] = None
            refill_noble(d, args["card"], seat_for)
            acquire_noble(d, actor, card)
    elif area == "ART":
        take_artisan(d, actor, args["card"], seat_for)
    elif area == "NIL":
        nile = args["nile"]
        if nile["action"] is not None:
            action = d["rules"]["nile_actions"][nile["action"]]
            gains, jar = action["gains"], action["jar"]
        else:
            gains, jar = nile["gains"], nile["jar"]
        for kind, count in gains.items():
            gain(d, actor, kind, count)
        for track in nile["tracks"]:
            raise_nile(d, actor, track)
        if jar:
            push_front(d, {"kind": Step.NEED_JARS, "seat": seat_for, "count": 1, "to": DrawTo.GAIN,
                           "actor": actor})
    else:
        step = d["players"][actor]["tomb"] + 1
        d.own("players", actor)["tomb"] = step
        points = args["tomb"]["points"]
        if points is not None and tomb_points_known(d.state, step) is None:
            d.own("tomb_points")[str(step)] = points
    push_back(d, {"kind": Step.END_TURN})


_TOKEN_CHOICES = KIND_CHOICES + t.OFFERING_KINDS
_DECLARATION = (ChoiceField("token", N_("Token"), _TOKEN_CHOICES),
                basic_kind("as", N_("Counts as")))

# The move ``action``, declared once: its arguments, its check and its change.
RULES = (
    MoveRule(
        MoveKind.ACTION, Term(N_("take an area action")), frozenset({Phase.TURN}),
        args=(
            ChoiceField("area", N_("Area"), tuple((a, str(t.AREA_LABELS[a])) for a in t.AREAS)),
            ObjectField("entry", N_("Entry"), _DECLARATION, required=True),
            ListField("pay", N_("Payment"), ObjectField("unit", N_("Unit"), _DECLARATION),
                      max_items=8, default=(), item_label=N_("Unit %(n)d")),
            # Offerings: the pair taken (from the top, from 0) and, for the bonus, its source
            IntField("pair", N_("Offering pair"), max=9, optional=True),
            ChoiceField("bonus", N_("Bonus offering"), SOURCE_CHOICES, optional=True),
            # Nobles, Artisans: a displayed card (from the left, from 0) or the deck's top
            ChoiceField("card", N_("Card"), (("top", N_("the top of the deck")), 0, 1, 2, 3),
                        optional=True),
            # Nile: an action of the group's catalogue, or (confirm mode) the one declared
            ObjectField("nile", N_("Nile"), (
                IntField("action", N_("Action"), max=t.NILE_ACTIONS - 1, optional=True),
                ListField("tracks", N_("Tracks moved"), basic_kind("track", N_("Track")),
                          max_items=t.NILE_CONFIRM_LIMITS["tracks"], default=(),
                          item_label=N_("Arrow %(n)d")),
                ListField("cost", N_("Cost"), basic_kind("kind", N_("Colour")),
                          min_items=t.NILE_CONFIRM_LIMITS["cost"][0],
                          max_items=t.NILE_CONFIRM_LIMITS["cost"][1], optional=True,
                          item_label=N_("Unit %(n)d")),
                ObjectField("gains", N_("Gains"), tuple(
                    IntField(kind, label, max=t.NILE_CONFIRM_LIMITS["gains"])
                    for kind, label in KIND_CHOICES)),
                BoolField("jar", N_("A jar")),
            ), optional=True),
            # Tomb: the cost printed under the next space, when the group has not entered it,
            # and its points, when they can be read
            ObjectField("tomb", N_("Tomb"), (
                ListField("cost", N_("Cost"), basic_kind("kind", N_("Colour")),
                          min_items=t.TOMB_COST_UNITS[0], max_items=t.TOMB_COST_UNITS[1],
                          optional=True, item_label=N_("Unit %(n)d")),
                IntField("points", N_("Points"), max=200, optional=True),
            )),
        ),
        check=_check_action, change=_change_action),
)
