"""A seeded fuzz of the whole JSON API, driven by its OpenAPI document (issue 10 §2).

For every operation of ``/api/openapi.json`` (so every ``/api/v1`` route and method), Hypothesis
(derandomized: the same requests on every run) builds hostile requests: path parameters, query
values, bearer tokens and bodies drawn from real ids and tokens of a table, a saved game and a
group, mixed with huge integers (2³¹, 2⁶³, 10³⁰), negative ones, NUL and other control
characters, lone surrogates, ``1e400``, NaN, deep nesting, wrong types, missing fields,
oversize strings and documents that are not JSON at all. Every answer must be:

* never a 5xx;
* a 4xx is JSON with a non-empty ``error`` and ``message`` and a ``field`` key;
* **the field rule**: a 422 names the field that caused it (``field`` is a non-empty string),
  unless the error is about the document as a whole: the body is not a JSON object, or the
  error is one of :data:`WHOLE_DOCUMENT` (not an object, too deep to be read, not a file).

Marked ``db``: .ci/run runs it again on PostgreSQL (NUL, 32-bit columns).
"""

from __future__ import annotations

import json
import os
import random
import time
from typing import Any
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, Phase, given, settings, strategies as st

from tests.api.livetable import LiveTable, bearer
from tests.factories import ra_document

pytestmark = pytest.mark.db

PER_OPERATION = int(os.environ.get("FUZZ_PER_OPERATION", 240))
BATCH = 24                  # requests per Hypothesis example (its seeded Random draws them)        # × 43 operations ≈ 13 000 requests
WHOLE_DOCUMENT = {"score.not_object", "json.too_deep", "bad_json", "import.bad_file",
                  "import.not_bgstats"}

HUGE_INTS = [2 ** 31 - 1, 2 ** 31, -2 ** 31 - 1, 2 ** 53, 2 ** 53 + 1, 2 ** 63, -2 ** 63,
             10 ** 30, -1, 0, 1]
HOSTILE_TEXT = ["\x00", "a\x00b", "\ud800", "x\udfffy", "\x01\x1f\x7f", "\u0085", "\n\r\t",
                "x" * 70_000, "", " ", "../../etc/passwd", "%00", "<script>", "'; DROP--"]
SPECIAL = ["__INF__", "__NAN__", "__DEEP__"]     # written into the raw JSON below


def _scalar(rnd: random.Random) -> Any:
    kind = rnd.randrange(8)
    if kind == 0:
        return rnd.choice(HUGE_INTS)
    if kind == 1:
        return rnd.randint(-2 ** 70, 2 ** 70) >> rnd.randrange(70)
    if kind == 2:
        return rnd.choice(HOSTILE_TEXT)
    if kind == 3:
        return "".join(chr(rnd.choice([rnd.randrange(32, 127), rnd.randrange(0x10000)]))
                       for _ in range(rnd.randrange(12)))
    if kind == 4:
        return rnd.choice(SPECIAL)
    if kind == 5:
        return rnd.choice([True, False, None])
    if kind == 6:
        return rnd.uniform(-1e6, 1e6)
    return rnd.choice([[], {}, [None], {"": 0}])


def _hostile(rnd: random.Random, depth: int = 0) -> Any:
    kind = rnd.randrange(6) if depth < 3 else 0
    if kind == 4:
        return [_hostile(rnd, depth + 1) for _ in range(rnd.randrange(4))]
    if kind == 5:
        return {str(_scalar(rnd))[:8]: _hostile(rnd, depth + 1) for _ in range(rnd.randrange(4))}
    return _scalar(rnd)


def _encode(value: Any) -> str:
    raw = json.dumps(value)                          # lone surrogates as \ud800 escapes
    return (raw.replace('"__INF__"', "1e400").replace('"__NAN__"', "NaN")
            .replace('"__DEEP__"', "[" * 40 + "]" * 40))


class World:
    """Real ids and tokens, so that requests get past the 404 and the 403."""

    def __init__(self, client):
        table = LiveTable(client)
        self.table = table
        saved = client.post("/api/v1/score?save=1", json=ra_document(3)).get_json()
        group = client.post("/api/v1/groups", json={"name": "Fuzz"}).get_json()
        self.group_id = group["id"]
        auth = bearer(group["admin_token"])
        client.post(f"/api/v1/groups/{self.group_id}/plays", headers=auth,
                    json={"table": saved["table"], "table_token": saved["table_token"]})
        players = client.get(f"/api/v1/groups/{self.group_id}/players",
                             headers=auth).get_json()["players"]
        self.ints = [self.group_id, *(p["player_id"] for p in players), 0, 1, 2]
        self.texts = [table.id, saved["table"], "ra", "pharaon", "valley", "imhotep",
                      "pyramids", "nope"]
        self.tokens = [table.host, *table.tokens, group["admin_token"],
                       group["invite_token"], saved["table_token"], "x" * 5000, "forged",
                       None]


