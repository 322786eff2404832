"""Real-browser fixtures: the app on a local port and headless Chromium driven by Playwright.

Chromium comes from the system (Debian's ``chromium``, installed by .ci/run); Playwright never
downloads a browser of its own.
"""

from __future__ import annotations

import shutil
import threading

import pytest
from werkzeug.serving import make_server

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def live_server(app):
    """Serve ``app`` on a free local port for the length of a test; yields its base URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=5)


@pytest.fixture(scope="session")
def browser():
    if CHROMIUM is None:
        pytest.skip("no system Chromium (install Debian's chromium; .ci/run does)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def phone(browser):
    """A new phone-sized page factory: ``phone(locale="cs-CZ")``."""
    contexts = []

    def open_page(locale: str = "en-GB"):
        context = browser.new_context(viewport=PHONE, locale=locale, is_mobile=True,
                                      has_touch=True)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()
