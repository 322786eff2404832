"""Valley of the Kings score-only mode (companion/rules/valley/final.py) and the catalogue.

1. The catalogue as data (spec §2): both boxes' starters, sets, uniques, every value with a
   source, placeholders, the pools of §11.
2. The final-state document contract of issue 12: every 422 it lists, each naming its field,
   and the game's further checks; the edition data; the itemised checklist (§14 field 5).
3. Solo (§12) and the ruleset members of the score-only form.
"""

from __future__ import annotations

import copy

import pytest

from companion.rules import base, get_ruleset
from companion.rules.base import InvalidDocument
from companion.rules.valley import printed as t
from companion.rules.valley.final import OTHERS_FORM_SIZE, score_final
from companion.rules.valley.pools import PoolId, all_group_ids, build_pool
from tests.rules.valley_helpers import category, document, player_doc


def violations(doc) -> list[tuple[str, str | None]]:
    with pytest.raises(InvalidDocument) as raised:
        score_final(doc)
    for violation in raised.value.violations:
        assert violation.render()                      # the msgid takes its parameters
    return [(v.code, v.field) for v in raised.value.violations]


def ana(**kw):
    return player_doc("Ana", kw.pop("tomb_cards", 10), **kw)


def bo(**kw):
    return player_doc("Bo", kw.pop("tomb_cards", 10), **kw)


# ------------------------------------------------------------------------------------------
# 1. The catalogue
# ------------------------------------------------------------------------------------------


def test_starters_are_the_seeds_decks():
    assert dict(t.STARTERS_PER_PLAYER) == {"shabti": 4, "urn": 3, "box_of_food": 2,
                                           "offering_table": 1}
    for starter in t.STARTERS:
        title = t.TITLES[starter]
        assert title.kind is t.Kind.STARTER and title.box is t.Box.BOTH
        assert title.name_cs and title.name_en and title.vp == 1
        assert title.cost is None and title.capital is None      # unknown (spec §2.4)
        assert "vp" in title.sources
    assert t.TITLES["shabti"].verified["vp"] and not t.TITLES["urn"].verified["vp"]


@pytest.mark.parametrize("set_id, box, size, colour", [
    ("mummification", "afterlife", 3, "red"), ("jewelry", "afterlife", 4, "brown"),
    ("chambers", "afterlife", 5, "yellow"), ("weapons", "afterlife", 6, "green"),
    ("tomb_art", "afterlife", 7, "light_blue"), ("sarcophagi", "original", 3, "red"),
    ("canopic_jars", "original", 4, "brown"), ("amulets", "original", 5, "yellow"),
    ("books", "original", 6, "green"), ("statuettes", "original", 7, "light_blue"),
])
def test_sets_with_colours_and_sizes(set_id, box, size, colour):
    card_set = t.SETS[set_id]
    assert (card_set.box.value, card_set.size, card_set.colour.value) == (box, size, colour)
    assert len(t.set_titles(set_id)) == size
    assert card_set.name_cs and card_set.name_en and card_set.source


def test_every_known_value_has_a_source_and_unknown_ones_are_none():
    for title in t.TITLES.values():
        for name in ("cost", "capital", "vp", "name_cs", "name_en"):
            if getattr(title, name) is not None and title.placeholder is None:
                assert name in title.sources, (title.id, name)
        if title.placeholder:
            assert (title.name_cs, title.name_en, title.cost, title.capital, title.vp) == (
                None, None, None, None, None)
    assert t.TITLES["nut"].cost == 4 and t.TITLES["spear"].capital == 3
    assert t.TITLES["offering_chapel"].capital == 2
    assert t.TITLES["sphinx"].vp is None and t.TITLES["ibex_statuette"].vp is None


def test_spec_title_counts():
    afterlife = [x for x in t.TITLES.values() if x.box is t.Box.AFTERLIFE]
    assert sum(1 for x in afterlife if x.placeholder is None) == 24        # spec §2.5
    assert sum(1 for x in afterlife if x.placeholder) == 13
    assert set(t.UNPLACED) == {"nut", "judgement", "victory", "hounds_and_jackals", "senet",
                               "mirror_case"}
    assert t.title_label("tomb_art_5") == "Tomb Art #5 (unknown title)"
    assert t.title_label("brooch", "cs") == "Brož" and t.title_label("judgement", "cs") == \
        "Posmrtný soud"
    assert t.find_title("Truhla s jídlem") == "box_of_food" and t.find_title("KOPÍ") == "spear"
    assert sorted(t.set_titles("books")) == sorted(
        ["book_of_gates", "book_of_the_dead", "book_of_the_earth", "book_of_the_heavens",
         "book_of_the_netherworld", "book_of_traversing_eternity"])


