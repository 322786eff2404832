"""Score-only mode: the form generated from a game's final-state schema.

Issue 10:

* the form carries an idempotency key (``_save_key``): a double tap saves the game once, and
  the second answer leads to the same saved game;
* the phone that saves a game keeps its keeper token (:mod:`.wallet`); with it, from the same
  phone, the game can be corrected (the form re-opened with its values, re-scored, saved) or
  deleted, each with an audit line — as long as it is in no group (then the group's admin
  corrects it). The token is derived from the save key with the app's secret, so the answer to
  the second tap carries the same token as the first;
* after an error the page starts with a summary linking to every field in error, in words
  the person can act on (each game says its box limits in terms of what was typed).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import uuid
from base64 import urlsafe_b64encode
from typing import Any, Mapping

from flask import (Blueprint, abort, current_app, flash, redirect, render_template, request,
                   url_for)
from flask_babel import gettext as _

from .. import db
from ..i18n import render_violation
from ..rules import Capability, all_rulesets, get_ruleset, offers
from ..rules.base import InvalidDocument, N_, RuleViolation, Ruleset
from ..services.scoring import (ScoreProblem, correct_scored_table, delete_scored_table,
                                score_to_keep,
                                keeper_table, save_scored_once, sheet_rows)
from . import wallet
from .schema_form import (build_form, document_values, error_summary, errors_by_field,
                          parse_form, typed_values)

bp = Blueprint("score", __name__, url_prefix="/score")

RESIZE_ACTIONS = {"add_player": (1, 0), "remove_player": (-1, 0), "add_stage": (0, 1),
                  "remove_stage": (0, -1), "variant": (0, 0)}
LOCATION_MAX, NOTES_MAX = 120, 2000
SAVE_KEY = re.compile(r"[0-9a-f]{32}")       # what the form is given; anything else: a new one


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


def keeper_token_for(save_key: str) -> str:
    """The keeper token of the game saved with ``save_key``: the same for every tap of the
    same form, and nobody without the app's secret and the key can make it."""
    digest = hmac.new(current_app.config["SECRET_KEY"].encode(),
                      b"scribe-keeper\0" + save_key.encode(), hashlib.sha256).digest()
    return urlsafe_b64encode(digest).rstrip(b"=").decode()


def _save_key(source: Mapping[str, str]) -> str:
    key = source.get("_save_key", "")
    return key if SAVE_KEY.fullmatch(key) else uuid.uuid4().hex


def _kept_table(table_id: str):
    """The saved game this phone may change, or a page saying why not."""
    try:
        return keeper_table(db.session(), table_id,
                            wallet.table_token(wallet.KEEPER, table_id)), None
    except ScoreProblem as problem:
        return None, (render_template("error.html", code=problem.status,
                                      message=render_violation(problem)), problem.status)


@bp.get("/")
def choose_game():
    """List the games that can be scored."""
    return render_template("score/choose.html", rulesets=all_rulesets(Capability.SCORE))


def _variant(ruleset: Ruleset, chosen: Any, players: int | None = None) -> str | None:
    """The variant the form shows: one the game declares (by default the one for
    ``players``, else its first), or None for a game with one document."""
    declared = [value for value, _label in ruleset.score_form.variants]
    if not declared:
        return None
    if chosen in declared:
        return chosen
    return ruleset.score_form.variant_for_players.get(players or 0, declared[0])


def _document_sizes(ruleset: Ruleset, document: Mapping[str, Any]) -> tuple[int, int]:
    """How many players and stages a saved document has, for the form that corrects it."""
    players = document.get("players") or []
    key = ruleset.score_form.stage_key
    stages = ruleset.score_form.stages
    if key and players and isinstance(players[0], Mapping):
        stages = len(players[0].get(key) or []) or stages
    return len(players), stages


@bp.get("/tables/<table_id>/edit")
def edit(table_id: str):
    """Re-open the form of a saved game with its values, to correct it (the saving phone)."""
    table, refused = _kept_table(table_id)
    if refused:
        return refused
    ruleset = _ruleset(table.game)
    document = ruleset.form_document(table.final_document or {})
    players, stages = _document_sizes(ruleset, document)
    variant = _variant(ruleset, document.get("variant"), players)
    values = document_values(ruleset.form_schema(variant, players), document)
    values.update({"_location": table.location or "", "_notes": table.notes or ""})
    return _render(ruleset, players, stages, values, {}, editing=table, variant=variant)


