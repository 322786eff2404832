"""Ra live-play referee (companion/rules/ra/, through the seam) against shared/rules/ra.md.

1. Worked examples RA-T14..RA-T22 and RA-T24 (§7) with their exact outcomes.
2. Edge cases E1, E2, E5, E6, E10 (§8) and more disaster cases (§4.6, E7).
3. Every error code, each asserting that the rejected move leaves the state as it was.
4. Seeded random play-outs for 2–5 players by the generic driver (tests/rules/playout.py:
   JSON states, no mutation, a legal move while awaited; tests/rules/test_playouts.py adds
   replay and live scoring equal to score-only scoring) with Ra's invariants after every move
   (§2.2 tiles and §2.3 suns conserved, fame ≥ 0). ``RA_PLAYOUTS=n`` plays n games.
5. Chance (§4.2): the tiles ``chance`` offers are exactly the draws the referee accepts.
"""

from __future__ import annotations

import ast
import copy
import importlib
import inspect
import json
import os
import random
import subprocess
import sys
from collections import Counter
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules.base import RuleViolation
from companion.rules.ra import RA
from companion.rules.ra import printed as t
from companion.rules.ra.final import score_final
from companion.rules.ra.setup import setup as ra_setup
from companion.rules.ra.state import CIV_TILES, MON_TILES, to_act
from tests.rules import playout
from tests.rules.refusals import assert_refused

GROUPS4 = [[13, 6, 2], [12, 7, 3], [11, 8, 4], [10, 9, 5]]   # seat 0 holds 13
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve"]


# ------------------------------------------------------------------------------------------
# Helpers
# ------------------------------------------------------------------------------------------


def new_game(players: int = 4, **options: bool) -> dict[str, Any]:
    groups = GROUPS4 if players == 4 else [list(g) for g in t.SUN_GROUPS[players]]
    if players == 2:
        options.setdefault("two_player", True)
    return ra_setup(options, NAMES[:players], groups)


def play(state: dict[str, Any], *moves: tuple[int, dict[str, Any]]) -> dict[str, Any]:
    for seat, move in moves:
        state = RA.apply(state, seat, move)
        check_invariants(state)
    return state


def draw(tile: str) -> dict[str, Any]:
    return {"type": "draw", "tile": tile}


INVOKE = {"type": "invoke_ra"}
PASS = {"type": "pass"}


def bid(sun: int) -> dict[str, Any]:
    return {"type": "bid", "sun": sun}


def gods(*take: int) -> dict[str, Any]:
    return {"type": "use_gods", "take": list(take)}


def discard(*tiles: str) -> dict[str, Any]:
    return {"type": "discard", "tiles": list(tiles)}


def everyone_passes(state: dict[str, Any]) -> dict[str, Any]:
    """Pass for every bidder until the auction is over."""
    while state["phase"] == "auction":
        state = play(state, (to_act(state), PASS))
    return state


def others_pass_then(state: dict[str, Any], move: dict[str, Any]) -> dict[str, Any]:
    """Everyone but the Ra player passes; then the Ra player makes ``move``."""
    ra_player = state["auction"]["ra_player"]
    while to_act(state) != ra_player:
        state = play(state, (to_act(state), PASS))
    return play(state, (ra_player, move))


def win_own_auction(state: dict[str, Any], sun: int | None = None) -> dict[str, Any]:
    """The current player invokes Ra, the others pass, and they bid ``sun`` (default lowest)."""
    seat = to_act(state)
    state = play(state, (seat, INVOKE))
    return others_pass_then(state, bid(sun if sun is not None else min(state["suns_up"][seat])))


def end_epoch_by_ra(state: dict[str, Any]) -> dict[str, Any]:
    """Draw Ra tiles (everyone passing each auction) until the epoch ends by case b."""
    epoch = state["epoch"]
    while state["epoch"] == epoch and not RA.is_over(state):
        state = play(state, (to_act(state), draw("ra")))
        state = everyone_passes(state)
    return state


def arrange(state: dict[str, Any], track: list[str] | None = None,
            holdings: dict[int, dict[str, int]] | None = None) -> dict[str, Any]:
    """A test position: tiles taken from the bag onto the track and into holdings (so the
    box stays conserved)."""
    state = copy.deepcopy(state)
    for i, tile in enumerate(track or []):
        if tile is not None:
            state["track"][i] = tile
            state["bag"][tile] -= 1
    for seat, held in (holdings or {}).items():
        for tile, n in held.items():
            state["holdings"][seat][tile] += n
            state["bag"][tile] -= n
    assert min(state["bag"].values()) >= 0
    check_invariants(state)
    return state


def all_suns(players: int) -> list[int]:
    return list(range(1, max(t.SUN_GROUPS[players][0]) + 1))


