"""Imhotep live-play referee: setup, the move table, prompts, legal moves, chance, scoring.

Implements spec shared/rules/imhotep.md on the shared skeleton (:mod:`..referee`):

* §3 setup (colours, start player, sleds 2/3/4/5, quarries), §6.3 any mix of sides, §6.5
  options, §2.3 and §6.2 the edition data of the group's copy ("our copy", design.md §2);
* §4.1 round flow: the round card (move ``round_card``, §2.3), the market reveal (move
  ``reveal_market``; the discards are shuffled when the pile runs out, E4), turns, round end
  when the fourth ship has sailed and been unloaded, Temple scoring, next start player left of
  whoever sailed the fourth ship;
* §4.2 GET_STONES (``take_stones``), §4.3 PLACE_STONE (``place_stone``), §4.4 SAIL_SHIP
  (``sail_ship``), §4.5 PLAY_BLUE_CARD (``play_card``: Lever, Hammer, Sail, Chisel) and PASS
  (``pass``, option ``allow_pass_when_stuck``, E3);
* §4.6 delivery per site, A sides, and §6.1 B sides, stone by stone in unloading order. A
  choice belongs to the stone's owner and waits in a :class:`PendingQueue`: the market card
  (``pick_card``, ``pick_pair`` for Market B, ``skip_card`` when the pick is optional), the
  Lever's unloading order (``unload_order``), the pyramid on side B (``choose_pyramid``) and
  its bonus (``use_bonus``/``skip_bonus``), Temple B's choice (``temple_choice``) and the
  identity of a card drawn from the pile (``draw_card``);
* §5 scoring through :func:`.scoring.score_game`, the function score-only mode uses;
* §8 edge cases E1-E21 (each named where the code implements it).

The module is pure (design.md §1): no I/O, no clock, no randomness. Physical randomness is
input: ``round_card`` names the ships on the card that came up, ``reveal_market``,
``draw_card`` and a card bonus name the cards; the engine checks they are still possible and
:func:`chance` lists exactly what it would accept.

The state is a plain JSON dict, so ``json.loads(json.dumps(state))`` equals it and a table is
fully described by ``setup`` arguments plus the move log. ``apply`` never mutates its input:
a :class:`Draft` copies only the parts a move changes.

State layout (per-seat values are lists indexed by seat; stones are recorded by seat)::

    names, colours     list[str]
    options            {sides: {site: "A"|"B"}, wrath_of_pharaoh, allow_pass_when_stuck,
                        market_pick_mandatory, hammer_partial_allowed,
                        chisel_requires_two_stones, obelisks_b_score_at_end,
                        red_card_counts_for_wrath}
    b_values           the edition data in force (tables.EDITION_DEFAULTS + the group's copy)
    unverified         entries of b_values this table relies on that nobody has confirmed
    warnings           [{round, code, ships}]: 3-player round cards outside the verified list
    round              1..6
    phase              "round_card" | "market" | "turn" | "choice" | "over"
    start_player       this round's start player
    current            whose turn it is (phase "turn")
    passes             consecutive passes (E3)
    last_sailor        who sailed the latest ship; next_start: the next round's start player
    round_cards        the round cards used so far, e.g. [[4, 3, 2, 2]]
    ships              [{capacity, minimum, slots: [seat | None], site: site | None}]
    quarry, sled, score   [int]   (score = the scoring track)
    cards              [{kind: count}] kept cards (statue, decorations, blue) per seat
    deck               {kind: count} cards not seen since the last shuffle: the draw pile, the
                       face-down Market B pair and discards nobody saw (E5)
    discard            {kind: count} the face-up discard pile; discard_unknown: unseen discards
    display            open market cards still on the board; pair: face-down cards still there
    pyramids           A: [seat] in placement order (15th on: beside the board)
                       B: {"pyramids": [[seat] per pyramid], "beside": [seat]}
    temple, burial_chamber   [seat] in placement order
    obelisks           A: [height per seat]; B: {"waiting": [int], "towers": [[seat, value]]}
    delivered          [{monument: "ship" | "card"}] how each seat first reached a monument
    queue              the current action's steps, each for one seat (deliveries, bonuses, …);
                       the first one awaiting input is what awaiting/prompts describe
    then               what follows once the queue is empty: "end_action" | "round_end" |
                       "next_round" | None
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Callable, Iterator, Mapping, Sequence

from ..base import (Awaiting, Chance, Edition, N_, RuleViolation, Scoresheet, Term,
                    resolve_edition)
from ..referee import (Args, Draft, MoveRule, PendingQueue, Referee, choice_arg, int_arg,
                       is_int, list_arg)
from . import tables as t
from .scoring import (GameTally, PlayerTally, pyramid_a_points, score_game, score_track_only,
                      temple_round_points, temple_visible)


class MoveKind(StrEnum):
    """The ``type`` of a move (spec §4)."""

    ROUND_CARD = "round_card"            # §4.1 the round card that came up
    REVEAL_MARKET = "reveal_market"      # §4.1 the market cards revealed
    TAKE_STONES = "take_stones"          # §4.2 GET_STONES
    PLACE_STONE = "place_stone"          # §4.3 PLACE_STONE
    SAIL_SHIP = "sail_ship"              # §4.4 SAIL_SHIP
    PLAY_CARD = "play_card"              # §4.5 PLAY_BLUE_CARD
    PASS = "pass"                        # §4.5 PASS (option, E3)
    PICK_CARD = "pick_card"              # §4.6 Market: take an open card
    PICK_PAIR = "pick_pair"              # §6.1 Market B: take the face-down pair, keep one
    SKIP_CARD = "skip_card"              # §6.5 market_pick_mandatory off
    UNLOAD_ORDER = "unload_order"        # §4.5 Lever
    CHOOSE_PYRAMID = "choose_pyramid"    # §6.1 Pyramids B
    USE_BONUS = "use_bonus"              # §6.1 Pyramids B bonus space
    SKIP_BONUS = "skip_bonus"
    TEMPLE_CHOICE = "temple_choice"      # §6.1 Temple B CHOICE space
    DRAW_CARD = "draw_card"              # §6.1 Temple B CARD space: the card drawn


class Phase(StrEnum):
    """Whose input the game waits for (spec §4.1)."""

    ROUND_CARD = "round_card"            # the start player turns up the round card
    MARKET = "market"                    # the start player reveals the market cards
    TURN = "turn"                        # the current player's action
    CHOICE = "choice"                    # a stone's owner (or the Lever's player) chooses
    OVER = "over"


class Task(StrEnum):
    """Steps of an action, each for one seat (state["queue"]); RED needs no input, the others
    may. In phase "choice" the head's kind (a market delivery: ``market_pick``, a pyramid B
    delivery: ``pyramid``) is the step the move table checks moves against."""

    DELIVER = "deliver"        # one stone arrives at a site (Market, Pyramids B: a choice)
    BONUS = "bonus"            # Pyramids B bonus space (optional)
    ORDER = "order"            # the Lever's unloading order
    TEMPLE_CHOICE = "temple_choice"   # Temple B CHOICE: 1 point or 2 stones
    DRAW = "draw"              # Temple B CARD: the card drawn
    RED = "red"                # a red card resolves (automatic)


class Then(StrEnum):
    """What follows once the queue is empty (state["then"])."""

    END_ACTION = "end_action"  # the action is over: next player or round end
    ROUND_END = "round_end"    # the Temple scores (its choices join the queue)
    NEXT_ROUND = "next_round"  # clean-up and the next round or the end


MARKET_PICK, PYRAMID = "market_pick", "pyramid"   # choice steps named after a delivery's site

RULE_OPTIONS: Mapping[str, bool] = {       # §6.4, §6.5 with the seed edition's defaults
    "wrath_of_pharaoh": False,
    "allow_pass_when_stuck": True,
    "market_pick_mandatory": True,
    "hammer_partial_allowed": True,
    "chisel_requires_two_stones": True,
    "obelisks_b_score_at_end": False,
    "red_card_counts_for_wrath": True,
}
SIDE_OPTIONS: Mapping[str, str] = {f"b_{site}": site for site in t.SITES}   # b_market, …
DISPLAY_OPTIONS = frozenset({"show_deck_counts"})
MAX_REVEAL_MOVES = 64          # cap on the reveals legal_moves lists (see there)

_CHOOSING = Term(N_("a choice for a delivered stone"))
WAITING_LABELS: Mapping[str, Term] = {
    Phase.ROUND_CARD.value: Term(N_("the round card")),
    Phase.MARKET.value: Term(N_("the market cards")),
    Phase.TURN.value: Term(N_("a turn: take stones, place a stone, sail a ship or play a "
                              "blue card")),
    MARKET_PICK: _CHOOSING, PYRAMID: _CHOOSING, Task.BONUS.value: _CHOOSING,
    Task.ORDER.value: _CHOOSING, Task.TEMPLE_CHOICE.value: _CHOOSING, Task.DRAW.value: _CHOOSING,
}

QUEUE = PendingQueue("queue")
_ALONE = tuple(Awaiting.one(seat) for seat in range(4))   # built once: asked every move
_NOBODY = Awaiting()


def tile_label(kind: str) -> Term:
    """The translatable name of a card kind, a colour or a site."""
    return (t.CARD_LABELS.get(kind) or t.COLOUR_LABELS.get(kind) or t.SITE_LABELS.get(kind)
            or Term(kind))


ALL_KINDS: tuple[str, ...] = t.CARD_KINDS + t.COLOURS + t.SITES


# --------------------------------------------------------------------------------------------
# Setup (§3)
# --------------------------------------------------------------------------------------------


def normalise_options(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The rule options, with the sides from the ``b_<site>`` flags."""
    clean: dict[str, Any] = dict(RULE_OPTIONS)
    sides = {site: "A" for site in t.SITES}
    for key, value in (options or {}).items():
        if key in RULE_OPTIONS or key in SIDE_OPTIONS or key in DISPLAY_OPTIONS:
            if not isinstance(value, bool):
                raise RuleViolation("imhotep.bad_option",
                                    N_("The option “%(option)s” must be true or false."),
                                    f"options.{key}", option=key)
            if key in RULE_OPTIONS:
                clean[key] = value
            elif key in SIDE_OPTIONS:
                sides[SIDE_OPTIONS[key]] = "B" if value else "A"
    clean["sides"] = sides
    return clean


