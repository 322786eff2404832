"""Board Game Stats (BG Stats) import and export, the "createPlay" hand-off link, CSV export.

**Backup format** (the JSON file the BG Stats app exports and imports). Top level: ``players``
(``id``, ``uuid``, ``name``, ``isAnonymous``, ``modificationDate``, ``bggUsername``),
``locations`` (``id``, ``uuid``, ``name``), ``games`` (``id``, ``uuid``, ``name``, ``bggId``,
``highestWins``, ``noPoints``, ``cooperative``, ``usesTeams``), and ``plays`` (``uuid``,
``playDate`` "YYYY-MM-DD HH:MM:SS", ``gameRefId``, ``locationRefId``, ``ignored``,
``durationMin``, ``manualWinner``, ``rounds``, ``usesTeams``, ``playerScores``: ``playerRefId``,
``score`` — a *string* —, ``winner``, ``rank`` (0 = not set), ``seatOrder``, ``startPlayer``,
``newPlayer``, ``role``, ``team``). Field names as used by public readers and writers of the
format (e.g. the BG Stats "Play file" sample at https://pastebin.com/iDbHyBui and the C#/Go
models found by the search tool); unknown fields are ignored on import.

**Import** (:func:`import_bgstats`) into a group: every play is checked first, then written in
short batches (a transaction of about :data:`IMPORT_BATCH_SECONDS` each, with a pause between
them, so that moves on live tables never wait behind a big file). A batch that fails leaves the
batches before it, and the answer says how many plays are in; sending the same file again
imports the rest, the plays already in being skipped as duplicates.

* Refused whole (nothing written): more than :data:`MAX_IMPORT_BYTES` (5 MiB), not UTF-8 JSON,
  not an object, ``plays`` / ``players`` / ``games`` missing or not lists, more than
  :data:`MAX_IMPORT_PLAYS` (20 000) plays.
* Otherwise every play is checked on its own and either imported or skipped with a stable code
  and a reason: not one of our five games (reported per game name), missing game or player
  reference, bad date, no players, a score that is not a whole number (``"3+6"``, ``"4.5"``,
  ``""``), a bad rank, one player twice, a duplicate (same BG Stats uuid, or the same game,
  minute-exact time and results as a play the group already has).
* Our five games (:data:`GAMES`, matched by verified bggId, else by name) become finished,
  score-only plays with Results: totals from ``score``; ranks from ``rank`` when every seat has
  one (≥ 1), else derived from the scores (higher wins unless the game says ``highestWins:
  false``; ties share a rank). Their final document is a *results-only* document
  (``{"game", "results_only": true, "source": "bgstats", "uuid", "players": [...]}``).
  ``ignored: true`` plays are imported voided (kept, counting nowhere), as they were in BG Stats.
* Players are matched to the group's members by name (case-insensitive); others join the group.
* Seats follow ``seatOrder`` when every seat has a distinct one ≥ 1, else the file's order.
* Times are taken as UTC.

**Export** (:func:`export_bgstats`) writes every finished play of the group (voided ones with
``ignored: true``) so that export → import into an empty group reproduces every play: game,
time (to the second), location, seat order, names, scores, ranks, voided or not.
"""

from __future__ import annotations

import csv
import io
import json
import re
import time
import unicodedata
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Callable, Mapping, Sequence
from urllib.parse import quote

from sqlalchemy import func, insert
from sqlmodel import Session, col, select

from .. import db
from ..guard import DB_INT_MAX, UnsafeJSON, check_value, safe_loads
from ..models import (PEOPLE_SEATED, AuditEntry, GameTable, Group, GroupMembership, Player,
                      Result, Seat, TableMode, TableStatus, new_table_id, utcnow)
from ..rules import all_rulesets, get_ruleset
from ..rules.base import N_, RuleViolation, competition_ranks
from .group_audit import audit, history_changed
from .groups import (PLAYER_NAME_MAX, LOCATION_MAX, GroupProblem, clean_actor,
                     members, name_key, results_only_document)
from .history import as_utc

