"""A big BG Stats import on the admin page shows how far it has got, as it goes (issue 22.5):
the page is sent in pieces, its head at once, then a progress bar after each batch of plays,
then the report."""

from __future__ import annotations

import io
import json

from companion.services import bgstats
from tests.groups.test_bgstats import _backup, _scores
from tests.web.test_group_pages import open_group


def test_the_import_page_shows_its_progress_batch_by_batch(app, client, monkeypatch):
    monkeypatch.setattr(bgstats, "IMPORT_BATCH", 40)
    monkeypatch.setattr(bgstats, "IMPORT_BATCH_MAX", 40)
    monkeypatch.setattr(bgstats, "IMPORT_PAUSE", 0)
    group_id, _invite, admin = open_group(client, "Big history")
    client.get(admin)                                   # this phone is the admin
    plays = [{"gameRefId": 10, "playDate": f"2024-05-01 20:{n // 60:02d}:{n % 60:02d}",
              "playerScores": _scores((1, n % 50, {}), (2, 25, {}))} for n in range(200)]
    response = client.post(f"/groups/{group_id}/admin", data={
        "action": "import", "file": (io.BytesIO(json.dumps(_backup(plays)).encode()), "b.json")},
        content_type="multipart/form-data", buffered=False)
    assert response.status_code == 200 and response.is_streamed
    pieces = [piece.decode() if isinstance(piece, bytes) else piece
              for piece in response.response]
    assert "<h1>" in pieces[0] and "<progress" not in pieces[0]     # the head comes first
    bars = [piece for piece in pieces if "<progress" in piece]
    values = [int(bar.split('value="')[1].split('"')[0]) for bar in bars]
    total = int(bars[0].split('max="')[1].split('"')[0])      # the plays to write
    # 0 at once, then after each batch (40 plays or fewer on a busy machine) up to all of them
    assert values[0] == 0 and values[-1] == total >= 150 and len(values) >= 5
    assert values == sorted(set(values))
    assert all(f'max="{total}"' in bar for bar in bars)
    assert f"{total} plays imported." in "".join(pieces)
    response.close()


def test_an_unreadable_file_is_refused_before_any_page(client):
    group_id, _invite, admin = open_group(client, "Tiny")
    client.get(admin)
    answer = client.post(f"/groups/{group_id}/admin", data={
        "action": "import", "file": (io.BytesIO(b"[not json"), "b.json")},
        content_type="multipart/form-data", follow_redirects=True)
    assert "<progress" not in answer.get_data(as_text=True)
