"""What an awaited phone may do in Imhotep (spec imhotep.md §4, §6.1): its prompts, its concrete
legal moves, and the physical outcome the table enters now (:func:`chance`).

The referee asks prompts and legal moves only for the awaited seat; every other phone gets no
moves.

Pure (design.md §1).
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping, Sequence

from ..base import Chance
from . import printed
from .actions import turn_moves
from .cards import chisel_needs, hammer_parts, playable_cards, sail_card_ships
from .round_start import distinct, reveal_counts, reveal_pool, unused_round_cards
from .state import (QUEUE, BlueCard, Delivery, MoveKind, Phase, PyramidBonus, Task, awaiting,
                    drawable, free_sites, free_slots, pile_count, pyramids_with_room, sailable,
                    step, takeable)

MAX_REVEAL_MOVES = 64          # cap on the reveals legal_moves lists (see there)


def _ship_view(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each ship as a phone shows it: its size, its free spaces, whether it can sail."""
    can_sail = set(sailable(state))
    return [{"ship": i, "capacity": ship["capacity"], "minimum": ship["minimum"],
             "free": [j for j, owner in enumerate(ship["slots"]) if owner is None]
             if ship["site"] is None else [],
             "sailed": ship["site"] is not None, "can_sail": i in can_sail}
            for i, ship in enumerate(state["ships"])]


def _multisets(pool: Mapping[str, int], size: int,
               cap: int | None = None) -> Iterator[list[str]]:
    """Distinct multisets of ``size`` cards from ``pool`` (kind → copies), at most ``cap``."""
    available = [(kind, n) for kind, n in pool.items() if n]
    produced = 0

    def walk(index: int, chosen: list[str]) -> Iterator[list[str]]:
        nonlocal produced
        if cap is not None and produced >= cap:
            return
        if len(chosen) == size:
            produced += 1
            yield list(chosen)
            return
        if index == len(available):
            return
        kind, have = available[index]
        for take in range(min(have, size - len(chosen)), -1, -1):
            yield from walk(index + 1, chosen + [kind] * take)

    yield from walk(0, [])


def _ways(pool: Mapping[str, int], cards: Sequence[str]) -> int:
    """In how many ways ``cards`` (a multiset) can be drawn from ``pool``: ∏ C(copies, taken)."""
    ways = 1
    for kind in set(cards):
        have, taken = pool[kind], cards.count(kind)
        for i in range(taken):
            ways = ways * (have - i) // (i + 1)
    return ways


def chance(state: Mapping[str, Any]) -> Chance | None:
    """The physical outcome awaited now, with every possibility our copy allows and its copies:
    the round card (§2.3: an unused card of this player count's set), the open market cards
    (§4.1, E4, E5), a card drawn for Temple B or a Pyramids B bonus (§6.1). For 3 players a
    card outside the set is accepted with a warning (E21), since two of its cards are unsure.
    The face-down Market B pair is named when it is taken (``pick_pair``), not here."""
    phase = state["phase"]
    seats = awaiting(state).seats
    if phase == Phase.ROUND_CARD:
        verified, unverified = unused_round_cards(state)
        cards = verified + unverified
        return Chance({"type": MoveKind.ROUND_CARD.value}, "ships",
                      tuple((card, cards.count(card)) for card in distinct(cards)), seats)
    if phase == Phase.MARKET:
        first, pool, draws = reveal_pool(state)
        reveal = {"type": MoveKind.REVEAL_MARKET.value}
        if not first and draws > 1:
            return Chance(reveal, "cards", tuple((k, n) for k, n in pool.items() if n), seats,
                          draws=draws)
        # a whole reveal is one outcome, as likely as the ways to draw it
        return Chance(reveal, "cards", tuple((first + rest, _ways(pool, rest))
                                             for rest in _multisets(pool, draws)), seats)
    task = QUEUE.head(state) if phase == Phase.CHOICE else None
    if task and (task["kind"] == Task.DRAW or task.get("bonus") == PyramidBonus.CARD):
        kind = MoveKind.DRAW_CARD if task["kind"] == Task.DRAW else MoveKind.USE_BONUS
        return Chance({"type": kind.value}, "card", tuple(drawable(state).items()), seats)
    return None


