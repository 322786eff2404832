"""The OpenAPI 3.1 document of /api/v1, served at ``/api/openapi.json`` (issue 10).

It is built at request time from what validates, so it cannot drift:

* every ``/api/v1`` rule of the app's url_map is a path, with its methods, and its path
  parameters typed by their converters (``<int:…>`` is 0 … 2³¹−1, as :class:`..guard.BoundedInt`
  enforces; any other segment is text without control characters, as the guard enforces);
* the body of ``POST /api/v1/score`` is one of the games' final-state schemas
  (``Ruleset.final_schema``, the declarations :func:`..rules.base.check_document` checks),
  converted field by field;
* the other bodies are the entries each view reads (:data:`BODIES`, keyed by endpoint);
  the query parameters are those the views read (:data:`QUERIES`).

Every error is the same object, ``{"error", "message", "field"}``.
"""

from __future__ import annotations

import re
from typing import Any

from flask import current_app

from ..guard import DB_INT_MAX, MAX_INT
from ..rules import all_rulesets
from ..rules.base import (BoolField, ChoiceField, Field, IntField, ListField, ObjectField,
                          TextField, edition_schema)
from . import bp

_TEXT = {"type": "string", "pattern": r"^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]*$"}
_ID = {"type": "integer", "minimum": 0, "maximum": DB_INT_MAX}
_ACTOR = {**_TEXT, "maxLength": 60}

# The bodies the views read (beyond ``score``, whose schemas come from the games).
BODIES: dict[str, dict[str, Any]] = {
    "api.open_table": {"type": "object", "required": ["game", "players"], "properties": {
        "game": _TEXT, "options": {"type": "object"}, "players": {"type": "array",
                                                                 "items": _TEXT},
        "setup": {"type": "object"}, "edition": {"type": "object"}}},
    "api.claim_seat": {"type": "object", "properties": {"generation": _ID}},
    "api.rejoin": {"type": "object", "required": ["token"], "properties": {"token": _TEXT}},
    "api.cohost": {"type": "object", "required": ["on"], "properties": {
        "on": {"type": "boolean"}}},
    "api.take_host": {"type": "object", "required": ["token"], "properties": {
        "token": _TEXT}},
    "api.submit_move": {"type": "object", "required": ["move", "version"], "properties": {
        "move": {}, "version": _ID, "idempotency_key": {**_TEXT, "maxLength": 64}}},
    "api.draw": {"type": "object", "required": ["version"], "properties": {
        "version": _ID, "idempotency_key": {**_TEXT, "maxLength": 64}}},
    "api.undo": {"type": "object", "required": ["version"], "properties": {
        "version": _ID, "idempotency_key": {**_TEXT, "maxLength": 64}}},
    "api.request_undo": {"type": "object", "required": ["version"], "properties": {
        "version": _ID}},
    "api.open_group": {"type": "object", "required": ["name"], "properties": {
        "name": _TEXT}},
    "api.rename_group": {"type": "object", "required": ["name"], "properties": {
        "name": _TEXT, "actor": _ACTOR}},
    "api.revoke_invite": {"type": "object", "properties": {"actor": _ACTOR}},
    "api.replace_admin_token": {"type": "object", "properties": {"actor": _ACTOR}},
    "api.join": {"type": "object", "properties": {
        "name": _TEXT, "player_id": _ID, "proof_token": _TEXT}},
    "api.rename_player": {"type": "object", "required": ["name"], "properties": {
        "name": _TEXT, "actor": _ACTOR}},
    "api.merge_players": {"type": "object", "required": ["keep", "merge"], "properties": {
        "keep": _ID, "merge": _ID, "actor": _ACTOR}},
    "api.record_play": {"type": "object", "required": ["table", "table_token"],
                        "properties": {
                            "table": _TEXT, "table_token": _TEXT,
                            "links": {"type": "object", "additionalProperties": _ID},
                            "location": _TEXT, "actor": _ACTOR}},
    "api.void_play": {"type": "object", "properties": {"actor": _ACTOR, "reason": _TEXT}},
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
                       "offset": {"type": "integer", "minimum": 0},
                       "game": _TEXT, "voided": _TEXT},
    "api.head_to_head": {"a": _ID, "b": _ID},
    "api.import_bgstats": {"actor": _ACTOR},
    "api.events": {"version": {"type": "integer", "minimum": 0}},
}

# Who may call: the bearer token each endpoint reads (none: anyone).
_PUBLIC = {"api.games", "api.score", "api.open_table", "api.open_group", "api.rejoin",
           "api.take_host", "api.events"}


