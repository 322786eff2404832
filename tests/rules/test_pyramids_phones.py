"""Silver & Gold – Pyramids: what the phones send (pyramids/deal.py, marking.py), against
spec silver-gold-pyramids.md §3, §5 and issue 13.

1. The app deals (§3 for a group that plays with phones only): the deal and the offer are
   chance inputs any seat may let the app draw, and every seat keeps 2 of its 4 at once.
2. The whole step 2 as the cells a phone tapped (``marks``): read as the pattern plus the
   red-cross extra marks in an order that makes each legal; the refusals of §5.5 named at the
   cell the phone sent; every legal move said that way, in any order, plays the same.
3. Seeded play-outs of whole games as the phones play them (the app deals, draws every
   expedition card, every mark sent as a shuffled set of cells).
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from companion.rules.base import RuleViolation
from companion.rules.pyramids import PYRAMIDS
from companion.rules.pyramids import printed as t
from companion.rules.pyramids import ui
from companion.rules.pyramids.final import score_final
from companion.rules.pyramids.marking import MAX_MARKS, CellRef, read_marks
from tests.rules.pyramids_helpers import (NAMES, at, cards_in_play, cell, code, edition,
                                          fixture_game, hold, mark, new_game, refused, reveal)

# A card with red crosses: the L3 (0,0),(0,1),(1,0) covers the entrance and two crosses, and
# the cross at (3,0) can be reached only through (2,0).
CHAIN = ("EX...",
         "X....",
         ".....",
         "X....",
         "..B..")


def app_game(players: int = 3, cards: str = "ours", **entries: Any) -> dict[str, Any]:
    return PYRAMIDS.setup({"cards": cards}, NAMES[:players], {"dealer": "app"}, edition(**entries))


def same_cards(state: dict[str, Any]) -> dict[str, Any]:
    """The state with every card's marks as a set (the order they were made in aside)."""
    shown = json.loads(json.dumps(state))
    for player in shown["players"]:
        for card in player["open"]:
            card["cells" if "cells" in card else "codes"] = sorted(
                card.get("cells", card.get("codes")))
    return shown


def marks_of(move: dict[str, Any], rng: random.Random | None = None) -> dict[str, Any]:
    """A legal move said as the cells a phone tapped: pattern and extras together, shuffled."""
    cells = list(move["cells"]) + list(move.get("extra", ()))
    if rng is not None:
        rng.shuffle(cells)
    return {"type": "mark", "marks": cells}


# --------------------------------------------------------------------------------------------
# 1. The app deals
# --------------------------------------------------------------------------------------------


