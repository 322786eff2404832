"""The game report: a finished table as a printable PDF, from an HTML template (WeasyPrint).

``templates/report/game.html`` is rendered with plain Jinja2 (no Flask, no request) in the
table's language, with the Babel catalogs; the score chart is inline SVG drawn by
:func:`score_chart_svg`; the fonts are the same embedded DejaVu files as the ReportLab sheets,
so the report is deterministic too. Every page carries the table's link as a QR code in its
top margin (a page-margin box added by :func:`qr_stylesheet`, so the template needs no part
in it). Input is plain data (:class:`GameReport`); :mod:`companion.services.printing` builds
it from the database.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping, Sequence
from base64 import b64encode
from xml.sax.saxutils import escape

from babel.dates import format_date, format_time
from babel.support import NullTranslations, Translations
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup
from reportlab.pdfbase import pdfmetrics

from companion.qr import qr_matrix

from .errors import PrintError
from .fonts import SANS, SANS_BOLD, font_file, register_fonts
from .geometry import page_size
from .i18n import N_, TRANSLATIONS, translator
from .pads import check_url
from .text import clean_text

TEMPLATES = Path(__file__).resolve().parent.parent / "templates" / "report"
PAGE_CSS = {"a4": "A4", "letter": "letter"}
# Line colours that stay apart in print, each with its own marker for grey-scale printers.
SERIES = (("#1f5fa8", "circle"), ("#c0392b", "square"), ("#2e8b3e", "triangle"),
          ("#8e44ad", "diamond"), ("#d98200", "cross"), ("#555555", "circle"))


@dataclass(frozen=True)
class GameReport:
    """Everything the report shows; rows are ``services.scoring.sheet_rows`` of the sheet."""

    game: str
    game_name: str
    players: Sequence[Mapping[str, Any]]          # name, total, rank, breakdown
    rows: Sequence[Mapping[str, Any]]
    qr_url: str                                   # the table, printed as a QR code
    status: str = "finished"
    mode: str = "score"
    table_id: str = ""
    code: str | None = None
    location: str | None = None
    created_at: datetime | None = None
    finished_at: datetime | None = None
    move_count: int | None = None                 # live tables only
    duration: timedelta | None = None             # live tables only
    stage_label: str = N_("Epoch %(stage)d")
    category_labels: Mapping[str, str] = field(default_factory=dict)
    reason_labels: Mapping[str, str] = field(default_factory=dict)
    tiebreak_labels: Mapping[str, str] = field(default_factory=dict)
    # The story of a live game (companion/services/story.py): each chart point's label as
    # (msgid, params), each Scoresheet line's totals at every point, the moments told
    # (move number, version, a Moment: rendered with the report's translator).
    story_labels: Sequence[tuple[str, Mapping[str, Any]]] = ()
    story_names: Sequence[str] = ()
    story_totals: Sequence[Sequence[int]] = ()
    moments: Sequence[tuple[int, int, Any]] = ()

    @property
    def winners(self) -> list[str]:
        return [p["name"] for p in self.players if p.get("rank") == 1]


@lru_cache(maxsize=None)
def _environment(lang: str) -> Environment:
    env = Environment(loader=FileSystemLoader(str(TEMPLATES)),
                      autoescape=select_autoescape(["html"]),
                      extensions=["jinja2.ext.i18n"], trim_blocks=True, lstrip_blocks=True)
    # a quoted CSS string inside the template's <style>, where HTML escapes are not undone
    # ("Silver & Gold" would print as "Silver &amp; Gold")
    env.filters["css_string"] = lambda text: Markup(_css_string(str(text)).replace("<", "\\3c "))
    catalog = (NullTranslations() if lang == "en"
               else Translations.load(str(TRANSLATIONS), [lang]))
    env.install_gettext_translations(catalog, newstyle=True)
    return env


def duration_text(duration: timedelta | None, lang: str) -> str:
    """“1 h 25 min” in ``lang`` (empty for no duration)."""
    if duration is None:
        return ""
    t = translator(lang)
    minutes = max(0, round(duration.total_seconds() / 60))
    hours, minutes = divmod(minutes, 60)
    if hours:
        return t(N_("%(hours)d h %(minutes)d min"), hours=hours, minutes=minutes)
    return t(N_("%(minutes)d min"), minutes=minutes)


def render_report_html(report: GameReport, *, lang: str = "en", page: str = "a4") -> str:
    """The report as an HTML document (the template, filled in, in ``lang``)."""
    t = translator(lang)
    page_size(page)                                   # validates the name
    if not report.players:
        raise PrintError("print.no_results", N_("This table has no scores to report yet."),
                         "table")
    players = [dict(p, name=clean_text(p["name"], f"players.{i}.name"))
               for i, p in enumerate(report.players)]

    def when(value: datetime | None) -> str:
        if value is None:
            return ""
        return (f'{format_date(value, "long", locale=lang)} '
                f'{format_time(value, "short", locale=lang)}')

    stage_names = [t(report.stage_label, stage=n) for n in range(1, _stages(players) + 1)]
    chart = score_chart_svg(players, stage_names, start_label=t(N_("Start")),
                            axis_label=t(N_("points")))
    if report.story_totals:                       # a live game: the score over the whole game
        lines = [{"name": clean_text(name, f"story.{i}"),
                  "breakdown": {"stage_totals": [row[i] for row in report.story_totals]}}
                 for i, name in enumerate(report.story_names)]
        chart = score_chart_svg(lines, [t(msgid, **params) for msgid, params in
                                        report.story_labels], axis_label=t(N_("points")))
    gettext = (lambda message: t(message))
    moments = [(t(N_("Move %(n)d"), n=step),       # version: None unless an undo moved it
                t(N_("version %(v)d"), v=version) if version is not None else "",
                moment.render(gettext)) for step, version, moment in report.moments]
    return _environment(lang).get_template("game.html").render(
        report=report, players=players, lang=lang, page_css=PAGE_CSS[page.lower()],
        font_regular=font_file(SANS).as_uri(), font_bold=font_file(SANS_BOLD).as_uri(),
        created=when(report.created_at), finished=when(report.finished_at),
        duration=duration_text(report.duration, lang),
        winners=[p["name"] for p in players if p.get("rank") == 1],
        tiebreaks=[p for p in players if p.get("breakdown", {}).get("tiebreak")],
        stage_title=lambda stage: t(report.stage_label, stage=stage),
        label=lambda key, labels: t(labels[key]) if key in labels else key,
        chart=chart, moments=moments)


def report_pdf(report: GameReport, *, lang: str = "en", page: str = "a4") -> bytes:
    """The report as PDF bytes (WeasyPrint), the table's QR code on every page."""
    from weasyprint import CSS, HTML          # heavy import: only when a report is printed

    url = check_url(report.qr_url)
    html = render_report_html(report, lang=lang, page=page)
    style = CSS(string=qr_stylesheet(url, translator(lang)(N_("Scan to open this table"))))
    return HTML(string=html, base_url=str(TEMPLATES)).write_pdf(stylesheets=[style])


