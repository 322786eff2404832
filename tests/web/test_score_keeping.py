"""The score form after issue 10: a double tap saves once, errors are summed up at the top with
links to their fields in the person's terms, and the saving phone corrects or deletes its game
with an audit line."""

from __future__ import annotations

import re
import threading
from html import unescape

import pytest
from sqlmodel import Session, select

from companion.models import GameTable, Player, Result, Seat, TableAudit
from companion.rules.ra.final import score_final
from companion.web import wallet
from tests.factories import ra_document, ra_form

pytestmark = pytest.mark.db

SAVE_KEY = "0123456789abcdef0123456789abcdef"


def hidden(html: str, name: str) -> str:
    return re.search(r'name="%s" value="([^"]*)"' % re.escape(name), html).group(1)


def audit(app) -> list[TableAudit]:
    with Session(app.extensions["scribe.engine"]) as session:
        return list(session.exec(select(TableAudit).order_by(TableAudit.id)).all())


def save(client, document=None, **extra):
    form = ra_form(document or ra_document(3)) | {"action": "save", **extra}
    return client.post("/score/ra", data=form)


# ---- idempotency --------------------------------------------------------------------------------


def test_the_form_carries_a_save_key_kept_through_errors_and_resizes(client):
    key = hidden(client.get("/score/ra").get_data(as_text=True), "_save_key")
    assert re.fullmatch(r"[0-9a-f]{32}", key)
    form = ra_form(ra_document(3)) | {"action": "add_player", "_save_key": key}
    assert hidden(client.post("/score/ra", data=form).get_data(as_text=True),
                  "_save_key") == key
    form |= {"action": "save", "players.0.epochs.0.gods": "-1"}
    assert hidden(client.post("/score/ra", data=form).get_data(as_text=True),
                  "_save_key") == key


def test_a_double_tap_saves_once_and_both_answers_lead_to_the_game(app, client, count_rows):
    first = save(client, _save_key=SAVE_KEY)
    second = save(client, _save_key=SAVE_KEY)
    assert first.status_code == second.status_code == 303
    assert first.headers["Location"] == second.headers["Location"]
    assert count_rows(GameTable) == 1 and count_rows(Seat) == 3 and count_rows(Result) == 3
    assert [line.action for line in audit(app)] == ["save"]
    # the second answer carries the same keeper token: whichever arrives last, the phone keeps
    tokens = {re.search(r"scribe_tables=k:[^:]+:([A-Za-z0-9_-]+)", answer.headers["Set-Cookie"])
              .group(1) for answer in (first, second)}
    assert len(tokens) == 1
    # another form (another key) is another game
    assert save(client).headers["Location"] != first.headers["Location"]


def test_two_taps_at_once_save_one_game(app, count_rows):
    phones = [app.test_client() for _ in range(4)]
    barrier = threading.Barrier(len(phones))
    answers = []

    def tap(phone):
        barrier.wait()
        answers.append(save(phone, _save_key=SAVE_KEY))

    threads = [threading.Thread(target=tap, args=(phone,)) for phone in phones]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert [a.status_code for a in answers] == [303] * len(phones)
    assert len({a.headers["Location"] for a in answers}) == 1
    assert count_rows(GameTable) == 1 and count_rows(Result) == 3


# ---- error summary and the person's terms -------------------------------------------------------


def summary(html: str) -> list[tuple[str, str]]:
    block = re.search(r'<div class="form-errors error-summary".*?</div>', html, re.S).group(0)
    return [(href, unescape(re.sub(r"<[^>]+>", "", text)))
            for href, text in re.findall(r'<a href="([^"]+)">(.*?)</a>', block, re.S)]


