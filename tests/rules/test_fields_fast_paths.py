"""The checker's fast paths for moves (issue 19: every move is parsed by its declaration, so
the walk must stay cheap) answer exactly as the plain walk: choices accepted at a glance,
each object's plan worked out once, defaults of a left-out object copied. The plain walk is
kept here verbatim as the reference; for documents built from every declaration the games
register (moves, set-ups, options, editions, final states) and broken in every way
hypothesis finds, the clean copy and every violation (code, field, message, parameters,
order) are the same."""

from __future__ import annotations

from typing import Any, Mapping

from hypothesis import HealthCheck, given, settings, strategies as st

from companion.rules import Capability, all_rulesets
from companion.rules.fields import (_FILL, _OMIT, COUNTED, BoolField, ChoiceField, Counted,
                                    IntField, ListField, N_, N_plural, ObjectField, TextField,
                                    _absent, _Checker, _join, _known_fields, _one_item,
                                    _placeholder, check_document)


class PlainChecker(_Checker):
    """The walk before its fast paths (check_object and check_list as they were)."""

    def check_object(self, spec: ObjectField, value: Any, path: str,
                     open_keys: bool = False) -> dict[str, Any]:
        if type(value) is not dict and not isinstance(value, Mapping):
            self.fail("schema.not_object", N_("This must be an object with named entries."), path)
            return PlainChecker().check_object(spec, {}, path)
        known = _known_fields(spec)
        if not open_keys:
            for key in value:
                if key not in known:
                    self.fail("schema.unknown_key", N_("Unknown entry “%(key)s”."),
                              _join(path, key), key=str(key))
        clean: dict[str, Any] = {}
        for key, sub in known.items():
            if key in value and (item := value[key]) is not None:
                if type(item) is int and type(sub) is IntField and item >= sub.min and (
                        sub.max is None or item <= sub.max):
                    clean[key] = item
                elif type(sub) is ObjectField:
                    clean[key] = self.check_object(sub, item, _join(path, key))
                else:
                    clean[key] = self.check(sub, item, _join(path, key))
                continue
            known_value, missing = _absent(sub)
            if not known_value:
                self.fail("schema.required", N_("This is required."), _join(path, key))
                clean[key] = _placeholder(sub)
            elif missing is _FILL:
                clean[key] = self.check_object(sub, {}, _join(path, key))
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
            value = value[:spec.max_items]          # refused already: the rest is not read
        item_spec = spec.item
        if type(item_spec) is IntField:
            low, top = item_spec.min, item_spec.max
            return [item if type(item) is int and item >= low and (top is None or item <= top)
                    else self.check_int(item_spec, item, _join(path, i))
                    for i, item in enumerate(value)]
        if type(item_spec) is ObjectField:
            return [self.check_object(item_spec, item, _join(path, i))
                    for i, item in enumerate(value)]
        return [self.check(item_spec, item, _join(path, i)) for i, item in enumerate(value)]


def _schemas() -> list[tuple[str, ObjectField]]:
    found = []
    for ruleset in all_rulesets():
        found.append((f"{ruleset.id} final", ruleset.final_schema))
        found.append((f"{ruleset.id} options", ObjectField("", "", tuple(ruleset.options))))
        found += [(f"{ruleset.id} edition {v.key}", ObjectField("", "", (v.field,)))
                  for v in ruleset.edition]
    for ruleset in all_rulesets(Capability.LIVE):
        found += [(f"{ruleset.id} set-up {n}", ruleset.setup_schema(n))
                  for n in ruleset.catalogue.live_player_counts[:2]]
        found += [(f"{ruleset.id} move {rule.kind}", rule.schema)
                  for rule in ruleset.move_rules() if rule.args]
    return found


SCHEMAS = _schemas()
JUNK = st.sampled_from([None, True, False, 0, 1, -1, 3, 2.0, 10 ** 6, "", "x", "RED", "bag",
                        "top", [], [1], ["RED"], {}, {"x": 1}, {"token": "RED"}])


def _value(spec: Any, depth: int = 0) -> st.SearchStrategy:
    """Mostly a value that fits ``spec`` (a choice, a number in range, a full object), with
    junk, left-out keys and unknown ones mixed in."""
    if isinstance(spec, ChoiceField):
        fits = st.sampled_from(list(spec.values)) if spec.values else JUNK
    elif isinstance(spec, IntField):
        fits = st.integers(spec.min - 1, (spec.max if spec.max is not None else 40) + 1)
    elif isinstance(spec, BoolField):
        fits = st.booleans()
    elif isinstance(spec, TextField):
        fits = st.sampled_from(["", "Ra", "  two  words ", "x" * 50])
    elif isinstance(spec, ListField):
        top = spec.max_items if spec.max_items is not None else spec.min_items + 3
        least = max(0, spec.min_items - 1)
        items = st.lists(_value(spec.item, depth + 1), min_size=least,
                         max_size=max(least, min(top + 1, 8)))
        fits = items if not spec.scalar else items | _value(spec.item, depth + 1)
    else:
        fields = {f.key: _value(f, depth + 1) for f in spec.fields}
        fits = st.fixed_dictionaries({}, optional={**fields, "zz_unknown": JUNK})
    return fits if depth > 3 else st.one_of(fits, fits, fits, JUNK)


def _outcome(checker: _Checker, schema: ObjectField, document: Any, open_root: bool):
    clean = checker.check_object(schema, document, "move", open_keys=open_root)
    return clean, [(v.code, v.field, v.message, v.params) for v in checker.violations]


@settings(max_examples=1500, derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_the_fast_walk_answers_as_the_plain_walk(data):
    name, schema = data.draw(st.sampled_from(SCHEMAS))
    document = data.draw(_value(schema) | JUNK, label=name)
    open_root = data.draw(st.booleans())
    fast = _outcome(_Checker(), schema, document, open_root)
    plain = _outcome(PlainChecker(), schema, document, open_root)
    assert repr(fast) == repr(plain)
    clean, problems = check_document(schema, document, open_root=open_root, prefix="move")
    assert repr((clean, [(v.code, v.field, v.message, v.params) for v in problems])) == \
        repr(fast)


def test_a_left_out_object_is_a_fresh_copy_each_time():
    schema = ObjectField("", "", (ObjectField("tomb", "Tomb", (
        IntField("points", "Points", optional=True),)),
        ListField("pay", "Pay", IntField("n", "N"), default=())))
    first, _ = check_document(schema, {})
    first["tomb"]["points"] = 3
    first["pay"].append(1)
    again, _ = check_document(schema, {})
    assert again == {"tomb": {"points": None}, "pay": []}
