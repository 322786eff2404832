"""Field declarations: one declaration checks a document or a move and lays out its form.

Part of the seam (design.md §2), re-exported by :mod:`.base`. A final-state document, a set-up,
an edition ("our copy") and every move's arguments are declared with these fields (each with a
translatable label); :func:`check_document` walks a value against a declaration, collecting
every violation (each naming its dotted path in ``field`` and its labels in ``label``) and
building a clean copy; the web forms, the OpenAPI document and the ``/api`` pages are drawn
from the same declarations. Pure: no Flask, no I/O.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping

from .messages import COUNTED, N_, Counted, FieldLabel, N_plural, RuleViolation


@dataclass(frozen=True)
class IntField:
    """A whole number from ``min`` (0 unless given) to ``max``; missing means ``default``
    (None: required, unless ``optional``, which makes a missing value None)."""

    key: str
    label: str
    max: int | None = None
    default: int | None = 0
    help: str | None = None
    min: int = 0
    optional: bool = False


@dataclass(frozen=True)
class TextField:
    """A short text, stripped; required and non-empty unless ``required`` is False (then
    missing is ""), or ``optional`` (then missing is None)."""

    key: str
    label: str
    max_length: int = 40
    required: bool = True
    choices: tuple = ()    # offered as a list in forms: values or (value, label); the game validates
    optional: bool = False
    prefill: str = ""      # a msgid the phone form's box starts with, in the reader's language
                           # (a rival's name: "Traitor"); the document never sees it otherwise


@dataclass(frozen=True)
class BoolField:
    """True or false; missing means ``default`` (None: required, unless ``optional``, which
    makes a missing value None: "not said", e.g. a choice left to the table's option)."""

    key: str
    label: str
    default: bool | None = False
    optional: bool = False


@dataclass(frozen=True)
class ObjectField:
    """A mapping with a fixed set of keys; unknown keys are refused. Missing, it is filled
    with its fields' defaults (``required``: refused; ``optional``: None)."""

    key: str
    label: str
    fields: tuple["Field", ...]
    required: bool = False
    optional: bool = False


@dataclass(frozen=True)
class ListField:
    """A list of ``item``; its length bounds are checked here, game rules check the rest.

    Missing, an optional list stays out of the clean copy, unless it has a ``default``
    (then it is that list) or is ``optional`` (then None). ``scalar``: one item given
    without its list counts as a list of one (a chance move's single outcome), also when
    the item is itself a list or an object (one jar, one card)."""

    key: str
    label: str
    item: "Field"
    min_items: int = 0
    max_items: int | None = None
    required: bool = False
    item_label: str | None = None      # e.g. N_("Epoch %(n)d"), numbered from 1
    default: tuple | None = None
    optional: bool = False
    scalar: bool = False


@dataclass(frozen=True)
class ChoiceField:
    """One value out of ``choices``: each a ``(value, label msgid)`` pair, or a bare string or
    number that is its own label. Values are plain JSON (a list of suns is a choice too).
    ``seat_choice``: the values are seat numbers, which forms show as the players' names.
    ``default`` None means required, unless ``optional`` (then missing is None)."""

    key: str
    label: str
    choices: tuple = ()
    default: Any = None
    seat_choice: bool = False
    optional: bool = False

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


plain = _plain


Field = IntField | TextField | BoolField | ObjectField | ListField | ChoiceField


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def _valid_unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def join_path(path: str, key: str | int) -> str:
    """The dotted field name of ``key`` under ``path``; an empty key is named ``""`` (as the
    JSON guard names it), so that an answer about it still names a field."""
    name = str(key) or '""'
    return f"{path}.{name}" if path else name


_join = join_path


_KNOWN_FIELDS: dict[int, tuple["ObjectField", dict[str, "Field"]]] = {}
_CHOICES: dict[int, tuple["ChoiceField", tuple, frozenset]] = {}
_PLANS: dict[int, tuple["ObjectField", dict, tuple]] = {}


def _known_fields(spec: ObjectField) -> dict[str, Field]:
    """``{key: field}`` of an object schema, built once per schema (schemas are constants;
    the identity check guards against a reused id, the bound against schemas made per call)."""
    entry = _KNOWN_FIELDS.get(id(spec))
    if entry is None or entry[0] is not spec:
        if len(_KNOWN_FIELDS) > 1024:
            _KNOWN_FIELDS.clear()
        entry = _KNOWN_FIELDS[id(spec)] = (spec, {f.key: f for f in spec.fields})
    return entry[1]


def _choice_values(spec: ChoiceField) -> tuple:
    """``spec.values``, built once per declaration (as :func:`_known_fields`)."""
    return _choice_entry(spec)[1]


def _choice_entry(spec: ChoiceField) -> tuple[ChoiceField, tuple, frozenset]:
    """The choice, its values, and the texts and whole numbers among them."""
    entry = _CHOICES.get(id(spec))
    if entry is None or entry[0] is not spec:
        if len(_CHOICES) > 4096:
            _CHOICES.clear()
        values = spec.values
        entry = _CHOICES[id(spec)] = (spec, values, frozenset(
            v for v in values if type(v) is str or type(v) is int))
    return entry


def _plan(spec: ObjectField) -> tuple[ObjectField, dict[str, Field], tuple]:
    """How :meth:`_Checker.check_object` walks ``spec``, worked out once per schema (as
    :func:`_known_fields`): the schema, its ``{key: field}``, and per field its key, its
    declaration, the plain values a choice accepts at a glance (texts and whole numbers;
    None for other fields) and what a missing entry becomes (:func:`_absent`)."""
    entry = _PLANS.get(id(spec))
    if entry is None or entry[0] is not spec:
        if len(_PLANS) > 1024:
            _PLANS.clear()
        known = _known_fields(spec)
        entry = _PLANS[id(spec)] = (spec, known, tuple(
            (key, sub, _scalar_choices(sub), *_planned_absent(sub))
            for key, sub in known.items()))
    return entry


class _Defaults(dict):
    """An object's fields filled with their defaults, all plain values: copied, not rebuilt,
    for every document that leaves the object out."""


def _planned_absent(spec: Field) -> tuple[bool, Any]:
    """:func:`_absent` as a plan keeps it: a value shared by every document only when it
    cannot be changed (``_AGAIN``: ask :func:`_absent` each time, for a fresh list)."""
    known_value, missing = _absent(spec)
    if missing is _FILL:
        checker = _Checker()
        filled = checker.check_object(spec, {}, "")
        if not checker.violations and all(v is None or type(v) in (bool, int, str)
                                          for v in filled.values()):
            return known_value, _Defaults(filled)
        return known_value, _FILL
    if missing is _OMIT or missing is None or type(missing) in (bool, int, str):
        return known_value, missing
    return known_value, _AGAIN


def _scalar_choices(spec: Field) -> frozenset | None:
    """The texts and whole numbers among a choice's values (a value found here is accepted
    as it is, as :meth:`_Checker.check` would); None for any other field."""
    return _choice_entry(spec)[2] if type(spec) is ChoiceField else None


_LOOKUPS: dict[int, tuple["ChoiceField", Any]] = {}


def _is_choice(spec: ChoiceField, value: Any) -> bool:
    """Whether ``value`` is one of the choices: a set lookup where every choice is hashable
    (a choice among 170 card titles costs no more than among 3), else a scan."""
    entry = _LOOKUPS.get(id(spec))
    if entry is None or entry[0] is not spec:
        if len(_LOOKUPS) > 4096:
            _LOOKUPS.clear()
        values = _choice_values(spec)
        try:
            lookup: Any = frozenset(values)
        except TypeError:                  # list values (a group of suns): scan them
            lookup = values
        entry = _LOOKUPS[id(spec)] = (spec, lookup)
    try:
        return value in entry[1]
    except TypeError:                      # an unhashable value is no hashable choice
        return False


def _absent(spec: Field) -> tuple[bool, Any]:
    """What a missing (or null) entry becomes: ``(True, value)``, or ``(False, None)`` when
    it is required; ``_OMIT`` as the value leaves it out of the clean copy."""
    if isinstance(spec, BoolField) and not spec.optional:
        return spec.default is not None, spec.default      # default None: required
    if getattr(spec, "optional", False):
        return True, None
    if isinstance(spec, IntField):
        return spec.default is not None, spec.default
    if isinstance(spec, ObjectField):
        return (False, None) if spec.required else (True, _FILL)
    if isinstance(spec, ListField):
        if spec.default is not None:
            return True, _plain(spec.default)
        return (False, None) if spec.required else (True, _OMIT)
    if isinstance(spec, TextField):
        return (False, None) if spec.required else (True, "")
    return spec.default is not None, spec.default


_OMIT = object()      # a missing optional list stays out: the game decides what that means
_FILL = object()      # a missing optional object: its fields' defaults
_AGAIN = object()     # (in a plan) a missing entry whose value is built anew each time


def is_required(spec: Field) -> bool:
    """Whether a document or a move must give this field: missing (or null), it is refused."""
    return not _absent(spec)[0]


def default_of(spec: Field) -> tuple[bool, Any]:
    """``(True, value)`` when a missing field takes a declared value (a number, a choice, true
    or false, a list, empty text), else ``(False, None)``: it is required, becomes None, is
    left out or is filled with its own fields' defaults. For the API's documents."""
    known, value = _absent(spec)
    if not known or value is None or value is _OMIT or value is _FILL:
        return False, None
    return True, value


class _Checker:
    """Walk a document against a schema, collecting violations and building a clean copy."""

    def __init__(self, open_root: bool = False) -> None:
        self.violations: list[RuleViolation] = []
        self.open_root = open_root      # unknown keys at the root are ignored (moves)

    def fail(self, code: str, message: str, path: str, **params: Any) -> None:
        self.violations.append(RuleViolation(code, message, path or None, **params))

    def check(self, spec: Field, value: Any, path: str) -> Any:
        if type(value) is int and type(spec) is IntField and value >= spec.min and (
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
            if isinstance(value, bool) or not _is_choice(spec, _plain(value)):
                self.fail("schema.not_a_choice", N_("Choose one of the values offered."), path)
                return _placeholder(spec)
            return _plain(value)
        return self.check_list(spec, value, path)

    def check_int(self, spec: IntField, value: Any, path: str) -> int:
        if value is None:
            self.fail("schema.required", N_("This is required."), path)
            return spec.min
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail("schema.not_integer", N_("This must be a whole number."), path)
            return spec.min
        if value < spec.min:
            if spec.min == 0:
                self.fail("schema.negative", N_("This must not be negative."), path)
            else:
                self.fail("schema.too_small", N_("At least %(min)d."), path, min=spec.min)
            return spec.min
        if spec.max is not None and value > spec.max:
            self.fail("schema.too_large", N_("At most %(max)d."), path, max=spec.max)
            return spec.min
        return value

    def check_object(self, spec: ObjectField, value: Any, path: str,
                     open_keys: bool = False) -> dict[str, Any]:
        if type(value) is not dict and not isinstance(value, Mapping):
            self.fail("schema.not_object", N_("This must be an object with named entries."), path)
            return _Checker().check_object(spec, {}, path)   # defaults, so later checks can run
        entry = _PLANS.get(id(spec))
        if entry is None or entry[0] is not spec:
            entry = _plan(spec)
        _, known, plan = entry
        if not open_keys and not value.keys() <= known.keys():
            for key in value:
                if key not in known:
                    self.fail("schema.unknown_key", N_("Unknown entry “%(key)s”."),
                              _join(path, key), key=str(key))
        clean: dict[str, Any] = {}
        for key, sub, choices, known_value, missing in plan:
            if key in value and (item := value[key]) is not None:
                # The common cases (a whole number in range, one of a choice's plain values)
                # decided here, without a call or the field's path: a document is mostly
                # counts, a move mostly choices.
                if type(item) is int and type(sub) is IntField and item >= sub.min and (
                        sub.max is None or item <= sub.max):
                    clean[key] = item
                elif choices is not None and (type(item) is str or type(item) is int) \
                        and item in choices:
                    clean[key] = item
                elif type(sub) is ObjectField:
                    clean[key] = self.check_object(sub, item, _join(path, key))
                elif type(sub) is ListField:
                    clean[key] = self.check_list(sub, item, _join(path, key))
                else:
                    clean[key] = self.check(sub, item, _join(path, key))
                continue
            if missing is _AGAIN:
                known_value, missing = _absent(sub)
            if not known_value:
                self.fail("schema.required", N_("This is required."), _join(path, key))
                clean[key] = _placeholder(sub)   # so later checks can run on the copy
            elif missing is _FILL:
                clean[key] = self.check_object(sub, {}, _join(path, key))
            elif type(missing) is _Defaults:
                clean[key] = missing.copy()
            elif missing is not _OMIT:
                clean[key] = missing
        return clean

    def check_list(self, spec: ListField, value: Any, path: str) -> list[Any]:
        if spec.scalar and _one_item(spec.item, value):
            value = [value]
        elif not isinstance(value, list):
            self.fail("schema.not_list", N_("This must be a list."), path)
            return []
        if len(value) < spec.min_items or (spec.max_items is not None
                                           and len(value) > spec.max_items):
            if spec.max_items is not None and spec.max_items == spec.min_items:
                self.fail("schema.list_length", COUNTED, path, count=spec.min_items,
                          counted=Counted(N_plural("Exactly %(num)d entry is needed.",
                                                   "Exactly %(num)d entries are needed."),
                                          spec.min_items))
            elif spec.max_items is None:
                self.fail("schema.list_length", COUNTED, path, min=spec.min_items,
                          counted=Counted(N_plural("At least %(num)d entry is needed.",
                                                   "At least %(num)d entries are needed."),
                                          spec.min_items))
            else:
                self.fail("schema.list_length",
                          N_("Between %(min)d and %(max)d entries are needed."),
                          path, min=spec.min_items, max=spec.max_items)
        if spec.max_items is not None and len(value) > spec.max_items:
            # Refused already: the entries past the limit are not worth checking (a document
            # of 40 000 players costs no more than one of five).
            value = value[:spec.max_items]
        item_spec = spec.item
        # Dispatched once for the whole list, as check() would for each item.
        if type(item_spec) is IntField:
            low, top = item_spec.min, item_spec.max
            return [item if type(item) is int and item >= low and (top is None or item <= top)
                    else self.check_int(item_spec, item, _join(path, i))
                    for i, item in enumerate(value)]
        if type(item_spec) is ObjectField:
            return [self.check_object(item_spec, item, f"{path}.{i}" if path else str(i))
                    for i, item in enumerate(value)]
        if type(item_spec) is ListField:
            return [self.check_list(item_spec, item, f"{path}.{i}" if path else str(i))
                    for i, item in enumerate(value)]
        choices = _scalar_choices(item_spec)
        if choices is not None:
            return [item if (type(item) is str or type(item) is int) and item in choices
                    else self.check(item_spec, item, _join(path, i))
                    for i, item in enumerate(value)]
        return [self.check(item_spec, item, _join(path, i)) for i, item in enumerate(value)]


def _one_item(item: Field, value: Any) -> bool:
    """Whether ``value``, given for a ``scalar`` list, is one item without its list: a
    value that is neither a list nor an object, or one that is when the items are lists (a
    list holding no list: a jar, not a list of jars) or objects (a card, not a list)."""
    if isinstance(value, list):
        return type(item) is ListField and not all(isinstance(v, list) for v in value)
    if isinstance(value, Mapping):
        return type(item) is ObjectField
    return not isinstance(value, tuple)


def _placeholder(spec: Field) -> Any:
    """A harmless stand-in for a value that is missing or wrong."""
    if isinstance(spec, ObjectField):
        return _Checker().check_object(spec, {}, "")
    if isinstance(spec, ChoiceField):
        if spec.default is not None:
            return spec.default
        values = _choice_values(spec)
        return values[0] if values else None
    if isinstance(spec, IntField):
        return spec.min
    return {TextField: "", BoolField: False, ListField: []}[type(spec)]


def field_label(schema: Field, path: str | None, prefix: str = "") -> FieldLabel:
    """The labels of the value at dotted ``path`` under ``schema`` (the root's own label is
    left out; ``prefix`` is a path the schema itself sits at, e.g. ``move``): a list item is
    its ``item_label`` with its number from 1, a key the schema does not know is itself."""
    parts: list[Any] = []
    if path is None:
        return FieldLabel(parts)
    if prefix and (path == prefix or path.startswith(prefix + ".")):
        path = path[len(prefix) + 1:]
    spec: Any = schema
    for step in (path.split(".") if path else ()):
        if isinstance(spec, ObjectField):
            sub = _known_fields(spec).get(step)
            if sub is None:
                parts.append(step)
                break
            parts.append((sub.label, None))
            spec = sub
        elif isinstance(spec, ListField) and step.isdigit():
            number = int(step) + 1
            parts.append((spec.item_label, {"n": number}) if spec.item_label
                         else (N_("No. %(n)d"), {"n": number}))
            spec = spec.item
        else:
            parts.append(step)
            break
    return FieldLabel(parts)


def check_document(schema: ObjectField, document: Any, *, open_root: bool = False,
                   prefix: str = "") -> tuple[dict[str, Any], list[RuleViolation]]:
    """Check ``document`` against ``schema``: a normalised copy plus every violation found,
    each with its ``label``. ``prefix`` is put before every field path (``move``);
    ``open_root``: unknown keys at the top are ignored rather than refused."""
    checker = _Checker()
    clean = checker.check_object(schema, document, prefix, open_keys=open_root)
    for violation in checker.violations:
        violation.label = field_label(schema, violation.field, prefix)
    return clean, checker.violations
