"""Ra score-only mode: properties that hold for every valid final-state document.

The strategy builds documents that the box allows (spec shared/rules/ra.md §2.2, §2.3):
whole-game budgets for the tiles that leave after each epoch (8 Gods, 5 Gold, 12 Floods, 5 of
each Civilization kind), kept Pharaohs and Niles whose rises never add up to more than 25 new
tiles (falls are disasters), at most 5 of each monument kind, and the player count's suns dealt
as a random permutation: one sun for the centre, the rest in equal hands.

A small independent reference scorer restates §5 so the totals are checked, not only their
bookkeeping.
"""

from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.ra import printed
from companion.rules.ra.final import score_final

SETTINGS = settings(derandomize=True, max_examples=200, deadline=None)
NAMES = ("Ana", "Bo", "Cy", "Di", "Ed")
PER_EPOCH_KEYS = ("gods", "gold", "floods")


@st.composite
def documents(draw, options=st.none()):
    """A valid Ra document: 2-5 players, 1-3 epochs, optionally with an "options" object."""
    count = draw(st.sampled_from((2, 3, 4, 5)))

    def upto(high: int) -> int:
        return draw(st.integers(0, high)) if high > 0 else 0   # no draw when nothing is left

    epochs = draw(st.sampled_from((3, 1, 2, 3)))   # finished games twice as often
    # Whole-game budgets of the tiles removed after every epoch's scoring.
    budget = {"gods": printed.BOX["god"], "gold": printed.BOX["gold"],
              "floods": printed.BOX["flood"],
              **{kind: printed.BOX[f"civ_{kind}"] for kind in printed.CIVILIZATION_KINDS}}
    # Kept tiles: only rises need new tiles from the box.
    kept_left = {"pharaohs": printed.BOX["pharaoh"], "niles": printed.BOX["nile"]}
    held = {key: [0] * count for key in kept_left}
    players = [{"name": NAMES[p], "epochs": []} for p in range(count)]
    # Some players collect little or nothing, so that low scores, ties and the floor at 0
    # come up often.
    caps = [draw(st.sampled_from((0, 1, 4))) for _ in range(count)]
    for _ in range(epochs):
        for p in range(count):
            entry = {}
            for key in PER_EPOCH_KEYS:
                entry[key] = upto(min(budget[key], caps[p]))
                budget[key] -= entry[key]
            for key in kept_left:
                now = upto(held[key][p] + min(kept_left[key], 4))
                kept_left[key] -= max(0, now - held[key][p])
                held[key][p] = now
                entry[key] = now
            civilizations = {}
            for kind in printed.CIVILIZATION_KINDS:
                civilizations[kind] = upto(min(budget[kind], caps[p], 2))
                budget[kind] -= civilizations[kind]
            entry["civilizations"] = civilizations
            players[p]["epochs"].append(entry)
    complete = epochs == printed.EPOCHS
    if complete or draw(st.booleans()):
        left = {kind: 5 for kind in printed.MONUMENT_KINDS}
        for p, player in enumerate(players):
            monuments = {}
            for kind in printed.MONUMENT_KINDS:
                monuments[kind] = upto(min(left[kind], caps[p] + 1))
                left[kind] -= monuments[kind]
            player["monuments"] = monuments
    if complete or draw(st.booleans()):
        suns = draw(st.permutations(sorted(printed.suns_in_play(count))))
        per = printed.suns_per_player(count)
        for p, player in enumerate(players):
            player["suns"] = list(suns[1 + p * per: 1 + (p + 1) * per])   # suns[0]: centre
    doc = {"game": "ra", "players": players}
    chosen = draw(options)
    if chosen is not None:
        doc["options"] = chosen
    return doc


ANY_OPTIONS = st.none() | st.fixed_dictionaries(
    {}, optional={"fame_floor_zero": st.booleans(), "epoch3_single_net": st.booleans()})


def reference_stage_totals(doc) -> list[list[int]]:
    """Fame after each epoch, straight from spec §5 (independent of companion.rules.ra)."""
    options = {"fame_floor_zero": True, "epoch3_single_net": True, **doc.get("options", {})}
    players = doc["players"]
    count, epochs = len(players), len(players[0]["epochs"])
    civ_points = {0: -5, 1: 0, 2: 0, 3: 5, 4: 10, 5: 15}
    kind_points = [0, 1, 2, 3, 4, 5, 6, 10, 15]
    set_points = {3: 5, 4: 10, 5: 15}

    def award(values, most, fewest):
        if max(values) == min(values):
            return [0] * len(values)
        return [most if v == max(values) else fewest if v == min(values) else 0 for v in values]

    fame, stages = [10] * count, [[] for _ in players]
    for e in range(epochs):
        held = [player["epochs"][e] for player in players]
        pharaohs = award([h.get("pharaohs", 0) for h in held], 5, -2)
        normal, extra = [], [0] * count
        for p, h in enumerate(held):
            floods = h.get("floods", 0)
            river = floods + h.get("niles", 0) if floods else 0
            kinds = sum(1 for n in h.get("civilizations", {}).values() if n)
            normal.append(2 * h.get("gods", 0) + 3 * h.get("gold", 0) + pharaohs[p] + river
                          + civ_points[kinds])
        if e == 2:
            suns = award([sum(player["suns"]) for player in players], 5, -5)
            for p, player in enumerate(players):
                monuments = player.get("monuments", {}).values()
                extra[p] = (kind_points[sum(1 for n in monuments if n)]
                            + sum(set_points.get(n, 0) for n in monuments) + suns[p])
        for p in range(count):
            steps = ([normal[p] + extra[p]] if options["epoch3_single_net"]
                     else [normal[p], extra[p]])
            for step in steps:
                fame[p] += step
                if options["fame_floor_zero"]:
                    fame[p] = max(0, fame[p])
            stages[p].append(fame[p])
    return stages