def test_the_app_deals_then_everyone_keeps_two_at_once_then_the_offer():
    state = app_game(3)
    assert state["phase"] == "deal" and state["deck"] == list(range(1, 49))
    assert all(p["open"] == [] and p["dealt"] == [] for p in state["players"])
    assert PYRAMIDS.awaiting(state).seats == {0, 1, 2}
    chance = PYRAMIDS.chance(state)
    assert (chance.move, chance.key, chance.draws, chance.seats) == (
        {"type": "deal"}, "cards", 12, {0, 1, 2})
    assert PYRAMIDS.prompts(state, 2) == {"moves": ["deal"], "count": 12, "draw": True}
    dealt = chance.draw(random.Random(7))["cards"]
    assert len(set(dealt)) == 12
    state = PYRAMIDS.apply(state, 2, {"type": "deal", "cards": dealt})
    assert [p["dealt"] for p in state["players"]] == [dealt[0:4], dealt[4:8], dealt[8:12]]
    assert state["phase"] == "keep" and len(state["deck"]) == 36
    waiting = PYRAMIDS.awaiting(state)
    assert waiting.seats == {0, 1, 2} and waiting.step == "setup:keep"
    prompt = PYRAMIDS.prompts(state, 1)
    assert prompt["moves"] == ["keep"] and [c["number"] for c in prompt["dealt"]] == dealt[4:8]
    assert all(c["grid"] and c["marked"] == [] for c in prompt["dealt"])
    shown = PYRAMIDS.view(state, 0, {})
    assert shown["players"][0]["dealt"] == dealt[0:4] and shown["players"][1]["dealt"] is None

    # the three keeps commute: any order gives the same state
    keeps = {0: dealt[2:4], 1: [dealt[4], dealt[7]], 2: dealt[8:10]}
    results = []
    for order in ((0, 1, 2), (2, 0, 1), (1, 2, 0)):
        after = state
        for seat in order:
            after = PYRAMIDS.apply(after, seat, {"type": "keep", "cards": keeps[seat]})
        results.append(after)
    assert results[0] == results[1] == results[2]
    state = results[0]
    assert [[c["number"] for c in p["open"]] for p in state["players"]] == [
        keeps[0], keeps[1], keeps[2]]
    # the 6 cards returned are shuffled back: the deck is every card nobody keeps
    assert state["phase"] == "offer" and len(state["deck"]) == 42
    assert set(dealt) - {n for k in keeps.values() for n in k} <= set(state["deck"])
    chance = PYRAMIDS.chance(state)
    assert chance.draws == 4 and chance.seats == {0, 1, 2}
    assert PYRAMIDS.prompts(state, 0) == {"moves": ["offer"], "count": 4, "draw": True}
    state = PYRAMIDS.apply(state, 0, chance.draw(random.Random(1)))
    assert state["phase"] == "reveal" and len(state["offer"]) == 4 and len(state["deck"]) == 38
    assert cards_in_play(state) == list(range(1, 49))
    assert PYRAMIDS.prompts(state, 1)["draw"] is True


def test_refusals_while_the_app_deals():
    state = app_game(2)
    refused(state, 0, {"type": "deal", "cards": list(range(1, 8))}, "pyramids.deal_count",
            "move.cards")
    refused(state, 0, {"type": "deal", "cards": [1, 2, 3, 4, 5, 6, 7, 1]},
            "pyramids.not_in_deck", "move.cards.7")
    refused(state, 0, {"type": "deal", "cards": "all"}, "pyramids.bad_move", "move.cards")
    refused(state, 0, {"type": "reveal", "shape": "I2"}, "pyramids.wrong_phase")
    state = PYRAMIDS.apply(state, 0, {"type": "deal", "cards": [1, 2, 3, 4, 5, 6, 7, 8]})
    refused(state, 0, {"type": "keep", "cards": [1]}, "pyramids.keep_count", "move.cards")
    refused(state, 0, {"type": "keep", "cards": [1, 5]}, "pyramids.kept_not_dealt",
            "move.cards.1")
    refused(state, 0, {"type": "keep", "cards": [2, 2]}, "pyramids.kept_not_dealt",
            "move.cards.1")
    state = PYRAMIDS.apply(state, 0, {"type": "keep", "cards": [1, 2]})
    refusal = refused(state, 0, {"type": "keep", "cards": [3, 4]}, "pyramids.already_kept")
    assert "Tomáš" in refusal.render()
    assert PYRAMIDS.prompts(state, 0) == {"moves": [], "still_marking": [1]}
    state = PYRAMIDS.apply(state, 1, {"type": "keep", "cards": [7, 8]})
    refused(state, 1, {"type": "offer", "cards": [1, 9, 10, 11]}, "pyramids.not_in_deck",
            "move.cards.0")
    refused(state, 1, {"type": "offer", "cards": [9, 10, 11]}, "pyramids.refill_count",
            "move.cards")
    state = PYRAMIDS.apply(state, 1, {"type": "offer", "cards": [3, 9, 10, 11]})   # 3 came back
    assert state["offer"] == [3, 9, 10, 11] and 3 not in state["deck"]


