"""Pharaon's payment model: declared tokens, cost patterns, the one-token deduction, and the
cheapest legal declaration for an action.

Implements spec shared/rules/pharaon.md §4.2 (payment model) and the cost column of §4.3:

* every token spent is **declared** as one basic kind (:func:`declarable_kinds`): a basic token
  or resource offering as its own kind or its Scribe partner; silver as any kind; an area
  offering as any kind, only in its own area; point offerings never (``PH_E_NOT_SPENDABLE``,
  unless the table's option Q12 says otherwise);
* the **entry** token is declared as the colour facing the area, or — with a noble 7-10 of that
  area — as its own colour (:func:`entry_kinds`);
* **deduction** (:func:`cost_problem`): the entry counts as one unit of the action cost exactly
  when the chosen filling of the cost pattern asks for the entry's declared kind; only that one
  token is deducted (the cumulative reading of GAMESFANATIC is rejected); silver laid as kind e
  stays e. Missing units are ``PH_E_COST_UNMET``, extra ones ``PH_E_OVERPAID`` (Q13);
* :func:`propose_payment`: the cheapest legal declaration for an action, which the phone shows
  and lets the player change.

Pure data in, pure data out: holdings are ``{token code: count}`` (printed.TOKENS).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from enum import StrEnum
from typing import Any, Iterable, Mapping, Sequence

from . import printed as t


class PatternKind(StrEnum):
    """The shapes of an action cost (spec §4.3 "Action cost pattern")."""

    FIXED = "fixed"          # NIL, TMB: the printed multiset of kinds
    SAME = "same"            # ART (3), OFF (1, or 2 with the bonus): n units of one kind x
    DISTINCT = "distinct"    # NOB: 5 units of 5 different kinds
    ANY = "any"              # NOB with the Judge (noble 11, Q2): any 5 units


@dataclass(frozen=True)
class Pattern:
    kind: PatternKind
    size: int
    units: tuple[str, ...] = ()          # FIXED only

    def fillings(self) -> list[Counter]:
        """Every admissible filling (multiset of kinds); ANY has too many and is special."""
        if self.kind == PatternKind.FIXED:
            return [Counter(self.units)]
        if self.kind == PatternKind.SAME:
            return [Counter({x: self.size}) for x in t.BASIC]
        if self.kind == PatternKind.DISTINCT:
            return [Counter(t.BASIC)]
        raise ValueError("ANY has no finite list of fillings")


def area_pattern(area: str, *, bonus: bool = False, judge: bool = False,
                 fixed: Sequence[str] = ()) -> Pattern:
    """The action-cost pattern of an area (spec §4.3); ``fixed`` is the printed cost of the
    chosen Nile action or of the next tomb space."""
    if area == "OFF":
        return Pattern(PatternKind.SAME, 2 if bonus else 1)
    if area == "NOB":
        return Pattern(PatternKind.ANY if judge else PatternKind.DISTINCT, 5)
    if area == "ART":
        return Pattern(PatternKind.SAME, 3)
    return Pattern(PatternKind.FIXED, len(fixed), tuple(fixed))


@dataclass(frozen=True)
class PayContext:
    """What decides which declarations are legal for one action."""

    area: str
    entry_colour: str                            # the colour facing the area this round
    partners: Mapping[str, frozenset[str]]       # Scribe partners of each basic kind owned
    own_colour_entry: bool = False               # a noble 7-10 of this area is owned
    point_offerings_spendable: bool = False      # option Q12


def scribe_partners(pairs: Iterable[Sequence[str]]) -> dict[str, frozenset[str]]:
    """Each basic kind's partners under the Scribes owned (spec §4.6, cards 1-5)."""
    partners: dict[str, set[str]] = {}
    for first, second in pairs:
        partners.setdefault(first, set()).add(second)
        partners.setdefault(second, set()).add(first)
    return {kind: frozenset(others) for kind, others in partners.items()}


def token_colour(token: str) -> str | None:
    """The basic kind a basic token or a resource offering is (None for the others)."""
    if token in t.BASIC:
        return token
    if token.startswith("R-"):
        return token[2:]
    return None


