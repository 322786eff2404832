"""Groups and their players, without passwords: tokens, membership, recording and fixing plays.

A group is opened by anyone and answers with two tokens, shown once and never stored (only
their SHA-256 hashes are kept, like the live tables' tokens):

* the **invite token** (member rights): read the group, join it, record plays;
* the **admin token** (member rights and more): rename the group and players, merge duplicate
  players, void / unvoid / correct plays, import, revoke the invite (which replaces it).

Every admin change writes an :class:`AuditEntry` naming the actor (the name the admin typed),
the action, and the details before and after. Recording a play and joining are audited too.

Names (groups, players, locations) are data: whitespace is collapsed, nothing is escaped here;
the pages escape them and the API returns them as given. Within each group player names are
unique, compared case-insensitively, so a seat can be linked to a player by name.

Refusals raise :class:`GroupProblem` (a TableProblem: status, stable code, translatable message,
field), which the API turns into ``{"error", "message", "field"}``.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from sqlmodel import Session, col, delete, select

from ..collation import sort_key
from ..guard import DB_INT_MAX, text_problem
from ..models import (AuditEntry, GameTable, Group, GroupMembership, Player, Result, Seat,
                      TableMode, TableStatus, utcnow)
from ..rules import get_ruleset
from ..rules.base import N_, Ruleset, competition_ranks
from .scoring import score_to_keep
from .group_audit import audit, commit, history_changed
from .live_tables import TableProblem
from .tokens import hash_token, new_token

GROUP_NAME_MAX = 80
PLAYER_NAME_MAX = 40
ACTOR_MAX = 80
LOCATION_MAX = 120
REASON_MAX = 200
MEMBER = "member"
ADMIN = "admin"


class GroupProblem(TableProblem):
    """A refusal from the group service, with the HTTP status it deserves."""


# --------------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------------


def clean_text(value: Any, field: str, max_length: int, required: bool = True) -> str | None:
    """Collapse whitespace; refuse non-text, empty (when required) or too long values."""
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise GroupProblem(422, "schema.not_text", N_("This must be text."), field)
    problem = text_problem(value)
    if problem is not None:
        raise GroupProblem(422, problem.code, problem.message, field)
    text = " ".join(value.split())
    if not text:
        if required:
            raise GroupProblem(422, "schema.empty", N_("This must not be empty."), field)
        return None
    if len(text) > max_length:
        raise GroupProblem(422, "schema.too_long", N_("At most %(max)d characters."), field,
                           max=max_length)
    return text


def clean_actor(actor: Any, default: str = ADMIN) -> str:
    """Who is making a change, as they typed it (default "admin" / "member")."""
    if actor is None or (isinstance(actor, str) and not actor.strip()):
        return default
    return clean_text(actor, "actor", ACTOR_MAX) or default


def name_key(name: str) -> str:
    """How names are compared: whitespace collapsed, case folded."""
    return " ".join(name.split()).casefold()


def ruleset_or_none(game: str) -> Ruleset | None:
    """The game's ruleset, or None for a game Scribe does not know (an imported play)."""
    try:
        return get_ruleset(game)
    except KeyError:
        return None


# --------------------------------------------------------------------------------------------
# Groups and tokens
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OpenedGroup:
    group: Group
    invite_token: str
    admin_token: str


@dataclass(frozen=True)
class Access:
    """A group and what the presented token allows in it."""

    group: Group
    role: str          # MEMBER or ADMIN

    @property
    def is_admin(self) -> bool:
        return self.role == ADMIN


def open_group(session: Session, name: Any) -> OpenedGroup:
    """Open a group; the two tokens are returned once and only their hashes are kept."""
    clean = clean_text(name, "name", GROUP_NAME_MAX)
    invite, admin = new_token(), new_token()
    group = Group(name=clean, created_at=utcnow(), invite_token_hash=hash_token(invite),
                  admin_token_hash=hash_token(admin))
    session.add(group)
    commit(session)
    return OpenedGroup(group, invite, admin)


