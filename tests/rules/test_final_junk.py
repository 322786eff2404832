"""Every game's ``score_final`` answers junk with a refusal, never a crash (issue 20).

Whatever JSON arrives at the score-only entry point (the API's body, a form read back), the
only exceptions that may come out are :class:`InvalidDocument` and :class:`RuleViolation`: the
web layer turns those into a 422 naming the field; anything else is a 500. Hypothesis feeds
each registered game two kinds of junk: JSON made of the game's own words (its schema's keys
and choices, so that the junk gets past the first checks), and the game's API example with one
value replaced by junk.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import companion.rules  # noqa: F401  (discovers and registers the games)
from companion.rules.base import (Capability, ChoiceField, InvalidDocument, ListField,
                                  ObjectField, RuleViolation, all_rulesets, get_ruleset)

GAMES = [ruleset.id for ruleset in all_rulesets(Capability.SCORE)]
TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "games"
EXAMPLE = re.compile(r'<pre class="example" data-post="/api/v1/score">(.*?)</pre>', re.S)


def _words(field: Any, keys: set[str], values: set[Any]) -> None:
    """The keys and choice values of a schema, recursively."""
    keys.add(field.key)
    if isinstance(field, ObjectField):
        for sub in field.fields:
            _words(sub, keys, values)
    elif isinstance(field, ListField):
        _words(field.item, keys, values)
    elif isinstance(field, ChoiceField):
        values.update(v for v in field.values if isinstance(v, (str, int)))


def vocabulary(game: str) -> tuple[list[str], list[Any]]:
    ruleset = get_ruleset(game)
    keys = {"game", "variant", "edition", "players", "options", "seat", "name", "x", ""}
    values: set[Any] = {game, "", "x"}
    for variant, _label in ruleset.score_form.variants:
        values.add(variant)
        _words(ruleset.form_schema(variant), keys, values)
    _words(ruleset.final_schema, keys, values)
    _words(ruleset.form_schema(None), keys, values)
    for value in ruleset.edition:
        keys.add(value.key)
        _words(value.field, keys, values)
    return sorted(keys), sorted(values, key=repr)


def examples(game: str) -> list[Any]:
    path = TEMPLATES / game / "api.html"
    if not path.exists():
        return []
    found = []
    for text in EXAMPLE.findall(path.read_text(encoding="utf-8")):
        try:
            found.append(json.loads(html.unescape(text)))
        except ValueError:
            continue
    return found


def junk(game: str) -> st.SearchStrategy:
    keys, values = vocabulary(game)
    scalars = (st.none() | st.booleans() | st.integers(-3, 60) | st.sampled_from([-1e9, 0.5, 1e300])
               | st.text(max_size=3) | st.sampled_from(values))
    return st.recursive(scalars, lambda inner: st.lists(inner, max_size=5) | st.dictionaries(
        st.sampled_from(keys), inner, max_size=7), max_leaves=30)


def _paths(value: Any, path: tuple = ()) -> list[tuple]:
    found = [path]
    if isinstance(value, dict):
        for key, sub in value.items():
            found += _paths(sub, path + (key,))
    elif isinstance(value, list):
        for i, sub in enumerate(value):
            found += _paths(sub, path + (i,))
    return found


def _replaced(document: Any, path: tuple, new: Any) -> Any:
    if not path:
        return new
    copy = json.loads(json.dumps(document))
    target = copy
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = new
    return copy


@st.composite
def broken_example(draw, game: str) -> Any:
    """The game's API example with one value (anywhere in it) replaced by junk."""
    documents = examples(game)
    if not documents:
        return draw(junk(game))
    document = draw(st.sampled_from(documents))
    path = draw(st.sampled_from(_paths(document)))
    return _replaced(document, path, draw(junk(game)))


def only_refusals(game: str, document: Any) -> None:
    try:
        get_ruleset(game).score_final(document)
    except (InvalidDocument, RuleViolation):
        pass


def test_every_scoring_game_has_an_example_to_break():
    assert GAMES and all(examples(game) for game in GAMES)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=120, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_junk_of_the_games_own_words_is_refused_not_a_crash(game, data):
    only_refusals(game, data.draw(junk(game)))


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=120, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_an_example_with_one_value_broken_is_refused_not_a_crash(game, data):
    only_refusals(game, data.draw(broken_example(game)))


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("document", [None, [], "scores", 3, 2.5, True])
def test_a_document_that_is_no_object_is_refused(game, document):
    with pytest.raises(InvalidDocument) as refused:
        get_ruleset(game).score_final(document)
    assert refused.value.first.code == "schema.not_object"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("key, value", [("edition", 3), ("edition", "x"), ("edition", [1]),
                                        ("players", "x"), ("players", {"0": {}})])
def test_an_example_whose_part_is_no_object_names_that_part(game, key, value):
    """The game's example with its edition or its players replaced: refused naming it."""
    document = {**examples(game)[0], key: value}
    with pytest.raises(InvalidDocument) as refused:
        get_ruleset(game).score_final(document)
    fields = [v.field for v in refused.value.violations]
    assert any(f and f.split(".")[0] == key for f in fields), fields
