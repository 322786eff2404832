"""Imhotep live-play referee: setup, move validation and application, prompts, legal moves.

Implements spec shared/rules/imhotep.md:

* §3 setup (colours, start player, sleds 2/3/4/5, quarries), §6.3 any mix of sides, §6.5
  options;
* §4.1 round flow: the round card (move ``round_card``, §2.3), the market reveal (move
  ``reveal_market``; the discards are shuffled when the pile runs out, E4), turns, round end
  when the fourth ship has sailed and been unloaded, Temple scoring, next start player left of
  whoever sailed the fourth ship;
* §4.2 GET_STONES (``take_stones``), §4.3 PLACE_STONE (``place_stone``), §4.4 SAIL_SHIP
  (``sail_ship``), §4.5 PLAY_BLUE_CARD (``play_card``: Lever, Hammer, Sail, Chisel) and PASS
  (``pass``, option ``allow_pass_when_stuck``, E3);
* §4.6 delivery per site, A sides, and §6.1 B sides, stone by stone in unloading order. A
  choice belongs to the stone's owner and is a prompt to that seat: the market card
  (``pick_card``, ``pick_pair`` for Market B, ``skip_card`` when the pick is optional), the
  Lever's unloading order (``unload_order``), the pyramid on side B (``choose_pyramid``) and
  its bonus (``use_bonus``/``skip_bonus``), Temple B's choice (``temple_choice``) and the
  identity of a card drawn from the pile (``draw_card``);
* §5 scoring through :func:`.scoring.score_game`, the function score-only mode uses;
* §8 edge cases E1-E21 (each named where the code implements it).

The module is pure (design.md §1): no I/O, no clock, no randomness. Physical randomness is
input: ``round_card`` names the ships on the card that came up, ``reveal_market`` and
``draw_card`` name the cards, and the engine checks they are still possible.

The state is a plain JSON dict, so ``json.loads(json.dumps(state))`` equals it and a table is
fully described by ``setup`` arguments plus the move log. ``apply`` never mutates its input:
it copies the top-level dict and only the parts a move changes (see :class:`_Work`).

State layout (per-seat values are lists indexed by seat; stones are recorded by seat)::

    names, colours     list[str]
    options            {sides: {site: "A"|"B"}, wrath_of_pharaoh, allow_pass_when_stuck,
                        market_pick_mandatory, hammer_partial_allowed,
                        chisel_requires_two_stones, obelisks_b_score_at_end,
                        red_card_counts_for_wrath}
    b_values           the unverified board data in force (tables.UNVERIFIED_DEFAULTS + host)
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
    queue              pending steps of the current action (deliveries, bonuses, …); the
                       first one awaiting input is what ``to_act``/``prompts`` describe
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Iterator, Mapping, Sequence

from ..base import N_, RuleViolation, Scoresheet, Term
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
    """Steps queued by an action (state["queue"]); the first three kinds may wait for input."""

    DELIVER = "deliver"        # one stone arrives at a site (Market, Pyramids B: a choice)
    BONUS = "bonus"            # Pyramids B bonus space (optional)
    ORDER = "order"            # the Lever's unloading order
    TEMPLE_CHOICE = "temple_choice"   # Temple B CHOICE: 1 point or 2 stones
    DRAW = "draw"              # Temple B CARD: the card drawn
    RED = "red"                # a red card resolves (automatic)
    END_ACTION = "end_action"  # the action is over: next player or round end
    TEMPLE_END = "temple_end"  # the Temple scores (round end)
    NEXT_ROUND = "next_round"  # clean-up and the next round or the end


TURN_MOVES = frozenset({MoveKind.TAKE_STONES, MoveKind.PLACE_STONE, MoveKind.SAIL_SHIP,
                        MoveKind.PLAY_CARD, MoveKind.PASS})
CHOICE_MOVES = frozenset({MoveKind.PICK_CARD, MoveKind.PICK_PAIR, MoveKind.SKIP_CARD,
                          MoveKind.UNLOAD_ORDER, MoveKind.CHOOSE_PYRAMID, MoveKind.USE_BONUS,
                          MoveKind.SKIP_BONUS, MoveKind.TEMPLE_CHOICE, MoveKind.DRAW_CARD})
_MOVE_KINDS: Mapping[str, MoveKind] = {kind.value: kind for kind in MoveKind}

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

MOVE_LABELS: Mapping[str, Term] = {
    MoveKind.ROUND_CARD.value: Term(N_("turn up the round card")),
    MoveKind.REVEAL_MARKET.value: Term(N_("reveal the market cards")),
    MoveKind.TAKE_STONES.value: Term(N_("take stones")),
    MoveKind.PLACE_STONE.value: Term(N_("place a stone")),
    MoveKind.SAIL_SHIP.value: Term(N_("sail a ship")),
    MoveKind.PLAY_CARD.value: Term(N_("play a blue card")),
    MoveKind.PASS.value: Term(N_("pass")),
    MoveKind.PICK_CARD.value: Term(N_("take a market card")),
    MoveKind.PICK_PAIR.value: Term(N_("take the face-down pair")),
    MoveKind.SKIP_CARD.value: Term(N_("take no market card")),
    MoveKind.UNLOAD_ORDER.value: Term(N_("choose the unloading order")),
    MoveKind.CHOOSE_PYRAMID.value: Term(N_("choose a pyramid")),
    MoveKind.USE_BONUS.value: Term(N_("use the bonus")),
    MoveKind.SKIP_BONUS.value: Term(N_("skip the bonus")),
    MoveKind.TEMPLE_CHOICE.value: Term(N_("choose a point or stones")),
    MoveKind.DRAW_CARD.value: Term(N_("draw a market card")),
}
WAITING_LABELS: Mapping[str, Term] = {
    Phase.ROUND_CARD.value: Term(N_("the round card")),
    Phase.MARKET.value: Term(N_("the market cards")),
    Phase.TURN.value: Term(N_("a turn: take stones, place a stone, sail a ship or play a "
                              "blue card")),
    Phase.CHOICE.value: Term(N_("a choice for a delivered stone")),
}


def tile_label(kind: str) -> Term:
    """The translatable name of a card kind, a colour or a site."""
    return (t.CARD_LABELS.get(kind) or t.COLOUR_LABELS.get(kind) or t.SITE_LABELS.get(kind)
            or Term(kind))


ALL_KINDS: tuple[str, ...] = t.CARD_KINDS + t.COLOURS + t.SITES


# --------------------------------------------------------------------------------------------
# Setup (§3)
# --------------------------------------------------------------------------------------------


def normalise_options(options: Mapping[str, Any] | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """The rule options (sides from the ``b_<site>`` flags) and the board values in force."""
    clean: dict[str, Any] = dict(RULE_OPTIONS)
    sides = {site: "A" for site in t.SITES}
    options = options or {}
    for key, value in options.items():
        if key in RULE_OPTIONS or key in SIDE_OPTIONS or key in DISPLAY_OPTIONS:
            if not isinstance(value, bool):
                raise RuleViolation("imhotep.bad_option",
                                    N_("The option “%(option)s” must be true or false."),
                                    f"options.{key}", option=key)
            if key in RULE_OPTIONS:
                clean[key] = value
            elif key in SIDE_OPTIONS:
                sides[SIDE_OPTIONS[key]] = "B" if value else "A"
    b_values, problems = t.resolve_b_values(options.get("b_values"))
    if problems:
        raise problems[0]
    clean["sides"] = sides
    return clean, b_values


def setup(options: Mapping[str, Any] | None, names: Sequence[str],
          table: Mapping[str, Any] | None) -> dict[str, Any]:
    """A fresh game (§3). ``table`` gives each seat's colour and the start player:
    ``{"colors": ["black", "white"], "start_player": 0}``."""
    opts, b_values = normalise_options(options)
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
    if not _is_int(start) or not 0 <= start < count:
        raise RuleViolation("imhotep.bad_start_player",
                            N_("The start player must be one of the %(count)d seats."),
                            "start_player", count=count)
    sled = [0] * count
    for step in range(count):                       # §3 step 6: 2, 3, 4, 5 going left
        sled[(start + step) % count] = t.STARTING_SLED[step]
    sides = opts["sides"]
    overridden = set((options or {}).get("b_values") or {})
    return {
        "names": [str(name) for name in names],
        "colours": list(colours),
        "options": opts,
        "b_values": b_values,
        "unverified": [key for key in t.unverified_in_use(sides, count)
                       if key not in overridden],
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
    }


# --------------------------------------------------------------------------------------------
# Queries
# --------------------------------------------------------------------------------------------


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def is_over(state: Mapping[str, Any]) -> bool:
    """True once round 6 has ended (its Temple scoring included)."""
    return state["phase"] == Phase.OVER


def to_act(state: Mapping[str, Any]) -> int | None:
    """The seat whose input is awaited, or None when the game is over. Round cards and
    market cards are entered by the round's start player."""
    phase = state["phase"]
    if phase == Phase.TURN:
        return state["current"]
    if phase == Phase.CHOICE:
        return state["queue"][0]["seat"]
    if phase == Phase.OVER:
        return None
    return state["start_player"]


