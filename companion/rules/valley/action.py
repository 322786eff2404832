"""Valley of the Kings: playing a card for its action (spec §5.2, §8), declared once.

``{"type": "action", "card": "khopesh", "gain": {"slot": "B2", "drop": "M2"}}``: a hand card
is played for its action, and the move carries the action's public consequences — what was
gained, sealed or sacrificed, Nut's choices, where Mirror Case came to rest, Brain Hook's card,
Senet's answer (and Axe's reaction). Each clarified action of §8 has its handler here; a card
whose action the catalogue does not know is played with its ``effects`` (:mod:`.effects`).
While Brain Hook's card waits, only Ring may be played (§8); in solo, the actions that refer
to an opponent may not (§12.1).

One declaration serves every action: an argument one action needs (Nut's ``opponent``,
Judgement's ``set_aside``) is optional in it and required by that action's handler, which
refuses its absence as a malformed move (:class:`.arguments.BadArgument`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable

from ..base import N_, BoolField, Field, IntField, ListField, ObjectField, RuleViolation, Term
from ..referee import Draft, MoveRule
from . import arguments as a
from . import names
from . import printed as t
from . import pyramid as pyr
from .effects import EFFECTS, generic
from .knowledge import learn, learn_set
from .state import (ACTION_IMPOSSIBLE, SACRIFICE_PLAYED, SEAL_LIMIT, SOLO_OPPONENT, STARTER,
                    UNKNOWN, MoveKind, Phase, Use, bow_key, card_set, fail, is_set_card,
                    printed_value, pyramid_cards, table_cards)
from .zones import (already_played, claim, draw, entomb, from_hand, onto_discard, own_player,
                    play, played_index, pyramid_card, receive, release, take_from_pyramid,
                    to_boneyard, top_of_deck, turn_up)

NECKLACE_MAX_SEALS = 2         # SEED l.275
OPPONENT_ACTIONS = frozenset({t.Action.NUT, t.Action.KHOPESH, t.Action.SENET})   # §12.1, §16 #11

# A clarified action's handler: it plays the card and writes what the action did.
ActionHandler = Callable[[Draft, int, str, Mapping[str, Any]], None]


# --------------------------------------------------------------------------------------------
# The declaration
# --------------------------------------------------------------------------------------------


def _discard(depth: int) -> ObjectField:
    """A card a player discards because an effect says so: Axe may react (every opponent
    then discards too), to ``depth`` more reactions (each needs an Axe of its own)."""
    fields: tuple[Field, ...] = (a.seat("seat", N_("Player")),
                                 a.card("card", N_("Card discarded")))
    return ObjectField("discard", N_("Discard"), fields + _reaction(depth))


def _reaction(depth: int) -> tuple[Field, ...]:
    if depth == 0:
        return ()
    return (BoolField("reaction", N_("Axe's reaction"), default=False),
            ListField("discards", N_("The opponents' discards"), _discard(depth - 1),
                      optional=True, item_label=N_("Discard %(n)d")))


SEAL_ITEM = ObjectField("seal", N_("Seal"), (
    a.seat("seat", N_("Player")),
    a.card("card", N_("Card sealed")),
    *a.printed_fields(),
))
SET_ASIDE_ITEM = ObjectField("card", N_("Card"), (
    a.card("card", N_("Card")),
    a.played(),
))
RESPONSE = ObjectField("response", N_("The opponent's answer"), (
    a.card("card", N_("Set card they put on your discard pile")),
    *_reaction(t.SET_COPIES),
), optional=True)

ARGS = (
    a.card("card", N_("Card played")),
    a.played(),
    # Serdab
    IntField("count", N_("Number of cards set aside"), default=0),
    # Hounds and Jackals
    ObjectField("return", N_("Card returned to the hand"), (a.played(),), optional=True),
    # Brooch and Bow: a pyramid card; Victory: a card played earlier this turn
    ObjectField("seal", N_("Card sealed"), (*a.pick_fields(slot_optional=True), a.played()),
                optional=True),
    # Necklace: the cards sealed from the deck; Offering Chapel: each player's seal
    ListField("seals", N_("Cards sealed"), SEAL_ITEM, optional=True,
              item_label=N_("Seal %(n)d")),
    # Brooch
    ObjectField("sacrifice", N_("Card sacrificed from your tomb"), (
        a.card("card", N_("Card"), optional=False, named=True),), optional=True),
    # Khopesh, Nut, Mirror Case; Nut's opponent
    a.pick("gain", N_("Card gained")),
    a.pick("opponent_gain", N_("Card the opponent gains")),
    # Nut, Senet
    a.seat("opponent", N_("Opponent")),
    # Mirror Case
    a.slot("place", N_("Where Mirror Case comes to rest"), optional=True),
    # Judgement
    ListField("set_aside", N_("Cards set aside"), SET_ASIDE_ITEM, min_items=1, optional=True,
              item_label=N_("Card %(n)d")),
    # Brain Hook
    a.card("revealed", N_("Card Brain Hook turns up")),
    # Senet (and Axe's reaction)
    RESPONSE,
    # A card whose action Scribe does not know
    EFFECTS,
)


# --------------------------------------------------------------------------------------------
# Check and change
# --------------------------------------------------------------------------------------------


def check(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    """Refuse a card already played, any card but Ring while Brain Hook's card waits (§5.2,
    §8), an action that refers to an opponent in solo (§12.1), and Axe (a reaction only)."""
    if args["played"] is None and args["card"] is None:
        raise a.BadArgument("card")
    already_played(state["played"], args["played"])
    action = _action_of(args["card"])
    if state["phase"] == Phase.BRAIN_HOOK and action is not t.Action.RING:
        # §5.2: finish a card's action first; Ring is the sanctioned exception (§8)
        raise fail("valley.finish_brain_hook",
                   N_("First buy or sacrifice the card Brain Hook turned up."), "move.card")
    if state["solo"] and action in OPPONENT_ACTIONS:
        raise fail(SOLO_OPPONENT, N_("Solo: an action that refers to an opponent cannot be "
                                     "played."), "move.card")
    if action is t.Action.AXE:
        raise _impossible(N_("Axe is played only when an effect makes you discard a card."))


def change(d: Draft, seat: int, args: Mapping[str, Any]) -> None:
    """Let the card's own handler play it and write its consequences."""
    card = args["card"]
    HANDLERS.get(_action_of(card), generic)(d, seat, card, args)


