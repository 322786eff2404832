"""Home, recent games, a saved table, and the language switcher."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for

from .. import db
from ..guard import text_problem
from ..i18n import LANGUAGE_COOKIE
from ..rules import Capability, all_rulesets
from ..rules.base import Labels
from ..services.groups import ruleset_or_none
from ..services.scoring import load_table, recent_tables, sheet_rows
from . import live

bp = Blueprint("main", __name__)


@bp.get("/")
def index():
    """Start page: score a game, or look at recent ones."""
    return render_template("index.html", rulesets=all_rulesets(Capability.SCORE),
                           recent=recent_tables(db.session(), limit=5))


@bp.get("/games")
def recent_games():
    """Recent games, newest first."""
    return render_template("recent.html", summaries=recent_tables(db.session(), limit=100))


@bp.get("/tables/<table_id>")
def table(table_id: str):
    """A saved table with its Scoresheet."""
    summary = load_table(db.session(), table_id)
    if summary is None:
        abort(404)
    if live.is_live(summary.table):
        return live.render_table(summary.table)
    ruleset = ruleset_or_none(summary.table.game)     # an imported play may have none
    labels = ruleset.labels if ruleset else Labels()
    sheet = {"players": summary.players, "winners": summary.winners,
             "complete": summary.table.status == "finished"}
    return render_template("table.html", summary=summary, ruleset=ruleset, sheet=sheet,
                           labels=labels, rows=sheet_rows(labels, summary.players))


@bp.get("/api")
def api_docs():
    """The API documentation page."""
    return render_template("api_docs.html", rulesets=all_rulesets())


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