@pytest.mark.parametrize("pool, groups", [
    ("afterlife", {"mummification": 3, "jewelry": 4, "chambers": 5, "weapons": 6,
                   "tomb_art": 7}),
    ("original", {"sarcophagi": 3, "canopic_jars": 4, "amulets": 5, "books": 6,
                  "statuettes": 7}),
    ("half_sets", {s: t.SETS[s].size for s in t.SETS}),
    ("half_sets_merged", {"red": 6, "brown": 8, "yellow": 10, "green": 12, "light_blue": 14}),
    ("five_players", {"red": 6, "brown": 8, "chambers": 5, "weapons": 6, "tomb_art": 7}),
    ("six_players", {"red": 6, "brown": 8, "yellow": 10, "weapons": 6, "tomb_art": 7}),
])
def test_scoring_groups_of_every_pool(pool, groups):
    built = build_pool(pool)
    assert {g.id: g.size for g in built.groups} == groups
    assert built.copies == (1 if pool.startswith("half") else 2)
    assert built.uniques == (10 if pool == "six_players" else 6)


def test_mix_picks_one_set_per_size():
    built = build_pool("mix", {3: "sarcophagi", 5: "amulets"}, "mixed")
    assert [g.id for g in built.groups] == ["sarcophagi", "jewelry", "amulets", "weapons",
                                            "tomb_art"]
    assert set(built.unique_boxes) == {t.Box.AFTERLIFE, t.Box.ORIGINAL}


# ------------------------------------------------------------------------------------------
# 2. The contract's example and the checks it lists
# ------------------------------------------------------------------------------------------

CONTRACT = {"game": "valley",
            "options": {"pool": "afterlife", "solo": None},
            "edition": {"starter_vp": {"shabti": 1, "urn": 1, "box_of_food": 1,
                                       "offering_table": 1}},
            "players": [
                {"name": "Ana", "tomb_cards": 13,
                 "starters": {"shabti": 3, "urn": 1, "box_of_food": 0, "offering_table": 1},
                 "uniques": [{"title": "Sphinx", "vp": 4}],
                 "distinct": {"mummification": 1, "jewelry": 0, "chambers": 2, "weapons": 4,
                              "tomb_art": 0}},
                {"name": "Bo", "tomb_cards": 5, "starters": {"shabti": 2},
                 "distinct": {"weapons": 3}}]}


def test_contract_document_scores():
    sheet = score_final(CONTRACT).as_dict()
    a, b = sheet["players"]
    assert a["total"] == 3 + 1 + 1 + 4 + 1 + 4 + 16 == 30
    assert b["total"] == 2 + 9 == 11
    assert sheet["winners"] == ["Ana"]
    assert "assumed" not in sheet                     # every starter VP confirmed
    assert category(a, "uniques")["detail"] == {"cards": [{"title": "Sphinx", "vp": 4}]}


def test_contract_example_as_printed_lists_more_items_than_tomb_cards():
    # The example says 12 tomb cards for 5 starters + 1 unique + 7 titles = 13.
    doc = copy.deepcopy(CONTRACT)
    doc["players"][0]["tomb_cards"] = 12
    assert violations(doc) == [("valley.tomb_too_small", "players.0.tomb_cards")]


def test_edition_left_out_assumes_one_vp_for_unconfirmed_starters():
    doc = copy.deepcopy(CONTRACT)
    del doc["edition"]
    sheet = score_final(doc).as_dict()
    assert sheet["assumed"] == [{"key": "starter_vp",
                                 "label": "Victory points printed on the starter cards",
                                 "value": {"urn": 1, "offering_table": 1}}]
    doc["edition"] = {"starter_vp": {"urn": 2}}
    sheet = score_final(doc).as_dict()
    assert sheet["players"][0]["total"] == 31
    assert sheet["assumed"][0]["value"] == {"offering_table": 1}


