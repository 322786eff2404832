"""Every worked example of shared/rules/pharaon.md §8 with its exact numbers, plus the
synthetic full-score vector (101).

Round 1 of ``started()`` faces, with the default set-up (areas OFF NOB ART NIL TMB clockwise,
colours BLK YEL GRN RED BLU): OFF ← BLK, NOB ← YEL, ART ← GRN, NIL ← RED, TMB ← BLU. In the
examples E is the entry colour and F another colour.
"""

from __future__ import annotations

import copy

import pytest

from companion.rules.pharaon import PHARAON
from companion.rules.pharaon import printed as t
from companion.rules.pharaon.final import score_final
from companion.rules.pharaon.payment import CostVerdict, area_pattern, cost_problem
from companion.rules.pharaon.scoring import Board, God, Half, PlayerTally, noble_points
from companion.rules.pharaon.state import entry_colour, facing, free_spot, free_spots, phase_of
from tests.rules.pharaon_helpers import (FULL_EDITION, NILE_CATALOGUE, give, play, settle,
                                         started, strip)
from tests.rules.refusals import assert_refused


def decl(token: str, kind: str | None = None) -> dict[str, str]:
    return {"token": token, "as": kind or token}


def spent(before: dict, after: dict, actor: int) -> int:
    """Tokens that left the actor's supply."""
    def count(state):
        player = state["players"][actor]
        return sum(player["res"].values()) + sum(player["off"].values())
    return count(before) - count(after)


# ------------------------------------------------------------------------------------------
# Examples 1-3: the Artisans' action, 3 of one kind (entry E = GRN in round 1)
# ------------------------------------------------------------------------------------------

E, F = "GRN", "RED"


def artisan_game() -> tuple[dict, int]:
    state = started(3)
    seat = state["turn"]
    state = give(strip(state, seat), seat, GRN=4, RED=4, SIL=2)
    assert entry_colour(state, "ART") == E
    return state, seat


@pytest.mark.parametrize("name, entry, pay, tokens_spent", [
    # 1: Pavel enters with 1 E and pays the action in E: the entry is deducted, 2 more E
    ("example 1", decl(E), [decl(E), decl(E)], 3),
    # 2: paying the action in F: no deduction, 1 E + 3 F
    ("example 2", decl(E), [decl(F), decl(F), decl(F)], 4),
    # 3: silver laid as E stays E: it is deducted from an E cost (2 E or silver declared E)
    ("example 3", decl("SIL", E), [decl(E), decl(E)], 3),
    ("example 3, silver as the second unit", decl("SIL", E), [decl(E), decl("SIL", E)], 3),
    # 3 again: the silver entry deducts nothing from an F cost
    ("example 3, F cost", decl("SIL", E), [decl(F), decl(F), decl(F)], 4),
])
def test_artisans_payments_accepted(name, entry, pay, tokens_spent):
    state, seat = artisan_game()
    after = PHARAON.apply(state, seat, {"type": "action", "area": "ART", "card": 0, "entry": entry,
                                        "pay": pay})
    gained = sum(after["players"][seat]["artisans"][0]["gains"].values())
    assert spent(state, after, seat) + gained == tokens_spent
    colour = entry_colour(state, "ART")
    assert after["wheel"][colour][0]["token"] == entry["token"]


@pytest.mark.parametrize("name, entry, pay, code", [
    ("1: three more E is one too many", decl(E), [decl(E)] * 3, "PH_E_OVERPAID"),
    ("1: one more E is too few", decl(E), [decl(E)], "PH_E_COST_UNMET"),
    ("2: two F are too few without a deduction", decl(E), [decl(F)] * 2, "PH_E_COST_UNMET"),
    # 3: never "2 of any kind plus the silver"
    ("3: silver is not a free joker", decl("SIL", E), [decl(F), decl(F)], "PH_E_COST_UNMET"),
])
def test_artisans_payments_refused(name, entry, pay, code):
    state, seat = artisan_game()
    assert_refused(PHARAON, state, seat, {"type": "action", "area": "ART", "card": 0,
                                          "entry": entry, "pay": pay}, code)


