"""The OpenAPI 3.1 document of /api/v1, served at ``/api/openapi.json`` (issue 10).

It is built at request time from what validates, so it cannot drift:

* every ``/api/v1`` rule of the app's url_map is a path, with its methods, and its path
  parameters typed by their converters (``<int:…>`` is 0 … 2³¹−1, as :class:`..guard.BoundedInt`
  enforces; any other segment is text without control characters, as the guard enforces);
* the body of ``POST /api/v1/score`` is one of the games' final-state schemas
  (``Ruleset.final_schema``, the declarations :func:`..rules.base.check_document` checks),
  converted field by field;
* the ``move`` of ``POST …/moves`` is one of the kinds of move the games declare
  (``Ruleset.move_rules()``: each kind's ``type`` and its argument fields, which the referee
  parses moves with), one schema per game and kind;
* the other bodies are the entries each view reads (:data:`BODIES`, keyed by endpoint);
  the query parameters are those the views read (:data:`QUERIES`).

Every error is the same object, ``{"error", "message", "field"}``.
"""

from __future__ import annotations

import re
from typing import Any

from flask import current_app

from ..guard import MAX_INT
from ..rules import all_rulesets
from ..rules.base import (BoolField, ChoiceField, Field, IntField, ListField, ObjectField,
                          Term, TextField, edition_schema)
from ..rules.fields import default_of, is_required, plain
from . import bp
from .contract import BODIES, ID, QUERIES, TEXT

# Who may call: the bearer token each endpoint reads (none: anyone).
_PUBLIC = {"api.games", "api.score", "api.open_table", "api.open_group", "api.rejoin",
           "api.take_host", "api.events"}


def field_schema(spec: Field, entry: bool = False) -> dict[str, Any]:
    """The JSON Schema of one field declaration (rules/fields.py): of a final-state document,
    an edition or a move's arguments. Its title is the field's label; a field that may be
    left out shows the value it then takes (``default``); an ``optional`` one may be null.
    ``entry``: the field is what each entry of a list is, which is never left out."""
    schema = _value_schema(spec)
    has_default, default = default_of(spec)
    if has_default and not entry:
        schema["default"] = plain(default)
    if getattr(spec, "optional", False) and not entry:
        schema = _nullable(schema)
    title = spec.label.render(lambda s: s) if isinstance(spec.label, Term) else spec.label
    return {"title": title, **schema} if title else schema


def _value_schema(spec: Field) -> dict[str, Any]:
    if isinstance(spec, IntField):
        return {"type": "integer", "minimum": spec.min,
                "maximum": spec.max if spec.max is not None else MAX_INT}
    if isinstance(spec, TextField):
        return {**TEXT, "maxLength": spec.max_length,
                **({"minLength": 1} if spec.required and not spec.optional else {})}
    if isinstance(spec, BoolField):
        return {"type": "boolean"}
    if isinstance(spec, ChoiceField):
        return {"enum": list(spec.values)}
    if isinstance(spec, ListField):
        schema: dict[str, Any] = {"type": "array",
                                  "items": field_schema(spec.item, entry=True),
                                  "minItems": spec.min_items}
        if spec.max_items is not None:
            schema["maxItems"] = spec.max_items
        if spec.scalar and _one_item_allowed(spec):
            # one item given without its list counts as a list of one (rules/fields.py)
            return {"anyOf": [field_schema(spec.item, entry=True), schema]}
        return schema
    if isinstance(spec, ObjectField):
        return {"type": "object", "additionalProperties": False,
                "properties": {f.key: field_schema(f) for f in spec.fields},
                "required": [f.key for f in spec.fields if is_required(f)]}
    raise TypeError(f"no JSON Schema for {spec!r}")


def _one_item_allowed(spec: ListField) -> bool:
    """Whether a single item may stand for the list: a plain value (the checker never wraps
    an object or a list) and a list of one is long enough and not too long."""
    return (not isinstance(spec.item, (ObjectField, ListField)) and spec.min_items <= 1
            and (spec.max_items is None or spec.max_items >= 1))


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema``, or null (what an ``optional`` field left out becomes)."""
    if isinstance(schema.get("type"), str):
        return {**schema, "type": [schema["type"], "null"]}
    if "enum" in schema:
        return {**schema, "enum": [*schema["enum"], None]}
    if "anyOf" in schema:
        return {**schema, "anyOf": [*schema["anyOf"], {"type": "null"}]}
    return {"anyOf": [schema, {"type": "null"}]}


def final_schema(ruleset: Any) -> dict[str, Any]:
    """The final-state document of ``ruleset``, as ``POST /api/v1/score`` takes it."""
    schema = field_schema(ruleset.final_schema)
    schema["properties"]["game"] = {"const": ruleset.id}
    schema["required"] = sorted({"game", *schema["required"]})
    return schema


def move_schema(ruleset: Any, rule: Any) -> dict[str, Any]:
    """One kind of move of ``ruleset`` (a :class:`..rules.referee.MoveRule`): its ``type``
    and its declared arguments. Other top-level entries are ignored by the referee, so they
    are allowed here; inside an argument every entry must be known."""
    arguments = field_schema(rule.schema)
    schema: dict[str, Any] = {
        "type": "object",
        "title": f"{ruleset.catalogue.names.get('en', ruleset.id)}: {rule.label}",
        "properties": {"type": {"const": rule.kind}, **arguments["properties"]},
        "required": ["type", *arguments["required"]]}
    if rule.hint:
        schema["description"] = rule.hint
    return schema


def _move_name(ruleset: Any, rule: Any) -> str:
    return f"move_{ruleset.id}_{rule.kind}"


def moves_schema() -> dict[str, Any]:
    """The ``move`` of ``POST …/moves``: one of the kinds of move, told apart by ``type``;
    a kind that several games have is any of their shapes (the table decides which game).
    An empty schema while no game declares a move."""
    by_kind: dict[str, list[dict[str, str]]] = {}
    for ruleset in all_rulesets():
        for rule in ruleset.move_rules():
            by_kind.setdefault(rule.kind, []).append(
                {"$ref": f"#/components/schemas/{_move_name(ruleset, rule)}"})
    if not by_kind:
        return {}
    return {"oneOf": [shapes[0] if len(shapes) == 1 else {"anyOf": shapes}
                      for _kind, shapes in sorted(by_kind.items())]}


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
            "schema": dict(ID) if match["converter"] == "int" else dict(TEXT)})
    for name, schema in QUERIES.get(rule.endpoint, {}).items():
        operation["parameters"].append({"name": name, "in": "query", "required": False,
                                        "schema": schema})
    if getattr(view, "rate_limited", False):      # web/limits.py: past its limit
        operation["responses"]["429"] = {
            "description": "Too many requests from this device: wait Retry-After seconds.",
            "headers": {"Retry-After": {"schema": {"type": "integer", "minimum": 0}}},
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    if rule.endpoint not in _PUBLIC:
        operation["security"] = [{"bearer": []}]
    if method in ("post", "put", "patch"):
        if rule.endpoint == "api.score":
            schema = {"oneOf": [{"$ref": f"#/components/schemas/final_{r.id}"}
                                for r in all_rulesets()]}
        elif rule.endpoint == "api.submit_move":
            body = BODIES[rule.endpoint]
            schema = {**body, "properties": {**body["properties"], "move": moves_schema()}}
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
        for move in ruleset.move_rules():
            components["schemas"][_move_name(ruleset, move)] = move_schema(ruleset, move)
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
