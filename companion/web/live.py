"""Live tables for people: open a table, join by QR or code, play from the phone, undo, host.

Tokens live in HttpOnly cookies scoped to the table (``seat_<id>``, ``host_<id>``), so a phone
that reloads, loses its connection or restarts the browser is still at its seat.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from flask import (Blueprint, Response, abort, flash, redirect, render_template,
                   request, url_for)
from flask_babel import gettext as _
from werkzeug.datastructures import MultiDict

from .. import db
from ..i18n import render_violation
from ..links import public_url
from ..models import GameTable, TableMode
from ..qr import qr_svg
from ..rules import all_rulesets, get_ruleset
from ..rules.base import Ruleset
from ..services import broker, tables as live
from ..services.scoring import sheet_rows
from ..services.tables import StaleVersion, TableProblem

bp = Blueprint("live", __name__)

TOKEN_AGE = 7 * 24 * 3600
DEFAULT_PLAYERS = 4


def _cookie(kind: str, table_id: str) -> str:
    return f"{kind}_{table_id}"


def _set_token(response: Response, kind: str, table: GameTable, token: str) -> None:
    response.set_cookie(_cookie(kind, table.id), token, max_age=TOKEN_AGE, httponly=True,
                        samesite="Lax", secure=request.is_secure)


def _live_rulesets() -> list[Ruleset]:
    return [r for r in all_rulesets() if hasattr(r, "setup")]


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


def _setup_from_form(ruleset: Ruleset, form: MultiDict, players: int) -> dict[str, Any]:
    """What the table tells the game at the start, as chosen in the form: which sun group each
    seat received (Ra), each seat's colour and the start player (Imhotep). Anything not
    chosen keeps the game's default."""
    setup = ruleset.default_setup(players)
    if "sun_groups" in setup:
        groups = setup["sun_groups"]
        picked = [form.get(f"group.{seat}", type=int) for seat in range(players)]
        if all(p is not None and 0 <= p < len(groups) for p in picked):
            setup["sun_groups"] = [list(groups[p]) for p in picked]
    if "colors" in setup:
        chosen = [form.get(f"color.{seat}", "") for seat in range(players)]
        if all(chosen):
            setup["colors"] = chosen
    if "start_player" in setup:
        start = form.get("start_player", type=int)
        if start is not None and 0 <= start < players:
            setup["start_player"] = start
    return setup


def _checked(form: MultiDict, name: str, default: bool) -> bool:
    """A checkbox sent after its hidden "0" twin: the last value wins."""
    values = form.getlist(name)
    return values[-1] == "1" if values else default


@bp.route("/tables/new/<game>", methods=["GET", "POST"])
def new_table(game: str):
    """The host opens a table: players in seat order, the sun groups dealt, the options."""
    try:
        ruleset = get_ruleset(game)
    except KeyError:
        abort(404)
    if not hasattr(ruleset, "setup"):
        abort(404)
    form = request.form if request.method == "POST" else MultiDict()
    players = request.values.get("_players", type=int) or DEFAULT_PLAYERS
    action = form.get("action", "")
    if action == "add_player":
        players += 1
    elif action == "remove_player":
        players -= 1
    players = min(max(players, min(ruleset.live_player_counts)),
                  max(ruleset.live_player_counts))
    errors: dict[str, str] = {}
    if request.method == "POST" and action == "open":
        names = [form.get(f"players.{i}", "") for i in range(players)]
        options = {spec.key: _checked(form, f"options.{spec.key}", spec.default)
                   for spec in ruleset.live_options}
        if form.get("b_values", "").strip():
            try:
                options["b_values"] = json.loads(form["b_values"])
            except ValueError:
                errors["b_values"] = _("This is not valid JSON.")
        try:
            if errors:
                raise TableProblem(422, "table.bad_b_values", "", "b_values")
            opened = live.open_table(db.session(), ruleset.id, options, names,
                                     _setup_from_form(ruleset, form, players),
                                     location=" ".join(form.get("location", "").split())[:120])
        except TableProblem as problem:
            field = "b_values" if (problem.field or "").startswith("options.b_values") \
                else problem.field or ""
            errors.setdefault(field, render_violation(problem))
        else:
            response = redirect(url_for("live.host", table_id=opened.table.id), code=303)
            _set_token(response, "host", opened.table, opened.host_token)
            return response
    checked = {spec.key: _checked(form, f"options.{spec.key}", spec.default)
               for spec in ruleset.live_options}
    return render_template("live/new.html", ruleset=ruleset, players=players, form=form,
                           errors=errors, setup=ruleset.default_setup(players),
                           colours=getattr(ruleset, "colours", ()),
                           checked=checked), \
        (422 if errors else 200)


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
    return render_template(
        f"live/{table.game}.html", table=table, ruleset=ruleset, view=shown,
        state=shown["state"], prompts=shown["prompts"], my_seat=seat, host=host,
        seats=live.seats(session, table), error=error, last_move=last, moves=len(active),
        can_undo=last is not None and (host or (seat is not None and last.seat == seat))
        and table.status in ("playing", "finished"),
        idempotency_key=uuid.uuid4().hex, sheet=sheet,
        rows=sheet_rows(ruleset, sheet["players"]) if sheet else None), status


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
    join_url = public_url("live.join_by_code", code=table.code) if table.code else None
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
    svg = qr_svg(public_url("live.join_by_code", code=table.code))
    return Response(svg, mimetype="image/svg+xml",
                    headers={"Cache-Control": "private, max-age=3600"})


def is_live(table: GameTable) -> bool:
    return table.mode == TableMode.LIVE.value
