"""Live tables (design.md §3): open a table, seats and tokens, the move log, replay, undo.

A table is its options + setup + seats + an append-only move log. The state is the replay of
the log (cached per version, never trusted over the log). Every submission names the version
it saw and an idempotency key: a retry gets the first answer back; a stale version is refused;
the version is bumped by a conditional UPDATE inside the move's transaction, so two phones can
never both apply a move to the same state, on SQLite or PostgreSQL alike.

A change is announced where it is committed (design.md §3): every function here that commits a
new version or a change of seats or requests tells the watching phones (:mod:`.broker`) right
after its commit, so no view has to remember to.

A move (:func:`submit_move`, :func:`draw_for`) and what it reads (:func:`state_at`,
:func:`phone_view`) need no ORM: they take the request's Session or a plain Core
``Connection`` (the API's move runs on one: no Session to open, begin, commit and close), and
the table as the ORM object or a :class:`LiveTable` row.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from sqlalchemy import Connection, and_, bindparam, insert, or_, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import defer
from sqlalchemy.orm.attributes import set_committed_value
from sqlmodel import Session, col, delete, func, select

from ..db import Prepared, writing
from ..guard import text_problem
from ..models import (GameTable, Move, Player, Result, Seat, TableMode, TableStatus, utcnow)
from ..rules import get_ruleset
from ..rules.base import (Capability, Edition, InvalidDocument, N_, RuleViolation, Ruleset,
                          check_document, normalise_options, offers, resolve_edition)
from . import broker
from .scoring import result_rows
from .tokens import hash_token, new_token

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"     # no 0/O, 1/I/L: easy to read aloud
CODE_LENGTH = 6
NAME_MAX = 40
HOST = "host"


class TableProblem(RuleViolation):
    """A refusal from the table service, with the HTTP status it deserves."""

    def __init__(self, status: int, code: str, message: str, field: str | None = None,
                 **params: Any):
        super().__init__(code, message, field, **params)
        self.status = status


class StaleVersion(Exception):
    """The move was made against an older version; here is the current one."""

    def __init__(self, version: int):
        super().__init__(version)
        self.version = version


def new_code() -> str:
    """A new six-letter join code (easy to read aloud)."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


# --------------------------------------------------------------------------------------------
# State cache: (table id, version) -> state. The log decides; the cache only saves replays.
# Each server process has its own, so a table whose moves alternate between processes finds
# an older version here, not the one asked for: the moves since are replayed onto it (see
# _replayed_since) instead of the whole log.
# --------------------------------------------------------------------------------------------

_CACHE: "OrderedDict[tuple[str, int], dict[str, Any]]" = OrderedDict()
_NEWEST: dict[str, int] = {}          # table id -> the newest version in _CACHE
_CACHE_LOCK = threading.Lock()
_CACHE_SIZE = 1024


def _cached(table_id: str, version: int) -> dict[str, Any] | None:
    with _CACHE_LOCK:
        state = _CACHE.get((table_id, version))
        if state is not None:
            _CACHE.move_to_end((table_id, version))
        return state


def _remember(table_id: str, version: int, state: dict[str, Any]) -> None:
    with _CACHE_LOCK:
        _CACHE[(table_id, version)] = state
        _CACHE.move_to_end((table_id, version))
        if version > _NEWEST.get(table_id, -1):
            _NEWEST[table_id] = version
        while len(_CACHE) > _CACHE_SIZE:
            (gone_table, gone_version), _state = _CACHE.popitem(last=False)
            if _NEWEST.get(gone_table) == gone_version:
                del _NEWEST[gone_table]


def _newest_before(table_id: str, version: int) -> tuple[int, dict[str, Any]] | None:
    """The newest cached (version, state) of ``table_id`` older than ``version``."""
    with _CACHE_LOCK:
        newest = _NEWEST.get(table_id)
        if newest is None or newest >= version:
            return None
        state = _CACHE.get((table_id, newest))
        return None if state is None else (newest, state)


# --------------------------------------------------------------------------------------------
# The statements of every move request, built once: building and cache-keying SQLAlchemy
# expressions per request costs more than running them (benchmarks/bench_moves.py); the
# three every move runs are handed to the driver as compiled (db.Prepared).
# --------------------------------------------------------------------------------------------

_TABLE_BY_ID = select(GameTable).where(col(GameTable.id) == bindparam("table_id"))
# A table and the position of the seat a token opens, in one round trip (the move path).
_TABLE_AND_SEAT = (select(GameTable, col(Seat.position))
                   .outerjoin(Seat, and_(col(Seat.table_id) == col(GameTable.id),
                                         col(Seat.token_hash) == bindparam("token_hash")))
                   .where(col(GameTable.id) == bindparam("table_id"))
                   .options(defer(GameTable.final_document), defer(GameTable.notes)))
# The same for a move (and a read), without the ORM: one plain row of the columns it reads
# (building a GameTable object costs as much as the rest of the move; :class:`LiveTable`).
_LIVE_COLUMNS = ("id", "game", "mode", "status", "version", "undo_floor", "options", "setup",
                 "edition", "host_token_hash", "seats_version", "undo_request", "group_id")