def _action_of(card: str) -> t.Action | None:
    return t.TITLES[card].action if card != UNKNOWN else None


def _impossible(message: str, field: str = "move.card", **params: Any) -> RuleViolation:
    return fail(ACTION_IMPOSSIBLE, message, field, **params)


def _required(args: Mapping[str, Any], key: str) -> Any:
    """An argument this action needs (the declaration leaves it optional for the others)."""
    if args[key] is None:
        raise a.BadArgument(key)
    return args[key]


def _pyramid_pick(args: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    """A pyramid card this action needs, with its slot."""
    pick = _required(args, key)
    if pick["slot"] is None:
        raise a.BadArgument(f"{key}.slot")
    return pick


def _opponent(d: Draft, seat: int, args: Mapping[str, Any]) -> int:
    """The opponent the action names: another seat at this table."""
    opponent = _required(args, "opponent")
    if opponent >= len(d["names"]):
        raise a.BadArgument("opponent", N_("There is no such seat at this table."))
    if opponent == seat:
        raise fail("valley.not_an_opponent", N_("Choose an opponent."), "move.opponent")
    return opponent


def _need_pyramid(d: Draft) -> None:
    if pyramid_cards(d.state) == 0:
        raise _impossible(N_("The pyramid is empty."))


# --------------------------------------------------------------------------------------------
# Actions on hands, piles, the supply and this turn's cards
# --------------------------------------------------------------------------------------------


def _ring(d: Draft, seat: int, card: str, args: Mapping[str, Any]) -> None:
    """§8: the next card played this turn has double capital."""
    play(d, seat, card, Use.ACTION, "move.card")
    d.state["ring"] = True


def _serdab(d: Draft, seat: int, card: str, args: Mapping[str, Any]) -> None:
    """§8: set hand cards aside; they join the hand after the end-of-turn draw."""
    count = args["count"]
    play(d, seat, card, Use.ACTION, "move.card")
    player = own_player(d, seat)
    if player["hand"] < count:
        raise fail("valley.hand_empty", N_("%(player)s has no card left in hand."),
                   "move.count", player=d["names"][seat])
    player["hand"] -= count
    player["aside"] += count


def _antechamber(d: Draft, seat: int, card: str, args: Mapping[str, Any]) -> None:
    """§8: a card from the discard pile into the hand; impossible with an empty pile."""
    if d["players"][seat]["discard"] == 0:
        raise _impossible(N_("The discard pile is empty."))
    play(d, seat, card, Use.ACTION, "move.card")
    player = own_player(d, seat)
    player["discard"] -= 1
    player["hand"] += 1
    player["discard_known"] = {}     # the card taken may be any of them (DISCARD_PILE_RULE)


def _earlier_played(d: Draft, index: int | None, argument: str, own: int) -> int:
    """A card played earlier this turn and still on the table (not this action's card)."""
    index = played_index(d["played"], index, argument)
    if index == own:
        raise fail(SEAL_LIMIT, N_("This card cannot take itself."), f"move.{argument}")
    if index > own or d["played"][index]["out"]:
        raise fail("valley.not_on_table", N_("That card is no longer on the table."),
                   f"move.{argument}")
    return index


def _hounds_and_jackals(d: Draft, seat: int, card: str, args: Mapping[str, Any]) -> None:
    """§8: a card played earlier this turn returns to the hand, usable again (§16 #16)."""
    if table_cards(d.state) == 0:
        raise _impossible(N_("No card was played earlier this turn."))
    returned = _required(args, "return")
    play(d, seat, card, Use.ACTION, "move.card")
    index = _earlier_played(d, returned["played"], "return.played", len(d["played"]) - 1)
    d.own("played", index)["out"] = True
    own_player(d, seat)["hand"] += 1


def _victory(d: Draft, seat: int, card: str, args: Mapping[str, Any]) -> None:
    """§8: seal a card played earlier this turn, never Victory itself (VK_SEAL_LIMIT)."""
    if table_cards(d.state) == 0:
        raise _impossible(N_("No card was played earlier this turn."))
    sealed = _required(args, "seal")
    play(d, seat, card, Use.ACTION, "move.card")
    index = _earlier_played(d, sealed["played"], "seal.played", len(d["played"]) - 1)
    title = d["played"][index]["card"]
    named = sealed["card"]
    if named is not None:
        if title != UNKNOWN and named != title:
            raise fail("valley.wrong_card", N_("That card is “%(title)s”."), "move.seal.card",
                       title=names.term(title))
        if title == UNKNOWN and named != UNKNOWN:
            claim(d, seat, named, "move.seal.card")
            title = named
    d.own("played", index)["out"] = True
    release(d, seat, title, "move.seal.card")
    entomb(d, seat, title, sealed, "move.seal.card")


def _necklace(d: Draft, seat: int, card: str, args: Mapping[str, Any]) -> None:
    """§8: seal the top card of the deck; after a starter, the next one too (at most 2)."""
    player = d["players"][seat]
    if player["deck"] + player["discard"] == 0:
        raise _impossible(N_("The deck and the discard pile are empty."))
    seals = _required(args, "seals")
    if not seals:
        raise a.BadArgument("seals", N_("Name the card sealed."))
    if len(seals) > NECKLACE_MAX_SEALS:
        raise fail(SEAL_LIMIT, N_("Necklace seals at most two cards."), "move.seals")
    play(d, seat, card, Use.ACTION, "move.card")
    first = None
    for index, item in enumerate(seals):
        field = f"move.seals.{index}"
        if item["card"] is None:
            raise a.BadArgument(f"seals.{index}.card")
        title = item["card"]
        if first is not None and card_set(d.state, first) != STARTER:
            raise fail(SEAL_LIMIT, N_("Only after a starter card may Necklace seal a second "
                                      "card."), field)
        top_of_deck(d, seat, field)
        claim(d, seat, title, field)
        release(d, seat, title, field)
        entomb(d, seat, title, item, field)
        first = title


def _offering_chapel(d: Draft, seat: int, card: str, args: Mapping[str, Any]) -> None:
    """§8: every player may seal the top card of their discard pile (action seals)."""
    play(d, seat, card, Use.ACTION, "move.card")
    sealed_by: set[int] = set()
    for index, item in enumerate(args["seals"] or ()):
        field = f"move.seals.{index}"
        who = item["seat"]
        if who is None:
            raise a.BadArgument(f"seals.{index}.seat")
        if who >= len(d["names"]):
            raise a.BadArgument(f"seals.{index}.seat",
                                N_("There is no such seat at this table."))
        if who in sealed_by:
            raise a.BadArgument(f"seals.{index}.seat", N_("Each player seals at most once."))
        sealed_by.add(who)
        if item["card"] is None:
            continue                             # "may": this player does not seal
        if d["players"][who]["discard"] == 0:
            raise fail("valley.discard_empty",
                       N_("%(player)s has no card in the discard pile."), field,
                       player=d["names"][who])
        title = item["card"]
        claim(d, who, title, field, pile="discard")
        release(d, who, title, field)
        own_player(d, who)["discard"] -= 1
        entomb(d, who, title, item, field)


def _dagger(d: Draft, seat: int, card: str, args: Mapping[str, Any]) -> None:
    """§8: with at least as many boneyard cards as players, each player from you on takes
    the top one (to the discard pile by default, §16 #4)."""
    play(d, seat, card, Use.ACTION, "move.card")
    players = len(d["names"])
    if len(d["boneyard"]) < players:
        return
    pile = "hand" if d["options"]["dagger_to"] == "hand" else "discard"
    for step in range(players):
        taker = (seat + step) % players
        boneyard = d.own("boneyard")
        receive(d, taker, boneyard.pop(), pile)


def _judgement(d: Draft, seat: int, card: str, args: Mapping[str, Any]) -> None:
    """§8: set a hand card aside, gain the top boneyard card; repeat; then sacrifice the
    set-aside cards in the order given (the last ends on top)."""
    aside = _required(args, "set_aside")
    play(d, seat, card, Use.ACTION, "move.card")
    if not d["boneyard"]:
        raise _impossible(N_("The boneyard is empty."))
    if len(aside) > len(d["boneyard"]):
        raise _impossible(N_("The boneyard holds only %(count)d cards to gain."),
                          "move.set_aside", count=len(d["boneyard"]))
    sacrificed = []
    for index, item in enumerate(aside):
        field = f"move.set_aside.{index}"
        if item["played"] is not None:
            raise fail(SACRIFICE_PLAYED, N_("A card played this turn cannot be sacrificed."),
                       field)
        if item["card"] is None:
            raise a.BadArgument(f"set_aside.{index}.card")
        title = item["card"]
        from_hand(d, seat, title, field)
        release(d, seat, title, field)
        sacrificed.append(title)
        receive(d, seat, d.own("boneyard").pop())
    for title in sacrificed:
        to_boneyard(d, title)


def _brain_hook(d: Draft, seat: int, card: str, args: Mapping[str, Any]) -> None:
    """§8: turn up the top supply card (named now, or the next move as a chance input); then
    buy it for 2 less or sacrifice it. Not a pyramid change; impossible with no supply."""
    if d["supply"] == 0:
        raise _impossible(N_("The supply is empty."))
    play(d, seat, card, Use.ACTION, "move.card")
    d.state["supply"] = d["supply"] - 1
    if args["revealed"] is None:
        d.state["phase"] = Phase.REVEAL.value
        return
    turn_up(d, args["revealed"], "move.revealed")


def _senet(d: Draft, seat: int, card: str, args: Mapping[str, Any]) -> None:
    """§8: draw a card, put Senet on an opponent's discard pile; that opponent puts a set card
    from hand on yours, or shows a hand without one (``card`` null). Giving Axe may trigger
    its reaction (``reaction``: true, with every other player's ``discards``)."""
    opponent = _opponent(d, seat, args)
    response = args["response"]                  # none: no set card in hand
    play(d, seat, card, Use.ACTION, "move.card")
    draw(own_player(d, seat), 1)
    d.own("played", len(d["played"]) - 1)["out"] = True
    release(d, seat, card, "move.card")
    receive(d, opponent, card)
    if response is None or response["card"] is None:
        return                                   # the opponent showed a hand without set cards
    _forced_discard(d, opponent, response, seat, "response", set_card=True)


def _forced_discard(d: Draft, seat: int, entry: Mapping[str, Any], onto: int, argument: str,
                    set_card: bool = False) -> None:
    """``seat`` discards a hand card because an effect says so, onto ``onto``'s discard pile
    (Senet: a set card; Axe: the highest-cost card, onto the own pile). Discarding Axe instead
    (``reaction``) makes every opponent of ``seat`` discard their highest-cost card (§8)."""
    field = f"move.{argument}"
    title = entry["card"]
    if set_card and title != UNKNOWN and card_set(d.state, title) is not None and not \
            is_set_card(d.state, title):
        raise fail("valley.not_a_set_card", N_("Starters and uniques are not set cards."),
                   f"{field}.card")
    reaction = entry.get("reaction", False)
    if reaction and title != "axe":
        raise a.BadArgument(f"{argument}.reaction", N_("Only Axe reacts so."))
    from_hand(d, seat, title, f"{field}.card")
    if onto != seat:
        release(d, seat, title, f"{field}.card")
        receive(d, onto, title)
    else:
        onto_discard(d, seat, title)
    if not reaction:
        return
    players = len(d["names"])
    discards = entry["discards"]
    if discards is None:
        raise a.BadArgument(f"{argument}.discards")
    for index, item in enumerate(discards):
        if item["seat"] is None:
            raise a.BadArgument(f"{argument}.discards.{index}.seat")
        if item["seat"] >= players:
            raise a.BadArgument(f"{argument}.discards.{index}.seat",
                                N_("There is no such seat at this table."))
    expected = [(seat + step) % players for step in range(1, players)]
    if sorted(item["seat"] for item in discards) != sorted(expected):
        raise a.BadArgument(f"{argument}.discards",
                            N_("Every other player discards, once each."))
    for index, item in enumerate(discards):
        if item["card"] is None:
            if d["players"][item["seat"]]["hand"] > 0:
                raise a.BadArgument(f"{argument}.discards.{index}.card",
                                    N_("This player has cards in hand: name the one "
                                       "discarded."))
            continue                             # nothing in hand to discard
        _forced_discard(d, item["seat"], item, item["seat"], f"{argument}.discards.{index}")


# --------------------------------------------------------------------------------------------
# Actions on the pyramid
# --------------------------------------------------------------------------------------------


def _brooch(d: Draft, seat: int, card: str, args: Mapping[str, Any]) -> None:
    """§8: seal a pyramid card, then sacrifice a set card from the tomb; without a set card in
    the tomb the action cannot be played (§16 #7: it may be the card just sealed)."""
    if not any(is_set_card(d.state, c) for c in d["players"][seat]["tomb"]):
        raise _impossible(N_("Brooch needs a set card in your tomb to sacrifice."))
    _need_pyramid(d)
    pick = _pyramid_pick(args, "seal")
    victim = _required(args, "sacrifice")["card"]
    play(d, seat, card, Use.ACTION, "move.card")
    sealed = take_from_pyramid(d, pick, "move.seal")
    entomb(d, seat, sealed, pick, "move.seal.card")
    if victim not in d["players"][seat]["tomb"]:
        raise fail("valley.not_in_tomb", N_("“%(title)s” is not in your tomb."),
                   "move.sacrifice.card", title=names.term(victim))
    if not is_set_card(d.state, victim):
        raise fail("valley.not_a_set_card", N_("Starters and uniques are not set cards."),
                   "move.sacrifice.card")
    tomb = d.own("players", seat, "tomb")
    tomb.reverse()
    tomb.remove(victim)          # the latest copy (the tomb may be rearranged at any time)
    tomb.reverse()
    to_boneyard(d, victim)


def _bow(d: Draft, seat: int, card: str, args: Mapping[str, Any]) -> None:
    """§8: seal from the pyramid a set card of a set with no card in your tomb yet."""
    _need_pyramid(d)
    held = {bow_key(d.state, c) for c in d["players"][seat]["tomb"] if is_set_card(d.state, c)}
    candidates = [c for c in d["pyramid"] if c is not None]
    if UNKNOWN not in candidates and all(
            card_set(d.state, c) is not None for c in candidates) and not any(
            is_set_card(d.state, c) and bow_key(d.state, c) not in held for c in candidates):
        raise _impossible(N_("No pyramid card belongs to a set missing from your tomb."))
    pick = _pyramid_pick(args, "seal")
    play(d, seat, card, Use.ACTION, "move.card")
    target = pyramid_card(d, pick, "move.seal")
    if target == UNKNOWN:
        raise fail("valley.title_needed", N_("A sealed card lies face up: name it."),
                   "move.seal.card")
    learn_set(d, target, pick["set"], "move.seal.set")
    if not is_set_card(d.state, target):
        raise fail(SEAL_LIMIT, N_("Bow seals only set cards."), "move.seal.slot")
    if bow_key(d.state, target) in held:
        raise fail(SEAL_LIMIT, N_("Your tomb already holds a card of this set."),
                   "move.seal.slot")
    take_from_pyramid(d, {**pick, "card": target}, "move.seal")
    entomb(d, seat, target, pick, "move.seal.card")


def _khopesh(d: Draft, seat: int, card: str, args: Mapping[str, Any]) -> None:
    """§8: gain the pyramid card the opponent on your left picks; you make crumble choices."""
    _need_pyramid(d)
    pick = _pyramid_pick(args, "gain")
    play(d, seat, card, Use.ACTION, "move.card")
    receive(d, seat, take_from_pyramid(d, pick, "move.gain"))


def _costs_known(d: Draft, extra: Mapping[str, int]) -> dict[str, int] | None:
    """Every pyramid card's cost by slot, or None while any is unknown."""
    costs = {}
    for slot, card in zip(pyr.SLOTS, d["pyramid"]):
        if card is None:
            continue
        cost = printed_value(d.state, "cost", card) if card != UNKNOWN else None
        if cost is None:
            cost = extra.get(slot)
        if cost is None:
            return None
        costs[slot] = cost
    return costs


def _nut(d: Draft, seat: int, card: str, args: Mapping[str, Any]) -> None:
    """§8: the chosen opponent may gain the cheapest pyramid card, then you gain the most
    expensive (ties: the gainer picks). Checked when every cost in the pyramid is known."""
    _need_pyramid(d)
    opponent = _opponent(d, seat, args)
    play(d, seat, card, Use.ACTION, "move.card")
    for key, gainer, pick_cheapest in (("opponent_gain", opponent, True),
                                       ("gain", seat, False)):
        pick = args[key]
        if pick is None:
            if key == "gain" and pyramid_cards(d.state) > 0:
                raise a.BadArgument("gain")      # your gain is not optional
            continue
        target = pyramid_card(d, pick, f"move.{key}")
        typed = pick["cost"]
        if typed is not None:
            learn(d, "cost", target, typed, f"move.{key}.cost")
        costs = _costs_known(d, {} if typed is None else {pick["slot"]: typed})
        if costs is not None:
            best = min(costs.values()) if pick_cheapest else max(costs.values())
            if costs[pick["slot"]] != best:
                raise fail("valley.nut_choice",
                           N_("Nut gives the cheapest card to the opponent and the most "
                              "expensive to you: %(slot)s is not one."), f"move.{key}.slot",
                           slot=pick["slot"])
        take_from_pyramid(d, {**pick, "card": target}, f"move.{key}", by_active=gainer == seat)
        receive(d, gainer, target)


def _mirror_case(d: Draft, seat: int, card: str, args: Mapping[str, Any]) -> None:
    """§8: gain a card, crumble, then Mirror Case goes on the apex and falls (the active
    player picks where two slots are open); it leaves your cards."""
    _need_pyramid(d)
    pick = _pyramid_pick(args, "gain")
    play(d, seat, card, Use.ACTION, "move.card")
    receive(d, seat, take_from_pyramid(d, pick, "move.gain"))
    d.own("played", len(d["played"]) - 1)["out"] = True
    release(d, seat, card, "move.card")
    d.state["pyramid"] = pyr.place_falling(d["pyramid"], card, args["place"], "move.place")


HANDLERS: Mapping[t.Action, ActionHandler] = {
    t.Action.RING: _ring,
    t.Action.SERDAB: _serdab,
    t.Action.ANTECHAMBER: _antechamber,
    t.Action.HOUNDS_AND_JACKALS: _hounds_and_jackals,
    t.Action.VICTORY: _victory,
    t.Action.NECKLACE: _necklace,
    t.Action.OFFERING_CHAPEL: _offering_chapel,
    t.Action.BROOCH: _brooch,
    t.Action.BOW: _bow,
    t.Action.KHOPESH: _khopesh,
    t.Action.NUT: _nut,
    t.Action.MIRROR_CASE: _mirror_case,
    t.Action.DAGGER: _dagger,
    t.Action.JUDGEMENT: _judgement,
    t.Action.BRAIN_HOOK: _brain_hook,
    t.Action.SENET: _senet,
}

RULE = MoveRule(MoveKind.ACTION, Term(N_("play a card's action")),
                frozenset({Phase.PLAY, Phase.BRAIN_HOOK}), args=ARGS, check=check,
                change=change,
                hint=N_("Play a hand card for its action, with what the action did: the "
                        "cards gained, sealed or sacrificed, the choices made."))
