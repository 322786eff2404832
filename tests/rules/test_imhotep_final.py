"""Imhotep score-only mode (companion/rules/imhotep/final.py): whole documents scored by hand.

Every total below is worked out in the comments from spec shared/rules/imhotep.md §5.3:
track + burial chamber (A: groups 1/3/6/10/15/+2; B: row majorities 8/4/2/1) + obelisks (A:
rank points 10/1, 12/6/1, 15/10/5/1, ties share rounded down, no stone no part; B: 1 per
waiting stone) + decorations (1 per 3 stones at the site, per card) + statues (1/3/6/10/15/+2)
+ 1 per unused blue card − 5 for the Wrath of the Pharaoh when on. Ties: most sled stones.
The second half checks every kind of bad document, by code and dotted field; the last part
is a property: scores do not depend on the order the players are listed in.
"""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules import get_ruleset
from companion.rules.base import InvalidDocument
from companion.rules.imhotep import IMHOTEP, printed
from companion.rules.imhotep.final import score_final


def player(name, color, track=0, obelisk=0, sled=0, delivered_to=(), towers=None, **cards):
    out = {"name": name, "color": color, "track": track, "obelisk": obelisk, "cards": cards,
           "sled": sled, "delivered_to": list(delivered_to)}
    if towers is not None:
        out["obelisk_towers"] = list(towers)
    return out


def totals(sheet) -> list[int]:
    return [p.total for p in sheet.players]


def ranks(sheet) -> list[int]:
    return [p.rank for p in sheet.players]


def points(sheet, p: int, key: str) -> int:
    found = [c.points for c in sheet.players[p].categories if c.key == key]
    assert len(found) == 1, (key, found)
    return found[0]


# ------------------------------------------------------------------------------------------
# Three players, A sides
# ------------------------------------------------------------------------------------------

def three_player_doc() -> dict:
    return {
        "game": "imhotep",
        "options": {"sides": {site: "A" for site in printed.SITES}, "wrath_of_pharaoh": False},
        "players": [
            player("Ana", "black", track=23, obelisk=4, sled=2,
                   delivered_to=["pyramids", "temple"], statue=3, pyramid_decoration=1,
                   sail=1),
            player("Bo", "white", track=30, obelisk=2, sled=0, delivered_to=["temple"],
                   statue=1, temple_decoration=1, lever=1, hammer=1),
            player("Cy", "gray", track=27, obelisk=4, sled=4, delivered_to=["pyramids"],
                   statue=5, obelisk_decoration=1, burial_chamber_decoration=1, chisel=1),
        ],
        # columns top to bottom: Bk W G | G G Bk | W W G
        "burial_chamber": ["black", "white", "gray", "gray", "gray", "black", "white", "white",
                           "gray"],
        "site_stones": {"pyramids": 14, "temple": 11},
    }


def test_three_players_a_sides():
    # Burial chamber: black two single stones 1+1 = 2; white a single (1) and the pair in
    # column 3 (3) = 4; gray the single bottom-left (1), the pair at the top of column 2 (3)
    # and the single bottom-right (1) = 5.
    # Obelisks (3 players: 12/6/1): Ana 4 and Cy 4 share 1st and 2nd: (12+6)/2 = 9; Bo 1.
    # Decorations: Ana pyramid 14//3 = 4; Bo temple 11//3 = 3; Cy obelisk (4+2+4)//3 = 3 and
    # burial chamber 9//3 = 3. Statues: 3 → 6, 1 → 1, 5 → 15. Blue: 1, 2, 1.
    # Ana 23 + 2 + 9 + 4 + 6 + 1 = 45; Bo 30 + 4 + 1 + 3 + 1 + 2 = 41;
    # Cy 27 + 5 + 9 + 3 + 3 + 15 + 1 = 63.
    sheet = score_final(three_player_doc())
    assert totals(sheet) == [45, 41, 63]
    assert ranks(sheet) == [2, 3, 1]
    assert sheet.winners == ["Cy"]
    assert sheet.complete
    assert [points(sheet, p, "burial_chamber") for p in range(3)] == [2, 4, 5]
    assert [points(sheet, p, "obelisks") for p in range(3)] == [9, 1, 9]
    assert points(sheet, 2, "obelisk_decoration") == 3
    assert points(sheet, 2, "burial_chamber_decoration") == 3
    assert [points(sheet, p, "statues") for p in range(3)] == [6, 1, 15]
    assert [points(sheet, p, "blue_cards") for p in range(3)] == [1, 2, 1]
    assert all(p.tiebreak is None for p in sheet.players)