_TABLE_COLUMNS = [GameTable.__table__.c[name] for name in _LIVE_COLUMNS]
_LIVE_TABLE = select(*_TABLE_COLUMNS).where(GameTable.__table__.c.id == bindparam("table_id"))
_LIVE_TABLE_AND_SEAT = Prepared(select(*_TABLE_COLUMNS, Seat.__table__.c.position)
                                .outerjoin(Seat.__table__, and_(
                                    Seat.__table__.c.table_id == GameTable.__table__.c.id,
                                    Seat.__table__.c.token_hash == bindparam("token_hash")))
                                .where(GameTable.__table__.c.id == bindparam("table_id")))
_SEAT_BY_TOKEN = select(Seat).where(col(Seat.table_id) == bindparam("table_id"),
                                    col(Seat.token_hash) == bindparam("token_hash"))
_MOVE_BY_KEY = select(Move.__table__.c.version, Move.__table__.c.move).where(
    Move.__table__.c.table_id == bindparam("table_id"),
    Move.__table__.c.idempotency_key == bindparam("key"))
_GAME_TABLE, _MOVE = GameTable.__table__, Move.__table__
_BUMP_VERSION = Prepared(update(_GAME_TABLE)
                         .where(_GAME_TABLE.c.id == bindparam("table_id"),
                                _GAME_TABLE.c.version == bindparam("expected"))
                         .values(version=bindparam("next")))
_SET_UNDO_FLOOR = (update(_GAME_TABLE).where(_GAME_TABLE.c.id == bindparam("table_id"))
                   .values(undo_floor=bindparam("floor")))
# Append a move with the next seq of its table, in one statement (one round trip fewer than
# reading the last seq first; the version bump before it already holds the table's lock).
_APPEND_MOVE = Prepared(insert(_MOVE).from_select(
    ["table_id", "seq", "seat", "move", "idempotency_key", "version", "created_at"],
    select(bindparam("table_id", type_=_MOVE.c.table_id.type),
           func.coalesce(func.max(_MOVE.c.seq), 0) + 1,
           bindparam("seat", type_=_MOVE.c.seat.type),
           bindparam("move", type_=_MOVE.c.move.type),
           bindparam("idempotency_key", type_=_MOVE.c.idempotency_key.type),
           bindparam("version", type_=_MOVE.c.version.type),
           bindparam("created_at", type_=_MOVE.c.created_at.type))
    .where(_MOVE.c.table_id == bindparam("table_id", type_=_MOVE.c.table_id.type))))
# The seats' names and ids in seat order; the log up to a version, in log order (a replay).
_SEAT_NAMES = (select(Seat.__table__.c.id, Seat.__table__.c.name)
               .where(Seat.__table__.c.table_id == bindparam("table_id"))
               .order_by(Seat.__table__.c.position))
_LOG_UPTO = (select(_MOVE.c.seat, _MOVE.c.move, _MOVE.c.undone_version)
             .where(_MOVE.c.table_id == bindparam("table_id"),
                    _MOVE.c.version <= bindparam("upto"))
             .order_by(_MOVE.c.seq))
_ADD_RESULT = insert(Result.__table__)
# The log entries that made or undid a version in (after, upto], in log order.
# (With several server processes, a move often finds the state one version behind: prepared.)
_CHANGES_SINCE = Prepared(
    select(_MOVE.c.seat, _MOVE.c.move, _MOVE.c.version, _MOVE.c.undone_version)
    .where(_MOVE.c.table_id == bindparam("table_id"),
           or_(and_(_MOVE.c.version > bindparam("after"), _MOVE.c.version <= bindparam("upto")),
               and_(_MOVE.c.undone_version > bindparam("after"),
                    _MOVE.c.undone_version <= bindparam("upto"))))
    .order_by(_MOVE.c.seq))


# --------------------------------------------------------------------------------------------
# Opening a table and taking seats
# --------------------------------------------------------------------------------------------


def _ruleset(game: Any) -> Ruleset:
    try:
        ruleset = get_ruleset(game) if isinstance(game, str) else None
    except KeyError:
        ruleset = None
    if ruleset is None or not offers(ruleset, Capability.LIVE):
        raise TableProblem(422, "table.unknown_game", N_("Unknown game “%(game)s”."), "game",
                           game=str(game)[:40])
    return ruleset


def _refusal(violation: RuleViolation, status: int = 422) -> TableProblem:
    return TableProblem(status, violation.code, violation.message, violation.field,
                        **violation.params)


def clean_options(ruleset: Ruleset, options: Any) -> dict[str, Any]:
    """The table's options: every declared option with its default; a wrong or unknown one is
    refused naming ``options.<key>``."""
    if options is not None and not isinstance(options, Mapping):
        raise TableProblem(422, "table.bad_options", N_("Options must be an object."),
                           "options")
    try:
        return normalise_options(ruleset, options)
    except InvalidDocument as invalid:
        raise _refusal(invalid.first) from None


def clean_setup(ruleset: Ruleset, players: int, setup: Any) -> dict[str, Any]:
    """The physical start as the game's set-up schema describes it (default: the game's
    default set-up); a wrong entry is refused naming ``setup.<path>``."""
    if setup is None:
        return ruleset.default_setup(players)
    if not isinstance(setup, Mapping):
        raise TableProblem(422, "table.bad_setup", N_("Setup must be an object."), "setup")
    clean, violations = check_document(ruleset.setup_schema(players), setup)
    if violations:
        first = violations[0]
        raise TableProblem(422, first.code, first.message, _setup_field(first.field),
                           **first.params)
    return clean


