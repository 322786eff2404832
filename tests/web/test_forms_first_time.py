"""Forms that get through the first time, or say exactly where they do not (issue 20, item 4).

* Every score form sent untouched (only the players' names typed): each line of the error
  summary names the field, not only the player ("Ana · Suns: …"), links to it, and the field
  is marked on the page. A number box says "0" in grey only where a blank counts as 0.
* The open-table form of every live game: a group of three fills three of the boxes it is
  offered and opens the table; the player count is asked first and sets the boxes, and a
  phone of a group starts from the count the group plays the game with.
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
                       action="score")
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


def _open_form(client, game: str, query: str = ""):
    page = client.get(f"/tables/new/{game}{query}").get_data(as_text=True)
    return page, next(f for f in forms(page) if any(n == "_players" for n, _v, _k in f.fields)
                      or "_players" in f.options)


LIVE = [r.id for r in all_rulesets(Capability.LIVE)]


@pytest.mark.parametrize("game", LIVE)
def test_a_group_of_three_opens_a_table_from_the_form_as_it_comes(client, game):
    """The form as it comes (its usual count of boxes), three names typed, the rest blank:
    the table opens for three, or (a set-up that depends on the count) the form comes back
    set for three with the names in place, and opens on the next tap."""
    page, form = _open_form(client, game)
    boxes = len(re.findall(r'name="players\.\d+"', page))
    assert boxes >= 3
    typed = {f"players.{i}": name for i, name in enumerate(NAMES)}
    answer = client.post(f"/tables/new/{game}", data=form.values(action="open", **typed))
    if answer.status_code == 200:
        html = answer.get_data(as_text=True)
        assert "Set for 3 players" in html and "must not be empty" not in html
        assert len(re.findall(r'name="players\.\d+"', html)) == 3
        form = next(f for f in forms(html) if "_players" in f.options)
        answer = client.post(f"/tables/new/{game}", data=form.values(action="open"))
    assert answer.status_code == 303, answer.get_data(as_text=True)[:3000]
    table_id = answer.headers["Location"].split("/")[2]
    seats = client.get(f"/tables/{table_id}/join").get_data(as_text=True)
    assert all(name in seats for name in NAMES) and 'id="seat-4"' not in seats


@pytest.mark.parametrize("game", LIVE)
def test_the_player_count_is_asked_first_and_sets_the_boxes(client, game):
    page, form = _open_form(client, game)
    first_field = re.search(r'<form method="post" novalidate>.*?<(select|input) (?![^>]*'
                            r'type="hidden")[^>]*name="([^"]+)"', page, re.S).group(2)
    assert first_field == "_players"
    answer = client.post(f"/tables/new/{game}", data=form.values(action="set_players",
                                                                 _players="3"))
    assert answer.status_code == 200
    html = answer.get_data(as_text=True)
    assert len(re.findall(r'name="players\.\d+"', html)) == 3
    assert re.search(r'<option value="3" selected>3</option>', html)


def test_a_phone_of_a_group_starts_from_the_count_the_group_plays(client):
    """A phone that belongs to a group whose Ra plays are of three players: its open-table
    form for Ra starts with three boxes (another game, with no plays, with its own count)."""
    from tests.web.test_group_pages import open_group, saved_table

    group_id, _invite, _admin = open_group(client, "Tuesday")
    for _ in range(2):
        table_id = saved_table(client, players=3)
        assert client.post(f"/groups/{group_id}/plays",
                           data={"table": table_id}).status_code == 303
    page, _form = _open_form(client, "ra")
    assert len(re.findall(r'name="players\.\d+"', page)) == 3
    assert re.search(r'<option value="3" selected>3</option>', page)
    other, _form = _open_form(client, "imhotep")
    assert len(re.findall(r'name="players\.\d+"', other)) == 4
