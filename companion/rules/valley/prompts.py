"""Valley of the Kings: what a phone sees and may do (spec §5, §7, §8, §13).

:func:`view` adds to the state the pyramid as rows, the boneyard's top card and count (all of
it in solo, §12.1) and every tomb by scoring group; :func:`prompts` names the awaited
player's legal move kinds and what their forms list (the titles a hand card may be, with
capital; the titles still outside for a refill or a card entered as "a card"; the crumble
choices; each action's targets; the sets and VPs a seal may have to ask for);
:func:`legal_moves` gives a representative set of legal moves from the public view alone.
The referee asks both only for the awaited seat; a waiting phone is offered no moves.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from . import printed as t
from . import pyramid as pyr
from .chance import supply_outcomes
from .effects import Effect
from .knowledge import has_room, one_unique_per_cost
from .pools import placement_choices
from .state import (REVEALED, STARTER, UNKNOWN, MoveKind, Phase, bow_key, card_set,
                    free_seal_open, in_hand_copies, is_set_card, on_table, printed_value,
                    pyramid_cards, rebuild_needed, refill_count, table_cards, unknown_cards,
                    unnamed_in_hand)
from .tombs import tomb_view


def view(state: Mapping[str, Any], seat: int | None) -> dict[str, Any]:
    """The state without the boneyard below its top card (§7; solo: all of it, §12.1), plus
    the pyramid as rows (apex first), the boneyard's top and count, and every tomb."""
    shown = dict(state)
    boneyard = state["boneyard"]
    shown["boneyard"] = list(boneyard) if state["solo"] else None
    shown["boneyard_top"] = boneyard[-1] if boneyard else None
    shown["boneyard_count"] = len(boneyard)
    shown["pyramid_rows"] = pyr.picture(state["pyramid"])
    shown["tombs"] = [list(p["tomb"]) for p in state["players"]]
    shown["tomb_view"] = [tomb_view(state, s) for s in range(len(state["names"]))]
    return shown


# --------------------------------------------------------------------------------------------
# The titles a phone lists
# --------------------------------------------------------------------------------------------


def could_hold(state: Mapping[str, Any], seat: int, card: str) -> bool:
    """Whether ``seat`` can name ``card`` for a card in their hand: a title of theirs neither
    on the table nor known to lie in their discard pile (SEED l.165, ``DISCARD_PILE_RULE``),
    or one of their unnamed cards (which may be any title still outside)."""
    player = state["players"][seat]
    if in_hand_copies(state, seat, card) > 0:
        return True
    return unnamed_in_hand(player) > 0 and state["located"].get(card, 0) < state[
        "limits"].get(card, 0)


def hand_choices(state: Mapping[str, Any], seat: int, pile: str = "hand") -> dict[str, Any]:
    """The titles ``seat``'s phone offers for a card from hand (hands are hidden: every title
    of theirs not on the table nor known to lie in the discard pile, with its capital where
    known) and, while some of their cards are unnamed, every other title still outside the
    tables' sight. ``pile="discard"``: a card from the top of the discard pile (Offering
    Chapel), which may be one known to lie there."""
    player = state["players"][seat]

    def free(card: str) -> int:
        if pile == "discard":
            return player["known"][card] - on_table(state, seat, card)
        return in_hand_copies(state, seat, card)

    own = [{"card": card, "count": free(card),
            "capital": printed_value(state, "capital", card)}
           for card in sorted(player["known"], key=lambda c: _title_order(state, c))
           if free(card) > 0]
    unnamed = unknown_cards(player) if pile == "discard" else unnamed_in_hand(player)
    others = [card for card in outside_titles(state) if card not in player["known"]]
    return {"own": own, "unnamed": unnamed, "others": grouped(state, others) if unnamed else []}


def outside_titles(state: Mapping[str, Any]) -> list[str]:
    """The titles of the pool with a copy nobody has located yet: what a card the table did
    not name (in the pyramid, the supply or a hand) may turn out to be (§13). A title nobody
    has seen yet is left out once its set shows as many different titles as it can hold."""
    return [card for card in sorted(state["limits"], key=lambda c: _title_order(state, c))
            if card_set(state, card) != STARTER
            and state["located"].get(card, 0) < state["limits"][card]
            and (state["located"].get(card, 0) or has_room(state, card_set(state, card)))]


