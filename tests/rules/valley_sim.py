"""A whole physical game of Valley of the Kings, simulated for the tests only.

The engine referees public events; this simulator holds what the table hides — every deck,
hand and discard pile, the supply's order, the printed values of every card — plays legal
turns at random (buys, every clarified action of spec §8, generic actions, free seals, the
rebuild and refill), and enters only what the table would see. Now and then it enters a card
as just "a card" ("?") or leaves out a value the table already knows, as players do.

After every move the engine's public picture must match the simulated table (pile sizes, the
pyramid, the boneyard, the supply, the tombs) and the components must be conserved.
"""

from __future__ import annotations

import json
import random
from typing import Any

from companion.rules.base import Edition
from companion.rules.valley import VALLEY
from companion.rules.valley import pyramid as pyr
from companion.rules.valley import printed as t
from companion.rules.valley.edition import EDITION_VALUES
from companion.rules.valley.pools import Pool, PoolId
from companion.rules.valley.setup import normalise_options, pool_of, setup
from companion.rules.valley.state import (REVEALED, UNKNOWN, card_set, printed_value,
                                          rebuild_needed)

NAMES = ["Ana", "Bo", "Cy", "Di", "Eva", "Filip"]
# The sim's truth for the six Afterlife names the catalogue cannot place (spec §2.5): they
# fill the open slots (1 Mummification, 1 Chambers, 3 of Tomb Art's 7, 1 of 4 uniques).
TRUE_PLACEMENTS = {"mirror_case": "mummification", "hounds_and_jackals": "chambers",
                   "nut": "tomb_art", "judgement": "tomb_art", "victory": "tomb_art",
                   "senet": t.UNIQUE}
MAX_TURNS = 1500
PLAYED = {"played": True}      # an action handler that already entered its moves


def edition(values: dict[str, Any]) -> Edition:
    """An Edition with the given entries and the other values at their defaults."""
    defaults = tuple(v.key for v in EDITION_VALUES if v.key not in values)
    merged = {v.key: values.get(v.key, v.default) for v in EDITION_VALUES}
    return Edition(merged, defaults)


def true_titles(pool: Pool, rng: random.Random) -> dict[str, int]:
    """The cards of the stock with their copies (the sim's truth for this pool)."""
    stock: dict[str, int] = {}
    for set_id in pool.sets:
        size = t.SETS[set_id].size
        named = [c for c in t.set_titles(set_id) if t.TITLES[c].placeholder is None]
        placed = [c for c, s in TRUE_PLACEMENTS.items() if s == set_id]
        stand_ins = [c for c in t.set_titles(set_id) if t.TITLES[c].placeholder]
        titles = (named + placed + stand_ins)[:size]
        for c in titles:
            stock[c] = pool.copies
    candidates = []
    for box in pool.unique_boxes:
        named = [c for c in t.unique_titles(box) if t.TITLES[c].placeholder is None]
        placed = [c for c, s in TRUE_PLACEMENTS.items() if s == t.UNIQUE
                  and t.TITLES[c].box is box]
        stand_ins = [c for c in t.unique_titles(box) if t.TITLES[c].placeholder]
        candidates += (named + placed + stand_ins)[:t.UNIQUES_PER_BOX]
    for c in rng.sample(candidates, pool.uniques) if len(candidates) > pool.uniques \
            else candidates:
        stock[c] = 1
    return stock


