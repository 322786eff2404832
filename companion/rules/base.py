"""The Ruleset seam: what every game package provides, and the types they share.

design.md §2. This module is pure: no Flask, no database, no clock, no randomness. Every game
lives in ``companion/rules/<game>/`` and registers one object satisfying :class:`Ruleset`.

Messages are English msgids marked with :func:`N_` so that Babel extracts them; the web layer
translates them (``RuleViolation.render(gettext)``). Parameters that are themselves words to
translate are wrapped in :class:`Term`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Callable, Mapping, Protocol, Sequence, runtime_checkable


def N_(message: str) -> str:
    """Mark a message for translation without translating it (gettext_noop)."""
    return message


SEAT_LABEL = N_("Seat %(n)d")    # item label of a per-seat list: forms show the player's name


class Term(str):
    """A message parameter that is itself a translatable word (a tile or category name)."""


class Listing(tuple):
    """A message parameter listing what was entered: ``(label, amount)`` pairs shown as
    "label amount · label amount", each label translated if it is a Term (a player's name is
    not); pairs whose amount is 0 are left out."""

    def render(self, gettext: Callable[[str], str]) -> str:
        return " · ".join(f"{gettext(label) if isinstance(label, Term) else label} {amount}"
                          for label, amount in self if amount not in (0, "", None))


class RuleViolation(Exception):
    """A move or a document breaks a rule: stable ``code``, English msgid, parameters, field.

    ``field`` is the dotted path of the offending value in a final-state document
    (``players.2.epochs.0.pharaohs``), or None for moves.
    """

    def __init__(self, code: str, message: str, field: str | None = None, **params: Any):
        super().__init__(code)
        self.code = code
        self.message = message
        self.field = field
        self.params = params

    def render(self, gettext: Callable[[str], str] = lambda s: s) -> str:
        """The message as a sentence, translated by ``gettext`` (identity by default)."""
        params = {k: gettext(v) if isinstance(v, Term) else
                  v.render(gettext) if isinstance(v, Listing) else v
                  for k, v in self.params.items()}
        return gettext(self.message) % params if params else gettext(self.message)

    def as_dict(self, gettext: Callable[[str], str] = lambda s: s) -> dict[str, Any]:
        """The API's error body: ``{"error", "message", "field"}``."""
        return {"error": self.code, "message": self.render(gettext), "field": self.field}

    def __repr__(self) -> str:
        return f"RuleViolation({self.code!r}, field={self.field!r}, params={self.params!r})"


class InvalidDocument(Exception):
    """A final-state document with one or more violations; nothing may be saved."""

    def __init__(self, violations: Sequence[RuleViolation]):
        assert violations, "InvalidDocument needs at least one violation"
        super().__init__(violations[0].code)
        self.violations = list(violations)

    @property
    def first(self) -> RuleViolation:
        return self.violations[0]


# --------------------------------------------------------------------------------------------
# Final-state schema: one declaration drives both validation and the score-only form.
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class IntField:
    """A non-negative whole number; missing means ``default``."""

    key: str
    label: str
    max: int | None = None
    default: int | None = 0
    help: str | None = None


@dataclass(frozen=True)
class TextField:
    """A short text, stripped; required and non-empty unless ``required`` is False."""

    key: str
    label: str
    max_length: int = 40
    required: bool = True
    choices: tuple = ()    # offered as a list in forms: values or (value, label); the game validates


@dataclass(frozen=True)
class BoolField:
    key: str
    label: str
    default: bool = False


@dataclass(frozen=True)
class ObjectField:
    """A mapping with a fixed set of keys; unknown keys are refused."""

    key: str
    label: str
    fields: tuple["Field", ...]
    required: bool = False


@dataclass(frozen=True)
class ListField:
    """A list of ``item``; its length bounds are checked here, game rules check the rest."""

    key: str
    label: str
    item: "Field"
    min_items: int = 0
    max_items: int | None = None
    required: bool = False
    item_label: str | None = None      # e.g. N_("Epoch %(n)d"), numbered from 1


