"""Printing jobs: score pads, play aids, player cards and game reports as PDF bytes.

The web layer and the command line call these; they turn tables and seats from the database
into the plain data :mod:`pdfgen` draws, and build the links printed as QR codes from a base
URL (the app's ``PUBLIC_URL`` on the web, ``--base-url`` on the command line; never the
request's Host header). Bad input raises
:class:`pdfgen.errors.PrintError` (a RuleViolation: stable code, translatable message); a
missing table raises it too, with code ``print.no_table``.

What a game prints comes from :mod:`pdfgen.registry` (each game's own pdfgen module
registers it); names and labels come from the game's ruleset (``catalogue``, ``labels``).
Nothing here names a game.

Links printed (every printout carries one as a QR code):
  * a game's score-only form: ``/score/<game>`` (``?_players=N`` when the pad has names), on
    blank pads, play aids and the game's own printouts; a game without score-only mode links
    its print menu ``/print/<game>`` instead;
  * a table: ``/tables/<id>``, on its pad and its game report; joining it: ``/j/<code>``
    (live tables with a code), on player cards;
  * a seat: ``/tables/<id>/join#seat-<n>`` (n from 1; the seat list may anchor it).
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any, Mapping, Sequence

from sqlmodel import Session, col, select

from pdfgen import aids as _aids
from pdfgen import cards as _cards
from pdfgen import pads as _pads
from pdfgen import report as _report
from pdfgen.errors import PrintError
from pdfgen.i18n import N_
from pdfgen.registry import GamePrint, game_print

from ..models import GameTable, Move, Seat, TableMode, TableStatus
from ..rules import Capability, get_ruleset, offers
from ..rules.base import Ruleset
from .scoring import TableSummary, load_table, sheet_rows
from .story import story_of

__all__ = ["PrintError", "aids_pdf", "blank_pad_pdf", "extra_pdf", "game_name", "game_url",
           "pad_pdf", "player_cards_pdf", "player_cards_for_table", "player_counts",
           "print_content", "report_for_table", "report_pdf",
           "table_pad_pdf", "score_url", "table_url", "join_url", "seat_url"]


# ---- what can be printed -------------------------------------------------------------------


def print_content(game: str) -> GamePrint:
    """What ``game`` prints; PrintError ``print.unknown_game`` for any other name."""
    return game_print(game)


def player_counts(game: str) -> tuple[int, ...]:
    """The player counts ``game``'s pad has columns for; PrintError for an unknown game."""
    return _pads.player_counts(game)


# ---- links ---------------------------------------------------------------------------------


def _base(base_url: str) -> str:
    return str(base_url).rstrip("/")


def score_url(base_url: str, game: str, players: int | None = None) -> str:
    """The score-only form of ``game`` (with that many player columns, if given)."""
    url = f"{_base(base_url)}/score/{game}"
    return f"{url}?_players={players}" if players else url


def game_url(base_url: str, game: str, players: int | None = None) -> str:
    """Where a game's blank printouts lead: its score-only form, or (for a game without
    score-only mode) its print menu."""
    if offers(get_ruleset(game), Capability.SCORE):
        return score_url(base_url, game, players)
    return f"{_base(base_url)}/print/{game}"


def table_url(base_url: str, table: GameTable) -> str:
    return f"{_base(base_url)}/tables/{table.id}"


def join_url(base_url: str, table: GameTable) -> str:
    """Where the table's QR code leads to join: the short code link, else the seat list."""
    if table.code:
        return f"{_base(base_url)}/j/{table.code}"
    return f"{_base(base_url)}/tables/{table.id}/join"


def seat_url(base_url: str, table: GameTable, position: int) -> str:
    return f"{_base(base_url)}/tables/{table.id}/join#seat-{position + 1}"


# ---- names and labels ----------------------------------------------------------------------


def game_name(game: str, lang: str = "en") -> str:
    """The game's name in ``lang`` (its catalogue's; the id for a game not registered)."""
    try:
        return get_ruleset(game).catalogue.name(lang)
    except KeyError:
        return str(game)