def setup(options: Mapping[str, Any] | None, names: Sequence[str],
          table: Mapping[str, Any] | None, edition: Edition | None = None) -> dict[str, Any]:
    """A fresh game (§3). ``table`` gives each seat's colour and the start player:
    ``{"colors": ["black", "white"], "start_player": 0}``; ``edition`` the values of the
    group's copy (tables.EDITION; None: the defaults)."""
    opts = normalise_options(options)
    edition = edition or resolve_edition(t.EDITION, None)
    count = len(names)
    if count not in t.PLAYER_COUNTS:
        raise RuleViolation("imhotep.bad_player_count",
                            N_("Imhotep is played by 2 to 4 players, not %(count)d."),
                            count=count)
    table = table or {}
    colours = table.get("colors")
    if (not isinstance(colours, list) or len(colours) != count
            or not all(isinstance(c, str) and c in t.COLOURS for c in colours)
            or len(set(colours)) != count):
        raise RuleViolation("imhotep.bad_colours",
                            N_("Each player needs a different colour: black, white, brown or "
                               "gray."), "colors")
    start = table.get("start_player", 0)
    if not is_int(start) or not 0 <= start < count:
        raise RuleViolation("imhotep.bad_start_player",
                            N_("The start player must be one of the %(count)d seats."),
                            "start_player", count=count)
    sled = [0] * count
    for step in range(count):                       # §3 step 6: 2, 3, 4, 5 going left
        sled[(start + step) % count] = t.STARTING_SLED[step]
    sides = opts["sides"]
    b_values = {**t.default_b_values(), **edition.values}
    return {
        "names": [str(name) for name in names],
        "colours": list(colours),
        "options": opts,
        "b_values": b_values,
        "unverified": [key for key in t.unverified_in_use(sides, count)
                       if key in edition.defaults],
        "warnings": [],
        "round": 1,
        "phase": Phase.ROUND_CARD.value,
        "start_player": start,
        "current": start,
        "passes": 0,
        "last_sailor": None,
        "next_start": None,
        "round_cards": [],
        "ships": [],
        "quarry": [t.PLAYABLE_STONES - n for n in sled],
        "sled": sled,
        "score": [0] * count,
        "cards": [{kind: 0 for kind in t.KEPT_CARDS} for _ in range(count)],
        "deck": dict(t.DECK),
        "discard": {kind: 0 for kind in t.CARD_KINDS},
        "discard_unknown": 0,
        "display": [],
        "pair": 0,
        "pyramids": ({"pyramids": [[] for _ in b_values["pyramids_b"]], "beside": []}
                     if sides["pyramids"] == "B" else []),
        "temple": [],
        "burial_chamber": [],
        "obelisks": ({"waiting": [0] * count, "towers": []} if sides["obelisks"] == "B"
                     else [0] * count),
        "delivered": [{} for _ in range(count)],
        "queue": [],
        "then": None,
    }


# --------------------------------------------------------------------------------------------
# Queries
# --------------------------------------------------------------------------------------------


def is_over(state: Mapping[str, Any]) -> bool:
    """True once round 6 has ended (its Temple scoring included)."""
    return state["phase"] == Phase.OVER


def awaiting(state: Mapping[str, Any]) -> Awaiting:
    """Whose input is due: the round's start player enters the round card and the market
    cards (§4.1), the current player acts, a queued choice belongs to its seat; nobody once
    the game is over. Imhotep is sequential: one seat at a time."""
    phase = state["phase"]
    if phase == Phase.TURN:
        return _ALONE[state["current"]]
    if phase == Phase.CHOICE:
        return _ALONE[QUEUE.head(state)["seat"]]
    if phase == Phase.OVER:
        return _NOBODY
    return _ALONE[state["start_player"]]


def to_act(state: Mapping[str, Any]) -> int | None:
    """The seat whose input is awaited, or None when the game is over."""
    return next(iter(awaiting(state).seats), None)


def step(state: Mapping[str, Any]) -> str:
    """The phase, with a choice named after what it is about (the move table's phases)."""
    phase = state["phase"]
    if phase != Phase.CHOICE:
        return phase
    task = QUEUE.head(state)
    if task["kind"] == Task.DELIVER:
        return MARKET_PICK if task["site"] == "market" else PYRAMID
    return task["kind"]


def pile_count(state: Mapping[str, Any]) -> int:
    """Cards in the face-down draw pile."""
    return sum(state["deck"].values()) - state["pair"] - state["discard_unknown"]


def _can_draw(state: Mapping[str, Any]) -> bool:
    """A card can be drawn: from the pile, or from the discards shuffled into a new one (E4)."""
    return (pile_count(state) > 0 or state["discard_unknown"] > 0
            or any(state["discard"].values()))


def drawable(state: Mapping[str, Any]) -> dict[str, int]:
    """The card kinds the next card drawn may be, with their copies (E4: the discards are
    shuffled in first when the pile is empty; cards nobody saw make this a superset, E5)."""
    if pile_count(state) > 0:
        return {k: n for k, n in state["deck"].items() if n}
    merged = {k: state["deck"][k] + state["discard"][k] for k in t.CARD_KINDS}
    return {k: n for k, n in merged.items() if n}


def _takeable(state: Mapping[str, Any], seat: int, most: int) -> int:
    """Stones ``seat`` can move quarry → sled now: at most ``most``, the sled room, the stock."""
    return min(most, t.SLED_CAPACITY - state["sled"][seat], state["quarry"][seat])


def _free_slots(state: Mapping[str, Any]) -> list[tuple[int, int]]:
    return [(i, j) for i, ship in enumerate(state["ships"]) if ship["site"] is None
            for j, owner in enumerate(ship["slots"]) if owner is None]


def _load(ship: Mapping[str, Any]) -> int:
    return sum(1 for owner in ship["slots"] if owner is not None)


def _sailable(state: Mapping[str, Any]) -> list[int]:
    """Unsailed ships carrying at least their minimum (§4.4 condition 1)."""
    return [i for i, ship in enumerate(state["ships"])
            if ship["site"] is None and _load(ship) >= ship["minimum"]]


def _free_sites(state: Mapping[str, Any]) -> list[str]:
    """Sites no ship has docked at this round (§4.4 condition 2)."""
    taken = {ship["site"] for ship in state["ships"]}
    return [site for site in t.SITES if site not in taken]


def _sail_card_ships(state: Mapping[str, Any], seat: int) -> list[int]:
    """Ships a Sail card can load and then sail (§4.5: the minimum counts the new stone)."""
    if state["sled"][seat] == 0:
        return []
    return [i for i, ship in enumerate(state["ships"])
            if ship["site"] is None and None in ship["slots"]
            and _load(ship) + 1 >= ship["minimum"]]


