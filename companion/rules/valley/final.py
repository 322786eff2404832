"""Valley of the Kings score-only mode: the final-state document, its checks, its scoring.

Spec §14 (the scoring form), §10-§12 (scoring, pools, solo), §13 (copy limits). The document
is a contract (issue 12; keep the names)::

    {"game": "valley",
     "options": {"pool": "afterlife",      # afterlife | original | mix | half_sets
                                           # | half_sets_merged | five_players | six_players
                 "solo": null},            # null | "beginner" | "master"
     "edition": {"starter_vp": {"shabti": 1, "urn": 1, "box_of_food": 1, "offering_table": 1}},
     "players": [
       {"name": "Ana",
        "tomb_cards": 12,                  # every card in the tomb, duplicates included
        "starters": {"shabti": 3, "urn": 1, "box_of_food": 0, "offering_table": 1},
        "uniques": [{"title": "Sphinx", "vp": 4}],
        "distinct": {"mummification": 1, "jewelry": 0, "chambers": 2, "weapons": 4,
                     "tomb_art": 0}}]}

* ``distinct`` maps each scoring group of the pool to the number of different titles in the
  tomb (solo: titles held in exactly one copy). Group ids: Afterlife ``mummification jewelry
  chambers weapons tomb_art``; original ``sarcophagi canopic_jars amulets books statuettes``;
  merged colour groups ``red brown yellow green light_blue``; half sets scored independently use
  all ten set ids. A group left out counts 0.
* ``options.set_3`` … ``options.set_7`` (optional): the set picked for that size in ``mix``
  (sizes 3-7), ``five_players`` (5-7) and ``six_players`` (6-7). Left out, the choice is read
  from the group ids the players use (Afterlife's set when none is used).
  ``options.uniques`` (optional): ``afterlife`` (default), ``original`` or ``mixed`` — where
  the uniques of ``mix``, the half sets and ``five_players`` come from.
* ``edition`` may be left out: every starter is then 1 VP, marked unverified on the
  Scoresheet (``assumed``). It may also carry ``unique_vp`` ({title: VP}, used for a unique
  listed without ``vp``), ``cost``, ``capital`` and ``card_set`` (edition.py).
* ``uniques.*.title`` is free text (matched to the catalogue by id, English or Czech name when
  it can be); ``vp`` is the number printed on the card.
* A player of one document may be solo only alone: one player and ``solo`` null means the
  beginner level (the only rules for one player; the levels score alike).

**Itemised checklist** (spec §14 field 5), an alternative to ``distinct`` per player::

    "checklist": {"weapons": {"titles": {"axe": 2, "dagger": 1}, "others": [1]},
                  "tomb_art": {"others": [1, 1, 2]}}

  Per scoring group, ``titles`` ticks catalogue titles (id, English or Czech name) with the
  copies in the tomb (1 or 2; 1 in half sets), and ``others`` lists the copies of each further
  title of that colour the catalogue cannot name ("another title of this colour"). A title the
  catalogue cannot place (Nut, Senet, …) may be ticked under any group with an Afterlife set;
  ticked in two groups it is refused. ``distinct`` is computed from it (solo: titles ticked
  once); ``tomb_cards`` may then be left out: it is the starters, the uniques and every copy
  ticked. Given as well, ``distinct`` and ``tomb_cards`` must agree with the checklist.

What a form sends for fields left blank is no entry: a unique line with neither title nor
VP, a checklist group with nothing ticked (nothing ticked at all: the counts per group are
used), an edition entry with nothing entered. A violation is named by the line as the form has
it (a unique written on the third line, the first two blank, is ``uniques.2``).

Impossible documents are refused (422), each violation naming its field: more distinct titles
than the group has, more starters than the pool holds (all players together), tomb cards
fewer than the items listed, a unique listed twice across players, a group id the pool does
not have — and, with the checklist, more copies of a title than the pool holds.
"""

from __future__ import annotations

from typing import Any, Mapping

from ..base import (Assumption, ChoiceField, Edition, IntField, InvalidDocument, ListField, N_,
                    ObjectField, RuleViolation, Scoresheet, TextField, check_document,
                    edition_schema, resolve_edition)
from . import names
from . import printed as t
from .edition import EDITION_VALUES, printed_values
from .pools import (CHOSEN_SIZES, POOL_LABELS, Pool, PoolId, Solo, UNIQUE_BOX_LABELS, UniqueBox,
                    all_group_ids, build_pool, group_by_id, group_titles, title_set)
