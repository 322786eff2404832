"""The API against its own document, judged by tools the project did not write (issue 21 §6).

* ``openapi-spec-validator`` finds ``/api/openapi.json`` a valid OpenAPI 3.1 document.
* A bounded, seeded schemathesis run (every phase: examples, coverage, fuzzing and the
  stateful phase, which follows the document's links from an opened table to its seats and
  moves, and from an opened group to everything its admin may do) with every check: no 5xx,
  every status, media type, header and body as documented, schema-invalid requests refused,
  schema-valid ones accepted. The app is called in-process (WSGI), on this worker's database:
  SQLite by default, PostgreSQL under ``-m db`` in .ci/run.

One thing is told to schemathesis rather than written into the document: a request the schema
allows may still break a game's rules (a tally with more tiles than the box holds, a move out of
turn), which no JSON Schema can say, so 422 counts as an answer to a schema-valid request
(``positive_data_acceptance``).
"""

from __future__ import annotations

import time

import pytest

schemathesis = pytest.importorskip("schemathesis")
from openapi_spec_validator import validate  # noqa: E402
from schemathesis.config import SchemathesisConfig  # noqa: E402
from schemathesis.engine import events, from_schema  # noqa: E402

pytestmark = pytest.mark.db

SEED = 21
NO_LIMITS = "1000000 per minute"
# The bodies built from every game's declarations (a final-state document, a move, a table's
# opening) have
# thousands of boundary cases: the coverage phase would take minutes on them, and the fuzzing
# and stateful phases reach them anyway.
HUGE_BODIES = ["score_post", "submit_move_post", "open_table_post"]
CONFIG = {
    "seed": SEED,
    "workers": 1,
    "generation": {"max-examples": 2, "deterministic": True, "database": "none"},
    "checks": {"positive_data_acceptance": {
        "expected-statuses": ["2xx", "401", "403", "404", "409", "422", "429"]}},
    # schemathesis takes a token a link carries for one it made up (``ignored_auth`` would
    # then expect the request refused): the check runs in every other phase
    # The stateful phase follows the document's own links only (no inferred ones), so its few
    # scenarios go from an opened table to its seats and moves, and from a group onwards.
    # (schema-valid requests only: the coverage and fuzzing phases send the invalid ones).
    "phases": {"stateful": {"max-steps": 8, "generation": {"max-examples": 30,
                                                           "mode": "positive"},
                            "inference": {"algorithms": []},
                            "checks": {"ignored_auth": {"enabled": False}}}},
    "operations": [{"include-operation-id": HUGE_BODIES,
                    "phases": {"coverage": {"enabled": False}}},
                   # the stateful budget goes to the tables (open, claim, move); the group
                   # calls are each reached by the other phases
                   {"include-path-regex": "^/api/v1/groups",
                    "phases": {"stateful": {"enabled": False}}}],
}


def test_the_document_is_valid_openapi(client):
    document = client.get("/api/openapi.json").get_json()
    validate(document)
    ids = [operation["operationId"] for methods in document["paths"].values()
           for operation in methods.values()]
    assert len(ids) == len(set(ids))


def test_schemathesis_finds_the_api_as_documented(app):
    for key in ("RATE_LIMIT_JOIN", "RATE_LIMIT_OPEN_TABLE", "RATE_LIMIT_OPEN_GROUP",
                "RATE_LIMIT_IMPORT"):
        app.config[key] = NO_LIMITS         # the run is about the contract, not the limits
    app.config["SSE_MAX_SECONDS"] = 0.01    # the event stream ends at once in-process
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app,
                                            config=SchemathesisConfig.from_dict(CONFIG))
    started = time.monotonic()
    failures: list[str] = []
    answered: dict[str, dict[int, int]] = {}
    for event in from_schema(schema).execute():
        if isinstance(event, (events.NonFatalError, events.FatalError)):
            failures.append(f"error: {event.__class__.__name__}: "
                            f"{str(getattr(event, 'value', ''))[:300]}")
        if not isinstance(event, events.ScenarioFinished):
            continue
        recorder = event.recorder
        for case_id, interaction in recorder.interactions.items():
            if interaction.response is not None:
                case = recorder.cases[case_id].value
                counts = answered.setdefault(case.operation.label, {})
                status = interaction.response.status_code
                counts[status] = counts.get(status, 0) + 1
        for checks in recorder.checks.values():
            for check in checks:
                if check.failure_info is not None:
                    failure = check.failure_info.failure
                    failures.append(f"{check.name} on {recorder.label}: {failure.title}\n"
                                    f"{str(failure)[:400]}\n"
                                    f"{(check.failure_info.code_sample or '')[:400]}")
    elapsed = time.monotonic() - started
    print(f"schemathesis: {sum(sum(c.values()) for c in answered.values())} requests "
          f"in {elapsed:.1f} s")
    assert not failures, "\n\n".join(failures[:10])
    # the run got past the doors: tables and groups opened, seats claimed, and moves with a
    # seat's token and the table's version refereed (a move the rules refuse is a 422; with
    # no table or no token the answer would be 404 or 401)
    assert answered["POST /api/v1/tables"].get(201)
    assert answered["POST /api/v1/tables/{table_id}/seats/{position}/claim"].get(200)
    # moves were sent along the links (how many reach the referee, rather than a table the
    # run had already left, varies with the machine's speed: the stateful phase is not timed
    # alike from run to run, so this asks only that the link was followed)
    assert answered.get("POST /api/v1/tables/{table_id}/moves"), answered.keys()
    assert answered["POST /api/v1/groups"].get(201)
