"""One helper for "this move is refused with code X" (every game's tests use it)."""

from __future__ import annotations

from typing import Any, Mapping

import pytest

from companion.rules.base import RuleViolation, Ruleset


def assert_refused(ruleset: Ruleset, state: Mapping[str, Any], seat: int, move: Any,
                   code: str, field: str | None = ...) -> RuleViolation:  # type: ignore[assignment]
    """``ruleset`` refuses ``move`` by ``seat`` with ``code`` (and ``field``, when given), in
    ``validate`` and in ``apply`` alike, and leaves ``state`` as it was; gives the refusal."""
    before = repr(state)
    with pytest.raises(RuleViolation) as checked:
        ruleset.validate(state, seat, move)
    with pytest.raises(RuleViolation) as applied:
        ruleset.apply(state, seat, move)
    for caught in (checked.value, applied.value):
        assert caught.code == code, f"refused with {caught.code}, not {code}: {caught.render()}"
        if field is not ...:
            assert caught.field == field, f"names {caught.field}, not {field}"
        assert caught.render()        # a sentence, whatever its parameters
    assert repr(state) == before, "a refused move changed the state"
    return applied.value
