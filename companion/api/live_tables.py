"""Live tables over JSON: open, claim a seat, read, move, undo, and the SSE event stream."""

from __future__ import annotations

from typing import Any

from flask import Response, current_app, jsonify, request
from flask_babel import gettext as _
from sqlalchemy import Connection
from sqlmodel import Session

from .. import db
from ..i18n import violation_body
from ..links import public_url
from ..models import GameTable
from ..services import live_events, live_tables as live
from ..services.live_tables import StaleVersion, TableProblem
from ..rules.base import N_
from . import bp


def _json_body() -> Any:
    return _required(request.get_json(silent=True))


def _required(body: Any) -> Any:
    """The parsed JSON body, or the refusal of a body that was not JSON."""
    if body is None:
        raise TableProblem(400, "bad_json", N_("The request body must be a JSON document."))
    return body


def _bearer() -> str | None:
    """The token of the request's ``Authorization: Bearer …`` header, else None."""
    header = request.headers.get("Authorization") or ""
    return header[7:].strip() if header.lower().startswith("bearer ") else None


def _problem(problem: TableProblem):
    if problem.status == 401:          # no token at all: say which kind of credential is due
        return jsonify(violation_body(problem)), 401, {"WWW-Authenticate": "Bearer"}
    return jsonify(violation_body(problem)), problem.status


def _refused_status() -> int:
    """401 when the request carries no token at all, 403 when its token is not enough."""
    return 401 if _bearer() is None else 403


def _join_url(table) -> str:
    return public_url("live.join_by_code", code=table.code)


@bp.errorhandler(TableProblem)
def _table_problem(problem: TableProblem):
    return _problem(problem)


@bp.post("/tables")
def open_table():
    """Open a live table: ``{"game", "options"?, "players": [names], "setup"?,
    "edition"?}``."""
    body = _json_body()
    if not isinstance(body, dict):
        raise TableProblem(422, "score.not_object", N_("The document must be a JSON object."))
    opened = live.open_table(db.session(), body.get("game"), body.get("options"),
                             body.get("players"), body.get("setup"),
                             edition=body.get("edition"))
    table = opened.table
    return jsonify({"id": table.id, "code": table.code, "join_url": _join_url(table),
                    "host_token": opened.host_token, "version": table.version}), 201


@bp.post("/tables/<table_id>/seats/<int:position>/claim")
def claim_seat(table_id: str, position: int):
    """Take a free seat; a taken one only with host rights, naming the ``generation`` of the
    claim it replaces (``{"generation": g}``), so that a reassignment is a compare and swap.
    Answers the seat's token and the table's version (what the seat's first move names)."""
    session = db.session()
    table, _seat, host = _table_and_viewer(session, table_id)
    body = request.get_json(silent=True) if request.content_length else None
    if body is not None and not isinstance(body, dict):
        raise TableProblem(422, "score.not_object", N_("The document must be a JSON object."))
    generation = body.get("generation") if body is not None else None
    mine = live.seat_for_token(session, table, _bearer())
    token = live.claim_seat(session, table, position,
                            host=live.has_host_rights(table, _bearer(), mine),
                            generation=generation, current=mine)
    return {"seat_token": token, "seat": position, "version": table.version}


def _host_rights(session: Session, table_id: str):
    """The table, when the bearer has the host's rights (the host or a co-host's seat)."""
    table, _seat, _host = _table_and_viewer(session, table_id)
    if not live.has_host_rights(table, _bearer(), live.seat_for_token(session, table,
                                                                      _bearer())):
        raise TableProblem(_refused_status(), "table.host_needed",
                           N_("Only the host (or a co-host) may do this."))
    return table


@bp.post("/tables/<table_id>/seats/<int:position>/rejoin-link")
def rejoin_link(table_id: str, position: int):
    """A one-time link that moves this seat to a new phone (host rights)."""
    session = db.session()
    table = _host_rights(session, table_id)
    token = live.rejoin_link(session, table, position)
    return {"seat": position, "token": token,
            "rejoin_url": public_url("live.rejoin", table_id=table.id, token=token)}


@bp.post("/tables/<table_id>/rejoin")
def rejoin(table_id: str):
    """Use a rejoin link: ``{"token"}`` → the seat and its new token (the old one stops)."""
    session = db.session()
    table = live.get_table(session, table_id)
    body = _json_body()
    position, token = live.rejoin(session, table, body.get("token")
                                  if isinstance(body, dict) else None)
    return {"seat": position, "seat_token": token}


