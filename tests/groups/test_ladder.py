"""The ladder equals direct openskill Plackett-Luce calls on the same history."""

from __future__ import annotations

import random

import pytest
from openskill.models import PlackettLuce

from companion.services import ladder
from companion.services.history import chronological

from .builders import ANA, BEA, CYRIL, DORA, at, history, play


def direct(plays):
    """The ladder by hand: one rate() call per play for the overall ladder, one per game."""
    model = PlackettLuce()
    overall, games = {}, {}
    for one in plays:
        if len(one.lines) < 2:
            continue
        ids = [line.player_id for line in one.lines]
        ranks = [line.rank for line in one.lines]
        for table in (overall, games.setdefault(one.game, {})):
            teams = [[table.get(p, None) or model.rating()] for p in ids]
            for p, (rating,) in zip(ids, model.rate(teams, ranks=ranks)):
                table[p] = rating
    return overall, games


def test_ladder_is_openskill_on_the_same_plays():
    plays = history()
    built = ladder.rebuild(plays)
    overall, games = direct(plays)
    assert set(built.overall) == set(overall) == {ANA, BEA, CYRIL, DORA}
    for player_id, rating in overall.items():
        assert built.overall[player_id].mu == rating.mu
        assert built.overall[player_id].sigma == rating.sigma
        assert built.overall[player_id].ordinal == pytest.approx(rating.ordinal(), abs=1e-12)
    assert set(built.games) == {"ra", "imhotep"}
    for game, table in games.items():
        for player_id, rating in table.items():
            assert (built.games[game][player_id].mu, built.games[game][player_id].sigma) == \
                (rating.mu, rating.sigma)
    assert built.overall[CYRIL].plays == 6 and built.games["ra"][CYRIL].plays == 5
    assert built.games["imhotep"][DORA].plays == 1
    assert built.rated_plays == 6


def test_random_history_matches_openskill():
    rng = random.Random(7)
    plays = []
    for index in range(120):
        seated = rng.sample(range(1, 9), rng.randint(2, 5))
        totals = [rng.randint(0, 6) for _ in seated]       # small range: many ties
        ranks = [1 + sum(t > mine for t in totals) for mine in totals]
        plays.append(play(f"r{index:03d}", rng.choice(["ra", "imhotep", "pharaon"]), at(index),
                          list(zip(seated, totals, ranks))))
    built = ladder.rebuild(plays)
    overall, games = direct(plays)
    assert {p: (r.mu, r.sigma) for p, r in built.overall.items()} == \
        {p: (r.mu, r.sigma) for p, r in overall.items()}
    for game in games:
        assert {p: (r.mu, r.sigma) for p, r in built.games[game].items()} == \
            {p: (r.mu, r.sigma) for p, r in games[game].items()}


def test_tied_players_share_a_rank():
    built = ladder.rebuild([play("t", "ra", at(0), [(ANA, 5, 1), (BEA, 5, 1), (CYRIL, 1, 3)])])
    assert built.overall[ANA] == built.overall[BEA]
    assert built.overall[ANA].mu > 25 > built.overall[CYRIL].mu


def test_solo_plays_rate_nobody():
    built = ladder.rebuild([play("s", "pharaon", at(0), [(ANA, 50, 1)])])
    assert built.overall == {} and built.rated_plays == 0


def test_provisional_until_five_plays_and_a_settled_sigma():
    plays = [play(f"g{i}", "ra", at(i), [(ANA, 10, 1), (BEA, 5, 2), (CYRIL, 4, 3),
                                         (DORA, 3, 4)]) for i in range(12)]
    built = ladder.rebuild(plays)
    for player_id in (ANA, BEA, CYRIL, DORA):
        for count, step in enumerate(built.timeline[player_id], 1):
            expected = count < ladder.PROVISIONAL_MIN_PLAYS or \
                step.overall.sigma > ladder.PROVISIONAL_MAX_SIGMA
            assert step.overall.provisional is expected
            assert step.overall.plays == count
    dora = built.timeline[DORA]
    assert dora[3].overall.provisional and not dora[4].overall.provisional   # settles at 5
    ana = built.timeline[ANA]                 # an unbeaten player's sigma falls more slowly
    assert ana[8].overall.sigma > ladder.PROVISIONAL_MAX_SIGMA and ana[8].overall.provisional
    assert not ana[-1].overall.provisional
    assert ladder.Rating(25.0, ladder.PROVISIONAL_MAX_SIGMA + 0.01, 40).provisional


