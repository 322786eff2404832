"""Pharaon final scoring: the gods' exact claim, the 26 nobles' formulas, the seven categories,
the winner and its ties, and the Traitor's scoring.

Implements spec shared/rules/pharaon.md:

* §5.1-§5.2 gods: all-or-nothing halves, exclusivity between the two gods of an area
  (``N_left + N_right ≤ count``), and the exact claim over the 32 subsets maximising the
  **total** with the noble points that depend on the claimed set (Scribes, Seer, a Diplomat
  copying either); ties keep the lower mask (:func:`best_gods`);
* §4.6 the noble formulas (:func:`noble_points`);
* §6.1 the seven categories in scorepad order (gods, nobles, Nile, what is left, artisans,
  tomb, the two tokens), Nile level 3 scoring 7 (Q1; option ``nile_top_cumulative`` for 10);
* §6.2 winner and ties: the Pharaoh-token holder among the tied, then most resources +
  offerings left, then shared (:func:`rank`);
* §7.7 the Traitor: every god whose space is occupied pays both halves, no conditions, no
  exclusivity; nobles score count × highest multiplier (6 when none); every tie goes to him.
  A finished solo game is won or lost: the player's line carries the goal (more points than
  the Traitor), reached with rank 1.

Score-only mode (final.py) and the live game (tallies.py) both build tallies and call
:func:`score_game`, so one set of rules produces every Scoresheet.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

from ..base import (Assumption, Category, Goal, PlayerScore, Scoresheet, TieBreak,
                    competition_ranks)
from . import printed as t

TRAITOR_RULE = "traitor_rule"          # reason: §7.7 applies to this line
GODS_UNKNOWN = "gods_unknown"          # reason: the gods are not entered yet (live, mid-game)
TOMB_UNKNOWN = "tomb_unknown"          # reason: the reached space's points are not entered yet
SOLO_GOAL = "pharaon.beat_the_traitor"  # the solo goal's key on the Scoresheet (§6.2, §7.7)


@dataclass(frozen=True)
class Half:
    threshold: int
    points: int


@dataclass(frozen=True)
class God:
    """God g of the board sits between areas[g] (half ``a``) and areas[g+1] (half ``b``)."""

    name: str
    a: Half
    b: Half

    @property
    def points(self) -> int:
        return self.a.points + self.b.points


@dataclass(frozen=True)
class Board:
    areas: tuple[str, ...]            # clockwise
    gods: tuple[God, ...] | None      # None: not entered yet (live tables only)


@dataclass(frozen=True)
class PlayerTally:
    """What a player (or the Traitor) holds at the end (the final-state document's entry)."""

    name: str
    nobles: tuple[int, ...] = ()
    scribe_areas: Mapping[int, str] = field(default_factory=dict)   # Scribe card -> area
    artisans: tuple[int, ...] = ()              # printed points of each artisan owned
    nile: tuple[int, ...] = (0, 0, 0, 0, 0)     # level of each track (printed.BASIC order)
    tomb_steps: int = 0
    tomb_points: int | None = 0                 # None: not entered yet (live, mid-game)
    basic: int = 0
    silver: int = 0
    offerings: Mapping[str, int] = field(default_factory=dict)   # class -> count
    pharaoh: bool = False
    first_player: bool = False
    traitor: bool = False
    traitor_gods: tuple[int, ...] = ()          # §7.7: gods whose column space is occupied
    traitor_multiplier: int | None = None       # §7.7: highest multiplier reached

    @property
    def offering_count(self) -> int:
        return sum(self.offerings.get(cls, 0) for cls in t.OFFERING_CLASSES)

    @property
    def leftovers(self) -> int:
        """Resource tokens (basic and silver) and offering tokens left: the 2nd tie-break."""
        return self.basic + self.silver + self.offering_count

    def god_counts(self) -> dict[str, int]:
        """What the conditions of each area count for this player (spec §5.1)."""
        return {"OFF": self.offering_count, "NOB": len(self.nobles),
                "ART": len(self.artisans), "NIL": sum(1 for level in self.nile if level >= 1),
                "TMB": self.tomb_steps}


# --------------------------------------------------------------------------------------------
# Nobles (spec §4.6)
# --------------------------------------------------------------------------------------------


# Each noble's (formula, base, step), looked up once: noble_points runs for every subset of
# gods the exact claim tries.
_NOBLE_TERMS: Mapping[int, tuple[str, int, int]] = {
    card: (noble.formula, noble.base, t.FORMULA_STEP.get(noble.formula, 0))
    for card, noble in t.NOBLES.items()}
_FIXED, _SCRIBE, _SEER = t.Formula.FIXED, t.Formula.SCRIBE, t.Formula.SEER


def noble_points(card: int, player: PlayerTally, board: Board, mask: int) -> int:
    """The end points of noble ``card`` for ``player`` when the gods in ``mask`` are claimed."""
    formula, base, step = _NOBLE_TERMS[card]       # KeyError for an unknown card, as NOBLES
    if formula is _FIXED:
        return base
    if formula is _SCRIBE:
        area = player.scribe_areas.get(card)
        if area is None:
            return base
        j = board.areas.index(area)      # the gods beside it: (j - 1) % 5 and j
        return base + step * ((mask >> (j - 1) % 5 & 1) + (mask >> j & 1))
    if formula is _SEER:
        return base + step * bin(mask).count("1")
    if formula == t.Formula.GENERAL:
        return base + step * player.pharaoh + step * player.first_player
    if formula == t.Formula.VIZIER:
        return base + step * len(player.nobles)
    if formula == t.Formula.PHYSICIAN:
        return base + step * len(set(player.artisans))
    if formula == t.Formula.SUPPLIER:
        return base + step * player.tomb_steps
    if formula == t.Formula.HIGH_PRIEST:
        return base + step * player.offering_count
    if formula == t.Formula.STEWARD:
        return base + step * sum(1 for level in player.nile if level >= t.NILE_TOP)
    if formula == t.Formula.TREASURER:
        return base + step * player.silver
    if formula == t.Formula.TEACHER:
        # basic tokens left; resource offerings count, silver and other offerings do not
        return base + step * (player.basic + player.offerings.get("resource", 0))
    if formula == t.Formula.DIPLOMAT:
        # the points of one other noble owned, the best one (0 with no other: unverified)
        others = [noble_points(other, player, board, mask) for other in player.nobles
                  if other != card]
        return max(others, default=0)
    return base


def nobles_total(player: PlayerTally, board: Board, mask: int) -> tuple[int, dict[str, int]]:
    """All the player's noble points with ``mask`` claimed, and each card's share."""
    shares = {str(card): noble_points(card, player, board, mask) for card in player.nobles}
    return sum(shares.values()), shares


# --------------------------------------------------------------------------------------------
# Gods (spec §5.2)
# --------------------------------------------------------------------------------------------


def feasible(board: Board, counts: Mapping[str, int], mask: int) -> bool:
    """Whether the gods in ``mask`` can all be claimed: in each area the claimed halves need
    disjoint elements, so their thresholds add up (exclusivity, spec §5.1)."""
    assert board.gods is not None
    for j, area in enumerate(board.areas):
        left, right = (j - 1) % 5, j
        need = 0
        if mask >> left & 1:
            need += board.gods[left].b.threshold
        if mask >> right & 1:
            need += board.gods[right].a.threshold
        if need > counts[area]:
            return False
    return True


def god_points(board: Board, mask: int) -> int:
    assert board.gods is not None
    return sum(board.gods[g].points for g in range(5) if mask >> g & 1)


# For each area's bit pattern (select, value): the set of the 32 masks m with
# m & select == value, as a 32-bit integer (bit m set).
_MATCHING: Mapping[tuple[int, int], int] = {
    (select, value): sum(1 << m for m in range(32) if m & select == value)
    for j in range(5) for select in (1 << (j - 1) % 5 | 1 << j,)
    for value in (0, 1 << (j - 1) % 5, 1 << j, select)}


def _feasible_set(board: Board, counts: Mapping[str, int]) -> int:
    """Every mask :func:`feasible` accepts, as a 32-bit integer (bit m for mask m): each
    area's condition involves only the two gods beside it, so the four ways of claiming
    them are tried once per area instead of once per mask."""
    assert board.gods is not None
    refused = 0
    for j, area in enumerate(board.areas):
        left, right = (j - 1) % 5, j
        need_left, need_right = board.gods[left].b.threshold, board.gods[right].a.threshold
        have = counts[area]
        select = 1 << left | 1 << right
        for with_left in (0, 1):
            for with_right in (0, 1):
                if need_left * with_left + need_right * with_right > have:
                    refused |= _MATCHING[(select, with_left << left | with_right << right)]
    return ~refused & 0xFFFFFFFF


def best_gods(board: Board, counts: Mapping[str, int],
              noble_bonus: Callable[[int], int] = lambda mask: 0) -> tuple[int, int]:
    """The exact claim of spec §5.2: (mask, value) maximising god points + ``noble_bonus``
    over the 32 subsets; ties keep the lower mask, for determinism."""
    allowed = _feasible_set(board, counts)
    assert board.gods is not None
    points = [god.points for god in board.gods]
    claimed = [0] * 32                   # god_points(board, mask), built up bit by bit
    for mask in range(1, 32):
        low = mask & -mask
        claimed[mask] = claimed[mask ^ low] + points[low.bit_length() - 1]
    best_mask, best_value = 0, None
    for mask in range(32):
        if not allowed >> mask & 1:
            continue                     # not feasible(board, counts, mask)
        value = claimed[mask] + noble_bonus(mask)
        if best_value is None or value > best_value:
            best_mask, best_value = mask, value
    assert best_value is not None          # the empty set is always feasible
    return best_mask, best_value


def mask_gods(mask: int) -> list[int]:
    return [g for g in range(5) if mask >> g & 1]


# --------------------------------------------------------------------------------------------
# Categories (spec §6.1, §7.7)
# --------------------------------------------------------------------------------------------


def nile_points(levels: Sequence[int], top_cumulative: bool = False) -> int:
    """Per track: level 2 scores 3, level 3 scores 7 (Q1; 10 with ``top_cumulative``)."""
    top = t.NILE_TOP_CUMULATIVE if top_cumulative else t.NILE_POINTS[t.NILE_TOP]
    return sum(top if level >= t.NILE_TOP else t.NILE_POINTS[level] for level in levels)


def leftover_points(player: PlayerTally) -> int:
    """1 per basic or silver token and per offering, +1 per +1 offering, +2 per +2 offering."""
    offerings = player.offerings
    return (player.basic + player.silver + player.offering_count
            + t.OFFERING_EXTRA_POINTS["P1"] * offerings.get("plus1", 0)
            + t.OFFERING_EXTRA_POINTS["P2"] * offerings.get("plus2", 0))


def player_categories(player: PlayerTally, board: Board, top_cumulative: bool = False
                      ) -> list[Category]:
    """The seven categories of one player (or the Traitor), in scorepad order."""
    if player.traitor:
        gods = _traitor_gods(player, board)
        multiplier = player.traitor_multiplier or t.TRAITOR_DEFAULT_MULTIPLIER
        nobles = Category("nobles", len(player.nobles) * multiplier, reason=TRAITOR_RULE,
                          detail={"cards": len(player.nobles), "multiplier": multiplier})
    elif board.gods is None:
        gods = Category("gods", 0, reason=GODS_UNKNOWN)
        total, shares = nobles_total(player, board, 0)
        nobles = Category("nobles", total, detail={"cards": shares})
    else:
        counts = player.god_counts()
        mask, _ = best_gods(board, counts, lambda m: nobles_total(player, board, m)[0])
        chosen = mask_gods(mask)
        gods = Category("gods", god_points(board, mask),
                        detail={"gods": [board.gods[g].name for g in chosen],
                                "indices": chosen})
        total, shares = nobles_total(player, board, mask)
        nobles = Category("nobles", total, detail={"cards": shares})
    tomb = (Category("tomb", player.tomb_points, detail={"steps": player.tomb_steps})
            if player.tomb_points is not None else
            Category("tomb", 0, reason=TOMB_UNKNOWN, detail={"steps": player.tomb_steps}))
    return [
        gods,
        nobles,
        Category("nile", nile_points(player.nile, top_cumulative),
                 detail={"levels": list(player.nile)}),
        Category("leftovers", leftover_points(player),
                 detail={"basic": player.basic, "silver": player.silver,
                         "offerings": {cls: player.offerings.get(cls, 0)
                                       for cls in t.OFFERING_CLASSES}}),
        Category("artisans", sum(player.artisans), detail={"cards": list(player.artisans)}),
        tomb,
        Category("tokens", t.PHARAOH_TOKEN_POINTS * player.pharaoh
                 + t.FIRST_PLAYER_TOKEN_POINTS * player.first_player,
                 detail={"pharaoh": player.pharaoh, "first_player": player.first_player}),
    ]


def _traitor_gods(player: PlayerTally, board: Board) -> Category:
    """§7.7: each god whose symbol space is occupied pays both halves; a god counts once."""
    chosen = sorted(set(player.traitor_gods))
    if board.gods is None:
        return Category("gods", 0, reason=GODS_UNKNOWN, detail={"indices": chosen})
    return Category("gods", sum(board.gods[g].points for g in chosen), reason=TRAITOR_RULE,
                    detail={"gods": [board.gods[g].name for g in chosen], "indices": chosen})


def rank(players: Sequence[PlayerTally], categories: Sequence[Sequence[Category]],
         complete: bool = True, assumed: Sequence[Assumption] = ()) -> Scoresheet:
    """Totals, ranks and tie-breaks (spec §6.2; solo §7.7: ties go to the Traitor)."""
    totals = [sum(c.points for c in lines) for lines in categories]
    solo = any(p.traitor for p in players)
    if solo:
        keys = [(totals[i], p.traitor) for i, p in enumerate(players)]
    else:
        keys = [(totals[i], p.pharaoh, p.leftovers) for i, p in enumerate(players)]
    ranks = competition_ranks(keys)
    scores = []
    for i, player in enumerate(players):
        tied = [j for j in range(len(players)) if totals[j] == totals[i]]
        tiebreak = None
        if len(tied) > 1:
            if solo:
                tiebreak = TieBreak(t.TIEBREAK_TRAITOR, player.traitor)
            elif any(players[j].pharaoh for j in tied):
                tiebreak = TieBreak(t.TIEBREAK_PHARAOH, player.pharaoh)
            else:
                tiebreak = TieBreak(t.TIEBREAK_LEFTOVERS, player.leftovers)
        goal = None
        if solo and complete and not player.traitor:
            # §7.7: a solo game is won or lost against the Traitor; a tie is his
            goal = Goal(SOLO_GOAL, t.SOLO_GOAL_LABEL, reached=ranks[i] == 1)
        scores.append(PlayerScore(name=player.name, categories=tuple(categories[i]),
                                  total=totals[i], rank=ranks[i], tiebreak=tiebreak,
                                  automated=player.traitor, goal=goal))
    return Scoresheet("pharaon", tuple(scores), complete, tuple(assumed))


def score_game(players: Sequence[PlayerTally], board: Board, *, top_cumulative: bool = False,
               complete: bool = True, assumed: Sequence[Assumption] = ()) -> Scoresheet:
    """Score every player (the Traitor last, when there is one)."""
    categories = [player_categories(p, board, top_cumulative) for p in players]
    return rank(players, categories, complete, assumed)