def _value_for(schema: dict[str, Any], components: dict[str, Any], world: World,
               rnd: random.Random) -> Any:
    """Something near what ``schema`` asks for (so other fields get checked too)."""
    if "$ref" in schema:
        return _value_for(components[schema["$ref"].rsplit("/", 1)[1]], components, world, rnd)
    for alternatives in ("oneOf", "anyOf"):          # the kinds of move, nullable fields
        if alternatives in schema:
            return _value_for(rnd.choice(schema[alternatives]), components, world, rnd)
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return rnd.choice(schema["enum"])
    kind = schema.get("type")
    if isinstance(kind, list):                         # ["integer", "null"]: optional
        kind = rnd.choice(kind)
    if kind == "null":
        return None
    if kind == "integer":
        return rnd.choice([rnd.randint(schema.get("minimum", 0),
                                       min(schema.get("maximum", 20), 20)),
                           rnd.choice(world.ints)])
    if kind == "string":
        return rnd.choice([rnd.choice(world.texts + world.tokens[:3]), "Ana", "Bea", "x"])
    if kind == "boolean":
        return rnd.random() < 0.5
    if kind == "array":
        least = schema.get("minItems", 0)        # a set-up's lists may need more than 6
        size = rnd.randint(least, max(least, min(schema.get("maxItems", 4), 6)))
        return [_value_for(schema.get("items", {}), components, world, rnd)
                for _ in range(size)]
    if kind == "object" and schema.get("properties"):
        result = {}
        for key, sub in schema["properties"].items():
            choice = rnd.randrange(4)
            if choice < 2:
                result[key] = _value_for(sub, components, world, rnd)
            elif choice == 2:
                result[key] = _hostile(rnd)
        if rnd.random() < 0.2:
            result[str(_scalar(rnd))[:6]] = _hostile(rnd)         # an unknown entry
        return result
    return _hostile(rnd)


def _path_value(kind: str, world: World, rnd: random.Random) -> Any:
    if kind == "integer":
        return rnd.choice([rnd.choice(world.ints), rnd.choice(world.ints),
                           rnd.choice(HUGE_INTS), rnd.randint(-2 ** 64, 2 ** 64)])
    return rnd.choice([rnd.choice(world.texts), rnd.choice(world.texts),
                       rnd.choice(HOSTILE_TEXT[:8]), str(_scalar(rnd))[:20]])


def _segment(value: Any) -> str:
    return quote(str(value).encode("utf-8", "surrogatepass"), safe="")


def _request(rnd: random.Random, path: str, method: str, operation: dict[str, Any],
             components: dict[str, Any], world: World):
    url = path
    query = []
    for parameter in operation.get("parameters", []):
        value = _path_value(parameter["schema"].get("type"), world, rnd)
        if parameter["in"] == "path":
            url = url.replace("{" + parameter["name"] + "}", _segment(value))
        elif rnd.random() < 0.5:
            query.append(f"{_segment(parameter['name'])}={_segment(value)}")
    if rnd.random() < 0.1:
        query.append(f"{_segment(rnd.choice(HOSTILE_TEXT[:5]))}=1")
    if query:
        url += "?" + "&".join(query)
    token = rnd.choice(world.tokens)
    body = None
    if "requestBody" in operation:
        schema = operation["requestBody"]["content"]["application/json"]["schema"]
        shape = rnd.randrange(10)
        if shape <= 5:
            body = _encode(_value_for(schema, components, world, rnd))
        elif shape == 6:
            body = _encode(_hostile(rnd))
        elif shape == 7:
            body = rnd.choice(["[" * 50_000 + "]" * 50_000, "{", "", "nul\x00",
                               '{"a": 1e400}', '{"a": -1e999}', "\"\\ud800\"",
                               '{"k": "' + "v" * 2_000_000 + '"}'])
        else:
            body = _encode(_value_for(schema, components, world, rnd))[:-1]   # cut short
    return method.upper(), url, token, body


def test_every_api_operation_survives_hostile_requests(app):
    for key in ("RATE_LIMIT_JOIN", "RATE_LIMIT_OPEN_TABLE", "RATE_LIMIT_OPEN_GROUP",
                "RATE_LIMIT_IMPORT"):
        app.config[key] = "1000000 per minute"      # the fuzz is about input, not limits
    client = app.test_client()
    world = World(client)
    document = client.get("/api/openapi.json").get_json()
    components = document["components"]["schemas"]
    sent = {"n": 0}
    failures: list[str] = []
    started = time.monotonic()

    def send(verb: str, url: str, token: str | None, body: str | None) -> None:
        kwargs: dict[str, Any] = {"headers": bearer(token)}
        if body is not None:
            kwargs.update(data=body.encode("utf-8", "surrogatepass"),
                          content_type="application/json")
        answer = client.open(url, method=verb, **kwargs)
        sent["n"] += 1
        what = f"{verb} {url[:120]} {(body or '')[:160]!r}"
        try:
            assert answer.status_code < 500, f"{answer.status_code} {what}"
            if answer.mimetype == "text/event-stream" or answer.status_code < 400:
                return
            error = answer.get_json(silent=True)
            assert isinstance(error, dict), f"not JSON: {what}"
            assert error.get("error") and error.get("message"), what
            assert "field" in error, what
            whole = error["error"] in WHOLE_DOCUMENT or not (body or "").lstrip() \
                .startswith("{")
            if answer.status_code == 422 and not whole:
                assert isinstance(error["field"], str) and error["field"], \
                    f"no field for {error['error']}: {what}"
        finally:
            answer.close()

    for path, methods in sorted(document["paths"].items()):
        for method, operation in sorted(methods.items()):

            @settings(max_examples=PER_OPERATION // BATCH, derandomize=True, database=None,
                      deadline=None, suppress_health_check=list(HealthCheck),
                      phases=[Phase.explicit, Phase.generate])    # no shrinking: fast
            @given(st.randoms(use_true_random=False))
            def fuzz(rnd):
                for _ in range(BATCH):
                    send(*_request(rnd, path, method, operation, components, world))

            try:
                fuzz()
            except AssertionError as failure:
                failures.append(str(failure).splitlines()[0][:400])

    elapsed = time.monotonic() - started
    print(f"{sent['n']} requests in {elapsed:.1f} s")
    assert not failures, "\n".join(failures)
    assert sent["n"] >= 10_000