def test_an_error_summary_at_the_top_links_to_every_field_in_error(client):
    form = ra_form(ra_document(players=4)) | {"action": "save"}
    form["players.1.epochs.0.gods"] = "-2"
    form["players.2.epochs.1.pharaohs"] = "abc"
    form["players.0.suns.0"] = "14"
    form["_location"] = "x" * 121
    response = client.post("/score/ra", data=form)
    html = response.get_data(as_text=True)
    assert response.status_code == 422
    assert html.index('id="error-summary"') < html.index('<form method="post"')
    entries = summary(html)
    assert "3 things to correct" not in html and "4 things to correct" in html
    hrefs = [href for href, _text in entries]
    assert set(hrefs) == {"#in-players.1.epochs.0.gods", "#in-players.2.epochs.1.pharaohs",
                          "#in-players.0.suns.0", "#in-_location"}
    for href in hrefs:                                  # every link has its input on the page
        assert f'id="{href[1:]}"' in html
    texts = dict(entries)
    assert texts["#in-players.1.epochs.0.gods"] == "Řehoř · Epoch 1 · Gods: " \
        "This must not be negative."
    assert texts["#in-players.0.suns.0"].startswith("Ana · Sun 1: ")
    assert texts["#in-_location"] == "Where was it played?: At most 120 characters."
    assert '<details class="options" open>' in html        # the place is not hidden


def test_a_box_limit_says_what_was_typed_not_a_running_count(client):
    document = ra_document(players=3)
    for p, player in enumerate(document["players"]):
        for e, epoch in enumerate(player["epochs"]):
            epoch["gods"] = 1 if (p, e) != (2, 2) else 2
    html = client.post("/score/ra", data=ra_form(document) | {"action": "score"}) \
        .get_data(as_text=True)
    (gods,) = [text for href, text in summary(html) if href.endswith(".gods")]
    assert gods.endswith("The box holds only 8 God tiles, but 10 are entered: "
                         "Ana 3 · Řehoř 3 · Ödön 4.")


def test_a_kept_kind_says_each_rise_is_new_tiles(client):
    document = ra_document(players=3)
    for player in document["players"]:
        for e, epoch in enumerate(player["epochs"]):
            epoch["pharaohs"] = [3, 6, 9][e]
    html = client.post("/score/ra", data=ra_form(document) | {"action": "score"}) \
        .get_data(as_text=True)
    (pharaohs,) = [text for href, text in summary(html) if href.endswith(".pharaohs")]
    assert pharaohs.endswith("The box holds only 25 Pharaoh tiles, but the counts entered "
                             "need 27 (each rise from one epoch to the next is new tiles): "
                             "Ana 3 → 6 → 9 · Řehoř 3 → 6 → 9 · Ödön 3 → 6 → 9.")


def _said(app, document) -> dict[str, str]:
    """Each refusal of ``document`` as the person reads it (the game's own words)."""
    from flask_babel import gettext

    from companion.rules import get_ruleset
    from companion.rules.base import InvalidDocument

    with pytest.raises(InvalidDocument) as refused, app.test_request_context():
        get_ruleset(document["game"]).score_final(document)
    with app.test_request_context():
        return {v.code: v.render(gettext) for v in refused.value.violations}


def test_imhotep_stones_and_pyramid_cards_are_said_from_what_was_typed(app):
    from tests.rules.test_imhotep_final import base
    from tests.rules.test_pyramids_final import doc

    imhotep = base()                  # 11 at the temple, 9 in the burial chamber, 10 + 6 own
    imhotep["site_stones"]["pyramids"] = 70
    assert _said(app, imhotep)["imhotep.too_many_stones_in_play"] == (
        "3 players have only 87 stones to play with, but the stones entered come to 106: "
        "Pyramids 70 · Temple 11 · Burial chamber 9 · Obelisk stones 10 · Sleds 6.")
    cards = doc({"name": "Ana", "completed_count": 30}, {"name": "Bea", "completed_count": 20})
    assert _said(app, cards)["pyramids.too_many_cards"] == (
        "There are only 48 pyramid cards, but 50 are entered as completed: Ana 30 · Bea 20.")


# ---- correcting and deleting --------------------------------------------------------------------


