"""The polish a player notices (issue 10): localised numbers, dates and collation, capitalised
colours, labels instead of keys, every player in the chart, a ladder without negative numbers,
compressed and cacheable responses, and a finished table's links."""

from __future__ import annotations

import gzip
import os
import re
from datetime import datetime, timezone

import brotli
import pytest
from flask import url_for

from tests.factories import ra_document
from tests.groups.builders import Api, at, finished_table

pytestmark = pytest.mark.db


def _text(response) -> str:
    return response.get_data(as_text=True)


def _member_client(app, api):
    """A phone that opened the group's invite link, reading Czech unless told otherwise."""
    phone = app.test_client()
    assert phone.get(f"/g/{api.invite}").status_code in (302, 303)
    return phone


def _player_id(page: str, group_id: int, name: str) -> str:
    return re.search(r'/groups/%d/players/(\d+)">%s<' % (group_id, re.escape(name)),
                     page).group(1)


def test_decimals_follow_the_language(app, client):
    api = Api(client, "Čísla")
    api.record(finished_table(app, "ra", [("Ana", 49, 1), ("Bea", 40, 2)], when=at(1)))
    api.record(finished_table(app, "ra", [("Ana", 50, 1), ("Bea", 41, 2)], when=at(2)))
    phone = _member_client(app, api)
    for lang, average, share in (("cs", "49,5", "100\xa0%"), ("hu", "49,5", "100%"),
                                 ("en", "49.5", "100%")):
        phone.set_cookie("lang", lang)
        home = _text(phone.get(f"/groups/{api.id}"))
        ana = _player_id(home, api.id, "Ana")
        page = _text(phone.get(f"/groups/{api.id}/players/{ana}"))
        assert f"<td>{average}</td>" in page, lang
        assert f"<td>{share}</td>" in page, lang
        if lang != "en":
            assert not re.search(r"<td>-?\d+\.\d</td>", page)
        game = _text(phone.get(f"/groups/{api.id}/games/ra"))
        assert average in game                       # average winning score
        ladder = _text(phone.get(f"/groups/{api.id}/ladder"))
        if lang != "en":
            assert not re.search(r"<td>-?\d+\.\d", ladder)


def test_names_sort_in_the_readers_alphabet(app, client):
    api = Api(client, "Abeceda")
    names = ["Zsófia", "Ödön", "Čeněk", "Cyril", "David", "Oszkár"]
    for name in names:
        api.join(name)
    phone = _member_client(app, api)

    def order(lang):
        phone.set_cookie("lang", lang)
        page = _text(phone.get(f"/groups/{api.id}/head-to-head"))
        found = re.findall(r'<option value="\d+"[^>]*>([^<]+)</option>', page)
        return [n for n in found if n in names][:len(names)]

    cs = order("cs")
    assert cs.index("Cyril") < cs.index("Čeněk") < cs.index("David")
    hu = order("hu")
    assert hu.index("Oszkár") < hu.index("Ödön") < hu.index("Zsófia")


def test_dates_in_the_readers_time_zone_and_order(app, client):
    api = Api(client, "Čas")
    when = datetime(2025, 7, 3, 18, 5, tzinfo=timezone.utc)       # 20:05 in Prague (CEST)
    api.record(finished_table(app, "ra", [("Ana", 49, 1), ("Bea", 40, 2)], when=when))
    phone = _member_client(app, api)
    phone.set_cookie("lang", "cs")
    phone.set_cookie("tz", "Europe%2FPrague")
    page = _text(phone.get(f"/groups/{api.id}"))
    assert re.search(r"\b0?3\. ?0?7\. ?(20)?25,? 20:05", page), page
    assert "18:05" not in page and "7/3/25" not in page
    phone.set_cookie("tz", "../../etc/passwd")                     # not a zone: UTC
    page = _text(phone.get(f"/groups/{api.id}"))
    assert re.search(r"\b0?3\. ?0?7\. ?(20)?25,? 18:05", page)
    assert "tz.js" in page


SEVEN = ["Ana", "Bea", "Cyril", "Dora", "Emil", "Fanni", "Gábor"]


def test_the_scores_chart_shows_every_player(app, client):
    api = Api(client, "Velká parta")
    eight = SEVEN + ["Hugó"]
    api.record(finished_table(app, "ra", [(n, 60 - i, i + 1) for i, n in enumerate(eight)]))
    phone = _member_client(app, api)
    phone.set_cookie("lang", "en")
    page = _text(phone.get(f"/groups/{api.id}/games/ra"))
    svg = page[page.index("<svg"):page.rindex("</svg>")]
    for name in eight:
        assert name in svg, name


def test_the_ladder_has_no_negative_numbers_and_the_winner_leads(app, client):
    api = Api(client, "Sedm")
    others = SEVEN[1:]
    for hour, order in enumerate((others[::-1], others), 1):      # Ana was not there
        api.record(finished_table(app, "ra", [(n, 70 - i, i + 1) for i, n in enumerate(order)],
                                  when=at(hour)))
    # Ana's only play, which she wins: the cautious ordinal (mu - 3 sigma) would put her third
    api.record(finished_table(app, "ra", [(n, 70 - i, i + 1) for i, n in enumerate(SEVEN)],
                              when=at(3)))
    phone = _member_client(app, api)
    for lang in ("en", "cs"):
        phone.set_cookie("lang", lang)
        for path in (f"/groups/{api.id}/ladder", f"/groups/{api.id}", f"/groups/{api.id}/games/ra"):
            page = _text(phone.get(path))
            body = page[page.index("<main"):page.index("</main>")]
            shown = re.sub(r"<[^>]+>", " ", re.sub(r"<svg.*?</svg>", "", body, flags=re.S))
            assert not re.search(r"(^|\s)[-−]\s?\d", shown), path       # text, not ids
            players = re.findall(r'/players/\d+">([^<]+)</a>', body)
            assert players[0] == "Ana", (path, players)         # the winner of the only game
        ladder = _text(phone.get(f"/groups/{api.id}/ladder"))
        assert 'class="small settling-note"' in ladder       # everyone is still settling
        assert re.findall(r'/players/\d+">([^<]+)</a>', ladder)[0] == "Ana"
    ana = re.search(r'/players/(\d+)">Ana<', ladder).group(1)
    chart = _text(phone.get(f"/groups/{api.id}/players/{ana}"))
    assert not re.search(r"<text[^>]*>[-−]\d", chart)           # the rating chart's axis


