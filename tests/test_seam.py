"""The game seam (issue 11): every registered game conforms to the declared protocol, shared
code names no game, and a toy game that exists only in the tests is opened, joined, played to
the end through the HTTP API (a simultaneous step included), scored and added to a group."""

from __future__ import annotations

import html
import json
import re
import threading
from pathlib import Path

import pytest

from companion.rules import all_rulesets
from companion.rules.base import (Capability, ObjectField, Ruleset, check_document,
                                  normalise_options, offers, resolve_edition)

from companion.web.schema_form import document_values

from .pdfgen.pdfcheck import text as pdf_text
from .web.pageforms import forms as page_forms
from .toygame import GAME, register_toy, unregister_toy

ROOT = Path(__file__).resolve().parent.parent
GAMES = [r.id for r in all_rulesets()]


@pytest.fixture
def toy():
    game = register_toy()
    yield game
    unregister_toy()


# --------------------------------------------------------------------------------------------
# Conformance: every registered game
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_game_declares_the_protocol(game):
    ruleset = next(r for r in all_rulesets() if r.id == game)
    assert isinstance(ruleset, Ruleset)
    catalogue = ruleset.catalogue
    assert all(catalogue.names.get(lang) for lang in ("en", "cs", "hu"))
    assert catalogue.player_counts and catalogue.default_players in catalogue.player_counts
    assert catalogue.capabilities <= set(Capability)
    assert (ROOT / "companion" / "rules" / game / "__init__.py").exists()
    options = normalise_options(ruleset, {})             # every option has a valid default
    for variant in [value for value, _label in ruleset.score_form.variants] or [None]:
        assert isinstance(ruleset.form_schema(variant), ObjectField)
    for players in catalogue.live_player_counts or catalogue.player_counts:
        assert ruleset.edition_in_use(options, players) <= {v.key for v in ruleset.edition}
    edition = resolve_edition(ruleset.edition, {})       # every default passes its own check
    assert set(edition.values) | set(edition.missing) == {v.key for v in ruleset.edition}
    for value in ruleset.edition:
        assert value.field.key == value.key and value.source
        if value.default is not None:
            resolve_edition(ruleset.edition, {value.key: value.default})


@pytest.mark.parametrize("game", [r.id for r in all_rulesets(Capability.LIVE)])
def test_live_game_starts_from_its_default_setup(game):
    ruleset = next(r for r in all_rulesets() if r.id == game)
    assert (ROOT / "templates" / "games" / game / "live.html").exists()
    assert (ROOT / "templates" / "games" / game / "api.html").exists()
    options = normalise_options(ruleset, {})
    edition = resolve_edition(ruleset.edition, {})
    for players in ruleset.catalogue.live_player_counts:
        schema = ruleset.setup_schema(players)
        assert isinstance(schema, ObjectField)
        setup, problems = check_document(schema, ruleset.default_setup(players))
        assert problems == []
        names = [f"P{seat}" for seat in range(players)]
        try:
            state = ruleset.setup(options, names, setup, edition)
        except Exception as exc:          # some counts need an option (Ra's two players)
            assert getattr(exc, "code", "").endswith("player_count"), exc
            continue
        assert json.loads(json.dumps(state)) == state
        awaited = ruleset.awaiting(state).seats
        assert awaited and not ruleset.is_over(state)
        for seat in awaited:
            assert ruleset.legal_moves(state, seat)
            assert ruleset.prompts(state, seat)["moves"]
        json.dumps(ruleset.view(state, None, options))


def test_shared_code_names_no_game():
    """The maintainer's grep of issue 11, over shared code (a game's own package, templates,
    pdfgen module and static partial are its own)."""
    names = "|".join(re.escape(r.id) for r in all_rulesets())
    pattern = re.compile(rf'"({names})"|\bimhotep\b|sun[ _]group|obelisk|burial_chamber|'
                         r'"ship"', re.I)
    own = re.compile(rf'^companion/rules/[^/]+/|/translations/|/migrations/|'
                     rf'(^|/)({names})[._/]')
    found = []
    for folder in ("companion", "pdfgen", "templates", "static"):
        for path in sorted((ROOT / folder).rglob("*")):
            relative = path.relative_to(ROOT).as_posix()
            if not path.is_file() or own.search(relative) or "__pycache__" in relative \
                    or path.suffix not in (".py", ".html", ".js", ".css"):
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if pattern.search(line):
                    found.append(f"{relative}:{number}: {line.strip()}")
    assert found == []


