"""Pharaon score-only mode (companion/rules/pharaon/final.py, scoring.py).

1. Every refusal (422) of the final-state contract, each naming its field; every violation of
   a document is listed at once.
2. The gods' exact claim (spec §5.2) against an independent brute force on random boards
   (hypothesis, derandomized): every way of giving each element to the left god, the right
   god or neither; with Scribes, the Seer, the Vizier and the Diplomat in the total.
3. Properties: totals are the sum of the categories; scores do not depend on the order the
   players are listed in; ranks follow §6.2.
"""

from __future__ import annotations

import copy
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import get_ruleset
from companion.rules.base import InvalidDocument, Ruleset
from companion.rules.pharaon import PHARAON
from companion.rules.pharaon import printed as t
from companion.rules.pharaon.final import score_final
from companion.rules.pharaon.scoring import (Board, God, Half, PlayerTally, best_gods,
                                             nobles_total)

ZERO_OFFERINGS = {"resource": 0, "area": 0, "plus1": 0, "plus2": 0}


def god(name, a=(2, 3), b=(2, 3)):
    return {"name": name, "a": {"threshold": a[0], "points": a[1]},
            "b": {"threshold": b[0], "points": b[1]}}


def player(name, **fields):
    out = {"name": name, "nobles": [1], "artisans": [3], "nile": [1, 0, 0, 0, 0],
           "tomb_steps": 1, "tomb_points": 5, "basic": 2, "silver": 1,
           "offerings": dict(ZERO_OFFERINGS)}
    out.update(fields)
    return out


def document(players=None, **extra):
    doc = {"game": "pharaon",
           "board": {"areas": list(t.AREAS), "gods": [god(f"G{g}") for g in range(5)]},
           "players": players if players is not None else [player("Ana"),
                                                            player("Bo", nobles=[2])],
           "pharaoh": None, "first_player": "Ana"}
    doc.update(extra)
    return doc


def traitor(**fields):
    out = {**player("Traitor", nobles=[9]), "multiplier": 7, "gods": [0, 2]}
    out.update(fields)
    return out


def violations(doc):
    with pytest.raises(InvalidDocument) as caught:
        score_final(doc)
    return [(v.code, v.field) for v in caught.value.violations]


def test_the_ruleset_satisfies_the_protocol():
    assert isinstance(PHARAON, Ruleset)
    assert get_ruleset("pharaon") is PHARAON
    assert PHARAON.catalogue.player_counts == (1, 2, 3, 4, 5)


def test_a_valid_document_scores():
    sheet = score_final(document())
    assert [p.name for p in sheet.players] == ["Ana", "Bo"]
    assert all(p.total == sum(c.points for c in p.categories) for p in sheet.players)


# ------------------------------------------------------------------------------------------
# 422: every check of the contract, by code and field
# ------------------------------------------------------------------------------------------


def edit(path, value):
    """A document with one value changed (``path`` dotted; "-" deletes)."""
    doc = document()
    keys = path.split(".")
    node = doc
    for key in keys[:-1]:
        node = node[int(key)] if key.isdigit() else node[key]
    last = int(keys[-1]) if keys[-1].isdigit() else keys[-1]
    if value == "-":
        del node[last]
    else:
        node[last] = value
    return doc