def test_as_dict_contract():
    out = score_final(three_player_doc()).as_dict()
    assert set(out) == {"game", "complete", "players", "winners"}
    assert out["game"] == "imhotep" and out["winners"] == ["Cy"]
    first = out["players"][0]
    assert set(first) == {"name", "total", "rank", "breakdown"}
    keys = [c["category"] for c in first["breakdown"]["categories"]]
    assert keys == ["track", "burial_chamber", "obelisks", "pyramid_decoration",
                    "temple_decoration", "burial_chamber_decoration", "obelisk_decoration",
                    "statues", "blue_cards"]
    assert first["breakdown"]["stage_totals"] == []
    assert sum(c["points"] for c in first["breakdown"]["categories"]) == first["total"]
    assert set(keys) <= set(printed.CATEGORY_LABELS)


def test_ruleset_registered_and_scores_the_same():
    assert get_ruleset("imhotep") is IMHOTEP
    assert IMHOTEP.score_final(three_player_doc()).as_dict() == \
        score_final(three_player_doc()).as_dict()
    assert IMHOTEP.catalogue.names == {"en": "Imhotep", "cs": "Imhotep", "hu": "Imhotep"}


def test_document_not_mutated():
    doc = three_player_doc()
    doc["players"][0]["name"] = "  Ana  "
    doc["players"][1]["color"] = "WHITE"
    doc["players"][2]["color"] = "Grey"                  # British spelling
    doc["burial_chamber"][2] = "grey"
    doc["burial_chamber"].insert(3, None)
    before = copy.deepcopy(doc)
    sheet = score_final(doc)
    assert doc == before
    assert sheet.players[0].name == "Ana"
    assert totals(sheet) == [45, 41, 63]


# ------------------------------------------------------------------------------------------
# Four players, B sides mixed in, Wrath on
# ------------------------------------------------------------------------------------------

def four_player_doc(score_at_end: bool = False) -> dict:
    return {
        "game": "imhotep",
        "options": {"sides": {"market": "B", "pyramids": "B", "temple": "A",
                              "burial_chamber": "A", "obelisks": "B"},
                    "wrath_of_pharaoh": True, "obelisks_b_score_at_end": score_at_end},
        "players": [
            player("Ana", "black", track=40, obelisk=1, towers=[12], sled=3,
                   delivered_to=["pyramids", "temple"], statue=2),
            player("Bo", "white", track=35, obelisk=2, towers=[11, 10], sled=1,
                   delivered_to=["pyramids", "temple"]),
            player("Cy", "brown", track=28, obelisk=0, sled=5,
                   delivered_to=["pyramids", "temple"], statue=1, obelisk_decoration=1),
            player("Di", "gray", track=33, obelisk=2, sled=0, delivered_to=["temple"], lever=2),
        ],
        # columns: G G G | Br Br W
        "burial_chamber": ["gray", "gray", "gray", "brown", "brown", "white"],
        "site_stones": {"pyramids": 9, "temple": 12},
    }