def test_standings_order_and_ties():
    plays = [play("t", "ra", at(0), [(BEA, 5, 1), (ANA, 5, 1), (CYRIL, 1, 3)])]
    names = {ANA: "ana", BEA: "Bea", CYRIL: "Cyril"}
    rows = ladder.standings(ladder.rebuild(plays).overall, names)
    assert [(r.position, r.name) for r in rows] == [(1, "ana"), (2, "Bea"), (3, "Cyril")]
    assert rows[0].provisional and rows[0].as_dict()["rating"] == round(rows[0].ordinal, 2)


def test_standings_rank_by_ordinal_not_mu():
    ratings = {ANA: ladder.Rating(30.0, 8.0, 9), BEA: ladder.Rating(26.0, 5.0, 9),
               CYRIL: ladder.Rating(26.0, 5.0, 12), DORA: ladder.Rating(27.5, 5.5, 9)}
    rows = ladder.standings(ratings, {ANA: "Ana", BEA: "Bea", CYRIL: "Cyril", DORA: "Dora"})
    # ordinals: Ana 6, Bea 11, Cyril 11, Dora 11 (higher mu first, then more plays)
    assert [r.player_id for r in rows] == [DORA, CYRIL, BEA, ANA]


def test_history_order_is_time_then_table_id():
    same_time = [play("b", "ra", at(1), [(ANA, 1, 1), (BEA, 0, 2)]),
                 play("a", "ra", at(1), [(BEA, 1, 1), (ANA, 0, 2)]),
                 play("c", "ra", at(0), [(ANA, 1, 1), (BEA, 0, 2)])]
    assert [p.table_id for p in chronological(same_time)] == ["c", "a", "b"]


def test_later_plays_continue_the_ladder_exactly_and_snapshots_stay_as_they_were():
    plays = history()
    builder = ladder.LadderBuilder().extend(plays[:4])
    before = builder.ladders()
    after = builder.extend(plays[4:]).ladders()
    whole = ladder.rebuild(plays)
    assert after.overall == whole.overall and after.games == whole.games
    assert after.rated_plays == whole.rated_plays == 6
    assert {p: list(after.timeline[p]) for p in after.timeline} == \
        {p: list(whole.timeline[p]) for p in whole.timeline}
    assert before.overall == ladder.rebuild(plays[:4]).overall
    assert [s.table_id for s in before.timeline[ANA]] == ["p1", "p2", "p3", "p4"]
    assert [s.table_id for s in before.timeline[BEA]] == ["p1", "p2", "p3"]     # not p5
    assert DORA in before.timeline and len(before.timeline) == 4


def test_one_play_rates_as_openskill_to_the_last_bit():
    model = PlackettLuce()
    rng = random.Random(11)
    for _ in range(300):
        count = rng.randint(2, 6)
        mus = [rng.uniform(10, 40) for _ in range(count)]
        sigmas = [rng.uniform(0.5, 9) for _ in range(count)]
        ranks = [rng.randint(1, count) for _ in range(count)]
        teams = [[model.rating(mu=m, sigma=s)] for m, s in zip(mus, sigmas)]
        expected = [(r.mu, r.sigma) for (r,) in model.rate(teams, ranks=ranks)]
        assert list(zip(*ladder.rate_singles(mus, sigmas, ranks))) == expected


def test_timeline_points_follow_the_plays():
    built = ladder.rebuild(history())
    steps = built.timeline[ANA]
    assert [s.table_id for s in steps] == ["p1", "p2", "p3", "p4", "p6"]
    assert steps[-1].overall == built.overall[ANA]
    assert steps[3].game == "imhotep" and steps[3].in_game.plays == 1