# --------------------------------------------------------------------------------------------
# Score-only mode and the API page: every registered game, none named
# --------------------------------------------------------------------------------------------

SCORE_GAMES = [r.id for r in all_rulesets(Capability.SCORE)]
EXAMPLE = re.compile(r'<pre class="example" data-post="([^"]+)">(.*?)</pre>', re.S)


def api_examples(client, game: str) -> list[tuple[str, dict]]:
    """The example documents the API page shows in ``game``'s section, with where to post
    them; every ``<pre>`` there that is a final-state document (players as objects, not an
    answer) must be one of them."""
    page = client.get("/api").get_data(as_text=True)
    start = page.index(f'<h2 id="{game}">')
    following = page.find('<h2 id="', start + 1)
    section = page[start:following if following > 0 else len(page)]
    examples = [(url, json.loads(html.unescape(text))) for url, text in EXAMPLE.findall(section)]
    for text in re.findall(r"<pre>(.*?)</pre>", section, re.S):
        text = html.unescape(text)
        assert not re.search(r'"players":\s*\[\s*\{\s*"name"', text) or '"complete"' in text, \
            f"an unmarked example document on the API page of {game}: {text[:80]}"
    return examples


def form_of(client, ruleset, document: dict):
    """What a browser without JavaScript sends from the score form sized for ``document``
    (every input the page shows, blank or at its default) with the document's values typed."""
    variant = document.get("variant")
    players = document["players"]
    key = ruleset.score_form.stage_key
    stages = len(players[0].get(key) or []) if key else ruleset.score_form.stages
    sizing = {"_players": len(players), "_stages": stages}
    if variant:
        sizing["variant"] = variant
    page = client.get(f"/score/{ruleset.id}", query_string=sizing).get_data(as_text=True)
    form = next(f for f in page_forms(page) if f.action == f"/score/{ruleset.id}")
    sent = form.values()
    for name, value in document_values(ruleset.form_schema(variant, len(players)),
                                       document).items():
        if name in sent:          # (a partial Ra game's suns: the form asks them at the end)
            sent.setlist(name, [value])
    sent.setlist("action", ["score"])
    return sent


@pytest.mark.parametrize("language", ["en", "cs", "hu"])
@pytest.mark.parametrize("game", SCORE_GAMES)
def test_score_form_opens_in_every_language(client, game, language):
    page = client.get(f"/score/{game}", headers={"Accept-Language": language})
    assert page.status_code == 200, page.get_data(as_text=True)[-500:]
    assert f'<html lang="{language}">' in page.get_data(as_text=True)


@pytest.mark.parametrize("game", SCORE_GAMES)
def test_every_api_example_is_accepted(client, game):
    examples = api_examples(client, game)
    assert examples, f"the API page shows no example document of {game}"
    for url, document in examples:
        answer = client.post(url, json=document)
        assert answer.status_code == 200, (document, answer.get_json())
        named = {p["name"] for p in answer.get_json()["players"]}
        assert {p["name"] for p in document["players"]} <= named


@pytest.mark.parametrize("game", SCORE_GAMES)
def test_example_documents_through_the_form_reach_the_scoresheet(client, game):
    ruleset = next(r for r in all_rulesets() if r.id == game)
    examples = [document for _url, document in api_examples(client, game)]
    variants = [value for value, _label in ruleset.score_form.variants][1:]
    # the game's example, and one of each variant it declares (a solo Pharaon has tests of its
    # own form: tests/web/test_pharaon_score_form.py)
    for document in examples[:1] + [d for d in examples if d.get("variant") in variants]:
        data = form_of(client, ruleset, document)
        answer = client.post(f"/score/{game}", data=data)
        page = answer.get_data(as_text=True)
        assert answer.status_code == 200, re.findall(r'field-error[^>]*>([^<]*)', page)
        assert 'class="sheet"' in page and 'field-error' not in page
        for player in document["players"]:
            assert html.escape(player["name"]) in page
    if ruleset.score_form.variants:                     # each variant's form opens
        for value, _label in ruleset.score_form.variants:
            page = client.post(f"/score/{game}", data={"variant": value, "action": "variant"})
            assert page.status_code == 200
            assert f'<option value="{value}" selected>' in page.get_data(as_text=True)