from .scoring import PlayerTomb, score_tombs, starter_assumption

PLAYER_COUNTS = t.PLAYER_COUNTS
UNIQUE_FORM_SIZE = 6          # unique lines of the score pad (spec §14)
OTHERS_FORM_SIZE = 3          # further titles of a colour the form offers (the API takes more)
MAX_TITLE_LENGTH = 60
SOLO_VALUES = {"": None, "none": None, "null": None, "beginner": Solo.BEGINNER,
               "master": Solo.MASTER}
COPY_LIMIT = "VK_COPY_LIMIT"  # spec §13

STARTERS_SCHEMA = ObjectField("starters", N_("Starter cards in the tomb"), tuple(
    IntField(s, names.term(s)) for s in t.STARTERS))
UNIQUE_SCHEMA = ObjectField("unique", N_("Unique artifact"), (
    TextField("title", N_("Title"), max_length=MAX_TITLE_LENGTH),
    IntField("vp", N_("VP printed on the card"), max=99, default=None),
))
# Laid out for the form; validated by hand (the group ids depend on the pool).
DISTINCT_SCHEMA = ObjectField("distinct", N_("Different titles of each group in the tomb"),
                              tuple(IntField(g, names.term(g)) for g in all_group_ids()))
CHECKLIST_SCHEMA = ObjectField("checklist", N_("Titles in the tomb, ticked"), tuple(
    ObjectField(g, names.term(g), (
        ObjectField("titles", N_("Titles"), tuple(
            IntField(title, names.term(title), max=t.SET_COPIES, default=None)
            for title in group_titles(group_by_id(g), {}))),
        ListField("others", N_("Another title of this colour: copies"),
                  IntField("copies", N_("Copies"), max=t.SET_COPIES, default=None),
                  item_label=N_("Title %(n)d")),
    )) for g in all_group_ids()))
SET_CHOICE_LABELS = {3: N_("The set of 3 titles"), 4: N_("The set of 4 titles"),
                     5: N_("The set of 5 titles"), 6: N_("The set of 6 titles"),
                     7: N_("The set of 7 titles")}

_PLAYER_FIELDS = (
    TextField("name", N_("Name"), max_length=40),
    IntField("tomb_cards", N_("Cards in the tomb, duplicates included"), default=None),
    STARTERS_SCHEMA,
    ListField("uniques", N_("Unique artifacts in the tomb"), UNIQUE_SCHEMA,
              item_label=N_("Unique %(n)d")),
)
_OPTIONS_SCHEMA = ObjectField("options", N_("Options"), (
    ChoiceField("pool", N_("Cards in play"), tuple(POOL_LABELS.items()),
                default=PoolId.AFTERLIFE.value),
    TextField("solo", N_("Solo level"), required=False, max_length=20,
              choices=(("", N_("No (two or more players)")),
                       ("beginner", N_("Solo for beginners")),
                       ("master", N_("Solo for master embalmers (no free seal)")))),
    *(TextField(f"set_{size}", SET_CHOICE_LABELS[size], required=False, max_length=20,
                choices=tuple((s, names.term(s)) for s in t.SIZE_PAIRS[size]))
      for size in t.SIZE_PAIRS),
    TextField("uniques", N_("Unique artifacts from"), required=False, max_length=20,
              choices=tuple(UNIQUE_BOX_LABELS.items())),
))

# The document as the form lays it out: ``distinct``, ``checklist`` and ``edition`` are shown
# for every group and title, and checked by hand against the pool (see _Check).
PLAYER_SCHEMA = ObjectField("player", N_("Player"), _PLAYER_FIELDS + (DISTINCT_SCHEMA,
                                                                     CHECKLIST_SCHEMA))
FINAL_SCHEMA = ObjectField("", "", (
    TextField("game", N_("Game"), required=False),
    _OPTIONS_SCHEMA,
    edition_schema(EDITION_VALUES),
    ListField("players", N_("Players"), PLAYER_SCHEMA, required=True,
              item_label=N_("Player %(n)d")),
))
# What check_document runs on: the same without the parts checked by hand.
_CHECKED_SCHEMA = ObjectField("", "", (
    TextField("game", N_("Game"), required=False),
    _OPTIONS_SCHEMA,
    ListField("players", N_("Players"), ObjectField("player", N_("Player"), _PLAYER_FIELDS),
              required=True, item_label=N_("Player %(n)d")),
))


