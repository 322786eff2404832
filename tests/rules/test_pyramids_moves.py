"""Silver & Gold – Pyramids: every move declared once (issue 19), as the referee table holds it.

A malformed move of each kind is refused as ``pyramids.bad_move`` naming the argument in the
player's words; a seat that is not awaited is offered no move; the ruleset forwards nothing.
"""

from __future__ import annotations

import re
from typing import Any, Callable

import pytest

from companion.rules.base import (BoolField, InvalidDocument, ListField, ObjectField,
                                  RuleViolation)
from companion.rules.pyramids import PYRAMIDS, PyramidsRuleset
from companion.rules.pyramids.referee import REFEREE
from tests.rules.pyramids_helpers import (PATH, NAMES, cell, code, edition, hold, mark, new_game,
                                          refused, reveal, turn)

# ---- positions, one per phase ----------------------------------------------------------------


def dealing() -> dict[str, Any]:
    return PYRAMIDS.setup({}, NAMES[:2], {"dealer": "app"}, edition())


def keeping() -> dict[str, Any]:
    return PYRAMIDS.apply(dealing(), 0, {"type": "deal", "cards": [1, 2, 3, 4, 5, 6, 7, 8]})


def offering() -> dict[str, Any]:
    state = PYRAMIDS.apply(keeping(), 0, {"type": "keep", "cards": [1, 2]})
    return PYRAMIDS.apply(state, 1, {"type": "keep", "cards": [5, 6]})


def marking() -> dict[str, Any]:
    return reveal(new_game(2), "I3")


def replacing() -> dict[str, Any]:
    """Seat 0 completed card 1 (record mode): it takes a new card, then refills the offer."""
    state = hold(new_game(2, "published"), 0, [(1, PATH), (2, PATH)])
    return turn(state, "I2", {0: mark(code(1, "B"),
                                      completed=[{"number": 1, "colour": "green"}])})


def refilling() -> dict[str, Any]:
    return PYRAMIDS.apply(replacing(), 0, {"type": "take", "source": "offer", "card": 5})


POSITIONS: dict[str, Callable[[], dict[str, Any]]] = {
    "deal": dealing, "keep": keeping, "offer": offering, "reveal": lambda: new_game(2),
    "mark": marking, "replace": replacing, "refill": refilling}

# ---- malformed moves of every kind -------------------------------------------------------------

MALFORMED = [
    # (phase, move, field, the argument in words)
    ("deal", {"type": "deal", "cards": "all"}, "move.cards", "Cards"),
    ("deal", {"type": "deal", "cards": [1, 2, 3, 4, 5, 6, 7, 80]}, "move.cards.7",
     "Cards › Card 8"),
    ("keep", {"type": "keep"}, "move.cards", "Cards"),
    ("keep", {"type": "keep", "cards": [1, True]}, "move.cards.1", "Cards › Card 2"),
    ("offer", {"type": "offer", "cards": [9, 10, "11", 12]}, "move.cards.2", "Cards › Card 3"),
    ("reveal", {"type": "reveal"}, "move.shape", "Expedition card"),
    ("reveal", {"type": "reveal", "shape": "Z5"}, "move.shape", "Expedition card"),
    ("mark", {"type": "mark"}, "move.cells", "Chambers marked"),
    ("mark", {"type": "mark", "cells": [{"card": 1, "row": "0", "col": 0}]},
     "move.cells.0.row", "Chambers marked › Chamber 1 › Row"),
    ("mark", {"type": "mark", "cells": [{"card": 1, "row": 0}]}, "move.cells.0.col",
     "Chambers marked › Chamber 1 › Column"),
    ("mark", {"type": "mark", "cells": [{"card": 1, "row": 0, "col": 2, "code": "E"}]},
     "move.cells.0.code", "Chambers marked › Chamber 1 › Symbol"),
    ("mark", {"type": "mark", "cells": [cell(1, 0, 2)], "extra": [{"row": 0, "col": 1}]},
     "move.extra.0.card", "Extra marks for red crosses › Extra mark 1 › Card number"),
    ("mark", {"type": "mark", "cells": [cell(1, 0, 2), {"card": 1, "code": "Q"}]},
     "move.cells.1.code", "Chambers marked › Chamber 2 › Symbol"),
    ("mark", {"type": "mark", "cells": [{"card": 1, "row": 0, "col": 2, "side": 1}]},
     "move.cells.0.side", "Chambers marked › Chamber 1"),         # nested objects are strict
    ("mark", {"type": "mark", "marks": [{"card": 1, "code": "E"}]}, "move.marks.0.code",
     "Chambers tapped › Chamber 1"),
    ("mark", {"type": "mark", "marks": [cell(1, 0, 2)], "cells": [cell(1, 0, 2)]},
     "move.marks", "Chambers tapped"),
    ("mark", {"type": "mark", "cells": [cell(1, 0, 2)], "potion_first": "yes"},
     "move.potion_first", "The potion counts before the skull"),
    ("mark", {"type": "mark", "cells": [cell(1, 0, 2)], "torch": 9}, "move.torch",
     "Torch box ticked"),
    ("mark", {"type": "mark", "cells": [cell(1, 0, 2)], "race": ["green", "green"]},
     "move.race.1", "Pyramid points claimed › Colour 2"),
    ("mark", {"type": "mark", "cells": [cell(1, 0, 2)],
              "completed": [{"number": 1, "colour": "red"}]},
     "move.completed.0.colour", "Cards completed › Card 1 › Colour"),
    ("replace", {"type": "take", "source": "pile", "card": 5}, "move.source",
     "Where the card comes from"),
    ("replace", {"type": "take", "source": "offer"}, "move.card", "Card number"),
    ("refill", {"type": "refill", "cards": [0]}, "move.cards.0", "Cards › Card 1"),
]

