"""Issue 9's "Done when", end to end: the README's serve command (default workers, no Redis),
a host screen and five phones on the machine's LAN address. The phones join by the join link
and play a seeded Ra game and an Imhotep round through their pages; nobody reloads a page;
then a phone that lost its cookie gets its seat back from the host's screen. Of the Ra game,
the first epoch and the last are played on the phones; the second is played through the API
with the phones' own seat tokens, as fast as it goes, while the phones follow by themselves
(issue 19: the suite's minutes; every phone still follows every version).

"No reload": a phone's own move is a form post, so its page is new after it; a marker is set
on each phone's page after its own move (and at the start), and the marker must still be
there when the phone moves next and at the end: in between, the page followed the table only
through live.js. The host's screen moves nothing, so its one marker lasts the whole game.

The test process reads the table's state through the API on 127.0.0.1 (to know whose turn it
is); the browsers use the address the server printed, as phones would.
"""

from __future__ import annotations

import io
import ipaddress
import random
import re
import time

import pytest

from tests.liveserver import Server
from tests.browser.conftest import new_page

pytestmark = [pytest.mark.browser, pytest.mark.slow]

RA_NAMES = ["Ana", "Bea", "Cyril", "Dana", "Emil"]
SEED = 9
FOLLOWED = "v => Number(document.getElementById('live').dataset.version) === v"
MARK = """m => { window.scribeNight = m;
    const refused = document.getElementById('move-error');
    return refused ? refused.textContent : null; }"""
OFFERED = """() => Array.from(document.querySelectorAll('.my-moves form')).map(form => {
    const move = form.querySelector('input[name=move]');
    return move ? JSON.parse(move.value) : null; })"""


@pytest.fixture(scope="module")
def night(tmp_path_factory):
    """`python -m companion serve` as the README runs it; yields (server, the base URL it
    printed for the phones: the LAN address, else 127.0.0.1; the base the browsers open).

    Every link the host screen shows must start with the printed address. The browsers then
    open the same paths on 127.0.0.1: the server listens on every address (test_serve.py
    reads the kernel's table of listening sockets), and a test sends nothing but to the
    loopback."""
    server = Server("night", tmp_path_factory.mktemp("night"))
    try:
        server.wait_ready()
        printed = re.search(r"Scribe is serving on (http://[^/\s]+)/", server.output())
        assert printed, server.output()
        host = printed.group(1).split("//", 1)[1].rsplit(":", 1)[0]
        try:
            lan = not ipaddress.ip_address(host).is_loopback
        except ValueError:
            lan = False                          # a machine name: not ours to resolve here
        yield server, printed.group(1) if lan else server.base, server.base
    finally:
        server.stop()


def _state(server: Server, table_id: str) -> dict:
    status, body = server.call("GET", f"/api/v1/tables/{table_id}")
    assert status == 200, body
    return body


class Phones:
    """The phones of one table: follow it, check their markers, move through their pages."""

    def __init__(self, server: Server, table_id: str, pages: list):
        self.server, self.table_id, self.pages = server, table_id, pages
        self.markers = [None] * len(pages)
        for seat in range(len(pages)):
            self.mark(seat)

    def mark(self, seat: int) -> str | None:
        """Mark the page of ``seat`` as it is now; returns the refusal the page shows."""
        marker = f"{seat}-{time.monotonic_ns()}"
        self.markers[seat] = marker
        return self.pages[seat].evaluate(MARK, marker)

    def follows(self, seat: int, version: int) -> None:
        """The phone shows ``version``, reached without a reload since its last own move."""
        page = self.pages[seat]
        page.wait_for_function(FOLLOWED, arg=version)
        assert page.evaluate("() => window.scribeNight") == self.markers[seat], \
            f"seat {seat}'s page was reloaded"

    def submit(self, seat: int, form, button=None) -> None:
        """Press ``button`` (default: the form's first) on the phone of ``seat``: a form post,
        then the table page again; nothing refused."""
        page = self.pages[seat]
        with page.expect_navigation(wait_until="domcontentloaded"):
            (button or form.locator("button[type=submit]").first).click()
        refused = self.mark(seat)
        assert refused is None, f"seat {seat}: {refused}"


