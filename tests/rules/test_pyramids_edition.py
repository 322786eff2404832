"""Our print-and-play edition (companion/rules/pyramids/ours.py, generate.py) and the edition
values a group enters (edition.py, cards.py); issue 13 deliverables 1 and 3.

1. The generator is deterministic from its seed and reproduces the stored data exactly.
2. Every card: sound layout (spec §2.1), completable, its stored path a shortest one, every
   non-wall cell reachable, every expedition shape able to open it; a skull on the way.
3. Balance across colours (symbols, walls, paths, numbers); the deck (8 cards, 6 shapes);
   the scoring card's penalties.
4. The layout checks and the edition values' checks, each naming its field.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from companion.rules.base import InvalidDocument, resolve_edition
from companion.rules.pyramids import generate as g
from companion.rules.pyramids import ours
from companion.rules.pyramids import printed as t
from companion.rules.pyramids.cards import layout_problems
from companion.rules.pyramids.edition import EDITION_VALUES, known_cards
from companion.rules.pyramids.placement import (NEIGHBOURS, SHAPE_FORMS, index, opening_fits,
                                                orientations, reachable, shortest_path)
from tests.rules.pyramids_helpers import connected

FIXTURE = ["#.E.#", ".R.X.", ".#S.G", "P..#T", "#.B.#"]


# --------------------------------------------------------------------------------------------
# 1. The generator
# --------------------------------------------------------------------------------------------


def test_generator_reproduces_the_stored_edition():
    edition = g.generate(ours.SEED)
    assert edition.cards == ours.CARDS
    assert edition.expedition_deck == ours.EXPEDITION_DECK
    assert edition.skull_penalties == ours.SKULL_PENALTIES
    assert g.render(edition) == Path(ours.__file__).read_text(encoding="utf-8")


def test_generator_check_mode_finds_the_file_up_to_date(capsys):
    assert g.main(["--check"]) == 0
    assert "up to date" in capsys.readouterr().out


def test_generator_is_deterministic_and_depends_on_its_seed():
    first, again = g.generate(12345), g.generate(12345)
    assert first == again
    assert first.cards != g.generate(12346).cards
    assert first.cards != ours.CARDS


@pytest.mark.parametrize("seed", [1, 7, 2 ** 63 + 5])
def test_any_seed_gives_a_sound_edition(seed):
    edition = g.generate(seed)
    assert [card.number for card in edition.cards] == list(range(1, 49))
    for card in edition.cards:
        assert layout_problems(list(card.grid), "grid") == []


def test_seeded_stream_is_splitmix64():
    stream = g.SeededStream(1234567)
    # reference values of SplitMix64 for seed 1234567 (Vigna's splitmix64.c)
    assert [stream.next64() for _ in range(3)] == [
        6457827717110365317, 3203168211198807973, 9817491932198370423]
    stream = g.SeededStream(0)
    draws = [stream.below(6) for _ in range(600)]
    assert set(draws) == set(range(6))
    assert sorted(stream.shuffled(range(10))) == list(range(10))


# --------------------------------------------------------------------------------------------
# 2. Every card
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("card", ours.CARDS, ids=lambda card: f"card{card.number}")
def test_every_card_is_sound_and_completable(card):
    assert layout_problems(list(card.grid), "grid") == []
    flat = card.flat
    assert card.colour == g.colour_of_number(card.number)
    path = [index(r, c) for r, c in card.shortest]
    assert flat[path[0]] == "E" and path[0] < 5
    assert flat[path[-1]] == "B" and path[-1] >= 20
    assert all(b in NEIGHBOURS[a] for a, b in zip(path, path[1:]))
    assert all(flat[cell] != "#" for cell in path) and len(set(path)) == len(path)
    assert len(path) == len(shortest_path(flat))              # a shortest path
    walls = flat.count("#")
    assert len(reachable(flat, path[0])) == 25 - walls        # nothing unreachable
    for shape in set(ours.EXPEDITION_DECK):                   # every shape opens the card
        assert opening_fits(flat, shape), shape
    if "S" in flat:
        assert any(flat[cell] == "S" for cell in path)        # a skull on the way


def test_the_stored_path_is_the_generators_search():
    for card in ours.CARDS:
        assert [index(r, c) for r, c in card.shortest] == shortest_path(card.flat)


# --------------------------------------------------------------------------------------------
# 3. Balance, deck, scoring card
# --------------------------------------------------------------------------------------------


def per_colour(colour: str) -> dict[str, object]:
    cards = [card for card in ours.CARDS if card.colour == colour]
    symbols = Counter(code for card in cards for code in card.flat)
    return {"cards": len(cards), "symbols": {code: symbols[code] for code in "RGTSPX#EB"},
            "paths": sorted(len(card.shortest) for card in cards),
            "walls": sorted(card.flat.count("#") for card in cards),
            "numbers": sum(card.number for card in cards)}


def test_colours_are_balanced():
    purple = per_colour("purple")
    assert purple == per_colour("orange") == per_colour("green")
    assert purple["cards"] == 16 and purple["numbers"] == 392
    assert purple["symbols"] == {"R": 20, "G": 20, "T": 10, "S": 24, "P": 8, "X": 20, "#": 88,
                                 "E": 16, "B": 16}


def test_the_docstring_states_the_balance():
    table = g.balance(ours.CARDS)
    for colour, row in table.items():
        line = next(line for line in ours.__doc__.splitlines() if line.strip().startswith(
            colour))
        assert line.split()[1:] == [str(row[k]) for k in ("R", "G", "T", "S", "P", "X", "#",
                                                          "path", "numbers")]


def test_expedition_deck():
    deck = ours.EXPEDITION_DECK
    counts = Counter(deck)
    assert len(deck) == t.EXPEDITION_CARDS == 8
    assert len(counts) == t.EXPEDITION_PATTERNS == 6
    assert sorted(counts.values()) == [1, 1, 1, 1, 2, 2]          # two patterns repeated
    for shape in counts:
        cells = t.SHAPES[shape]
        assert 2 <= len(cells) <= 4
        assert connected({index(r, c) for r, c in cells})


def test_shape_palette_is_every_free_polyomino_of_2_to_4_cells():
    forms = {shape: SHAPE_FORMS[shape] for shape in t.SHAPES}
    assert len({frozenset(f) for f in forms.values()}) == 8          # all different
    assert [len(forms[s]) for s in ("I2", "I3", "L3", "I4", "L4", "O4", "T4", "S4")] == [
        2, 2, 4, 2, 8, 1, 4, 4]                                       # orientations
    assert orientations(((0, 0), (0, 1), (1, 1))) == SHAPE_FORMS["L3"]


def test_scoring_card_penalties():
    penalties = ours.SKULL_PENALTIES
    assert len(penalties) == t.SKULL_BOXES
    assert list(penalties) == sorted(penalties) and len(set(penalties)) == 10
    assert t.SEED_KNOWN_SKULL_PENALTY in penalties


def test_scoring_card_rows_hold_every_box():
    rows = ours.SCORING_CARD_ROWS
    assert sum(rows["red_gems"]) == sum(rows["green_gems"]) == t.GEM_BOXES
    assert sum(rows["skulls"]) == t.SKULL_BOXES and len(rows["skulls"]) == 2   # spec §2.3
    assert sum(rows["torches"]) == t.TORCH_BOXES
    assert rows["race"] == (len(t.RACE_BOXES),) * len(t.COLOURS)


# --------------------------------------------------------------------------------------------
# 4. Layout checks and edition values
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("grid, code, field", [
    (FIXTURE[:4], "pyramids.grid_shape", "g"),
    (FIXTURE[:4] + ["#.B."], "pyramids.grid_shape", "g.4"),
    (FIXTURE[:4] + ["#.B.Z"], "pyramids.unknown_cell", "g.4"),
    (["#...#"] + FIXTURE[1:], "pyramids.entrance_row", "g.0"),
    (["#.E.E"] + FIXTURE[1:], "pyramids.entrance_row", "g.0"),
    ([FIXTURE[1], FIXTURE[0]] + FIXTURE[2:], "pyramids.entrance_row", "g.1"),
    (FIXTURE[:4] + ["#...#"], "pyramids.tomb_row", "g.4"),
    (FIXTURE[:3] + ["P.B#T", "#...#"], "pyramids.tomb_row", "g.3"),
    (FIXTURE[:2] + ["#####"] + FIXTURE[3:], "pyramids.not_completable", "g"),
])
def test_layout_problems(grid, code, field):
    problems = layout_problems(grid, "g")
    assert problems and problems[0].code == code and problems[0].field == field
    assert problems[0].render()


def test_fixture_is_a_sound_layout():
    assert layout_problems(FIXTURE, "g") == []


def test_edition_defaults():
    edition = resolve_edition(EDITION_VALUES, {})
    assert edition.values == {"skull_penalties": list(ours.SKULL_PENALTIES),
                              "expedition_deck": list(t.DEFAULT_EXPEDITION_DECK),
                              "card_layouts": []}
    assert edition.defaults == ("skull_penalties", "expedition_deck")


@pytest.mark.parametrize("entries, code, field", [
    ({"skull_penalties": [1, 2, 3]}, "schema.list_length", "edition.skull_penalties"),
    ({"skull_penalties": [1, 2, 3, 4, 5, 6, 7, 8, 9, -1]}, "schema.negative",
     "edition.skull_penalties.9"),
    ({"skull_penalties": [1, 2, 3, 4, 5, 6, 7, 8, 9, 7]}, "pyramids.penalties_decrease",
     "edition.skull_penalties.9"),
    ({"expedition_deck": ["I2"] * 8}, "pyramids.deck_patterns", "edition.expedition_deck"),
    ({"expedition_deck": ["I2", "I3", "L3", None, "L4", "O4", "T4", "I3"]},
     "pyramids.deck_incomplete", "edition.expedition_deck.3"),
    ({"expedition_deck": ["I2", "I3", "L3", "I4", "L4", "O4", "T4", "Q9"]},
     "schema.not_a_choice", "edition.expedition_deck.7"),
    ({"card_layouts": [{"number": 0, "colour": "green"}]}, "pyramids.bad_card_number",
     "edition.card_layouts.0.number"),
    ({"card_layouts": [{"number": 3, "colour": "green"}, {"number": 3, "colour": "green"}]},
     "pyramids.duplicate_card", "edition.card_layouts.1.number"),
    ({"card_layouts": [{"number": n, "colour": "green"} for n in range(1, 18)]},
     "pyramids.too_many_of_colour", "edition.card_layouts.16.colour"),
    ({"card_layouts": [{"number": 3, "colour": "red"}]}, "schema.not_a_choice",
     "edition.card_layouts.0.colour"),
    ({"card_layouts": [{"number": 3, "colour": "green", "grid": FIXTURE[:4] + ["#...#"]}]},
     "pyramids.tomb_row", "edition.card_layouts.0.grid.4"),
    ({"card_layouts": [{"number": 3, "colour": "green", "grid": FIXTURE[:4] + ["#.B.#x"]}]},
     "schema.too_long", "edition.card_layouts.0.grid.4"),
    # the grid editor's rows: lists of codes, joined; a wrong code is named on its row
    ({"card_layouts": [{"number": 3, "colour": "green",
                        "grid": [list(row) for row in FIXTURE[:4]] + [list("#.B.Z")]}]},
     "pyramids.unknown_cell", "edition.card_layouts.0.grid.4"),
    ({"card_layouts": [{"number": 3, "colour": "green",
                        "grid": [list(row) for row in FIXTURE[:4]] + [["#", ".", "B", "."]]}]},
     "pyramids.grid_shape", "edition.card_layouts.0.grid.4"),
    ({"colours": []}, "schema.unknown_key", "edition.colours"),
])
def test_edition_value_checks(entries, code, field):
    with pytest.raises(InvalidDocument) as caught:
        resolve_edition(EDITION_VALUES, entries)
    assert (caught.value.first.code, caught.value.first.field) == (code, field)


def test_entered_layouts_and_colours():
    edition = resolve_edition(EDITION_VALUES, {"card_layouts": [
        {"number": 3, "colour": "green", "grid": FIXTURE},
        {"number": 9, "colour": "orange"},
        {"number": 12, "colour": "purple", "grid": FIXTURE, "verified": False}]})
    colours, grids = known_cards(edition.values["card_layouts"])
    assert (colours[3], colours[9], colours[12], colours[4]) == ("green", "orange", "purple",
                                                                None)
    assert grids[3] == "".join(FIXTURE)
    assert grids[9] is None and grids[12] is None          # no grid / not yet verified
    assert edition.defaults == ("skull_penalties", "expedition_deck")
    # the grid editor sends each row as a list of codes: kept as the same strings
    edited = resolve_edition(EDITION_VALUES, {"card_layouts": [
        {"number": 3, "colour": "green", "grid": [list(row) for row in FIXTURE]}]})
    assert edited.values["card_layouts"][0]["grid"] == list(FIXTURE)