@dataclass(frozen=True)
class ChoiceField:
    """One value out of ``choices``: each a ``(value, label msgid)`` pair, or a bare string or
    number that is its own label. Values are plain JSON (a list of suns is a choice too).
    ``seat_choice``: the values are seat numbers, which forms show as the players' names."""

    key: str
    label: str
    choices: tuple = ()
    default: Any = None            # None: required
    seat_choice: bool = False

    @property
    def values(self) -> tuple:
        return tuple(_plain(c[0]) if isinstance(c, tuple) else c for c in self.choices)

    def pairs(self) -> tuple[tuple[Any, str], ...]:
        """(value, label) for every choice."""
        return tuple((_plain(c[0]), c[1]) if isinstance(c, tuple) else (c, str(c))
                     for c in self.choices)


def _plain(value: Any) -> Any:
    """Tuples as lists, recursively: how a value looks once it has been JSON."""
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return value


Field = IntField | TextField | BoolField | ObjectField | ListField | ChoiceField


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def _valid_unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _join(path: str, key: str | int) -> str:
    """The dotted field name of ``key`` under ``path``; an empty key is named ``""`` (as the
    JSON guard names it), so that an answer about it still names a field."""
    name = str(key) or '""'
    return f"{path}.{name}" if path else name


_KNOWN_FIELDS: dict[int, tuple["ObjectField", dict[str, "Field"]]] = {}


def _known_fields(spec: ObjectField) -> dict[str, Field]:
    """``{key: field}`` of an object schema, built once per schema (schemas are constants;
    the identity check guards against a reused id, the bound against schemas made per call)."""
    entry = _KNOWN_FIELDS.get(id(spec))
    if entry is None or entry[0] is not spec:
        if len(_KNOWN_FIELDS) > 1024:
            _KNOWN_FIELDS.clear()
        entry = _KNOWN_FIELDS[id(spec)] = (spec, {f.key: f for f in spec.fields})
    return entry[1]


