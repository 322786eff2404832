"""A BG Stats import on the admin page, shown as it goes (issue 22: progress on long work).

A big backup takes seconds (its plays are written in short batches so live tables never
wait, :mod:`companion.services.bgstats`). The answer to the upload is a page sent as the
import runs: its head at once, a progress bar after each batch, then the report. It needs no
JavaScript and no state shared between server processes: the request that imports is the one
that tells. The import runs in a thread of its own with its own database session; this request
only relays what it is told.
"""

from __future__ import annotations

import queue
import threading
from typing import Any, Iterator, Mapping

from flask import Response, current_app, render_template, stream_with_context
from flask_babel import gettext as _
from markupsafe import escape

from .. import db
from ..i18n import render_violation
from ..models import Group
from ..services import bgstats
from ..services.groups import GroupProblem

MARK = "<!--import-progress-->"


def _run(app: Any, group_id: int, document: Mapping[str, Any], actor: str,
         events: "queue.Queue[tuple]") -> None:
    with app.app_context():
        session = db.session()
        try:
            group = session.get(Group, group_id)
            report = bgstats.import_bgstats(
                session, group, document, actor,
                progress=lambda done, total: events.put(("progress", done, total)))
            events.put(("done", report))
        except GroupProblem as problem:
            events.put(("refused", problem))
        except Exception as failure:        # told on the page; the batches before it stay
            current_app.logger.exception("import failed")
            events.put(("failed", failure))
        finally:
            session.close()


def streamed(group_id: int, document: Mapping[str, Any], actor: str) -> Response:
    """The import's page, sent while the import runs."""
    events: "queue.Queue[tuple]" = queue.Queue()
    app = current_app._get_current_object()
    threading.Thread(target=_run, args=(app, group_id, document, actor, events),
                     daemon=True).start()
    head, tail = render_template("groups/importing.html", group_id=group_id,
                                 mark=MARK).split(MARK, 1)

    def pages() -> Iterator[str]:
        yield head
        while True:
            event = events.get()
            if event[0] == "progress":
                done, total = event[1], event[2]
                yield (f'<p class="import-step"><progress value="{done}" max="{max(total, 1)}">'
                       f'</progress> {_("Plays imported: %(done)d of %(total)d", done=done, total=total)}'
                       "</p>\n")
                continue
            if event[0] == "done":
                yield render_template("groups/_import_report.html",
                                      report=event[1].as_dict(_))
            elif event[0] == "refused":
                yield f'<p class="form-errors" role="alert">{_escape(render_violation(event[1]))}</p>'
            else:
                yield f'<p class="form-errors" role="alert">{_escape(_("The import stopped. Send the same file again to import the rest."))}</p>'
            break
        yield tail

    return Response(stream_with_context(pages()), mimetype="text/html", headers={
        # sent as it comes: never compressed or buffered on the way
        "Content-Encoding": "identity", "X-Accel-Buffering": "no", "Cache-Control": "no-store"})


def _escape(text: str) -> str:
    return str(escape(text))
