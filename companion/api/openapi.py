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
* the body of ``POST /api/v1/tables`` is one shape per game (its player counts, options,
  set-ups and printed values);
* the other bodies are the entries each view reads, the query parameters those the views read
  (:mod:`.contract`: every integer bounded by its column, as the API enforces);
* every answer is documented (:mod:`.answers`: each success's status, media type and schema,
  and the links from it to the next calls; 409, 429, 503 and the 4xx error where they occur),
  so schemathesis can check each real answer against it (tests/api/test_schemathesis.py);
* an entry that may be left out may also be null (the checker reads null as left out), and
  open objects hold only what the guard lets through (``Storable``).

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
from .answers import ANSWERS, IMPORT_REPORT, LINKS
from .contract import ACTOR, BODIES, ID, PLAYER_NAME, QUERIES, TEXT

# Who may call: the bearer token each endpoint reads (none: anyone).
_PUBLIC = {"api.games", "api.score", "api.open_table", "api.open_group", "api.rejoin",
           "api.take_host", "api.events"}
# Anyone may call, and a token changes the answer (a seat sees its prompts; the host or a seat
# may take a seat that is held).
_TOKEN_OPTIONAL = {"api.read_table", "api.claim_seat"}


def field_schema(spec: Field, entry: bool = False) -> dict[str, Any]:
    """The JSON Schema of one field declaration (rules/fields.py): of a final-state document,
    an edition or a move's arguments. Its title is the field's label; a field that may be
    left out shows the value it then takes (``default``); an ``optional`` one may be null.
    ``entry``: the field is what each entry of a list is, which is never left out."""
    schema = _value_schema(spec)
    has_default, default = default_of(spec)
    if has_default and not entry:
        schema["default"] = plain(default)
    if not entry and (getattr(spec, "optional", False) or not is_required(spec)):
        schema = _nullable(schema)      # an entry that may be left out may be null: the same
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


_KEY = {"pattern": TEXT["pattern"]}


def storable_keys(schema: Any) -> Any:
    """``schema`` with every open object's keys held to storable text (the guard refuses a key
    with a control character anywhere in a body, like any other text)."""
    if isinstance(schema, list):
        return [storable_keys(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {key: storable_keys(value) if key not in ("const", "enum", "default") else value
           for key, value in schema.items()}
    if out.get("type") == "object" and out.get("additionalProperties") is not False:
        out.setdefault("propertyNames", _KEY)
        out.setdefault("additionalProperties", {"$ref": "#/components/schemas/Storable"})
    return out


# Any JSON value the guard lets through (guard.check_value): text without control characters,
# numbers within ±2⁵³, and lists and objects of such values.
_STORABLE = {"anyOf": [
    {"type": "string", "pattern": TEXT["pattern"]},
    {"type": "number", "minimum": -MAX_INT, "maximum": MAX_INT},
    {"type": ["boolean", "null"]},
    {"type": "array", "items": {"$ref": "#/components/schemas/Storable"}},
    {"type": "object", "propertyNames": _KEY,
     "additionalProperties": {"$ref": "#/components/schemas/Storable"}}]}


def open_table_schema() -> dict[str, Any]:
    """The body of ``POST /api/v1/tables``: one shape per game that is played live, with its
    player count, its options, its set-up (for any of its player counts; without one the app
    deals the game's default set-up) and its printed values."""
    shapes = []
    for ruleset in all_rulesets():
        counts = ruleset.catalogue.live_player_counts
        if not counts:
            continue
        setups = [field_schema(ruleset.setup_schema(count)) for count in counts]
        shapes.append({
            "type": "object", "title": ruleset.catalogue.names.get("en", ruleset.id),
            "required": ["game", "players"],
            "properties": {
                "game": {"const": ruleset.id},
                "players": {"type": "array", "items": PLAYER_NAME, "minItems": min(counts),
                            "maxItems": max(counts), "uniqueItems": True},
                # null, like leaving it out: the defaults
                "options": _nullable(field_schema(ObjectField("options", "",
                                                              tuple(ruleset.options)))),
                "setup": _nullable(setups[0] if len(setups) == 1 else {"anyOf": setups}),
                "edition": _nullable({"$ref": f"#/components/schemas/edition_{ruleset.id}"}
                                     if ruleset.edition
                                     else {"type": "object", "maxProperties": 0})}})
    return {"oneOf": shapes}


_PARAM = re.compile(r"<(?:(?P<converter>[a-z]+):)?(?P<name>\w+)>")


# Answered 429 past a per-device limit even when the view carries no limiter mark (a limit
# added around the view elsewhere); the marked views (web/limits.py) are found by themselves.
_RATE_LIMITED = {"api.score"}
_WRITES = ("post", "put", "patch", "delete")
_OPTIONAL_BODY = {"api.claim_seat", "api.revoke_invite", "api.replace_admin_token",
                  "api.void_play", "api.unvoid_play"}
_NO_BODY = {"api.rejoin_link", "api.host_link"}          # they read none
_STALE = {"api.submit_move", "api.draw", "api.undo", "api.request_undo"}


def _error(description: str, schema: str = "Error") -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {
        "schema": {"$ref": f"#/components/schemas/{schema}"}}}}


