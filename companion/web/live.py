"""Live tables for people: open a table, join by QR or code, play from the phone, undo, host.

Tokens live in HttpOnly cookies scoped to the table (``seat_<id>``, ``host_<id>``), so a phone
that reloads, loses its connection or restarts the browser is still at its seat.
"""

from __future__ import annotations

import json
import uuid
from typing import Any, Mapping

from flask import (Blueprint, Response, abort, current_app, flash, redirect, render_template,
                   request, url_for)
from flask_babel import gettext as _

from werkzeug.datastructures import MultiDict

from .. import db
from ..i18n import render_violation
from ..models import GameTable, TableMode
from ..qr import qr_svg
from ..rules import Capability, all_rulesets, get_ruleset, offers
from ..rules.base import ListField, N_, ObjectField, Ruleset
from ..services import broker, editions, tables as live
from ..services.scoring import sheet_rows
from ..services.tables import StaleVersion, TableProblem
from . import groups as groups_web
from .schema_form import build_form, document_values, parse_form, typed_values

bp = Blueprint("live", __name__)

TOKEN_AGE = 7 * 24 * 3600


def _cookie(kind: str, table_id: str) -> str:
    return f"{kind}_{table_id}"


def _set_token(response: Response, kind: str, table: GameTable, token: str) -> None:
    response.set_cookie(_cookie(kind, table.id), token, max_age=TOKEN_AGE, httponly=True,
                        samesite="Lax", secure=request.is_secure)


def _live_rulesets() -> list[Ruleset]:
    return all_rulesets(Capability.LIVE)


def _table_or_404(table_id: str) -> GameTable:
    try:
        return live.get_table(db.session(), table_id)
    except TableProblem:
        abort(404)


def _viewer(table: GameTable) -> tuple[int | None, bool]:
    session = db.session()
    seat = live.seat_for_token(session, table, request.cookies.get(_cookie("seat", table.id)))
    host = live.is_host(table, request.cookies.get(_cookie("host", table.id)))
    return (seat.position if seat else None), host


# --------------------------------------------------------------------------------------------
# Opening a table
# --------------------------------------------------------------------------------------------


@bp.get("/play")
def choose_game():
    """Pick the game to open a live table for."""
    return render_template("live/choose.html", rulesets=_live_rulesets())


def _list_sizes(schema: ObjectField, players: int, default: Mapping[str, Any],
                path: str = "") -> dict[str, int]:
    """How many inputs each list of a set-up or edition form shows: a fixed length, else as
    many as the default document has, else one per player."""
    sizes: dict[str, int] = {}
    for spec in schema.fields:
        here = f"{path}.{spec.key}" if path else spec.key
        value = default.get(spec.key) if isinstance(default, Mapping) else None
        if isinstance(spec, ListField):
            if spec.max_items is not None and spec.max_items == spec.min_items:
                sizes[here] = spec.max_items
            elif isinstance(value, list):
                sizes[here] = len(value)
            else:
                sizes[here] = players
            if isinstance(spec.item, ListField):
                inner = [len(v) for v in value or () if isinstance(v, list)]
                for index in range(sizes[here]):
                    sizes[f"{here}.{index}"] = inner[index] if index < len(inner) else (
                        max(inner) if inner else players)
        elif isinstance(spec, ObjectField):
            sizes.update(_list_sizes(spec, players, value or {}, here))
    return sizes


def _options_schema(ruleset: Ruleset) -> ObjectField:
    return ObjectField("options", N_("Options"), tuple(ruleset.options))


def _group_copies(game: str) -> list[tuple[Any, dict[str, Any]]]:
    """The groups this phone belongs to, each with its copy of ``game`` (entered values)."""
    session = db.session()
    return [(access.group, editions.group_copy(session, access.group.id, game))
            for access in groups_web.my_groups()]


