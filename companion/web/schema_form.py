"""A phone form generated from a game's final-state schema, and the way back to a document.

Every input is named by the dotted path of its value in the document (``players.0.epochs.1.
gods``), the same path a RuleViolation names in ``field``; so an error goes straight back
beside the input that caused it, and the form keeps what was typed.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from werkzeug.datastructures import MultiDict

from ..rules.base import (SEAT_LABEL, BoolField, ChoiceField, Field, IntField, ListField,
                          ObjectField, RuleViolation, Term, TextField)

_INDEX = re.compile(r"\.\d+(?=\.|$)")
_WHOLE_NUMBER = re.compile(r"[+-]?\d{1,9}")


def _join(path: str, key: str | int) -> str:
    return f"{path}.{key}" if path else str(key)


def _size(sizes: Mapping[str, int], path: str) -> int:
    """The number of entries of the list at ``path`` (indices written as ``*`` in ``sizes``)."""
    return sizes.get(_INDEX.sub(".*", path), 0)


@dataclass
class Widget:
    """One node of the rendered form: a group of inputs, or an input."""

    kind: str                     # "group", "int", "text", "bool", "select"
    path: str
    label: str
    label_params: dict[str, Any] = field(default_factory=dict)
    children: list["Widget"] = field(default_factory=list)
    value: str = ""
    errors: list[str] = field(default_factory=list)
    max_length: int | None = None
    choices: tuple = ()           # values, or (value, label msgid) pairs
    seat_choice: bool = False     # the values are seats: show the players' names
    seat: int | None = None       # an entry of a per-seat list: labelled by the player's name
    blank: str = ""               # what a blank box means, shown greyed in it ("0")

    @property
    def has_errors(self) -> bool:
        return bool(self.errors) or any(c.has_errors for c in self.children)


def build_form(schema: ObjectField, sizes: Mapping[str, int], values: Mapping[str, str],
               errors: Mapping[str, list[str]], prefix: str = "") -> Widget:
    """The widget tree for ``schema`` with ``values`` typed so far and ``errors`` by path.
    With ``prefix`` every input is named ``<prefix>.<path>`` (sizes stay unprefixed).
    A ChoiceField's options carry their values as JSON, so any plain value can be chosen."""

    def node(spec: Field, path: str, label: str, params: dict[str, Any]) -> Widget:
        mine = list(errors.get(path, []))
        if isinstance(spec, ObjectField):
            return Widget("group", path, label, params, [
                node(sub, _join(path, sub.key), sub.label, {}) for sub in spec.fields
                if not (not path and sub.key == "game")], errors=mine)
        if isinstance(spec, ListField):
            items = [node(spec.item, _join(path, i), spec.item_label or spec.item.label,
                          {"n": i + 1}) for i in range(_size(sizes, _unprefixed(path)))]
            if spec.item_label == SEAT_LABEL:
                for index, item in enumerate(items):
                    item.seat = index
            if spec.default is not None and isinstance(spec.item, ChoiceField):
                # a list of choices with a default list starts on it, entry by entry
                for item, default in zip(items, spec.default):
                    if item.path not in values:
                        item.value = json.dumps(default)
            return Widget("group", path, label, params, items, errors=mine)
        if isinstance(spec, ChoiceField):
            seats = sizes.get("players") if spec.seat_choice else None
            options = tuple((json.dumps(value), text) for value, text in spec.pairs()
                            if seats is None or type(value) is not int or value < seats)
            value = values.get(path)
            if value is None:
                default = spec.default if spec.default is not None else None
                value = json.dumps(default) if default is not None else ""
            return Widget("select", path, label, params, value=value, errors=mine,
                          choices=options, seat_choice=spec.seat_choice)
        kind = {IntField: "int", TextField: "text", BoolField: "bool"}[type(spec)]
        value = values.get(path, "")
        if isinstance(spec, BoolField) and path not in values:
            value = "1" if spec.default else "0"
        if isinstance(spec, TextField) and spec.prefill and path not in values:
            from flask_babel import gettext
            value = gettext(spec.prefill)
        choices = getattr(spec, "choices", ())
        # a blank number box counts as its default: say so in it, unless it is required
        blank = str(spec.default) if isinstance(spec, IntField) and spec.default is not None \
            and not spec.optional else ""
        return Widget("select" if choices else kind, path, label, params, value=value,
                      errors=mine, max_length=getattr(spec, "max_length", None),
                      choices=tuple(choices), blank=blank)

    def _unprefixed(path: str) -> str:
        return path[len(prefix) + 1:] if prefix and path.startswith(prefix + ".") else path

    return node(schema, prefix, schema.label, {})