@pytest.mark.parametrize("entry_kind, units, verdict", [
    (E, [E, E], None),                                   # example 1
    (E, [F, F, F], None),                                # example 2
    (E, [F, F], CostVerdict.UNMET),
    (E, [E, E, E], CostVerdict.OVERPAID),
])
def test_artisans_cost_pattern(entry_kind, units, verdict):
    problem = cost_problem(area_pattern("ART"), entry_kind, units)
    assert (problem[0] if problem else None) == verdict


# ------------------------------------------------------------------------------------------
# Examples 4-5: Hanka at the Offerings (entry E = BLK in round 1)
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name, pay, bonus, tokens_spent, offerings_gained", [
    # 4: the entry covers the base cost; she takes a pair
    ("example 4, no bonus", [], None, 1, 2),
    # 4: bonus with 1 more E: a third token from a bonus space; 2 E in all
    ("example 4, bonus", [decl("BLK")], 0, 2, 3),
    # 5: the same with 2 F: E is not deducted; 3 tokens
    ("example 5", [decl("RED"), decl("RED")], 0, 3, 3),
])
def test_offerings_payments(name, pay, bonus, tokens_spent, offerings_gained):
    state = started(3)
    seat = state["turn"]
    state = give(strip(state, seat), seat, BLK=2, RED=2)
    assert entry_colour(state, "OFF") == "BLK"
    move = {"type": "action", "area": "OFF", "pair": 0, "entry": decl("BLK"), "pay": pay}
    if bonus is not None:
        move["bonus"] = bonus
    after = PHARAON.apply(state, seat, move)
    assert spent(state, after, seat) == tokens_spent - offerings_gained   # offerings came in
    assert sum(after["players"][seat]["off"].values()) == offerings_gained
    assert after["pairs"][0] == [] and (bonus is None or after["bonus"][bonus] is None)


def test_offerings_bonus_needs_the_same_kind():
    state = started(3)
    seat = state["turn"]
    state = give(strip(state, seat), seat, BLK=1, RED=2)
    move = {"type": "action", "area": "OFF", "pair": 0, "bonus": 0, "entry": decl("BLK"),
            "pay": [decl("RED")]}
    assert_refused(PHARAON, state, seat, move, "PH_E_COST_UNMET")


# ------------------------------------------------------------------------------------------
# Example 6: Marek, 4th Nile action (RED + BLU, two red/blue arrows)
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("tracks, levels", [
    (["RED", "BLU"], {"RED": 1, "BLU": 1}),
    (["RED", "RED"], {"RED": 2, "BLU": 0}),
    (["BLU", "BLU"], {"RED": 0, "BLU": 2}),
])
def test_marek_nile_moves(tracks, levels):
    # the wheel faces the Nile with GRN: no deduction, he pays RED and BLU on top
    state = started(3, entered=FULL_EDITION, entry_colours=["BLK", "YEL", "RED", "GRN", "BLU"])
    seat = state["turn"]
    state = give(strip(state, seat), seat, GRN=1, RED=1, BLU=1)
    after = PHARAON.apply(state, seat, {"type": "action", "area": "NIL", "entry": decl("GRN"),
                                        "pay": [decl("RED"), decl("BLU")],
                                        "nile": {"action": 3, "tracks": tracks}})
    nile = after["players"][seat]["nile"]
    assert {"RED": nile[3], "BLU": nile[4]} == levels
    gains = NILE_CATALOGUE[3]["gains"]
    assert sum(after["players"][seat]["res"].values()) == sum(gains.values())   # 2 gained


