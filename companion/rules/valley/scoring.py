"""Valley of the Kings scoring: tombs to a Scoresheet.

Spec §10 (only the tomb scores: starters and uniques by their printed VP, each scoring group
the square of its distinct titles; the tie goes to fewer tomb cards, then it is shared), §12
(solo: a set title held twice counts for neither; the win is the perfect tomb, decided by its
contents, with 164 as a cross-check of the entered VPs for Afterlife).

Both score-only mode (final.py) and the live table's tombs (tombs.py) build :class:`PlayerTomb`
entries and call :func:`score_tombs`, so one set of rules produces every Scoresheet.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

from ..base import (Assumption, Category, Goal, PlayerScore, Scoresheet, TieBreak,
                    competition_ranks)
from . import printed as t
from .pools import Pool, PoolId, perfect_tomb

# Reasons attached to categories (stable ids; labelled by printed.REASON_LABELS).
SOLO_PAIRS_EXCLUDED = "solo_pairs_excluded"    # §12.1 both copies held: neither counts
PERFECT = "perfect"                            # §12.2 the solo win
NOT_PERFECT = "not_perfect"
VP_CHECK_FAILED = "vp_check_failed"            # §12.3 164 cross-check (a warning only)
SOLO_GOAL = "valley.perfect_tomb"   # the solo goal's key on the Scoresheet (§12.2)
SOLO_LOSS_RANK = 2     # a solo player short of the perfect tomb has not won (§12.2)


@dataclass(frozen=True)
class PlayerTomb:
    """What one tomb holds, as the score pad asks for it (§14)."""

    name: str
    tomb_cards: int                          # every card, duplicates included (tie-break)
    starters: Mapping[str, int]              # starter id -> cards
    uniques: tuple[tuple[str, int], ...]     # (title as entered, printed VP)
    distinct: Mapping[str, int]              # group id -> distinct titles (solo: held once)
    solo_pairs: Mapping[str, int] = field(default_factory=dict)   # group -> titles held twice


def distinct_titles(titles: Iterable[str], group_of_title: Mapping[str, str | None],
                    solo: bool) -> tuple[dict[str, int], dict[str, int]]:
    """Distinct titles per group of a tomb's set cards (§10), and per group the titles held
    twice. Solo (§12.1): only titles held in exactly one copy count."""
    copies = Counter(titles)
    distinct: dict[str, int] = {}
    pairs: dict[str, int] = {}
    for title, count in copies.items():
        group = group_of_title.get(title)
        if group is None:
            continue
        if solo and count > 1:
            pairs[group] = pairs.get(group, 0) + 1       # SEED l.369: "nepočítejte ani jednu"
            continue
        distinct[group] = distinct.get(group, 0) + 1
    return distinct, pairs


def is_perfect(tomb: PlayerTomb, pool: Pool) -> bool:
    """§12.2 decided by contents, never by the number: every title of every group exactly
    once, every unique in play, the ten starters, and nothing else."""
    goal = perfect_tomb(pool)
    return (all(tomb.distinct.get(g, 0) == n for g, n in goal["groups"].items())
            and not any(tomb.solo_pairs.values())
            and len(tomb.uniques) == goal["uniques"]
            and all(tomb.starters.get(s, 0) == n for s, n in goal["starters"].items())
            and tomb.tomb_cards == goal["cards"])


def player_categories(tomb: PlayerTomb, pool: Pool, starter_vp: Mapping[str, int],
                      solo: bool) -> list[Category]:
    """The score pad's lines for one tomb (§14): four starters, the uniques, each group."""
    categories = []
    for starter in t.STARTERS:
        count = tomb.starters.get(starter, 0)
        categories.append(Category(starter, count * starter_vp[starter],
                                   detail={"cards": count, "vp": starter_vp[starter]}))
    categories.append(Category("uniques", sum(vp for _, vp in tomb.uniques),
                               detail={"cards": [{"title": title, "vp": vp}
                                                 for title, vp in tomb.uniques]}))
    for group in pool.groups:
        distinct = tomb.distinct.get(group.id, 0)
        pairs = tomb.solo_pairs.get(group.id, 0)
        detail = {"distinct": distinct, "of": group.size}
        if pairs:
            detail["pairs"] = pairs
        categories.append(Category(group.id, t.group_points(distinct),
                                   reason=SOLO_PAIRS_EXCLUDED if solo and pairs else None,
                                   detail=detail))
    return categories


