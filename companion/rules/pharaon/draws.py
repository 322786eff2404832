"""The physical draws, entered as chance inputs (design.md §2 "physical randomness is
input"; spec shared/rules/pharaon.md §2.3, §3.2, §3.4, §4.3): moves ``draw_jars``,
``draw_nobles``, ``draw_artisans``, ``draw_offerings`` and, in solo, ``draw_traitor_tiles`` and
``draw_traitor_colours``.

Each is checked against what is still unseen (the group's catalogue of jars and artisans when
it entered one; else only the count); :func:`chance` describes the draw awaited, with what is
still possible and how many copies.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Mapping, Sequence

from ..base import Chance, ChoiceField, ListField, N_, Term
from ..referee import Draft, MoveRule
from . import printed as t
from .edition import ARTISAN, JAR
from .gains import acquire_noble, gain_artisan, gain_jar
from .rounds import offering_slots
from .setup import check_traitor_layout, colour_traitor_columns, lay_traitor_tiles
from .state import (CHANCE_STEPS, DrawTo, MoveKind, Phase, basic_kind, pending_head, pop_head,
                    push_front, violation)
from .traitor_turns import traitor_jar


def _jar_key(jar: Sequence[str]) -> tuple[str, ...]:
    return tuple(jar)


def _artisan_key(card: Mapping[str, Any]) -> tuple[Any, ...]:
    return (card["points"], tuple(sorted(card["gains"].items())), card["jar"])


def jar_pool(state: Mapping[str, Any]) -> Counter:
    """The jars that may come up: the catalogue less every jar face up or discarded."""
    pool = Counter(_jar_key(j) for j in state["rules"]["jar_tiles"])
    pool.subtract(Counter(_jar_key(j) for j in state["jar_display"]))
    pool.subtract(Counter(_jar_key(j) for j in state["jar_discard"]))
    return +pool


def artisan_pool(state: Mapping[str, Any]) -> Counter:
    """The artisans that may come up: the catalogue less every one seen."""
    pool = Counter(_artisan_key(c) for c in state["rules"]["artisan_cards"])
    pool.subtract(Counter(_artisan_key(c) for c in state["artisans_seen"]))
    return +pool


def _artisan_from_key(key: tuple[Any, ...]) -> dict[str, Any]:
    points, gains, jar = key
    return {"points": points, "gains": dict(gains), "jar": jar}


def _artisans(args: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The artisans entered, as the catalogue lists them (the resources they give only)."""
    return [{"points": card["points"], "jar": card["jar"],
             "gains": {kind: n for kind, n in card["gains"].items() if n}}
            for card in args["cards"]]


