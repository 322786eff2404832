"""What a person is typing survives every other phone's action (issue 20, item 1).

For each of the five live games: the table is played by the app (random legal moves, seeded)
until a seat's page offers a move form with a field; phone A holds that seat (and the host's
role), types into the form's field, changes a choice, ticks a box, and keeps the focus there.
Phone B asks to undo the last move, then phone C joins, then (where every seat acts at once,
as in Pyramids' marking) another seat moves: each time the update reaches A (the notice of
B's request; the page's count of refreshes) and A's typing, choices and focus are as A left
them, while the fields A did not touch follow the server (a new idempotency key).
"""

from __future__ import annotations

import random
import re

import pytest
from werkzeug.datastructures import MultiDict

from companion import db
from companion.rules import get_ruleset
from companion.rules.base import RuleViolation
from companion.services import live_tables as live
from companion.web.schema_form import document_values
from tests.browser.conftest import WAIT_MS

pytestmark = [pytest.mark.browser]

GAMES = ["ra", "imhotep", "pharaon", "valley", "pyramids"]
NAMES = ["Ana", "Bea", "Cyril"]
MOVE_FORM = re.compile(r'<form[^>]*action="[^"]*/moves"[^>]*>(.*?)</form>', re.S)
FIELD = re.compile(r'<(?:select|textarea)\b[^>]*name="m\.|<input\b(?![^>]*type="hidden")'
                   r'(?![^>]*type="submit")[^>]*name="m\.')
# in the browser: a field of a move form that A can see
VISIBLE = "#live form[action$='/moves'] :is(input:not([type=hidden]), select, textarea)" \
          "[name^='m.']:visible"


def _open(client, game: str) -> str:
    """Open a three-seat table of ``game`` with its default set-up, as the host's form does."""
    ruleset = get_ruleset(game)
    form = MultiDict({"_players": "3", "action": "open"})
    for seat, name in enumerate(NAMES):
        form[f"players.{seat}"] = name
    with client.application.app_context():
        for key, value in document_values(ruleset.setup_schema(3), ruleset.default_setup(3),
                                          "setup").items():
            form[key] = value
    response = client.post(f"/tables/new/{game}", data=form)
    assert response.status_code == 303, response.get_data(as_text=True)[:2000]
    return response.headers["Location"].split("/")[2]


def _seat_with_a_field(client, table_id: str) -> int | None:
    """The seat whose page offers a move form with a field (the host's client takes each
    seat in turn to look), else None."""
    for seat in range(len(NAMES)):
        assert client.post(f"/tables/{table_id}/seats/{seat}/claim").status_code == 303
        page = client.get(f"/tables/{table_id}").get_data(as_text=True)
        if any(FIELD.search(form) for form in MOVE_FORM.findall(page)):
            return seat
    return None


def _play_one(app, table_id: str, rng: random.Random) -> None:
    """One random legal move of an awaited seat (a physical draw drawn as the table would)."""
    with app.app_context():
        session = db.session()
        table = live.get_table(session, table_id)
        ruleset = get_ruleset(table.game)
        state = live.state_at(session, table)
        chance = ruleset.chance(state)
        seats = sorted(ruleset.awaiting(state).seats)
        for seat in rng.sample(seats, len(seats)):
            if chance is not None and seat in chance.seats:
                move = chance.draw(rng)
            else:
                moves = ruleset.legal_moves(state, seat)
                if not moves:
                    continue
                move = rng.choice(moves)
            live.submit_move(session, table, seat, move, table.version,
                             f"k{table.version}-{rng.random()}")
            return
    raise AssertionError("nobody could move")


