"""The print menu: score pads, play aids, each game's own printouts, player cards and game
reports as PDF downloads.

What a game prints comes from the print registry (:mod:`pdfgen.registry`), so nothing here
names a game. Every number in a query string is checked before any work is done: anything
that is not a whole number in range is answered 422 with a message naming the field.
"""

from __future__ import annotations

import re

from flask import Blueprint, Response, abort, jsonify, render_template, request
from flask_babel import get_locale

from .. import db
from ..i18n import render_violation, violation_body
from ..models import GameTable, TableMode
from ..rules.base import N_
from ..links import public_base
from ..services import printing
from ..services.printing import PrintError
from .holdings import holds_table

bp = Blueprint("printing", __name__, url_prefix="/print")

PAGES = ("a4", "letter")
MAX_SHEETS = 100                      # a pad from the web: enough for a season of a club
_DIGITS = re.compile(r"[0-9]{1,6}")   # longer is out of every range: never converted


def _options() -> dict:
    page = request.args.get("page", "a4")
    return {"page": page if page in PAGES else "a4", "lang": str(get_locale())}


def _number(name: str, low: int, high: int, default: int | None) -> int | None:
    """The query's ``name`` as a whole number from ``low`` to ``high`` (``default`` when
    absent); PrintError naming the field otherwise, before the text is ever converted."""
    text = request.args.get(name)
    if text is None or text == "":
        return default
    if not _DIGITS.fullmatch(text) or not low <= int(text) <= high:
        raise PrintError("print.bad_number", N_("“%(name)s” must be a whole number from "
                                                "%(low)d to %(high)d."), name, name=name,
                         low=low, high=high)
    return int(text)


def _refuse(problem: PrintError):
    """Why a printout cannot be made: a page for people, the API's JSON error for programs."""
    status = 404 if problem.code == "print.no_table" else 422
    if request.accept_mimetypes.best == "application/json":
        return jsonify(violation_body(problem)), status
    return render_template("error.html", code=status, message=render_violation(problem)), \
        status


def _join_data_allowed(table_id: str) -> bool:
    """A live table's printouts carry its join code: only its host and seated players may
    have them (issue 10). A score-only table has no code; a missing table is refused later."""
    table = db.session().get(GameTable, table_id)
    if table is None or table.mode != TableMode.LIVE.value or not table.code:
        return True
    return holds_table(table)


def _pdf(make, filename: str):
    """Send the PDF, or a page saying why it could not be made."""
    try:
        pdf = make()
    except PrintError as problem:
        return _refuse(problem)
    return Response(pdf, mimetype="application/pdf",
                    headers={"Content-Disposition": f'inline; filename="{filename}"'})


@bp.get("/<game>")
def menu(game: str):
    """What can be printed for a game: blank pads, play aids and its own printouts."""
    try:
        content = printing.print_content(game)
    except PrintError:
        abort(404)
    return render_template("print/menu.html", game=game, content=content)


@bp.get("/<game>/pad.pdf")
def blank_pad(game: str):
    """A blank score pad whose QR code opens the game's score form."""
    try:
        counts = printing.player_counts(game)
        players = _number("players", min(counts), max(counts), None)
        sheets = _number("sheets", 1, MAX_SHEETS, 10)
    except PrintError as problem:
        return _refuse(problem)
    return _pdf(lambda: printing.blank_pad_pdf(game, public_base(), sheets=sheets,
                                               players=players, **_options()),
                f"scribe-{game}-pad.pdf")


@bp.get("/<game>/aids.pdf")
def aids(game: str):
    """Play aids and scoring reference cards, their QR codes to the game's score form."""
    return _pdf(lambda: printing.aids_pdf(game, public_base(), **_options()),
                f"scribe-{game}-aids.pdf")


@bp.get("/<game>/extras/<key>.pdf")
def extra(game: str, key: str):
    """One of the game's own printouts, as registered by its print module."""
    return _pdf(lambda: printing.extra_pdf(game, key, public_base(), **_options()),
                f"scribe-{game}-{key}.pdf")


@bp.get("/tables/<table_id>/pad.pdf")
def table_pad(table_id: str):
    """A score pad with this table's names and its QR code."""
    if not _join_data_allowed(table_id):
        abort(404)
    try:
        sheets = _number("sheets", 1, MAX_SHEETS, 5)
    except PrintError as problem:
        return _refuse(problem)
    return _pdf(lambda: printing.table_pad_pdf(db.session(), table_id, public_base(),
                                               sheets=sheets, **_options()),
                "scribe-pad.pdf")


@bp.get("/tables/<table_id>/cards.pdf")
def player_cards(table_id: str):
    """A card per seat with the table's QR code and the seat's join link."""
    if not _join_data_allowed(table_id):
        abort(404)
    return _pdf(lambda: printing.player_cards_for_table(db.session(), table_id,
                                                        public_base(), **_options()),
                "scribe-player-cards.pdf")


@bp.get("/tables/<table_id>/report.pdf")
def report(table_id: str):
    """The report of a finished game, its QR code to the table."""
    if not _join_data_allowed(table_id):
        abort(404)
    return _pdf(lambda: printing.report_for_table(db.session(), table_id, public_base(),
                                                  **_options()),
                "scribe-report.pdf")