def test_four_players_b_sides_and_wrath():
    # Burial A: gray 3 → 6, brown 2 → 3, white 1 → 1, black none.
    # Obelisks B: 1 point per waiting stone (towers are on the track): 1, 2, 0, 2.
    # Obelisk decoration (Cy): stones 1+3 + 2+6 + 0 + 2 = 14 → 4. Statues: 2 → 3, 1 → 1.
    # Blue: Di 2. Wrath (-5): Ana no burial stone; Cy no obelisk stone; Di no pyramid stone.
    # Ana 40 + 0 + 1 + 3 - 5 = 39; Bo 35 + 1 + 2 = 38; Cy 28 + 3 + 0 + 4 + 1 - 5 = 31;
    # Di 33 + 6 + 2 + 2 - 5 = 38. Bo and Di tie on 38: Bo has 1 sled stone, Di 0.
    sheet = score_final(four_player_doc())
    assert totals(sheet) == [39, 38, 31, 38]
    assert ranks(sheet) == [1, 2, 4, 3]
    assert [points(sheet, p, "wrath") for p in range(4)] == [-5, 0, -5, -5]
    assert [points(sheet, p, "obelisks") for p in range(4)] == [1, 2, 0, 2]
    assert sheet.players[1].tiebreak.as_dict() == {"rule": "imhotep.most_sled_stones",
                                                   "value": 1}
    assert sheet.players[3].tiebreak.value == 0
    assert sheet.players[0].tiebreak is None


def test_obelisk_towers_scored_at_the_end_with_the_option():
    # Same game, but the towers were not scored at once: Ana +12, Bo +11+10.
    sheet = score_final(four_player_doc(score_at_end=True))
    assert totals(sheet) == [51, 59, 31, 38]
    assert points(sheet, 1, "obelisks") == 2 + 21


def test_red_cards_not_counting_for_wrath_means_nothing_is_derived():
    doc = four_player_doc()
    doc["options"]["red_card_counts_for_wrath"] = False
    # Bo lists only pyramids and temple: his burial and obelisk stones are not taken as proof
    sheet = score_final(doc)
    assert points(sheet, 1, "wrath") == -5
    doc["players"][1]["delivered_to"] += ["burial_chamber", "obelisks"]
    assert points(score_final(doc), 1, "wrath") == 0


def test_sides_are_case_insensitive_and_blank_means_a():
    doc = three_player_doc()
    doc["options"]["sides"] = {"market": "b", "pyramids": "", "temple": " a "}
    assert totals(score_final(doc)) == [45, 41, 63]


# ------------------------------------------------------------------------------------------
# Blank list items (phone forms send fixed-size lists)
# ------------------------------------------------------------------------------------------

def test_blank_list_items_are_ignored():
    doc = three_player_doc()
    chamber = doc["burial_chamber"]
    doc["burial_chamber"] = [None, ""] + chamber[:4] + ["  ", None] + chamber[4:] + [""] * 30
    doc["players"][0]["delivered_to"] = [None, "pyramids", "", "Temple"]
    doc["players"][1]["delivered_to"] = [None, None, None, None]
    doc["players"][1]["delivered_to"][2] = "temple"
    sheet = score_final(doc)
    assert totals(sheet) == [45, 41, 63]
    four = four_player_doc()
    four["players"][1]["obelisk_towers"] = [None, 11, None, 10]
    four["players"][2]["obelisk_towers"] = [None, None, None]
    assert totals(score_final(four)) == [39, 38, 31, 38]


def test_delivered_to_accepts_every_monument_with_stones_there():
    doc = three_player_doc()
    doc["players"][0]["delivered_to"] = ["pyramids", "temple", "burial chamber", "obelisks"]
    doc["options"]["wrath_of_pharaoh"] = True
    sheet = score_final(doc)
    assert points(sheet, 0, "wrath") == 0
    assert points(sheet, 1, "wrath") == -5     # Bo: no pyramid stone
    assert points(sheet, 2, "wrath") == -5     # Cy: no temple stone