@pytest.mark.parametrize("game", SCORE_GAMES)
def test_an_empty_score_form_names_a_field(client, game):
    answer = client.post(f"/score/{game}", data={"action": "score"})
    page = answer.get_data(as_text=True)
    assert answer.status_code == 422 and 'class="field-error"' in page


# --------------------------------------------------------------------------------------------
# The toy game, end to end through the HTTP API
# --------------------------------------------------------------------------------------------


def wallet_cookie(client, kind: str, table: str, token: str) -> None:
    """Give a test phone a table token, as the pages keep it."""
    from companion.web import wallet
    client.set_cookie(wallet.TABLES_COOKIE, f"{kind}:{table}:{token}")


def _bearer(token):
    return {"Authorization": f"Bearer {token}"}


@pytest.mark.db
def test_toy_game_is_played_scored_and_kept_by_a_group(toy, client):
    opened = client.post("/api/v1/tables", json={
        "game": GAME, "players": ["Ana", "Bo"], "options": {"rounds": 3},
        "setup": {"bonus_seat": 1, "marks": ["", ""]}, "edition": {"bonus_worth": 4}})
    assert opened.status_code == 201, opened.get_data(as_text=True)
    table = opened.get_json()["id"]
    tokens = [client.post(f"/api/v1/tables/{table}/seats/{n}/claim").get_json()["seat_token"]
              for n in (0, 1)]
    key = iter(range(1000))
    rounds = 0
    while True:
        view = client.get(f"/api/v1/tables/{table}", headers=_bearer(tokens[0])).get_json()
        if view["status"] == "finished":
            break
        state, version = view["state"], view["version"]
        if state["phase"] == "draw":
            # the app draws the card for a table that plays with phones only
            drawn = client.post(f"/api/v1/tables/{table}/draw", headers=_bearer(tokens[1]),
                                json={"version": version, "idempotency_key": f"d{rounds}"})
            assert drawn.status_code == 200, drawn.get_data(as_text=True)
            again = client.post(f"/api/v1/tables/{table}/draw", headers=_bearer(tokens[1]),
                                json={"version": version, "idempotency_key": f"d{rounds}"})
            assert again.get_json()["version"] == drawn.get_json()["version"]   # one draw
            continue
        assert view["awaiting"] == [0, 1]
        # both phones guess on the same version: neither sees an error (simultaneous step)
        answers = [client.post(f"/api/v1/tables/{table}/moves", headers=_bearer(tokens[seat]),
                               json={"move": {"type": "guess", "high": seat == 0},
                                     "version": version, "idempotency_key": f"g{next(key)}"})
                   for seat in (0, 1)]
        assert [a.status_code for a in answers] == [200, 200]
        rounds += 1
    assert rounds == 3
    final = client.get(f"/api/v1/tables/{table}").get_json()
    sheet = final["scores"]
    assert sheet["complete"] and {p["name"] for p in sheet["players"]} == {"Ana", "Bo"}
    bonus = {p["name"]: p["breakdown"]["categories"][0]["points"] for p in sheet["players"]}
    assert bonus == {"Ana": 0, "Bo": 4}                  # the table's copy: worth 4
    assert "assumed" not in sheet
    page = client.get(f"/tables/{table}")
    assert page.status_code == 200 and "Bo" in page.get_data(as_text=True)
    host = client.application.test_client()          # the host's phone prints the pad
    wallet_cookie(host, "h", table, opened.get_json()["host_token"])
    pad = host.get(f"/print/tables/{table}/pad.pdf?sheets=1")
    assert pad.status_code == 200 and pad.mimetype == "application/pdf"
    printed = pdf_text(pad.data)
    assert "Coin guess · score pad" in printed and "Ana" in printed and "Bo" in printed
    blank = client.get(f"/print/{GAME}/pad.pdf?players=2&sheets=1")
    assert blank.status_code == 200 and blank.mimetype == "application/pdf"

    group = client.post("/api/v1/groups", json={"name": "Toys"}).get_json()
    recorded = client.post(f"/api/v1/groups/{group['id']}/plays",
                           json={"table": table, "table_token": tokens[0]},
                           headers=_bearer(group["invite_token"]))
    assert recorded.status_code == 201, recorded.get_data(as_text=True)
    ladder = client.get(f"/api/v1/groups/{group['id']}/ladder/{GAME}",
                        headers=_bearer(group["invite_token"]))
    assert ladder.status_code == 200 and len(ladder.get_json()["standings"]) == 2


