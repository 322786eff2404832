"""Statistics, records and titles on hand-built histories; every expected number is worked out
by hand from tests/groups/builders.history():

    p1 ra       Ana 30 (1)  Bea 25 (2)  Cyril 20 (3)
    p2 ra       Ana 28 (2)  Bea 35 (1)  Cyril 10 (3)
    p3 ra       Ana 40 (1)  Bea 40 (1)  Cyril 12 (3)      Ana and Bea share the win
    p4 imhotep  Ana 50 (2)  Cyril 60 (1)  Dora 45 (3)
    p5 ra       Bea 33 (1)  Cyril 32 (2)                   Ana absent
    p6 ra       Ana 38 (1)  Cyril 38 (2)  Bea 20 (3)      Cyril loses on a tie-break
"""

from __future__ import annotations

from collections import defaultdict

from companion.services import stats, tallies
from companion.services.ladder import Standing

from .builders import ANA, BEA, CYRIL, DORA, NAMES, at, history, play


def test_player_stats_per_game():
    ana = stats.player_stats(history(), ANA)
    assert (ana["plays"], ana["wins"], ana["win_rate"]) == (5, 3, 0.6)
    ra = ana["games"]["ra"]
    assert (ra["plays"], ra["wins"], ra["win_rate"]) == (4, 3, 0.75)
    assert ra["average_score"] == 34.0            # (30 + 28 + 40 + 38) / 4
    assert ra["best_score"] == 40 and ra["best_play"]["table_id"] == "p3"
    imhotep = ana["games"]["imhotep"]
    assert (imhotep["plays"], imhotep["wins"], imhotep["win_rate"]) == (1, 0, 0.0)
    assert (imhotep["average_score"], imhotep["best_score"]) == (50.0, 50)
    assert list(ana["games"]) == ["ra", "imhotep"]          # our usual game order

    bea = stats.player_stats(history(), BEA)
    assert (bea["plays"], bea["wins"]) == (5, 3)
    assert bea["games"]["ra"]["average_score"] == 30.6      # 153 / 5
    cyril = stats.player_stats(history(), CYRIL)
    assert (cyril["plays"], cyril["wins"], cyril["win_rate"]) == (6, 1, 0.1667)
    assert cyril["games"]["ra"]["average_score"] == 22.4    # 112 / 5
    assert cyril["games"]["ra"]["best_score"] == 38
    nobody = stats.player_stats(history(), 99)
    assert (nobody["plays"], nobody["win_rate"], nobody["games"]) == (0, None, {})


def _holders(record):
    return [(h["player_id"], h["table_id"]) for h in record["holders"]]


def test_ra_records():
    records = stats.game_records(history(), "ra", NAMES)
    assert records["plays"] == 5
    assert records["highest_score"]["value"] == 40
    assert _holders(records["highest_score"]) == [(ANA, "p3"), (BEA, "p3")]   # same play
    assert records["highest_losing_score"]["value"] == 38
    assert _holders(records["highest_losing_score"]) == [(CYRIL, "p6")]
    # 3 wins each: the record names both (issue 20); Ana played 4 Ra games, Bea 5, so the
    # Champion title goes to the better rate
    assert records["most_wins"]["value"] == 3
    assert sorted(h["player_id"] for h in records["most_wins"]["holders"]) == sorted([ANA, BEA])
    assert records["champion"]["value"] == 3
    assert [h["player_id"] for h in records["champion"]["holders"]] == [ANA]
    assert records["average_winning_score"] == 35.2          # (30+35+40+33+38) / 5
    # Bea won p2, p3, p5; Ana won p3 and p6 and was absent from p5 (no break): 2 < 3
    assert records["longest_win_streak"]["value"] == 3
    assert _holders(records["longest_win_streak"]) == [(BEA, "p5")]
    assert records["champion"]["holders"][0]["name"] == "Ana"


def test_imhotep_records_and_an_unplayed_game():
    records = stats.game_records(history(), "imhotep", NAMES)
    assert (records["highest_score"]["value"], _holders(records["highest_score"])) == \
        (60, [(CYRIL, "p4")])
    assert records["highest_losing_score"]["value"] == 50
    assert records["average_winning_score"] == 60.0
    assert records["longest_win_streak"]["value"] == 1
    empty = stats.game_records(history(), "pharaon")
    assert empty["plays"] == 0 and empty["highest_score"] is None
    assert empty["most_wins"] is None and empty["average_winning_score"] is None


def test_record_tie_goes_to_the_first_play_that_set_it():
    plays = [play("a", "ra", at(1), [(ANA, 50, 1), (BEA, 10, 2)]),
             play("b", "ra", at(2), [(BEA, 50, 1), (ANA, 10, 2)])]
    assert _holders(stats.game_records(plays, "ra")["highest_score"]) == [(ANA, "a")]


def test_longest_streak_counts_only_the_players_own_plays():
    plays = [play("a", "ra", at(1), [(ANA, 9, 1), (BEA, 1, 2)]),
             play("b", "ra", at(2), [(BEA, 9, 1), (CYRIL, 1, 2)]),     # Ana absent
             play("c", "ra", at(3), [(ANA, 9, 1), (BEA, 1, 2)]),
             play("d", "ra", at(4), [(ANA, 1, 2), (BEA, 9, 1)])]
    streak = stats.game_records(plays, "ra")["longest_win_streak"]
    assert streak["value"] == 2 and _holders(streak) == [(ANA, "c")]


