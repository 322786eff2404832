"""Command line: ``python -m companion serve`` and ``python -m companion score FILE``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Sequence

EXIT_BAD_INPUT = 2


def _score(args: argparse.Namespace) -> int:
    """Print the Scoresheet of a final-state document as JSON (the API's answer)."""
    from flask_babel import force_locale

    from . import create_app
    from .i18n import violation_body
    from .rules.base import InvalidDocument
    from .services.scoring import score_document

    try:
        text = sys.stdin.read() if args.file == "-" else open(args.file, encoding="utf-8").read()
    except OSError as exc:
        print(json.dumps({"error": "cannot_read", "message": str(exc), "field": None}),
              file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        document: Any = json.loads(text)
    except ValueError as exc:
        print(json.dumps({"error": "bad_json", "message": f"Not JSON: {exc}", "field": None}),
              file=sys.stderr)
        return EXIT_BAD_INPUT
    app = create_app()
    with app.app_context(), force_locale(args.lang):
        try:
            sheet = score_document(document)
        except InvalidDocument as invalid:
            body = violation_body(invalid.first)
            body["errors"] = [violation_body(v) for v in invalid.violations]
            print(json.dumps(body, ensure_ascii=False), file=sys.stderr)
            return EXIT_BAD_INPUT
    print(json.dumps(sheet.as_dict(), ensure_ascii=False, indent=2 if args.pretty else None))
    return 0


def _serve(args: argparse.Namespace) -> int:
    """Migrate the database to the current schema, then serve with gunicorn."""
    from gunicorn.app.base import BaseApplication

    from . import create_app, db
    from .config import Config

    config = Config()
    db.upgrade(config.DATABASE_URL)
    app = create_app(config)

    class Server(BaseApplication):
        def load_config(self) -> None:
            self.cfg.set("bind", f"{args.host}:{args.port}")
            self.cfg.set("workers", args.workers)
            self.cfg.set("worker_class", "gthread")
            self.cfg.set("threads", 8)
            self.cfg.set("accesslog", "-")

        def load(self):
            return app

    print(f"Scribe is serving on http://{args.host}:{args.port}/", flush=True)
    Server().run()
    return 0


def _upgrade(_args: argparse.Namespace) -> int:
    from . import db
    from .config import Config

    db.upgrade(Config().DATABASE_URL)
    print("database is at the current schema")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser("serve", help="migrate the database and serve the app")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=2)
    serve.set_defaults(handler=_serve)

    score = commands.add_parser("score", help="score a final-state JSON document")
    score.add_argument("file", help="path to the JSON document, or - for standard input")
    score.add_argument("--lang", default="en", choices=("en", "cs", "hu"),
                       help="language of error messages")
    score.add_argument("--pretty", action="store_true", help="indent the JSON")
    score.set_defaults(handler=_score)

    upgrade = commands.add_parser("upgrade-db", help="bring the database to the current schema")
    upgrade.set_defaults(handler=_upgrade)

    args = parser.parse_args(argv)
    return args.handler(args)


if __name__ == "__main__":
    sys.exit(main())
