"""Score-only mode: score a final-state document, save it as a finished Table, list results.

Saving is one transaction: a table is written with all its seats and results or not at all.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, delete, select

from ..guard import DB_INT_MAX
from ..models import (GameTable, GroupMembership, Player, Result, Seat, TableAudit, TableMode,
                      TableStatus, utcnow)
from ..rules import get_ruleset
from ..rules.base import InvalidDocument, Labels, N_, RuleViolation, Ruleset, Scoresheet
from .tokens import hash_token


def ruleset_for(document: Any) -> Ruleset:
    """The game a document names, or InvalidDocument when it names none we know."""
    if not isinstance(document, Mapping):
        raise InvalidDocument([RuleViolation("score.not_object",
                                             N_("The document must be a JSON object."))])
    game = document.get("game")
    try:
        return get_ruleset(game) if isinstance(game, str) else get_ruleset("")
    except KeyError:
        raise InvalidDocument([RuleViolation("score.unknown_game",
                                             N_("Unknown game “%(game)s”."), "game",
                                             game=str(game))]) from None


def score_document(document: Any) -> Scoresheet:
    """Score any game's final-state document (raises InvalidDocument)."""
    return score_to_keep(ruleset_for(document), document)


def score_to_keep(ruleset: Ruleset, document: Any) -> Scoresheet:
    """``ruleset.score_final(document)``, refusing a sheet whose totals or ranks could not be
    stored (Results are 32-bit integers on PostgreSQL) with a violation naming the player.

    A document with more players than the game ever has is refused first, before the game
    reads any of it (its cost must not grow with what a stranger sends)."""
    refuse_too_many_players(ruleset, document)
    sheet = ruleset.score_final(document)
    violations = [RuleViolation("score.total_too_large",
                                N_("This player's total is too large to be kept (at most "
                                   "%(max)d)."), f"players.{index}", max=DB_INT_MAX)
                  for index, line in enumerate(sheet.players)
                  if abs(line.total) > DB_INT_MAX or abs(line.rank) > DB_INT_MAX]
    if violations:
        raise InvalidDocument(violations)
    return sheet


def refuse_too_many_players(ruleset: Ruleset, document: Any) -> None:
    """InvalidDocument when ``document["players"]`` lists more players than the game has."""
    players = document.get("players") if isinstance(document, Mapping) else None
    most = max(ruleset.catalogue.player_counts)
    if isinstance(players, list) and len(players) > most:
        raise InvalidDocument([RuleViolation(
            f"{ruleset.id}.bad_player_count",
            N_("This game is played by at most %(max)d players; this lists %(count)d."),
            "players", max=most, count=len(players))])


class ScoreProblem(RuleViolation):
    """A refusal about a saved score-only game, with the HTTP status it deserves."""

    def __init__(self, status: int, code: str, message: str, field: str | None = None,
                 **params: Any):
        super().__init__(code, message, field, **params)
        self.status = status


def save_scored_table(session: Session, document: Mapping[str, Any], sheet: Scoresheet, *,
                      location: str | None = None, notes: str | None = None,
                      keeper_token: str | None = None,
                      save_key: str | None = None) -> GameTable:
    """Store a scored game as a finished Table with its Seats and Results, atomically.

    ``keeper_token`` (its hash is kept) lets the phone that saved the game correct or delete
    it, and add it to a group. With ``save_key`` (the form's idempotency key) a second save
    with the same key stores nothing and returns the game the first one saved."""
    return save_scored_once(session, document, sheet, location=location, notes=notes,
                            keeper_token=keeper_token, save_key=save_key)[0]


def save_scored_once(session: Session, document: Mapping[str, Any], sheet: Scoresheet, *,
                     location: str | None = None, notes: str | None = None,
                     keeper_token: str | None = None,
                     save_key: str | None = None) -> tuple[GameTable, bool]:
    """:func:`save_scored_table`, and whether the answer is a replay of an earlier save."""
    if save_key:
        earlier = _saved_with(session, save_key)
        if earlier is not None:
            return earlier, True
    now = utcnow()
    table = GameTable(game=sheet.game, mode=TableMode.SCORE.value,
                      status=TableStatus.FINISHED.value if sheet.complete
                      else TableStatus.PLAYING.value,
                      options=dict(document.get("options") or {}),
                      final_document=dict(document), location=location or None,
                      notes=notes or None, created_at=now,
                      finished_at=now if sheet.complete else None,
                      keeper_hash=hash_token(keeper_token) if keeper_token else None,
                      save_key=save_key or None)
    try:
        session.add(table)
        session.flush()
        _write_seats(session, table, sheet)
        _audit(session, table, "save", {"players": _names_and_totals(sheet)})
        session.commit()
    except IntegrityError:
        session.rollback()
        earlier = _saved_with(session, save_key) if save_key else None
        if earlier is None:
            raise
        return earlier, True          # the other tap's save won the race
    except Exception:
        session.rollback()
        raise
    return table, False