@bp.route("/<game>", methods=["GET", "POST"])
def score_form(game: str):
    """Enter a finished game's tally, see the Scoresheet, and save it (or save a correction
    of a game this phone saved)."""
    ruleset = _ruleset(game)
    source = request.form if request.method == "POST" else request.args
    counts = ruleset.catalogue.player_counts
    last_stage = ruleset.score_form.stages
    players = _clamp(source.get("_players", type=int), counts,
                     ruleset.catalogue.default_players)
    stages = _clamp(source.get("_stages", type=int), range(1, last_stage + 1), last_stage)
    values = typed_values(request.form) if request.method == "POST" else {}
    variant = _variant(ruleset, source.get("variant"), players)
    action = request.form.get("action", "score")
    editing = None
    if request.form.get("_table"):
        editing, refused = _kept_table(request.form["_table"])
        if refused:
            return refused
        if editing.game != ruleset.id:
            abort(404)
    if request.method == "GET" or action in RESIZE_ACTIONS:
        d_players, d_stages = RESIZE_ACTIONS.get(action, (0, 0))
        was = _variant(ruleset, None, players)
        players = _clamp(players + d_players, counts, players)
        if variant == was:                  # left at its default: it follows the count
            variant = _variant(ruleset, None, players)
        stages = _clamp(stages + d_stages, range(1, last_stage + 1), stages)
        return _render(ruleset, players, stages, values, {}, editing=editing, variant=variant)

    sizes = ruleset.form_sizes(players, stages)
    document = parse_form(ruleset.form_schema(variant, players), request.form, sizes)
    document["game"] = ruleset.id
    if variant is not None:
        document["variant"] = variant
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
        sheet = score_to_keep(ruleset, document)
    except InvalidDocument as invalid:
        violations.extend(invalid.violations)
        sheet = None
    if violations:
        return _render(ruleset, players, stages, values,
                       errors_by_field(violations, render_violation), editing=editing,
                       variant=variant), 422
    if action == "save" and editing is not None:
        if correct_scored_table(db.session(), editing, document, sheet, location=location,
                                notes=notes):
            flash(_("Correction saved."))
        return redirect(url_for("main.table", table_id=editing.id), code=303)
    if action == "save":
        save_key = _save_key(request.form)
        keeper = keeper_token_for(save_key)
        table, replayed = save_scored_once(db.session(), document, sheet, location=location,
                                           notes=notes, keeper_token=keeper,
                                           save_key=save_key)
        wallet.remember_table(wallet.KEEPER, table.id, keeper)
        if not replayed:
            flash(_("Game saved."))
        return redirect(url_for("main.table", table_id=table.id), code=303)
    return _render(ruleset, players, stages, values, {}, sheet=sheet.as_dict(),
                   editing=editing, variant=variant)


@bp.post("/tables/<table_id>/delete")
def delete(table_id: str):
    """Delete a saved game (the saving phone), after asking."""
    table, refused = _kept_table(table_id)
    if refused:
        return refused
    if request.form.get("confirm") != "1":
        return render_template(
            "live/confirm.html", title=_("Delete this game?"),
            message=_("Its scores are removed from this phone and from Scribe."),
            action=url_for("score.delete", table_id=table.id), button=_("Delete the game"),
            fields={"confirm": "1"})
    delete_scored_table(db.session(), table)
    wallet.forget_table(table_id)
    flash(_("Game deleted."))
    return redirect(url_for("main.recent_games"), code=303)


def _render(ruleset: Ruleset, players: int, stages: int, values, errors, sheet=None,
            editing=None, variant=None):
    sizes = ruleset.form_sizes(players, stages)
    form = build_form(ruleset.form_schema(variant, players), sizes, values, errors)
    extra_labels = {"_location": _("Where was it played?"), "_notes": _("Notes")}
    return render_template(
        "score/form.html", ruleset=ruleset, form=form, players=players, stages=stages,
        values=values, errors=errors, sheet=sheet, editing=editing, variant=variant,
        names=[values.get(f"players.{i}.name", "").strip() for i in range(players)],
        summary=error_summary(form, errors, extra_labels) if errors else [],
        save_key=_save_key(values),
        labels=ruleset.labels, rows=sheet_rows(ruleset.labels, sheet["players"]) if sheet else None,
        can_add_player=players < max(ruleset.catalogue.player_counts),
        can_remove_player=players > min(ruleset.catalogue.player_counts),
        can_add_stage=stages < ruleset.score_form.stages, can_remove_stage=stages > 1)