def _open_table(host, printed: str, base: str, game: str,
                names: list[str]) -> tuple[str, str]:
    """The host opens a table of ``names``; returns (table id, join link, opened on ``base``)."""
    answer = host.goto(f"{base}/tables/new/{game}")
    assert answer is not None and answer.status == 200, (answer and answer.status,
                                                        host.content()[:3000])
    assert host.locator("button[value=open]").count() == 1, host.content()[:3000]
    # each button sends the form: the boxes are counted on the whole new page, never on one
    # still arriving (a busy machine showed 4 boxes of 5, and the Add button no longer came)
    while host.locator("input[name^='players.']").count() < len(names):
        with host.expect_navigation(wait_until="domcontentloaded"):
            host.click("button[value=add_player]")
    while host.locator("input[name^='players.']").count() > len(names):
        with host.expect_navigation(wait_until="domcontentloaded"):
            host.click("button[value=remove_player]")
    for seat, name in enumerate(names):
        host.fill(f"input[name='players.{seat}']", name)
    host.click("button[value=open]")
    host.wait_for_url(re.compile(r".*/tables/[\w-]+/host\?opened=1$"))
    join = host.locator(".join-card a").get_attribute("href")
    assert join.startswith(f"{printed}/j/"), (join, printed)   # the address the phones reach
    return host.url.split("/")[-2], base + join[len(printed):]


def _join(phone, join: str, count: int) -> list:
    pages = []
    for seat in range(count):
        page = phone()
        page.goto(join)
        with page.expect_navigation(wait_until="domcontentloaded"):
            page.locator(f"#seat-{seat + 1} button").click()
        page.wait_for_selector("#live")
        pages.append(page)
    return pages


def _ra_turn(phones: Phones, seat: int, state: dict, rng: random.Random) -> None:
    """Any offered move, chosen by a seeded hand that ends epochs in few moves: mostly a
    drawn Ra, sometimes another tile (disasters too); in an auction the player with the fewest
    suns left bids the lowest, so players run out of suns and auctions get shorter."""
    page = phones.pages[seat]
    forms = page.locator(".my-moves form")
    offered = page.evaluate(OFFERED)
    by_type: dict[str, list[int]] = {}
    for index, move in enumerate(offered):
        by_type.setdefault(move["type"] if move else "?", []).append(index)
    suns = [len(up) for up in state["state"]["suns_up"]]
    spender = min((n, s) for s, n in enumerate(suns) if n)[1]
    if "discard" in by_type:                      # a disaster: the preselected tiles go
        chosen = by_type["discard"][0]
    elif "bid" in by_type or "pass" in by_type:
        bids = sorted(by_type.get("bid", []), key=lambda i: offered[i]["sun"])
        chosen = bids[0] if bids and ("pass" not in by_type or seat == spender) \
            else by_type["pass"][0]
    elif "draw" in by_type:
        draws = by_type["draw"]
        ra = [i for i in draws if offered[i]["tile"] == "ra"]
        chosen = ra[0] if ra and rng.random() < 0.9 else rng.choice(draws)
    else:
        chosen = by_type["invoke_ra"][0]           # the auction track is full
    phones.submit(seat, forms.nth(chosen))