def test_champion_tie_rules():
    # equal wins and plays: who reached one win first (Ana in play a)
    plays = [play("a", "ra", at(1), [(ANA, 9, 1), (BEA, 1, 2)]),
             play("b", "ra", at(2), [(ANA, 1, 2), (BEA, 9, 1)])]
    assert [h["player_id"] for h in stats.champion(plays, "ra")["holders"]] == [ANA]
    # one win each, but Bea played fewer games (the better rate): Bea, though Ana won first
    fewer = [play("a", "ra", at(1), [(ANA, 9, 1), (CYRIL, 1, 2)]),
             play("b", "ra", at(2), [(BEA, 9, 1), (ANA, 1, 2)])]
    assert [h["player_id"] for h in stats.champion(fewer, "ra")["holders"]] == [BEA]
    # co-winners of the only play: shared
    shared = [play("x", "ra", at(1), [(ANA, 5, 1), (BEA, 5, 1), (CYRIL, 1, 3)])]
    assert [h["player_id"] for h in stats.champion(shared, "ra")["holders"]] == [ANA, BEA]
    assert stats.champion([], "ra") is None


def nemesis_of(plays, player_id, name_of=None):
    """One player's Nemesis, worked out for that player alone: a reference for
    ``stats.nemeses``, which finds everyone's in one pass (rules in its module docstring)."""
    shared: dict[int, int] = defaultdict(int)
    beats: dict[int, int] = defaultdict(int)
    last_beat: dict[int, int] = {}
    for index, one in enumerate(plays):
        mine = one.line_of(player_id)
        if mine is None:
            continue
        for line in one.lines:
            if line.player_id == player_id:
                continue
            shared[line.player_id] += 1
            if line.rank < mine.rank:
                beats[line.player_id] += 1
                last_beat[line.player_id] = index
    return tallies.choose_nemesis({p: (shared[p], beats[p], last_beat.get(p, -1))
                                   for p in shared}, name_of or {})


def test_nemesis_needs_three_wins_and_more_than_half():
    # Ana and Bea both beat Cyril 4 times in 5 shared plays; Ana beat him last (p6)
    nemesis = nemesis_of(history(), CYRIL, NAMES)
    assert nemesis == {"wins": 4, "plays": 5, "share": 0.8,
                       "holders": [{"player_id": ANA, "name": "Ana"}]}
    assert stats.nemeses(history(), NAMES) == {CYRIL: nemesis}    # nobody else has one
    assert nemesis_of(history(), ANA) is None        # beaten once by Bea, once by Cyril
    assert nemesis_of(history(), BEA) is None        # Ana beat Bea only twice
    # exactly half is not enough; 3 of 5 is
    half = [play(f"h{i}", "ra", at(i), [(ANA, 9, 1), (BEA, 1, 2)] if i < 3
                 else [(ANA, 1, 2), (BEA, 9, 1)]) for i in range(6)]
    assert nemesis_of(half, BEA) is None
    assert nemesis_of(half[:5], BEA)["holders"][0]["player_id"] == ANA
    assert stats.nemeses(half) == {} and set(stats.nemeses(half[:5])) == {BEA}
    # two wins out of two are not enough
    twice = [play(f"w{i}", "ra", at(i), [(ANA, 9, 1), (BEA, 1, 2)]) for i in range(2)]
    assert nemesis_of(twice, BEA) is None
    assert nemesis_of(twice + [twice[0]], BEA)["wins"] == 3
    # ties do not count as beating
    ties = [play(f"t{i}", "ra", at(i), [(ANA, 5, 1), (BEA, 5, 1)]) for i in range(5)]
    assert nemesis_of(ties, BEA) is None
    # everyone's at once is each one's alone
    for plays in (history(), half, half[:5], twice, twice + [twice[0]], ties):
        everyone = stats.nemeses(plays, NAMES)
        for player in NAMES:
            assert everyone.get(player) == nemesis_of(plays, player, NAMES)


def test_head_to_head():
    h2h = stats.head_to_head(history(), ANA, BEA)
    assert {k: h2h[k] for k in ("plays", "a_wins", "b_wins", "ties")} == \
        {"plays": 4, "a_wins": 2, "b_wins": 1, "ties": 1}
    assert h2h["games"]["ra"] == {"plays": 4, "a_wins": 2, "b_wins": 1, "ties": 1,
                                  "a_average": 34.0, "b_average": 30.0}
    assert [row["table_id"] for row in h2h["history"]] == ["p6", "p3", "p2", "p1"]
    assert h2h["history"][0]["outcome"] == "a_wins"
    assert stats.head_to_head(history(), ANA, DORA)["plays"] == 1


def _standing(position, player_id, ordinal, provisional, mu=25.0):
    return Standing(position, player_id, NAMES[player_id], ordinal, mu, 5.0, 9, provisional)


def test_pharaoh_is_the_best_settled_rating():
    rows = [_standing(1, ANA, 12.0, True), _standing(2, BEA, 10.0, False),
            _standing(3, CYRIL, 10.0, False), _standing(4, DORA, 9.0, False)]
    assert [p["player_id"] for p in stats.pharaoh(rows)] == [BEA, CYRIL]   # exact tie: shared
    rows[2] = _standing(3, CYRIL, 10.0, False, mu=24.0)
    assert [p["player_id"] for p in stats.pharaoh(rows)] == [BEA]
    assert stats.pharaoh([_standing(1, ANA, 3.0, True)]) == []
