"""The JSON API under /api/v1 (design.md §1): plain dicts in and out.

Errors are always ``{"error": code, "message": ..., "field": ...}`` with a 4xx status.
"""

from __future__ import annotations

from flask import Blueprint, jsonify, request
from flask_babel import gettext as _

from .. import db, guard
from ..i18n import invalid_body
from ..rules import all_rulesets
from ..rules.base import InvalidDocument
from ..services.scoring import ruleset_for, save_scored_table, score_to_keep
from ..services.tokens import new_token
from . import contract

bp = Blueprint("api", __name__, url_prefix="/api/v1")
bp.before_request(guard.parse_json_body)     # a refused JSON body never reaches a view
bp.before_request(contract.check_integers)   # nor a declared integer out of its bounds


def error(code: str, message: str, status: int, field: str | None = None):
    return jsonify({"error": code, "message": message, "field": field}), status


@bp.get("/games")
def games():
    """The games Scribe knows: names, player counts (score-only and live), capabilities."""
    return {"games": [{"id": r.id, "names": dict(r.catalogue.names),
                       "player_counts": list(r.catalogue.player_counts),
                       "live_player_counts": list(r.catalogue.live_player_counts),
                       "capabilities": sorted(r.catalogue.capabilities)}
                      for r in all_rulesets()]}


@bp.post("/score")
def score():
    """Score a final-state document; with ``?save=1`` also keep it as a finished table
    (answered with its id and its ``table_token``, which adds it to a group)."""
    document = request.get_json(silent=True)
    if document is None:
        return error("bad_json", _("The request body must be a JSON document."), 400)
    try:
        sheet = score_to_keep(ruleset_for(document), document)
    except InvalidDocument as invalid:
        return jsonify(invalid_body(invalid)), 422
    answer = sheet.as_dict()
    if request.args.get("save") in ("1", "true", "yes"):
        keeper = new_token()      # shown once: it adds the game to a group (issue 10)
        table = save_scored_table(db.session(), document, sheet, keeper_token=keeper)
        answer["table"] = table.id
        answer["table_token"] = keeper
    return answer


from . import live_tables  # noqa: E402,F401  (registers the live-table endpoints on bp)
from . import groups  # noqa: E402,F401  (registers the group endpoints on bp)
