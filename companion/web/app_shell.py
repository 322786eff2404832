"""Scribe as an installable app (issue 22): the web app manifest, the service worker and the
page it shows when the phone is offline and has no copy of the page asked for.

The service worker is served from the site's root (``/sw.js``) so that its scope is the whole
site; it and the manifest are checked again on every visit (``no-cache``) so a new release
reaches phones at once. The offline logic itself is in ``static/sw.js`` and
``static/offline.js``.
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify, render_template, send_from_directory, url_for
from flask_babel import get_locale, gettext as _

bp = Blueprint("app_shell", __name__)


@bp.get("/manifest.webmanifest")
def manifest():
    """The web app manifest: name, icons, colours; opens on the home page, standalone."""
    body = {
        "name": "Scribe",
        "short_name": "Scribe",
        "description": _("A table companion for Egyptian board games: join by QR code, "
                         "play on your phone, scored exactly."),
        "lang": str(get_locale() or "en"),
        "start_url": url_for("main.index"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#fbf6ec",
        "theme_color": "#2b2118",
        "icons": [{"src": url_for("static", filename=f"icons/icon-{size}.png"),
                   "sizes": f"{size}x{size}", "type": "image/png", "purpose": "any"}
                  for size in (192, 512)],
    }
    response = jsonify(body)
    response.mimetype = "application/manifest+json"
    response.cache_control.no_cache = True
    return response


@bp.get("/sw.js")
def service_worker():
    """The service worker script, at the root so that it may serve every page."""
    response = send_from_directory(current_app.static_folder, "sw.js",
                                   mimetype="text/javascript", max_age=0)
    response.headers["Service-Worker-Allowed"] = "/"
    response.cache_control.no_cache = True
    return response


@bp.get("/offline")
def offline():
    """What the service worker shows for a page it has no copy of while the phone is offline."""
    return render_template("offline.html")
