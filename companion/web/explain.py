"""Refusals of the score form restated in the person's terms (issue 10).

Some checks of a final-state document count across many inputs and report the count where it
first passes a limit: Ra's "The box holds only 8 God tiles; this adds up to 9." names a running
count the person never typed (so do Imhotep's stones in play and Silver & Gold's 48 cards).
Here such a refusal is restated from what *was* typed: every entry that counts, by player, with
the total and the rule it breaks — "The box holds only 8 God tiles, but 9 are entered: Ana 3 ·
Bea 4 · Cyril 2." The field stays the same, so the message still sits beside the input where
the limit is passed.

The rules engines stay the judges (this module never decides whether a document is valid); it
only rewords, and a refusal it does not know is shown as the engine wrote it — as is one whose
count it cannot reproduce from the document. This knowledge of three games' documents belongs
in their final.py messages; it lives here because this issue's owner may not edit the rules.
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


def _whole(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _filled(items: Any) -> int:
    """How many entries of a list were filled in (blank items are skipped by the engine)."""
    return sum(1 for item in items if item not in (None, "")) if isinstance(items, list) else 0


def _imhotep_stones(violation: RuleViolation,
                    document: Mapping[str, Any]) -> RuleViolation | None:
    """Imhotep's stones in play: name each place the stones were entered, with its count."""
    from ..rules.imhotep import tables as imhotep

    players = [p for p in document.get("players") or [] if isinstance(p, Mapping)]
    sites = document.get("site_stones") if isinstance(document.get("site_stones"),
                                                       Mapping) else {}
    towers = sum(_filled(p.get("obelisk_towers")) for p in players)
    parts = [(gettext(imhotep.SITE_LABELS["pyramids"]), _whole(sites.get("pyramids"))),
             (gettext(imhotep.SITE_LABELS["temple"]), _whole(sites.get("temple"))),
             (gettext(imhotep.SITE_LABELS["burial_chamber"]),
              _filled(document.get("burial_chamber"))),
             (gettext(N_("Obelisk stones")), sum(_whole(p.get("obelisk")) for p in players)),
             (gettext(N_("Sleds")), sum(_whole(p.get("sled")) for p in players)),
             (gettext(N_("Towers (%(stones)d stones each)"),
                      stones=imhotep.OBELISK_B_TOWER_STONES),
              towers * imhotep.OBELISK_B_TOWER_STONES)]
    count = sum(amount for _, amount in parts)
    if count != violation.params.get("count"):
        return None                  # counted differently from the engine: keep its words
    return RuleViolation(violation.code, N_(
        "%(players)d players have only %(limit)d stones to play with, but the stones entered "
        "come to %(count)d: %(entries)s."), violation.field, **{
        **violation.params, "entries": " · ".join(f"{label} {amount}" for label, amount
                                                  in parts if amount)})


def _pyramids_cards(violation: RuleViolation,
                    document: Mapping[str, Any]) -> RuleViolation | None:
    """Silver & Gold's 48 cards: the completed cards entered, player by player."""
    entries, count = [], 0
    for index, player in enumerate(document.get("players") or []):
        if not isinstance(player, Mapping):
            continue
        cards = player.get("completed")
        held = len(cards) if isinstance(cards, list) else _whole(player.get("completed_count"))
        count += held
        if held:
            entries.append(f"{_player_name(document, index)} {held}")
    if count != violation.params.get("count"):
        return None
    return RuleViolation(violation.code, N_(
        "There are only 48 pyramid cards, but %(count)d are entered as completed: "
        "%(entries)s."), violation.field, **{**violation.params,
                                             "entries": " · ".join(entries)})


RESTATED: Mapping[str, Callable[[RuleViolation, Mapping[str, Any]], RuleViolation | None]] = {
    "ra.too_many_tiles": _ra_box,
    "imhotep.too_many_stones_in_play": _imhotep_stones,
    "pyramids.too_many_cards": _pyramids_cards,
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