def _responses(rule: Any, method: str, view: Any) -> dict[str, Any]:
    """Every answer the endpoint gives: its successes (:data:`.answers.ANSWERS`), 409 for a
    stale version, 429 past a rate limit, 503 when the database cannot be written (a read:
    reached; the import: its interrupted batch), and any other 4xx as the Error object."""
    responses: dict[str, Any] = {}
    for status, media, schema in ANSWERS[rule.endpoint]:
        responses[status] = {"description": _SUCCESS.get(status, "OK"),
                             "content": {media: {"schema": schema}}}
    if rule.endpoint in _STALE:
        responses["409"] = _error("A conflict; when someone moved first, the table now.",
                                  "Stale")
    if getattr(view, "rate_limited", False) or rule.endpoint in _RATE_LIMITED:
        responses["429"] = {**_error("Too many requests from this device; try again "
                                     "after Retry-After seconds."),
                            "headers": {"Retry-After": {"schema": {"type": "integer",
                                                                   "minimum": 0}}}}
    responses["4XX"] = _error("Refused: the error, its message and the field it is about.")
    if rule.endpoint == "api.import_bgstats":
        responses["503"] = _error("A batch could not be written: the plays before it are in, "
                                  "and sending the same file again imports the rest.",
                                  "ImportInterrupted")
    elif method in _WRITES:
        responses["503"] = _error("The database cannot be written just now; try again.")
    else:
        responses["503"] = _error("The database cannot be reached just now; try again.")
    return responses


_SUCCESS = {"200": "OK", "201": "Created"}


def _links(endpoint: str, ids: dict[tuple[str, str], str]) -> dict[str, Any]:
    links: dict[str, Any] = {}
    for name, (target, method, parameters, body) in LINKS.get(endpoint, {}).items():
        link: dict[str, Any] = {"operationId": ids[target, method],
                                "parameters": dict(parameters)}
        if body is not None:
            link["requestBody"] = body
        links[name] = link
    return links


def _operation(rule: Any, method: str, operation_id: str) -> dict[str, Any]:
    view = current_app.view_functions[rule.endpoint]
    doc = (view.__doc__ or "").strip()
    operation: dict[str, Any] = {
        "operationId": operation_id,
        "summary": doc.split("\n\n")[0].replace("\n", " ")[:200],
        "parameters": [],
        "responses": _responses(rule, method, view),
    }
    for match in _PARAM.finditer(rule.rule):
        operation["parameters"].append({
            "name": match["name"], "in": "path", "required": True,
            "schema": dict(ID) if match["converter"] == "int" else dict(TEXT)})
    for name, schema in QUERIES.get(rule.endpoint, {}).items():
        operation["parameters"].append({"name": name, "in": "query", "required": False,
                                        "schema": schema})
    if rule.endpoint in _TOKEN_OPTIONAL:
        operation["security"] = [{}, {"bearer": []}]
    elif rule.endpoint not in _PUBLIC:
        operation["security"] = [{"bearer": []}]
    if method in ("post", "put", "patch") and rule.endpoint not in _NO_BODY:
        if rule.endpoint == "api.score":
            schema = {"oneOf": [{"$ref": f"#/components/schemas/final_{r.id}"}
                                for r in all_rulesets()]}
        elif rule.endpoint == "api.open_table":
            schema = open_table_schema()
        elif rule.endpoint == "api.submit_move":
            body = BODIES[rule.endpoint]
            schema = {**body, "properties": {**body["properties"], "move": moves_schema()}}
        else:
            schema = BODIES.get(rule.endpoint, {"type": "object"})
        content = {"application/json": {"schema": storable_keys(schema)}}
        if rule.endpoint == "api.import_bgstats":
            content["multipart/form-data"] = {"schema": {
                "type": "object", "required": ["file"], "properties": {
                    "file": {"type": "string", "contentMediaType": "application/json",
                             "description": "The BG Stats backup file."},
                    "actor": ACTOR}}}
        operation["requestBody"] = {"required": rule.endpoint not in _OPTIONAL_BODY,
                                    "content": content}
    return operation


