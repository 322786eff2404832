"""The page of a live table: what a seat, the host or a spectator sees of it.

Shown at the table's own address (:func:`.main.table`) and again by the live views when a
move or an undo is refused (with the reason), so it lives here, beside neither of them.
"""

from __future__ import annotations

import uuid
from typing import Any

from flask import current_app, render_template, request

from .. import db
from ..models import GameTable
from ..rules import get_ruleset
from ..services import live_tables as live
from ..services.scoring import sheet_rows
from .holdings import viewer
from .kept_values import keep_posted


class _WithoutCode:
    """A table as a spectator's page sees it: everything but the join code (every page of a
    table, the games' own included, may print ``table.code``)."""

    code = None

    def __init__(self, table: GameTable):
        self._table = table

    def __getattr__(self, name: str) -> Any:
        return getattr(self._table, name)


def render_table(table: GameTable, error: str | None = None, status: int = 200,
                 error_field: str | None = None):
    """The phone page of a live table, for its seat, the host or a spectator; answering a
    refused move, the form that sent it keeps what was entered, the refused argument
    (``error_field``) marked (:mod:`.kept_values`)."""
    session = db.session()
    seat, host = viewer(table)
    ruleset = get_ruleset(table.game)
    state = live.state_at(session, table)
    shown = live.view(session, table, seat, state=state)
    labels_of = {value.key: value.label for value in ruleset.edition}
    log = live.move_log(session, table)
    active = [m for m in log if m.undone_version is None]
    last = active[-1] if active else None
    sheet = shown["scores"]
    # the footer and the score sheet name only the printed values this table relies on
    in_use = ruleset.edition_in_use(table.options or {}, len(live.seats(session, table)))
    if sheet and sheet.get("assumed"):
        sheet = {**sheet, "assumed": [a for a in sheet["assumed"] if a.get("key") in in_use
                                      or a.get("key") not in labels_of]}
    page = current_app.jinja_env.select_template([f"games/{table.game}/live.html",
                                                 "live/generic.html"])
    defaults = [labels_of[key] for key in
                live.table_edition(ruleset, live.entered_edition(table)).defaults
                if key in in_use]
    playing = seat is not None and table.status == "playing"
    shown_table = table if seat is not None or host else _WithoutCode(table)
    html = render_template(
        page, table=shown_table, ruleset=ruleset, view=shown,
        legal_moves=ruleset.legal_moves(state, seat) if playing and page.name ==
        "live/generic.html" else (),
        state=shown["state"], prompts=shown["prompts"], my_seat=seat, host=host,
        holds_table=seat is not None or host,
        seats=live.seats(session, table), error=error, last_move=last, moves=len(active),
        can_undo=last is not None and (host or (seat is not None and last.seat == seat))
        and table.status in ("playing", "finished"),
        can_ask_undo=last is not None and seat is not None and table.status == "playing",
        undo_request=live.open_undo_request(table),
        idempotency_key=uuid.uuid4().hex, sheet=sheet, edition_defaults=defaults,
        labels=ruleset.labels,
        rows=sheet_rows(ruleset.labels, sheet["players"]) if sheet else None)
    if error and request.method == "POST":
        html = keep_posted(html, request.form, error_field, error)
    return html, status
