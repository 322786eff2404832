"""Groups over JSON: open, join, record and fix plays, statistics, ladders, import and export.

Authorization is ``Authorization: Bearer <token>``: the invite token for member calls, the
admin token for admin calls (marked *admin* below; the admin token works for member calls too).
A group that does not exist, no token, and a forged or revoked one all get the same answer, 404
``group.not_found`` (so group ids reveal nothing); an invite token where the admin is needed:
403 ``group.admin_needed``. Errors are
``{"error", "message", "field"}``. Times are ISO 8601 in UTC. Names are returned as given.
"""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify, request
from flask_babel import gettext as _

from .. import db
from ..i18n import invalid_body, violation_body
from ..guard import body_limit_of
from ..models import GameTable
from ..rules.base import InvalidDocument, N_
from ..services import editions, bgstats, groups, stats
from ..services.groups import GroupProblem
from . import bp


def _bearer() -> str | None:
    header = request.headers.get("Authorization", "")
    return header[7:].strip() or None if header.lower().startswith("bearer ") else None


def _access(group_id: int, admin: bool = False) -> groups.Access:
    return groups.authorize(db.session(), group_id, _bearer(), admin=admin)


def _body() -> dict[str, Any]:
    body = request.get_json(silent=True)
    if body is None:
        raise GroupProblem(400, "bad_json", N_("The request body must be a JSON document."))
    if not isinstance(body, dict):
        raise GroupProblem(422, "score.not_object", N_("The document must be a JSON object."))
    return body


def _json(data: Any, status: int = 200):
    return jsonify(stats.jsonable(data)), status


def _int_arg(name: str, default: int) -> int:
    value = request.args.get(name)
    try:
        return int(value) if value is not None else default
    except ValueError:
        raise GroupProblem(422, "schema.not_integer", N_("This must be a whole number."),
                           name) from None


def _group_json(access: groups.Access) -> dict[str, Any]:
    group = access.group
    return {"id": group.id, "name": group.name, "role": access.role}


# ---- groups ----------------------------------------------------------------------------------


@bp.post("/groups")
def open_group():
    """Open a group: ``{"name"}`` → its id and the invite and admin tokens (shown once)."""
    opened = groups.open_group(db.session(), _body().get("name"))
    return _json({"id": opened.group.id, "name": opened.group.name,
                  "invite_token": opened.invite_token, "admin_token": opened.admin_token}, 201)


@bp.get("/groups/<int:group_id>")
def read_group(group_id: int):
    """The group home: members, recent plays, leaders, titles (member)."""
    access = _access(group_id)
    home = stats.group_home(db.session(), access.group)
    home["group"]["role"] = access.role
    return _json(home)


@bp.patch("/groups/<int:group_id>")
def rename_group(group_id: int):
    """Rename the group: ``{"name", "actor"?}`` (admin)."""
    access = _access(group_id, admin=True)
    body = _body()
    groups.rename_group(db.session(), access.group, body.get("name"), body.get("actor"))
    return _json(_group_json(access))


@bp.post("/groups/<int:group_id>/invite")
def revoke_invite(group_id: int):
    """Revoke the invite link and get a new one: ``{"actor"?}`` (admin)."""
    access = _access(group_id, admin=True)
    body = request.get_json(silent=True) or {}
    token = groups.revoke_invite(db.session(), access.group,
                                 body.get("actor") if isinstance(body, dict) else None)
    return _json({"invite_token": token})


@bp.post("/groups/<int:group_id>/admin-token")
def replace_admin_token(group_id: int):
    """Replace the admin link: ``{"actor"?}`` (admin); the old admin token stops working."""
    access = _access(group_id, admin=True)
    body = request.get_json(silent=True) or {}
    token = groups.replace_admin_token(db.session(), access.group,
                                       body.get("actor") if isinstance(body, dict) else None)
    return _json({"admin_token": token})


@bp.get("/groups/<int:group_id>/audit")
def audit(group_id: int):
    """Who changed what, newest first (admin)."""
    access = _access(group_id, admin=True)
    return _json({"entries": stats.audit_page(db.session(), access.group,
                                              limit=max(1, min(_int_arg("limit", 200), 1000)))})


# ---- players ---------------------------------------------------------------------------------


@bp.get("/groups/<int:group_id>/players")
def list_players(group_id: int):
    """The group's players with their plays and wins (member)."""
    access = _access(group_id)
    return _json({"players": stats.player_list(db.session(), access.group)})


@bp.post("/groups/<int:group_id>/players")
def join(group_id: int):
    """Join: ``{"name"}`` (201 new player; 200 when a member already has that name), or
    ``{"player_id", "proof_token"}`` to join as a player of another group (member)."""
    access = _access(group_id)
    body = _body()
    player, created = groups.join_group(db.session(), access.group, body.get("name"),
                                        body.get("player_id"), body.get("proof_token"))
    return _json({"player_id": player.id, "name": player.name, "created": created},
                 201 if created else 200)


