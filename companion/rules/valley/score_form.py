"""Valley of the Kings: the score-only form a phone fills (spec §14), and its way into the
final-state document of :mod:`.final`.

The form is laid out for the pool chosen at its top (the score form's ``variant``: the pool
id), so it shows that pool's scoring groups only, each once. Each player says once how they
enter the sets (``mode``): the number of different titles of each group (spec §14 field 4,
the quick way) or the titles ticked with their copies (field 5, itemised). The page shows only
the inputs of the chosen way (a stylesheet rule, no JavaScript; the server reads ``mode``
either way). What is left blank means 0 where 0 is possible; a blank tomb count is counted
from the cards entered (ticked: every copy; counted: no duplicates assumed).

A player as the form sends it (``mode`` marks it)::

    {"name": "Ana", "tomb_cards": null, "mode": "count",
     "starters": {"shabti": 3, "urn": null, …}, "uniques": [{"title": "Sphinx", "vp": 4}, …],
     "distinct": {"weapons": 4, …}, "checklist": {"weapons": {"titles": {"axe": null, …},
                                                  "others": [null, …]}, …}}

:func:`from_form` keeps the way chosen and leaves the other out (and turns the form's
``variant`` into ``options.pool``): the rest is the contract's document, so every refusal
names the form's own field.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base import (ChoiceField, IntField, ListField, N_, ObjectField, TextField,
                    edition_schema)
from . import names
from . import printed as t
from .edition import EDITION_VALUES
from .pools import CHOSEN_SIZES, PoolId, all_group_ids, build_pool, group_by_id, group_titles

COUNT, TICK = "count", "tick"
OTHER_LINES = 3               # further titles of a colour the form offers (the API takes more)
MODE_CHOICES = ((COUNT, N_("Count")), (TICK, N_("Tick")))


def _name(key: str) -> Any:
    """A title's, set's or group's name as a label: the reader's name, then the printed one
    (:func:`.names.term`), or the catalogue's label for a scoring category."""
    named = names.term(key)
    return named if named != key else t.CATEGORY_LABELS.get(key) or key


def group_ids(pool_id: str) -> tuple[str, ...]:
    """The scoring groups the form offers for a pool: its groups; where the table picks the
    set of a size (mix, five and six players), both sets of that size (the one in play is
    the one filled in, or the one the options name)."""
    pool = PoolId(pool_id)
    ids = [g.id for g in build_pool(pool).groups]
    for size in CHOSEN_SIZES.get(pool, ()):
        first, second = t.SIZE_PAIRS[size]
        ids.insert(ids.index(first) + 1, second)
    return tuple(ids)


def _checklist_group(group_id: str) -> ObjectField:
    titles = group_titles(group_by_id(group_id), {})
    return ObjectField(group_id, _name(group_id), (
        ObjectField("titles", N_("Titles"), tuple(
            IntField(title, _name(title), max=t.SET_COPIES, default=None) for title in titles)),
        ListField("others", N_("Another title of this colour: copies"),
                  IntField("copies", N_("Copies"), max=t.SET_COPIES, default=None),
                  item_label=N_("Title %(n)d")),
    ))