# --------------------------------------------------------------------------------------------
# Checks
# --------------------------------------------------------------------------------------------


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and not value.strip())


def _empty(value: Any) -> bool:
    """Nothing entered: None, or objects and lists holding nothing but that (a form's blank
    section)."""
    if isinstance(value, Mapping):
        return all(_empty(v) for v in value.values())
    if isinstance(value, list):
        return all(_empty(v) for v in value)
    return value is None


def _blank_unique(item: Any) -> bool:
    """A unique line of the form left blank: no title, no VP."""
    return (isinstance(item, Mapping) and set(item) <= {"title", "vp"}
            and _blank(item.get("title")) and item.get("vp") is None)


def _without_blanks(document: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, list[int]]]:
    """The document without what a form sends for fields left blank: blank unique lines,
    checklist groups with nothing ticked (a checklist with nothing ticked at all is left
    out: the counts per group are used), edition entries with nothing entered. Also the
    original index of each unique kept, per player, to name fields as the form has them."""
    document = dict(document)
    edition = document.get("edition")
    if isinstance(edition, Mapping):
        edition = {k: v for k, v in edition.items() if not _empty(v)}
        document["edition"] = edition or None
    kept_uniques: dict[str, list[int]] = {}
    players = document.get("players")
    if isinstance(players, list):
        copies = []
        for p, player in enumerate(players):
            if isinstance(player, Mapping):
                player = dict(player)
                uniques = player.get("uniques")
                if isinstance(uniques, list) and any(_blank_unique(u) for u in uniques):
                    kept = [i for i, u in enumerate(uniques) if not _blank_unique(u)]
                    player["uniques"] = [uniques[i] for i in kept]
                    kept_uniques[f"players.{p}.uniques."] = kept
                checklist = player.get("checklist")
                if isinstance(checklist, Mapping):
                    checklist = {k: v for k, v in checklist.items() if not _empty(v)}
                    player["checklist"] = checklist or None
            copies.append(player)
        document["players"] = copies
    return document, kept_uniques


def _form_field(field: str | None, kept_uniques: Mapping[str, list[int]]) -> str | None:
    """``field`` with a unique's index as it was before blank lines were left out."""
    if field:
        for prefix, kept in kept_uniques.items():
            if field.startswith(prefix):
                index, _, rest = field[len(prefix):].partition(".")
                if index.isdigit() and int(index) < len(kept):
                    return f"{prefix}{kept[int(index)]}" + (f".{rest}" if rest else "")
    return field


def _split(document: Any) -> tuple[Any, dict[str, Any]]:
    """A shallow copy without the parts checked by hand (edition, distinct, checklist), and
    those parts. A player with a checklist and no tomb count gets a stand-in count."""
    if not isinstance(document, Mapping):
        return document, {}
    rest = dict(document)
    extra: dict[str, Any] = {"edition": rest.pop("edition", None)}
    players = rest.get("players")
    if isinstance(players, list):
        copies = []
        for p, player in enumerate(players):
            if isinstance(player, Mapping):
                player = dict(player)
                extra[f"{p}.distinct"] = player.pop("distinct", None)
                uniques = player.get("uniques")
                if isinstance(uniques, list):
                    # A unique listed without its VP takes it from the group's edition data
                    # (spec §2.7: "stored per copy after first entry"), checked in _Check.
                    player["uniques"] = [dict(u, vp=0) if isinstance(u, Mapping)
                                         and u.get("vp") is None else u for u in uniques]
                    extra[f"{p}.vp_missing"] = {i for i, u in enumerate(uniques)
                                                if isinstance(u, Mapping) and u.get("vp") is None}
                extra[f"{p}.checklist"] = player.pop("checklist", None)
                if extra[f"{p}.checklist"] is not None and player.get("tomb_cards") is None:
                    player["tomb_cards"] = 0
                    extra[f"{p}.tomb_derived"] = True
            copies.append(player)
        rest["players"] = copies
    return rest, extra