def _check_draw_jars(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    head = pending_head(state)
    jars = args["jars"]
    if len(jars) != head["count"]:
        raise violation("pharaon.wrong_count", N_("Enter %(count)d jars."), "jars",
                        count=head["count"])
    if state["rules"]["jars_checked"]:
        pool = jar_pool(state)
        pool.subtract(Counter(_jar_key(j) for j in jars))
        if any(n < 0 for n in pool.values()):
            raise violation("pharaon.not_in_supply",
                            N_("No such jar is left face down."), "jars")


def _change_draw_jars(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    head = pop_head(d)
    jars = [list(j) for j in args["jars"]]
    to = head["to"]
    if to == DrawTo.DISPLAY:
        d["jar_supply"] = d["jar_supply"] - len(jars)
        d["jar_display"] = list(d["jar_display"]) + jars
    elif to == DrawTo.GAIN:
        d["jar_supply"] = d["jar_supply"] - 1
        d["jar_discard"] = list(d["jar_discard"]) + jars
        gain_jar(d, head["actor"], jars[0])
    else:                                      # the Traitor's stack (§7.2)
        d.own("traitor_board")["stack"] -= 1
        d["jar_discard"] = list(d["jar_discard"]) + jars
        traitor_jar(d, jars[0])


def _check_draw_nobles(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    head = pending_head(state)
    cards = args["cards"]
    if len(cards) != head["count"]:
        raise violation("pharaon.wrong_count", N_("Enter %(count)d nobles."), "cards",
                        count=head["count"])
    _take_nobles(state, cards, head.get("scribes", False))


def _take_nobles(state: Mapping[str, Any], cards: Sequence[int], scribes: bool = False
                 ) -> tuple[list[int], list[int]]:
    """The deck and bottom cards after drawing ``cards`` in order, or a refusal: a card must
    be in the deck; cards put under the deck (Q15) come only once the rest is drawn."""
    deck, bottom = list(state["noble_deck"]), list(state["noble_bottom"])
    for card in cards:
        if scribes:
            if card not in t.SCRIBES or card not in deck:
                raise violation("pharaon.not_in_supply", N_("No such Scribe is in the deck."),
                                "cards", card=card)
            deck.remove(card)
        elif card in deck:
            deck.remove(card)
        elif not deck and bottom and bottom[0] == card:
            bottom.pop(0)
        else:
            raise violation("pharaon.not_in_supply",
                            N_("Noble %(card)d is not in the deck."), "cards", card=card)
    return deck, bottom


def _change_draw_nobles(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    head = pop_head(d)
    cards = args["cards"]
    deck, bottom = _take_nobles(d.state, cards, head.get("scribes", False))
    d["noble_deck"], d["noble_bottom"] = deck, bottom
    to = head["to"]
    if to == DrawTo.DISPLAY:
        for slot, card in zip(head["slots"], cards):
            d.own("noble_display")[slot] = card
    elif to == DrawTo.TAKE:
        acquire_noble(d, head["actor"], cards[0])
    else:                                      # the starting pick (§3.2 step 8 c)
        push_front(d, {"kind": Phase.START_PICK, "seat": head["pick"], "nobles": list(cards)})


def _check_draw_artisans(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    head = pending_head(state)
    cards = _artisans(args)
    if len(cards) != head["count"]:
        raise violation("pharaon.wrong_count", N_("Enter %(count)d artisans."), "cards",
                        count=head["count"])
    if state["rules"]["artisans_checked"]:
        pool = artisan_pool(state)
        pool.subtract(Counter(_artisan_key(c) for c in cards))
        if any(n < 0 for n in pool.values()):
            raise violation("pharaon.not_in_supply",
                            N_("No such artisan is left in the deck."), "cards")


def _change_draw_artisans(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    head = pop_head(d)
    cards = _artisans(args)
    d["artisan_deck"] = d["artisan_deck"] - len(cards)
    d["artisans_seen"] = list(d["artisans_seen"]) + [dict(c) for c in cards]
    if head["to"] == DrawTo.DISPLAY:
        for slot, card in zip(head["slots"], cards):
            d.own("artisan_display")[slot] = dict(card)
    else:
        gain_artisan(d, head["actor"], cards[0], seat)


def _check_draw_offerings(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]
                          ) -> None:
    head = pending_head(state)
    tokens = args["tokens"]
    if len(tokens) != head["count"]:
        raise violation("pharaon.wrong_count", N_("Enter %(count)d offerings."), "tokens",
                        count=head["count"])
    for token, count in Counter(tokens).items():
        if state["bag"][token] < count:
            raise violation("pharaon.not_in_supply", N_("No such offering is in the bag."),
                            "tokens")


def _change_draw_offerings(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    head = pop_head(d)
    tokens = args["tokens"]
    bag = d.own("bag")
    for token in tokens:
        bag[token] -= 1
    if head["to"] == DrawTo.REFILL:
        for (kind, index), token in zip(offering_slots(d.state), tokens):
            if kind == "pair":
                d.own("pairs", index).append(token)
            else:
                d.own("bonus")[index] = token
    else:
        d.own("players", head["actor"], "off")[tokens[0]] += 1


def _check_draw_traitor_tiles(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]
                              ) -> None:
    check_traitor_layout(args["order"], None, "move.order", None)


def _change_draw_traitor_tiles(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    pop_head(d)
    lay_traitor_tiles(d.own("traitor_board"), args["order"])


def _check_draw_traitor_colours(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]
                                ) -> None:
    check_traitor_layout(None, args["colours"], None, "move.colours")


def _change_draw_traitor_colours(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    pop_head(d)
    colour_traitor_columns(d.own("traitor_board"), d.own("bank"), args["colours"])


def chance(state: Mapping[str, Any]) -> Chance | None:
    """The draw the head step waits for, with what is still possible and how many copies.

    Jars and artisans come from the group's catalogue (or the placeholder of edition.py when
    none was entered; then only the count is checked when the table enters what came up)."""
    head = pending_head(state)
    if head is None or head["kind"] not in CHANCE_STEPS or state["phase"] in ("values", "over"):
        return None
    seats = frozenset({head["seat"]})
    count = head["count"]
    kind = head["kind"]
    if kind == "draw_traitor_tiles":          # the five tiles shuffled: a permutation
        return Chance({"type": kind}, "order", tuple((n, 1) for n in range(1, count + 1)),
                      seats, draws=count)
    if kind == "draw_traitor_colours":        # one token of each kind in random order
        return Chance({"type": kind}, "colours", tuple((c, 1) for c in t.BASIC), seats,
                      draws=count)
    if kind == "draw_jars":
        pool = jar_pool(state)
        if sum(pool.values()) < count:
            pool = Counter(_jar_key(j) for j in state["rules"]["jar_tiles"])
        outcomes = tuple((list(k), n) for k, n in sorted(pool.items()))
        return Chance({"type": "draw_jars"}, "jars", outcomes, seats, draws=count)
    if kind == "draw_nobles":
        deck = list(state["noble_deck"])
        if head.get("scribes"):
            deck = [c for c in deck if c in t.SCRIBES]
        elif not deck:
            deck = list(state["noble_bottom"][:1])
        return Chance({"type": "draw_nobles"}, "cards", tuple((c, 1) for c in deck), seats,
                      draws=count)
    if kind == "draw_artisans":
        pool = artisan_pool(state)
        if sum(pool.values()) < count:
            pool = Counter(_artisan_key(c) for c in state["rules"]["artisan_cards"])
        outcomes = tuple((_artisan_from_key(k), n) for k, n in sorted(pool.items()))
        return Chance({"type": "draw_artisans"}, "cards", outcomes, seats, draws=count)
    bag = state["bag"]
    return Chance({"type": "draw_offerings"}, "tokens",
                  tuple((k, n) for k, n in bag.items() if n), seats, draws=count)


def _outcomes(key: str, label: str, item: Any, item_label: str) -> ListField:
    """A chance move's outcomes: a list, or one outcome alone (what the app draws when one
    is awaited, Chance.as_move)."""
    return ListField(key, label, item, min_items=1, required=True, scalar=True,
                     item_label=item_label)


# The draws, each declared once: its arguments, its check and its change.
RULES = (
    MoveRule(MoveKind.DRAW_JARS, Term(N_("enter the jars that came up")),
             frozenset({Phase.DRAW_JARS}),
             args=(_outcomes("jars", N_("Jars"), JAR, N_("Jar %(n)d")),),
             check=_check_draw_jars, change=_change_draw_jars),
    MoveRule(MoveKind.DRAW_NOBLES, Term(N_("enter the nobles that came up")),
             frozenset({Phase.DRAW_NOBLES}),
             args=(_outcomes("cards", N_("Nobles"), ChoiceField("card", N_("Noble"),
                                                                t.NOBLE_NUMBERS),
                             N_("Noble %(n)d")),),
             check=_check_draw_nobles, change=_change_draw_nobles),
    MoveRule(MoveKind.DRAW_ARTISANS, Term(N_("enter the artisans that came up")),
             frozenset({Phase.DRAW_ARTISANS}),
             args=(_outcomes("cards", N_("Artisans"), ARTISAN, N_("Artisan %(n)d")),),
             check=_check_draw_artisans, change=_change_draw_artisans),
    MoveRule(MoveKind.DRAW_OFFERINGS, Term(N_("enter the offerings drawn")),
             frozenset({Phase.DRAW_OFFERINGS}),
             args=(_outcomes("tokens", N_("Offerings"), ChoiceField("token", N_("Offering"),
                                                                    t.OFFERING_KINDS),
                             N_("Offering %(n)d")),),
             check=_check_draw_offerings, change=_change_draw_offerings),
    MoveRule(MoveKind.DRAW_TRAITOR_TILES, Term(N_("enter the order of the Traitor tiles")),
             frozenset({Phase.DRAW_TRAITOR_TILES}),
             args=(ListField("order", N_("Traitor tiles, left to right"),
                             ChoiceField("tile", N_("Tile"), tuple(range(1, t.TRAITOR_TILES + 1))),
                             min_items=t.TRAITOR_TILES, max_items=t.TRAITOR_TILES,
                             required=True, item_label=N_("Position %(n)d")),),
             check=_check_draw_traitor_tiles, change=_change_draw_traitor_tiles),
    MoveRule(MoveKind.DRAW_TRAITOR_COLOURS, Term(N_("enter the colours of the Traitor's columns")),
             frozenset({Phase.DRAW_TRAITOR_COLOURS}),
             args=(ListField("colours", N_("Colour of each column"),
                             basic_kind("colour", N_("Colour")), min_items=t.TRAITOR_TILES,
                             max_items=t.TRAITOR_TILES, required=True,
                             item_label=N_("Position %(n)d")),),
             check=_check_draw_traitor_colours, change=_change_draw_traitor_colours),
)
