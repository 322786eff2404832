"""No internal identifier on a player's screen (issue 20, item 8).

Ra, Imhotep and Silver & Gold – Pyramids are played to the end at random (tests/rules/playout),
the same moves are made on a live table, and at a few points of the game (the start, a
quarter, half, three quarters, the end) every seat's phone page is rendered in English, Czech
and Hungarian. Its visible text (what is between the tags, outside scripts and styles) and the
words a phone shows or reads out (``title``, ``aria-label``, ``placeholder``) hold no
snake_case identifier (``round_cards_3p``, ``worst_skull_penalty``…): a key of the engine
shown raw instead of its name in words (Imhotep's notice named ``round_cards_3p``). The score
forms and their refusals are checked the same way. And a number is followed by the words of
its plural form in each language ("1 purple boxes need …; 1 are listed" was the bug).
"""

from __future__ import annotations

import html
import json
import re
import uuid

import pytest

from companion import db
from companion.rules import get_ruleset
from companion.services import live_tables as live

from tests.rules.playout import play

pytestmark = pytest.mark.db

GAMES = ("ra", "imhotep", "pyramids")
NAMES = ("Ana", "Bo", "Cy", "Dita")
LANGUAGES = ("en", "cs", "hu")
SNAKE = re.compile(r"\b[a-z]+_[a-z0-9_]+\b")
HIDDEN = re.compile(r"<(script|style|svg)\b.*?</\1>", re.S | re.I)
SHOWN_ATTRIBUTES = re.compile(r'\b(?:title|aria-label|placeholder)="([^"]*)"')
TAG = re.compile(r"<[^>]+>")


def shown_words(page: str) -> str:
    """The text a person sees or hears on ``page``."""
    page = HIDDEN.sub(" ", page)
    said = " ".join(SHOWN_ATTRIBUTES.findall(page))
    return html.unescape(TAG.sub(" ", page) + " " + said)


def internal_ids(page: str) -> list[str]:
    return sorted(set(SNAKE.findall(shown_words(page))))


def test_the_check_sees_what_it_looks_for():
    page = ('<p title="a round_cards_3p">Board data (worst_skull_penalty)</p>'
            '<script>var x_y = 1;</script><input name="players.0.red_gems" value="x_y">')
    assert internal_ids(page) == ["round_cards_3p", "worst_skull_penalty"]


def open_live(app, game: str, players: int, seed: int):
    """A random game played through the protocol, and a live table with the same start."""
    ruleset = get_ruleset(game)
    played = play(ruleset, seed, players)
    with app.app_context():
        opened = live.open_table(db.session(), game, played.options, list(NAMES[:players]),
                                 played.setup)
        table_id = opened.table.id
    return played, table_id


def phones(app, table_id: str, players: int) -> list:
    out = []
    for seat in range(players):
        phone = app.test_client()
        assert phone.post(f"/tables/{table_id}/seats/{seat}/claim").status_code == 303
        out.append(phone)
    return out


def replay(app, table_id: str, moves) -> None:
    with app.app_context():
        session = db.session()
        for seat, move in moves:
            table = live.get_table(session, table_id)
            live.submit_move(session, table, seat, move, table.version, uuid.uuid4().hex)


@pytest.mark.parametrize("game, players, seed", [("ra", 3, 1), ("imhotep", 3, 2),
                                                 ("pyramids", 3, 3), ("imhotep", 2, 4)])