@bp.post("/tables/<table_id>/seats/<int:position>/cohost")
def cohost(table_id: str, position: int):
    """Give a seat's phone the host's rights, or take them back: ``{"on": bool}``."""
    session = db.session()
    table = _host_rights(session, table_id)
    body = _json_body()
    on = body.get("on") if isinstance(body, dict) else None
    if not isinstance(on, bool):
        raise TableProblem(422, "schema.not_boolean", N_("This must be true or false."), "on")
    live.set_cohost(session, table, position, on)
    return {"seat": position, "cohost": on}


@bp.post("/tables/<table_id>/host-link")
def host_link(table_id: str):
    """A one-time link that makes another phone the host (host rights)."""
    session = db.session()
    table = _host_rights(session, table_id)
    token = live.host_link(session, table)
    return {"token": token, "host_url": public_url("live.take_host", table_id=table.id,
                                                   token=token)}


@bp.post("/tables/<table_id>/take-host")
def take_host(table_id: str):
    """Use a host link: ``{"token"}`` → a new host token; the old host's stops working."""
    session = db.session()
    table = live.get_table(session, table_id)
    body = _json_body()
    token = live.take_host(session, table, body.get("token") if isinstance(body, dict)
                           else None)
    return {"host_token": token}


def _table_and_viewer(session: Session | Connection, table_id: str,
                      token: str | None = None, *,
                      orm: bool = True):
    """The table, and (seat position or None, is host) for the bearer token (default: the
    request's); a token that is neither is refused. The table is the ORM object for the
    services that change it through the ORM (seats, undo), else a plain
    :class:`~companion.services.live_tables.LiveTable` (a move, a read)."""
    token = _bearer() if token is None else token
    table, seat = (live.table_and_seat if orm else live.live_table_and_seat)(session, table_id,
                                                                             token)
    if token is None or seat is not None:
        return table, seat, False
    if live.is_host(table, token):
        return table, None, True
    raise TableProblem(403, "table.bad_token", N_("This token does not belong to this table."))


@bp.get("/tables/<table_id>")
def read_table(table_id: str):
    """The table as the bearer sees it: version, state, prompts, scores."""
    session = db.session()
    table, seat, _host = _table_and_viewer(session, table_id, orm=False)
    return live.view(session, table, seat)


def _changed(table_id: str, change, *, host_may: bool = False):
    """A request that changes the log (a move, a draw, an undo), answered by :func:`change_log`:
    the new version with this seat's view, a stale version 409 with the fresh table. A move
    or a draw runs on a Core connection of its own, without the ORM (no Session to open, begin,
    commit and close: :mod:`companion.services.live_tables`); an undo (``host_may``) changes
    the table through the ORM."""
    token, body = _bearer(), request.get_json(silent=True)
    if host_may:
        table, seat, outcome = change_log(db.session(), table_id, token, body, change,
                                          host_may=True)
    else:
        with db.engine().connect() as connection:
            table, seat, outcome = change_log(connection, table_id, token, body, change,
                                              orm=False)
    if isinstance(outcome, StaleVersion):
        return _stale(db.session(), table, seat, outcome)
    return _accepted_answer(table, seat, outcome)


def change_log(session: Session | Connection, table_id: str, token: str | None, body: Any,
               change, *,
               host_may: bool = False,
               orm: bool = True) -> tuple[GameTable | live.LiveTable, int | None, Any]:
    """The bearer's seat (or, when ``host_may``, the host) calls ``change(session, table, seat,
    rights, body)`` (``rights()``: has the bearer the host's rights?; the service announces an
    accepted change): (table, seat, the :class:`~companion.services.live_tables.Accepted`
    change or the :class:`StaleVersion` it met). Any other refusal is raised as a
    :class:`TableProblem`. ``table`` is the ORM object when ``orm`` (``session`` is then the
    request's Session), else a plain :class:`~companion.services.live_tables.LiveTable`."""
    table, seat, host = _table_and_viewer(session, table_id, token, orm=orm)
    if seat is None and not (host_may and host):
        raise TableProblem(401 if token is None else 403, "table.seat_token_needed",
                           N_("Moves are made with a seat token (Authorization: Bearer …)."))
    if not isinstance(_required(body), dict):
        raise TableProblem(422, "score.not_object", N_("The document must be a JSON object."))

    def rights() -> bool:          # asked only by an undo: a move costs no extra query
        return live.has_host_rights(table, token, live.seat_for_token(session, table, token))
    try:
        accepted = change(session, table, seat, rights, body)
    except StaleVersion as stale:
        return table, seat, stale
    return table, seat, accepted