def _schema_int(value: Any, path: str, found: list[RuleViolation], high: int | None = None
                ) -> int | None:
    """A whole number ≥ 0 (blank: None), reported with the schema's codes."""
    if _blank(value):
        return None
    if not _is_int(value):
        found.append(RuleViolation("schema.not_integer", N_("This must be a whole number."),
                                   path))
        return None
    if value < 0:
        found.append(RuleViolation("schema.negative", N_("This must not be negative."), path))
        return None
    if high is not None and value > high:
        found.append(RuleViolation(COPY_LIMIT, N_("At most %(max)d."), path, max=high))
        return None
    return value


def _unknown_group(path: str, group: str, pool: Pool) -> RuleViolation:
    return RuleViolation("valley.unknown_group",
                         N_("This pool has no scoring group “%(group)s”; its groups are "
                            "%(groups)s."), path, group=str(group)[:40],
                         groups=", ".join(g.id for g in pool.groups))


def _too_many_distinct(path: str, group_id: str, size: int, count: int) -> RuleViolation:
    return RuleViolation(COPY_LIMIT, N_("The group %(group)s has only %(size)d different "
                                        "titles; this says %(count)d."), path,
                         group=names.term(group_id), size=size, count=count)


def _group_keys(raw: Any) -> set[str]:
    return {k for k in raw if isinstance(k, str)} if isinstance(raw, Mapping) else set()


def _set_choices(options: Mapping[str, Any], extra: Mapping[str, Any], players: int,
                 pool_id: PoolId, found: list[RuleViolation]) -> dict[int, str]:
    """The set picked for each chosen size: the option when given, else the one the players'
    group ids use (Afterlife's when both or neither are used)."""
    used: set[str] = set()
    for p in range(players):
        used |= _group_keys(extra.get(f"{p}.distinct")) | _group_keys(extra.get(f"{p}.checklist"))
    picked: dict[int, str] = {}
    for size in CHOSEN_SIZES.get(pool_id, ()):
        given = options.get(f"set_{size}", "").strip().casefold()
        pair = t.SIZE_PAIRS[size]
        if given and given not in pair:
            found.append(RuleViolation("valley.unknown_set",
                                       N_("The set of %(size)d titles is %(sets)s."),
                                       f"options.set_{size}", size=size, sets=" / ".join(pair)))
            given = ""
        picked[size] = given or (pair[1] if pair[1] in used and pair[0] not in used
                                 else pair[0])
    return picked