def check_invariants(state: dict[str, Any]) -> None:
    """Every tile of the box and every sun in play is in exactly one place."""
    track = state["track"]
    holdings = state["holdings"]
    for kind, total in t.BOX.items():
        found = state["bag"][kind] + track.count(kind) + state["removed"][kind]
        found += sum(h.get(kind, 0) for h in holdings)
        if kind == "ra":
            found += state["ra_count"]
        assert found == total, kind
    assert sum(state["bag"].values()) + sum(state["removed"].values()) <= 180
    assert len(track) == t.AUCTION_TRACK_LENGTH
    suns = [state["centre"]]
    for up, down in zip(state["suns_up"], state["suns_down"]):
        suns += up + down
    if state["auction"]:
        suns += [sun for sun in state["auction"]["bids"] if sun is not None]
    assert sorted(suns) == all_suns(len(state["names"]))
    for held in holdings:
        assert min(held.values()) >= 0
    if state["options"]["fame_floor_zero"]:
        assert min(state["fame"]) >= 0


LIVE_MODULES = ("state", "setup", "turn", "auction", "disasters", "epochs", "prompts",
                "referee", "ui")


@pytest.mark.parametrize("name", LIVE_MODULES)
def test_referee_is_pure(name):
    """No web, database, I/O, clock or randomness in the referee (design.md §1)."""
    module = importlib.import_module(f"companion.rules.ra.{name}")
    tree = ast.parse(inspect.getsource(module))
    imported = {alias.name.split(".")[0] for node in ast.walk(tree)
                if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(tree)
                 if isinstance(node, ast.ImportFrom) and node.module and not node.level}
    assert imported <= {"__future__", "enum", "typing"}


def test_referee_imports_without_the_web_or_the_database():
    code = ("import sys; sys.modules['flask'] = None; sys.modules['sqlmodel'] = None; "
            "import companion.rules.ra.referee")
    subprocess.run([sys.executable, "-c", code], check=True,
                   cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))))


# ------------------------------------------------------------------------------------------
# Setup (§3, RA-T24)
# ------------------------------------------------------------------------------------------


def test_ra_t24_setup_four_players():
    groups = [[12, 7, 3], [11, 8, 4], [13, 6, 2], [10, 9, 5]]
    state = ra_setup({}, NAMES[:4], groups)
    assert to_act(state) == 2                       # holder of sun 13
    assert state["fame"] == [10, 10, 10, 10]
    assert state["centre"] == 1
    assert state["suns_up"] == groups and state["suns_down"] == [[], [], [], []]
    assert state["bag"] == dict(t.BOX)
    assert state["track"] == [None] * 8 and state["ra_count"] == 0
    assert state["ra_track_length"] == 9 and state["epoch"] == 1 and state["phase"] == "turn"
    assert state["options"] == {"two_player": False, "god_may_take_disaster": True,
                                "fame_floor_zero": True, "epoch3_single_net": True}
    assert json.loads(json.dumps(state)) == state
    check_invariants(state)


@pytest.mark.parametrize("players, first_sun, length", [(2, 9, 6), (3, 13, 8), (5, 16, 10)])
def test_setup_other_player_counts(players, first_sun, length):
    groups = [list(g) for g in reversed(t.SUN_GROUPS[players])]    # highest sun on the last seat
    state = ra_setup({"two_player": players == 2}, NAMES[:players], groups)
    assert to_act(state) == players - 1
    assert first_sun in state["suns_up"][players - 1]
    assert state["ra_track_length"] == length


def test_setup_accepts_groups_in_any_order_and_display_options():
    state = ra_setup({"hide_fame_during_play": False, "show_bag_counts": True}, NAMES[:3],
                     [[2, 5, 8, 13], [3, 6, 9, 12], [4, 7, 10, 11]])
    assert state["suns_up"][0] == [13, 8, 5, 2]


@pytest.mark.parametrize("options, players", [({}, 2), ({}, 6), ({"two_player": True}, 6),
                                              ({}, 1)])
def test_setup_bad_player_count(options, players):
    with pytest.raises(RuleViolation) as caught:
        ra_setup(options, ["x"] * players, [])
    assert caught.value.code == "ra.bad_player_count"
    assert caught.value.render()


@pytest.mark.parametrize("groups", [
    [[13, 6, 2], [12, 7, 3], [11, 8, 4]],                    # one group missing
    [[13, 6, 2], [13, 6, 2], [11, 8, 4], [10, 9, 5]],        # a group twice
    [[13, 6, 3], [12, 7, 2], [11, 8, 4], [10, 9, 5]],        # not the table's groups
    [[16, 7, 2], [15, 8, 3], [14, 9, 4], [13, 10, 5]],       # five-player groups
    [[13, 6, 2], [12, 7, 3], [11, 8, 4], [10, 9, True]],     # not numbers
    "13-6-2",
])
def test_setup_bad_sun_groups(groups):
    with pytest.raises(RuleViolation) as caught:
        ra_setup({}, NAMES[:4], groups)
    assert caught.value.code == "ra.bad_sun_groups"
    assert "13-6-2" in caught.value.render()


def test_setup_bad_option():
    with pytest.raises(RuleViolation) as caught:
        ra_setup({"fame_floor_zero": "no"}, NAMES[:4], GROUPS4)
    assert caught.value.code == "ra.bad_option"


