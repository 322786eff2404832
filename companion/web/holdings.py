"""What this phone holds, checked against the database: the groups it has a working link for,
its seat at a live table and whether it has the table's host rights.

The tokens themselves are in the phone's cookies (:mod:`.wallet`); the views of several areas
(live tables, groups, printing, a table's page) ask these questions, so the answers live here
rather than in any one of those views.
"""

from __future__ import annotations

from flask import g

from .. import db
from ..collation import sort_key
from ..models import GameTable, Seat
from ..services import groups, live_tables as live
from . import wallet


def my_groups() -> list[groups.Access]:
    """Every group this browser holds a working link for (read once per request)."""
    if "my_groups" in g:
        return g.my_groups
    session = db.session()
    found = []
    for group_id, token in wallet.held_groups():
        access = groups.group_for_token(session, token)
        if access is not None and access.group.id == group_id:
            found.append(access)
    g.my_groups = sorted(found, key=lambda a: sort_key(a.group.name))
    return g.my_groups


def my_seat(table: GameTable) -> Seat | None:
    """The seat this phone holds at ``table``, if any."""
    return live.seat_for_token(db.session(), table, wallet.table_token(wallet.SEAT, table.id))


def viewer(table: GameTable) -> tuple[int | None, bool]:
    """(this phone's seat position or None, whether it has the host's rights: it is the host's
    phone or a co-host's seat)."""
    seat = my_seat(table)
    rights = live.has_host_rights(table, wallet.table_token(wallet.HOST, table.id), seat)
    return (seat.position if seat else None), rights


def holds_table(table: GameTable) -> bool:
    """Whether this phone sits at ``table`` or has the host's rights: only such a phone is
    shown the join code, the QR code and the player cards."""
    seat, rights = viewer(table)
    return seat is not None or rights
