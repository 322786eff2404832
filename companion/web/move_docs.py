"""What each game's moves take, for the ``/api`` page: drawn from the moves' one declaration.

A kind of move is declared once (:class:`companion.rules.referee.MoveRule`: its label, its
hint and its arguments as fields); the referee parses moves with that declaration, the OpenAPI
document describes them from it (:mod:`companion.api.openapi`) and :func:`move_docs` turns it
into the rows the shared partial ``templates/_api_moves.html`` shows in the reader's language
(labels and hints are msgids, translated by the template).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..rules.base import (BoolField, ChoiceField, Field, IntField, ListField, ObjectField,
                          Ruleset, TextField)
from ..rules.fields import default_of, is_required, plain


@dataclass(frozen=True)
class ArgumentDoc:
    """One argument (or an entry inside one) as the page describes it.

    ``kind`` is number, text, boolean, choice, seat, list or object; ``low`` and ``high`` bound
    a number, a text's length or a list's length (``high`` None: no upper bound);
    ``choices`` are (value as JSON, label msgid or None); ``parts`` are an object's entries or
    a list's item; ``default`` is the JSON of the value a missing argument takes. ``entry``:
    this is what each entry of a list is (no key of its own, never left out)."""

    key: str
    label: str
    kind: str
    required: bool
    default: str | None = None
    low: int | None = None
    high: int | None = None
    choices: tuple[tuple[str, str | None], ...] = ()
    scalar: bool = False
    parts: tuple["ArgumentDoc", ...] = ()
    entry: bool = False


@dataclass(frozen=True)
class MoveDoc:
    """One kind of move: its ``type``, its label and hint (msgids) and its arguments."""

    kind: str
    label: str
    hint: str | None
    arguments: tuple[ArgumentDoc, ...]


def move_docs(ruleset: Ruleset) -> list[MoveDoc]:
    """Every kind of move ``ruleset`` declares, in its declared order (none for a game
    without live tables)."""
    return [MoveDoc(rule.kind, rule.label, rule.hint,
                    tuple(argument_doc(spec) for spec in rule.args))
            for rule in ruleset.move_rules()]


def argument_doc(spec: Field, entry: bool = False) -> ArgumentDoc:
    """How one field declaration reads on the page (``entry``: as each entry of a list)."""
    has_default, default = default_of(spec)
    common: dict[str, Any] = {
        "key": spec.key, "label": spec.label, "required": is_required(spec) or entry,
        "default": _json(plain(default)) if has_default and not entry else None,
        "entry": entry}
    if isinstance(spec, IntField):
        return ArgumentDoc(kind="number", low=spec.min, high=spec.max, **common)
    if isinstance(spec, TextField):
        return ArgumentDoc(kind="text", high=spec.max_length, **common)
    if isinstance(spec, BoolField):
        return ArgumentDoc(kind="boolean", **common)
    if isinstance(spec, ChoiceField):
        if spec.seat_choice:
            return ArgumentDoc(kind="seat", **common)
        return ArgumentDoc(kind="choice", choices=tuple(
            (_json(value), None if label == str(value) else label)
            for value, label in spec.pairs()), **common)
    if isinstance(spec, ListField):
        return ArgumentDoc(kind="list", low=spec.min_items, high=spec.max_items,
                           scalar=spec.scalar, parts=(argument_doc(spec.item, entry=True),),
                           **common)
    if isinstance(spec, ObjectField):
        return ArgumentDoc(kind="object", parts=tuple(argument_doc(f) for f in spec.fields),
                           **common)
    raise TypeError(f"no description for {spec!r}")


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)