# ------------------------------------------------------------------------------------------
# Worked examples (§7)
# ------------------------------------------------------------------------------------------


def test_ra_t14_drought_takes_the_flood_then_a_nile():
    state = arrange(new_game(), track=["drought"], holdings={0: {"flood": 1, "nile": 3}})
    state = play(state, (0, INVOKE))
    state = others_pass_then(state, bid(13))
    held = state["holdings"][0]
    assert (held["flood"], held["nile"]) == (0, 2)
    assert state["removed"]["drought"] == 1
    assert (state["removed"]["flood"], state["removed"]["nile"]) == (1, 1)
    assert state["phase"] == "turn" and to_act(state) == 1


def test_ra_t15_drought_without_floods_takes_two_niles():
    state = arrange(new_game(), track=["drought"], holdings={0: {"nile": 3}})
    state = others_pass_then(play(state, (0, INVOKE)), bid(13))
    assert (state["holdings"][0]["flood"], state["holdings"][0]["nile"]) == (0, 1)


def test_two_droughts_take_up_to_four_floods_then_niles():
    state = arrange(new_game(), track=["drought", "drought", "flood"],
                    holdings={0: {"flood": 2, "nile": 5}})
    state = others_pass_then(play(state, (0, INVOKE)), bid(13))
    assert (state["holdings"][0]["flood"], state["holdings"][0]["nile"]) == (0, 4)


def test_ra_t16_funeral_hits_the_pharaoh_won_with_it():
    state = arrange(new_game(), track=["funeral", "pharaoh"])
    state = others_pass_then(play(state, (0, INVOKE)), bid(13))
    assert state["holdings"][0]["pharaoh"] == 0
    assert state["removed"]["pharaoh"] == 1 and state["removed"]["funeral"] == 1
    assert state["phase"] == "turn"


def test_ra_t17_two_unrests_the_player_picks_four():
    state = arrange(new_game(), track=["unrest", "unrest"],
                    holdings={0: {"civ_art": 2, "civ_agriculture": 2, "civ_writing": 1}})
    state = others_pass_then(play(state, (0, INVOKE)), bid(13))
    assert state["phase"] == "discard" and to_act(state) == 0
    assert RA.prompts(state, 0) == {"moves": ["discard"], "discard": {
        "category": "civilizations", "count": 4,
        "held": {"civ_art": 2, "civ_agriculture": 2, "civ_writing": 1}}}
    assert RA.prompts(state, 1) == {"moves": []}
    choices = sorted(sorted(m["tiles"]) for m in RA.legal_moves(state, 0))
    assert choices == sorted([
        sorted(["civ_art", "civ_art", "civ_agriculture", "civ_agriculture"]),
        sorted(["civ_art", "civ_art", "civ_agriculture", "civ_writing"]),
        sorted(["civ_art", "civ_agriculture", "civ_agriculture", "civ_writing"])])
    state = play(state, (0, discard("civ_art", "civ_writing", "civ_art", "civ_agriculture")))
    held = state["holdings"][0]
    assert [held[k] for k in CIV_TILES] == [0, 1, 0, 0, 0]
    assert state["removed"]["unrest"] == 2
    assert state["phase"] == "turn" and to_act(state) == 1


def test_ra_t18_voluntary_invoker_must_bid():
    state = play(new_game(), (0, INVOKE))
    assert state["auction"]["reason"] == "voluntary"
    state = play(state, (1, PASS), (2, PASS), (3, PASS))
    assert_refused(RA, state, 0, PASS, "ra.must_bid")
    assert {"type": "pass"} not in RA.legal_moves(state, 0)
    assert RA.prompts(state, 0)["moves"] == ["bid"] and RA.prompts(state, 0)["must_bid"]


def test_ra_t19_drawn_ra_everybody_passes():
    state = play(new_game(), (0, draw("pharaoh")), (1, draw("ra")))
    assert state["auction"]["reason"] == "drawn_ra"
    assert state["auction"]["order"] == [2, 3, 0, 1]
    state = play(state, (2, PASS), (3, PASS), (0, PASS), (1, PASS))   # Ra player may pass too
    assert state["track"] == ["pharaoh"] + [None] * 7
    assert state["centre"] == 1 and state["ra_count"] == 1
    assert state["phase"] == "turn" and to_act(state) == 2


def test_ra_t20_full_track_forces_ra_and_all_passing_removes_the_tiles():
    tiles = ["pharaoh", "nile", "flood", "gold", "civ_art", "mon_sphinx", "god", "funeral"]
    state = new_game()
    for i, tile in enumerate(tiles):
        state = play(state, (i % 4, draw(tile)))
    assert state["track"] == tiles and to_act(state) == 0
    assert_refused(RA, state, 0, draw("nile"), "ra.auction_track_full")
    assert_refused(RA, state, 0, draw("ra"), "ra.auction_track_full")
    assert RA.legal_moves(state, 0) == [INVOKE]
    assert RA.prompts(state, 0)["moves"] == ["invoke_ra"]
    state = play(state, (0, INVOKE))
    assert state["auction"]["reason"] == "forced"
    state = everyone_passes(state)                  # the Ra player passes too
    assert state["track"] == [None] * 8
    assert all(state["removed"][tile] == 1 for tile in tiles)
    assert state["centre"] == 1 and to_act(state) == 1