def test_legal_moves_while_the_app_deals_are_legal():
    state = app_game(4, "published")
    for phase in ("deal", "keep", "offer"):
        assert state["phase"] == phase
        for seat in sorted(PYRAMIDS.awaiting(state).seats):
            moves = PYRAMIDS.legal_moves(state, seat)
            assert moves and len(moves) == (6 if phase == "keep" else 1)
            for move in moves:
                PYRAMIDS.validate(state, seat, move)
            state = PYRAMIDS.apply(state, seat, moves[-1])
            if phase != "keep":
                break
    assert state["phase"] == "reveal"
    assert all(len(p["open"]) == 2 and all("codes" in c for c in p["open"])
               for p in state["players"])


def test_the_app_deal_needs_no_set_up_but_a_table_deal_does():
    assert app_game(2)["phase"] == "deal"
    with pytest.raises(RuleViolation) as caught:
        PYRAMIDS.setup({}, NAMES[:2], {"dealer": "table"}, edition())
    assert (caught.value.code, caught.value.field) == ("pyramids.deal_needed", "hands")
    # what else the form sends with an app deal is not used
    ignored = {**PYRAMIDS.default_setup(2), "dealer": "app"}
    assert PYRAMIDS.setup({}, NAMES[:2], ignored, edition()) == app_game(2)
    unused = {"dealer": "app", "hands": [{}, {"kept": [99]}], "offer": "x"}
    assert PYRAMIDS.setup({}, NAMES[:2], unused, edition()) == app_game(2)
    assert PYRAMIDS.setup({}, NAMES[:2], PYRAMIDS.default_setup(2), edition())["phase"] == "reveal"


# --------------------------------------------------------------------------------------------
# 2. The whole step as the cells tapped
# --------------------------------------------------------------------------------------------


def test_p4_tapped_in_any_order_plays_like_the_pattern_and_its_extra():
    """Spec §12.3 P4: the square with the red cross, then one extra mark at (1,4)."""
    state = reveal(fixture_game(), "O4")
    square = at(1, (0, 2), (0, 3), (1, 2), (1, 3))
    expected = PYRAMIDS.apply(state, 0, mark(*square, extra=[cell(1, 1, 4)]))
    taps = [cell(1, 1, 4), square[3], square[0], square[2], square[1]]
    assert PYRAMIDS.apply(state, 0, {"type": "mark", "marks": taps}) == expected
    assert read_marks(state, 0, [CellRef.of(r) for r in taps]) == (
        [CellRef.of(r) for r in square], [CellRef.of(cell(1, 1, 4))])
    # the order of the taps changes nothing, not even the order the cells are kept in
    assert all(PYRAMIDS.apply(state, 0, {"type": "mark", "marks": taps[k:] + taps[:k]}) == expected
               for k in range(5))


def test_extras_are_ordered_so_that_each_is_legal_when_made():
    """The first legal plain cell, (0,2), would use up the last extra mark and strand the cross
    at (3,0): the reading marks (2,0) first, then the cross it opens, then (0,2)."""
    state = reveal(new_game(2, "published", card_layouts=[
        {"number": 1, "colour": "purple", "grid": list(CHAIN)}]), "L3")
    taps = at(1, (0, 2), (0, 0), (3, 0), (1, 0), (2, 0), (0, 1))
    after = PYRAMIDS.apply(state, 0, {"type": "mark", "marks": taps})
    expected = PYRAMIDS.apply(state, 0, mark(*at(1, (0, 0), (1, 0), (0, 1)),
                                      extra=at(1, (2, 0), (3, 0), (0, 2))))
    assert same_cards(after) == same_cards(expected)
    assert sorted(after["players"][0]["open"][0]["cells"]) == [0, 1, 2, 5, 10, 15]


def test_a_single_cell_with_its_chain_of_extras():
    """The single cell may be a red cross: its extra mark follows (§5.2, §5.3); no four of
    the cells make the revealed I4, so they are read as one cell and its extra."""
    state = new_game(2, "published", card_layouts=[
        {"number": 1, "colour": "purple", "grid": list(CHAIN)}])
    state = reveal(hold(state, 0, [(1, [(0, 0)]), (2, [])]), "I4")
    after = PYRAMIDS.apply(state, 0, {"type": "mark", "marks": at(1, (0, 2), (0, 1))})
    assert sorted(after["players"][0]["open"][0]["cells"]) == [0, 1, 2]
    assert same_cards(after) == same_cards(
        PYRAMIDS.apply(state, 0, mark(cell(1, 0, 1), extra=[cell(1, 0, 2)])))