def declarable_kinds(token: str, ctx: PayContext) -> tuple[str, ...]:
    """The kinds ``token`` may be declared as while paying in ``ctx.area`` (spec §4.2)."""
    colour = token_colour(token)
    if colour is not None:
        return (colour,) + tuple(sorted(ctx.partners.get(colour, ())))
    if token == t.SILVER:
        return t.BASIC
    if token.startswith("A-"):
        return t.BASIC if token[2:] == ctx.area else ()
    if token in t.POINT_OFFERINGS and ctx.point_offerings_spendable:
        return t.BASIC
    return ()


def entry_kinds(token: str, ctx: PayContext) -> tuple[str, ...]:
    """The kinds ``token`` may be declared as when laid on the wheel as the entry: the facing
    colour when it can be declared so; with a noble 7-10 of the area, also any basic token as
    its own colour (spec §4.2 "Exception for nobles 7-10")."""
    kinds = []
    if ctx.entry_colour in declarable_kinds(token, ctx):
        kinds.append(ctx.entry_colour)
    colour = token_colour(token)
    if ctx.own_colour_entry and colour is not None and colour not in kinds:
        kinds.append(colour)
    return tuple(kinds)


# --------------------------------------------------------------------------------------------
# The cost check (spec §4.2 "Validation")
# --------------------------------------------------------------------------------------------


class CostVerdict(StrEnum):
    UNMET = "PH_E_COST_UNMET"
    OVERPAID = "PH_E_OVERPAID"


def _needed(filling: Counter, entry_kind: str) -> Counter:
    """The units still to pay for ``filling`` after the entry's deduction: the entry counts
    as one unit exactly when the filling asks for its declared kind (spec §4.2)."""
    needed = Counter(filling)
    if needed[entry_kind] > 0:
        needed[entry_kind] -= 1
    return +needed


@lru_cache(maxsize=512)
def _needs(pattern: Pattern, entry_kind: str) -> tuple[dict[str, int], ...]:
    """:func:`_needed` of every filling of ``pattern`` as plain dicts of positive counts, in
    the fillings' order (computed once per pattern and entry kind; never changed)."""
    return tuple(dict(_needed(filling, entry_kind)) for filling in pattern.fillings())


def cost_problem(pattern: Pattern, entry_kind: str, units: Sequence[str]
                 ) -> tuple[CostVerdict, dict[str, int]] | None:
    """None when the declared ``units`` plus the deducted entry fill the pattern exactly;
    else (UNMET, missing kinds) or (OVERPAID, extra kinds) for the nearest filling."""
    paid: dict[str, int] = {}
    for unit in units:
        paid[unit] = paid.get(unit, 0) + 1
    if pattern.kind == PatternKind.ANY:
        size = pattern.size
        if len(units) == size - 1 or (len(units) == size and paid.get(entry_kind, 0) == 0):
            return None
        if len(units) < size - 1:
            return CostVerdict.UNMET, {"any": size - 1 - len(units)}
        return CostVerdict.OVERPAID, {"any": len(units) - (size - 1)}
    best: tuple[int, dict[str, int], dict[str, int]] | None = None
    for needed in _needs(pattern, entry_kind):
        if needed == paid:             # both hold positive counts only (as Counters would)
            return None
        # Counter subtraction: the kinds in the left operand's order, positive counts only
        missing = {k: n - paid.get(k, 0) for k, n in needed.items() if n > paid.get(k, 0)}
        extra = {k: n - needed.get(k, 0) for k, n in paid.items() if n > needed.get(k, 0)}
        distance = sum(missing.values()) + sum(extra.values())
        if best is None or distance < best[0]:
            best = (distance, missing, extra)
    assert best is not None
    _, missing, extra = best
    if missing:
        return CostVerdict.UNMET, missing
    return CostVerdict.OVERPAID, extra


# --------------------------------------------------------------------------------------------
# The cheapest legal declaration (issue 14 item 3: the phone proposes it)
# --------------------------------------------------------------------------------------------

# How dear each way of spending a token is. Every token left scores 1 point at the end, so the
# fewest tokens come first (each weighs about 20); then keep the most flexible ones: basic
# tokens of the asked kind first, then via a Scribe, then an area offering (good only here),
# then resource offerings (they also count for the Offerings god and the High Priest), and
# silver, the universal joker, last.
_WEIGHT_BASIC, _WEIGHT_SCRIBE, _WEIGHT_AREA, _WEIGHT_RESOURCE, _WEIGHT_SILVER = 20, 21, 22, 24, 26
_WEIGHT_POINT = 40