def floor_applies(doc) -> bool:
    return doc.get("options", {}).get("fame_floor_zero", True)


@SETTINGS
@given(documents(ANY_OPTIONS))
def test_fame_never_below_zero_and_matches_reference(doc):
    sheet = score_final(doc)
    epochs = len(doc["players"][0]["epochs"])
    assert sheet.complete is (epochs == 3)
    assert [list(p.stage_totals) for p in sheet.players] == reference_stage_totals(doc)
    for p in sheet.players:
        assert len(p.stage_totals) == epochs
        assert p.stage_totals[-1] == p.total
        if floor_applies(doc):
            assert p.total >= 0
            assert all(stage >= 0 for stage in p.stage_totals)


@SETTINGS
@given(documents(ANY_OPTIONS))
def test_categories_add_up_to_total(doc):
    sheet = score_final(doc)
    epochs = len(doc["players"][0]["epochs"])
    for p in sheet.players:
        assert sum(c.points for c in p.categories) == p.total
        assert [(c.key, c.points) for c in p.categories if c.stage is None] == [
            ("starting_fame", printed.STARTING_FAME)]
        fame = printed.STARTING_FAME
        for stage, after in enumerate(p.stage_totals, start=1):
            fame += sum(c.points for c in p.categories if c.stage == stage)
            assert fame == after
            keys = sorted(c.key for c in p.categories if c.stage == stage and c.key != "floor")
            expected = ["civilizations", "gods", "gold", "pharaohs", "river"]
            if stage == 3:
                expected = sorted(expected + ["monument_kinds", "monument_sets", "suns"])
            assert keys == expected
        assert {c.stage for c in p.categories} <= {None, *range(1, epochs + 1)}
        for c in p.categories:
            if c.key == "floor":
                assert c.points > 0 and c.reason == "floor_at_zero" and floor_applies(doc)


@SETTINGS
@given(documents(ANY_OPTIONS), st.data())
def test_permuting_players_permutes_result(doc, data):
    order = data.draw(st.permutations(range(len(doc["players"]))))
    shuffled = dict(doc, players=[doc["players"][i] for i in order])
    before = score_final(doc).as_dict()
    after = score_final(shuffled).as_dict()
    assert [p["name"] for p in after["players"]] == [doc["players"][i]["name"] for i in order]
    assert after["players"] == [before["players"][i] for i in order]
    assert sorted(after["winners"]) == sorted(before["winners"])
    assert after["complete"] == before["complete"]


@SETTINGS
@given(documents(ANY_OPTIONS))
def test_ranks_are_competition_ranks_of_total_and_highest_sun(doc):
    sheet = score_final(doc)
    complete = sheet.complete
    keys = [(p.total, max(player["suns"]) if complete else 0)
            for p, player in zip(sheet.players, doc["players"])]
    for p, key in zip(sheet.players, keys):
        assert p.rank == 1 + sum(1 for other in keys if other > key)
    if complete:
        # Suns are unique, so the tie-break always decides: ranks 1..n, one winner.
        assert sorted(p.rank for p in sheet.players) == list(range(1, len(keys) + 1))
        assert len(sheet.winners) == 1
    else:
        # Part-way, only fame counts: equal totals share a rank.
        totals = [p.total for p in sheet.players]
        assert sheet.winners == [p.name for p in sheet.players if p.total == max(totals)]
    assert sheet.winners == [p.name for p in sheet.players if p.rank == 1]
    for p, player in zip(sheet.players, doc["players"]):
        tied = sum(1 for other in sheet.players if other.total == p.total) > 1
        if complete and tied:
            assert (p.tiebreak.rule, p.tiebreak.value) == ("ra.highest_sun", max(player["suns"]))
        else:
            assert p.tiebreak is None


def _drop_zeros(value):
    if isinstance(value, dict):
        return {k: _drop_zeros(v) for k, v in value.items() if v != 0}
    if isinstance(value, list):
        return [_drop_zeros(v) for v in value]
    return value


@SETTINGS
@given(documents(ANY_OPTIONS))
def test_scoring_is_deterministic(doc):
    original = copy.deepcopy(doc)
    first = score_final(doc)
    assert doc == original                     # the document is left alone
    assert score_final(doc) == first
    assert score_final(copy.deepcopy(doc)).as_dict() == first.as_dict()
    # Missing counts mean 0: the same document without its zero entries scores the same.
    sparse = dict(doc, players=[
        dict(p, epochs=_drop_zeros(p["epochs"]),
             **({"monuments": _drop_zeros(p["monuments"])} if "monuments" in p else {}))
        for p in doc["players"]])
    assert score_final(sparse) == first