def _setup_field(field: str | None) -> str:
    if not field:
        return "setup"
    return field if field.startswith(("setup", "options.", "edition.", "players")) \
        else f"setup.{field}"


def table_edition(ruleset: Ruleset, entered: Mapping[str, Any] | None) -> Edition:
    """The edition in force: the entered values over the game's declared defaults."""
    try:
        return resolve_edition(ruleset.edition, entered)
    except InvalidDocument as invalid:
        raise _refusal(invalid.first) from None


def _bad_player_count(counts: Sequence[int], count: int) -> TableProblem:
    return TableProblem(422, "table.bad_player_count",
                        N_("This game is played live by %(low)d to %(high)d players, not "
                           "%(count)d."), "players", low=min(counts), high=max(counts),
                        count=count)


def clean_names(names: Any, counts: Sequence[int]) -> list[str]:
    """The players' names, tidied; a list longer than the game allows is refused before any
    name is read (issue 21: bounded work), two equal names (ignoring case) are refused."""
    if not isinstance(names, list) or not names:
        raise TableProblem(422, "table.bad_players", N_("List the players by name."),
                           "players")
    if len(names) > max(counts):
        raise _bad_player_count(counts, len(names))
    clean: list[str] = []
    seen: set[str] = set()
    for index, name in enumerate(names):
        field = f"players.{index}"
        if not isinstance(name, str) or not name.strip():
            raise TableProblem(422, "schema.empty", N_("This must not be empty."), field)
        problem = text_problem(name)
        if problem is not None:
            raise TableProblem(422, problem.code, problem.message, field)
        name = " ".join(name.split())
        if len(name) > NAME_MAX:
            raise TableProblem(422, "schema.too_long", N_("At most %(max)d characters."),
                               field, max=NAME_MAX)
        if name.casefold() in seen:
            raise TableProblem(422, "table.duplicate_name",
                               N_("Two players cannot have the same name."), field)
        seen.add(name.casefold())
        clean.append(name)
    if len(clean) not in counts:
        raise _bad_player_count(counts, len(clean))
    return clean


@dataclass(frozen=True)
class OpenedTable:
    table: GameTable
    host_token: str


def open_table(session: Session, game: Any, options: Any, names: Any,
               setup: Mapping[str, Any] | None = None, location: str | None = None,
               edition: Mapping[str, Any] | None = None) -> OpenedTable:
    """Open a live table; the game's own setup check runs first, so nothing is written for
    a table that could not be played. ``edition`` holds the printed values entered for this
    copy (a group's copy, or the host's); the rest are the game's defaults."""
    ruleset = _ruleset(game)
    clean = clean_options(ruleset, options)
    players = clean_names(names, ruleset.catalogue.live_player_counts)
    setup = clean_setup(ruleset, len(players), setup)
    if edition is not None and not isinstance(edition, Mapping):
        raise TableProblem(422, "table.bad_edition", N_("The edition must be an object."),
                           "edition")
    entered = dict(edition or {})
    try:
        state = ruleset.setup(clean, players, setup, table_edition(ruleset, entered))
    except RuleViolation as violation:
        raise TableProblem(422, violation.code, violation.message,
                           _setup_field(violation.field), **violation.params) from None
    host_token = new_token()
    for _attempt in range(20):
        table = GameTable(game=ruleset.id, mode=TableMode.LIVE.value,
                          status=TableStatus.PLAYING.value, options=clean, setup=setup,
                          edition={"entered": entered} if entered else None,
                          code=new_code(), host_token_hash=hash_token(host_token),
                          location=location or None)
        try:
            session.add(table)
            session.flush()
            colours = ruleset.seat_colours(setup)
            for position, name in enumerate(players):
                player = Player(name=name)
                session.add(player)
                session.flush()
                session.add(Seat(table_id=table.id, position=position, player_id=player.id,
                                 name=name, color=colours[position]
                                 if position < len(colours) else None))
            session.commit()
            break
        except IntegrityError:      # the join code was taken meanwhile: draw another
            session.rollback()
    else:  # pragma: no cover - 31^6 codes
        raise TableProblem(503, "table.no_code", N_("Try again in a moment."))
    _remember(table.id, 0, state)
    return OpenedTable(table, host_token)


def entered_edition(table: GameTable | LiveTable) -> dict[str, Any]:
    """The edition values entered for ``table`` (empty: every value is the default)."""
    return dict((table.edition or {}).get("entered") or {})


def get_table(session: Session, table_id: str) -> GameTable:
    table = (session.execute(_TABLE_BY_ID, {"table_id": table_id}).scalars().first()
             if table_id else None)
    if table is None or table.mode != TableMode.LIVE.value:
        raise TableProblem(404, "table.not_found", N_("There is no such table."))
    return table


def table_and_seat(session: Session, table_id: str,
                   token: str | None) -> tuple[GameTable, int | None]:
    """The live table and the seat position ``token`` opens (None if it opens none)."""
    row = (session.execute(_TABLE_AND_SEAT, {"table_id": table_id,
                                             "token_hash": hash_token(token or "")}).first()
           if table_id else None)
    if row is None or row[0].mode != TableMode.LIVE.value:
        raise TableProblem(404, "table.not_found", N_("There is no such table."))
    return row[0], row[1]


