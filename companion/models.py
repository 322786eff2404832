"""The database tables (SQLModel). Used by services only (design.md §1).

A Table is options + seats (+ for live play, the move log that arrives with the live-table
issue); a score-only Table also keeps the final-state document it was scored from, so that a
later correction can re-score it. Results hold the Scoresheet line of each seat.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timezone
from enum import Enum
from typing import Any, Optional

from sqlalchemy import JSON, Column, DateTime, UniqueConstraint, false as sa_false
from sqlmodel import Field, SQLModel


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def new_table_id() -> str:
    """An unguessable public id (128 bits), safe to put in a URL or a QR code, and never
    starting with "-" (which a command line would read as an option)."""
    while True:
        table_id = secrets.token_urlsafe(16)
        if not table_id.startswith("-"):
            return table_id


def _when(**kwargs: Any) -> Any:
    return Field(sa_column=Column(DateTime(timezone=True), **kwargs))


class TableMode(str, Enum):
    SCORE = "score"      # scored afterwards from a final-state document
    LIVE = "live"        # refereed move by move (live-table issue)


class TableStatus(str, Enum):
    OPEN = "open"
    PLAYING = "playing"
    FINISHED = "finished"
    ABANDONED = "abandoned"


class GroupMembership(SQLModel, table=True):
    __tablename__ = "group_membership"
    group_id: int = Field(foreign_key="player_group.id", primary_key=True)
    player_id: int = Field(foreign_key="player.id", primary_key=True)


class Group(SQLModel, table=True):
    """People who play together; a player may belong to several groups, or none.

    There are no passwords: whoever holds the invite link may record plays and join; whoever
    holds the admin link may rename, merge players, void or correct plays. Only the tokens'
    hashes are kept; revoking the invite replaces its hash.
    """

    __tablename__ = "player_group"
    id: Optional[int] = Field(default=None, primary_key=True)
    name: str = Field(max_length=80)
    created_at: datetime = _when(nullable=False, default=utcnow)
    invite_token_hash: Optional[str] = Field(default=None, max_length=64, index=True)
    admin_token_hash: Optional[str] = Field(default=None, max_length=64, index=True)
    # Raised with every change to what the group's pages are computed from (plays, their
    # seats and results, members' names): the key of the cached ladders and statistics.
    history_version: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    # The version of the last change that was more than plays added (services/group_cache.py).
    history_rewritten: int = Field(default=0, sa_column_kwargs={"server_default": "0"})


class AuditEntry(SQLModel, table=True):
    """Who changed what in a group's history (renames, merges, voids, corrections)."""

    __tablename__ = "audit_entry"
    id: Optional[int] = Field(default=None, primary_key=True)
    group_id: int = Field(foreign_key="player_group.id", index=True)
    table_id: Optional[str] = Field(default=None, foreign_key="game_table.id", max_length=32)
    actor: str = Field(max_length=80)              # e.g. "admin" or the name typed by them
    action: str = Field(max_length=32)             # rename, merge, void, unvoid, correct, import
    details: dict = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    created_at: datetime = _when(nullable=False, default=utcnow)


class GroupEdition(SQLModel, table=True):
    """A group's copy of a game: the printed values its members entered once ("our copy"),
    used by every table the group opens."""

    __tablename__ = "group_edition"
    group_id: int = Field(foreign_key="player_group.id", primary_key=True)
    game: str = Field(max_length=32, primary_key=True)
    entered: dict = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    updated_at: datetime = _when(nullable=False, default=utcnow)


class Player(SQLModel, table=True):
    __tablename__ = "player"
    id: Optional[int] = Field(default=None, primary_key=True)
    name: str = Field(max_length=80, index=True)
    created_at: datetime = _when(nullable=False, default=utcnow)