def test_schema_form_round_trip():
    """The phone form generated from final_schema yields a document the scorer accepts."""
    from werkzeug.datastructures import MultiDict

    from companion.web.schema_form import build_form, parse_form

    sizes = IMHOTEP.form_sizes(2, 1)
    assert sizes == {"players": 2, "burial_chamber": 40, "players.*.delivered_to": 4,
                     "players.*.obelisk_towers": 3}
    form = build_form(IMHOTEP.final_schema, sizes, {}, {})
    paths = []

    def walk(widget):
        if widget.kind != "group":
            paths.append(widget.path)
        for child in widget.children:
            walk(child)
    walk(form)
    assert "burial_chamber.39" in paths and "players.1.delivered_to.3" in paths
    assert "players.0.cards.statue" in paths and "site_stones.temple" in paths
    filled = {"players.0.name": "Ana", "players.0.color": "black", "players.0.track": "20",
                 "players.0.obelisk": "3", "players.0.cards.statue": "2",
                 "players.0.delivered_to.1": "temple",
                 "players.1.name": "Bo", "players.1.color": "white", "players.1.track": "18",
                 "burial_chamber.0": "black", "burial_chamber.2": "white",
                 "site_stones.temple": "4"}
    data = MultiDict({path: filled.get(path, "") for path in paths})
    doc = parse_form(IMHOTEP.final_schema, data, sizes)
    doc["game"] = "imhotep"
    sheet = score_final(doc)
    # Ana: 20 + burial 1 + obelisk first of 2 players 10 + statues 2 → 3 = 34;
    # Bo: 18 + burial 1 = 19 (no obelisk stone)
    assert totals(sheet) == [34, 19]


# ------------------------------------------------------------------------------------------
# Bad documents: each violation with its code and field
# ------------------------------------------------------------------------------------------

def test_assumed_names_the_unverified_defaults_the_document_relies_on():
    """design.md §2 "our copy": the B-side values in use that the document does not give
    (in ``edition`` or ``options.b_values``) are scored with their defaults, and named."""
    obelisks = list(printed.UNVERIFIED_DEFAULTS["obelisks_b"])
    sheet = score_final(four_player_doc())
    assert [(a.key, a.value) for a in sheet.assumed] == [
        ("pyramids_b", [list(p) for p in printed.UNVERIFIED_DEFAULTS["pyramids_b"]]),
        ("obelisks_b", obelisks)]
    assert [a["label"] for a in sheet.as_dict()["assumed"]] == [
        printed.EDITION_LABELS["pyramids_b"], printed.EDITION_LABELS["obelisks_b"]]
    confirmed = four_player_doc()
    confirmed["edition"] = {"obelisks_b": obelisks}
    assert [a.key for a in score_final(confirmed).assumed] == ["pyramids_b"]
    assert totals(score_final(confirmed)) == totals(sheet)
    older = four_player_doc()
    older["options"]["b_values"] = {"pyramids_b": [[2, 2, 4]]}
    assert [a.key for a in score_final(older).assumed] == ["obelisks_b"]


@pytest.mark.parametrize("doc, assumed", [(three_player_doc, False), (four_player_doc, True)])
def test_burial_chamber_b_is_assumed_only_with_four_players(doc, assumed):
    """§6.1: only the 4th rank value is unverified, and only a 4th player can reach it."""
    document = doc()
    document["options"]["sides"]["burial_chamber"] = "B"
    assert ("burial_chamber_b" in [a.key for a in score_final(document).assumed]) is assumed


@pytest.mark.parametrize("edition, b_values, code, field", [
    ({"obelisks_b": [12, -1]}, None, "imhotep.bad_b_values", "edition.obelisks_b"),
    ({"harbour": 1}, None, "schema.unknown_key", "edition.harbour"),
    ([1], None, "imhotep.bad_b_values", "edition"),
    ({"obelisks_b": [15, 14, 13, 5]}, {"obelisks_b": [15, 14, 13, 5]},
     "imhotep.edition_given_twice", "edition.obelisks_b"),
])
def test_edition_entries_are_checked(edition, b_values, code, field):
    doc = four_player_doc()
    doc["edition"] = edition
    if b_values is not None:
        doc["options"]["b_values"] = b_values
    assert (code, field) in violations(doc)