@pytest.mark.db
def test_simultaneous_moves_at_the_same_moment_are_all_accepted(toy, client):
    opened = client.post("/api/v1/tables", json={"game": GAME, "players": ["Ana", "Bo"]})
    table = opened.get_json()["id"]
    tokens = [client.post(f"/api/v1/tables/{table}/seats/{n}/claim").get_json()["seat_token"]
              for n in (0, 1)]
    drawn = client.post(f"/api/v1/tables/{table}/moves", headers=_bearer(tokens[0]),
                        json={"move": {"type": "draw", "card": 3}, "version": 0,
                              "idempotency_key": "draw"})
    version = drawn.get_json()["version"]
    barrier = threading.Barrier(2)
    results = {}

    def guess(seat):
        app_client = client.application.test_client()
        barrier.wait()
        results[seat] = app_client.post(
            f"/api/v1/tables/{table}/moves", headers=_bearer(tokens[seat]),
            json={"move": {"type": "guess", "high": True}, "version": version,
                  "idempotency_key": f"s{seat}"}).status_code

    threads = [threading.Thread(target=guess, args=(seat,)) for seat in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == {0: 200, 1: 200}
    after = client.get(f"/api/v1/tables/{table}").get_json()
    assert after["version"] == version + 2 and after["state"]["rounds_scored"] == [[3, 3]]
    # outside a simultaneous step the stale rule still holds
    stale = client.post(f"/api/v1/tables/{table}/moves", headers=_bearer(tokens[0]),
                        json={"move": {"type": "draw", "card": 1}, "version": version,
                              "idempotency_key": "late"})
    assert stale.status_code == 409


@pytest.mark.db
def test_a_reused_key_with_another_move_is_refused(toy, client):
    table = client.post("/api/v1/tables", json={"game": GAME, "players": ["Ana", "Bo"]}
                        ).get_json()["id"]
    token = client.post(f"/api/v1/tables/{table}/seats/0/claim").get_json()["seat_token"]
    first = client.post(f"/api/v1/tables/{table}/moves", headers=_bearer(token),
                        json={"move": {"type": "draw", "card": 2}, "version": 0,
                              "idempotency_key": "same"})
    assert first.status_code == 200
    other = client.post(f"/api/v1/tables/{table}/moves", headers=_bearer(token),
                        json={"move": {"type": "draw", "card": 1}, "version": 0,
                              "idempotency_key": "same"})
    assert other.status_code == 422 and other.get_json()["error"] == "table.key_reused"
    assert other.get_json()["field"] == "idempotency_key"


@pytest.mark.db
def test_toy_setup_and_options_come_from_its_declaration(toy, client):
    page = client.get(f"/tables/new/{GAME}").get_data(as_text=True)
    assert 'name="setup.bonus_seat"' in page and 'name="options.rounds"' in page
    refused = client.post("/api/v1/tables", json={"game": GAME, "players": ["Ana", "Bo"],
                                                   "options": {"rounds": 7}})
    assert refused.status_code == 422 and refused.get_json()["field"] == "options.rounds"
    refused = client.post("/api/v1/tables", json={"game": GAME, "players": ["Ana", "Bo"],
                                                   "setup": {"bonus_seat": 5, "marks": []}})
    assert refused.status_code == 422
    assert refused.get_json()["field"].startswith("setup.")
    refused = client.post("/api/v1/tables", json={"game": GAME, "players": ["Ana", "Bo"],
                                                   "edition": {"bonus_worth": 99}})
    assert refused.status_code == 422 and refused.get_json()["field"] == "edition.bonus_worth"


def test_toy_is_gone_after_the_test():
    assert GAME not in [r.id for r in all_rulesets()]
    assert offers(next(iter(all_rulesets())), Capability.SCORE)
