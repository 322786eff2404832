"""Ra scoring: the epoch scoring, the extra epoch-3 scoring, the floor and the winner.

Implements spec ra.md §5 (5.1 every epoch, 5.2 after epoch 3, 5.3 applying the points, 5.4 the
winner) with the options of §6.2 (`fame_floor_zero`, `epoch3_single_net`). Both score-only mode
and the live referee call :func:`score_game`, so one set of rules produces every Scoresheet.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

from ..base import Category, PlayerScore, Scoresheet, TieBreak, competition_ranks
from . import printed as t

# Reasons attached to categories (stable ids; the web layer labels them).
MOST = "most"
FEWEST = "fewest"
ALL_EQUAL = "all_equal"
NO_FLOOD = "no_flood"                   # §5.1: Niles and Floods score only with a Flood
NO_CIVILIZATION = "no_civilization"     # §5.1: no Civilization tile at all costs 5
FLOOR_AT_ZERO = "floor_at_zero"         # §5.3: fame never goes below 0
TIEBREAK_HIGHEST_SUN = "ra.highest_sun"  # §5.4


@dataclass(frozen=True)
class EpochHoldings:
    """What one player holds when an epoch is scored, after disasters (spec §5.1)."""

    gods: int = 0
    pharaohs: int = 0
    niles: int = 0
    floods: int = 0
    gold: int = 0
    civilizations: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class ScoringOptions:
    """The scoring flags of spec §6.2, with the seed edition's defaults."""

    fame_floor_zero: bool = True
    epoch3_single_net: bool = True


def most_fewest(values: Sequence[int], most: int, fewest: int) -> list[tuple[int, str | None]]:
    """Award ``most`` to every player tied for the highest value and ``fewest`` to every
    player tied for the lowest; if all values are equal nobody scores (spec §5.3, rule
    ALL_EQUAL). Returns (points, reason) per player."""
    high, low = max(values), min(values)
    if high == low:
        return [(0, ALL_EQUAL) for _ in values]
    return [(most, MOST) if v == high else (fewest, FEWEST) if v == low else (0, None)
            for v in values]


def civilization_points(civilizations: Mapping[str, int]) -> tuple[int, int]:
    """Points for one player's civilizations and the number of different kinds (§5.1)."""
    kinds = sum(1 for count in civilizations.values() if count > 0)
    return t.CIVILIZATION_POINTS[kinds], kinds


def river_points(niles: int, floods: int) -> int:
    """One point per Nile and per Flood, only when at least one Flood is held (§5.1)."""
    return (niles + floods) * t.POINTS_PER_RIVER_TILE if floods > 0 else 0


def monument_points(monuments: Mapping[str, int]) -> tuple[int, int, int]:
    """(kind points, set points, kinds held) for one player's monuments (§5.2)."""
    kinds = sum(1 for count in monuments.values() if count > 0)
    sets = sum(t.MONUMENT_SET_POINTS[count] for count in monuments.values())
    return t.MONUMENT_KIND_POINTS[kinds], sets, kinds


def epoch_categories(holdings: Sequence[EpochHoldings], epoch: int) -> list[list[Category]]:
    """The categories every epoch scores (§5.1), one list per player in seat order."""
    pharaohs = most_fewest([h.pharaohs for h in holdings], t.PHARAOHS_MOST, t.PHARAOHS_FEWEST)
    result = []
    for h, (pharaoh_points, pharaoh_reason) in zip(holdings, pharaohs):
        civ_points, civ_kinds = civilization_points(h.civilizations)
        result.append([
            Category("gods", h.gods * t.POINTS_PER_GOD, epoch, detail={"count": h.gods}),
            Category("pharaohs", pharaoh_points, epoch, pharaoh_reason,
                     {"count": h.pharaohs}),
            Category("river", river_points(h.niles, h.floods), epoch,
                     NO_FLOOD if h.floods == 0 and h.niles > 0 else None,
                     {"niles": h.niles, "floods": h.floods}),
            Category("civilizations", civ_points, epoch,
                     NO_CIVILIZATION if civ_kinds == 0 else None,
                     {"kinds": civ_kinds, "tiles": sum(h.civilizations.values())}),
            Category("gold", h.gold * t.POINTS_PER_GOLD, epoch, detail={"count": h.gold}),
        ])
    return result