def spend_weight(token: str, kind: str) -> int:
    """How dear it is to spend ``token`` declared as ``kind`` (lower is cheaper)."""
    colour = token_colour(token)
    if token in t.BASIC:
        return _WEIGHT_BASIC if colour == kind else _WEIGHT_SCRIBE
    if colour is not None:
        return _WEIGHT_RESOURCE + (0 if colour == kind else 1)
    if token.startswith("A-"):
        return _WEIGHT_AREA
    if token == t.SILVER:
        return _WEIGHT_SILVER
    return _WEIGHT_POINT


def _assign(units: Sequence[str], holdings: Mapping[str, int], ctx: PayContext
            ) -> tuple[int, list[tuple[str, str]]] | None:
    """The cheapest tokens for ``units`` (a list of kinds), or None: a small exact search
    (at most 5 units), trying the cheapest token first and pruning dearer branches."""
    options: dict[str, list[str]] = {}
    for kind in set(units):
        usable = [tok for tok, n in holdings.items()
                  if n > 0 and kind in declarable_kinds(tok, ctx)]
        options[kind] = sorted(usable, key=lambda tok: (spend_weight(tok, kind), tok))
    order = sorted(units, key=lambda kind: (len(options[kind]), kind))
    left = dict(holdings)
    best: list[Any] = [None, None]
    chosen: list[tuple[str, str]] = []

    def walk(index: int, cost: int, floor: int) -> None:
        if best[0] is not None and cost >= best[0]:
            return
        if index == len(order):
            best[0], best[1] = cost, list(chosen)
            return
        kind = order[index]
        # identical units take tokens in non-decreasing option order (no permutations)
        start = floor if index > 0 and order[index - 1] == kind else 0
        for position in range(start, len(options[kind])):
            token = options[kind][position]
            if left[token] <= 0:
                continue
            left[token] -= 1
            chosen.append((token, kind))
            walk(index + 1, cost + spend_weight(token, kind), position)
            chosen.pop()
            left[token] += 1

    walk(0, 0, 0)
    if best[0] is None:
        return None
    return best[0], best[1]


def _candidate_needs(pattern: Pattern, entry_kind: str) -> list[list[str]]:
    if pattern.kind == PatternKind.ANY:
        return []
    return [sorted(_needed(filling, entry_kind).elements()) for filling in pattern.fillings()]


def _any_units(holdings: Mapping[str, int], count: int, ctx: PayContext
               ) -> tuple[int, list[tuple[str, str]]] | None:
    """The cheapest ``count`` tokens for an ANY pattern (the Judge), each declared as its
    cheapest kind: with the entry deducted, any four units fill the five (spec §4.2)."""
    pool = []
    for token, n in holdings.items():
        kinds = [k for k in declarable_kinds(token, ctx)]
        if not kinds or n <= 0:
            continue
        kind = min(kinds, key=lambda k: spend_weight(token, k))
        pool += [(spend_weight(token, kind), token, kind)] * n
    pool.sort()
    if len(pool) < count:
        return None
    picked = pool[:count]
    return sum(w for w, _, _ in picked), [(tok, kind) for _, tok, kind in picked]


def propose_payment(holdings: Mapping[str, int], ctx: PayContext, pattern: Pattern
                    ) -> dict[str, Any] | None:
    """The cheapest legal declaration ``{"entry": {token, as}, "pay": [{token, as}, ...]}``
    for an action with this cost pattern, or None when the holdings cannot pay it."""
    best: tuple[int, str, str, list[tuple[str, str]]] | None = None
    for entry_token in sorted(holdings):
        if holdings[entry_token] <= 0:
            continue
        for kind in entry_kinds(entry_token, ctx):
            rest = dict(holdings)
            rest[entry_token] -= 1
            entry_cost = spend_weight(entry_token, kind)
            if pattern.kind == PatternKind.ANY:
                found = _any_units(rest, pattern.size - 1, ctx)
                candidates = [found] if found else []
            else:
                candidates = [found for need in _candidate_needs(pattern, kind)
                              if (found := _assign(need, rest, ctx)) is not None]
            for cost, chosen in candidates:
                total = entry_cost + cost
                if best is None or total < best[0]:
                    best = (total, entry_token, kind, chosen)
    if best is None:
        return None
    _, entry_token, kind, chosen = best
    return {"entry": {"token": entry_token, "as": kind},
            "pay": [{"token": token, "as": as_kind} for token, as_kind in chosen]}