class _Checker:
    """Walk a document against a schema, collecting violations and building a clean copy."""

    def __init__(self) -> None:
        self.violations: list[RuleViolation] = []

    def fail(self, code: str, message: str, path: str, **params: Any) -> None:
        self.violations.append(RuleViolation(code, message, path or None, **params))

    def check(self, spec: Field, value: Any, path: str) -> Any:
        if type(value) is int and type(spec) is IntField and value >= 0 and (
                spec.max is None or value <= spec.max):
            return value                  # the common case, decided without further calls
        if isinstance(spec, IntField):
            return self.check_int(spec, value, path)
        if isinstance(spec, TextField):
            if not isinstance(value, str):
                self.fail("schema.not_text", N_("This must be text."), path)
                return ""
            if _CONTROL.search(value) or not _valid_unicode(value):
                self.fail("schema.bad_text", N_("This text holds a character that cannot be "
                                                "stored."), path)
                return ""
            text = " ".join(value.split())
            if spec.required and not text:
                self.fail("schema.empty", N_("This must not be empty."), path)
            elif len(text) > spec.max_length:
                self.fail("schema.too_long", N_("At most %(max)d characters."), path,
                          max=spec.max_length)
            return text
        if isinstance(spec, BoolField):
            if not isinstance(value, bool):
                self.fail("schema.not_boolean", N_("This must be true or false."), path)
                return spec.default
            return value
        if isinstance(spec, ObjectField):
            return self.check_object(spec, value, path)
        if isinstance(spec, ChoiceField):
            if isinstance(value, bool) or _plain(value) not in spec.values:
                self.fail("schema.not_a_choice", N_("Choose one of the values offered."), path)
                return spec.default if spec.default is not None else spec.values[0]
            return _plain(value)
        return self.check_list(spec, value, path)

    def check_int(self, spec: IntField, value: Any, path: str) -> int:
        if value is None:
            self.fail("schema.required", N_("This is required."), path)
            return 0
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail("schema.not_integer", N_("This must be a whole number."), path)
            return 0
        if value < 0:
            self.fail("schema.negative", N_("This must not be negative."), path)
            return 0
        if spec.max is not None and value > spec.max:
            self.fail("schema.too_large", N_("At most %(max)d."), path, max=spec.max)
            return 0
        return value

    def check_object(self, spec: ObjectField, value: Any, path: str) -> dict[str, Any]:
        if type(value) is not dict and not isinstance(value, Mapping):
            self.fail("schema.not_object", N_("This must be an object with named entries."), path)
            return _Checker().check_object(spec, {}, path)   # defaults, so later checks can run
        known = _known_fields(spec)
        for key in value:
            if key not in known:
                self.fail("schema.unknown_key", N_("Unknown entry “%(key)s”."), _join(path, key),
                          key=str(key))
        clean: dict[str, Any] = {}
        for key, sub in known.items():
            if key in value and (item := value[key]) is not None:
                # The common case (a whole number in range) decided here, without a call
                # or the field's path: a document is mostly counts.
                if type(item) is int and type(sub) is IntField and item >= 0 and (
                        sub.max is None or item <= sub.max):
                    clean[key] = item
                elif type(sub) is ObjectField:
                    clean[key] = self.check_object(sub, item, _join(path, key))
                else:
                    clean[key] = self.check(sub, item, _join(path, key))
            elif isinstance(sub, BoolField):
                clean[key] = sub.default
            elif isinstance(sub, IntField) and sub.default is not None:
                clean[key] = sub.default
            elif isinstance(sub, ObjectField) and not sub.required:
                clean[key] = self.check_object(sub, {}, _join(path, key))
            elif isinstance(sub, ListField) and not sub.required:
                pass  # an optional list left out stays out: the game decides what that means
            elif isinstance(sub, TextField) and not sub.required:
                clean[key] = ""
            elif isinstance(sub, ChoiceField) and sub.default is not None:
                clean[key] = sub.default
            else:
                self.fail("schema.required", N_("This is required."), _join(path, key))
                clean[key] = _placeholder(sub)   # so later checks can run on the copy
        return clean

    def check_list(self, spec: ListField, value: Any, path: str) -> list[Any]:
        if not isinstance(value, list):
            self.fail("schema.not_list", N_("This must be a list."), path)
            return []
        if len(value) < spec.min_items or (spec.max_items is not None
                                           and len(value) > spec.max_items):
            self.fail("schema.list_length", N_("Between %(min)d and %(max)d entries are needed."),
                      path, min=spec.min_items, max=spec.max_items or len(value))
        item_spec = spec.item
        # Dispatched once for the whole list, as check() would for each item.
        if type(item_spec) is IntField:
            top = item_spec.max
            return [item if type(item) is int and item >= 0 and (top is None or item <= top)
                    else self.check_int(item_spec, item, _join(path, i))
                    for i, item in enumerate(value)]
        if type(item_spec) is ObjectField:
            return [self.check_object(item_spec, item, _join(path, i))
                    for i, item in enumerate(value)]
        return [self.check(item_spec, item, _join(path, i)) for i, item in enumerate(value)]


def _placeholder(spec: Field) -> Any:
    """A harmless stand-in for a value that is missing or wrong."""
    if isinstance(spec, ObjectField):
        return _Checker().check_object(spec, {}, "")
    if isinstance(spec, ChoiceField):
        return spec.default if spec.default is not None else spec.values[0]
    return {IntField: 0, TextField: "", BoolField: False, ListField: []}[type(spec)]


def check_document(schema: ObjectField, document: Any) -> tuple[dict[str, Any], list[RuleViolation]]:
    """Check ``document`` against ``schema``: a normalised copy plus every violation found."""
    checker = _Checker()
    clean = checker.check_object(schema, document, "")
    return clean, checker.violations


# --------------------------------------------------------------------------------------------
# Scoresheet
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Category:
    """One scoring line: ``points`` for ``key`` in ``stage`` (epoch or round; None = game).

    ``reason`` names comparative awards and special rules (``most``, ``fewest``,
    ``all_equal``, ``floor_at_zero``…); ``detail`` holds the counts that produced the points.
    """

    key: str
    points: int
    stage: int | None = None
    reason: str | None = None
    detail: Mapping[str, Any] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"category": self.key, "points": self.points}
        if self.stage is not None:
            out["stage"] = self.stage
        if self.reason:
            out["reason"] = self.reason
        if self.detail:
            out["detail"] = dict(self.detail)
        return out


