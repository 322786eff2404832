"""A group's copy of a game ("our copy", design.md §2): printed values entered once.

Every game declares its edition values (``Ruleset.edition``): printed numbers no public source
gives, or gives unverified. A group enters the values of its own box once — on a form, or as a
JSON file — and every table the group opens uses them; the table and its score sheet name the
values still at a default. Only the entered values are stored; the defaults stay the game's.
"""

from __future__ import annotations

from typing import Any, Mapping

from sqlmodel import Session, select

from ..models import Group, GroupEdition, utcnow
from ..rules import get_ruleset
from ..rules.base import Edition, InvalidDocument, N_, Ruleset, resolve_edition
from .group_audit import audit, commit
from .groups import GroupProblem, clean_actor

FORMAT = "scribe-edition"       # the "format" of an exported copy


def _ruleset(game: Any) -> Ruleset:
    try:
        ruleset = get_ruleset(game) if isinstance(game, str) else None
    except KeyError:
        ruleset = None
    if ruleset is None:
        raise GroupProblem(404, "edition.unknown_game", N_("Unknown game “%(game)s”."), "game",
                           game=str(game)[:40])
    return ruleset


def group_copy(session: Session, group_id: int, game: str) -> dict[str, Any]:
    """The values the group entered for ``game`` (empty: only defaults)."""
    row = session.get(GroupEdition, (group_id, game))
    return dict(row.entered) if row is not None else {}


def copies(session: Session, group_id: int) -> dict[str, dict[str, Any]]:
    """Every game the group entered values for, with those values."""
    rows = session.exec(select(GroupEdition).where(GroupEdition.group_id == group_id)).all()
    return {row.game: dict(row.entered) for row in rows}


def resolved(game: str, entered: Mapping[str, Any]) -> Edition:
    """The edition in force for these entries (raises GroupProblem naming the field)."""
    try:
        return resolve_edition(_ruleset(game).edition, entered)
    except InvalidDocument as invalid:
        first = invalid.first
        raise GroupProblem(422, first.code, first.message, first.field,
                           **first.params) from None


def save_copy(session: Session, group: Group, game: Any, entered: Any,
              actor: Any = None) -> dict[str, Any]:
    """Replace the group's copy of ``game`` with ``entered`` (checked entry by entry; a
    blank entry means the default), with an audit line of what changed."""
    ruleset = _ruleset(game)
    if not ruleset.edition:
        raise GroupProblem(422, "edition.none", N_("This game has no printed values to enter."),
                           "game")
    if not isinstance(entered, Mapping):
        raise GroupProblem(422, "edition.not_object", N_("The values must be an object."),
                           "edition")
    entered = {key: value for key, value in entered.items() if value not in (None, "", [])}
    edition = resolved(ruleset.id, entered)
    clean = {key: edition.values[key] for key in entered}
    before = group_copy(session, group.id, ruleset.id)
    row = session.get(GroupEdition, (group.id, ruleset.id))
    if row is None:
        row = GroupEdition(group_id=group.id, game=ruleset.id, entered=clean,
                           updated_at=utcnow())
    else:
        row.entered, row.updated_at = clean, utcnow()
    session.add(row)
    audit(session, group, clean_actor(actor), "edition",
           {"game": ruleset.id, "before": before, "after": clean})
    commit(session)
    return clean


def export_copy(session: Session, group: Group, game: Any) -> dict[str, Any]:
    """The group's copy as a JSON document another group can import."""
    ruleset = _ruleset(game)
    return {"format": FORMAT, "game": ruleset.id,
            "values": group_copy(session, group.id, ruleset.id)}


def import_copy(session: Session, group: Group, document: Any, actor: Any = None
                ) -> dict[str, Any]:
    """Take a copy exported by :func:`export_copy` (or any ``{"game", "values"}``)."""
    if not isinstance(document, Mapping) or document.get("format", FORMAT) != FORMAT:
        raise GroupProblem(422, "edition.bad_file",
                           N_("This is not a file of printed values exported by Scribe."),
                           "file")
    return save_copy(session, group, document.get("game"), document.get("values"), actor)
