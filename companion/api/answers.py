"""What the JSON API answers on success, declared once per endpoint (issue 21): the status, the
media type and the JSON Schema of the body, which the OpenAPI document (:mod:`.openapi`) shows
and the suite's schemathesis run checks against every real answer.

Each object lists the entries it always has (``required``); an answer may carry more (a game's
own state, a future entry), so objects stay open. A table's ``state`` and ``prompts`` are the
game's own (``Ruleset.view`` and ``Ruleset.prompts``): objects here.
"""

from __future__ import annotations

from typing import Any

STR: dict[str, Any] = {"type": "string"}
INT: dict[str, Any] = {"type": "integer"}
NUM: dict[str, Any] = {"type": "number"}
BOOL: dict[str, Any] = {"type": "boolean"}
OBJECT: dict[str, Any] = {"type": "object"}
ANY: dict[str, Any] = {}


def maybe(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` or null."""
    return {"anyOf": [schema, {"type": "null"}]}


def array(items: dict[str, Any]) -> dict[str, Any]:
    return {"type": "array", "items": items}


def obj(**properties: dict[str, Any]) -> dict[str, Any]:
    """An object that always has each of ``properties`` (and may have more)."""
    return {"type": "object", "required": sorted(properties), "properties": properties}


def mapping(values: dict[str, Any]) -> dict[str, Any]:
    """An object keyed by names (a game's id, a seat) whose values are all ``values``."""
    return {"type": "object", "additionalProperties": values}


GROUP = obj(id=INT, name=STR)
PERSON = obj(player_id=INT, name=STR)
STANDING = obj(player_id=INT, name=STR, position=INT, plays=INT, provisional=BOOL,
               rating=NUM, mu=NUM, sigma=NUM)
PROVISIONAL = obj(max_sigma=NUM, min_plays=INT)
PLAY = obj(table_id=STR, game=STR, played_at=STR, location=maybe(STR), voided=BOOL,
           players=array(OBJECT))
PLAY_DETAIL = obj(
    table_id=STR, game=STR, mode=STR, status=STR, played_at=STR, location=maybe(STR),
    notes=maybe(STR), voided=BOOL, voided_at=maybe(STR), final_document=maybe(OBJECT),
    players=array(obj(player_id=INT, name=STR, seat_name=STR, position=INT,
                      total=maybe(INT), rank=maybe(INT), winner=BOOL, breakdown=OBJECT)))
SCORESHEET = obj(game=STR, complete=BOOL, winners=array(STR),
                 players=array(obj(name=STR, total=INT, rank=INT, breakdown=OBJECT)))
SEAT = obj(seat=INT, name=STR, taken=BOOL, generation=INT, cohost=BOOL)
PHONE_VIEW = obj(version=INT, state=OBJECT, prompts=OBJECT)
TABLE = obj(version=INT, status=STR, state=OBJECT, prompts=OBJECT, seats_version=INT,
            seats=array(SEAT), undo_request=maybe(OBJECT), awaiting=array(INT),
            to_act=maybe(INT), scores=maybe(OBJECT))
HOLDERS = obj(value=ANY, holders=array(OBJECT))
IMPORT_REPORT = obj(imported=INT, skipped=array(OBJECT), warnings=array(OBJECT))

JSON = "application/json"

# endpoint -> (status of success, media type, schema); a list when either of two statuses
# answers (201 when something was made, 200 when it was there already).
ANSWERS: dict[str, list[tuple[str, str, dict[str, Any]]]] = {
    "api.games": [("200", JSON, obj(games=array(obj(
        id=STR, names=mapping(STR), player_counts=array(INT),
        live_player_counts=array(INT), capabilities=array(STR)))))],
    "api.score": [("200", JSON, SCORESHEET)],
    # live tables
    "api.open_table": [("201", JSON, obj(id=STR, code=STR, join_url=STR, host_token=STR,
                                         version=INT))],
    "api.claim_seat": [("200", JSON, obj(seat=INT, seat_token=STR, version=INT))],
    "api.rejoin_link": [("200", JSON, obj(seat=INT, token=STR, rejoin_url=STR))],
    "api.rejoin": [("200", JSON, obj(seat=INT, seat_token=STR))],
    "api.cohost": [("200", JSON, obj(seat=INT, cohost=BOOL))],
    "api.host_link": [("200", JSON, obj(token=STR, host_url=STR))],
    "api.take_host": [("200", JSON, obj(host_token=STR))],
    "api.read_table": [("200", JSON, TABLE)],
    "api.submit_move": [("200", JSON, PHONE_VIEW)],
    "api.draw": [("200", JSON, PHONE_VIEW)],
    "api.undo": [("200", JSON, PHONE_VIEW)],
    "api.request_undo": [("201", JSON, obj(undo_request=OBJECT))],
    "api.refuse_undo": [("200", JSON, obj(undo_request={"type": "null"}))],
    "api.events": [("200", "text/event-stream", {
        "description": "Server-Sent Events, each as schemathesis and OpenAPI 3.2 read them: "
        "`version` (its `id` the table's version) whenever the table changes, `seats` when "
        "its seats or requests change, `alive` between (each with the version last told); "
        "the stream opens with the reconnect delay (`retry`).",
        "type": "object", "properties": {
            "event": {"enum": ["version", "seats", "alive"]}, "id": {"type": "string"},
            "retry": {"type": "integer"},
            "data": {"type": "string", "contentMediaType": "application/json",
                     "contentSchema": obj(version=INT)}}})],
    # groups
    "api.open_group": [("201", JSON, obj(id=INT, name=STR, invite_token=STR,
                                         admin_token=STR))],
    "api.read_group": [("200", JSON, obj(
        group=obj(id=INT, name=STR, role=STR, created_at=STR), members=array(PERSON),
        play_count=INT, recent_plays=array(PLAY), provisional_rule=PROVISIONAL,
        leaders=obj(overall=array(STANDING), games=mapping(array(STANDING))),
        titles=obj(champions=mapping(OBJECT), nemeses=OBJECT, pharaoh=array(ANY))))],
    "api.rename_group": [("200", JSON, obj(id=INT, name=STR, role=STR))],
    "api.revoke_invite": [("200", JSON, obj(invite_token=STR))],
    "api.replace_admin_token": [("200", JSON, obj(admin_token=STR))],
    "api.audit": [("200", JSON, obj(entries=array(obj(
        id=INT, action=STR, actor=maybe(STR), created_at=STR, table_id=maybe(STR),
        details=maybe(OBJECT)))))],
    "api.list_players": [("200", JSON, obj(players=array(obj(
        player_id=INT, name=STR, plays=INT, wins=INT))))],
    "api.join": [("201", JSON, obj(player_id=INT, name=STR, created=BOOL)),
                 ("200", JSON, obj(player_id=INT, name=STR, created=BOOL))],
    "api.read_player": [("200", JSON, obj(
        group=GROUP, player=PERSON, ratings=mapping(STANDING), rating_history=array(OBJECT),
        recent_plays=array(PLAY), stats=obj(plays=INT, wins=INT, win_rate=NUM,
                                           games=mapping(OBJECT)),
        titles=OBJECT))],
    "api.rename_player": [("200", JSON, PERSON)],
    "api.merge_players": [("200", JSON, PERSON)],
    "api.list_plays": [("200", JSON, obj(plays=array(PLAY)))],
    "api.record_play": [("201", JSON, PLAY_DETAIL), ("200", JSON, PLAY_DETAIL)],
    "api.read_play": [("200", JSON, {**PLAY_DETAIL, "required": sorted(
        [*PLAY_DETAIL["required"], "bgstats_url"]), "properties": {
            **PLAY_DETAIL["properties"], "bgstats_url": maybe(STR)}})],
    "api.void_play": [("200", JSON, PLAY_DETAIL)],
    "api.unvoid_play": [("200", JSON, PLAY_DETAIL)],
    "api.correct_play": [("200", JSON, PLAY_DETAIL)],
    "api.list_editions": [("200", JSON, obj(editions=mapping(OBJECT)))],
    "api.read_edition": [("200", JSON, obj(game=STR, format=STR, values=OBJECT,
                                           in_force=OBJECT, defaults=array(STR),
                                           missing=array(STR)))],
    "api.save_edition": [("200", JSON, obj(game=STR, values=OBJECT))],
    "api.ladder": [("200", JSON, obj(group=GROUP, game=STR, games=array(STR),
                                     rated_plays=INT, provisional_rule=PROVISIONAL,
                                     standings=array(STANDING)))],
    "api.game_records": [("200", JSON, obj(group=GROUP, game=STR, standings=array(STANDING),
                                           recent_plays=array(PLAY), records=OBJECT,
                                           champion=maybe(HOLDERS)))],
    "api.head_to_head": [("200", JSON, obj(
        group=GROUP, a=PERSON, b=PERSON, plays=INT, a_wins=INT, b_wins=INT, ties=INT,
        games=mapping(OBJECT), history=array(OBJECT)))],
    "api.export_bgstats": [("200", JSON, obj(players=array(OBJECT), games=array(OBJECT),
                                             plays=array(OBJECT), locations=array(OBJECT)))],
    "api.export_csv": [("200", "text/csv", {
        "type": "string", "description": "One row per seat of every finished play, with a "
        "header row."})],
    "api.import_bgstats": [("200", JSON, IMPORT_REPORT)],
}

# OpenAPI links: what an answer leads to, so that a client (or a stateful test) can go on from
# it: a table opened leads to its first seat (every table has one) and to what its host may
# do, a seat claimed to the table and its moves, a group opened to what its id and admin token
# are enough for. endpoint -> {name:
# (target endpoint, target method, parameters, request body)}; parameters are runtime
# expressions on the answer (``path.``, ``query.`` or ``header.`` before the name), or
# constants. Each link takes its token from the answer itself (a link can name only declared
# parameters of the request, and a bearer token is no parameter).
_HOST = "Bearer {$response.body#/host_token}"
_SEAT = "Bearer {$response.body#/seat_token}"
_ADMIN = "Bearer {$response.body#/admin_token}"
_SAME_TABLE = {"path.table_id": "$request.path.table_id"}
_NEXT = {"version": "$response.body#/version"}
_AS_SEAT = {**_SAME_TABLE, "header.Authorization": _SEAT}
_TABLE_OPENED = {"path.table_id": "$response.body#/id"}
_AS_HOST = {**_TABLE_OPENED, "header.Authorization": _HOST}
_GROUP_OPENED = {"path.group_id": "$response.body#/id", "header.Authorization": _ADMIN}
# what a group's id and admin token are enough for (the rest also name a player, a play or a
# game, which the answer to opening the group cannot give; replacing the admin token would
# leave the opening's token, and so its links, dead)
_GROUP_CALLS = ("read_group", "rename_group", "revoke_invite", "audit", "list_players", "join",
                "list_plays", "list_editions", "ladder", "export_bgstats", "export_csv",
                "import_bgstats")
_METHODS = {"rename_group": "patch", "revoke_invite": "post", "join": "post",
            "import_bgstats": "post"}


def _title(name: str) -> str:
    return "".join(word.title() for word in name.split("_"))


LINKS: dict[str, dict[str, tuple]] = {
    "api.open_table": {
        "ClaimFirstSeat": ("api.claim_seat", "post", {**_TABLE_OPENED, "path.position": "0"},
                           None),
        "ReadTableAsHost": ("api.read_table", "get", _AS_HOST, None),
        "HostLink": ("api.host_link", "post", _AS_HOST, None),
        "RejoinLink": ("api.rejoin_link", "post", {**_AS_HOST, "path.position": "0"}, None),
        "Cohost": ("api.cohost", "post", {**_AS_HOST, "path.position": "0"}, {"on": True}),
        "HostUndo": ("api.undo", "post", _AS_HOST, _NEXT)},
    "api.claim_seat": {
        "ReadTableAsSeat": ("api.read_table", "get", _AS_SEAT, None),
        "SubmitMove": ("api.submit_move", "post", _AS_SEAT, _NEXT),
        "Draw": ("api.draw", "post", _AS_SEAT, _NEXT),
        "Undo": ("api.undo", "post", _AS_SEAT, _NEXT),
        "RequestUndo": ("api.request_undo", "post", _AS_SEAT, _NEXT),
        "RefuseUndo": ("api.refuse_undo", "delete", _AS_SEAT, None)},
    "api.rejoin": {"ReadTableAsSeat": ("api.read_table", "get", _AS_SEAT, None)},
    "api.take_host": {"ReadTableAsHost": ("api.read_table", "get", {
        **_SAME_TABLE, "header.Authorization": _HOST}, None)},
    "api.host_link": {"TakeHost": ("api.take_host", "post", _SAME_TABLE,
                                   {"token": "$response.body#/token"})},
    "api.rejoin_link": {"Rejoin": ("api.rejoin", "post", _SAME_TABLE,
                                   {"token": "$response.body#/token"})},
    "api.open_group": {_title(name): (f"api.{name}", _METHODS.get(name, "get"), _GROUP_OPENED,
                                      None)
                       for name in _GROUP_CALLS},
}