class LiveTable:
    """A live table as a move reads it: the columns of :data:`_LIVE_COLUMNS`, from one plain
    row, no ORM object. What a move writes for it is written by Core statements and mirrored
    here (:func:`_mirror`); the services that change seats or undo take the ORM object."""

    __slots__ = _LIVE_COLUMNS

    def __init__(self, *values: Any) -> None:
        for name, value in zip(_LIVE_COLUMNS, values):
            setattr(self, name, value)


def live_table_and_seat(session: Session | Connection, table_id: str,
                        token: str | None) -> tuple[LiveTable, int | None]:
    """:func:`table_and_seat` for a move or a read: the table as a :class:`LiveTable`."""
    row = (_LIVE_TABLE_AND_SEAT.first(_core(session), {
        "table_id": table_id, "token_hash": hash_token(token or "")}) if table_id else None)
    if row is None or row[2] != TableMode.LIVE.value:
        raise TableProblem(404, "table.not_found", N_("There is no such table."))
    return LiveTable(*row), row[-1]


def _mirror(table: GameTable | LiveTable, **values: Any) -> None:
    """Tell ``table`` what was just written for it (no reload; an ORM object is not left with
    changes to flush)."""
    for name, value in values.items():
        if isinstance(table, LiveTable):
            setattr(table, name, value)
        else:
            set_committed_value(table, name, value)


def _reload(session: Session | Connection, table: GameTable | LiveTable) -> None:
    """Read ``table`` again (another phone changed it)."""
    if isinstance(table, LiveTable):
        row = _core(session).execute(_LIVE_TABLE, {"table_id": table.id}).first()
        _mirror(table, **dict(zip(_LIVE_COLUMNS, row)))
    else:
        session.refresh(table)


def _core(session: Session | Connection) -> Connection:
    """The Core connection of a move: the Session's own (its transaction), or the one given."""
    return session if isinstance(session, Connection) else session.connection()


def find_by_code(session: Session, code: str) -> GameTable | None:
    cleaned = "".join(code.split()).upper()
    return session.exec(select(GameTable).where(GameTable.code == cleaned)).first()


def seats(session: Session, table: GameTable | LiveTable) -> list[Seat]:
    return list(session.exec(select(Seat).where(Seat.table_id == table.id)
                             .order_by(Seat.position)).all())


def is_host(table: GameTable | LiveTable, token: str | None) -> bool:
    """Whether ``token`` is the table's host token."""
    return bool(token) and secrets.compare_digest(hash_token(token), table.host_token_hash or "")


def seat_for_token(session: Session, table: GameTable | LiveTable,
                   token: str | None) -> Seat | None:
    if not token:
        return None
    return session.execute(_SEAT_BY_TOKEN, {"table_id": table.id,
                                            "token_hash": hash_token(token)}).scalars().first()


def has_host_rights(table: GameTable | LiveTable, host_token: str | None,
                    seat: Seat | None) -> bool:
    """The host's phone, or a co-host's seat, may act for the table: undo anyone's move,
    give seats to new phones, name co-hosts, close the table."""
    return is_host(table, host_token) or bool(seat is not None and seat.cohost)


def _seat_at(session: Session, table: GameTable, position: Any) -> Seat:
    if isinstance(position, bool) or not isinstance(position, int):
        raise TableProblem(404, "table.no_such_seat", N_("There is no such seat."), "seat")
    seat = session.exec(select(Seat).where(Seat.table_id == table.id,
                                           Seat.position == position)).first()
    if seat is None:
        raise TableProblem(404, "table.no_such_seat", N_("There is no such seat."), "seat")
    return seat


def _announce(table: GameTable | LiveTable, version: int) -> None:
    """Tell the watching phones that the table is now at ``version`` (after the commit)."""
    broker.publish(table.id, version)


def _announce_seats(session: Session, table: GameTable) -> None:
    """Tell the watching phones that the seats or requests changed (after the commit): the
    host page lists them; the mover sees a request to undo."""
    session.refresh(table)
    broker.publish(table.id, table.version, table.seats_version)


def _seats_changed(session: Session, table: GameTable) -> None:
    """Count a change of seats or requests so that watching phones are told (the caller
    commits)."""
    session.execute(update(GameTable).where(col(GameTable.id) == table.id)
                    .values(seats_version=GameTable.seats_version + 1))


def _swap_seat_token(session: Session, seat: Seat, generation: int,
                     lost: tuple[str, str] | None = None) -> str:
    """Give ``seat`` a new token if it is still at ``generation`` (compare and swap): of two
    phones claiming one seat at the same moment only one is told it is theirs; the old token
    stops working. Returns the new token, or raises 409."""
    token = new_token()
    seat_row = Seat.__table__
    claimed = session.execute(
        update(seat_row)
        .where(seat_row.c.id == seat.id, seat_row.c.generation == generation)
        .values(token_hash=hash_token(token), claimed_at=utcnow(), generation=generation + 1,
                rejoin_hash=None))
    if claimed.rowcount != 1:
        session.rollback()
        code, message = lost or ("table.seat_changed",
                                 N_("Someone else took this seat a moment ago; look again."))
        raise TableProblem(409, code, message, "seat")
    return token


def _release(session: Session, table: GameTable, seat: Seat | None, keep: int) -> None:
    """A phone that moves to another seat gives its old one back (never leaving a seat held
    by a token nobody has)."""
    if seat is None or seat.position == keep:
        return
    session.execute(update(Seat).where(col(Seat.id) == seat.id)
                    .values(token_hash=None, generation=Seat.generation + 1, cohost=False))


