"""The story of a finished game (issue 22): chart, moments and replay of all five live games.

Seeded random games are played through the live-table service to the end; the replay of every
step must equal the live table's own state at that version (state_at, the path the table page
uses), the page of the story and of each step must render in cs, hu and en, and a step is
never more than a few moves from a snapshot.
"""

from __future__ import annotations

import pytest

from benchmarks.games import random_game
from companion import db
from companion.rules import get_ruleset
from companion.services import live_tables as live
from companion.services import story as stories
from tests.live_games import finished_live_game

GAMES = ("ra", "imhotep", "pharaon", "valley", "pyramids")


def _play(app, game: str, seed: int):
    """A seeded random game of ``game`` played to the end at a live table; its table id."""
    return finished_live_game(app, game, seed)[0]


@pytest.fixture(autouse=True)
def _fresh_stories():
    stories.forget()
    yield
    stories.forget()


@pytest.mark.parametrize("game", GAMES)
def test_the_replay_of_every_step_is_the_live_table_at_that_version(app, game):
    table_id = _play(app, game, seed=3)
    with app.app_context():
        session = db.session()
        table = live.get_table(session, table_id)
        story = stories.story_of(session, table)
        assert story.last == len(live.move_log(session, table)) > 0
        live._CACHE.clear()
        for step in range(story.last + 1):
            version = story.steps[step - 1].version if step else 0
            assert stories.state_after(story, table, step) == live.state_at(
                session, table, version), (game, step)
        ruleset = get_ruleset(game)
        assert ruleset.is_over(stories.state_after(story, table, story.last))
        # the chart: a point for the start, then one per chapter (or per few moves), the
        # last one the final Scoresheet's totals
        assert story.chapters[0] == (ruleset.chapter(stories.state_after(story, table, 0)), 0)
        assert story.totals[-1] == [p.total for p in ruleset.score(
            live.state_at(session, table)).players]
        assert [step for _chapter, step in story.chapters] == sorted(
            step for _chapter, step in story.chapters)
        # the winner is told, at the last move
        assert any(m.kind == "win" and at == story.last for at, _v, m in story.moments)


def test_a_game_names_its_own_moments(app):
    """Ra tells its biggest auction once, and each disaster; Imhotep its largest delivery."""
    ra = _play(app, "ra", seed=2)
    imhotep = _play(app, "imhotep", seed=2)
    with app.app_context():
        session = db.session()
        told = stories.story_of(session, live.get_table(session, ra))
        kinds = [m.kind for _a, _v, m in told.moments]
        assert kinds.count("ra.auction") == 1
        told = stories.story_of(session, live.get_table(session, imhotep))
        deliveries = [m for _a, _v, m in told.moments if m.kind == "imhotep.delivery"]
        assert len(deliveries) == 1 and deliveries[0].size >= 1


@pytest.mark.parametrize("language", ["cs", "hu", "en"])
def test_the_story_page_and_each_step_render_in_the_readers_language(app, client, language):
    table_id = _play(app, "valley", seed=1)
    client.set_cookie("lang", language)
    headers = {"Accept-Language": language}
    page = client.get(f"/tables/{table_id}/story", headers=headers)
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert f'lang="{language}"' in html and "<svg" in html
    heading = {"en": "The story of the game", "cs": "Příběh hry", "hu": "A játék története"}
    assert heading[language] in html
    # Valley's entombings name each card in the reader's language (the copy's name after it)
    entombed = {"en": " entombed ", "cs": " ukládá do hrobky: ", "hu": " sírba helyezte: "}
    assert entombed[language] in html
    if language == "hu":
        assert "Shabti" not in html and "Box of Food" not in html
    # nothing was undone, so each moment is its move's number alone (no "Move 37 (version 37)")
    version_word = {"en": "(version ", "cs": "(verze ", "hu": ". verzió)"}
    assert version_word[language] not in html
    for step in (0, 1, 7):
        shown = client.get(f"/tables/{table_id}/story/{step}", headers=headers)
        assert shown.status_code == 200
        assert 'class="replay-bar"' in shown.get_data(as_text=True)
    # the table page leads to the story; a step past the end does not exist
    assert f"/tables/{table_id}/story" in client.get(f"/tables/{table_id}").get_data(
        as_text=True)
    assert client.get(f"/tables/{table_id}/story/100000").status_code == 404
    # the slider's form, without JavaScript: a redirect to the step asked for
    moved = client.get(f"/tables/{table_id}/story?step=5")
    assert moved.status_code == 303 and moved.headers["Location"].endswith("/story/5")


