"""Score-only mode: score a final-state document, save it as a finished Table, list results.

Saving is one transaction: a table is written with all its seats and results or not at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from sqlmodel import Session, col, select

from ..models import GameTable, Player, Result, Seat, TableMode, TableStatus, utcnow
from ..rules import get_ruleset
from ..rules.base import InvalidDocument, Labels, N_, RuleViolation, Ruleset, Scoresheet


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
    return ruleset_for(document).score_final(document)


def save_scored_table(session: Session, document: Mapping[str, Any], sheet: Scoresheet, *,
                      location: str | None = None, notes: str | None = None) -> GameTable:
    """Store a scored game as a finished Table with its Seats and Results, atomically."""
    now = utcnow()
    table = GameTable(game=sheet.game, mode=TableMode.SCORE.value,
                      status=TableStatus.FINISHED.value if sheet.complete
                      else TableStatus.PLAYING.value,
                      options=dict(document.get("options") or {}),
                      final_document=dict(document), location=location or None,
                      notes=notes or None, created_at=now,
                      finished_at=now if sheet.complete else None)
    try:
        session.add(table)
        seats = []
        for position, line in enumerate(sheet.players):
            player = Player(name=line.name)
            session.add(player)
            session.flush()
            seat = Seat(table_id=table.id, position=position, player_id=player.id,
                        name=line.name)
            session.add(seat)
            seats.append(seat)
        session.flush()
        write_results(session, seats, sheet)
        session.commit()
    except Exception:
        session.rollback()
        raise
    return table


def write_results(session: Session, seats: Sequence[Seat], sheet: Scoresheet) -> None:
    """Add each seat's Scoresheet line as its Result (the caller commits)."""
    for seat, line in zip(seats, sheet.players):
        session.add(Result(seat_id=seat.id, total=line.total, rank=line.rank,
                           breakdown=line.as_dict()["breakdown"]))


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
            "breakdown": result.breakdown if result else {}})
    return lines


def recent_tables(session: Session, limit: int = 50) -> list[TableSummary]:
    """The most recently created tables with their players and results, newest first."""
    tables = session.exec(select(GameTable).order_by(col(GameTable.created_at).desc())
                          .limit(limit)).all()
    lines = _lines(session, [t.id for t in tables])
    return [TableSummary(t, lines.get(t.id, [])) for t in tables]


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
