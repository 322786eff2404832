"""The Ruleset seam: what every game package provides, and the types they share.

design.md §2. This module is pure: no Flask, no database, no clock, no randomness. Every game
lives in ``companion/rules/<game>/`` and registers one object satisfying :class:`Ruleset`.

Messages are English msgids marked with :func:`N_` so that Babel extracts them; the web layer
translates them (``RuleViolation.render(gettext)``). Parameters that are themselves words to
translate are wrapped in :class:`Term`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Protocol, Sequence


def N_(message: str) -> str:
    """Mark a message for translation without translating it (gettext_noop)."""
    return message


class Term(str):
    """A message parameter that is itself a translatable word (a tile or category name)."""


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
        params = {k: gettext(v) if isinstance(v, Term) else v for k, v in self.params.items()}
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


Field = IntField | TextField | BoolField | ObjectField | ListField


def _join(path: str, key: str | int) -> str:
    return f"{path}.{key}" if path else str(key)


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
    name: str
    categories: tuple[Category, ...]
    total: int
    rank: int
    tiebreak: TieBreak | None = None
    stage_totals: tuple[int, ...] = ()   # running total after each stage, for charts

    def as_dict(self) -> dict[str, Any]:
        breakdown: dict[str, Any] = {
            "categories": [c.as_dict() for c in self.categories],
            "stage_totals": list(self.stage_totals),
        }
        if self.tiebreak:
            breakdown["tiebreak"] = self.tiebreak.as_dict()
        return {"name": self.name, "total": self.total, "rank": self.rank, "breakdown": breakdown}


@dataclass(frozen=True)
class Scoresheet:
    """The exact result of a game: per player categories, totals, ranks; players in seat order."""

    game: str
    players: tuple[PlayerScore, ...]
    complete: bool = True     # False for a game scored part-way (e.g. Ra after epoch 1)

    @property
    def winners(self) -> list[str]:
        """Names at rank 1 (for an unfinished game: the leaders so far)."""
        return [p.name for p in self.players if p.rank == 1]

    def as_dict(self) -> dict[str, Any]:
        return {"game": self.game, "complete": self.complete,
                "players": [p.as_dict() for p in self.players], "winners": self.winners}


def competition_ranks(keys: Sequence[tuple[Any, ...]]) -> list[int]:
    """Standard competition ranks ("1224") for sort keys where higher is better."""
    return [1 + sum(1 for other in keys if other > key) for key in keys]


# --------------------------------------------------------------------------------------------
# The seam and its registry
# --------------------------------------------------------------------------------------------


class Ruleset(Protocol):
    """What every game registers (design.md §2). Live-play members arrive with their issue."""

    id: str
    names: Mapping[str, str]               # language code -> game name
    player_counts: Sequence[int]
    final_schema: ObjectField

    def score_final(self, document: Mapping[str, Any]) -> Scoresheet:
        """Validate an end-of-game tally and score it; raise InvalidDocument when wrong."""
        ...


_REGISTRY: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    """Add a game to the registry (one object per game id)."""
    if ruleset.id in _REGISTRY and _REGISTRY[ruleset.id] is not ruleset:
        raise ValueError(f"game {ruleset.id!r} registered twice")
    _REGISTRY[ruleset.id] = ruleset
    return ruleset


def get_ruleset(game_id: str) -> Ruleset:
    """The registered ruleset for ``game_id``; KeyError when unknown."""
    return _REGISTRY[game_id]


def all_rulesets() -> Iterable[Ruleset]:
    return list(_REGISTRY.values())
