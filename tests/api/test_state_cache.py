"""The state cache of a server process that saw only an older version of a table (issue 9:
with several workers a table's moves alternate between processes): the state it builds from
that older version and the moves since is the state the whole log replays to, with undos,
retries and a finished game in the mix."""

from __future__ import annotations

import random

import pytest

from companion.models import GameTable
from companion.rules.ra import RA
from companion.rules.ra.state import to_act
from companion.services import live_tables as live
from tests.api.livetable import LiveTable, db_session, pick, replayed_from_db

pytestmark = pytest.mark.db


@pytest.mark.parametrize("seed", range(6))
def test_a_state_built_from_an_older_cached_one_is_the_replay(app, client, seed):
    rng = random.Random(seed)
    table = LiveTable(client)
    state = table.setup_state()
    versions_seen = [0]
    incremental = 0
    while not RA.is_over(state) and table.version < 120:
        if table.log and rng.random() < 0.08:
            seat = table.log[-1][0]
            assert table.undo(table.tokens[seat]).status_code == 200
        else:
            seat = to_act(state)
            table.ok(seat, pick(rng, state, seat))
        state = table.state()
        versions_seen.append(table.version)
        # Another process: it last saw an earlier version of this table (mostly a recent one).
        keep = rng.choice(versions_seen[-4:-1] * 3 + versions_seen[:-1])
        older = replayed_from_db(app, table.id, keep)       # (empties the cache)
        live._remember(table.id, keep, older)
        with db_session(app) as session:
            stored = session.get(GameTable, table.id)
            if live._newest_before(table.id, stored.version) is not None:
                incremental += 1
            built = live.state_at(session, stored)
        assert built == replayed_from_db(app, table.id), (seed, keep, table.version)
        assert built == state
    assert incremental > 20          # the shortcut was taken, not only the full replay