def pile_count(state: Mapping[str, Any]) -> int:
    """Cards in the face-down draw pile."""
    return sum(state["deck"].values()) - state["pair"] - state["discard_unknown"]


def _can_draw(state: Mapping[str, Any]) -> bool:
    """A card can be drawn: from the pile, or from the discards shuffled into a new one (E4)."""
    return (pile_count(state) > 0 or state["discard_unknown"] > 0
            or any(state["discard"].values()))


def _drawable(state: Mapping[str, Any]) -> dict[str, int]:
    """The card kinds the next card drawn may be (E4: the discards are shuffled in first
    when the pile is empty; cards nobody saw make this a superset, E5)."""
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
    usable = []
    for card in t.BLUE_CARDS:
        if not held[card]:
            continue
        if card == "lever":
            ok = bool(_sailable(state))
        elif card == "hammer":
            ok = _hammer_playable(state, seat)
        elif card == "sail":
            ok = bool(_sail_card_ships(state, seat))
        else:
            ok = _chisel_needs(state, seat) > 0
        if ok:
            usable.append(card)
    return usable


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
    return [i for i, pile in enumerate(state["pyramids"]["pyramids"]) if len(pile) < len(spaces[i])]


def _bonus_possible(state: Mapping[str, Any], seat: int, bonus: str) -> bool:
    if bonus == "card":
        return _can_draw(state)
    if bonus == "stones":
        return _takeable(state, seat, t.PYRAMID_B_BONUS_STONES) > 0
    return state["sled"][seat] > 0 and bool(_free_slots(state))


def _market_choices(state: Mapping[str, Any]) -> bool:
    return bool(state["display"]) or state["pair"] > 0


