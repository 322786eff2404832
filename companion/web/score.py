"""Score-only mode: the form generated from a game's final-state schema."""

from __future__ import annotations

from flask import (Blueprint, abort, flash, redirect, render_template, request, url_for)
from flask_babel import gettext as _

from .. import db
from ..i18n import render_violation
from ..rules import Capability, all_rulesets, get_ruleset, offers
from ..rules.base import InvalidDocument, N_, RuleViolation, Ruleset
from ..services.scoring import save_scored_table, sheet_rows
from .schema_form import build_form, errors_by_field, parse_form, typed_values

bp = Blueprint("score", __name__, url_prefix="/score")

RESIZE_ACTIONS = {"add_player": (1, 0), "remove_player": (-1, 0), "add_stage": (0, 1),
                  "remove_stage": (0, -1)}
LOCATION_MAX, NOTES_MAX = 120, 2000


def _ruleset(game: str) -> Ruleset:
    try:
        ruleset = get_ruleset(game)
    except KeyError:
        abort(404)
    if not offers(ruleset, Capability.SCORE):
        abort(404)
    return ruleset


def _clamp(value: int | None, allowed: range | tuple[int, ...], default: int) -> int:
    if value is None:
        return default
    return min(max(value, min(allowed)), max(allowed))


@bp.get("/")
def choose_game():
    """List the games that can be scored."""
    return render_template("score/choose.html", rulesets=all_rulesets(Capability.SCORE))


@bp.route("/<game>", methods=["GET", "POST"])
def score_form(game: str):
    """Enter a finished game's tally, see the Scoresheet, and save it."""
    ruleset = _ruleset(game)
    source = request.form if request.method == "POST" else request.args
    counts = ruleset.catalogue.player_counts
    last_stage = ruleset.score_form.stages
    players = _clamp(source.get("_players", type=int), counts,
                     ruleset.catalogue.default_players)
    stages = _clamp(source.get("_stages", type=int), range(1, last_stage + 1), last_stage)
    values = typed_values(request.form) if request.method == "POST" else {}
    action = request.form.get("action", "score")
    if request.method == "GET" or action in RESIZE_ACTIONS:
        d_players, d_stages = RESIZE_ACTIONS.get(action, (0, 0))
        players = _clamp(players + d_players, counts, players)
        stages = _clamp(stages + d_stages, range(1, last_stage + 1), stages)
        return _render(ruleset, players, stages, values, {})

    sizes = ruleset.form_sizes(players, stages)
    document = parse_form(ruleset.final_schema, request.form, sizes)
    document["game"] = ruleset.id
    location = " ".join(request.form.get("_location", "").split())
    notes = request.form.get("_notes", "").strip()
    violations: list[RuleViolation] = []
    if len(location) > LOCATION_MAX:
        violations.append(RuleViolation("schema.too_long", N_("At most %(max)d characters."),
                                        "_location", max=LOCATION_MAX))
    if len(notes) > NOTES_MAX:
        violations.append(RuleViolation("schema.too_long", N_("At most %(max)d characters."),
                                        "_notes", max=NOTES_MAX))
    try:
        sheet = ruleset.score_final(document)
    except InvalidDocument as invalid:
        violations.extend(invalid.violations)
        sheet = None
    if violations:
        return _render(ruleset, players, stages, values,
                       errors_by_field(violations, render_violation)), 422
    if action == "save":
        table = save_scored_table(db.session(), document, sheet, location=location,
                                  notes=notes)
        flash(_("Game saved."))
        return redirect(url_for("main.table", table_id=table.id), code=303)
    return _render(ruleset, players, stages, values, {}, sheet=sheet.as_dict())


def _render(ruleset: Ruleset, players: int, stages: int, values, errors, sheet=None):
    sizes = ruleset.form_sizes(players, stages)
    form = build_form(ruleset.final_schema, sizes, values, errors)
    return render_template(
        "score/form.html", ruleset=ruleset, form=form, players=players, stages=stages,
        values=values, errors=errors, sheet=sheet,
        labels=ruleset.labels, rows=sheet_rows(ruleset.labels, sheet["players"]) if sheet else None,
        can_add_player=players < max(ruleset.catalogue.player_counts),
        can_remove_player=players > min(ruleset.catalogue.player_counts),
        can_add_stage=stages < ruleset.score_form.stages, can_remove_stage=stages > 1)