def test_the_saving_phone_corrects_its_game_with_an_audit_line(app, client, count_rows):
    document = ra_document(3)
    table_id = save(client, document, _location="Brno").headers["Location"].split("/")[2]
    page = client.get(f"/tables/{table_id}").get_data(as_text=True)
    assert f"/score/tables/{table_id}/edit" in page and "Delete this game" in page

    form_page = client.get(f"/score/tables/{table_id}/edit").get_data(as_text=True)
    assert hidden(form_page, "_table") == table_id
    assert hidden(form_page, "players.1.name") == "Řehoř"
    assert hidden(form_page, "players.2.epochs.1.pharaohs") == str(
        document["players"][2]["epochs"][1]["pharaohs"])
    assert hidden(form_page, "_location") == "Brno"

    fixed = ra_document(3)
    fixed["players"][2]["epochs"][0]["gold"] = 3            # they forgot Ödön's gold
    form = ra_form(fixed) | {"action": "save", "_table": table_id, "_location": "Praha"}
    answer = client.post("/score/ra", data=form)
    assert answer.status_code == 303 and answer.headers["Location"] == f"/tables/{table_id}"
    expected = {line.name: line.total for line in score_final(fixed).players}
    with Session(app.extensions["scribe.engine"]) as session:
        totals = {seat.name: result.total for seat, result in session.exec(
            select(Seat, Result).join(Result, Result.seat_id == Seat.id)
            .where(Seat.table_id == table_id)).all()}
        assert session.get(GameTable, table_id).location == "Praha"
    assert totals == expected
    assert count_rows(GameTable) == 1 and count_rows(Seat) == 3 and count_rows(Player) == 3
    save_line, correct_line = audit(app)
    assert (save_line.action, correct_line.action) == ("save", "correct")
    assert correct_line.table_id == table_id and correct_line.actor == "keeper"
    assert correct_line.details["before"]["location"] == "Brno"
    assert correct_line.details["after"]["final_document"]["players"][2]["epochs"][0][
        "gold"] == 3
    # the same correction tapped twice changes nothing more
    assert client.post("/score/ra", data=form).status_code == 303
    assert len(audit(app)) == 2


def test_only_the_saving_phone_may_change_the_game(app, client, count_rows):
    table_id = save(client).headers["Location"].split("/")[2]
    other = app.test_client()
    assert "Delete this game" not in other.get(f"/tables/{table_id}").get_data(as_text=True)
    assert other.get(f"/score/tables/{table_id}/edit").status_code == 404
    form = ra_form(ra_document(3)) | {"action": "save", "_table": table_id}
    assert other.post("/score/ra", data=form).status_code == 404
    assert other.post(f"/score/tables/{table_id}/delete", data={"confirm": "1"}) \
        .status_code == 404
    other.set_cookie(wallet.TABLES_COOKIE, f"k:{table_id}:{'A' * 43}")      # a guessed token
    assert other.post(f"/score/tables/{table_id}/delete", data={"confirm": "1"}) \
        .status_code == 404
    assert count_rows(GameTable) == 1 and [line.action for line in audit(app)] == ["save"]


def test_the_saving_phone_deletes_its_game_after_asking(app, client, count_rows):
    table_id = save(client).headers["Location"].split("/")[2]
    asked = client.post(f"/score/tables/{table_id}/delete")
    assert asked.status_code == 200 and "Delete this game?" in asked.get_data(as_text=True)
    assert count_rows(GameTable) == 1
    done = client.post(f"/score/tables/{table_id}/delete", data={"confirm": "1"})
    assert done.status_code == 303 and done.headers["Location"] == "/games"
    assert count_rows(GameTable) == count_rows(Seat) == count_rows(Result) == 0
    assert count_rows(Player) == 0
    deleted = audit(app)[-1]
    assert deleted.action == "delete" and deleted.table_id == table_id
    assert [r["name"] for r in deleted.details["results"]] == ["Ana", "Řehoř", "Ödön"]
    assert client.get(f"/tables/{table_id}").status_code == 404
    assert table_id not in client.get("/games").get_data(as_text=True)


def test_a_game_in_a_group_is_the_groups_to_correct(app, client):
    table_id = save(client).headers["Location"].split("/")[2]
    page = client.post("/groups/new", data={"name": "Club"}).get_data(as_text=True)
    group_id = int(re.search(r'/groups/(\d+)"', page).group(1))
    assert client.post(f"/groups/{group_id}/plays", data={"table": table_id}) \
        .status_code == 303
    assert "Delete this game" not in client.get(f"/tables/{table_id}").get_data(as_text=True)
    refused = client.post(f"/score/tables/{table_id}/delete", data={"confirm": "1"})
    assert refused.status_code == 409
    assert "ask the group's admin" in unescape(refused.get_data(as_text=True))