@dataclass(frozen=True)
class TieBreak:
    """The tie-break that separated this player from others on the same total."""

    rule: str          # stable id, e.g. "ra.highest_sun"
    value: Any         # this player's value for it (e.g. 12)

    def as_dict(self) -> dict[str, Any]:
        return {"rule": self.rule, "value": self.value}


@dataclass(frozen=True)
class PlayerScore:
    """One line of a Scoresheet. Lines come in seat order; an opponent the app plays (a
    solo game's automated rival, not a seat) comes after the seats with ``automated`` set,
    and never enters a ladder."""

    name: str
    categories: tuple[Category, ...]
    total: int
    rank: int
    tiebreak: TieBreak | None = None
    stage_totals: tuple[int, ...] = ()   # running total after each stage, for charts
    automated: bool = False

    def as_dict(self) -> dict[str, Any]:
        breakdown: dict[str, Any] = {
            "categories": [c.as_dict() for c in self.categories],
            "stage_totals": list(self.stage_totals),
        }
        if self.tiebreak:
            breakdown["tiebreak"] = self.tiebreak.as_dict()
        out = {"name": self.name, "total": self.total, "rank": self.rank, "breakdown": breakdown}
        if self.automated:
            out["automated"] = True
        return out


@dataclass(frozen=True)
class Assumption:
    """A printed value this result relied on that nobody confirmed for this copy: the
    edition value's key, its label (msgid) and the default that was used."""

    key: str
    label: str
    value: Any

    def as_dict(self) -> dict[str, Any]:
        return {"key": self.key, "label": self.label, "value": self.value}


@dataclass(frozen=True)
class Scoresheet:
    """The exact result of a game: per player categories, totals, ranks; players in seat order.

    ``assumed`` lists the edition values (design.md §2, "our copy") the result relied on
    with an unconfirmed default; every score sheet shows them."""

    game: str
    players: tuple[PlayerScore, ...]
    complete: bool = True     # False for a game scored part-way (e.g. Ra after epoch 1)
    assumed: tuple[Assumption, ...] = ()

    @property
    def winners(self) -> list[str]:
        """Names at rank 1 (for an unfinished game: the leaders so far)."""
        return [p.name for p in self.players if p.rank == 1]

    def as_dict(self) -> dict[str, Any]:
        out = {"game": self.game, "complete": self.complete,
               "players": [p.as_dict() for p in self.players], "winners": self.winners}
        if self.assumed:
            out["assumed"] = [a.as_dict() for a in self.assumed]
        return out


def competition_ranks(keys: Sequence[tuple[Any, ...]]) -> list[int]:
    """Standard competition ranks ("1224") for sort keys where higher is better."""
    return [1 + sum(1 for other in keys if other > key) for key in keys]


# --------------------------------------------------------------------------------------------
# The seam (design.md §2): what every game declares, and the registry that finds the games
# --------------------------------------------------------------------------------------------


class Capability(StrEnum):
    """What a game offers; shared code asks the capability, never the game's name."""

    SCORE = "score"        # score-only mode: final-state document, score_final, the form
    LIVE = "live"          # a live table refereed move by move
    PRINT = "print"        # printouts (the game's pdfgen module registers them)


@dataclass(frozen=True)
class Catalogue:
    """Identity and catalogue data: what menus, imports and exports need to know."""

    names: Mapping[str, str]                    # language code (en, cs, hu) -> the game's name
    player_counts: tuple[int, ...]              # score-only mode (and print)
    live_player_counts: tuple[int, ...] = ()    # live tables (empty without LIVE)
    capabilities: frozenset[Capability] = frozenset({Capability.SCORE})
    bgg_id: int | None = None                   # BoardGameGeek id (None: not verified)
    bgg_source: str = ""                        # where the id was checked, or why not
    aliases: tuple[str, ...] = ()               # other names, matched case-insensitively on import
    default_players: int = 4
    order: int = 100                            # place in menus and lists (lower first)

    def name(self, lang: str = "en") -> str:
        return self.names.get(lang) or self.names["en"]