@bp.get("/groups/<int:group_id>/players/<int:player_id>")
def read_player(group_id: int, player_id: int):
    """The player page: stats per game, ratings now and over time, titles, recent plays."""
    access = _access(group_id)
    return _json(stats.player_page(db.session(), access.group, player_id))


@bp.patch("/groups/<int:group_id>/players/<int:player_id>")
def rename_player(group_id: int, player_id: int):
    """Rename a player: ``{"name", "actor"?}`` (admin)."""
    access = _access(group_id, admin=True)
    body = _body()
    player = groups.rename_player(db.session(), access.group, player_id, body.get("name"),
                                  body.get("actor"))
    return _json({"player_id": player.id, "name": player.name})


@bp.post("/groups/<int:group_id>/players/merge")
def merge_players(group_id: int):
    """Merge a duplicate player into another: ``{"keep", "merge", "actor"?}`` (admin)."""
    access = _access(group_id, admin=True)
    body = _body()
    kept = groups.merge_players(db.session(), access.group, body.get("keep"),
                                body.get("merge"), body.get("actor"))
    return _json({"player_id": kept.id, "name": kept.name})


# ---- plays -----------------------------------------------------------------------------------


@bp.get("/groups/<int:group_id>/plays")
def list_plays(group_id: int):
    """Finished plays, newest first, voided ones marked: ``?limit=50&offset=0&game=ra
    &voided=0`` (member)."""
    access = _access(group_id)
    plays = stats.play_list(db.session(), access.group.id,
                            limit=max(0, min(_int_arg("limit", 50), 500)),
                            offset=max(0, _int_arg("offset", 0)),
                            include_voided=request.args.get("voided") not in ("0", "false",
                                                                               "no"),
                            game=request.args.get("game") or None)
    return _json({"plays": plays})


@bp.post("/groups/<int:group_id>/plays")
def record_play(group_id: int):
    """Add a finished table to the group: ``{"table", "table_token", "links"?: {"0":
    player_id}, "location"?, "actor"?}`` (member). The first time, ``table_token`` is the
    table's host or seat token (live), or the ``table_token`` a saved score answered with
    (score-only). 201 the first time, 200 when re-linking."""
    access = _access(group_id)
    body = _body()
    session = db.session()
    table = session.get(GameTable, body.get("table")) \
        if isinstance(body.get("table"), str) else None
    first = table is None or table.group_id is None
    kwargs = {"location": body["location"]} if "location" in body else {}
    table = groups.record_play(session, access.group, body.get("table"), body.get("links"),
                               actor=body.get("actor"), table_token=body.get("table_token"),
                               **kwargs)
    return _json(stats.play_detail(session, access.group, table.id), 201 if first else 200)


@bp.get("/groups/<int:group_id>/plays/<table_id>")
def read_play(group_id: int, table_id: str):
    """One play with its breakdown and its BG Stats hand-off link (member)."""
    access = _access(group_id)
    session = db.session()
    detail = stats.play_detail(session, access.group, table_id)
    detail["bgstats_url"] = bgstats.create_play_url(session, table_id)
    return _json(detail)


@bp.post("/groups/<int:group_id>/plays/<table_id>/void")
def void_play(group_id: int, table_id: str):
    """Void a play: ``{"actor"?, "reason"?}`` (admin)."""
    access = _access(group_id, admin=True)
    body = request.get_json(silent=True) or {}
    body = body if isinstance(body, dict) else {}
    groups.void_play(db.session(), access.group, table_id, body.get("actor"),
                     body.get("reason"))
    return _json(stats.play_detail(db.session(), access.group, table_id))


@bp.post("/groups/<int:group_id>/plays/<table_id>/unvoid")
def unvoid_play(group_id: int, table_id: str):
    """Count a voided play again: ``{"actor"?}`` (admin)."""
    access = _access(group_id, admin=True)
    body = request.get_json(silent=True) or {}
    body = body if isinstance(body, dict) else {}
    groups.unvoid_play(db.session(), access.group, table_id, body.get("actor"))
    return _json(stats.play_detail(db.session(), access.group, table_id))


@bp.post("/groups/<int:group_id>/plays/<table_id>/correct")
def correct_play(group_id: int, table_id: str):
    """Replace the final document and re-score: ``{"document", "actor"?}`` (admin). A
    results-only document is ``{"results_only": true, "players": [{"score", "rank"?}]}``."""
    access = _access(group_id, admin=True)
    body = _body()
    try:
        groups.correct_play(db.session(), access.group, table_id, body.get("document"),
                            body.get("actor"))
    except InvalidDocument as invalid:
        return jsonify(invalid_body(invalid)), 422
    return _json(stats.play_detail(db.session(), access.group, table_id))


# ---- statistics and ladders ----------------------------------------------------------------


# ---- our copy: printed values per game -----------------------------------------------------


