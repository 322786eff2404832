"""Valley of the Kings: the pyramid of six cards and how it crumbles (spec §4).

Slots ``B1 B2 B3`` (the base, left to right), ``M1 M2`` (middle) and ``T`` (apex), stored as a
list of six entries in that order; an entry is a card (a title id, or "?" for a card the table
did not name) or None when the slot is empty. ``M1`` rests on ``B1``/``B2``, ``M2`` on
``B2``/``B3``, ``T`` on ``M1``/``M2``.

* :func:`remove` empties a slot and settles it (§4 algorithm): the card above drops in; only an
  emptied ``B2`` with both middle cards present needs the active player's choice (SEED l.131).
* :func:`fall_targets` is where a card placed in ``T`` comes to rest (Mirror Case, §8).
* :func:`refill_order` lists the empty slots bottom-up, left to right within a row (§4
  "Refill"; the row order is a display choice, §16 #3).
* :func:`settled` is the crumble invariant every state must satisfy.

Pure functions on lists; a violation raises RuleViolation ``VK_CRUMBLE`` naming the move's
argument (spec §13).
"""

from __future__ import annotations

from typing import Any, Sequence

from ..base import N_, RuleViolation

SLOTS: tuple[str, ...] = ("B1", "B2", "B3", "M1", "M2", "T")
INDEX = {slot: i for i, slot in enumerate(SLOTS)}
BASE: tuple[str, ...] = ("B1", "B2", "B3")
ROWS: tuple[tuple[str, ...], ...] = (("B1", "B2", "B3"), ("M1", "M2"), ("T",))
FEEDERS: dict[str, tuple[str, ...]] = {       # §4 table: what may drop into an emptied slot
    "B1": ("M1",), "B2": ("M1", "M2"), "B3": ("M2",), "M1": ("T",), "M2": ("T",), "T": ()}
BELOW: dict[str, tuple[str, ...]] = {          # what a card rests on
    "B1": (), "B2": (), "B3": (), "M1": ("B1", "B2"), "M2": ("B2", "B3"), "T": ("M1", "M2")}
ROW_OF = {slot: r for r, row in enumerate(ROWS) for slot in row}
CRUMBLE = "VK_CRUMBLE"

Pyramid = list[Any]


def occupied(slots: Sequence[Any], slot: str) -> bool:
    return slots[INDEX[slot]] is not None


def count(slots: Sequence[Any]) -> int:
    return sum(1 for card in slots if card is not None)


def settled(slots: Sequence[Any]) -> bool:
    """The crumble invariant (§4): no card rests above an empty slot it could drop into."""
    return all(slots[INDEX[slot]] is None or all(slots[INDEX[b]] is not None for b in below)
               for slot, below in BELOW.items())


def drop_choices(slots: Sequence[Any], slot: str) -> tuple[str, ...]:
    """The cards that could drop into ``slot`` once it is emptied; two means a choice."""
    return tuple(s for s in FEEDERS[slot] if slots[INDEX[s]] is not None)


def choices_needed(slots: Sequence[Any]) -> dict[str, list[str]]:
    """Per occupied slot whose removal asks the active player which card drops (§4): only
    ``B2`` with both middle cards present."""
    return {slot: list(drop_choices(slots, slot)) for slot in SLOTS
            if slots[INDEX[slot]] is not None and len(drop_choices(slots, slot)) > 1}


def _crumble(field: str, message: str, **params: Any) -> RuleViolation:
    return RuleViolation(CRUMBLE, message, field, **params)


def remove(slots: Sequence[Any], slot: str, drop: str | None, field: str) -> Pyramid:
    """A copy of ``slots`` with ``slot`` emptied and settled (§4). ``drop`` names the card that
    drops into the emptied slot where two could (the active player's choice); naming one
    that cannot drop there is VK_CRUMBLE, as is leaving out a choice that is needed."""
    result = list(slots)
    result[INDEX[slot]] = None
    candidates = drop_choices(result, slot)
    if drop is not None and drop not in candidates:
        raise _crumble(field, N_("%(drop)s cannot drop into %(slot)s."), drop=drop, slot=slot)
    if len(candidates) > 1 and drop is None:
        raise _crumble(field, N_("Two cards could drop into %(slot)s: say which one "
                                 "(%(choices)s)."), slot=slot, choices=" / ".join(candidates))
    source = drop or (candidates[0] if candidates else None)
    while source is not None:
        result[INDEX[slot]] = result[INDEX[source]]
        result[INDEX[source]] = None
        slot = source
        candidates = drop_choices(result, slot)      # above B2 only T: never a second choice
        source = candidates[0] if candidates else None
    return result


def fall_targets(slots: Sequence[Any]) -> list[str]:
    """Where a card put on ``T`` may come to rest, falling through empty slots (Mirror Case,
    SEED l.287); empty when ``T`` is taken."""
    if slots[INDEX["T"]] is not None:
        return []
    targets: list[str] = []

    def fall(slot: str) -> None:
        empty_below = [b for b in BELOW[slot] if slots[INDEX[b]] is None]
        if not empty_below:
            if slot not in targets:
                targets.append(slot)
            return
        for below in empty_below:
            fall(below)

    fall("T")
    return sorted(targets, key=INDEX.__getitem__)


def place_falling(slots: Sequence[Any], card: Any, place: str | None, field: str) -> Pyramid:
    """A copy with ``card`` put on ``T`` and fallen to ``place`` (the active player's choice
    where two slots are open; §8 Mirror Case)."""
    targets = fall_targets(slots)
    if not targets:
        raise _crumble(field, N_("The apex is taken: nothing can be put on top."))
    if place is None and len(targets) > 1:
        raise _crumble(field, N_("The card could come to rest in %(choices)s: say where."),
                       choices=" / ".join(targets))
    place = place or targets[0]
    if place not in targets:
        raise _crumble(field, N_("A card put on top cannot come to rest in %(slot)s."),
                       slot=place)
    result = list(slots)
    result[INDEX[place]] = card
    return result


def refill_order(slots: Sequence[Any]) -> list[str]:
    """The empty slots in refill order: bottom row first, left to right (§4, §16 #3)."""
    return [slot for row in ROWS for slot in row if slots[INDEX[slot]] is None]


def refill_valid(slots: Sequence[Any], order: Sequence[str]) -> bool:
    """Whether filling ``order`` one by one always takes the lowest row with a gap (§4)."""
    current = list(slots)
    for slot in order:
        if slot not in INDEX or current[INDEX[slot]] is not None:
            return False
        lowest = min(ROW_OF[s] for s in refill_order(current))
        if ROW_OF[slot] != lowest:
            return False
        current[INDEX[slot]] = "x"
    return True


def picture(slots: Sequence[Any]) -> list[list[dict[str, Any]]]:
    """The pyramid as rows for a phone to draw, apex first (3-2-1 from the bottom)."""
    return [[{"slot": slot, "card": slots[INDEX[slot]]} for slot in row]
            for row in reversed(ROWS)]