def role_for(group: Group, token: str | None) -> str | None:
    """ADMIN, MEMBER or None for ``token`` in ``group`` (constant-time comparisons)."""
    if not token:
        return None
    return _role_for_digest(group.admin_token_hash, group.invite_token_hash,
                            hash_token(token))


def _role_for_digest(admin_hash: str | None, invite_hash: str | None,
                     digest: str) -> str | None:
    """Both comparisons always run, whatever matches, so the time taken tells nothing."""
    is_admin = secrets.compare_digest(digest, admin_hash or _NO_HASH)
    is_member = secrets.compare_digest(digest, invite_hash or _NO_HASH)
    return ADMIN if is_admin else MEMBER if is_member else None


_NO_HASH = "0" * 64          # compared against when there is no group or no token


def _no_such_group() -> GroupProblem:
    return GroupProblem(404, "group.not_found",
                        N_("There is no such group, or this needs its invite or admin link."))


def authorize(session: Session, group_id: Any, token: str | None,
              admin: bool = False) -> Access:
    """The group and the bearer's role, or a refusal.

    A group that does not exist, no token, and a token that is not (or no longer) this
    group's all get the same answer — 404 ``group.not_found``, one message — after the same
    work (one lookup by id, one hash, two constant-time comparisons), so that sequential
    group ids reveal nothing (issue 10). Only a member learns more: an invite token where the
    admin is needed is 403 ``group.admin_needed``."""
    group = session.get(Group, group_id) if isinstance(group_id, int) else None
    digest = hash_token(token or "")
    role = _role_for_digest(group.admin_token_hash if group else None,
                            group.invite_token_hash if group else None, digest)
    if group is None or not token or role is None:
        raise _no_such_group()
    if admin and role != ADMIN:
        raise GroupProblem(403, "group.admin_needed",
                           N_("Only the group's admin link can do this."))
    return Access(group, role)


def group_for_token(session: Session, token: str | None) -> Access | None:
    """The group an invite or admin token opens (for pages reached by link), or None."""
    if not token:
        return None
    digest = hash_token(token)
    group = session.exec(select(Group).where(
        (Group.invite_token_hash == digest) | (Group.admin_token_hash == digest))).first()
    if group is None:
        return None
    role = role_for(group, token)
    return Access(group, role) if role else None


def rename_group(session: Session, group: Group, name: Any, actor: Any = None) -> Group:
    """Rename the group (admin); audited with the old and new name."""
    clean = clean_text(name, "name", GROUP_NAME_MAX)
    before = group.name
    group.name = clean
    session.add(group)
    audit(session, group, clean_actor(actor), "rename_group",
           {"before": {"name": before}, "after": {"name": clean}})
    commit(session)
    return group


def revoke_invite(session: Session, group: Group, actor: Any = None) -> str:
    """Replace the invite token (admin): the old link stops working at once."""
    token = new_token()
    group.invite_token_hash = hash_token(token)
    session.add(group)
    audit(session, group, clean_actor(actor), "revoke_invite", {"token": "invite"})
    commit(session)
    return token


def replace_admin_token(session: Session, group: Group, actor: Any = None) -> str:
    """Replace the admin token (admin), e.g. after it was shared by mistake."""
    token = new_token()
    group.admin_token_hash = hash_token(token)
    session.add(group)
    audit(session, group, clean_actor(actor), "replace_admin", {"token": "admin"})
    commit(session)
    return token


def audit_log(session: Session, group_id: int, limit: int = 200) -> list[AuditEntry]:
    """The group's audit entries, newest first."""
    return list(session.exec(select(AuditEntry).where(AuditEntry.group_id == group_id)
                             .order_by(col(AuditEntry.created_at).desc(),
                                       col(AuditEntry.id).desc()).limit(limit)).all())


# --------------------------------------------------------------------------------------------
# Players
# --------------------------------------------------------------------------------------------


def members(session: Session, group_id: int) -> list[Player]:
    """The group's players, by name."""
    players = session.exec(select(Player).join(
        GroupMembership, col(GroupMembership.player_id) == col(Player.id))
        .where(GroupMembership.group_id == group_id)).all()
    return sorted(players, key=lambda p: (sort_key(p.name), p.id))   # the reader's alphabet