@pytest.mark.parametrize("change, expected", [
    pytest.param(lambda d: d["players"][0]["distinct"].update(weapons=7),
                 [("VK_COPY_LIMIT", "players.0.distinct.weapons")], id="distinct-over-size"),
    pytest.param(lambda d: (d["players"][1]["starters"].update(shabti=6, urn=6),
                            d["players"][1].update(tomb_cards=20)),
                 [("VK_COPY_LIMIT", "players.1.starters.shabti"),
                  ("VK_COPY_LIMIT", "players.1.starters.urn")], id="starters-over-pool"),
    pytest.param(lambda d: d["players"][1].update(tomb_cards=4),
                 [("valley.tomb_too_small", "players.1.tomb_cards")], id="tomb-too-small"),
    pytest.param(lambda d: d["players"][1].update(uniques=[{"title": "sphinx", "vp": 4}],
                                                  tomb_cards=6),
                 [("VK_COPY_LIMIT", "players.1.uniques.0.title")], id="unique-twice"),
    pytest.param(lambda d: d["players"][1]["distinct"].update(books=2),
                 [("valley.unknown_group", "players.1.distinct.books")], id="foreign-group"),
])
def test_contract_checks(change, expected):
    doc = copy.deepcopy(CONTRACT)
    change(doc)
    assert violations(doc) == expected


@pytest.mark.parametrize("doc, expected", [
    pytest.param(document(), [("valley.bad_player_count", "players")], id="no-players"),
    pytest.param(document(*(player_doc(f"P{i}", 0) for i in range(7)), pool="six_players"),
                 [("valley.bad_player_count", "players")], id="seven-players"),
    pytest.param(document(ana(), player_doc("ana", 0)),
                 [("valley.duplicate_name", "players.1.name")], id="same-name"),
    pytest.param(document(ana(), bo(), solo="master"),
                 [("valley.solo_alone", "options.solo")], id="solo-with-two"),
    pytest.param(document(ana(), solo="expert"),
                 [("valley.unknown_solo", "options.solo")], id="unknown-solo"),
    pytest.param(document(*(player_doc(f"P{i}", 0) for i in range(5))),
                 [("valley.too_many_players", "players")], id="five-without-both-boxes"),
    pytest.param(document(ana(), bo(), pool="mix", set_3="books"),
                 [("valley.unknown_set", "options.set_3")], id="wrong-set-choice"),
    pytest.param(document(ana(), bo(), pool="mix", uniques="both"),
                 [("valley.unknown_unique_box", "options.uniques")], id="unique-box"),
    pytest.param(document(ana(uniques=[("Sphinx", None)]), bo()),
                 [("valley.unique_vp_needed", "players.0.uniques.0.vp")], id="unique-vp"),
    pytest.param(document(ana(uniques=[("Axe", 3)]), bo()),
                 [("valley.not_a_unique", "players.0.uniques.0.title")], id="not-unique"),
    pytest.param(document(ana(uniques=[("Boat", 3)]), bo()),
                 [("valley.not_in_pool", "players.0.uniques.0.title")], id="other-box"),
    pytest.param(document(ana(tomb_cards=7, uniques=[(f"U{i}", 1) for i in range(7)]), bo()),
                 [("VK_COPY_LIMIT", "players.0.uniques")], id="seven-uniques"),
    pytest.param(document(ana(distinct={"weapons": 6}), bo(distinct={"weapons": 6}),
                          player_doc("Cy", 10, distinct={"weapons": 1})),
                 [("VK_COPY_LIMIT", "players.2.distinct.weapons")], id="pool-holds-12"),
    pytest.param(document(ana(distinct={"weapons": 4}), bo(distinct={"weapons": 3}),
                          pool="half_sets"),
                 [("VK_COPY_LIMIT", "players.1.distinct.weapons")], id="half-sets-one-copy"),
    pytest.param(document(ana(distinct={"weapons": -1}), bo()),
                 [("schema.negative", "players.0.distinct.weapons")], id="negative-count"),
    pytest.param(document(ana(distinct=[1, 2]), bo()),
                 [("schema.not_object", "players.0.distinct")], id="distinct-not-object"),
    pytest.param({**document(ana(), bo()), "game": "ra"},
                 [("score.wrong_game", "game")], id="wrong-game"),
    pytest.param(document(ana(tomb_cards=-1), bo()),
                 [("schema.negative", "players.0.tomb_cards")], id="schema-first"),
    pytest.param(document(ana(), bo(), edition={"starter_vp": {"urn": "x"}}),
                 [("schema.not_integer", "edition.starter_vp.urn")], id="edition-value"),
    pytest.param(document(ana(), bo(), edition={"colour": 1}),
                 [("schema.unknown_key", "edition.colour")], id="edition-key"),
    pytest.param(document(ana(), bo(), edition={"card_set": {"nut": "books"}}),
                 [("valley.unknown_set", "edition.card_set.nut")], id="edition-placement"),
])
def test_document_checks(doc, expected):
    assert violations(doc) == expected