def _chisel_needs(state: Mapping[str, Any], seat: int) -> int:
    """How many stones a Chisel places now (§4.5, E8); 0 when it cannot be played."""
    sled, free = state["sled"][seat], len(_free_slots(state))
    if state["options"]["chisel_requires_two_stones"]:
        return 2 if sled >= 2 and free >= 2 else 0
    return min(2, sled, free)


def _hammer_parts(state: Mapping[str, Any], seat: int) -> tuple[int, bool]:
    """(stones the Hammer takes, whether it can then place one) (§4.5, E7)."""
    take = _takeable(state, seat, t.STONES_PER_TAKE)
    return take, state["sled"][seat] + take > 0 and bool(_free_slots(state))


def _hammer_playable(state: Mapping[str, Any], seat: int) -> bool:
    take, place = _hammer_parts(state, seat)
    if state["options"]["hammer_partial_allowed"]:
        return take > 0 or place
    return take > 0 and place


def playable_cards(state: Mapping[str, Any], seat: int) -> list[str]:
    """The blue cards ``seat`` holds and could play now (§4.5)."""
    held = state["cards"][seat]
    usable = {"lever": lambda: bool(_sailable(state)),
              "hammer": lambda: _hammer_playable(state, seat),
              "sail": lambda: bool(_sail_card_ships(state, seat)),
              "chisel": lambda: _chisel_needs(state, seat) > 0}
    return [card for card in t.BLUE_CARDS if held[card] and usable[card]()]


def _turn_moves(state: Mapping[str, Any], seat: int) -> list[str]:
    """The kinds of action ``seat`` may take on its turn (PASS only when none is, §4.5)."""
    moves = []
    if _takeable(state, seat, t.STONES_PER_TAKE):
        moves.append(MoveKind.TAKE_STONES.value)
    if state["sled"][seat] and _free_slots(state):
        moves.append(MoveKind.PLACE_STONE.value)
    if _sailable(state):
        moves.append(MoveKind.SAIL_SHIP.value)
    if playable_cards(state, seat):
        moves.append(MoveKind.PLAY_CARD.value)
    if not moves and state["options"]["allow_pass_when_stuck"]:
        moves.append(MoveKind.PASS.value)
    return moves


def _pyramids_with_room(state: Mapping[str, Any]) -> list[int]:
    spaces = state["b_values"]["pyramids_b"]
    return [i for i, pile in enumerate(state["pyramids"]["pyramids"])
            if len(pile) < len(spaces[i])]


def _bonus_possible(state: Mapping[str, Any], seat: int, bonus: str) -> bool:
    if bonus == "card":
        return _can_draw(state)
    if bonus == "stones":
        return _takeable(state, seat, t.PYRAMID_B_BONUS_STONES) > 0
    return state["sled"][seat] > 0 and bool(_free_slots(state))