def test_ra_t21_last_ra_tile_ends_the_epoch_without_auction():
    state = new_game()
    for i, tile in enumerate(["pharaoh", "gold", "civ_art", "mon_temple", "nile"]):
        state = play(state, (to_act(state), draw(tile)))
    for _ in range(8):
        state = everyone_passes(play(state, (to_act(state), draw("ra"))))
    assert state["ra_count"] == 8 and sum(1 for x in state["track"] if x) == 5
    state = play(state, (to_act(state), draw("ra")))
    assert state["epoch"] == 2 and state["phase"] == "turn" and state["auction"] is None
    assert state["epoch_ends"] == ["b"]
    assert state["removed"]["ra"] == 9 and state["ra_count"] == 0
    assert all(state["removed"][k] == 1 for k in ("pharaoh", "gold", "civ_art",
                                                  "mon_temple", "nile"))
    assert state["track"] == [None] * 8
    assert state["fame"] == [5, 5, 5, 5]            # nobody holds anything: −5 civilizations
    assert len(state["epochs"]) == 1
    sheet = RA.score(state)
    assert [p.total for p in sheet.players] == [5, 5, 5, 5] and not sheet.complete
    assert to_act(state) == 0                     # holder of 13 starts epoch 2


def test_ra_t22_ra_player_wins_own_empty_auction():
    state = play(new_game(), (0, INVOKE), (1, PASS), (2, PASS), (3, PASS), (0, bid(13)))
    assert state["suns_down"][0] == [1] and state["suns_up"][0] == [6, 2]
    assert state["centre"] == 13
    assert state["holdings"][0] == new_game()["holdings"][0]
    assert to_act(state) == 1


# ------------------------------------------------------------------------------------------
# Edge cases (§8)
# ------------------------------------------------------------------------------------------


def test_e1_bidder_with_only_lower_suns_may_only_pass():
    state = play(new_game(), (0, INVOKE), (1, bid(12)))
    assert to_act(state) == 2                     # holds 11, 8, 4
    assert RA.legal_moves(state, 2) == [PASS]
    assert RA.prompts(state, 2)["moves"] == ["pass"] and RA.prompts(state, 2)["suns"] == []
    assert_refused(RA, state, 2, bid(11), "ra.bid_too_low")
    state = play(state, (2, PASS), (3, PASS))
    assert RA.legal_moves(state, 0) == [bid(13), PASS]   # the Ra player need not bid now
    state = play(state, (0, PASS))
    assert state["centre"] == 12 and state["suns_down"][1] == [1]
    assert to_act(state) == 1


def test_e2_full_track_with_gods_is_forced():
    tiles = ["pharaoh", "god", "flood", "gold", "civ_art", "mon_sphinx", "nile", "drought"]
    state = arrange(new_game(), track=tiles, holdings={0: {"god": 2}})
    moves = RA.legal_moves(state, 0)
    assert INVOKE in moves and all(m["type"] != "draw" for m in moves)
    assert gods(0) in moves and gods(0, 2) in moves
    assert not any(1 in m.get("take", []) for m in moves)         # never a God
    assert RA.prompts(state, 0)["take"] == [0, 2, 3, 4, 5, 6, 7]
    assert RA.prompts(state, 0)["invoke_reason"] == "forced"
    state = play(state, (0, INVOKE))
    assert state["auction"]["reason"] == "forced"
    state = everyone_passes(state)
    assert state["track"] == [None] * 8 and state["holdings"][0]["god"] == 2


def test_e5_next_turn_is_left_of_the_ra_player_not_the_winner():
    state = play(new_game(), (0, INVOKE), (1, PASS), (2, bid(11)), (3, PASS), (0, PASS))
    assert state["suns_down"][2] == [1] and state["centre"] == 11
    assert to_act(state) == 1


def test_e6_lone_active_player_keeps_playing_and_must_bid():
    state = new_game()
    while any(state["suns_up"][seat] for seat in (1, 2, 3)):
        if to_act(state) == 0:
            state = play(state, (0, draw("pharaoh")))
        else:
            state = win_own_auction(state)
    assert to_act(state) == 0 and state["suns_up"][0] == [13, 6, 2]
    state = play(state, (0, draw("nile")))
    assert to_act(state) == 0                     # their turn again
    state = play(state, (0, INVOKE))
    assert state["auction"]["order"] == [0]
    assert_refused(RA, state, 0, PASS, "ra.must_bid")
    state = play(state, (0, bid(2)))
    assert to_act(state) == 0 and state["epoch"] == 1
    state = play(state, (0, draw("ra")))            # a drawn Ra: the lone player may pass
    state = play(state, (0, PASS))
    state = win_own_auction(state, 6)
    state = win_own_auction(state, 13)              # the last face-up sun: case a (E4)
    assert state["epoch"] == 2 and state["epoch_ends"] == ["a"]
    assert state["ra_count"] == 0 and state["removed"]["ra"] == 1
    assert all(len(up) == 3 for up in state["suns_up"])
    assert state["suns_down"] == [[], [], [], []]
    holder = max(range(4), key=lambda seat: max(state["suns_up"][seat]))
    assert to_act(state) == holder