def form_schema(pool_id: str | None, options: ObjectField) -> ObjectField:
    """The form for a pool (``options``: the document's options without the pool, which the
    form's top chooses)."""
    pool_id = pool_id or PoolId.AFTERLIFE.value
    groups = group_ids(pool_id)
    player = ObjectField("player", N_("Player"), (
        TextField("name", N_("Name"), max_length=40),
        IntField("tomb_cards", N_("Cards in the tomb, duplicates included"), default=None),
        ChoiceField("mode", N_("Sets: count the titles, or tick them"), MODE_CHOICES,
                    default=COUNT),
        ObjectField("starters", N_("Starter cards in the tomb"), tuple(
            IntField(s, _name(s), default=None) for s in t.STARTERS)),
        ObjectField("distinct", N_("Different titles of each set in the tomb"), tuple(
            IntField(g, _name(g), default=None) for g in groups)),
        ObjectField("checklist", N_("Titles in the tomb, ticked (copies)"), tuple(
            _checklist_group(g) for g in groups)),
    ))
    kept = tuple(f for f in options.fields if f.key != "pool" and (
        not f.key.startswith("set_") or int(f.key[4:]) in CHOSEN_SIZES.get(PoolId(pool_id), ())))
    return ObjectField("", "", (
        TextField("game", N_("Game"), required=False),
        ObjectField("options", options.label, kept),
        # what scoring reads of "our copy": the starters' VP and the sets of the titles the
        # catalogue cannot place (a unique's VP is on its line; costs and capital play no part)
        edition_schema([v for v in EDITION_VALUES if v.key in ("starter_vp", "card_set")]),
        ListField("players", N_("Players"), player, required=True,
                  item_label=N_("Player %(n)d")),
        # each unique exists once: one list for the table, each line naming its tomb
        ListField("uniques", N_("Unique artifacts in the tombs"), ObjectField(
            "unique", N_("Unique artifact"), (
                ChoiceField("player", N_("In the tomb of"), tuple(range(max(t.PLAYER_COUNTS))),
                            default=0, seat_choice=True),
                TextField("title", N_("Title"), required=False, max_length=60),
                IntField("vp", N_("VP printed on the card"), max=99, default=None))),
            item_label=N_("Unique %(n)d")),
    ))


def form_sizes(players: int) -> dict[str, int]:
    """Inputs per list: a line for each unique in play (six; ten for six players), three
    further titles per group."""
    lines = t.UNIQUES_SIX_PLAYERS if players >= max(t.PLAYER_COUNTS) else t.UNIQUES_PER_BOX
    sizes = {"players": players, "uniques": lines}
    sizes.update({f"players.*.checklist.{g}.others": OTHER_LINES for g in all_group_ids()})
    return sizes


# --------------------------------------------------------------------------------------------
# From the form to the document, and its refusals back to the form's fields
# --------------------------------------------------------------------------------------------


