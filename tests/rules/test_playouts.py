"""Seeded random play-outs of every registered live game, through the Ruleset protocol only.

design.md §4 (3), issue 11 (4). For every game with live tables and every live player count,
``PLAYOUTS`` games (env ``PLAYOUTS``, default 25) are played to the end by the generic
driver (tests/rules/playout.py: JSON states, ``apply`` never mutating, a legal move for every
awaited seat, an end within a bound), and each one is then checked:

* replaying the move log from the opening gives the same state;
* the live Scoresheet equals ``score_final(final_document(state))``;
* after the end nothing is awaited, no seat has a move and a move gets ``<game>.game_over``;
* along the way: a seat that is not awaited has no moves and is refused without a change,
  and every outcome ``chance`` offers is accepted (per-game tests check that the outcomes it
  leaves out are refused).

A game registered later runs here without an edit.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any, Mapping

import pytest

from companion.rules import Capability, all_rulesets
from companion.rules.base import Ruleset, RuleViolation, offers
from tests.rules.playout import Move, play, replay

PLAYOUTS = int(os.environ.get("PLAYOUTS", "25"))
CHANCE_SAMPLE = 40        # outcomes of one chance validated per state (all when fewer)

CASES = [(ruleset.id, players) for ruleset in all_rulesets(Capability.LIVE)
         for players in ruleset.catalogue.live_player_counts]


def protocol_checks(ruleset: Ruleset, players: int, rng: random.Random):
    """An ``on_move`` hook: what every state promises besides the driver's own checks."""
    def check(before: Mapping[str, Any], seat: int, move: Move, after: Mapping[str, Any]) -> None:
        awaited = ruleset.awaiting(before).seats
        outsiders = [other for other in range(players) if other not in awaited]
        if outsiders:
            other = rng.choice(outsiders)
            assert ruleset.legal_moves(before, other) == []
            assert ruleset.prompts(before, other)["moves"] == []
            frozen = json.dumps(before, sort_keys=True)
            with pytest.raises(RuleViolation) as refused:
                ruleset.apply(before, other, move)
            assert refused.value.code in ruleset.out_of_turn_codes
            assert json.dumps(before, sort_keys=True) == frozen
        outcome = ruleset.chance(before)
        if outcome is not None:
            assert outcome.seats and outcome.seats <= awaited
            assert all(count > 0 for _, count in outcome.outcomes)
            enterer = min(outcome.seats)
            if outcome.draws == 1:
                offered = [outcome.as_move(value) for value, _ in outcome.outcomes]
                if len(offered) > CHANCE_SAMPLE:
                    offered = rng.sample(offered, CHANCE_SAMPLE)
            else:
                offered = [outcome.draw(rng) for _ in range(3)]
            for entered in offered:
                ruleset.validate(before, enterer, entered)
    return check


@pytest.mark.parametrize("game, players", CASES, ids=[f"{g}-{p}" for g, p in CASES])
def test_random_playouts_follow_the_protocol(game, players):
    ruleset = next(r for r in all_rulesets(Capability.LIVE) if r.id == game)
    assert isinstance(ruleset, Ruleset)
    for seed in range(PLAYOUTS):
        rng = random.Random(seed)
        played = play(ruleset, seed * 101 + players, players,
                      on_move=protocol_checks(ruleset, players, rng))
        state = played.state
        assert played.log and ruleset.is_over(state)
        assert replay(played) == state
        sheet = ruleset.score(state)
        seated = [line for line in sheet.players if not line.automated]
        assert sheet.complete and len(seated) == players
        assert all(line.automated for line in sheet.players[players:])   # rivals come last
        for player in sheet.players:
            assert player.total == sum(c.points for c in player.categories)
        if offers(ruleset, Capability.SCORE):
            assert ruleset.score_final(ruleset.final_document(state)).as_dict() == \
                sheet.as_dict()
        for seat in range(players):
            assert ruleset.legal_moves(state, seat) == []
            assert ruleset.prompts(state, seat)["moves"] == []
        last_seat, last_move = played.log[-1]
        with pytest.raises(RuleViolation) as refused:
            ruleset.apply(state, last_seat, last_move)
        assert refused.value.code == f"{game}.game_over"
