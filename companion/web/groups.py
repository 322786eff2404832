"""Groups for people: open a group, join by link, history, ladders, titles, admin, import.

No passwords: the invite or admin link's token is kept in the phone's bounded group cookie
(:mod:`.wallet`), so a phone that opened the link once stays in the group.

A group that does not exist and a group this phone holds no working link for get the same
answer (404, the same page, after the same work): a sequential group id reveals nothing.
"""

from __future__ import annotations

import json
from typing import Any

from flask import (Blueprint, Response, abort, current_app, flash, make_response, redirect,
                   render_template, request, url_for)
from flask_babel import get_locale, gettext as _, ngettext
from jinja2 import TemplateNotFound

from .. import db
from ..guard import stored_int
from ..i18n import render_violation
from ..links import public_url
from ..models import GameTable
from ..rules import all_rulesets, get_ruleset
from ..rules.base import InvalidDocument, ListField, N_, ObjectField, Ruleset, edition_schema
from ..services import bgstats, charts, editions, groups, stats
from ..services.ladder import display_sections
from ..services.groups import GroupProblem
from . import importing, limits, wallet
from .holdings import my_groups
from .schema_form import build_form, document_values, parse_form, typed_values

bp = Blueprint("groups", __name__)


def _access(group_id: int, admin: bool = False) -> groups.Access:
    try:
        return groups.authorize(db.session(), group_id, wallet.group_token(group_id),
                                admin=admin)
    except GroupProblem as problem:
        abort(Response(render_template("groups/refused.html", message=render_violation(problem)),
                       status=problem.status))


def _actor() -> str:
    return " ".join(request.form.get("actor", "").split())[:80] or _("admin")


def _game_labels() -> dict[str, str]:
    language = str(get_locale())
    labels = {r.id: r.catalogue.name(language) for r in all_rulesets()}
    labels["overall"] = _("All games")
    labels["winning"] = _("Winning score")
    return labels


@bp.route("/groups/new", methods=["GET", "POST"])
@limits.groups_opened
def new_group():
    """Anyone opens a group; the browser keeps its admin link."""
    error = None
    if request.method == "POST":
        try:
            opened = groups.open_group(db.session(), request.form.get("name", ""))
        except GroupProblem as problem:
            error = render_violation(problem)
        else:
            # the links are shown once: only their hashes are kept
            response = make_response(render_template(
                "groups/opened.html", group=opened.group,
                invite_url=public_url("groups.link", token=opened.invite_token),
                admin_url=public_url("groups.link", token=opened.admin_token)))
            wallet.remember_group(opened.group.id, opened.admin_token)
            return response
    return render_template("groups/new.html", error=error,
                           name=request.form.get("name", "")), 422 if error else 200


@bp.get("/g/<token>")
def link(token: str):
    """An invite or admin link: remember it in this browser and open the group."""
    access = groups.group_for_token(db.session(), token)
    if access is None:
        return render_template("groups/refused.html", message=_(
            "This link is not valid (any more). Ask the group for a new invite link.")), 403
    response = redirect(url_for("groups.home", group_id=access.group.id), code=303)
    current = groups.group_for_token(db.session(), wallet.group_token(access.group.id))
    if current is None or current.role != groups.ADMIN or access.role == groups.ADMIN:
        wallet.remember_group(access.group.id, token)
    return response


@bp.get("/groups")
def mine():
    """The groups this browser belongs to."""
    return render_template("groups/mine.html", accesses=my_groups())


@bp.get("/groups/<int:group_id>")
def home(group_id: int):
    """Group home: recent plays, leaders, titles."""
    access = _access(group_id)
    # every row: the page shows the leaders in the order players read (settled players first)
    data = stats.group_home(db.session(), access.group, leaders=None)
    return render_template("groups/home.html", access=access, data=data)


@bp.get("/groups/<int:group_id>/ladder")
@bp.get("/groups/<int:group_id>/ladder/<game>")
def ladder(group_id: int, game: str | None = None):
    """A ladder: overall or one game's."""
    access = _access(group_id)
    data = stats.ladder_page(db.session(), access.group, game)
    return render_template("groups/ladder.html", access=access, data=data)


@bp.get("/groups/<int:group_id>/players/<int:player_id>")
def player(group_id: int, player_id: int):
    """A player's plays, wins, scores, ratings and titles."""
    access = _access(group_id)
    session = db.session()
    try:
        data = stats.player_page(session, access.group, player_id)
    except GroupProblem:
        abort(404)
    chart = charts.player_rating_chart(session, access.group, player_id, labels=_game_labels(),
                                       title=_("Rating over time"))
    return render_template("groups/player.html", access=access, data=data, chart=chart,
                           members=groups.members(session, group_id))


