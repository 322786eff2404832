"""Builders shared by the Pharaon tests (test_pharaon_*.py, one per room of the package): games
at a known point, holdings moved from the bank, seeded random play-outs and the conservation
invariants (spec §1.1 component counts)."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from typing import Any, Mapping

from companion.rules.base import normalise_options, resolve_edition
from companion.rules.pharaon import PHARAON
from companion.rules.pharaon import printed as t
from companion.rules.pharaon.state import (CHANCE_STEPS, entry_colour, free_spot, free_spots,
                                           phase_of)

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed"]

# A Nile catalogue for tests (the real one is unknown, U3): action 3 (the 4th from the left)
# is the seed's example, RED + BLU with two red/blue arrows and 2 resources.
NILE_CATALOGUE = [
    {"cost": ["BLK", "YEL"], "gains": {"GRN": 1}, "jar": False, "arrows": ["BLK/YEL"]},
    {"cost": ["YEL", "GRN"], "gains": {"SIL": 1}, "jar": False, "arrows": ["any"]},
    {"cost": ["GRN", "BLK"], "gains": {}, "jar": True, "arrows": ["GRN/BLK"]},
    {"cost": ["RED", "BLU"], "gains": {"BLK": 1, "YEL": 1}, "jar": False,
     "arrows": ["RED/BLU", "RED/BLU"]},
    {"cost": ["BLU", "BLK", "RED"], "gains": {"GRN": 2}, "jar": False,
     "arrows": ["BLU/BLK", "any"]},
]
TOMB_TRACK = [{"cost": ["BLK", "YEL"], "points": 5}, {"cost": ["GRN", "RED"], "points": 8},
              {"cost": ["BLU", "BLK", "YEL"], "points": 12},
              {"cost": ["RED", "GRN", "BLU"], "points": 18},
              {"cost": ["YEL", "YEL", "BLK", "BLU"], "points": 60}]
GOD_HALVES = {area: {"cw": {"threshold": 2, "points": 3}, "ccw": {"threshold": 1, "points": 2}}
              for area in t.AREAS}
FULL_EDITION = {"nile_actions": NILE_CATALOGUE, "tomb_track": TOMB_TRACK,
                "god_halves": GOD_HALVES}


def edition(entered: Mapping[str, Any] | None = None):
    return resolve_edition(PHARAON.edition, entered or {})


def new_game(players: int = 3, *, entered: Mapping[str, Any] | None = None,
             options: Mapping[str, Any] | None = None, **setup: Any) -> dict[str, Any]:
    """A game just set up (the physical start still to be entered)."""
    doc = {**PHARAON.default_setup(players), **setup}
    return PHARAON.setup(normalise_options(PHARAON, options or {}), NAMES[:players], doc,
                         edition(entered))


def first_draw(state: Mapping[str, Any]) -> dict[str, Any]:
    """The chance move taking the first outcomes in catalogue order (deterministic)."""
    draw = PHARAON.chance(state)
    pool = [o for o, n in draw.outcomes for _ in range(n)]
    return draw.as_move(pool[0] if draw.draws == 1 else pool[:draw.draws])


def play(state: dict[str, Any], *moves: tuple[int, dict[str, Any]]) -> dict[str, Any]:
    for seat, move in moves:
        state = PHARAON.apply(state, seat, move)
        check_invariants(state)
    return state


def settle(state: dict[str, Any], stop_at_traitor_jar: bool = False) -> dict[str, Any]:
    """Enter every awaited draw (first outcomes) and starting pick (jar 0, first noble)
    until a turn or another choice is due (or the Traitor's jar, if asked)."""
    while not PHARAON.is_over(state):
        phase = phase_of(state)
        seat = min(PHARAON.awaiting(state).seats)
        if stop_at_traitor_jar and phase == "draw_jars" and state["pending"][0]["to"] == "traitor":
            return state
        if phase in CHANCE_STEPS:
            state = play(state, (seat, first_draw(state)))
        elif phase == "start_pick":
            head = state["pending"][0]
            state = play(state, (seat, {"type": "start_pick", "jar": 0,
                                        "noble": head["nobles"][0]}))
        else:
            return state
    return state


def started(players: int = 3, stop_at_traitor_jar: bool = False, **kwargs: Any
            ) -> dict[str, Any]:
    """A game at the first turn of round 1."""
    return settle(new_game(players, **kwargs), stop_at_traitor_jar)


def give(state: Mapping[str, Any], actor: int, **tokens: int) -> dict[str, Any]:
    """A copy where ``actor`` holds exactly these tokens more (resources from the bank,
    offerings from the bag), so every invariant still holds."""
    new = copy.deepcopy(dict(state))
    for token, count in tokens.items():
        if token in t.KINDS:
            assert new["bank"][token] >= count
            new["bank"][token] -= count
            new["players"][actor]["res"][token] += count
        else:
            assert new["bag"][token] >= count
            new["bag"][token] -= count
            new["players"][actor]["off"][token] += count
    return new


def strip(state: Mapping[str, Any], actor: int) -> dict[str, Any]:
    """A copy where ``actor`` holds no tokens (returned to the bank and the bag)."""
    new = copy.deepcopy(dict(state))
    player = new["players"][actor]
    for kind, count in player["res"].items():
        new["bank"][kind] += count
        player["res"][kind] = 0
    for token, count in player["off"].items():
        new["bag"][token] += count
        player["off"][token] = 0
    return new


def with_nobles(state: Mapping[str, Any], actor: int, *cards: int) -> dict[str, Any]:
    """A copy where ``actor`` also owns ``cards`` (taken from wherever they are)."""
    new = copy.deepcopy(dict(state))
    for card in cards:
        for place in ("noble_deck", "noble_discard", "noble_bottom"):
            if card in new[place]:
                new[place].remove(card)
        new["noble_display"] = [None if c == card else c for c in new["noble_display"]]
        for player in new["players"]:
            if card in player["nobles"]:
                player["nobles"].remove(card)
        new["players"][actor]["nobles"].append(card)
    return new


def check_invariants(state: Mapping[str, Any]) -> None:
    """Components are conserved (spec §1.1, §2.3): resources per kind, the 40 offerings,
    the 26 nobles, 30 artisans, 30 jars; no negative count; the state is JSON."""
    size = state["rules"]["bank_size"]
    for kind in t.KINDS:
        total = state["bank"][kind] + sum(p["res"][kind] for p in state["players"])
        total += sum(1 for segment in state["wheel"].values() for spot in segment
                     if spot and spot["token"] == kind and not spot["stand_in"])
        if state["traitor_board"]:
            total += sum(1 for column in state["traitor_board"]["columns"] for token in column
                         if token["token"] == kind and not token["stand_in"])
        assert total == size, (kind, total)
        assert state["bank"][kind] >= 0
        assert all(p["res"][kind] >= 0 for p in state["players"])
    offerings = Counter(state["bag"]) + Counter(state["offer_discard"])
    for pair in state["pairs"]:
        offerings.update(pair)
    offerings.update(token for token in state["bonus"] if token)
    for player in state["players"]:
        offerings.update(player["off"])
        assert all(n >= 0 for n in player["off"].values())
    offerings.update(spot["token"] for segment in state["wheel"].values() for spot in segment
                     if spot and spot["token"] in t.OFFERING_KINDS)
    assert +offerings == Counter(t.OFFERING_BOX)
    nobles = (list(state["noble_deck"]) + list(state["noble_bottom"])
              + [n for n in state["noble_display"] if n] + list(state["noble_discard"])
              + list(state["start_rejected"]))
    for player in state["players"]:
        nobles += player["nobles"]
    for step in state["pending"]:
        if step["kind"] == "start_pick":
            nobles += step["nobles"]
    assert sorted(nobles) == list(t.NOBLE_NUMBERS)
    artisans = (state["artisan_deck"] + sum(1 for c in state["artisan_display"] if c)
                + len(state["artisan_discard"]) + sum(len(p["artisans"])
                                                      for p in state["players"]))
    assert artisans == t.ARTISAN_CARDS
    stack = state["traitor_board"]["stack"] if state["traitor_board"] else 0
    assert (state["jar_supply"] + len(state["jar_display"]) + len(state["jar_discard"])
            + stack) == t.JAR_TILES
    assert state["jar_supply"] >= 0
    assert json.loads(json.dumps(state)) == state


def random_game(seed: int, players: int, *, entered: Mapping[str, Any] | None = None,
                options: Mapping[str, Any] | None = None, check: bool = False,
                setup: Mapping[str, Any] | None = None) -> tuple[dict[str, Any], list]:
    """A seeded random play-out to the end: legal moves at random (passing less often, so
    games are full), draws by weight from what is left, as the table would."""
    rng = random.Random(seed)
    state = new_game(players, entered=entered, options=options, **(setup or {}))
    log: list[tuple[int, dict[str, Any]]] = []
    while not PHARAON.is_over(state):
        seat = min(PHARAON.awaiting(state).seats)
        draw = PHARAON.chance(state)
        if draw is not None:
            move = draw.draw(rng)
        else:
            moves = PHARAON.legal_moves(state, seat)
            assert moves, (phase_of(state), state["pending"][:1])
            kinds = sorted({m["type"] for m in moves})
            kind = rng.choice(kinds)
            if kind == "pass" and len(kinds) > 1 and rng.random() < 0.7:
                kind = rng.choice([k for k in kinds if k != "pass"])
            move = rng.choice([m for m in moves if m["type"] == kind])
        state = PHARAON.apply(state, seat, move)
        if check:
            check_invariants(state)
            for awaited in PHARAON.awaiting(state).seats:       # never stuck while awaited
                assert PHARAON.legal_moves(state, awaited), phase_of(state)
        log.append((seat, move))
        assert len(log) < 3000
    return state, log


# ------------------------------------------------------------------------------------------
# Games at a known point, shared by the test rooms
# ------------------------------------------------------------------------------------------


def decl(token: str, kind: str | None = None) -> dict[str, str]:
    return {"token": token, "as": kind or token}


def skip_general(state: dict) -> dict:
    while phase_of(state) == "general":
        state = play(state, (state["pending"][0]["seat"], {"type": "skip_step"}))
    return state


def pass_turn(state: dict, seat: int, jar: int | None = 0) -> dict:
    move = {"type": "pass"}
    if jar is not None and state["jar_display"] and state["round"] < t.ROUNDS:
        move["jar"] = jar
    state = play(state, (seat, move))
    if phase_of(state) == "jar_gain":
        state = play(state, (seat, {"type": "jar_gain"}))
    return skip_general(state)


def offerings_action(state: dict, seat: int) -> dict:
    """Take a pair at the Offerings with the entry only (gives the seat the entry token)."""
    colour = entry_colour(state, "OFF")
    state = give(state, seat, **{colour: 1})
    pair = next(i for i, p in enumerate(state["pairs"]) if p)
    return play(state, (seat, {"type": "action", "area": "OFF", "pair": pair,
                               "entry": decl(colour), "pay": []}))


def advance(state: dict, until, seed: int = 0, limit: int = 3000) -> dict:
    """Random legal moves (draws by weight; passing only when nothing else is legal) until
    ``until(state)`` holds."""
    import random
    rng = random.Random(seed)
    for _ in range(limit):
        if until(state):
            return state
        seat = min(PHARAON.awaiting(state).seats)
        draw = PHARAON.chance(state)
        if draw:
            move = draw.draw(rng)
        else:
            moves = PHARAON.legal_moves(state, seat)
            move = rng.choice([m for m in moves if m["type"] != "pass"] or moves)
        state = PHARAON.apply(state, seat, move)
    raise AssertionError("never reached")


def turn_state(players: int = 3, **kwargs: Any) -> tuple[dict, int]:
    state = started(players, **kwargs)
    return state, state["turn"]


def tampered(state: dict) -> dict:
    """A deep copy to arrange a situation by hand (keeping every component count)."""
    return copy.deepcopy(state)


def fill_segment(state: dict, colour: str, leave: int = 0) -> dict:
    """Occupy the free usable spots of a segment with bank tokens, leaving ``leave`` free."""
    state = tampered(state)
    while free_spots(state, colour) > leave:
        state["bank"][colour] -= 1
        state["wheel"][colour][free_spot(state, colour)] = {"token": colour, "actor": None,
                                                            "stand_in": False}
    return state


def display_noble(state: dict, slot: int, card: int) -> dict:
    """Put ``card`` (from the deck) in a display slot, the card there back in the deck."""
    state = tampered(state)
    state["noble_deck"].remove(card)
    old = state["noble_display"][slot]
    if old is not None:
        state["noble_deck"] = sorted(state["noble_deck"] + [old])
    state["noble_display"][slot] = card
    return state


def take_noble(state: dict, seat: int, card: int) -> dict:
    """The seat takes ``card`` with the Nobles action (five different colours)."""
    state = display_noble(state, 0, card)
    entry = entry_colour(state, "NOB")
    state = give(strip(state, seat), seat, **{k: 1 for k in t.BASIC})
    return play(state, (seat, {"type": "action", "area": "NOB", "card": 0, "entry": decl(entry),
                               "pay": [decl(k) for k in t.BASIC if k != entry]}))


def stepping(state: dict, seat: int) -> dict:
    """``seat`` passes; the others act until it is ``seat``'s turn again (a pyramid step)."""
    state = pass_turn(state, seat)
    while state["turn"] != seat:
        state = settle(offerings_action(state, state["turn"]))
    return state


def start_pick_state():
    state = new_game(3)
    while phase_of(state) != "start_pick":
        state = play(state, (min(PHARAON.awaiting(state).seats), first_draw(state)))
    return state, state["pending"][0]["seat"]


def effect_state(card):
    state, seat = turn_state()
    state = take_noble(state, seat, card)
    state = settle(state)
    assert phase_of(state) == "noble_effect"
    return state, seat


def traitor_jar_state(jar, **kwargs):
    state = started(1, stop_at_traitor_jar=True, traitor_starts=True, **kwargs)
    return play(state, (0, {"type": "draw_jars", "jars": jar}))


def traitor_reward_state():
    state = started(1, options={"traitor_pyramid_reward": "human_picks"})
    return advance(state, lambda s: phase_of(s) == "traitor_reward", seed=2)


def tiles(columns, jars=(3, 3, 3, 3, 3), dark_jars=(4, 4, 4, 4, 4)):
    return [{"light": {"jars": jars[i], "column": columns[i]},
             "dark": {"jars": dark_jars[i], "column": columns[i]}} for i in range(5)]


def traitor_game(columns, *, full_wheel=(), options=None, **setup):
    """A solo game whose Traitor starts, stopped at his first jar; the listed segments full.
    Columns sit left to right BLK YEL GRN RED BLU (the default set-up)."""
    state = started(1, stop_at_traitor_jar=True, entered={**FULL_EDITION,
                                                          "traitor_tiles": tiles(columns)},
                    traitor_starts=True, options=options, **setup)
    for colour in full_wheel:
        state = fill_segment(state, colour)
    return state


def traitor_jar(state, jar, board_choice=0):
    """Flip the Traitor's jar and resolve it, the human's choices and draws by default."""
    state = play(state, (0, {"type": "draw_jars", "jars": jar}))
    while phase_of(state) != "turn" and not PHARAON.is_over(state) and state["turn"] == 1:
        phase = phase_of(state)
        if phase == "traitor_board":
            state = play(state, (0, {"type": "traitor_board", "token": board_choice}))
        elif phase in CHANCE_STEPS and not (phase == "draw_jars" and
                                            state["pending"][0]["to"] == "traitor"):
            state = play(state, (0, first_draw(state)))
        else:
            break
    return state


SHORT = [[None, None]] * 5
