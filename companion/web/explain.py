"""Refusals of the score form restated in the person's terms (issue 10).

Some checks of a final-state document count across many inputs and report the count where it
first passes a limit: Ra's "The box holds only 8 God tiles; this adds up to 9." names a running
count the person never typed. Here such a refusal is restated from what *was* typed: every
entry that counts, by player, with the total and the rule it breaks — "The box holds only
8 God tiles, but 9 are entered: Ana 3 · Bea 4 · Cyril 2." The field stays the same, so the
message still sits beside the input where the limit is passed.

The rules engines stay the judges (this module never decides whether a document is valid); it
only rewords, and a refusal it does not know is shown as the engine wrote it.
"""

from __future__ import annotations

import re
from typing import Any, Callable, Iterator, Mapping, Sequence

from flask_babel import gettext

from ..rules.base import N_, RuleViolation, Ruleset

_INDEX = re.compile(r"(?<=\.)\d+(?=\.|$)")
# Ra's kinds a player keeps from one epoch to the next: a count entered per epoch is what the
# player holds, so every rise is new tiles (rules/ra/final.py ``_drawn``).
RA_KEPT = ("pharaohs", "niles")


def _values(node: Any, parts: Sequence[str]) -> Iterator[Any]:
    """Every value at ``parts`` below ``node``, ``*`` standing for every index of a list."""
    if not parts:
        yield node
        return
    head, rest = parts[0], parts[1:]
    if head == "*":
        for item in node if isinstance(node, list) else ():
            yield from _values(item, rest)
    elif isinstance(node, Mapping):
        if head in node:
            yield from _values(node[head], rest)
        elif not rest:
            yield 0                     # a blank input is 0
        else:
            yield from _values({}, rest)


def _player_name(document: Mapping[str, Any], index: int) -> str:
    players = document.get("players") or []
    player = players[index] if index < len(players) else {}
    name = player.get("name") if isinstance(player, Mapping) else None
    return name.strip() if isinstance(name, str) and name.strip() else \
        gettext("Player %(n)d", n=index + 1)


def _per_player(document: Mapping[str, Any], field: str) -> list[tuple[str, list[int]]]:
    """(player name, the whole numbers typed for this kind of input, in order) for each
    player, found by the field's path with every index made a wildcard."""
    pattern = _INDEX.sub("*", field).split(".")
    if pattern[:2] != ["players", "*"]:
        return []
    found = []
    for index, player in enumerate(document.get("players") or []):
        typed = [v if isinstance(v, int) and not isinstance(v, bool) else 0
                 for v in _values(player, pattern[2:])]
        found.append((_player_name(document, index), typed))
    return found


def _ra_box(violation: RuleViolation, document: Mapping[str, Any]) -> RuleViolation | None:
    """Ra's box limits: say what was typed, player by player, and the total it makes."""
    field = violation.field or ""
    typed = _per_player(document, field)
    if not typed:
        return None
    params = dict(violation.params)
    if field.rsplit(".", 1)[-1] in RA_KEPT:
        entries, count = [], 0
        for name, held in typed:
            previous = 0
            for now in held:
                count += max(0, now - previous)
                previous = now
            if any(held):
                entries.append(f"{name} {' → '.join(str(v) for v in held)}")
        message = N_("The box holds only %(limit)d %(tile)s tiles, but the counts entered "
                     "need %(count)d (each rise from one epoch to the next is new tiles): "
                     "%(entries)s.")
    else:
        entries = [f"{name} {sum(values)}" for name, values in typed if sum(values)]
        count = sum(sum(values) for _, values in typed)
        message = N_("The box holds only %(limit)d %(tile)s tiles, but %(count)d are entered: "
                     "%(entries)s.")
    params.update(count=count, entries=" · ".join(entries))
    return RuleViolation(violation.code, message, violation.field, **params)


RESTATED: Mapping[str, Callable[[RuleViolation, Mapping[str, Any]], RuleViolation | None]] = {
    "ra.too_many_tiles": _ra_box,
}


def in_the_users_terms(ruleset: Ruleset, document: Mapping[str, Any],
                       violations: Sequence[RuleViolation]) -> list[RuleViolation]:
    """``violations`` with the running counts restated from what was typed (same codes,
    same fields; a refusal without a restatement is kept as it is)."""
    restated = []
    for violation in violations:
        reword = RESTATED.get(violation.code)
        better = reword(violation, document) if reword is not None else None
        restated.append(better or violation)
    return restated