@pytest.mark.parametrize("doc, code, field", [
    # a noble number twice (across players) or outside 1-26
    (edit("players.1.nobles", [2, 1]), "pharaon.noble_twice", "players.1.nobles.1"),
    (edit("players.0.nobles", [0]), "pharaon.noble_out_of_range", "players.0.nobles.0"),
    (edit("players.0.nobles", [27]), "pharaon.noble_out_of_range", "players.0.nobles.0"),
    (edit("players.0.nobles", [None]), "schema.required", "players.0.nobles.0"),
    # a Scribe entry for a card that is not 1-5, not owned, or twice
    (edit("players.0.scribes", [{"card": 6, "area": "OFF"}]), "pharaon.not_a_scribe",
     "players.0.scribes.0.card"),
    (edit("players.0.scribes", [{"card": 2, "area": "OFF"}]), "pharaon.scribe_not_owned",
     "players.0.scribes.0.card"),
    (edit("players.0.scribes", [{"card": 1, "area": "OFF"}, {"card": 1, "area": "NIL"}]),
     "pharaon.scribe_twice", "players.0.scribes.1.card"),
    (edit("players.0.scribes", [{"card": 1, "area": "SKY"}]), "schema.not_a_choice",
     "players.0.scribes.0.area"),
    # Nile levels outside 0-3, or not five tracks
    (edit("players.0.nile", [4, 0, 0, 0, 0]), "schema.too_large", "players.0.nile.0"),
    (edit("players.0.nile", [0, -1, 0, 0, 0]), "schema.negative", "players.0.nile.1"),
    (edit("players.0.nile", [0, 0, 0, 0]), "schema.list_length", "players.0.nile"),
    # negative counts
    (edit("players.0.basic", -1), "schema.negative", "players.0.basic"),
    (edit("players.1.silver", -2), "schema.negative", "players.1.silver"),
    (edit("players.0.offerings", {**ZERO_OFFERINGS, "plus1": -1}), "schema.negative",
     "players.0.offerings.plus1"),
    (edit("players.0.tomb_steps", -1), "schema.negative", "players.0.tomb_steps"),
    # a god half, the tomb value or an artisan value missing
    (edit("board.gods.2.a.threshold", "-"), "schema.required", "board.gods.2.a.threshold"),
    (edit("board.gods.4.b.points", None), "schema.required", "board.gods.4.b.points"),
    (edit("board.gods.1.b", "-"), "schema.required", "board.gods.1.b"),
    (document([player("Ana", tomb_steps=3, tomb_points=None), player("Bo", nobles=[2])]),
     "pharaon.tomb_points_needed", "players.0.tomb_points"),
    (edit("players.1.artisans", [3, None]), "schema.required", "players.1.artisans.1"),
    # areas not a permutation of the five
    (edit("board.areas", ["OFF", "NOB", "ART", "NIL", "OFF"]),
     "pharaon.areas_not_a_permutation", "board.areas.4"),
    (edit("board.areas", ["OFF", "NOB", "ART", "NIL"]), "schema.list_length", "board.areas"),
    (edit("board.areas", ["OFF", "NOB", "ART", "NIL", "SKY"]), "schema.not_a_choice",
     "board.areas.4"),
    (edit("board.gods", [god("G")] * 4), "schema.list_length", "board.gods"),
    # a holder name that is not a player
    (edit("pharaoh", "Cy"), "pharaon.unknown_holder", "pharaoh"),
    (edit("first_player", "Zed"), "pharaon.unknown_holder", "first_player"),
    # more offerings of a class than the box holds (all players together)
    (document([player("Ana", offerings={**ZERO_OFFERINGS, "plus2": 3}),
               player("Bo", offerings={**ZERO_OFFERINGS, "plus2": 2})]),
     "pharaon.too_many_offerings", "players.1.offerings.plus2"),
    (document([player("Ana", offerings={**ZERO_OFFERINGS, "resource": 16})]
              + [player("Bo")], traitor=None), "pharaon.too_many_offerings",
     "players.0.offerings.resource"),
    (document([player("Ana", artisans=[1] * 20), player("Bo", artisans=[2] * 11)]),
     "pharaon.too_many_artisans", "players.1.artisans"),
    # players, names, game
    (document([player(f"P{i}", nobles=[i + 1]) for i in range(6)]),
     "pharaon.bad_player_count", "players"),
    (document([]), "schema.list_length", "players"),
    (document([player("Ana"), player("ana", nobles=[2])]), "pharaon.duplicate_name",
     "players.1.name"),
    (edit("game", "ra"), "score.wrong_game", "game"),
    # the tomb's start space scores nothing
    (edit("players.0.tomb_steps", 0), "pharaon.tomb_start_points", "players.0.tomb_points"),
    # the Traitor: only in a solo game, and required there
    (document([player("Ana")]), "pharaon.traitor_missing", "traitor"),
    (document(traitor=traitor()), "pharaon.traitor_not_solo", "traitor"),
    (document([player("Ana")], traitor=traitor(gods=[5])), "pharaon.bad_god_index",
     "traitor.gods.0"),
    (document([player("Ana")], traitor=traitor(gods=[1, 1])), "pharaon.bad_god_index",
     "traitor.gods.1"),
    (document([player("Ana")], traitor=traitor(nobles=[1])), "pharaon.noble_twice",
     "traitor.nobles.0"),
    (document([player("Ana")], traitor=traitor(nile=[9, 0, 0, 0, 0])), "schema.too_large",
     "traitor.nile.0"),
    (document([player("Ana")], traitor=traitor(name="Ana")), "pharaon.duplicate_name",
     "traitor.name"),
    # the group's copy, given in the document
    (document(edition={"scribes": [{"pair": ["RED", "RED"], "area": "OFF"}] * 5}),
     "pharaon.bad_edition_value", "edition.scribes.0.pair"),
])
def test_refusals_name_their_field(doc, code, field):
    assert (code, field) in violations(doc)