def _number(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _player(player: Mapping[str, Any]) -> dict[str, Any]:
    """A player as the form sends it, as the contract has it: the way not chosen left out
    (``mode``), blank starters 0, a blank tomb count counted from what was entered."""
    player = dict(player)
    mode = player.pop("mode")
    starters = player.get("starters")
    if isinstance(starters, Mapping):
        player["starters"] = {k: 0 if v is None else v for k, v in starters.items()}
        entered = sum(_number(v) for v in player["starters"].values())
    else:
        entered = 0
    uniques = player.get("uniques")
    entered += sum(1 for u in uniques if isinstance(u, Mapping) and (
        (u.get("title") or "").strip() or u.get("vp") is not None)) if isinstance(
        uniques, list) else 0
    distinct, checklist = player.pop("distinct", None), player.pop("checklist", None)
    if mode == TICK:
        if isinstance(checklist, Mapping) and any(not _blank(v) for v in checklist.values()):
            player["checklist"] = checklist
        elif player.get("tomb_cards") is None:
            player["tomb_cards"] = entered
    else:
        if isinstance(distinct, Mapping):
            distinct = {g: n for g, n in distinct.items() if n is not None}
            entered += sum(_number(n) for n in distinct.values())
        player["distinct"] = distinct
        if player.get("tomb_cards") is None:
            player["tomb_cards"] = entered
    return player


def _blank(value: Any) -> bool:
    if isinstance(value, Mapping):
        return all(_blank(v) for v in value.values())
    if isinstance(value, list):
        return all(_blank(v) for v in value)
    return value is None


def from_form(document: Any) -> tuple[Any, dict[str, str]]:
    """``document`` with every form-shaped player (``mode``) in the contract's shape, the
    form's table-wide unique lines given to their tombs and its ``variant`` as
    ``options.pool``; any other document as it is. Also where each unique went, to name a
    refusal by the form's line (see :func:`form_field`)."""
    if not isinstance(document, Mapping):
        return document, {}
    document = dict(document)
    variant = document.pop("variant", None)
    options = document.get("options")
    if variant is not None and (options is None or isinstance(options, Mapping)):
        document["options"] = {"pool": variant, **(options or {})}
    players = document.get("players")
    if not isinstance(players, list) or not any(
            isinstance(p, Mapping) and p.get("mode") in (COUNT, TICK) for p in players):
        return document, {}
    players = [dict(p) if isinstance(p, Mapping) else p for p in players]
    moved: dict[str, str] = {}
    lines = document.pop("uniques", None)
    for line, item in enumerate(lines if isinstance(lines, list) else ()):
        if not isinstance(item, Mapping) or (not (item.get("title") or "").strip()
                                             and item.get("vp") is None):
            continue                                  # a line left blank
        seat = item.get("player", 0)
        if not isinstance(seat, int) or not 0 <= seat < len(players) or \
                not isinstance(players[seat], Mapping):
            seat = 0
        mine = players[seat].setdefault("uniques", [])
        moved[f"players.{seat}.uniques.{len(mine)}"] = f"uniques.{line}"
        mine.append({"title": item.get("title") or "", "vp": item.get("vp")})
    for seat, player in enumerate(players):
        if isinstance(player, Mapping):
            player.setdefault("uniques", [])
            if player.get("mode") in (COUNT, TICK):
                players[seat] = _player(player)
    document["players"] = players
    return document, moved


def _by_id(entries: Any) -> Any:
    """A ``{title: value}`` mapping keyed by title ids (the contract also takes the English or
    Czech name; the form's inputs are named by id)."""
    if not isinstance(entries, Mapping):
        return entries
    return {(t.find_title(k) or k) if isinstance(k, str) else k: v for k, v in entries.items()}


def to_form(document: Mapping[str, Any]) -> dict[str, Any]:
    """A saved document as the phone form lays it out, to correct it (the way back from
    :func:`from_form`): the pool as ``variant``, each player's ``mode`` (ticked when they
    ticked titles, else counted), the uniques on the table's lines naming their tombs (a VP
    left to the copy's ``unique_vp`` written on its line, the only place the form has for it),
    titles by id. A document the form saved (players with ``mode``) is returned as it is; a
    contract document (saved through the API, or by the form before it asked the pool at its
    top) would otherwise reopen on Afterlife's groups with its uniques and ticks lost."""
    document = dict(document)
    players = document.get("players")
    if not isinstance(players, list) or any(
            isinstance(p, Mapping) and "mode" in p for p in players):
        return document
    options = dict(document.get("options") or {}) if isinstance(
        document.get("options"), Mapping) else {}
    pool = options.pop("pool", None)
    if document.get("variant") is None:
        document["variant"] = pool if pool in {p.value for p in PoolId} else PoolId.AFTERLIFE.value
    document["options"] = options
    edition = document.get("edition")
    unique_vp: Mapping[str, Any] = {}
    if isinstance(edition, Mapping):
        edition = {k: _by_id(v) for k, v in edition.items()}
        unique_vp = edition.get("unique_vp") if isinstance(edition.get("unique_vp"),
                                                            Mapping) else {}
        document["edition"] = edition
    lines: list[dict[str, Any]] = []
    shaped = []
    for seat, player in enumerate(players):
        if not isinstance(player, Mapping):
            shaped.append(player)
            continue
        player = dict(player)
        for item in player.pop("uniques", None) or ():
            if isinstance(item, Mapping):
                title = item.get("title") or ""
                vp = item.get("vp")
                if vp is None and isinstance(title, str):
                    vp = unique_vp.get(t.find_title(title) or title)
                lines.append({"player": seat, "title": title, "vp": vp})
        checklist = player.get("checklist")
        if isinstance(checklist, Mapping):
            player["checklist"] = {
                group: {**entry, "titles": _by_id(entry.get("titles"))}
                if isinstance(entry, Mapping) else entry for group, entry in checklist.items()}
        player["mode"] = TICK if isinstance(checklist, Mapping) and not _blank(checklist) \
            else COUNT
        shaped.append(player)
    document["players"] = shaped
    document["uniques"] = lines
    return document


def form_field(field: str | None, moved: Mapping[str, str]) -> str | None:
    """A refused field named as the form has it: a unique's by its line of the form."""
    if field:
        for path, line in moved.items():
            if field == path or field.startswith(path + "."):
                return line + field[len(path):]
        if field.startswith("players.") and field.endswith(".uniques") and moved:
            return "uniques"
    return field