def is_member(session: Session, group_id: int, player_id: int) -> bool:
    return session.get(GroupMembership, (group_id, player_id)) is not None


def member(session: Session, group_id: int, player_id: Any) -> Player:
    """A player of the group, or 404."""
    player = session.get(Player, player_id) if isinstance(player_id, int) else None
    if player is None or not is_member(session, group_id, player.id):
        raise GroupProblem(404, "player.not_found", N_("There is no such player in this group."))
    return player


def _groups_of(session: Session, player_id: int) -> list[int]:
    return list(session.exec(select(GroupMembership.group_id)
                             .where(GroupMembership.player_id == player_id)).all())


def _name_clash(session: Session, group_ids: Sequence[int], name: str,
                except_ids: Sequence[int] = ()) -> Player | None:
    """Another member of one of ``group_ids`` already called ``name`` (any case)."""
    key = name_key(name)
    for group_id in group_ids:
        for other in members(session, group_id):
            if other.id not in except_ids and name_key(other.name) == key:
                return other
    return None


def _name_taken(field: str) -> GroupProblem:
    return GroupProblem(409, "player.name_taken",
                        N_("Another player of the group already has this name."), field)


def _add_member(session: Session, group: Group, player: Player) -> None:
    if not is_member(session, group.id, player.id):
        session.add(GroupMembership(group_id=group.id, player_id=player.id))


def join_group(session: Session, group: Group, name: Any = None, player_id: Any = None,
               proof_token: str | None = None) -> tuple[Player, bool]:
    """Join the group (invite link) as a new player called ``name`` — or as the member already
    called that, which is returned unchanged — or, with ``player_id``, as a player of another
    group, proved by a token of that other group. Returns (player, created)."""
    if player_id is not None:
        player = session.get(Player, player_id) if isinstance(player_id, int) else None
        proof = group_for_token(session, proof_token)
        if player is None or proof is None or not is_member(session, proof.group.id, player.id):
            raise GroupProblem(403, "group.bad_proof",
                               N_("To join as a player of another group, show that group's "
                                  "link."), "proof_token")
        if is_member(session, group.id, player.id):
            return player, False
        if _name_clash(session, [group.id], player.name):
            raise _name_taken("player_id")
        _add_member(session, group, player)
        history_changed(session, [group.id], rewrite=False)     # one more name
        audit(session, group, player.name, "join",
               {"player_id": player.id, "name": player.name, "from_group": proof.group.id})
        commit(session)
        return player, True
    clean = clean_text(name, "name", PLAYER_NAME_MAX)
    existing = _name_clash(session, [group.id], clean)
    if existing is not None:
        return existing, False
    player = Player(name=clean, created_at=utcnow())
    session.add(player)
    session.flush()
    _add_member(session, group, player)
    history_changed(session, [group.id], rewrite=False)         # one more name
    audit(session, group, clean, "join", {"player_id": player.id, "name": clean})
    commit(session)
    return player, True


def rename_player(session: Session, group: Group, player_id: Any, name: Any,
                  actor: Any = None) -> Player:
    """Rename a player (admin). The name must stay unique in every group the player is in;
    the names written at past tables stay as they were."""
    player = member(session, group.id, player_id)
    clean = clean_text(name, "name", PLAYER_NAME_MAX)
    if _name_clash(session, _groups_of(session, player.id), clean, except_ids=[player.id]):
        raise _name_taken("name")
    before = player.name
    player.name = clean
    session.add(player)
    history_changed(session, _groups_of(session, player.id))
    audit(session, group, clean_actor(actor), "rename_player",
           {"player_id": player.id, "before": {"name": before}, "after": {"name": clean}})
    commit(session)
    return player