@bp.get("/groups/<int:group_id>/games/<game>")
def game(group_id: int, game: str):
    """A game's records, Champion and ladder."""
    access = _access(group_id)
    session = db.session()
    try:
        data = stats.game_page(session, access.group, game)
    except GroupProblem:
        abort(404)
    chart = charts.game_scores_chart(session, access.group, game, labels=_game_labels(),
                                     title=_("Scores per play"),
                                     more=lambda n: ngettext("%(num)d more player not shown",
                                                             "%(num)d more players not shown", n))
    return render_template("groups/game.html", access=access, data=data, chart=chart)


@bp.get("/groups/<int:group_id>/head-to-head")
def head_to_head(group_id: int):
    """Two players against each other."""
    access = _access(group_id)
    session = db.session()
    members = groups.members(session, group_id)
    data = error = None
    a, b = request.args.get("a", type=stored_int), request.args.get("b", type=stored_int)
    try:
        for name, value in (("a", a), ("b", b)):
            if value is None and request.args.get(name):     # not an id a player can have
                raise GroupProblem(422, "player.not_found",
                                   N_("There is no such player in this group."), name)
        if a is not None and b is not None:
            data = stats.head_to_head_page(session, access.group, a, b)
    except GroupProblem as problem:
        error = render_violation(problem)
    return render_template("groups/h2h.html", access=access, members=members, data=data,
                           error=error, a=a, b=b), 422 if error else 200


def table_token_for_group(table) -> str | None:
    """The token this phone holds that lets it add ``table`` to a group (the host's, a
    seat's, or the keeper's of a saved game), if any."""
    session = db.session()
    for kind in (wallet.HOST, wallet.SEAT, wallet.KEEPER):
        token = wallet.table_token(kind, table.id)
        if token and groups.may_record(session, table, token):
            return token
    return None


@bp.post("/groups/<int:group_id>/plays")
def record(group_id: int):
    """Add a finished table to the group's history (a member, from a phone at the table)."""
    access = _access(group_id)
    table_id = request.form.get("table", "")
    session = db.session()
    table = session.get(GameTable, table_id) if table_id else None
    try:
        groups.record_play(session, access.group, table_id, actor=_actor(),
                           table_token=table_token_for_group(table) if table else None)
    except GroupProblem as problem:
        flash(render_violation(problem))
        if table is None:
            return redirect(url_for("groups.home", group_id=group_id), code=303)
        return redirect(url_for("main.table", table_id=table.id), code=303)
    flash(_("Added to %(group)s.", group=access.group.name))
    return redirect(url_for("groups.home", group_id=group_id), code=303)


# --------------------------------------------------------------------------------------------
# Admin
# --------------------------------------------------------------------------------------------


@bp.route("/groups/<int:group_id>/admin", methods=["GET", "POST"])
@limits.imports
def admin(group_id: int):
    """Rename, merge players, void plays, renew links, import and export (admin link)."""
    access = _access(group_id, admin=True)
    session = db.session()
    group = access.group
    new_links: dict[str, str] = {}
    report = None
    if request.method == "POST":
        action = request.form.get("action", "")
        try:
            report = _admin_action(session, group, action, new_links)
        except (GroupProblem, InvalidDocument) as problem:
            first = problem.first if isinstance(problem, InvalidDocument) else problem
            flash(render_violation(first))
        if isinstance(report, Response):            # an import: its page shows it going
            return report
        if not new_links and report is None:
            return redirect(url_for("groups.admin", group_id=group_id), code=303)
    return render_template("groups/admin.html", access=access,
                           members=groups.members(session, group_id),
                           plays=stats.play_list(session, group_id, limit=100),
                           audit=stats.audit_page(session, group, limit=50),
                           new_links=new_links, report=report)


def _admin_action(session, group, action: str, new_links: dict[str, str]) -> Any:
    form = request.form
    if action == "rename_group":
        groups.rename_group(session, group, form.get("name", ""), _actor())
    elif action == "rename_player":
        groups.rename_player(session, group, form.get("player", type=stored_int),
                             form.get("name", ""), _actor())
    elif action == "merge":
        groups.merge_players(session, group, form.get("keep", type=stored_int),
                             form.get("merge", type=stored_int), _actor())
    elif action == "void":
        groups.void_play(session, group, form.get("table", ""), _actor(), form.get("reason"))
    elif action == "unvoid":
        groups.unvoid_play(session, group, form.get("table", ""), _actor())
    elif action == "invite":
        token = groups.revoke_invite(session, group, _actor())
        new_links["invite"] = public_url("groups.link", token=token)
    elif action == "admin_link":
        token = groups.replace_admin_token(session, group, _actor())
        new_links["admin"] = public_url("groups.link", token=token)
    elif action == "import":
        upload = request.files.get("file")
        if upload is None or not upload.filename:
            raise GroupProblem(422, "import.no_file", _("Choose a BG Stats backup file."))
        document = bgstats.parse_file(upload.read())    # an unreadable file: refused at once
        return importing.streamed(group.id, document, _actor())
    if action not in ("invite", "admin_link"):
        flash(_("Saved."))
    return None


