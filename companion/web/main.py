"""Home, this phone's tables, a saved table, and the language switcher.

Private by default (issue 10): no page lists tables a phone does not hold. ``/`` and
``/games`` show "My tables" — the tables this phone opened, sits at or saved, read from its
token cookie (:mod:`.wallet`) — and links to its groups; a stranger sees none. A table's page
is reached by its unguessable id.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for

from .. import db
from ..guard import text_problem
from ..i18n import LANGUAGE_COOKIE
from ..models import TableMode
from ..rules import Capability, all_rulesets
from ..rules.base import Labels
from ..services.groups import ruleset_or_none
from ..services.scoring import (ScoreProblem, held_tables, keeper_table, load_table,
                                sheet_rows)
from . import wallet
from .move_docs import move_docs
from .table_page import render_table

bp = Blueprint("main", __name__)


def my_tables() -> list:
    """This phone's tables, most recent first; tokens that open nothing any more (a table
    gone, a seat given to another phone) are forgotten."""
    summaries, stale = held_tables(db.session(), wallet.held_tables())
    for table_id in stale:
        wallet.forget_table(table_id)
    return summaries


@bp.get("/")
def index():
    """Start page: open or join a table, score a game, and this phone's latest tables."""
    return render_template("index.html", rulesets=all_rulesets(Capability.SCORE),
                           recent=my_tables()[:5])


@bp.get("/games")
def recent_games():
    """My tables: every table this phone opened, sits at or saved, newest first."""
    return render_template("recent.html", summaries=my_tables())


@bp.get("/tables/<table_id>")
def table(table_id: str):
    """A saved table with its Scoresheet."""
    summary = load_table(db.session(), table_id)
    if summary is None:
        abort(404)
    if summary.table.mode == TableMode.LIVE.value:
        return render_table(summary.table)
    ruleset = ruleset_or_none(summary.table.game)     # an imported play may have none
    labels = ruleset.labels if ruleset else Labels()
    sheet = {"players": summary.players, "winners": summary.winners,
             "complete": summary.table.status == "finished"}
    # the variant it was saved with, also for a document saved before the form asked it
    variant = (ruleset.form_document(summary.table.final_document or {}).get("variant")
               if ruleset else None)
    return render_template("table.html", summary=summary, ruleset=ruleset, sheet=sheet,
                           labels=labels, rows=sheet_rows(labels, summary.players),
                           kept=_kept_here(summary.table), variant=variant)


def _kept_here(table) -> bool:
    """Whether this phone saved ``table`` and may still correct or delete it."""
    try:
        keeper_table(db.session(), table.id, wallet.table_token(wallet.KEEPER, table.id))
    except ScoreProblem:
        return False
    return True


@bp.get("/api/openapi.json")
def openapi_json():
    """The OpenAPI 3.1 document of the JSON API (built from the schemas that validate)."""
    from ..api.openapi import openapi_document
    return openapi_document()


@bp.get("/api")
def api_docs():
    """The API documentation page; every game's moves are described from their declaration."""
    rulesets = all_rulesets()
    return render_template("api_docs.html", rulesets=rulesets,
                           moves_of={ruleset.id: move_docs(ruleset) for ruleset in rulesets})


def _safe_next(target: str | None) -> str:
    """Only a path on this site (no scheme, no host) may be the place to go back to."""
    if not target:
        return url_for("main.index")
    parts = urlsplit(target)
    if (parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//")
            or text_problem(target) is not None or any(ch in target for ch in "\r\n\t\\")):
        return url_for("main.index")      # a place on this site, and nothing a header breaks
    return target


@bp.post("/language")
def set_language():
    """Remember the chosen language and go back to the page the person was on."""
    language = request.form.get("language", "")
    response = redirect(_safe_next(request.form.get("next")), code=303)
    if language in current_app.config["LANGUAGES"]:
        response.set_cookie(LANGUAGE_COOKIE, language, max_age=365 * 24 * 3600,
                            samesite="Lax", httponly=True)
    return response
