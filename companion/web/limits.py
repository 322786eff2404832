"""Rate limits (issue 10), with Flask-Limiter: join-code guesses, opening tables and groups,
imports.

Counters live in the process (``memory://``) by default, and in Redis when ``REDIS_URL`` is
set (then every worker shares them); if Redis cannot be reached the limiter falls back to the
process's memory rather than failing requests. The client is its remote address.

What is counted, per address (the limits are app config, so a deployment or a test sets its
own; the defaults are in ``DEFAULT_LIMITS``):

* ``RATE_LIMIT_JOIN``: *wrong* join codes, typed (``POST /join``) or followed (``GET
  /j/<code>``), in one shared budget. Right codes are not counted, so a club whose phones all
  join through one Wi-Fi address is not held back; once the budget is spent, every code is
  refused until the window passes.
* ``RATE_LIMIT_OPEN_TABLE``: tables opened (the page and ``POST /api/v1/tables``).
* ``RATE_LIMIT_OPEN_GROUP``: groups opened (the page and ``POST /api/v1/groups``).
* ``RATE_LIMIT_IMPORT``: imports (a BG Stats backup on the admin page or through the API, a
  copy's printed values), counted whether they succeed or not: each one is heavy.

Past a limit the answer is 429 with a message in the person's language: a page for pages,
``{"error": "rate_limited", "message", "field": null}`` for the API (see :mod:`.errors`).

Only the limited views meet the limiter (design.md §3): each checks its limit when it is
called, and the limiter's work on the answer (counting by outcome, the limit headers) is done
for its requests only; every other request (a move, a page, a score) skips the limiter
altogether (:mod:`companion.hooks`).
"""

from __future__ import annotations

from functools import wraps
from typing import Callable

from flask import Flask, Response, after_this_request, current_app, request
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address

from .. import hooks

DEFAULT_LIMITS = {
    "RATE_LIMIT_JOIN": "10 per minute; 60 per hour",
    "RATE_LIMIT_OPEN_TABLE": "20 per minute; 200 per day",
    "RATE_LIMIT_OPEN_GROUP": "5 per minute; 50 per day",
    "RATE_LIMIT_IMPORT": "5 per minute; 30 per hour",
}

limiter = Limiter(key_func=get_remote_address, in_memory_fallback_enabled=True)
LIMITER_HOOKS = "scribe.limiter_hooks"     # the limiter's request hooks, taken off the app


def _configured(key: str) -> Callable[[], str]:
    return lambda: current_app.config[key]


def _table_opened(response: Response) -> bool:
    """A table was opened: the page answers 303 (to the host's page), the API 201."""
    return request.method == "POST" and response.status_code in (201, 303)


def _group_opened(response: Response) -> bool:
    """A group was opened: the page answers a POST with 200 (the links, shown once), the
    API 201."""
    return request.method == "POST" and response.status_code in (200, 201)


def _not_an_import() -> bool:
    """Only imports count: the admin and copy pages' other actions do not."""
    if request.method != "POST":
        return True
    return (request.endpoint in ("groups.admin", "groups.copy")
            and request.form.get("action") != "import")


def _missed(response: Response) -> bool:
    """A join code that opens no table (the pages answer 404)."""
    return response.status_code == 404


def _join_form() -> bool:
    """Showing the empty join form is no guess."""
    return request.endpoint == "live.join" and request.method != "POST"


def _limited(limit: Callable) -> Callable:
    """``limit`` as a view decorator: the view checks it when called, and has the limiter's
    after-request work done for its request (the limiter has no hooks for every request)."""
    def decorate(view: Callable) -> Callable:
        checked = limit(view)

        @wraps(view)
        def limited(*args, **kwargs):
            after_this_request(_count_and_tell)
            return checked(*args, **kwargs)
        limited.rate_limited = True          # the OpenAPI document lists its 429
        return limited
    return decorate


def _count_and_tell(response: Response) -> Response:
    """The limiter's after-request hooks, for a limited view's answer: count it when its
    outcome counts (``deduct_when``) and send the limit headers (Retry-After with a 429)."""
    answered: hooks.Hooks = current_app.extensions[LIMITER_HOOKS]
    for hook in answered.after:
        response = hook(response)
    for hook in answered.teardown:
        hook(None)
    return response


join_guesses = _limited(limiter.shared_limit(_configured("RATE_LIMIT_JOIN"),
                                             scope="join_code", deduct_when=_missed,
                                             exempt_when=_join_form))
tables_opened = _limited(limiter.shared_limit(_configured("RATE_LIMIT_OPEN_TABLE"),
                                              scope="open_table", deduct_when=_table_opened))
groups_opened = _limited(limiter.shared_limit(_configured("RATE_LIMIT_OPEN_GROUP"),
                                              scope="open_group", deduct_when=_group_opened))
imports = _limited(limiter.shared_limit(_configured("RATE_LIMIT_IMPORT"), scope="import",
                                        exempt_when=_not_an_import))

# JSON endpoints limited from here, by endpoint name, so that the API modules stay as they are.
API_LIMITS = {"api.open_table": tables_opened, "api.open_group": groups_opened,
              "api.import_bgstats": imports}


def init_app(app: Flask) -> None:
    """Bind the limiter (after the blueprints are registered) with the configured storage."""
    for key, value in DEFAULT_LIMITS.items():
        app.config.setdefault(key, value)
    app.config.setdefault("RATELIMIT_STORAGE_URI", app.config.get("REDIS_URL") or "memory://")
    app.config.setdefault("RATELIMIT_HEADERS_ENABLED", True)     # Retry-After with the 429
    # The limits are checked by the limited views themselves (no default or application-wide
    # limit is set, so the limiter's check before every request finds nothing to do).
    app.extensions[LIMITER_HOOKS] = hooks.taken(app, limiter.init_app)
    for endpoint, limit in API_LIMITS.items():
        view = app.view_functions.get(endpoint)
        if view is not None:
            # the same as decorating the view where it is defined (the limit object is one,
            # so building many apps registers it once)
            app.view_functions[endpoint] = limit(view)