def test_e10_face_down_suns_count_for_totals_and_tie_break():
    state = end_epoch_by_ra(end_epoch_by_ra(new_game()))
    assert state["epoch"] == 3 and state["fame"] == [0, 0, 0, 0]
    state = win_own_auction(state, 13)              # seat 0: sun 1 face down, 13 to centre
    state = win_own_auction(state, 12)              # seat 1: sun 13 face down
    assert state["suns_down"][1] == [13]
    state = end_epoch_by_ra(state)
    assert RA.is_over(state) and to_act(state) is None
    sheet = RA.score(state)
    totals = {p.name: next(c for c in p.categories if c.key == "suns").detail["total"]
              for p in sheet.players}
    assert totals == {"Ann": 6 + 2 + 1, "Bob": 7 + 3 + 13, "Cid": 23, "Dee": 24}
    assert [p.total for p in sheet.players] == [0, 0, 0, 0] == state["fame"]
    assert sheet.winners == ["Bob"]                 # highest sun 13 is face down
    assert sheet.players[1].tiebreak.value == 13
    assert score_final(RA.final_document(state)).as_dict() == sheet.as_dict()


# ------------------------------------------------------------------------------------------
# Gods and disasters (§4.3, §4.6)
# ------------------------------------------------------------------------------------------


def test_gods_take_tiles_leave_gaps_and_later_draws_fill_them():
    state = arrange(new_game(), track=["pharaoh", "gold", "nile"], holdings={0: {"god": 2}})
    state = play(state, (0, gods(0, 2)))
    assert state["track"] == [None, "gold", None] + [None] * 5
    held = state["holdings"][0]
    assert (held["god"], held["pharaoh"], held["nile"]) == (0, 1, 1)
    assert state["removed"]["god"] == 2 and to_act(state) == 1
    state = play(state, (1, draw("flood")))
    assert state["track"][:3] == ["flood", "gold", None]


def test_god_takes_a_disaster_and_resolves_it_at_once():
    state = arrange(new_game(), track=["funeral", "pharaoh"],
                    holdings={0: {"god": 1, "pharaoh": 3}})
    state = play(state, (0, gods(0)))
    assert state["holdings"][0]["pharaoh"] == 1 and state["track"][1] == "pharaoh"


def test_god_takes_unrest_with_a_choice():
    state = arrange(new_game(), track=["unrest"],
                    holdings={0: {"god": 1, "civ_art": 1, "civ_writing": 2}})
    state = play(state, (0, gods(0)))
    assert state["phase"] == "discard" and to_act(state) == 0
    state = play(state, (0, discard("civ_writing", "civ_writing")))
    assert to_act(state) == 1 and state["holdings"][0]["civ_art"] == 1


@pytest.mark.parametrize("held, after", [
    ({}, {}),                                                    # E7: nothing to lose
    ({"civ_art": 3}, {"civ_art": 1}),                            # one kind: no choice
    ({"civ_art": 1, "civ_writing": 1}, {}),                      # exactly 2: all go
    ({"civ_art": 1}, {}),                                        # fewer than 2: all go
])
def test_unrest_without_a_real_choice_resolves_itself(held, after):
    state = arrange(new_game(), track=["unrest"], holdings={0: held})
    state = others_pass_then(play(state, (0, INVOKE)), bid(13))
    assert state["phase"] == "turn"
    assert {k: v for k, v in state["holdings"][0].items() if v} == after


def test_unrest_and_earthquake_choices_come_one_after_the_other():
    state = arrange(new_game(), track=["unrest", "earthquake", "mon_temple"],
                    holdings={1: {"civ_art": 2, "civ_religion": 1,
                                  "mon_sphinx": 2, "mon_palace": 1}})
    state = play(state, (0, INVOKE), (1, bid(12)), (2, PASS), (3, PASS), (0, PASS))
    assert to_act(state) == 1
    assert RA.prompts(state, 1)["discard"]["category"] == "civilizations"
    assert_refused(RA, state, 1, discard("mon_temple", "mon_sphinx"), "ra.discard_wrong_category")
    state = play(state, (1, discard("civ_art", "civ_religion")))
    assert state["phase"] == "discard"
    assert RA.prompts(state, 1)["discard"] == {
        "category": "monuments", "count": 2,
        "held": {"mon_palace": 1, "mon_sphinx": 2, "mon_temple": 1}}
    assert len(RA.legal_moves(state, 1)) == 4       # sphinx twice, or two different kinds
    state = play(state, (1, discard("mon_sphinx", "mon_sphinx")))
    assert state["phase"] == "turn" and to_act(state) == 1     # left of Ra player 0
    held = state["holdings"][1]
    assert (held["civ_art"], held["mon_palace"], held["mon_temple"]) == (1, 1, 1)