def _saved_with(session: Session, save_key: str) -> GameTable | None:
    return session.exec(select(GameTable).where(GameTable.save_key == save_key)).first()


def _write_seats(session: Session, table: GameTable, sheet: Scoresheet) -> None:
    seats = []
    for position, line in enumerate(sheet.players):
        player = Player(name=line.name)
        session.add(player)
        session.flush()
        seat = Seat(table_id=table.id, position=position, player_id=player.id, name=line.name,
                    automated=line.automated)
        session.add(seat)
        seats.append(seat)
    session.flush()
    write_results(session, seats, sheet)


def _names_and_totals(sheet: Scoresheet) -> list[dict[str, Any]]:
    return [{"name": line.name, "total": line.total, "rank": line.rank}
            for line in sheet.players]


def _audit(session: Session, table: GameTable, action: str, details: dict[str, Any]) -> None:
    session.add(TableAudit(table_id=table.id, game=table.game, action=action, actor="keeper",
                           details=details, created_at=utcnow()))


def keeper_table(session: Session, table_id: str, keeper_token: str | None) -> GameTable:
    """The score-only game ``keeper_token`` may change: saved with it, and in no group (a
    group's plays are corrected by the group's admin). Otherwise 404, or 409 in a group."""
    table = session.get(GameTable, table_id) if table_id else None
    if table is None or table.mode != TableMode.SCORE.value or not keeper_token or \
            not secrets.compare_digest(hash_token(keeper_token), table.keeper_hash or "-"):
        raise ScoreProblem(404, "score.not_yours", N_(
            "Only the phone that saved this game can change it."))
    if table.group_id is not None:
        raise ScoreProblem(409, "score.in_group", N_(
            "This game is in a group's history now: ask the group's admin to correct it."))
    return table


def _results_of(session: Session, table: GameTable) -> list[dict[str, Any]]:
    return [{"name": line["name"], "total": line["total"], "rank": line["rank"]}
            for line in _lines(session, [table.id]).get(table.id, [])]


def _drop_seats(session: Session, table: GameTable) -> None:
    """Delete the table's results, seats, and the players made for them (a score-only game
    outside any group: nobody else refers to them)."""
    seats = list(session.exec(select(Seat).where(Seat.table_id == table.id)).all())
    seat_ids = [seat.id for seat in seats]
    if seat_ids:
        session.execute(delete(Result).where(col(Result.seat_id).in_(seat_ids)))
        session.execute(delete(Seat).where(col(Seat.id).in_(seat_ids)))
    session.flush()
    for seat in seats:
        still_used = session.exec(select(Seat.id).where(Seat.player_id == seat.player_id)) \
            .first() is not None or session.exec(select(GroupMembership.group_id).where(
                GroupMembership.player_id == seat.player_id)).first() is not None
        if not still_used:
            session.execute(delete(Player).where(col(Player.id) == seat.player_id))


def correct_scored_table(session: Session, table: GameTable, document: Mapping[str, Any],
                         sheet: Scoresheet, *, location: str | None = None,
                         notes: str | None = None) -> bool:
    """Replace a saved game's document, seats and results with the corrected ones, with an
    audit line holding before and after (the caller checked :func:`keeper_table`). Returns
    False, writing nothing, when nothing changed (a second tap of the same correction)."""
    if (table.final_document == dict(document) and (table.location or None) == (location or None)
            and (table.notes or None) == (notes or None)):
        return False
    before = {"final_document": table.final_document, "location": table.location,
              "notes": table.notes, "results": _results_of(session, table)}
    try:
        _drop_seats(session, table)
        table.final_document = dict(document)
        table.options = dict(document.get("options") or {})
        table.location = location or None
        table.notes = notes or None
        table.status = (TableStatus.FINISHED.value if sheet.complete
                        else TableStatus.PLAYING.value)
        table.finished_at = (table.finished_at or utcnow()) if sheet.complete else None
        session.add(table)
        _write_seats(session, table, sheet)
        _audit(session, table, "correct", {
            "before": before, "after": {"final_document": dict(document), "location": location,
                                        "notes": notes, "results": _names_and_totals(sheet)}})
        session.commit()
    except Exception:
        session.rollback()
        raise
    return True


def delete_scored_table(session: Session, table: GameTable) -> None:
    """Delete a saved game (the caller checked :func:`keeper_table`); the audit line keeps
    what it was, so a mistaken deletion can be typed in again."""
    try:
        _audit(session, table, "delete", {"final_document": table.final_document,
                                          "location": table.location, "notes": table.notes,
                                          "results": _results_of(session, table)})
        _drop_seats(session, table)
        session.execute(delete(GameTable).where(col(GameTable.id) == table.id))
        session.commit()
    except Exception:
        session.rollback()
        raise


def write_results(session: Session, seats: Sequence[Seat], sheet: Scoresheet) -> None:
    """Add each seat's Scoresheet line as its Result (the caller commits)."""
    for row in result_rows([seat.id for seat in seats], sheet):
        session.add(Result(**row))


