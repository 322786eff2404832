"""The faster schema checker and Ra box check (issue 9) answer exactly as before: for valid
documents and for documents broken in every way hypothesis finds, the clean copy and every
violation (code, field, message, parameters, order) equal those of the reference copy of the
old code (tests/rules/reference_checker.py)."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, given, settings, strategies as st

from companion.rules.base import check_document
from companion.rules.imhotep import final as imhotep_final
from companion.rules.ra import final as ra_final
from tests.factories import ra_document
from tests.rules import reference_checker as reference
from tests.rules.test_imhotep_final import four_player_doc, three_player_doc

ODD_VALUES = [None, -1, -7, 0, 1, 3, 99, 10 ** 6, 2.5, True, False, "3", "", "x" * 90, [],
              [1, 2], {}, {"x": 1}]


def _paths(value: Any, path: tuple = ()) -> list[tuple]:
    """Every place in a document (dict keys and list indexes), parents first."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, path + (index,))
    return found


def _mutate(document: Any, data) -> Any:
    document = copy.deepcopy(document)
    for _ in range(data.draw(st.integers(0, 4), label="mutations")):
        paths = _paths(document)
        path = data.draw(st.sampled_from(paths), label="path")
        if not path:
            continue
        parent = document
        for step in path[:-1]:
            parent = parent[step]
        last = path[-1]
        kind = data.draw(st.sampled_from(["replace", "delete", "unknown", "grow"]),
                         label="kind")
        if kind == "replace":
            parent[last] = data.draw(st.sampled_from(ODD_VALUES), label="value")
        elif kind == "delete":
            del parent[last]
        elif kind == "unknown" and isinstance(parent, dict):
            parent[f"extra_{len(parent)}"] = 1
        elif kind == "grow" and isinstance(parent[last], int) and not isinstance(
                parent[last], bool):
            parent[last] += data.draw(st.integers(1, 12), label="more")
    return document


def _answer(check, schema, document):
    clean, violations = check(schema, document)
    return clean, [(v.code, v.field, v.message, v.params) for v in violations]


DOCUMENTS = [("ra", ra_final.FINAL_SCHEMA, ra_document(players=n, epochs=e))
             for n in (2, 3, 5) for e in (1, 3)] + [
    ("imhotep", imhotep_final.FINAL_SCHEMA, three_player_doc()),
    ("imhotep", imhotep_final.FINAL_SCHEMA, four_player_doc())]


@settings(max_examples=400, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(DOCUMENTS))), st.data())
def test_the_checker_answers_as_before(which, data):
    _game, schema, document = DOCUMENTS[which]
    broken = _mutate(document, data)
    assert _answer(check_document, schema, broken) == \
        _answer(reference.check_document, schema, broken)


@settings(max_examples=300, derandomize=True, deadline=None)
@given(st.sampled_from([2, 3, 4, 5]), st.sampled_from([1, 2, 3]), st.data())
def test_the_box_check_answers_as_before(players, epochs, data):
    clean, _ = check_document(ra_final.FINAL_SCHEMA, ra_document(players=players,
                                                                   epochs=epochs))
    for player in clean["players"]:                    # pile tiles up until boxes overflow
        for holdings in player["epochs"]:
            for key in ("gods", "gold", "floods", "pharaohs", "niles"):
                holdings[key] += data.draw(st.integers(0, 4), label=key)
            for kind in holdings["civilizations"]:
                holdings["civilizations"][kind] += data.draw(st.integers(0, 3), label=kind)
        for kind in player["monuments"]:
            player["monuments"][kind] += data.draw(st.integers(0, 2), label=kind)
    mine = ra_final.box_violations(clean["players"], epochs)
    theirs = reference.box_violations(clean["players"], epochs)
    assert [(v.code, v.field, v.params) for v in mine] == \
        [(v.code, v.field, v.params) for v in theirs]


def test_the_mutations_reach_errors():
    """The equivalence above is not only checked on valid documents."""
    _game, schema, document = DOCUMENTS[1]
    broken = copy.deepcopy(document)
    broken["players"][0]["epochs"][0]["gods"] = -1
    broken["players"][1]["epochs"] = "x"
    broken["surprise"] = 1
    codes = [code for code, *_ in _answer(check_document, schema, broken)[1]]
    assert codes == ["schema.unknown_key", "schema.negative", "schema.not_list"]
