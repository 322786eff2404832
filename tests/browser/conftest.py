"""Real-browser fixtures: the app on a local port and headless Chromium driven by Playwright.

The app is served the way ``python -m companion serve`` serves it (uvicorn around
:mod:`companion.asgi`: live-update streams on asyncio, pages through a2wsgi), in a thread of
the test process, on 127.0.0.1. Chromium comes from the system (Debian's ``chromium``,
installed by .ci/run); Playwright never downloads a browser of its own.

A browser test checks what a person sees and does; what the database and the fan-out do is
checked by the ``db`` and ``redis`` tests, which .ci/run repeats on PostgreSQL and Redis. So
only two browser tests are marked ``db`` and run there too: phones following each other live
(test_live_table.py) and three phones marking at once (the Pyramids game); the others run
once, on SQLite and in-process fan-out, like the README's serve command.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
import uuid
from contextlib import contextmanager
from typing import Any, Callable, Mapping

import pytest
import uvicorn

from companion import db
from companion.asgi import create_asgi
from companion.rules import get_ruleset
from companion.services import live_tables as live
from tests.rules.playout import play_along

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
PHONE = {"width": 390, "height": 844}
# Browser tests wait for a condition (a selector, a URL, the page's version), never for a fixed
# time; this is only the ceiling after which a condition that never comes fails the test. It
# is generous so that a machine busy with other work (a parallel worker, a CPU hog) still
# passes; a test that works is never slower for it.
WAIT_MS = int(os.environ.get("BROWSER_WAIT_MS", "90000"))


@contextmanager
def serving(app):
    """Serve ``app`` on a free local port while the block runs; gives its base URL (the
    app's PUBLIC_URL too, so its QR codes lead back here). ``app.extensions["scribe.asgi"]``
    is the ASGI app, for tests that reach its stream hub."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(128)
    base = f"http://127.0.0.1:{listener.getsockname()[1]}"
    app.config["PUBLIC_URL"] = base
    asgi = app.extensions["scribe.asgi"] = create_asgi(app, threads=8)
    server = uvicorn.Server(uvicorn.Config(asgi, lifespan="on", log_level="warning",
                                           timeout_graceful_shutdown=1))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + WAIT_MS / 1000
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
        time.sleep(0.02)
    try:
        yield base
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        listener.close()


@pytest.fixture
def live_server(app):
    """``app`` served for the length of a test (see :func:`serving`)."""
    with serving(app) as base:
        yield base


@pytest.fixture(scope="session")
def browser():
    if CHROMIUM is None:
        pytest.skip("no system Chromium (install Debian's chromium; .ci/run does)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def no_overflow(page) -> None:
    """Nothing sticks out sideways of a 390 px phone, measured with the page's styles (after
    its load: a page still arriving has none yet)."""
    page.wait_for_load_state()
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url}: {width} px wide"


def new_page(browser, **options):
    """A page of its own context (e.g. the host's big screen) with the same wait ceiling."""
    page = browser.new_page(**options)
    page.set_default_timeout(WAIT_MS)
    page.set_default_navigation_timeout(WAIT_MS)
    return page


@pytest.fixture
def phone(browser):
    """A new phone-sized page factory: ``phone(locale="cs-CZ")``."""
    contexts = []

    def open_page(locale: str = "en-GB"):
        context = browser.new_context(viewport=PHONE, locale=locale, is_mobile=True,
                                      has_touch=True)
        context.set_default_timeout(WAIT_MS)
        context.set_default_navigation_timeout(WAIT_MS)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()


def fast_forward(app, table_id: str, until: Callable[[Mapping[str, Any]], bool],
                 seed: int = 0) -> Mapping[str, Any]:
    """The middle of a game played without the phones (issue 19: a browser test plays the
    opening and the end on its phones, where every kind of page and step shows, and the
    rounds in between take seconds instead of minutes): random legal moves made through the
    service a phone's move request calls, until ``until(state)``; the phones hear every move
    and follow the table by themselves meanwhile. Returns that state."""
    def read() -> tuple[int, Mapping[str, Any]]:
        with app.app_context():
            table = live.get_table(db.session(), table_id)
            return table.version, live.state_at(db.session(), table)

    def send(seat: int, move: dict[str, Any], version: int) -> None:
        with app.app_context():
            session = db.session()
            live.submit_move(session, live.get_table(session, table_id), seat, move, version,
                             uuid.uuid4().hex)

    with app.app_context():
        ruleset = get_ruleset(live.get_table(db.session(), table_id).game)
    return play_along(ruleset, read, send, until, seed)