class Sim:
    """One seeded game: the engine's state, the hidden truth, and the move log."""

    def __init__(self, seed: int, players: int, options: dict[str, Any] | None = None,
                 place_in_edition: bool = True, unknown_rate: float = 0.15,
                 check_every_move: bool = True):
        self.rng = rng = random.Random(seed)
        self.players = players
        self.options = dict(options or {})
        self.unknown_rate = unknown_rate
        self.check_every_move = check_every_move
        opts = normalise_options(self.options, players)
        self.pool = pool_of(opts)
        self.solo = opts["solo"] if opts["solo"] != "none" else None
        stock = true_titles(self.pool, rng)
        self.cost = {c: rng.randint(0, 7) for c in stock}
        self.capital = {c: rng.randint(0, 4) for c in list(stock) + list(t.STARTERS)}
        self.vp = {c: rng.randint(1, 6) for c in stock if self.true_set(c) == t.UNIQUE}
        for c, value in t.EDITION_DEFAULTS["cost"].items():
            self.cost[c] = value
        uniques = [c for c in stock if self.true_set(c) == t.UNIQUE]
        for c, cost in zip(uniques, rng.sample(range(10), len(uniques))):
            self.cost[c] = cost          # mixed uniques: one per cost value (spec §11.1)
        for c, value in t.EDITION_DEFAULTS["capital"].items():
            self.capital[c] = value
        entries: dict[str, Any] = {}
        if place_in_edition:
            entries["card_set"] = {c: s for c, s in TRUE_PLACEMENTS.items() if c in stock}
        if rng.random() < 0.5:
            entries["capital"] = {s: self.capital[s] for s in t.STARTERS}
        if rng.random() < 0.3:
            entries["starter_vp"] = {"urn": 1, "box_of_food": 1}
        self.edition = edition(entries)
        self.supply = [c for c, n in stock.items() for _ in range(n)]
        rng.shuffle(self.supply)
        self.total = len(self.supply) + players * t.STARTER_CARDS_PER_PLAYER
        self.pyramid = [self.supply.pop() for _ in range(t.PYRAMID_CARDS)]
        self.boneyard = [self.supply.pop()]
        start = rng.randrange(players)
        self.setup_doc = {"start_player": start, "pyramid": [self.name(c) for c in self.pyramid],
                          "boneyard": self.name(self.boneyard[0])}
        self.names = NAMES[:players]
        self.state = setup(self.options, self.names, self.setup_doc, self.edition)
        self.hands = []
        for _ in range(players):
            deck = [s for s, n in t.STARTERS_PER_PLAYER.items() for _ in range(n)]
            rng.shuffle(deck)
            player = {"deck": deck, "hand": [], "discard": [], "tomb": [], "aside": []}
            self.draw(player, t.HAND_SIZE)
            self.hands.append(player)
        self.log: list[tuple[int, dict[str, Any]]] = []
        self.turn_table: list[dict[str, Any]] = []
        self.changed = False
        self.ring = False
        self.free_sealed = False
        self.actions_seen: set[str] = set()

    # ---- truth helpers ----------------------------------------------------------------

    def true_set(self, card: str) -> str:
        title = t.TITLES[card]
        if title.kind is t.Kind.STARTER:
            return "starter"
        if card in TRUE_PLACEMENTS:
            return TRUE_PLACEMENTS[card]
        return title.set_id if title.kind is t.Kind.SET else t.UNIQUE

    def is_set(self, card: str) -> bool:
        return self.true_set(card) in t.SETS

    def group(self, card: str) -> str | None:
        return next((g.id for g in self.pool.groups if self.true_set(card) in g.sets), None)

    def name(self, card: str) -> str:
        return UNKNOWN if self.rng.random() < self.unknown_rate else card

    def draw(self, player: dict[str, Any], count: int) -> None:
        for _ in range(count):
            if not player["deck"]:
                if not player["discard"]:
                    return
                player["deck"] = player["discard"]
                player["discard"] = []
                self.rng.shuffle(player["deck"])
            player["hand"].append(player["deck"].pop())

    def top_of_deck(self, player: dict[str, Any]) -> str | None:
        if not player["deck"]:
            if not player["discard"]:
                return None
            player["deck"] = player["discard"]
            player["discard"] = []
            self.rng.shuffle(player["deck"])
        return player["deck"].pop()

    def typed(self, key: str, card: str, always: bool = False) -> int | None:
        """The printed value as the move would type it: left out now and then when the
        table already knows it."""
        known = printed_value(self.state, key, card) if card != UNKNOWN else None
        value = {"cost": self.cost, "capital": self.capital, "vp": self.vp}[key].get(card)
        if known is not None and not always and self.rng.random() < 0.5:
            return None
        return value

    def seal_info(self, card: str) -> dict[str, Any]:
        """What a seal must say about a card: its set when the table does not know it, a
        unique's VP."""
        info: dict[str, Any] = {}
        if card_set(self.state, card) is None:
            info["set"] = self.true_set(card)
        if self.true_set(card) == t.UNIQUE:
            vp = self.typed("vp", card)
            if vp is not None:
                info["vp"] = vp
        return info

    def pick(self, slot: str, name: bool = False) -> dict[str, Any]:
        """A pyramid pick as the table enters it, with a random crumble choice if needed."""
        pick: dict[str, Any] = {"slot": slot}
        engine_card = self.state["pyramid"][pyr.INDEX[slot]]
        true_card = self.pyramid[pyr.INDEX[slot]]
        if engine_card == UNKNOWN and (name or self.rng.random() < 0.5):
            pick["card"] = true_card
        emptied = list(self.pyramid)
        emptied[pyr.INDEX[slot]] = None
        choices = pyr.drop_choices(emptied, slot)
        if len(choices) > 1:
            pick["drop"] = self.rng.choice(choices)
        return pick

    def take(self, pick: dict[str, Any]) -> str:
        """Remove the true card of a pick from the pyramid (the same crumble)."""
        card = self.pyramid[pyr.INDEX[pick["slot"]]]
        self.pyramid = pyr.remove(self.pyramid, pick["slot"], pick.get("drop"), "")
        self.changed = True
        return card

    def occupied(self) -> list[str]:
        return [s for s, c in zip(pyr.SLOTS, self.pyramid) if c is not None]

    def cost_of(self, card: str) -> int:
        return self.cost[card]

    # ---- moves ------------------------------------------------------------------------

    def play(self, move: dict[str, Any]) -> None:
        seat = self.state["current"]
        try:
            state = VALLEY.apply(self.state, seat, move)
        except Exception as problem:
            raise AssertionError(f"refused {move!r}: {problem!r} "
                                 f"{getattr(problem, 'params', '')}") from problem
        self.state = state
        self.log.append((seat, move))
        if self.check_every_move:
            self.check()

    def hand_card(self, seat: int, exclude: int | None = None) -> int | None:
        hand = self.hands[seat]["hand"]
        choices = [i for i in range(len(hand)) if i != exclude]
        return self.rng.choice(choices) if choices else None

    def use(self, seat: int, index: int, use: str) -> str:
        """Move a true hand card to the table; returns its title."""
        card = self.hands[seat]["hand"].pop(index)
        self.turn_table.append({"card": card, "use": use, "out": False})
        return card

    def play_turn(self) -> None:
        seat = self.state["current"]
        self.turn_table = []
        self.changed = False
        self.ring = False
        self.free_sealed = False
        steps = self.rng.randint(0, 6)
        for _ in range(steps):
            if VALLEY.is_over(self.state):
                return
            choice = self.rng.random()
            player = self.hands[seat]
            if not player["hand"]:
                break
            if choice < 0.35:
                self.try_buy(seat)
            elif choice < 0.85:
                self.try_action(seat)
            elif self.solo != "master" and not self.free_sealed:
                index = self.hand_card(seat)
                card = player["hand"].pop(index)
                player["tomb"].append(card)
                self.free_sealed = True
                self.play({"type": "seal", "card": card, **self.seal_info(card)})
        self.end_turn(seat)

    def payment(self, seat: int, cost: int) -> list[dict[str, Any]] | None:
        """Hand cards whose capital covers ``cost`` (Ring doubles the first), or None."""
        hand = self.hands[seat]["hand"]
        order = list(range(len(hand)))
        self.rng.shuffle(order)
        chosen, total = [], 0
        for index in order:
            if total >= cost:
                break
            value = self.capital[hand[index]] * (2 if self.ring and not chosen else 1)
            chosen.append(index)
            total += value
        if total < cost:
            return None
        return chosen

    def pay(self, seat: int, chosen: list[int]) -> list[dict[str, Any]]:
        items = []
        cards = [self.hands[seat]["hand"][i] for i in chosen]
        for index in sorted(chosen, reverse=True):
            self.hands[seat]["hand"].pop(index)
        for card in cards:
            self.turn_table.append({"card": card, "use": "capital", "out": False})
            named = self.name(card)
            item: dict[str, Any] = {"card": named}
            capital = self.typed("capital", card, always=named == UNKNOWN)
            if capital is not None:
                item["capital"] = capital
            items.append(item)
        self.ring = False if cards else self.ring
        return items

    def try_buy(self, seat: int) -> None:
        base = [s for s in pyr.BASE if self.pyramid[pyr.INDEX[s]] is not None]
        self.rng.shuffle(base)
        for slot in base:
            card = self.pyramid[pyr.INDEX[slot]]
            chosen = self.payment(seat, self.cost_of(card))
            if chosen is None:
                continue
            pick = self.pick(slot)
            move = {"type": "buy", **pick}
            named = pick.get("card", self.state["pyramid"][pyr.INDEX[slot]])
            cost = self.typed("cost", card, always=named == UNKNOWN)
            if cost is not None:
                move["cost"] = cost
            move["pay"] = self.pay(seat, chosen)
            self.take(pick)
            self.hands[seat]["discard"].append(card)
            self.play(move)
            return

    def try_action(self, seat: int) -> None:
        player = self.hands[seat]
        order = list(range(len(player["hand"])))
        self.rng.shuffle(order)
        for index in order:
            card = player["hand"][index]
            action = t.TITLES[card].action
            handler = getattr(self, f"act_{action.value}" if action else "act_generic", None)
            if handler is None:
                continue
            move = handler(seat, index, card)
            if move is None:
                continue
            self.actions_seen.add(action.value if action else "generic")
            if move is not PLAYED:
                self.play(move)
            return

    def start_action(self, seat: int, index: int, card: str) -> dict[str, Any]:
        self.use(seat, index, "action")
        if self.ring:
            self.ring = False
        return {"type": "action", "card": card}

    # ---- the clarified actions (§8) -------------------------------------------------

    def act_ring(self, seat, index, card):
        move = self.start_action(seat, index, card)
        self.ring = True
        return move

    def act_serdab(self, seat, index, card):
        move = self.start_action(seat, index, card)
        hand = self.hands[seat]["hand"]
        count = self.rng.randint(0, len(hand))
        for _ in range(count):
            self.hands[seat]["aside"].append(hand.pop(self.rng.randrange(len(hand))))
        return {**move, "count": count}

    def act_antechamber(self, seat, index, card):
        player = self.hands[seat]
        if not player["discard"]:
            return None
        move = self.start_action(seat, index, card)
        player["hand"].append(player["discard"].pop(self.rng.randrange(len(player["discard"]))))
        return move

    def earlier(self) -> list[int]:
        return [i for i, entry in enumerate(self.turn_table) if not entry["out"]]

    def act_hounds_and_jackals(self, seat, index, card):
        earlier = self.earlier()
        if not earlier:
            return None
        target = self.rng.choice(earlier)
        move = self.start_action(seat, index, card)
        self.turn_table[target]["out"] = True
        self.hands[seat]["hand"].append(self.turn_table[target]["card"])
        return {**move, "return": {"played": target}}

    def act_victory(self, seat, index, card):
        earlier = self.earlier()
        if not earlier:
            return None
        target = self.rng.choice(earlier)
        move = self.start_action(seat, index, card)
        entry = self.turn_table[target]
        entry["out"] = True
        sealed = entry["card"]
        self.hands[seat]["tomb"].append(sealed)
        seal = {"played": target, **self.seal_info(sealed)}
        if self.state["played"][target]["card"] == UNKNOWN:
            seal["card"] = sealed
        return {**move, "seal": seal}

    def act_necklace(self, seat, index, card):
        player = self.hands[seat]
        if not player["deck"] and not player["discard"]:
            return None
        move = self.start_action(seat, index, card)
        seals = []
        while len(seals) < 2:
            top = self.top_of_deck(player)
            if top is None:
                break
            player["tomb"].append(top)
            seals.append({"card": top, **self.seal_info(top)})
            if self.true_set(top) != "starter" or self.rng.random() < 0.3:
                break
        return {**move, "seals": seals}

    def act_offering_chapel(self, seat, index, card):
        move = self.start_action(seat, index, card)
        seals = []
        for step in range(self.players):
            who = (seat + step) % self.players
            pile = self.hands[who]["discard"]
            if pile and self.rng.random() < 0.7:
                top = pile.pop()
                self.hands[who]["tomb"].append(top)
                seals.append({"seat": who, "card": top, **self.seal_info(top)})
        return {**move, "seals": seals}

    def act_brooch(self, seat, index, card):
        tomb = self.hands[seat]["tomb"]
        if not any(self.is_set(c) for c in tomb) or not self.occupied():
            return None
        slot = self.rng.choice(self.occupied())
        pick = self.pick(slot, name=True)
        move = self.start_action(seat, index, card)
        sealed = self.take(pick)
        tomb.append(sealed)
        pick.update(self.seal_info(sealed))
        victim = self.rng.choice([c for c in tomb if self.is_set(c)])
        tomb.reverse()
        tomb.remove(victim)
        tomb.reverse()
        self.boneyard.append(victim)
        return {**move, "seal": pick, "sacrifice": {"card": victim}}

    def act_bow(self, seat, index, card):
        held = {self.group(c) for c in self.hands[seat]["tomb"] if self.is_set(c)}
        eligible = [s for s in self.occupied() if self.is_set(self.pyramid[pyr.INDEX[s]])
                    and self.group(self.pyramid[pyr.INDEX[s]]) not in held]
        if not eligible:
            return None
        pick = self.pick(self.rng.choice(eligible), name=True)
        move = self.start_action(seat, index, card)
        sealed = self.take(pick)
        self.hands[seat]["tomb"].append(sealed)
        pick.update(self.seal_info(sealed))
        return {**move, "seal": pick}

    def act_khopesh(self, seat, index, card):
        if self.solo or not self.occupied():
            return None
        pick = self.pick(self.rng.choice(self.occupied()))
        move = self.start_action(seat, index, card)
        self.hands[seat]["discard"].append(self.take(pick))
        return {**move, "gain": pick}

    def act_nut(self, seat, index, card):
        if self.solo or not self.occupied():
            return None
        opponent = self.rng.choice([s for s in range(self.players) if s != seat])
        move = self.start_action(seat, index, card)
        move["opponent"] = opponent
        move["opponent_gain"] = None
        for key, gainer, cheapest in (("opponent_gain", opponent, True), ("gain", seat, False)):
            slots = self.occupied()
            if not slots or (key == "opponent_gain" and self.rng.random() < 0.3):
                continue
            costs = {s: self.cost[self.pyramid[pyr.INDEX[s]]] for s in slots}
            best = min(costs.values()) if cheapest else max(costs.values())
            slot = self.rng.choice([s for s in slots if costs[s] == best])
            pick = self.pick(slot)
            if self.state_card_unknown(slot, pick) or self.rng.random() < 0.3:
                pick["cost"] = costs[slot]
            self.hands[gainer]["discard"].append(self.take(pick))
            move[key] = pick
        return move

    def state_card_unknown(self, slot: str, pick: dict[str, Any]) -> bool:
        """Whether the engine's picture lacks this card's cost (so Nut's check skips)."""
        card = pick.get("card", self.engine_card(slot))
        return card == UNKNOWN or printed_value(self.state, "cost", card) is None

    def engine_card(self, slot: str) -> Any:
        """The engine's card for a true slot, following the sim's crumbles this move."""
        return self.state["pyramid"][pyr.INDEX[slot]]

    def act_mirror_case(self, seat, index, card):
        if not self.occupied():
            return None
        pick = self.pick(self.rng.choice(self.occupied()))
        move = self.start_action(seat, index, card)
        self.turn_table[-1]["out"] = True
        self.hands[seat]["discard"].append(self.take(pick))
        targets = pyr.fall_targets(self.pyramid)
        place = self.rng.choice(targets)
        self.pyramid[pyr.INDEX[place]] = card
        move = {**move, "gain": pick}
        if len(targets) > 1 or self.rng.random() < 0.5:
            move["place"] = place
        return move

    def act_dagger(self, seat, index, card):
        move = self.start_action(seat, index, card)
        if len(self.boneyard) >= self.players:
            pile = "hand" if self.state["options"]["dagger_to"] == "hand" else "discard"
            for step in range(self.players):
                who = (seat + step) % self.players
                self.hands[who][pile].append(self.boneyard.pop())
        return move

    def act_judgement(self, seat, index, card):
        hand = self.hands[seat]["hand"]
        if not self.boneyard or len(hand) < 2:
            return None
        move = self.start_action(seat, index, card)
        count = self.rng.randint(1, min(len(hand), len(self.boneyard)))
        aside = []
        for _ in range(count):
            aside.append(hand.pop(self.rng.randrange(len(hand))))
            self.hands[seat]["discard"].append(self.boneyard.pop())
        self.rng.shuffle(aside)
        self.boneyard.extend(aside)
        return {**move, "set_aside": [{"card": c} for c in aside]}

    def act_brain_hook(self, seat, index, card):
        if not self.supply:
            return None
        move = self.start_action(seat, index, card)
        revealed = self.supply.pop()
        named = self.name(revealed)
        if self.rng.random() < 0.5:
            self.play({**move, "revealed": named})
        else:
            self.play(move)
            self.play({"type": "reveal", "card": named})
        ring = next((i for i, c in enumerate(self.hands[seat]["hand"]) if c == "ring"), None)
        if ring is not None and self.rng.random() < 0.5:
            self.play(self.start_action(seat, ring, "ring"))
            self.ring = True
        cost = max(0, self.cost[revealed] - t.BRAIN_HOOK_DISCOUNT)
        chosen = self.payment(seat, cost) if self.rng.random() < 0.7 else None
        if chosen is None:
            self.boneyard.append(revealed)
            self.play({"type": "decline"})
            return PLAYED
        buy: dict[str, Any] = {"type": "buy", "slot": REVEALED}
        typed = self.typed("cost", revealed, always=named == UNKNOWN)
        if typed is not None:
            buy["cost"] = typed
        buy["pay"] = self.pay(seat, chosen)
        self.hands[seat]["discard"].append(revealed)
        self.play(buy)
        return PLAYED

    def act_senet(self, seat, index, card):
        if self.solo:
            return None
        opponent = self.rng.choice([s for s in range(self.players) if s != seat])
        move = self.start_action(seat, index, card)
        self.turn_table[-1]["out"] = True
        self.draw(self.hands[seat], 1)
        self.hands[opponent]["discard"].append(card)
        hand = self.hands[opponent]["hand"]
        sets = [i for i, c in enumerate(hand) if self.is_set(c)]
        if not sets:
            return {**move, "opponent": opponent, "response": {"card": None}}
        given = self.rng.choice(sets)
        return {**move, "opponent": opponent,
                "response": self.forced_discard(opponent, given, seat)}

    def forced_discard(self, who: int, index: int, onto: int) -> dict[str, Any]:
        card = self.hands[who]["hand"].pop(index)
        self.hands[onto]["discard"].append(card)
        entry: dict[str, Any] = {"card": card}
        if card == "axe" and self.rng.random() < 0.7:
            entry["reaction"] = True
            discards = []
            for step in range(1, self.players):
                other = (who + step) % self.players
                hand = self.hands[other]["hand"]
                if not hand:
                    discards.append({"seat": other, "card": None})
                    continue
                top = max(self.cost.get(c, 0) for c in hand)
                pick = self.rng.choice([i for i, c in enumerate(hand)
                                        if self.cost.get(c, 0) == top])
                discards.append({"seat": other, **self.forced_discard(other, pick, other)})
            entry["discards"] = discards
        return entry

    def act_axe(self, seat, index, card):
        return None                 # a reaction only (Senet, another Axe)

    def act_generic(self, seat, index, card):
        """A card whose action nobody clarified: the sim gives it a truthful public effect."""
        move = self.start_action(seat, index, card)
        if card != UNKNOWN and self.rng.random() < 0.2:
            move["card"] = UNKNOWN if self.rng.random() < 0.3 else card
        effects = []
        roll = self.rng.random()
        player = self.hands[seat]
        if roll < 0.25:
            effects.append({"kind": "draw", "count": 1})
            self.draw(player, 1)
        elif roll < 0.4 and self.occupied():
            pick = self.pick(self.rng.choice(self.occupied()))
            player["discard"].append(self.take(pick))
            effects.append({"kind": "gain", **pick})
        elif roll < 0.5 and self.boneyard:
            player["discard"].append(self.boneyard.pop())
            effects.append({"kind": "take_boneyard"})
        elif roll < 0.6 and player["hand"]:
            victim = player["hand"].pop(self.rng.randrange(len(player["hand"])))
            self.boneyard.append(victim)
            effects.append({"kind": "sacrifice_hand", "card": victim})
        elif roll < 0.7 and player["hand"]:
            sealed = player["hand"].pop(self.rng.randrange(len(player["hand"])))
            player["tomb"].append(sealed)
            effects.append({"kind": "seal_hand", "card": sealed, **self.seal_info(sealed)})
        elif roll < 0.75 and self.supply:
            taken = self.supply.pop()
            player["discard"].append(taken)
            effects.append({"kind": "take_supply", "card": self.name(taken)})
        if effects:
            move["effects"] = effects
        return move

    # ---- end of turn ----------------------------------------------------------------

    def end_turn(self, seat: int) -> None:
        move: dict[str, Any] = {"type": "end_turn"}
        assert rebuild_needed(self.state) == (not self.changed and bool(self.occupied()))
        if not self.changed and self.occupied():
            pick = self.pick(self.rng.choice(self.occupied()))
            self.boneyard.append(self.take(pick))
            move["sacrifice"] = pick
        empties = pyr.refill_order(self.pyramid)
        count = min(len(empties), len(self.supply))
        if count:
            self.play(move)
            assert self.state["phase"] == "refill"
            cards = []
            for slot in empties[:count]:
                card = self.supply.pop()
                self.pyramid[pyr.INDEX[slot]] = card
                cards.append(self.name(card))
            move = {"type": "refill", "cards": cards}
        player = self.hands[seat]
        player["discard"] += player["hand"] + [x["card"] for x in self.turn_table
                                               if not x["out"]]
        player["hand"] = []
        self.draw(player, t.HAND_SIZE)
        player["hand"] += player["aside"]
        player["aside"] = []
        self.turn_table = []
        self.play(move)

    def run(self) -> "Sim":
        turns = 0
        while not VALLEY.is_over(self.state):
            self.play_turn()
            turns += 1
            assert turns < MAX_TURNS, "the game did not end"
        return self

    # ---- invariants -------------------------------------------------------------------

    def check(self) -> None:
        state = self.state
        assert pyr.settled(state["pyramid"]), state["pyramid"]
        assert [c is None for c in state["pyramid"]] == [c is None for c in self.pyramid]
        for engine_card, true_card in zip(state["pyramid"], self.pyramid):
            assert engine_card in (None, UNKNOWN, true_card)
        assert state["supply"] == len(self.supply)
        assert len(state["boneyard"]) == len(self.boneyard)
        if state["phase"] in ("play", "brain_hook", "reveal"):
            for seat, (mine, truth) in enumerate(zip(state["players"], self.hands)):
                table = sum(1 for x in self.turn_table if not x["out"]) \
                    if seat == state["current"] else 0
                assert mine["hand"] == len(truth["hand"]), (seat, mine, truth)
                assert mine["deck"] == len(truth["deck"]) and mine["discard"] == len(
                    truth["discard"]) and mine["aside"] == len(truth["aside"]), (seat, mine)
                assert mine["tomb"] == truth["tomb"]
                assert mine["cards"] == (len(truth["hand"]) + len(truth["deck"])
                                         + len(truth["discard"]) + len(truth["aside"]) + table)
        revealed = 1 if state["revealed"] is not None or state["phase"] == "reveal" else 0
        total = (state["supply"] + pyr.count(state["pyramid"]) + len(state["boneyard"])
                 + sum(len(p["tomb"]) + p["cards"] for p in state["players"]) + revealed)
        assert total == self.total, (total, self.total)
        for card, count in state["located"].items():
            assert count <= state["limits"][card]
        held: dict[str, int] = {}
        for player in state["players"]:
            for card in player["tomb"]:
                held[card] = held.get(card, 0) + 1
            for card, count in player["known"].items():
                assert count > 0
            assert sum(player["known"].values()) <= player["cards"]
        for card, count in held.items():
            assert count <= state["limits"][card]
        assert json.loads(json.dumps(state)) == state


def random_options(rng: random.Random, players: int) -> dict[str, Any]:
    """A pool for this many players, with random choices of sets and uniques."""
    pools = [p.value for p in PoolId]
    if players > 4:
        pools = [p for p in pools if p not in ("afterlife", "original")]
    options: dict[str, Any] = {"pool": rng.choice(pools),
                               "uniques": rng.choice(["afterlife", "original", "mixed"])}
    for size, pair in t.SIZE_PAIRS.items():
        options[f"set_{size}"] = rng.choice(pair)
    if players == 1:
        options["solo"] = rng.choice(["beginner", "master"])
    if rng.random() < 0.3:
        options["dagger_to"] = "hand"
    return options
