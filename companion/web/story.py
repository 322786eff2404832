"""The story of a finished live game (issue 22): its score over the game, its decisive moments,
and a replay of the table after any move, for phones (no JavaScript needed).

Whoever may open the finished table may open its story (the table's address is the
capability, as for the table page); the replay shows what this phone's seat saw at that point
(a spectator sees what a spectator saw): each step goes through the game's own ``view``.
"""

from __future__ import annotations

import uuid

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from flask_babel import gettext, gettext as _

from .. import db
from ..models import GameTable
from ..rules import get_ruleset
from ..rules.base import Moment
from ..services import live_tables as live
from ..services.charts import scores_chart
from ..services.live_tables import TableProblem
from ..services.story import Story, shown_version, state_after, story_of
from .holdings import viewer

bp = Blueprint("story", __name__)


def _story(table_id: str) -> tuple[GameTable, Story]:
    session = db.session()
    try:
        table = live.get_table(session, table_id)
        if table.mode != "live":
            abort(404)
        return table, story_of(session, table)
    except TableProblem:
        abort(404)


def chapter_names(table: GameTable, story: Story) -> list[str]:
    """The x labels of the score chart: "Epoch 2" where the game counts chapters, else the
    move number; the set-up is "Start"."""
    stage = get_ruleset(table.game).labels.stage
    names = []
    for chapter, step in story.chapters:
        if step == 0:
            names.append(_("Start"))
        elif chapter is not None:
            names.append(_(stage, stage=chapter))
        else:
            names.append(_("Move %(n)d", n=step))
    return names


def story_chart(table: GameTable, story: Story) -> str:
    """The score chart as inline SVG, one line per Scoresheet line."""
    series = {name: [line[i] for line in story.totals] for i, name in enumerate(story.names)}
    return scores_chart(chapter_names(table, story), series)


@bp.get("/tables/<table_id>/story")
def story(table_id: str):
    """The story page: chart, moments, and the way into the replay."""
    table, told = _story(table_id)
    if "step" in request.args:            # the replay form without JavaScript
        step = request.args.get("step", type=int)
        if step is None:
            abort(400)
        return redirect(url_for("story.replay", table_id=table.id,
                                step=min(max(step, 0), told.last)), 303)
    return render_template("story.html", table=table, story=told,
                           chart=story_chart(table, told), ruleset=get_ruleset(table.game),
                           chapter_names=chapter_names(table, told), render_moment=_told)


def _told(moment: Moment) -> str:
    return moment.render(gettext)


class _Then:
    """A finished table as it stood after ``step`` moves: in play, at that point."""

    def __init__(self, table: GameTable, over: bool):
        self._table = table
        self.status = "finished" if over else "playing"
        self.code = None

    def __getattr__(self, name: str):
        return getattr(self._table, name)


@bp.get("/tables/<table_id>/story/<int:step>")
def replay(table_id: str, step: int):
    """The table after ``step`` moves, as this phone's seat saw it then, read-only."""
    table, told = _story(table_id)
    if step > told.last:
        abort(404)
    session = db.session()
    ruleset = get_ruleset(table.game)
    state = state_after(told, table, step)
    seat, _host = viewer(table)
    over = step == told.last
    shown = {**live.view(session, table, seat, state=state),
             "prompts": {"moves": []}, "undo_request": None}
    if not over:
        shown["scores"] = None
    page = current_app.jinja_env.select_template([f"games/{table.game}/live.html",
                                                 "live/generic.html"])
    then = _Then(table, over)
    moments = [_told(moment) for at, _version, moment in told.moments if at == step]
    return render_template(
        page, table=then, ruleset=ruleset, view=shown, legal_moves=(),
        state=shown["state"], prompts=shown["prompts"], my_seat=seat, host=False,
        holds_table=False, seats=live.seats(session, table), error=None, last_move=None,
        moves=step, can_undo=False, can_ask_undo=False, undo_request=None,
        idempotency_key=uuid.uuid4().hex, sheet=None, edition_defaults=[],
        labels=ruleset.labels, rows=None,
        replay={"step": step, "last": told.last,
                "version": shown_version(step, told.steps[step - 1].version)
                if step else None,
                "moments": moments})
