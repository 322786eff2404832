"""Benchmark: POST /api/v1/score requests per second against a bare Flask endpoint.

Run on demand:  python benchmarks/bench_score_api.py [--seconds 5] [--smoke]
Both run in this process through the WSGI test client, with the same request body, so the
ratio shows what validation, scoring and JSON cost on top of Flask itself.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

from flask import Flask, request

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion import create_app, db  # noqa: E402
from companion.config import TestConfig  # noqa: E402
from tests.factories import ra_document  # noqa: E402


def bare_app() -> Flask:
    app = Flask("bare")

    @app.post("/echo")
    def echo():
        document = request.get_json()
        return {"players": len(document["players"])}

    return app


def rate(client, url: str, body: bytes, seconds: float) -> tuple[float, int]:
    count, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        response = client.post(url, data=body, content_type="application/json")
        assert response.status_code == 200, response.get_data(as_text=True)
        count += 1
    return count / elapsed, count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--smoke", action="store_true",
                        help="a fraction of a second: proves the benchmark still runs")
    args = parser.parse_args()
    warm_up = 0.5
    if args.smoke:
        args.seconds = warm_up = 0.1
    body = json.dumps(ra_document(players=5)).encode()
    with tempfile.TemporaryDirectory() as tmp:
        config = TestConfig(Path(tmp))
        db.upgrade(config.DATABASE_URL)
        scribe = create_app(config).test_client()
        bare = bare_app().test_client()
        rate(scribe, "/api/v1/score", body, warm_up)      # warm up both
        rate(bare, "/echo", body, warm_up)
        bare_rps, bare_n = rate(bare, "/echo", body, args.seconds)
        scribe_rps, scribe_n = rate(scribe, "/api/v1/score", body, args.seconds)
    print(f"body: 5-player, 3-epoch Ra document, {len(body)} bytes")
    print(f"bare Flask POST (parse JSON, answer): {bare_rps:8.0f} req/s  ({bare_n} requests)")
    print(f"POST /api/v1/score (validate, score): {scribe_rps:8.0f} req/s  ({scribe_n} requests)")
    print(f"ratio score/bare: {scribe_rps / bare_rps:.2f}")


if __name__ == "__main__":
    main()
