"""Every integer of every path, query and body, at its boundaries (issue 21 §3).

The boundaries are learned from the OpenAPI document (``/api/openapi.json``), so a new endpoint,
query parameter or body entry is covered by itself: for each integer the document declares (a
path or query parameter, an entry of a request body, at any depth of the games' documents and
moves), the request is sent with 2³¹−1, 2³¹, 2⁶³ and −1, and with one past each bound the
document gives (``minimum − 1``, ``maximum + 1``). The rest of the request is real (ids and
tokens of a live table, a saved game and a group), so the number is what is judged:

* no answer is a 5xx (on PostgreSQL an id of 2³¹ in a query used to be one);
* a value outside the document's bounds is refused with a 4xx; a query parameter or a body
  entry the API declares itself is refused with a 422 naming it, and whatever refusal is
  about a number's size (``schema.too_large`` …) names that number's field;
* a path segment outside its bounds names nothing: 404.

Marked ``db``: .ci/run runs it again on PostgreSQL, whose ``integer`` columns are 32-bit.
"""

from __future__ import annotations

import time
from typing import Any, Iterator

import pytest

from tests.api.livetable import LiveTable, bearer
from tests.factories import ra_document

pytestmark = pytest.mark.db

FIXED = (2 ** 31 - 1, 2 ** 31, 2 ** 63, -1)
SIZE_ERRORS = {"schema.too_large", "schema.too_small", "json.number_too_large"}
NO_LIMITS = "1000000 per minute"


def boundaries(schema: dict[str, Any]) -> list[int]:
    """The values to try for an integer ``schema``: the fixed ones and one past each bound."""
    values = set(FIXED)
    if "minimum" in schema:
        values.add(schema["minimum"] - 1)
    if "maximum" in schema:
        values.add(schema["maximum"] + 1)
    return sorted(values)


def outside(schema: dict[str, Any], value: int) -> bool:
    return value < schema.get("minimum", -2 ** 53) or value > schema.get("maximum", 2 ** 53)


class Document:
    """The OpenAPI document, read for its integers."""

    def __init__(self, document: dict[str, Any]):
        self.document = document
        self.components = document["components"]["schemas"]

    def resolve(self, schema: Any) -> dict[str, Any]:
        while isinstance(schema, dict) and "$ref" in schema:
            schema = self.components[schema["$ref"].rsplit("/", 1)[1]]
        return schema if isinstance(schema, dict) else {}

    @staticmethod
    def is_integer(schema: dict[str, Any]) -> bool:
        kind = schema.get("type")
        return kind == "integer" or (isinstance(kind, list) and "integer" in kind)

    def sample(self, schema: Any, depth: int = 0) -> Any:
        """A plain value the schema allows (its default, its first choice, its smallest)."""
        schema = self.resolve(schema)
        if "const" in schema:
            return schema["const"]
        if "default" in schema:
            return schema["default"]
        if "enum" in schema:
            return schema["enum"][0]
        for key in ("oneOf", "anyOf"):
            if key in schema:
                return self.sample(schema[key][0], depth)
        kind = schema.get("type")
        kind = kind[0] if isinstance(kind, list) else kind
        if kind == "integer":
            return max(schema.get("minimum", 0), 0)
        if kind == "boolean":
            return False
        if kind == "string":
            return "Ana" + "a" * max(0, schema.get("minLength", 0) - 3)
        if kind == "array":
            return [self.sample(schema.get("items", {}), depth + 1)
                    for _ in range(schema.get("minItems", 0))]
        if kind == "object" and depth < 12:
            return {key: self.sample(sub, depth + 1)
                    for key, sub in schema.get("properties", {}).items()
                    if key in schema.get("required", [])}
        return None

    def integers(self, schema: Any, base: Any, path: tuple = (),
                 depth: int = 0) -> Iterator[tuple[tuple, dict[str, Any], Any]]:
        """Every integer slot of a body ``schema``: (its path, its schema, a whole body
        (built on ``base``) that holds it)."""
        schema = self.resolve(schema)
        if depth > 12:
            return
        if self.is_integer(schema):
            yield path, schema, base
            return
        for key in ("oneOf", "anyOf"):
            for alternative in schema.get(key, []):
                alternative = self.resolve(alternative)
                value = base if self._fits(alternative, base) else self.sample(alternative)
                yield from self.integers(alternative, value, path, depth + 1)
        properties = schema.get("properties", {})
        if isinstance(base, dict) or properties:
            whole = dict(base) if isinstance(base, dict) else {}
            for key, sub in properties.items():
                inner = whole.get(key, self.sample(sub))
                for sub_path, sub_schema, sub_body in self.integers(sub, inner, (*path, key),
                                                                    depth + 1):
                    yield sub_path, sub_schema, {**whole, key: sub_body}
            extra = schema.get("additionalProperties")
            if isinstance(extra, dict) and extra:
                for sub_path, sub_schema, sub_body in self.integers(extra, self.sample(extra),
                                                                    (*path, "0"), depth + 1):
                    yield sub_path, sub_schema, {**whole, "0": sub_body}
        if schema.get("type") == "array" and "items" in schema:
            items = list(base) if isinstance(base, list) and base else \
                [self.sample(schema["items"])]
            for sub_path, sub_schema, sub_body in self.integers(schema["items"], items[0],
                                                                (*path, 0), depth + 1):
                yield sub_path, sub_schema, [sub_body, *items[1:]]

    def _fits(self, schema: dict[str, Any], value: Any) -> bool:
        kind = (schema.get("properties") or {}).get("type") or \
            (schema.get("properties") or {}).get("game")
        return isinstance(value, dict) and kind is not None and \
            value.get("type" if "type" in schema["properties"] else "game") == kind.get("const")


