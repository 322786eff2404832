"""Silver & Gold – Pyramids scoring: the scoring card's effects, the race, end scoring, winner.

Implements spec §6 (symbol effects on the scoring card, with their caps), §8 (the race for the
10 / 6 / 3 boxes, simultaneous claims by lowest card number) and §9 (end scoring and the tie
rule). Both score-only mode (:mod:`.final`) and the live game (:mod:`.result`) call
:func:`score_game`, so one set of rules produces every Scoresheet.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

from ..base import (Assumption, Category, PlayerScore, Scoresheet, TieBreak,
                    competition_ranks)
from . import printed as t

NONE_TICKED = "none_ticked"                       # §9: no skull ticked costs nothing
TIEBREAK_LOWEST_CARD = "pyramids.lowest_card"     # §9: lowest completed card number wins a tie
NO_CARD_RANK = t.CARD_COUNT + 1                   # §14 #10: a tied player without a card


# --------------------------------------------------------------------------------------------
# The scoring card during play (§6)
# --------------------------------------------------------------------------------------------


def tick_gem(count: int) -> int:
    """§6 gem: the next empty box; a full colour ignores further gems (S1)."""
    return min(t.GEM_BOXES, count + 1)


def tick_skull(count: int) -> int:
    """§6 skull: the next empty box; once all 10 are ticked further skulls are ignored (S5).

    The skull track is a counter of ticked boxes: the boxes are ticked left to right and the
    penalties never decrease (the edition values are checked so), so the ticked boxes are
    always the first ``count`` ones (spec §6, "this equals a counter")."""
    return min(t.SKULL_BOXES, count + 1)


def drink_potion(count: int) -> int:
    """§6 potion: erase the two ticked boxes with the largest penalties, fewer if fewer are
    ticked (S4); with non-decreasing penalties those are the last two, so the next skull
    re-ticks the first erased box (S7)."""
    return max(0, count - t.POTION_ERASES)


def worst_penalty(skulls: int, penalties: Sequence[int]) -> int:
    """§9: the penalty printed in the worst ticked box, 0 when none is ticked."""
    return penalties[skulls - 1] if skulls else 0


def race_claims(claimants: Iterable[tuple[int, int]], claimed: int) -> list[tuple[int, int]]:
    """§8 one colour in one step 4: ``claimants`` are (lowest card number completed this turn
    in the colour, seat), one entry per threshold crossed; ``claimed`` is how many of the
    colour's boxes are already taken. Returns (seat, box value) in claiming order: lowest card
    number first (rule RACE_LOWEST_NUMBER_FIRST, seed example R2), while boxes remain."""
    out = []
    for _, seat in sorted(claimants):
        if claimed >= len(t.RACE_BOXES):
            break                                   # R3: the colour is closed
        out.append((seat, t.RACE_BOXES[claimed]))
        claimed += 1
    return out


def thresholds_crossed(before: int, after: int) -> int:
    """§8: how many of the 2nd / 4th / 6th completions of a colour lie in (before, after] (R4:
    1 → 3 crosses only the 2nd)."""
    return sum(1 for threshold in t.RACE_THRESHOLDS if before < threshold <= after)


# --------------------------------------------------------------------------------------------
# End scoring (§9)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerTally:
    """One player's scoring card and completed cards at the end (spec §9, §11)."""

    name: str
    completed: tuple[tuple[int | None, str | None], ...] = ()   # (number, colour) per card
    torches: tuple[bool, ...] = (False,) * t.TORCH_BOXES
    race: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    red_gems: int = 0
    green_gems: int = 0
    worst_skull_penalty: int = 0
    completed_count: int | None = None     # §11 minimal variant: a count instead of the list
    lowest_completed: int | None = None    # §11 minimal variant: the lowest number

    @property
    def cards(self) -> int:
        return self.completed_count if self.completed_count is not None else len(self.completed)

    @property
    def lowest(self) -> int | None:
        """The lowest number among the completed cards (the tie-break value)."""
        if self.completed_count is not None:
            return self.lowest_completed
        numbers = [number for number, _ in self.completed if number is not None]
        return min(numbers) if numbers else None


def gem_points(red: int, green: int) -> tuple[int, int]:
    """§9 gems: (pairs, single gems); a pair is 1 red + 1 green worth 5, a leftover gem 1."""
    pairs = min(red, green)
    return pairs, red + green - 2 * pairs


def player_categories(player: PlayerTally) -> list[Category]:
    """The §9 categories of one player, in the score pad's order (§11)."""
    torches = sum(1 for ticked in player.torches if ticked)
    boxes = {colour: list(player.race.get(colour, ())) for colour in t.COLOURS}
    pairs, singles = gem_points(player.red_gems, player.green_gems)
    penalty = player.worst_skull_penalty
    return [
        Category("completed", t.POINTS_PER_COMPLETED * player.cards,
                 detail={"count": player.cards}),
        Category("torches", t.POINTS_PER_TORCH * torches,
                 detail={"rounds": [r + 1 for r, ticked in enumerate(player.torches) if ticked]}),
        Category("race", sum(sum(values) for values in boxes.values()),
                 detail={"boxes": boxes}),
        Category("gem_pairs", t.POINTS_PER_GEM_PAIR * pairs,
                 detail={"pairs": pairs, "red": player.red_gems, "green": player.green_gems}),
        Category("single_gems", t.POINTS_PER_SINGLE_GEM * singles, detail={"count": singles}),
        Category("skull", -penalty, reason=None if penalty else NONE_TICKED,
                 detail={"penalty": penalty}),
    ]


def score_game(players: Sequence[PlayerTally], complete: bool = True,
               assumed: Sequence[Assumption] = ()) -> Scoresheet:
    """The Scoresheet of a game: §9 totals; ties broken by the lowest completed card number
    (rule TIE_LOWEST_CARD); tied players none of whom completed a card share the rank (§14
    #10, rule TIE_STANDS_WITHOUT_CARDS), and a tied player without a card ranks behind one who
    has a card."""
    categories = [player_categories(player) for player in players]
    totals = [sum(c.points for c in cats) for cats in categories]
    lowest = [player.lowest for player in players]
    # higher key wins: total first, then the lower card number (no card: the worst number)
    keys = [(total, -(low if low is not None else NO_CARD_RANK))
            for total, low in zip(totals, lowest)]
    ranks = competition_ranks(keys)
    scores = []
    for p, player in enumerate(players):
        tied = complete and any(totals[q] == totals[p] for q in range(len(players)) if q != p)
        scores.append(PlayerScore(
            name=player.name, categories=tuple(categories[p]), total=totals[p], rank=ranks[p],
            tiebreak=TieBreak(TIEBREAK_LOWEST_CARD, lowest[p]) if tied else None))
    return Scoresheet("pyramids", tuple(scores), complete, tuple(assumed))
