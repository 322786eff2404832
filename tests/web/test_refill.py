"""A refused move comes back as it was entered, the refusal beside its field (issue 20, item 2)."""

from __future__ import annotations

import re
from html import unescape

import pytest

from companion.web.refill import entered_again

PAGE = """<div id="live"><p class="form-errors" role="alert" id="move-error">Refused.</p>
<details class="elsewhere"><summary>Other</summary>
<form method="post" action="/tables/t/moves"><input type="hidden" name="move" value='{"type": "x"}'>
<input type="text" name="m.name"></form></details>
<details class="area"><summary>Gods</summary>
<form method="post" action="/tables/t/moves">
<input type="hidden" name="csrf_token" value="c"><input type="hidden" name="version" value="4">
<input type="hidden" name="idempotency_key" value="new-key">
<input type="hidden" name="move" value='{"type": "gods"}'>
<label>Name <input type="text" name="m.gods.0.name" value="God 1"></label>
<label>A <input type="number" name="m.gods.0.a" required></label>
<select name="m.noble"><option value="">–</option><option value="1" selected>Noble 1</option>
<optgroup label="more"><option value="2">Noble 2</option></optgroup></select>
<select name="m.tiles[]"><option value='"a"' selected>A</option><option value='"b"'>B</option></select>
<select name="m.tiles[]"><option value='"a"' selected>A</option><option value='"b"'>B</option></select>
<label><input type="checkbox" name="m.take[]" value="0" checked> 1</label>
<label><input type="checkbox" name="m.take[]" value="1"> 2</label>
<textarea name="m.note">old</textarea>
<details class="more"><summary>More</summary><input type="number" name="m.gods.1.a"></details>
<button type="submit" name="m.go" value="1">Go</button>
</form></details></div>"""

SENT = {"csrf_token": ["c"], "version": ["3"], "idempotency_key": ["old-key"],
        "move": ['{"type": "gods"}'], "m.gods.0.name": ["Amun <b>"], "m.gods.0.a": [""],
        "m.noble": ["2"], "m.tiles[]": ['"a"', '"b"'], "m.take[]": ["1"], "m.note": ["new"],
        "m.gods.1.a": ["7"]}


def tag(html: str, name: str, index: int = 0) -> str:
    return re.findall(rf'<[a-z]+ [^>]*name="{re.escape(name)}"[^>]*>', html)[index]


def test_the_sent_form_holds_what_was_entered_and_the_refusal_sits_beside_its_field():
    html = entered_again(PAGE, "/tables/t/moves", SENT, "move.gods.0.a",
                         "God 1 › Threshold A: This is required.")
    assert 'value="Amun &lt;b&gt;"' in tag(html, "m.gods.0.name")
    a = tag(html, "m.gods.0.a")
    assert 'aria-invalid="true"' in a and 'aria-describedby="refusal"' in a and 'value=""' in a
    assert re.search(r'name="m\.gods\.0\.a"[^>]*><span class="field-error" id="refusal">'
                     r"God 1 › Threshold A: This is required\.</span>", html)
    assert 'id="move-error">Refused.</p>' in html      # the page's own message stays
    # choices as chosen: a select, a list of selects, ticks, a text area
    noble = html[html.index('name="m.noble"'):html.index("</select>", html.index('name="m.noble"'))]
    assert '<option value="2" selected>' in noble and '<option value="1">' in noble
    second = html[html.index('name="m.tiles[]"', html.index('name="m.tiles[]"') + 1):]
    assert "<option value=\"&quot;b&quot;\" selected>" in second.split("</select>")[0]
    assert "checked" not in tag(html, "m.take[]", 0) and "checked" in tag(html, "m.take[]", 1)
    assert ">new</textarea>" in html
    # the page's own state is the server's: a new key, the current version
    assert 'value="new-key"' in html and 'value="4"' in html and "old-key" not in html
    # the sections holding the form and a field entered in it open; another stays closed
    assert '<details class="area" open>' in html and '<details class="more" open>' in html
    assert '<details class="elsewhere">' in html
    # every field entered is the person's (live.js keeps it through another phone's move)
    assert "data-entered" in tag(html, "m.gods.0.name") and "data-entered" not in tag(
        html, "m.name")


@pytest.mark.parametrize("path, name", [("move.tiles.1", "m.tiles[]"),
                                        ("move.gods.0", "m.gods.0.name"),
                                        ("move.noble", "m.noble")])
def test_the_refused_field_is_found_from_its_path(path, name):
    html = entered_again(PAGE, "/tables/t/moves", SENT, path, "No.")
    invalid = re.findall(r'<[a-z]+ [^>]*aria-invalid="true"[^>]*>', html)
    assert len(invalid) == 1 and f'name="{name}"' in invalid[0]
    if path == "move.tiles.1":
        assert invalid[0] == tag(html, name, 1)