def _open_for_seats(table: GameTable) -> None:
    if table.status not in (TableStatus.PLAYING.value, TableStatus.OPEN.value):
        raise TableProblem(409, "table.closed", N_("This table is closed."))


def claim_seat(session: Session, table: GameTable, position: Any, *, host: bool = False,
               generation: Any = None, current: Seat | None = None) -> str:
    """Give seat ``position`` to this phone (a new seat token). A free seat goes to anyone; a
    taken one only by the host (or a co-host), who names the ``generation`` it saw so that a
    reassignment is a compare and swap — twelve host devices reassigning one seat at once get
    one success. ``current`` is the seat this phone held, given back."""
    _open_for_seats(table)
    seat = _seat_at(session, table, position)
    if seat.token_hash:
        if not host:
            raise TableProblem(409, "table.seat_taken",
                               N_("This seat is taken. Ask the host to show its rejoin code."),
                               "seat")
        if isinstance(generation, bool) or not isinstance(generation, int):
            raise TableProblem(422, "table.generation_needed",
                               N_("Say which claim of the seat you are replacing "
                                  "(its generation)."), "generation")
        if generation != seat.generation:
            raise TableProblem(409, "table.seat_changed",
                               N_("Someone else took this seat a moment ago; look again."),
                               "generation")
    token = _swap_seat_token(session, seat, seat.generation, None if seat.token_hash else (
        "table.seat_taken", N_("This seat is taken. Ask the host to show its rejoin code.")))
    _release(session, table, current, seat.position)
    _seats_changed(session, table)
    session.commit()
    session.expire_all()
    _announce_seats(session, table)
    return token


def rejoin_link(session: Session, table: GameTable, position: Any) -> str:
    """A one-time token that moves seat ``position`` to whichever phone opens its link (the
    host shows it as a QR code); a newer link replaces it."""
    _open_for_seats(table)
    seat = _seat_at(session, table, position)
    token = new_token()
    seat.rejoin_hash = hash_token(token)
    session.add(seat)
    session.commit()
    return token


def rejoin(session: Session, table: GameTable, token: str | None,
           current: Seat | None = None) -> tuple[int, str]:
    """Take the seat a rejoin link names: the seat gets a new token (the old phone's stops
    working) and the link is used up. Returns (position, seat token)."""
    _open_for_seats(table)
    seat = session.exec(select(Seat).where(Seat.table_id == table.id,
                                           Seat.rejoin_hash == hash_token(token or ""))
                        ).first() if token else None
    if seat is None:
        raise TableProblem(403, "table.rejoin_used",
                           N_("This rejoin code was used already or replaced by a newer one. "
                              "Ask the host for a new one."))
    new = _swap_seat_token(session, seat, seat.generation)
    _release(session, table, current, seat.position)
    _seats_changed(session, table)
    session.commit()
    session.expire_all()
    _announce_seats(session, table)
    return seat.position, new


def set_cohost(session: Session, table: GameTable, position: Any, on: bool) -> None:
    """Give (or take back) the host's rights to a seat's phone."""
    seat = _seat_at(session, table, position)
    seat.cohost = bool(on)
    session.add(seat)
    _seats_changed(session, table)
    session.commit()
    _announce_seats(session, table)


def host_link(session: Session, table: GameTable) -> str:
    """A one-time token that makes the phone opening its link the host (to hand the role
    over, or to recover it when the host's phone is gone); a newer link replaces it."""
    token = new_token()
    table.recovery_hash = hash_token(token)
    session.add(table)
    session.commit()
    return token


def take_host(session: Session, table: GameTable, token: str | None) -> str:
    """Use a host link: this phone becomes the host (a new host token; the old host phone
    and the link stop working). Returns the new host token."""
    if not token or not secrets.compare_digest(hash_token(token), table.recovery_hash or ""):
        raise TableProblem(403, "table.host_link_used",
                           N_("This host link was used already or replaced by a newer one."))
    host_token = new_token()
    taken = session.execute(update(GameTable)
                            .where(col(GameTable.id) == table.id,
                                   col(GameTable.recovery_hash) == hash_token(token))
                            .values(host_token_hash=hash_token(host_token), recovery_hash=None,
                                    seats_version=GameTable.seats_version + 1))
    if taken.rowcount != 1:
        session.rollback()
        raise TableProblem(403, "table.host_link_used",
                           N_("This host link was used already or replaced by a newer one."))
    session.commit()
    _announce_seats(session, table)
    return host_token


def request_undo(session: Session, table: GameTable, seat: int, version: Any) -> None:
    """Any seat may ask to undo the last move; the player who made it, or the host, decides
    (the request names the version it saw and lapses when the table moves on)."""
    if isinstance(version, bool) or not isinstance(version, int):
        raise TableProblem(422, "table.bad_version",
                           N_("Say which version of the table the move was made on."),
                           "version")
    if version != table.version:
        raise StaleVersion(table.version)
    if not _active_moves(session, table, table.version):
        raise TableProblem(409, "table.nothing_to_undo", N_("There is no move to undo."))
    table.undo_request = {"seat": seat, "version": version}
    session.add(table)
    _seats_changed(session, table)
    session.commit()
    _announce_seats(session, table)


def open_undo_request(table: GameTable | LiveTable) -> dict[str, Any] | None:
    """The seat's request to undo, while it still names the current version."""
    request = table.undo_request
    if request and request.get("version") == table.version:
        return request
    return None