def result_rows(seat_ids: Sequence[int], sheet: Scoresheet) -> list[dict[str, Any]]:
    """The Result rows of a Scoresheet, one per seat (ids in seat order)."""
    return [{"seat_id": seat_id, "total": line.total, "rank": line.rank,
             "breakdown": line.as_dict()["breakdown"]}
            for seat_id, line in zip(seat_ids, sheet.players)]


@dataclass(frozen=True)
class TableSummary:
    table: GameTable
    players: Sequence[Mapping[str, Any]]     # name, total, rank in seat order

    @property
    def winners(self) -> list[str]:
        return [p["name"] for p in self.players if p["rank"] == 1]


def _lines(session: Session, table_ids: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
    rows = session.exec(
        select(Seat, Result).join(Result, col(Result.seat_id) == col(Seat.id), isouter=True)
        .where(col(Seat.table_id).in_(table_ids)).order_by(Seat.table_id, Seat.position)).all()
    lines: dict[str, list[dict[str, Any]]] = {}
    for seat, result in rows:
        lines.setdefault(seat.table_id, []).append({
            "name": seat.name, "total": result.total if result else None,
            "rank": result.rank if result else None,
            "breakdown": result.breakdown if result else {}, "automated": seat.automated})
    return lines


HOST, SEAT, KEEPER = "host", "seat", "keeper"      # what a phone's token is to a table


def _opens(table: GameTable, kind: str, digest: str, seat_hashes: set[str]) -> bool:
    if kind == HOST:
        return secrets.compare_digest(digest, table.host_token_hash or "")
    if kind == KEEPER:
        return secrets.compare_digest(digest, table.keeper_hash or "")
    return kind == SEAT and digest in seat_hashes


def held_tables(session: Session, holdings: Sequence[tuple[str, str, str]]
                ) -> tuple[list[TableSummary], set[str]]:
    """"My tables": the tables that ``holdings`` — (kind, table id, token) as one phone keeps
    them, most recent first — still open (the host's token, a seat's, or the keeper's of a
    saved game), in that order; and the ids none of them opens any more (gone, or the seat
    was given to another phone), which the phone may forget. Nothing else is ever listed:
    there is no public list of tables (issue 10)."""
    ids = list(dict.fromkeys(table_id for _kind, table_id, _token in holdings))
    if not ids:
        return [], set()
    tables = {t.id: t for t in session.exec(select(GameTable).where(
        col(GameTable.id).in_(ids))).all()}
    seat_hashes: dict[str, set[str]] = {}
    for table_id, token_hash in session.exec(select(Seat.table_id, Seat.token_hash).where(
            col(Seat.table_id).in_(ids), col(Seat.token_hash).is_not(None))).all():
        seat_hashes.setdefault(table_id, set()).add(token_hash)
    opened = []
    for kind, table_id, token in holdings:
        table = tables.get(table_id)
        if table is not None and table_id not in opened and _opens(
                table, kind, hash_token(token), seat_hashes.get(table_id, set())):
            opened.append(table_id)
    lines = _lines(session, opened)
    return ([TableSummary(tables[i], lines.get(i, [])) for i in opened],
            set(ids) - set(opened))


def load_table(session: Session, table_id: str) -> TableSummary | None:
    table = session.get(GameTable, table_id)
    if table is None:
        return None
    return TableSummary(table, _lines(session, [table.id]).get(table.id, []))


def sheet_rows(labels: Labels, players: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Lay a Scoresheet (as stored: name/total/rank/breakdown) out as rows for a table.

    One row per (stage, category) in the order the categories were scored, then after each
    stage a running-total row; cells hold each player's points and the reason for them.
    """
    rows: list[dict[str, Any]] = []
    order: list[tuple[Any, str]] = []
    cells: dict[tuple[Any, str], list[dict[str, Any] | None]] = {}
    for index, player in enumerate(players):
        for cat in player.get("breakdown", {}).get("categories", []):
            key = (cat.get("stage"), cat["category"])
            if key not in cells:
                order.append(key)
                cells[key] = [None] * len(players)
            cells[key][index] = cat
    stage_seen = None
    for stage, category in order:
        if stage != stage_seen and stage_seen is not None:
            rows.append(_stage_total_row(stage_seen, players))
        if stage != stage_seen and stage is not None:
            rows.append({"kind": "stage", "stage": stage})
        stage_seen = stage
        rows.append({"kind": "category", "stage": stage, "category": category,
                     "label": labels.categories.get(category, category),
                     "cells": cells[(stage, category)]})
    if stage_seen is not None:
        rows.append(_stage_total_row(stage_seen, players))
    return rows


def _stage_total_row(stage: int, players: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    totals = []
    for player in players:
        running = player.get("breakdown", {}).get("stage_totals", [])
        totals.append(running[stage - 1] if stage and len(running) >= stage else None)
    return {"kind": "stage_total", "stage": stage, "totals": totals}