def _ruleset(game: str) -> Ruleset:
    """The registered ruleset of a table's game; PrintError when there is none."""
    try:
        return get_ruleset(game)
    except KeyError:
        raise PrintError("print.unknown_game", N_("Scribe does not know the game “%(game)s”."),
                         "game", game=str(game)[:40]) from None


def _table(session: Session, table_id: str) -> GameTable:
    table = session.get(GameTable, str(table_id))
    if table is None:
        raise PrintError("print.no_table", N_("There is no table “%(id)s”."), "table",
                         id=str(table_id))
    return table


def _seats(session: Session, table: GameTable) -> list[Seat]:
    return list(session.exec(select(Seat).where(Seat.table_id == table.id)
                             .order_by(Seat.position)).all())


# ---- score pads ----------------------------------------------------------------------------


def pad_pdf(game: str, names: Sequence[str] | None = None, *, page: str = "a4",
            lang: str = "en", qr_url: str, sheets: int = 1, players: int | None = None,
            colours: Sequence[str | None] | None = None, subtitle: str | None = None,
            qr_caption: str | None = None) -> bytes:
    """A score pad (``sheets`` pages) of ``game`` with ``names`` or blank, QR to ``qr_url``."""
    return _pads.score_pad(game, names, page=page, lang=lang, qr_url=qr_url, sheets=sheets,
                           players=players, colours=colours, subtitle=subtitle,
                           qr_caption=qr_caption)


def blank_pad_pdf(game: str, base_url: str, *, page: str = "a4", lang: str = "en",
                  sheets: int = 1, players: int | None = None,
                  names: Sequence[str] | None = None) -> bytes:
    """A pad whose QR code opens the game's score-only form (a new score-only entry)."""
    game_print(game)                       # an unknown game is refused before any link
    count = len(names) if names else None
    return pad_pdf(game, names, page=page, lang=lang, sheets=sheets, players=players,
                   qr_url=game_url(base_url, game, count),
                   qr_caption=N_("Scan to enter the scores"))


def table_pad_pdf(session: Session, table_id: str, base_url: str, *, page: str = "a4",
                  lang: str = "en", sheets: int = 1) -> bytes:
    """A pad for an open table: its players' names and colours, its QR code to the table."""
    table = _table(session, table_id)
    seats = _seats(session, table)
    subtitle_parts = [p for p in (table.location, f"{table.code}" if table.code else None) if p]
    return pad_pdf(table.game, [s.name for s in seats] or None, page=page, lang=lang,
                   sheets=sheets, qr_url=table_url(base_url, table),
                   colours=[s.color for s in seats], subtitle=" · ".join(subtitle_parts) or None,
                   qr_caption=N_("Scan to open this table"))


# ---- play aids and player cards ------------------------------------------------------------


def aids_pdf(game: str, base_url: str, *, page: str = "a4", lang: str = "en",
             copies: int | None = None, sides: str = "single", bleed: float = 0.0,
             card: str = "poker") -> bytes:
    """Play aids: the game's aid sheets, then ``copies`` sets of its reference cards; every
    page's QR code opens the game's score form."""
    game_print(game)
    return _aids.play_aids(game, page=page, lang=lang, copies=copies, sides=sides,
                           bleed=bleed, card=card, qr_url=game_url(base_url, game))


def extra_pdf(game: str, key: str, base_url: str, *, page: str = "a4",
              lang: str = "en") -> bytes:
    """One of the game's own printouts (``key`` as registered), its QR code to the game's
    score form."""
    printout = game_print(game).extra(key)
    return printout.make(page=page, lang=lang,
                         qr_url=_pads.check_url(game_url(base_url, game)))


def player_cards_pdf(table: GameTable, seats: Sequence[Seat], base_url: str, *,
                     page: str = "a4", lang: str = "en", card: str = "poker",
                     bleed: float = 0.0) -> bytes:
    """One card per seat with the table's join QR code and the seat's own link."""
    if table.mode != TableMode.LIVE.value:
        raise PrintError("print.not_live", N_("Player cards are for live tables only."),
                         "table")
    cards = [_cards.SeatCard(s.position, s.name, s.color, seat_url(base_url, table, s.position))
             for s in seats]
    return _cards.player_cards(game_name(table.game, lang), cards,
                               table_url=join_url(base_url, table), code=table.code,
                               page=page, lang=lang, card=card, bleed=bleed)