def violations(doc) -> list[tuple[str, str | None]]:
    with pytest.raises(InvalidDocument) as caught:
        score_final(doc)
    found = [(v.code, v.field) for v in caught.value.violations]
    for v in caught.value.violations:
        assert v.render()                  # every message formats with its parameters
    return found


def base() -> dict:
    doc = three_player_doc()
    score_final(doc)
    return doc


def set_in(doc, path: str, value):
    *parents, last = path.split(".")
    node = doc
    for key in parents:
        node = node[int(key)] if isinstance(node, list) else node.setdefault(key, {})
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return doc


@pytest.mark.parametrize("count", [0, 1, 5])
def test_bad_player_count(count):
    names = ["P%d" % i for i in range(count)]
    doc = {"players": [player(name, printed.COLOURS[i % 4]) for i, name in enumerate(names)]}
    assert violations(doc) == [("imhotep.bad_player_count", "players")]


BAD = [
    # (path, value, code, field): one thing broken in the valid three-player document
    ("game", "ra", "score.wrong_game", "game"),
    ("players.1.name", "ANA", "imhotep.duplicate_name", "players.1.name"),
    ("players.1.name", "  ", "schema.empty", "players.1.name"),
    ("players.0.color", "purple", "imhotep.unknown_colour", "players.0.color"),
    ("players.2.color", "Black", "imhotep.duplicate_colour", "players.2.color"),
    ("players.0.color", None, "schema.required", "players.0.color"),
    ("players.0.track", -1, "schema.negative", "players.0.track"),
    ("players.0.track", "12", "schema.not_integer", "players.0.track"),
    ("players.1.obelisk", 30, "schema.too_large", "players.1.obelisk"),
    ("players.2.sled", 6, "schema.too_large", "players.2.sled"),
    ("players.2.sled", -2, "schema.negative", "players.2.sled"),
    ("players.0.cards.statue", -1, "schema.negative", "players.0.cards.statue"),
    ("players.0.cards.statue", 11, "schema.too_large", "players.0.cards.statue"),
    ("players.0.cards.sail", 4, "schema.too_large", "players.0.cards.sail"),
    ("players.0.cards.entrance", 1, "schema.unknown_key", "players.0.cards.entrance"),
    ("players.0.colour", "black", "schema.unknown_key", "players.0.colour"),
    ("options.sides.temple", "C", "imhotep.unknown_side", "options.sides.temple"),
    ("options.sides.harbour", "A", "schema.unknown_key", "options.sides.harbour"),
    ("options.wrath_of_pharaoh", "yes", "schema.not_boolean", "options.wrath_of_pharaoh"),
    ("options.b_values", {"burial_chamber_b": [8, 4]}, "imhotep.bad_b_values",
     "options.b_values.burial_chamber_b"),
    ("options.b_values", {"obelisks_b": [12, -1]}, "imhotep.bad_b_values",
     "options.b_values.obelisks_b"),
    ("options.b_values", {"harbour": 1}, "schema.unknown_key", "options.b_values.harbour"),
    ("options.b_values", [1], "imhotep.bad_b_values", "options.b_values"),
    ("players.0.delivered_to", ["market"], "imhotep.unknown_site",
     "players.0.delivered_to.0"),
    ("players.0.delivered_to", ["temple", "pyramids", "temple"], "imhotep.duplicate_site",
     "players.0.delivered_to.2"),
    ("players.0.delivered_to", "temple", "schema.not_list", "players.0.delivered_to"),
    ("players.0.delivered_to", [3], "schema.not_text", "players.0.delivered_to.0"),
    ("burial_chamber.2", "purple", "imhotep.unknown_colour", "burial_chamber.2"),
    ("burial_chamber.4", "brown", "imhotep.colour_not_at_table", "burial_chamber.4"),
    ("burial_chamber.1", 5, "schema.not_text", "burial_chamber.1"),
    ("burial_chamber", "black", "schema.not_list", "burial_chamber"),
    ("players.0.obelisk_towers", [None, 12], "imhotep.towers_need_side_b",
     "players.0.obelisk_towers.1"),
    ("site_stones.temple", 1, "imhotep.site_stones_too_few", "site_stones.temple"),
    ("site_stones.pyramids", 1, "imhotep.site_stones_too_few", "site_stones.pyramids"),
    ("site_stones.pyramids", 70, "imhotep.too_many_stones_in_play", "site_stones"),
    ("site_stones.harbour", 1, "schema.unknown_key", "site_stones.harbour"),
    ("extra", 1, "schema.unknown_key", "extra"),
]