def _move_of_another_seat(app, table_id: str, seat: int) -> bool:
    """Another awaited seat moves (a step every seat takes at once, as Pyramids' marking),
    if there is one and ``seat`` is still awaited after it; whether it did."""
    with app.app_context():
        session = db.session()
        table = live.get_table(session, table_id)
        ruleset = get_ruleset(table.game)
        state = live.state_at(session, table)
        for other in sorted(ruleset.awaiting(state).seats - {seat}):
            for move in ruleset.legal_moves(state, other):
                try:
                    after = ruleset.apply(state, other, move)
                except RuleViolation:
                    continue
                if seat in ruleset.awaiting(after).seats:
                    live.submit_move(session, table, other, move, table.version,
                                     f"other-{table.version}")
                    return True
    return False


def _last_mover(app, table_id: str) -> int:
    with app.app_context():
        session = db.session()
        log = live.move_log(session, live.get_table(session, table_id))
        return [m for m in log if m.undone_version is None][-1].seat


def _table_with_a_field(app, game: str) -> tuple[str, int, str]:
    """A table where, after at least one move, a seat's page has a field; the host's cookie
    holding that seat."""
    client = app.test_client()
    table_id = _open(client, game)
    rng = random.Random(20)
    for _move in range(200):
        _play_one(app, table_id, rng)
        seat = _seat_with_a_field(client, table_id)
        if seat is not None:
            return table_id, seat, client.get_cookie("scribe_tables").value
    raise AssertionError(f"no page of {game} offered a field in 200 moves")


def _fields(page) -> dict:
    """What A's move forms hold now: every field's value or state, and where the focus is."""
    return page.evaluate("""() => {
        const live = document.getElementById('live');
        const out = {values: {}, focus: null, caret: null};
        live.querySelectorAll("form[action$='/moves']").forEach((form, f) => {
            Array.from(form.elements).forEach((el, i) => {
                if (!el.name || el.type === 'submit' || el.type === 'hidden') { return; }
                const key = f + ':' + i + ':' + el.name;
                out.values[key] = el.type === 'checkbox' || el.type === 'radio' ? el.checked
                    : el.tagName === 'SELECT' ? Array.from(el.selectedOptions).map(o => o.value)
                    : el.value;
            });
        });
        out.open = Array.from(live.querySelectorAll('details')).map(d => d.open);
        const active = document.activeElement;
        if (active && active.name) {
            out.focus = active.name;
            try { out.caret = active.selectionStart; } catch (e) { out.caret = null; }
        }
        return out;
    }""")


def _type_into_the_form(page) -> None:
    """A opens a closed section if there is one, and fills the first move form that has fields: text or a number typed, a different
    choice in a select, a box ticked; the focus left in the field typed into (the caret in
    the middle of a text), else on the select changed."""
    closed = page.locator("#live details:not([open]) > summary:visible")
    if closed.count():          # a section A opens stays open
        closed.first.click()
    fields = page.locator(VISIBLE)
    fields.first.wait_for()
    form = fields.first.locator("xpath=ancestor::form")
    typed = form.locator("input[type=text]:visible, input[type=number]:visible, textarea:visible")
    chosen = form.locator("select:visible")
    ticked = form.locator("input[type=checkbox]:visible")
    if ticked.count():
        ticked.first.check()
    if chosen.count():
        select = chosen.first
        options = select.locator("option").evaluate_all("os => os.map(o => o.value)")
        current = select.evaluate("s => s.value")
        other = next((value for value in reversed(options) if value != current), None)
        assert other is not None, "a select with one choice"
        select.select_option(other)
        select.focus()
    if typed.count():
        field = typed.first
        field.click()
        field.press_sequentially("24" if field.get_attribute("type") == "number" else "Amun Ra")
        if field.get_attribute("type") != "number":
            field.evaluate("f => f.setSelectionRange(2, 2)")