def test_every_violation_is_reported_at_once():
    doc = document(ana(distinct={"weapons": 9, "books": 1}, tomb_cards=1), bo(),
                   player_doc("Bo", 0))
    found = violations(doc)
    assert ("VK_COPY_LIMIT", "players.0.distinct.weapons") in found
    assert ("valley.unknown_group", "players.0.distinct.books") in found
    assert ("valley.duplicate_name", "players.2.name") in found


def test_unique_vp_from_the_groups_edition_and_free_text_titles():
    doc = document(ana(uniques=[("Sfinga", None), ("Our golden cat", 2)]), bo(),
                   edition={"unique_vp": {"sphinx": 5}})
    sheet = score_final(doc).as_dict()
    assert category(sheet["players"][0], "uniques")["points"] == 7
    dup = document(ana(uniques=[("Our golden cat", 2)]), bo(uniques=[("our  golden cat", 2)]))
    assert ("VK_COPY_LIMIT", "players.1.uniques.0.title") in violations(dup)


def test_mix_reads_the_set_choice_from_the_group_ids():
    doc = document(ana(distinct={"sarcophagi": 2, "books": 3}), bo(distinct={"weapons": 0}),
                   pool="mix")
    assert violations(doc) == [("valley.unknown_group", "players.0.distinct.books")]
    doc = document(ana(distinct={"sarcophagi": 2, "books": 3}), bo(), pool="mix")
    sheet = score_final(doc).as_dict()
    assert [c["category"] for c in sheet["players"][0]["breakdown"]["categories"][5:]] == [
        "sarcophagi", "jewelry", "chambers", "books", "tomb_art"]
    assert sheet["players"][0]["total"] == 4 + 9
    chosen = document(ana(distinct={"books": 3}), bo(), pool="mix", set_6="weapons")
    assert violations(chosen) == [("valley.unknown_group", "players.0.distinct.books")]


# ------------------------------------------------------------------------------------------
# The itemised checklist (spec §14 field 5)
# ------------------------------------------------------------------------------------------


def test_checklist_computes_distinct_and_tomb_cards():
    doc = document(player_doc("Ana", None, {"shabti": 2}, [("Sphinx", 3)], checklist={
        "weapons": {"titles": {"axe": 2, "Dýka": 1}, "others": [1, None, ""]},
        "tomb_art": {"others": [1, 2]}}), bo())
    a = score_final(doc).as_dict()["players"][0]
    assert category(a, "weapons")["detail"] == {"distinct": 3, "of": 6}
    assert category(a, "tomb_art")["detail"] == {"distinct": 2, "of": 7}
    assert a["total"] == 2 + 3 + 9 + 4
    # the tomb count it implies: 2 + 1 + (2 + 1 + 1) + (1 + 2) = 10
    doc["players"][0]["tomb_cards"] = 11
    assert violations(doc) == [("valley.tomb_count_mismatch", "players.0.tomb_cards")]
    doc["players"][0]["tomb_cards"] = 10
    doc["players"][0]["distinct"] = {"weapons": 2}
    assert violations(doc) == [("valley.checklist_mismatch", "players.0.distinct.weapons")]


@pytest.mark.parametrize("checklist, second, expected", [
    pytest.param({"weapons": {"titles": {"excalibur": 1}}}, None,
                 [("valley.unknown_title", "players.0.checklist.weapons.titles.excalibur")],
                 id="unknown-title"),
    pytest.param({"weapons": {"titles": {"ring": 1}}}, None,
                 [("valley.title_not_in_group", "players.0.checklist.weapons.titles.ring")],
                 id="wrong-group"),
    pytest.param({"weapons": {"titles": {"axe": 3}}}, None,
                 [("VK_COPY_LIMIT", "players.0.checklist.weapons.titles.axe")],
                 id="three-axes"),
    pytest.param({"weapons": {"titles": {"axe": 2}}}, {"weapons": {"titles": {"axe": 1}}},
                 [("VK_COPY_LIMIT", "players.1.checklist.weapons.titles.axe")],
                 id="copies-across-tombs"),
    pytest.param({"tomb_art": {"titles": {"nut": 1}}}, {"chambers": {"titles": {"nut": 1}}},
                 [("valley.title_not_in_group", "players.1.checklist.chambers.titles.nut")],
                 id="unplaced-in-two-groups"),
    pytest.param({"books": {"titles": {"book_of_gates": 1}}}, None,
                 [("valley.unknown_group", "players.0.checklist.books")], id="foreign-group"),
    pytest.param({"weapons": {"others": [3]}}, None,
                 [("VK_COPY_LIMIT", "players.0.checklist.weapons.others.0")], id="others"),
    pytest.param({"weapons": {"titles": {"axe": 1}, "colour": "green"}}, None,
                 [("schema.unknown_key", "players.0.checklist.weapons.colour")], id="key"),
    pytest.param({"tomb_art": {"others": [1] * 8}}, None,
                 [("VK_COPY_LIMIT", "players.0.checklist.tomb_art")], id="eight-titles"),
])
def test_checklist_checks(checklist, second, expected):
    players = [player_doc("Ana", None, checklist=checklist),
               player_doc("Bo", None if second else 0, checklist=second)]
    assert violations(document(*players)) == expected