def test_marek_arrow_on_another_track_is_refused():
    state = started(3, entered=FULL_EDITION, entry_colours=["BLK", "YEL", "RED", "GRN", "BLU"])
    seat = state["turn"]
    state = give(strip(state, seat), seat, GRN=1, RED=1, BLU=1)
    move = {"type": "action", "area": "NIL", "entry": decl("GRN"),
            "pay": [decl("RED"), decl("BLU")], "nile": {"action": 3, "tracks": ["RED", "GRN"]}}
    assert_refused(PHARAON, state, seat, move, "PH_E_NILE_TRACK")


def test_marek_with_a_red_entry_pays_only_blue():
    state = started(3, entered=FULL_EDITION)               # NIL faces RED
    seat = state["turn"]
    state = give(strip(state, seat), seat, RED=1, BLU=1)
    move = {"type": "action", "area": "NIL", "entry": decl("RED"), "pay": [decl("BLU")],
            "nile": {"action": 3, "tracks": ["RED", "BLU"]}}
    after = PHARAON.apply(state, seat, move)
    assert spent(state, after, seat) == 2 - 2            # 2 spent, 2 gained
    overpaid = {**move, "pay": [decl("RED"), decl("BLU")]}
    state = give(state, seat, RED=1)
    assert_refused(PHARAON, state, seat, overpaid, "PH_E_OVERPAID")


# ------------------------------------------------------------------------------------------
# Examples 7-8: passing and the pyramid
# ------------------------------------------------------------------------------------------


def test_apolena_passes_second():
    state = started(3)
    martin = state["turn"]
    state = pass_turn(state, martin, 0)
    apolena = state["turn"]
    assert state["players"][martin]["row"] == 0
    assert len(state["jar_display"]) == 2                  # she picks 1 of the 2 remaining
    jar = state["jar_display"][1]
    before = dict(state["players"][apolena]["res"])
    state = pass_turn(state, apolena, 1)
    me = state["players"][apolena]
    assert (me["row"], me["space"]) == (1, 0)              # leftmost space of row 2
    for kind in t.KINDS:
        assert me["res"][kind] == before[kind] + jar.count(kind)


def pass_turn(state: dict, seat: int, jar: int | None) -> dict:
    """A pass, declining the General's immediate step if the seat owns him."""
    state = play(state, (seat, {"type": "pass", **({"jar": jar} if jar is not None else {})}))
    if phase_of(state) == "general":
        state = play(state, (seat, {"type": "skip_step"}))
    return state


def test_martin_steps_to_the_third_space():
    state = started(3)
    martin = state["turn"]
    state = pass_turn(state, martin, 0)
    others = [s for s in range(3) if s != martin]
    state = give(give(state, others[0], BLK=2, GRN=3), others[1], BLK=2, GRN=3)

    def offerings(state):
        pair = next(i for i, p in enumerate(state["pairs"]) if p)
        return play(state, (state["turn"], {"type": "action", "area": "OFF", "pair": pair,
                                            "entry": decl("BLK"), "pay": []}))

    def artisans(state):
        return play(state, (state["turn"], {"type": "action", "area": "ART", "card": "top",
                                            "entry": decl("GRN"),
                                            "pay": [decl("GRN"), decl("GRN")]}))

    state = offerings(offerings(state))
    assert state["turn"] == martin
    state = play(state, (martin, {"type": "step", "reward": "basic", "kind": "RED"}))
    state = settle(artisans(state))
    state = settle(artisans(state))
    assert state["turn"] == martin
    for reward in ("first_player", "basic"):               # earlier spaces of the row
        move = {"type": "step", "reward": reward, **({"kind": "RED"} if reward == "basic"
                                                     else {})}
        PHARAON.validate(state, martin, move)
    assert_refused(PHARAON, state, martin, {"type": "step", "reward": "offering"},
                   "PH_E_REWARD_NOT_IN_ROW")
    silver = state["players"][martin]["res"]["SIL"]
    state = play(state, (martin, {"type": "step", "reward": "silver"}))
    assert state["players"][martin]["space"] == 2          # the 3rd space of row 1
    assert state["players"][martin]["res"]["SIL"] == silver + 1