def test_epoch_scoring_removes_scored_tiles_and_keeps_the_rest():
    state = arrange(new_game(), holdings={0: {"god": 1, "gold": 1, "pharaoh": 2, "nile": 2,
                                              "flood": 1, "civ_art": 1, "civ_religion": 1,
                                              "civ_writing": 1, "mon_temple": 1}})
    state = end_epoch_by_ra(state)
    held = state["holdings"][0]
    assert {k: v for k, v in held.items() if v} == {"pharaoh": 2, "nile": 2, "mon_temple": 1}
    # 2 (god) + 3 (gold) + 5 (most pharaohs) + 3 (river) + 5 (3 civ kinds) = 18
    assert state["fame"] == [28, 3, 3, 3]
    assert state["epochs"][0][0] == {"gods": 1, "pharaohs": 2, "niles": 2, "floods": 1,
                                     "gold": 1, "civilizations": {
                                         "art": 1, "agriculture": 0, "religion": 1,
                                         "astronomy": 0, "writing": 1}}
    assert [p.total for p in RA.score(state).players] == state["fame"]


# ------------------------------------------------------------------------------------------
# Every error code, each leaving the state unchanged
# ------------------------------------------------------------------------------------------


def _full_track() -> dict[str, Any]:
    return arrange(new_game(), track=["pharaoh"] * 8)


def _over() -> dict[str, Any]:
    return end_epoch_by_ra(end_epoch_by_ra(end_epoch_by_ra(new_game())))


def _no_face_up_sun() -> dict[str, Any]:
    # Unreachable by legal play (a turn never goes to a seat without face-up suns): tamper.
    state = new_game()
    state["suns_down"][0], state["suns_up"][0] = state["suns_up"][0], []
    return state


def _auction() -> dict[str, Any]:
    return play(new_game(), (0, INVOKE), (1, bid(12)))


def _discarding() -> dict[str, Any]:
    state = arrange(new_game(), track=["unrest"],
                    holdings={0: {"civ_art": 2, "civ_writing": 1, "mon_temple": 1}})
    return others_pass_then(play(state, (0, INVOKE)), bid(13))


def _gods(**options: bool) -> dict[str, Any]:
    return arrange(new_game(**options), track=["god", None, "funeral", "pharaoh"],
                   holdings={0: {"god": 2}})


def _exhausted() -> dict[str, Any]:
    return play(new_game(), (0, draw("funeral")), (1, draw("funeral")))


ERROR_CASES: list[tuple[str, Callable[[], dict[str, Any]], int, Any]] = [
    ("ra.unknown_move", new_game, 0, {"type": "sail"}),
    ("ra.bad_move", new_game, 0, {"tile": "ra"}),
    ("ra.bad_move", new_game, 0, ["draw"]),
    ("ra.bad_move", new_game, 0, {"type": "draw", "tile": "camel"}),
    ("ra.bad_move", new_game, 0, {"type": "draw"}),
    ("ra.bad_move", _auction, 2, {"type": "bid", "sun": "11"}),
    ("ra.bad_move", _auction, 2, {"type": "bid", "sun": True}),
    ("ra.bad_move", _gods, 0, {"type": "use_gods", "take": []}),
    ("ra.bad_move", _gods, 0, {"type": "use_gods", "take": [8]}),
    ("ra.bad_move", _gods, 0, {"type": "use_gods", "take": 3}),
    ("ra.bad_move", _discarding, 0, {"type": "discard", "tiles": "civ_art"}),
    ("ra.game_over", _over, 0, draw("pharaoh")),
    ("ra.game_over", _over, 2, {"type": "sail"}),
    ("ra.not_your_turn", new_game, 1, draw("pharaoh")),
    ("ra.not_your_turn", _discarding, 1, discard("civ_art", "civ_art")),
    ("ra.not_your_turn", _auction, 1, INVOKE),
    ("ra.wrong_phase", new_game, 0, bid(13)),
    ("ra.wrong_phase", new_game, 0, PASS),
    ("ra.wrong_phase", _auction, 2, draw("nile")),
    ("ra.wrong_phase", _discarding, 0, PASS),
    ("ra.wrong_phase", new_game, 0, discard()),
    ("ra.no_face_up_sun", _no_face_up_sun, 0, draw("nile")),
    ("ra.no_face_up_sun", _no_face_up_sun, 0, INVOKE),
    ("ra.auction_track_full", _full_track, 0, draw("nile")),
    ("ra.tile_exhausted", _exhausted, 2, draw("funeral")),
    ("ra.not_enough_gods", _gods, 0, gods(2, 3, 0)),
    ("ra.not_enough_gods", new_game, 0, gods(0)),
    ("ra.empty_slot", _gods, 0, gods(1)),
    ("ra.duplicate_slot", _gods, 0, gods(3, 3)),
    ("ra.cannot_take_god", _gods, 0, gods(0)),
    ("ra.disaster_by_god_forbidden", lambda: _gods(god_may_take_disaster=False), 0, gods(2)),
    ("ra.not_bidders_turn", _auction, 3, bid(13)),
    ("ra.not_bidders_turn", _auction, 0, PASS),
    ("ra.sun_not_held", _auction, 2, bid(13)),
    ("ra.sun_not_held", _auction, 2, bid(99)),
    ("ra.bid_too_low", _auction, 2, bid(4)),
    ("ra.must_bid", lambda: play(new_game(), (0, INVOKE), (1, PASS), (2, PASS), (3, PASS)),
     0, PASS),
    ("ra.discard_count", _discarding, 0, discard("civ_art")),
    ("ra.discard_count", _discarding, 0, discard("civ_art", "civ_art", "civ_writing")),
    ("ra.discard_not_held", _discarding, 0, discard("civ_writing", "civ_writing")),
    ("ra.discard_not_held", _discarding, 0, discard("civ_art", "civ_religion")),
    ("ra.discard_wrong_category", _discarding, 0, discard("mon_temple", "civ_art")),
    ("ra.discard_wrong_category", _discarding, 0, discard("pharaoh", "civ_art")),
]