def _imhotep_turn(phones: Phones, seat: int, state: dict) -> None:
    """The moves of tests/browser/test_imhotep_table.py: sail to the market when a ship may,
    else place a stone, else the first offered move."""
    moves = phones.pages[seat].locator(".my-moves")
    phase = state["state"]["phase"]
    if phase == "market":
        form = moves.locator("form:has(select[name='m.cards[]'])")
        for select in form.locator("select[name='m.cards[]']").all():
            select.select_option(label="Statue")
        phones.submit(seat, form)
    elif phase in ("round_card", "choice"):
        phones.submit(seat, moves.locator(".button-grid form").first)
    else:
        sail = moves.locator("button[name='m.site'][value='\"market\"']")
        if sail.count():
            phones.submit(seat, None, sail.first)
        elif moves.locator("button[name='m.site']").count():
            phones.submit(seat, None, moves.locator("button[name='m.site']").first)
        elif moves.locator(".slot-button").count():
            phones.submit(seat, None, moves.locator(".slot-button").first)
        else:
            phones.submit(seat, moves.locator("form").first)


def _play(server: Server, phones: Phones, table_id: str, turn, done, limit: int) -> dict:
    """Whoever the table awaits moves on their phone, after their phone followed the table
    by itself, until ``done(state)``; returns the last state."""
    for _step in range(limit):
        state = _state(server, table_id)
        if done(state):
            return state
        seat = state["to_act"]
        phones.follows(seat, state["version"])
        turn(seat, state)
    raise AssertionError(f"not done in {limit} moves")


def _ra_move(view: dict, rng: random.Random) -> dict:
    """The move :func:`_ra_turn`'s hand would make, chosen from what the API offers the
    awaited seat (its prompts: the bag is hidden from phones, so the tiles still in it are
    what the prompts list)."""
    offered = view["prompts"]
    kinds = offered["moves"]
    if "discard" in kinds:
        held, count = offered["discard"]["held"], offered["discard"]["count"]
        return {"type": "discard",
                "tiles": [kind for kind, n in sorted(held.items()) for _ in range(n)][:count]}
    if "bid" in kinds or "pass" in kinds:
        suns = [len(up) for up in view["state"]["suns_up"]]
        spender = min((n, s) for s, n in enumerate(suns) if n)[1]
        if offered["suns"] and ("pass" not in kinds or view["to_act"] == spender):
            return {"type": "bid", "sun": min(offered["suns"])}
        return {"type": "pass"}
    if "draw" in kinds:
        tiles = offered["tiles"]
        return {"type": "draw",
                "tile": "ra" if "ra" in tiles and rng.random() < 0.9 else rng.choice(tiles)}
    return {"type": "invoke_ra"}


def _through_the_api(server: Server, pages: list, table_id: str, until, rng) -> None:
    """Moves sent through the API with each phone's own seat token (as an app would send
    them), until ``until(view)``."""
    tokens = [_seat_token(page.context, table_id) for page in pages]
    for _step in range(400):
        view = _state(server, table_id)
        if until(view):
            return
        seat = view["to_act"]
        status, view = server.call("GET", f"/api/v1/tables/{table_id}", token=tokens[seat])
        assert status == 200, view
        status, body = server.call("POST", f"/api/v1/tables/{table_id}/moves", {
            "move": _ra_move(view, rng), "version": view["version"],
            "idempotency_key": f"api-{view['version']}"}, token=tokens[seat])
        assert status == 200, body
    raise AssertionError("not done in 400 moves")


def _seat_token(context, table_id: str) -> str:
    """The seat token this phone's wallet cookie holds for the table."""
    wallet = next(c["value"] for c in context.cookies() if c["name"] == "scribe_tables")
    return re.search(rf"s:{re.escape(table_id)}:([\w-]+)", wallet).group(1)


def _qr_text(locator) -> str | None:
    """What the QR code in ``locator`` says, as a phone's camera reads it (None when the
    decoder is not installed)."""
    try:
        import zxingcpp
        from PIL import Image
    except ImportError:
        return None
    found = zxingcpp.read_barcodes(Image.open(io.BytesIO(locator.screenshot())))
    assert found, "no QR code could be read"
    return found[0].text


