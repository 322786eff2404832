"""Charts as SVG strings (pygal), to inline in the group pages: no JavaScript, no CDN.

pygal links its tooltip script from a CDN by default and always embeds a small configuration
``<script>``; both are removed (``js=[]`` and :func:`_svg`), as are the XML declaration and the
generator comments, so the string can go straight into an HTML page (``|safe``). Names inside
(players, series) are XML-escaped by pygal's serializer, so a name with HTML in it stays text.
Series names and titles are passed in by the caller, already translated.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any, Callable, Mapping, Sequence

import pygal
from pygal.style import Style
from sqlmodel import Session

from ..collation import sort_key
from ..models import Group
from .groups import member
from .group_cache import summary
from .history import as_utc
from .ladder import points
from .stats import game_order

_SCRIPT = re.compile(r"<script\b[^>]*>.*?</script>", re.S)
_COMMENT = re.compile(r"<!--.*?-->", re.S)
MAX_POINTS = 60          # a phone screen shows the last 60 plays at most
MAX_SERIES = 12         # players drawn in a scores chart; more are named in the title
KEPT_CHARTS = 64        # rating charts kept per group and history version (see group_cache)

STYLE = Style(background="transparent", plot_background="transparent",
              font_family="DejaVu Sans, Arial, sans-serif", label_font_size=14,
              major_label_font_size=14, legend_font_size=15, title_font_size=18,
              # the winning line and twelve players, each its own colour
              colors=("#b5651d", "#1f6f8b", "#6a994e", "#9d4edd", "#c9184a", "#3a3a3a",
                      "#e09f3e", "#2a9d8f", "#8d6e63", "#d81b60", "#5c6bc0", "#7cb342",
                      "#00838f"))


def _config(**extra: Any) -> dict[str, Any]:
    base = dict(js=[], disable_xml_declaration=True, style=STYLE, width=640, height=360,
                legend_at_bottom=True, legend_at_bottom_columns=3, show_dots=True,
                dots_size=2, truncate_legend=24, print_values=False)
    base.update(extra)
    return base


def _svg(chart: pygal.graph.graph.Graph) -> str:
    """Render without scripts or comments: a self-contained inline SVG. A chart without a
    title of its own loses pygal's "Pygal" one, which a screen reader would read as its
    name (the page's heading names it)."""
    svg = chart.render(is_unicode=True).replace("<title>Pygal</title>", "", 1)
    return _COMMENT.sub("", _SCRIPT.sub("", svg))


def _day(moment: datetime) -> str:
    return as_utc(moment).strftime("%Y-%m-%d")


def rating_chart(series: Mapping[str, Sequence[tuple[datetime, float]]],
                 title: str | None = None) -> str:
    """Ratings over time: one line per series name, points are (time, rating)."""
    chart = pygal.DateTimeLine(**_config(title=title, x_value_formatter=_day,
                                         x_label_rotation=30))
    for name, points in series.items():
        if points:
            chart.add(name, [(as_utc(when), round(value, 2)) for when, value in
                             points[-MAX_POINTS:]])
    return _svg(chart)


def scores_chart(labels: Sequence[str], series: Mapping[str, Sequence[int | None]],
                 title: str | None = None) -> str:
    """Scores play by play: x labels (e.g. dates), one line per series (None = no score)."""
    chart = pygal.Line(**_config(title=title, x_label_rotation=30, allow_interruptions=True,
                                 show_minor_x_labels=len(labels) <= 12,
                                 x_labels_major_every=max(1, len(labels) // 6)))
    chart.x_labels = list(labels)
    for name, values in series.items():
        chart.add(name, list(values))
    return _svg(chart)


def player_rating_chart(session: Session, group: Group, player_id: Any,
                        labels: Mapping[str, str] | None = None, title: str | None = None,
                        per_game: bool = True) -> str:
    """A player's rating over time, in the ladder's points (:func:`.ladder.points`): the
    overall ladder and (``per_game``) each game's.
    ``labels`` names the series: "overall" and game ids (defaults to the ids)."""
    player = member(session, group.id, player_id)
    labels = labels or {}
    found = summary(session, group)
    kept = found.memo("rating_charts", dict)         # the last few drawn, per language
    key = (player.id, tuple(sorted(labels.items())), title, per_game)
    svg = kept.get(key)
    if svg is None:
        svg = _player_rating_chart(found.ladders.timeline.get(player.id, ()), labels, title,
                                   per_game)
        while len(kept) >= KEPT_CHARTS:
            kept.pop(next(iter(kept)), None)
        kept[key] = svg
    return svg


def _player_rating_chart(steps, labels: Mapping[str, str], title: str | None,
                         per_game: bool) -> str:
    series: dict[str, list[tuple[datetime, float]]] = {
        labels.get("overall", "overall"): [(s.played_at, points(s.overall.mu)) for s in steps]}
    if per_game:
        for game in game_order({s.game for s in steps}):
            series[labels.get(game, game)] = [(s.played_at, points(s.in_game.mu))
                                              for s in steps if s.game == game]
    return rating_chart(series, title)


def game_scores_chart(session: Session, group: Group, game: str,
                      labels: Mapping[str, str] | None = None, title: str | None = None,
                      more: Callable[[int], str] | None = None) -> str:
    """Scores in one game, play by play (last 60): the winning score and the totals of every
    player (at most :data:`MAX_SERIES`, those with most plays of it; ``more(n)`` says in the
    title how many were left out). ``labels["winning"]`` names the winning-score line."""
    labels = labels or {}
    found = summary(session, group)
    of_game = found.memo(("plays_of_game", game), lambda: [
        one for one in found.plays if one.game == game])[-MAX_POINTS:]
    name_of = found.name_of
    counts: dict[int, int] = {}
    for one in of_game:
        for line in one.lines:
            counts[line.player_id] = counts.get(line.player_id, 0) + 1
    shown = sorted(counts, key=lambda p: (-counts[p], sort_key(name_of.get(p, "")), p))
    series: dict[str, list[int | None]] = {
        labels.get("winning", "winning score"):
            [max((l.total for l in one.lines if l.won), default=None) for one in of_game]}
    for player_id in shown[:MAX_SERIES]:
        name = name_of.get(player_id, str(player_id))
        while name in series:          # two players with the same name in the legend
            name += " "
        series[name] = [line.total if (line := one.line_of(player_id)) else None
                        for one in of_game]
    left_out = len(shown) - MAX_SERIES
    if left_out > 0:
        note = more(left_out) if more else f"+{left_out}"
        title = f"{title} ({note})" if title else note
    return scores_chart([_day(one.played_at) for one in of_game], series, title)