def test_text_is_compressed_and_static_files_cached_by_version(app, client, tmp_path):
    page = client.get("/", headers={"Accept-Encoding": "gzip"})
    assert page.headers.get("Content-Encoding") == "gzip"
    html = gzip.decompress(page.data).decode()
    assert "Scribe" in html
    link = re.search(r'href="(/static/style\.css\?v=([0-9a-f]+))"', html)
    assert link, "the stylesheet's address carries its version"
    css = client.get(link.group(1), headers={"Accept-Encoding": "br, gzip"})
    assert css.status_code == 200
    assert "max-age=31536000" in css.headers["Cache-Control"]
    assert "immutable" in css.headers["Cache-Control"]
    assert css.headers.get("Content-Encoding") == "br"
    assert "body" in brotli.decompress(css.data).decode()
    # a JSON answer is not compressed (a few kilobytes on the LAN; the server's time matters)
    answer = client.post("/api/v1/score", json=ra_document(players=5),
                         headers={"Accept-Encoding": "br, gzip"})
    assert answer.status_code == 200 and len(answer.data) > 500
    assert "Content-Encoding" not in answer.headers
    stale = client.get("/static/style.css?v=000000000000")
    assert "max-age=31536000" not in stale.headers.get("Cache-Control", "")
    # a changed file gets a new address
    static = tmp_path / "static"
    static.mkdir()
    (static / "a.css").write_text("a{}")
    app.static_folder = str(static)
    with app.test_request_context():
        first = url_for("static", filename="a.css")
        (static / "a.css").write_text("a{color:red}")
        os.utime(static / "a.css", (1, 1))
        assert url_for("static", filename="a.css") != first


def test_colours_are_capitalised_where_they_stand_alone(client):
    game, colours = "imhotep", ("Black", "White", "Brown", "Gray")
    client.set_cookie("lang", "en")
    page = _text(client.get(f"/score/{game}"))
    options = re.findall(r"<option [^>]*>([^<]*)</option>", page)
    for colour in colours:
        assert colour in options, (colour, options)
        assert colour.lower() not in options
    assert re.search(r'<option value="black"', page)                  # ids unchanged
    client.set_cookie("lang", "cs")
    options = re.findall(r"<option [^>]*>([^<]*)</option>", _text(client.get(f"/score/{game}")))
    assert all(not text[:1].islower() for text in options if text.strip("–")), options


def test_printed_value_keys_come_with_their_labels(client):
    from companion.rules import get_ruleset

    client.set_cookie("lang", "en")
    api = _text(client.get("/api"))
    imhotep = get_ruleset("imhotep")
    for value in imhotep.edition:
        if value.key in ("round_cards_2p", "round_cards_4p"):
            continue                         # those have published values
        assert f"{value.key} ({value.label})" in api, value.key
    new = _text(client.get("/tables/new/imhotep"))      # the host's form: no key as example
    assert "“Our copy” page" in new and imhotep.edition[0].key not in new


def test_a_finished_tables_join_links_lead_to_its_page(app, client):
    from sqlmodel import Session

    from companion.models import GameTable
    from tests.groups.builders import engine

    table_id = finished_table(app, "ra", [("Ana", 40, 1), ("Bea", 30, 2)], mode="live")
    with Session(engine(app)) as session:
        table = session.get(GameTable, table_id)
        table.code = "KQ7M3P"
        session.add(table)
        session.commit()
    for path in ("/j/KQ7M3P", "/j/kq7m3p", f"/tables/{table_id}/join"):
        response = client.get(path)
        assert response.status_code in (302, 303), path
        assert response.headers["Location"].endswith(f"/tables/{table_id}"), path
    typed = client.post("/join", data={"code": "KQ7M3P"})
    assert typed.headers["Location"].endswith(f"/tables/{table_id}")


def test_the_score_form_heads_sections_with_the_typed_names(client):
    client.set_cookie("lang", "cs")
    names = ["Zora", "Ödön", "Čeněk"]
    form = {"_players": "3", "_stages": "3", "action": "remove_stage"}
    form.update({f"players.{i}.name": name for i, name in enumerate(names)})
    page = _text(client.post("/score/ra", data=form))
    legends = re.findall(r'<legend data-name-of="players\.(\d)\.name">([^<]*)</legend>', page)
    assert legends and all(text == names[int(seat)] for seat, text in legends), legends
    assert {text for _seat, text in legends} == set(names)


def test_the_new_tables_name_list_is_in_the_readers_order(app, client):
    api = Api(client, "Seznam")
    for name in ["Zsófia", "Čeněk", "Cyril", "David"]:
        api.join(name)
    phone = _member_client(app, api)
    phone.set_cookie("lang", "cs")
    page = _text(phone.get("/tables/new/ra"))
    listed = re.findall(r'<option value="([^"]+)">', page[page.index('id="group-players"'):])
    listed = [n for n in listed if n in ("Zsófia", "Čeněk", "Cyril", "David")]
    assert listed == ["Cyril", "Čeněk", "David", "Zsófia"]
