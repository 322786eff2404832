"""The Flask application factory.

``create_app`` builds the Flask app (design.md §7, the flaskr/microblog pattern): extensions
are created unbound and bound here; one blueprint per area.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask, Request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from flask_wtf import CSRFProtect

from .config import Config, clean_public_url, lan_url

csrf = CSRFProtect()
ROOT = Path(__file__).resolve().parent.parent   # templates/ and static/ live beside the package


def create_app(config: Any = None) -> Flask:
    """Create the app from a Config object (default: the environment)."""
    config = config or Config()
    app = Flask(__name__, template_folder=str(ROOT / "templates"),
                static_folder=str(ROOT / "static"), instance_path=str(config.INSTANCE_PATH))
    app.config.from_object(config)
    # Join links and QR codes are built on this, never on the request's Host header (which
    # on the host's own screen is 127.0.0.1, and which anyone can forge).
    app.config["PUBLIC_URL"] = clean_public_url(app.config.get("PUBLIC_URL")) or lan_url()
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)

    from . import db, guard, hooks, i18n, logs
    from .services import broker
    from .api import bp as api_bp
    from .web import (app_shell, assets, errors, groups, limits, live, main, printing, score,
                      story, wallet)

    guard.init_app(app)
    db.init_app(app)
    broker.init_app(app)
    i18n.init_app(app)
    app.register_blueprint(main.bp)
    app.register_blueprint(score.bp)
    app.register_blueprint(live.bp)
    app.register_blueprint(printing.bp)
    app.register_blueprint(groups.bp)
    app.register_blueprint(story.bp)
    app.register_blueprint(app_shell.bp)
    groups.init_app(app)
    from .links import public_url
    app.jinja_env.globals["public_url"] = public_url     # links shown to be typed or scanned
    app.register_blueprint(api_bp)
    limits.init_app(app)
    errors.init_app(app)
    logs.install(app)              # no token of a path or query reaches a log line
    # What only the pages need runs for the pages' blueprints only, not for the JSON API: it
    # uses no cookies (no session, no cross-site forgery, no wallet) and answers JSON, which
    # is never compressed (design.md §3: a move pays for nothing it does not use).
    pages = [name for name in app.blueprints if name != api_bp.name]
    app.session_interface = PagesSession()
    hooks.for_blueprints(app, hooks.taken(app, csrf.init_app), pages)
    assets.init_app(app, pages)    # compression and long-lived, versioned static files
    wallet.init_app(app, pages)
    return app


class PagesSession(SecureCookieSessionInterface):
    """Flask's signed cookie session, opened for pages only: the API's requests (bearer
    tokens, no cookies) skip reading and checking the cookie."""

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        if request.path.startswith("/api/"):
            return None            # Flask gives the request an empty, read-only session
        return super().open_session(app, request)

    def get_cookie_secure(self, app: Flask) -> bool:
        """``Secure`` when the public address is https (or the request came over it): the
        session cookie is written after every other hook, so it is told here."""
        from .guard import secure_site

        return bool(super().get_cookie_secure(app)) or secure_site()