MAX_IMPORT_BYTES = 5 * 1024 * 1024
MAX_IMPORT_REQUEST = MAX_IMPORT_BYTES + 64 * 1024      # room for a form's own bytes
MAX_IMPORT_PLAYS = 20_000
MAX_LISTED_ENTRIES = 200          # skipped entries and warnings listed in a report
# Plays written per transaction: each batch holds the database for a few tens of milliseconds,
# so moves on other tables are never kept waiting behind a big import.
IMPORT_BATCH = 200             # the first batch; then as many as take IMPORT_BATCH_SECONDS
IMPORT_BATCH_MIN, IMPORT_BATCH_MAX = 10, 500
IMPORT_BATCH_SECONDS = 0.1
IMPORT_PAUSE = 0.12            # seconds between two batches, at least (longer after a slow one)
MAX_SCORE = 1_000_000          # |score|; Results are 32-bit integers on PostgreSQL
SCRIBE_NAMESPACE = uuid.UUID("6f0d3c52-8d3a-4c55-9a57-5c1e2b7e0a11")  # for stable export uuids
CREATE_PLAY_URL = "https://app.bgstatsapp.com/createPlay.html"


@dataclass(frozen=True)
class GameInfo:
    """One of our games as BG Stats (and BoardGameGeek) knows it."""

    id: str
    name: str
    bgg_id: int | None        # None: not verified, so not written (bggId 0) nor matched on
    source: str               # where the bggId was checked, or why it is unverified
    aliases: tuple[str, ...] = ()


def _games() -> dict[str, GameInfo]:
    """Our games as BG Stats knows them, from each game's catalogue (its English name, its
    verified BoardGameGeek id with the source, its other names)."""
    return {r.id: GameInfo(r.id, r.catalogue.names["en"], r.catalogue.bgg_id,
                           r.catalogue.bgg_source, tuple(r.catalogue.aliases))
            for r in all_rulesets()}


GAMES: dict[str, GameInfo] = _games()
_BY_BGG = {g.bgg_id: g.id for g in GAMES.values() if g.bgg_id}


def _name_match_key(name: str) -> str:
    """Game names compared loosely: case, accents, punctuation and "&"/"and" ignored."""
    text = unicodedata.normalize("NFKD", name.casefold())
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = text.replace("&", " and ")
    text = re.sub(r"[^\w]+", " ", text)
    return " ".join(text.split())


_BY_NAME = {}
for _game in GAMES.values():
    for _alias in (_game.name, _game.id.replace("_", " "), *_game.aliases):
        _BY_NAME[_name_match_key(_alias)] = _game.id


def match_game(name: Any, bgg_id: Any) -> str | None:
    """Our game id for a BG Stats game entry, or None when it is not one of ours: a verified
    bggId decides; otherwise the name, unless the entry's bggId names another game."""
    if isinstance(bgg_id, int) and not isinstance(bgg_id, bool) and bgg_id > 0:
        if bgg_id in _BY_BGG:
            return _BY_BGG[bgg_id]
        ours = _BY_NAME.get(_name_match_key(name)) if isinstance(name, str) else None
        # a different BGG id than a verified one means a different game of the same name
        return ours if ours is not None and GAMES[ours].bgg_id is None else None
    return _BY_NAME.get(_name_match_key(name)) if isinstance(name, str) else None


# --------------------------------------------------------------------------------------------
# Import
# --------------------------------------------------------------------------------------------


class ImportRefused(GroupProblem):
    """The file is structurally broken (or too big): nothing was imported."""


@dataclass
class ImportReport:
    """What an import did: how many plays came in, and each skipped entry with its reason."""

    imported: int = 0
    voided: int = 0                       # imported, but ignored in BG Stats: voided here
    skipped: list[tuple[str, int, RuleViolation]] = field(default_factory=list)
    warnings: list[tuple[str, int, RuleViolation]] = field(default_factory=list)
    other_games: dict[str, int] = field(default_factory=dict)
    players_created: list[str] = field(default_factory=list)
    table_ids: list[str] = field(default_factory=list)

    def skip(self, kind: str, index: int, code: str, message: str, path: str | None,
             **params: Any) -> None:
        self.skipped.append((kind, index, RuleViolation(code, message, path, **params)))

    def as_dict(self, gettext: Callable[[str], str] = lambda s: s) -> dict[str, Any]:
        """The report as the API and the admin page show it: the first
        :data:`MAX_LISTED_ENTRIES` skipped entries and warnings, with how many more there were."""
        def rows(entries):
            return [{"kind": kind, "index": index, **v.as_dict(gettext)}
                    for kind, index, v in entries[:MAX_LISTED_ENTRIES]]
        return {"imported": self.imported, "voided": self.voided,
                "skipped": rows(self.skipped), "warnings": rows(self.warnings),
                "skipped_not_listed": max(0, len(self.skipped) - MAX_LISTED_ENTRIES),
                "warnings_not_listed": max(0, len(self.warnings) - MAX_LISTED_ENTRIES),
                "other_games": dict(self.other_games),
                "players_created": list(self.players_created)}


