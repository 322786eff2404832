"""Error pages for people and JSON errors for the API: never a bare 500 page or stack trace."""

from __future__ import annotations

from flask import Flask, g, jsonify, make_response, render_template, request
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.exceptions import HTTPException

from .. import db


def _wants_json() -> bool:
    return request.path.startswith("/api/")


def init_app(app: Flask) -> None:
    @app.errorhandler(CSRFError)
    def _csrf(error: CSRFError):
        message = _("This form has expired or was not sent from this site. "
                    "Go back, reload the page and send it again.")
        return render_template("error.html", code=400, message=message), 400

    @app.errorhandler(429)
    def _rate_limited(error: HTTPException):
        """Past a rate limit (:mod:`.limits`): say so in the person's language."""
        message = _("Too many attempts from this device. Wait a minute, then try again.")
        if _wants_json() or request.accept_mimetypes.best == "application/json":
            response = jsonify({"error": "rate_limited", "message": message, "field": None})
        else:
            response = make_response(render_template("error.html", code=429,
                                                     message=message))
        response.status_code = 429      # its Retry-After and limit headers: web/limits.py
        return response

    @app.errorhandler(HTTPException)
    def _http(error: HTTPException):
        code = error.code or 500
        # the error's own headers go along (405's Allow lists the methods that do work)
        headers = [(name, value) for name, value in error.get_headers()
                   if name.lower() != "content-type"]
        if _wants_json():
            return jsonify({"error": f"http_{code}", "message": error.description,
                            "field": None}), code, headers
        messages = {404: _("There is nothing at this address."),
                    405: _("This page cannot be used that way."),
                    413: _("What was sent is too large.")}
        return render_template("error.html", code=code,
                               message=messages.get(code, error.description)), code, headers

    @app.errorhandler(SQLAlchemyError)
    def _storage(error: SQLAlchemyError):
        """The database cannot be written (or reached) right now: 503, nothing half-written
        (the request's transaction is rolled back), and the pool is renewed so that writes
        work again by themselves as soon as the fault is over."""
        if not db.is_storage_fault(error):
            return _unexpected(error)
        app.logger.warning("storage unavailable: %s", str(error).splitlines()[0][:200])
        session = g.pop("db_session", None)
        if session is not None:
            session.rollback()
            session.close()
        db.heal(db.engine())
        message = _("Scribe cannot save anything for a moment. Nothing was lost: wait a few "
                    "seconds and send it again.")
        if _wants_json():
            response = jsonify({"error": "storage_unavailable", "message": message,
                                "field": None})
        else:
            response = make_response(render_template("error.html", code=503,
                                                     message=message))
        response.status_code = 503
        response.headers["Retry-After"] = "5"
        return response

    @app.errorhandler(Exception)
    def _unexpected(error: Exception):
        app.logger.exception("unhandled error")
        if _wants_json():
            return jsonify({"error": "internal", "message": "Something went wrong on our side.",
                            "field": None}), 500
        return render_template("error.html", code=500,
                               message=_("Something went wrong on our side.")), 500
