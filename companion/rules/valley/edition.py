"""Valley of the Kings: the group's edition data ("our copy", design.md §2; spec §2.7).

Every printed value no source gives is entered once by the group and reused: the VP of the
starters (Shabti 1 is in the seed; Urn, Box of Food and Offering Table default to 1,
unverified), the VP of each unique, the cost and capital of each card, and the set of each
card whose colour the catalogue does not know (printed.PLACEABLE). Each entry is a mapping from
a title (its id, English or Czech name) to the value; a group's entries are laid over the
catalogue's defaults by :func:`printed_values`.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from ..base import (ChoiceField, Edition, EditionValue, IntField, N_, ObjectField,
                    RuleViolation, Term)
from . import names
from . import printed as t
from .pools import placement_choices

MAX_PRINTED = 99          # a sanity bound for typed printed numbers (VP, cost, capital)

_NUMBER_TITLES: Mapping[str, tuple[str, ...]] = {
    "starter_vp": t.STARTERS,
    "unique_vp": tuple(i for i, x in t.TITLES.items() if x.kind in (t.Kind.UNIQUE,
                                                                     t.Kind.UNKNOWN)),
    "cost": tuple(i for i, x in t.TITLES.items() if x.kind is not t.Kind.STARTER),
    "capital": tuple(t.TITLES),
}


def _title_key(key: Any, allowed: tuple[str, ...], path: str) -> str:
    found = t.find_title(key) if isinstance(key, str) else None
    if found is None or found not in allowed:
        raise RuleViolation("valley.unknown_title", N_("“%(title)s” is not a card title that "
                                                       "takes this value."), path,
                            title=str(key)[:40])
    return found


def _number_check(key: str) -> Callable[[Any, str], dict[str, int]]:
    """Validate a {title: number} entry; returns only the entries given (see printed_values)."""
    allowed = _NUMBER_TITLES[key]

    def check(value: Any, path: str) -> dict[str, int]:
        if not isinstance(value, Mapping):
            raise RuleViolation("schema.not_object",
                                N_("This must be an object with named entries."), path)
        clean = {}
        for title_key, number in value.items():
            entry = f"{path}.{title_key}"
            if number is None or number == "":
                continue
            title = _title_key(title_key, allowed, entry)
            if isinstance(number, bool) or not isinstance(number, int):
                raise RuleViolation("schema.not_integer", N_("This must be a whole number."),
                                    entry)
            if not 0 <= number <= MAX_PRINTED:
                raise RuleViolation("schema.too_large", N_("At most %(max)d."), entry,
                                    max=MAX_PRINTED)
            clean[title] = number
        return clean
    return check


def _placement_check(value: Any, path: str) -> dict[str, str]:
    if not isinstance(value, Mapping):
        raise RuleViolation("schema.not_object", N_("This must be an object with named entries."),
                            path)
    clean = {}
    for title_key, placed in value.items():
        entry = f"{path}.{title_key}"
        if placed is None or placed == "":
            continue
        title = _title_key(title_key, t.PLACEABLE, entry)
        if placed not in placement_choices(title):
            raise RuleViolation("valley.unknown_set",
                                N_("“%(set)s” is not a set of this card's box, nor “unique”."),
                                entry, set=names.term(str(placed)[:40]))
        clean[title] = placed
    return clean


def _label(title_id: str) -> Term | str:
    return names.term(title_id)


def _numbers_field(key: str) -> ObjectField:
    return ObjectField(key, t.EDITION_LABELS[key], tuple(
        IntField(title, _label(title), max=MAX_PRINTED, default=None)
        for title in _NUMBER_TITLES[key]))


EDITION_VALUES: tuple[EditionValue, ...] = (
    EditionValue("starter_vp", t.EDITION_LABELS["starter_vp"], _numbers_field("starter_vp"),
                 default=dict(t.EDITION_DEFAULTS["starter_vp"]), status="unverified",
                 source=t.EDITION_SOURCES["starter_vp"], check=_number_check("starter_vp"),
                 hint=N_("Shabti 1 is in the rulebook; check the others on your cards.")),
    EditionValue("unique_vp", t.EDITION_LABELS["unique_vp"], _numbers_field("unique_vp"),
                 default={}, status="unknown", source=t.EDITION_SOURCES["unique_vp"],
                 check=_number_check("unique_vp")),
    EditionValue("cost", t.EDITION_LABELS["cost"], _numbers_field("cost"),
                 default=dict(t.EDITION_DEFAULTS["cost"]), status="unknown",
                 source=t.EDITION_SOURCES["cost"], check=_number_check("cost")),
    EditionValue("capital", t.EDITION_LABELS["capital"], _numbers_field("capital"),
                 default=dict(t.EDITION_DEFAULTS["capital"]), status="unknown",
                 source=t.EDITION_SOURCES["capital"], check=_number_check("capital")),
    EditionValue("card_set", t.EDITION_LABELS["card_set"], ObjectField(
        "card_set", t.EDITION_LABELS["card_set"], tuple(
            ChoiceField(title, _label(title), (("", N_("As the catalogue places it")),) + tuple(
                (choice, names.term(choice) if choice in t.SETS else N_("Unique artifact"))
                for choice in placement_choices(title)), default="")
            for title in t.PLACEABLE)),
        default=dict(t.EDITION_DEFAULTS["card_set"]), status="unverified",
        source=t.EDITION_SOURCES["card_set"], check=_placement_check),
)


def given(edition: Edition, key: str) -> dict[str, Any]:
    """The entries of ``key`` the group entered (nothing when it still stands at default)."""
    return {} if key in edition.defaults else dict(edition.values.get(key) or {})


def printed_values(edition: Edition) -> dict[str, Any]:
    """The values in force: the catalogue's defaults with the group's entries laid over them.

    Returns ``{"starter_vp": {...}, "confirmed_starters": [...], "cost": {...},
    "capital": {...}, "unique_vp": {...}, "card_set": {...}}``."""
    out: dict[str, Any] = {}
    for key in ("starter_vp", "unique_vp", "cost", "capital", "card_set"):
        out[key] = {**dict(t.EDITION_DEFAULTS[key]), **given(edition, key)}
    out["confirmed_starters"] = sorted(given(edition, "starter_vp"), key=t.STARTERS.index)
    return out


def no_edition() -> Edition:
    """The defaults alone (no entries from the group)."""
    return Edition({v.key: v.default for v in EDITION_VALUES},
                   tuple(v.key for v in EDITION_VALUES))