# ------------------------------------------------------------------------------------------
# Example 9: two players, the jar nobody took blocks wheel spots
# ------------------------------------------------------------------------------------------


def test_leftover_jar_blocks_the_next_round():
    state = started(2)
    state = copy.deepcopy(state)
    # the round's display as the table laid it out: the leftover will be 2 RED + 1 BLU
    state["jar_display"] = [["RED", "RED", "BLU"], ["GRN", "GRN", "GRN"], ["YEL", "YEL", "YEL"]]
    first = state["turn"]
    state = pass_turn(state, first, 1)
    second = state["turn"]
    state = pass_turn(state, second, 1)
    state = settle(state)
    assert state["round"] == 2
    red, blue = state["wheel"]["RED"], state["wheel"]["BLU"]
    assert [s and s["token"] for s in red[:3]] == ["RED", "RED", None]   # first free spots
    assert [s and s["token"] for s in blue[:3]] == ["BLU", None, None]
    assert free_spots(state, "RED") == 1 and free_spots(state, "BLU") == 2
    assert all(spot is None for colour in ("BLK", "YEL", "GRN")
               for spot in state["wheel"][colour])


# ------------------------------------------------------------------------------------------
# Example 10: three players at set-up
# ------------------------------------------------------------------------------------------


def test_three_player_setup():
    state = settle(started(3))
    assert len(state["pairs"]) == 4 and all(len(p) == 2 for p in state["pairs"])
    assert len(state["bonus"]) == 4 and all(token for token in state["bonus"])
    assert len(state["jar_display"]) == 3
    assert free_spots(state, "BLK") == 3                 # the 4+ spot is closed


# ------------------------------------------------------------------------------------------
# Examples 11, 12, 14, 15 and the synthetic vector: scoring
# ------------------------------------------------------------------------------------------

UNREACHABLE = {"threshold": 99, "points": 9}


def gods_board(horus_a=3, bastet_b=2):
    """§5.3: OFF - TMB - NIL neighbours; Horus (10) and Bastet (6) beside TMB, each wanting
    2 tomb steps; Horus's other half 3 offerings, Bastet's 2 Nile tracks."""
    return {"areas": ["OFF", "TMB", "NIL", "NOB", "ART"], "gods": [
        {"name": "Horus", "a": {"threshold": horus_a, "points": 4},
         "b": {"threshold": 2, "points": 6}},
        {"name": "Bastet", "a": {"threshold": 2, "points": 3},
         "b": {"threshold": bastet_b, "points": 3}},
        {"name": "Isis", "a": UNREACHABLE, "b": UNREACHABLE},
        {"name": "Osiris", "a": UNREACHABLE, "b": UNREACHABLE},
        {"name": "Anubis", "a": UNREACHABLE, "b": UNREACHABLE}]}


def player(name, **fields):
    out = {"name": name, "nobles": [], "artisans": [], "nile": [0, 0, 0, 0, 0],
           "tomb_steps": 0, "basic": 0, "silver": 0,
           "offerings": {"resource": 0, "area": 0, "plus1": 0, "plus2": 0}}
    out.update(fields)
    return out


def points(sheet, index, category):
    return next(c.points for c in sheet.players[index].categories if c.key == category)


@pytest.mark.parametrize("tomb_steps, total, chosen", [
    (4, 16, ["Horus", "Bastet"]),        # tomb need 2 + 2 = 4 ≤ 4
    (3, 10, ["Horus"]),                  # both need 4 > 3: Horus (10) over Bastet (6)
])
def test_example_11_gods(tomb_steps, total, chosen):
    doc = {"game": "pharaon", "board": gods_board(), "players": [
        player("Ana", tomb_steps=tomb_steps, tomb_points=0, nile=[1, 1, 0, 0, 0],
               offerings={"resource": 3, "area": 0, "plus1": 0, "plus2": 0}),
        player("Bo")]}
    sheet = score_final(doc)
    gods = sheet.players[0].categories[0]
    assert (gods.points, gods.detail["gods"]) == (total, chosen)


