"""Words that follow a number (issue 20, item 8): a refusal says "1 entry is needed" and "2
entries are needed", and in Czech picks one of three forms (messages.Counted, N_plural)."""

from __future__ import annotations

import pytest

from companion.rules.base import (COUNTED, Counted, ListField, N_, N_plural, ObjectField,
                                  RuleViolation, IntField, Term, check_document)


def czech_ngettext(singular: str, plural: str, num: int, **params) -> str:
    """A stand-in catalog with Czech's three forms (1; 2-4; 0 and 5+)."""
    form = 0 if num == 1 else 1 if 2 <= num <= 4 else 2
    words = {"%(num)d box": ("%(num)d pole", "%(num)d pole", "%(num)d polí")}
    forms = words.get(singular)
    text = forms[form] if forms else (singular if num == 1 else plural)
    return text % {"num": num, **params}


def test_a_counted_parameter_follows_its_number():
    for num, english, czech in [(1, "1 box", "1 pole"), (3, "3 boxes", "3 pole"),
                                (5, "5 boxes", "5 polí"), (0, "0 boxes", "0 polí")]:
        violation = RuleViolation("demo.count", COUNTED, "x",
                                  counted=Counted(N_plural("%(num)d box", "%(num)d boxes"), num))
        assert violation.render() == english
        assert violation.render(lambda s: s, czech_ngettext) == czech
        assert violation.as_dict()["message"] == english


def test_a_counted_parameter_renders_its_own_parameters():
    words = {"red": "červená"}
    violation = RuleViolation("demo.count", N_("%(boxes)s."), None, boxes=Counted(
        N_plural("%(num)d %(colour)s box", "%(num)d %(colour)s boxes"), 2,
        colour=Term(N_("red"))))
    assert violation.render() == "2 red boxes."
    assert violation.render(lambda s: words.get(s, s)) == "2 červená boxes."


def test_a_list_that_needs_one_entry_says_so_in_the_singular():
    schema = ObjectField("", "", (
        ListField("one", N_("One"), IntField("n", N_("N")), min_items=1, required=True),
        ListField("two", N_("Two"), IntField("n", N_("N")), min_items=2, max_items=2,
                  required=True),
        ListField("three", N_("Three"), IntField("n", N_("N")), min_items=3, required=True),
    ))
    _clean, problems = check_document(schema, {"one": [], "two": [1], "three": []})
    assert [p.render() for p in problems] == ["At least 1 entry is needed.",
                                              "Exactly 2 entries are needed.",
                                              "At least 3 entries are needed."]
    assert [p.params.get("min", p.params.get("count")) for p in problems] == [1, 2, 3]



def test_ra_discard_refusals_count_their_tiles():
    """Ra's disaster discards: "You hold 1 Writing tile", not "1 Writing tiles"."""
    from tests.rules.test_ra_engine import RA, _discarding, discard

    said = []
    for move in (discard("civ_writing", "civ_writing"), discard("civ_art", "civ_religion")):
        with pytest.raises(RuleViolation) as caught:
            RA.apply(_discarding(), 0, move)
        said.append(caught.value.render())
    assert said == ["You hold 1 Writing tile, not 2.", "You hold 0 Religion tiles, not 1."]