def _ship_view(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    sailable = set(_sailable(state))
    return [{"ship": i, "capacity": ship["capacity"], "minimum": ship["minimum"],
             "free": [j for j, owner in enumerate(ship["slots"]) if owner is None]
             if ship["site"] is None else [],
             "sailed": ship["site"] is not None, "can_sail": i in sailable}
            for i, ship in enumerate(state["ships"])]


def _unused_round_cards(state: Mapping[str, Any]) -> tuple[list[list[int]], list[list[int]]]:
    """(unused verified cards, unused unverified cards) of this player count's set (§2.3)."""
    count = len(state["names"])
    verified = [list(card) for card in t.ROUND_CARDS[count]]
    unverified = ([list(card) for card in state["b_values"]["round_cards_3p"]]
                  if count == 3 else [])
    used = [list(card) for card in state["round_cards"]]
    left: tuple[list[list[int]], list[list[int]]] = ([], [])
    for group, cards in enumerate((verified, unverified)):
        for card in cards:
            if card in used:
                used.remove(card)
            else:
                left[group].append(card)
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


def prompts(state: Mapping[str, Any], seat: int) -> dict[str, Any]:
    """What ``seat`` may do now: the legal move kinds and the choices to offer."""
    if seat != to_act(state):
        return {"moves": []}
    phase = state["phase"]
    if phase == Phase.ROUND_CARD:
        verified, unverified = _unused_round_cards(state)
        return {"moves": [MoveKind.ROUND_CARD.value], "round": state["round"],
                "cards": _distinct(verified + unverified), "unverified": _distinct(unverified),
                "any_card": len(state["names"]) == 3}
    if phase == Phase.MARKET:
        shown, pair = _reveal_counts(state)
        return {"moves": [MoveKind.REVEAL_MARKET.value], "open": shown, "pair": pair,
                "pile": pile_count(state), "reshuffle": pile_count(state) < shown + pair}
    if phase == Phase.TURN:
        return {"moves": _turn_moves(state, seat), "sled": state["sled"][seat],
                "quarry": state["quarry"][seat], "ships": _ship_view(state),
                "free_sites": _free_sites(state), "cards": playable_cards(state, seat),
                "chisel_stones": _chisel_needs(state, seat)}
    task = state["queue"][0]
    kind = task["kind"]
    if kind == Task.DELIVER and task["site"] == "market":
        moves = ([MoveKind.PICK_CARD.value] if state["display"] else []) + (
            [MoveKind.PICK_PAIR.value] if state["pair"] else []) + (
            [] if state["options"]["market_pick_mandatory"] else [MoveKind.SKIP_CARD.value])
        return {"moves": moves, "cards": list(state["display"]), "pair": state["pair"],
                "pair_cards": sorted(k for k, n in state["deck"].items() if n) if state["pair"]
                else []}
    if kind == Task.DELIVER:
        return {"moves": [MoveKind.CHOOSE_PYRAMID.value], "pyramids": _pyramids_with_room(state)}
    if kind == Task.BONUS:
        extra: dict[str, Any] = {}
        if task["bonus"] == "card":
            extra["cards"] = sorted(_drawable(state))
        elif task["bonus"] == "ship":
            extra["ships"] = _ship_view(state)
        return {"moves": [MoveKind.USE_BONUS.value, MoveKind.SKIP_BONUS.value],
                "bonus": task["bonus"], **extra}
    if kind == Task.ORDER:
        ship = state["ships"][task["ship"]]
        return {"moves": [MoveKind.UNLOAD_ORDER.value], "ship": task["ship"],
                "site": task["site"],
                "slots": [j for j, owner in enumerate(ship["slots"]) if owner is not None]}
    if kind == Task.TEMPLE_CHOICE:
        return {"moves": [MoveKind.TEMPLE_CHOICE.value], "take": ["point", "stones"],
                "stones": _takeable(state, seat, t.TEMPLE_B_CHOICE_STONES)}
    return {"moves": [MoveKind.DRAW_CARD.value], "cards": sorted(_drawable(state))}


def _distinct(cards: list[list[int]]) -> list[list[int]]:
    out: list[list[int]] = []
    for card in cards:
        if card not in out:
            out.append(card)
    return out


def _multisets(available: Sequence[tuple[str, int]], size: int,
               cap: int) -> Iterator[list[str]]:
    """Distinct multisets of ``size`` items from kinds with the given availability."""
    produced = 0

    def walk(index: int, chosen: list[str]) -> Iterator[list[str]]:
        nonlocal produced
        if produced >= cap:
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


def legal_moves(state: Mapping[str, Any], seat: int) -> list[dict[str, Any]]:
    """Every concrete legal move for ``seat`` (empty when it is not this seat's input).

    ``reveal_market`` has too many possibilities to list (any cards the pile can hold), so at
    most MAX_REVEAL_MOVES distinct ones are given; every other kind is listed in full.
    """
    if seat != to_act(state):
        return []
    phase = state["phase"]
    if phase == Phase.ROUND_CARD:
        return [{"type": "round_card", "ships": card} for card in prompts(state, seat)["cards"]]
    if phase == Phase.MARKET:
        return _reveal_moves(state)
    if phase == Phase.TURN:
        return _turn_legal_moves(state, seat)
    task = state["queue"][0]
    kind = task["kind"]
    if kind == Task.DELIVER and task["site"] == "market":
        moves = [{"type": "pick_card", "card": card} for card in dict.fromkeys(state["display"])]
        if state["pair"] == 1:
            moves += [{"type": "pick_pair", "keep": card} for card in sorted(state["deck"])
                      if state["deck"][card]]
        elif state["pair"]:
            deck = state["deck"]
            moves += [{"type": "pick_pair", "keep": keep, "discard": other}
                      for keep in t.CARD_KINDS if deck[keep]
                      for other in t.CARD_KINDS
                      if deck[other] > (1 if other == keep else 0)]
        if not state["options"]["market_pick_mandatory"]:
            moves.append({"type": "skip_card"})
        return moves
    if kind == Task.DELIVER:
        return [{"type": "choose_pyramid", "pyramid": i} for i in _pyramids_with_room(state)]
    if kind == Task.BONUS:
        if task["bonus"] == "card":
            uses = [{"type": "use_bonus", "card": card} for card in _drawable(state)]
        elif task["bonus"] == "ship":
            uses = [{"type": "use_bonus", "ship": i, "slot": j} for i, j in _free_slots(state)]
        else:
            uses = [{"type": "use_bonus"}]
        return uses + [{"type": "skip_bonus"}]
    if kind == Task.ORDER:
        ship = state["ships"][task["ship"]]
        occupied = [j for j, owner in enumerate(ship["slots"]) if owner is not None]
        return [{"type": "unload_order", "order": order} for order in _permutations(occupied)]
    if kind == Task.TEMPLE_CHOICE:
        return [{"type": "temple_choice", "take": "point"},
                {"type": "temple_choice", "take": "stones"}]
    return [{"type": "draw_card", "card": card} for card in _drawable(state)]


def _permutations(items: list[int]) -> list[list[int]]:
    if len(items) <= 1:
        return [list(items)]
    return [[first] + rest for i, first in enumerate(items)
            for rest in _permutations(items[:i] + items[i + 1:])]


def _reveal_moves(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    shown, _ = _reveal_counts(state)
    deck, discard = state["deck"], state["discard"]
    pile = pile_count(state)
    if pile >= shown:
        choices = _multisets([(k, n) for k, n in deck.items() if n], shown, MAX_REVEAL_MOVES)
        return [{"type": "reveal_market", "cards": cards} for cards in choices]
    if state["discard_unknown"] == 0:
        # the whole pile comes up first, then cards of the shuffled discards
        first = [k for k, n in deck.items() for _ in range(n)]
        rest = _multisets([(k, n) for k, n in discard.items() if n], shown - len(first),
                          MAX_REVEAL_MOVES)
        return [{"type": "reveal_market", "cards": first + cards} for cards in rest]
    merged = [(k, deck[k] + discard[k]) for k in t.CARD_KINDS if deck[k] + discard[k]]
    return [{"type": "reveal_market", "cards": cards}
            for cards in _multisets(merged, shown, MAX_REVEAL_MOVES)]


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
        else:
            need = _chisel_needs(state, seat)
            if need == 1:
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
# Validation
# --------------------------------------------------------------------------------------------


def _bad_move(argument: str) -> RuleViolation:
    return RuleViolation("imhotep.bad_move",
                         N_("This move is not well formed: “%(argument)s” is missing or wrong."),
                         argument=argument)


def _int_arg(move: Mapping[str, Any], key: str) -> int:
    value = move.get(key)
    if not _is_int(value):
        raise _bad_move(key)
    return value


def _card_arg(move: Mapping[str, Any], key: str) -> str:
    value = move.get(key)
    if not isinstance(value, str) or value not in t.DECK:
        raise _bad_move(key)
    return value


def _site_arg(move: Mapping[str, Any]) -> str:
    site = move.get("site")
    if not isinstance(site, str):
        raise _bad_move("site")
    if site not in t.SITES:
        raise RuleViolation("imhotep.unknown_site",
                            N_("“%(site)s” is not a site: market, pyramids, temple, "
                               "burial_chamber or obelisks."), site=site[:30])
    return site


def _place_arg(value: Any) -> tuple[int, int]:
    if not isinstance(value, Mapping):
        raise _bad_move("places")
    return _int_arg(value, "ship"), _int_arg(value, "slot")


def _parse(move: Any) -> tuple[MoveKind, dict[str, Any]]:
    """The move's kind and arguments, checked for shape only."""
    if not isinstance(move, Mapping) or not isinstance(move.get("type"), str):
        raise _bad_move("type")
    kind = _MOVE_KINDS.get(move["type"])
    if kind is None:
        raise RuleViolation("imhotep.unknown_move", N_("“%(type)s” is not a move in Imhotep."),
                            type=move["type"][:40])
    args: dict[str, Any] = {}
    if kind is MoveKind.ROUND_CARD:
        ships = move.get("ships")
        if not isinstance(ships, list) or not all(_is_int(c) for c in ships):
            raise _bad_move("ships")
        args["ships"] = ships
    elif kind is MoveKind.REVEAL_MARKET:
        cards = move.get("cards")
        if not isinstance(cards, list) or not all(isinstance(c, str) and c in t.DECK
                                                  for c in cards):
            raise _bad_move("cards")
        args["cards"] = cards
    elif kind is MoveKind.PLACE_STONE:
        args["ship"], args["slot"] = _int_arg(move, "ship"), _int_arg(move, "slot")
    elif kind is MoveKind.SAIL_SHIP:
        args["ship"], args["site"] = _int_arg(move, "ship"), _site_arg(move)
    elif kind is MoveKind.PLAY_CARD:
        card = args["card"] = _card_arg(move, "card")
        if card in ("lever", "sail"):
            args["ship"], args["site"] = _int_arg(move, "ship"), _site_arg(move)
        if card == "sail":
            args["slot"] = _int_arg(move, "slot")
        elif card == "hammer":
            if "ship" in move or "slot" in move:
                args["ship"], args["slot"] = _int_arg(move, "ship"), _int_arg(move, "slot")
        elif card == "chisel":
            places = move.get("places")
            if not isinstance(places, list) or not 1 <= len(places) <= 2:
                raise _bad_move("places")
            args["places"] = [_place_arg(place) for place in places]
    elif kind in (MoveKind.PICK_CARD, MoveKind.DRAW_CARD):
        args["card"] = _card_arg(move, "card")
    elif kind is MoveKind.PICK_PAIR:
        args["keep"] = _card_arg(move, "keep")
        args["discard"] = _card_arg(move, "discard") if "discard" in move else None
    elif kind is MoveKind.UNLOAD_ORDER:
        order = move.get("order")
        if not isinstance(order, list) or not all(_is_int(j) for j in order):
            raise _bad_move("order")
        args["order"] = order
    elif kind is MoveKind.CHOOSE_PYRAMID:
        args["pyramid"] = _int_arg(move, "pyramid")
    elif kind is MoveKind.USE_BONUS:
        if "card" in move:
            args["card"] = _card_arg(move, "card")
        if "ship" in move or "slot" in move:
            args["ship"], args["slot"] = _int_arg(move, "ship"), _int_arg(move, "slot")
    elif kind is MoveKind.TEMPLE_CHOICE:
        take = move.get("take")
        if take not in ("point", "stones"):
            raise _bad_move("take")
        args["take"] = take
    return kind, args


def _expected_moves(state: Mapping[str, Any]) -> frozenset[MoveKind]:
    phase = state["phase"]
    if phase == Phase.ROUND_CARD:
        return frozenset({MoveKind.ROUND_CARD})
    if phase == Phase.MARKET:
        return frozenset({MoveKind.REVEAL_MARKET})
    if phase == Phase.TURN:
        return TURN_MOVES
    task = state["queue"][0]
    kind = task["kind"]
    if kind == Task.DELIVER:
        if task["site"] == "market":
            return frozenset({MoveKind.PICK_CARD, MoveKind.PICK_PAIR, MoveKind.SKIP_CARD})
        return frozenset({MoveKind.CHOOSE_PYRAMID})
    return {Task.BONUS: frozenset({MoveKind.USE_BONUS, MoveKind.SKIP_BONUS}),
            Task.ORDER: frozenset({MoveKind.UNLOAD_ORDER}),
            Task.TEMPLE_CHOICE: frozenset({MoveKind.TEMPLE_CHOICE}),
            Task.DRAW: frozenset({MoveKind.DRAW_CARD})}[kind]


def _check(state: Mapping[str, Any], seat: int, move: Any) -> tuple[MoveKind, dict[str, Any]]:
    """Validate ``move`` by ``seat``; return its kind and arguments or raise RuleViolation."""
    if state["phase"] == Phase.OVER:
        raise RuleViolation("imhotep.game_over",
                            N_("The game is over; no more moves can be made."))
    kind, args = _parse(move)
    actor = to_act(state)
    phase = state["phase"]
    if seat != actor:
        if phase == Phase.CHOICE:
            raise RuleViolation("imhotep.not_your_choice",
                                N_("%(player)s chooses now, not you."),
                                player=state["names"][actor])
        raise RuleViolation("imhotep.not_your_turn",
                            N_("It is not your turn: %(player)s is to act."),
                            player=state["names"][actor])
    if kind not in _expected_moves(state):
        raise RuleViolation("imhotep.wrong_phase",
                            N_("You cannot %(move)s now: the game is waiting for %(waiting)s."),
                            move=MOVE_LABELS[kind], waiting=WAITING_LABELS[phase])
    if phase == Phase.ROUND_CARD:
        _round_card_status(state, args["ships"])
    elif phase == Phase.MARKET:
        _check_reveal(state, args["cards"])
    elif phase == Phase.TURN:
        _check_turn(state, seat, kind, args)
    else:
        _check_choice(state, seat, kind, args)
    return kind, args


def _round_card_status(state: Mapping[str, Any], ships: list[int]) -> str | None:
    """None for an unused verified card; a warning code for 3 players (E21); raises for a
    card the rules refuse (§2.3)."""
    if not t.fits_tokens(ships):
        raise RuleViolation("imhotep.bad_round_card",
                            N_("A round card shows 4 ships of 1 to 4 spaces that the tokens "
                               "allow (at most two 4s, three 3s, two 2s and one 1)."))
    card = sorted(ships, reverse=True)
    verified, unverified = _unused_round_cards(state)
    if card in verified:
        return None
    if len(state["names"]) == 3:
        return ("imhotep.unverified_round_card" if card in unverified
                else "imhotep.round_card_not_listed")
    if card in [list(c) for c in t.ROUND_CARDS[len(state["names"])]]:
        raise RuleViolation("imhotep.card_used",
                            N_("The round card %(card)s has already been used in this game."),
                            card="-".join(map(str, card)))
    raise RuleViolation("imhotep.card_not_in_set",
                        N_("No round card for %(players)d players shows %(card)s."),
                        players=len(state["names"]), card="-".join(map(str, card)))


def _count(cards: Sequence[str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for card in cards:
        counts[card] = counts.get(card, 0) + 1
    return counts


def _not_in_deck(card: str) -> RuleViolation:
    return RuleViolation("imhotep.card_not_in_deck",
                         N_("No %(card)s card can be drawn: none is left in the draw pile."),
                         card=t.CARD_LABELS[card])


def _check_reveal(state: Mapping[str, Any], cards: list[str]) -> None:
    """§4.1 and E4: the right number of cards, each one the pile (or, once it runs out, the
    shuffled discards) can still hold."""
    shown, _ = _reveal_counts(state)
    if len(cards) != shown:
        raise RuleViolation("imhotep.reveal_count",
                            N_("Reveal %(count)d market cards, not %(given)d."),
                            count=shown, given=len(cards))
    wanted = _count(cards)
    deck, discard = state["deck"], state["discard"]
    pile = pile_count(state)
    if pile >= shown or state["discard_unknown"]:
        pool = dict(deck) if pile >= shown else {k: deck[k] + discard[k] for k in t.CARD_KINDS}
        for card in cards:
            if wanted[card] > pool.get(card, 0):
                raise _not_in_deck(card)
        return
    for card, n in deck.items():            # the rest of the pile comes up first
        if n > wanted.get(card, 0):
            raise RuleViolation("imhotep.pile_card_missing",
                                N_("The draw pile still holds %(card)s; it is revealed before "
                                   "the discards are shuffled."), card=t.CARD_LABELS[card])
    for card in cards:
        if wanted[card] > deck[card] + discard[card]:
            raise _not_in_deck(card)


def _check_ship(state: Mapping[str, Any], ship: int) -> Mapping[str, Any]:
    ships = state["ships"]
    if not 0 <= ship < len(ships):
        raise RuleViolation("imhotep.unknown_ship",
                            N_("There is no ship %(ship)d this round."), ship=ship + 1)
    if ships[ship]["site"] is not None:
        raise RuleViolation("imhotep.ship_sailed",
                            N_("Ship %(ship)d has already sailed this round."), ship=ship + 1)
    return ships[ship]


def _check_slot(state: Mapping[str, Any], ship: int, slot: int) -> None:
    """§4.3 preconditions of a placement apart from the sled."""
    boat = _check_ship(state, ship)
    if not 0 <= slot < boat["capacity"]:
        raise RuleViolation("imhotep.slot_out_of_range",
                            N_("Ship %(ship)d has spaces 1 to %(capacity)d."),
                            ship=ship + 1, capacity=boat["capacity"])
    if boat["slots"][slot] is not None:
        raise RuleViolation("imhotep.slot_occupied",
                            N_("Space %(slot)d of ship %(ship)d is taken."),
                            ship=ship + 1, slot=slot + 1)


def _need_sled(state: Mapping[str, Any], seat: int) -> None:
    if not state["sled"][seat]:
        raise RuleViolation("imhotep.sled_empty", N_("Your sled has no stones to place."))


def _check_sail(state: Mapping[str, Any], ship: int, site: str, extra: int = 0) -> None:
    """§4.4 conditions; ``extra`` stones are placed first (the Sail card)."""
    boat = _check_ship(state, ship)
    if _load(boat) + extra < boat["minimum"]:
        raise RuleViolation("imhotep.under_minimum",
                            N_("Ship %(ship)d needs at least %(minimum)d stones to sail; it "
                               "carries %(load)d."), ship=ship + 1, minimum=boat["minimum"],
                            load=_load(boat) + extra)
    if site not in _free_sites(state):
        raise RuleViolation("imhotep.site_taken",
                            N_("A ship has already docked at the %(site)s this round."),
                            site=t.SITE_LABELS[site])


def _check_turn(state: Mapping[str, Any], seat: int, kind: MoveKind,
                args: Mapping[str, Any]) -> None:
    """§4.2-§4.5 preconditions."""
    if kind is MoveKind.TAKE_STONES:
        if state["sled"][seat] >= t.SLED_CAPACITY:
            raise RuleViolation("imhotep.sled_full",
                                N_("Your sled already holds %(capacity)d stones."),
                                capacity=t.SLED_CAPACITY)
        if not state["quarry"][seat]:
            raise RuleViolation("imhotep.quarry_empty",
                                N_("None of your stones is left in the quarry."))
    elif kind is MoveKind.PLACE_STONE:
        _need_sled(state, seat)
        _check_slot(state, args["ship"], args["slot"])
    elif kind is MoveKind.SAIL_SHIP:
        _check_sail(state, args["ship"], args["site"])
    elif kind is MoveKind.PASS:
        if not state["options"]["allow_pass_when_stuck"] or _turn_moves(state, seat) != [
                MoveKind.PASS.value]:
            raise RuleViolation("imhotep.pass_not_allowed",
                                N_("You can pass only when no action is possible."))
    else:
        _check_card(state, seat, args)


def _check_card(state: Mapping[str, Any], seat: int, args: Mapping[str, Any]) -> None:
    """§4.5 PLAY_BLUE_CARD."""
    card = args["card"]
    if card not in t.BLUE_CARDS:
        raise RuleViolation("imhotep.card_not_blue",
                            N_("Only blue cards are played as an action; %(card)s is not one."),
                            card=t.CARD_LABELS[card])
    if not state["cards"][seat][card]:
        raise RuleViolation("imhotep.card_not_held",
                            N_("You hold no %(card)s card."), card=t.CARD_LABELS[card])
    # IM_CARD_GAINED_THIS_TURN cannot arise: a turn is one action, so a card gained during
    # it (by a delivery, E19) is always held until a later turn.
    if card == "lever":
        _check_sail(state, args["ship"], args["site"])
    elif card == "sail":
        _need_sled(state, seat)
        _check_slot(state, args["ship"], args["slot"])
        _check_sail(state, args["ship"], args["site"], extra=1)
    elif card == "hammer":
        take, place = _hammer_parts(state, seat)
        partial = state["options"]["hammer_partial_allowed"]
        if (take == 0 and not place) or (not partial and not (take and place)):
            raise RuleViolation("imhotep.card_no_effect",
                                N_("The Hammer would have no effect now."))
        if "ship" in args:
            if state["sled"][seat] + take == 0:
                _need_sled(state, seat)
            _check_slot(state, args["ship"], args["slot"])
        elif place:
            raise RuleViolation("imhotep.must_place",
                                N_("The Hammer must place a stone on a ship: choose the ship "
                                   "and the space."))
    else:
        places = args["places"]
        two = state["options"]["chisel_requires_two_stones"]
        if two and state["sled"][seat] < 2:
            raise RuleViolation("imhotep.sled_needs_two",
                                N_("The Chisel places two stones; your sled holds %(sled)d."),
                                sled=state["sled"][seat])
        _need_sled(state, seat)
        need = _chisel_needs(state, seat)
        if need == 0:
            raise RuleViolation("imhotep.no_room",
                                N_("The ships have room for only %(free)d stones."),
                                free=len(_free_slots(state)))
        if len(places) != need:
            raise RuleViolation("imhotep.chisel_count",
                                N_("The Chisel places %(count)d stones here."), count=need)
        if len(places) == 2 and places[0] == places[1]:
            raise RuleViolation("imhotep.same_slot",
                                N_("The two stones need two different spaces."))
        for ship, slot in places:
            _check_slot(state, ship, slot)


def _check_drawn(state: Mapping[str, Any], card: str) -> None:
    if card not in _drawable(state):
        raise _not_in_deck(card)


def _check_choice(state: Mapping[str, Any], seat: int, kind: MoveKind,
                  args: Mapping[str, Any]) -> None:
    """Preconditions of the choices a delivery or a round end asks for."""
    task = state["queue"][0]
    if kind is MoveKind.PICK_CARD:
        if args["card"] not in state["display"]:
            raise RuleViolation("imhotep.card_not_on_board",
                                N_("No %(card)s card lies open on the Market."),
                                card=t.CARD_LABELS[args["card"]])
    elif kind is MoveKind.PICK_PAIR:
        pair = state["pair"]
        if not pair:
            raise RuleViolation("imhotep.no_pair",
                                N_("There is no face-down pair on the Market."))
        if (args["discard"] is None) != (pair == 1):
            raise _bad_move("discard")
        wanted = _count([args["keep"]] + ([args["discard"]] if args["discard"] else []))
        for card, n in wanted.items():
            if state["deck"][card] < n:
                raise _not_in_deck(card)
    elif kind is MoveKind.SKIP_CARD:
        if state["options"]["market_pick_mandatory"]:
            raise RuleViolation("imhotep.must_pick",
                                N_("A stone delivered to the Market takes a card."))
    elif kind is MoveKind.CHOOSE_PYRAMID:
        spaces = state["b_values"]["pyramids_b"]
        pyramid = args["pyramid"]
        if not 0 <= pyramid < len(spaces):
            raise RuleViolation("imhotep.unknown_pyramid",
                                N_("There are pyramids 1 to %(count)d."), count=len(spaces))
        if pyramid not in _pyramids_with_room(state):
            raise RuleViolation("imhotep.pyramid_full",
                                N_("Pyramid %(pyramid)d is full; choose one with room."),
                                pyramid=pyramid + 1)
    elif kind is MoveKind.USE_BONUS:
        bonus = task["bonus"]
        if bonus == "card":
            if "card" not in args:
                raise _bad_move("card")
            _check_drawn(state, args["card"])
        elif bonus == "ship":
            if "ship" not in args:
                raise _bad_move("ship")
            _check_slot(state, args["ship"], args["slot"])
    elif kind is MoveKind.UNLOAD_ORDER:
        ship = state["ships"][task["ship"]]
        occupied = [j for j, owner in enumerate(ship["slots"]) if owner is not None]
        if sorted(args["order"]) != occupied:
            raise RuleViolation("imhotep.bad_order",
                                N_("Give every occupied space of the ship once: %(slots)s."),
                                slots=", ".join(str(j + 1) for j in occupied))
    elif kind is MoveKind.DRAW_CARD:
        _check_drawn(state, args["card"])


def validate(state: Mapping[str, Any], seat: int, move: Any) -> None:
    """Raise RuleViolation if ``seat`` may not make ``move`` now; return None otherwise."""
    _check(state, seat, move)


# --------------------------------------------------------------------------------------------
# Application
# --------------------------------------------------------------------------------------------


class _Work:
    """A new state under construction: a shallow copy whose nested containers are copied the
    first time a move changes them (everything still shared with the old state is left
    untouched)."""

    __slots__ = ("s", "owned")

    def __init__(self, state: Mapping[str, Any]):
        self.s: dict[str, Any] = dict(state)
        self.owned: set[tuple[Any, ...]] = set()

    def own(self, *path: Any) -> Any:
        """The container at ``path``, copied once along the way."""
        node: Any = self.s
        walked: tuple[Any, ...] = ()
        for key in path:
            walked += (key,)
            child = node[key]
            if walked not in self.owned:
                child = child.copy()
                node[key] = child
                self.owned.add(walked)
            node = child
        return node

    def add(self, key: str, seat: int, amount: int) -> None:
        """Add ``amount`` to a per-seat counter (quarry, sled, score)."""
        self.own(key)[seat] += amount


def apply(state: Mapping[str, Any], seat: int, move: Any) -> dict[str, Any]:
    """Validate ``move`` and return the new state; ``state`` itself is never changed."""
    kind, args = _check(state, seat, move)
    w = _Work(state)
    if kind is MoveKind.ROUND_CARD:
        _round_card(w, args["ships"])
    elif kind is MoveKind.REVEAL_MARKET:
        _reveal(w, args["cards"])
    elif kind in TURN_MOVES:
        _turn(w, seat, kind, args)
    else:
        _choice(w, seat, kind, args)
    _run(w)
    return w.s


def _round_card(w: _Work, ships: list[int]) -> None:
    """§4.1 step 1: the card's four ships are put out, empty and unsailed."""
    s = w.s
    warning = _round_card_status(s, ships)
    card = sorted(ships, reverse=True)
    if warning:
        s["warnings"] = s["warnings"] + [{"round": s["round"], "code": warning, "ships": card}]
    s["round_cards"] = s["round_cards"] + [card]
    s["ships"] = [{"capacity": c, "minimum": t.SHIP_MINIMUM[c], "slots": [None] * c,
                   "site": None} for c in card]
    s["phase"] = Phase.MARKET.value


def _reshuffle(w: _Work) -> None:
    """E4: the discards (seen or not) become the new draw pile."""
    s = w.s
    deck = w.own("deck")
    for card, n in s["discard"].items():
        deck[card] += n
    s["discard"] = {kind: 0 for kind in t.CARD_KINDS}
    s["discard_unknown"] = 0


def _reveal(w: _Work, cards: list[str]) -> None:
    """§4.1 step 1 and §6.1 Market B: open cards, then the face-down pair."""
    s = w.s
    shown, pair = _reveal_counts(s)
    if pile_count(s) < shown + pair:
        _reshuffle(w)          # the pile runs out during this reveal (E4)
    deck = w.own("deck")
    for card in cards:
        deck[card] -= 1
    s["display"] = list(cards)
    s["pair"] = pair
    s["phase"] = Phase.TURN.value
    s["current"] = s["start_player"]
    s["passes"] = 0


def _turn(w: _Work, seat: int, kind: MoveKind, args: Mapping[str, Any]) -> None:
    s = w.s
    queue = w.own("queue")
    if kind is MoveKind.PASS:
        s["passes"] += 1
        if s["passes"] >= len(s["names"]):
            _stalled_round(w, seat)
        else:
            queue.append({"kind": Task.END_ACTION.value})
        return
    s["passes"] = 0
    queue.append({"kind": Task.END_ACTION.value})
    if kind is MoveKind.TAKE_STONES:
        _take(w, seat, t.STONES_PER_TAKE)
    elif kind is MoveKind.PLACE_STONE:
        _place(w, seat, args["ship"], args["slot"])
    elif kind is MoveKind.SAIL_SHIP:
        _sail(w, seat, args["ship"], args["site"], lever=False)
    else:
        card = args["card"]
        w.own("cards", seat)[card] -= 1
        w.own("discard")[card] += 1                    # §4.5: after use, to the discards
        if card == "lever":
            _sail(w, seat, args["ship"], args["site"], lever=True)
        elif card == "hammer":
            _take(w, seat, t.STONES_PER_TAKE)
            if "ship" in args:
                _place(w, seat, args["ship"], args["slot"])
        elif card == "sail":
            _place(w, seat, args["ship"], args["slot"])
            _sail(w, seat, args["ship"], args["site"], lever=False)
        else:
            for ship, slot in args["places"]:
                _place(w, seat, ship, slot)


def _stalled_round(w: _Work, seat: int) -> None:
    """E3 (house ruling): everyone passed in turn, so the round ends; stones on unsailed
    ships go back to their owners' quarries; the next start player is left of the last
    player to pass (who is also the last one who acted)."""
    s = w.s
    ships = w.own("ships")
    for i, ship in enumerate(ships):
        if ship["site"] is None and _load(ship):
            for owner in ship["slots"]:
                if owner is not None:
                    w.add("quarry", owner, 1)
            ships[i] = {**ship, "slots": [None] * ship["capacity"]}
    s["next_start"] = (seat + 1) % len(s["names"])
    w.own("queue")[:0] = [{"kind": Task.TEMPLE_END.value}, {"kind": Task.NEXT_ROUND.value}]


def _take(w: _Work, seat: int, most: int) -> None:
    n = _takeable(w.s, seat, most)
    if n:
        w.add("quarry", seat, -n)
        w.add("sled", seat, n)


def _place(w: _Work, seat: int, ship: int, slot: int) -> None:
    w.add("sled", seat, -1)
    w.own("ships", ship, "slots")[slot] = seat


def _sail(w: _Work, seat: int, ship: int, site: str, lever: bool) -> None:
    """§4.4: the ship docks; its stones unload bow to stern (Lever: in the card player's
    order, asked for when the owners differ)."""
    s = w.s
    boat = w.own("ships", ship)
    boat["site"] = site
    s["last_sailor"] = seat
    owners = [owner for owner in boat["slots"] if owner is not None]
    if lever and len(set(owners)) > 1:
        w.own("queue").insert(0, {"kind": Task.ORDER.value, "seat": seat, "ship": ship,
                                  "site": site})
        return
    boat["slots"] = [None] * boat["capacity"]
    _unload(w, site, owners)


def _unload(w: _Work, site: str, owners: list[int]) -> None:
    w.own("queue")[:0] = [{"kind": Task.DELIVER.value, "site": site, "seat": owner,
                           "via": "ship"} for owner in owners]


def _gain(w: _Work, seat: int, card: str) -> None:
    """A card taken or drawn (§4.6): red resolves at once, the others are kept face up."""
    if card in t.RED_CARDS:
        w.own("queue").insert(0, {"kind": Task.RED.value, "seat": seat, "card": card})
    else:
        w.own("cards", seat)[card] += 1


def _draw_named(w: _Work, card: str) -> None:
    """The top card of the pile, named by the table (E4: shuffle first if it is empty)."""
    if pile_count(w.s) == 0:
        _reshuffle(w)
    w.own("deck")[card] -= 1


def _mark(w: _Work, seat: int, site: str, via: str) -> None:
    """Remember that ``seat`` reached a monument, and whether by ship (§6.4, E11)."""
    if site == "market":
        return
    known = w.s["delivered"][seat].get(site)
    if known is None or (known == "card" and via == "ship"):
        w.own("delivered", seat)[site] = via


def _choice(w: _Work, seat: int, kind: MoveKind, args: Mapping[str, Any]) -> None:
    s = w.s
    queue = w.own("queue")
    task = queue.pop(0)
    if kind in (MoveKind.PICK_CARD, MoveKind.PICK_PAIR, MoveKind.SKIP_CARD):
        w.add("quarry", seat, 1)           # E1: the stone goes back before the card acts
        if kind is MoveKind.PICK_CARD:
            display = w.own("display")
            display.remove(args["card"])
            _gain(w, seat, args["card"])
        elif kind is MoveKind.PICK_PAIR:
            deck = w.own("deck")
            deck[args["keep"]] -= 1
            if args["discard"]:
                deck[args["discard"]] -= 1
                w.own("discard")[args["discard"]] += 1     # E6: discarded face up
            s["pair"] = 0
            _gain(w, seat, args["keep"])
    elif kind is MoveKind.CHOOSE_PYRAMID:
        _place_pyramid_b(w, seat, args["pyramid"], task["via"])
    elif kind is MoveKind.USE_BONUS:
        bonus = task["bonus"]
        if bonus == "card":
            _draw_named(w, args["card"])
            _gain(w, seat, args["card"])
        elif bonus == "stones":
            _take(w, seat, t.PYRAMID_B_BONUS_STONES)
        else:
            _place(w, seat, args["ship"], args["slot"])
    elif kind is MoveKind.UNLOAD_ORDER:
        boat = w.own("ships", task["ship"])
        owners = [boat["slots"][j] for j in args["order"]]
        boat["slots"] = [None] * boat["capacity"]
        _unload(w, task["site"], owners)
    elif kind is MoveKind.TEMPLE_CHOICE:
        if args["take"] == "point":
            w.add("score", seat, t.TEMPLE_B_CHOICE_POINTS)
        else:
            _take(w, seat, t.TEMPLE_B_CHOICE_STONES)
    elif kind is MoveKind.DRAW_CARD:
        _draw_named(w, args["card"])
        _gain(w, seat, args["card"])
    # SKIP_BONUS: nothing happens


def _place_pyramid_b(w: _Work, seat: int, pyramid: int, via: str) -> None:
    """§6.1 Pyramids B: the next space of the chosen pyramid; a bonus space pays 1 point and
    offers its bonus."""
    pyramids = w.own("pyramids", "pyramids")
    pile = pyramids[pyramid] = pyramids[pyramid] + [seat]
    space = w.s["b_values"]["pyramids_b"][pyramid][len(pile) - 1]
    _mark(w, seat, "pyramids", via)
    if isinstance(space, str):
        w.add("score", seat, t.PYRAMID_B_BONUS_SPACE_POINTS)
        w.own("queue").insert(0, {"kind": Task.BONUS.value, "seat": seat, "bonus": space})
    else:
        w.add("score", seat, space)


def _deliver(w: _Work, task: Mapping[str, Any]) -> bool:
    """One stone arrives (§4.6, §6.1). True when its owner must choose first."""
    s = w.s
    site, seat, via = task["site"], task["seat"], task["via"]
    sides = s["options"]["sides"]
    if site == "market":
        if _market_choices(s):
            return True
        w.own("queue").pop(0)
        w.add("quarry", seat, 1)           # E4: no card left; the stone still goes back
        return False
    if site == "pyramids" and sides["pyramids"] == "B":
        room = _pyramids_with_room(s)
        if len(room) > 1:
            return True
        w.own("queue").pop(0)
        if room:
            _place_pyramid_b(w, seat, room[0], via)
        else:                              # E14: all full, beside the board
            w.own("pyramids", "beside").append(seat)
            w.add("score", seat, t.PYRAMID_OVERFLOW_POINTS)
            _mark(w, seat, site, via)
        return False
    w.own("queue").pop(0)
    _mark(w, seat, site, via)
    if site == "pyramids":
        stones = w.own("pyramids")
        stones.append(seat)
        w.add("score", seat, pyramid_a_points(len(stones)))
    elif site in ("temple", "burial_chamber"):
        w.own(site).append(seat)
    elif sides["obelisks"] == "A":
        w.own("obelisks")[seat] += 1
    else:
        waiting = w.own("obelisks", "waiting")
        waiting[seat] += 1
        if waiting[seat] >= t.OBELISK_B_TOWER_STONES:
            free = _free_towers(s)
            if free:                        # the free tower space with the highest value
                waiting[seat] -= t.OBELISK_B_TOWER_STONES
                w.own("obelisks", "towers").append([seat, free[0]])
                if not s["options"]["obelisks_b_score_at_end"]:
                    w.add("score", seat, free[0])
    return False


def _free_towers(state: Mapping[str, Any]) -> list[int]:
    """Obelisks B tower values still free, highest first (§6.1; none left: stones wait)."""
    free = sorted(state["b_values"]["obelisks_b"], reverse=True)
    for _, value in state["obelisks"]["towers"]:
        free.remove(value)
    return free


def _run(w: _Work) -> None:
    """Carry out queued steps until one needs a player's input or the queue is empty."""
    s = w.s
    while s["queue"]:
        task = s["queue"][0]
        kind = task["kind"]
        if kind == Task.DELIVER:
            if _deliver(w, task):
                s["phase"] = Phase.CHOICE.value
                return
        elif kind == Task.BONUS:
            if _bonus_possible(s, task["seat"], task["bonus"]):
                s["phase"] = Phase.CHOICE.value
                return
            w.own("queue").pop(0)
        elif kind == Task.ORDER:
            s["phase"] = Phase.CHOICE.value
            return
        elif kind == Task.TEMPLE_CHOICE:
            if _takeable(s, task["seat"], t.TEMPLE_B_CHOICE_STONES):
                s["phase"] = Phase.CHOICE.value
                return
            w.own("queue").pop(0)             # E16: no stone can be taken, so the point
            w.add("score", task["seat"], t.TEMPLE_B_CHOICE_POINTS)
        elif kind == Task.DRAW:
            if _can_draw(s):
                s["phase"] = Phase.CHOICE.value
                return
            w.own("queue").pop(0)             # E4: no card anywhere
        elif kind == Task.RED:
            w.own("queue").pop(0)
            _resolve_red(w, task["seat"], task["card"])
        elif kind == Task.END_ACTION:
            w.own("queue").pop(0)
            _end_action(w)
        elif kind == Task.TEMPLE_END:
            w.own("queue").pop(0)
            _temple_end(w)
        else:
            w.own("queue").pop(0)
            _next_round(w)


def _resolve_red(w: _Work, seat: int, card: str) -> None:
    """§2.6 red cards, E2/IM-T23: one own stone from the quarry to the card's site, placed by
    that site's rules (B sides included); none in the quarry, no effect. Then discarded."""
    w.own("discard")[card] += 1
    if w.s["quarry"][seat]:
        w.add("quarry", seat, -1)
        w.own("queue").insert(0, {"kind": Task.DELIVER.value, "site": t.RED_CARD_SITE[card],
                                  "seat": seat, "via": "card"})


def _end_action(w: _Work) -> None:
    """§4.1: the next player's turn, or the round end once the fourth ship has unloaded."""
    s = w.s
    count = len(s["names"])
    if all(ship["site"] is not None for ship in s["ships"]):
        s["next_start"] = (s["last_sailor"] + 1) % count     # left of the fourth ship's sailor
        w.own("queue")[:0] = [{"kind": Task.TEMPLE_END.value}, {"kind": Task.NEXT_ROUND.value}]
        return
    s["current"] = (s["current"] + 1) % count
    s["phase"] = Phase.TURN.value


def temple_width(state: Mapping[str, Any]) -> int:
    """Positions per Temple level (§2.4; Temple B with 2 players: b_values)."""
    count = len(state["names"])
    if state["options"]["sides"]["temple"] == "B" and count == 2:
        return state["b_values"]["temple_b_width_2p"]
    return t.TEMPLE_A_WIDTH[count]


def _temple_end(w: _Work) -> None:
    """§5.2 Temple A: 1 point per visible stone. §6.1 Temple B: each visible stone's space
    bonus, left to right (E15); TWO scores at once, CHOICE and CARD ask their owner."""
    s = w.s
    width = temple_width(s)
    if s["options"]["sides"]["temple"] == "A":
        for seat, points in temple_round_points(s["temple"], width).items():
            w.add("score", seat, points)
        return
    steps: list[dict[str, Any]] = []
    spaces = s["b_values"]["temple_b"]
    for position, seat in enumerate(temple_visible(s["temple"], width)):
        bonus = spaces[position]
        if bonus == "two":          # needs no input, and points change nothing else
            w.add("score", seat, t.TEMPLE_B_TWO_POINTS)
        elif bonus == "choice":
            steps.append({"kind": Task.TEMPLE_CHOICE.value, "seat": seat})
        else:
            steps.append({"kind": Task.DRAW.value, "seat": seat})
    w.own("queue")[:0] = steps


def _next_round(w: _Work) -> None:
    """§4.1 steps 3-5: ships back, leftover market cards discarded, next round or the end."""
    s = w.s
    if s["display"]:
        discard = w.own("discard")
        for card in s["display"]:
            discard[card] += 1
    s["display"] = []
    if s["pair"]:
        s["discard_unknown"] += s["pair"]      # E5: discarded unseen
        s["pair"] = 0
    s["ships"] = []
    s["passes"] = 0
    if s["round"] == t.ROUNDS:
        s["phase"] = Phase.OVER.value
        return
    s["round"] += 1
    s["start_player"] = s["current"] = s["next_start"]
    s["phase"] = Phase.ROUND_CARD.value


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
    """The final Scoresheet once the game is over; before that, the scoring track so far."""
    if not is_over(state):
        return score_track_only(state["names"], state["score"], state["sled"])
    return score_game(tally(state))


def final_document(state: Mapping[str, Any]) -> dict[str, Any]:
    """The score-only document (imhotep/final.py) describing this table as it stands."""
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
    doc_options: dict[str, Any] = {
        "sides": dict(options["sides"]), "wrath_of_pharaoh": options["wrath_of_pharaoh"],
        "obelisks_b_score_at_end": options["obelisks_b_score_at_end"],
        "red_card_counts_for_wrath": options["red_card_counts_for_wrath"]}
    if state["b_values"] != t.default_b_values():
        doc_options["b_values"] = state["b_values"]
    return {"game": "imhotep", "options": doc_options, "players": players,
            "burial_chamber": list(game.burial_chamber),
            "site_stones": {"pyramids": game.site_stones["pyramids"],
                            "temple": game.site_stones["temple"]}}
