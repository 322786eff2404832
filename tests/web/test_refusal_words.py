"""A refused move speaks the player's words, never the app's (issue 20, item 2).

Every declared move of every live game (``MoveRule.args``) is sent malformed — each argument
left out, of the wrong kind, out of range, an entry of a list or an object spoilt — and the
refusal, rendered in English, Czech and Hungarian, names no internal path ("gods.0.a") and no
key ("sun_groups"): the field is named by its declared labels.
"""

from __future__ import annotations

import re
from typing import Any, Iterator

import pytest
from flask_babel import force_locale

from companion.i18n import render_violation
from companion.rules import Capability, all_rulesets
from companion.rules.base import (BoolField, ChoiceField, IntField, ListField, ObjectField,
                                  RuleViolation, TextField)
from companion.rules.fields import plain

DOTTED = re.compile(r"[A-Za-z_]\w*\.\w*[A-Za-z_0-9]")       # gods.0.a, move.pay
SNAKE = re.compile(r"\b[a-z0-9]+_[a-z0-9_]+\b")               # sun_groups, tomb_art
WRONG = object()


def _bad_values(spec: Any) -> Iterator[Any]:
    """Values ``spec`` refuses (None: left out)."""
    if isinstance(spec, IntField):
        yield "three"
        yield 1.5
        yield spec.min - 1
        if spec.max is not None:
            yield spec.max + 1
    elif isinstance(spec, TextField):
        yield 7
        if spec.required:
            yield "   "
    elif isinstance(spec, BoolField):
        yield "yes"
    elif isinstance(spec, ChoiceField):
        yield "no such choice"
        yield True
    elif isinstance(spec, ObjectField):
        yield "an object"
        for sub in spec.fields:
            for bad in _bad_values(sub):
                yield {sub.key: bad}
    elif isinstance(spec, ListField):
        if not spec.scalar:
            yield {"not": "a list"}
        if spec.max_items is not None:
            yield [_good(spec.item)] * (spec.max_items + 1)
        if spec.min_items > 1:
            yield [_good(spec.item)]
        for bad in _bad_values(spec.item):
            yield [bad] if spec.min_items <= 1 else [bad] + [_good(spec.item)] * (
                spec.min_items - 1)


def _good(spec: Any) -> Any:
    """A value ``spec`` accepts, as far as its declaration says."""
    if isinstance(spec, IntField):
        return spec.min
    if isinstance(spec, TextField):
        return "Ana"
    if isinstance(spec, BoolField):
        return False
    if isinstance(spec, ChoiceField):
        return plain(spec.pairs()[0][0]) if spec.choices else 0
    if isinstance(spec, ObjectField):
        return {sub.key: _good(sub) for sub in spec.fields}
    return [_good(spec.item)] * max(spec.min_items, 1)


def _malformed_moves() -> Iterator[tuple[str, str, dict[str, Any]]]:
    for ruleset in all_rulesets(Capability.LIVE):
        for rule in ruleset.move_rules():
            good = {spec.key: _good(spec) for spec in rule.args}
            for spec in rule.args:
                yield ruleset.id, rule.kind, {"type": rule.kind, **{
                    k: v for k, v in good.items() if k != spec.key}}
                for bad in _bad_values(spec):
                    yield ruleset.id, rule.kind, {"type": rule.kind, **good, spec.key: bad}


CASES = list(_malformed_moves())


def test_every_live_game_declares_moves_with_arguments():
    games = {game for game, _kind, _move in CASES}
    assert games == {"ra", "imhotep", "pharaon", "valley", "pyramids"}, games
    assert len(CASES) > 500


@pytest.mark.parametrize("game", ["ra", "imhotep", "pharaon", "valley", "pyramids"])
def test_a_malformed_move_is_refused_in_the_players_words(app, game):
    ruleset = next(r for r in all_rulesets(Capability.LIVE) if r.id == game)
    assert ruleset.referee is not None
    refused = 0
    for _game, kind, move in (case for case in CASES if case[0] == game):
        try:
            ruleset.referee.parse(move)
        except RuleViolation as violation:
            refused += 1
            for language in ("en", "cs", "hu"):
                with app.test_request_context(), force_locale(language):
                    message = render_violation(violation)
                assert not DOTTED.search(message), (kind, move, language, message)
                assert not SNAKE.search(message), (kind, move, language, message)
    assert refused > 10
