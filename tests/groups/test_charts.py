"""Charts are inline SVG strings: no script, no CDN, no XML declaration, names escaped."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from sqlmodel import Session

from companion.models import Group
from companion.services import charts

from .builders import Api, at, engine, finished_table

pytestmark = pytest.mark.db


def _check(svg: str) -> ET.Element:
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert "<script" not in svg and "<?xml" not in svg and "<!--" not in svg
    assert not re.search(r"(src|href)=\"(https?:)?//", svg)
    assert "kozea.github.io" not in svg
    return ET.fromstring(svg)          # well-formed XML, so it can be inlined


def test_rating_and_score_charts(app, client):
    api = Api(client)
    for hour, seats in enumerate([[("<b>Ana</b>", 30, 1), ("Bea", 20, 2)],
                                  [("<b>Ana</b>", 10, 2), ("Bea", 25, 1)],
                                  [("<b>Ana</b>", 40, 1), ("Bea", 5, 2)]], 1):
        api.record(finished_table(app, "ra", seats, when=at(hour)))
    ana = next(p["player_id"] for p in api.get("/players").get_json()["players"]
               if p["name"] == "<b>Ana</b>")
    with Session(engine(app)) as session:
        group = session.get(Group, api.id)
        rating = charts.player_rating_chart(session, group, ana,
                                            labels={"overall": "Celkově", "ra": "Ra"},
                                            title="Hodnocení")
        scores = charts.game_scores_chart(session, group, "ra", labels={"winning": "Vítěz"})
        empty = charts.game_scores_chart(session, group, "pharaon")
    for svg in (rating, scores, empty):
        _check(svg)
    assert "Celkově" in rating and "Hodnocení" in rating
    assert "&lt;b&gt;Ana&lt;/b&gt;" in scores and "<b>Ana" not in scores
    assert "Vítěz" in scores and "2025-03-01" in scores