@bp.route("/tables/new/<game>", methods=["GET", "POST"])
def new_table(game: str):
    """The host opens a table: players in seat order, the physical set-up, the options, and
    whose copy's printed values to use."""
    try:
        ruleset = get_ruleset(game)
    except KeyError:
        abort(404)
    if not offers(ruleset, Capability.LIVE):
        abort(404)
    counts = ruleset.catalogue.live_player_counts
    form = request.form if request.method == "POST" else MultiDict()
    players = request.values.get("_players", type=int) or ruleset.catalogue.default_players
    action = form.get("action", "")
    if action == "add_player":
        players += 1
    elif action == "remove_player":
        players -= 1
    players = min(max(players, min(counts)), max(counts))
    setup_schema = ruleset.setup_schema(players)
    default_setup = ruleset.default_setup(players)
    sizes = _list_sizes(setup_schema, players, default_setup)
    copies = _group_copies(ruleset.id)
    errors: dict[str, str] = {}
    if request.method == "POST" and action == "open":
        names = [form.get(f"players.{i}", "") for i in range(players)]
        options = {key: value for key, value in
                   parse_form(_options_schema(ruleset), form, {}, "options").items()
                   if value is not None}
        chosen = parse_form(setup_schema, form, sizes, "setup")
        setup = {**default_setup, **{k: v for k, v in chosen.items() if v is not None}}
        edition = _chosen_copy(form, copies)
        if form.get("edition", "").strip():
            try:
                entered = json.loads(form["edition"])
            except ValueError:
                errors["edition"] = _("This is not valid JSON.")
            else:
                edition = {**edition, **entered} if isinstance(entered, dict) else entered
        try:
            if errors:
                raise TableProblem(422, "table.bad_edition", "", "edition")
            opened = live.open_table(db.session(), ruleset.id, options, names, setup,
                                     location=" ".join(form.get("location", "").split())[:120],
                                     edition=edition)
        except TableProblem as problem:
            field = "edition" if (problem.field or "").startswith("edition") \
                else problem.field or ""
            errors.setdefault(field, render_violation(problem))
        else:
            response = redirect(url_for("live.host", table_id=opened.table.id), code=303)
            _set_token(response, "host", opened.table, opened.host_token)
            return response
    values = typed_values(form)
    if action != "open":        # a new player count deals a new set-up: start from its default
        values = {key: value for key, value in values.items() if not key.startswith("setup.")}
        values.update(document_values(setup_schema, default_setup, "setup"))
    errors_by_path = {path: [message] for path, message in errors.items()}
    setup_form = build_form(setup_schema, sizes, values, errors_by_path, prefix="setup")
    options_form = build_form(_options_schema(ruleset), {}, values, errors_by_path,
                              prefix="options")
    return render_template("live/new.html", ruleset=ruleset, players=players, form=form,
                           errors=errors, setup_form=setup_form, options_form=options_form,
                           copies=copies, chosen_copy=form.get("copy", _default_copy(copies)),
                           names=[form.get(f"players.{i}", "") for i in range(players)]), \
        (422 if errors else 200)


def _default_copy(copies: list[tuple[Any, dict[str, Any]]]) -> str:
    """The first group with values entered for this game, else the game's defaults."""
    for group, entered in copies:
        if entered:
            return str(group.id)
    return ""


def _chosen_copy(form: MultiDict, copies: list[tuple[Any, dict[str, Any]]]) -> dict[str, Any]:
    chosen = form.get("copy", "")
    for group, entered in copies:
        if str(group.id) == chosen:
            return dict(entered)
    return {}


# --------------------------------------------------------------------------------------------
# Joining
# --------------------------------------------------------------------------------------------


@bp.route("/join", methods=["GET", "POST"])
def join():
    """Type the short code shown on the table's screen."""
    error = None
    if request.method == "POST":
        table = live.find_by_code(db.session(), request.form.get("code", ""))
        if table is not None:
            return redirect(url_for("live.seats", table_id=table.id), code=303)
        error = _("No open table has this code. Check the letters and try again.")
    return render_template("live/join.html", error=error), 404 if error else 200


@bp.get("/j/<code>")
def join_by_code(code: str):
    """Where the QR code leads: the table's seats."""
    table = live.find_by_code(db.session(), code)
    if table is None:
        return render_template("live/join.html",
                               error=_("No open table has this code. Check the letters and "
                                       "try again.")), 404
    return redirect(url_for("live.seats", table_id=table.id))


@bp.get("/tables/<table_id>/join")
def seats(table_id: str):
    """Pick your seat (or watch)."""
    table = _table_or_404(table_id)
    seat, host = _viewer(table)
    return render_template("live/seats.html", table=table, seats=live.seats(db.session(), table),
                           my_seat=seat, host=host)


@bp.post("/tables/<table_id>/seats/<int:position>/claim")
def claim(table_id: str, position: int):
    """Take a seat on this phone; the host may give a taken seat to a new phone."""
    table = _table_or_404(table_id)
    try:
        token = live.claim_seat(db.session(), table, position,
                                host_token=request.cookies.get(_cookie("host", table.id)))
    except TableProblem as problem:
        flash(render_violation(problem))
        return redirect(url_for("live.seats", table_id=table.id), code=303)
    response = redirect(url_for("main.table", table_id=table.id), code=303)
    _set_token(response, "seat", table, token)
    return response


# --------------------------------------------------------------------------------------------
# Playing
# --------------------------------------------------------------------------------------------