def grouped(state: Mapping[str, Any], cards: Iterable[str]) -> list[dict[str, Any]]:
    """``cards`` in runs by set (``set``: a set id, "unique", "starter" or "" while unknown),
    for the phone's lists."""
    runs: list[dict[str, Any]] = []
    for card in cards:
        placed = card_set(state, card) or ""
        if not runs or runs[-1]["set"] != placed:
            runs.append({"set": placed, "cards": []})
        runs[-1]["cards"].append(card)
    return runs


_CATALOGUE_ORDER = {title: index for index, title in enumerate(t.TITLES)}
_SET_ORDER = {STARTER: 0, **{s: i for i, s in enumerate(t.SETS, 1)}, t.UNIQUE: len(t.SETS) + 1}


def _title_order(state: Mapping[str, Any], card: str) -> tuple[int, int]:
    """Starters, then each set, then uniques, then titles whose set is unknown."""
    return (_SET_ORDER.get(card_set(state, card) or "", len(_SET_ORDER)),
            _CATALOGUE_ORDER.get(card, len(_CATALOGUE_ORDER)))


def sets_needed(state: Mapping[str, Any]) -> dict[str, list[str]]:
    """Titles in this pool whose set nobody has entered (spec §2.5), with the sets (or
    "unique") a phone may say they belong to when one is sealed: those with room for one
    more different title (§13)."""
    pool_sets = state["pool"]["sets"]
    needed = {}
    for card in state["limits"]:
        if card_set(state, card) is None:
            unique_ok = t.TITLES[card].box.value in state["pool"]["unique_boxes"]
            needed[card] = [s for s in placement_choices(card)
                            if (s in pool_sets or (s == t.UNIQUE and unique_ok))
                            and has_room(state, s)]
    return needed


def vp_needed(state: Mapping[str, Any]) -> list[str]:
    """Uniques in play (or titles that may be one) whose printed VP nobody has entered yet:
    sealing one asks for it (spec §2.7)."""
    return [card for card in state["limits"] if card_set(state, card) in (t.UNIQUE, None)
            and printed_value(state, "vp", card) is None]


# --------------------------------------------------------------------------------------------
# What the moves may name
# --------------------------------------------------------------------------------------------