def _refuse(code: str, message: str, status: int = 422, **params: Any) -> ImportRefused:
    return ImportRefused(status, code, message, "file", **params)


def parse_file(data: bytes | str | Mapping[str, Any]) -> dict[str, Any]:
    """The backup as a dict, or ImportRefused for a file that cannot be imported at all."""
    if isinstance(data, Mapping):
        document: Any = data
    else:
        raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
        if len(raw) > MAX_IMPORT_BYTES:
            raise _refuse("import.too_large", N_("The file is larger than %(max)d MB."), 413,
                          max=MAX_IMPORT_BYTES // (1024 * 1024))
        try:
            document = safe_loads(raw.decode("utf-8-sig"))
        except UnsafeJSON as unsafe:
            problem = unsafe.violation
            raise ImportRefused(422, problem.code, problem.message,
                                f"file.{problem.field}" if problem.field else "file",
                                **problem.params) from None
        except (UnicodeDecodeError, ValueError):
            raise _refuse("import.not_json",
                          N_("This is not a BG Stats backup (not a JSON file).")) from None
    if not isinstance(data, (str, bytes, bytearray)) and isinstance(document, Mapping):
        try:
            check_value(document)       # a document handed over already parsed
        except UnsafeJSON as unsafe:
            problem = unsafe.violation
            raise ImportRefused(422, problem.code, problem.message,
                                f"file.{problem.field}" if problem.field else "file",
                                **problem.params) from None
    if not isinstance(document, Mapping):
        raise _refuse("import.not_object",
                      N_("This is not a BG Stats backup (no players, games and plays)."))
    for key in ("plays", "players", "games"):
        if not isinstance(document.get(key), list):
            raise _refuse("import.missing_list",
                          N_("The file has no list of “%(key)s”."), key=key)
    if document.get("locations") is not None and not isinstance(document["locations"], list):
        raise _refuse("import.missing_list", N_("The file has no list of “%(key)s”."),
                      key="locations")
    if len(document["plays"]) > MAX_IMPORT_PLAYS:
        raise _refuse("import.too_many_plays", N_("The file has more than %(max)d plays."),
                      max=MAX_IMPORT_PLAYS)
    return dict(document)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_score(value: Any) -> int | None:
    """A BG Stats score (a string, sometimes a number) as a whole number, else None."""
    if _is_int(value):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else None
    if isinstance(value, str):
        text = value.strip()
        if re.fullmatch(r"[+-]?\d{1,12}(\.0*)?", text):
            return int(text.split(".")[0])
    return None


def parse_date(value: Any) -> datetime | None:
    """``playDate`` ("YYYY-MM-DD HH:MM:SS", also ISO 8601) as an aware UTC datetime."""
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip().replace("Z", "+00:00")
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    return as_utc(moment)


@dataclass
class _Prepared:
    index: int
    game: str
    played_at: datetime
    location: str | None
    voided: bool
    uuid: str | None
    seats: list[tuple[str, int, int]]          # (player name, score, rank) in seat order
    table_id: str | None = None                # given when written


def _entries(document: Mapping[str, Any], key: str, report: ImportReport,
             max_name: int) -> dict[int, dict[str, Any]]:
    """Index players / games / locations by id; skip malformed entries with a reason."""
    out: dict[int, dict[str, Any]] = {}
    for index, entry in enumerate(document.get(key) or []):
        path = f"{key}.{index}"
        if not isinstance(entry, Mapping) or not _is_int(entry.get("id")):
            report.skip(key, index, "import.bad_entry",
                        N_("This entry has no numeric id."), path)
            continue
        name = entry.get("name")
        if not isinstance(name, str) or not " ".join(name.split()):
            report.skip(key, index, "import.bad_name", N_("This entry has no name."),
                        f"{path}.name")
            continue
        name = " ".join(name.split())
        if len(name) > max_name:
            report.skip(key, index, "schema.too_long", N_("At most %(max)d characters."),
                        f"{path}.name", max=max_name)
            continue
        if entry["id"] in out:
            report.skip(key, index, "import.duplicate_id",
                        N_("Another entry has the same id."), f"{path}.id")
            continue
        out[entry["id"]] = {**entry, "name": name}
    return out


def _fingerprint(game: str, played_at: datetime,
                 seats: Sequence[tuple[str, int, int]]) -> tuple:
    """What makes two plays the same play: game, minute, and the sorted results."""
    minute = as_utc(played_at).replace(second=0, microsecond=0)
    return (game, minute, tuple(sorted((name_key(n), s, r) for n, s, r in seats)))


def _existing(session: Session, group_id: int) -> tuple[set[str], set[tuple]]:
    """BG Stats uuids and fingerprints of the plays the group already has (voided too).

    Read as plain rows (the uuid taken out of the document by the database): an import into
    a big group must not pay for every play's document and objects."""
    table, seat, result = GameTable.__table__, Seat.__table__, Result.__table__
    connection = session.connection()
    tables = connection.execute(
        select(table.c.id, table.c.game, func.coalesce(table.c.finished_at, table.c.created_at),
               table.c.final_document["uuid"].as_string())
        .where(table.c.group_id == group_id)).all()
    seats: dict[str, list[tuple[str, int, int]]] = defaultdict(list)
    for table_id, name, total, rank in connection.execute(
            select(seat.c.table_id, seat.c.name, result.c.total, result.c.rank)
            .select_from(seat.join(result, result.c.seat_id == seat.c.id)
                         .join(table, table.c.id == seat.c.table_id))
            .where(table.c.group_id == group_id, PEOPLE_SEATED)):
        seats[table_id].append((name, total, rank))
    uuids = {str(uuid) for _id, _game, _when, uuid in tables if uuid}
    prints = {_fingerprint(game, when, seats[table_id]) for table_id, game, when, _uuid in tables}
    return uuids, prints


def _prepare(document: Mapping[str, Any], report: ImportReport, known_uuids: set[str],
             known_prints: set[tuple]) -> list[_Prepared]:
    """Check every play on its own; return those to import, record why others are skipped."""
    players = _entries(document, "players", report, PLAYER_NAME_MAX)
    games = _entries(document, "games", report, 200)
    locations = _entries(document, "locations", report, LOCATION_MAX)
    prepared: list[_Prepared] = []
    for index, entry in enumerate(document["plays"]):
        path = f"plays.{index}"
        if not isinstance(entry, Mapping):
            report.skip("plays", index, "import.bad_play",
                        N_("This play is not an object."), path)
            continue
        game_ref = entry.get("gameRefId")
        if not _is_int(game_ref) or game_ref not in games:
            report.skip("plays", index, "import.missing_game",
                        N_("The play names a game the file does not list."),
                        f"{path}.gameRefId")
            continue
        game_entry = games[game_ref]
        game = match_game(game_entry["name"], game_entry.get("bggId"))
        if game is None:
            report.other_games[game_entry["name"]] = \
                report.other_games.get(game_entry["name"], 0) + 1
            report.skip("plays", index, "import.other_game",
                        N_("“%(game)s” is not one of Scribe's games."), f"{path}.gameRefId",
                        game=game_entry["name"])
            continue
        played_at = parse_date(entry.get("playDate"))
        if played_at is None:
            report.skip("plays", index, "import.bad_date",
                        N_("The play has no valid date (YYYY-MM-DD HH:MM:SS)."),
                        f"{path}.playDate")
            continue
        scores = entry.get("playerScores")
        if not isinstance(scores, list) or not scores:
            report.skip("plays", index, "import.no_players", N_("The play has no players."),
                        f"{path}.playerScores")
            continue
        most = max(get_ruleset(game).catalogue.player_counts)
        if len(scores) > most:          # the game's own limit, before any work on the seats
            report.skip("plays", index, "import.too_many_players",
                        N_("The play has %(count)d players; this game has at most %(max)d."),
                        f"{path}.playerScores", count=len(scores), max=most)
            continue
        seats = _seats_of(scores, players, report, index, path)
        if seats is None:
            continue
        highest_wins = game_entry.get("highestWins", True) is not False
        ranks = [rank for _name, _score, rank, _order in seats]
        if not all(rank >= 1 for rank in ranks):
            keys = [(score if highest_wins else -score,) for _n, score, _r, _o in seats]
            ranks = competition_ranks(keys)
        orders = [order for _n, _s, _r, order in seats]
        in_order = list(range(len(seats)))
        if all(o >= 1 for o in orders) and len(set(orders)) == len(orders):
            in_order.sort(key=lambda i: orders[i])
        ordered = [(seats[i][0], seats[i][1], ranks[i]) for i in in_order]
        play_uuid = entry.get("uuid") if isinstance(entry.get("uuid"), str) else None
        print_ = _fingerprint(game, played_at, ordered)
        if (play_uuid and play_uuid in known_uuids) or print_ in known_prints:
            report.skip("plays", index, "import.duplicate",
                        N_("The group already has this play."), path)
            continue
        location = None
        location_ref = entry.get("locationRefId")
        if _is_int(location_ref) and location_ref > 0:
            if location_ref in locations:
                location = locations[location_ref]["name"]
            else:
                report.warnings.append(("plays", index, RuleViolation(
                    "import.missing_location",
                    N_("The play names a location the file does not list; it was left "
                       "out."), f"{path}.locationRefId")))
        if play_uuid:
            known_uuids.add(play_uuid)
        known_prints.add(print_)
        prepared.append(_Prepared(index, game, played_at, location,
                                  entry.get("ignored") is True, play_uuid, ordered))
    return _keep_file_order(prepared)


def _keep_file_order(prepared: list[_Prepared]) -> list[_Prepared]:
    """BG Stats dates have whole seconds; plays of the same second keep the file's order
    (which is the order they were played in: Scribe exports oldest first), so each gets one
    microsecond more than the one before it. Otherwise the table ids would decide their
    order, and the ladder rebuilt from them would differ from the one exported."""
    seen: dict[datetime, int] = {}
    for item in prepared:
        earlier = seen.get(item.played_at, 0)
        seen[item.played_at] = earlier + 1
        if earlier:
            item.played_at = item.played_at + timedelta(microseconds=earlier)
    return prepared


def _seats_of(scores: list, players: Mapping[int, dict], report: ImportReport, index: int,
              path: str
              ) -> list[tuple[str, int, int, int]] | None:
    """(name, score, rank or 0, seatOrder or 0) per playerScores entry, or None (skipped)."""
    seats = []
    seen: set[str] = set()
    for number, score_entry in enumerate(scores):
        where = f"{path}.playerScores.{number}"
        if not isinstance(score_entry, Mapping):
            report.skip("plays", index, "import.bad_play",
                        N_("This play is not an object."), where)
            return None
        ref = score_entry.get("playerRefId")
        if not _is_int(ref) or ref not in players:
            report.skip("plays", index, "import.missing_player",
                        N_("The play names a player the file does not list."),
                        f"{where}.playerRefId")
            return None
        raw = score_entry.get("score")
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            report.skip("plays", index, "import.missing_score",
                        N_("A player of this play has no score."), f"{where}.score")
            return None
        score = parse_score(raw)
        if score is None or abs(score) > MAX_SCORE:
            report.skip("plays", index, "import.bad_score",
                        N_("The score “%(score)s” is not a whole number."), f"{where}.score",
                        score=str(raw)[:40])
            return None
        rank = score_entry.get("rank", 0)
        if rank is None:
            rank = 0
        if not _is_int(rank) or not 0 <= rank <= DB_INT_MAX:   # a 32-bit column
            report.skip("plays", index, "import.bad_rank",
                        N_("A rank is a whole number from 1."), f"{where}.rank")
            return None
        order = score_entry.get("seatOrder", 0)
        order = order if _is_int(order) and order > 0 else 0
        name = players[ref]["name"]
        key = name_key(name)
        if key in seen:
            report.skip("plays", index, "import.player_twice",
                        N_("One player cannot sit in two seats."), f"{where}.playerRefId")
            return None
        seen.add(key)
        seats.append((name, score, rank, order))
    return seats


def import_bgstats(session: Session, group: Group, data: bytes | str | Mapping[str, Any],
                   actor: Any = None,
                   progress: Callable[[int, int], None] | None = None) -> ImportReport:
    """Import a BG Stats backup into the group (rules in the module docstring). Raises
    ImportRefused for a file that cannot be read at all (nothing written); otherwise writes
    the plays in batches of :data:`IMPORT_BATCH` and returns the report. When a batch cannot
    be written, the batches before it stay and :class:`ImportInterrupted` says how many: the
    same file sent again imports the rest (the plays already in are skipped as duplicates).
    ``progress(done, total)`` is told the plays written so far, before the first batch and
    after each one (the admin page shows it as the import goes)."""
    document = parse_file(data)
    report = ImportReport()
    player_ids = {name_key(p.name): p.id for p in members(session, group.id)}
    uuids, prints = _existing(session, group.id)
    prepared = _prepare(document, report, uuids, prints)
    session.commit()                # everything is checked: no transaction open while writing
    told = progress or (lambda done, total: None)
    told(0, len(prepared))
    now = utcnow()
    entry: AuditEntry | None = None
    size, done = IMPORT_BATCH, 0
    while True:
        batch = prepared[done:done + size]
        last = done + len(batch) >= len(prepared)
        created = len(report.players_created)
        try:
            began = _write_batch(session, group, batch, player_ids, now, report)
            details = {"source": "bgstats", "plays_in_file": len(document["plays"]),
                       "imported": report.imported + len(batch),
                       "voided": report.voided + sum(1 for item in batch if item.voided),
                       "skipped": len([s for s in report.skipped if s[0] == "plays"]),
                       "other_games": dict(report.other_games),
                       "players_created": list(report.players_created),
                       "complete": last}
            if entry is None:       # one audit line, written with the first batch, kept true
                entry = audit(session, group, clean_actor(actor), "import", details)
            else:
                entry.details = details
                session.add(entry)
            session.commit()
            held = time.monotonic() - began
        except Exception as failure:
            session.rollback()
            if db.is_storage_fault(failure):       # a connection opened during the fault
                db.heal(session.get_bind())        # stays read-only: the next ones are fresh
            del report.players_created[created:]
            raise ImportInterrupted(report) from failure
        done += len(batch)
        report.imported += len(batch)
        report.voided += sum(1 for item in batch if item.voided)
        report.table_ids.extend(item.table_id for item in batch)
        told(done, len(prepared))
        if last:
            break
        # The next batch is as big as holds the database about IMPORT_BATCH_SECONDS (a busy
        # machine writes slower), then the writers that waited meanwhile go first: a waiting
        # SQLite writer retries up to every 100 ms, so a shorter gap could let this import take
        # every turn.
        if held > IMPORT_BATCH_SECONDS:
            size = max(IMPORT_BATCH_MIN, size // 2)
        elif held < IMPORT_BATCH_SECONDS / 3:
            size = min(IMPORT_BATCH_MAX, size * 2)
        time.sleep(max(IMPORT_PAUSE, held))
    return report


class ImportInterrupted(GroupProblem):
    """A batch of an import could not be written: ``report`` tells what is in (those plays
    stay); sending the same file again imports the rest."""

    def __init__(self, report: ImportReport):
        super().__init__(503, "import.interrupted",
                         N_("The import stopped. Plays imported so far: %(imported)d. Send "
                            "the same file again to import the rest."), "file", imported=report.imported)
        self.report = report


def _write_batch(session: Session, group: Group, batch: Sequence[_Prepared],
                 player_ids: dict[str, int], now: datetime, report: ImportReport) -> float:
    """Add one batch of plays (their new players first) in the session's transaction, as a
    few multi-row INSERTs, the rows computed before the first where possible, so that the
    database is held for as short a time as they take to write. Returns when the first
    INSERT began (``time.monotonic()``)."""
    new_names: dict[str, str] = {}
    for item in batch:
        for name, _score, _rank in item.seats:
            if name_key(name) not in player_ids:
                new_names.setdefault(name_key(name), name)
    tables = []
    for item in batch:
        item.table_id = new_table_id()
        players = [{"name": n, "score": s, "rank": r} for n, s, r in item.seats]
        extra = {"source": "bgstats"}
        if item.uuid:
            extra["uuid"] = item.uuid
        tables.append({"id": item.table_id, "game": item.game, "mode": TableMode.SCORE.value,
                       "status": TableStatus.FINISHED.value, "options": {},
                       "final_document": results_only_document(item.game, players, extra),
                       "group_id": group.id, "location": item.location,
                       "created_at": item.played_at, "finished_at": item.played_at,
                       "voided_at": now if item.voided else None})
    began = time.monotonic()
    if new_names:
        ids = session.scalars(
            insert(Player).returning(Player.id, sort_by_parameter_order=True),
            [{"name": name, "created_at": now} for name in new_names.values()]).all()
        session.execute(insert(GroupMembership),
                        [{"group_id": group.id, "player_id": pid} for pid in ids])
        for key, name, pid in zip(new_names, new_names.values(), ids):
            player_ids[key] = pid
            report.players_created.append(name)
    history_changed(session, [group.id], rewrite=False)
    if not batch:
        return began
    version = group.history_version
    session.execute(insert(GameTable), [{**table, "group_version": version}
                                        for table in tables])
    seats = [{"table_id": item.table_id, "position": position,
              "player_id": player_ids[name_key(name)], "name": name}
             for item in batch for position, (name, _score, _rank) in enumerate(item.seats)]
    seat_ids = session.scalars(insert(Seat).returning(Seat.id, sort_by_parameter_order=True),
                               seats).all()
    lines = [(score, rank) for item in batch for _n, score, rank in item.seats]
    session.execute(insert(Result), [
        {"seat_id": seat_id, "total": score, "rank": rank,
         "breakdown": {"categories": [], "stage_totals": []}}
        for seat_id, (score, rank) in zip(seat_ids, lines)])
    return began


# --------------------------------------------------------------------------------------------
# Export
# --------------------------------------------------------------------------------------------


def _stable_uuid(kind: str, key: Any) -> str:
    return str(uuid.uuid5(SCRIBE_NAMESPACE, f"{kind}:{key}"))


def _bg_date(moment: datetime) -> str:
    return as_utc(moment).strftime("%Y-%m-%d %H:%M:%S")


def _finished_tables(session: Session, group_id: int) -> list[GameTable]:
    when = func.coalesce(GameTable.finished_at, GameTable.created_at)
    return list(session.exec(select(GameTable).where(
        GameTable.group_id == group_id, GameTable.status == TableStatus.FINISHED.value)
        .order_by(when, GameTable.id)).all())


def _seat_rows(session: Session, table_ids: Sequence[str]) -> dict[str, list[tuple[Seat, Result]]]:
    rows = session.exec(select(Seat, Result).join(Result, col(Result.seat_id) == col(Seat.id))
                        .where(col(Seat.table_id).in_(table_ids), PEOPLE_SEATED)
                        .order_by(Seat.table_id, Seat.position)).all()
    out: dict[str, list[tuple[Seat, Result]]] = defaultdict(list)
    for seat, result in rows:
        out[seat.table_id].append((seat, result))
    return out


def export_bgstats(session: Session, group: Group, now: datetime | None = None
                   ) -> dict[str, Any]:
    """The group's history as a BG Stats backup (every finished play; voided ones ignored)."""
    stamp = _bg_date(now or utcnow())
    tables = _finished_tables(session, group.id)
    seats = _seat_rows(session, [t.id for t in tables])
    people = members(session, group.id)
    extra_ids = {seat.player_id for rows in seats.values() for seat, _r in rows} - \
        {p.id for p in people}
    if extra_ids:       # seated but no longer members (cannot happen through Scribe; be safe)
        people += list(session.exec(select(Player).where(col(Player.id).in_(extra_ids))).all())
    player_ref = {p.id: index for index, p in enumerate(people, 1)}
    games = [g for g in (list(GAMES) + sorted({t.game for t in tables} - set(GAMES)))
             if any(t.game == g for t in tables)]
    game_ref = {g: index for index, g in enumerate(games, 1)}
    places = sorted({t.location for t in tables if t.location})
    place_ref = {name: index for index, name in enumerate(places, 1)}
    plays = []
    for table in tables:
        document = table.final_document if isinstance(table.final_document, Mapping) else {}
        play_uuid = document.get("uuid") if document.get("source") == "bgstats" else None
        plays.append({
            "uuid": str(play_uuid or _stable_uuid("play", table.id)),
            "playDate": _bg_date(table.finished_at or table.created_at),
            "modificationDate": stamp,
            "gameRefId": game_ref[table.game],
            "locationRefId": place_ref.get(table.location or "", 0),
            "ignored": table.voided_at is not None,
            "manualWinner": False, "rounds": 0, "usesTeams": False, "durationMin": 0,
            "comments": table.notes or "", "board": "",
            "playerScores": [{
                "playerRefId": player_ref[seat.player_id], "score": str(result.total),
                "winner": result.rank == 1, "rank": result.rank,
                "seatOrder": seat.position + 1, "startPlayer": seat.position == 0,
                "newPlayer": False, "role": "", "team": ""}
                for seat, result in seats.get(table.id, [])],
        })
    return {
        "about": "Board Game Stats backup written by Scribe; import it with Board Game Stats.",
        "players": [{"id": player_ref[p.id], "uuid": _stable_uuid("player", p.id),
                     "name": p.name, "isAnonymous": False, "modificationDate": stamp,
                     "bggUsername": ""} for p in people],
        "locations": [{"id": place_ref[name], "uuid": _stable_uuid("location", name),
                       "name": name, "modificationDate": stamp} for name in places],
        "games": [{"id": game_ref[g], "uuid": _stable_uuid("game", g),
                   "name": GAMES[g].name if g in GAMES else g,
                   "bggId": (GAMES[g].bgg_id or 0) if g in GAMES else 0,
                   "bggName": GAMES[g].name if g in GAMES else g,
                   "highestWins": True, "noPoints": False, "cooperative": False,
                   "usesTeams": False, "modificationDate": stamp} for g in games],
        "plays": plays,
        "tags": [], "challenges": [], "groups": [],
    }


_FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _cell(text: str | None) -> str:
    """A text cell that a spreadsheet will not run as a formula (OWASP CSV injection)."""
    text = text or ""
    return "'" + text if text.startswith(_FORMULA) else text


def export_csv(session: Session, group: Group) -> str:
    """Every finished play of the group, one row per seat (UTF-8 text, header first).

    Columns: play, played_at (ISO 8601, UTC), game, location, voided, seat (from 1), player
    (current name), seat_name (as written at the table), score, rank, winner. Text cells that a
    spreadsheet would take for a formula are prefixed with an apostrophe.
    """
    tables = _finished_tables(session, group.id)
    seats = _seat_rows(session, [t.id for t in tables])
    names = {p.id: p.name for p in members(session, group.id)}
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["play", "played_at", "game", "location", "voided", "seat", "player",
                     "seat_name", "score", "rank", "winner"])
    for table in tables:
        for seat, result in seats.get(table.id, []):
            writer.writerow([table.id, as_utc(table.finished_at or table.created_at).isoformat(),
                             table.game, _cell(table.location),
                             "yes" if table.voided_at else "no", seat.position + 1,
                             _cell(names.get(seat.player_id, seat.name)), _cell(seat.name),
                             result.total, result.rank, "yes" if result.rank == 1 else "no"])
    return out.getvalue()


# --------------------------------------------------------------------------------------------
# The "createPlay" hand-off link
# --------------------------------------------------------------------------------------------


def create_play_data(table: GameTable, lines: Sequence[tuple[Seat, Result]],
                     names: Mapping[int, str] | None = None) -> dict[str, Any]:
    """The play as BG Stats' createPlay wants it (fields as documented on
    https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/ )."""
    info = GAMES.get(table.game)
    game: dict[str, Any] = {"name": info.name if info else table.game, "highestWins": True,
                            "noPoints": False, "sourceGameId": table.game}
    if info and info.bgg_id:
        game["bggId"] = info.bgg_id
    names = names or {}
    return {
        "playDate": _bg_date(table.finished_at or table.created_at),
        "location": table.location or "",
        "comments": table.notes or "",
        "durationMin": 0,
        "board": "",
        "game": game,
        "players": [{"name": names.get(seat.player_id, seat.name),
                     "sourcePlayerId": str(seat.player_id), "score": result.total,
                     "rank": result.rank, "winner": result.rank == 1,
                     "startPlayer": seat.position == 0, "role": ""}
                    for seat, result in lines],
    }


def create_play_url(session: Session, table_id: str) -> str | None:
    """The BG Stats hand-off link of a finished table, or None (unknown or unfinished):
    ``https://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>`` — the documented
    form (https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/);
    the app (3.3.2 or later) opens it and offers to save the play."""
    table = session.get(GameTable, table_id) if isinstance(table_id, str) and table_id else None
    if table is None or table.status != TableStatus.FINISHED.value:
        return None
    lines = _seat_rows(session, [table.id]).get(table.id, [])
    if not lines:
        return None
    names = ({p.id: p.name for p in members(session, table.group_id)}
             if table.group_id is not None else {})
    data = json.dumps(create_play_data(table, lines, names), ensure_ascii=False,
                      separators=(",", ":"))
    return f"{CREATE_PLAY_URL}?data={quote(data, safe='')}"


__all__ = ["CREATE_PLAY_URL", "GAMES", "GameInfo", "ImportRefused", "ImportReport",
           "MAX_IMPORT_BYTES", "MAX_IMPORT_PLAYS", "create_play_data", "create_play_url",
           "export_bgstats", "export_csv", "import_bgstats", "match_game", "parse_date",
           "parse_file", "parse_score"]