@pytest.mark.parametrize("code, build, seat, move", ERROR_CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(ERROR_CASES)])
def test_error_codes_leave_the_state_unchanged(code, build, seat, move):
    assert_refused(RA, build(), seat, move, code)


def test_every_spec_error_code_is_tested():
    codes = {case[0] for case in ERROR_CASES}
    spec = ["not_your_turn", "wrong_phase", "no_face_up_sun", "auction_track_full",
            "tile_exhausted", "not_enough_gods", "empty_slot", "duplicate_slot",
            "cannot_take_god", "disaster_by_god_forbidden", "not_bidders_turn", "sun_not_held",
            "bid_too_low", "must_bid", "discard_count", "discard_not_held",
            "discard_wrong_category", "game_over", "unknown_move", "bad_move"]
    assert {f"ra.{code}" for code in spec} <= codes


# A malformed move of each kind is refused naming its argument in the player's words.
MALFORMED: list[tuple[Callable[[], dict[str, Any]], int, dict[str, Any], str, str]] = [
    (new_game, 0, {"type": "draw"}, "move.tile", "Tile: This is required."),
    (new_game, 0, {"type": "draw", "tile": "camel"}, "move.tile",
     "Tile: Choose one of the values offered."),
    (_gods, 0, {"type": "use_gods"}, "move.take", "Tiles to take: This is required."),
    (_gods, 0, {"type": "use_gods", "take": [3, 8]}, "move.take.1",
     "Tiles to take › Tile 2: At most 7."),
    (_gods, 0, {"type": "use_gods", "take": ["3"]}, "move.take.0",
     "Tiles to take › Tile 1: This must be a whole number."),
    (_auction, 2, {"type": "bid", "sun": "11"}, "move.sun", "Sun: This must be a whole number."),
    (_auction, 2, {"type": "bid"}, "move.sun", "Sun: This is required."),
    (_discarding, 0, {"type": "discard", "tiles": ["civ_art", "camel"]}, "move.tiles.1",
     "Tiles to discard › Tile 2: Choose one of the values offered."),
    (_discarding, 0, {"type": "discard", "tiles": "civ_art"}, "move.tiles",
     "Tiles to discard: This must be a list."),
]


@pytest.mark.parametrize("build, seat, move, field, sentence", MALFORMED,
                         ids=[f"{case[2]['type']}-{i}" for i, case in enumerate(MALFORMED)])
def test_a_malformed_move_names_its_argument_in_words(build, seat, move, field, sentence):
    refusal = assert_refused(RA, build(), seat, move, "ra.bad_move", field)
    assert refusal.render() == sentence


def test_every_kind_of_move_with_arguments_declares_them_with_labels():
    kinds = {rule.kind: rule for rule in RA.move_rules()}
    assert set(kinds) == {"draw", "invoke_ra", "use_gods", "bid", "pass", "discard"}
    assert {kind for kind, rule in kinds.items() if rule.args} == {
        "draw", "use_gods", "bid", "discard"}
    assert all(rule.hint for rule in kinds.values())
    assert {case[2]["type"] for case in MALFORMED} == {
        kind for kind, rule in kinds.items() if rule.args}


@pytest.mark.parametrize("build", [new_game, _auction, _discarding, _over],
                         ids=["turn", "auction", "discard", "over"])
def test_a_seat_that_is_not_awaited_gets_no_moves(build):
    state = build()
    waiting = to_act(state)
    for seat in range(len(state["names"])):
        if seat == waiting:
            assert RA.prompts(state, seat)["moves"] and RA.legal_moves(state, seat)
        else:
            assert RA.prompts(state, seat) == {"moves": []}
            assert RA.legal_moves(state, seat) == []