def field_schema(spec: Field) -> dict[str, Any]:
    """The JSON Schema of one final-state field declaration (rules/base.py)."""
    if isinstance(spec, IntField):
        schema: dict[str, Any] = {"type": "integer", "minimum": 0,
                                  "maximum": spec.max if spec.max is not None else MAX_INT}
        if spec.default is not None:
            schema["default"] = spec.default
        return schema
    if isinstance(spec, TextField):
        return {**_TEXT, "maxLength": spec.max_length,
                **({"minLength": 1} if spec.required else {})}
    if isinstance(spec, BoolField):
        return {"type": "boolean", "default": spec.default}
    if isinstance(spec, ChoiceField):
        return {"enum": list(spec.values)}
    if isinstance(spec, ListField):
        schema = {"type": "array", "items": field_schema(spec.item),
                  "minItems": spec.min_items}
        if spec.max_items is not None:
            schema["maxItems"] = spec.max_items
        return schema
    if isinstance(spec, ObjectField):
        return {"type": "object", "additionalProperties": False,
                "properties": {f.key: field_schema(f) for f in spec.fields},
                "required": [f.key for f in spec.fields if _required(f)]}
    raise TypeError(f"no JSON Schema for {spec!r}")


def _required(spec: Field) -> bool:
    if isinstance(spec, (ObjectField, ListField)):
        return spec.required
    if isinstance(spec, TextField):
        return spec.required
    if isinstance(spec, ChoiceField):
        return spec.default is None
    return False


def final_schema(ruleset: Any) -> dict[str, Any]:
    schema = field_schema(ruleset.final_schema)
    schema["properties"]["game"] = {"const": ruleset.id}
    schema["required"] = sorted({"game", *schema["required"]})
    return schema


_PARAM = re.compile(r"<(?:(?P<converter>[a-z]+):)?(?P<name>\w+)>")


def _operation(rule: Any, method: str, components: dict[str, Any]) -> dict[str, Any]:
    view = current_app.view_functions[rule.endpoint]
    doc = (view.__doc__ or "").strip()
    operation: dict[str, Any] = {
        "operationId": f"{rule.endpoint.split('.', 1)[1]}_{method}",
        "summary": doc.split("\n\n")[0].replace("\n", " ")[:200],
        "parameters": [],
        "responses": {
            "200": {"description": "OK", "content": {"application/json": {}}},
            "4XX": {"description": "An error", "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/Error"}}}}},
    }
    for match in _PARAM.finditer(rule.rule):
        operation["parameters"].append({
            "name": match["name"], "in": "path", "required": True,
            "schema": dict(_ID) if match["converter"] == "int" else dict(_TEXT)})
    for name, schema in QUERIES.get(rule.endpoint, {}).items():
        operation["parameters"].append({"name": name, "in": "query", "required": False,
                                        "schema": schema})
    if rule.endpoint not in _PUBLIC:
        operation["security"] = [{"bearer": []}]
    if method in ("post", "put", "patch"):
        if rule.endpoint == "api.score":
            schema = {"oneOf": [{"$ref": f"#/components/schemas/final_{r.id}"}
                                for r in all_rulesets()]}
        else:
            schema = BODIES.get(rule.endpoint, {"type": "object"})
        operation["requestBody"] = {"required": method != "post" or rule.endpoint
                                    not in ("api.claim_seat", "api.revoke_invite",
                                            "api.replace_admin_token", "api.void_play",
                                            "api.unvoid_play", "api.rejoin_link",
                                            "api.host_link"),
                                    "content": {"application/json": {"schema": schema}}}
    return operation


def openapi_document() -> dict[str, Any]:
    """The document, from the app's url_map and the games' schemas."""
    components: dict[str, Any] = {
        "schemas": {"Error": {"type": "object", "required": ["error", "message", "field"],
                              "properties": {"error": {"type": "string"},
                                             "message": {"type": "string"},
                                             "field": {"type": ["string", "null"]}}}},
        "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
    }
    for ruleset in all_rulesets():
        components["schemas"][f"final_{ruleset.id}"] = final_schema(ruleset)
        if ruleset.edition:
            components["schemas"][f"edition_{ruleset.id}"] = field_schema(
                edition_schema(ruleset.edition))
    paths: dict[str, Any] = {}
    for rule in sorted(current_app.url_map.iter_rules(), key=lambda r: r.rule):
        if not rule.rule.startswith(bp.url_prefix + "/"):
            continue
        path = _PARAM.sub(lambda m: "{" + m["name"] + "}", rule.rule)
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            paths.setdefault(path, {})[method.lower()] = _operation(rule, method.lower(),
                                                                    components)
    return {"openapi": "3.1.0",
            "info": {"title": "Scribe", "version": "1",
                     "description": "The JSON API of Scribe, a table companion for board "
                                    "games. Every error is a 4xx answer "
                                    "{\"error\", \"message\", \"field\"}."},
            "paths": paths, "components": components}
