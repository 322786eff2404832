"""Pharaon's moves and rules against shared/rules/pharaon.md §4 (actions.py, passing.py,
exchanges.py, jar_gains.py, noble_effects.py, rounds.py, prompts.py): nobles 6-26, the 4+
spot, Q17 (a gain the bank cannot pay), succession, round end, the last round, the values
still missing at the end, what the phone is offered; the payment proposal is always legal and
as cheap (in tokens) as a brute force finds."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.pharaon import PHARAON
from companion.rules.pharaon import printed as t
from companion.rules.pharaon.actions import pay_context
from companion.rules.pharaon.payment import (PayContext, area_pattern, cost_problem,
                                             declarable_kinds, entry_kinds, propose_payment,
                                             scribe_partners)
from companion.rules.pharaon.prompts import area_view, payment_choices
from companion.rules.pharaon.state import (entry_colour, free_spots, holdings, phase_of,
                                           usable_spots)
from companion.rules.pharaon.values import missing_values
from tests.rules.pharaon_helpers import (FULL_EDITION, advance, decl, effect_state, fill_segment,
                                         first_draw, give, new_game, offerings_action, pass_turn,
                                         play, settle, start_pick_state, started, stepping, strip,
                                         take_noble, tampered, turn_state, with_nobles)
from tests.rules.refusals import assert_refused


# ------------------------------------------------------------------------------------------
# Moves and rules
# ------------------------------------------------------------------------------------------


def action(state, seat, area, entry, pay=(), **args):
    move = {"type": "action", "area": area, "entry": decl(*entry),
            "pay": [decl(*p) for p in pay], **args}
    return play(state, (seat, move))


def bare_turn(players=3, nobles=(), **tokens):
    """The first turn, the seat holding only ``tokens`` and ``nobles`` (its starting noble
    taken away)."""
    state, seat = turn_state(players)
    state = tampered(state)
    for card in state["players"][seat]["nobles"]:
        state["noble_deck"] = sorted(state["noble_deck"] + [card])
    state["players"][seat]["nobles"] = []
    state = give(strip(with_nobles(state, seat, *nobles), seat), seat, **tokens)
    return state, seat


def test_noble_7_to_10_entry_by_its_own_colour_counts_for_the_deduction():
    # the Priestess (8) is on the Offerings in the default copy; OFF faces BLK in round 1
    state, seat = bare_turn(nobles=(8,), RED=2)
    after = action(state, seat, "OFF", ("RED",), [("RED",)], pair=0, bonus=0)
    assert after["players"][seat]["res"]["RED"] == 0                   # 2 RED in all
    assert after["wheel"]["BLK"][0]["token"] == "RED"
    plain, seat = bare_turn(RED=2)
    assert_refused(PHARAON, plain, seat, {"type": "action", "area": "OFF", "pair": 0, "bonus": 0,
                                          "entry": decl("RED"), "pay": [decl("RED")]},
                   "PH_E_ENTRY_KIND")


def test_scribe_swaps_a_token_for_its_partner_one_kind_per_use():
    # Scribe 1 pairs GRN and BLK (default copy): a GRN token laid as BLK is BLK for the action
    state, seat = bare_turn(nobles=(1,), GRN=2)
    after = action(state, seat, "OFF", ("GRN", "BLK"), [("GRN", "BLK")], pair=0, bonus=0)
    assert after["players"][seat]["res"]["GRN"] == 0
    ctx = pay_context(state, seat, "OFF")
    assert declarable_kinds("GRN", ctx) == ("GRN", "BLK")
    assert declarable_kinds("R-BLK", ctx) == ("BLK", "GRN")
    assert entry_kinds("RED", ctx) == ()


def test_the_judge_pays_any_five_units():
    judge, seat = bare_turn(nobles=(11,), YEL=1, RED=4)
    after = action(judge, seat, "NOB", ("YEL",), [("RED",)] * 4, card=0)
    assert len(after["players"][seat]["nobles"]) == 2
    plain, seat = bare_turn(nobles=(12,), YEL=1, RED=4)
    assert_refused(PHARAON, plain, seat, {"type": "action", "area": "NOB", "card": 0,
                                          "entry": decl("YEL"), "pay": [decl("RED")] * 4},
                   "PH_E_COST_UNMET")


def test_a_full_area_is_open_once_a_round_to_its_noble_13_to_16():
    state, seat = bare_turn(nobles=(13,), GRN=6)
    state = fill_segment(state, "GRN")                   # ART faces GRN: every spot taken
    bank = state["bank"]["GRN"]
    after = settle(action(state, seat, "ART", ("GRN",), [("GRN",)] * 2, card=0))
    assert 13 in after["players"][seat]["used"]
    assert after["bank"]["GRN"] == bank + 3              # Q11: the entry goes to the bank too
    while after["turn"] != seat:
        after = settle(offerings_action(after, after["turn"]))
    assert_refused(PHARAON, after, seat, {"type": "action", "area": "ART", "card": 0,
                                          "entry": decl("GRN"), "pay": [decl("GRN")] * 2},
                   "PH_E_AREA_FULL")


@pytest.mark.parametrize("card, give_kind, get", [(17, "RED", "BLU"), (17, "R-BLU", "YEL"),
                                                  (18, "RED", "SIL")])
def test_seer_and_treasurer_exchange_once_a_round(card, give_kind, get):
    state, seat = bare_turn(nobles=(card,), RED=1, **{"R-BLU": 1})
    after = play(state, (seat, {"type": "exchange", "card": card, "give": give_kind,
                                "get": get}))
    me = after["players"][seat]
    assert me["res"][get] == 1 and card in me["used"]
    assert after["turn"] == seat                         # the turn goes on
    assert_refused(PHARAON, after, seat, {"type": "exchange", "card": card, "give": "RED" if
                                          give_kind != "RED" else "R-BLU", "get": get},
                   "PH_E_ABILITY_USED")


def test_an_exchange_with_a_pass_uses_the_jar_just_taken():
    state, seat = bare_turn(nobles=(17,))
    jar = state["jar_display"][0]
    after = play(state, (seat, {"type": "pass", "jar": 0,
                                "exchange": {"card": 17, "give": jar[0],
                                             "get": next(k for k in t.BASIC if k != jar[0])}}))
    assert sum(after["players"][seat]["res"].values()) == 3


@pytest.mark.parametrize("nobles, move, gained", [
    ((19,), {"teacher": "BLU"}, "jar+BLU"),
    ((20,), {"diplomat": ["RED", "RED", "YEL"]}, "RED,RED,YEL"),
    ((19, 20), {"teacher": "BLK", "diplomat": ["GRN", "GRN", "GRN"]}, "GRN,GRN,GRN,BLK"),
    ((19, 20), {}, "jar"),
])
def test_teacher_and_diplomat_when_a_jar_is_gained(nobles, move, gained):
    state, seat = bare_turn(nobles=nobles)
    jar = state["jar_display"][0]
    state = play(state, (seat, {"type": "pass", "jar": 0}))
    assert phase_of(state) == "jar_gain" and state["pending"][0]["jar"] == jar
    state = play(state, (seat, {"type": "jar_gain", **move}))
    expected = Counter(jar) if gained.startswith("jar") else Counter()
    if "+" in gained:
        expected[gained.split("+")[1]] += 1
    if not gained.startswith("jar"):
        expected = Counter(gained.split(","))
    assert +Counter(state["players"][seat]["res"]) == expected
    assert set(state["players"][seat]["used"]) == {c for c, k in ((19, "teacher"),
                                                                  (20, "diplomat")) if k in move}


def test_a_gain_the_bank_cannot_pay_is_cut_with_a_warning():
    """§2.2, Q17: the action stays legal; the gain is cut to what the bank holds and
    PH_W_BANK_SHORT is recorded."""
    state, seat = bare_turn()
    jar = state["jar_display"][0]
    kind = jar[0]
    wanted = Counter(jar)[kind]
    other = (seat + 1) % 3
    state["players"][other]["res"][kind] += state["bank"][kind]    # the bank runs out
    state["bank"][kind] = 0
    assert state["warnings"] == []
    after = play(state, (seat, {"type": "pass", "jar": 0}))
    gained = Counter({k: n for k, n in after["players"][seat]["res"].items() if n})
    assert gained == Counter({k: n for k, n in Counter(jar).items() if k != kind})
    assert after["bank"][kind] == 0
    assert after["warnings"] == [{"code": "PH_W_BANK_SHORT", "round": state["round"],
                                  "actor": seat, "kind": kind, "short": wanted}]
    # With the bank able to pay there is no cut and no warning.
    state["bank"][kind], state["players"][other]["res"][kind] = state["players"][other][
        "res"][kind], 0
    full = play(state, (seat, {"type": "pass", "jar": 0}))
    assert +Counter(full["players"][seat]["res"]) == Counter(jar)
    assert full["warnings"] == []


def _bank_out_of(state, kind, seat):
    """A copy where another player holds every ``kind`` token the bank had."""
    state = tampered(state)
    other = (seat + 1) % len(state["players"])
    state["players"][other]["res"][kind] += state["bank"][kind]
    state["bank"][kind] = 0
    return state


def _nile_3(options=None):
    """Nile action 3 of the test copy (RED + BLU; gains BLK and YEL), the bank out of BLK."""
    state, seat = turn_state(entered=FULL_EDITION, options=options)
    state = _bank_out_of(give(strip(state, seat), seat, RED=1, BLU=1), "BLK", seat)
    return state, seat, {"type": "action", "area": "NIL", "entry": decl("RED"),
                         "pay": [decl("BLU")], "nile": {"action": 3, "tracks": ["RED", "BLU"]}}


def test_q17_refuse_a_nile_action_the_bank_cannot_pay():
    state, seat, move = _nile_3({"bank_short": "refuse"})
    assert_refused(PHARAON, state, seat, move, "PH_E_BANK_EMPTY", "move.nile")
    # the recommended reading: the action stands, BLK is cut, a warning is recorded
    state, seat, move = _nile_3()
    after = play(state, (seat, move))
    assert after["players"][seat]["res"]["BLK"] == 0 and after["players"][seat]["res"]["YEL"] == 1
    assert [(w["code"], w["kind"], w["short"]) for w in after["warnings"]] == [
        ("PH_W_BANK_SHORT", "BLK", 1)]


def test_q17_refuse_a_nile_gain_paid_by_the_tokens_spent_is_allowed():
    # the action's own payment goes back to the bank first: a BLU gain it pays is no problem
    state, seat = turn_state(entered=FULL_EDITION, options={"bank_short": "refuse"})
    state = _bank_out_of(give(strip(state, seat), seat, RED=1, BLU=1), "BLU", seat)
    state["rules"]["nile_actions"][3] = {**state["rules"]["nile_actions"][3],
                                         "gains": {"BLU": 1}}
    after = play(state, (seat, {"type": "action", "area": "NIL", "entry": decl("RED"),
                                "pay": [decl("BLU")],
                                "nile": {"action": 3, "tracks": ["RED", "BLU"]}}))
    assert after["players"][seat]["res"]["BLU"] == 1 and after["warnings"] == []


def test_q17_refuse_a_jar_the_bank_cannot_pay_while_another_one_it_can():
    state, seat = bare_turn()
    state["options"]["bank_short"] = "refuse"
    assert len(state["jar_display"]) >= 2
    state["jar_display"][:2] = [["BLK", "BLK", "YEL"], ["RED", "GRN", "BLU"]]
    display = state["jar_display"]
    state = _bank_out_of(state, "BLK", seat)
    assert_refused(PHARAON, state, seat, {"type": "pass", "jar": 0}, "PH_E_BANK_EMPTY",
                   "move.jar")
    after = play(state, (seat, {"type": "pass", "jar": 1}))
    assert after["warnings"] == []
    # no jar the bank can pay: the jar is taken and cut, passing stays possible
    for kind in {k for jar in display for k in jar}:
        state = _bank_out_of(state, kind, seat)
    after = play(state, (seat, {"type": "pass", "jar": 0}))
    assert after["players"][seat]["passed"] and after["warnings"]


def test_q17_refuse_a_basic_reward_of_a_kind_the_bank_lacks():
    rows = [["basic", "basic", "basic"], [None, None], [None, None], [None, None]]
    for refuse_short in (True, False):
        state, seat = turn_state(entered={"pyramid_rows": rows},
                                 options={"bank_short": "refuse" if refuse_short else "cut"})
        state = _bank_out_of(stepping(state, seat), "GRN", seat)
        move = {"type": "step", "reward": "basic", "kind": "GRN"}
        if refuse_short:
            assert_refused(PHARAON, state, seat, move, "PH_E_BANK_EMPTY", "move.kind")
            after = play(state, (seat, {**move, "kind": "RED"}))
            assert after["warnings"] == []
        else:
            after = play(state, (seat, move))
            assert after["warnings"][-1]["code"] == "PH_W_BANK_SHORT"


def test_court_officials_resolve_on_acquisition():
    state, seat = effect_state(21)
    after = play(state, (seat, {"type": "noble_effect", "tracks": ["RED", "RED", "BLU"]}))
    me = after["players"][seat]
    assert me["nile"][3:] == [2, 1] and me["res"]["SIL"] == 2        # 2 × silver (U11)
    state, seat = effect_state(22)
    bonus = state["bonus"][0]
    after = play(state, (seat, {"type": "noble_effect", "tracks": ["GRN", "GRN"],
                                "sources": [0, "bag"]}))
    assert phase_of(after) == "draw_offerings"                     # the bag draw
    after = play(after, (seat, first_draw(after)))
    assert after["players"][seat]["nile"][2] == 2
    assert after["players"][seat]["off"][bonus] >= 1 and sum(
        after["players"][seat]["off"].values()) == 2
    state, seat = effect_state(23)
    card = state["artisan_display"][1]
    after = settle(play(state, (seat, {"type": "noble_effect", "artisan": 1})))
    assert after["players"][seat]["artisans"] == [card]
    assert after["players"][seat]["res"]["SIL"] >= 1


def test_court_official_25_advances_the_tomb_without_a_choice():
    state, seat = turn_state()
    state = settle(take_noble(state, seat, 25))
    me = state["players"][seat]
    assert me["tomb"] == 1 and me["res"]["SIL"] == 1 and phase_of(state) == "turn"


def test_general_steps_at_once_and_takes_the_first_player_token():
    state, seat = bare_turn(nobles=(6,))
    other = (seat + 1) % 3
    state = play(state, (seat, {"type": "pass", "jar": 0}))
    assert phase_of(state) == "general"
    state = play(state, (seat, {"type": "step", "reward": "first_player"}))
    assert state["first_player"] == seat and state["players"][seat]["space"] == 1
    assert state["turn"] == other


def test_general_first_passer_gets_the_token_whatever_the_step_takes():
    # seed 000 (Pharaon rulebook), Generál (6): "Když pasujete, můžete zároveň hned posunout
    # svůj váleček o jedno pole na pyramidě dále (… a jste-li prvním pasujícím, automaticky
    # dostanete i žeton začínajícího hráče)". Ruling (issue 20): the first passer's General
    # step brings the first-player token, whatever else it gives.
    state, seat = bare_turn(nobles=(6,))
    other = (seat + 1) % 3
    state = tampered(state)
    state["first_player"] = other
    state = play(state, (seat, {"type": "pass", "jar": 0}))
    basic_before = state["players"][seat]["res"]["BLU"]
    state = play(state, (seat, {"type": "step", "reward": "basic", "kind": "BLU"}))
    assert state["first_player"] == seat
    assert state["players"][seat]["res"]["BLU"] == basic_before + 1
    # declining the step keeps the token where it was
    state, seat = bare_turn(nobles=(6,))
    state = tampered(state)
    state["first_player"] = other
    state = play(state, (seat, {"type": "pass", "jar": 0}), (seat, {"type": "skip_step"}))
    assert state["first_player"] == other


def test_general_second_passer_gets_no_token_with_another_reward():
    state, seat = bare_turn(nobles=(6,))
    other, third = (seat + 1) % 3, (seat + 2) % 3
    state = tampered(state)
    state["first_player"] = other
    state["players"][third].update({"passed": True, "row": 0, "space": 0})  # passed first
    state["pass_count"] = 1
    state = play(state, (seat, {"type": "pass", "jar": 0}))
    assert phase_of(state) == "general" and state["players"][seat]["row"] == 1
    state = play(state, (seat, {"type": "step", "reward": "silver"}))
    assert state["first_player"] == other


def test_the_4_plus_spot_only_with_four_or_five_players():
    assert free_spots(started(3), "YEL") == 3
    assert free_spots(started(4), "YEL") == 4
    state = started(3, entered={"four_plus_spot": 1})
    assert usable_spots(state) == [1, 2, 3]
    assert area_view(state)[1]["spots"][0] == "closed"


def test_succession_first_to_two_nobles_and_three_steps_never_changes():
    state, seat = bare_turn(nobles=(3,), BLU=3, BLK=3, GRN=3, RED=3, YEL=3)
    state = tampered(state)
    state["players"][seat]["tomb"] = 2
    other = (seat + 1) % 3
    state["players"][other]["tomb"] = 5
    after = action(state, seat, "TMB", ("BLU",), [("BLK",), ("YEL",), ("GRN",)],
                   tomb={"cost": ["BLU", "BLK", "YEL", "GRN"]})
    assert after["pharaoh"] is None                      # one noble only
    state = with_nobles(state, seat, 9)
    after = action(state, seat, "TMB", ("BLU",), [("BLK",), ("YEL",), ("GRN",)],
                   tomb={"cost": ["BLU", "BLK", "YEL", "GRN"]})
    assert after["pharaoh"] == seat
    # another player qualifying later does not take it (Q14)
    later = settle(with_nobles(after, other, 10, 14))
    assert len(later["players"][other]["nobles"]) >= 2 and later["players"][other]["tomb"] >= 3
    later = play(later, (later["turn"], PHARAON.legal_moves(later, later["turn"])[0]))
    assert later["pharaoh"] == seat


def test_round_end_clears_the_wheel_refills_and_turns():
    state, seat = turn_state()
    state = give(state, seat, **{"A-OFF": 1})
    state = play(state, (seat, {"type": "action", "area": "OFF", "pair": 0,
                                "entry": decl("A-OFF", "BLK"), "pay": []}))
    discard = state["offer_discard"]["A-OFF"]
    for _ in range(3):
        state = pass_turn(settle(state), state["turn"])
    state = settle(state)
    assert state["round"] == 2
    assert state["offer_discard"]["A-OFF"] == discard + 1           # offerings to discard
    assert all(spot is None for segment in state["wheel"].values() for spot in segment)
    assert all(len(p) == 2 for p in state["pairs"]) and all(state["bonus"])
    assert len(state["jar_display"]) == 3
    assert entry_colour(state, "OFF") == "BLU"                      # turned clockwise
    assert all(p["used"] == [] and not p["passed"] for p in state["players"])


def test_round_five_has_no_jars_and_ends_the_game():
    state = advance(started(3), lambda s: s["round"] == 5 and phase_of(s) == "turn", seed=4)
    assert state["jar_display"] == []
    seat = state["turn"]
    assert_refused(PHARAON, state, seat, {"type": "pass", "jar": 0}, "PH_E_JAR_SOURCE")
    state = advance(state, lambda s: s["phase"] in ("values", "over"), seed=4)
    assert state["round"] == 5 and state["pending"] == []


def test_missing_values_are_entered_at_the_end_by_any_seat():
    state = advance(new_game(3), lambda s: phase_of(s) == "values", seed=5)
    gods_missing, steps = missing_values(state)
    assert gods_missing
    awaited = PHARAON.awaiting(state)
    assert awaited.seats == frozenset({0, 1, 2}) and awaited.step == "values"
    assert not PHARAON.is_over(state) and not PHARAON.score(state).complete
    gods = [{"name": f"G{g}", "a": {"threshold": 1, "points": 2},
             "b": {"threshold": 1, "points": 3}} for g in range(5)]
    state = play(state, (2, {"type": "enter_values", "gods": gods}))
    if steps:
        assert not PHARAON.is_over(state)
        state = play(state, (1, {"type": "enter_values", "tomb_points": [
            {"steps": s, "points": 4 * s} for s in steps]}))
    assert PHARAON.is_over(state) and PHARAON.score(state).complete
    assert_refused(PHARAON, state, 0, {"type": "enter_values", "gods": gods}, "pharaon.game_over")


def test_prompts_offer_each_area_with_a_legal_payment():
    state, seat = turn_state(entered=FULL_EDITION)
    state = give(state, seat, **{k: 2 for k in t.BASIC})
    prompts = PHARAON.prompts(state, seat)
    assert prompts["moves"] == ["action", "pass"]
    areas = {row["area"]: row for row in prompts["areas"]}
    assert set(areas) == set(t.AREAS)
    assert areas["OFF"]["colour"] == "BLK" and areas["OFF"]["free"] == 3
    proposals = [(area, row["proposal"]) for area, row in areas.items() if "proposal" in row]
    proposals += [("NIL", a["proposal"]) for a in areas["NIL"]["actions"]]
    for area, proposal in proposals:
        if proposal is None:
            continue
        extra = {"OFF": {"pair": 0}, "NOB": {"card": 0}, "ART": {"card": 0},
                 "TMB": {}}.get(area)
        if area == "NIL":
            action = next(a for a in areas["NIL"]["actions"] if a["proposal"] is proposal)
            extra = {"nile": {"action": action["action"], "tracks": [
                a.split("/")[0] if a != "any" else "RED" for a in action["arrows"]]}}
        PHARAON.validate(state, seat, {"type": "action", "area": area, **proposal, **extra})
    assert PHARAON.prompts(state, (seat + 1) % 3)["moves"] == []


@pytest.mark.parametrize("seed", range(6))
def test_the_phone_offers_every_declaration_and_the_proposal_is_among_them(seed):
    """payment_choices lists exactly the (token, kind) pairs the referee accepts for the
    entry and the action cost; each proposal uses them; pay_rows fits the proposal."""
    import random
    rng = random.Random(seed)
    state, seat = turn_state(entered=FULL_EDITION if seed % 2 else None)
    held = {k: rng.randint(0, 2) for k in t.BASIC + ("SIL",)}
    for kinds in (t.RESOURCE_OFFERINGS, t.AREA_OFFERINGS):
        held[rng.choice([k for k in kinds if state["bag"][k]])] = 1
    state = give(state, seat, **held)
    state = with_nobles(state, seat, *rng.sample([1, 2, 3, 4, 5, 7, 8, 9, 10, 11], 2))
    for row in PHARAON.prompts(state, seat)["areas"]:
        area = row["area"]
        ctx = pay_context(state, seat, area)
        tokens = holdings(state, seat)
        choices = payment_choices(state, seat, area)
        assert choices == row["choices"] and choices["entry_colour"] == row["colour"]
        entry = {(c["token"], c["as"]) for c in choices["entry"]}
        pay = {(c["token"], c["as"]) for c in choices["pay"]}
        assert entry == {(tok, k) for tok in tokens for k in entry_kinds(tok, ctx)}
        assert pay == {(tok, k) for tok in tokens for k in declarable_kinds(tok, ctx)}
        for key, rows in (("proposal", row["rows"]), ("proposal_bonus", row.get("rows_bonus"))):
            proposal = row.get(key)
            if proposal:
                assert (proposal["entry"]["token"], proposal["entry"]["as"]) in entry
                assert {(p["token"], p["as"]) for p in proposal["pay"]} <= pay
                assert len(proposal["pay"]) <= rows


def test_view_hides_the_nobles_drawn_for_another_seats_pick():
    state, seat = start_pick_state()
    drawn = state["pending"][0]["nobles"]
    mine = PHARAON.view(state, seat, {})
    theirs = PHARAON.view(state, (seat + 1) % 3, {})
    assert mine["pending"][0]["nobles"] == drawn
    assert theirs["pending"][0]["nobles"] == [None, None]
    assert state["pending"][0]["nobles"] == drawn
    assert [row["area"] for row in mine["table"]["areas"]] == list(t.AREAS)


# ------------------------------------------------------------------------------------------
# The payment proposal: legal and as cheap as a brute force finds
# ------------------------------------------------------------------------------------------


SPENDABLE = t.KINDS + t.RESOURCE_OFFERINGS + ("A-OFF", "A-ART", "A-NOB")


def brute_fewest(holdings, ctx, pattern):
    """The fewest tokens of any legal declaration, trying every entry, every multiset of
    other tokens and every way to declare them."""
    best = None
    for entry in holdings:
        for kind in entry_kinds(entry, ctx):
            rest = Counter(holdings)
            rest[entry] -= 1
            pool = list((+rest).elements())
            for size in range(0, 6):
                if best is not None and size + 1 >= best:
                    break
                for tokens in set(itertools.combinations(sorted(pool), size)):
                    options = [declarable_kinds(token, ctx) for token in tokens]
                    if any(cost_problem(pattern, kind, list(kinds)) is None
                           for kinds in itertools.product(*options)):
                        best = size + 1
                        break
    return best


@st.composite
def payment_cases(draw):
    holdings = Counter(draw(st.lists(st.sampled_from(SPENDABLE), min_size=0, max_size=7)))
    area = draw(st.sampled_from(t.AREAS))
    pairs = draw(st.lists(st.sampled_from([("GRN", "BLK"), ("RED", "BLU"), ("YEL", "RED")]),
                          max_size=2, unique=True))
    ctx = PayContext(area, draw(st.sampled_from(t.BASIC)), scribe_partners(pairs),
                     own_colour_entry=draw(st.booleans()))
    if area == "OFF":
        pattern = area_pattern("OFF", bonus=draw(st.booleans()))
    elif area == "NOB":
        pattern = area_pattern("NOB", judge=draw(st.booleans()))
    elif area == "ART":
        pattern = area_pattern("ART")
    else:
        pattern = area_pattern(area, fixed=draw(st.lists(st.sampled_from(t.BASIC),
                                                         min_size=1, max_size=3)))
    return dict(holdings), ctx, pattern


@settings(max_examples=200, derandomize=True, deadline=None)
@given(payment_cases())
def test_the_proposal_is_legal_and_cheapest(case):
    holdings, ctx, pattern = case
    proposal = propose_payment(holdings, ctx, pattern)
    fewest = brute_fewest(holdings, ctx, pattern)
    if proposal is None:
        assert fewest is None
        return
    entry, pay = proposal["entry"], proposal["pay"]
    assert entry["as"] in entry_kinds(entry["token"], ctx)
    assert all(p["as"] in declarable_kinds(p["token"], ctx) for p in pay)
    used = Counter([entry["token"]] + [p["token"] for p in pay])
    assert all(holdings.get(token, 0) >= n for token, n in used.items())
    assert cost_problem(pattern, entry["as"], [p["as"] for p in pay]) is None
    assert 1 + len(pay) == fewest