def _base_offers(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    return [{"slot": slot, "card": card, "cost": printed_value(state, "cost", card)}
            for slot, card in zip(pyr.SLOTS, state["pyramid"]) if slot in pyr.BASE and card]


def action_offers(state: Mapping[str, Any], seat: int) -> list[dict[str, Any]]:
    """The actions whose public conditions hold now, with the titles that carry them; a
    card whose action is not known is played as ``generic`` with its effects."""
    player = state["players"][seat]
    pyramid_full = pyramid_cards(state) > 0
    possible = {
        t.Action.RING: True, t.Action.SERDAB: True,
        t.Action.ANTECHAMBER: player["discard"] > 0,
        t.Action.HOUNDS_AND_JACKALS: table_cards(state) > 0,
        t.Action.VICTORY: table_cards(state) > 0,
        t.Action.NECKLACE: player["deck"] + player["discard"] > 0,
        t.Action.OFFERING_CHAPEL: True,
        t.Action.BROOCH: pyramid_full and any(is_set_card(state, c) for c in player["tomb"]),
        t.Action.BOW: pyramid_full,
        t.Action.KHOPESH: pyramid_full and not state["solo"],
        t.Action.NUT: pyramid_full and not state["solo"],
        t.Action.MIRROR_CASE: pyramid_full,
        t.Action.DAGGER: True,
        t.Action.JUDGEMENT: bool(state["boneyard"]) and player["hand"] >= 2,
        t.Action.BRAIN_HOOK: state["supply"] > 0,
        t.Action.SENET: not state["solo"],
    }
    if state["phase"] == Phase.BRAIN_HOOK:
        possible = {t.Action.RING: True}
    offers = []
    for action, ok in possible.items():
        if ok:
            cards = [c for c, x in t.TITLES.items() if x.action is action
                     and c in state["limits"] and could_hold(state, seat, c)]
            if cards:
                offers.append({"action": action.value, "cards": cards,
                               **_action_targets(state, seat, action)})
    if state["phase"] == Phase.PLAY:
        offers.append({"action": "generic", "effects": [e.value for e in Effect]})
    return offers


def _action_targets(state: Mapping[str, Any], seat: int, action: t.Action) -> dict[str, Any]:
    """What the phone offers inside an action (§8): the slots, cards or seats it may name."""
    player = state["players"][seat]
    occupied = [s for s, c in zip(pyr.SLOTS, state["pyramid"]) if c is not None]
    if action is t.Action.NUT:
        return {"costs": {s: printed_value(state, "cost", state["pyramid"][pyr.INDEX[s]])
                          for s in occupied}}
    if action is t.Action.BOW:
        held = {bow_key(state, c) for c in player["tomb"] if is_set_card(state, c)}
        cards = {s: state["pyramid"][pyr.INDEX[s]] for s in occupied}
        return {"slots": [s for s, c in cards.items() if card_set(state, c) is None
                          or (is_set_card(state, c) and bow_key(state, c) not in held)]}
    if action is t.Action.BROOCH:
        return {"slots": occupied, "sacrifice": sorted({c for c in player["tomb"]
                                                         if is_set_card(state, c)})}
    if action in (t.Action.KHOPESH, t.Action.MIRROR_CASE):
        return {"slots": occupied}
    if action is t.Action.OFFERING_CHAPEL:
        seats = [s for s, p in enumerate(state["players"]) if p["discard"] > 0]
        return {"seats": seats,
                "choices": {str(s): hand_choices(state, s, "discard") for s in seats}}
    if action is t.Action.SENET:
        # the set card an opponent gives back, and each player's discard after an Axe
        given = {c for s in range(len(state["names"])) if s != seat
                 for c in state["players"][s]["known"]
                 if is_set_card(state, c) and in_hand_copies(state, s, c) > 0}
        given |= {c for c in outside_titles(state) if card_set(state, c) not in (STARTER,
                                                                                 t.UNIQUE)}
        return {"given": grouped(state, sorted(given, key=lambda c: _title_order(state, c))),
                "discards": {str(s): hand_choices(state, s) for s in range(len(state["names"]))}}
    if action in (t.Action.VICTORY, t.Action.HOUNDS_AND_JACKALS):
        return {"played": [i for i, e in enumerate(state["played"]) if not e["out"]]}
    if action is t.Action.JUDGEMENT:
        return {"most": min(player["hand"] - 1, len(state["boneyard"]))}
    if action is t.Action.SERDAB:
        return {"most": player["hand"] - 1}
    if action is t.Action.DAGGER:
        return {"takes": len(state["boneyard"]) >= len(state["names"])}
    return {}


def _fall_after_gain(slots: Sequence[Any]) -> dict[str, dict[str, list[str]]]:
    """Mirror Case (§8): where it may come to rest after a gain from each slot (keyed by the
    slot gained, then the card dropped where there is a choice, "" otherwise)."""
    falls: dict[str, dict[str, list[str]]] = {}
    for slot in pyr.SLOTS:
        if slots[pyr.INDEX[slot]] is None:
            continue
        emptied = [None if s == slot else c for s, c in zip(pyr.SLOTS, slots)]
        drops = pyr.drop_choices(emptied, slot)
        falls[slot] = {drop if len(drops) > 1 else "": pyr.fall_targets(
            pyr.remove(slots, slot, drop if len(drops) > 1 else None, ""))
            for drop in (drops if len(drops) > 1 else ("",))}
    return falls


# --------------------------------------------------------------------------------------------
# The seam's prompts and legal moves (asked for the awaited seat only)
# --------------------------------------------------------------------------------------------


def prompts(state: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """What ``seat``'s phone may offer now: the move kinds and the choices behind them."""
    phase = state["phase"]
    player = state["players"][seat]
    if phase == Phase.REFILL:
        return {"moves": [MoveKind.REFILL.value], "count": refill_count(state),
                "slots": pyr.refill_order(state["pyramid"])[:refill_count(state)],
                "cards": [c for c, _ in supply_outcomes(state)], "unknown": UNKNOWN,
                "titles": grouped(state, outside_titles(state))}
    if phase == Phase.REVEAL:
        return {"moves": [MoveKind.REVEAL.value],
                "cards": [c for c, _ in supply_outcomes(state)], "unknown": UNKNOWN,
                "titles": grouped(state, outside_titles(state))}
    common = {"hand": player["hand"], "ring": state["ring"],
              "table": [{"index": i, **entry} for i, entry in enumerate(state["played"])],
              "actions": action_offers(state, seat) if player["hand"] else [],
              "cards": hand_choices(state, seat),
              "titles": grouped(state, outside_titles(state)),
              "needs_set": sets_needed(state), "needs_vp": vp_needed(state)}
    if phase == Phase.BRAIN_HOOK:
        cost = printed_value(state, "cost", state["revealed"])
        return {"moves": [MoveKind.BUY.value, MoveKind.DECLINE.value]
                + ([MoveKind.ACTION.value] if player["hand"] else []),
                "revealed": state["revealed"],
                "cost": None if cost is None else max(0, cost - t.BRAIN_HOOK_DISCOUNT),
                **common}
    moves = [MoveKind.BUY.value] if _base_offers(state) else []
    if player["hand"]:
        moves.append(MoveKind.ACTION.value)
    free_seal = free_seal_open(state) and player["hand"] > 0
    if free_seal:
        moves.append(MoveKind.SEAL.value)
    moves.append(MoveKind.END_TURN.value)
    return {"moves": moves, "base": _base_offers(state),
            "crumble": pyr.choices_needed(state["pyramid"]),
            "mirror_case_fall": _fall_after_gain(state["pyramid"]),
            "free_seal": free_seal, "sacrifice_required": rebuild_needed(state),
            "opponents": [s for s in range(len(state["names"])) if s != seat],
            **common}


def _pick_for(state: Mapping[str, Any], slot: str) -> dict[str, Any]:
    """A pyramid pick with the crumble choice a move would need (the first one offered)."""
    pick: dict[str, Any] = {"slot": slot}
    choices = pyr.drop_choices([None if s == slot else c for s, c in
                                zip(pyr.SLOTS, state["pyramid"])], slot)
    if len(choices) > 1:
        pick["drop"] = choices[0]
    return pick


def _cost_to_type(state: Mapping[str, Any], card: str, lowest: int) -> int:
    """A cost a legal move may type for ``card`` whose cost is unknown: ``lowest``, or, for a
    unique under the one-per-cost rule (§11.1), the lowest cost no unique in play has."""
    if card_set(state, card) != t.UNIQUE or not one_unique_per_cost(state):
        return lowest
    taken = {printed_value(state, "cost", other) for other, count in state["located"].items()
             if count and other != card and card_set(state, other) == t.UNIQUE}
    cost = lowest
    while cost in taken:
        cost += 1
    return cost


def legal_moves(state: Mapping[str, Any], seat: int) -> list[dict[str, Any]]:
    """A representative set of legal moves from the public view alone (hands are hidden):
    cards the table did not name ("?") with typed values stand in for hand cards."""
    phase = state["phase"]
    player = state["players"][seat]
    if phase == Phase.REFILL:
        return [{"type": MoveKind.REFILL.value, "cards": [UNKNOWN] * refill_count(state)}]
    if phase == Phase.REVEAL:
        return [{"type": MoveKind.REVEAL.value, "card": UNKNOWN}]
    moves: list[dict[str, Any]] = []
    if phase == Phase.BRAIN_HOOK:
        moves.append({"type": MoveKind.DECLINE.value})
        if player["hand"]:
            cost = printed_value(state, "cost", state["revealed"])
            typed = _cost_to_type(state, state["revealed"], 2) if cost is None else cost
            buy = {"type": MoveKind.BUY.value, "slot": REVEALED,
                   "pay": [{"card": UNKNOWN, "capital": max(0, typed - 2)}]}
            if cost is None:
                buy["cost"] = typed
            moves.append(buy)
        return moves
    if rebuild_needed(state):
        for slot, card in zip(pyr.SLOTS, state["pyramid"]):
            if card is not None:
                moves.append({"type": MoveKind.END_TURN.value,
                              "sacrifice": _pick_for(state, slot)})
    else:
        moves.append({"type": MoveKind.END_TURN.value})
    if player["hand"]:
        for slot, card in zip(pyr.SLOTS, state["pyramid"]):
            if slot in pyr.BASE and card is not None:
                cost = printed_value(state, "cost", card)
                typed = _cost_to_type(state, card, 1) if cost is None else cost
                buy = {"type": MoveKind.BUY.value, **_pick_for(state, slot),
                       "pay": [{"card": UNKNOWN, "capital": typed}]}
                if cost is None:
                    buy["cost"] = typed
                moves.append(buy)
        moves.append({"type": MoveKind.ACTION.value, "card": UNKNOWN})
        if free_seal_open(state):
            for card in player["known"]:
                if in_hand_copies(state, seat, card) > 0 and card_set(state, card) in (
                        STARTER, *t.SETS) and card_set(state, card) != t.UNIQUE:
                    moves.append({"type": MoveKind.SEAL.value, "card": card})
    return moves
