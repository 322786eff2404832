"""Request hooks where they matter (design.md §3: one path per request, and a lean one).

Flask extensions register their request hooks for every request of the app. Scribe moves those
that matter for a few areas only to where they matter, so that a move or a score pays for
none of them: CSRF and compression for the pages' blueprints (the JSON API has no cookies
and no answers worth compressing); the rate limits have no hooks at all, the limited views
check them (:mod:`companion.web.limits`). :func:`taken` runs an extension's ``init_app`` and hands back
the hooks it registered for every request; :func:`for_blueprints` registers them again for
some blueprints only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from flask import Flask


@dataclass
class Hooks:
    """Request hooks taken off an app: before each request, after it, at its teardown."""

    before: list[Callable[..., Any]] = field(default_factory=list)
    after: list[Callable[..., Any]] = field(default_factory=list)
    teardown: list[Callable[..., Any]] = field(default_factory=list)


def _lists(app: Flask) -> dict[str, dict[Any, list]]:
    return {"before": app.before_request_funcs, "after": app.after_request_funcs,
            "teardown": app.teardown_request_funcs}


def taken(app: Flask, install: Callable[[Flask], Any]) -> Hooks:
    """Run ``install(app)`` and take back the hooks it registered for every request."""
    counts = {kind: len(funcs.get(None, ())) for kind, funcs in _lists(app).items()}
    install(app)
    hooks = Hooks()
    for kind, funcs in _lists(app).items():
        registered = funcs.get(None, [])
        getattr(hooks, kind).extend(registered[counts[kind]:])   # Flask appends: the new ones
        del registered[counts[kind]:]
    return hooks


def for_blueprints(app: Flask, hooks: Hooks, blueprints: Iterable[str]) -> None:
    """Register ``hooks`` for the requests of ``blueprints`` (their names) only."""
    for name in blueprints:
        for kind, funcs in _lists(app).items():
            if getattr(hooks, kind):
                funcs.setdefault(name, []).extend(getattr(hooks, kind))