@dataclass(frozen=True)
class Labels:
    """Translatable words (msgids) for what a Scoresheet holds, and for stages."""

    categories: Mapping[str, str] = field(default_factory=dict)   # category key -> label
    reasons: Mapping[str, str] = field(default_factory=dict)      # reason key -> label
    tiebreaks: Mapping[str, str] = field(default_factory=dict)    # tie-break rule -> label
    stage: str = N_("Round %(stage)d")                            # a stage's heading


@dataclass(frozen=True)
class ScoreForm:
    """How the score-only form lays out the final-state document (design.md §2).

    With ``stage_key`` set, each player's list under that key is one stage (epoch, round),
    shown stage by stage with buttons to add or remove one; without it the form is one page."""

    stage_key: str | None = None
    stages: int = 1                               # stages of a full game
    add_stage_label: str = N_("Add a round")
    remove_stage_label: str = N_("Remove the last round")
    stage_hint: str = N_("Empty boxes count as 0.")
    final_label: str = N_("At the end of the game")
    final_hint: str = ""
    # Other final-state documents the game scores (a sibling game): (value, label msgid)
    # pairs, the first being the game itself. The form offers them as a choice, renders
    # ``Ruleset.form_schema(value)`` for the one chosen and puts ``"variant": value`` into the
    # document it sends (the saved game keeps it). Empty: one document, no choice.
    variants: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class EditionValue:
    """A printed value of the game that is the group's data ("our copy", design.md §2):
    no public source gives it, or the one we have is unverified. ``default`` None with
    ``required`` True means the players must enter it before it is used."""

    key: str                      # key in the edition document
    label: str                    # msgid
    field: Field                  # how it is entered and validated (its key is ``key``)
    default: Any = None
    status: str = "unverified"    # "unverified": a default nobody confirmed; "unknown": a
                                  # placeholder; "verified": printed and confirmed, but a copy
                                  # may differ (never reported as an assumption)
    source: str = ""              # where the default comes from (spec section, URL)
    required: bool = False        # True: no default can stand in; the players enter it
    hint: str | None = None       # msgid shown under the input
    check: Callable[[Any, str], Any] | None = None
    # ``check(value, path)``: the game's own validation, used instead of the field's when
    # given (the field then only lays out the form); returns the clean value or raises
    # RuleViolation naming ``path`` (for what a schema cannot say, e.g. "2" or "card").

    @property
    def assumed(self) -> bool:
        """Whether relying on the default must be shown on the score sheet."""
        return self.status != "verified"


@dataclass(frozen=True)
class Edition:
    """The edition values in force for one table or document: the group's entries over the
    defaults; ``defaults`` names the values still at an unconfirmed default, ``missing`` the
    required ones nobody entered."""

    values: Mapping[str, Any]
    defaults: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()


def edition_schema(values: Sequence[EditionValue]) -> ObjectField:
    """The object schema that validates an edition document (every entry optional)."""
    return ObjectField("edition", N_("Our copy"), tuple(v.field for v in values))


def resolve_edition(values: Sequence[EditionValue], given: Mapping[str, Any] | None,
                    field_prefix: str = "edition") -> Edition:
    """Check ``given`` (a group's or a document's edition entries) and fill in the defaults.

    Raises InvalidDocument naming ``<field_prefix>.<key>`` for a wrong entry."""
    given = dict(given or {})
    known = {v.key: v for v in values}
    violations: list[RuleViolation] = []
    for key in given:
        if key not in known:
            violations.append(RuleViolation("schema.unknown_key", N_("Unknown entry “%(key)s”."),
                                            _join(field_prefix, key), key=str(key)))
    resolved: dict[str, Any] = {}
    defaults: list[str] = []
    missing: list[str] = []
    for key, spec in known.items():
        path = _join(field_prefix, key)
        if given.get(key) is not None and spec.check is not None:
            try:
                resolved[key] = spec.check(_plain(given[key]), path)
            except RuleViolation as violation:
                violations.append(violation)
        elif given.get(key) is not None:
            checker = _Checker()
            resolved[key] = checker.check(spec.field, _plain(given[key]), path)
            violations.extend(checker.violations)
        elif spec.required and spec.default is None:
            missing.append(key)
        else:
            resolved[key] = _plain(spec.default)
            if spec.assumed:
                defaults.append(key)
    if violations:
        raise InvalidDocument(violations)
    return Edition(resolved, tuple(defaults), tuple(missing))