def prompts(state: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """What the awaited ``seat`` may do now: the legal move kinds and the choices to offer."""
    now = step(state)
    if now == Phase.ROUND_CARD:
        verified, unverified = unused_round_cards(state)
        return {"moves": [MoveKind.ROUND_CARD.value], "round": state["round"],
                "cards": distinct(verified + unverified), "unverified": distinct(unverified),
                "any_card": len(state["names"]) == 3}
    if now == Phase.MARKET:
        shown, pair = reveal_counts(state)
        reshuffle = pile_count(state) < shown + pair
        return {"moves": [MoveKind.REVEAL_MARKET.value], "open": shown, "pair": pair,
                "pile": pile_count(state), "reshuffle": reshuffle,
                # the kinds a revealed card can be: the pile's, and the discards' if shuffled
                "kinds": [k for k in printed.CARD_KINDS if state["deck"].get(k) or (
                    reshuffle and state["discard"].get(k))]}
    if now == Phase.TURN:
        return {"moves": turn_moves(state, seat), "sled": state["sled"][seat],
                "quarry": state["quarry"][seat], "ships": _ship_view(state),
                "free_sites": free_sites(state), "cards": playable_cards(state, seat),
                "chisel_stones": chisel_needs(state, seat)}
    task = QUEUE.head(state)
    if now == Delivery.MARKET_PICK:
        moves = ([MoveKind.PICK_CARD.value] if state["display"] else []) + (
            [MoveKind.PICK_PAIR.value] if state["pair"] else []) + (
            [] if state["options"]["market_pick_mandatory"] else [MoveKind.SKIP_CARD.value])
        return {"moves": moves, "cards": list(state["display"]), "pair": state["pair"],
                "pair_cards": sorted(k for k, n in state["deck"].items() if n) if state["pair"]
                else []}
    if now == Delivery.PYRAMID:
        return {"moves": [MoveKind.CHOOSE_PYRAMID.value], "pyramids": pyramids_with_room(state)}
    if now == Task.BONUS:
        extra: dict[str, Any] = {}
        if task["bonus"] == PyramidBonus.CARD:
            extra["cards"] = sorted(drawable(state))
        elif task["bonus"] == PyramidBonus.SHIP:
            extra["ships"] = _ship_view(state)
        return {"moves": [MoveKind.USE_BONUS.value, MoveKind.SKIP_BONUS.value],
                "bonus": task["bonus"], "bonus_label": printed.BONUS_LABELS[task["bonus"]],
                **extra}
    if now == Task.ORDER:
        ship = state["ships"][task["ship"]]
        return {"moves": [MoveKind.UNLOAD_ORDER.value], "ship": task["ship"],
                "site": task["site"],
                "slots": [j for j, owner in enumerate(ship["slots"]) if owner is not None]}
    if now == Task.TEMPLE_CHOICE:
        return {"moves": [MoveKind.TEMPLE_CHOICE.value], "take": ["point", "stones"],
                "stones": takeable(state, seat, printed.TEMPLE_B_CHOICE_STONES)}
    return {"moves": [MoveKind.DRAW_CARD.value], "cards": sorted(drawable(state))}


def legal_moves(state: Mapping[str, Any], seat: int) -> list[dict[str, Any]]:
    """Every concrete legal move for the awaited ``seat``.

    ``reveal_market`` has too many possibilities to list (any cards the pile can hold), so at
    most MAX_REVEAL_MOVES distinct ones are given (:func:`chance` has them all, weighed);
    every other kind is listed in full.
    """
    now = step(state)
    if now == Phase.ROUND_CARD:
        return [{"type": "round_card", "ships": card} for card in prompts(state, seat)["cards"]]
    if now == Phase.MARKET:
        first, pool, draws = reveal_pool(state)
        return [{"type": "reveal_market", "cards": first + rest}
                for rest in _multisets(pool, draws, MAX_REVEAL_MOVES)]
    if now == Phase.TURN:
        return _turn_legal_moves(state, seat)
    task = QUEUE.head(state)
    if now == Delivery.MARKET_PICK:
        deck = state["deck"]
        moves = [{"type": "pick_card", "card": card} for card in dict.fromkeys(state["display"])]
        if state["pair"] == 1:
            moves += [{"type": "pick_pair", "keep": card} for card in sorted(deck) if deck[card]]
        elif state["pair"]:
            moves += [{"type": "pick_pair", "keep": keep, "discard": other}
                      for keep in printed.CARD_KINDS if deck[keep]
                      for other in printed.CARD_KINDS if deck[other] > (1 if other == keep else 0)]
        if not state["options"]["market_pick_mandatory"]:
            moves.append({"type": "skip_card"})
        return moves
    if now == Delivery.PYRAMID:
        return [{"type": "choose_pyramid", "pyramid": i} for i in pyramids_with_room(state)]
    if now == Task.BONUS:
        if task["bonus"] == PyramidBonus.CARD:
            uses = [{"type": "use_bonus", "card": card} for card in drawable(state)]
        elif task["bonus"] == PyramidBonus.SHIP:
            uses = [{"type": "use_bonus", "ship": i, "slot": j} for i, j in free_slots(state)]
        else:
            uses = [{"type": "use_bonus"}]
        return uses + [{"type": "skip_bonus"}]
    if now == Task.ORDER:
        ship = state["ships"][task["ship"]]
        occupied = [j for j, owner in enumerate(ship["slots"]) if owner is not None]
        return [{"type": "unload_order", "order": order} for order in _permutations(occupied)]
    if now == Task.TEMPLE_CHOICE:
        return [{"type": "temple_choice", "take": "point"},
                {"type": "temple_choice", "take": "stones"}]
    return [{"type": "draw_card", "card": card} for card in drawable(state)]


def _permutations(items: list[int]) -> list[list[int]]:
    """Every order of ``items``."""
    if len(items) <= 1:
        return [list(items)]
    return [[first] + rest for i, first in enumerate(items)
            for rest in _permutations(items[:i] + items[i + 1:])]


def _turn_legal_moves(state: Mapping[str, Any], seat: int) -> list[dict[str, Any]]:
    """Every action of a turn: each placement, sailing and card use, and the pass."""
    kinds = turn_moves(state, seat)
    moves: list[dict[str, Any]] = []
    free = free_slots(state)
    sites = free_sites(state)
    ships = sailable(state)
    if MoveKind.TAKE_STONES in kinds:
        moves.append({"type": "take_stones"})
    if MoveKind.PLACE_STONE in kinds:
        moves += [{"type": "place_stone", "ship": i, "slot": j} for i, j in free]
    if MoveKind.SAIL_SHIP in kinds:
        moves += [{"type": "sail_ship", "ship": i, "site": site}
                  for i in ships for site in sites]
    for card in playable_cards(state, seat):
        if card == BlueCard.LEVER:
            moves += [{"type": "play_card", "card": "lever", "ship": i, "site": site}
                      for i in ships for site in sites]
        elif card == BlueCard.HAMMER:
            _, places = hammer_parts(state, seat)
            moves += ([{"type": "play_card", "card": "hammer", "ship": i, "slot": j}
                       for i, j in free] if places else [{"type": "play_card", "card": "hammer"}])
        elif card == BlueCard.SAIL:
            moves += [{"type": "play_card", "card": "sail", "ship": i, "slot": j, "site": site}
                      for i in sail_card_ships(state, seat)
                      for j, owner in enumerate(state["ships"][i]["slots"]) if owner is None
                      for site in sites]
        elif chisel_needs(state, seat) == 1:
            moves += [{"type": "play_card", "card": "chisel",
                       "places": [{"ship": i, "slot": j}]} for i, j in free]
        else:
            moves += [{"type": "play_card", "card": "chisel",
                       "places": [{"ship": a[0], "slot": a[1]}, {"ship": b[0], "slot": b[1]}]}
                      for x, a in enumerate(free) for b in free[x + 1:]]
    if MoveKind.PASS in kinds:
        moves.append({"type": "pass"})
    return moves
