"""A group's history: the plays that count, in the order they were played.

A play *counts* (for statistics, titles and the ladder) when its table belongs to the group, is
finished, and is not voided. Unfinished tables (open, playing, abandoned) and voided plays count
nowhere.

Order: by when the play happened — ``finished_at``, or ``created_at`` for a table that has no
finishing time — then by table id, so that two plays with the same time always come in the same
order. Times are compared in UTC (SQLite hands back naive datetimes; they are taken as UTC).

The types here are plain frozen dataclasses so that statistics and the ladder are pure functions
that tests can feed with hand-built histories (:func:`play`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Iterable, NamedTuple, Sequence

from sqlalchemy import func
from sqlmodel import Session, col, select

from ..models import (PEOPLE_SEATED, GameTable, GroupMembership, Player, Result, Seat,
                      TableStatus)


class Line(NamedTuple):
    """One seat of a play: who sat there, their total and their rank (1 = won; ties share).

    A named tuple: a big history makes tens of thousands of them per read."""

    player_id: int
    name: str            # the name as written at this table
    position: int        # seat order, 0 = first seat
    total: int
    rank: int

    @property
    def won(self) -> bool:
        return self.rank == 1


@dataclass(frozen=True, slots=True)
class Play:
    """A finished, counted play: its game, when and where, and every seat's result."""

    table_id: str
    game: str
    played_at: datetime  # aware, UTC
    location: str | None
    lines: tuple[Line, ...]      # in seat order

    @property
    def order_key(self) -> tuple[datetime, str]:
        return (self.played_at, self.table_id)

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(line.player_id for line in self.lines if line.rank == 1)

    def line_of(self, player_id: int) -> Line | None:
        for line in self.lines:
            if line.player_id == player_id:
                return line
        return None


def as_utc(moment: datetime) -> datetime:
    """``moment`` as an aware UTC datetime (naive values from SQLite are UTC already)."""
    if moment.tzinfo is None:
        return moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc)


def chronological(plays: Iterable[Play]) -> list[Play]:
    """Plays oldest first: by time played, then by table id."""
    return sorted(plays, key=lambda p: p.order_key)


def load_plays(session: Session, group_id: int, game: str | None = None,
               added_after: int | None = None) -> list[Play]:
    """The group's counted plays (optionally of one game; or only those added to the group
    after its history version ``added_after``), oldest first.

    One plain query (one consistent read), read without the ORM: this reads the whole
    history, so its cost per seat is what a big group pays."""
    table, seat, result = GameTable.__table__, Seat.__table__, Result.__table__
    query = (select(table.c.id, table.c.game,
                    func.coalesce(table.c.finished_at, table.c.created_at),
                    table.c.location, seat.c.position, seat.c.player_id, seat.c.name,
                    result.c.total, result.c.rank)
             .select_from(table.join(seat, seat.c.table_id == table.c.id)
                          .join(result, result.c.seat_id == seat.c.id))
             .where(table.c.group_id == group_id,
                    table.c.status == TableStatus.FINISHED.value,
                    table.c.voided_at.is_(None),
                    PEOPLE_SEATED))         # the app's own rival is nobody's
    if game is not None:
        query = query.where(table.c.game == game)
    if added_after is not None:
        query = query.where(table.c.group_version > added_after)
    tables: dict[str, tuple] = {}
    lines: dict[str, list[Line]] = {}
    for (table_id, game_id, played_at, location, position, player_id, name, total,
         rank) in session.connection().execute(query).fetchall():
        seated = lines.get(table_id)
        if seated is None:
            tables[table_id] = (game_id, as_utc(played_at), location)
            seated = lines[table_id] = []
        seated.append(Line(player_id, name, position, total, rank))
    plays = [Play(table_id, game_id, when, location,
                  tuple(sorted(lines[table_id], key=_by_position)))
             for table_id, (game_id, when, location) in tables.items()]
    return chronological(plays)


def _by_position(line: Line) -> int:
    return line.position


def member_names(session: Session, group_id: int) -> dict[int, str]:
    """Current names of the group's players, by player id."""
    rows = session.exec(select(Player.id, Player.name)
                        .join(GroupMembership, col(GroupMembership.player_id) == col(Player.id))
                        .where(GroupMembership.group_id == group_id)).all()
    return {player_id: name for player_id, name in rows}


def names_for(plays: Sequence[Play], names: dict[int, str]) -> dict[int, str]:
    """``names`` completed with the name written at the table for anyone not (or no longer) a
    member, so every player in the history has a name."""
    complete = dict(names)
    for one in plays:
        for line in one.lines:
            complete.setdefault(line.player_id, line.name)
    return complete