def test_a_refusal_without_a_field_keeps_the_entries_and_another_form_is_left_alone():
    html = entered_again(PAGE, "/tables/t/moves", SENT, None, "Noble 2 is not in the deck.")
    assert "aria-invalid" not in html and "field-error" not in html    # the top says it
    assert 'value="Amun &lt;b&gt;"' in tag(html, "m.gods.0.name")
    assert '<option value="2" selected>' in html
    assert entered_again(PAGE, "/elsewhere", SENT, None, "No.") == PAGE


def _hidden(html: str, form_class: str) -> dict[str, str]:
    block = re.search(rf'<form [^>]*class="{form_class}"[^>]*>.*?</form>', html, re.S).group(0)
    return {name: unescape(value) for name, value in
            re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', block)}


@pytest.mark.db
def test_a_refused_move_on_a_live_page_keeps_every_entry_and_marks_its_field(client):
    opened = client.post("/tables/new/valley", data={
        "_players": "2", "action": "open", "players.0": "Ana", "players.1": "Bo"})
    table_id = opened.headers["Location"].split("/")[2]
    assert client.post(f"/tables/{table_id}/seats/0/claim").status_code == 303
    page = client.get(f"/tables/{table_id}").get_data(as_text=True)
    slot = unescape(re.search(r'<button [^>]*name="m\.slot" value=\'([^\']*)\'', page).group(1))
    sent = {**_hidden(page, "buy"), "m.pay.0.card": '"shabti"', "m.pay.0.capital": "-3",
            "m.pay.3.card": '"urn"', "m.cost": "5", "m.slot": slot}   # the slot's button
    response = client.post(f"/tables/{table_id}/moves", data=sent)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    capital = re.search(r'<input [^>]*name="m\.pay\.0\.capital"[^>]*>', html).group(0)
    assert 'aria-invalid="true"' in capital and 'value="-3"' in capital
    message = re.search(r'id="refusal">([^<]+)<', html).group(1)
    assert "1" in message and "pay" not in message and "." not in message.rstrip("."), message
    for name, value in (("m.pay.0.card", "shabti"), ("m.pay.3.card", "urn")):
        select = html[html.index(f'name="{name}"'):]
        select = select[:select.index("</select>")]
        assert f'value=\'"{value}"\' selected' in select or \
            f'value="&quot;{value}&quot;" selected' in select, select[:600]
    assert re.search(r'<input [^>]*name="m\.cost"[^>]*value="5"', html)
    assert '<details class="more" open>' in html


def test_a_refusal_about_a_group_of_ticks_sits_above_the_form_not_inside_its_grid():
    """Playtest (issue 20): the Pyramids marking form's "tap the chambers" refusal landed after
    the first chamber's tick, a cell of the card's 5×5 grid, and stretched that row."""
    html = entered_again(PAGE, "/tables/t/moves", SENT, "move.take", "Tap a tile.")
    gods = html.index('<summary>Gods')
    form = html[html.index("<form ", gods):]
    assert form.split(">", 1)[1].startswith('<span class="field-error" id="refusal">Tap a tile.')
    assert 'aria-invalid="true"' in tag(html, "m.take[]", 0)
    assert "</label>" in html[html.index("Tap a tile."):] and not re.search(
        r'name="m\.take\[\]"[^>]*><span class="field-error"', html)


def test_a_choice_whose_value_is_empty_stays_chosen():
    """Playtest (issue 20): Valley's "which card drops" question starts on "Does not apply"
    (value ""); a refused buy came back with no answer ticked at all."""
    page = ("""<form method="post" action="/tables/t/moves">"""
            """<input type="hidden" name="move" value='{"type": "buy"}'>"""
            """<input type="radio" name="m.drop" value="" checked>"""
            """<input type="radio" name="m.drop" value='"M1"'>"""
            """<input type="checkbox" name="m.flag"></form>""")
    html = entered_again(page, "/tables/t/moves", {"move": ['{"type": "buy"}'],
                                                   "m.drop": [""], "m.flag": ["on"]})
    assert "checked" in tag(html, "m.drop", 0) and "checked" not in tag(html, "m.drop", 1)
    assert "checked" in tag(html, "m.flag")
    html = entered_again(page, "/tables/t/moves", {"move": ['{"type": "buy"}'],
                                                   "m.drop": ['"M1"']})
    assert "checked" not in tag(html, "m.drop", 0) and "checked" in tag(html, "m.drop", 1)
