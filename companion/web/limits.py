"""Rate limits (issue 10): join-code guesses, opening tables and groups, imports, scores and
prints, counted with the ``limits`` library (fixed windows).

Counters are shared by every server process, so a limit holds whatever the number of workers:
in Redis when ``REDIS_URL`` is set (every process of every machine), else in a small SQLite
file of the instance folder (every process of this machine; :mod:`.limit_store`). If that
storage cannot be reached the counting falls back to the process's memory rather than failing
requests (and the storage is tried again after 1, 2, 4 … 32 s). The client is its remote
address.

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
* ``RATE_LIMIT_SCORE``: documents scored by ``POST /api/v1/score`` (anyone may call it).
* ``RATE_LIMIT_PRINT``: PDFs made (``/print/…``; anyone may ask for them).

The last two guard work anyone can ask for without an account; their defaults are far above
what a table does in an evening (a table scores a game once and prints a handful of pages).

Past a limit the answer is 429 with a message in the person's language: a page for pages,
``{"error": "rate_limited", "message", "field": null}`` for the API (see :mod:`.errors`).

Only the limited views meet the limiter (design.md §3): each checks its limit when it is
called, and the work on the answer (counting by outcome, the limit headers
``X-RateLimit-Limit``, ``-Remaining``, ``-Reset`` and ``Retry-After``) is done for its requests
only; every other request (a move, a page) pays nothing. A limit's text is parsed once (the
defaults when this module is imported, a configured one the first time it is met).
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from functools import wraps
from typing import Callable

from flask import Flask, Response, after_this_request, current_app, request
from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage, storage_from_string
from limits.strategies import FixedWindowRateLimiter
from werkzeug.exceptions import TooManyRequests
from werkzeug.http import parse_date

from . import limit_store

logger = logging.getLogger(__name__)

DEFAULT_LIMITS = {
    "RATE_LIMIT_JOIN": "10 per minute; 60 per hour",
    "RATE_LIMIT_OPEN_TABLE": "20 per minute; 200 per day",
    "RATE_LIMIT_OPEN_GROUP": "5 per minute; 50 per day",
    "RATE_LIMIT_IMPORT": "5 per minute; 30 per hour",
    "RATE_LIMIT_SCORE": "60 per minute; 600 per hour",
    "RATE_LIMIT_PRINT": "20 per minute; 200 per hour",
}
COUNTERS = "scribe.rate_limits"          # the app's Counters (app.extensions)
_RETRY_STORAGE_MAX = 5                   # a lost storage is tried again after 2**n s, n <= 5

_PARSED: dict[str, tuple[RateLimitItem, ...]] = {}


def parsed(text: str) -> tuple[RateLimitItem, ...]:
    """The limits ``text`` names ("10 per minute; 60 per hour"), the shortest window first;
    each text is parsed once."""
    items = _PARSED.get(text)
    if items is None:
        items = _PARSED[text] = tuple(sorted(parse_many(text))) if text else ()
    return items


for _text in DEFAULT_LIMITS.values():
    parsed(_text)


class Counters:
    """An app's counters: the shared storage (Redis, or the instance folder's SQLite file),
    and the process's memory while that storage cannot be reached."""

    def __init__(self, uri: str):
        self.storage = storage_from_string(uri)
        self.shared = FixedWindowRateLimiter(self.storage)
        self._memory: FixedWindowRateLimiter | None = None
        self._lock = threading.Lock()
        self.lost = False                 # the shared storage failed: counting in memory
        self._tries = 0
        self._tried_at = 0.0

    @property
    def memory(self) -> FixedWindowRateLimiter:
        with self._lock:
            if self._memory is None:
                self._memory = FixedWindowRateLimiter(MemoryStorage())
            return self._memory

    def counting(self) -> FixedWindowRateLimiter:
        """Where hits are counted now: the shared storage, unless it was lost and is not back
        yet (it is looked at again after 1, 2, 4 … 32 s)."""
        if not self.lost:
            return self.shared
        if self._tries > _RETRY_STORAGE_MAX:
            self._tries = 0
        if time.time() - self._tried_at > 2 ** self._tries:
            self._tried_at = time.time()
            self._tries += 1
            if self.storage.check():
                logger.info("Rate limit storage recovered")
                self.lost, self._tries = False, 0
                return self.shared
        return self.memory

    def lose(self) -> FixedWindowRateLimiter:
        """The shared storage failed: count in memory from now on."""
        logger.warning("Rate limit storage unreachable - falling back to in-memory storage")
        self.lost = True
        return self.memory