@dataclass(frozen=True)
class Awaiting:
    """Whose input the game waits for (design.md §2).

    ``seats`` may hold several seats. ``step`` names a simultaneous step: while two states
    share the same non-None ``step``, the moves of the awaited seats commute (each one's
    legality depends only on that seat's part), so a move made on an older version of the step
    may be re-checked on the fresh state instead of being refused as stale. Sequential games
    leave it None."""

    seats: frozenset[int] = frozenset()
    step: str | None = None

    @classmethod
    def one(cls, seat: int | None) -> "Awaiting":
        return cls(frozenset() if seat is None else frozenset({seat}))


@dataclass(frozen=True)
class Chance:
    """A physical outcome the game waits for (a tile from the bag, cards from the deck).

    The move that enters it is ``move`` plus ``{key: outcome}`` — or, with ``draws`` > 1,
    ``{key: [outcome, ...]}`` of ``draws`` outcomes drawn without replacement. ``outcomes``
    pairs every outcome still possible (plain JSON values) with how many copies are left
    (all counts > 0). ``seats`` may enter it; the app may also draw it for a table that plays
    without the physical draw."""

    move: Mapping[str, Any]
    key: str
    outcomes: tuple[tuple[Any, int], ...]
    seats: frozenset[int]
    draws: int = 1

    def as_move(self, outcome: Any) -> dict[str, Any]:
        return {**self.move, self.key: outcome}

    def draw(self, rng: Any) -> dict[str, Any]:
        """A move entering outcomes drawn with ``rng`` (a ``random.Random``), as the physical
        draw would: weighted by copies left, without replacement."""
        pool = [outcome for outcome, count in self.outcomes for _ in range(count)]
        if self.draws == 1:
            return self.as_move(rng.choice(pool))
        picks = rng.sample(range(len(pool)), min(self.draws, len(pool)))
        return self.as_move([pool[i] for i in picks])


State = dict[str, Any]