def merge_players(session: Session, group: Group, keep_id: Any, merge_id: Any,
                  actor: Any = None) -> Player:
    """Merge a duplicate into the kept player (admin): every seat of the duplicate, in every
    group, moves to the kept player; the kept player joins every group the duplicate was in;
    the duplicate is deleted. Refused when the two sat at the same table (two people), when
    they are the same player, or when the kept name is already taken in a group it joins."""
    keep = member(session, group.id, keep_id)
    dup = member(session, group.id, merge_id)
    if keep.id == dup.id:
        raise GroupProblem(422, "player.merge_self", N_("Choose two different players."),
                           "merge")
    keep_tables = set(session.exec(select(Seat.table_id).where(Seat.player_id == keep.id)).all())
    dup_seats = list(session.exec(select(Seat).where(Seat.player_id == dup.id)).all())
    if any(seat.table_id in keep_tables for seat in dup_seats):
        raise GroupProblem(409, "player.sat_together",
                           N_("These two played at the same table, so they are two people."),
                           "merge")
    keep_groups = set(_groups_of(session, keep.id))
    new_groups = [g for g in _groups_of(session, dup.id) if g not in keep_groups]
    history_changed(session, keep_groups | set(new_groups) | set(session.exec(
        select(GameTable.group_id).where(col(GameTable.id).in_(
            [seat.table_id for seat in dup_seats]))).all()))
    if _name_clash(session, new_groups, keep.name, except_ids=[keep.id, dup.id]):
        raise _name_taken("keep")
    for seat in dup_seats:
        seat.player_id = keep.id
        session.add(seat)
    for group_id in new_groups:
        session.add(GroupMembership(group_id=group_id, player_id=keep.id))
    session.flush()
    session.execute(delete(GroupMembership).where(col(GroupMembership.player_id) == dup.id))
    details = {"kept": {"id": keep.id, "name": keep.name},
               "merged": {"id": dup.id, "name": dup.name},
               "seats_moved": len(dup_seats), "groups_joined": sorted(new_groups)}
    session.delete(dup)
    audit(session, group, clean_actor(actor), "merge", details)
    commit(session)
    return keep


# --------------------------------------------------------------------------------------------
# Plays: record (attach a table), void, unvoid, correct
# --------------------------------------------------------------------------------------------


def group_table(session: Session, group: Group, table_id: Any) -> GameTable:
    """A table (play) of this group, or 404."""
    table = session.get(GameTable, table_id) if isinstance(table_id, str) and table_id else None
    if table is None or table.group_id != group.id:
        raise GroupProblem(404, "play.not_found", N_("There is no such play in this group."))
    return table


def _seats(session: Session, table: GameTable) -> list[Seat]:
    return list(session.exec(select(Seat).where(Seat.table_id == table.id)
                             .order_by(Seat.position)).all())


def _clean_links(links: Any, seats: Sequence[Seat]) -> dict[int, int]:
    """``{"position": player_id}`` as ints, for positions that exist."""
    if links is None:
        return {}
    if not isinstance(links, Mapping):
        raise GroupProblem(422, "play.bad_links",
                           N_("Links must map seat positions to player ids."), "links")
    positions = {seat.position for seat in seats}
    clean: dict[int, int] = {}
    for key, value in links.items():
        try:
            position = int(key)
        except (TypeError, ValueError):
            position = -1
        if position not in positions:
            raise GroupProblem(422, "play.no_such_seat", N_("There is no such seat."),
                               f"links.{key}")
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            raise GroupProblem(422, "play.bad_links",
                               N_("Links must map seat positions to player ids."),
                               f"links.{key}")
        clean[position] = value
    return clean


def _drop_if_orphan(session: Session, player_id: int) -> None:
    """Delete a player nobody refers to any more (made for one seat, then linked away)."""
    if session.exec(select(Seat.id).where(Seat.player_id == player_id)).first() is not None:
        return
    if session.exec(select(GroupMembership.group_id)
                    .where(GroupMembership.player_id == player_id)).first() is not None:
        return
    player = session.get(Player, player_id)
    if player is not None:
        session.delete(player)


_UNSET: Any = object()


