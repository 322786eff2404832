"""Edition values ("our copy", design.md §2): what no public source prints for the published
game, entered once per group (spec §10, §14 #1-#3).

* ``skull_penalties`` — the 10 skull boxes' penalties. Default: the scoring card of our
  print-and-play edition (:data:`.ours.SKULL_PENALTIES`, which has the one −6 the seed shows);
  the published card's values are unknown (spec §2.3), so a published game that relies on the
  default says so on its score sheet. Penalties never decrease box by box (each further skull
  costs more, spec §2.3), which keeps the skull track a counter (spec §6).
* ``expedition_deck`` — the published game's 8 expedition cards by shape. Default: spec §2.2
  (the same eight as ours) [unverified]. While the group has not entered it, a published game
  offers the whole 8-shape palette at every reveal and does not check repeats (spec §10); once
  entered, the reveal is checked against it, at most 7 of the 8 per round.
* ``card_layouts`` — published cards entered through the 5×5 grid editor (spec §10): number,
  colour, grid (5 rows of 5 cell codes; optional: a colour alone tells the app the card's
  colour) and ``verified``. A verified layout is refereed cell by cell from then on; other cards
  are played in record mode. None by default, which assumes nothing (status "verified"). A row
  is a string of 5 codes (``"#..E."``); the grid editor sends each row as a list of 5 codes,
  which is taken too and kept as a string.
"""

from __future__ import annotations

from typing import Any, Mapping

from dataclasses import replace

from ..base import (BoolField, ChoiceField, EditionValue, IntField, ListField, N_, ObjectField,
                    RuleViolation, TextField, check_document)
from . import ours
from . import printed as t
from .cards import flatten, layout_problems

LABELS: Mapping[str, str] = {
    "skull_penalties": N_("Skull penalties, box by box"),
    "expedition_deck": N_("Expedition cards"),
    "card_layouts": N_("Pyramid cards entered from your copy"),
}

PENALTIES_FIELD = ListField("skull_penalties", LABELS["skull_penalties"],
                            IntField("penalty", N_("Penalty"), max=99, default=None),
                            min_items=t.SKULL_BOXES, max_items=t.SKULL_BOXES,
                            item_label=N_("Box %(n)d"))
# The first choice, "not entered", lets a form leave the deck blank (the default stands).
DECK_FIELD = ListField("expedition_deck", LABELS["expedition_deck"],
                       ChoiceField("shape", N_("Shape"), ((None, N_("not entered")),) + tuple(
                           (code, str(t.SHAPE_LABELS[code])) for code in t.SHAPES)),
                       min_items=t.EXPEDITION_CARDS, max_items=t.EXPEDITION_CARDS,
                       item_label=N_("Card %(n)d"))
NUMBER_FIELD = IntField("number", N_("Number"), max=t.CARD_COUNT, default=None)
COLOUR_FIELD = ChoiceField("colour", N_("Colour"), tuple((c, str(t.COLOUR_LABELS[c]))
                                                         for c in t.COLOURS))
VERIFIED_FIELD = BoolField("verified", N_("Checked against the card"), default=True)
LAYOUT_FIELD = ObjectField("card", N_("Pyramid card"), (
    NUMBER_FIELD, COLOUR_FIELD,
    ListField("grid", N_("Chambers, row by row"),
              TextField("row", N_("Row"), max_length=t.GRID), item_label=N_("Row %(n)d")),
    VERIFIED_FIELD,
))
LAYOUTS_FIELD = ListField("card_layouts", LABELS["card_layouts"], LAYOUT_FIELD,
                          max_items=t.CARD_COUNT, item_label=N_("Card %(n)d"))
# The grid editor's form (templates/games/pyramids/copy_card_layouts.html): a choice per
# chamber, 5 rows of 5; check_layouts joins each row back into a string.
CELL_CHOICES = tuple((code.value, str(t.CELL_LABELS[code.value])) for code in t.Cell)
LAYOUTS_FORM = ListField("card_layouts", LABELS["card_layouts"], ObjectField(
    "card", N_("Pyramid card"), (
        NUMBER_FIELD, COLOUR_FIELD,
        ListField("grid", N_("Chambers, row by row"),
                  ListField("row", N_("Row"), ChoiceField("cell", N_("Chamber"), CELL_CHOICES,
                                                          default=t.Cell.FLOOR.value),
                            min_items=t.GRID, max_items=t.GRID, item_label=N_("Column %(n)d")),
                  min_items=t.GRID, max_items=t.GRID, item_label=N_("Row %(n)d")),
        VERIFIED_FIELD,
    )), max_items=t.CARD_COUNT, item_label=N_("Card %(n)d"))


def _schema(field: Any, value: Any, path: str) -> Any:
    """The field's own schema check at ``path``; the first violation is raised."""
    *outer, key = path.split(".")
    spec: Any = replace(field, key=key)
    document: Any = {key: value}
    for name in reversed(outer):            # wrap, so that violations carry the whole path
        spec = ObjectField(name, "", (spec,))
        document = {name: document}
    clean, violations = check_document(ObjectField("", "", (spec,)), document)
    if violations:
        raise violations[0]
    for name in outer:
        clean = clean[name]
    return clean[key]