def _ship_view(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    sailable = set(_sailable(state))
    return [{"ship": i, "capacity": ship["capacity"], "minimum": ship["minimum"],
             "free": [j for j, owner in enumerate(ship["slots"]) if owner is None]
             if ship["site"] is None else [],
             "sailed": ship["site"] is not None, "can_sail": i in sailable}
            for i, ship in enumerate(state["ships"])]


def _unused_round_cards(state: Mapping[str, Any]) -> tuple[list[list[int]], list[list[int]]]:
    """(unused cards of our copy nobody doubts, unused unverified ones) for this player count
    (§2.3): 3 players' cards 6-7 are unverified until the group enters its copy's."""
    count = len(state["names"])
    cards = t.round_cards(count, state["b_values"])
    doubted = count == 3 and "round_cards_3p" in state["unverified"]
    groups = (cards[:len(t.ROUND_CARDS[3])], cards[len(t.ROUND_CARDS[3]):]) if doubted \
        else (cards, [])
    used = [list(card) for card in state["round_cards"]]
    left: tuple[list[list[int]], list[list[int]]] = ([], [])
    for group, listed in zip(left, groups):
        for card in listed:
            if card in used:
                used.remove(card)
            else:
                group.append(card)
    return left


def _reveal_counts(state: Mapping[str, Any]) -> tuple[int, int]:
    """(open cards, face-down pair cards) this round's reveal deals (§4.1, §6.1, E4)."""
    b_side = state["options"]["sides"]["market"] == "B"
    wanted_open = t.MARKET_B_OPEN if b_side else t.MARKET_A_DISPLAY
    wanted_pair = t.MARKET_B_PAIR if b_side else 0
    available = (pile_count(state) + sum(state["discard"].values())
                 + state["discard_unknown"])
    shown = min(wanted_open, available)
    return shown, min(wanted_pair, available - shown)


def _reveal_pool(state: Mapping[str, Any]) -> tuple[list[str], Mapping[str, int], int]:
    """What the open market cards can be (§4.1, E4, E5): (cards that must come up, the pool
    the others come from, how many come from it). A pile that runs out comes up whole first,
    then the shuffled discards give the rest; with discards nobody saw (E5) the pile's content
    is unknown, so any card not seen since the last shuffle may come up."""
    shown, _ = _reveal_counts(state)
    deck, discard = state["deck"], state["discard"]
    pile = pile_count(state)
    if pile >= shown:
        return [], deck, shown
    if state["discard_unknown"]:
        return [], {k: deck[k] + discard[k] for k in t.CARD_KINDS}, shown
    return [k for k, n in deck.items() for _ in range(n)], discard, shown - pile


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
        verified, unverified = _unused_round_cards(state)
        cards = verified + unverified
        return Chance({"type": MoveKind.ROUND_CARD.value}, "ships",
                      tuple((card, cards.count(card)) for card in _distinct(cards)), seats)
    if phase == Phase.MARKET:
        first, pool, draws = _reveal_pool(state)
        reveal = {"type": MoveKind.REVEAL_MARKET.value}
        if not first and draws > 1:
            return Chance(reveal, "cards", tuple((k, n) for k, n in pool.items() if n), seats,
                          draws=draws)
        # a whole reveal is one outcome, as likely as the ways to draw it
        return Chance(reveal, "cards", tuple((first + rest, _ways(pool, rest))
                                             for rest in _multisets(pool, draws)), seats)
    task = QUEUE.head(state) if phase == Phase.CHOICE else None
    if task and (task["kind"] == Task.DRAW or task.get("bonus") == "card"):
        kind = MoveKind.DRAW_CARD if task["kind"] == Task.DRAW else MoveKind.USE_BONUS
        return Chance({"type": kind.value}, "card", tuple(drawable(state).items()), seats)
    return None


def prompts(state: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """What ``seat`` may do now: the legal move kinds and the choices to offer."""
    if seat not in awaiting(state).seats:
        return {"moves": []}
    now = step(state)
    if now == Phase.ROUND_CARD:
        verified, unverified = _unused_round_cards(state)
        return {"moves": [MoveKind.ROUND_CARD.value], "round": state["round"],
                "cards": _distinct(verified + unverified), "unverified": _distinct(unverified),
                "any_card": len(state["names"]) == 3}
    if now == Phase.MARKET:
        shown, pair = _reveal_counts(state)
        return {"moves": [MoveKind.REVEAL_MARKET.value], "open": shown, "pair": pair,
                "pile": pile_count(state), "reshuffle": pile_count(state) < shown + pair}
    if now == Phase.TURN:
        return {"moves": _turn_moves(state, seat), "sled": state["sled"][seat],
                "quarry": state["quarry"][seat], "ships": _ship_view(state),
                "free_sites": _free_sites(state), "cards": playable_cards(state, seat),
                "chisel_stones": _chisel_needs(state, seat)}
    task = QUEUE.head(state)
    if now == MARKET_PICK:
        moves = ([MoveKind.PICK_CARD.value] if state["display"] else []) + (
            [MoveKind.PICK_PAIR.value] if state["pair"] else []) + (
            [] if state["options"]["market_pick_mandatory"] else [MoveKind.SKIP_CARD.value])
        return {"moves": moves, "cards": list(state["display"]), "pair": state["pair"],
                "pair_cards": sorted(k for k, n in state["deck"].items() if n) if state["pair"]
                else []}
    if now == PYRAMID:
        return {"moves": [MoveKind.CHOOSE_PYRAMID.value], "pyramids": _pyramids_with_room(state)}
    if now == Task.BONUS:
        extra: dict[str, Any] = {}
        if task["bonus"] == "card":
            extra["cards"] = sorted(drawable(state))
        elif task["bonus"] == "ship":
            extra["ships"] = _ship_view(state)
        return {"moves": [MoveKind.USE_BONUS.value, MoveKind.SKIP_BONUS.value],
                "bonus": task["bonus"], "bonus_label": t.BONUS_LABELS[task["bonus"]], **extra}
    if now == Task.ORDER:
        ship = state["ships"][task["ship"]]
        return {"moves": [MoveKind.UNLOAD_ORDER.value], "ship": task["ship"],
                "site": task["site"],
                "slots": [j for j, owner in enumerate(ship["slots"]) if owner is not None]}
    if now == Task.TEMPLE_CHOICE:
        return {"moves": [MoveKind.TEMPLE_CHOICE.value], "take": ["point", "stones"],
                "stones": _takeable(state, seat, t.TEMPLE_B_CHOICE_STONES)}
    return {"moves": [MoveKind.DRAW_CARD.value], "cards": sorted(drawable(state))}


def _distinct(cards: list[list[int]]) -> list[list[int]]:
    out: list[list[int]] = []
    for card in cards:
        if card not in out:
            out.append(card)
    return out


def legal_moves(state: Mapping[str, Any], seat: int) -> list[dict[str, Any]]:
    """Every concrete legal move for ``seat`` (empty when it is not this seat's input).

    ``reveal_market`` has too many possibilities to list (any cards the pile can hold), so at
    most MAX_REVEAL_MOVES distinct ones are given (:func:`chance` has them all, weighed);
    every other kind is listed in full.
    """
    if seat not in awaiting(state).seats:
        return []
    now = step(state)
    if now == Phase.ROUND_CARD:
        return [{"type": "round_card", "ships": card} for card in prompts(state, seat)["cards"]]
    if now == Phase.MARKET:
        first, pool, draws = _reveal_pool(state)
        return [{"type": "reveal_market", "cards": first + rest}
                for rest in _multisets(pool, draws, MAX_REVEAL_MOVES)]
    if now == Phase.TURN:
        return _turn_legal_moves(state, seat)
    task = QUEUE.head(state)
    if now == MARKET_PICK:
        deck = state["deck"]
        moves = [{"type": "pick_card", "card": card} for card in dict.fromkeys(state["display"])]
        if state["pair"] == 1:
            moves += [{"type": "pick_pair", "keep": card} for card in sorted(deck) if deck[card]]
        elif state["pair"]:
            moves += [{"type": "pick_pair", "keep": keep, "discard": other}
                      for keep in t.CARD_KINDS if deck[keep]
                      for other in t.CARD_KINDS if deck[other] > (1 if other == keep else 0)]
        if not state["options"]["market_pick_mandatory"]:
            moves.append({"type": "skip_card"})
        return moves
    if now == PYRAMID:
        return [{"type": "choose_pyramid", "pyramid": i} for i in _pyramids_with_room(state)]
    if now == Task.BONUS:
        if task["bonus"] == "card":
            uses = [{"type": "use_bonus", "card": card} for card in drawable(state)]
        elif task["bonus"] == "ship":
            uses = [{"type": "use_bonus", "ship": i, "slot": j} for i, j in _free_slots(state)]
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
    if len(items) <= 1:
        return [list(items)]
    return [[first] + rest for i, first in enumerate(items)
            for rest in _permutations(items[:i] + items[i + 1:])]


def _turn_legal_moves(state: Mapping[str, Any], seat: int) -> list[dict[str, Any]]:
    kinds = _turn_moves(state, seat)
    moves: list[dict[str, Any]] = []
    free = _free_slots(state)
    sites = _free_sites(state)
    sailable = _sailable(state)
    if MoveKind.TAKE_STONES in kinds:
        moves.append({"type": "take_stones"})
    if MoveKind.PLACE_STONE in kinds:
        moves += [{"type": "place_stone", "ship": i, "slot": j} for i, j in free]
    if MoveKind.SAIL_SHIP in kinds:
        moves += [{"type": "sail_ship", "ship": i, "site": site}
                  for i in sailable for site in sites]
    for card in playable_cards(state, seat):
        if card == "lever":
            moves += [{"type": "play_card", "card": "lever", "ship": i, "site": site}
                      for i in sailable for site in sites]
        elif card == "hammer":
            take, place = _hammer_parts(state, seat)
            moves += ([{"type": "play_card", "card": "hammer", "ship": i, "slot": j}
                       for i, j in free] if place else [{"type": "play_card", "card": "hammer"}])
        elif card == "sail":
            moves += [{"type": "play_card", "card": "sail", "ship": i, "slot": j, "site": site}
                      for i in _sail_card_ships(state, seat)
                      for j, owner in enumerate(state["ships"][i]["slots"]) if owner is None
                      for site in sites]
        elif _chisel_needs(state, seat) == 1:
            moves += [{"type": "play_card", "card": "chisel",
                       "places": [{"ship": i, "slot": j}]} for i, j in free]
        else:
            moves += [{"type": "play_card", "card": "chisel",
                       "places": [{"ship": a[0], "slot": a[1]}, {"ship": b[0], "slot": b[1]}]}
                      for x, a in enumerate(free) for b in free[x + 1:]]
    if MoveKind.PASS in kinds:
        moves.append({"type": "pass"})
    return moves


# --------------------------------------------------------------------------------------------
# The move table, part 1: parse (shape only)
# --------------------------------------------------------------------------------------------


def _card_arg(move: Mapping[str, Any], key: str) -> str:
    return choice_arg(REFEREE, move, key, t.DECK)


def _site_arg(move: Mapping[str, Any]) -> str:
    site = move.get("site")
    if not isinstance(site, str):
        raise REFEREE.bad_move("site")
    if site not in t.SITES:
        raise RuleViolation("imhotep.unknown_site",
                            N_("“%(site)s” is not a site: market, pyramids, temple, "
                               "burial_chamber or obelisks."), "move.site", site=site[:30])
    return site


def _slot_args(move: Mapping[str, Any]) -> dict[str, int]:
    return {"ship": int_arg(REFEREE, move, "ship"), "slot": int_arg(REFEREE, move, "slot")}


def _parse_sail(move: Mapping[str, Any]) -> Args:
    return {"ship": int_arg(REFEREE, move, "ship"), "site": _site_arg(move)}


def _parse_card(move: Mapping[str, Any]) -> Args:
    args: dict[str, Any] = {"card": _card_arg(move, "card")}
    card = args["card"]
    if card == "lever":
        args.update(_parse_sail(move))
    elif card == "sail":
        args.update(_parse_sail(move), slot=int_arg(REFEREE, move, "slot"))
    elif card == "hammer" and ("ship" in move or "slot" in move):
        args.update(_slot_args(move))
    elif card == "chisel":
        places = list_arg(REFEREE, move, "places", lambda p: isinstance(p, Mapping), 1, 2)
        args["places"] = [(int_arg(REFEREE, p, "ship"), int_arg(REFEREE, p, "slot"))
                          for p in places]
    return args


def _parse_bonus(move: Mapping[str, Any]) -> Args:
    args: dict[str, Any] = {}
    if "card" in move:
        args["card"] = _card_arg(move, "card")
    if "ship" in move or "slot" in move:
        args.update(_slot_args(move))
    return args


# --------------------------------------------------------------------------------------------
# The move table, part 2: check (the preconditions of §2.3, §4 and §6.1)
# --------------------------------------------------------------------------------------------


def _round_card_status(state: Mapping[str, Any], ships: list[int]) -> str | None:
    """None for an unused card nobody doubts; a warning code for 3 players (E21); raises for
    a card the rules refuse (§2.3)."""
    if not t.fits_tokens(ships):
        raise RuleViolation("imhotep.bad_round_card",
                            N_("A round card shows 4 ships of 1 to 4 spaces that the tokens "
                               "allow (at most two 4s, three 3s, two 2s and one 1)."),
                            "move.ships")
    card = sorted(ships, reverse=True)
    verified, unverified = _unused_round_cards(state)
    count = len(state["names"])
    if card in verified:
        return None
    if count == 3:
        return ("imhotep.unverified_round_card" if card in unverified
                else "imhotep.round_card_not_listed")
    if card in t.round_cards(count, state["b_values"]):
        raise RuleViolation("imhotep.card_used",
                            N_("The round card %(card)s has already been used in this game."),
                            "move.ships", card="-".join(map(str, card)))
    raise RuleViolation("imhotep.card_not_in_set",
                        N_("No round card for %(players)d players shows %(card)s."),
                        "move.ships", players=count, card="-".join(map(str, card)))


def _not_in_deck(card: str, field: str) -> RuleViolation:
    return RuleViolation("imhotep.card_not_in_deck",
                         N_("No %(card)s card can be drawn: none is left in the draw pile."),
                         field, card=t.CARD_LABELS[card])


def _check_reveal(state: Mapping[str, Any], seat: int, args: Args) -> None:
    """§4.1 and E4: the right number of cards, each one the pile (or, once it runs out, the
    shuffled discards) can still hold; a pile that runs out comes up whole first."""
    cards = args["cards"]
    shown, _ = _reveal_counts(state)
    if len(cards) != shown:
        raise RuleViolation("imhotep.reveal_count",
                            N_("Reveal %(count)d market cards, not %(given)d."),
                            "move.cards", count=shown, given=len(cards))
    first, pool, _ = _reveal_pool(state)
    for card in dict.fromkeys(first):
        if cards.count(card) < first.count(card):
            raise RuleViolation("imhotep.pile_card_missing",
                                N_("The draw pile still holds %(card)s; it is revealed before "
                                   "the discards are shuffled."), "move.cards",
                                card=t.CARD_LABELS[card])
    for index, card in enumerate(cards):
        if cards.count(card) > first.count(card) + pool.get(card, 0):
            raise _not_in_deck(card, f"move.cards.{index}")


def _check_ship(state: Mapping[str, Any], ship: int) -> Mapping[str, Any]:
    ships = state["ships"]
    if not 0 <= ship < len(ships):
        raise RuleViolation("imhotep.unknown_ship",
                            N_("There is no ship %(ship)d this round."), "move.ship",
                            ship=ship + 1)
    if ships[ship]["site"] is not None:
        raise RuleViolation("imhotep.ship_sailed",
                            N_("Ship %(ship)d has already sailed this round."), "move.ship",
                            ship=ship + 1)
    return ships[ship]


def _check_slot(state: Mapping[str, Any], ship: int, slot: int, seat: int | None = None) -> None:
    """§4.3 preconditions of a placement (from ``seat``'s sled, when given)."""
    if seat is not None and not state["sled"][seat]:
        raise RuleViolation("imhotep.sled_empty", N_("Your sled has no stones to place."))
    boat = _check_ship(state, ship)
    if not 0 <= slot < boat["capacity"]:
        raise RuleViolation("imhotep.slot_out_of_range",
                            N_("Ship %(ship)d has spaces 1 to %(capacity)d."), "move.slot",
                            ship=ship + 1, capacity=boat["capacity"])
    if boat["slots"][slot] is not None:
        raise RuleViolation("imhotep.slot_occupied",
                            N_("Space %(slot)d of ship %(ship)d is taken."), "move.slot",
                            ship=ship + 1, slot=slot + 1)


def _check_sail(state: Mapping[str, Any], ship: int, site: str, extra: int = 0) -> None:
    """§4.4 conditions; ``extra`` stones are placed first (the Sail card)."""
    boat = _check_ship(state, ship)
    if _load(boat) + extra < boat["minimum"]:
        raise RuleViolation("imhotep.under_minimum",
                            N_("Ship %(ship)d needs at least %(minimum)d stones to sail; it "
                               "carries %(load)d."), "move.ship", ship=ship + 1,
                            minimum=boat["minimum"], load=_load(boat) + extra)
    if site not in _free_sites(state):
        raise RuleViolation("imhotep.site_taken",
                            N_("A ship has already docked at the %(site)s this round."),
                            "move.site", site=t.SITE_LABELS[site])


def _check_take(state: Mapping[str, Any], seat: int, args: Args) -> None:
    """§4.2: room on the sled and stones in the quarry."""
    if state["sled"][seat] >= t.SLED_CAPACITY:
        raise RuleViolation("imhotep.sled_full", N_("Your sled already holds %(capacity)d stones."),
                            capacity=t.SLED_CAPACITY)
    if not state["quarry"][seat]:
        raise RuleViolation("imhotep.quarry_empty",
                            N_("None of your stones is left in the quarry."))


def _check_pass(state: Mapping[str, Any], seat: int, args: Args) -> None:
    """§4.5, E3: a pass only when no action is possible (option allow_pass_when_stuck)."""
    if _turn_moves(state, seat) != [MoveKind.PASS.value]:
        raise RuleViolation("imhotep.pass_not_allowed",
                            N_("You can pass only when no action is possible."))


def _check_card(state: Mapping[str, Any], seat: int, args: Args) -> None:
    """§4.5 PLAY_BLUE_CARD."""
    card = args["card"]
    if card not in t.BLUE_CARDS:
        raise RuleViolation("imhotep.card_not_blue",
                            N_("Only blue cards are played as an action; %(card)s is not one."),
                            "move.card", card=t.CARD_LABELS[card])
    if not state["cards"][seat][card]:
        raise RuleViolation("imhotep.card_not_held", N_("You hold no %(card)s card."),
                            "move.card", card=t.CARD_LABELS[card])
    # IM_CARD_GAINED_THIS_TURN cannot arise: a turn is one action, so a card gained during
    # it (by a delivery, E19) is always held until a later turn.
    if card == "lever":
        _check_sail(state, args["ship"], args["site"])
    elif card == "sail":
        _check_slot(state, args["ship"], args["slot"], seat)
        _check_sail(state, args["ship"], args["site"], extra=1)
    elif card == "hammer":
        take, place = _hammer_parts(state, seat)
        partial = state["options"]["hammer_partial_allowed"]
        if (take == 0 and not place) or (not partial and not (take and place)):
            raise RuleViolation("imhotep.card_no_effect",
                                N_("The Hammer would have no effect now."))
        if "ship" in args:
            _check_slot(state, args["ship"], args["slot"], seat if take == 0 else None)
        elif place:
            raise RuleViolation("imhotep.must_place",
                                N_("The Hammer must place a stone on a ship: choose the ship "
                                   "and the space."), "move.ship")
    else:
        _check_chisel(state, seat, args["places"])


def _check_chisel(state: Mapping[str, Any], seat: int, places: list[tuple[int, int]]) -> None:
    """§4.5 Chisel, E8: two stones (one if option chisel_requires_two_stones is off and only
    one fits), on different free spaces."""
    if state["options"]["chisel_requires_two_stones"] and state["sled"][seat] < 2:
        raise RuleViolation("imhotep.sled_needs_two",
                            N_("The Chisel places two stones; your sled holds %(sled)d."),
                            sled=state["sled"][seat])
    if not state["sled"][seat]:
        raise RuleViolation("imhotep.sled_empty", N_("Your sled has no stones to place."))
    need = _chisel_needs(state, seat)
    if need == 0:
        raise RuleViolation("imhotep.no_room", N_("The ships have room for only %(free)d stones."),
                            free=len(_free_slots(state)))
    if len(places) != need:
        raise RuleViolation("imhotep.chisel_count", N_("The Chisel places %(count)d stones here."),
                            "move.places", count=need)
    if len(places) == 2 and places[0] == places[1]:
        raise RuleViolation("imhotep.same_slot", N_("The two stones need two different spaces."),
                            "move.places")
    for ship, slot in places:
        _check_slot(state, ship, slot)


def _check_pick(state: Mapping[str, Any], seat: int, args: Args) -> None:
    if args["card"] not in state["display"]:
        raise RuleViolation("imhotep.card_not_on_board",
                            N_("No %(card)s card lies open on the Market."), "move.card",
                            card=t.CARD_LABELS[args["card"]])


def _check_pair(state: Mapping[str, Any], seat: int, args: Args) -> None:
    """§6.1 Market B: the pair is there; both its cards are named (one if only one is left),
    each one nobody has seen yet."""
    pair = state["pair"]
    if not pair:
        raise RuleViolation("imhotep.no_pair", N_("There is no face-down pair on the Market."))
    if (args["discard"] is None) != (pair == 1):
        raise REFEREE.bad_move("discard")
    named = [args["keep"]] + ([args["discard"]] if args["discard"] else [])
    for key, card in zip(("keep", "discard"), named):
        if state["deck"][card] < named.count(card):
            raise _not_in_deck(card, f"move.{key}")


def _check_skip(state: Mapping[str, Any], seat: int, args: Args) -> None:
    if state["options"]["market_pick_mandatory"]:
        raise RuleViolation("imhotep.must_pick",
                            N_("A stone delivered to the Market takes a card."))


def _check_pyramid(state: Mapping[str, Any], seat: int, args: Args) -> None:
    spaces = state["b_values"]["pyramids_b"]
    pyramid = args["pyramid"]
    if not 0 <= pyramid < len(spaces):
        raise RuleViolation("imhotep.unknown_pyramid", N_("There are pyramids 1 to %(count)d."),
                            "move.pyramid", count=len(spaces))
    if pyramid not in _pyramids_with_room(state):
        raise RuleViolation("imhotep.pyramid_full",
                            N_("Pyramid %(pyramid)d is full; choose one with room."),
                            "move.pyramid", pyramid=pyramid + 1)


def _check_bonus(state: Mapping[str, Any], seat: int, args: Args) -> None:
    bonus = QUEUE.head(state)["bonus"]
    if bonus == "card":
        if "card" not in args:
            raise REFEREE.bad_move("card")
        _check_drawn(state, seat, args)
    elif bonus == "ship":
        if "ship" not in args:
            raise REFEREE.bad_move("ship")
        _check_slot(state, args["ship"], args["slot"])


def _check_order(state: Mapping[str, Any], seat: int, args: Args) -> None:
    ship = state["ships"][QUEUE.head(state)["ship"]]
    occupied = [j for j, owner in enumerate(ship["slots"]) if owner is not None]
    if sorted(args["order"]) != occupied:
        raise RuleViolation("imhotep.bad_order",
                            N_("Give every occupied space of the ship once: %(slots)s."),
                            "move.order", slots=", ".join(str(j + 1) for j in occupied))


def _check_drawn(state: Mapping[str, Any], seat: int, args: Args) -> None:
    if args["card"] not in drawable(state):
        raise _not_in_deck(args["card"], "move.card")


# --------------------------------------------------------------------------------------------
# The move table, part 3: change (a Draft of the new state)
# --------------------------------------------------------------------------------------------


def _round_card(d: Draft, seat: int, args: Args) -> None:
    """§4.1 step 1: the card's four ships are put out, empty and unsailed."""
    warning = _round_card_status(d.state, args["ships"])
    card = sorted(args["ships"], reverse=True)
    if warning:
        d["warnings"] = d["warnings"] + [{"round": d["round"], "code": warning, "ships": card}]
    d["round_cards"] = d["round_cards"] + [card]
    d["ships"] = [{"capacity": c, "minimum": t.SHIP_MINIMUM[c], "slots": [None] * c,
                   "site": None} for c in card]
    d["phase"] = Phase.MARKET.value


def _reshuffle(d: Draft) -> None:
    """E4: the discards (seen or not) become the new draw pile."""
    deck = d.own("deck")
    for card, n in d["discard"].items():
        deck[card] += n
    d["discard"] = {kind: 0 for kind in t.CARD_KINDS}
    d["discard_unknown"] = 0


def _reveal(d: Draft, seat: int, args: Args) -> None:
    """§4.1 step 1 and §6.1 Market B: open cards, then the face-down pair."""
    shown, pair = _reveal_counts(d.state)
    if pile_count(d.state) < shown + pair:
        _reshuffle(d)          # the pile runs out during this reveal (E4)
    deck = d.own("deck")
    for card in args["cards"]:
        deck[card] -= 1
    d["display"] = list(args["cards"])
    d["pair"] = pair
    d["phase"] = Phase.TURN.value
    d["current"] = d["start_player"]
    d["passes"] = 0


def _action(change: Callable[[Draft, int, Args], Any]) -> Callable[[Draft, int, Args], None]:
    """A turn action (§4.2–§4.5): passes start again from 0 and the turn ends after it."""
    def act(d: Draft, seat: int, args: Args) -> None:
        d["passes"] = 0
        d["then"] = Then.END_ACTION.value
        change(d, seat, args)
    return act


def _choice(change: Callable[[Draft, int, Args, Mapping[str, Any]], Any]
            ) -> Callable[[Draft, int, Args], None]:
    """A queued choice (§4.6, §6.1): the step leaves the queue and ``change`` carries it out."""
    def choose(d: Draft, seat: int, args: Args) -> None:
        change(d, seat, args, QUEUE.pop(d))
    return choose


def _play_card(d: Draft, seat: int, args: Args) -> None:
    card = args["card"]
    d.add(("cards", seat, card), -1)
    d.add(("discard", card), 1)                     # §4.5: after use, to the discards
    if card == "lever":
        _sail(d, seat, args["ship"], args["site"], lever=True)
    elif card == "hammer":
        _take(d, seat, t.STONES_PER_TAKE)
        if "ship" in args:
            _place(d, seat, args["ship"], args["slot"])
    elif card == "sail":
        _place(d, seat, args["ship"], args["slot"])
        _sail(d, seat, args["ship"], args["site"], lever=False)
    else:
        for ship, slot in args["places"]:
            _place(d, seat, ship, slot)


def _pass(d: Draft, seat: int, args: Args) -> None:
    """E3 (house ruling): when everyone has passed in turn the round ends; stones on unsailed
    ships go back to their owners' quarries; the next start player is left of the last
    player to pass (who is also the last one who acted)."""
    d["passes"] += 1
    if d["passes"] < len(d["names"]):
        d["then"] = Then.END_ACTION.value
        return
    ships = d.own("ships")
    for i, ship in enumerate(ships):
        if ship["site"] is None and _load(ship):
            for owner in ship["slots"]:
                if owner is not None:
                    d.add(("quarry", owner), 1)
            ships[i] = {**ship, "slots": [None] * ship["capacity"]}
    d["next_start"] = (seat + 1) % len(d["names"])
    d["then"] = Then.ROUND_END.value


def _take(d: Draft, seat: int, most: int) -> None:
    n = _takeable(d.state, seat, most)
    if n:
        d.add(("quarry", seat), -n)
        d.add(("sled", seat), n)


def _place(d: Draft, seat: int, ship: int, slot: int) -> None:
    d.add(("sled", seat), -1)
    d.own("ships", ship, "slots")[slot] = seat


def _sail(d: Draft, seat: int, ship: int, site: str, lever: bool) -> None:
    """§4.4: the ship docks; its stones unload bow to stern (Lever: in the card player's
    order, asked for when the owners differ)."""
    boat = d.own("ships", ship)
    boat["site"] = site
    d["last_sailor"] = seat
    owners = [owner for owner in boat["slots"] if owner is not None]
    if lever and len(set(owners)) > 1:
        QUEUE.push_front(d, seat, Task.ORDER.value, ship=ship, site=site)
        return
    boat["slots"] = [None] * boat["capacity"]
    _unload(d, site, owners)


def _unload(d: Draft, site: str, owners: list[int]) -> None:
    for owner in reversed(owners):             # the first owner's stone is delivered first
        QUEUE.push_front(d, owner, Task.DELIVER.value, site=site, via="ship")


def _gain(d: Draft, seat: int, card: str) -> None:
    """A card taken or drawn (§4.6): red resolves at once, the others are kept face up."""
    if card in t.RED_CARDS:
        QUEUE.push_front(d, seat, Task.RED.value, card=card)
    else:
        d.add(("cards", seat, card), 1)


def _draw(d: Draft, seat: int, card: str) -> None:
    """The top card of the pile, named by the table (E4: shuffle first if it is empty), goes
    to ``seat``."""
    if pile_count(d.state) == 0:
        _reshuffle(d)
    d.add(("deck", card), -1)
    _gain(d, seat, card)


def _mark(d: Draft, seat: int, site: str, via: str) -> None:
    """Remember that ``seat`` reached a monument, and whether by ship (§6.4, E11)."""
    if site == "market":
        return
    known = d["delivered"][seat].get(site)
    if known is None or (known == "card" and via == "ship"):
        d.own("delivered", seat)[site] = via


@_choice
def _market_pick(d: Draft, seat: int, args: Args, task: Mapping[str, Any]) -> None:
    """E1: the market stone goes back to the quarry before the card acts."""
    d.add(("quarry", seat), 1)
    if "card" in args:
        d.own("display").remove(args["card"])
        _gain(d, seat, args["card"])
    elif "keep" in args:
        _pick_pair(d, seat, args)


def _pick_pair(d: Draft, seat: int, args: Args) -> None:
    """§6.1 Market B: both cards leave the pile's unseen ones; the other is discarded face up
    (E6)."""
    d.add(("deck", args["keep"]), -1)
    if args["discard"]:
        d.add(("deck", args["discard"]), -1)
        d.add(("discard", args["discard"]), 1)
    d["pair"] = 0
    _gain(d, seat, args["keep"])


@_choice
def _use_bonus(d: Draft, seat: int, args: Args, task: Mapping[str, Any]) -> None:
    """§6.1 Pyramids B bonus: the top market card, 3 stones to the sled, or a stone on a ship."""
    if task["bonus"] == "card":
        _draw(d, seat, args["card"])
    elif task["bonus"] == "stones":
        _take(d, seat, t.PYRAMID_B_BONUS_STONES)
    else:
        _place(d, seat, args["ship"], args["slot"])


@_choice
def _unload_order(d: Draft, seat: int, args: Args, task: Mapping[str, Any]) -> None:
    boat = d.own("ships", task["ship"])
    owners = [boat["slots"][j] for j in args["order"]]
    boat["slots"] = [None] * boat["capacity"]
    _unload(d, task["site"], owners)


@_choice
def _temple_choice(d: Draft, seat: int, args: Args, task: Mapping[str, Any]) -> None:
    if args["take"] == "point":
        d.add(("score", seat), t.TEMPLE_B_CHOICE_POINTS)
    else:
        _take(d, seat, t.TEMPLE_B_CHOICE_STONES)


def _place_pyramid_b(d: Draft, seat: int, pyramid: int, via: str) -> None:
    """§6.1 Pyramids B: the next space of the chosen pyramid; a bonus space pays 1 point and
    offers its bonus."""
    pyramids = d.own("pyramids", "pyramids")
    pile = pyramids[pyramid] = pyramids[pyramid] + [seat]
    space = d["b_values"]["pyramids_b"][pyramid][len(pile) - 1]
    _mark(d, seat, "pyramids", via)
    if isinstance(space, str):
        d.add(("score", seat), t.PYRAMID_B_BONUS_SPACE_POINTS)
        QUEUE.push_front(d, seat, Task.BONUS.value, bonus=space)
    else:
        d.add(("score", seat), space)


def _deliver(d: Draft, task: Mapping[str, Any]) -> bool:
    """One stone arrives (§4.6, §6.1). True when its owner must choose first."""
    site, seat, via = task["site"], task["seat"], task["via"]
    sides = d["options"]["sides"]
    if site == "market":
        if d["display"] or d["pair"]:
            return True
        QUEUE.pop(d)
        d.add(("quarry", seat), 1)         # E4: no card left; the stone still goes back
        return False
    if site == "pyramids" and sides["pyramids"] == "B":
        room = _pyramids_with_room(d.state)
        if len(room) > 1:
            return True
        QUEUE.pop(d)
        if room:
            _place_pyramid_b(d, seat, room[0], via)
        else:                              # E14: all full, beside the board
            d.own("pyramids", "beside").append(seat)
            d.add(("score", seat), t.PYRAMID_OVERFLOW_POINTS)
            _mark(d, seat, site, via)
        return False
    QUEUE.pop(d)
    _mark(d, seat, site, via)
    if site == "pyramids":
        stones = d.own("pyramids")
        stones.append(seat)
        d.add(("score", seat), pyramid_a_points(len(stones)))
    elif site in ("temple", "burial_chamber"):
        d.own(site).append(seat)
    elif sides["obelisks"] == "A":
        d.add(("obelisks", seat), 1)
    else:
        waiting = d.own("obelisks", "waiting")
        waiting[seat] += 1
        free = _free_towers(d.state)
        if waiting[seat] >= t.OBELISK_B_TOWER_STONES and free:
            # the free tower space with the highest value; none free: the stones keep waiting
            waiting[seat] -= t.OBELISK_B_TOWER_STONES
            d.own("obelisks", "towers").append([seat, free[0]])
            if not d["options"]["obelisks_b_score_at_end"]:
                d.add(("score", seat), free[0])
    return False


def _free_towers(state: Mapping[str, Any]) -> list[int]:
    """Obelisks B tower values still free, highest first (§6.1; none left: stones wait)."""
    free = sorted(state["b_values"]["obelisks_b"], reverse=True)
    for _, value in state["obelisks"]["towers"]:
        free.remove(value)
    return free


def _waits_for_input(d: Draft, task: Mapping[str, Any]) -> bool:
    """Carry out ``task`` if it needs nobody's input (popping it); True if it waits."""
    kind, seat = task["kind"], task["seat"]
    if kind == Task.DELIVER:
        return _deliver(d, task)
    if kind == Task.ORDER:
        return True
    if kind == Task.BONUS and _bonus_possible(d.state, seat, task["bonus"]):
        return True
    if kind == Task.TEMPLE_CHOICE and _takeable(d.state, seat, t.TEMPLE_B_CHOICE_STONES):
        return True
    if kind == Task.DRAW and _can_draw(d.state):
        return True
    QUEUE.pop(d)
    if kind == Task.TEMPLE_CHOICE:          # E16: no stone can be taken, so the point
        d.add(("score", seat), t.TEMPLE_B_CHOICE_POINTS)
    elif kind == Task.RED:
        _resolve_red(d, seat, task["card"])
    # BONUS impossible: skipped (§6.1: optional); DRAW with no card anywhere: nothing (E4)
    return False


def _run(d: Draft) -> None:
    """After every move: carry out queued steps until one needs a player's input, then what
    follows the action (the next turn, the round end, the next round)."""
    while True:
        task = QUEUE.head(d.state)
        if task is not None:
            if _waits_for_input(d, task):
                d["phase"] = Phase.CHOICE.value
                return
            continue
        then = d["then"]
        if then is None:
            return
        d["then"] = None
        if then == Then.END_ACTION:
            _end_action(d)
        elif then == Then.ROUND_END:
            _temple_end(d)
            d["then"] = Then.NEXT_ROUND.value
        else:
            _next_round(d)


def _resolve_red(d: Draft, seat: int, card: str) -> None:
    """§2.6 red cards, E2/IM-T23: one own stone from the quarry to the card's site, placed by
    that site's rules (B sides included); none in the quarry, no effect. Then discarded."""
    d.add(("discard", card), 1)
    if d["quarry"][seat]:
        d.add(("quarry", seat), -1)
        QUEUE.push_front(d, seat, Task.DELIVER.value, site=t.RED_CARD_SITE[card], via="card")


def _end_action(d: Draft) -> None:
    """§4.1: the next player's turn, or the round end once the fourth ship has unloaded."""
    count = len(d["names"])
    if all(ship["site"] is not None for ship in d["ships"]):
        d["next_start"] = (d["last_sailor"] + 1) % count     # left of the fourth ship's sailor
        d["then"] = Then.ROUND_END.value
        return
    d["current"] = (d["current"] + 1) % count
    d["phase"] = Phase.TURN.value


def temple_width(state: Mapping[str, Any]) -> int:
    """Positions per Temple level (§2.4; Temple B with 2 players: b_values)."""
    count = len(state["names"])
    if state["options"]["sides"]["temple"] == "B" and count == 2:
        return state["b_values"]["temple_b_width_2p"]
    return t.TEMPLE_A_WIDTH[count]


def _temple_end(d: Draft) -> None:
    """§5.2 Temple A: 1 point per visible stone. §6.1 Temple B: each visible stone's space
    bonus, left to right (E15); TWO scores at once, CHOICE and CARD ask their owner."""
    width = temple_width(d.state)
    if d["options"]["sides"]["temple"] == "A":
        for seat, points in temple_round_points(d["temple"], width).items():
            d.add(("score", seat), points)
        return
    spaces = d["b_values"]["temple_b"]
    for position, seat in enumerate(temple_visible(d["temple"], width)):
        bonus = spaces[position]
        if bonus == "two":          # needs no input, and points change nothing else
            d.add(("score", seat), t.TEMPLE_B_TWO_POINTS)
        else:
            QUEUE.push(d, seat, (Task.TEMPLE_CHOICE if bonus == "choice" else Task.DRAW).value)


def _next_round(d: Draft) -> None:
    """§4.1 steps 3-5: ships back, leftover market cards discarded, next round or the end."""
    if d["display"]:
        discard = d.own("discard")
        for card in d["display"]:
            discard[card] += 1
    d["display"] = []
    if d["pair"]:
        d["discard_unknown"] += d["pair"]      # E5: discarded unseen
        d["pair"] = 0
    d["ships"] = []
    d["passes"] = 0
    if d["round"] == t.ROUNDS:
        d["phase"] = Phase.OVER.value
        return
    d["round"] += 1
    d["start_player"] = d["current"] = d["next_start"]
    d["phase"] = Phase.ROUND_CARD.value


def _not_your_choice(state: Mapping[str, Any], seat: int, rule: MoveRule) -> RuleViolation | None:
    """A choice belongs to one seat; anyone else is told whose it is."""
    if state["phase"] != Phase.CHOICE:
        return None
    return RuleViolation("imhotep.not_your_choice", N_("%(player)s chooses now, not you."),
                         player=state["names"][to_act(state)])


def _rule(kind: MoveKind, label: str, steps: Sequence[str], parse=None, check=None,
          change=None) -> MoveRule:
    return MoveRule(kind.value, Term(label), frozenset(steps), parse, check, change)


_TURN = (Phase.TURN.value,)
REFEREE = Referee("imhotep", (
    _rule(MoveKind.ROUND_CARD, N_("turn up the round card"), (Phase.ROUND_CARD.value,),
          lambda move: {"ships": list_arg(REFEREE, move, "ships", is_int)},
          lambda state, seat, args: _round_card_status(state, args["ships"]), _round_card),
    _rule(MoveKind.REVEAL_MARKET, N_("reveal the market cards"), (Phase.MARKET.value,),
          lambda move: {"cards": list_arg(REFEREE, move, "cards",
                                          lambda card: isinstance(card, str) and card in t.DECK)},
          _check_reveal, _reveal),
    _rule(MoveKind.TAKE_STONES, N_("take stones"), _TURN, None, _check_take,
          _action(lambda d, seat, args: _take(d, seat, t.STONES_PER_TAKE))),
    _rule(MoveKind.PLACE_STONE, N_("place a stone"), _TURN, _slot_args,
          lambda state, seat, args: _check_slot(state, args["ship"], args["slot"], seat),
          _action(lambda d, seat, args: _place(d, seat, args["ship"], args["slot"]))),
    _rule(MoveKind.SAIL_SHIP, N_("sail a ship"), _TURN, _parse_sail,
          lambda state, seat, args: _check_sail(state, args["ship"], args["site"]),
          _action(lambda d, seat, args: _sail(d, seat, args["ship"], args["site"], False))),
    _rule(MoveKind.PLAY_CARD, N_("play a blue card"), _TURN, _parse_card, _check_card,
          _action(_play_card)),
    _rule(MoveKind.PASS, N_("pass"), _TURN, None, _check_pass, _pass),
    _rule(MoveKind.PICK_CARD, N_("take a market card"), (MARKET_PICK,),
          lambda move: {"card": _card_arg(move, "card")}, _check_pick, _market_pick),
    _rule(MoveKind.PICK_PAIR, N_("take the face-down pair"), (MARKET_PICK,),
          lambda move: {"keep": _card_arg(move, "keep"),
                        "discard": _card_arg(move, "discard") if "discard" in move else None},
          _check_pair, _market_pick),
    _rule(MoveKind.SKIP_CARD, N_("take no market card"), (MARKET_PICK,), None, _check_skip,
          _market_pick),
    _rule(MoveKind.UNLOAD_ORDER, N_("choose the unloading order"), (Task.ORDER.value,),
          lambda move: {"order": list_arg(REFEREE, move, "order", is_int)}, _check_order,
          _unload_order),
    _rule(MoveKind.CHOOSE_PYRAMID, N_("choose a pyramid"), (PYRAMID,),
          lambda move: {"pyramid": int_arg(REFEREE, move, "pyramid")}, _check_pyramid,
          _choice(lambda d, seat, args, task: _place_pyramid_b(d, seat, args["pyramid"],
                                                               task["via"]))),
    _rule(MoveKind.USE_BONUS, N_("use the bonus"), (Task.BONUS.value,), _parse_bonus,
          _check_bonus, _use_bonus),
    _rule(MoveKind.SKIP_BONUS, N_("skip the bonus"), (Task.BONUS.value,), None, None,
          _choice(lambda d, seat, args, task: None)),
    _rule(MoveKind.TEMPLE_CHOICE, N_("choose a point or stones"), (Task.TEMPLE_CHOICE.value,),
          lambda move: {"take": choice_arg(REFEREE, move, "take", ("point", "stones"))}, None,
          _temple_choice),
    _rule(MoveKind.DRAW_CARD, N_("draw a market card"), (Task.DRAW.value,),
          lambda move: {"card": _card_arg(move, "card")}, _check_drawn,
          _choice(lambda d, seat, args, task: _draw(d, seat, args["card"]))),
), phase_of=step, awaited=awaiting, over=is_over, phase_labels=WAITING_LABELS, after=_run,
    not_awaited=_not_your_choice)


# validate(state, seat, move) raises RuleViolation if ``seat`` may not make ``move`` now;
# apply(state, seat, move) also returns the new state (``state`` itself is never changed).
validate = REFEREE.validate
apply = REFEREE.apply


# --------------------------------------------------------------------------------------------
# Scoring (§5): the same score_game that score-only mode uses.
# --------------------------------------------------------------------------------------------


def _towers(state: Mapping[str, Any], seat: int) -> tuple[int, ...]:
    if state["options"]["sides"]["obelisks"] == "A":
        return ()
    return tuple(value for owner, value in state["obelisks"]["towers"] if owner == seat)


def _obelisk(state: Mapping[str, Any], seat: int) -> int:
    obelisks = state["obelisks"]
    return obelisks[seat] if isinstance(obelisks, list) else obelisks["waiting"][seat]


def pyramid_stones(state: Mapping[str, Any]) -> list[int]:
    """Every stone at the Pyramids, beside the board included (E12)."""
    pyramids = state["pyramids"]
    if isinstance(pyramids, list):
        return list(pyramids)
    return [seat for pile in pyramids["pyramids"] for seat in pile] + pyramids["beside"]


def _delivered_to(state: Mapping[str, Any], seat: int) -> frozenset[str]:
    reached = state["delivered"][seat]
    if state["options"]["red_card_counts_for_wrath"]:
        return frozenset(reached)
    return frozenset(site for site, via in reached.items() if via == "ship")


def tally(state: Mapping[str, Any]) -> GameTally:
    """The GameTally of the table as it stands (final once the game is over)."""
    colours = state["colours"]
    players = tuple(PlayerTally(
        name=name, colour=colours[seat], track=state["score"][seat],
        obelisk=_obelisk(state, seat),
        cards={kind: state["cards"][seat][kind] for kind in t.KEPT_CARDS},
        sled=state["sled"][seat], delivered_to=_delivered_to(state, seat),
        obelisk_towers=_towers(state, seat)) for seat, name in enumerate(state["names"]))
    site_stones = {
        "pyramids": len(pyramid_stones(state)),
        "temple": len(state["temple"]),
        "burial_chamber": len(state["burial_chamber"]),
        "obelisks": sum(p.obelisk + t.OBELISK_B_TOWER_STONES * len(p.obelisk_towers)
                        for p in players),
    }
    options = state["options"]
    return GameTally(players=players,
                     burial_chamber=tuple(colours[seat] for seat in state["burial_chamber"]),
                     site_stones=site_stones, sides=dict(options["sides"]),
                     wrath_of_pharaoh=options["wrath_of_pharaoh"],
                     obelisks_b_score_at_end=options["obelisks_b_score_at_end"],
                     b_values=state["b_values"])


def score(state: Mapping[str, Any]) -> Scoresheet:
    """The final Scoresheet once the game is over; before that, the scoring track so far.
    Either way it names the unverified defaults the table relied on (design.md §2)."""
    assumed = t.score_assumptions(state["unverified"], state["b_values"])
    if not is_over(state):
        return score_track_only(state["names"], state["score"], state["sled"], assumed)
    return score_game(tally(state), assumed)


def final_document(state: Mapping[str, Any]) -> dict[str, Any]:
    """The score-only document (imhotep/final.py) describing this table as it stands; its
    ``edition`` holds the values of the group's copy this table used (not the defaults)."""
    game = tally(state)
    options = state["options"]
    b_side_obelisks = options["sides"]["obelisks"] == "B"
    players = []
    for player in game.players:
        entry: dict[str, Any] = {
            "name": player.name, "color": player.colour, "track": player.track,
            "obelisk": player.obelisk, "cards": dict(player.cards), "sled": player.sled,
            "delivered_to": [site for site in t.MONUMENTS if site in player.delivered_to]}
        if b_side_obelisks:
            entry["obelisk_towers"] = list(player.obelisk_towers)
        players.append(entry)
    document: dict[str, Any] = {
        "game": "imhotep",
        "options": {"sides": dict(options["sides"]),
                    "wrath_of_pharaoh": options["wrath_of_pharaoh"],
                    "obelisks_b_score_at_end": options["obelisks_b_score_at_end"],
                    "red_card_counts_for_wrath": options["red_card_counts_for_wrath"]},
        "players": players,
        "burial_chamber": list(game.burial_chamber),
        "site_stones": {"pyramids": game.site_stones["pyramids"],
                        "temple": game.site_stones["temple"]}}
    in_use = t.unverified_in_use(options["sides"], len(state["names"]))
    defaults = t.default_b_values()
    entered = {key: value for key, value in state["b_values"].items()
               if value != defaults[key] or (key in in_use and key not in state["unverified"])}
    if entered:
        document["edition"] = entered
    return document