@pytest.mark.parametrize("taps, code_, field", [
    ([], "pyramids.nothing_marked", "move.marks"),
    # P2: the first marking lacks the entrance
    (at(1, (1, 1), (1, 2), (1, 3)), "SGP_NO_ENTRANCE", "move.marks"),
    # three cells, not a line: neither the pattern nor a cross's chain
    (at(1, (0, 2), (1, 2), (1, 1)), "SGP_NOT_SHAPE", "move.marks"),
    # P1 and one cell more: no red cross asks for it
    (at(1, (0, 2), (1, 2), (2, 2), (0, 1)), "pyramids.extra_not_due", "move.marks.3"),
    # P12: off the grid (and over a wall)
    ([cell(1, 0, 3), cell(1, 0, 4), cell(1, 0, 5)], "SGP_OUT_OF_GRID", "move.marks.2"),
    # one cell: a wall
    ([cell(1, 0, 0)], "SGP_WALL", "move.marks.0"),
    # a pattern spread over both cards is read as a single cell and extras that are not due
    ([cell(1, 0, 2), cell(1, 1, 2), cell(3, 0, 2)], "SGP_NOT_SHAPE", "move.marks"),
    ([cell(7, 0, 2)], "pyramids.not_your_card", "move.marks.0.card"),
])
def test_tapped_cells_that_are_no_legal_step(taps, code_, field):
    state = reveal(fixture_game(), "I3")
    refused(state, 0, {"type": "mark", "marks": taps}, code_, field)


def test_the_square_with_its_cross_but_without_the_extra():
    state = reveal(fixture_game(), "O4")
    refused(state, 0, {"type": "mark", "marks": at(1, (0, 2), (0, 3), (1, 2), (1, 3))},
            "SGP_CROSS_PENDING", "move.marks")


@pytest.mark.parametrize("move", [
    {"type": "mark", "marks": [cell(1, 0, 2)], "cells": [cell(1, 0, 2)]},
    {"type": "mark", "marks": [cell(1, 0, 2)], "extra": []},
    {"type": "mark", "marks": [{"card": 1, "code": "E"}]},
    {"type": "mark", "marks": "0,2"},
    {"type": "mark", "marks": [cell(1, 0, 2)] * (MAX_MARKS + 1)},
])
def test_malformed_marks(move):
    state = reveal(fixture_game(), "I3")
    with pytest.raises(RuleViolation) as caught:
        PYRAMIDS.apply(state, 0, move)
    assert caught.value.code == "pyramids.bad_move"
    assert caught.value.field.startswith("move.marks")


def test_every_legal_move_said_as_shuffled_taps_plays_the_same():
    """On positions of seeded games on our cards: each legal mark of each awaited seat, its
    cells shuffled into one list, gives exactly the state the move gives."""
    rng = random.Random(13)
    checked = 0
    for seed in range(4):
        state, _ = phone_game(seed, stop_after=5 + 6 * seed)
        for seat in sorted(PYRAMIDS.awaiting(state).seats) if state["phase"] == "mark" else ():
            for move in PYRAMIDS.legal_moves(state, seat):
                if move["type"] != "mark":
                    continue
                assert same_cards(PYRAMIDS.apply(state, seat, marks_of(move, rng))) == same_cards(
                    PYRAMIDS.apply(state, seat, move))
                checked += 1
    assert checked > 100


# --------------------------------------------------------------------------------------------
# 3. Whole games as the phones play them
# --------------------------------------------------------------------------------------------


