"""Command line: ``python -m companion serve``, ``score FILE``,
``print pad|aids|extra|cards|report``."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, Sequence

EXIT_BAD_INPUT = 2
DEFAULT_WORKERS = 2
DEFAULT_THREADS = 8


def _score(args: argparse.Namespace) -> int:
    """Print the Scoresheet of a final-state document as JSON (the API's answer)."""
    from flask_babel import force_locale

    from . import create_app
    from .i18n import invalid_body
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
            print(json.dumps(invalid_body(invalid), ensure_ascii=False), file=sys.stderr)
            return EXIT_BAD_INPUT
    print(json.dumps(sheet.as_dict(), ensure_ascii=False, indent=2 if args.pretty else None))
    return 0


def _serve(args: argparse.Namespace) -> int:
    """Migrate the database to the current schema, then serve with gunicorn: uvicorn workers
    (live-update streams on asyncio, no thread per phone) around the Flask app."""
    from gunicorn.app.base import BaseApplication

    from . import create_app
    from .config import Config, lan_url, remember_served_url

    config = Config()
    if not _migrated(config.DATABASE_URL):
        return EXIT_BAD_INPUT
    host = args.host or ("127.0.0.1" if args.local else "0.0.0.0")
    local = host in ("127.0.0.1", "localhost", "::1")
    if not config.PUBLIC_URL:
        config.PUBLIC_URL = f"http://127.0.0.1:{args.port}" if local else lan_url(args.port)
    if not local:           # printouts made later from the command line link here
        remember_served_url(config.INSTANCE_PATH, config.PUBLIC_URL)

    class Server(BaseApplication):
        def load_config(self) -> None:
            self.cfg.set("bind", f"{host}:{args.port}")
            self.cfg.set("workers", args.workers)
            self.cfg.set("worker_class", "companion.asgi.ScribeWorker")
            self.cfg.set("keepalive", 5)
            self.cfg.set("graceful_timeout", 5)
            if "control_socket_disable" in self.cfg.settings:   # gunicorn >= 24: one shared
                self.cfg.set("control_socket_disable", True)     # path; two servers clash
            if args.access_log:
                self.cfg.set("accesslog", "-")

        def load(self):
            # In each worker, after the fork: its own engine, thread pool and stream hub.
            from .asgi import create_asgi

            return create_asgi(create_app(config), threads=args.threads)

    if local:
        print(f"Scribe is serving on {config.PUBLIC_URL}/ (this computer only: start without "
              "--local to let phones join)", flush=True)
    else:
        print(f"Scribe is serving on {config.PUBLIC_URL}/ - open it on the phones (same "
              f"network); listening on {host}:{args.port}", flush=True)
    Server().run()
    return 0


def _migrated(url: str) -> bool:
    """Bring the database to the current schema; a database that cannot be opened is one
    clear line on standard error (its password hidden), not a traceback."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import SQLAlchemyError

    from . import db

    try:
        db.upgrade(url)
    except (SQLAlchemyError, OSError, ValueError, ImportError) as error:
        try:
            shown = make_url(url).render_as_string(hide_password=True)
        except Exception:            # not even a URL: name only its scheme
            shown = url.split("://", 1)[0] + "://…"
        reason = " ".join(str(getattr(error, "orig", None) or error).split())[:300]
        print(f"Scribe cannot use the database DATABASE_URL={shown}: {reason}",
              file=sys.stderr)
        return False
    return True


def _upgrade(_args: argparse.Namespace) -> int:
    from .config import Config

    if not _migrated(Config().DATABASE_URL):
        return EXIT_BAD_INPUT
    print("database is at the current schema")
    return 0


def _write_pdf(data: bytes, path: str) -> None:
    """Write the finished PDF in one go (stdout for ``-``)."""
    if path == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    with open(path, "wb") as handle:
        handle.write(data)


def _names(text: str | None) -> list[str] | None:
    return [n.strip() for n in text.split(",")] if text else None


def _print(args: argparse.Namespace) -> int:
    """Make a printout (``print pad|aids|extra|cards|report``); bad input exits 2 with the
    reason."""
    from pdfgen.errors import PrintError

    from .config import clean_public_url, default_instance_path, lan_url, served_url
    from .services import printing

    if getattr(args, "base_url", "") is None:
        args.base_url = (clean_public_url(os.environ.get("PUBLIC_URL"))
                         or served_url(default_instance_path()))
        if args.base_url is None:
            args.base_url = lan_url()
            print(f"Warning: Scribe has not been served from {default_instance_path()} yet, "
                  f"so the QR codes lead to {args.base_url}/ (port 8000). Start `python -m "
                  "companion serve` first, or give --base-url or PUBLIC_URL.", file=sys.stderr)

    def session():
        from sqlmodel import Session

        from .config import Config
        from .db import make_engine

        return Session(make_engine(Config().DATABASE_URL))

    try:
        if args.what == "pad" and args.table:
            with session() as db_session:
                data = printing.table_pad_pdf(db_session, args.table, args.base_url,
                                              page=args.page, lang=args.lang, sheets=args.sheets)
        elif args.what == "pad" and not args.game:
            print("error: a blank pad needs --game (or --table for a table's pad)",
                  file=sys.stderr)
            return EXIT_BAD_INPUT
        elif args.what == "pad":
            data = printing.blank_pad_pdf(args.game, args.base_url, page=args.page,
                                          lang=args.lang, sheets=args.sheets,
                                          players=args.players, names=_names(args.names))
        elif args.what == "aids":
            data = printing.aids_pdf(args.game, args.base_url, page=args.page, lang=args.lang,
                                     copies=args.copies, sides=args.sides, bleed=args.bleed,
                                     card=args.card)
        elif args.what == "extra":
            data = printing.extra_pdf(args.game, args.printout, args.base_url, page=args.page,
                                      lang=args.lang)
        elif args.what == "cards":
            with session() as db_session:
                data = printing.player_cards_for_table(db_session, args.table_id, args.base_url,
                                                       page=args.page, lang=args.lang,
                                                       card=args.card, bleed=args.bleed)
        else:
            with session() as db_session:
                data = printing.report_for_table(db_session, args.table_id, args.base_url,
                                                 lang=args.lang, page=args.page)
    except PrintError as problem:
        print(f"error: {problem} [{problem.code}]", file=sys.stderr)
        return EXIT_BAD_INPUT
    except OSError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except Exception as exc:        # noqa: BLE001 - a database that is not there or not migrated
        from sqlalchemy.exc import SQLAlchemyError
        if not isinstance(exc, SQLAlchemyError):
            raise
        print(f"error: cannot read the database ({exc.__class__.__name__}); "
              "run `python -m companion upgrade-db` first", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        _write_pdf(data, args.output)
    except OSError as exc:
        print(f"error: cannot write {args.output}: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.output != "-":
        print(f"wrote {args.output}", file=sys.stderr)
    return 0


def _add_print(commands) -> None:
    """The ``print`` command; its game and printout choices come from the print registry."""
    from pdfgen.registry import printing_games

    registered = printing_games()
    games = [content.game for content in registered]
    extras = sorted({printout.key for content in registered for printout in content.extras})
    printer = commands.add_parser("print", help="make a PDF: score pad, play aids, a game's "
                                                "own printout, player cards or game report")
    what = printer.add_subparsers(dest="what", required=True)

    def common(sub, page: bool = True) -> None:
        if page:
            sub.add_argument("--page", default="a4", choices=("a4", "letter"),
                             help="paper size (default a4)")
        sub.add_argument("--lang", default="en", choices=("en", "cs", "hu"),
                         help="language of the printout")
        sub.add_argument("-o", "--output", required=True, help="PDF file to write (- for stdout)")
        sub.set_defaults(handler=_print)

    def base_url(sub) -> None:
        sub.add_argument("--base-url", default=None,
                         help="where Scribe runs: the QR codes link there (default: "
                              "PUBLIC_URL, else the address `serve` last printed, else this "
                              "computer's LAN address on port 8000, with a warning)")

    pad = what.add_parser("pad", help="a score pad, named or blank")
    pad.add_argument("--game", choices=games, help="the game (needed unless --table)")
    pad.add_argument("--names", help="player names in seat order, comma-separated "
                                     "(blank pad without)")
    pad.add_argument("--players", type=int, help="columns of a blank pad (default: most)")
    pad.add_argument("--table", help="fill names and QR code from this table instead")
    pad.add_argument("--sheets", type=int, default=1, help="pages in the pad (default 1)")
    base_url(pad)
    common(pad)

    aids = what.add_parser("aids", help="the game's aid sheets and reference cards")
    aids.add_argument("--game", choices=games, required=True)
    aids.add_argument("--copies", type=int, help="sets of reference cards (default: one "
                                                 "per player of a full table)")
    aids.add_argument("--sides", choices=("single", "duplex", "gutter"), default="single",
                      help="card backs: separate cards, on the reverse, or fold-over")
    aids.add_argument("--bleed", type=float, default=0.0, help="bleed in mm (e.g. 3)")
    aids.add_argument("--card", choices=("poker", "mini"), default="poker")
    base_url(aids)
    common(aids)

    if extras:                      # offered only when some game has printouts of its own
        extra = what.add_parser("extra", help="one of a game's own printouts")
        extra.add_argument("printout", choices=extras, help="which printout")
        extra.add_argument("--game", choices=games, required=True)
        base_url(extra)
        common(extra)

    cards = what.add_parser("cards", help="a player card per seat of a live table")
    cards.add_argument("table_id")
    cards.add_argument("--bleed", type=float, default=0.0, help="bleed in mm (e.g. 3)")
    cards.add_argument("--card", choices=("poker", "mini"), default="poker")
    base_url(cards)
    common(cards)

    report = what.add_parser("report", help="the game report of a finished table")
    report.add_argument("table_id")
    base_url(report)
    common(report)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m companion", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser("serve", help="migrate the database and serve the app to "
                                              "the phones on this network")
    serve.add_argument("--local", action="store_true",
                       help="listen on 127.0.0.1 only (this computer; phones cannot join)")
    serve.add_argument("--host", help="the address to listen on (default: all of this "
                                      "computer's, 0.0.0.0; with --local 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument("--workers", type=int, default=DEFAULT_WORKERS,
                       help=f"server processes (default {DEFAULT_WORKERS})")
    serve.add_argument("--threads", type=int, default=DEFAULT_THREADS,
                       help=f"threads per process for pages and moves (default "
                            f"{DEFAULT_THREADS}; live-update streams need none)")
    serve.add_argument("--access-log", action=argparse.BooleanOptionalAction, default=True,
                       help="log every request on standard output (default on)")
    serve.set_defaults(handler=_serve)

    score = commands.add_parser("score", help="score a final-state JSON document")
    score.add_argument("file", help="path to the JSON document, or - for standard input")
    score.add_argument("--lang", default="en", choices=("en", "cs", "hu"),
                       help="language of error messages")
    score.add_argument("--pretty", action="store_true", help="indent the JSON")
    score.set_defaults(handler=_score)

    upgrade = commands.add_parser("upgrade-db", help="bring the database to the current schema")
    upgrade.set_defaults(handler=_upgrade)

    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["print"]:
        _add_print(commands)      # reads every game's print module: only when printing
    else:
        commands.add_parser("print", help="make a PDF: score pad, play aids, a game's own "
                                          "printout, player cards or game report "
                                          "(python -m companion print --help)")

    args = parser.parse_args(argv)
    return args.handler(args)


if __name__ == "__main__":
    sys.exit(main())