def put(body: Any, path: tuple, value: int) -> Any:
    """``body`` with ``value`` at ``path``."""
    if not path:
        return value
    head, *rest = path
    if isinstance(body, list):
        copy = list(body)
        copy[head] = put(copy[head], tuple(rest), value)
        return copy
    copy = dict(body) if isinstance(body, dict) else {}
    copy[head] = put(copy.get(head), tuple(rest), value)
    return copy


def dotted(path: tuple) -> str:
    return ".".join(str(key) for key in path)


class World:
    """Real ids and tokens: a live Ra table with its seats claimed, a saved game, a group with
    its members, so that each request reaches the code that reads its number."""

    def __init__(self, client):
        self.table = LiveTable(client)
        saved = client.post("/api/v1/score?save=1", json=ra_document(3)).get_json()
        group = client.post("/api/v1/groups", json={"name": "Bounds"}).get_json()
        self.admin = group["admin_token"]
        self.group_id = group["id"]
        client.post(f"/api/v1/groups/{self.group_id}/plays", headers=bearer(self.admin),
                    json={"table": saved["table"], "table_token": saved["table_token"]})
        self.saved = saved["table"]
        players = client.get(f"/api/v1/groups/{self.group_id}/players",
                             headers=bearer(self.admin)).get_json()["players"]
        self.player = players[0]["player_id"]

    def url(self, path: str, **given: Any) -> str:
        for name in ("group_id", "player_id", "position", "game", "table_id"):
            value = given.get(name, self.group_id if name == "group_id" else
                              self.player if name == "player_id" else 0 if name == "position"
                              else "ra" if name == "game"
                              else self.saved if "/groups/" in path else self.table.id)
            path = path.replace("{" + name + "}", str(value))
        return path

    def token(self, path: str, method: str) -> str | None:
        if "/groups/" in path:
            return self.admin
        if path.endswith(("/moves", "/draw", "/undo-request")) or \
                (path.endswith("/undo") and method == "post"):
            return self.table.tokens[0]
        return self.table.host


