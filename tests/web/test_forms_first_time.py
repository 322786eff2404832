"""Forms that get through the first time, or say exactly where they do not (issue 20, item 4).

* Every score form sent untouched (only the players' names typed): each line of the error
  summary names the field, not only the player ("Ana · Suns: …"), links to it, and the field
  is marked on the page. A number box says "0" in grey only where a blank counts as 0.
* The open-table form of every live game: a group of three fills three of the boxes it is
  offered and opens the table; the player count is asked first and sets the boxes.
"""

from __future__ import annotations

import re
from html import unescape

import pytest

from companion.rules import Capability, all_rulesets
from tests.web.pageforms import forms

pytestmark = pytest.mark.db

NAMES = ["Ana", "Bo", "Cy"]


def _score_form(html: str):
    return next(f for f in forms(html) if "score-form" in (f.attrs.get("class") or ""))


@pytest.mark.parametrize("game", [r.id for r in all_rulesets(Capability.SCORE)])
def test_an_untouched_score_form_names_links_and_marks_every_field_in_error(client, game):
    page = client.get(f"/score/{game}?_players=3").get_data(as_text=True)
    form = _score_form(page)
    sent = form.values(**{f"players.{i}.name": name for i, name in enumerate(NAMES)},
                       action="calculate")
    answer = client.post(f"/score/{game}", data=sent)
    html = answer.get_data(as_text=True)
    summary = re.search(r'id="error-summary".*?</div>', html, re.S)
    if answer.status_code == 200:
        assert summary is None
        return
    assert answer.status_code == 422 and summary, game
    for href, label, message in re.findall(
            r'<li><a href="#([^"]+)"><strong>([^<]*)</strong>: ([^<]*)</a></li>',
            summary.group(0)):
        label = unescape(label)
        assert label not in NAMES, (game, label, message)      # the field, not only who
        target = re.search(rf'<[a-z]+ [^>]*id="{re.escape(href)}"[^>]*>', html)
        assert target, (game, href)
        assert 'aria-invalid="true"' in target.group(0) or "has-errors" in target.group(0), (
            game, target.group(0))
    lines = re.findall(r"<li>(.*?)</li>", summary.group(0), re.S)
    assert all("<a href=" in line for line in lines if any(n in line for n in NAMES)), lines


def test_a_number_box_shows_0_only_where_a_blank_counts_as_0(app):
    from companion.rules.base import IntField, ObjectField
    from companion.web.schema_form import build_form

    schema = ObjectField("doc", "Doc", (IntField("tomb", "Tomb points", default=None),
                                        IntField("gold", "Gold"),
                                        IntField("extra", "Extra", optional=True)))
    with app.test_request_context():
        form = build_form(schema, {}, {}, {})
    assert [child.blank for child in form.children] == ["", "0", ""]
