"""The schema checker and Ra's box check as they were before they were made faster (issue 9),
kept verbatim as the reference that tests/rules/test_checker_equivalence.py compares the
current code with: every clean copy and every violation must stay identical."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from companion.rules.base import (BoolField, Field, IntField, ListField, N_, ObjectField,
                                  RuleViolation, TextField, _join)
from companion.rules.ra import printed as t
from companion.rules.ra.final import _drawn, _epoch_values, _over_box


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
        if not isinstance(value, Mapping):
            self.fail("schema.not_object", N_("This must be an object with named entries."), path)
            return _Checker().check_object(spec, {}, path)   # defaults, so later checks can run
        known = {f.key: f for f in spec.fields}
        for key in value:
            if key not in known:
                self.fail("schema.unknown_key", N_("Unknown entry “%(key)s”."), _join(path, key),
                          key=str(key))
        clean: dict[str, Any] = {}
        for key, sub in known.items():
            sub_path = _join(path, key)
            if key in value and value[key] is not None:
                clean[key] = self.check(sub, value[key], sub_path)
            elif isinstance(sub, BoolField):
                clean[key] = sub.default
            elif isinstance(sub, IntField) and sub.default is not None:
                clean[key] = sub.default
            elif isinstance(sub, ObjectField) and not sub.required:
                clean[key] = self.check_object(sub, {}, sub_path)
            elif isinstance(sub, ListField) and not sub.required:
                pass  # an optional list left out stays out: the game decides what that means
            elif isinstance(sub, TextField) and not sub.required:
                clean[key] = ""
            else:
                self.fail("schema.required", N_("This is required."), sub_path)
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
        return [self.check(spec.item, item, _join(path, i)) for i, item in enumerate(value)]


def _placeholder(spec: Field) -> Any:
    """A harmless stand-in for a value that is missing or wrong."""
    if isinstance(spec, ObjectField):
        return _Checker().check_object(spec, {}, "")
    return {IntField: 0, TextField: "", BoolField: False, ListField: []}[type(spec)]


def check_document(schema: ObjectField, document: Any) -> tuple[dict[str, Any], list[RuleViolation]]:
    checker = _Checker()
    clean = checker.check_object(schema, document, "")
    return clean, checker.violations


def box_violations(players: Sequence[Mapping[str, Any]], epochs: int) -> list[RuleViolation]:
    """More tiles of a kind than the box holds (spec §2.2), over the whole game."""
    checks: list[RuleViolation | None] = []
    for tile, key in (("god", "gods"), ("gold", "gold"), ("flood", "floods")):
        checks.append(_over_box(tile, _epoch_values(
            players, epochs, lambda ep, path, key=key: [(f"{path}.{key}", ep[key])]), players))
    for kind in t.CIVILIZATION_KINDS:
        checks.append(_over_box(f"civ_{kind}", _epoch_values(
            players, epochs, lambda ep, path, kind=kind: [
                (f"{path}.civilizations.{kind}", ep["civilizations"][kind])]), players))
    checks.append(_over_box("pharaoh", _drawn(players, epochs, "pharaohs"), players))
    checks.append(_over_box("nile", _drawn(players, epochs, "niles"), players))
    for kind in t.MONUMENT_KINDS:
        checks.append(_over_box(f"mon_{kind}", (
            (f"players.{p}.monuments.{kind}", player["monuments"][kind])
            for p, player in enumerate(players)), players))
    return [v for v in checks if v is not None]