class _Check:
    """The game's checks on a document whose shape is sound, collecting every violation."""

    def __init__(self, doc: Mapping[str, Any], extra: Mapping[str, Any], edition: Edition):
        self.doc = doc
        self.extra = extra
        self.printed = printed_values(edition)
        self.found: list[RuleViolation] = []
        self.players = doc["players"]
        self.solo: Solo | None = None
        self.pool: Pool | None = None

    def fail(self, code: str, message: str, path: str, **params: Any) -> None:
        self.found.append(RuleViolation(code, message, path, **params))

    # ---- table --------------------------------------------------------------------------

    def table(self) -> bool:
        """Player count, names, solo level and pool; False when nothing more can be checked."""
        count = len(self.players)
        if count not in PLAYER_COUNTS:
            self.fail("valley.bad_player_count",
                      N_("Valley of the Kings is played by 1 to 6 players."), "players",
                      count=count)
            return False
        names: set[str] = set()
        for p, player in enumerate(self.players):
            key = player["name"].casefold()
            if key and key in names:
                self.fail("valley.duplicate_name", N_("Two players cannot have the same name."),
                          f"players.{p}.name")
            names.add(key)
        options = self.doc["options"]
        solo_text = options.get("solo", "").strip().casefold()
        if solo_text not in SOLO_VALUES:
            self.fail("valley.unknown_solo", N_("The solo level is beginner or master."),
                      "options.solo")
        self.solo = SOLO_VALUES.get(solo_text)
        if count == 1 and self.solo is None:
            self.solo = Solo.BEGINNER        # one player plays the solo rules (§12)
        elif count > 1 and self.solo is not None:
            self.fail("valley.solo_alone", N_("A solo game has exactly one player."),
                      "options.solo")
        pool_id = PoolId(options["pool"])
        unique_text = options.get("uniques", "").strip().casefold() or UniqueBox.AFTERLIFE
        if unique_text not in {u.value for u in UniqueBox}:
            self.fail("valley.unknown_unique_box",
                      N_("The uniques come from afterlife, original or mixed."),
                      "options.uniques")
            unique_text = UniqueBox.AFTERLIFE
        self.pool = build_pool(pool_id, _set_choices(options, self.extra, count, pool_id,
                                                     self.found), unique_text)
        if count > self.pool.starter_decks:
            self.fail("valley.too_many_players",
                      N_("This pool has starter cards for %(decks)d players only; five or six "
                         "players need both boxes: choose “Five players” or “Six players” in the "
                         "cards in play."),
                      "players", decks=self.pool.starter_decks)
        return True

    # ---- per player ---------------------------------------------------------------------

    def distinct(self, p: int) -> dict[str, int] | None:
        """``players.p.distinct`` checked against the pool's groups (None: not given)."""
        raw = self.extra.get(f"{p}.distinct")
        path = f"players.{p}.distinct"
        if raw is None:
            return None
        if not isinstance(raw, Mapping):
            self.fail("schema.not_object", N_("This must be an object with named entries."),
                      path)
            return {}
        counts: dict[str, int] = {}
        for key, value in raw.items():
            group = self.pool.group(key) if isinstance(key, str) else None
            if group is None:
                self.found.append(_unknown_group(f"{path}.{key}", key, self.pool))
                continue
            problems: list[RuleViolation] = []
            number = _schema_int(value, f"{path}.{key}", problems)
            self.found += problems
            if number is not None and number > group.size:
                self.found.append(_too_many_distinct(f"{path}.{key}", key, group.size, number))
            elif not problems:
                counts[key] = number or 0
        return counts

    def checklist(self, p: int, placed_unplaced: dict[str, tuple[str, str]],
                  copies_seen: dict[str, int]
                  ) -> tuple[dict[str, int], dict[str, int], int] | None:
        """``players.p.checklist``: (distinct per group, titles held twice per group, set
        cards ticked), or None when not given."""
        raw = self.extra.get(f"{p}.checklist")
        path = f"players.{p}.checklist"
        if raw is None:
            return None
        if not isinstance(raw, Mapping):
            self.fail("schema.not_object", N_("This must be an object with named entries."),
                      path)
            return {}, {}, 0
        solo = self.solo is not None
        distinct: dict[str, int] = {}
        pairs: dict[str, int] = {}
        cards = 0
        for key, entry in raw.items():
            group = self.pool.group(key) if isinstance(key, str) else None
            group_path = f"{path}.{key}"
            if group is None:
                self.found.append(_unknown_group(group_path, key, self.pool))
                continue
            if entry is None:
                continue
            if not isinstance(entry, Mapping):
                self.fail("schema.not_object", N_("This must be an object with named entries."),
                          group_path)
                continue
            for unknown in set(entry) - {"titles", "others"}:
                self.fail("schema.unknown_key", N_("Unknown entry “%(key)s”."),
                          f"{group_path}.{unknown}", key=str(unknown))
            held = self._ticked_titles(group, entry.get("titles"), f"{group_path}.titles",
                                       placed_unplaced, copies_seen)
            held += self._others(entry.get("others"), f"{group_path}.others")
            cards += sum(held)
            count = sum(1 for n in held if n == 1) if solo else len(held)
            if count > group.size:
                self.found.append(_too_many_distinct(group_path, group.id, group.size, count))
            distinct[group.id] = count
            if solo and any(n > 1 for n in held):
                pairs[group.id] = sum(1 for n in held if n > 1)
        return distinct, pairs, cards

    def _ticked_titles(self, group, titles: Any, path: str,
                       placed_unplaced: dict[str, tuple[str, str]],
                       copies_seen: dict[str, int]) -> list[int]:
        if titles is None:
            return []
        if not isinstance(titles, Mapping):
            self.fail("schema.not_object", N_("This must be an object with named entries."),
                      path)
            return []
        held = []
        for key, copies in titles.items():
            entry = f"{path}.{key}"
            title = t.find_title(key) if isinstance(key, str) else None
            if title is None:
                self.fail("valley.unknown_title",
                          N_("“%(title)s” is not a title of the catalogue; tick it as another "
                             "title of this colour."), entry, title=str(key)[:40])
                continue
            if not self._title_fits(title, group, entry, placed_unplaced):
                continue
            number = _schema_int(copies, entry, self.found, high=self.pool.copies)
            if not number:
                continue
            copies_seen[title] = copies_seen.get(title, 0) + number
            if copies_seen[title] > self.pool.copies:
                self.fail(COPY_LIMIT, N_("The pool holds %(copies)d of “%(title)s”; the tombs "
                                         "hold %(count)d."), entry, copies=self.pool.copies,
                          title=names.term(title), count=copies_seen[title])
            held.append(number)
        return held

    def _title_fits(self, title: str, group, path: str,
                    placed_unplaced: dict[str, tuple[str, str]]) -> bool:
        placements = self.printed["card_set"]
        set_id = title_set(title, placements)
        if set_id is None:
            # A name whose colour only the card shows: any group with an Afterlife set, the
            # same one wherever it is ticked.
            fits = any(t.SETS[s].box is t.Box.AFTERLIFE for s in group.sets)
            first = placed_unplaced.setdefault(title, (group.id, path))
            fits = fits and first[0] == group.id
        else:
            fits = set_id in group.sets
        if not fits:
            self.fail("valley.title_not_in_group",
                      N_("“%(title)s” does not belong to the group %(group)s."), path,
                      title=names.term(title), group=names.term(group.id))
        return fits

    def _others(self, others: Any, path: str) -> list[int]:
        if others is None:
            return []
        if not isinstance(others, list):
            self.fail("schema.not_list", N_("This must be a list."), path)
            return []
        held = []
        for i, copies in enumerate(others):
            number = _schema_int(copies, f"{path}.{i}", self.found, high=self.pool.copies)
            if number:
                held.append(number)
        return held

    def uniques(self, p: int, player: Mapping[str, Any], seen: dict[str, str]
                ) -> list[tuple[str, int]]:
        """The player's uniques as (title, VP); checks the title and finds a missing VP in
        the group's edition."""
        found = []
        for i, item in enumerate(player.get("uniques") or []):
            path = f"players.{p}.uniques.{i}"
            text = item["title"]
            title = t.find_title(text)
            key = title or text.casefold()
            if title is not None:
                kind = t.TITLES[title].kind
                placed = title_set(title, self.printed["card_set"])
                if kind is t.Kind.STARTER or (placed is not None and placed != t.UNIQUE):
                    self.fail("valley.not_a_unique",
                              N_("“%(title)s” is not a unique artifact."), f"{path}.title",
                              title=text)
                    continue
                if t.TITLES[title].box not in self.pool.unique_boxes:
                    self.fail("valley.not_in_pool",
                              N_("“%(title)s” is not among the cards of this pool."),
                              f"{path}.title", title=text)
                    continue
            if key in seen:
                self.fail(COPY_LIMIT, N_("Each unique artifact exists once; “%(title)s” is "
                                         "already listed."), f"{path}.title", title=text)
                continue
            seen[key] = path
            vp = None if i in self.extra.get(f"{p}.vp_missing", ()) else item["vp"]
            if vp is None and title is not None:
                vp = self.printed["unique_vp"].get(title)
            if vp is None:
                self.fail("valley.unique_vp_needed",
                          N_("Enter the VP printed on “%(title)s”."), f"{path}.vp", title=text)
                continue
            found.append((text, vp))
        return found

    # ---- the whole table ----------------------------------------------------------------

    def run(self) -> list[PlayerTomb]:
        if not self.table():
            return []
        pool = self.pool
        tombs: list[PlayerTomb] = []
        starter_totals = {s: 0 for s in t.STARTERS}
        starter_limits = pool.starter_copies(len(self.players))
        group_totals = {g.id: 0 for g in pool.groups}
        uniques_seen: dict[str, str] = {}
        placed_unplaced: dict[str, tuple[str, str]] = {}
        copies_seen: dict[str, int] = {}
        unique_total = 0
        for p, player in enumerate(self.players):
            given = self.distinct(p)
            listed = self.checklist(p, placed_unplaced, copies_seen)
            pairs: dict[str, int] = {}
            if listed is not None:
                distinct, pairs, set_cards = listed
                for group, count in (given or {}).items():
                    if count != distinct.get(group, 0):
                        self.fail("valley.checklist_mismatch",
                                  N_("The checklist ticks %(count)d different titles here."),
                                  f"players.{p}.distinct.{group}",
                                  count=distinct.get(group, 0))
            else:
                distinct, set_cards = given or {}, None
            for starter in t.STARTERS:
                starter_totals[starter] += player["starters"][starter]
                if starter_totals[starter] > starter_limits[starter] >= (
                        starter_totals[starter] - player["starters"][starter]):
                    self.fail(COPY_LIMIT, N_("%(players)d players have only %(limit)d "
                                             "%(starter)s cards together."),
                              f"players.{p}.starters.{starter}", players=len(self.players),
                              limit=starter_limits[starter],
                              starter=names.term(starter))
            uniques = self.uniques(p, player, uniques_seen)
            listed_uniques = len(player.get("uniques") or [])
            unique_total += listed_uniques
            if unique_total > pool.uniques >= unique_total - listed_uniques:
                self.fail(COPY_LIMIT, N_("Only %(limit)d unique artifacts are in play."),
                          f"players.{p}.uniques", limit=pool.uniques)
            for group in pool.groups:
                before = group_totals[group.id]
                group_totals[group.id] += distinct.get(group.id, 0)
                limit = group.size * pool.copies
                if group_totals[group.id] > limit >= before:
                    self.fail(COPY_LIMIT, N_("The pool holds %(limit)d cards of %(group)s; "
                                             "the tombs hold more."),
                              self._distinct_path(p, group.id), limit=limit,
                              group=names.term(group.id))
            items = sum(player["starters"].values()) + listed_uniques
            if set_cards is not None:
                items += set_cards
                if self.extra.get(f"{p}.tomb_derived"):
                    tomb_cards = items
                else:
                    tomb_cards = player["tomb_cards"]
                    if tomb_cards != items:
                        self.fail("valley.tomb_count_mismatch",
                                  N_("The starters, uniques and ticked titles add up to "
                                     "%(items)d cards."), f"players.{p}.tomb_cards",
                                  items=items)
            else:
                items += sum(distinct.values())
                tomb_cards = player["tomb_cards"]
                if tomb_cards < items:
                    self.fail("valley.tomb_too_small",
                              N_("The tomb holds at least the %(items)d cards listed."),
                              f"players.{p}.tomb_cards", items=items)
            tombs.append(PlayerTomb(player["name"], tomb_cards, dict(player["starters"]),
                                    tuple(uniques), distinct, pairs))
        return tombs

    def _distinct_path(self, p: int, group: str) -> str:
        if self.extra.get(f"{p}.checklist") is not None:
            return f"players.{p}.checklist.{group}"
        return f"players.{p}.distinct.{group}"