@bp.get("/groups/<int:group_id>/export.json")
def export_json(group_id: int):
    """The group's plays as a BG Stats backup file."""
    access = _access(group_id)
    body = json.dumps(bgstats.export_bgstats(db.session(), access.group), ensure_ascii=False,
                      indent=1, default=str)
    return Response(body, mimetype="application/json", headers={
        "Content-Disposition": f'attachment; filename="scribe-group-{group_id}-bgstats.json"'})


@bp.get("/groups/<int:group_id>/export.csv")
def export_csv(group_id: int):
    """The group's plays as CSV."""
    access = _access(group_id)
    return Response(bgstats.export_csv(db.session(), access.group), mimetype="text/csv",
                    headers={"Content-Disposition":
                             f'attachment; filename="scribe-group-{group_id}-plays.csv"'})


# --------------------------------------------------------------------------------------------
# Our copy: printed values entered once per game
# --------------------------------------------------------------------------------------------


def _edition_ruleset(game: str) -> Ruleset:
    try:
        ruleset = get_ruleset(game)
    except KeyError:
        abort(404)
    if not ruleset.edition:
        abort(404)
    return ruleset


@bp.get("/groups/<int:group_id>/copy")
def copies(group_id: int):
    """The games whose printed values the group can enter, and how many it has entered."""
    access = _access(group_id)
    entered = editions.copies(db.session(), group_id)
    games = [(r, entered.get(r.id, {})) for r in all_rulesets() if r.edition]
    return render_template("groups/copies.html", access=access, games=games)


def _entry_editor(ruleset: Ruleset, key: str) -> str | None:
    """The game's own editor for one entry of a list of records (a card's layout drawn on a
    grid…): the template ``games/<game>/copy_<key>.html``, when the game has one."""
    value = next((v for v in ruleset.edition if v.key == key), None)
    if value is None or not isinstance(value.field, ListField) \
            or not isinstance(value.field.item, ObjectField):
        return None
    name = f"games/{ruleset.id}/copy_{key}.html"
    try:
        current_app.jinja_env.get_template(name)
    except TemplateNotFound:
        return None
    return name


def _fixed_sizes(spec: Any, path: str = "") -> dict[str, int]:
    """Inputs of every list of fixed length inside ``spec`` (indices written as ``*``)."""
    sizes: dict[str, int] = {}
    if isinstance(spec, ObjectField):
        for sub in spec.fields:
            sizes.update(_fixed_sizes(sub, f"{path}.{sub.key}" if path else sub.key))
    elif isinstance(spec, ListField):
        if spec.max_items is not None and spec.max_items == spec.min_items:
            sizes[path] = spec.max_items
        sizes.update(_fixed_sizes(spec.item, f"{path}.*"))
    return sizes


def _edition_sizes(ruleset: Ruleset, entered: dict[str, Any]) -> dict[str, int]:
    """Inputs per list: what the group entered, else the default's length."""
    sizes: dict[str, int] = {}
    for value in ruleset.edition:
        shown = entered.get(value.key, value.default)
        if isinstance(value.field, ListField) and isinstance(shown, (list, tuple)):
            sizes[value.key] = len(shown)
            for index, item in enumerate(shown):
                if isinstance(item, (list, tuple)):
                    sizes[f"{value.key}.{index}"] = len(item)
    return sizes