class GameTable(SQLModel, table=True):
    """One game at one table: what was played, how, where, and how it ended."""

    __tablename__ = "game_table"
    __table_args__ = (UniqueConstraint("code", name="uq_game_table_code"),)
    id: str = Field(default_factory=new_table_id, primary_key=True, max_length=32)
    game: str = Field(max_length=32, index=True)
    mode: str = Field(default=TableMode.SCORE.value, max_length=16)
    status: str = Field(default=TableStatus.OPEN.value, max_length=16, index=True)
    options: dict = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    final_document: Optional[dict] = Field(default=None, sa_column=Column(JSON))
    group_id: Optional[int] = Field(default=None, foreign_key="player_group.id", index=True)
    location: Optional[str] = Field(default=None, max_length=120)
    notes: Optional[str] = Field(default=None, max_length=2000)
    created_at: datetime = _when(nullable=False, default=utcnow, index=True)
    finished_at: Optional[datetime] = _when(nullable=True)
    # Live tables (mode "live"): how the game was set up, the short join code, the host's
    # token (its hash only), and the version: how many log entries (moves and undos) it has.
    setup: Optional[dict] = Field(default=None, sa_column=Column(JSON))
    code: Optional[str] = Field(default=None, max_length=8)
    host_token_hash: Optional[str] = Field(default=None, max_length=64)
    version: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    voided_at: Optional[datetime] = _when(nullable=True)    # a voided play leaves history
    # "Our copy" (design.md §2): the edition values entered for this table, ``{"entered":
    # {key: value}}``; every value not entered is the game's declared default.
    edition: Optional[dict] = Field(default=None, sa_column=Column(JSON))
    # Seats and hosts (issue 9): changes of seats, co-hosts and undo requests are counted so
    # that watching phones are told; a one-time link makes another phone the host; a seat's
    # open request to undo the last move, ``{"seat": n, "version": v}``.
    seats_version: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    recovery_hash: Optional[str] = Field(default=None, max_length=64)
    undo_request: Optional[dict] = Field(default=None, sa_column=Column(JSON))
    undo_floor: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    # Score-only tables (issue 10): the hash of the token kept by the phone that saved the
    # game (it may correct or delete it, and add it to a group), and the save form's
    # idempotency key, so that a double tap saves once.
    keeper_hash: Optional[str] = Field(default=None, max_length=64)
    save_key: Optional[str] = Field(default=None, max_length=80, unique=True)
    # The group's history version that added this play to it (recorded or imported): the
    # plays added since a version are read alone (services/group_cache.py).
    group_version: Optional[int] = None


class TableAudit(SQLModel, table=True):
    """What happened to a score-only game outside any group: saved, corrected, deleted.

    ``table_id`` is not a foreign key: the line of a deleted game outlives the game.
    """

    __tablename__ = "table_audit"
    id: Optional[int] = Field(default=None, primary_key=True)
    table_id: str = Field(max_length=32, index=True)
    game: str = Field(max_length=32)
    action: str = Field(max_length=16)             # save, correct, delete
    actor: str = Field(max_length=80)              # "keeper": the phone that saved the game
    details: dict = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    created_at: datetime = _when(nullable=False, default=utcnow)


class Seat(SQLModel, table=True):
    """A player's place at a table, in seat order (0 = first seat clockwise)."""

    __tablename__ = "seat"
    __table_args__ = (UniqueConstraint("table_id", "position"),)
    id: Optional[int] = Field(default=None, primary_key=True)
    table_id: str = Field(foreign_key="game_table.id", index=True, max_length=32)
    position: int
    player_id: int = Field(foreign_key="player.id", index=True)
    name: str = Field(max_length=80)       # the name as written at this table
    color: Optional[str] = Field(default=None, max_length=16)
    token_hash: Optional[str] = Field(default=None, max_length=64, index=True)
    claimed_at: Optional[datetime] = _when(nullable=True)
    generation: int = Field(default=0, sa_column_kwargs={"server_default": "0"})  # claims
    rejoin_hash: Optional[str] = Field(default=None, max_length=64, index=True)  # one-time
    cohost: bool = Field(default=False, sa_column_kwargs={"server_default": sa_false()})
    # an opponent the app played (a solo game's Traitor): kept on the saved Scoresheet, never
    # a player of a group (no link, no history, ladder or export line)
    automated: bool = Field(default=False, sa_column_kwargs={"server_default": sa_false()})


# The seats people sat in: what a group's history, lists and exports read (never the app's own
# automated rival, Seat.automated). One expression, used in ORM and Core queries alike.
PEOPLE_SEATED = Seat.__table__.c.automated == sa_false()


class Move(SQLModel, table=True):
    """One entry of a live table's append-only move log (design.md §3).

    ``seq`` numbers the moves of a table from 1; ``version`` is the table version this entry
    produced (undos also produce versions, so it can run ahead of seq). An undo marks the move
    (``undone_by``, ``undone_at``, ``undone_version``) and never deletes it.
    """

    __tablename__ = "move"
    __table_args__ = (UniqueConstraint("table_id", "seq"),
                      UniqueConstraint("table_id", "idempotency_key"),
                      UniqueConstraint("table_id", "undo_key", name="uq_move_table_undo_key"))
    id: Optional[int] = Field(default=None, primary_key=True)
    table_id: str = Field(foreign_key="game_table.id", index=True, max_length=32)
    seq: int
    seat: int
    move: dict = Field(sa_column=Column(JSON, nullable=False))
    idempotency_key: str = Field(max_length=80)
    version: int
    created_at: datetime = _when(nullable=False, default=utcnow)
    undone_by: Optional[str] = Field(default=None, max_length=16)   # "seat:2" or "host"
    undone_at: Optional[datetime] = _when(nullable=True)
    undone_version: Optional[int] = None
    undo_key: Optional[str] = Field(default=None, max_length=80)    # the undo's idempotency key


class Result(SQLModel, table=True):
    """A seat's line of the Scoresheet: total, rank and the full breakdown."""

    __tablename__ = "result"
    id: Optional[int] = Field(default=None, primary_key=True)
    seat_id: int = Field(foreign_key="seat.id", unique=True)
    total: int
    rank: int
    breakdown: dict = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
