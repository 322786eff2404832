"""Silver & Gold – Pyramids through the pages a phone uses, without JavaScript (issue 13).

The table is opened through the open-table form rendered from the set-up schema, seats are
taken through the seat list, and every move is posted through the page's own forms, parsed
from its HTML (tests/web/pageforms.py): the app deals, every phone keeps 2 cards, expedition
cards are revealed or drawn, every seat ticks its chambers on the pictures of its cards on the
same version of the page, replacements and refills, to the Scoresheet. Refusals come back
beside the form with the rule, and nothing is written.
"""

from __future__ import annotations

import json
import random
import re
from html import unescape
from typing import Any

import pytest

from companion import db
from companion.models import Move
from companion.rules.pyramids import PYRAMIDS
from companion.rules.pyramids.referee import REFEREE
from companion.rules.pyramids.state import expedition_left
from companion.rules.pyramids import ours
from companion.rules.pyramids.placement import NEIGHBOURS, PLACEMENTS
from companion.services import live_tables as live

from tests.pdfgen.pdfcheck import text as pdf_text

from .pageforms import Form, forms

pytestmark = pytest.mark.db

NAMES = ("Ana", "Bo", "Cy")


def open_form(client, players: int = 3) -> tuple[Form, str]:
    """The open-table form for ``players`` seats (the page's own remove-player button)."""
    page = client.get("/tables/new/pyramids").get_data(as_text=True)
    form = next(f for f in forms(page) if f.values().get("_players"))
    while int(form.values()["_players"]) > players:
        page = client.post("/tables/new/pyramids",
                           data=form.values(action="remove_player")).get_data(as_text=True)
        form = next(f for f in forms(page) if f.values().get("_players"))
    return form, page


def open_table(client, dealer: str = "app", names=NAMES, **changes: Any) -> str:
    form, _page = open_form(client, len(names))
    fields = {f"players.{i}": name for i, name in enumerate(names)}
    fields.update({"setup.dealer": json.dumps(dealer), "action": "open", **changes})
    response = client.post("/tables/new/pyramids", data=form.values(**fields))
    assert response.status_code == 303, re.findall(r'field-error[^>]*>([^<]*)',
                                                   response.get_data(as_text=True))
    return response.headers["Location"].split("/")[2]


def take_seats(client, table_id: str, count: int) -> list:
    """One phone per seat, each taking its seat with the seat list's button."""
    phones = []
    for seat in range(count):
        phone = client.application.test_client()
        page = phone.get(f"/tables/{table_id}/join").get_data(as_text=True)
        claim = next(f for f in forms(page) if f.action.endswith(f"/seats/{seat}/claim"))
        assert phone.post(claim.action, data=claim.values()).status_code == 303
        phones.append(phone)
    return phones


def table_state(client, table_id: str) -> dict[str, Any]:
    with client.application.app_context():
        table = live.get_table(db.session(), table_id)
        return live.state_at(db.session(), table)


def page_of(phone, table_id: str) -> str:
    response = phone.get(f"/tables/{table_id}")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def move_form(page: str, kind: str, **match: Any) -> Form:
    for form in forms(page):
        move = form.move
        if move.get("type") == kind and all(move.get(k) == v for k, v in match.items()):
            return form
    raise AssertionError(f"no {kind} form {match or ''} on the page")


def draw_form(page: str) -> Form:
    return next(f for f in forms(page) if f.action.endswith("/draw"))


def taps_for(form: Form, move: dict[str, Any]) -> list[str]:
    """The checkbox values of the marking form for a move's cells and extra marks."""
    wanted = move["cells"] + move.get("extra", [])
    values = [value for _name, value, _checked, _label in form.checkboxes
              if json.loads(value) in wanted]
    assert len(values) == len(wanted), "a chamber of a legal move has no checkbox"
    return values


def error_of(response) -> str:
    found = re.search(r'id="move-error">([^<]*)<', response.get_data(as_text=True))
    return found.group(1) if found else ""


# --------------------------------------------------------------------------------------------
# A whole game
# --------------------------------------------------------------------------------------------