def test_live_pages_show_no_internal_id(app, game, players, seed):
    played, table_id = open_live(app, game, players, seed)
    seated = phones(app, table_id, players)
    watcher = app.test_client()
    log = played.log
    marks = sorted({0, len(log) // 4, len(log) // 2, 3 * len(log) // 4, len(log)})
    done = 0
    found: dict[str, set[str]] = {}
    for mark in marks:
        replay(app, table_id, log[done:mark])
        done = mark
        for language in LANGUAGES:
            for who, phone in enumerate([*seated, watcher]):
                phone.set_cookie("lang", language)
                response = phone.get(f"/tables/{table_id}")
                assert response.status_code == 200
                for word in internal_ids(response.get_data(as_text=True)):
                    found.setdefault(word, set()).add(f"move {mark}, {language}, phone {who}")
    with app.app_context():
        table = live.get_table(db.session(), table_id)
        assert table.status == "finished", "the live table did not follow the play-out"
    assert not found, {word: sorted(where)[:3] for word, where in found.items()}


def score_form_pages(client, game: str) -> list[str]:
    """The score form of ``game`` and, for each variant, its form; and the form sent back
    empty (every refusal beside its field)."""
    pages = []
    url = f"/score/{game}"
    page = client.get(url)
    assert page.status_code == 200
    pages.append(page.get_data(as_text=True))
    for variant, _label in get_ruleset(game).score_form.variants:
        pages.append(client.get(f"{url}?variant={variant}").get_data(as_text=True))
    refused = client.post(url, data={"_players": "3", "action": "score"})
    pages.append(refused.get_data(as_text=True))
    return pages


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_score_forms_and_their_refusals_show_no_internal_id(client, game, language):
    client.set_cookie("lang", language)
    found = {word for page in score_form_pages(client, game) for word in internal_ids(page)}
    assert not found


@pytest.mark.parametrize("game", GAMES)
def test_api_refusals_in_words_show_no_internal_id(client, game):
    """The score API's refusals of a few wrong documents: the message names no key."""
    ruleset = get_ruleset(game)
    wrong = [{"game": game, "players": []}, {"game": game, "players": [{}, {}, {}]},
             {"game": game, "players": [{"name": "Ana"}, {"name": "Ana"}], "edition": 3}]
    for document in wrong:
        response = client.post("/api/v1/score", data=json.dumps(document),
                               content_type="application/json")
        assert response.status_code == 422
        message = response.get_json()["message"]
        assert not SNAKE.findall(message), (ruleset.id, message)


# --------------------------------------------------------------------------------------------
# Numbers with the words that follow them (ngettext): "1 box needs", "2 boxes need"
# --------------------------------------------------------------------------------------------

def _race_refusal(client, language: str, boxes: list[int], purple: int) -> str:
    cards = [{"number": 1 + i, "colour": "purple"} for i in range(purple)]
    document = {"game": "pyramids", "players": [
        {"name": "Ana", "completed": cards, "race": {"purple": boxes}}, {"name": "Bo"}]}
    response = client.post("/api/v1/score", data=json.dumps(document),
                           content_type="application/json",
                           headers={"Accept-Language": language})
    assert response.status_code == 422
    body = response.get_json()
    return next(e["message"] for e in body["errors"] if e["field"] == "players.0.race.purple")


@pytest.mark.parametrize("language, boxes, purple, message", [
    ("en", [10], 1, "1 purple pyramid points box needs 2 completed cards of that colour; "
                    "1 is listed."),
    ("en", [10, 6], 3, "2 purple pyramid points boxes need 4 completed cards of that colour; "
                       "3 are listed."),
    ("en", [10, 6, 3], 0, "3 purple pyramid points boxes need 6 completed cards of that "
                          "colour; 0 are listed."),
    ("cs", [10], 1, "1 políčko pyramidových bodů barvy „fialová“ potřebuje 2 dokončené karty "
                    "té barvy; uvedena je 1."),
    ("cs", [10, 6], 3, "2 políčka pyramidových bodů barvy „fialová“ potřebují 4 dokončené "
                       "karty té barvy; uvedeny jsou 3."),
    ("cs", [10, 6, 3], 5, "3 políčka pyramidových bodů barvy „fialová“ potřebují 6 "
                          "dokončených karet té barvy; uvedeno je 5."),
    ("hu", [10], 1, "1 lila piramispont-négyzethez 2 befejezett, ugyanilyen színű kártya "
                    "kell; 1 szerepel a listán."),
])
def test_a_count_refusal_uses_the_plural_forms_of_the_language(client, language, boxes, purple,
                                                                message):
    """Issue 20, item 8: "1 purple boxes need 2 completed purple cards; 1 are listed"."""
    assert _race_refusal(client, language, boxes, purple) == message


def test_the_marking_reading_has_a_sentence_per_count_in_each_language(client):
    """The phone reads the taps aloud as they come (static/games/pyramids.js): "a red cross
    asks for 1 more mark", "… 2 more marks", in the plural forms of cs and hu too."""
    from .test_pyramids_pages import dealt_game, move_form, page_of

    table_id, phones = dealt_game(client)
    page = page_of(phones[0], table_id)
    phones[0].post(move_form(page, "reveal", shape="I2").action,
                   data=move_form(page, "reveal", shape="I2").values())
    wanted = {"en": ("A red cross asks for 1 more mark: tap it on either card.",
                     "Red crosses ask for 2 more marks: tap them on either card.",
                     "5 chambers more than the pattern and its red crosses ask for."),
              "cs": ("Červený křížek žádá ještě 1 křížek: klepněte na políčko na kterékoli "
                     "kartě.", "Červené křížky žádají ještě 2 křížky: klepněte na políčka na "
                     "kterékoli kartě.", "O 5 políček víc, než žádá vzor a jeho červené křížky."),
              "hu": ("A piros kereszt még 1 jelölést kér: koppintson bármelyik kártyán.",
                     "A piros kereszt még 2 jelölést kér: koppintson bármelyik kártyán.",
                     "5 kamrával több, mint amennyit a minta és a piros keresztjei kérnek.")}
    for language, (one, two, over) in wanted.items():
        phones[0].set_cookie("lang", language)
        page = page_of(phones[0], table_id)
        form = re.search(r'<form[^>]*class="pg-marking"[^>]*>', page).group(0)
        due = json.loads(html.unescape(re.search(r'data-text-due="([^"]*)"', form).group(1)))
        more = json.loads(html.unescape(re.search(r'data-text-over="([^"]*)"', form).group(1)))
        assert (due["1"], due["2"], more["5"]) == (one, two, over)
        assert len(due) == len(more) == 25


@pytest.mark.parametrize("game, option", [("ra", "fame_floor_zero"),
                                          ("imhotep", "hammer_partial_allowed")])
def test_an_option_refused_by_the_engine_is_not_named_by_its_key(game, option):
    """The engine's own option check (behind the shared one) named the key in its message;
    the field says where, the message says what."""
    from companion.rules.base import RuleViolation, resolve_edition

    ruleset = get_ruleset(game)
    with pytest.raises(RuleViolation) as caught:
        ruleset.setup({option: "no"}, list(NAMES[:3]), ruleset.default_setup(3),
                      resolve_edition(ruleset.edition, None))
    assert caught.value.field == f"options.{option}"
    assert caught.value.render() == "This must be true or false."


@pytest.mark.parametrize("game", ["ra", "imhotep", "pharaon", "valley", "pyramids"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_open_table_pages_show_no_internal_id(client, game, language):
    """The host's form to open a table, untouched and with a wrong edition sent back: its
    advanced box for a table's own printed values used to show a key as its example
    (``{"round_cards_3p": …}``)."""
    client.set_cookie("lang", language)
    pages = [client.get(f"/tables/new/{game}")]
    pages.append(client.post(f"/tables/new/{game}", data={"action": "open", "edition": "{"}))
    for page in pages:
        assert page.status_code in (200, 422)
        assert internal_ids(page.get_data(as_text=True)) == []
