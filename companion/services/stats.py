"""Group statistics, records and themed titles, and the data of every group page.

Everything is computed from the group's *counted* plays (:mod:`.history`: finished and not
voided), so a void, a correction or a merge shows everywhere at once. The pure functions take a
list of plays (oldest first); the ``*_page`` functions load them and return plain dicts for the
templates and the API (times are datetimes; the API turns them into ISO strings).

Definitions (exact, also for ties):

* A player **wins** a play when their rank is 1; tied winners all win.
* **Win rate** = wins / plays, rounded to 4 decimals (None without plays). **Average score**
  = mean of totals, rounded to 2 decimals.
* **Best score** / **highest score** / **highest losing score** (a losing seat is one with
  rank > 1): the highest total; if several seats reach it, the record belongs to the first
  play (in history order) in which it was reached, and is shared only by the seats of that
  play that reached it ("the first to set a record keeps it").
* **Average winning score** of a game: the mean, over its plays, of the highest total among
  that play's winners; rounded to 2 decimals.
* **Longest win streak** of a game: the most consecutive plays *of that game that the player
  took part in* that they won (plays they missed do not break a streak). Ties: the player who
  reached that length first (earliest play) holds it; reached in the same play: shared.
* **Most wins** of a game (a record): the most wins in that game (at least 1), shared by every
  player who has that many.
* **Champion** of a game (a title): most wins in that game (at least 1). Ties: fewer plays of
  that game (the better win rate); then whoever reached that number of wins first (their last
  win is the earlier play); reached in the same play: shared.
* **Pharaoh** of the group: the top of the overall ladder among players whose rating is not
  provisional (:mod:`.ladder`); exact ties (same ordinal and mu) share it; nobody settled: no
  Pharaoh yet.
* **Nemesis** of a player P: an opponent who finished strictly ahead of P (better rank) at
  least 3 times, in more than 50 % of the plays they both played (any game). Several: the most
  wins over P; then the higher share; then the one who beat P most recently; beat P in the same
  play: shared.
* **Head-to-head** of A and B: the plays both took part in; A won it when A's rank is better,
  B when B's is, a tie when equal.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Any, Iterable, Mapping, Sequence

from sqlalchemy import func
from sqlmodel import Session, col, select

from ..models import PEOPLE_SEATED, GameTable, Group, Result, Seat, TableStatus
from ..rules import all_rulesets
from ..rules.base import N_
from .groups import GroupProblem, audit_log, group_table, member, members
from .group_cache import Summary, summary
from .history import Line, Play, as_utc, member_names
from .tallies import NEMESIS_MIN_WINS, Tally, holder
from .ladder import (OVERALL, PROVISIONAL_MAX_SIGMA, PROVISIONAL_MIN_PLAYS, Ladders, Standing,
                     standings)

RECENT_PLAYS = 10
HEAD_TO_HEAD_RECENT = 100     # plays together listed on the head-to-head page, latest first
LEADERS = 3


def _rate(wins: int, plays: int) -> float | None:
    return round(wins / plays, 4) if plays else None


def _mean(values: Sequence[int]) -> float | None:
    return round(sum(values) / len(values), 2) if values else None


def game_order(games: Iterable[str]) -> list[str]:
    """Our five games first in their usual order, then any other, alphabetically."""
    order = [r.id for r in all_rulesets()]       # the catalogue's order
    known = [g for g in order if g in set(games)]
    return known + sorted(set(games) - set(order))


_holder = holder


# --------------------------------------------------------------------------------------------
# Pure statistics over a history (oldest first)
# --------------------------------------------------------------------------------------------


def player_stats(plays: Sequence[Play], player_id: int) -> dict[str, Any]:
    """Plays, wins, win rate overall and per game, with average and best score per game."""
    per_game: dict[str, dict[str, Any]] = {}
    totals = wins = 0
    for one in plays:
        line = one.line_of(player_id)
        if line is None:
            continue
        totals += 1
        wins += line.won
        game = per_game.setdefault(one.game, {"plays": 0, "wins": 0, "scores": [],
                                              "best_score": None, "best_play": None})
        game["plays"] += 1
        game["wins"] += line.won
        game["scores"].append(line.total)
        if game["best_score"] is None or line.total > game["best_score"]:
            game["best_score"] = line.total
            game["best_play"] = {"table_id": one.table_id, "played_at": one.played_at}
    games = {}
    for game in game_order(per_game):
        data = per_game[game]
        games[game] = {"plays": data["plays"], "wins": data["wins"],
                       "win_rate": _rate(data["wins"], data["plays"]),
                       "average_score": _mean(data["scores"]),
                       "best_score": data["best_score"], "best_play": data["best_play"]}
    return {"plays": totals, "wins": wins, "win_rate": _rate(wins, totals), "games": games}


def _first_record(plays: Sequence[Play], seats_of, name_of) -> dict[str, Any] | None:
    """The highest total among the seats ``seats_of(play)`` yields, held by the first play
    that reached it (shared by that play's seats with the same total)."""
    best = None
    holders: list[dict[str, Any]] = []
    for one in plays:
        for line in seats_of(one):
            if best is None or line.total > best:
                best = line.total
                holders = [_holder(name_of, line.player_id, one)]
            elif line.total == best and holders and holders[0]["table_id"] == one.table_id:
                holders.append(_holder(name_of, line.player_id, one))
    return None if best is None else {"value": best, "holders": holders}


def _wins_leader(plays: Sequence[Play], name_of) -> dict[str, Any] | None:
    """Most wins; ties by fewer plays, then by who reached that number first (see module)."""
    if not plays:
        return None
    return Tally().extend(plays).champion(plays[0].game, name_of)


def _most_wins(plays: Sequence[Play], name_of) -> dict[str, Any] | None:
    """Most wins, shared by everyone who has that many (the record; the Champion title
    breaks the tie, :func:`_wins_leader`)."""
    wins: dict[int, int] = defaultdict(int)
    last_play: dict[int, Play] = {}
    for one in plays:
        for line in one.lines:
            if line.won:
                wins[line.player_id] += 1
                last_play[line.player_id] = one
    if not wins:
        return None
    value = max(wins.values())
    holders = sorted(p for p in wins if wins[p] == value)
    return {"value": value, "holders": [_holder(name_of, p, last_play[p]) for p in holders]}


def _longest_streak(plays: Sequence[Play], name_of) -> dict[str, Any] | None:
    """Longest run of won plays per player over the plays they took part in (see module)."""
    run: dict[int, int] = defaultdict(int)
    best_len: dict[int, int] = {}
    best_at: dict[int, tuple[int, Play]] = {}
    for index, one in enumerate(plays):
        for line in one.lines:
            p = line.player_id
            run[p] = run[p] + 1 if line.won else 0
            if run[p] and run[p] > best_len.get(p, 0):
                best_len[p] = run[p]
                best_at[p] = (index, one)
    if not best_len:
        return None
    value = max(best_len.values())
    first = min(best_at[p][0] for p in best_len if best_len[p] == value)
    holders = sorted(p for p in best_len if best_len[p] == value and best_at[p][0] == first)
    return {"value": value, "holders": [_holder(name_of, p, best_at[p][1]) for p in holders]}


def game_records(plays: Sequence[Play], game: str,
                 name_of: Mapping[int, str] | None = None) -> dict[str, Any]:
    """A game's records: highest score, highest losing score, most wins, average winning
    score, longest win streak (rules in the module docstring)."""
    name_of = name_of or {}
    of_game = [one for one in plays if one.game == game]
    winning = [max(line.total for line in one.lines if line.won)
               for one in of_game if any(line.won for line in one.lines)]
    return {
        "game": game,
        "plays": len(of_game),
        "highest_score": _first_record(of_game, lambda one: one.lines, name_of),
        "highest_losing_score": _first_record(
            of_game, lambda one: [line for line in one.lines if not line.won], name_of),
        "most_wins": _most_wins(of_game, name_of),
        "champion": _wins_leader(of_game, name_of),
        "average_winning_score": _mean(winning),
        "longest_win_streak": _longest_streak(of_game, name_of),
    }


def champion(plays: Sequence[Play], game: str,
             name_of: Mapping[int, str] | None = None) -> dict[str, Any] | None:
    """The game's Champion: ``{"value": wins, "plays", "holders": [...]}`` or None."""
    return _wins_leader([one for one in plays if one.game == game], name_of or {})


def nemeses(plays: Sequence[Play], name_of: Mapping[int, str] | None = None
            ) -> dict[int, dict[str, Any]]:
    """Every player's Nemesis (those who have one), in one pass over the history."""
    return Tally().extend(plays).nemeses(name_of or {})


def pharaoh(overall: Sequence[Standing]) -> list[dict[str, Any]]:
    """The Pharaoh(s): top of the overall ladder among settled ratings; [] when none."""
    settled = [s for s in overall if not s.provisional]
    if not settled:
        return []
    top = settled[0]
    return [{"player_id": s.player_id, "name": s.name, "rating": round(s.ordinal, 2)}
            for s in settled if s.ordinal == top.ordinal and s.mu == top.mu]


def head_to_head(plays: Sequence[Play], a: int, b: int) -> dict[str, Any]:
    """A against B over the plays both took part in: wins each way and ties, per game too,
    with each one's average score per game and the shared plays (newest first)."""
    summary = {"plays": 0, "a_wins": 0, "b_wins": 0, "ties": 0}
    per_game: dict[str, dict[str, Any]] = {}
    together = []
    for one in plays:
        line_a, line_b = one.line_of(a), one.line_of(b)
        if line_a is None or line_b is None or a == b:
            continue
        outcome = "a_wins" if line_a.rank < line_b.rank else \
            "b_wins" if line_b.rank < line_a.rank else "ties"
        game = per_game.setdefault(one.game, {"plays": 0, "a_wins": 0, "b_wins": 0, "ties": 0,
                                              "a_scores": [], "b_scores": []})
        for bucket in (summary, game):
            bucket["plays"] += 1
            bucket[outcome] += 1
        game["a_scores"].append(line_a.total)
        game["b_scores"].append(line_b.total)
        together.append((one, line_a, line_b, outcome))
    games = {}
    for game in game_order(per_game):
        data = per_game[game]
        games[game] = {k: data[k] for k in ("plays", "a_wins", "b_wins", "ties")}
        games[game]["a_average"] = _mean(data["a_scores"])
        games[game]["b_average"] = _mean(data["b_scores"])
    summary["games"] = games
    summary["history"] = [{"table_id": one.table_id, "game": one.game,
                           "played_at": one.played_at, "location": one.location,
                           "a": {"total": la.total, "rank": la.rank},
                           "b": {"total": lb.total, "rank": lb.rank}, "outcome": outcome}
                          for one, la, lb, outcome in reversed(together)]
    return summary


def titles(plays: Sequence[Play], ladders: Ladders, name_of: Mapping[int, str]
           ) -> dict[str, Any]:
    """Every themed title now: the Pharaoh, each game's Champion, each player's Nemesis."""
    games = game_order({one.game for one in plays})
    return {
        "pharaoh": pharaoh(standings(ladders.overall, name_of)),
        "champions": {game: champion(plays, game, name_of) for game in games},
        "nemeses": nemeses(plays, name_of),
    }


# --------------------------------------------------------------------------------------------
# Plays as rows
# --------------------------------------------------------------------------------------------


def play_row(one: Play, name_of: Mapping[int, str], voided: bool = False) -> dict[str, Any]:
    """A play for a list: game, when, where, and each seat (current player name, the name
    written at the table, total, rank, won)."""
    return {"table_id": one.table_id, "game": one.game, "played_at": one.played_at,
            "location": one.location, "voided": voided,
            "players": [{"player_id": line.player_id,
                         "name": name_of.get(line.player_id, line.name),
                         "seat_name": line.name, "position": line.position,
                         "total": line.total, "rank": line.rank, "winner": line.won}
                        for line in one.lines]}


def play_list(session: Session, group_id: int, limit: int = 50, offset: int = 0,
              include_voided: bool = True, game: str | None = None) -> list[dict[str, Any]]:
    """The group's finished plays, newest first, voided ones included and marked (for the
    plays page, where the admin can unvoid them)."""
    when = func.coalesce(GameTable.finished_at, GameTable.created_at)
    query = select(GameTable).where(GameTable.group_id == group_id,
                                    GameTable.status == TableStatus.FINISHED.value)
    if not include_voided:
        query = query.where(col(GameTable.voided_at).is_(None))
    if game is not None:
        query = query.where(GameTable.game == game)
    tables = session.exec(query.order_by(when.desc(), col(GameTable.id).desc())
                          .offset(max(0, offset)).limit(max(0, min(limit, 500)))).all()
    rows = session.exec(select(Seat, Result).join(Result, col(Result.seat_id) == col(Seat.id))
                        .where(col(Seat.table_id).in_([t.id for t in tables]),
                               PEOPLE_SEATED)).all()
    lines: dict[str, list[Line]] = defaultdict(list)
    for seat, result in rows:
        lines[seat.table_id].append(Line(seat.player_id, seat.name, seat.position,
                                         result.total, result.rank))
    name_of = member_names(session, group_id)
    out = []
    for table in tables:
        one = Play(table.id, table.game, as_utc(table.finished_at or table.created_at),
                   table.location, tuple(sorted(lines[table.id], key=lambda l: l.position)))
        out.append(play_row(one, name_of, voided=table.voided_at is not None))
    return out


def play_detail(session: Session, group: Group, table_id: str) -> dict[str, Any]:
    """One play of the group with every seat's breakdown, its final document and its voided
    state (404 when it is not this group's)."""
    table = group_table(session, group, table_id)
    rows = session.exec(select(Seat, Result).join(Result, col(Result.seat_id) == col(Seat.id),
                                                  isouter=True)
                        .where(Seat.table_id == table.id).order_by(Seat.position)).all()
    name_of = member_names(session, group.id)
    return {"table_id": table.id, "game": table.game, "mode": table.mode,
            "status": table.status,
            "played_at": as_utc(table.finished_at or table.created_at),
            "location": table.location, "notes": table.notes,
            "voided": table.voided_at is not None,
            "voided_at": as_utc(table.voided_at) if table.voided_at else None,
            "final_document": table.final_document,
            "players": [{"player_id": seat.player_id,
                         "name": name_of.get(seat.player_id, seat.name),
                         "seat_name": seat.name, "position": seat.position,
                         "total": result.total if result else None,
                         "rank": result.rank if result else None,
                         "winner": bool(result and result.rank == 1),
                         "breakdown": result.breakdown if result else {},
                         **({"automated": True} if seat.automated else {})}
                        for seat, result in rows]}


# --------------------------------------------------------------------------------------------
# Page data
# --------------------------------------------------------------------------------------------


def _plays_of(found: Summary, player_id: int) -> list[Play]:
    """The plays ``player_id`` took part in, oldest first."""
    return found.memo(("plays_of", player_id), lambda: [
        one for one in found.plays if one.line_of(player_id) is not None])


def _titles(found: Summary) -> dict[str, Any]:
    """:func:`titles` of the summary's history, from the tally it keeps."""
    return found.memo("titles", lambda: {
        "pharaoh": pharaoh(_standings(found)),
        "champions": {game: found.champions.get(game) for game in game_order(found.champions)},
        "nemeses": found.nemeses})


def _standings(found: Summary, game: str | None = None) -> list[Standing]:
    return found.memo(("standings", game or OVERALL),
                      lambda: standings(found.ladders.ratings(game), found.name_of))


def _top(rows: Sequence[Standing], count: int | None = LEADERS) -> list[dict[str, Any]]:
    return [s.as_dict() for s in rows[:count]]


def group_home(session: Session, group: Group, leaders: int | None = LEADERS) -> dict[str, Any]:
    """Group home: recent plays, ladder leaders (overall and per game; ``leaders`` rows each,
    None for all), titles, members."""
    found = summary(session, group)
    plays, ladders, name_of = found.plays, found.ladders, found.name_of
    games = game_order(ladders.games)
    return {
        "group": {"id": group.id, "name": group.name, "created_at": as_utc(group.created_at)},
        "play_count": len(plays),
        "members": [{"player_id": p.id, "name": p.name} for p in members(session, group.id)],
        "recent_plays": [play_row(one, name_of) for one in reversed(plays[-RECENT_PLAYS:])],
        "leaders": {"overall": _top(_standings(found), leaders),
                    "games": {g: _top(_standings(found, g), leaders) for g in games}},
        "titles": _titles(found),
        "provisional_rule": {"min_plays": PROVISIONAL_MIN_PLAYS,
                             "max_sigma": PROVISIONAL_MAX_SIGMA},
    }


def ladder_page(session: Session, group: Group, game: str | None = None) -> dict[str, Any]:
    """One ladder (overall when ``game`` is None) with every player's row."""
    found = summary(session, group)
    plays, ladders = found.plays, found.ladders
    return {"group": {"id": group.id, "name": group.name}, "game": game or OVERALL,
            "rated_plays": ladders.rated_plays if game in (None, OVERALL) else
            found.memo(("rated_plays", game), lambda: sum(
                1 for one in plays if one.game == game and len(one.lines) > 1)),
            "standings": [s.as_dict() for s in _standings(found, game)],
            "games": game_order(ladders.games),
            "provisional_rule": {"min_plays": PROVISIONAL_MIN_PLAYS,
                                 "max_sigma": PROVISIONAL_MAX_SIGMA}}


def player_list(session: Session, group: Group) -> list[dict[str, Any]]:
    """The group's players by name, each with their plays and wins."""
    found = summary(session, group)

    def count() -> dict[int, tuple[int, int]]:
        counts: dict[int, list[int]] = {}
        for one in found.plays:
            for line in one.lines:
                entry = counts.setdefault(line.player_id, [0, 0])
                entry[0] += 1
                entry[1] += line.won
        return {p: (n, w) for p, (n, w) in counts.items()}

    counts = found.memo("play_counts", count)
    return [{"player_id": p.id, "name": p.name, "plays": counts.get(p.id, (0, 0))[0],
             "wins": counts.get(p.id, (0, 0))[1]} for p in members(session, group.id)]


def rating_history(ladders: Ladders, player_id: int) -> list[dict[str, Any]]:
    """A player's ratings after each of their plays: the overall one and the one in that
    play's game (ordinal, provisional)."""
    return [{"table_id": step.table_id, "played_at": step.played_at, "game": step.game,
             "rating": round(step.overall.ordinal, 2),
             "provisional": step.overall.provisional,
             "game_rating": round(step.in_game.ordinal, 2),
             "game_provisional": step.in_game.provisional}
            for step in ladders.timeline.get(player_id, ())]


def player_page(session: Session, group: Group, player_id: Any,
                recent: int = 30) -> dict[str, Any]:
    """Player page: plays, wins, win rate, average and best score per game, ratings (now and
    over time), titles held, their Nemesis and whom they are the Nemesis of, recent plays."""
    player = member(session, group.id, player_id)
    found = summary(session, group)
    plays, ladders, name_of = found.plays, found.ladders, found.name_of
    now = {}
    for game in [OVERALL] + game_order(ladders.games):
        row = found.memo(("standing_rows", game), lambda: {
            s.player_id: s for s in _standings(found, game)}).get(player.id)
        if row is not None:
            now[game] = row.as_dict()
    held = _titles(found)
    mine = _plays_of(found, player.id)
    return {
        "group": {"id": group.id, "name": group.name},
        "player": {"player_id": player.id, "name": player.name},
        "stats": found.memo(("player_stats", player.id), lambda: player_stats(mine, player.id)),
        "ratings": now,
        "rating_history": rating_history(ladders, player.id),
        "titles": {
            "pharaoh": any(h["player_id"] == player.id for h in held["pharaoh"]),
            "champion_of": [g for g, c in held["champions"].items()
                            if c and any(h["player_id"] == player.id for h in c["holders"])],
            "nemesis": held["nemeses"].get(player.id),
            "nemesis_of": [{"player_id": p, "name": name_of.get(p, "")}
                           for p, n in held["nemeses"].items()
                           if any(h["player_id"] == player.id for h in n["holders"])],
        },
        "recent_plays": [play_row(one, name_of) for one in reversed(mine[-recent:])],
    }


def game_page(session: Session, group: Group, game: str, recent: int = 20) -> dict[str, Any]:
    """Game page: records, the Champion, the game's ladder and its recent plays."""
    if not isinstance(game, str) or not game or len(game) > 32:
        raise GroupProblem(404, "game.not_found", N_("There is no such game."))
    found = summary(session, group)
    of_game = found.memo(("plays_of_game", game), lambda: [
        one for one in found.plays if one.game == game])
    records = found.memo(("records", game), lambda: game_records(of_game, game,
                                                                  found.name_of))
    name_of = found.name_of
    return {"group": {"id": group.id, "name": group.name}, "game": game,
            "records": records, "champion": records["champion"],
            "standings": [s.as_dict() for s in _standings(found, game)],
            "recent_plays": [play_row(one, name_of) for one in reversed(of_game[-recent:])]}


def head_to_head_page(session: Session, group: Group, a: Any, b: Any,
                      recent: int = HEAD_TO_HEAD_RECENT) -> dict[str, Any]:
    """Head-to-head page of two players of the group; ``history`` lists their ``recent``
    latest plays together (``plays`` counts them all)."""
    player_a, player_b = member(session, group.id, a), member(session, group.id, b)
    if player_a.id == player_b.id:
        raise GroupProblem(422, "player.same", N_("Choose two different players."), "b")
    found = summary(session, group)
    together = head_to_head(_plays_of(found, player_a.id), player_a.id, player_b.id)
    together["history"] = together["history"][:recent]
    return {"group": {"id": group.id, "name": group.name},
            "a": {"player_id": player_a.id, "name": player_a.name},
            "b": {"player_id": player_b.id, "name": player_b.name}, **together}


def audit_page(session: Session, group: Group, limit: int = 200) -> list[dict[str, Any]]:
    """The audit trail, newest first (admin pages)."""
    return [{"id": e.id, "table_id": e.table_id, "actor": e.actor, "action": e.action,
             "details": e.details, "created_at": as_utc(e.created_at)}
            for e in audit_log(session, group.id, limit)]


def jsonable(value: Any) -> Any:
    """Page data as JSON: datetimes as ISO 8601 strings, dict keys as strings."""
    if isinstance(value, datetime):
        return as_utc(value).isoformat()
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    return value