def phone_game(seed: int, stop_after: int | None = None
               ) -> tuple[dict[str, Any], list[tuple[int, dict[str, Any]]]]:
    """A game of 2-4 players on our cards: the app deals and draws, the phones keep and tap."""
    rng = random.Random(seed)
    players = 2 + seed % 3
    state = app_game(players)
    log = []
    marks_steps = 0
    while not PYRAMIDS.is_over(state):
        waiting = PYRAMIDS.awaiting(state)
        if state["phase"] in ("mark", "keep"):
            marks_steps += state["phase"] == "mark"
            if stop_after is not None and marks_steps > stop_after:
                break
            seats = sorted(waiting.seats)
            rng.shuffle(seats)
            for seat in seats:                  # all on the step's first version
                move = rng.choice(PYRAMIDS.legal_moves(state, seat))
                if move["type"] == "mark":
                    move = marks_of(move, rng)
                state = PYRAMIDS.apply(state, seat, move)
                log.append((seat, move))
            continue
        seat = rng.choice(sorted(waiting.seats))
        chance = PYRAMIDS.chance(state)
        move = (chance.draw(rng) if chance and (state["phase"] != "replace" or rng.random() < .5)
                else rng.choice(PYRAMIDS.legal_moves(state, seat)))
        state = PYRAMIDS.apply(state, seat, move)
        log.append((seat, move))
        assert cards_in_play(state) == list(range(1, 49))
    return state, log


@pytest.mark.parametrize("seed", range(6))
def test_whole_games_as_the_phones_play_them(seed):
    state, log = phone_game(seed)
    assert PYRAMIDS.is_over(state) and (state["round"], state["turn"]) == (4, 7)
    again = app_game(len(state["names"]))
    for seat, move in log:
        again = PYRAMIDS.apply(again, seat, move)
    assert again == state and json.loads(json.dumps(state)) == state
    sheet = PYRAMIDS.score(state)
    assert sheet.complete
    assert score_final(PYRAMIDS.final_document(state)).as_dict() == sheet.as_dict()
    assert sum(len(p["completed"]) for p in state["players"]) > 0
    assert sum(1 for _, m in log if m["type"] == "keep") == len(state["names"])
    assert sum(1 for _, m in log if m["type"] == "mark") > 20 * len(state["names"])
    assert t.ROUNDS * t.TURNS_PER_ROUND == sum(1 for _, m in log if m["type"] == "reveal")


# --------------------------------------------------------------------------------------------
# 4. What the page says of the taps before they are sent (issue 20): from the referee's rules
# --------------------------------------------------------------------------------------------


def taps(*cells: dict[str, int]) -> dict[str, Any]:
    return {"type": "mark", "marks": list(cells)}


def listed(state: dict[str, Any], seat: int) -> set[frozenset]:
    """The markings the page offers as accepted, each as the set of its chambers."""
    return {frozenset((c["card"], c["row"], c["col"]) for c in m["cells"] + m["extra"])
            for m in PYRAMIDS.prompts(state, seat)["markings"]}


def as_key(cells) -> str:
    return ui.tap_readings([{"cells": list(cells), "extra": []}]).popitem()[0]


@pytest.mark.parametrize("shape, before, pattern, problem", [
    # P2: the line is the revealed I3 but a fresh card's first marking lacks the entrance
    ("I3", [], at(1, (1, 1), (1, 2), (1, 3)), "SGP_NO_ENTRANCE"),
    # P8: after P1 the I3 down the right edge touches no mark
    ("I3", [(0, 2), (1, 2), (2, 2)], at(1, (1, 4), (2, 4), (3, 4)), "SGP_NOT_CONNECTED"),
])
def test_a_pattern_the_page_once_said_fits_is_refused_by_both(shape, before, pattern, problem):
    """The page used to say "The pattern fits." for any taps in the revealed shape on one card
    (static/games/pyramids.js matched the shape only); the referee refuses these. Now the page
    lists the referee's own markings: these are not among them, and the page names the same
    rule the referee gives."""
    state = reveal(hold(fixture_game(), 0, [(1, before), (2, [])]), shape)
    refused(state, 0, taps(*pattern), problem, "move.marks")
    assert frozenset((c["card"], c["row"], c["col"]) for c in pattern) not in listed(state, 0)
    shown = PYRAMIDS.prompts(state, 0)
    assert as_key(pattern) not in ui.tap_readings(shown["markings"])
    assert ui.tap_blocked(shown["cards"])[as_key(pattern)] == problem
    assert problem in ui.problem_messages