def may_record(session: Session, table: GameTable, table_token: str | None) -> bool:
    """Whether ``table_token`` lets its bearer add ``table`` to a group: a live table's host
    token or one of its seats' tokens; a score-only game's keeper token (the phone that saved
    it). Issue 10: membership of some group is not enough to take any table into it."""
    if not table_token or not isinstance(table_token, str):
        return False
    digest = hash_token(table_token)
    if table.mode == TableMode.LIVE.value:
        if secrets.compare_digest(digest, table.host_token_hash or _NO_HASH):
            return True
        return session.exec(select(Seat.id).where(Seat.table_id == table.id,
                                                  Seat.token_hash == digest)).first() is not None
    return secrets.compare_digest(digest, table.keeper_hash or _NO_HASH)


def record_play(session: Session, group: Group, table_id: Any, links: Any = None,
                location: Any = _UNSET, actor: Any = None,
                table_token: str | None = None) -> GameTable:
    """Attach a finished table to the group (invite link) and link its seats to players.

    The first time, the caller must also hold the table: ``table_token`` is its host's or a
    seat's token (live), or the keeper's token of the phone that saved it (score-only);
    otherwise the answer is the same 404 as for a table that does not exist. Re-linking a
    play already in the group needs the group's link only.

    Each seat is linked to: the player given in ``links`` (``{position: player_id}``, a member);
    else its own player if already a member; else the member with the same name (any case);
    else its own player, who joins the group. A player may not hold two seats. Recording a
    table again (same group) re-links and may change the location; a table of another group
    is refused. Only finished tables can be recorded (unfinished ones would count nowhere).
    """
    table = session.get(GameTable, table_id) if isinstance(table_id, str) and table_id else None
    if table is None or (table.group_id != group.id
                         and not may_record(session, table, table_token)):
        raise GroupProblem(404, "play.no_table", N_(
            "There is no such table, or this phone (or token) is not at it."), "table")
    if table.group_id is not None and table.group_id != group.id:
        raise GroupProblem(409, "play.other_group",
                           N_("This table belongs to another group."), "table")
    if table.status != TableStatus.FINISHED.value:
        raise GroupProblem(409, "play.not_finished",
                           N_("Only a finished game can be added to the group's history."),
                           "table")
    seats = [seat for seat in _seats(session, table) if not seat.automated]  # people only
    wanted = _clean_links(links, seats)
    by_name = {name_key(p.name): p for p in members(session, group.id)}
    targets: dict[int, int] = {}
    for seat in seats:
        if seat.position in wanted:
            targets[seat.position] = member(session, group.id, wanted[seat.position]).id
        elif is_member(session, group.id, seat.player_id):
            targets[seat.position] = seat.player_id
        elif name_key(seat.name) in by_name:
            targets[seat.position] = by_name[name_key(seat.name)].id
        else:
            targets[seat.position] = seat.player_id
    if len(set(targets.values())) != len(targets):
        raise GroupProblem(422, "play.same_player_twice",
                           N_("One player cannot sit in two seats."), "links")
    clean_location = table.location
    if location is not _UNSET:
        clean_location = clean_text(location, "location", LOCATION_MAX, required=False)
    joining = [seat for seat in seats if targets[seat.position] == seat.player_id
               and not is_member(session, group.id, seat.player_id)]
    for seat in joining:        # checked before anything changes
        player = session.get(Player, seat.player_id)
        if player is None or _name_clash(session, [group.id], player.name):
            raise _name_taken(f"links.{seat.position}")
    changed: list[dict[str, Any]] = []
    orphans = []
    try:
        for seat in seats:
            target = targets[seat.position]
            if target != seat.player_id:
                changed.append({"position": seat.position, "before": seat.player_id,
                                "after": target})
                orphans.append(seat.player_id)
                seat.player_id = target
                session.add(seat)
        for seat in joining:
            session.add(GroupMembership(group_id=group.id, player_id=seat.player_id))
        session.flush()
        for player_id in orphans:
            _drop_if_orphan(session, player_id)
    except Exception:
        session.rollback()
        raise
    first = table.group_id is None
    # a play new to the group only adds to its history; relinking one rewrites it
    history_changed(session, [group.id], rewrite=not first)
    if first:
        table.group_version = group.history_version
    table.group_id = group.id
    table.location = clean_location
    session.add(table)
    audit(session, group, clean_actor(actor, MEMBER), "record" if first else "relink",
           {"links": changed, "location": clean_location,
            "players": [targets[s.position] for s in seats]}, table.id)
    commit(session)
    return table


