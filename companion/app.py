"""The Flask application factory.

``create_app`` builds the Flask app (design.md §7, the flaskr/microblog pattern): extensions
are created unbound and bound here; one blueprint per area.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask
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

    from . import db, guard, i18n
    from .services import broker
    from .api import bp as api_bp
    from .web import assets, errors, groups, limits, live, main, printing, score, wallet

    guard.init_app(app)
    assets.init_app(app)           # compression and long-lived, versioned static files
    db.init_app(app)
    broker.init_app(app)
    i18n.init_app(app)
    csrf.init_app(app)
    csrf.exempt(api_bp)            # the JSON API uses no cookies, so no cross-site forgery
    app.register_blueprint(main.bp)
    app.register_blueprint(score.bp)
    app.register_blueprint(live.bp)
    app.register_blueprint(printing.bp)
    app.register_blueprint(groups.bp)
    groups.init_app(app)
    from .links import public_url
    app.jinja_env.globals["public_url"] = public_url     # links shown to be typed or scanned
    app.register_blueprint(api_bp)
    wallet.init_app(app)
    limits.init_app(app)
    errors.init_app(app)
    return app