def test_the_page_lists_p4_with_its_extra_and_not_without():
    """P4: the square holds a red cross, so the square alone is refused (SGP_CROSS_PENDING)
    and is not listed; with the extra mark at (1,4) it is."""
    state = reveal(fixture_game(), "O4")
    square = at(1, (0, 2), (0, 3), (1, 2), (1, 3))
    refused(state, 0, taps(*square), "SGP_CROSS_PENDING", "move.marks")
    readings = ui.tap_readings(PYRAMIDS.prompts(state, 0)["markings"])
    assert as_key(square) not in readings
    assert readings[as_key(square + [cell(1, 1, 4)])] == as_key(square)
    assert as_key(square + [cell(1, 3, 2)]) not in readings       # (3,2) touches no mark


def test_the_markings_listed_are_exactly_the_taps_the_referee_accepts():
    """On positions of seeded games on our cards and on the §12.3 fixture card: every listed
    marking is accepted as taps, and the taps one chamber away from a listed marking (one
    more, one less, one moved) and random handfuls are accepted exactly when listed."""
    rng = random.Random(20)
    positions = [reveal(fixture_game(), shape) for shape in ("I3", "O4", "L3")]
    for seed in range(3):
        positions += [phone_game(seed, stop_after=3 + 7 * k)[0] for k in range(3)]
    agreed = 0
    for state in positions:
        if state["phase"] != "mark":
            continue
        for seat in sorted(PYRAMIDS.awaiting(state).seats):
            accepted = listed(state, seat)
            player = state["players"][seat]
            free = [(c["number"], r, k) for c in player["open"] if "cells" in c
                    for r in range(t.GRID) for k in range(t.GRID)
                    if r * t.GRID + k not in c["cells"]]
            tries = list(accepted)
            for marking in accepted:
                for _ in range(3):
                    near = set(marking)
                    if rng.random() < .6 and len(near) > 1:
                        near.discard(rng.choice(sorted(near)))
                    if rng.random() < .6:
                        near.add(rng.choice(free))
                    tries.append(frozenset(near))
            tries += [frozenset(rng.sample(free, rng.randint(1, min(5, len(free)))))
                      for _ in range(20)]
            for chambers in tries:
                move = taps(*(cell(*c) for c in sorted(chambers)))
                try:
                    PYRAMIDS.validate(state, seat, move)
                    verdict = True
                except RuleViolation:
                    verdict = False
                assert verdict == (chambers in accepted), sorted(chambers)
                agreed += 1
    assert agreed > 2000


def test_a_record_card_offers_the_tomb_only_where_a_report_may_hold_it():
    """Record mode: the tomb lies in the bottom row, so it is at least the 5th mark of a
    card; the page offers it from the number of chambers the referee asks (tomb_needs)."""
    state = hold(new_game(2, "published"), 0, [(1, ["E", ".", "."]), (2, [])])
    state = reveal(state, "I2")
    cards = {c["number"]: c for c in PYRAMIDS.prompts(state, 0)["cards"]}
    assert cards[1]["tomb_needs"] == 2 and cards[2]["tomb_needs"] == 5
    refused(state, 0, mark(code(1, "B")), "SGP_NOT_CONNECTED", "move.cells.0")
    PYRAMIDS.validate(state, 0, mark(code(1, "."), code(1, "B"),
                                     completed=[{"number": 1, "colour": "green"}]))
    state = hold(state, 0, [(1, ["E", ".", ".", ".", "B"]), (2, [])])
    assert PYRAMIDS.prompts(state, 0)["cards"][0]["tomb_needs"] is None