def void_play(session: Session, group: Group, table_id: Any, actor: Any = None,
              reason: Any = None) -> GameTable:
    """Void a play (admin): it stays in the list, marked, and counts nowhere."""
    table = group_table(session, group, table_id)
    if table.voided_at is not None:
        raise GroupProblem(409, "play.already_voided", N_("This play is already voided."))
    clean_reason = clean_text(reason, "reason", REASON_MAX, required=False)
    table.voided_at = utcnow()
    session.add(table)
    history_changed(session, [group.id])
    audit(session, group, clean_actor(actor), "void",
           {"before": {"voided": False}, "after": {"voided": True,
                                                  "voided_at": table.voided_at.isoformat()},
            "reason": clean_reason}, table.id)
    commit(session)
    return table


def unvoid_play(session: Session, group: Group, table_id: Any, actor: Any = None) -> GameTable:
    """Count a voided play again (admin)."""
    table = group_table(session, group, table_id)
    if table.voided_at is None:
        raise GroupProblem(409, "play.not_voided", N_("This play is not voided."))
    before = table.voided_at.isoformat()
    table.voided_at = None
    session.add(table)
    history_changed(session, [group.id])
    audit(session, group, clean_actor(actor), "unvoid",
           {"before": {"voided": True, "voided_at": before}, "after": {"voided": False}},
           table.id)
    commit(session)
    return table


def _result_lines(session: Session, seats: Sequence[Seat]) -> list[dict[str, Any]]:
    results = {r.seat_id: r for r in session.exec(
        select(Result).where(col(Result.seat_id).in_([s.id for s in seats]))).all()}
    return [{"position": s.position, "name": s.name, "player_id": s.player_id,
             "total": results[s.id].total if s.id in results else None,
             "rank": results[s.id].rank if s.id in results else None} for s in seats]


