"""Player cards for a live table and the WeasyPrint game report, from the database."""

from __future__ import annotations

import re

import pytest
from sqlmodel import select

from companion.models import Move
from companion.services import printing
from companion.services.scoring import load_table
from pdfgen.errors import PrintError
from pdfgen.report import score_chart_svg
from tests.pdfgen.builders import (LIVE_NAMES, finished_live_table, open_live_table,
                                   scored_table, session_for)
from tests.pdfgen.pdfcheck import (SIZES, needs_decoder, needs_pdftoppm, page_sizes,
                                   qr_texts, qr_texts_per_page, text)

BASE = "http://scribe.example:8000/"
pytestmark = pytest.mark.db


# ---- player cards --------------------------------------------------------------------------


@pytest.mark.parametrize("page", ["a4", "letter"])
def test_player_cards_one_per_seat_with_join_link(app, page):
    with session_for(app) as session:
        table = open_live_table(session)
        pdf = printing.player_cards_for_table(session, table.id, BASE, page=page, lang="hu")
        assert page_sizes(pdf) == [SIZES[page]]
        words = "".join(text(pdf).split())              # links may wrap over lines
        for position, name in enumerate(LIVE_NAMES):
            assert name in words
            assert f"#seat-{position + 1}" in words
        assert table.code in words
        assert f"/tables/{table.id}/join" in words


@needs_pdftoppm
@needs_decoder
def test_player_card_qr_opens_the_join_link(app):
    with session_for(app) as session:
        table = open_live_table(session)
        pdf = printing.player_cards_for_table(session, table.id, BASE)
    assert qr_texts(pdf) == [f"http://scribe.example:8000/j/{table.code}"] * 3


def test_player_cards_need_a_live_table_that_exists(app):
    with session_for(app) as session:
        scored = scored_table(session)
        with pytest.raises(PrintError) as caught:
            printing.player_cards_for_table(session, scored, BASE)
        assert caught.value.code == "print.not_live"
        with pytest.raises(PrintError) as caught:
            printing.player_cards_for_table(session, "no-such-table", BASE)
        assert caught.value.code == "print.no_table"


def test_pad_for_an_open_table_has_its_names_colours_and_qr(app):
    with session_for(app) as session:
        table = open_live_table(session)
        pdf = printing.table_pad_pdf(session, table.id, BASE, lang="cs", sheets=2)
    words = text(pdf, 0)
    assert all(name in words for name in LIVE_NAMES) and "Győr" in words
    assert f"http://scribe.example:8000/tables/{table.id}" in "".join(words.split())


# ---- the game report -----------------------------------------------------------------------


def test_report_of_a_scored_table(app):
    with session_for(app) as session:
        table_id = scored_table(session)
        summary = load_table(session, table_id)
        pdf = printing.report_for_table(session, table_id, BASE, lang="cs", page="letter")
    assert set(page_sizes(pdf)) == {SIZES["letter"]}
    words = text(pdf)
    for player in summary.players:
        assert player["name"] in words and str(player["total"]) in words
    assert "Řehoř" in words and "Ödön" in words and "Brno" in words
    assert "Faraoni" in words and "Epocha 3" in words            # the table's language
    assert "Moves" not in words                                   # score-only: no move count


def test_report_of_a_solo_game_says_won_or_lost_against_the_goal(app):
    """A solo Pharaon game: the report names the goal and says lost (the Traitor has more),
    with a Result row instead of ranks; no "Winner"."""
    from companion.rules.pharaon.final import score_final as pharaon_final
    from companion.services.scoring import save_scored_table
    holdings = {"nobles": [], "artisans": [], "nile": [0] * 5, "tomb_steps": 0,
                "tomb_points": 0, "basic": 0, "silver": 0,
                "offerings": {"resource": 0, "area": 0, "plus1": 0, "plus2": 0}}
    gods = [{"name": "", "a": {"threshold": 2, "points": 3}, "b": {"threshold": 2, "points": 3}}
            for _ in range(5)]
    document = {"game": "pharaon", "board": {"areas": ["OFF", "NOB", "ART", "NIL", "TMB"],
                                             "gods": gods},
                "players": [{"name": "Ödön", **holdings}], "pharaoh": None,
                "first_player": "Ödön",
                "traitor": {"name": "", **holdings, "gods": [1], "multiplier": None}}
    with session_for(app) as session:
        table_id = save_scored_table(session, document, pharaon_final(document)).id
        english = text(printing.report_for_table(session, table_id, BASE, lang="en"))
        hungarian = text(printing.report_for_table(session, table_id, BASE, lang="hu"))
    assert "Lost: Ödön did not reach the goal." in english
    assert "Goal: more points than the Traitor (a tie is his)." in english
    assert "Winner" not in english and "Rank" not in english
    assert re.search(r"Result\s+lost\s+won", english)
    assert "Vereség: Ödön nem érte el a célt." in hungarian


class _Clock:
    """A clock a minute further at every look: renders never fall in the same second."""

    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def time(self) -> float:
        self.now += 60
        return self.now