@pytest.mark.parametrize("game", GAMES)
def test_what_a_phone_types_survives_the_other_phones(game, app, live_server, phone):
    table_id, seat, cookie = _table_with_a_field(app, game)
    # B asks to undo, so B is not the seat that made the last move (it could undo it)
    last = _last_mover(app, table_id)
    others = sorted((s for s in range(len(NAMES)) if s != seat), key=lambda s: s == last)
    a, b, c = phone(), phone(), phone()
    a.context.add_cookies([{"name": "scribe_tables", "value": cookie, "url": live_server}])
    b.goto(f"{live_server}/tables/{table_id}/join")
    b.locator(f"#seat-{others[0] + 1} button").click()
    b.wait_for_url(re.compile(rf".*/tables/{table_id}$"))
    a.goto(f"{live_server}/tables/{table_id}")

    _type_into_the_form(a)
    before = _fields(a)
    key_before = a.locator("#live input[name=idempotency_key]").first.input_value()

    # B asks to undo the last move: A (the host) is told, and keeps what it typed
    b.get_by_role("button", name="Ask to undo the last move").click()
    a.locator("#live .notice", has_text=f"{NAMES[others[0]]} asks to undo the last move") \
        .wait_for(timeout=WAIT_MS)
    assert _fields(a) == before
    assert a.locator("#live input[name=idempotency_key]").first.input_value() != key_before

    # C takes the last seat: A's page refreshes again, and A's typing is still there
    refreshed = a.evaluate("() => document.getElementById('live').dataset.refreshed")
    c.goto(f"{live_server}/tables/{table_id}/join")
    c.locator(f"#seat-{others[1] + 1} button").click()
    a.wait_for_function("(n) => document.getElementById('live').dataset.refreshed !== n",
                        arg=refreshed)
    assert _fields(a) == before

    # another seat moves while A is still to act (every seat at once): A's entries stay
    refreshed = a.evaluate("() => document.getElementById('live').dataset.refreshed")
    if _move_of_another_seat(app, table_id, seat):
        a.wait_for_function("(n) => document.getElementById('live').dataset.refreshed !== n",
                            arg=refreshed)
        assert _fields(a)["values"] == before["values"] and _fields(a)["focus"] == before["focus"]


def test_a_refused_move_keeps_its_entries_through_the_next_update(app, live_server, phone):
    """Valley's buy form sent without the capital of the card paid with: the page comes back
    with the refusal
    beside that field (marked invalid) and every entry as it was; another phone joins and the
    entries are still there (the page refreshes from the table's address, not the form's)."""
    client = app.test_client()
    table_id = _open(client, "valley")
    assert client.post(f"/tables/{table_id}/seats/0/claim").status_code == 303
    a, b = phone(), phone()
    a.context.add_cookies([{"name": "scribe_tables", "value": client.get_cookie(
        "scribe_tables").value, "url": live_server}])
    a.goto(f"{live_server}/tables/{table_id}")
    buy = a.locator("#live form.buy")
    card = buy.locator("select[name='m.pay.0.card']")
    card.select_option(index=1)
    chosen = card.input_value()
    buy.locator("input[name='m.cost']").fill("5")
    buy.locator("button[name='m.slot']").first.click()

    capital = a.locator("#live form.buy input[name='m.pay.0.capital']")
    capital.and_(a.locator("[aria-invalid=true]")).wait_for()
    assert a.url == f"{live_server}/tables/{table_id}"     # a reload shows the table
    assert a.locator("#refusal").inner_text() == "Type the capital printed on this card."
    entries = _fields(a)
    assert capital.input_value() == ""
    assert a.locator("#live form.buy input[name='m.cost']").input_value() == "5"
    assert a.locator("#live form.buy select[name='m.pay.0.card']").input_value() == chosen

    refreshed = a.evaluate("() => document.getElementById('live').dataset.refreshed")
    b.goto(f"{live_server}/tables/{table_id}/join")
    b.locator("#seat-2 button").click()
    a.wait_for_function("(n) => document.getElementById('live').dataset.refreshed !== n",
                        arg=refreshed)
    assert _fields(a)["values"] == entries["values"]
    assert capital.get_attribute("aria-invalid") == "true"
