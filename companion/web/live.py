"""Live tables for people: open a table, join by QR or code, play from the phone, undo, host.

Tokens are kept in the phone's bounded token cookie (:mod:`.wallet`), so a phone that reloads,
loses its connection or restarts the browser is still at its seat. The join code, the QR code
and the player cards are shown only to a phone with the host's token or a seat (issue 10):
the table's id, its join code and the tokens are the capabilities, and nothing lists them.
"""

from __future__ import annotations

import json
import uuid
from typing import Any, Mapping

from flask import (Blueprint, Response, abort, flash, redirect, render_template, request,
                   url_for)
from flask_babel import gettext as _

from werkzeug.datastructures import MultiDict

from .. import db
from ..guard import stored_int
from ..i18n import render_violation
from ..links import public_url
from ..models import GameTable, TableStatus
from ..qr import qr_svg
from ..rules import Capability, all_rulesets, get_ruleset, offers
from ..rules.base import ListField, N_, ObjectField, Ruleset
from ..services import editions, live_tables as live
from ..services.live_tables import StaleVersion, TableProblem
from . import limits, wallet
from .holdings import holds_table, my_groups, my_seat, viewer
from .refill import entered_again
from .schema_form import build_form, document_values, parse_form, typed_values
from .table_page import render_table

bp = Blueprint("live", __name__)


def _set_token(kind: str, table: GameTable, token: str) -> None:
    wallet.remember_table(kind, table.id, token)


def _live_rulesets() -> list[Ruleset]:
    return all_rulesets(Capability.LIVE)


def _table_or_404(table_id: str) -> GameTable:
    try:
        return live.get_table(db.session(), table_id)
    except TableProblem:
        abort(404)


def _confirm(title: str, message: str, action: str, button: str, **fields: Any):
    """A page that asks before doing something that cannot be taken back by this phone."""
    return render_template("live/confirm.html", title=title, message=message, action=action,
                           button=button, fields=fields)


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
            elif isinstance(spec.item, ObjectField):
                # lists inside each entry (a seat's cards): the form names them with "*"
                first = next((v for v in value or () if isinstance(v, Mapping)), {})
                sizes.update(_list_sizes(spec.item, players, first, f"{here}.*"))
        elif isinstance(spec, ObjectField):
            sizes.update(_list_sizes(spec, players, value or {}, here))
    return sizes


def _options_schema(ruleset: Ruleset) -> ObjectField:
    return ObjectField("options", N_("Options"), tuple(ruleset.options))


def _group_copies(game: str) -> list[tuple[Any, dict[str, Any]]]:
    """The groups this phone belongs to, each with its copy of ``game`` (entered values)."""
    session = db.session()
    return [(access.group, editions.group_copy(session, access.group.id, game))
            for access in my_groups()]


@bp.route("/tables/new/<game>", methods=["GET", "POST"])
@limits.tables_opened
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
            response = redirect(url_for("live.host", table_id=opened.table.id, opened=1),
                                code=303)
            _set_token(wallet.HOST, opened.table, opened.host_token)
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
@limits.join_guesses
def join():
    """Type the short code shown on the table's screen."""
    error = None
    if request.method == "POST":
        table = live.find_by_code(db.session(), request.form.get("code", ""))
        if table is not None:
            return redirect(_join_target(table), code=303)
        error = _("No open table has this code. Check the letters and try again.")
    return render_template("live/join.html", error=error), 404 if error else 200


@bp.get("/j/<code>")
@limits.join_guesses
def join_by_code(code: str):
    """Where the QR code leads: the table's seats."""
    table = live.find_by_code(db.session(), code)
    if table is None:
        return render_template("live/join.html",
                               error=_("No open table has this code. Check the letters and "
                                       "try again.")), 404
    return redirect(_join_target(table))


_OVER = (TableStatus.FINISHED.value, TableStatus.ABANDONED.value)


def _join_target(table) -> str:
    """Where a join link leads: the seats while the game is on, else the table's own page
    (a finished table's Scoresheet; its printed cards and QR codes still lead somewhere)."""
    if table.status in _OVER:
        return url_for("main.table", table_id=table.id)
    return url_for("live.seats", table_id=table.id)