def player_cards_for_table(session: Session, table_id: str, base_url: str, **options) -> bytes:
    """:func:`player_cards_pdf` for a table id (PrintError when there is no such table)."""
    table = _table(session, table_id)
    return player_cards_pdf(table, _seats(session, table), base_url, **options)


# ---- the game report -----------------------------------------------------------------------


def report_pdf(summary: TableSummary, base_url: str, *, lang: str = "en",
               move_count: int | None = None, duration: timedelta | None = None,
               page: str = "a4", story: Mapping[str, Any] | None = None) -> bytes:
    """The game report of a finished table as PDF bytes (WeasyPrint), its QR code to the
    table."""
    table = summary.table
    if table.status != TableStatus.FINISHED.value:
        raise PrintError("print.not_finished", N_("The game at this table is not finished "
                                                  "yet, so there is no report."), "table")
    ruleset = _ruleset(table.game)
    labels = ruleset.labels
    story = dict(story or {})
    report = _report.GameReport(
        game=table.game, game_name=ruleset.catalogue.name(lang), players=summary.players,
        rows=sheet_rows(labels, summary.players), qr_url=table_url(base_url, table),
        status=table.status, mode=table.mode,
        table_id=table.id, code=table.code, location=table.location,
        created_at=table.created_at, finished_at=table.finished_at, move_count=move_count,
        duration=duration, stage_label=labels.stage,
        category_labels=dict(labels.categories), reason_labels=dict(labels.reasons),
        tiebreak_labels=dict(labels.tiebreaks), **story)
    return _report.report_pdf(report, lang=lang, page=page)


def _aware(value: datetime | None) -> datetime | None:
    """SQLite hands back naive datetimes; they are UTC."""
    if value is not None and value.tzinfo is None:
        return value.replace(tzinfo=timezone.utc)
    return value


def live_facts(session: Session, table: GameTable) -> tuple[int | None, timedelta | None]:
    """(moves that stand, time from the first move to the end) for a live table."""
    if table.mode != TableMode.LIVE.value:
        return None, None
    moves = list(session.exec(select(Move).where(Move.table_id == table.id,
                                                 col(Move.undone_version).is_(None))
                              .order_by(Move.seq)).all())
    if not moves:
        return 0, None
    start = _aware(moves[0].created_at)
    end = _aware(table.finished_at) or _aware(moves[-1].created_at)
    return len(moves), max(end - start, timedelta(0))


def report_for_table(session: Session, table_id: str, base_url: str, *, lang: str = "en",
                     page: str = "a4") -> bytes:
    """:func:`report_pdf` for a table id, with its move count and duration if live."""
    summary = load_table(session, str(table_id))
    if summary is None:
        raise PrintError("print.no_table", N_("There is no table “%(id)s”."), "table",
                         id=str(table_id))
    move_count, duration = live_facts(session, summary.table)
    return report_pdf(summary, base_url, lang=lang, move_count=move_count, duration=duration,
                      page=page, story=story_facts(session, summary.table))


def story_facts(session: Session, table: GameTable) -> dict[str, Any]:
    """The story of a finished live table for its report: the chart's points and the moments
    (:mod:`.story`); nothing for a score-only table."""
    if table.mode != TableMode.LIVE.value or table.status != TableStatus.FINISHED.value:
        return {}
    told = story_of(session, table)
    stage = _ruleset(table.game).labels.stage
    labels = [(N_("Start"), {}) if step == 0 else (stage, {"stage": chapter})
              if chapter is not None else (N_("Move %(n)d"), {"n": step})
              for chapter, step in told.chapters]
    return {"story_labels": labels, "story_names": told.names,
            "story_totals": told.totals, "moments": told.moments}