@pytest.mark.parametrize("multiplier, nobles, expected", [
    (8, [3, 9, 14, 20], 32),             # seed: highest multiplier 8, 4 nobles
    (None, [3, 9, 14, 20], 24),          # derived: none reached, × 6
])
def test_example_12_traitor_nobles(multiplier, nobles, expected):
    doc = {"game": "pharaon", "board": gods_board(), "players": [player("Ana", nobles=[1])],
           "traitor": {**player("Traitor", nobles=nobles), "multiplier": multiplier,
                       "gods": []}}
    sheet = score_final(doc)
    assert points(sheet, 1, "nobles") == expected


def scribe_board():
    """Areas clockwise OFF NOB ART NIL TMB; the gods beside NOB are 0 (OFF|NOB) and 1
    (NOB|ART)."""
    return Board(tuple(t.AREAS), tuple(God(f"G{g}", Half(1, 2), Half(1, 2)) for g in range(5)))


@pytest.mark.parametrize("card, tally, mask, expected", [
    (6, PlayerTally("A", nobles=(6,), pharaoh=True, first_player=True), 0, 15),   # General
    (1, PlayerTally("A", nobles=(1,), scribe_areas={1: "NOB"}), 0b00011, 12),    # Scribe
    (1, PlayerTally("A", nobles=(1,), scribe_areas={1: "NOB"}), 0b00100, 4),
    (12, PlayerTally("A", nobles=(12,)), 0, 6),                                    # Vizier
    (12, PlayerTally("A", nobles=(12, 3, 7, 9)), 0, 15),
])
def test_example_14_noble_formulas(card, tally, mask, expected):
    assert noble_points(card, tally, scribe_board(), mask) == expected


def tie_doc(a_fields, b_fields, pharaoh=None):
    return {"game": "pharaon", "board": gods_board(), "pharaoh": pharaoh,
            "players": [player("A", **a_fields), player("B", **b_fields)]}


@pytest.mark.parametrize("name, a, b, pharaoh, ranks, rule", [
    # A: 91 + Pharaoh 7 = 98; B: 93 + 5 leftovers = 98: the Pharaoh holder wins
    ("Pharaoh", {"artisans": [20, 20, 20, 20, 11]}, {"artisans": [20, 20, 20, 20, 13],
                                                     "basic": 5}, "A", [1, 2],
     t.TIEBREAK_PHARAOH),
    # no holder among them: more leftovers wins
    ("leftovers", {"artisans": [20, 20, 20, 20, 18]}, {"artisans": [20, 20, 20, 20, 13],
                                                       "basic": 5}, None, [2, 1],
     t.TIEBREAK_LEFTOVERS),
    # equal leftovers: shared
    ("shared", {"artisans": [20, 20, 20, 20, 13], "silver": 5},
     {"artisans": [20, 20, 20, 20, 13], "basic": 5}, None, [1, 1], t.TIEBREAK_LEFTOVERS),
])
def test_example_15_ties(name, a, b, pharaoh, ranks, rule):
    sheet = score_final(tie_doc(a, b, pharaoh))
    assert [p.total for p in sheet.players] == [98, 98]
    assert [p.rank for p in sheet.players] == ranks
    assert all(p.tiebreak.rule == rule for p in sheet.players)


def test_solo_tie_goes_to_the_traitor():
    doc = {"game": "pharaon", "board": gods_board(),
           "players": [player("Ana", artisans=[10], basic=9)],
           "traitor": {**player("Traitor", artisans=[19]), "multiplier": None, "gods": []}}
    sheet = score_final(doc)
    assert [p.total for p in sheet.players] == [19, 19]
    assert [p.rank for p in sheet.players] == [2, 1]
    assert sheet.winners == ["Traitor"]