@bp.get("/tables/<table_id>/join")
def seats(table_id: str):
    """Pick your seat (or watch); once the game is over, its page."""
    table = _table_or_404(table_id)
    if table.status in _OVER:
        return redirect(_join_target(table))
    seat, host = viewer(table)
    return render_template("live/seats.html", table=table, seats=live.seats(db.session(), table),
                           my_seat=seat, host=host)


@bp.post("/tables/<table_id>/seats/<int:position>/claim")
def claim(table_id: str, position: int):
    """Take a seat on this phone. A taken seat only with the host's rights, after asking
    (the phone holding it loses it); a phone that changes seats gives its old one back."""
    table = _table_or_404(table_id)
    session = db.session()
    mine = my_seat(table)
    _seat, rights = viewer(table)
    taken = next((s for s in live.seats(session, table) if s.position == position), None)
    if taken is not None and taken.token_hash and rights and mine is not taken \
            and request.form.get("confirm") != "1":
        return _confirm(_("Take a seat that is taken?"),
                        _("%(name)s's seat is held by another phone. If you take it here, "
                          "that phone loses it.", name=taken.name),
                        url_for("live.claim", table_id=table.id, position=position),
                        _("Take it on this phone"), confirm="1", generation=taken.generation)
    try:
        token = live.claim_seat(session, table, position, host=rights,
                                generation=request.form.get("generation", type=stored_int),
                                current=mine)
    except TableProblem as problem:
        flash(render_violation(problem))
        return redirect(url_for("live.seats", table_id=table.id), code=303)
    response = redirect(url_for("main.table", table_id=table.id), code=303)
    _set_token(wallet.SEAT, table, token)
    return response


def _one_time_link(table: GameTable, ask: tuple[str, str, str], use, kind: str, then: str):
    """A one-time link opened on a phone: GET asks (a link preview must not use it up), POST
    uses it — ``use()`` gives the token this phone keeps as ``kind`` — and goes to ``then``."""
    if request.method == "GET":
        title, message, button = ask
        return _confirm(title, message, request.path, button)
    try:
        token = use()
    except TableProblem as problem:
        return render_template("error.html", code=problem.status,
                               message=render_violation(problem)), problem.status
    response = redirect(url_for(then, table_id=table.id), code=303)
    _set_token(kind, table, token)
    return response


@bp.route("/tables/<table_id>/rejoin/<token>", methods=["GET", "POST"])
def rejoin(table_id: str, token: str):
    """A seat's one-time rejoin link (the host's QR code): asks, then moves the seat here."""
    table = _table_or_404(table_id)
    return _one_time_link(
        table, (_("Take your seat on this phone?"), _("The phone that held it before loses it."),
                _("Take my seat")),
        lambda: live.rejoin(db.session(), table, token, current=my_seat(table))[1],
        wallet.SEAT, "main.table")


@bp.route("/tables/<table_id>/take-host/<token>", methods=["GET", "POST"])
def take_host(table_id: str, token: str):
    """A one-time host link: asks, then makes this phone the host."""
    table = _table_or_404(table_id)
    return _one_time_link(
        table, (_("Become the host of this table?"),
                _("The phone that was the host loses the role."), _("Become the host")),
        lambda: live.take_host(db.session(), table, token), wallet.HOST, "live.host")


# --------------------------------------------------------------------------------------------
# Playing
# --------------------------------------------------------------------------------------------


