"""The print menu hands out PDFs, in the page's language, and explains what it cannot print."""

from __future__ import annotations

import io

import pytest
from pypdf import PdfReader

from tests.factories import ra_document

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