_INTERNAL_PATH = re.compile(r"\b(cells|extra|marks|race|completed|cards)\.\d")


@pytest.mark.parametrize("phase, move, field, words", MALFORMED,
                         ids=[f"{m[0]}:{m[2]}" for m in MALFORMED])
def test_a_malformed_move_is_refused_naming_the_argument_in_words(phase, move, field, words):
    state = POSITIONS[phase]()
    assert state["phase"] == phase
    seat = min(PYRAMIDS.awaiting(state).seats)
    refusal = refused(state, seat, move, "pyramids.bad_move", field)
    said = refusal.render()
    assert said.startswith(words) and not _INTERNAL_PATH.search(said), said


def test_every_move_is_declared_with_labelled_arguments():
    """No hand-written parser is left: each kind declares its arguments (pass has none)."""
    rules = PYRAMIDS.move_rules()
    assert {rule.kind for rule in rules} == {"deal", "keep", "offer", "reveal", "mark", "pass",
                                             "take", "refill"}

    def labelled(field: Any) -> bool:
        if isinstance(field, ObjectField):
            return bool(field.label) and all(labelled(f) for f in field.fields)
        if isinstance(field, ListField):
            return bool(field.label and field.item_label) and labelled(field.item)
        return bool(field.label)

    for rule in rules:
        assert rule.args or rule.kind == "pass", rule.kind
        assert all(labelled(field) for field in rule.args), rule.kind


def test_the_skull_and_potion_order_is_left_to_the_table_unless_the_move_says_it():
    """potion_first is an optional true-or-false: missing, the table's option decides."""
    assert isinstance(next(f for f in REFEREE.rules["mark"].args if f.key == "potion_first"),
                      BoolField)
    said = [REFEREE.parse({"type": "mark", "cells": [cell(1, 0, 2)], **extra})[1]["potion_first"]
            for extra in ({}, {"potion_first": None}, {"potion_first": False},
                          {"potion_first": True})]
    assert said == [None, None, False, True]


# ---- a seat that is not awaited ----------------------------------------------------------------


def test_a_seat_that_is_not_awaited_gets_no_moves():
    state = PYRAMIDS.apply(keeping(), 0, {"type": "keep", "cards": [1, 2]})
    assert PYRAMIDS.prompts(state, 0) == {"moves": [], "still_marking": [1]}
    assert PYRAMIDS.legal_moves(state, 0) == []
    assert PYRAMIDS.prompts(state, 1)["moves"] == ["keep"] and PYRAMIDS.legal_moves(state, 1)

    state = marking()
    state = PYRAMIDS.apply(state, 1, PYRAMIDS.legal_moves(state, 1)[0])
    assert PYRAMIDS.prompts(state, 1) == {"moves": [], "still_marking": [0]}
    assert PYRAMIDS.legal_moves(state, 1) == []
    assert PYRAMIDS.prompts(state, 0)["moves"][0] == "mark" and PYRAMIDS.legal_moves(state, 0)

    for state in (replacing(), refilling()):
        assert PYRAMIDS.awaiting(state).seats == {0}
        assert PYRAMIDS.prompts(state, 1) == {"moves": []}
        assert PYRAMIDS.legal_moves(state, 1) == []
        assert PYRAMIDS.prompts(state, 0)["moves"] and PYRAMIDS.legal_moves(state, 0)

    over = {**new_game(2), "phase": "over"}
    assert [PYRAMIDS.prompts(over, s) for s in (0, 1)] == [{"moves": []}] * 2
    assert [PYRAMIDS.legal_moves(over, s) for s in (0, 1)] == [[], []]


