"""Valley of the Kings: property tests (hypothesis, derandomized).

* Scores never depend on player order (§10); totals are the sum of their categories.
* Tomb contents never exceed the pool (§13): an accepted document stays within the pool's
  starters, titles and copies; the live engine's tombs likewise after random play.
* The crumble invariant (§4) holds after every removal, fall and refill, and crumbling
  matches the spec's table, computed here independently.
"""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules.base import InvalidDocument
from companion.rules.valley import VALLEY
from companion.rules.valley import pyramid as pyr
from companion.rules.valley import printed as t
from companion.rules.valley.final import score_final
from companion.rules.valley.pools import PoolId, build_pool, group_titles
from companion.rules.valley.setup import setup
from companion.rules.valley.state import card_set
from tests.rules.valley_sim import Sim, random_options

SETTINGS = settings(derandomize=True, max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
POOLS = [p.value for p in PoolId]


# ------------------------------------------------------------------------------------------
# Documents
# ------------------------------------------------------------------------------------------


@st.composite
def documents(draw, itemised: bool = False):
    """A valid end-of-game document: quick counts or the itemised checklist."""
    pool_id = draw(st.sampled_from(POOLS))
    pool = build_pool(pool_id)
    players = draw(st.integers(2, min(6, pool.starter_decks)))
    unique_names = iter(draw(st.permutations([f"Unique {i}" for i in range(pool.uniques)])))
    uniques_left = pool.uniques
    copies_left = {g.id: {c: pool.copies for c in group_titles(g, {})} for g in pool.groups}
    doc_players = []
    for p in range(players):
        starters = {s: draw(st.integers(0, n)) for s, n in t.STARTERS_PER_PLAYER.items()}
        count = draw(st.integers(0, min(2, uniques_left)))
        uniques_left -= count
        uniques = [{"title": next(unique_names), "vp": draw(st.integers(0, 8))}
                   for _ in range(count)]
        player = {"name": f"P{p}", "starters": starters, "uniques": uniques}
        items = sum(starters.values()) + count
        if itemised:
            checklist = {}
            for group in pool.groups:
                titles = {}
                for title, left in copies_left[group.id].items():
                    take = draw(st.integers(0, min(left, 1)))
                    if take:
                        titles[title] = take
                        copies_left[group.id][title] -= take
                if titles:
                    checklist[group.id] = {"titles": titles}
                    items += sum(titles.values())
            player["checklist"] = checklist
            player["tomb_cards"] = items
        else:
            distinct = {}
            for group in pool.groups:
                room = sum(1 for n in copies_left[group.id].values() if n)
                value = draw(st.integers(0, min(group.size, room)))
                for title in [c for c, n in copies_left[group.id].items() if n][:value]:
                    copies_left[group.id][title] -= 1
                distinct[group.id] = value
                items += value
            player["distinct"] = distinct
            player["tomb_cards"] = items + draw(st.integers(0, 4))
        doc_players.append(player)
    return {"game": "valley", "options": {"pool": pool_id, "solo": None},
            "players": doc_players}


def by_name(sheet) -> dict[str, dict]:
    return {p["name"]: p for p in sheet.as_dict()["players"]}


@SETTINGS
@given(doc=st.one_of(documents(), documents(itemised=True)), data=st.data())
def test_scores_never_depend_on_player_order(doc, data):
    order = data.draw(st.permutations(range(len(doc["players"]))))
    shuffled = {**doc, "players": [doc["players"][i] for i in order]}
    assert by_name(score_final(doc)) == by_name(score_final(shuffled))


@SETTINGS
@given(doc=st.one_of(documents(), documents(itemised=True)))
def test_totals_are_the_sum_of_their_categories_and_ranks_follow(doc):
    sheet = score_final(doc)
    for player in sheet.players:
        assert player.total == sum(c.points for c in player.categories)
        better = [o for o in sheet.players if o.total > player.total]
        assert player.rank >= len(better) + 1


@SETTINGS
@given(doc=documents(), extra=st.integers(1, 30), data=st.data())
def test_an_accepted_document_stays_within_the_pool(doc, extra, data):
    """Inflate one number of a valid document: either refused, or still within the pool."""
    player = data.draw(st.sampled_from(doc["players"]))
    pool = build_pool(doc["options"]["pool"])
    target = data.draw(st.sampled_from(["starter", "group"]))
    if target == "starter":
        starter = data.draw(st.sampled_from(t.STARTERS))
        player["starters"][starter] += extra
    else:
        group = data.draw(st.sampled_from([g.id for g in pool.groups]))
        player["distinct"][group] += extra
    player["tomb_cards"] += extra
    try:
        score_final(doc)
    except InvalidDocument as refused:
        assert {v.code for v in refused.violations} == {"VK_COPY_LIMIT"}
        return
    players = len(doc["players"])
    for starter, per_player in t.STARTERS_PER_PLAYER.items():
        assert sum(p["starters"][starter] for p in doc["players"]) <= per_player * players
    for group in pool.groups:
        assert all(p["distinct"][group.id] <= group.size for p in doc["players"])
        assert sum(p["distinct"][group.id] for p in doc["players"]) <= group.size * pool.copies


@SETTINGS
@given(seed=st.integers(0, 10_000), players=st.integers(1, 6))
def test_live_tombs_never_exceed_the_pool(seed, players):
    sim = Sim(seed, players, random_options(random.Random(seed), players),
              check_every_move=False).run()
    state = sim.state
    held = Counter(c for p in state["players"] for c in p["tomb"])
    for card, count in held.items():
        assert count <= state["limits"][card]
    for set_id in state["pool"]["sets"]:
        titles = {c for c in held if card_set(state, c) == set_id}
        assert len(titles) <= t.SETS[set_id].size
    uniques = {c for c in held if card_set(state, c) == t.UNIQUE}
    assert len(uniques) <= state["pool"]["uniques"]


# ------------------------------------------------------------------------------------------
# The pyramid
# ------------------------------------------------------------------------------------------

FEEDERS = {"B1": ["M1"], "B2": ["M1", "M2"], "B3": ["M2"], "M1": ["T"], "M2": ["T"], "T": []}


def reference_remove(slots: list, slot: str, drop: str | None) -> list:
    """Spec §4's table, step by step: the emptied slot takes a card from above."""
    cards = dict(zip(pyr.SLOTS, slots))
    cards[slot] = None
    hole = slot
    while True:
        above = [s for s in FEEDERS[hole] if cards[s] is not None]
        if not above:
            return [cards[s] for s in pyr.SLOTS]
        source = drop if len(above) == 2 else above[0]
        drop = None
        cards[hole], cards[source] = cards[source], None
        hole = source


def reference_settled(slots: list) -> bool:
    """Spec §4's invariant, as written."""
    cards = dict(zip(pyr.SLOTS, slots))
    empty = {s for s, c in cards.items() if c is None}
    return (("B1" not in empty or "M1" in empty) and ("B3" not in empty or "M2" in empty)
            and ("B2" not in empty or {"M1", "M2"} <= empty)
            and (not {"M1", "M2"} & empty or "T" in empty))


@st.composite
def pyramids(draw):
    occupied = draw(st.lists(st.booleans(), min_size=6, max_size=6))
    slots = [f"c{i}" if full else None for i, full in enumerate(occupied)]
    return slots if reference_settled(slots) else [f"c{i}" for i in range(6)]


@SETTINGS
@given(start=pyramids(), steps=st.lists(st.tuples(st.integers(0, 5), st.integers(0, 1),
                                                  st.integers(0, 2)), max_size=25))
def test_crumble_invariant_after_every_removal_fall_and_refill(start, steps):
    slots = list(start)
    counter = 100
    for pick, choice, operation in steps:
        occupied = [s for s in pyr.SLOTS if slots[pyr.INDEX[s]] is not None]
        if operation == 0 and occupied:
            slot = occupied[pick % len(occupied)]
            options = pyr.drop_choices([None if s == slot else c for s, c in
                                        zip(pyr.SLOTS, slots)], slot)
            drop = options[choice % len(options)] if len(options) > 1 else None
            removed = slots[pyr.INDEX[slot]]
            after = pyr.remove(slots, slot, drop, "move.drop")
            assert after == reference_remove(slots, slot, drop)
            assert Counter(c for c in after if c) == Counter(c for c in slots if c) - Counter(
                [removed])
            slots = after
        elif operation == 1 and pyr.fall_targets(slots):
            targets = pyr.fall_targets(slots)
            place = targets[choice % len(targets)]
            slots = pyr.place_falling(slots, f"x{counter}", place, "move.place")
            counter += 1
        else:
            for slot in pyr.refill_order(slots)[:pick % 4]:
                slots[pyr.INDEX[slot]] = f"r{counter}"
                counter += 1
        assert pyr.settled(slots) and reference_settled(slots), slots


@SETTINGS
@given(start=pyramids())
def test_every_state_the_engine_accepts_is_settled(start):
    assert pyr.settled(start) == reference_settled(start)
    for slot, choices in pyr.choices_needed(start).items():
        assert slot == "B2" and choices == ["M1", "M2"]


@SETTINGS
@given(seed=st.integers(0, 10_000))
def test_crumble_invariant_after_every_move_of_a_random_game(seed):
    rng = random.Random(seed)
    players = 1 + seed % 6
    sim = Sim(seed, players, random_options(rng, players), check_every_move=False)
    state = setup(sim.options, sim.names, sim.setup_doc, sim.edition)
    sim.run()
    for seat, move in sim.log:
        state = VALLEY.apply(state, seat, move)
        assert reference_settled(state["pyramid"])
