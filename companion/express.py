"""The express lane: the two requests a table night repeats most, answered without Flask when
they succeed (issue 9).

A phone's move (``POST /api/v1/tables/<id>/moves``) and a score (``POST /api/v1/score``) are
the requests a server answers by the hundred. On the server that ``python -m companion
serve`` runs (:mod:`companion.asgi`), the accepted ones skip the WSGI translation and Flask's
request machinery, which cost a move more than the rules, the database and the answer
together. Everything else about them is the Flask app's:

* **Who takes the lane.** A POST to an endpoint that registered a lane handler
  (``@lane("api.submit_move")``; the endpoint is found in the app's own URL map) and has no
  rate limit, with no
  query string, a JSON body (``application/json`` or ``…+json``) that
  :func:`companion.guard.safe_loads` accepts, path values that are storable text, and a
  body the server's reader did not refuse. Anything else goes to Flask as before.
* **What a handler does.** It runs on the same thread pool as the Flask requests, in an app
  context (``db.session()``, ``current_app`` and the announcers work as in a view), with the
  bearer token, the parsed document and the path values, and calls the same service
  function as its view. It returns the JSON answer, sent with status 200 and the headers the
  Flask app gives a JSON answer (:func:`json_headers`), or None.
* **Everything else is Flask's.** None, or any exception, leaves the request to the Flask
  app untouched (its body is replayed), which answers it as it always has: a refusal with
  the rule it breaks in the reader's language, a stale version with the fresh table, an
  error through the error handlers. So a handler must leave no lasting effect unless it
  answers: a move commits only when accepted, and a retry of an accepted move is answered
  from the log by its idempotency key.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import Executor
from typing import Any, Awaitable, Callable

from flask import Flask

from .guard import SECURITY_HEADERS, safe_loads, text_problem

logger = logging.getLogger(__name__)

Handler = Callable[..., "dict[str, Any] | None"]
LANES: dict[str, Handler] = {}      # endpoint -> handler(token, document, **path values)


def lane(endpoint: str) -> Callable[[Handler], Handler]:
    """Register ``handler`` as the express lane of the Flask view ``endpoint``."""
    def register(handler: Handler) -> Handler:
        LANES[endpoint] = handler
        return handler
    return register


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer …`` header, else None."""
    header = authorization or ""
    return header[7:].strip() if header.lower().startswith("bearer ") else None


def header(scope: dict[str, Any], name: bytes) -> str | None:
    """The first value of the header ``name`` (lower case) of an ASGI request."""
    for key, value in scope.get("headers", ()):
        if key == name:
            return value.decode("latin-1")
    return None


def is_json_type(content_type: str | None) -> bool:
    """Whether a Content-Type names JSON, as Werkzeug's ``Request.is_json`` decides."""
    mimetype = (content_type or "").split(";", 1)[0].strip().lower()
    return mimetype == "application/json" or (mimetype.startswith("application/")
                                              and mimetype.endswith("+json"))


def json_headers() -> list[tuple[bytes, bytes]]:
    """The headers of the Flask app's JSON answers, but their length: its type, Flask-
    Compress's ``Vary`` (JSON is never compressed, the header is sent all the same), and the
    security headers (guard.py). tests/test_express.py compares them with Flask's."""
    return [(b"content-type", b"application/json"), (b"vary", b"Accept-Encoding"),
            *((name.lower().encode("latin-1"), value.encode("latin-1"))
              for name, value in SECURITY_HEADERS.items())]


Send = Callable[[dict[str, Any]], Awaitable[None]]


class ExpressLane:
    """Answers the lane's requests of one server process (created by ScribeASGI)."""

    def __init__(self, app: Flask, executor: Executor, lanes: dict[str, Handler] | None = None):
        self.app = app
        self.executor = executor
        # A rate-limited view is counted by Flask-Limiter: it never takes the lane.
        limited = app.extensions.get("scribe.limited_endpoints", frozenset())
        self.lanes = {endpoint: handler for endpoint, handler
                      in (LANES if lanes is None else lanes).items() if endpoint not in limited}
        self.headers = json_headers()

    def handler_for(self, scope: dict[str, Any], endpoint: str | None,
                    values: dict[str, Any]) -> Handler | None:
        """The handler that may answer this request (checked on the loop, before its
        thread), or None: the request is Flask's."""
        handler = self.lanes.get(endpoint or "")
        if handler is None or scope.get("method") != "POST" or scope.get("query_string"):
            return None
        if not is_json_type(header(scope, b"content-type")):
            return None
        if any(isinstance(v, str) and text_problem(v) is not None for v in values.values()):
            return None
        return handler

    async def answer(self, scope: dict[str, Any], body: bytes, handler: Handler,
                     values: dict[str, Any], send: Send) -> bool:
        """Answer the request if its handler does (True); False leaves it to Flask."""
        token = bearer_token(header(scope, b"authorization"))
        data = await asyncio.get_running_loop().run_in_executor(
            self.executor, self._run, handler, token, body, values)
        if data is None:
            return False
        await send({"type": "http.response.start", "status": 200,
                    "headers": [*self.headers, (b"content-length", str(len(data)).encode())]})
        await send({"type": "http.response.body", "body": data, "more_body": False})
        return True

    def _run(self, handler: Handler, token: str | None, body: bytes,
             values: dict[str, Any]) -> bytes | None:
        """On a pool thread: the handler's answer, encoded, or None."""
        with self.app.app_context():
            try:
                document = safe_loads(body) if body else None
                if document is None:
                    return None
                answer = handler(token, document, **values)
            except Exception:       # noqa: BLE001 - Flask answers it, in its own words
                logger.debug("the express lane leaves a request to Flask", exc_info=True)
                return None
            if answer is None:
                return None
            return self.app.json.encode(answer)     # type: ignore[attr-defined]
