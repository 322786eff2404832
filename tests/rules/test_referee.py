"""The shared referee (rules/referee.py): moves declared once, refused in the player's words,
and the live members GameRules derives from the referee (issue 19)."""

from __future__ import annotations

import pytest

from companion.rules.base import (Awaiting, BoolField, ChoiceField, Edition, IntField,
                                  ListField, N_, ObjectField, RuleViolation, Term)
from companion.rules.referee import BadArgument, MoveRule, Referee
from tests.toygame import TOY, ToyGuess

from .refusals import assert_refused

GOD = ObjectField("god", N_("God"), (
    IntField("a", N_("First threshold"), max=20, default=None),
    IntField("b", N_("Second threshold"), max=20, default=None, optional=True),
))
RULES = (
    MoveRule("enter", Term(N_("enter values")), args=(
        ListField("gods", N_("Gods"), GOD, min_items=1, max_items=3, required=True,
                  item_label=N_("God %(n)d")),
        ChoiceField("where", N_("Where"), ("bag", 0, 1), default="bag"),
        ListField("kinds", N_("Kinds"), ChoiceField("kind", N_("Kind"), ("red", "blue")),
                  default=(), max_items=2),
        ListField("draws", N_("Draws"), IntField("draw", N_("Draw"), min=1, max=6),
                  scalar=True, optional=True),
        BoolField("sure", N_("Sure"), default=None),
    )),
    MoveRule("wait", Term(N_("wait"))),
)
REFEREE = Referee("demo", RULES, phase_of=lambda s: "any", awaited=lambda s: Awaiting.one(0),
                  over=lambda s: False, phase_labels={})


def refused(move) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        REFEREE.parse(move)
    return caught.value


def test_a_declared_move_is_parsed_with_its_defaults():
    rule, args = REFEREE.parse({"type": "enter", "gods": [{"a": 3}], "sure": True,
                                "draws": 4, "extra": "ignored at the top"})
    assert rule.kind == "enter"
    assert args == {"gods": [{"a": 3, "b": None}], "where": "bag", "kinds": [],
                    "draws": [4], "sure": True}


@pytest.mark.parametrize("move, field, words", [
    ({"type": "enter", "sure": True}, "move.gods", "Gods: This is required."),
    ({"type": "enter", "gods": [{}], "sure": True}, "move.gods.0.a",
     "Gods › God 1 › First threshold: This is required."),
    ({"type": "enter", "gods": [{"a": 2}, {"a": 21}], "sure": True}, "move.gods.1.a",
     "Gods › God 2 › First threshold: At most 20."),
    ({"type": "enter", "gods": [{"a": 2}], "where": 7, "sure": True}, "move.where",
     "Where: Choose one of the values offered."),
    ({"type": "enter", "gods": [{"a": 2}], "draws": [0], "sure": True}, "move.draws.0",
     "Draws › No. 1: At least 1."),
    ({"type": "enter", "gods": [{"a": 2}]}, "move.sure", "Sure: This is required."),
    ({"type": "enter", "gods": [{"a": 2, "c": 1}], "sure": False}, "move.gods.0.c",
     "Gods › God 1 › c: Unknown entry “c”."),
])
def test_a_malformed_move_is_refused_in_the_players_words(move, field, words):
    violation = refused(move)
    assert violation.code == "demo.bad_move"
    assert violation.field == field
    assert violation.render() == words
    assert "gods.0" not in violation.render()


def test_a_refusal_is_translated_label_by_label():
    czech = {"Gods": "Bohové", "God %(n)d": "Bůh %(n)d", "First threshold": "První práh",
             "This is required.": "Toto je povinné."}
    violation = refused({"type": "enter", "gods": [{}], "sure": True})
    assert violation.render(lambda s: czech.get(s, s)) == \
        "Bohové › Bůh 1 › První práh: Toto je povinné."


def test_an_argument_refused_by_a_check_is_named_the_same_way():
    violation = REFEREE.bad_argument("enter", "gods.0.b")
    assert violation.field == "move.gods.0.b"
    assert violation.render() == "Gods › God 1 › Second threshold: This is required."


