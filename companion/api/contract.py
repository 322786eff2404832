"""What the JSON API reads, declared once (issue 21): each endpoint's body entries and query
parameters, with the bounds of every integer, which the OpenAPI document shows
(:mod:`.openapi`) and :func:`check_integers` enforces before any view runs.

An integer that goes to the database is bounded by its column's type (:func:`stored`: an id,
a version, a generation is 0 … 2³¹−1, PostgreSQL's ``integer``), so no request can overflow a
query on either database; a query parameter that is not a whole number, or any declared integer
out of its bounds, is refused with a 422 naming the field. Other wrong values (a missing entry,
a wrong type) are each view's to refuse, in its own words.
"""

from __future__ import annotations

from typing import Any

from flask import jsonify, request
from flask_babel import gettext

from ..guard import int_range
from ..models import GameTable, Player, Seat
from ..rules.base import N_, RuleViolation

# Text the guard lets through (no control characters: guard.parameter_problem, check_value).
TEXT = {"type": "string",
        "pattern": r"^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]*$"}


def stored(column: Any, minimum: int = 0) -> dict[str, Any]:
    """An integer the database keeps in ``column``: from ``minimum`` to the largest the
    column's type holds (:func:`..guard.int_range`)."""
    return {"type": "integer", "minimum": minimum, "maximum": int_range(column)[1]}


ID = stored(Player.id)               # group, player: the same integer ids
_VERSION = stored(GameTable.version)
_GENERATION = stored(Seat.generation)
_ACTOR = {**TEXT, "maxLength": 60}

# The bodies the views read (beyond ``score``, whose schemas come from the games).
BODIES: dict[str, dict[str, Any]] = {
    "api.open_table": {"type": "object", "required": ["game", "players"], "properties": {
        "game": TEXT, "options": {"type": "object"}, "players": {"type": "array",
                                                                 "items": TEXT},
        "setup": {"type": "object"}, "edition": {"type": "object"}}},
    "api.claim_seat": {"type": "object", "properties": {"generation": _GENERATION}},
    "api.rejoin": {"type": "object", "required": ["token"], "properties": {"token": TEXT}},
    "api.cohost": {"type": "object", "required": ["on"], "properties": {
        "on": {"type": "boolean"}}},
    "api.take_host": {"type": "object", "required": ["token"], "properties": {
        "token": TEXT}},
    "api.submit_move": {"type": "object", "required": ["move", "version"], "properties": {
        "move": {}, "version": _VERSION, "idempotency_key": {**TEXT, "maxLength": 64}}},
    "api.draw": {"type": "object", "required": ["version"], "properties": {
        "version": _VERSION, "idempotency_key": {**TEXT, "maxLength": 64}}},
    "api.undo": {"type": "object", "required": ["version"], "properties": {
        "version": _VERSION, "idempotency_key": {**TEXT, "maxLength": 64}}},
    "api.request_undo": {"type": "object", "required": ["version"], "properties": {
        "version": _VERSION}},
    "api.open_group": {"type": "object", "required": ["name"], "properties": {
        "name": TEXT}},
    "api.rename_group": {"type": "object", "required": ["name"], "properties": {
        "name": TEXT, "actor": _ACTOR}},
    "api.revoke_invite": {"type": "object", "properties": {"actor": _ACTOR}},
    "api.replace_admin_token": {"type": "object", "properties": {"actor": _ACTOR}},
    "api.join": {"type": "object", "properties": {
        "name": TEXT, "player_id": ID, "proof_token": TEXT}},
    "api.rename_player": {"type": "object", "required": ["name"], "properties": {
        "name": TEXT, "actor": _ACTOR}},
    "api.merge_players": {"type": "object", "required": ["keep", "merge"], "properties": {
        "keep": ID, "merge": ID, "actor": _ACTOR}},
    "api.record_play": {"type": "object", "required": ["table", "table_token"],
                        "properties": {
                            "table": TEXT, "table_token": TEXT,
                            "links": {"type": "object", "additionalProperties": ID},
                            "location": TEXT, "actor": _ACTOR}},
    "api.void_play": {"type": "object", "properties": {"actor": _ACTOR, "reason": TEXT}},
    "api.unvoid_play": {"type": "object", "properties": {"actor": _ACTOR}},
    "api.correct_play": {"type": "object", "required": ["document"], "properties": {
        "document": {"type": "object"}, "actor": _ACTOR}},
    "api.save_edition": {"type": "object", "required": ["values"], "properties": {
        "values": {"type": "object"}, "actor": _ACTOR}},
    "api.import_bgstats": {"type": "object", "description": "A BG Stats backup file."},
}

QUERIES: dict[str, dict[str, dict[str, Any]]] = {
    "api.score": {"save": {"type": "string", "enum": ["0", "1", "true", "false", "yes",
                                                      "no"]}},
    "api.audit": {"limit": {"type": "integer", "minimum": 1, "maximum": 1000}},
    "api.list_plays": {"limit": {"type": "integer", "minimum": 0, "maximum": 500},
                       "offset": stored(Player.id),     # never more rows than ids
                       "game": TEXT, "voided": TEXT},
    "api.head_to_head": {"a": ID, "b": ID},
    "api.import_bgstats": {"actor": _ACTOR},
    "api.events": {"version": _VERSION},
}


def _integer_problem(schema: dict[str, Any], value: Any, field: str) -> RuleViolation | None:
    """Why ``value`` breaks the integer ``schema`` (None: it does not, or it is no integer,
    which the view refuses itself)."""
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    if "minimum" in schema and value < schema["minimum"]:
        return RuleViolation("schema.too_small", N_("At least %(min)d."), field,
                             min=schema["minimum"])
    if "maximum" in schema and value > schema["maximum"]:
        return RuleViolation("schema.too_large", N_("At most %(max)d."), field,
                             max=schema["maximum"])
    return None


def _is_integer(schema: Any) -> bool:
    return isinstance(schema, dict) and schema.get("type") == "integer"


def integer_problem() -> RuleViolation | None:
    """The first declared integer of the request (query parameter or body entry) that is out
    of its bounds, or a declared integer query parameter that is not a whole number."""
    for name, schema in QUERIES.get(request.endpoint or "", {}).items():
        text = request.args.get(name)
        if text is None or not _is_integer(schema):
            continue
        try:
            value = int(text.strip())
        except ValueError:
            return RuleViolation("schema.not_integer", N_("This must be a whole number."),
                                 name)
        problem = _integer_problem(schema, value, name)
        if problem is not None:
            return problem
    body = BODIES.get(request.endpoint or "")
    if body is None or not request.is_json:
        return None
    value = request.get_json(silent=True)
    if not isinstance(value, dict):
        return None
    for name, schema in body.get("properties", {}).items():
        if _is_integer(schema) and name in value:
            problem = _integer_problem(schema, value[name], name)
            if problem is not None:
                return problem
    for name, schema in body.get("properties", {}).items():
        entries = schema.get("additionalProperties") if isinstance(schema, dict) else None
        if _is_integer(entries) and isinstance(value.get(name), dict):
            for key, item in value[name].items():
                problem = _integer_problem(entries, item, f"{name}.{key}")
                if problem is not None:
                    return problem
    return None


def check_integers():
    """Before every API view: refuse a declared integer out of its bounds (422, naming it)."""
    problem = integer_problem()
    if problem is None:
        return None
    return jsonify(problem.as_dict(gettext)), 422