def _accepted_answer(table: GameTable, seat: int | None, accepted) -> dict[str, Any]:
    return {"version": accepted.version, **live.phone_view(table, seat, accepted.state)}


def _move(session, table, seat, _rights, body):
    return live.submit_move(session, table, seat, body.get("move"), body.get("version"),
                            body.get("idempotency_key"))


@bp.post("/tables/<table_id>/moves")
def submit_move(table_id: str):
    """Referee one move: ``{"move", "version", "idempotency_key"}`` with a seat token."""
    return _changed(table_id, _move)


@bp.post("/tables/<table_id>/draw")
def draw(table_id: str):
    """Let the app draw what the table awaits (a tile, a card): ``{"version",
    "idempotency_key"}`` with the seat's token; answered like a move."""
    return _changed(table_id, lambda session, table, seat, _rights, body: live.draw_for(
        session, table, seat, body.get("version"), body.get("idempotency_key")))


@bp.post("/tables/<table_id>/undo")
def undo(table_id: str):
    """Undo the last move: ``{"version", "idempotency_key"}`` by its player or with host
    rights; a retry gets the first answer, a stale version 409."""
    return _changed(table_id, lambda session, table, seat, rights, body: live.undo(
        session, table, live.HOST if rights() else f"seat:{seat}", body.get("version"),
        body.get("idempotency_key")), host_may=True)


@bp.post("/tables/<table_id>/undo-request")
def request_undo(table_id: str):
    """A seat asks to undo the last move: ``{"version"}``; its player or the host decides."""
    session = db.session()
    table, seat, _host = _table_and_viewer(session, table_id)
    if seat is None:
        raise TableProblem(_refused_status(), "table.seat_token_needed",
                           N_("Moves are made with a seat token (Authorization: Bearer …)."))
    body = _json_body()
    try:
        live.request_undo(session, table, seat, body.get("version")
                          if isinstance(body, dict) else None)
    except StaleVersion as stale:
        return _stale(session, table, seat, stale)
    return {"undo_request": live.open_undo_request(table)}, 201


@bp.delete("/tables/<table_id>/undo-request")
def refuse_undo(table_id: str):
    """The player who made the last move (or the host) keeps it: the request is withdrawn."""
    session = db.session()
    table, seat, host = _table_and_viewer(session, table_id)
    moves = [m for m in live.move_log(session, table) if m.undone_version is None]
    if not host and (seat is None or not moves or moves[-1].seat != seat):
        raise TableProblem(_refused_status(), "table.undo_not_allowed",
                           N_("Only the player who made the last move, or the host, may "
                              "undo it; ask them."))
    live.refuse_undo(session, table)
    return {"undo_request": None}


def _stale(session: Session, table, seat: int | None, stale: StaleVersion):
    """409 with the fresh table, so the phone can show it and try again."""
    return jsonify({"error": "stale_version", "field": "version",
                    "message": _("Someone else moved first; here is the table now."),
                    "version": stale.version,
                    **{k: v for k, v in live.view(session, table, seat).items()
                       if k in ("state", "prompts")}}), 409


def event_stream(table_id: str) -> Response:
    """Server-Sent Events: ``version`` events as the table changes, keep-alives between.

    The blocking version, one thread per phone, for ``flask run`` and the test client; the
    server that ``python -m companion serve`` runs answers this path itself with asyncio
    (:mod:`companion.asgi`), with the same wire format and version read (live_events)."""
    session = db.session()
    live.get_table(session, table_id)       # 404 for an unknown table, before streaming
    had = live_events.last_seen(request.headers.get("Last-Event-ID"),
                                request.args.get("version"))
    stream = live_events.blocking_stream(db.engine(), table_id, had,
                                         current_app.config.get("SSE_MAX_SECONDS"))
    return Response(stream, mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@bp.get("/tables/<table_id>/events")
def events(table_id: str):
    """The live stream of a table's versions (EventSource)."""
    return event_stream(table_id)
