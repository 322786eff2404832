"""Live tables over JSON: open, claim a seat, read, move, undo, and the SSE event stream."""

from __future__ import annotations

import time
from typing import Any

from flask import Response, current_app, jsonify, request
from flask_babel import gettext as _
from sqlmodel import Session

from .. import db
from ..i18n import violation_body
from ..links import public_url
from ..services import broker, live_events, tables as live
from ..services.tables import StaleVersion, TableProblem
from ..rules.base import N_
from . import bp


def _json_body() -> Any:
    body = request.get_json(silent=True)
    if body is None:
        raise TableProblem(400, "bad_json", N_("The request body must be a JSON document."))
    return body


def _bearer() -> str | None:
    header = request.headers.get("Authorization", "")
    return header[7:].strip() if header.lower().startswith("bearer ") else None


def _problem(problem: TableProblem):
    return jsonify(violation_body(problem)), problem.status


def _join_url(table) -> str:
    return public_url("live.join_by_code", code=table.code)


@bp.errorhandler(TableProblem)
def _table_problem(problem: TableProblem):
    return _problem(problem)


@bp.post("/tables")
def open_table():
    """Open a live table: ``{"game", "options", "players": [names], "setup"?}``."""
    body = _json_body()
    if not isinstance(body, dict):
        raise TableProblem(422, "score.not_object", N_("The document must be a JSON object."))
    setup = body.get("setup")
    if setup is not None and not isinstance(setup, dict):
        raise TableProblem(422, "table.bad_setup", N_("Setup must be an object."), "setup")
    opened = live.open_table(db.session(), body.get("game"), body.get("options"),
                             body.get("players"), setup)
    table = opened.table
    return jsonify({"id": table.id, "code": table.code, "join_url": _join_url(table),
                    "host_token": opened.host_token, "version": table.version}), 201


@bp.post("/tables/<table_id>/seats/<int:position>/claim")
def claim_seat(table_id: str, position: int):
    """Take a seat; a taken seat only with the host's token (it then gets a new token)."""
    session = db.session()
    table = live.get_table(session, table_id)
    token = live.claim_seat(session, table, position, host_token=_bearer())
    return {"seat_token": token, "seat": position}


def _table_and_viewer(session: Session, table_id: str):
    """The table, and (seat position or None, is host) for the request's bearer token; a
    token that is neither is refused."""
    token = _bearer()
    table, seat = live.table_and_seat(session, table_id, token)
    if token is None or seat is not None:
        return table, seat, False
    if live.is_host(table, token):
        return table, None, True
    raise TableProblem(403, "table.bad_token", N_("This token does not belong to this table."))


@bp.get("/tables/<table_id>")
def read_table(table_id: str):
    """The table as the bearer sees it: version, state, prompts, scores."""
    session = db.session()
    table, seat, _host = _table_and_viewer(session, table_id)
    return live.view(session, table, seat)


@bp.post("/tables/<table_id>/moves")
def submit_move(table_id: str):
    """Referee one move: ``{"move", "version", "idempotency_key"}`` with a seat token."""
    session = db.session()
    table, seat, _host = _table_and_viewer(session, table_id)
    if seat is None:
        raise TableProblem(403, "table.seat_token_needed",
                           N_("Moves are made with a seat token (Authorization: Bearer …)."))
    body = _json_body()
    if not isinstance(body, dict):
        raise TableProblem(422, "score.not_object", N_("The document must be a JSON object."))
    try:
        accepted = live.submit_move(session, table, seat, body.get("move"),
                                    body.get("version"), body.get("idempotency_key"))
    except StaleVersion as stale:
        return jsonify({"error": "stale_version", "field": "version",
                        "message": _("Someone else moved first; here is the table now."),
                        "version": stale.version,
                        **{k: v for k, v in live.view(session, table, seat).items()
                           if k in ("state", "prompts")}}), 409
    if not accepted.replayed:
        broker.publish(table.id, accepted.version)
    shown = live.view(session, table, seat, state=accepted.state)
    return {"version": accepted.version, "state": shown["state"], "prompts": shown["prompts"]}


@bp.post("/tables/<table_id>/undo")
def undo(table_id: str):
    """Undo the last move (its player, or the host)."""
    session = db.session()
    table, seat, host = _table_and_viewer(session, table_id)
    if seat is None and not host:
        raise TableProblem(403, "table.seat_token_needed",
                           N_("Undo needs the seat token of the player who moved, or the host's."))
    try:
        accepted = live.undo(session, table, live.HOST if host else f"seat:{seat}")
    except StaleVersion as stale:
        return jsonify({"error": "stale_version", "field": "version", "version": stale.version,
                        "message": _("Someone else moved first; try again.")}), 409
    broker.publish(table.id, accepted.version)
    shown = live.view(session, table, seat, state=accepted.state)
    return {"version": accepted.version, "state": shown["state"], "prompts": shown["prompts"]}


def event_stream(table_id: str) -> Response:
    """Server-Sent Events: ``version`` events as the table changes, keep-alives between.

    The blocking version, one thread per phone, for ``flask run`` and the test client; the
    server that ``python -m companion serve`` runs answers this path itself with asyncio
    (:mod:`companion.asgi`), with the same wire format and version read (live_events)."""
    session = db.session()
    live.get_table(session, table_id)       # 404 for an unknown table, before streaming
    engine = db.engine()
    hub = broker.broker()
    max_seconds = current_app.config.get("SSE_MAX_SECONDS")   # tests bound the stream
    had = live_events.last_seen(request.headers.get("Last-Event-ID"),
                                request.args.get("version"))

    def stream():
        started = time.monotonic()
        with hub.subscribe(table_id) as subscription:
            # subscribe first, then read: a move in between is announced, never lost
            last = live_events.read_versions(engine, [table_id]).get(table_id, 0)
            yield live_events.opening(had, last)
            while max_seconds is None or time.monotonic() - started < max_seconds:
                announced = subscription.get(timeout=live_events.KEEPALIVE_SECONDS
                                             if max_seconds is None else 0.2)
                if announced is None:
                    yield live_events.alive_event(last)
                    continue
                if announced > last:
                    yield "".join(live_events.version_event(v)
                                  for v in live_events.versions_between(last, announced))
                    last = announced

    return Response(stream(), mimetype="text/event-stream",
                    headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


@bp.get("/tables/<table_id>/events")
def events(table_id: str):
    """The live stream of a table's versions (EventSource)."""
    return event_stream(table_id)