def test_gods_never_offer_a_disaster_when_the_option_forbids_it():
    state = _gods(god_may_take_disaster=False)
    assert RA.prompts(state, 0)["take"] == [3]
    assert RA.legal_moves(state, 0)[-1] == gods(3)


# ------------------------------------------------------------------------------------------
# Seeded random play-outs
# ------------------------------------------------------------------------------------------

PLAYOUTS = int(os.environ.get("RA_PLAYOUTS", "120"))


def uniform(rng: random.Random, state: Any, seat: int, moves: list[dict[str, Any]]) -> dict:
    return rng.choice(moves)


def test_random_playouts():
    """The generic driver (tests/rules/playout.py) plays whole games; after every move the
    box and the suns are conserved, prompts match the legal moves, and an epoch's scoring
    matches the Scoresheet."""
    stats: Counter[str] = Counter()
    games = []
    for seed in range(PLAYOUTS):
        rng = random.Random(seed)

        def on_move(before, seat, move, after):
            check_invariants(after)
            moves = RA.legal_moves(before, seat)
            assert set(RA.prompts(before, seat)["moves"]) == {m["type"] for m in moves}
            for candidate in moves if len(moves) < 12 else rng.sample(moves, 12):
                RA.validate(before, seat, candidate)
            stats[move["type"]] += 1
            stats["forced"] += move["type"] == "invoke_ra" and None not in before["track"]
            if len(after["epochs"]) > len(before["epochs"]):
                totals = [p.stage_totals[-1] for p in RA.score(after).players]
                assert totals == after["fame"]

        # uniformly among all moves (mostly draws: Ra tracks fill, epoch end b) or a kind first
        choose = playout.kind_then_move if seed % 2 else uniform
        game = playout.play(RA, seed, 2 + seed % 4, choose=choose, on_move=on_move)
        state = game.state
        assert to_act(state) is None and len(state["epochs"]) == 3
        assert [p.total for p in RA.score(state).players] == state["fame"]
        stats.update(f"epoch_end_{case}" for case in state["epoch_ends"])
        games.append(game)
    # the play-outs reach every kind of move and both epoch ends
    for key in ("draw", "invoke_ra", "bid", "pass", "use_gods", "discard", "forced",
                "epoch_end_a", "epoch_end_b"):
        assert stats[key] > 0, key
    playout.print_playout_speed(games)


# A property on top: any move at all, on any position the play-outs reach, either applies
# cleanly (keeping every invariant) or is refused without changing anything.
def sample_positions() -> list[dict[str, Any]]:
    """The first 60 positions of three random games (5, 4 and 3 players)."""
    positions: list[dict[str, Any]] = []
    for seed in (3, 6, 9):
        seen: list[dict[str, Any]] = []
        playout.play(RA, seed, 2 + seed % 4, on_move=lambda before, *_: seen.append(before))
        positions += seen[:60]
    return positions


def test_chance_offers_exactly_the_draws_the_referee_accepts():
    """§4.2: a tile the bag still holds, while the track has room, drawn by the player to
    act; each offered kind is accepted and every other kind refused."""
    for state in sample_positions() + [_exhausted(), _full_track()]:
        draw = RA.chance(state)
        seat = to_act(state)
        offered = dict(draw.outcomes) if draw else {}
        if draw is not None:
            assert draw.seats == {seat} and draw.as_move("nile") == {"type": "draw",
                                                                      "tile": "nile"}
            assert offered == {kind: n for kind, n in state["bag"].items() if n}
        else:
            assert state["phase"] != "turn" or None not in state["track"]
        for kind in t.BOX:
            if kind in offered:
                RA.validate(state, seat, draw.as_move(kind))
            else:
                with pytest.raises(RuleViolation):
                    RA.validate(state, seat, {"type": "draw", "tile": kind})


_MOVES = st.one_of(
    st.builds(lambda k: {"type": "draw", "tile": k}, st.sampled_from(list(t.BOX) + ["x"])),
    st.just({"type": "invoke_ra"}), st.just({"type": "pass"}),
    st.builds(lambda n: {"type": "bid", "sun": n}, st.integers(-1, 17)),
    st.builds(lambda xs: {"type": "use_gods", "take": xs},
              st.lists(st.integers(-1, 8), max_size=4)),
    st.builds(lambda xs: {"type": "discard", "tiles": xs},
              st.lists(st.sampled_from(CIV_TILES + MON_TILES + ("pharaoh",)), max_size=5)),
    st.dictionaries(st.sampled_from(["type", "tile", "sun"]), st.text(max_size=3)),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=st.sampled_from(sample_positions()), seat=st.integers(0, 4), move=_MOVES)
def test_any_move_applies_cleanly_or_changes_nothing(position, seat, move):
    before = copy.deepcopy(position)
    try:
        after = RA.apply(position, seat, move)
    except RuleViolation as refusal:
        assert refusal.code.startswith("ra.") and refusal.render()
    else:
        check_invariants(after)
        assert RA.legal_moves(after, to_act(after)) or RA.is_over(after)
    assert position == before
