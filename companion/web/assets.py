"""Responses a phone fetches fast: compressed text and static files cached for a year.

* **Compression.** Flask-Compress compresses pages and their files (HTML, CSS, JavaScript,
  SVG) of 500 bytes or more with the best encoding the browser accepts (zstd, Brotli, gzip;
  static files, sent as streams, with zstd or Brotli). JSON answers are not compressed: a
  move's or a score's answer is a few kilobytes on the local network, and compressing each
  one cost a quarter of the server's time per request (measured: 1.06 → 1.41 ms for a
  5-player score); the live event stream is left alone too (it must not be buffered).
* **Static files.** Every ``url_for('static', ...)`` gets ``?v=`` and the first twelve hex
  digits of the file's SHA-256, so a changed file has a new address; an address with the
  current ``v`` is sent with a one-year ``immutable`` lifetime, any other (no ``v``, or an
  old one) keeps Flask's ``no-cache`` so it is checked again.
"""

from __future__ import annotations

import hashlib
import os
from typing import Any, Iterable

from flask import Flask, after_this_request, request
from flask_compress import Compress

from .. import hooks

STATIC_MAX_AGE = 365 * 24 * 3600
VERSION_ARG = "v"

compress = Compress()
PAGE_TYPES = ["text/html", "text/css", "text/javascript", "application/javascript",
              "image/svg+xml", "text/plain"]


def init_app(app: Flask, pages: Iterable[str]) -> None:
    """Compress the answers of the ``pages`` blueprints and the static files; version and
    cache the static files."""
    app.config.setdefault("COMPRESS_MIN_SIZE", 500)
    app.config.setdefault("COMPRESS_MIMETYPES", PAGE_TYPES)
    # streamed responses (static files) too; the event stream's type is not in the list
    app.config.setdefault("COMPRESS_STREAMS", True)
    hooks.for_blueprints(app, hooks.taken(app, compress.init_app), pages)
    versions: dict[str, tuple[float, str]] = {}

    def version(filename: str) -> str | None:
        folder = app.static_folder
        if not folder or not isinstance(filename, str):
            return None
        path = os.path.realpath(os.path.join(folder, filename))
        if not path.startswith(os.path.realpath(folder) + os.sep):
            return None
        try:
            mtime = os.stat(path).st_mtime
        except OSError:
            return None
        known = versions.get(path)
        if known is None or known[0] != mtime:
            with open(path, "rb") as handle:
                known = (mtime, hashlib.sha256(handle.read()).hexdigest()[:12])
            versions[path] = known
        return known[1]

    @app.url_defaults
    def _static_version(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and VERSION_ARG not in values:
            digest = version(values.get("filename"))
            if digest:
                values[VERSION_ARG] = digest

    send_static_file = app.view_functions["static"]

    def static(filename: str):
        """A static file, compressed; cached for a year when asked for by its version."""
        after_this_request(compress.after_request)
        response = send_static_file(filename=filename)
        if response.status_code in (200, 304):
            wanted = request.args.get(VERSION_ARG)
            if wanted and wanted == version(filename):
                response.cache_control.no_cache = None
                response.cache_control.public = True
                response.cache_control.max_age = STATIC_MAX_AGE
                response.cache_control.immutable = True
        return response

    app.view_functions["static"] = static
