"""Moves are documented from their one declaration (design.md §2, issue 19): the OpenAPI
document's ``move`` of ``POST …/moves`` and the ``/api`` page come from each MoveRule's
``args``, and what the schema describes is what the referee takes.

The toy game (tests/toygame.py) is the game declared in the new style; a richer declaration
below covers every field option the schema has to say (bounds, optional, defaults, a single
item for a list, nested objects).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from companion.api.openapi import field_schema
from companion.rules.base import (Awaiting, BoolField, ChoiceField, IntField, ListField, N_,
                                  ObjectField, RuleViolation, Term, TextField)
from companion.rules.referee import MoveRule, Referee

from ..toygame import GAME, TOY, register_toy, unregister_toy

pytestmark = pytest.mark.db


@pytest.fixture
def toy():
    yield register_toy()
    unregister_toy()


def validator(document: dict[str, Any], schema: dict[str, Any]) -> Draft202012Validator:
    """A validator of ``schema`` whose ``#/components/...`` references resolve in the
    OpenAPI ``document``."""
    root = {"components": document["components"], **schema}
    Draft202012Validator.check_schema(root)
    return Draft202012Validator(root)


def move_body(document: dict[str, Any]) -> dict[str, Any]:
    operation = document["paths"]["/api/v1/tables/{table_id}/moves"]["post"]
    return operation["requestBody"]["content"]["application/json"]["schema"]


def example(schema: dict[str, Any], components: dict[str, Any]) -> Any:
    """A value the schema describes, built from the schema alone: every required entry,
    the first value offered, the lowest number."""
    if "$ref" in schema:
        return example(components[schema["$ref"].rsplit("/", 1)[1]], components)
    for alternatives in ("oneOf", "anyOf"):
        if alternatives in schema:
            return example(schema[alternatives][0], components)
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema["type"][0] if isinstance(schema["type"], list) else schema["type"]
    if kind == "object":
        return {key: example(schema["properties"][key], components)
                for key in schema.get("required", ())}
    if kind == "array":
        return [example(schema["items"], components) for _ in range(schema["minItems"])]
    return {"integer": schema.get("minimum", 0), "boolean": True, "string": "x"}[kind]


def test_the_toy_games_moves_are_in_the_openapi_document(toy, client):
    document = client.get("/api/openapi.json").get_json()
    schemas = document["components"]["schemas"]
    assert schemas[f"move_{GAME}_draw"]["properties"] == {
        "type": {"const": "draw"}, "card": {"title": "Card", "enum": [1, 2, 3]}}
    assert schemas[f"move_{GAME}_draw"]["required"] == ["type", "card"]
    assert schemas[f"move_{GAME}_guess"]["properties"]["high"] == {"title": "High",
                                                                  "type": "boolean"}
    assert schemas[f"move_{GAME}_guess"]["title"] == "Coin guess: guess"
    kinds = {rule.kind for rule in TOY.move_rules()}
    named = {ref["$ref"] for shape in move_body(document)["properties"]["move"]["oneOf"]
             for ref in shape.get("anyOf", [shape])}
    assert {f"#/components/schemas/move_{GAME}_{kind}" for kind in kinds} <= named
    validator(document, move_body(document))              # a valid JSON Schema, refs resolve
    for kind in kinds:
        validator(document, schemas[f"move_{GAME}_{kind}"])


def test_a_move_built_from_the_schema_is_accepted_and_one_breaking_it_is_refused(toy, client):
    document = client.get("/api/openapi.json").get_json()
    schemas = document["components"]["schemas"]
    moves = validator(document, move_body(document)["properties"]["move"])
    opened = client.post("/api/v1/tables", json={"game": GAME, "players": ["Ana", "Bo"]})
    table = opened.get_json()["id"]
    token = client.post(f"/api/v1/tables/{table}/seats/0/claim").get_json()["seat_token"]
    url, auth = f"/api/v1/tables/{table}/moves", {"Authorization": f"Bearer {token}"}

    draw = example(schemas[f"move_{GAME}_draw"], schemas)
    assert draw == {"type": "draw", "card": 1} and moves.is_valid(draw)
    wrong = {**draw, "card": 7}
    assert not moves.is_valid(wrong)
    refused = client.post(url, headers=auth, json={"move": wrong, "version": 0,
                                                   "idempotency_key": "wrong"})
    assert refused.status_code == 422
    assert (refused.get_json()["error"], refused.get_json()["field"]) == (
        f"{GAME}.bad_move", "move.card")
    assert client.post(url, headers=auth, json={"move": draw, "version": 0,
                                                "idempotency_key": "draw"}).status_code == 200

    guess = example(schemas[f"move_{GAME}_guess"], schemas)
    assert guess == {"type": "guess", "high": True} and moves.is_valid(guess)
    assert not moves.is_valid({"type": "guess"})
    refused = client.post(url, headers=auth, json={"move": {"type": "guess"}, "version": 1,
                                                   "idempotency_key": "no-guess"})
    assert (refused.status_code, refused.get_json()["field"]) == (422, "move.high")
    assert client.post(url, headers=auth, json={"move": guess, "version": 1,
                                                "idempotency_key": "guess"}).status_code == 200


def test_the_api_page_lists_the_toy_games_moves_in_the_readers_words(toy, client):
    page = client.get("/api").get_data(as_text=True)
    section = page[page.index(f'id="{GAME}-moves"'):]
    section = section[:section.index("</table>")]
    assert "Coin guess: every move and its arguments" in section
    draw = section[section.index(f'id="{GAME}-move-draw"'):section.index(f'id="{GAME}-move-guess"')]
    assert "<code>draw</code>" in draw and "Draw a card" in draw
    assert "<code>card</code> · Card" in draw and "<code>3</code>" in draw and "required" in draw
    assert "<code>high</code> · High" in section and "true or false" in section
    czech = client.get("/api", headers={"Accept-Language": "cs"}).get_data(as_text=True)
    assert "<code>card</code> · Karta" in czech and "<th>Tah</th>" in czech


# --------------------------------------------------------------------------------------------
# Every field option: the schema says what the referee takes
# --------------------------------------------------------------------------------------------

PLACE = ObjectField("place", N_("Place"), (
    IntField("row", N_("Row"), min=1, max=3, default=None),
    ChoiceField("side", N_("Side"), ("left", "right"), optional=True),
))
ARGS = (
    IntField("count", N_("Count"), min=2, max=9, default=None),
    IntField("extra", N_("Extra"), max=5, optional=True),
    IntField("bonus", N_("Bonus"), max=4, default=1),
    TextField("note", N_("Note"), max_length=5, required=False),
    BoolField("sure", N_("Sure"), default=None),
    ChoiceField("colour", N_("Colour"), (("red", N_("Red")), ("blue", N_("Blue"))),
                default="red"),
    ChoiceField("suns", N_("Suns"), (((2, 5), N_("Low suns")), ((3, 4), N_("High suns")))),
    ListField("draws", N_("Draws"), IntField("draw", N_("Draw"), min=1, max=6),
              scalar=True, optional=True, max_items=3),
    ListField("kinds", N_("Kinds"), ChoiceField("kind", N_("Kind"), ("a", "b")),
              default=("a",), max_items=2),
    ListField("places", N_("Places"), PLACE, min_items=1, max_items=2, required=True),
)
REFEREE = Referee("demo", (MoveRule("act", Term(N_("act")), args=ARGS),),
                  phase_of=lambda state: "any", awaited=lambda state: Awaiting.one(0),
                  over=lambda state: False, phase_labels={})
SCHEMA = {**field_schema(REFEREE.rules["act"].schema), "additionalProperties": True}

CANDIDATES: dict[str, list[Any]] = {
    "count": [2, 9, 1, 10, "3", True, 3.5],
    "extra": [0, 5, 6, -1],
    "bonus": [0, 4, 5, False],
    "note": ["", "abc", "abcdef", 5],
    "sure": [True, False, 1, "yes"],
    "colour": ["red", "blue", "green", 0],
    "suns": [[2, 5], [3, 4], [2, 4], 2],
    "draws": [[1, 6], 4, [], [1, 2, 3, 4], 7, [0], "1"],
    "kinds": [["a", "b"], [], ["c"], ["a", "b", "a"], "a"],
    "places": [[{"row": 1}], [{"row": 3, "side": "left"}], [{"row": 2, "side": None}], [],
               [{"row": 4}], [{}], [{"row": 1, "up": 1}], {"row": 1}, [{"row": 1}] * 3],
}


def random_move(rng: random.Random) -> dict[str, Any]:
    move: dict[str, Any] = {"type": "act"}
    for key, values in CANDIDATES.items():
        pick = rng.random()
        if pick < 0.8:
            move[key] = values[0] if rng.random() < 0.5 else values[1]   # a good value
        elif pick < 0.92:
            move[key] = rng.choice(values)
        elif pick < 0.96:
            move[key] = None
        # else: left out
    return move


def accepted(move: dict[str, Any]) -> bool:
    try:
        REFEREE.parse(move)
    except RuleViolation:
        return False
    return True


def test_what_the_schema_describes_is_what_the_referee_takes():
    schema = Draft202012Validator(SCHEMA)
    Draft202012Validator.check_schema(SCHEMA)
    rng = random.Random(19)
    outcomes = set()
    for _ in range(3000):
        move = random_move(rng)
        valid, taken = schema.is_valid(move), accepted(move)
        # sound: a move the schema describes is taken; complete: a move the referee takes is
        # described (a null where there is a default, which stands for the left-out value,
        # included: issue 21)
        assert valid == taken, move
        outcomes.add((valid, taken))
    assert outcomes == {(True, True), (False, False)}


def test_each_field_option_reads_in_the_schema():
    properties = SCHEMA["properties"]
    assert properties["count"] == {"title": "Count", "type": "integer", "minimum": 2,
                                    "maximum": 9}
    assert properties["extra"]["type"] == ["integer", "null"]
    assert properties["bonus"]["default"] == 1
    assert properties["colour"] == {"title": "Colour", "enum": ["red", "blue", None],
                                    "default": "red"}        # null: left out, the default
    assert properties["draws"]["anyOf"][0] == {"title": "Draw", "type": "integer",  # alone
                                               "minimum": 1, "maximum": 6}   # no default
    assert properties["draws"]["anyOf"][1]["maxItems"] == 3
    assert properties["draws"]["anyOf"][2] == {"type": "null"}
    assert properties["kinds"]["default"] == ["a"]
    assert properties["places"]["items"]["additionalProperties"] is False
    assert properties["places"]["items"]["properties"]["side"]["enum"] == ["left", "right",
                                                                             None]
    assert sorted(SCHEMA["required"]) == ["count", "places", "suns", "sure"]


def test_the_page_describes_each_field_option(toy, app):
    from flask import render_template

    from companion.rules import get_ruleset
    from companion.web.move_docs import MoveDoc, argument_doc

    move = MoveDoc("act", REFEREE.rules["act"].label, N_("Act once."),
                   tuple(argument_doc(spec) for spec in ARGS))
    with app.test_request_context(headers={"Accept-Language": "en"}):
        page = " ".join(render_template("_api_moves.html", game=get_ruleset(GAME),
                                        moves_of={GAME: [move]}).split())
    for words in ("<code>count</code> · Count: a whole number from 2 to 9; required",
                  "<code>extra</code> · Extra: a whole number from 0 to 5; may be left out",
                  "<code>bonus</code> · Bonus: a whole number from 0 to 4; if left out: 1",
                  "<code>sure</code> · Sure: true or false; required",
                  'one of <code>&#34;red&#34;</code> (Red), <code>&#34;blue&#34;</code> (Blue);'
                  ' if left out: &#34;red&#34;',
                  "<code>[2, 5]</code> (Low suns)",
                  "a list of 0 to 3 entries (a single entry may also be given on its own); may"
                  " be left out<ul><li>Each entry (Draw): a whole number from 1 to 6</li>",
                  "a list of 1 to 2 entries; required<ul><li>Each entry (Place): an object"
                  " with these entries<ul><li><code>row</code> · Row: a whole number from 1 to"
                  " 3; required", "Act once."):
        assert words in page, words