def test_every_violation_is_listed_at_once():
    doc = document([player("Ana", nobles=[30], basic=-1), player("Bo", nile=[5, 0, 0, 0, 0])],
                   pharaoh="Nobody")
    found = violations(doc)
    assert ("schema.negative", "players.0.basic") in found
    assert ("schema.too_large", "players.1.nile.0") in found


def test_game_rules_are_checked_even_with_a_shape_error_elsewhere():
    doc = document([player("Ana", nobles=[3, 3]), player("Bo", basic=-4)])
    found = violations(doc)
    assert ("schema.negative", "players.1.basic") in found
    assert ("pharaon.noble_twice", "players.0.nobles.1") in found


def test_holders_may_name_the_traitor_and_the_start_space_may_be_blank():
    doc = document([player("Ana", tomb_steps=0, tomb_points=None)],
                   traitor=traitor(name="Judas"), pharaoh="judas", first_player="Ana")
    sheet = score_final(doc)
    assert [p.name for p in sheet.players] == ["Ana", "Judas"]
    tokens = {p.name: next(c.points for c in p.categories if c.key == "tokens")
              for p in sheet.players}
    assert tokens == {"Ana": 3, "Judas": 7}


def test_blank_tomb_points_come_from_the_copy_where_it_prints_the_space():
    # the default copy prints space 1 (5 points, spec §9.1 U4); the sheet says it relied on it
    doc = document([player("Ana", tomb_steps=1, tomb_points=None), player("Bo", nobles=[2])])
    sheet = score_final(doc)
    ana = next(p for p in sheet.players if p.name == "Ana")
    assert next(c.points for c in ana.categories if c.key == "tomb") == 5
    assert "tomb_track" in [a.key for a in sheet.assumed]
    assert "tomb_track" not in [a.key for a in score_final(document()).assumed]
    # space 3 is not printed in the default copy: its points are asked for, naming the space
    with pytest.raises(InvalidDocument) as caught:
        score_final(document([player("Ana", tomb_steps=3, tomb_points=None),
                              player("Bo", nobles=[2])]))
    (violation,) = caught.value.violations
    assert violation.params == {"steps": 3} and violation.field == "players.0.tomb_points"


def test_the_form_gives_token_holders_as_seats_and_blank_god_names_are_numbers():
    doc = document(pharaoh=1, first_player=0)
    doc["board"]["gods"][2]["name"] = ""
    sheet = score_final(doc)
    tokens = {p.name: next(c.points for c in p.categories if c.key == "tokens")
              for p in sheet.players}
    assert tokens == {"Ana": 3, "Bo": 7}
    assert violations(document(pharaoh=2)) == [("schema.not_text", "pharaoh")]


def test_scribe_areas_come_from_the_document_or_the_copy():
    # Scribe 1 by default sits on OFF; the document may say NIL instead
    doc = document([player("Ana", nobles=[1], nile=[1, 1, 0, 0, 0], tomb_steps=2,
                           tomb_points=8, offerings={**ZERO_OFFERINGS, "resource": 4}),
                    player("Bo", nobles=[7])])
    default = score_final(doc)
    assert [a.key for a in default.assumed] == ["scribes"]
    doc["players"][0]["scribes"] = [{"card": 1, "area": "NIL"}]
    entered = score_final(doc)
    assert entered.assumed == ()
    # Every god wants 2 + 2: only god 3 (NIL|TMB) or god 4 (TMB|OFF) fits, not both (the
    # tomb has 2 steps). The Scribe adds 4 for a claimed god beside its area, so the claim
    # follows it: god 4 beside OFF, god 3 beside NIL; either way 6 + 8.
    gods_default, nobles_default = default.players[0].categories[:2]
    gods_entered, nobles_entered = entered.players[0].categories[:2]
    assert (gods_default.detail["indices"], gods_default.points, nobles_default.points) == (
        [4], 6, 8)
    assert (gods_entered.detail["indices"], gods_entered.points, nobles_entered.points) == (
        [3], 6, 8)


# ------------------------------------------------------------------------------------------
# The gods' claim against brute force (spec §5.2)
# ------------------------------------------------------------------------------------------

NOBLE_CHOICES = (1, 2, 3, 4, 5, 7, 12, 17, 20)