@bp.route("/groups/<int:group_id>/copy/<game>", methods=["GET", "POST"])
@limits.imports
def copy(group_id: int, game: str):
    """Enter the printed values of the group's copy of a game (blank: the default)."""
    access = _access(group_id)
    ruleset = _edition_ruleset(game)
    session = db.session()
    entered = editions.group_copy(session, group_id, ruleset.id)
    schema = edition_schema(ruleset.edition)
    editors = {value.key: name for value in ruleset.edition
               if (name := _entry_editor(ruleset, value.key))}
    errors: dict[str, list[str]] = {}
    values: dict[str, str] = {}
    if request.method == "POST":
        try:
            if request.form.get("action") == "import":
                upload = request.files.get("file")
                if upload is None or not upload.filename:
                    raise GroupProblem(422, "edition.no_file", N_("Choose a file."), "file")
                try:
                    document = json.loads(upload.read().decode("utf-8"))
                except (ValueError, UnicodeDecodeError):
                    raise GroupProblem(422, "edition.bad_file", N_(
                        "This is not a file of printed values exported by Scribe."),
                        "file") from None
                editions.import_copy(session, access.group, document, _actor())
            else:
                sizes = _edition_sizes(ruleset, {})
                for key in request.form:                 # as many inputs as were shown
                    parts = key.split(".")
                    if len(parts) >= 3 and parts[0] == "edition" and parts[2].isdigit():
                        sizes[parts[1]] = max(sizes.get(parts[1], 0), int(parts[2]) + 1)
                    if len(parts) >= 4 and parts[0] == "edition" and parts[3].isdigit():
                        inner = f"{parts[1]}.{parts[2]}"
                        sizes[inner] = max(sizes.get(inner, 0), int(parts[3]) + 1)
                document = parse_form(schema, request.form, sizes, "edition")
                for key in editors:               # edited one entry at a time: kept as is
                    document[key] = entered.get(key)
                editions.save_copy(session, access.group, ruleset.id, document, _actor())
        except GroupProblem as problem:
            errors[problem.field or ""] = [render_violation(problem)]
            values = typed_values(request.form)
        else:
            flash(_("Saved."))
            return redirect(url_for("groups.copy", group_id=group_id, game=ruleset.id),
                            code=303)
    else:
        values = document_values(schema, entered, "edition")
    form = build_form(schema, _edition_sizes(ruleset, entered), values, errors,
                      prefix="edition")
    notes = {value.key: value for value in ruleset.edition}
    return render_template("groups/copy.html", access=access, ruleset=ruleset, form=form,
                           entered=entered, notes=notes, errors=errors, editors=editors), \
        (422 if errors else 200)


@bp.route("/groups/<int:group_id>/copy/<game>/<key>/<int:index>", methods=["GET", "POST"])
def copy_entry(group_id: int, game: str, key: str, index: int):
    """Enter, change or remove one entry of a list in the group's copy (a card's layout) on
    the game's own form; the next index adds an entry."""
    access = _access(group_id)
    ruleset = _edition_ruleset(game)
    editor = _entry_editor(ruleset, key)
    if editor is None:
        abort(404)
    session = db.session()
    entered = editions.group_copy(session, group_id, ruleset.id)
    entries = list(entered.get(key) or [])
    if index > len(entries):
        abort(404)
    item = next(v for v in ruleset.edition if v.key == key).field.item
    errors: dict[str, list[str]] = {}
    entry = entries[index] if index < len(entries) else None
    values = document_values(item, entry or {}, "entry")
    if request.method == "POST":
        if request.form.get("action") == "remove":
            del entries[index:index + 1]
            document = {**entered, key: entries}
        else:
            sizes = _fixed_sizes(item)
            chosen = parse_form(item, request.form, sizes, "entry")
            entries[index:index + 1] = [chosen]
            document = {**entered, key: entries}
        try:
            editions.save_copy(session, access.group, ruleset.id, document, _actor())
        except GroupProblem as problem:
            field = problem.field or ""
            here = next((p for p in (f"edition.{key}.{index}", f"{key}.{index}")
                         if field == p or field.startswith(p + ".")), None)
            field = "entry" + field[len(here):] if here else field     # as the form names it
            errors[field] = [render_violation(problem)]
            values = typed_values(request.form)
        else:
            flash(_("Saved."))
            return redirect(url_for("groups.copy", group_id=group_id, game=ruleset.id),
                            code=303)
    return render_template(editor, access=access, ruleset=ruleset, key=key, index=index,
                           entry=entry, values=values, errors=errors, count=len(entries),
                           item=item), (422 if errors else 200)


@bp.get("/groups/<int:group_id>/copy/<game>.json")
def copy_json(group_id: int, game: str):
    """The group's copy of a game as a file another group can import."""
    access = _access(group_id)
    ruleset = _edition_ruleset(game)
    body = json.dumps(editions.export_copy(db.session(), access.group, ruleset.id),
                      ensure_ascii=False, indent=1)
    return Response(body, mimetype="application/json", headers={
        "Content-Disposition": f'attachment; filename="scribe-{ruleset.id}-our-copy.json"'})


def init_app(app) -> None:
    """Template helpers: the groups this browser is in, the BG Stats hand-off link."""
    app.jinja_env.globals["my_groups"] = my_groups
    app.jinja_env.globals["may_add_to_group"] = lambda table: table.group_id is None and \
        table_token_for_group(table) is not None
    app.jinja_env.globals["ladder_sections"] = display_sections
    app.jinja_env.globals["group_members"] = lambda group_id: groups.members(db.session(),
                                                                             group_id)
    app.jinja_env.globals["bgstats_url"] = lambda table_id: bgstats.create_play_url(
        db.session(), table_id)