def final_categories(monuments: Sequence[Mapping[str, int]], suns: Sequence[Sequence[int]],
                     epoch: int = t.EPOCHS) -> list[list[Category]]:
    """The extra categories scored after epoch 3: monuments and sun totals (§5.2)."""
    sun_totals = [sum(player_suns) for player_suns in suns]
    sun_awards = most_fewest(sun_totals, t.SUNS_MOST, t.SUNS_FEWEST)
    result = []
    for player_monuments, total, (sun_points, sun_reason) in zip(monuments, sun_totals,
                                                                  sun_awards):
        kind_points, set_points, kinds = monument_points(player_monuments)
        sets = {kind: n for kind, n in player_monuments.items() if n >= 3}
        result.append([
            Category("monument_kinds", kind_points, epoch, detail={"kinds": kinds}),
            Category("monument_sets", set_points, epoch, detail={"sets": sets}),
            Category("suns", sun_points, epoch, sun_reason, {"total": total}),
        ])
    return result


def apply_epoch(fame: int, normal: Sequence[Category], extra: Sequence[Category], epoch: int,
                options: ScoringOptions) -> tuple[int, list[Category]]:
    """New fame after an epoch and the categories that produced it, including the floor.

    §5.3 and §8 Q3: with ``epoch3_single_net`` the floor applies once to the epoch's whole
    net figure; without it, first to the normal categories and then again after monuments and
    suns. The floor shows as its own category so that the categories always add up to fame.
    """
    steps = [list(normal) + list(extra)] if options.epoch3_single_net else [list(normal),
                                                                          list(extra)]
    lifted = 0
    for step in steps:
        fame += sum(c.points for c in step)
        if options.fame_floor_zero and fame < 0:
            lifted += -fame
            fame = 0
    categories = list(normal) + list(extra)
    if lifted:
        categories.append(Category("floor", lifted, epoch, FLOOR_AT_ZERO))
    return fame, categories


def score_game(names: Sequence[str], epochs: Sequence[Sequence[EpochHoldings]],
               monuments: Sequence[Mapping[str, int]] | None = None,
               suns: Sequence[Sequence[int]] | None = None,
               options: ScoringOptions = ScoringOptions()) -> Scoresheet:
    """Score the epochs played so far (``epochs[e][p]``); after epoch 3 also monuments and
    suns, and decide the winner with the highest-sun tie-break (§5.4)."""
    count = len(names)
    complete = len(epochs) == t.EPOCHS
    if complete and (monuments is None or suns is None):
        raise ValueError("a finished game needs every player's monuments and suns")
    fame = [t.STARTING_FAME] * count
    categories: list[list[Category]] = [[Category("starting_fame", t.STARTING_FAME)]
                                        for _ in names]
    stage_totals: list[list[int]] = [[] for _ in names]
    for index, holdings in enumerate(epochs):
        epoch = index + 1
        normal = epoch_categories(holdings, epoch)
        extra = (final_categories(monuments, suns, epoch)  # type: ignore[arg-type]
                 if epoch == t.EPOCHS else [[] for _ in names])
        for p in range(count):
            fame[p], applied = apply_epoch(fame[p], normal[p], extra[p], epoch, options)
            categories[p].extend(applied)
            stage_totals[p].append(fame[p])

    highest_sun = [max(s) for s in suns] if complete and suns else [0] * count
    ranks = competition_ranks([(fame[p], highest_sun[p]) for p in range(count)])
    players = []
    for p in range(count):
        tied = complete and any(fame[q] == fame[p] for q in range(count) if q != p)
        players.append(PlayerScore(
            name=names[p], categories=tuple(categories[p]), total=fame[p], rank=ranks[p],
            tiebreak=TieBreak(TIEBREAK_HIGHEST_SUN, highest_sun[p]) if tied else None,
            stage_totals=tuple(stage_totals[p])))
    return Scoresheet("ra", tuple(players), complete)