def _operation_ids(rules: list[Any]) -> dict[tuple[str, str], str]:
    """A unique id per (rule, method): the endpoint's name and the method, and for the longer
    of two routes of one endpoint (``/ladder`` and ``/ladder/{game}``) ``_by_`` and the
    parameters it adds."""
    ids: dict[tuple[str, str], str] = {}        # (route, method) -> id
    by_endpoint: dict[tuple[str, str], list[Any]] = {}
    for rule in rules:
        for method in _methods(rule):
            by_endpoint.setdefault((rule.endpoint, method), []).append(rule)
    for (endpoint, method), routes in by_endpoint.items():
        routes.sort(key=lambda r: len(r.arguments))
        base = endpoint.split(".", 1)[1]
        first = set(routes[0].arguments)
        for rule in routes:
            extra = [m["name"] for m in _PARAM.finditer(rule.rule) if m["name"] not in first]
            ids[rule.rule, method] = f"{base}_by_{'_'.join(extra)}_{method}" if extra \
                else f"{base}_{method}"
    return ids


def _methods(rule: Any) -> list[str]:
    return sorted(m.lower() for m in (rule.methods or set()) - {"HEAD", "OPTIONS"})


def openapi_document() -> dict[str, Any]:
    """The document, from the app's url_map and the games' schemas."""
    components: dict[str, Any] = {
        "schemas": {"Error": _ERROR, "Stale": _STALE_SCHEMA, "Storable": _STORABLE,
                    "ImportInterrupted": _IMPORT_INTERRUPTED},
        "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
    }
    for ruleset in all_rulesets():
        components["schemas"][f"final_{ruleset.id}"] = final_schema(ruleset)
        if ruleset.edition:
            components["schemas"][f"edition_{ruleset.id}"] = field_schema(
                edition_schema(ruleset.edition))
        for move in ruleset.move_rules():
            components["schemas"][_move_name(ruleset, move)] = storable_keys(
                move_schema(ruleset, move))
    rules = sorted((rule for rule in current_app.url_map.iter_rules()
                    if rule.rule.startswith(bp.url_prefix + "/")), key=lambda r: r.rule)
    ids = _operation_ids(rules)
    by_endpoint: dict[tuple[str, str], str] = {}      # a link's target: the shortest route
    for rule in sorted(rules, key=lambda r: len(r.arguments)):
        for method in _methods(rule):
            by_endpoint.setdefault((rule.endpoint, method), ids[rule.rule, method])
    paths: dict[str, Any] = {}
    for rule in rules:
        path = _PARAM.sub(lambda m: "{" + m["name"] + "}", rule.rule)
        for method in _methods(rule):
            operation = _operation(rule, method, ids[rule.rule, method])
            links = _links(rule.endpoint, by_endpoint)
            if links:
                for status, answer in operation["responses"].items():
                    if status.startswith("2"):
                        answer["links"] = links
            paths.setdefault(path, {})[method] = operation
    return {"openapi": "3.1.0",
            "info": {"title": "Scribe", "version": "1",
                     "description": "The JSON API of Scribe, a table companion for board "
                                    "games. Every error is a 4xx answer "
                                    "{\"error\", \"message\", \"field\"}."},
            "paths": paths, "components": components}


_ERROR = {"type": "object", "required": ["error", "message", "field"],
          "properties": {"error": {"type": "string"}, "message": {"type": "string"},
                         "field": {"type": ["string", "null"]}}}
# A conflict: the error; when it is a stale version, also the table as it is now.
_STALE_SCHEMA = {"allOf": [{"$ref": "#/components/schemas/Error"}, {
    "type": "object", "properties": {"version": {"type": "integer"},
                                     "state": {"type": "object"},
                                     "prompts": {"type": "object"}}}]}
_IMPORT_INTERRUPTED = {"allOf": [{"$ref": "#/components/schemas/Error"}, IMPORT_REPORT]}