@pytest.mark.parametrize("path, value, code, field", BAD,
                         ids=[f"{b[2]}-{b[0]}" for b in BAD])
def test_bad_document(path, value, code, field):
    assert violations(set_in(base(), path, value)) == [(code, field)]


def test_not_an_object():
    assert violations([1, 2]) == [("schema.not_object", None)]


def test_players_missing():
    assert violations({"game": "imhotep"}) == [("schema.required", "players")]


def test_delivered_to_a_monument_without_stones():
    doc = base()
    doc["players"][1]["delivered_to"] = ["temple", "obelisks", "burial_chamber"]
    doc["players"][1]["obelisk"] = 0
    doc["burial_chamber"] = [c for c in doc["burial_chamber"] if c != "white"]
    assert violations(doc) == [
        ("imhotep.delivered_without_stones", "players.1.delivered_to.1"),
        ("imhotep.delivered_without_stones", "players.1.delivered_to.2")]


def test_too_many_cards_across_players():
    doc = base()
    doc["players"][0]["cards"]["statue"] = 6
    doc["players"][1]["cards"]["statue"] = 4     # 6 + 4 + 0 = 10: still fine
    doc["players"][2]["cards"]["statue"] = 0
    score_final(doc)
    doc["players"][2]["cards"]["statue"] = 1     # 6 + 4 + 1 = 11
    assert violations(doc) == [("imhotep.too_many_cards", "players.2.cards.statue")]
    doc = base()
    doc["players"][1]["cards"]["lever"] = 2      # Ana's sail, Bo's 2 levers: fine
    score_final(doc)
    doc["players"][2]["cards"]["lever"] = 1
    assert violations(doc) == [("imhotep.too_many_cards", "players.2.cards.lever")]


def test_too_many_stones_of_one_colour():
    # Ana (black): sled 5 + obelisk 20 + pyramids 1 + temple 1 = 27, then 2 black stones in the
    # burial chamber make 29 (fine) and a third one 30.
    doc = base()
    doc["players"][0].update(sled=5, obelisk=20)
    doc["burial_chamber"] = ["black", "white", "gray"]
    score_final(doc)
    doc["burial_chamber"] = ["black", "white", "black", "gray", "black"]
    assert violations(doc) == [("imhotep.too_many_stones", "burial_chamber.4")]


def test_too_many_stones_counts_towers():
    # Bo (white): sled 1 + obelisk 19 + 2 towers × 3 + pyramids 1 + temple 1 + one burial
    # stone = 29; one more waiting stone makes 30, found at his burial chamber stone.
    doc = four_player_doc()
    doc["players"][1]["obelisk"] = 19
    score_final(doc)
    doc["players"][1]["obelisk"] = 20
    assert violations(doc) == [("imhotep.too_many_stones", "burial_chamber.5")]


@pytest.mark.parametrize("towers, code, field", [
    ([[12], [13, 10], None, None], "imhotep.bad_tower", "players.1.obelisk_towers.0"),
    ([[12], [12, 11], None, None], "imhotep.bad_tower", "players.1.obelisk_towers.0"),
    ([[12], [11, 9], None, None], "imhotep.tower_order", "players.0.obelisk_towers"),
    ([[12], ["x", 10], None, None], "schema.not_integer", "players.1.obelisk_towers.0"),
    ([[12], [-1, 10], None, None], "schema.negative", "players.1.obelisk_towers.0"),
    ([[12], 11, None, None], "schema.not_list", "players.1.obelisk_towers"),
])
def test_bad_towers(towers, code, field):
    doc = four_player_doc()
    for p, value in enumerate(towers):
        if value is not None:
            doc["players"][p]["obelisk_towers"] = value
    assert violations(doc) == [(code, field)]