def test_the_ruleset_forwards_nothing():
    """The seam's live members come from the referee (base.GameRules), not from the game."""
    assert PYRAMIDS.referee is REFEREE
    own = vars(PyramidsRuleset)
    assert not {"apply", "validate", "awaiting", "prompts", "legal_moves", "is_over"} & set(own)


# ---- the tomb in record mode (issue 20's audit) ---------------------------------------------
# Seed 001 ("Jako první musíte zakřížkovat vstupní políčko v horním řádku ... Pomocí dalších
# křížků musíte vytvořit souvislou trasu ... od vstupního políčka ke zlaté hrobce ve spodním
# řádku"; spec §2.1: entrance in row 0, tomb in row 4; §5.2: every mark touches an earlier
# one): a path from the top row to the bottom row has a mark in each of the 5 rows, so a record
# card's tomb is at least its 5th mark, whether it comes alone, in a pattern or as an extra.

GREEN = [{"number": 1, "colour": "green"}]


def recording(shape: str, card_1: tuple, card_2: tuple = ()) -> dict[str, Any]:
    return reveal(hold(new_game(2, "published"), 0, [(1, card_1), (2, card_2)]), shape)


@pytest.mark.parametrize("marks", [("E",), ("E", "."), ("E", ".", ".")])
def test_the_tomb_is_not_reached_before_the_fifth_mark(marks):
    state = recording("I2", marks)
    violation = refused(state, 0, mark(code(1, "B"), completed=GREEN), "SGP_NOT_CONNECTED",
                        "move.cells.0")
    assert violation.render() == (
        "The tomb lies in the bottom row: the path from the entrance reaches it with at least "
        f"5 marks on the card, and this card would have {len(marks) + 1}.")
    tombs = [m for m in PYRAMIDS.legal_moves(state, 0)
             if any(c.get("code") == "B" for c in m.get("cells", ()))]
    assert tombs == []


def test_the_tomb_as_the_fifth_mark_completes_the_card():
    state = recording("I2", PATH)
    after = PYRAMIDS.apply(state, 0, mark(code(1, "B"), completed=GREEN))
    assert after["players"][0]["completed"] == GREEN
    offered = [m for m in PYRAMIDS.legal_moves(state, 0)
               if any(c.get("code") == "B" for c in m.get("cells", ()))]
    assert [c["card"] for m in offered for c in m["cells"]] == [1]
    for move in offered:                      # what legal_moves offers is accepted
        PYRAMIDS.validate(state, 0, move)


def test_the_marks_of_a_pattern_count_together_toward_the_tomb():
    refused(recording("O4", ()), 0, mark(code(1, "E"), code(1, "."), code(1, "."),
                                         code(1, "B"), completed=GREEN),
            "SGP_NOT_CONNECTED", "move.cells.3")
    refused(recording("I3", ("E",)), 0, mark(code(1, "."), code(1, "."), code(1, "B"),
                                             completed=GREEN),
            "SGP_NOT_CONNECTED", "move.cells.2")
    after = PYRAMIDS.apply(recording("I3", ("E", ".")), 0, mark(
        code(1, "."), code(1, "."), code(1, "B"), completed=GREEN))
    assert after["players"][0]["completed"] == GREEN


def test_a_red_cross_extra_mark_on_the_tomb_counts_the_marks_made_before_it():
    state = recording("I2", ("E", ".", "."), ("E",))
    refused(state, 0, mark(code(2, "."), code(2, "X"), extra=[code(1, "B")], completed=GREEN),
            "SGP_NOT_CONNECTED", "move.extra.0")
    after = PYRAMIDS.apply(state, 0, mark(code(1, "."), code(1, "X"), extra=[code(1, "B")],
                                          completed=GREEN))
    assert after["players"][0]["completed"] == GREEN


@pytest.mark.parametrize("seat", ["0", None, 1.5, True])
def test_a_seat_that_is_not_a_whole_number_is_refused_naming_it(seat):
    for check in (PYRAMIDS.apply, PYRAMIDS.validate):
        with pytest.raises(RuleViolation) as caught:
            check(marking(), seat, {"type": "pass"})
        assert (caught.value.code, caught.value.field) == ("pyramids.bad_seat", "seat")


@pytest.mark.parametrize("document", [None, [], "pyramids", 3])
def test_a_final_document_that_is_not_an_object_is_refused(document):
    with pytest.raises(InvalidDocument) as caught:
        PYRAMIDS.score_final(document)
    assert [v.code for v in caught.value.violations] == ["schema.not_object"]