QR_SIZE_MM = 12
# The code sits at the bottom of a deeper top margin, so its dark modules stay clear of the
# 4–6 mm a home printer leaves blank at the paper's edge.
QR_MARGIN_MM = 20


def qr_svg_uri(url: str) -> str:
    """``url``'s QR code as an SVG data URI, ``QR_SIZE_MM`` square (quiet zone included)."""
    matrix = qr_matrix(url)
    n = len(matrix)
    path = "".join(f"M{x},{y}h1v1h-1z" for y, row in enumerate(matrix)
                   for x, dark in enumerate(row) if dark)
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{QR_SIZE_MM}mm" '
           f'height="{QR_SIZE_MM}mm" viewBox="0 0 {n} {n}" shape-rendering="crispEdges">'
           f'<path d="{path}" fill="#000"/></svg>')
    return "data:image/svg+xml;base64," + b64encode(svg.encode()).decode()


def _css_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def qr_stylesheet(url: str, caption: str) -> str:
    """A stylesheet putting ``caption`` and ``url``'s QR code in every page's top-right
    margin box."""
    return ("@page { margin-top: %dmm !important; @top-right { content: %s url(\"%s\"); "
            "vertical-align: bottom; font: 7pt \"Scribe Sans\"; color: #777; "
            "white-space: pre; } }"
            % (QR_MARGIN_MM, _css_string(caption + "  "), qr_svg_uri(url)))


# --------------------------------------------------------------------------------------------
# The chart
# --------------------------------------------------------------------------------------------


def _stages(players: Sequence[Mapping[str, Any]]) -> int:
    return max((len(p.get("breakdown", {}).get("stage_totals", [])) for p in players),
               default=0)


def _start_value(player: Mapping[str, Any]) -> int | None:
    """Points held before the first stage (Ra's starting fame), if the sheet has any."""
    total, seen = 0, False
    for category in player.get("breakdown", {}).get("categories", []):
        if category.get("stage") is not None:
            return total if seen else None
        total += category.get("points", 0)
        seen = True
    return None


def _nice_step(span: float) -> int:
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000):
        if span / step <= 8:
            return step
    return 1000


def _marker(kind: str, x: float, y: float, colour: str) -> str:
    r = 4.2
    if kind == "square":
        return (f'<rect x="{x - r:.1f}" y="{y - r:.1f}" width="{2 * r:.1f}" '
                f'height="{2 * r:.1f}" fill="{colour}"/>')
    if kind == "triangle":
        return (f'<polygon points="{x:.1f},{y - r - 1:.1f} {x - r - 0.5:.1f},{y + r:.1f} '
                f'{x + r + 0.5:.1f},{y + r:.1f}" fill="{colour}"/>')
    if kind == "diamond":
        return (f'<polygon points="{x:.1f},{y - r - 1:.1f} {x + r + 1:.1f},{y:.1f} '
                f'{x:.1f},{y + r + 1:.1f} {x - r - 1:.1f},{y:.1f}" fill="{colour}"/>')
    if kind == "cross":
        return (f'<path d="M{x - r:.1f},{y - r:.1f} L{x + r:.1f},{y + r:.1f} M{x - r:.1f},'
                f'{y + r:.1f} L{x + r:.1f},{y - r:.1f}" stroke="{colour}" stroke-width="2.4"/>')
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{colour}"/>'