def test_a_game_in_progress_has_no_story(app, client):
    _game, options, names, setup, log = random_game("ra", 4)
    with app.app_context():
        session = db.session()
        table = live.open_table(session, "ra", options, names, setup).table
        live.submit_move(session, table, log[0][0], log[0][1], table.version, "m0")
        table_id = table.id
    assert client.get(f"/tables/{table_id}/story").status_code == 404
    assert client.get(f"/tables/{table_id}/story/0").status_code == 404


def test_a_step_is_never_more_than_a_snapshot_away(app, client, monkeypatch):
    """Once the story is built, showing any step applies fewer moves than SNAPSHOT_EVERY."""
    table_id = _play(app, "imhotep", seed=5)
    assert client.get(f"/tables/{table_id}/story").status_code == 200
    ruleset = get_ruleset("imhotep")
    applied = []
    real = ruleset.apply
    monkeypatch.setattr(ruleset, "apply", lambda *a: applied.append(1) or real(*a))
    with app.app_context():
        last = stories.story_of(db.session(), live.get_table(db.session(), table_id)).last
    for step in (last, last - 1, stories.SNAPSHOT_EVERY - 1, 1):
        applied.clear()
        assert client.get(f"/tables/{table_id}/story/{step}").status_code == 200
        assert len(applied) < stories.SNAPSHOT_EVERY, step


def test_the_game_report_tells_the_story(app, tmp_path):
    """The report PDF of a finished live game carries the chart over the game and the moments,
    in the report's language."""
    from pypdf import PdfReader

    from companion.services.printing import report_for_table

    table_id = _play(app, "ra", seed=2)
    with app.app_context():
        session = db.session()
        told = stories.story_of(session, live.get_table(session, table_id))
        pdf = report_for_table(session, table_id, "http://scribe.test", lang="cs")
    (tmp_path / "report.pdf").write_bytes(pdf)
    text = " ".join(page.extract_text() for page in PdfReader(tmp_path / "report.pdf").pages)
    text = " ".join(text.split())
    assert "Rozhodující okamžiky" in text and "Epocha 3" in text
    winner = next(m for _a, _v, m in told.moments if m.kind == "win")
    assert f"{winner.params['player']} vítězí" in text
    assert "verze" not in text          # nothing undone: "Tah 37", not "Tah 37 (verze 37)"


def test_a_moment_shows_its_table_version_only_where_an_undo_moved_it():
    assert stories.shown_version(37, 37) is None
    assert stories.shown_version(37, 39) == 39          # two versions went to an undo


def test_pharaons_moment_names_an_unnamed_god_in_the_readers_language():
    """A god left unnamed is its number: the story's moment names it as each reader does
    ("2. isten" in Hungarian), a god the players named keeps their name."""
    from babel.support import Translations
    from companion.rules.base import Moment
    from companion.rules.pharaon.state import god_name
    from companion.rules.pharaon.story import GODS
    from companion.rules.messages import Joined
    from pdfgen.i18n import TRANSLATIONS
    moment = Moment(GODS, {"player": "Ana", "gods": Joined([god_name("2"), god_name("Amun")]),
                           "points": 9})
    hungarian = Translations.load(str(TRANSLATIONS), ["hu"]).gettext
    assert "2. isten, Amun" in moment.render(hungarian)
    assert "God 2, Amun" in moment.render(lambda s: s)