@bp.get("/groups/<int:group_id>/editions")
def list_editions(group_id: int):
    """Every game whose printed values the group entered, with those values (member)."""
    access = _access(group_id)
    return _json({"editions": editions.copies(db.session(), access.group.id)})


@bp.get("/groups/<int:group_id>/editions/<game>")
def read_edition(group_id: int, game: str):
    """The group's copy of ``game``: entered values, and what is in force (member)."""
    access = _access(group_id)
    document = editions.export_copy(db.session(), access.group, game)
    in_force = editions.resolved(document["game"], document["values"])
    return _json({**document, "in_force": dict(in_force.values),
                  "defaults": list(in_force.defaults), "missing": list(in_force.missing)})


@bp.put("/groups/<int:group_id>/editions/<game>")
def save_edition(group_id: int, game: str):
    """Replace the group's copy of ``game``: ``{"values": {...}, "actor"?}`` (member)."""
    access = _access(group_id)
    body = _body()
    values = editions.save_copy(db.session(), access.group, game, body.get("values"),
                                body.get("actor"))
    return _json({"game": game, "values": values})


@bp.get("/groups/<int:group_id>/ladder")
@bp.get("/groups/<int:group_id>/ladder/<game>")
def ladder(group_id: int, game: str | None = None):
    """The overall ladder, or one game's (member)."""
    access = _access(group_id)
    return _json(stats.ladder_page(db.session(), access.group, game))


@bp.get("/groups/<int:group_id>/games/<game>")
def game_records(group_id: int, game: str):
    """A game's records, Champion, ladder and recent plays (member)."""
    access = _access(group_id)
    return _json(stats.game_page(db.session(), access.group, game))


@bp.get("/groups/<int:group_id>/head-to-head")
def head_to_head(group_id: int):
    """Two players against each other: ``?a=<player id>&b=<player id>`` (member)."""
    access = _access(group_id)
    return _json(stats.head_to_head_page(db.session(), access.group, _int_arg("a", -1),
                                         _int_arg("b", -1)))


# ---- import and export -----------------------------------------------------------------------


@bp.get("/groups/<int:group_id>/export/bgstats")
def export_bgstats(group_id: int):
    """Every finished play as a BG Stats backup file (member)."""
    access = _access(group_id)
    data = bgstats.export_bgstats(db.session(), access.group)
    response = jsonify(data)
    response.headers["Content-Disposition"] = \
        f'attachment; filename="scribe-group-{group_id}-bgstats.json"'
    return response


@bp.get("/groups/<int:group_id>/export/csv")
def export_csv(group_id: int):
    """Every finished play as CSV, one row per seat (member)."""
    access = _access(group_id)
    return Response(bgstats.export_csv(db.session(), access.group),
                    mimetype="text/csv",
                    headers={"Content-Disposition":
                             f'attachment; filename="scribe-group-{group_id}-plays.csv"'})


@bp.post("/groups/<int:group_id>/import/bgstats")
@body_limit_of(bgstats.MAX_IMPORT_BYTES + 64 * 1024)       # room for a form's own bytes
def import_bgstats(group_id: int):
    """Import a BG Stats backup (admin): the file as the body, or as the ``file`` field of a
    form; ``actor`` as a form field or ``?actor=``. Answers with what was imported and every
    skipped entry with its reason; a file that cannot be read imports nothing (413 / 422).
    The plays are written in batches (a big file never holds the database): when a batch
    fails, 503 says how many plays are in, and the same file sent again imports the rest."""
    access = _access(group_id, admin=True)
    limit = bgstats.MAX_IMPORT_BYTES
    if request.content_length is not None and request.content_length > bgstats.MAX_IMPORT_REQUEST:
        return _refused(GroupProblem(413, "import.too_large",
                                     N_("The file is larger than %(max)d MB."), "file",
                                     max=limit // (1024 * 1024)))
    request.max_content_length = bgstats.MAX_IMPORT_REQUEST
    actor = request.args.get("actor")
    if request.mimetype == "multipart/form-data":
        upload = request.files.get("file")
        actor = request.form.get("actor", actor)
        if upload is None:
            return _refused(GroupProblem(422, "import.no_file",
                                         N_("Choose the BG Stats backup file."), "file"))
        data = upload.read(limit + 1)
    else:
        data = request.get_data(cache=False)
    try:
        report = bgstats.import_bgstats(db.session(), access.group, data, actor)
    except bgstats.ImportRefused as refused:
        return _refused(refused)
    except bgstats.ImportInterrupted as interrupted:    # the batches before it are in
        body = violation_body(interrupted)
        body.update(interrupted.report.as_dict(_))
        return jsonify(body), interrupted.status
    return _json(report.as_dict(_))


def _refused(problem: GroupProblem):
    body = violation_body(problem)
    body.update({"imported": 0, "skipped": [], "warnings": []})
    return jsonify(body), problem.status