@runtime_checkable
class Ruleset(Protocol):
    """What every game registers (design.md §2); the reference for adding a game.

    Shared code (services, views, templates, pdfgen) uses these members and nothing else;
    a game's own templates and pdfgen module may use more of its package. Games subclass
    :class:`GameRules`, which provides the defaults marked "default" below.

    States are plain JSON data; ``apply`` never mutates its input. Physical randomness is input
    (design.md §2). Every refusal is a RuleViolation with a stable code.
    """

    # ---- identity and catalogue ------------------------------------------------------------
    id: str                                   # stable game id; also the package name
    catalogue: Catalogue
    labels: Labels

    # ---- options: variants and table flags, declared once (defaults filled by base) ----------
    options: tuple[Field, ...]

    # ---- "our copy": printed values that are the group's data (default: none) ---------------
    edition: tuple[EditionValue, ...]

    # ---- score-only mode -------------------------------------------------------------------
    final_schema: ObjectField
    score_form: ScoreForm

    def form_sizes(self, players: int, stages: int) -> Mapping[str, int]:
        """How many entries each list of the final-state form shows (``players.*.epochs``)."""
        ...

    def score_final(self, document: Mapping[str, Any]) -> Scoresheet:
        """Validate an end-of-game tally and score it; raise InvalidDocument when wrong. A
        document may carry ``edition`` entries when the game has edition values."""
        ...

    def form_schema(self, variant: str | None) -> ObjectField:
        """The schema the phone form is built from and read back with for ``variant`` (one of
        ``score_form.variants``, or None): may hold optional inputs the document schema checks
        by hand (default: ``final_schema``)."""
        ...

    # ---- live tables -----------------------------------------------------------------------
    def setup_schema(self, players: int) -> ObjectField:
        """The physical start the table enters when opening (dealt suns, colours, start
        seat, dealt cards…), rendered as the open-table form."""
        ...

    def default_setup(self, players: int) -> dict[str, Any]:
        """A set-up document that satisfies ``setup_schema`` (the form's starting values)."""
        ...

    def setup(self, options: Mapping[str, Any], names: Sequence[str],
              setup: Mapping[str, Any], edition: Edition) -> State:
        """A fresh game; raises RuleViolation (with ``field`` set) for an impossible set-up.
        ``options`` are already normalised (:func:`normalise_options`)."""
        ...

    def apply(self, state: State, seat: int, move: Any) -> State:
        """Referee ``move`` by ``seat`` and return the new state, or raise RuleViolation."""
        ...

    def validate(self, state: State, seat: int, move: Any) -> None:
        """Raise RuleViolation if ``seat`` may not make ``move`` now (default: via apply)."""
        ...

    def awaiting(self, state: State) -> Awaiting:
        """The seats whose input is due (empty once the game is over)."""
        ...

    def prompts(self, state: State, seat: int) -> dict[str, Any]:
        """What this phone may do now: ``{"moves": [kinds], ...choices}`` for its template."""
        ...

    def legal_moves(self, state: State, seat: int) -> list[dict[str, Any]]:
        """Concrete legal moves for ``seat`` (a representative subset where the full list is
        huge); never empty while ``seat`` is awaited. Random play-outs use it."""
        ...

    def chance(self, state: State) -> Chance | None:
        """The physical outcome awaited now with what is still possible (default: None)."""
        ...

    def view(self, state: State, seat: int | None, options: Mapping[str, Any]) -> dict[str, Any]:
        """What one phone may see (hidden information removed; default: everything)."""
        ...

    def seat_colours(self, setup: Mapping[str, Any]) -> list[str | None]:
        """Each seat's colour name from the set-up, for pads and cards (default: none)."""
        ...

    def undo_floor(self, state: State) -> int:
        """How many of the moves in effect can no longer be taken back: a correction window
        the rules close (e.g. once the next player has played a card). The table keeps the
        highest floor it has seen, so undoing never reopens a closed window (default: 0)."""
        ...

    def scores_visible(self, state: State, options: Mapping[str, Any]) -> bool:
        """Whether the running Scoresheet may be shown during play (default: True)."""
        ...

    def is_over(self, state: State) -> bool:
        ...

    def edition_in_use(self, options: Mapping[str, Any], players: int) -> set[str]:
        """The edition values (keys of ``edition``) a table with these normalised options and
        this player count relies on; only those are listed as "still at their defaults"
        (default: every key)."""
        ...

    def score(self, state: State) -> Scoresheet:
        """The Scoresheet of the game so far (``complete`` once it is over)."""
        ...

    def final_document(self, state: State) -> dict[str, Any]:
        """The score-only document describing this game (what score_final would score)."""
        ...

    out_of_turn_codes: frozenset[str]         # refusals answered 403 (default: not_your_turn)