def check_penalties(value: Any, path: str) -> list[int]:
    """10 whole numbers ≥ 0 that never decrease from box to box."""
    penalties = _schema(PENALTIES_FIELD, value, path)
    for k in range(1, len(penalties)):
        if penalties[k] < penalties[k - 1]:
            raise RuleViolation("pyramids.penalties_decrease",
                                N_("Each skull box costs at least as much as the one before."),
                                f"{path}.{k}")
    return penalties


def check_deck(value: Any, path: str) -> list[str]:
    """8 cards of exactly 6 different shapes (spec §2.2: "8 cards, 6 patterns")."""
    deck = _schema(DECK_FIELD, value, path)
    for i, shape in enumerate(deck):
        if shape is None:
            raise RuleViolation("pyramids.deck_incomplete",
                                N_("Enter the shape of each of the 8 expedition cards."),
                                f"{path}.{i}")
    if len(set(deck)) != t.EXPEDITION_PATTERNS:
        raise RuleViolation("pyramids.deck_patterns",
                            N_("The 8 expedition cards show 6 different patterns."), path)
    return deck


def _rows_as_text(value: Any) -> Any:
    """Rows given as lists of 5 codes (the grid editor's) joined into strings."""
    if not isinstance(value, list):
        return value
    joined = []
    for card in value:
        grid = card.get("grid") if isinstance(card, dict) else None
        if isinstance(grid, list):
            card = {**card, "grid": ["".join(row) if isinstance(row, list) and all(
                isinstance(code, str) and len(code) == 1 for code in row) else row
                for row in grid]}
        joined.append(card)
    return joined


def check_layouts(value: Any, path: str) -> list[dict[str, Any]]:
    """Card records: numbers 1-48 once each, at most 16 per colour, every grid sound."""
    cards = _schema(LAYOUTS_FIELD, _rows_as_text(value), path)
    seen: set[int] = set()
    per_colour = {colour: 0 for colour in t.COLOURS}
    for i, card in enumerate(cards):
        here = f"{path}.{i}"
        number = card["number"]
        if number < 1:
            raise RuleViolation("pyramids.bad_card_number",
                                N_("Pyramid cards are numbered 1 to 48."), f"{here}.number")
        if number in seen:
            raise RuleViolation("pyramids.duplicate_card",
                                N_("Card %(number)d is entered twice."), f"{here}.number",
                                number=number)
        seen.add(number)
        per_colour[card["colour"]] += 1
        if per_colour[card["colour"]] > t.CARDS_PER_COLOUR:
            raise RuleViolation("pyramids.too_many_of_colour",
                                N_("There are only 16 %(colour)s pyramid cards."),
                                f"{here}.colour", colour=t.COLOUR_LABELS[card["colour"]])
        grid = card.get("grid")
        if grid:
            problems = layout_problems(grid, f"{here}.grid")
            if problems:
                raise problems[0]
    return cards


EDITION_VALUES: tuple[EditionValue, ...] = (
    EditionValue("skull_penalties", LABELS["skull_penalties"], PENALTIES_FIELD,
                 default=list(ours.SKULL_PENALTIES), status="unverified",
                 source="our print-and-play scoring card (companion/rules/pyramids/ours.py); the "
                        "published card's values are unknown except one −6 box (spec §2.3, "
                        "§10, seed 001 end-of-game example)",
                 hint=N_("The penalty printed in each skull box of your scoring card, left to "
                         "right, top row first."),
                 check=check_penalties),
    EditionValue("expedition_deck", LABELS["expedition_deck"], DECK_FIELD,
                 default=list(t.DEFAULT_EXPEDITION_DECK), status="unverified",
                 source="spec §2.2 default deck [unverified]",
                 hint=N_("The shape on each of your 8 expedition cards."), check=check_deck),
    # An empty list assumes nothing: cards nobody entered are simply played in record mode.
    EditionValue("card_layouts", LABELS["card_layouts"], LAYOUTS_FORM, default=[],
                 status="verified", source="entered by the group from its cards (spec §10)",
                 hint=N_("Copy a card's chambers: . floor, # wall, E entrance, B tomb, X red "
                         "cross, R red gem, G green gem, T torch, S skull, P potion."),
                 check=check_layouts),
)


def known_cards(layouts: Any) -> tuple[list[str | None], list[str | None]]:
    """From checked ``card_layouts``: (colour, flat grid) per card number (index 0 unused);
    only verified grids are used for refereeing, colours of every record are."""
    colours: list[str | None] = [None] * (t.CARD_COUNT + 1)
    grids: list[str | None] = [None] * (t.CARD_COUNT + 1)
    for card in layouts or ():
        colours[card["number"]] = card["colour"]
        if card.get("grid") and card.get("verified", True):
            grids[card["number"]] = flatten(card["grid"])
    return colours, grids