LABEL_GAP = 6              # px between two x labels of the chart


def label_width(label: str, font_size: float) -> float:
    """How wide ``label`` is drawn in the chart's font (DejaVu Sans, as WeasyPrint draws it)."""
    register_fonts()
    return pdfmetrics.stringWidth(label, SANS, font_size)


def _shown_labels(labels: Sequence[str], plot_w: float, font_size: float) -> list[int]:
    """The x labels drawn: every one when they fit side by side, else every k-th (the first
    and the last always), so that no two overlap (a Valley game has some forty turns)."""
    count = len(labels)
    if count < 2:
        return list(range(count))
    spacing = plot_w / (count - 1)
    widest = max(label_width(label, font_size) for label in labels) + LABEL_GAP
    stride = max(1, -(-int(widest) // max(1, int(spacing))))
    while stride * spacing < widest:
        stride += 1
    shown = list(range(0, count, stride))
    if shown[-1] != count - 1:
        if len(shown) > 1 and (count - 1) - shown[-1] < stride:
            shown.pop()                               # the last one takes its place
        shown.append(count - 1)
    return shown


def score_chart_svg(players: Sequence[Mapping[str, Any]], stage_names: Sequence[str], *,
                    start_label: str = "Start", axis_label: str = "points",
                    width: int = 640, height: int = 300) -> str:
    """An inline SVG line chart of each player's running total after every stage.

    Empty string when no stage totals exist (nothing to draw).
    """
    stages = len(stage_names)
    if stages == 0:
        return ""
    starts = [_start_value(p) for p in players]
    with_start = all(s is not None for s in starts)
    labels = ([start_label] if with_start else []) + list(stage_names)
    series = []
    for p, start in zip(players, starts):
        values = list(p.get("breakdown", {}).get("stage_totals", []))
        series.append(([start] if with_start else []) + values)
    every = [v for values in series for v in values]
    low, high = min(0, min(every)), max(every)
    step = _nice_step(max(high - low, 1))
    low = (low // step) * step
    high = -(-high // step) * step if high > low else low + step
    left, right, top, bottom = 52, 150, 16, 40
    plot_w, plot_h = width - left - right, height - top - bottom

    def x_at(i: int) -> float:
        return left + (plot_w * i / (len(labels) - 1) if len(labels) > 1 else plot_w / 2)

    def y_at(v: float) -> float:
        return top + plot_h * (1 - (v - low) / (high - low))

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           f'class="chart" font-family="Scribe Sans" font-size="11">']
    tick = low
    while tick <= high:
        y = y_at(tick)
        out.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" '
                   f'stroke="{"#888" if tick == 0 else "#ddd"}" stroke-width="1"/>')
        out.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end" '
                   f'fill="#444">{tick}</text>')
        tick += step
    out.append(f'<text x="12" y="{top + plot_h / 2:.1f}" fill="#444" text-anchor="middle" '
               f'transform="rotate(-90 12 {top + plot_h / 2:.1f})">{escape(axis_label)}</text>')
    for i in _shown_labels(labels, plot_w, font_size=11):
        out.append(f'<text x="{x_at(i):.1f}" y="{top + plot_h + 18}" text-anchor="middle" '
                   f'fill="#222">{escape(labels[i])}</text>')
    for n, (player, values) in enumerate(zip(players, series)):
        colour, marker = SERIES[n % len(SERIES)]
        points = " ".join(f"{x_at(i):.1f},{y_at(v):.1f}" for i, v in enumerate(values))
        out.append(f'<polyline points="{points}" fill="none" stroke="{colour}" '
                   f'stroke-width="2.2"/>')
        out.extend(_marker(marker, x_at(i), y_at(v), colour) for i, v in enumerate(values))
        ly = top + 10 + n * 20
        lx = left + plot_w + 18
        out.append(f'<line x1="{lx}" y1="{ly}" x2="{lx + 22}" y2="{ly}" stroke="{colour}" '
                   f'stroke-width="2.2"/>')
        out.append(_marker(marker, lx + 11, ly, colour))
        name = player["name"] if len(player["name"]) <= 16 else player["name"][:15] + "…"
        out.append(f'<text x="{lx + 28}" y="{ly + 4}" fill="#222">{escape(name)} '
                   f'({values[-1] if values else ""})</text>')
    out.append("</svg>")
    return "".join(out)