class GameRules:
    """Defaults for the optional members of :class:`Ruleset`; games subclass it.

    A game without LIVE (score-only) keeps the live members below, which refuse politely."""

    id: str = ""
    catalogue: Catalogue
    labels: Labels = Labels()
    options: tuple[Field, ...] = ()
    edition: tuple[EditionValue, ...] = ()
    final_schema: ObjectField
    score_form: ScoreForm = ScoreForm()

    @property
    def out_of_turn_codes(self) -> frozenset[str]:
        return frozenset({f"{self.id}.not_your_turn"})

    def form_sizes(self, players: int, stages: int) -> Mapping[str, int]:
        return {"players": players}

    def form_schema(self, variant: str | None) -> ObjectField:
        return self.final_schema

    def edition_in_use(self, options: Mapping[str, Any], players: int) -> set[str]:
        return {value.key for value in self.edition}

    def score_final(self, document: Mapping[str, Any]) -> Scoresheet:
        raise _not_offered(self, Capability.SCORE)

    def setup_schema(self, players: int) -> ObjectField:
        return ObjectField("setup", N_("Set-up"), ())

    def default_setup(self, players: int) -> dict[str, Any]:
        return {}

    def setup(self, options, names, setup, edition) -> State:
        raise _not_offered(self, Capability.LIVE)

    def apply(self, state: State, seat: int, move: Any) -> State:
        raise _not_offered(self, Capability.LIVE)

    def validate(self, state: State, seat: int, move: Any) -> None:
        self.apply(state, seat, move)

    def awaiting(self, state: State) -> Awaiting:
        return Awaiting()

    def prompts(self, state: State, seat: int) -> dict[str, Any]:
        return {"moves": []}

    def legal_moves(self, state: State, seat: int) -> list[dict[str, Any]]:
        return []

    def chance(self, state: State) -> Chance | None:
        return None

    def view(self, state: State, seat: int | None, options: Mapping[str, Any]) -> dict[str, Any]:
        return dict(state)

    def scores_visible(self, state: State, options: Mapping[str, Any]) -> bool:
        return True

    def seat_colours(self, setup: Mapping[str, Any]) -> list[str | None]:
        return []

    def undo_floor(self, state: State) -> int:
        return 0

    def is_over(self, state: State) -> bool:
        return False

    def score(self, state: State) -> Scoresheet:
        raise _not_offered(self, Capability.LIVE)

    def final_document(self, state: State) -> dict[str, Any]:
        raise _not_offered(self, Capability.LIVE)


def _not_offered(ruleset: Any, capability: Capability) -> RuleViolation:
    return RuleViolation("game.not_offered", N_("This game does not offer %(what)s."),
                         what=Term(CAPABILITY_LABELS[capability]))


CAPABILITY_LABELS: Mapping[Capability, str] = {
    Capability.SCORE: N_("scoring from an end-of-game tally"),
    Capability.LIVE: N_("live tables"),
    Capability.PRINT: N_("printouts"),
}


def normalise_options(ruleset: Ruleset, options: Any,
                      field_prefix: str = "options") -> dict[str, Any]:
    """The table's options: every declared option with its default, each given one checked
    against its declaration; unknown entries are refused. Raises InvalidDocument."""
    if options is None:
        options = {}
    schema = ObjectField(field_prefix, N_("Options"), tuple(ruleset.options))
    checker = _Checker()
    clean = checker.check_object(schema, options, field_prefix)
    if checker.violations:
        raise InvalidDocument(checker.violations)
    return clean


# --------------------------------------------------------------------------------------------
# The registry: games are discovered (every package under companion/rules registers itself)
# --------------------------------------------------------------------------------------------

_REGISTRY: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    """Add a game to the registry (one object per game id); it must satisfy the protocol."""
    if not isinstance(ruleset, Ruleset):
        missing = [name for name in _PROTOCOL_MEMBERS if not hasattr(ruleset, name)]
        raise TypeError(f"{ruleset!r} does not satisfy Ruleset (missing: {missing})")
    if ruleset.id in _REGISTRY and _REGISTRY[ruleset.id] is not ruleset:
        raise ValueError(f"game {ruleset.id!r} registered twice")
    _REGISTRY[ruleset.id] = ruleset
    return ruleset


def unregister(game_id: str) -> None:
    """Remove a game (tests register toy games and take them away again)."""
    _REGISTRY.pop(game_id, None)


def get_ruleset(game_id: str) -> Ruleset:
    """The registered ruleset for ``game_id``; KeyError when unknown."""
    return _REGISTRY[game_id]


def all_rulesets(capability: Capability | None = None) -> list[Ruleset]:
    """Every registered game (with ``capability`` if given), in the catalogue's order."""
    return sorted((r for r in _REGISTRY.values()
                   if capability is None or capability in r.catalogue.capabilities),
                  key=lambda r: (r.catalogue.order, r.id))


def offers(ruleset: Ruleset, capability: Capability) -> bool:
    return capability in ruleset.catalogue.capabilities


_PROTOCOL_MEMBERS = tuple(sorted(
    name for name in (set(Ruleset.__annotations__) | {
        n for n, v in vars(Ruleset).items() if callable(v) and not n.startswith("_")})
    if not name.startswith("_")))