def test_a_full_game_through_the_page_forms(client, count_rows):
    table_id = open_table(client)
    phones = take_seats(client, table_id, 3)
    rng = random.Random(5)
    counts = {"draw": 0, "keep": 0, "mark": 0, "pass": 0, "reveal": 0, "take": 0,
              "refill": 0, "offer": 0, "simultaneous": 0}
    for _step in range(400):
        state = table_state(client, table_id)
        if state["phase"] == "over":
            break
        waiting = sorted(PYRAMIDS.awaiting(state).seats)
        pages = {seat: page_of(phones[seat], table_id) for seat in waiting}
        if state["phase"] in ("mark", "keep"):
            # every awaited phone sends from the page it loaded: the same version for all
            versions = {re.search(r'name="version" value="(\d+)"', p).group(1)
                        for p in pages.values()}
            assert len(versions) == 1
            counts["simultaneous"] += len(waiting) > 1
            for seat in waiting:
                page = pages[seat]
                assert "Your turn" in page
                if state["phase"] == "keep":
                    form = move_form(page, "keep")
                    picked = rng.sample([v for _n, v, _c, _l in form.checkboxes], 2)
                    data, kind = form.values(ticked=picked), "keep"
                else:
                    move = rng.choice(PYRAMIDS.legal_moves(state, seat))
                    if move["type"] == "pass":
                        form, kind = move_form(page, "pass"), "pass"
                        data = form.values()
                    else:
                        form = move_form(page, "mark")
                        data, kind = form.values(ticked=taps_for(form, move)), "mark"
                response = phones[seat].post(form.action, data=data)
                assert response.status_code == 303, error_of(response)
                counts[kind] += 1
            continue
        seat = rng.choice(waiting)
        page = pages[seat]
        phase = state["phase"]
        if phase == "deal" or (phase in ("reveal", "offer", "refill") and rng.random() < 0.6) \
                or (phase == "replace" and rng.random() < 0.3):
            form, kind = draw_form(page), "draw"
            data = form.values()
        elif phase == "reveal":
            shape = rng.choice(sorted(expedition_left(state)))
            form = move_form(page, "reveal", shape=shape)
            data, kind = form.values(), "reveal"
        elif phase == "replace":
            number = rng.choice(state["offer"])
            form = move_form(page, "take", source="offer", card=number)
            data, kind = form.values(), "take"
        else:                                  # the offer or a refill, typed in
            form = move_form(page, phase)
            count = sum(1 for name, *_ in form.fields if name == "m.cards[]")
            cards = rng.sample(state["deck"], count)
            data, kind = form.values(**{"m.cards[]": [str(n) for n in cards]}), phase
        response = phones[seat].post(form.action, data=data)
        assert response.status_code == 303, error_of(response)
        counts[kind] += 1
    else:
        raise AssertionError("the game did not end")
    state = table_state(client, table_id)
    assert (state["round"], state["turn"]) == (4, 7) and PYRAMIDS.is_over(state)
    assert counts["keep"] == 3 and counts["mark"] + counts["pass"] == 28 * 3
    assert counts["simultaneous"] >= 27 and counts["draw"] > 10 and counts["reveal"] > 3
    assert count_rows(Move) == sum(v for k, v in counts.items() if k != "simultaneous")
    final = page_of(phones[1], table_id)
    assert "The game is over." in final and "Final scores" in final
    assert re.search(r'class="winner-banner"', final)
    sheet = client.get(f"/api/v1/tables/{table_id}").get_json()["scores"]
    for player in sheet["players"]:
        assert f">{player['total']}<" in final
    assert 'name="m.marks[]"' not in final


def test_the_table_deals_through_the_set_up_form(client):
    """The set-up form carries each seat's 4 cards dealt and 2 kept, and the offer."""
    form, page = open_form(client, 2)
    assert 'name="setup.hands.1.kept.1"' in page and 'name="setup.offer.3"' in page
    chosen = {"setup.hands.0.dealt.0": "40", "setup.hands.0.kept.0": "40",
              "setup.offer.3": "33"}
    table_id = open_table(client, "table", names=NAMES[:2], **chosen)
    state = table_state(client, table_id)
    assert state["phase"] == "reveal"
    assert [c["number"] for c in state["players"][0]["open"]] == [40, 3]
    assert state["offer"][3] == 33 and 40 not in state["deck"]
    # a kept card that was not dealt is refused beside its field
    form, _page = open_form(client, 2)
    refused = client.post("/tables/new/pyramids", data=form.values(**{
        "players.0": "Ana", "players.1": "Bo", "action": "open",
        "setup.hands.1.kept.0": "30"}))
    assert refused.status_code == 422
    assert "A player keeps 2 of the 4 cards dealt to them." in refused.get_data(as_text=True)


# --------------------------------------------------------------------------------------------
# One turn, looked at closely
# --------------------------------------------------------------------------------------------


