"""A group's audit trail: every change to a group is written with a line saying who did what,
and committed together with it, or not at all.

The group services (:mod:`.groups`, :mod:`.editions`, :mod:`.bgstats`) share these two steps;
an :class:`~companion.models.AuditEntry` names the actor (as the admin typed it), the action
and the details before and after.
"""

from __future__ import annotations

from typing import Any, Iterable

from sqlalchemy import update
from sqlmodel import Session, col

from ..models import AuditEntry, Group, utcnow


def audit(session: Session, group: Group, actor: str, action: str, details: dict[str, Any],
          table_id: str | None = None) -> AuditEntry:
    """Add the audit line of a change to ``group`` (the caller commits it with the change)."""
    entry = AuditEntry(group_id=group.id, table_id=table_id, actor=actor, action=action,
                       details=details, created_at=utcnow())
    session.add(entry)
    return entry


def history_changed(session: Session, group_ids: Iterable[int | None],
                    rewrite: bool = True) -> None:
    """Raise the history version of these groups, in the caller's transaction: call it with
    every change to what a group's pages are computed from (its plays, their seats and
    results, its members and their names), so that what was computed for the version before
    is never used again (:mod:`.group_cache`).

    ``rewrite=False`` says the change only adds: plays (the caller stamps each new table's
    ``group_version`` with the group's new version) or members. Then
    what was computed before goes on with the plays added alone, when they are later than
    every play before them."""
    ids = sorted({group_id for group_id in group_ids if group_id is not None})
    if not ids:
        return
    values: dict[str, Any] = {"history_version": Group.history_version + 1}
    if rewrite:
        values["history_rewritten"] = Group.history_version + 1
    session.execute(update(Group).where(col(Group.id).in_(ids)).values(**values)
                    .execution_options(synchronize_session="fetch"))


def commit(session: Session) -> None:
    """Commit a change and its audit line together; on failure roll both back."""
    try:
        session.commit()
    except Exception:
        session.rollback()
        raise