def render_table(table: GameTable, error: str | None = None, status: int = 200):
    """The phone page of a live table, for its seat, the host or a spectator."""
    session = db.session()
    seat, host = _viewer(table)
    ruleset = get_ruleset(table.game)
    state = live.state_at(session, table)
    shown = live.view(session, table, seat, state=state)
    log = live.move_log(session, table)
    active = [m for m in log if m.undone_version is None]
    last = active[-1] if active else None
    sheet = shown["scores"]
    page = current_app.jinja_env.select_template([f"games/{table.game}/live.html",
                                                 "live/generic.html"])
    playing = seat is not None and table.status == "playing"
    return render_template(
        page, table=table, ruleset=ruleset, view=shown,
        legal_moves=ruleset.legal_moves(state, seat) if playing and page.name ==
        "live/generic.html" else (),
        state=shown["state"], prompts=shown["prompts"], my_seat=seat, host=host,
        seats=live.seats(session, table), error=error, last_move=last, moves=len(active),
        can_undo=last is not None and (host or (seat is not None and last.seat == seat))
        and table.status in ("playing", "finished"),
        idempotency_key=uuid.uuid4().hex, sheet=sheet,
        labels=ruleset.labels,
        rows=sheet_rows(ruleset.labels, sheet["players"]) if sheet else None), status


def _json_value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def _move_from_form(form: MultiDict) -> dict[str, Any]:
    """A move as the phone's buttons describe it: a hidden ``move`` holds the move's JSON;
    each ``m.<key>`` field (a list, or the button that was pressed) adds ``key`` with its JSON
    value, ``m.<key>[]`` fields add a list, and ``m.__place`` (a ship space as
    ``{"ship", "slot"}``) adds both. Anything else is left to the referee to refuse."""
    move = _json_value(form.get("move", ""))
    if not isinstance(move, dict):
        return {"type": None}
    for name in form:
        if name.startswith("m.") and name.endswith("[]"):
            move[name[2:-2]] = [_json_value(v) for v in form.getlist(name) if v != ""]
        elif name == "m.__place":
            place = _json_value(form[name])
            if isinstance(place, dict):
                move.update({k: place[k] for k in ("ship", "slot") if k in place})
        elif name.startswith("m."):
            move[name[2:]] = _json_value(form[name])
    return move


def _perform(table: GameTable, action) -> Any:
    """Run a move or an undo for the page: redirect back on success (the phones are told),
    or show the table again with the reason it was refused."""
    try:
        accepted = action()
    except StaleVersion:
        return render_table(table, _("Someone else moved first; here is the table now."), 409)
    except TableProblem as problem:
        return render_table(table, render_violation(problem), problem.status)
    if not accepted.replayed:
        broker.publish(table.id, accepted.version)
    return redirect(url_for("main.table", table_id=table.id), code=303)


@bp.post("/tables/<table_id>/moves")
def move(table_id: str):
    """A move made with the phone's buttons."""
    table = _table_or_404(table_id)
    seat, _host = _viewer(table)
    if seat is None:
        return render_table(table, _("Take a seat first: this phone is only watching."), 403)
    return _perform(table, lambda: live.submit_move(
        db.session(), table, seat, _move_from_form(request.form),
        request.form.get("version", type=int), request.form.get("idempotency_key")))


@bp.post("/tables/<table_id>/undo")
def undo(table_id: str):
    """Take back the last move (its player or the host)."""
    table = _table_or_404(table_id)
    seat, host = _viewer(table)
    return _perform(table, lambda: live.undo(db.session(), table,
                                             live.HOST if host else f"seat:{seat}"))


# --------------------------------------------------------------------------------------------
# The host
# --------------------------------------------------------------------------------------------


@bp.get("/tables/<table_id>/host")
def host(table_id: str):
    """The host's screen: the QR code and short code to join, the seats, closing."""
    table = _table_or_404(table_id)
    _seat, is_host = _viewer(table)
    if not is_host:
        abort(403)
    join_url = url_for("live.join_by_code", code=table.code, _external=True) if table.code \
        else None
    return render_template("live/host.html", table=table, join_url=join_url,
                           qr=qr_svg(join_url) if join_url else None,
                           seats=live.seats(db.session(), table))


@bp.post("/tables/<table_id>/close")
def close(table_id: str):
    """The host closes an unfinished table."""
    table = _table_or_404(table_id)
    if not _viewer(table)[1]:
        abort(403)
    try:
        broker.publish(table.id, live.close_table(db.session(), table))
    except StaleVersion:
        return render_table(table, _("Someone else moved first; here is the table now."), 409)
    return redirect(url_for("main.table", table_id=table.id), code=303)


@bp.get("/tables/<table_id>/qr.svg")
def qr(table_id: str):
    """The join QR code as an SVG image."""
    table = _table_or_404(table_id)
    if not table.code:
        abort(404)
    svg = qr_svg(url_for("live.join_by_code", code=table.code, _external=True))
    return Response(svg, mimetype="image/svg+xml",
                    headers={"Cache-Control": "private, max-age=3600"})


def is_live(table: GameTable) -> bool:
    return table.mode == TableMode.LIVE.value