def refuse_undo(session: Session, table: GameTable) -> None:
    """The player who moved (or the host) keeps the move: the request is withdrawn."""
    table.undo_request = None
    session.add(table)
    _seats_changed(session, table)
    session.commit()
    _announce_seats(session, table)


def close_table(session: Session, table: GameTable) -> int:
    """The host ends a table that will not be finished; its log stays. Closing takes a
    version like a move does, so watching phones are told and a move racing the close on the
    old version is refused as stale. Returns the table's version."""
    if table.status == TableStatus.PLAYING.value:
        version = _bump_version(session, table, table.version)
        session.execute(update(GameTable).where(col(GameTable.id) == table.id)
                        .values(status=TableStatus.ABANDONED.value, code=None))
        session.commit()
        session.refresh(table)
        _announce(table, version)
        return version
    return table.version


# --------------------------------------------------------------------------------------------
# The log, replay and moves
# --------------------------------------------------------------------------------------------


def in_effect(move: Any, version: int) -> bool:
    """Whether a log entry (made by ``version``) is in effect then: not undone by then."""
    return move.undone_version is None or move.undone_version > version


def _active_moves(session: Session, table: GameTable, version: int) -> list[Move]:
    """The moves in effect at ``version``: made by then, and not undone by then."""
    moves = session.exec(select(Move).where(Move.table_id == table.id,
                                            Move.version <= version)
                         .order_by(Move.seq)).all()
    return [m for m in moves if in_effect(m, version)]


def starting_state(session: Session | Connection, table: GameTable | LiveTable,
                   ruleset: Ruleset) -> Any:
    """The table's state before its first move: its seats, options, set-up and edition."""
    names = [row.name for row in _core(session).execute(_SEAT_NAMES, {"table_id": table.id})]
    return ruleset.setup(table.options, names, table.setup or {},
                         resolve_edition(ruleset.edition, entered_edition(table)))


def state_at(session: Session | Connection, table: GameTable | LiveTable,
             version: int | None = None) -> dict[str, Any]:
    """The state at ``version`` (default: the table's current version), by replay."""
    version = table.version if version is None else version
    cached = _cached(table.id, version)
    if cached is not None:
        return cached
    ruleset = get_ruleset(table.game)
    state = _replayed_since(session, table, ruleset, version)
    if state is None:
        state = starting_state(session, table, ruleset)
        for move in _core(session).execute(_LOG_UPTO, {"table_id": table.id, "upto": version}):
            if in_effect(move, version):
                state = ruleset.apply(state, move.seat, move.move)
    _remember(table.id, version, state)
    return state


def _replayed_since(session: Session | Connection, table: GameTable | LiveTable,
                    ruleset: Ruleset,
                    version: int) -> dict[str, Any] | None:
    """The state at ``version`` from a cached older one, or None to replay the whole log.

    The log up to the cached version ``u`` never changes, except by undos, which take
    versions of their own. So when no undo took a version in (u, version], the moves in effect
    at ``version`` are those in effect at ``u`` followed by the moves made in (u, version]:
    applying these to the state at ``u`` gives what the whole replay would."""
    earlier = _newest_before(table.id, version)
    if earlier is None:
        return None
    since, state = earlier
    changes = _CHANGES_SINCE.all(_core(session), {"table_id": table.id, "after": since,
                                                  "upto": version})
    if any(undone is not None and since < undone <= version for *_, undone in changes):
        return None
    for seat, move, _version, _undone in changes:
        state = ruleset.apply(state, seat, move)
    return state


@dataclass(frozen=True)
class Accepted:
    version: int
    state: dict[str, Any]
    replayed: bool = False       # True when an earlier answer was returned for a retry


def _bump_version(session: Session | Connection, table: GameTable | LiveTable,
                  expected: int) -> int:
    """Take the next version, or StaleVersion if someone else took it first."""
    # Core statements go to the session's connection (same transaction): the ORM layer of
    # Session.execute has nothing to add to them and costs more than they do.
    changed = _BUMP_VERSION.run(_core(session), {"table_id": table.id, "expected": expected,
                                                 "next": expected + 1})
    if changed != 1:
        session.rollback()
        _reload(session, table)
        raise StaleVersion(table.version)
    return expected + 1


def _recorded(session: Session | Connection, table: GameTable | LiveTable,
              idempotency_key: str, move: Any = None) -> Accepted | None:
    """The first answer to a move already recorded under ``idempotency_key``, if any. The
    same key with a different move is refused: a key names one move, never two."""
    earlier = _core(session).execute(_MOVE_BY_KEY, {"table_id": table.id,
                                                    "key": idempotency_key}).first()
    if earlier is None:
        return None
    if move is not None and earlier.move != move:
        raise TableProblem(422, "table.key_reused",
                           N_("This idempotency key was used for another move; each move "
                              "needs a key of its own."), "idempotency_key")
    return Accepted(earlier.version, state_at(session, table, earlier.version), True)


MAX_REBASES = 8     # concurrent moves of one simultaneous step, re-checked one after another


def _rebase_allowed(session: Session | Connection, table: GameTable | LiveTable,
                    ruleset: Ruleset, seat: int, seen: int) -> bool:
    """A move made on version ``seen`` of a simultaneous step may be re-checked on the table's
    current version if the step is still the same and this seat is still awaited in it (the
    game guarantees that the awaited seats' moves in one step commute; design.md §2)."""
    if not 0 <= seen < table.version:
        return False
    now = ruleset.awaiting(state_at(session, table))
    if now.step is None or seat not in now.seats:
        return False
    then = ruleset.awaiting(state_at(session, table, seen))
    return then.step == now.step and seat in then.seats


