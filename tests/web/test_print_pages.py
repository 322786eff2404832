"""The print menu hands out PDFs, in the page's language, and explains what it cannot print."""

from __future__ import annotations

import io
import time

import pytest
from pypdf import PdfReader

from tests.factories import ra_document
from tests.pdfgen.toygame import toy_game

pytestmark = pytest.mark.db


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def test_blank_pad_and_aids(client):
    for url in ("/print/ra/pad.pdf?sheets=2", "/print/ra/aids.pdf?page=letter",
                "/print/imhotep/pad.pdf?sheets=1"):
        response = client.get(url)
        assert response.status_code == 200 and response.mimetype == "application/pdf", url
        assert response.data.startswith(b"%PDF")
    letter = PdfReader(io.BytesIO(client.get("/print/ra/aids.pdf?page=letter").data))
    assert [round(float(v)) for v in letter.pages[0].mediabox.upper_right] == [612, 792]
    assert "Print" in client.get("/print/ra").get_data(as_text=True)


def test_table_pad_and_report_in_czech(client):
    saved = client.post("/api/v1/score?save=1", json=ra_document(players=3)).get_json()
    table_id = saved["table"]
    page = client.get(f"/tables/{table_id}").get_data(as_text=True)
    assert f"/print/tables/{table_id}/report.pdf" in page
    report = client.get(f"/print/tables/{table_id}/report.pdf",
                        headers={"Accept-Language": "cs"})
    assert report.status_code == 200
    text = pdf_text(report.data)
    assert "Řehoř" in text and "Ödön" in text
    pad = client.get(f"/print/tables/{table_id}/pad.pdf?sheets=1")
    assert pad.status_code == 200 and "Řehoř" in pdf_text(pad.data)


def test_what_cannot_be_printed(client):
    assert client.get("/print/tables/nothing/report.pdf").status_code == 404
    assert client.get("/print/chess").status_code == 404
    unfinished = client.post("/api/v1/score?save=1",
                             json=ra_document(players=3, epochs=1)).get_json()["table"]
    response = client.get(f"/print/tables/{unfinished}/report.pdf")
    assert response.status_code in (404, 422)
    assert b"%PDF" not in response.data[:10]


@pytest.mark.parametrize("query, field", [
    ("players=100000000", "players"), (f"players={10 ** 12}", "players"),
    ("players=99999999999999999999999", "players"), ("players=-1", "players"),
    ("players=1", "players"), ("players=6", "players"), ("players=abc", "players"),
    ("players=2.5", "players"), ("players=%EF%BC%93", "players"),      # a full-width 3
    ("sheets=0", "sheets"), ("sheets=101", "sheets"), (f"sheets={10 ** 12}", "sheets"),
    ("sheets=1e3", "sheets"),
])
def test_print_sizes_are_bounded_before_any_work(client, query, field):
    started = time.perf_counter()
    response = client.get(f"/print/ra/pad.pdf?{query}")
    assert response.status_code == 422 and b"%PDF" not in response.data[:10]
    assert f"“{field}” must be a whole number from" in response.get_data(as_text=True)
    as_json = client.get(f"/print/ra/pad.pdf?{query}", headers={"Accept": "application/json"})
    assert as_json.status_code == 422 and as_json.get_json()["field"] == field
    assert time.perf_counter() - started < 2


def test_the_table_pad_bounds_its_sheets_too(client):
    saved = client.post("/api/v1/score?save=1", json=ra_document(players=3)).get_json()
    for sheets in ("0", "101", str(10 ** 12), "x"):
        response = client.get(f"/print/tables/{saved['table']}/pad.pdf?sheets={sheets}",
                              headers={"Accept": "application/json"})
        assert response.status_code == 422 and response.get_json()["field"] == "sheets"
    assert client.get(f"/print/tables/{saved['table']}/pad.pdf?sheets=100").status_code == 200


def test_in_range_sizes_are_printed(client):
    for query in ("players=2", "players=5&sheets=1", "sheets=100", "players=&sheets="):
        response = client.get(f"/print/ra/pad.pdf?{query}")
        assert response.status_code == 200 and response.data.startswith(b"%PDF"), query


def test_the_menu_lists_each_games_own_printouts(client):
    with toy_game("toy_print") as game:
        menu = client.get(f"/print/{game}").get_data(as_text=True)
        assert f"/print/{game}/pad.pdf" in menu and f"/print/{game}/aids.pdf" in menu
        assert f"/print/{game}/extras/dice_sheet.pdf" in menu and "Toy · dice sheet" in menu
        for url in (f"/print/{game}/pad.pdf?players=3", f"/print/{game}/aids.pdf",
                    f"/print/{game}/extras/dice_sheet.pdf?page=letter"):
            response = client.get(url)
            assert response.status_code == 200 and response.data.startswith(b"%PDF"), url
        assert "Beetles caught" in pdf_text(client.get(f"/print/{game}/pad.pdf").data)
        missing = client.get(f"/print/{game}/extras/nope.pdf",
                             headers={"Accept": "application/json"})
        assert missing.status_code == 422 and missing.get_json()["field"] == "printout"
    assert client.get("/print/toy_print").status_code == 404         # gone with the game
    ra_menu = client.get("/print/ra").get_data(as_text=True)
    assert "/print/ra/aids.pdf" in ra_menu and "/extras/" not in ra_menu