def test_five_phones_and_a_host_screen_play_an_evening(night, browser, phone):
    server, printed, base = night
    started = time.monotonic()
    rng = random.Random(SEED)
    host = new_page(browser, viewport={"width": 1000, "height": 900})

    # ---- a whole Ra game on five phones ------------------------------------------------
    ra_id, join = _open_table(host, printed, base, "ra", RA_NAMES)
    host.evaluate("window.scribeNight = 'host'")
    recovery = host.locator("#host-recovery a").get_attribute("href")
    pages = _join(phone, join, len(RA_NAMES))
    phones = Phones(server, ra_id, pages)
    def ra_turn(seat, state):
        _ra_turn(phones, seat, state, rng)

    _play(server, phones, ra_id, ra_turn, lambda state: state["state"]["epoch"] == 2, 200)
    _through_the_api(server, pages, ra_id, lambda view: view["state"]["epoch"] == 3, rng)
    final = _play(server, phones, ra_id, ra_turn, lambda state: state["status"] == "finished",
                  200)
    assert final["state"]["epoch"] == 3 and len(final["state"]["epoch_ends"]) == 3
    ra_moves = final["version"]
    for seat, page in enumerate(pages):          # the Scoresheet arrives by itself
        phones.follows(seat, final["version"])
        page.wait_for_selector(".sheet")
        assert "Final scores" in page.locator(".sheet h2").inner_text()
    host.locator("#awaiting", has_text="The game is over.").wait_for()
    assert host.evaluate("() => window.scribeNight") == "host"       # never reloaded
    assert host.locator("#host-recovery a").get_attribute("href") == recovery
    ra_seconds = time.monotonic() - started

    # ---- an Imhotep round on four of them ----------------------------------------------
    imhotep_id, join = _open_table(host, printed, base, "imhotep", RA_NAMES[:4])
    host.evaluate("window.scribeNight = 'host'")
    pages = _join(phone, join, 4)
    phones = Phones(server, imhotep_id, pages)
    state = _play(server, phones, imhotep_id,
                  lambda seat, state: _imhotep_turn(phones, seat, state),
                  lambda state: state["state"]["round"] == 2, 200)
    for seat, page in enumerate(pages):          # the next round arrives by itself
        phones.follows(seat, state["version"])
        assert "Round 2 of 6" in page.locator(".status-line").inner_text()
    assert host.evaluate("() => window.scribeNight") == "host"

    # ---- a phone loses its cookie and gets its seat back from the host's screen --------
    lost = pages[2]
    old_token = _seat_token(lost.context, imhotep_id)
    lost.context.clear_cookies()
    lost.goto(join)
    assert lost.locator("#seat-3 .badge").inner_text() == "taken"
    assert lost.locator("#seat-3 button").count() == 0
    with host.expect_navigation(wait_until="domcontentloaded"):
        host.locator("#seat-3 button[value=rejoin]").click()
    host.wait_for_selector("#rejoin-code svg")
    link = host.locator("#rejoin-code a").get_attribute("href")
    assert link.startswith(f"{printed}/tables/{imhotep_id}/rejoin/")
    assert _qr_text(host.locator("#rejoin-code .qr")) in (link, None)   # the QR says the same
    lost.goto(base + link[len(printed):])                            # scanned on the phone
    with lost.expect_navigation(wait_until="domcontentloaded"):
        lost.get_by_role("button", name="Take my seat").click()
    lost.wait_for_selector("#live")
    assert "you are watching" not in lost.content()
    assert _seat_token(lost.context, imhotep_id) != old_token
    # the old token is refused, by the API and as a phone's cookie
    status, refused = server.call("GET", f"/api/v1/tables/{imhotep_id}", token=old_token)
    assert status == 403, refused
    old_phone = phone()
    old_phone.context.add_cookies([{"name": "scribe_tables", "value": f"s:{imhotep_id}:"
                                    f"{old_token}", "url": base}])
    old_phone.goto(f"{base}/tables/{imhotep_id}")
    assert "you are watching" in old_phone.content()

    elapsed = time.monotonic() - started
    print(f"\nRa: {ra_moves} versions in {ra_seconds:.1f} s; whole evening {elapsed:.1f} s")