def brute_feasible(board, counts, chosen):
    """Each element of an area goes to the god on its left, on its right, or to none: try
    every way (3^count) and see whether every claimed half gets its threshold."""
    for j, area in enumerate(board.areas):
        left, right = (j - 1) % 5, j
        need_left = board.gods[left].b.threshold if left in chosen else 0
        need_right = board.gods[right].a.threshold if right in chosen else 0
        if not any(ways.count(1) >= need_left and ways.count(2) >= need_right
                   for ways in itertools.product((0, 1, 2), repeat=counts[area])):
            return False
    return True


def brute_nobles(nobles, scribe_areas, board, chosen):
    """The noble points of spec §4.6 for this claimed set, written out independently."""
    def value(card):
        if card in t.SCRIBES:
            j = board.areas.index(scribe_areas[card])
            return 4 + 4 * sum(1 for g in ((j - 1) % 5, j) if g in chosen)
        if card == 17:
            return 3 + 3 * len(chosen)
        if card == 12:
            return 3 + 3 * len(nobles)
        if card == 20:
            return max((value(other) for other in nobles if other != 20), default=0)
        return 10                                           # noble 7
    return sum(value(card) for card in nobles)


@st.composite
def boards_and_players(draw):
    areas = draw(st.permutations(t.AREAS))
    gods = tuple(God(f"G{g}", Half(draw(st.integers(0, 4)), draw(st.integers(0, 8))),
                     Half(draw(st.integers(0, 4)), draw(st.integers(0, 8))))
                 for g in range(5))
    counts = {area: draw(st.integers(0, 5)) for area in t.AREAS}
    nobles = tuple(draw(st.lists(st.sampled_from(NOBLE_CHOICES), max_size=5, unique=True)))
    scribe_areas = {card: draw(st.sampled_from(t.AREAS)) for card in nobles
                    if card in t.SCRIBES}
    return Board(tuple(areas), gods), counts, nobles, scribe_areas


@settings(max_examples=300, derandomize=True, deadline=None)
@given(boards_and_players())
def test_gods_claim_matches_brute_force(case):
    board, counts, nobles, scribe_areas = case
    tally = PlayerTally("A", nobles=nobles, scribe_areas=scribe_areas)
    mask, value = best_gods(board, counts, lambda m: nobles_total(tally, board, m)[0])
    best = max(sum(board.gods[g].points for g in chosen)
               + brute_nobles(nobles, scribe_areas, board, set(chosen))
               for size in range(6) for chosen in itertools.combinations(range(5), size)
               if brute_feasible(board, counts, set(chosen)))
    chosen = {g for g in range(5) if mask >> g & 1}
    assert value == best
    assert brute_feasible(board, counts, chosen)
    assert (sum(board.gods[g].points for g in chosen)
            + brute_nobles(nobles, scribe_areas, board, chosen)) == best


def test_a_seer_makes_two_cheap_gods_beat_one_dear_god():
    # The dear god (12) shares the one offering with cheap2 and the two nobles with cheap1;
    # cheap1 and cheap2 (5 each) share nothing. Without the Seer the dear god wins (12 > 10);
    # with him each god claimed is worth 3 more, so two cheap gods win (16 > 15).
    board = Board(tuple(t.AREAS), (
        God("dear", Half(1, 6), Half(2, 6)),      # OFF 1 / NOB 2
        God("cheap1", Half(1, 2), Half(0, 3)),    # NOB 1 / ART 0
        God("none2", Half(9, 0), Half(9, 0)),
        God("none3", Half(9, 0), Half(9, 0)),
        God("cheap2", Half(0, 2), Half(1, 3))))   # TMB 0 / OFF 1
    counts = {"OFF": 1, "NOB": 2, "ART": 0, "NIL": 0, "TMB": 0}
    plain = PlayerTally("A", nobles=(7, 9))
    seer = PlayerTally("A", nobles=(17, 9))
    plain_mask, plain_value = best_gods(board, counts,
                                        lambda m: nobles_total(plain, board, m)[0])
    seer_mask, seer_value = best_gods(board, counts, lambda m: nobles_total(seer, board, m)[0])
    assert (plain_mask, plain_value) == (0b00001, 12 + 20)
    assert (seer_mask, seer_value) == (0b10010, 10 + 3 + 3 * 2 + 10)


# ------------------------------------------------------------------------------------------
# Properties of whole documents
# ------------------------------------------------------------------------------------------