def test_synthetic_full_score_101():
    doc = {"game": "pharaon", "board": gods_board(), "pharaoh": "Ana", "first_player": None,
           "players": [
               player("Ana", nobles=[12, 6, 15], artisans=[3, 3, 5], nile=[3, 2, 1, 0, 0],
                      tomb_steps=4, tomb_points=12, basic=4, silver=1,
                      offerings={"resource": 1, "area": 1, "plus1": 0, "plus2": 1}),
               player("Bo", nobles=[1])]}
    sheet = score_final(doc)
    ana = sheet.players[0]
    assert [(c.key, c.points) for c in ana.categories] == [
        ("gods", 16),                    # Horus + Bastet with 4 tomb steps
        ("nobles", 35),                  # Vizier 3 + 3·3, General 7 + 4, High Priest 6 + 2·3
        ("nile", 10),                    # 7 + 3 + 0
        ("leftovers", 10),               # 4 basic + 1 silver + 3 offerings + 2 (the +2)
        ("artisans", 11),
        ("tomb", 12),
        ("tokens", 7),                   # the Pharaoh token, no first-player token
    ]
    assert ana.total == 101


# ------------------------------------------------------------------------------------------
# Example 13: a Traitor turn (Kateřina)
# ------------------------------------------------------------------------------------------


def kateřina_tiles():
    """Tiles whose BLK column's first space discards noble 3 and whose YEL column's first
    space is the god clockwise of the Offerings."""
    def side(column):
        return {"jars": 3, "column": column}
    columns = [[None, "discard_noble:3", None, None], [None, "god:OFF:cw", None, None],
               [None, None, None], [None, None, None], [None, None, None]]
    return [{"light": side(c), "dark": side(c)} for c in columns]


def test_example_13_traitor_turn():
    entered = {**FULL_EDITION, "traitor_tiles": kateřina_tiles()}
    state = started(1, stop_at_traitor_jar=True, entered=entered, traitor_starts=True)
    assert phase_of(state) == "draw_jars" and state["pending"][0]["to"] == "traitor"
    # every usable RED spot but the last is already taken
    state = copy.deepcopy(state)
    while free_spots(state, "RED") > 1:
        state["bank"]["RED"] -= 1
        state["wheel"]["RED"][free_spot(state, "RED")] = {"token": "RED", "actor": None,
                                                          "stand_in": False}
    last = free_spot(state, "RED")
    discarded = state["noble_display"][2]
    # Kateřina flips the jar: top RED and YEL, bottom BLK
    state = play(state, (0, {"type": "draw_jars", "jars": ["RED", "YEL", "BLK"]}))
    assert state["noble_discard"][-1] == discarded and state["noble_display"][2] is None
    state = play(state, (0, {"type": "draw_nobles",
                             "cards": PHARAON.chance(state).outcomes[0][0]}))   # replaced
    assert state["noble_display"][2] is not None
    assert phase_of(state) == "traitor_board"            # both top tokens are eligible
    state = play(state, (0, {"type": "traitor_board", "token": 0}))       # RED on the wheel
    red_area = state["board"]["areas"][facing(state).index("RED")]
    assert state["wheel"]["RED"][last]["actor"] == 1     # the Traitor's token
    assert free_spots(state, "RED") == 0
    human = 0
    state = give(state, human, RED=1, GRN=3)
    assert_refused(PHARAON, state, human, {"type": "action", "area": red_area,
                                           "entry": decl("RED"), "pay": [], "pair": 0, "card": 0,
                                           "nile": {"action": 3, "tracks": ["RED", "BLU"]}},
                   "PH_E_AREA_FULL")
    sheet = PHARAON.score(state)
    traitor_gods = sheet.players[1].categories[0]
    assert traitor_gods.detail["indices"] == [0]           # the god clockwise of OFF
    assert traitor_gods.points == 3 + 2                     # both halves of that god