def validate_final(document: Any) -> tuple[dict[str, Any], _Check, list[PlayerTomb]]:
    """The clean document, its checker and the tombs; or InvalidDocument with every
    violation found."""
    kept_uniques: dict[str, list[int]] = {}
    if isinstance(document, Mapping):
        document, kept_uniques = _without_blanks(document)
    rest, extra = _split(document)
    clean, violations = check_document(_CHECKED_SCHEMA, rest)
    if clean.get("game", "valley") not in ("", "valley", "valley_of_the_kings"):
        violations.insert(0, RuleViolation("score.wrong_game",
                                           N_("This document is not for this game."), "game"))
    edition_given = extra.get("edition")
    try:
        edition = resolve_edition(EDITION_VALUES, edition_given if isinstance(
            edition_given, Mapping) else None)
    except InvalidDocument as problem:
        violations += problem.violations
        edition = resolve_edition(EDITION_VALUES, None)
    if edition_given is not None and not isinstance(edition_given, Mapping):
        violations.append(RuleViolation("schema.not_object",
                                        N_("This must be an object with named entries."),
                                        "edition"))
    checker = _Check(clean, extra, edition)
    tombs: list[PlayerTomb] = []
    # The game's checks run on the clean copy too; a field that already has a shape error,
    # or lies inside one, gets no second message.
    flagged = [v.field for v in violations if v.field]
    if not any(v.field is None for v in violations):
        tombs = checker.run()
        violations += [v for v in checker.found
                       if not any(v.field == f or v.field.startswith(f + ".") for f in flagged)]
    if violations:
        for violation in violations:
            violation.field = _form_field(violation.field, kept_uniques)
        raise InvalidDocument(violations)
    return clean, checker, tombs


def score_final(document: Any) -> Scoresheet:
    """Score a finished game of Valley of the Kings from its final-state document."""
    _, checker, tombs = validate_final(document)
    printed = checker.printed
    assumed: list[Assumption] = starter_assumption(tombs, printed["starter_vp"],
                                                   printed["confirmed_starters"])
    return score_tombs(tombs, checker.pool, printed["starter_vp"], checker.solo is not None,
                       complete=True, assumed=assumed)