def test_every_integer_is_refused_past_its_bounds(app):
    for key in ("RATE_LIMIT_JOIN", "RATE_LIMIT_OPEN_TABLE", "RATE_LIMIT_OPEN_GROUP",
                "RATE_LIMIT_IMPORT"):
        app.config[key] = NO_LIMITS
    client = app.test_client()
    world = World(client)
    document = Document(client.get("/api/openapi.json").get_json())
    failures: list[str] = []
    tried = {"parameters": 0, "body integers": 0, "requests": 0}
    started = time.monotonic()

    def send(method: str, url: str, body: Any, token: str | None, schema: dict[str, Any],
             value: int, field: str | None, named: bool) -> None:
        kwargs: dict[str, Any] = {"headers": bearer(token)}
        if body is not None:
            kwargs["json"] = body
        answer = client.open(url, method=method.upper(), **kwargs)
        tried["requests"] += 1
        what = f"{method.upper()} {url} {field}={value}"
        error = answer.get_json(silent=True) if answer.status_code >= 400 else None
        if answer.status_code >= 500:
            failures.append(f"{answer.status_code}: {what}")
        elif outside(schema, value):
            if not 400 <= answer.status_code < 500:
                failures.append(f"accepted ({answer.status_code}): {what}")
            elif field is None:          # a path segment: it names nothing
                if answer.status_code != 404:
                    failures.append(f"{answer.status_code}, not 404: {what}")
            elif not isinstance(error, dict):
                failures.append(f"no JSON error: {what}")
            else:
                errors = [error, *error.get("errors", [])]
                named_it = any(e.get("field") == field for e in errors)
                about_size = any(e.get("error") in SIZE_ERRORS for e in errors)
                if (named or about_size) and not named_it:
                    failures.append(f"{error.get('error')} names {error.get('field')!r}, not "
                                    f"{field!r}: {what}")
        answer.close()

    for path, operations in sorted(document.document["paths"].items()):
        for method, operation in sorted(operations.items()):
            if path.endswith("/events"):
                continue     # a stream: its one integer is checked in the next test
            token = world.token(path, method)
            content = operation.get("requestBody", {}).get("content", {})
            body_schema = content.get("application/json", {}).get("schema")
            base = document.sample(body_schema) if body_schema is not None else None
            for parameter in operation.get("parameters", []):
                schema = document.resolve(parameter["schema"])
                if not document.is_integer(schema):
                    continue
                tried["parameters"] += 1
                for value in boundaries(schema):
                    if parameter["in"] == "path":
                        url = world.url(path, **{parameter["name"]: value})
                        field = None
                    else:
                        url = f"{world.url(path)}?{parameter['name']}={value}"
                        field = parameter["name"]
                    send(method, url, base, token, schema, value, field, named=True)
            if body_schema is None:
                continue
            for slot, schema, body in document.integers(body_schema, base):
                tried["body integers"] += 1
                for value in boundaries(schema):
                    send(method, world.url(path), put(body, slot, value), token, schema,
                         value, dotted(slot), named=len(slot) == 1)

    print(f"{tried} in {time.monotonic() - started:.1f} s")
    assert tried["parameters"] >= 10 and tried["body integers"] >= 30
    assert not failures, "\n".join(failures[:60])


def test_the_event_stream_bounds_its_version(app, client):
    table = LiveTable(client, claim=False)
    for value in (2 ** 31, 2 ** 63, -1):
        answer = client.get(f"/api/v1/tables/{table.id}/events?version={value}")
        assert answer.status_code == 422, value
        assert answer.get_json()["field"] == "version"


@pytest.mark.parametrize("query", ["a=2147483648&b=1", "a=1&b=9223372036854775808", "a=-1&b=1"])
def test_the_head_to_head_page_refuses_an_id_no_player_can_have(client, query):
    page = client.post("/groups/new", data={"name": "Bounds"}).get_data(as_text=True)
    group_id = page.split("/groups/")[1].split('"')[0]
    answer = client.get(f"/groups/{group_id}/head-to-head?{query}")
    assert answer.status_code == 422
    assert "There is no such player in this group." in answer.get_data(as_text=True)
