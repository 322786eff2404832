"""Seeded random play-outs of Pharaon, solo and 2-5 players, to the end in several editions
and option sets: invariants after every move, replay of the log, live score equal to the
score-only score. ``PHARAON_PLAYOUTS=n`` plays n seeds per case instead of 2 (every player
count in every variant twice: 50 games; tests/rules/test_playouts.py plays 125 more of the
usual rules through the protocol)."""

from __future__ import annotations

import os
from typing import Any

import pytest

from companion.rules.pharaon import PHARAON
from companion.rules.pharaon import printed as t
from companion.rules.pharaon.final import score_final
from tests.rules.pharaon_helpers import FULL_EDITION, new_game, random_game
from tests.rules.playout import print_replay_speed

PLAYOUTS = int(os.environ.get("PHARAON_PLAYOUTS", "2"))


VARIANTS = {
    "confirm mode": {},
    "our copy entered": {"entered": FULL_EDITION},
    "gods at set-up": {"setup": {"gods": [
        {"name": f"G{g}", "a": {"threshold": 1 + g % 3, "points": 3},
         "b": {"threshold": 2, "points": 4}} for g in range(5)], "direction": "ccw"}},
    "open questions the other way": {"options": {
        "nile_top_cumulative": True, "traitor_artisan_take_2": "lowest",
        "traitor_artisan_discard": "lowest", "traitor_pass_timing": "after_last_jar",
        "traitor_pyramid_reward": "human_picks", "traitor_start_noble_counts": False,
        "traitor_column_tokens_score": True, "point_offerings_spendable": True,
        "reject_overpayment": False, "starting_silver": 1, "rejected_nobles": "bottom",
        "seer_on_offerings": False, "traitor_dark_tiles": 3, "bank_short": "refuse"},
        "setup": {"traitor_draw": True}},
    "a small bank, gains refused": {"entered": {"bank_size": 5},
                                    "options": {"bank_short": "refuse"}},
}


CASES = [(players, variant, seed) for players in (1, 2, 3, 4, 5) for variant in VARIANTS
         for seed in range(PLAYOUTS)]


_LOGS: list[tuple[Any, list]] = []


@pytest.mark.parametrize("players, variant, seed", CASES)
def test_random_playout(players, variant, seed):
    kwargs = VARIANTS[variant]
    state, log = random_game(1000 * players + seed, players, check=True, **kwargs)
    assert PHARAON.is_over(state) and PHARAON.awaiting(state).seats == frozenset()
    assert state["round"] == t.ROUNDS
    # the log replays to the same state
    replay = new_game(players, entered=kwargs.get("entered"), options=kwargs.get("options"),
                      **kwargs.get("setup", {}))
    for seat, move in log:
        replay = PHARAON.apply(replay, seat, move)
    assert replay == state
    # live scoring equals score-only scoring of the final document
    sheet = PHARAON.score(state)
    assert sheet.complete
    assert score_final(PHARAON.final_document(state)).as_dict() == sheet.as_dict()
    assert [p.name for p in sheet.players] == state["actors"]
    _LOGS.append(((players, kwargs), log))


def test_print_replay_speed():
    four = [(case, log) for case, log in _LOGS if case[0] == 4]
    if not four:
        pytest.skip("no play-out ran before this test")

    def replay(case, log):
        players, kwargs = case
        state = new_game(players, entered=kwargs.get("entered"), options=kwargs.get("options"),
                         **kwargs.get("setup", {}))
        for seat, move in log:
            state = PHARAON.apply(state, seat, move)
        assert PHARAON.is_over(state)

    print_replay_speed("Pharaon (4 players)", four, replay)