def test_a_check_may_refuse_an_argument_without_the_referee_table():
    def needs_kinds_with_three_gods(state, seat, args):
        if len(args["gods"]) == 3 and not args["kinds"]:
            raise BadArgument("kinds", N_("Three gods need their kinds."))

    referee = Referee("demo", (MoveRule("enter", Term(N_("enter values")), args=RULES[0].args,
                                        check=needs_kinds_with_three_gods),),
                      phase_of=lambda s: "any", awaited=lambda s: Awaiting.one(0),
                      over=lambda s: False, phase_labels={})
    with pytest.raises(RuleViolation) as caught:
        referee.apply({}, 0, {"type": "enter", "gods": [{"a": 1}] * 3, "sure": True})
    assert caught.value.code == "demo.bad_move" and caught.value.field == "move.kinds"
    assert caught.value.render() == "Kinds: Three gods need their kinds."


def test_game_rules_derive_the_live_members_from_the_referee():
    state = TOY.setup({"rounds": 2}, ["Ana", "Bo"], {"bonus_seat": 0, "marks": ["", ""]},
                      Edition({"bonus_worth": 1}))
    state = TOY.apply(state, 0, {"type": "draw", "card": 2})
    state = TOY.apply(state, 1, {"type": "guess", "high": True})
    assert TOY.awaiting(state).seats == {0}
    assert TOY.prompts(state, 1) == {"moves": []}       # seat 1 has guessed: not awaited
    assert TOY.legal_moves(state, 1) == []
    assert TOY.prompts(state, 0) == {"moves": ["guess"]}
    assert {m["high"] for m in TOY.legal_moves(state, 0)} == {True, False}
    assert [rule.kind for rule in TOY.move_rules()] == ["draw", "guess"]
    refusal = assert_refused(TOY, state, 0, {"type": "guess"}, "toyguess.bad_move", "move.high")
    assert refusal.render() == "High: This is required."
    assert not TOY.is_over(state)
    state = TOY.apply(state, 0, {"type": "guess", "high": False})
    assert TOY.awaiting(state).seats == {0, 1}      # round 2: the draw
    assert not ToyGuess.__dict__.keys() & {"apply", "validate", "awaiting", "prompts",
                                           "legal_moves", "is_over"}


SCALAR = MoveRule("draw", Term(N_("draw")), args=(
    ListField("jars", N_("Jars"), ListField("jar", N_("Jar"), ChoiceField("kind", N_("Kind"),
                                                                          ("red", "blue")),
                                            min_items=2, max_items=2),
              min_items=1, scalar=True, optional=True),
    ListField("cards", N_("Cards"), ObjectField("card", N_("Card"), (
        IntField("points", N_("Points"), max=5, default=None),)), min_items=1, scalar=True,
              optional=True),
))
SCALAR_REFEREE = Referee("demo", (SCALAR,), phase_of=lambda s: "any",
                         awaited=lambda s: Awaiting.one(0), over=lambda s: False,
                         phase_labels={})


@pytest.mark.parametrize("given, parsed", [
    ({"jars": ["red", "blue"]}, {"jars": [["red", "blue"]], "cards": None}),
    ({"jars": [["red", "blue"], ["blue", "blue"]]},
     {"jars": [["red", "blue"], ["blue", "blue"]], "cards": None}),
    ({"cards": {"points": 2}}, {"jars": None, "cards": [{"points": 2}]}),
    ({"cards": [{"points": 2}, {"points": 3}]},
     {"jars": None, "cards": [{"points": 2}, {"points": 3}]}),
])
def test_a_scalar_list_takes_one_item_that_is_itself_a_list_or_an_object(given, parsed):
    assert SCALAR_REFEREE.parse({"type": "draw", **given})[1] == parsed


@pytest.mark.parametrize("given, field", [
    ({"jars": ["red", "green"]}, "move.jars.0.1"),
    ({"jars": []}, "move.jars"),
    ({"cards": {"points": 9}}, "move.cards.0.points"),
    ({"jars": {"red": 1}}, "move.jars"),
])
def test_a_scalar_list_still_refuses_what_is_no_item(given, field):
    with pytest.raises(RuleViolation) as caught:
        SCALAR_REFEREE.parse({"type": "draw", **given})
    assert caught.value.field == field


@pytest.mark.parametrize("seat", ["0", None, 1.5, True, [0]])
def test_a_seat_that_is_not_a_whole_number_is_refused_naming_it(seat):
    """Issue 20: a seat that is not an integer was a TypeError deep in a game's check."""
    for check in (REFEREE.apply, REFEREE.validate):
        with pytest.raises(RuleViolation) as caught:
            check({}, seat, {"type": "wait"})
        assert (caught.value.code, caught.value.field) == ("demo.bad_seat", "seat")
        assert caught.value.render() == "A seat is a whole number."