def _json_value(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return text


def _move_from_form(form: MultiDict) -> dict[str, Any]:
    """A move as the phone's buttons describe it: a hidden ``move`` holds the move's JSON;
    each ``m.<key>`` field (a list, or the button that was pressed) adds ``key`` with its JSON
    value, ``m.<key>[]`` fields add a list, and ``m.__merge`` (a JSON object: one choice
    that sets several arguments) adds every key of it. A dotted name builds a nested argument
    from several inputs (``m.pay.0.card`` and ``m.pay.0.capital`` give ``{"pay": [{"card": …,
    "capital": …}]}``; a number is a list index). An empty input is left out (an optional
    number nobody typed), and so is a list entry left with nothing in it. Anything else is
    left to the referee to refuse."""
    move = _json_value(form.get("move", ""))
    if not isinstance(move, dict):
        return {"type": None}
    nested: dict[str, Any] = {}
    for name in form:
        if name.startswith("m.") and "." in name[2:].removesuffix("[]"):
            _put_path(nested, name[2:], form)
        elif name.startswith("m.") and name.endswith("[]"):
            move[name[2:-2]] = [_json_value(v) for v in form.getlist(name) if v != ""]
        elif name == "m.__merge":
            for text in form.getlist(name):
                merged = _json_value(text)
                if isinstance(merged, dict):
                    move.update(merged)
        elif name.startswith("m.") and form[name] != "":
            move[name[2:]] = _json_value(form[name])
    move.update({key: _as_lists(value) for key, value in nested.items()})
    return move


def _put_path(tree: dict[str, Any], path: str, form: MultiDict) -> None:
    """Put the input ``m.<path>`` into ``tree`` at its dotted path (``[]``: all its values);
    empty inputs and names that clash with an earlier input are left out."""
    many = path.endswith("[]")
    parts = path.removesuffix("[]").split(".")
    if many:
        value: Any = [_json_value(v) for v in form.getlist(f"m.{path}") if v != ""]
    elif form[f"m.{path}"] == "":
        return
    else:
        value = _json_value(form[f"m.{path}"])
    node = tree
    for part in parts[:-1]:
        node = node.setdefault(part, {})
        if not isinstance(node, dict):
            return
    if parts[-1] not in node:
        node[parts[-1]] = value


def _as_lists(node: Any) -> Any:
    """Objects whose keys are all numbers become lists in that order, without empty
    entries (the rows of a form the player left blank)."""
    if not isinstance(node, dict):
        return node
    items = {key: _as_lists(value) for key, value in node.items()}
    if items and all(key.isdigit() and len(key) <= 4 for key in items):
        return [items[key] for key in sorted(items, key=int) if items[key] not in ({}, [])]
    return items


def _perform(table: GameTable, action) -> Any:
    """Run a move or an undo for the page: redirect back on success (the service tells the
    phones), or show the table again with the reason it was refused."""
    try:
        action()
    except StaleVersion:
        return _entered_again(table, _("Someone else moved first; here is the table now."), 409)
    except TableProblem as problem:
        return _entered_again(table, render_violation(problem), problem.status, problem.field)
    return redirect(url_for("main.table", table_id=table.id), code=303)


def _entered_again(table: GameTable, message: str, status: int, field: str | None = None):
    """The table's page again with the refusal, the form that was sent holding what the
    person entered and the refusal beside the field it names, else at the head of the form
    (:mod:`.refill`)."""
    page, status = render_table(table, message, status)
    sent = request.form.to_dict(flat=False)
    return entered_again(page, request.path, sent, field, message), status


@bp.post("/tables/<table_id>/moves")
def move(table_id: str):
    """A move made with the phone's buttons."""
    table = _table_or_404(table_id)
    seat, _host = viewer(table)
    if seat is None:
        return render_table(table, _("Take a seat first: this phone is only watching."), 403)
    return _perform(table, lambda: live.submit_move(
        db.session(), table, seat, _move_from_form(request.form),
        request.form.get("version", type=stored_int), request.form.get("idempotency_key")))


@bp.post("/tables/<table_id>/draw")
def draw(table_id: str):
    """Let the app draw what the table awaits (a card, a tile) for a group that plays without
    the physical draw; the phone's "draw for us" button, the page's version of the API's
    POST .../draw."""
    table = _table_or_404(table_id)
    seat, _host = viewer(table)
    if seat is None:
        return render_table(table, _("Take a seat first: this phone is only watching."), 403)
    return _perform(table, lambda: live.draw_for(
        db.session(), table, seat, request.form.get("version", type=stored_int),
        request.form.get("idempotency_key")))


@bp.post("/tables/<table_id>/undo")
def undo(table_id: str):
    """Take back the last move (its player or the host), as seen at the page's version."""
    table = _table_or_404(table_id)
    seat, rights = viewer(table)
    return _perform(table, lambda: live.undo(
        db.session(), table, live.HOST if rights else f"seat:{seat}",
        request.form.get("version", type=stored_int), request.form.get("idempotency_key")))


@bp.post("/tables/<table_id>/undo-request")
def ask_undo(table_id: str):
    """Any seat asks to undo the last move; its player or the host decides."""
    table = _table_or_404(table_id)
    seat, _rights = viewer(table)
    if seat is None:
        return render_table(table, _("Take a seat first: this phone is only watching."), 403)
    try:
        live.request_undo(db.session(), table, seat,
                          request.form.get("version", type=stored_int))
    except StaleVersion:
        return render_table(table, _("Someone else moved first; here is the table now."), 409)
    except TableProblem as problem:
        return render_table(table, render_violation(problem), problem.status)
    return redirect(url_for("main.table", table_id=table.id), code=303)


@bp.post("/tables/<table_id>/undo-request/refuse")
def keep_move(table_id: str):
    """The player who moved (or the host) keeps the move the others asked to undo."""
    table = _table_or_404(table_id)
    seat, rights = viewer(table)
    last = _last_move(table)
    if not rights and (seat is None or last is None or last.seat != seat):
        abort(403)
    live.refuse_undo(db.session(), table)
    return redirect(url_for("main.table", table_id=table.id), code=303)


def _last_move(table: GameTable):
    active = [m for m in live.move_log(db.session(), table) if m.undone_version is None]
    return active[-1] if active else None


# --------------------------------------------------------------------------------------------
# The host
# --------------------------------------------------------------------------------------------


@bp.route("/tables/<table_id>/host", methods=["GET", "POST"])
def host(table_id: str):
    """The host's screen (the host's phone or a co-host's): the QR code and short code to
    join, every seat with its rejoin code and co-host switch, handing the role over."""
    table = _table_or_404(table_id)
    _seat, rights = viewer(table)
    if not rights:
        abort(403)
    session = db.session()
    shown: dict[str, Any] = {}
    if request.method == "POST":
        action = request.form.get("action", "")
        position = request.form.get("seat", type=stored_int)
        try:
            if action == "rejoin":
                token = live.rejoin_link(session, table, position)
                url = public_url("live.rejoin", table_id=table.id, token=token)
                shown = {"rejoin_seat": position, "url": url, "qr": qr_svg(url)}
            elif action in ("cohost", "not_cohost"):
                live.set_cohost(session, table, position, action == "cohost")
            elif action == "host_link":
                token = live.host_link(session, table)
                url = public_url("live.take_host", table_id=table.id, token=token)
                shown = {"host_link": True, "url": url, "qr": qr_svg(url)}
        except TableProblem as problem:
            flash(render_violation(problem))
    elif table.recovery_hash is None and table.status == "playing" and \
            request.args.get("opened") == "1":
        # shown once, right after opening: the link that makes another phone the host
        token = live.host_link(session, table)
        url = public_url("live.take_host", table_id=table.id, token=token)
        shown = {"host_link": True, "opening": True, "url": url, "qr": qr_svg(url)}
    join_url = public_url("live.join_by_code", code=table.code) if table.code else None
    seats = live.seats(session, table)
    # whom the table awaits (several seats when players act at the same time)
    awaiting = [seats[position] for position in sorted(get_ruleset(table.game).awaiting(
        live.state_at(session, table)).seats)] if table.status == "playing" else []
    return render_template("live/host.html", table=table, join_url=join_url,
                           qr=qr_svg(join_url) if join_url else None, shown=shown,
                           seats=seats, awaiting=awaiting,
                           undo_request=live.open_undo_request(table),
                           last_move=_last_move(table), idempotency_key=uuid.uuid4().hex)


@bp.post("/tables/<table_id>/close")
def close(table_id: str):
    """The host closes an unfinished table."""
    table = _table_or_404(table_id)
    if not viewer(table)[1]:
        abort(403)
    try:
        live.close_table(db.session(), table)
    except StaleVersion:
        return render_table(table, _("Someone else moved first; here is the table now."), 409)
    return redirect(url_for("main.table", table_id=table.id), code=303)


@bp.get("/tables/<table_id>/qr.svg")
def qr(table_id: str):
    """The join QR code as an SVG image (for the host and the seated players only)."""
    table = _table_or_404(table_id)
    if not table.code or not holds_table(table):
        abort(404)
    svg = qr_svg(public_url("live.join_by_code", code=table.code))
    return Response(svg, mimetype="image/svg+xml",
                    headers={"Cache-Control": "private, max-age=3600"})