def test_checklist_places_a_name_the_catalogue_cannot_and_honours_the_edition():
    doc = document(player_doc("Ana", None, checklist={"tomb_art": {"titles": {"nut": 1}}}),
                   player_doc("Bo", None, checklist={"tomb_art": {"titles": {"Bohyně Nút": 1}}}))
    assert [p.total for p in score_final(doc).players] == [1, 1]
    doc["edition"] = {"card_set": {"nut": "chambers"}}
    assert violations(doc)[0] == ("valley.title_not_in_group",
                                  "players.0.checklist.tomb_art.titles.nut")


def test_half_sets_checklist_allows_one_copy():
    doc = document(player_doc("Ana", None, checklist={"weapons": {"titles": {"axe": 2}}}), bo(),
                   pool="half_sets")
    assert violations(doc) == [("VK_COPY_LIMIT", "players.0.checklist.weapons.titles.axe")]


# ------------------------------------------------------------------------------------------
# 3. Solo and the form
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("solo", [None, "beginner", "master", "none", ""])
def test_one_player_is_solo(solo):
    doc = document(player_doc("Ana", None, checklist={"weapons": {"titles": {
        "axe": 2, "dagger": 1}}}), solo=solo)
    a = score_final(doc).as_dict()["players"][0]
    assert category(a, "weapons")["points"] == 1          # the pair of Axes counts for neither
    assert category(a, "solo_goal")["reason"] == "not_perfect"
    assert a["breakdown"]["goal"]["reached"] is False


def test_only_a_solo_game_has_a_goal_and_a_goal_has_a_target_only_with_known_uniques():
    two = score_final(document(player_doc("Ana", 0), player_doc("Bo", 0))).as_dict()
    assert all("goal" not in p["breakdown"] for p in two["players"])
    mixed = score_final(document(player_doc("Ana", 0), pool="mix", uniques="mixed",
                                 solo="beginner")).as_dict()["players"][0]
    assert mixed["breakdown"]["goal"]["target"] is None


def test_solo_in_a_mixed_pool_is_unofficial_but_scored():
    pool = build_pool("mix", {7: "statuettes"})
    doc = document(player_doc("Ana", 5, distinct={g.id: 1 for g in pool.groups}),
                   pool="mix", set_7="statuettes", solo="beginner")
    a = score_final(doc).as_dict()["players"][0]
    assert a["total"] == 5 and category(a, "solo_goal")["detail"]["official"] is False


def test_ruleset_score_members():
    ruleset = get_ruleset("valley")
    assert isinstance(ruleset, base.Ruleset)
    assert ruleset.catalogue.names["cs"] == "Ve stínu pyramid: Zásvětí"
    assert "valley_of_the_kings" in ruleset.catalogue.aliases
    assert ruleset.catalogue.player_counts == (1, 2, 3, 4, 5, 6)
    sizes = ruleset.form_sizes(3, 1)
    assert {k: sizes.pop(k) for k in ("players", "players.*.uniques")} == {
        "players": 3, "players.*.uniques": 6}
    # and rows for further titles of each scoring group of every pool ("another title")
    assert sizes == {f"players.*.checklist.{group}.others": OTHERS_FORM_SIZE
                     for group in all_group_ids()}
    assert len(sizes) == 15 and OTHERS_FORM_SIZE >= 1
    assert {v.key for v in ruleset.edition} == {"starter_vp", "unique_vp", "cost", "capital",
                                                "card_set"}
    labels = ruleset.labels
    for group in all_group_ids():
        assert group in labels.categories
    assert "valley.fewer_tomb_cards" in labels.tiebreaks
    assert [f.key for f in ruleset.options][:2] == ["pool", "solo"]
    assert {c[0] for c in ruleset.options[0].choices} == {p.value for p in PoolId}
    keys = [f.key for f in ruleset.final_schema.fields]
    assert keys == ["game", "options", "edition", "players"]
