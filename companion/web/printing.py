"""The print menu: score pads, play aids, player cards and game reports as PDF downloads."""

from __future__ import annotations

from flask import Blueprint, Response, abort, render_template, request
from flask_babel import get_locale

from .. import db
from ..i18n import render_violation
from ..links import public_base
from ..rules import get_ruleset
from ..services import printing
from ..services.printing import PrintError

bp = Blueprint("printing", __name__, url_prefix="/print")

PAGES = ("a4", "letter")


def _options() -> dict:
    page = request.args.get("page", "a4")
    return {"page": page if page in PAGES else "a4", "lang": str(get_locale())}


def _pdf(make, filename: str):
    """Send the PDF, or a page saying why it could not be made."""
    try:
        pdf = make()
    except PrintError as problem:
        status = 404 if problem.code == "print.no_table" else 422
        return render_template("error.html", code=status, message=render_violation(problem)), \
            status
    return Response(pdf, mimetype="application/pdf",
                    headers={"Content-Disposition": f'inline; filename="{filename}"'})


@bp.get("/<game>")
def menu(game: str):
    """What can be printed for a game: blank pads and play aids."""
    try:
        get_ruleset(game)
    except KeyError:
        abort(404)
    if game not in printing.PAD_GAMES:
        abort(404)
    return render_template("print/menu.html", game=game)


@bp.get("/<game>/pad.pdf")
def blank_pad(game: str):
    """A blank score pad whose QR code opens the game's score form."""
    players = request.args.get("players", type=int)
    sheets = min(max(request.args.get("sheets", 10, type=int), 1), 100)
    return _pdf(lambda: printing.blank_pad_pdf(game, public_base(), sheets=sheets,
                                               players=players, **_options()),
                f"scribe-{game}-pad.pdf")


@bp.get("/<game>/aids.pdf")
def aids(game: str):
    """Play aids and scoring reference cards."""
    return _pdf(lambda: printing.aids_pdf(game, **_options()), f"scribe-{game}-aids.pdf")


@bp.get("/tables/<table_id>/pad.pdf")
def table_pad(table_id: str):
    """A score pad with this table's names and its QR code."""
    sheets = min(max(request.args.get("sheets", 5, type=int), 1), 100)
    return _pdf(lambda: printing.table_pad_pdf(db.session(), table_id, public_base(),
                                               sheets=sheets, **_options()),
                "scribe-pad.pdf")


@bp.get("/tables/<table_id>/cards.pdf")
def player_cards(table_id: str):
    """A card per seat with the table's QR code and the seat's join link."""
    return _pdf(lambda: printing.player_cards_for_table(db.session(), table_id,
                                                        public_base(), **_options()),
                "scribe-player-cards.pdf")


@bp.get("/tables/<table_id>/report.pdf")
def report(table_id: str):
    """The report of a finished game."""
    return _pdf(lambda: printing.report_for_table(db.session(), table_id, **_options()),
                "scribe-report.pdf")