def submit_move(session: Session | Connection, table: GameTable | LiveTable, seat: int,
                move: Any, version: Any, idempotency_key: Any) -> Accepted:
    """Referee and record one move (the API's POST .../moves).

    A retry carries an idempotency key already recorded; it gets the first answer back (the
    same key with another move is refused). The key is looked up only on the way to a
    refusal (a retry always names a version that is no longer current) and, on the way to
    success, the unique (table, key) constraint catches the rest, so an accepted move costs no
    extra query. In a simultaneous step a move made on an older version of the same step is
    re-checked on the fresh state instead of being refused (:func:`_rebase_allowed`)."""
    if not isinstance(idempotency_key, str) or not 1 <= len(idempotency_key) <= 80:
        raise TableProblem(422, "table.bad_idempotency_key",
                           N_("Each move needs an idempotency key (1 to 80 characters)."),
                           "idempotency_key")

    def refuse(problem: Exception) -> Accepted:
        earlier = _recorded(session, table, idempotency_key, move)
        if earlier is not None:
            return earlier
        raise problem

    if isinstance(version, bool) or not isinstance(version, int):
        return refuse(TableProblem(422, "table.bad_version",
                                   N_("Say which version of the table the move was made on."),
                                   "version"))
    ruleset = get_ruleset(table.game)
    for _attempt in range(MAX_REBASES):
        if table.status != TableStatus.PLAYING.value:
            return refuse(TableProblem(409, "table.not_playing",
                                       N_("This table is not being played.")))
        current = table.version
        if version != current:
            earlier = _recorded(session, table, idempotency_key, move)
            if earlier is not None:
                return earlier
            if not _rebase_allowed(session, table, ruleset, seat, version):
                raise StaleVersion(current)
        state = state_at(session, table, current)
        try:
            new_state = ruleset.apply(state, seat, move)
        except RuleViolation as violation:
            status = 403 if violation.code in ruleset.out_of_turn_codes else 422
            return refuse(TableProblem(status, violation.code, violation.message,
                                       violation.field, **violation.params))
        try:
            with writing(session):      # from the first write to the commit (db.WriterQueue)
                new_version = _bump_version(session, table, current)
                written: dict[str, Any] = {"version": new_version}
                _APPEND_MOVE.run(_core(session), {
                    "table_id": table.id, "seat": seat, "move": move,
                    "idempotency_key": idempotency_key, "version": new_version,
                    "created_at": utcnow()})
                if ruleset.is_over(new_state):
                    written.update(_finish(session, table, ruleset, new_state))
                floor = ruleset.undo_floor(new_state)
                if floor > table.undo_floor:        # a correction window closed for good
                    _core(session).execute(_SET_UNDO_FLOOR, {"table_id": table.id,
                                                             "floor": floor})
                    written["undo_floor"] = floor
                session.commit()
        except StaleVersion:
            continue        # another phone moved meanwhile: look again (retry or rebase)
        except IntegrityError:
            # The key was recorded already (a retry racing its original, or a key used twice).
            session.rollback()
            earlier = _recorded(session, table, idempotency_key, move)
            if earlier is None:
                raise
            return earlier
        _mirror(table, **written)      # no reload: we know what we wrote
        _remember(table.id, new_version, new_state)
        _announce(table, new_version)
        return Accepted(new_version, new_state)
    raise StaleVersion(table.version)


def draw_for(session: Session | Connection, table: GameTable | LiveTable, seat: int, version: Any,
             idempotency_key: Any) -> Accepted:
    """The app draws the physical outcome the table awaits (a tile, a card) for a table that
    plays without the physical draw, and records it as ``seat``'s move. A retry under the
    same key gets the first draw back, never a second one."""
    if isinstance(idempotency_key, str):
        earlier = _recorded(session, table, idempotency_key)
        if earlier is not None:
            return earlier
    ruleset = get_ruleset(table.game)
    chance = ruleset.chance(state_at(session, table))
    if chance is None:
        raise TableProblem(409, "table.nothing_to_draw", N_("Nothing is to be drawn now."))
    if seat not in chance.seats:
        raise TableProblem(403, f"{ruleset.id}.not_your_turn",
                           N_("Someone else draws now."))
    move = chance.draw(_DRAWS)
    return submit_move(session, table, seat, move, version, idempotency_key)


_DRAWS = secrets.SystemRandom()        # the app's draws: unpredictable, like a real bag


def _finish(session: Session | Connection, table: GameTable | LiveTable, ruleset: Ruleset,
            state: Mapping[str, Any]) -> dict[str, Any]:
    """The game is over: the table is finished and every seat gets its Result (the caller
    commits). Returns what was written of the table, for :func:`_mirror` after the commit."""
    finished = {"status": TableStatus.FINISHED.value, "finished_at": utcnow(),
                "final_document": ruleset.final_document(state)}
    connection = _core(session)
    connection.execute(update(_GAME_TABLE).where(_GAME_TABLE.c.id == table.id)
                       .values(**finished))
    seat_ids = [row.id for row in connection.execute(_SEAT_NAMES, {"table_id": table.id})]
    connection.execute(_ADD_RESULT, result_rows(seat_ids, ruleset.score(state)))
    return finished if isinstance(table, GameTable) else {"status": finished["status"]}