@pytest.fixture
def fixed_font_time(monkeypatch):
    """What makes a report the same bytes on any machine. Without libharfbuzz-subset0,
    WeasyPrint subsets fonts with fontTools, which stamps the current time into every font
    (``head.modified``) unless SOURCE_DATE_EPOCH (reproducible builds) names the time: so the
    comparison fixes that one timestamp and nothing else; .ci/run installs the library."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")


def test_report_of_a_live_table_has_moves_duration_tiebreak_and_chart(app, fixed_font_time):
    with session_for(app) as session:
        table_id = finished_live_table(session)
        moves = session.exec(select(Move).where(Move.table_id == table_id,
                                                Move.undone_version.is_(None))).all()
        summary = load_table(session, table_id)
        pdf = printing.report_for_table(session, table_id, BASE, lang="en")
        again = printing.report_for_table(session, table_id, BASE, lang="en")
    assert pdf == again                                           # deterministic
    words = text(pdf)
    assert f"Moves: {len(moves)}" in words.replace("\n", " ")
    assert "Duration:" in words and ("Winner:" in words or "Shared win:" in words)
    assert "Score over the game" in words
    assert "Start" in words and "Epoch 1" in words                # chart axis (inline SVG)
    for category in ("Gods", "Pharaohs", "Nile and floods", "Civilizations", "Gold",
                     "Monuments: different kinds", "Sun total"):
        assert category in words
    for player in summary.players:
        assert player["name"] in words


@needs_pdftoppm
@needs_decoder
def test_every_page_of_the_report_leads_to_the_table(app):
    with session_for(app) as session:
        table_id = finished_live_table(session)
        pdf = printing.report_for_table(session, table_id, BASE, lang="hu")
    pages = qr_texts_per_page(pdf)
    assert len(pages) >= 2                                        # the sheet runs over a page
    assert all(codes == [f"http://scribe.example:8000/tables/{table_id}"] for codes in pages)
    words = text(pdf)
    assert "Az asztal megnyitásához olvassa be" in words and "Scan" not in words   # caption


def test_report_is_the_same_bytes_when_fonttools_subsets_the_fonts(app, fixed_font_time,
                                                                  monkeypatch):
    """The machine without libharfbuzz-subset0 (WeasyPrint falls back to fontTools), with the
    two renders minutes apart: still the same bytes."""
    from fontTools.misc import timeTools
    from weasyprint.pdf import fonts

    monkeypatch.setattr(fonts, "harfbuzz_subset", None)
    monkeypatch.setattr(timeTools, "time", _Clock())
    with session_for(app) as session:
        table_id = finished_live_table(session)
        first = printing.report_for_table(session, table_id, BASE, lang="en")
        assert printing.report_for_table(session, table_id, BASE, lang="en") == first


def test_report_needs_a_finished_table(app):
    with session_for(app) as session:
        unfinished = scored_table(session, epochs=2)
        with pytest.raises(PrintError) as caught:
            printing.report_for_table(session, unfinished, BASE)
        assert caught.value.code == "print.not_finished"
        with pytest.raises(PrintError) as caught:
            printing.report_for_table(session, "nope", BASE)
        assert caught.value.code == "print.no_table"


def test_chart_draws_every_player_and_escapes_names():
    start = [{"category": "start", "points": 10}, {"category": "x", "points": 2, "stage": 1}]
    players = [{"name": "A<b>&", "breakdown": {"categories": start,
                                               "stage_totals": [12, 30, 41]}},
               {"name": "Řehoř", "breakdown": {"categories": start,
                                               "stage_totals": [8, 2, 55]}}]
    svg = score_chart_svg(players, ["Epoch 1", "Epoch 2", "Epoch 3"])
    assert svg.startswith("<svg") and svg.count("<polyline") == 2
    assert "A&lt;b&gt;&amp;" in svg and "<b>" not in svg
    assert re.search(r">Start<", svg) and ">Epoch 3<" in svg
    assert score_chart_svg(players, []) == ""


def test_the_footer_prints_a_game_name_with_an_ampersand_as_it_is():
    """The footer is a CSS string in the report's <style>, where HTML escapes are not undone:
    the playtest's report of Silver & Gold – Pyramids printed "Silver &amp; Gold" there."""
    from pdfgen.report import GameReport, report_pdf

    report = GameReport(game="pyramids", game_name='Silver & Gold – "Pyramids" </style>',
                        players=[{"name": "Ana", "total": 12, "rank": 1, "breakdown": {}}],
                        rows=[], qr_url=BASE)
    words = text(report_pdf(report, lang="cs"))
    assert 'Scribe · Silver & Gold – "Pyramids" </style>' in words
    assert "&amp;" not in words


@pytest.mark.parametrize("stages", [3, 12, 40, 80])
def test_the_charts_x_labels_never_overlap(stages):
    """Playtest (issue 20): a Valley game's report drew all forty-one turn labels under its
    chart, run together into one smear. Every label drawn has room, the first and last among
    them, and a short game keeps all of its labels."""
    from pdfgen.report import label_width
    players = [{"name": "Ödön", "breakdown": {"stage_totals": list(range(stages + 1))}}]
    names = ["Kezdet"] + [f"{n}. kör" for n in range(1, stages + 1)]    # as a live game's
    svg = score_chart_svg(players, names)
    drawn = re.findall(r'<text x="([\d.]+)" y="[\d.]+" text-anchor="middle" fill="#222">'
                       r'([^<]+)</text>', svg)
    assert drawn[0][1] == "Kezdet" and drawn[-1][1] == names[-1]
    if stages <= 3:
        assert len(drawn) == stages + 1
    for (x1, a), (x2, b) in zip(drawn, drawn[1:]):
        assert float(x2) - float(x1) >= (label_width(a, 11) + label_width(b, 11)) / 2, (a, b)