def parse_form(schema: ObjectField, form: MultiDict, sizes: Mapping[str, int],
               prefix: str = "") -> dict[str, Any]:
    """The document the form describes. Blank numbers are left out (they mean 0), and so are
    the empty boxes at the end of a list of numbers or choices (a fixed-size form offers more
    than are used; never below the list's ``min_items``); text that is not a whole number is
    kept as typed so that validation names it; a choice is read back from its JSON."""

    def value(spec: Field, path: str) -> Any:
        if isinstance(spec, ObjectField):
            out = {}
            for sub in spec.fields:
                sub_value = value(sub, _join(path, sub.key))
                if sub_value is not None:
                    out[sub.key] = sub_value
            return out
        if isinstance(spec, ListField):
            items = [value(spec.item, _join(path, i))
                     for i in range(_size(sizes, _unprefixed(path)))]
            if not isinstance(spec.item, (ObjectField, ListField)):
                while len(items) > spec.min_items and items[-1] is None:
                    items.pop()
            if isinstance(spec.item, IntField) and spec.item.default is not None:
                # the boxes a list must have: a blank one is the number's default (0)
                items = [spec.item.default if item is None and index < spec.min_items
                         else item for index, item in enumerate(items)]
            return items if any(item is not None for item in items) else None
        if isinstance(spec, BoolField):
            chosen = form.getlist(path)
            return chosen[-1] == "1" if chosen else None
        raw = form.get(path, "").strip()
        if isinstance(spec, ChoiceField):
            if not raw:
                return None
            try:
                return json.loads(raw)
            except ValueError:
                return raw
        if isinstance(spec, TextField):
            return raw if path in form else None
        if not raw:
            return None
        return int(raw) if _WHOLE_NUMBER.fullmatch(raw) else raw

    def _unprefixed(path: str) -> str:
        return path[len(prefix) + 1:] if prefix and path.startswith(prefix + ".") else path

    return value(schema, prefix)


def document_values(schema: ObjectField, document: Mapping[str, Any],
                    prefix: str = "") -> dict[str, str]:
    """A document as the form's input values (the way back from :func:`parse_form`): a
    choice as its JSON, a number or text as typed, a boolean as "1"/"0"."""
    values: dict[str, str] = {}

    def walk(spec: Field, value: Any, path: str) -> None:
        if value is None:
            return
        if isinstance(spec, ObjectField) and isinstance(value, Mapping):
            for sub in spec.fields:
                walk(sub, value.get(sub.key), _join(path, sub.key))
        elif isinstance(spec, ListField) and isinstance(value, list):
            for index, item in enumerate(value):
                walk(spec.item, item, _join(path, index))
        elif isinstance(spec, ChoiceField):
            values[path] = json.dumps(value)
        elif isinstance(spec, BoolField):
            values[path] = "1" if value else "0"
        else:
            values[path] = str(value)

    walk(schema, document, prefix)
    return values


def typed_values(form: MultiDict) -> dict[str, str]:
    """What was typed, by input name, to put back into the re-rendered form."""
    return {key: form.getlist(key)[-1] for key in form.keys()}


def errors_by_field(violations: list[RuleViolation], render) -> dict[str, list[str]]:
    """Translated messages grouped by the field they belong to ("" for the whole form)."""
    grouped: dict[str, list[str]] = {}
    for violation in violations:
        grouped.setdefault(violation.field or "", []).append(render(violation))
    return grouped


def error_summary(root: Widget, errors: Mapping[str, list[str]],
                  extra_labels: Mapping[str, str] | None = None) -> list[dict[str, str]]:
    """One entry per message, in the order of the form, for the summary at the top of the
    page: ``{"href", "label", "message"}``. ``href`` is the anchor of the input in error
    (``#in-<path>``), or of the fieldset of a group (``#f-<path>``); a path with no input of
    its own points at the nearest enclosing one; whole-form messages have no link. ``label``
    says where in the person's words: the player's typed name, then the labels down to the
    field ("Ana · Epoch 2 · Pharaohs")."""
    placed: dict[str, tuple[str, str]] = {}

    def walk(widget: Widget, trail: list[str], name: str | None) -> None:
        text = _widget_label(widget, name)
        here = trail + [text] if text else trail
        anchor = f"#f-{widget.path}" if widget.kind == "group" else f"#in-{widget.path}"
        # a message about a whole list names the list ("Ana · Nile levels"), although its
        # items, numbered, go without it ("Ana · Level 2")
        own = _widget_label(widget, name, whole=True) if not text else ""
        placed[widget.path] = (anchor, " · ".join(here + [own] if own else here))
        for child in widget.children:
            # a player's entry (a group with its own "name" input) is called by the name typed
            typed = next((c.value.strip() for c in child.children
                          if c.path == f"{child.path}.name" and c.value.strip()), None)
            walk(child, here, typed if typed else name if child.kind != "group" else None)

    walk(root, [], None)
    entries: list[dict[str, str]] = []
    ordered = [path for path in placed if path in errors]
    ordered += [path for path in errors if path not in placed]
    for path in ordered:
        anchor, label = "", ""
        if path in placed and path:
            anchor, label = placed[path]
        elif path and extra_labels and path in extra_labels:
            anchor, label = f"#in-{path}", extra_labels[path]
        elif path:
            parent = path
            while parent and parent not in placed:
                parent = parent.rpartition(".")[0]
            if parent:
                anchor, label = placed[parent]
        for message in errors[path]:
            entries.append({"href": anchor, "label": label, "message": message})
    return entries


def _widget_label(widget: Widget, typed_name: str | None, whole: bool = False) -> str:
    """A widget's label in the current language: a seat's entry is the player's name; a
    list of numbered items has none (its items say more), unless it is named ``whole`` (a
    message of the list's own, "Nile levels")."""
    from flask_babel import gettext

    from ..i18n import capfirst

    if widget.kind == "group" and typed_name:
        return typed_name
    if not widget.label or (not whole and widget.kind == "group" and widget.children
                            and all(c.label_params.get("n") and "%(n)" in c.label
                                    for c in widget.children)):
        return ""       # a list's own label ("Epochs") says less than its items' ("Epoch 2")
    if isinstance(widget.label, Term):          # a card's name, with its printed name
        return capfirst(widget.label.render(gettext))
    text = capfirst(gettext(widget.label, **widget.label_params))
    number = widget.label_params.get("n")
    # an entry of a list whose items share one label ("Level"): which one ("Level 3")
    return f"{text} {number}" if number and "%(n)" not in widget.label else text