def _undone_with(session: Session, table: GameTable, key: str) -> Accepted | None:
    """The first answer to an undo already made under ``key``, if any."""
    earlier = session.exec(select(Move).where(Move.table_id == table.id,
                                              Move.undo_key == key)).first()
    if earlier is None or earlier.undone_version is None:
        return None
    return Accepted(earlier.undone_version, state_at(session, table, earlier.undone_version),
                    True)


def undo(session: Session, table: GameTable, actor: str, version: Any,
         idempotency_key: Any) -> Accepted:
    """Undo the last move still in effect, as seen at ``version``. ``actor`` is ``"seat:N"``
    or ``"host"``: only the player who made that move, or the host (or a co-host), may undo
    it. A retry under the same ``idempotency_key`` gets the first answer (a double tap undoes
    once); a ``version`` that is no longer current is refused as stale, so a host who saw an
    older table never undoes a newer move. Several undos in a row step back."""
    if not isinstance(idempotency_key, str) or not 1 <= len(idempotency_key) <= 80:
        raise TableProblem(422, "table.bad_idempotency_key",
                           N_("Each undo needs an idempotency key (1 to 80 characters)."),
                           "idempotency_key")
    earlier = _undone_with(session, table, idempotency_key)
    if earlier is not None:
        return earlier
    if isinstance(version, bool) or not isinstance(version, int):
        raise TableProblem(422, "table.bad_version",
                           N_("Say which version of the table the move was made on."),
                           "version")
    if version != table.version:
        raise StaleVersion(table.version)
    moves = _active_moves(session, table, table.version)
    if not moves:
        raise TableProblem(409, "table.nothing_to_undo", N_("There is no move to undo."))
    last = moves[-1]
    if len(moves) <= table.undo_floor:
        raise TableProblem(409, "table.correction_closed",
                           N_("The rules no longer let this move be taken back."))
    if actor != HOST and actor != f"seat:{last.seat}":
        raise TableProblem(403, "table.undo_not_allowed",
                           N_("Only the player who made the last move, or the host, may "
                              "undo it; ask them."))
    if table.status not in (TableStatus.PLAYING.value, TableStatus.FINISHED.value):
        raise TableProblem(409, "table.not_playing", N_("This table is not being played."))
    if table.status == TableStatus.FINISHED.value and table.group_id is not None:
        # the play is in a group's history and ladder: taking the end back would silently
        # change them, so the group's admin corrects or voids the play instead (audited)
        raise TableProblem(409, "table.in_group",
                           N_("This game is in a group's history; its admin can correct or "
                              "void the play there."))
    try:
        new_version = _bump_version(session, table, version)
    except StaleVersion:
        earlier = _undone_with(session, table, idempotency_key)   # a retry that raced us
        if earlier is not None:
            return earlier
        raise
    last.undone_by, last.undone_at, last.undone_version = actor, utcnow(), new_version
    last.undo_key = idempotency_key
    session.add(last)
    if table.status == TableStatus.FINISHED.value:       # the end is taken back
        seat_ids = [s.id for s in seats(session, table)]
        session.execute(delete(Result).where(col(Result.seat_id).in_(seat_ids)))
        table.status, table.finished_at, table.final_document = (
            TableStatus.PLAYING.value, None, None)
    table.undo_request = None
    session.add(table)
    try:
        session.commit()
    except IntegrityError:      # the same undo, retried at the same moment, won the race
        session.rollback()
        return undo(session, table, actor, version, idempotency_key)
    session.refresh(table)
    _announce(table, new_version)
    return Accepted(new_version, state_at(session, table, new_version))


def move_log(session: Session, table: GameTable) -> list[Move]:
    return list(session.exec(select(Move).where(Move.table_id == table.id)
                             .order_by(Move.seq)).all())


def view(session: Session, table: GameTable | LiveTable, seat: int | None,
         state: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """What one phone sees: ``{"version", "status", "state", "awaiting", "to_act",
    "prompts", "scores"}`` (design.md §3); ``to_act`` is the first awaited seat.
    A seat sees its own prompts; a spectator (``seat=None``) sees none."""
    ruleset = get_ruleset(table.game)
    state = state if state is not None else state_at(session, table)
    show_scores = ruleset.scores_visible(state, table.options)
    awaiting = ruleset.awaiting(state)
    return {**phone_view(table, seat, state),
            "version": table.version, "status": table.status,
            "seats_version": table.seats_version,
            "seats": [{"seat": s.position, "name": s.name, "taken": bool(s.token_hash),
                       "generation": s.generation, "cohost": s.cohost}
                      for s in seats(session, table)],
            "undo_request": open_undo_request(table),
            "awaiting": sorted(awaiting.seats),
            "to_act": min(awaiting.seats) if awaiting.seats else None,
            "scores": ruleset.score(state).as_dict() if show_scores else None}


def phone_view(table: GameTable | LiveTable, seat: int | None,
               state: Mapping[str, Any]) -> dict[str, Any]:
    """The part of :func:`view` a move's answer carries: what this phone may see of the state,
    and what it may do now."""
    ruleset = get_ruleset(table.game)
    return {"state": ruleset.view(state, seat, table.options),
            "prompts": ruleset.prompts(state, seat) if seat is not None and
            table.status == TableStatus.PLAYING.value else {"moves": []}}