def solo_goal(tomb: PlayerTomb, pool: Pool, categories: Sequence[Category]) -> Category:
    """§12.2-§12.3: whether the tomb is perfect; for Afterlife the uniques must then add up
    to 19 (164 in all) or the entered VPs are suspect (a warning, never an error)."""
    perfect = is_perfect(tomb, pool)
    total = sum(c.points for c in categories)
    detail: dict[str, object] = {"official": pool.id is PoolId.AFTERLIFE, "total": total}
    reason = PERFECT if perfect else NOT_PERFECT
    if pool.id is PoolId.AFTERLIFE:
        detail["expected_unique_vp"] = t.AFTERLIFE_UNIQUE_VP_TOTAL
        if perfect and sum(vp for _, vp in tomb.uniques) != t.AFTERLIFE_UNIQUE_VP_TOTAL:
            reason = VP_CHECK_FAILED
    return Category("solo_goal", 0, reason=reason, detail=detail)


def perfect_score(pool: Pool, starter_vp: Mapping[str, int]) -> int | None:
    """The VP of the perfect solo tomb (§12.2-§12.3: 164 for Afterlife, SEED l.373), where the
    uniques' printed VPs are known (Afterlife's uniques only); else None."""
    if pool.unique_boxes != (t.Box.AFTERLIFE,):
        return None
    return (sum(g.size ** 2 for g in pool.groups) + t.AFTERLIFE_UNIQUE_VP_TOTAL
            + sum(vp * t.STARTERS_PER_PLAYER[s] for s, vp in starter_vp.items()))


def score_tombs(tombs: Sequence[PlayerTomb], pool: Pool, starter_vp: Mapping[str, int],
                solo: bool, complete: bool = True,
                assumed: Sequence[Assumption] = ()) -> Scoresheet:
    """Totals, ranks and tie-breaks (§10): most VP; a tie goes to fewer tomb cards
    (SEED l.223); still tied, the players share the rank (§16 #10). Solo (§12.2): the player
    wins (rank 1) only with the perfect tomb."""
    categories = [player_categories(tomb, pool, starter_vp, solo) for tomb in tombs]
    if solo:
        categories = [cats + [solo_goal(tomb, pool, cats)]
                      for tomb, cats in zip(tombs, categories)]
    totals = [sum(c.points for c in cats) for cats in categories]
    ranks = competition_ranks([(total, -tomb.tomb_cards) for total, tomb in zip(totals, tombs)])
    players = []
    for index, tomb in enumerate(tombs):
        # the tie-break is this player's only where it separated them from another player
        # on the same total (equal tomb cards too: the rank is shared, nothing was broken)
        tied = any(totals[other] == totals[index]
                   and tombs[other].tomb_cards != tomb.tomb_cards
                   for other in range(len(tombs)) if other != index)
        rank = ranks[index]
        goal = None
        if solo:
            goal = Goal(SOLO_GOAL, t.REASON_LABELS[PERFECT],
                        reached=categories[index][-1].reason != NOT_PERFECT,
                        target=perfect_score(pool, starter_vp))
            if not goal.reached:
                rank = SOLO_LOSS_RANK
        players.append(PlayerScore(
            name=tomb.name, categories=tuple(categories[index]), total=totals[index],
            rank=rank,
            tiebreak=TieBreak(t.TIEBREAK_FEWER_TOMB_CARDS, tomb.tomb_cards) if tied else None,
            goal=goal))
    return Scoresheet("valley", tuple(players), complete, tuple(assumed))


def starter_assumption(tombs: Sequence[PlayerTomb], starter_vp: Mapping[str, int],
                       confirmed: Iterable[str]) -> list[Assumption]:
    """The starter VPs this result relied on at an unconfirmed default (spec §2.7: "confirm
    once per copy"); empty when no tomb holds such a starter."""
    confirmed = set(confirmed) | t.STARTER_VP_VERIFIED
    relied = sorted({s for tomb in tombs for s, n in tomb.starters.items()
                     if n and s not in confirmed}, key=t.STARTERS.index)
    if not relied:
        return []
    return [Assumption("starter_vp", t.EDITION_LABELS["starter_vp"],
                       {s: starter_vp[s] for s in relied})]