@dataclass(frozen=True, eq=False)
class Limit:
    """A limit per device, set by the app config ``setting``, counted in ``scope`` (a scope
    shared by the views that name it). ``deduct_when(response)``: only such answers count
    (the request is let through while the budget is not spent); ``exempt_when()``: this
    request is not counted at all."""

    setting: str
    scope: str
    deduct_when: Callable[[Response], bool] | None = None
    exempt_when: Callable[[], bool] | None = None

    def __call__(self, view: Callable) -> Callable:
        """The limit as a view decorator."""
        @wraps(view)
        def limited(*args, **kwargs):
            self.check()
            return view(*args, **kwargs)
        limited.rate_limited = True          # the OpenAPI document lists its 429
        return limited

    def check(self) -> None:
        """Count this request (or test the budget, for a limit that counts by outcome) and
        have the answer counted and told the limit; 429 past it."""
        if self.exempt_when is not None and self.exempt_when():
            return
        items = parsed(current_app.config[self.setting])
        if not items:
            return
        counters: Counters = current_app.extensions[COUNTERS]
        who = (request.remote_addr or "127.0.0.1", self.scope)
        try:
            breached = self._breached(counters.counting(), items, who)
        except Exception:                    # noqa: BLE001 - the storage is unreachable
            if counters.lost:
                raise
            breached = self._breached(counters.lose(), items, who)
        shown = items[0] if breached is None else breached
        after_this_request(lambda response: self._answered(response, counters, items, shown,
                                                           who))
        if breached is not None:
            logger.info("rate limit %s exceeded in %s", breached, self.scope)
            raise TooManyRequests(str(breached))

    def _breached(self, limiter: FixedWindowRateLimiter, items: tuple[RateLimitItem, ...],
                  who: tuple[str, str]) -> RateLimitItem | None:
        """The first limit this request is past, if any (a limit counted by outcome is only
        tested here)."""
        count = limiter.hit if self.deduct_when is None else limiter.test
        for item in items:
            if not count(item, *who):
                return item
        return None

    def _answered(self, response: Response, counters: Counters,
                  items: tuple[RateLimitItem, ...], shown: RateLimitItem,
                  who: tuple[str, str]) -> Response:
        """Count the answer when its outcome counts, and tell the limit ``shown`` (the one
        past, else the shortest window) in the answer's headers."""
        try:
            return self._told(response, counters.counting(), items, shown, who)
        except Exception:                    # noqa: BLE001 - the storage is unreachable
            if counters.lost:
                raise
            return self._told(response, counters.lose(), items, shown, who)

    def _told(self, response: Response, limiter: FixedWindowRateLimiter,
              items: tuple[RateLimitItem, ...], shown: RateLimitItem,
              who: tuple[str, str]) -> Response:
        if self.deduct_when is not None and self.deduct_when(response):
            for item in items:
                limiter.hit(item, *who)
        window = getattr(limiter.storage, "window", None)     # the SQLite file's: one read
        if window is not None:
            hits, reset = window(shown.key_for(*who))
            remaining = max(0, shown.amount - hits)
        else:
            reset, remaining = limiter.get_window_stats(shown, *who)
        reset_at = int(reset + 1)
        headers = response.headers
        headers.add("X-RateLimit-Limit", str(shown.amount))
        headers.add("X-RateLimit-Remaining", str(remaining))
        headers.add("X-RateLimit-Reset", str(reset_at))
        earlier = headers.get("Retry-After")        # e.g. a 503's
        if earlier is not None:
            retry = parse_date(earlier)
            later = (time.mktime(retry.timetuple()) if retry is not None
                     else time.time() + int(earlier))
            reset_at = max(int(later), reset_at)
        headers["Retry-After"] = str(int(reset_at - time.time()))
        return response


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


join_guesses = Limit("RATE_LIMIT_JOIN", "join_code", deduct_when=_missed,
                     exempt_when=_join_form)
tables_opened = Limit("RATE_LIMIT_OPEN_TABLE", "open_table", deduct_when=_table_opened)
groups_opened = Limit("RATE_LIMIT_OPEN_GROUP", "open_group", deduct_when=_group_opened)
imports = Limit("RATE_LIMIT_IMPORT", "import", exempt_when=_not_an_import)
scores = Limit("RATE_LIMIT_SCORE", "score")
prints = Limit("RATE_LIMIT_PRINT", "print")

# Endpoints limited from here, by endpoint name, so that their modules stay as they are.
API_LIMITS = {"api.open_table": tables_opened, "api.open_group": groups_opened,
              "api.import_bgstats": imports, "api.score": scores,
              **{f"printing.{name}": prints for name in (
                  "blank_pad", "aids", "extra", "table_pad", "player_cards", "report")}}


def init_app(app: Flask) -> None:
    """The app's counters (Redis with ``REDIS_URL``, else the instance folder's file), and
    the limits of the views limited from here."""
    for key, value in DEFAULT_LIMITS.items():
        app.config.setdefault(key, value)
    app.config.setdefault("RATELIMIT_STORAGE_URI", app.config.get("REDIS_URL")
                          or limit_store.storage_uri(app.instance_path))
    app.extensions[COUNTERS] = Counters(app.config["RATELIMIT_STORAGE_URI"])
    for endpoint, limit in API_LIMITS.items():
        view = app.view_functions.get(endpoint)
        if view is not None:
            # the same as decorating the view where it is defined
            app.view_functions[endpoint] = limit(view)