def dealt_game(client, players: int = 3) -> tuple[str, list]:
    """A table the app dealt, every seat keeping its first two cards, the offer drawn."""
    table_id = open_table(client, names=NAMES[:players])
    phones = take_seats(client, table_id, players)
    page = page_of(phones[0], table_id)
    assert "Deal the cards" in page
    phones[0].post(draw_form(page).action, data=draw_form(page).values())
    for phone in phones:
        form = move_form(page_of(phone, table_id), "keep")
        values = [v for _n, v, _c, _l in form.checkboxes][:2]
        assert phone.post(form.action, data=form.values(ticked=values)).status_code == 303
    page = page_of(phones[-1], table_id)
    phones[-1].post(draw_form(page).action, data=draw_form(page).values())
    return table_id, phones


def test_taps_refused_beside_the_form_with_the_rule_and_kept(client, count_rows):
    table_id, phones = dealt_game(client)
    page = page_of(phones[1], table_id)
    form = move_form(page, "reveal", shape="I3")
    assert phones[1].post(form.action, data=form.values()).status_code == 303
    page = page_of(phones[0], table_id)
    assert "3 in a line" in page and "still marking" in page
    form = move_form(page, "mark")
    state = table_state(client, table_id)
    first = state["players"][0]["open"][0]["number"]
    flat = ours.CARDS[first - 1].flat
    # three chambers in a line, away from the entrance: the first marking lacks it
    line = next(cells for cells in PLACEMENTS["I3"]
                if flat.index("E") not in cells and all(flat[c] != "#" for c in cells))
    taps = [json.dumps({"card": first, "col": c % 5, "row": c // 5}) for c in line]
    assert all(t in [v for _n, v, _c, _l in form.checkboxes] for t in taps)
    before = count_rows(Move)
    refused = phones[0].post(form.action, data=form.values(ticked=taps))
    assert refused.status_code == 422
    assert error_of(refused) == "The first marking of a card must include its entrance."
    html = refused.get_data(as_text=True)
    again = move_form(html, "mark")
    assert sorted(v for _n, v, checked, _l in again.checkboxes if checked) == sorted(taps)
    assert count_rows(Move) == before
    # nothing tapped: said so
    nothing = phones[0].post(form.action, data=form.values(ticked=[]))
    assert error_of(nothing) == "Tap the chambers you mark, then send them."


def test_every_phone_marks_the_same_turn_and_sees_who_is_still_marking(client):
    table_id, phones = dealt_game(client)
    page = page_of(phones[0], table_id)
    move_form(page, "reveal", shape="I2")
    phones[0].post(move_form(page, "reveal", shape="I2").action,
                   data=move_form(page, "reveal", shape="I2").values())
    state = table_state(client, table_id)
    pages = [page_of(phone, table_id) for phone in phones]
    chosen = {seat: next(m for m in PYRAMIDS.legal_moves(state, seat) if len(m["cells"]) == 2)
              for seat in range(3)}
    for seat in (2, 0):
        form = move_form(pages[seat], "mark")
        move = chosen[seat]
        response = phones[seat].post(form.action, data=form.values(ticked=taps_for(form, move)))
        assert response.status_code == 303, error_of(response)
    watching = page_of(phones[1], table_id)
    assert re.search(r'<li class="done">Ana · done</li>', watching)
    assert re.search(r'<li class="busy mine">Bo · still marking</li>', watching)
    assert "Your turn" in watching and 'name="m.marks[]"' in watching
    ana = page_of(phones[0], table_id)
    assert "Waiting for Bo" in ana and 'name="m.marks[]"' not in ana
    # the late phone sends from the page it loaded before the others marked
    form = move_form(pages[1], "mark")
    response = phones[1].post(form.action, data=form.values(ticked=taps_for(form, chosen[1])))
    assert response.status_code == 303, error_of(response)
    state = table_state(client, table_id)
    assert state["turn"] == 2 and state["phase"] == "reveal"
    for seat, player in enumerate(state["players"]):     # the pattern and its extra marks
        marks = sorted((card["number"], cell) for card in player["open"]
                       for cell in card["cells"])
        wanted = chosen[seat]["cells"] + chosen[seat].get("extra", [])
        assert marks == sorted((m["card"], m["row"] * 5 + m["col"]) for m in wanted)


def mine_section(page: str) -> str:
    """The "Your pyramid cards" section of a page ("" when the page has none)."""
    found = re.search(r'<section class="pg-mine".*?</section>', page, re.S)
    return found.group(0) if found else ""


def test_a_seat_that_has_sent_its_marks_sees_its_cards_while_the_others_mark(client):
    """Issue 20, item 5: while the others still mark, a seat that has sent its marks keeps its
    own cards and the chambers it marked in view; a seat still to mark sees them in its
    marking form, once."""
    table_id, phones = dealt_game(client)
    page = page_of(phones[0], table_id)
    form = move_form(page, "reveal", shape="I2")
    phones[0].post(form.action, data=form.values())
    state = table_state(client, table_id)
    move = next(m for m in PYRAMIDS.legal_moves(state, 0) if len(m["cells"]) == 2)
    page = page_of(phones[0], table_id)
    assert mine_section(page) == ""                   # the marking form draws the cards
    form = move_form(page, "mark")
    response = phones[0].post(form.action, data=form.values(ticked=taps_for(form, move)))
    assert response.status_code == 303, error_of(response)
    state = table_state(client, table_id)
    assert state["phase"] == "mark" and state["turn"] == 1        # Bo and Cy still mark
    waiting = page_of(phones[0], table_id)
    assert "Waiting for" in waiting and 'name="m.marks[]"' not in waiting
    mine = mine_section(waiting)
    assert "Your pyramid cards" in mine
    for card in state["players"][0]["open"]:
        assert f'data-card="{card["number"]}"' in mine
    marked = len(move["cells"]) + len(move.get("extra", []))
    assert mine.count("pg-cell pg-marked") == marked
    # Bo, still to mark, has the cards once: in the form, not again below it
    assert mine_section(page_of(phones[1], table_id)) == ""


def test_keep_and_draw_refusals(client):
    table_id = open_table(client, names=NAMES[:2])
    phones = take_seats(client, table_id, 2)
    watcher = client.application.test_client()
    page = page_of(phones[0], table_id)
    watching = watcher.post(f"/tables/{table_id}/draw", data=draw_form(page).values())
    assert watching.status_code == 403
    assert error_of(watching) == "Take a seat first: this phone is only watching."
    form = draw_form(page)
    first = phones[0].post(form.action, data=form.values())
    again = phones[0].post(form.action, data=form.values())      # a double tap: no new deal
    assert first.status_code == again.status_code == 303
    state = table_state(client, table_id)
    assert state["phase"] == "keep" and len(state["deck"]) == 40
    form = move_form(page_of(phones[0], table_id), "keep")
    three = [v for _n, v, _c, _l in form.checkboxes][:3]
    refused = phones[0].post(form.action, data=form.values(ticked=three))
    assert refused.status_code == 422 and error_of(refused) == "Keep exactly 2 of your 4 cards."
    assert phones[0].post(form.action, data=form.values(ticked=three[:2])).status_code == 303
    version = str(client.get(f"/api/v1/tables/{table_id}").get_json()["version"])
    late = phones[0].post(form.action, data=form.values(ticked=three[1:], version=version,
                                                        idempotency_key="a second thought"))
    assert late.status_code == 403
    assert error_of(late) == "You have kept your cards; waiting for Bo."
    assert "Draw" not in page_of(phones[1], table_id)       # nothing to draw while keeping
    nothing = phones[1].post(f"/tables/{table_id}/draw",
                             data={"version": version, "idempotency_key": "forged"})
    assert nothing.status_code == 409 and error_of(nothing) == "Nothing is to be drawn now."


def toward_the_tomb(state: dict[str, Any], seat: int, move: dict[str, Any]) -> tuple:
    """Completing moves first, then the move that comes nearest a tomb (fewest chambers left
    to it, walls counted), then the longest."""
    if move["type"] != "mark":
        return (2, 0, 0)
    best = 99
    for card in state["players"][seat]["open"]:
        flat = ours.CARDS[card["number"] - 1].flat
        marked = set(card["cells"]) | {m["row"] * 5 + m["col"] for m in
                                       move["cells"] + move.get("extra", [])
                                       if m["card"] == card["number"]}
        seen, frontier, steps = set(marked), set(marked), 0
        while frontier and flat.index("B") not in seen:
            frontier = {n for c in frontier for n in NEIGHBOURS[c]
                        if n not in seen and flat[n] != "#"}
            seen |= frontier
            steps += 1
        best = min(best, steps if flat.index("B") in seen else 99)
    return (0 if move.get("completed") else 1, best, -len(move["cells"]))


def test_replacement_from_the_offer_or_the_deck(client):
    """A completed card: the phone takes from the offer or names the top card of the deck,
    or lets the app draw it (spec §7)."""
    table_id, phones = dealt_game(client, 2)
    state = table_state(client, table_id)
    for _turn in range(28):
        page = page_of(phones[0], table_id)
        form = move_form(page, "reveal", shape=sorted(expedition_left(state))[0])
        phones[0].post(form.action, data=form.values())
        state = table_state(client, table_id)
        for seat in (0, 1):
            move = min(PYRAMIDS.legal_moves(state, seat),
                       key=lambda m: toward_the_tomb(state, seat, m))
            form = move_form(page_of(phones[seat], table_id), "mark")
            phones[seat].post(form.action, data=form.values(ticked=taps_for(form, move)))
        state = table_state(client, table_id)
        if state["phase"] == "replace":
            break
    else:
        raise AssertionError("nobody completed a card")
    seat = state["pending"][0]["seat"]
    page = page_of(phones[seat], table_id)
    assert "take 1 new card" in page and "Draw the top card for me" in page
    deck_form = move_form(page, "take", source="deck")
    wrong = phones[seat].post(deck_form.action,
                              data=deck_form.values(**{"m.card": str(state["offer"][0])}))
    assert wrong.status_code == 422
    assert error_of(wrong) == f"Card {state['offer'][0]} cannot come from the deck."
    top = state["deck"][5]
    taken = phones[seat].post(deck_form.action, data=deck_form.values(**{"m.card": str(top)}))
    assert taken.status_code == 303
    state = table_state(client, table_id)
    assert top in [c["number"] for c in state["players"][seat]["open"]]
    assert state["offer"] and len(state["offer"]) == 4


# --------------------------------------------------------------------------------------------
# The published cards: record mode, and a card the group entered
# --------------------------------------------------------------------------------------------


def test_record_mode_reports_the_symbols_marked(client):
    layout = {"number": 1, "colour": "purple",
              "grid": ["#.E.#", ".R.X.", ".#S.G", "P..#T", "#.B.#"]}
    table_id = open_table(client, "table", names=NAMES[:2], **{
        "options.cards": '"published"', "edition": json.dumps({"card_layouts": [layout]})})
    phones = take_seats(client, table_id, 2)
    page = page_of(phones[0], table_id)
    assert "4 in a T" in page and "4 in an S" in page          # the palette (deck unconfirmed)
    form = move_form(page, "reveal", shape="L3")
    phones[0].post(form.action, data=form.values())
    page = page_of(phones[0], table_id)
    # card 1 was entered: drawn with its chambers; card 3 (kept too) is reported
    assert [c["number"] for c in table_state(client, table_id)["players"][0]["open"]] == [1, 3]
    assert 'value=\'{"card": 1, "col": 2, "row": 0}\'' in page
    assert "The pattern on card 3" in page and "Your printed cards: say which symbol" in page
    report = next(f for f in forms(page) if f.move.get("type") == "mark"
                  and "m.cells[]" in f.options
                  and sum(1 for n, *_ in f.fields if n == "m.cells[]") == 3)
    sent = report.values(**{"m.cells[]": [json.dumps({"card": 3, "code": c})
                                           for c in ("E", "R", "X")],
                            "m.extra[]": [json.dumps({"card": 3, "code": "G"}), "", ""],
                            "m.completed[]": ""})
    response = phones[0].post(report.action, data=sent)
    assert response.status_code == 303, error_of(response)
    state = table_state(client, table_id)
    assert state["players"][0]["open"][1] == {"number": 3, "codes": ["E", "R", "X", "G"]}
    assert (state["players"][0]["red"], state["players"][0]["green"]) == (1, 1)
    # Bo reports a wall: refused with the rule
    page = page_of(phones[1], table_id)
    report = next(f for f in forms(page) if f.move.get("type") == "mark"
                  and sum(1 for n, *_ in f.fields if n == "m.cells[]") == 1)
    number = table_state(client, table_id)["players"][1]["open"][0]["number"]
    refused = phones[1].post(report.action, data=report.values(
        **{"m.cells[]": json.dumps({"card": number, "code": "#"})}))
    assert refused.status_code == 422 and error_of(refused) == "Walls are never marked."


def report_forms(page: str) -> tuple[Form, Form]:
    """Seat's report forms for its first record card: the pattern and the one chamber."""
    reports = [f for f in forms(page) if f.move.get("type") == "mark" and "m.cells[]" in f.options]
    return reports[0], reports[1]


def tombs(options: list[tuple[str, str]]) -> list[int]:
    return [json.loads(value)["card"] for value, _text in options
            if value and json.loads(value)["code"] == "B"]


def test_record_mode_offers_the_tomb_only_when_a_report_may_mark_it(client):
    """The tomb lies in the bottom row: it is at least the 5th mark of a card (issue 20). A
    fresh card's report forms do not offer it, except as an extra mark after the 4 of an O4;
    after the 4 marks of an O4 the next report offers it, and the referee takes it."""
    table_id = open_table(client, "table", names=NAMES[:2], **{"options.cards": '"published"'})
    phones = take_seats(client, table_id, 2)
    number = table_state(client, table_id)["players"][0]["open"][0]["number"]
    page = page_of(phones[0], table_id)
    phones[0].post(move_form(page, "reveal", shape="O4").action,
                   data=move_form(page, "reveal", shape="O4").values())
    pattern, single = report_forms(page_of(phones[0], table_id))
    assert tombs(pattern.options["m.cells[]"]) == tombs(single.options["m.cells[]"]) == []
    assert tombs(pattern.options["m.extra[]"]) == [number]       # the 5th mark of the card
    assert tombs(single.options["m.extra[]"]) == []
    for phone in phones:                          # everyone reports the default O4
        response = phone.post(pattern.action, data=report_forms(page_of(phone, table_id))[0]
                              .values())
        assert response.status_code == 303, error_of(response)
    page = page_of(phones[0], table_id)
    form = move_form(page, "reveal", shape="I2")
    phones[0].post(form.action, data=form.values())
    pattern, single = report_forms(page_of(phones[0], table_id))
    assert tombs(pattern.options["m.cells[]"]) == tombs(single.options["m.cells[]"]) == [number]
    tomb = json.dumps({"card": number, "code": "B"})
    colour = next(v for v, _ in single.options["m.completed[]"] if v) \
        if "m.completed[]" in single.options else ""
    response = phones[0].post(single.action, data=single.values(
        **{"m.cells[]": tomb, "m.completed[]": colour}))
    assert response.status_code == 303, error_of(response)
    assert table_state(client, table_id)["players"][0]["completed"][0]["number"] == number


# --------------------------------------------------------------------------------------------
# Our copy: a published card's layout on the 5×5 grid editor
# --------------------------------------------------------------------------------------------

CARD_17 = ("#.E.#",
           ".R.X.",
           ".#S.G",
           "P..#T",
           "#.B.#")


def open_group(client) -> str:
    assert client.post("/groups/new", data={"name": "Klub"}).status_code == 200
    return re.search(r'/groups/(\d+)', client.get("/groups").get_data(as_text=True)).group(1)


def grid_fields(grid) -> dict[str, str]:
    return {f"entry.grid.{r}.{c}": json.dumps(code) for r, row in enumerate(grid)
            for c, code in enumerate(row)}


def editor_form(client, url: str) -> Form:
    page = client.get(url)
    assert page.status_code == 200
    return next(f for f in forms(page.get_data(as_text=True))
                if f.values().get("entry.number") is not None)


def test_a_card_entered_on_the_grid_editor_is_refereed_chamber_by_chamber(client):
    group = open_group(client)
    copy_page = client.get(f"/groups/{group}/copy/pyramids").get_data(as_text=True)
    add = re.search(r'href="(/groups/\d+/copy/pyramids/card_layouts/0)"', copy_page).group(1)
    form = editor_form(client, add)
    assert len([name for name, *_ in form.fields if name.startswith("entry.grid.")]) == 25
    assert all(len(form.options[f"entry.grid.{r}.{c}"]) == 10 for r in range(5) for c in range(5))
    saved = client.post(add, data=form.values(action="save", **{
        "entry.number": "17", "entry.colour": '"green"', **grid_fields(CARD_17)}))
    assert saved.status_code == 303
    copy_page = client.get(f"/groups/{group}/copy/pyramids").get_data(as_text=True)
    assert "Number: 17 · Colour: green · Checked against the card: yes" in copy_page
    exported = client.get(f"/groups/{group}/copy/pyramids.json").get_json()
    assert exported["values"]["card_layouts"] == [
        {"number": 17, "colour": "green", "grid": list(CARD_17), "verified": True}]
    # saving the rest of the copy keeps the cards; the deck left "not entered" stays default
    main = next(f for f in forms(copy_page) if f.values().get("edition.skull_penalties.0")
                is not None)
    penalties = {f"edition.skull_penalties.{i}": str(i + 1) for i in range(10)}
    assert client.post(f"/groups/{group}/copy/pyramids",
                       data=main.values(action="save", **penalties)).status_code == 303
    values = client.get(f"/groups/{group}/copy/pyramids.json").get_json()["values"]
    assert values["skull_penalties"] == list(range(1, 11)) and "expedition_deck" not in values
    assert values["card_layouts"][0]["number"] == 17

    # a table with the published cards and this copy: card 17 is drawn and tapped
    table_id = open_table(client, "table", names=NAMES[:2], **{
        "options.cards": '"published"', "copy": group,
        "setup.hands.0.dealt.0": "17", "setup.hands.0.kept.0": "17"})
    phones = take_seats(client, table_id, 2)
    state = table_state(client, table_id)
    assert state["players"][0]["open"][0] == {"number": 17, "cells": []}
    assert state["penalties"] == list(range(1, 11))
    page = page_of(phones[0], table_id)
    reveal = move_form(page, "reveal", shape="I3")
    phones[0].post(reveal.action, data=reveal.values())
    form = move_form(page_of(phones[0], table_id), "mark")
    taps = [json.dumps({"card": 17, "col": 2, "row": r}) for r in range(3)]
    response = phones[0].post(form.action, data=form.values(ticked=taps))
    assert response.status_code == 303, error_of(response)
    player = table_state(client, table_id)["players"][0]
    assert sorted(player["open"][0]["cells"]) == [2, 7, 12] and player["skulls"] == 1


@pytest.mark.parametrize("grid, message", [
    (CARD_17[:4] + ("#...#",), "A pyramid card has exactly one tomb, in the bottom row."),
    (("#...#",) + CARD_17[1:], "A pyramid card has exactly one entrance, in the top row."),
    (("#.E.#", "#####", ".#S.G", "P..#T", "#.B.#"),
     "Walls cut the entrance off from the tomb, so this card cannot be completed."),
])
def test_the_grid_editor_refuses_a_card_that_cannot_be_played(client, grid, message):
    group = open_group(client)
    url = f"/groups/{group}/copy/pyramids/card_layouts/0"
    form = editor_form(client, url)
    refused = client.post(url, data=form.values(action="save", **{
        "entry.number": "17", "entry.colour": '"green"', **grid_fields(grid)}))
    assert refused.status_code == 422
    html = refused.get_data(as_text=True)
    assert message in html and 'class="step has-errors"' in html
    again = next(f for f in forms(html) if f.values().get("entry.number") is not None)
    assert again.values()["entry.grid.1.1"] == json.dumps(grid[1][1])   # what was chosen
    assert client.get(f"/groups/{group}/copy/pyramids.json").get_json()["values"] == {}


def test_the_grid_editor_changes_and_removes_a_card(client):
    group = open_group(client)
    for index, number in enumerate((17, 30)):
        url = f"/groups/{group}/copy/pyramids/card_layouts/{index}"
        form = editor_form(client, url)
        client.post(url, data=form.values(action="save", **{
            "entry.number": str(number), "entry.colour": '"orange"', **grid_fields(CARD_17)}))
    url = f"/groups/{group}/copy/pyramids/card_layouts/0"
    form = editor_form(client, url)
    assert form.values()["entry.number"] == "17"
    assert form.values()["entry.grid.0.2"] == '"E"'               # the stored grid shown
    client.post(url, data=form.values(action="save", ticked=[]))        # unticked
    cards = client.get(f"/groups/{group}/copy/pyramids.json").get_json()["values"][
        "card_layouts"]
    assert [(c["number"], c["verified"]) for c in cards] == [(17, False), (30, True)]
    client.post(url, data=form.values(action="remove"))
    cards = client.get(f"/groups/{group}/copy/pyramids.json").get_json()["values"][
        "card_layouts"]
    assert [c["number"] for c in cards] == [30]
    duplicate = client.post(f"/groups/{group}/copy/pyramids/card_layouts/1", data=form.values(
        action="save", **{"entry.number": "30", "entry.colour": '"orange"'}))
    assert duplicate.status_code == 422
    assert "Card 30 is entered twice." in duplicate.get_data(as_text=True)


def test_only_a_game_with_its_own_editor_gets_one(client):
    group = open_group(client)
    assert client.get(f"/groups/{group}/copy/pyramids/card_layouts/0").status_code == 200
    assert client.get(f"/groups/{group}/copy/pyramids/card_layouts/1").status_code == 404
    assert client.get(f"/groups/{group}/copy/pyramids/skull_penalties/0").status_code == 404
    assert client.get(f"/groups/{group}/copy/imhotep/obelisks_b/0").status_code == 404
    stranger = client.application.test_client()
    assert stranger.get(f"/groups/{group}/copy/pyramids/card_layouts/0").status_code == 404      # a stranger: as if missing


def test_the_api_docs_examples_are_what_the_api_takes(client):
    """The final-state document and the moves on the API page (templates/games/pyramids/
    api.html) are accepted as they are written there."""
    html = client.get("/api").get_data(as_text=True)
    section = html[html.index('id="pyramids"'):]
    blocks = [unescape(b) for b in re.findall(r"<pre[^>]*>(.*?)</pre>", section, re.S)]
    document = json.loads(blocks[0])
    answer = client.post("/api/v1/score", json=document)
    assert answer.status_code == 200, answer.get_json()
    scores = {p["name"]: p["total"] for p in answer.get_json()["players"]}
    # Ana: 6 cards 60, torches 10, race 26, gems 3 pairs + 3 = 18, skull −6; Bo: 30 + 10 + 12
    assert scores == {"Ana": 108, "Bo": 52}
    sibling = json.loads(blocks[1])                     # the original Silver & Gold (§13)
    answer = client.post("/api/v1/score", json=sibling)
    assert answer.status_code == 200, answer.get_json()
    decoder, moves, text = json.JSONDecoder(), [], blocks[2]
    for start in (m.start() for m in re.finditer(r"^\{", text, re.M)):
        moves.append(decoder.raw_decode(text, start)[0])        # each example, as written
    kinds = {m["type"] for m in moves}
    assert kinds == {"deal", "keep", "offer", "reveal", "mark", "pass", "take", "refill"}
    for move in moves:
        REFEREE.parse(move)                        # well formed as written


def test_the_print_menu_offers_our_cards_and_the_table_pad_has_the_players(client):
    menu = client.get("/print/pyramids").get_data(as_text=True)
    for key in ("cards", "cards-fold", "cards-print-shop", "scoring"):
        assert f"/print/pyramids/extras/{key}.pdf?page=a4" in menu
        assert f"/print/pyramids/extras/{key}.pdf?page=letter" in menu
    cards = client.get("/print/pyramids/extras/scoring.pdf?page=letter")
    assert cards.status_code == 200 and cards.data.startswith(b"%PDF-")
    table_id = open_table(client, names=("Řehoř", "Ödön"))
    pad = client.get(f"/print/tables/{table_id}/pad.pdf?sheets=1")
    assert pad.status_code == 200 and pad.mimetype == "application/pdf"
    words = pdf_text(pad.data)
    assert "Řehoř" in words and "Ödön" in words and "Race box 10, purple" in words
    # the table's link beside its QR code (wrapped over two lines)
    assert f"/tables/{table_id}" in "".join(words.split())


# --------------------------------------------------------------------------------------------
# Score-only form (spec §11, §13): skull count, the minimal variant, the sibling original
# --------------------------------------------------------------------------------------------

SIBLING = {"game": "pyramids", "variant": "silver_gold", "players": [
    {"name": "Sarah", "completed": [{"colour": "grey", "points": 10,
                                     "seal": {"colour": "grey", "points": 1}}],
     "coins": 9, "trophies": [6, 4], "palms": [3, 3, 2]},
    {"name": "Bo", "completed": [{"colour": "green", "points": 7}], "coins": 5,
     "trophies": [5], "palms": [2]}]}
BLANK_RACE = {"purple": [], "orange": [], "green": []}


def test_the_score_form_takes_a_skull_count_and_a_count_of_cards(client):
    from companion.rules import get_ruleset
    from tests.test_seam import form_of

    ruleset = get_ruleset("pyramids")
    document = {"game": "pyramids", "players": [
        {"name": "Ana", "completed": [{"number": 5, "colour": "orange"}],
         "torches": [True, False, False, False], "race": BLANK_RACE, "red_gems": 2,
         "green_gems": 1, "worst_skull_penalty": 3, "skulls": 3},
        {"name": "Bo", "completed_count": 4, "lowest_completed": 2,
         "torches": [False] * 4, "race": BLANK_RACE, "red_gems": 0, "green_gems": 0,
         "worst_skull_penalty": 0}]}
    sent = form_of(client, ruleset, document)
    assert sent["players.0.skulls"] == "3" and sent["players.1.completed_count"] == "4"
    page = client.post("/score/pyramids", data=sent)
    assert page.status_code == 200 and 'class="sheet"' in page.get_data(as_text=True)
    sent.setlist("players.0.skulls", ["4"])            # 4 skulls cost more than 3
    page = client.post("/score/pyramids", data=sent)
    assert page.status_code == 422
    assert 'id="err-players.0.skulls"' in page.get_data(as_text=True)


def test_a_silver_and_gold_game_is_saved_as_one(client):
    from companion.rules import get_ruleset
    from tests.test_seam import form_of

    sent = form_of(client, get_ruleset("pyramids"), SIBLING)
    assert 'players.0.coins' in sent and 'players.0.torches.0' not in sent
    sent.setlist("action", ["save"])
    saved = client.post("/score/pyramids", data=sent)
    assert saved.status_code == 303
    page = client.get(saved.headers["Location"]).get_data(as_text=True)
    assert "Silver & Gold (2019), the original" in unescape(page) and "Sarah" in page
    with client.application.app_context():
        from companion.models import GameTable
        table = db.session().get(GameTable, saved.headers["Location"].rsplit("/", 1)[-1])
        assert table.final_document["variant"] == "silver_gold"
    assert "Winner: Sarah" in page