def results_only_document(game: str, players: Sequence[Mapping[str, Any]],
                          extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The final document kept for a play known only by its scores and ranks (an import, or a
    game Scribe cannot score yet)."""
    document: dict[str, Any] = {"game": game, "results_only": True,
                                "players": [dict(p) for p in players]}
    if extra:
        document.update(extra)
    return document


def _score_results_only(document: Mapping[str, Any], seats: Sequence[Seat]
                        ) -> list[dict[str, Any]]:
    """Check ``{"results_only": true, "players": [{"score", "rank"?, "name"?}]}``: one entry
    per seat, whole-number scores; ranks all given (positive) or all derived from the scores
    (higher is better, ties share: 1, 2, 2, 4)."""
    players = document.get("players")
    if not isinstance(players, list) or len(players) != len(seats):
        raise GroupProblem(422, "play.seat_count",
                           N_("The correction must list every seat of the play, in order."),
                           "players")
    lines = []
    for index, (entry, seat) in enumerate(zip(players, seats)):
        field = f"players.{index}"
        if not isinstance(entry, Mapping):
            raise GroupProblem(422, "schema.not_object",
                               N_("This must be an object with named entries."), field)
        score = entry.get("score")
        if isinstance(score, bool) or not isinstance(score, int):
            raise GroupProblem(422, "schema.not_integer", N_("This must be a whole number."),
                               f"{field}.score")
        if abs(score) > DB_INT_MAX:          # Results are 32-bit integers on PostgreSQL
            raise GroupProblem(422, "schema.too_large", N_("At most %(max)d."),
                               f"{field}.score", max=DB_INT_MAX)
        rank = entry.get("rank")
        if rank is not None and (isinstance(rank, bool) or not isinstance(rank, int)
                                 or not 1 <= rank <= DB_INT_MAX):
            raise GroupProblem(422, "play.bad_rank", N_("A rank is a whole number from 1."),
                               f"{field}.rank")
        name = entry.get("name", seat.name)
        name = clean_text(name, f"{field}.name", PLAYER_NAME_MAX)
        lines.append({"name": name, "score": score, "rank": rank})
    given = [line["rank"] is not None for line in lines]
    if any(given) and not all(given):
        raise GroupProblem(422, "play.bad_rank",
                           N_("Give every seat a rank, or none (then the scores decide)."),
                           "players")
    if not any(given):
        for line, rank in zip(lines, competition_ranks([(line["score"],) for line in lines])):
            line["rank"] = rank
    return lines


def correct_play(session: Session, group: Group, table_id: Any, document: Any,
                 actor: Any = None) -> GameTable:
    """Replace a score-only play's final document and re-score it (admin).

    With a registered game the document is the game's final-state document and is scored
    by ``get_ruleset(game).score_final(document)`` (InvalidDocument when it is wrong); it must
    be a complete game with as many players as the play has seats. A play known only by its
    results (imported, or a game without a ruleset) is corrected with
    ``{"results_only": true, "players": [{"score", "rank"?, "name"?}, ...]}``. Seats keep their
    players; the names written at the table follow the document. Live tables are refused:
    their result comes from the move log (void them instead).
    """
    table = group_table(session, group, table_id)
    if table.mode == TableMode.LIVE.value:
        raise GroupProblem(409, "play.live_not_correctable",
                           N_("A live table's result comes from its moves; void it instead."))
    if table.status != TableStatus.FINISHED.value:
        raise GroupProblem(409, "play.not_finished",
                           N_("Only a finished game can be added to the group's history."))
    if not isinstance(document, Mapping):
        raise GroupProblem(422, "score.not_object", N_("The document must be a JSON object."))
    seats = _seats(session, table)
    before = {"final_document": table.final_document, "results": _result_lines(session, seats)}
    old = table.final_document or {}
    if document.get("results_only") is True:
        lines = _score_results_only(document, seats)
        keep = {k: old[k] for k in ("source", "uuid") if k in old}
        new_document = results_only_document(table.game, lines, keep)
        results = [(line["name"], line["score"], line["rank"], {"categories": [],
                                                                "stage_totals": []})
                   for line in lines]
    else:
        ruleset = ruleset_or_none(table.game)
        if ruleset is None:
            raise GroupProblem(422, "play.no_ruleset",
                               N_("Scribe cannot score this game yet; correct its results "
                                  "instead (results_only)."), "results_only")
        new_document = dict(document)
        new_document.setdefault("game", table.game)
        if new_document.get("game") != table.game:
            raise GroupProblem(422, "play.other_game",
                               N_("The document is for another game than the play."), "game")
        sheet = score_to_keep(ruleset, new_document)    # InvalidDocument when wrong
        if not sheet.complete:
            raise GroupProblem(422, "play.incomplete",
                               N_("A correction must describe the finished game."))
        if len(sheet.players) != len(seats):
            raise GroupProblem(422, "play.seat_count",
                               N_("The correction must list every seat of the play, in order."),
                               "players")
        results = [(line.name, line.total, line.rank, line.as_dict()["breakdown"])
                   for line in sheet.players]
    session.execute(delete(Result).where(col(Result.seat_id).in_([s.id for s in seats])))
    for seat, (name, total, rank, breakdown) in zip(seats, results):
        seat.name = name
        session.add(seat)
        session.add(Result(seat_id=seat.id, total=total, rank=rank, breakdown=breakdown))
    table.final_document = new_document
    session.add(table)
    history_changed(session, [group.id])
    session.flush()
    audit(session, group, clean_actor(actor), "correct",
           {"before": before, "after": {"final_document": new_document,
                                        "results": _result_lines(session, seats)}}, table.id)
    commit(session)
    return table


__all__ = ["ADMIN", "Access", "GroupProblem", "MEMBER", "OpenedGroup",
           "audit_log", "authorize", "clean_actor", "clean_text", "correct_play",
           "group_for_token", "group_table", "is_member", "join_group", "may_record", "member",
           "members", "merge_players", "name_key", "open_group", "record_play", "rename_group",
           "rename_player", "replace_admin_token", "results_only_document", "revoke_invite",
           "role_for", "ruleset_or_none", "unvoid_play", "void_play"]
