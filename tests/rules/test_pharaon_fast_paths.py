"""Pharaon's fast paths (issue 14, the engine benchmark) give the answers of the plain rules.

1. The cost check (payment.cost_problem, now without Counters) against the Counter-based
   reading of spec §4.2 written out here: the nearest filling, its missing or extra kinds.
2. The gods' feasible subsets found area by area (scoring._feasible_set) against
   scoring.feasible on every one of the 32 subsets, including negative counts and thresholds.
(The exact claim itself is checked against a brute force in test_pharaon_final.py.)
"""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.pharaon import printed as t
from companion.rules.pharaon.payment import CostVerdict, area_pattern, cost_problem
from companion.rules.pharaon.scoring import Board, God, Half, _feasible_set, feasible


def reference_cost_problem(pattern, entry_kind, units):
    """Spec §4.2 with Counters: the entry is deducted from a filling that asks for its kind;
    the first filling at the least distance decides what is missing or extra."""
    paid = Counter(units)
    if pattern.kind == "any":
        size = pattern.size
        if len(units) == size - 1 or (len(units) == size and paid[entry_kind] == 0):
            return None
        if len(units) < size - 1:
            return CostVerdict.UNMET, {"any": size - 1 - len(units)}
        return CostVerdict.OVERPAID, {"any": len(units) - (size - 1)}
    best = None
    for filling in pattern.fillings():
        needed = Counter(filling)
        if needed[entry_kind] > 0:
            needed[entry_kind] -= 1
        needed = +needed
        if needed == paid:
            return None
        missing, extra = needed - paid, paid - needed
        distance = sum(missing.values()) + sum(extra.values())
        if best is None or distance < best[0]:
            best = (distance, missing, extra)
    _, missing, extra = best
    return (CostVerdict.UNMET, dict(missing)) if missing else (CostVerdict.OVERPAID, dict(extra))


patterns = st.one_of(
    st.builds(lambda bonus: area_pattern("OFF", bonus=bonus), st.booleans()),
    st.builds(lambda judge: area_pattern("NOB", judge=judge), st.booleans()),
    st.just(area_pattern("ART")),
    st.builds(lambda area, fixed: area_pattern(area, fixed=fixed), st.sampled_from(["NIL", "TMB"]),
              st.lists(st.sampled_from(t.BASIC), min_size=1, max_size=4)))


@settings(max_examples=400, derandomize=True, deadline=None)
@given(patterns, st.sampled_from(t.BASIC), st.lists(st.sampled_from(t.BASIC), max_size=7))
def test_cost_check_matches_the_counter_reading(pattern, entry_kind, units):
    found = cost_problem(pattern, entry_kind, units)
    expected = reference_cost_problem(pattern, entry_kind, units)
    assert found == expected
    if found is not None:                # the same kinds in the same order (a message lists them)
        assert list(found[1].items()) == list(expected[1].items())


@st.composite
def boards_and_counts(draw):
    areas = draw(st.permutations(t.AREAS))
    gods = tuple(God(f"G{g}", Half(draw(st.integers(-1, 5)), 1), Half(draw(st.integers(-1, 5)), 1))
                 for g in range(5))
    counts = {area: draw(st.integers(-1, 6)) for area in t.AREAS}
    return Board(tuple(areas), gods), counts


@settings(max_examples=400, derandomize=True, deadline=None)
@given(boards_and_counts())
def test_feasible_subsets_match_the_area_by_area_check(case):
    board, counts = case
    allowed = _feasible_set(board, counts)
    assert allowed >> 32 == 0
    assert [bool(allowed >> mask & 1) for mask in range(32)] == [
        feasible(board, counts, mask) for mask in range(32)]