def test_tower_values_follow_the_b_values_override():
    doc = four_player_doc()
    doc["options"]["b_values"] = {"obelisks_b": [15, 14, 13, 5]}
    assert ("imhotep.bad_tower", "players.0.obelisk_towers.0") in violations(doc)
    doc["players"][0]["obelisk_towers"] = [15]
    doc["players"][1]["obelisk_towers"] = [14, 13]
    assert totals(score_final(doc)) == [39, 38, 31, 38]


def test_several_violations_reported_together():
    doc = base()
    doc["players"][0]["track"] = -3
    doc["players"][1]["color"] = "pink"
    doc["burial_chamber"][0] = "orange"
    found = violations(doc)
    assert ("schema.negative", "players.0.track") in found
    assert ("imhotep.unknown_colour", "players.1.color") in found
    assert ("imhotep.unknown_colour", "burial_chamber.0") in found


# ------------------------------------------------------------------------------------------
# Property: the listing order of the players changes nothing
# ------------------------------------------------------------------------------------------

@st.composite
def documents(draw):
    count = draw(st.sampled_from((2, 3, 4)))
    colours = draw(st.permutations(printed.COLOURS))[:count]
    sides = {site: draw(st.sampled_from(("A", "B"))) for site in printed.SITES}
    left = dict(printed.DECK)
    players = []
    towers_left = sorted(printed.UNVERIFIED_DEFAULTS["obelisks_b"], reverse=True)
    n_towers = draw(st.integers(0, 3)) if sides["obelisks"] == "B" else 0
    owners = [draw(st.integers(0, count - 1)) for _ in range(n_towers)]
    for p in range(count):
        cards = {}
        for kind in printed.KEPT_CARDS:
            cards[kind] = draw(st.integers(0, min(left[kind], 3)))
            left[kind] -= cards[kind]
        players.append({
            "name": f"P{p}", "color": colours[p], "track": draw(st.integers(0, 60)),
            "obelisk": draw(st.integers(0, 4)), "cards": cards,
            "sled": draw(st.integers(0, 5)),
            "delivered_to": draw(st.lists(st.sampled_from(("pyramids", "temple")),
                                          unique=True))})
        if sides["obelisks"] == "B":
            players[p]["obelisk_towers"] = [towers_left[i] for i, o in enumerate(owners)
                                            if o == p]
    burial = draw(st.lists(st.sampled_from(colours), max_size=8))
    # budgets: at most 5 + 4 + 9 + 2 + 8 = 28 stones of a colour, 51 in play with 2 players
    return {"game": "imhotep",
            "options": {"sides": sides, "wrath_of_pharaoh": draw(st.booleans()),
                        "obelisks_b_score_at_end": draw(st.booleans())},
            "players": players, "burial_chamber": burial,
            "site_stones": {"pyramids": count + draw(st.integers(0, 6)),
                            "temple": count + draw(st.integers(0, 6))}}


@settings(derandomize=True, max_examples=150, deadline=None)
@given(doc=documents(), data=st.data())
def test_scores_do_not_depend_on_player_order(doc, data):
    sheet = score_final(doc).as_dict()
    order = data.draw(st.permutations(range(len(doc["players"]))))
    shuffled = copy.deepcopy(doc)
    shuffled["players"] = [doc["players"][i] for i in order]
    again = score_final(shuffled).as_dict()
    by_name = {p["name"]: p for p in sheet["players"]}
    assert [by_name[p["name"]] for p in again["players"]] == again["players"]
    assert sorted(again["winners"]) == sorted(sheet["winners"])
    for p in sheet["players"]:                   # the categories add up to the total
        assert sum(c["points"] for c in p["breakdown"]["categories"]) == p["total"]