@st.composite
def documents(draw):
    count = draw(st.integers(2, 5))
    cards = draw(st.permutations(t.NOBLE_NUMBERS))
    players = []
    for i in range(count):
        nobles = list(cards[i * 4:i * 4 + draw(st.integers(1, 4))])
        steps = draw(st.integers(0, 8))
        players.append({
            "name": f"P{i}", "nobles": nobles,
            "artisans": draw(st.lists(st.integers(0, 6), max_size=5)),
            "nile": draw(st.lists(st.integers(0, 3), min_size=5, max_size=5)),
            "tomb_steps": steps, "tomb_points": 0 if steps == 0 else draw(st.integers(0, 60)),
            "basic": draw(st.integers(0, 8)), "silver": draw(st.integers(0, 4)),
            "offerings": {"resource": draw(st.integers(0, 3)), "area": draw(st.integers(0, 3)),
                          "plus1": draw(st.integers(0, 1)), "plus2": draw(st.integers(0, 0))}})
    gods = [god(f"G{g}", (draw(st.integers(0, 4)), draw(st.integers(0, 8))),
                (draw(st.integers(0, 4)), draw(st.integers(0, 8)))) for g in range(5)]
    names = [p["name"] for p in players] + [None]
    return {"game": "pharaon", "board": {"areas": list(draw(st.permutations(t.AREAS))),
                                         "gods": gods},
            "players": players, "pharaoh": draw(st.sampled_from(names)),
            "first_player": draw(st.sampled_from(names))}


@settings(max_examples=150, derandomize=True, deadline=None)
@given(documents(), st.randoms(use_true_random=False))
def test_scores_do_not_depend_on_player_order(doc, rng):
    sheet = score_final(doc)
    shuffled = copy.deepcopy(doc)
    rng.shuffle(shuffled["players"])
    again = score_final(shuffled)
    by_name = {p.name: (p.total, p.rank, p.categories) for p in sheet.players}
    assert {p.name: (p.total, p.rank, p.categories) for p in again.players} == by_name
    for p in sheet.players:
        assert p.total == sum(c.points for c in p.categories)
        assert [c.key for c in p.categories] == ["gods", "nobles", "nile", "leftovers",
                                                 "artisans", "tomb", "tokens"]
    best = max(p.total for p in sheet.players)
    top = [p for p in doc["players"] if by_name[p["name"]][0] == best]

    def leftovers(p):
        return p["basic"] + p["silver"] + sum(p["offerings"].values())

    if doc["pharaoh"] in [p["name"] for p in top]:
        expected = [doc["pharaoh"]]                     # §6.2 (1) the Pharaoh token
    else:
        most = max(leftovers(p) for p in top)           # §6.2 (2) most left, (3) shared
        expected = [p["name"] for p in top if leftovers(p) == most]
    assert sorted(sheet.winners) == sorted(expected)


def test_a_solo_game_is_won_or_lost_against_the_traitor():
    # §6.2, §7.7: the player wins with more points than the Traitor; a tie is his
    def solo(traitor_artisans):
        return score_final(document([player("Ana")], traitor=traitor(
            nobles=[], gods=[], tomb_steps=0, tomb_points=0, basic=0, silver=0, nile=[0] * 5,
            artisans=traitor_artisans)))
    ana_total = solo([]).players[0].total
    for artisans, reached in (([], True), ([ana_total - 1], True), ([ana_total], False),
                              ([ana_total + 1], False)):
        ana, rival = solo(artisans).players
        assert ana.goal is not None and ana.goal.reached is reached, artisans
        assert ana.goal.key == "pharaon.beat_the_traitor" and ana.goal.target is None
        assert (ana.rank == 1) is reached and rival.goal is None and rival.automated
        assert ana.as_dict()["breakdown"]["goal"]["reached"] is reached
    # with rivals, no goal: a rank among players
    assert all(p.goal is None for p in score_final(document()).players)


def test_the_form_ticks_the_traitor_s_gods_and_may_give_him_a_token():
    # the phone form's five boxes in board order, and its "traitor" holder choice
    doc = document([player("Ana")], traitor=traitor(gods=[False, True, False, True, False],
                                                    name=""), first_player="traitor")
    ana, rival = score_final(doc).players
    assert rival.name == "Traitor"
    gods = next(c for c in rival.categories if c.key == "gods")
    assert gods.detail["indices"] == [1, 3] and gods.points == 12
    assert next(c.points for c in rival.categories if c.key == "tokens") == 3
    assert next(c.points for c in ana.categories if c.key == "tokens") == 0
    # a player named "Traitor"… is who "traitor" names, if the Traitor goes by another name
    doc = document([player("traitor")], traitor=traitor(name="Judas"), pharaoh="traitor",
                   first_player=None)
    assert {p.name: next(c.points for c in p.categories if c.key == "tokens")
            for p in score_final(doc).players} == {"traitor": 7, "Judas": 0}
